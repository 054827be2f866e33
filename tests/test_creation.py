"""Creation functions against NumPy and the spec's rules (tests/oracle.py), on each device.

On CUDA these check that arrays are allocated on the requested device (``device=``,
and the input's device for ``_like`` functions) with the spec's dtypes and values.
"""

from __future__ import annotations

import array
import math

import numpy as np
import oracle
import pytest
from conftest import assert_close, to_numpy
from hypothesis import given, settings
from hypothesis import strategies as st

import xpgpu as xp
from xpgpu import _devices

NAMES = oracle.DTYPE_NAMES
FLOAT_NAMES = ("float32", "float64", "complex64", "complex128")
CPU = _devices.CPU


def dt(name: str):
    return getattr(xp, name)


def check(out: xp.Array, expected: np.ndarray, device) -> None:
    """``out`` is on ``device`` and equals ``expected`` exactly, dtype included."""
    assert out.device == device
    got = to_numpy(out)
    assert got.dtype == expected.dtype, (got.dtype, expected.dtype)
    np.testing.assert_array_equal(got, expected)


# ---- asarray: Python data -------------------------------------------------------------

@pytest.mark.parametrize("obj, expected", [
    (True, "bool"), (3, "int64"), (2.5, "float64"), (1j, "complex128"),
    ([True, False], "bool"), ([True, 2], "int64"), ([1, 2.5], "float64"),
    ([[1, 2], [3, 4j]], "complex128"), ([], "float64"), ([[], []], "float64"),
    ((1, (2, 3)[0]), "int64"), ([2 ** 63 - 1, -(2 ** 63)], "int64"),
])
def test_asarray_python_defaults(obj, expected, device) -> None:
    out = xp.asarray(obj, device=device)
    check(out, np.asarray(obj, dtype=expected), device)


@pytest.mark.strict_only
@pytest.mark.parametrize("name", NAMES)
def test_asarray_python_with_dtype(name: str, device) -> None:
    # Python values convert as astype() casts them (bool to 0/1, floats truncated towards
    # zero, as NumPy, CuPy and PyTorch do; array-api-strict accepts them all), except
    # complex to a real numeric dtype, which the standard says should not be permitted.
    for obj in ([True, False], [1, 0], [1.5, -0.25], True, 3, 2.5):
        check(xp.asarray(obj, dtype=dt(name), device=device), np.asarray(obj, dtype=name), device)
    for obj in ([1j, 2], 1j):
        if name == "bool" or name.startswith("complex"):
            check(xp.asarray(obj, dtype=dt(name), device=device), np.asarray(obj, dtype=name),
                  device)
        else:
            with pytest.raises(TypeError, match=r"^asarray: .*complex"):
                xp.asarray(obj, dtype=dt(name), device=device)


@pytest.mark.parametrize("obj", [float("nan"), float("inf"), [1.0, float("-inf")], 1e30,
                                 [0.5, 1e30]])
def test_asarray_float_not_fitting_an_integer_dtype(obj, device) -> None:
    """Where a float has no value in the integer dtype, the backends differ: refused."""
    with pytest.raises((ValueError, OverflowError), match=r"^asarray: "):
        xp.asarray(obj, dtype=xp.int32, device=device)


@pytest.mark.parametrize("name", sorted(oracle.INT_RANGE))
def test_asarray_int_bounds(name: str, device) -> None:
    lo, hi = oracle.INT_RANGE[name]
    check(xp.asarray([lo, hi], dtype=dt(name), device=device),
          np.asarray([lo, hi], dtype=name), device)
    for bad in (lo - 1, hi + 1):
        with pytest.raises(OverflowError,
                           match=rf"^asarray: Python int {bad} is out of range for dtype {name}"):
            xp.asarray([[1], [bad]], dtype=dt(name), device=device)


