"""The array object: attributes, conversions to Python scalars, iteration, repr,
pickling, __array__, __array_namespace__; oracle: NumPy and the spec's rules."""

from __future__ import annotations

import copy
import math
import os
import pickle
import subprocess
import sys

import numpy as np
import pytest

import xpgpu as xp
from tests.conftest import to_numpy

ALL = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
       "float32", "float64", "complex64", "complex128"]
INTS = ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"]


def test_constructor_blocked():
    with pytest.raises(TypeError, match="creation function"):
        xp.Array([1, 2])


def test_not_a_base_class():
    """No subclass: the compiled Array is a C type that is no base type (CPython's
    message), the Python one refuses in __init_subclass__ (in XPGPU_PURE_PYTHON mode)."""
    with pytest.raises(TypeError, match=r"cannot be subclassed|not an acceptable base type"):
        type("Sub", (xp.Array,), {})


def test_attributes(device):
    a = xp.asarray(np.arange(6, dtype=np.float32).reshape(2, 3), device=device)
    assert (a.dtype, a.device, a.ndim, a.shape, a.size) == (xp.float32, device, 2, (2, 3), 6)
    assert type(a.shape) is tuple and type(a.size) is int
    np.testing.assert_array_equal(to_numpy(a.T), np.arange(6).reshape(2, 3).T)
    b = xp.asarray(np.arange(24).reshape(2, 3, 4), device=device)
    np.testing.assert_array_equal(to_numpy(b.mT), np.arange(24).reshape(2, 3, 4).swapaxes(-1, -2))
    with pytest.raises(ValueError, match=r"Array\.T"):
        _ = b.T
    with pytest.raises(ValueError, match=r"Array\.mT"):
        _ = xp.asarray([1], device=device).mT


def test_unhashable(device):
    with pytest.raises(TypeError):
        hash(xp.asarray(1, device=device))


@pytest.mark.parametrize("name", ALL)
def test_bool_complex_all_dtypes(device, name):
    for value in (0, 1):
        a = xp.asarray(np.asarray(value, dtype=name), device=device)
        assert bool(a) is bool(value)
        c = complex(a)
        assert type(c) is complex and c == complex(value)


@pytest.mark.parametrize("name", ["bool", *INTS, "float32", "float64"])
def test_int_float(device, name):
    a = xp.asarray(np.asarray(1, dtype=name), device=device)
    assert type(int(a)) is int and int(a) == 1
    assert type(float(a)) is float and float(a) == 1.0


@pytest.mark.parametrize("name", INTS)
def test_index_extremes(device, name):
    info = np.iinfo(name)
    for value in (info.min, info.max):
        a = xp.asarray(np.asarray(value, dtype=name), device=device)
        assert a.__index__() == value and type(a.__index__()) is int
        assert int(a) == value
        assert [10, 20, 30][xp.asarray(np.asarray(1, dtype=name), device=device)] == 20


@pytest.mark.parametrize("name", ["bool", "float32", "float64", "complex64", "complex128"])
def test_index_refuses_non_integers(device, name):
    with pytest.raises(TypeError, match="__index__"):
        xp.asarray(np.asarray(1, dtype=name), device=device).__index__()


@pytest.mark.parametrize("name", ["complex64", "complex128"])
def test_int_float_refuse_complex(device, name):
    a = xp.asarray(np.asarray(1, dtype=name), device=device)
    with pytest.raises(TypeError, match="__int__"):
        int(a)
    with pytest.raises(TypeError, match="__float__"):
        float(a)


def test_float_special_cases(device):
    assert bool(xp.asarray(float("nan"), device=device)) is True
    assert bool(xp.asarray(-0.0, device=device)) is False
    assert bool(xp.asarray(complex(0, 1), device=device)) is True
    assert int(xp.asarray(-2.7, device=device)) == -2
    assert int(xp.asarray(-0.0, device=device)) == 0
    with pytest.raises(OverflowError, match="__int__"):
        int(xp.asarray(float("inf"), device=device))
    with pytest.raises(ValueError, match="__int__"):
        int(xp.asarray(float("nan"), device=device))
    c = complex(xp.asarray(float("nan"), device=device))
    assert math.isnan(c.real)


@pytest.mark.parametrize("shape", [(1,), (2,), (1, 1), (0,)])
@pytest.mark.parametrize("method", ["__bool__", "__int__", "__float__", "__complex__",
                                    "__index__"])
