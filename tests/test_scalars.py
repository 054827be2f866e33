"""Python scalars with arrays (NEP 50 "weak" scalars), against the standard's rules:
https://data-apis.org/array-api/2025.12/API_specification/type_promotion.html#mixing-arrays-with-python-scalars

The oracle tables below are written from the spec's text, not from xpgpu's tables.
"""

from __future__ import annotations

import numpy as np
import pytest
from conftest import to_numpy

import xpgpu as xp

INT = ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"]
RF = ["float32", "float64"]
CF = ["complex64", "complex128"]
ALL = ["bool", *INT, *RF, *CF]
COMPLEX_OF = {"float32": "complex64", "float64": "complex128"}

# (Python scalar type, array dtype) -> result dtype, or None where the standard leaves the
# combination undefined (xpgpu raises TypeError). bool goes with bool arrays; int with
# integer and floating arrays; float with floating; complex with floating, a real
# floating array then takes the complex dtype of the same precision.
SCALARS = {bool: True, int: 3, float: 0.5, complex: 1 + 2j}


def expected(t: type, dtype: str) -> str | None:
    if t is bool:
        return "bool" if dtype == "bool" else None
    if t is int:
        return dtype if dtype in INT + RF + CF else None
    if t is float:
        return dtype if dtype in RF + CF else None
    return COMPLEX_OF.get(dtype, dtype) if dtype in RF + CF else None


def _func_for(dtype: str):
    # A function accepting every dtype of the kind: equal accepts all, but its result is
    # bool; use the arithmetic/logical function of the kind to see the promoted dtype.
    return xp.logical_and if dtype == "bool" else xp.add


@pytest.mark.strict_only
@pytest.mark.parametrize("dtype", ALL)
@pytest.mark.parametrize("t", list(SCALARS), ids=lambda t: t.__name__)
def test_scalar_type_by_dtype_category(device, t: type, dtype: str) -> None:
    """Every Python scalar type with every dtype category, on both sides."""
    x = xp.asarray(np.ones(3, dtype=dtype), device=device)
    value = SCALARS[t]
    want = expected(t, dtype)
    f = _func_for(dtype)
    if want is None:
        with pytest.raises(TypeError, match=rf"^{f.__name__}\b"):
            f(x, value)
        with pytest.raises(TypeError, match=rf"^{f.__name__}\b"):
            f(value, x)
        return
    for out, oracle in ((f(x, value), f"x {t.__name__}"), (f(value, x), f"{t.__name__} x")):
        assert out.dtype == np.dtype(want), (oracle, out.dtype, want)
        assert out.device == device
        got = to_numpy(out)
        if dtype == "bool":
            np.testing.assert_array_equal(got, np.ones(3, bool) & value)
        else:
            np.testing.assert_array_equal(got, np.ones(3, want) + np.array(value, want))


@pytest.mark.strict_only
@pytest.mark.parametrize("dtype", ALL)
def test_comparison_with_scalars(device, dtype: str) -> None:
    """equal accepts every dtype; the scalar's kind must still match the array's."""
    x = xp.asarray(np.ones(2, dtype=dtype), device=device)
    for t, value in SCALARS.items():
        if expected(t, dtype) is None:
            with pytest.raises(TypeError, match=r"^equal"):
                xp.equal(x, value)
        else:
            out = xp.equal(x, value)
            assert out.dtype == xp.bool
            np.testing.assert_array_equal(to_numpy(out), np.ones(2, dtype) == value)


@pytest.mark.parametrize("dtype", INT)
def test_int_bounds_overflow(device, dtype: str) -> None:
    """A Python int outside the integer dtype's range is an OverflowError; the bounds
    themselves are accepted (numpy.iinfo as the oracle)."""
    info = np.iinfo(dtype)
    x = xp.asarray(np.zeros(2, dtype=dtype), device=device)
    for ok in (int(info.min), int(info.max)):
        np.testing.assert_array_equal(to_numpy(xp.add(x, ok)), np.full(2, ok, dtype))
        np.testing.assert_array_equal(to_numpy(xp.add(ok, x)), np.full(2, ok, dtype))
        assert (x + ok).dtype == np.dtype(dtype)
    for bad in (int(info.min) - 1, int(info.max) + 1, 2**100, -(2**100)):
        with pytest.raises(OverflowError, match=r"^add"):
            xp.add(x, bad)
        with pytest.raises(OverflowError, match=r"^add"):
            xp.add(bad, x)
        with pytest.raises(OverflowError):
            x + bad


@pytest.mark.parametrize("dtype", RF + CF)
def test_large_int_with_floating_array(device, dtype: str) -> None:
    """A Python int with a floating array has no integer bound: it converts to the dtype."""
    x = xp.asarray(np.zeros(1, dtype=dtype), device=device)
    assert (x + 2**62).dtype == np.dtype(dtype)


@pytest.mark.parametrize("dtype", ["float32", "complex64"])
def test_nep50_precision_is_kept(device, dtype: str) -> None:
    """float32 array + Python float stays float32 (the scalar is weak), whatever its value."""
    x = xp.asarray(np.ones(2, dtype=dtype), device=device)
    for value in (0.1, 1e-30, 3):
        outs = [x + value, value * x, xp.subtract(value, x), xp.divide(x, value), x ** value]
        if dtype == "float32":
            outs += [xp.floor_divide(x, value), x % value, xp.maximum(x, value)]
        for out in outs:
            assert out.dtype == np.dtype(dtype), (value, out.dtype)


def test_complex_upgrades_float(device) -> None:
    """A complex scalar with a real floating array gives the complex dtype of its precision."""
    for real, cplx in COMPLEX_OF.items():
        x = xp.asarray(np.array([1.0, 2.0], dtype=real), device=device)
        for out in (x + 1j, 1j * x, xp.multiply(x, 2 - 1j), xp.pow(x, 1j)):
            assert out.dtype == np.dtype(cplx)
        np.testing.assert_allclose(to_numpy(x * (2 - 1j)), np.array([2 - 1j, 4 - 2j], cplx))


def test_scalar_subclasses_count_as_their_base(device) -> None:
    """NumPy's float64 (a float subclass) is a Python float: float32 stays float32."""
    x = xp.asarray(np.ones(2, dtype="float32"), device=device)
    for out in (x + np.float64(0.5), np.float64(0.5) + x, xp.add(x, np.float64(0.5)),
                xp.add(np.float64(0.5), x)):
        assert type(out) is xp.Array
        assert out.dtype == xp.float32
        np.testing.assert_array_equal(to_numpy(out), np.full(2, 1.5, "float32"))


def test_at_least_one_array_required() -> None:
    """Two Python scalars are refused: the standard's functions take arrays."""
    for f in (xp.add, xp.multiply, xp.equal, xp.floor_divide, xp.logical_and):
        with pytest.raises(TypeError, match=rf"^{f.__name__}\b"):
            f(1, 2)
        with pytest.raises(TypeError, match=rf"^{f.__name__}\b"):
            f(True, 2.0)


@pytest.mark.strict_only
def test_non_scalar_objects_raise(device) -> None:
    """Strings, None, lists and NumPy arrays are neither arrays nor Python scalars."""
    x = xp.asarray(np.ones(2, dtype="float64"), device=device)
    for bad in ("1", None, [1.0], np.ones(2), np.float32(1.0)):
        with pytest.raises(TypeError, match=r"^add"):
            xp.add(x, bad)
        with pytest.raises(TypeError, match=r"^add"):
            xp.add(bad, x)