def test_asarray_python_errors(device) -> None:
    with pytest.raises(OverflowError, match=r"^asarray: "):
        xp.asarray(2 ** 63, device=device)  # beyond the default int64
    with pytest.raises(OverflowError, match=r"^asarray: "):
        xp.asarray([1, -(2 ** 63) - 1], device=device)
    with pytest.raises(OverflowError, match=r"^asarray: "):
        xp.asarray([10 ** 400], dtype=xp.float64, device=device)
    with pytest.raises(ValueError, match=r"^asarray: "):
        xp.asarray([[1, 2], [3]], device=device)  # ragged
    with pytest.raises(ValueError, match=r"^asarray: "):
        xp.asarray([1, 2], copy=False, device=device)
    with pytest.raises(ValueError, match=r"^asarray: "):
        xp.asarray(1.0, copy=False, device=device)
    with pytest.raises(TypeError, match=r"^asarray: "):  # int64 array with a Python float
        xp.asarray([xp.asarray(1, device=device), 2.5], device=device)
    for bad in ("abc", None, {1: 2}, [None], object()):
        with pytest.raises(TypeError, match=r"^asarray: "):
            xp.asarray(bad, device=device)
    with pytest.raises(TypeError, match=r"^asarray: "):
        xp.asarray([1], copy=1, device=device)


def test_asarray_sequences_of_arrays(device) -> None:
    """Nested sequences of 0-d arrays (as the conformance suite builds its expectations)
    promote like result_type and stay on the arrays' device."""
    a = xp.asarray([[1.0, 2.0], [3.0, 4.0]], dtype=xp.float32, device=device)
    t = xp.asarray([[a[i, j] for i in range(2)] for j in range(2)])
    assert t.dtype == xp.float32 and t.device == device
    np.testing.assert_array_equal(to_numpy(t), [[1.0, 3.0], [2.0, 4.0]])
    assert xp.asarray([a[0, 0], 0.5]).dtype == xp.float32  # the scalar is weak
    with pytest.raises(TypeError, match=r"^asarray: "):  # float32 with int8: cross-kind
        xp.asarray([a[0, 0], xp.asarray(2, dtype=xp.int8, device=device)])


# ---- asarray: host arrays, buffers, arrays --------------------------------------------

@pytest.mark.parametrize("name", NAMES)
def test_asarray_numpy_arrays(name: str, device) -> None:
    host = np.arange(6).reshape(2, 3).astype(name)
    check(xp.asarray(host, device=device), host, device)
    check(xp.asarray(host[:, ::2], device=device), host[:, ::2], device)
    check(xp.asarray(host[0, 0], device=device), np.asarray(host[0, 0]), device)  # NumPy scalar


@pytest.mark.parametrize("bad", ["float16", "longdouble", "O", "U3", "S2", "datetime64[s]",
                                 "timedelta64[s]", "V4"])
def test_asarray_nonstandard_numpy_dtypes(bad: str, device) -> None:
    host = np.zeros(3, dtype=bad)
    if host.dtype in [np.dtype(n) for n in NAMES]:
        pytest.skip(f"{bad} is a standard dtype on this platform")
    with pytest.raises(TypeError, match=r"^asarray: "):
        xp.asarray(host, device=device)
    with pytest.raises(TypeError, match=r"^asarray: "):
        xp.asarray(host, dtype=xp.float64, device=device)  # no silent conversion either


def test_asarray_byteswapped(device) -> None:
    host = np.arange(4, dtype=">i4")
    check(xp.asarray(host, device=device), np.arange(4, dtype="int32"), device)


def test_asarray_buffers(device) -> None:
    check(xp.asarray(b"\x01\x02", device=device), np.asarray([1, 2], np.uint8), device)
    check(xp.asarray(bytearray(b"\x03"), device=device), np.asarray([3], np.uint8), device)
    check(xp.asarray(array.array("d", [1.5, 2.5]), device=device),
          np.asarray([1.5, 2.5]), device)
    check(xp.asarray(memoryview(array.array("i", [7])), device=device),
          np.asarray([7], np.intc), device)
    check(xp.asarray(array.array("h", [1, 2]), dtype=xp.float32, device=device),
          np.asarray([1, 2], np.float32), device)