def test_conversions_need_zero_dimensions(device, shape, method):
    a = xp.asarray(np.ones(shape, dtype=np.int64), device=device)
    with pytest.raises(TypeError, match=method):
        getattr(a, method)()


def test_iter_1d(device):
    a = xp.asarray([3, 1, 2], dtype=xp.int32, device=device)
    items = list(a)
    assert [i.shape for i in items] == [(), (), ()]
    assert [int(i) for i in items] == [3, 1, 2]
    assert all(i.dtype == xp.int32 and i.device == device for i in items)
    assert list(xp.asarray(np.zeros(0), device=device)) == []


@pytest.mark.parametrize("shape", [(), (2, 2)])
def test_iter_other_ranks(device, shape):
    with pytest.raises(TypeError, match="__iter__"):
        iter(xp.asarray(np.zeros(shape), device=device))


@pytest.mark.parametrize("name", ALL)
def test_repr(device, name):
    a = xp.asarray(np.asarray([1, 0], dtype=name), device=device)
    r = repr(a)
    assert r.startswith("xpgpu.Array([") and f"dtype={name}" in r
    assert ("device=" in r) == (device.kind != "cpu")
    assert str(a) == r
    assert "shape=(0, 3)" in repr(xp.asarray(np.zeros((0, 3)), device=device))


@pytest.mark.parametrize(("value", "name", "spec"), [
    (1.5, "float64", ".3f"), (1 / 3, "float32", ".10g"), (-7, "int8", ">5d"),
    (2**64 - 1, "uint64", ","), (True, "bool", "^7"), (1 + 2j, "complex128", ".2f"),
    (0.25, "float64", "e"),
])
def test_format_zero_dim_as_numpy(device, value, name, spec):
    host = np.asarray(value, dtype=name)
    assert format(xp.asarray(host, device=device), spec) == format(host, spec)


def test_format_empty_spec_and_refusal(device):
    a = xp.asarray(np.ones((2,)), device=device)
    assert format(a, "") == f"{a}" == str(a)
    assert format(xp.asarray(1.5, device=device), "") == str(xp.asarray(1.5, device=device))
    with pytest.raises(TypeError,
                       match=r"^__format__: only zero-dimensional .* shape \(2,\); "):
        format(a, ".3f")
    with pytest.raises(TypeError):  # NumPy refuses too
        format(np.ones(2), ".3f")


@pytest.mark.parametrize("name", ALL)
def test_pickle_round_trip(device, name):
    data = np.arange(6).reshape(2, 3).astype(name)
    a = xp.asarray(data, device=device)
    b = pickle.loads(pickle.dumps(a))
    assert b.device == device and b.dtype is a.dtype and b.shape == (2, 3)
    np.testing.assert_array_equal(to_numpy(b), data)
    assert pickle.loads(pickle.dumps(a.dtype)) is a.dtype
    assert pickle.loads(pickle.dumps(a.device)) is device


def test_pickle_rebuilds_cuda_arrays_on_the_receivers_default_device():
    # What a pickle of a cuda:3 array made elsewhere becomes here: an array on this process's
    # default device (cuda:0 where there is a GPU, else the cpu), with the same values.
    from xpgpu._array import _unpickle

    b = _unpickle(np.arange(4.0), "float64", "cuda:3")
    assert b.device == xp.__array_namespace_info__().default_device()
    np.testing.assert_array_equal(to_numpy(b), np.arange(4.0))
    assert _unpickle(np.arange(4.0), "float64", "cpu").device == xp.asarray(0, device="cpu").device


@pytest.mark.cuda
def test_pickle_cuda_array_to_a_process_without_gpu():
    if not xp.__array_namespace_info__().devices()[1:]:
        pytest.skip("no CUDA device")
    payload = pickle.dumps(xp.asarray([1.5, 2.5], device="cuda:0"))
    code = ("import pickle, sys; a = pickle.loads(sys.stdin.buffer.read()); "
            "print(a.device, float(a[1]))")
    env = {**os.environ, "XPGPU_DEFAULT_DEVICE": "cpu"}
    out = subprocess.run([sys.executable, "-c", code], input=payload, capture_output=True,
                         env=env, check=True).stdout.decode().split()
    assert out == ["cpu", "2.5"]


