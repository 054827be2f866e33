"""Hypothesis strategies of good and bad arguments, by argument kind, for test_bad_inputs.

Each ``SLOTS[kind](device)`` is a strategy mixing valid values of that kind with values of
the wrong type, None, nested lists of mixed kinds, wrong dtypes, out-of-range and repeated
axes, negative sizes, arrays of every dtype (0-d, empty and small), and, where ``device``
is a CUDA device, arrays on the CPU to mix with it. Sizes stay small: nothing allocates much.
"""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st

import xpgpu as xp
from xpgpu import _devices

DTYPES = (xp.bool, xp.int8, xp.int16, xp.int32, xp.int64, xp.uint8, xp.uint16, xp.uint32,
          xp.uint64, xp.float32, xp.float64, xp.complex64, xp.complex128)
SHAPES = ((), (0,), (1,), (3,), (2, 3), (3, 3), (0, 3), (3, 0), (2, 0, 2), (1, 2, 3),
          (2, 2, 2), (2, 3, 3))
HUGE = (2**63, 2**64, -(2**63) - 1, 2**70)

_BAD_OBJECTS = (
    None, "abc", "", b"x", 1.5, [1, 2], [[1, 2], [3]], [1, "a"], [1, None], [[1], 2.5j],
    [[]], (1, 2), {}, {1: 2}, object(), np.float64(1.0), np.int64(1), np.bool_(True),
    np.ones(2), np.array(1), np.array(["a", "b"]), np.ones(2, dtype=np.float16),
    np.array([1, None], dtype=object), xp.float32, np.dtype("float32"), slice(1), ...,
    True, 0, -1, 2**70, float("nan"), complex(1, 1), int, float, set(), range(3),
)
bad_object = st.sampled_from(_BAD_OBJECTS)


@st.composite
def _array(draw, device):
    dtype = draw(st.sampled_from(DTYPES))
    shape = draw(st.sampled_from(SHAPES))
    seed = draw(st.integers(0, 2**16))
    rng = np.random.default_rng(seed)
    values = rng.integers(-3, 4, size=shape)
    if dtype is xp.bool:
        data = values > 0
    elif dtype in (xp.float32, xp.float64, xp.complex64, xp.complex128):
        data = values.astype(np.dtype(dtype)) / 2
        if data.size and draw(st.booleans()):
            data.flat[0] = draw(st.sampled_from([np.nan, np.inf, -np.inf, -0.0]))
        if dtype in (xp.complex64, xp.complex128):
            data = data + 1j * rng.integers(-3, 4, size=shape)
    else:
        data = np.abs(values) if dtype.name.startswith("uint") else values
    target = device
    if device is not _devices.CPU and draw(st.integers(0, 4)) == 0:
        target = _devices.CPU  # another device: must raise, never compute
    return xp.asarray(np.asarray(data, dtype=np.dtype(dtype)), device=target)


def good_array(device):
    return _array(device)


def array(device):
    return st.one_of(_array(device), _array(device), _array(device), bad_object)


def scalar(device):
    return st.one_of(
        st.integers(-4, 4), st.booleans(),
        st.sampled_from([0.5, -1.5, float("nan"), float("inf"), -0.0, 1j, 2 - 1j]),
        st.sampled_from(HUGE), _array(device), _array(device), bad_object)


def axis(device):
    return st.one_of(st.integers(-4, 4), st.integers(-4, 4), st.none(),
                     st.sampled_from([1.0, True, "0", np.int64(1), [0, 1], 2**70, -(2**70)]),
                     _array(device))


def axes(device):
    return st.one_of(axis(device), st.tuples(), st.lists(st.integers(-4, 4), max_size=3).map(tuple),
                     st.tuples(st.integers(-4, 4), st.sampled_from([None, 1.0, "a", 2**70])))


def integer(device):
    return st.one_of(st.integers(-4, 6), st.integers(-4, 6),
                     st.sampled_from([None, 1.5, True, "3", np.int64(2), np.uint8(2),
                                      *HUGE, -(2**70)]),
                     _array(device))