def test_asarray_numpy_copy_semantics(device) -> None:
    host = np.arange(3.0)
    copied = xp.asarray(host, copy=True, device=device)
    maybe = xp.asarray(host, device=device)
    if device is CPU:
        shared = xp.asarray(host, copy=False)
        host[0] = 9.0
        assert to_numpy(shared)[0] == 9.0 and to_numpy(maybe)[0] == 9.0
        buf = bytearray(b"\x01\x02")
        view = xp.asarray(buf, copy=False)
        buf[0] = 5
        assert to_numpy(view)[0] == 5
    else:
        with pytest.raises(ValueError, match=r"^asarray: "):
            xp.asarray(host, copy=False, device=device)
        host[0] = 9.0
        assert to_numpy(maybe)[0] == 0.0
    assert to_numpy(copied)[0] == 0.0
    with pytest.raises(ValueError, match=r"^asarray: "):
        xp.asarray(np.arange(3), dtype=xp.float64, copy=False, device=device)


def test_asarray_array_copy_semantics(device) -> None:
    x = xp.asarray([1, 2, 3], dtype=xp.int32, device=device)
    assert xp.asarray(x) is not None
    same = xp.asarray(x, copy=False)
    copied = xp.asarray(x, copy=True)
    cast = xp.asarray(x, dtype=xp.int64)
    x[0] = 7
    assert to_numpy(same)[0] == 7
    assert to_numpy(copied)[0] == 1 and copied.dtype is xp.int32
    assert to_numpy(cast)[0] == 1 and cast.dtype is xp.int64
    with pytest.raises(ValueError, match=r"^asarray: "):
        xp.asarray(x, dtype=xp.int64, copy=False)
    moved = xp.asarray(x, device="cpu")
    check(moved, np.asarray([7, 2, 3], np.int32), CPU)
    if device is not CPU:
        with pytest.raises(ValueError, match=r"^asarray: "):
            xp.asarray(x, device="cpu", copy=False)
    z = xp.asarray([1 + 1j], device=device)
    with pytest.raises(TypeError, match=r"^asarray: "):
        xp.asarray(z, dtype=xp.float64)


class _Producer:
    """A foreign array: only the DLPack protocol (wrapping a NumPy array)."""

    def __init__(self, data: np.ndarray):
        self._data = data

    def __dlpack__(self, **kwargs):
        return self._data.__dlpack__(**kwargs)

    def __dlpack_device__(self):
        return self._data.__dlpack_device__()


def test_asarray_foreign_dlpack(device) -> None:
    # Needs xpgpu.from_dlpack (xpgpu/_dlpack.py).
    host = np.arange(4, dtype=np.int16)
    out = xp.asarray(_Producer(host), device=device)
    check(out, host, device)
    check(xp.asarray(_Producer(host), dtype=xp.float32, device=device),
          host.astype(np.float32), device)


# ---- shapes and fills -----------------------------------------------------------------

@pytest.mark.parametrize("func", ["zeros", "ones", "empty"])
@pytest.mark.parametrize("name", [None, *NAMES])
def test_zeros_ones_empty(func: str, name: str | None, device) -> None:
    for shape in (3, (2, 3), (), (0, 4), [2, 1]):
        out = getattr(xp, func)(shape, dtype=None if name is None else dt(name), device=device)
        ref = getattr(np, func)(shape, dtype=name or "float64")
        assert out.device == device and out.dtype is dt(name or "float64")
        assert out.shape == ref.shape
        if func != "empty":
            check(out, ref, device)


@pytest.mark.parametrize("func", ["zeros_like", "ones_like", "empty_like"])
@pytest.mark.parametrize("name", NAMES)
def test_like(func: str, name: str, device) -> None:
    x = xp.asarray(np.ones((2, 3), dtype=name), device=device)
    out = getattr(xp, func)(x)
    assert out.dtype is x.dtype and out.device == device and out.shape == (2, 3)
    other = getattr(xp, func)(x, dtype=xp.int8, device="cpu")
    assert other.dtype is xp.int8 and other.device == CPU
    if func != "empty_like":
        check(out, getattr(np, func)(np.ones((2, 3), dtype=name)), device)


def test_shape_errors(device) -> None:
    with pytest.raises(ValueError, match=r"^zeros: "):
        xp.zeros((2, -1), device=device)
    for bad in (2.0, (2, 1.5), "3", None, (True,)):
        with pytest.raises(TypeError, match=r"^ones: "):
            xp.ones(bad, device=device)
    with pytest.raises(TypeError, match=r"^zeros_like: "):
        xp.zeros_like(np.zeros(2))
    with pytest.raises(ValueError, match=r"^empty: "):
        xp.empty(2, device="cuda:99")
    with pytest.raises(TypeError, match=r"^empty: "):
        xp.empty(2, device=0)


