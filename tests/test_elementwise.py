"""Element-wise functions: input dtype categories, result dtypes, values against NumPy.

The oracle is a table written from the standard's function pages (not xpgpu's own table):
https://data-apis.org/array-api/2025.12/API_specification/elementwise_functions.html
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from conftest import assert_close, to_numpy

import xpgpu as xp

B = ["bool"]
INT = ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"]
RF = ["float32", "float64"]
CF = ["complex64", "complex128"]
ALL = B + INT + RF + CF
# The standard's input categories, by name.
CAT = {
    "numeric": INT + RF + CF, "real numeric": INT + RF, "floating": RF + CF,
    "real floating": RF, "complex floating": CF, "integer": INT,
    "integer or boolean": INT + B, "boolean": B, "all": ALL,
}

# name: (arity, category, result rule, NumPy oracle). Result rules: "same" (the input's
# dtype), "bool", "real" (the real dtype of a complex input, else the same).
SPEC = {
    "abs": (1, "numeric", "real", np.abs),
    "acos": (1, "floating", "same", np.arccos),
    "acosh": (1, "floating", "same", np.arccosh),
    "add": (2, "numeric", "same", np.add),
    "asin": (1, "floating", "same", np.arcsin),
    "asinh": (1, "floating", "same", np.arcsinh),
    "atan": (1, "floating", "same", np.arctan),
    "atan2": (2, "real floating", "same", np.arctan2),
    "atanh": (1, "floating", "same", np.arctanh),
    "bitwise_and": (2, "integer or boolean", "same", np.bitwise_and),
    "bitwise_left_shift": (2, "integer", "same", np.left_shift),
    "bitwise_invert": (1, "integer or boolean", "same", np.invert),
    "bitwise_or": (2, "integer or boolean", "same", np.bitwise_or),
    "bitwise_right_shift": (2, "integer", "same", np.right_shift),
    "bitwise_xor": (2, "integer or boolean", "same", np.bitwise_xor),
    "ceil": (1, "real numeric", "same", np.ceil),
    "conj": (1, "numeric", "same", np.conj),
    "copysign": (2, "real floating", "same", np.copysign),
    "cos": (1, "floating", "same", np.cos),
    "cosh": (1, "floating", "same", np.cosh),
    "divide": (2, "floating", "same", np.divide),
    "equal": (2, "all", "bool", np.equal),
    "exp": (1, "floating", "same", np.exp),
    "expm1": (1, "floating", "same", np.expm1),
    "floor": (1, "real numeric", "same", np.floor),
    "floor_divide": (2, "real numeric", "same", np.floor_divide),
    "greater": (2, "real numeric", "bool", np.greater),
    "greater_equal": (2, "real numeric", "bool", np.greater_equal),
    "hypot": (2, "real floating", "same", np.hypot),
    "imag": (1, "complex floating", "real", np.imag),
    "isfinite": (1, "numeric", "bool", np.isfinite),
    "isinf": (1, "numeric", "bool", np.isinf),
    "isnan": (1, "numeric", "bool", np.isnan),
    "less": (2, "real numeric", "bool", np.less),
    "less_equal": (2, "real numeric", "bool", np.less_equal),
    "log": (1, "floating", "same", np.log),
    "log1p": (1, "floating", "same", np.log1p),
    "log2": (1, "floating", "same", np.log2),
    "log10": (1, "floating", "same", np.log10),
    "logaddexp": (2, "real floating", "same", np.logaddexp),
    "logical_and": (2, "boolean", "same", np.logical_and),
    "logical_not": (1, "boolean", "same", np.logical_not),
    "logical_or": (2, "boolean", "same", np.logical_or),
    "logical_xor": (2, "boolean", "same", np.logical_xor),
    "maximum": (2, "real numeric", "same", np.maximum),
    "minimum": (2, "real numeric", "same", np.minimum),
    "multiply": (2, "numeric", "same", np.multiply),
    "negative": (1, "numeric", "same", np.negative),
    "nextafter": (2, "real floating", "same", np.nextafter),
    "not_equal": (2, "all", "bool", np.not_equal),
    "positive": (1, "numeric", "same", np.positive),
    "pow": (2, "numeric", "same", np.power),
    "real": (1, "numeric", "real", np.real),
    "reciprocal": (1, "floating", "same", np.reciprocal),
    "remainder": (2, "real numeric", "same", np.remainder),
    "round": (1, "numeric", "same", np.round),
    "sign": (1, "numeric", "same", np.sign),
    "signbit": (1, "real floating", "bool", np.signbit),
    "sin": (1, "floating", "same", np.sin),
    "sinh": (1, "floating", "same", np.sinh),
    "square": (1, "numeric", "same", np.square),
    "sqrt": (1, "floating", "same", np.sqrt),
    "subtract": (2, "numeric", "same", np.subtract),
    "tan": (1, "floating", "same", np.tan),
    "tanh": (1, "floating", "same", np.tanh),
    "trunc": (1, "real numeric", "same", np.trunc),
}
REAL_OF = {"complex64": "float32", "complex128": "float64"}
# Integer-valued functions whose integer inputs come back unchanged (not NumPy's float).
PASSTHROUGH = {"ceil", "floor", "round", "trunc"}


def test_table_covers_the_namespace() -> None:
    """Every element-wise function of the standard is in xpgpu, and nothing is missing
    from this oracle (the names of the spec's elementwise page)."""
    for name in SPEC:
        assert callable(getattr(xp, name)), name


# Inputs by dtype kind: ordinary values away from every special case and domain edge.
def _values(dtype: str, name: str, second: bool = False) -> np.ndarray:
    if dtype == "bool":
        vals = [True, False, True, True, False, False]
        return np.array(vals[::-1] if second else vals)
    if dtype in INT:
        info = np.iinfo(dtype)
        if name in ("bitwise_left_shift", "bitwise_right_shift") and second:
            return np.array([0, 1, 2, 3, 1, 2], dtype=dtype)
        if name == "pow" and second:
            return np.array([0, 1, 2, 3, 1, 2], dtype=dtype)
        if name in ("floor_divide", "remainder") and second:
            vals = [3, 2, 7, 5, 1, 4] if info.min == 0 else [3, -2, 7, -5, 1, 4]
            return np.array(vals, dtype=dtype)
        vals = [0, 1, 5, 7, 100, 12] if info.min == 0 else [0, 1, -5, 7, -100, 12]
        return np.array(vals, dtype=dtype)
    real = np.array([0.25, -0.5, 0.75, 0.125, -0.875, 0.5] if not second else
                    [0.5, 0.75, -0.25, 0.625, 0.375, -0.125])
    if name in ("acosh",):
        real = np.abs(real) + 1.5
    if name in ("log", "log2", "log10", "sqrt") and dtype in RF:
        real = np.abs(real)
    if name == "pow" and dtype in RF and not second:
        real = np.abs(real)
    if dtype in CF:
        return (real + 1j * real[::-1]).astype(dtype)
    return real.astype(dtype)


def _cases() -> list[tuple[str, str]]:
    return [(name, dt) for name, (_, cat, _, _) in SPEC.items() for dt in CAT[cat]]


def _wrong_cases() -> list[tuple[str, str]]:
    return [(name, dt) for name, (_, cat, _, _) in SPEC.items() for dt in ALL
            if dt not in CAT[cat]]


@pytest.mark.strict_only
@pytest.mark.parametrize("name,dtype", _wrong_cases())
def test_wrong_dtype_category_raises(device, name: str, dtype: str) -> None:
    """Every dtype outside the function's category gives a TypeError naming the function."""
    arity = SPEC[name][0]
    x = xp.asarray(np.zeros(3, dtype=dtype), device=device)
    with pytest.raises(TypeError, match=rf"^{name}\b"):
        getattr(xp, name)(*([x] * arity))


@pytest.mark.parametrize("name,dtype", _cases())
def test_result_dtype_and_values(device, name: str, dtype: str) -> None:
    """The result dtype follows the standard; values equal NumPy's within a few ulp
    (exactly for integers and booleans), on each device."""
    arity, _, rule, oracle = SPEC[name]
    args = [_values(dtype, name)] + ([_values(dtype, name, second=True)] if arity == 2 else [])
    out = getattr(xp, name)(*[xp.asarray(a, device=device) for a in args])
    expected_dtype = {"same": dtype, "bool": "bool", "real": REAL_OF.get(dtype, dtype)}[rule]
    assert out.dtype == np.dtype(expected_dtype), (out.dtype, expected_dtype)
    assert out.device == device
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected = np.asarray(oracle(*args))
    if name in PASSTHROUGH and dtype in INT:
        expected = args[0]
    assert_close(out, expected.astype(expected_dtype), ulps=8)


@pytest.mark.parametrize("name", [n for n, s in SPEC.items() if s[0] == 2])
def test_binary_broadcasting_and_promotion(device, name: str) -> None:
    """Two arrays of different shapes broadcast; dtypes of one kind promote per the table."""
    _, cat, rule, _ = SPEC[name]
    dts = CAT[cat]
    pairs = {("int8", "int16"): "int16", ("uint8", "int8"): "int16",
             ("float32", "float64"): "float64", ("complex64", "float64"): "complex128",
             ("uint32", "int32"): "int64", ("bool", "bool"): "bool"}
    for (a, b), p in pairs.items():
        if a not in dts or b not in dts:
            continue
        x1 = xp.asarray(_values(a, name)[:3].reshape(3, 1), device=device)
        x2 = xp.asarray(_values(b, name, second=True)[:2], device=device)
        out = getattr(xp, name)(x1, x2)
        assert out.shape == (3, 2)
        want = "bool" if rule == "bool" else p
        assert out.dtype == np.dtype(want), (a, b, out.dtype)


@pytest.mark.strict_only
@pytest.mark.parametrize("name", ["add", "multiply", "maximum", "equal", "divide", "pow"])
def test_cross_kind_arrays_raise(device, name: str) -> None:
    """Arrays of different kinds (int with float) have no promotion in the standard."""
    x1 = xp.asarray(np.ones(2, dtype="int32"), device=device)
    x2 = xp.asarray(np.ones(2, dtype="float32"), device=device)
    with pytest.raises(TypeError, match=rf"^{name}\b"):
        getattr(xp, name)(x1, x2)


@pytest.mark.strict_only
@pytest.mark.parametrize("name", ["add", "sin", "floor_divide"])
def test_non_array_arguments_raise(device, name: str) -> None:
    """Lists, NumPy arrays and strings are not arrays: TypeError naming the function."""
    x = xp.asarray(np.ones(2, dtype="float64"), device=device)
    for bad in ([1.0, 2.0], np.ones(2), "a"):
        with pytest.raises(TypeError, match=rf"^{name}\b"):
            if SPEC[name][0] == 1:
                getattr(xp, name)(bad)
            else:
                getattr(xp, name)(x, bad)


def test_zero_dimensional_results_are_arrays(device) -> None:
    """A 0-d operation gives a 0-d xpgpu array (NumPy would give a scalar)."""
    x = xp.asarray(2.0, device=device)
    for out in (xp.sin(x), xp.add(x, x), xp.floor_divide(x, 3.0), xp.expm1(x)):
        assert type(out) is xp.Array and out.shape == ()
        assert out.dtype == xp.float64


def test_integer_passthrough_returns_a_copy(device) -> None:
    """floor/ceil/round/trunc of an integer array: the same values and dtype, new memory."""
    x = xp.asarray(np.array([1, -2, 3], dtype="int16"), device=device)
    for f in (xp.floor, xp.ceil, xp.round, xp.trunc):
        out = f(x)
        assert out.dtype == xp.int16
        assert out._data is not x._data
        np.testing.assert_array_equal(to_numpy(out), [1, -2, 3])


def test_clip_and_where_with_an_int_beyond_int64(device) -> None:
    """A Python int beyond int64 with a floating array is its float value, as in NumPy (CuPy
    alone raises "Python int too large to convert to C long")."""
    a = np.array([-3.0, 0.5, 4.0e19])
    x = xp.asarray(a, device=device)
    assert_close(xp.clip(x, min=2**64), np.clip(a, 2**64, None))
    assert_close(xp.clip(x, max=-(2**70)), np.clip(a, None, -(2**70)))
    cond = xp.asarray([True, False, True], device=device)
    assert_close(xp.where(cond, x, 2**64), np.where([True, False, True], a, float(2**64)))
    assert_close(xp.where(cond, -(2**65), x), np.where([True, False, True], -float(2**65), a))
    with pytest.raises(OverflowError, match=r"^clip: Python int .* out of range"):
        xp.clip(x, min=10**400)


def test_clip(device) -> None:
    """clip with scalar and array bounds, against NumPy."""
    a = np.array([-3.0, 0.5, 4.0], dtype="float32")
    x = xp.asarray(a, device=device)
    assert_close(xp.clip(x, -1.0, 1.0), np.clip(a, -1, 1))
    lo = xp.asarray(np.array([0.0, 0.0, 0.0], dtype="float32"), device=device)
    assert_close(xp.clip(x, min=lo), np.clip(a, 0, None))
    with pytest.raises(TypeError, match=r"^clip"):
        xp.clip(xp.asarray(np.array([1j]), device=device), 0.0, 1.0)