def flag(device):
    return st.one_of(st.booleans(), st.booleans(),
                     st.sampled_from([None, 0, 1, "True", np.bool_(True), 1.0]))


def dtype(device):
    return st.one_of(
        st.sampled_from(DTYPES), st.sampled_from(DTYPES),
        st.sampled_from([None, np.dtype("float32"), np.dtype("int64"), np.dtype("float16"),
                         np.dtype("U3"), np.dtype("O"), np.dtype("datetime64[s]"),
                         np.dtype(">f8"), "float32", float, int, bool, complex, np.float32,
                         3, xp.Array, "cpu"]))


def device_arg(device):
    return st.sampled_from([device, _devices.CPU, "cpu", str(device), "cuda:7", "gpu", "cuda:x",
                            None, 0, 1.5, b"cpu", np.float32])


def shape(device):
    dim = st.integers(-3, 4)
    return st.one_of(
        dim, st.lists(dim, max_size=3).map(tuple), st.lists(dim, max_size=3),
        st.sampled_from([None, 1.5, (2, None), (2**70,), (2**64, 0), ((2,),), (True,),
                         np.int64(2), (np.int64(2), 3), "3", (1.0, 2), (-1,), (-1, -1)]),
        _array(device))


def text(choices):
    def strategy(device):
        return st.one_of(st.sampled_from(choices), st.sampled_from(choices),
                         st.sampled_from([None, "", "bogus", 3, b"left", choices[0].upper()]))
    return strategy


def arrays(device):
    return st.one_of(st.lists(array(device), max_size=3),
                     st.lists(array(device), max_size=3).map(tuple),
                     st.lists(_array(device), min_size=1, max_size=3).map(tuple),
                     _array(device), bad_object)


def float_arg(device):
    return st.one_of(st.sampled_from([0.0, 1.0, -1.0, 0.5, 1e-3, float("nan"), float("inf"),
                                      -float("inf"), 2, 1j, None, "1", True, *HUGE]),
                     _array(device))


def ord_arg(device):
    return st.one_of(st.sampled_from([None, 1, 2, -1, -2, 0, 3, 0.5, float("inf"),
                                      -float("inf"), "fro", "nuc", "bogus", True, 1j]),
                     _array(device))


def _index_atom(device):
    i = st.one_of(st.none(), st.integers(-5, 5))
    return st.one_of(
        st.integers(-5, 5), st.builds(slice, i, i, i), st.none(), st.just(...),
        st.sampled_from([1.5, "a", [0, 1], [True], True, False, 2**70, np.int64(1),
                         slice(0, 2.5), slice("a")]),
        _array(device))


def index(device):
    atom = _index_atom(device)
    return st.one_of(atom, st.lists(atom, max_size=4).map(tuple))


def anything(device):
    return st.one_of(bad_object, _array(device), st.integers(-4, 4), st.sampled_from(HUGE))


def callable_arg(device):
    return st.sampled_from([None, 3, "f", lambda x: x + 1, lambda x, y: x * y, abs, xp.sin])


SLOTS = {
    "array": array, "self": good_array, "scalar": scalar, "axis": axis, "axes": axes,
    "int": integer, "bool": flag, "dtype": dtype, "device": device_arg, "shape": shape,
    "arrays": arrays, "float": float_arg, "ord": ord_arg, "index": index,
    "any": anything, "callable": callable_arg,
    "side": text(["left", "right"]), "norm": text(["backward", "ortho", "forward"]),
    "mode": text(["reduced", "complete"]), "indexing": text(["xy", "ij"]),
    "version": text(["2025.12", "2024.12", "2023.12", "2022.12", "2021.12"]),
    "kind": lambda device: st.one_of(
        st.sampled_from(["bool", "signed integer", "unsigned integer", "integral",
                         "real floating", "complex floating", "numeric", "bogus", None, 3,
                         ("bool", "numeric"), (("bool",),), ("bogus",), np.dtype("O")]),
        st.sampled_from(DTYPES)),
    "dtype_or_array": lambda device: st.one_of(dtype(device), array(device)),
}