@pytest.mark.parametrize("value", [True, -3, 2.5, 1 - 2j, 2 ** 63 - 1, float("nan")])
def test_full_default_dtypes(value, device) -> None:
    out = xp.full((2, 2), value, device=device)
    name = oracle.PYTHON_DEFAULT[type(value)]
    check(out, np.full((2, 2), value, dtype=name), device)
    like = xp.full_like(out, value)
    check(like, np.full((2, 2), value, dtype=name), device)


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("value", [True, 1, 2.5, 1j], ids=["bool", "int", "float", "complex"])
def test_full_scalar_rules(name: str, value, device) -> None:
    # The fill value is cast to the dtype as astype() casts (as NumPy, CuPy and PyTorch,
    # and array-api-strict accepts it), except complex to a real numeric dtype.
    ok = not (type(value) is complex and name != "bool" and not name.startswith("complex"))
    x = xp.zeros(3, dtype=dt(name), device=device)
    if ok:
        check(xp.full(3, value, dtype=dt(name), device=device), np.full(3, value, name), device)
        check(xp.full_like(x, value), np.full(3, value, name), device)
    else:
        with pytest.raises(TypeError, match=r"^full: "):
            xp.full(3, value, dtype=dt(name), device=device)
        with pytest.raises(TypeError, match=r"^full_like: "):
            xp.full_like(x, value)


@pytest.mark.usefixtures("strict_profile")  # the strict profile's refusals
def test_full_errors(device) -> None:
    with pytest.raises(OverflowError, match=r"^full: "):
        xp.full(2, 2 ** 63, device=device)
    with pytest.raises(OverflowError, match=r"^full: "):
        xp.full(2, 256, dtype=xp.uint8, device=device)
    with pytest.raises(OverflowError, match=r"^full_like: "):
        xp.full_like(xp.zeros(2, dtype=xp.int8, device=device), -129)
    for bad in ("1", None, [1], np.float32(1), xp.asarray(1.0, device=device)):
        with pytest.raises(TypeError, match=r"^full: "):
            xp.full(2, bad, device=device)


# ---- arange ---------------------------------------------------------------------------

@pytest.mark.parametrize("args, kwargs", [
    ((5,), {}), ((2, 9), {}), ((2, 9, 3), {}), ((9, 2, -2), {}), ((3, 3), {}), ((5, 1), {}),
    ((0.5,), {}), ((1, 2.0, 0.25), {}), ((0, 1, 0.1), {}), ((-1.5, -3, -0.5), {}),
    ((5,), {"dtype": "float32"}), ((0, 10, 3), {"dtype": "uint8"}),
    ((-128, 127, 17), {"dtype": "int8"}), ((0, 1, 0.3), {"dtype": "float32"}),
])
def test_arange_against_numpy(args, kwargs, device) -> None:
    name = kwargs.get("dtype")
    out = xp.arange(*args, dtype=None if name is None else dt(name), device=device)
    default = "int64" if all(type(a) is int for a in args) else "float64"
    assert_close(out, np.arange(*args, dtype=name or default))
    assert out.device == device


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(sorted(oracle.INT_RANGE)), st.data())
def test_arange_integers_exact(name: str, data) -> None:
    lo, hi = oracle.INT_RANGE[name]
    start = data.draw(st.integers(lo, hi), label="start")
    step = data.draw(st.integers(1, hi - lo) | st.integers(1, 3), label="step")
    if data.draw(st.booleans(), label="negative") and name.startswith("int"):
        step = -step
    room = (hi - start) // step if step > 0 else (start - lo) // -step  # more steps fit
    length = data.draw(st.integers(0, min(40, room + 1)), label="length")
    stop = start + length * step + data.draw(st.integers(-abs(step) + 1, 0), label="short")
    if step < 0:
        stop = start + length * step - (stop - start - length * step)
    expected = list(range(start, stop, step))
    assert len(expected) == length  # sanity check of the strategy
    for device in _devices.all_devices():
        out = xp.arange(start, stop, step, dtype=dt(name), device=device)
        assert out.dtype is dt(name) and out.device == device
        assert to_numpy(out).tolist() == expected