def test_copy_keeps_the_device(device):
    a = xp.asarray([[1.0, 2.0], [3.0, 4.0]], device=device)
    for b in (copy.copy(a), copy.deepcopy(a), copy.deepcopy([a])[0]):
        assert b.device == device and b.dtype == a.dtype
        np.testing.assert_array_equal(to_numpy(b), to_numpy(a))
        b[0, 0] = 9.0  # a copy, not a view
    assert float(a[0, 0]) == 1.0


def test_pickle_non_contiguous(device):
    data = np.arange(12.0).reshape(3, 4)[:, ::2]
    b = pickle.loads(pickle.dumps(xp.asarray(data, device=device)[:, :]))
    np.testing.assert_array_equal(to_numpy(b), data)


def test_array_protocol_cpu_only(device, strict_profile):
    """The strict profile: NumPy reads a CPU array, and refuses a CUDA one with the fixes
    (the permissive profile's copy is tested in test_profiles.py)."""
    a = xp.asarray([1.0, 2.0], device=device)
    if device.kind == "cpu":
        np.testing.assert_array_equal(np.asarray(a), [1.0, 2.0])
        assert np.asarray(a, dtype=np.float32).dtype == np.float32
    else:
        with pytest.raises(TypeError, match=r"^__array__: .*to_device\('cpu'\).*set_strict"):
            np.asarray(a)  # the fixes: an explicit copy, or the permissive profile


@pytest.mark.strict_only
def test_numpy_operand_does_not_swallow_array():
    with pytest.raises(TypeError):
        np.arange(2.0) + xp.asarray([1.0, 2.0], device="cpu")


def test_array_namespace(device):
    a = xp.asarray([1], device=device)
    assert a.__array_namespace__() is xp
    assert a.__array_namespace__(api_version="2025.12") is xp
    with pytest.raises(ValueError, match="__array_namespace__"):
        a.__array_namespace__(api_version="2020.10")


# ---- repr of large arrays: summarised on the device --------------------------------------

_PRINT_OPTIONS = [{}, {"threshold": 10, "edgeitems": 1}, {"threshold": 5, "edgeitems": 0},
                  {"edgeitems": 2, "precision": 3, "linewidth": 40},
                  {"threshold": 20, "suppress": True}]
_SHAPES = [(2000,), (1001,), (5, 300), (3, 4, 100), (7, 7, 7, 7), (1, 1001), (0, 2000),
           (10, 10, 11), (6, 6, 6, 6), (1500, 1)]


def _sample(shape, name, rng):
    values = rng.standard_normal(shape) * 10.0 ** rng.integers(-5, 8, size=shape)
    if name == "bool":
        return values > 0
    if name.startswith("complex"):
        values = values + 1j * values[..., ::-1]
    out = values.astype(name)
    if name.startswith(("float", "complex")) and out.size > 4:
        out.reshape(-1)[[1, -2, out.size // 2]] = [np.nan, np.inf, -0.0]
    return out


@pytest.mark.parametrize("options", _PRINT_OPTIONS)
@pytest.mark.parametrize("name", ["float32", "float64", "int8", "uint64", "bool", "complex64"])
def test_repr_summary_moves_only_what_it_shows(options, name):
    # The oracle: NumPy's array2string of the whole array. The function under test cuts
    # the array with the given backend (NumPy here, CuPy on CUDA) before the "transfer".
    from xpgpu._array import format_body
    from xpgpu._devices import CPU

    rng = np.random.default_rng(3)
    moved = []

    def to_host(data):
        moved.append(data.size)
        return data

    with np.printoptions(**options):
        edge = np.get_printoptions()["edgeitems"]
        for shape in _SHAPES:
            data = _sample(shape, name, rng)
            expected = np.array2string(data, separator=", ", prefix="xpgpu.Array(")
            moved.clear()
            assert format_body(data, CPU.backend, to_host) == expected, shape
            whole = data.size <= np.get_printoptions()["threshold"] or edge == 0
            limit = data.size if whole else math.prod(min(n, 2 * edge + 1) for n in shape)
            assert moved[0] <= limit, (shape, moved)


def test_repr_of_large_array_is_numpys(device):
    host = np.linspace(-1e6, 1e6, 3 * 4001).reshape(3, 4001)
    r = repr(xp.asarray(host, device=device))
    body = np.array2string(host, separator=", ", prefix="xpgpu.Array(")
    suffix = "" if device.kind == "cpu" else f", device='{device}'"
    assert r == f"xpgpu.Array({body}, dtype=float64{suffix})"