def test_arange_large_int64_exact(device) -> None:
    start, stop, step = 0, 108086391056891901, 1080863910568919
    out = xp.arange(start, stop, step, dtype=xp.uint64, device=device)
    assert to_numpy(out).tolist() == list(range(start, stop, step))  # 101, not 100
    out = xp.arange(-(2 ** 63), 2 ** 63 - 1, 2 ** 62, device=device)
    assert to_numpy(out).tolist() == list(range(-(2 ** 63), 2 ** 63 - 1, 2 ** 62))


@pytest.mark.usefixtures("strict_profile")  # the strict profile's refusals
def test_arange_errors(device) -> None:
    with pytest.raises(ValueError, match=r"^arange: "):
        xp.arange(0, 5, 0, device=device)
    with pytest.raises(ValueError, match=r"^arange: "):
        xp.arange(0, float("inf"), device=device)
    with pytest.raises(OverflowError, match=r"^arange: "):
        xp.arange(100, 300, 100, dtype=xp.int8, device=device)
    with pytest.raises(OverflowError, match=r"^arange: "):
        xp.arange(2 ** 63 + 1, device=device)  # the last element, 2**63, is not an int64
    with pytest.raises(ValueError, match=r"^arange: "):
        xp.arange(2 ** 63, device=device)  # too many elements
    for args in ((0, 2 ** 63, 0.5), (-1e308, 1e308, 1e-300)):  # too many floats (NumPy: its
        with pytest.raises(ValueError, match=r"^arange: .* more than an array can hold"):
            xp.arange(*args, device=device)  # own ValueError; an infinite length)
    with pytest.raises(TypeError, match=r"^arange: "):
        xp.arange(0.5, dtype=xp.int32, device=device)
    for name in ("bool", "complex64"):
        with pytest.raises(TypeError, match=r"^arange: "):
            xp.arange(3, dtype=dt(name), device=device)
    for bad in (True, 1j, "3", None):
        with pytest.raises(TypeError, match=r"^arange: "):
            xp.arange(bad, device=device)


# ---- linspace -------------------------------------------------------------------------

@pytest.mark.parametrize("start, stop", [(0, 1), (-3.5, 7.25), (1e10, -1e-10), (2, 2)])
@pytest.mark.parametrize("num", [0, 1, 2, 7, 50])
@pytest.mark.parametrize("endpoint", [True, False])
@pytest.mark.parametrize("name", [None, "float32", "float64"])
def test_linspace_real(start, stop, num, endpoint, name, device) -> None:
    out = xp.linspace(start, stop, num, endpoint=endpoint,
                      dtype=None if name is None else dt(name), device=device)
    ref = np.linspace(start, stop, num, endpoint=endpoint, dtype=name or "float64")
    assert_close(out, ref)
    got = to_numpy(out)
    if num:
        assert got[0] == ref.dtype.type(start)
    if endpoint and num > 1:
        assert got[-1] == ref.dtype.type(stop)  # exactly stop


@pytest.mark.parametrize("ends", ["numpy float32", "0-d float32", "mixed"])
@pytest.mark.parametrize("name", [None, "float32", "float64"])
def test_linspace_float32_ends_as_numpy(ends, name, device) -> None:
    """float32 ends: NumPy (and array-api-strict, which hands them to it) computes the grid
    in float32, step by step; the same values on every device (SciPy's histogram edges)."""
    rng = np.random.default_rng(5194553734)
    for _ in range(50):
        lo, hi = np.sort(rng.random(2)).astype(np.float32)
        if ends == "0-d float32":
            lo, hi = np.asarray(lo), np.asarray(hi)
        elif ends == "mixed":  # a Python float on one end: NumPy computes in float64
            hi = float(hi)
        num = int(rng.integers(2, 40))
        ref = np.linspace(lo, hi, num, dtype=name)
        out = xp.linspace(lo, hi, num, dtype=None if name is None else dt(name), device=device)
        np.testing.assert_array_equal(to_numpy(out), ref.astype(name or "float64"))


@pytest.mark.parametrize("name", [None, "complex64", "complex128"])
@pytest.mark.parametrize("num", [0, 1, 5])
@pytest.mark.parametrize("endpoint", [True, False])
def test_linspace_complex(name, num, endpoint, device) -> None:
    start, stop = 1 - 2j, -3.5 + 4j
    out = xp.linspace(start, stop, num, endpoint=endpoint,
                      dtype=None if name is None else dt(name), device=device)
    real = np.linspace(start.real, stop.real, num, endpoint=endpoint)
    imag = np.linspace(start.imag, stop.imag, num, endpoint=endpoint)
    assert_close(out, (real + 1j * imag).astype(name or "complex128"))
    if endpoint and num > 1:
        assert complex(to_numpy(out)[-1]) == stop
    # a complex stop alone makes the default dtype complex
    assert xp.linspace(0, 1j, 3, device=device).dtype is xp.complex128


@pytest.mark.usefixtures("strict_profile")  # the strict profile's refusals
def test_linspace_extremes_and_errors(device) -> None:
    big = xp.linspace(-1e308, 1e308, 3, device=device)  # stop - start overflows
    np.testing.assert_array_equal(to_numpy(big), [-1e308, 0.0, 1e308])
    big = xp.linspace(np.float32(-3e38), np.float32(3e38), 3, dtype=xp.float32,
                      device=device)  # overflows in float32, NumPy's working precision
    np.testing.assert_array_equal(to_numpy(big), np.array([-3e38, 0.0, 3e38], np.float32))
    with pytest.raises(ValueError, match=r"^linspace: "):
        xp.linspace(0, 1, -1, device=device)
    for name in ("int64", "bool"):
        with pytest.raises(TypeError, match=r"^linspace: "):
            xp.linspace(0, 1, 3, dtype=dt(name), device=device)
    with pytest.raises(TypeError, match=r"^linspace: "):
        xp.linspace(0, 1j, 3, dtype=xp.float64, device=device)
    for bad in (True, "0", None):
        with pytest.raises(TypeError, match=r"^linspace: "):
            xp.linspace(bad, 1, 3, device=device)
    with pytest.raises(TypeError, match=r"^linspace: "):
        xp.linspace(0, 1, 3.0, device=device)
    with pytest.raises(TypeError, match=r"^linspace: "):
        xp.linspace(0, 1, 3, endpoint=None, device=device)


# ---- eye, tril, triu, meshgrid --------------------------------------------------------

@pytest.mark.parametrize("n_rows, n_cols",
                         [(0, None), (1, None), (3, None), (2, 5), (5, 2), (4, 0)])
@pytest.mark.parametrize("k", [0, 1, -1, 3, -4, 10 ** 30, -(10 ** 30)])
def test_eye(n_rows, n_cols, k, device) -> None:
    out = xp.eye(n_rows, n_cols, k=k, device=device)
    cols = n_rows if n_cols is None else n_cols
    expected = np.asarray([[1.0 if j - i == k else 0.0 for j in range(cols)]
                           for i in range(n_rows)]).reshape(n_rows, cols)
    check(out, expected, device)


@pytest.mark.parametrize("name", NAMES)
def test_eye_dtypes(name: str, device) -> None:
    check(xp.eye(3, 4, k=1, dtype=dt(name), device=device), np.eye(3, 4, k=1, dtype=name), device)
    with pytest.raises(ValueError, match=r"^eye: "):
        xp.eye(-1, device=device)
    with pytest.raises(TypeError, match=r"^eye: "):
        xp.eye(2.0, device=device)


@pytest.mark.parametrize("func", ["tril", "triu"])
@pytest.mark.parametrize("shape", [(3, 3), (2, 4), (4, 2), (2, 3, 3), (2, 1, 0, 3), (0, 0)])
@pytest.mark.parametrize("k", [0, 1, -1, 2, -3, 10 ** 20, -(10 ** 20)])
def test_tril_triu(func: str, shape, k, device) -> None:
    host = np.arange(1, math.prod(shape) + 1).reshape(shape)
    out = getattr(xp, func)(xp.asarray(host, device=device), k=k)
    rows, cols = shape[-2:]
    i, j = np.indices((rows, cols))
    keep = (j - i <= k) if func == "tril" else (j - i >= k)
    check(out, np.where(keep, host, 0), device)


@pytest.mark.parametrize("name", NAMES)
def test_tril_triu_dtypes(name: str, device) -> None:
    host = np.ones((3, 3), dtype=name)
    x = xp.asarray(host, device=device)
    check(xp.tril(x), np.tril(host), device)
    check(xp.triu(x, k=1), np.triu(host, k=1), device)
    with pytest.raises(ValueError, match=r"^tril: "):
        xp.tril(xp.ones(3, device=device))
    with pytest.raises(TypeError, match=r"^triu: "):
        xp.triu(x, k=1.0)


@pytest.mark.parametrize("indexing", ["xy", "ij"])
@pytest.mark.parametrize("sizes", [(3,), (2, 3), (1, 4, 2), (0, 3), (2, 3, 4, 1)])
def test_meshgrid(indexing: str, sizes, device) -> None:
    hosts = [np.arange(n, dtype=np.float32) * (i + 1) for i, n in enumerate(sizes)]
    out = xp.meshgrid(*[xp.asarray(h, device=device) for h in hosts], indexing=indexing)
    assert type(out) is tuple and len(out) == len(sizes)
    for got, ref in zip(out, np.meshgrid(*hosts, indexing=indexing), strict=True):
        check(got, ref, device)


def test_meshgrid_errors(device) -> None:
    a = xp.asarray([1, 2], device=device)
    assert xp.meshgrid() == ()
    with pytest.raises(TypeError, match=r"^meshgrid: "):
        xp.meshgrid(a, xp.asarray([1.0], device=device))
    with pytest.raises(TypeError, match=r"^meshgrid: "):
        xp.meshgrid(xp.asarray([True], device=device))
    with pytest.raises(ValueError, match=r"^meshgrid: "):
        xp.meshgrid(a, indexing="xz")
    with pytest.raises(ValueError, match=r"^meshgrid: "):
        xp.meshgrid(xp.ones((2, 2), dtype=xp.int64, device=device))
    with pytest.raises(TypeError, match=r"^meshgrid: "):
        xp.meshgrid(np.arange(2))


# ---- placement on a CUDA device other than the current one ----------------------------

def test_allocation_on_second_gpu() -> None:
    """With two or more GPUs, every creation function allocates on the requested device
    (its backend data's device id), not on the current one."""
    gpus = _devices.cuda_devices()
    if len(gpus) < 2:
        pytest.skip("needs two CUDA devices")
    target = gpus[-1]
    x = xp.ones((2, 2), device=target)
    made = [
        xp.asarray([1, 2], device=target), xp.asarray(np.arange(3), device=target),
        xp.zeros(2, device=target), x, xp.empty(2, device=target), xp.full(2, 1.0, device=target),
        xp.zeros_like(x), xp.ones_like(x), xp.empty_like(x), xp.full_like(x, 2.0),
        xp.arange(3, device=target), xp.linspace(0, 1, 3, device=target),
        xp.linspace(0, 1j, 3, device=target), xp.eye(2, device=target), xp.tril(x), xp.triu(x),
        *xp.meshgrid(xp.arange(2, device=target), xp.arange(3, device=target)),
        xp.astype(x, xp.float32), xp.asarray(x, dtype=xp.float32), xp.asarray(x, copy=True),
        xp.asarray(xp.ones(2, device=gpus[0]), device=target),
    ]
    for i, out in enumerate(made):
        assert out.device == target, i
        assert out._data.device.id == target.index, i


def test_negative_zero_survives_creation(device) -> None:
    """-0.0 keeps its sign through asarray (0-d and n-d), full and full_like on every
    device (CuPy's fill writes zeros with a memset, which drops the sign)."""
    made = [
        xp.asarray(-0.0, device=device),
        xp.asarray([-0.0, 1.0], device=device),
        xp.asarray(np.asarray(-0.0), device=device),
        xp.full((3,), -0.0, device=device),
        xp.full((), -0.0, dtype=xp.float32, device=device),
        xp.full_like(xp.ones(2, device=device), -0.0),
    ]
    for x in made:
        assert np.signbit(to_numpy(x).flat[0]), x
    z = to_numpy(xp.full((2,), complex(-0.0, -0.0), device=device))
    assert np.signbit(z.real).all() and np.signbit(z.imag).all()
