"""The two profiles: set_strict / XPGPU_STRICT. Oracle: NumPy 2 on the same inputs (the
permissive rule: where the standard is silent, do what NumPy does), with NumPy's float16
replaced by float32 (no standard dtype); the standard's own results, written out here,
where it defines one."""

from __future__ import annotations

import importlib.util
import operator
import os
import subprocess
import sys
import warnings

import numpy as np
import pytest
from conftest import assert_close, to_numpy

import xpgpu as xp

NP_DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
             "float32", "float64", "complex64", "complex128"]
# The standard's binary element-wise functions and NumPy's ufunc of the same meaning.
BINARY = {
    "add": "add", "atan2": "arctan2", "bitwise_and": "bitwise_and",
    "bitwise_left_shift": "left_shift", "bitwise_or": "bitwise_or",
    "bitwise_right_shift": "right_shift", "bitwise_xor": "bitwise_xor",
    "copysign": "copysign", "divide": "divide", "equal": "equal",
    "floor_divide": "floor_divide", "greater": "greater", "greater_equal": "greater_equal",
    "hypot": "hypot", "less": "less", "less_equal": "less_equal", "logaddexp": "logaddexp",
    "logical_and": "logical_and", "logical_or": "logical_or", "logical_xor": "logical_xor",
    "maximum": "maximum", "minimum": "minimum", "multiply": "multiply",
    "nextafter": "nextafter", "not_equal": "not_equal", "pow": "power",
    "remainder": "remainder", "subtract": "subtract",
}
UNARY = {
    "abs": "absolute", "acos": "arccos", "acosh": "arccosh", "asin": "arcsin",
    "asinh": "arcsinh", "atan": "arctan", "atanh": "arctanh", "bitwise_invert": "invert",
    "conj": "conjugate", "cos": "cos", "cosh": "cosh", "exp": "exp", "expm1": "expm1",
    "isfinite": "isfinite", "isinf": "isinf", "isnan": "isnan", "log": "log",
    "log1p": "log1p", "log2": "log2", "log10": "log10", "logical_not": "logical_not",
    "negative": "negative", "positive": "positive", "reciprocal": "reciprocal",
    "sign": "sign", "signbit": "signbit", "sin": "sin", "sinh": "sinh", "sqrt": "sqrt",
    "square": "square", "tan": "tan", "tanh": "tanh",
}
# NumPy's float16 results (sin of int8 ...) become float32: computed in float32.
_F16 = np.dtype("float16")


# The profile this run selected (XPGPU_STRICT): each test here starts strict and leaves
# that profile behind, so the tests after it see what they were imported with.
_RUN_STRICT = xp._profile.current()


@pytest.fixture(autouse=True)
def _strict_first():
    """Every test starts in the strict profile; the run's profile is restored after."""
    xp.set_strict(True)
    yield
    xp.set_strict(_RUN_STRICT)


@pytest.fixture
def permissive():
    """The permissive profile for one test."""
    xp.set_strict(False)


def _sample(dtype: str) -> np.ndarray:
    if dtype == "bool":
        return np.array([True, False, True])
    return np.array([1, 2, 3], dtype=dtype)


def _numpy(ufunc: np.ufunc, *args: np.ndarray):
    """NumPy's result, or the exception type NumPy raises."""
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            out = ufunc(*args)
        except TypeError:
            return TypeError
        if out.dtype == _F16:
            out = ufunc(*(a.astype("float32") if isinstance(a, np.ndarray) else a
                          for a in args))
        return out


def _strict_defines(func, *args) -> bool:
    try:
        func(*args)
    except TypeError:
        return False
    return True


# Known gaps on CUDA (docs/profiles.md), seen on an H200 with CuPy 14.2: CuPy's float32
# nextafter flushes subnormal results (nextafter(0, 1) is FLT_MIN, not 1e-45), and CuPy's
# complex division by zero gives nan+nanj where NumPy gives inf+infj.
CUDA_GAPS = {"nextafter": "CuPy's float32 nextafter flushes subnormal results",
             "divide": "CuPy's complex division by zero is nan+nanj (NumPy: inf+infj)"}


def _cuda_gap(device, name, where):
    if device.kind == "cuda" and name in where:
        pytest.xfail(CUDA_GAPS[name])


@pytest.mark.parametrize("name", sorted(BINARY))
def test_binary_arrays_follow_numpy(permissive, device, name):
    _cuda_gap(device, name, ("nextafter",))
    """Every dtype pair: the standard's result where it defines one (unchanged), NumPy's
    where it does not (type and values)."""
    func, ufunc = getattr(xp, name), getattr(np, BINARY[name])
    for a in NP_DTYPES:
        for b in NP_DTYPES:
            na, nb = _sample(a), _sample(b)
            x1, x2 = xp.asarray(na, device=device), xp.asarray(nb, device=device)
            expected = _numpy(ufunc, na, nb)
            if expected is TypeError:
                with pytest.raises(TypeError, match=f"^{name}: "):
                    func(x1, x2)
                continue
            with np.errstate(all="ignore"), warnings.catch_warnings():
                warnings.simplefilter("ignore")
                assert_close(func(x1, x2), expected)


@pytest.mark.parametrize("name", ["add", "subtract", "multiply", "divide", "pow", "less",
                                  "floor_divide", "maximum", "logical_and", "bitwise_and"])
def test_binary_python_scalars_follow_numpy(permissive, device, name):
    _cuda_gap(device, name, ("divide",))
    """NEP 50 as NumPy 2: int array + 1.5 is float64, bool array + 1 is int64 ..."""
    func, ufunc = getattr(xp, name), getattr(np, BINARY[name])
    for a in NP_DTYPES:
        for s in (True, 2, 1.5, 2 + 1j):
            na = _sample(a)
            x = xp.asarray(na, device=device)
            for args, xargs in (((na, s), (x, s)), ((s, na), (s, x))):
                expected = _numpy(ufunc, *args)
                if expected is TypeError:
                    with pytest.raises(TypeError):
                        func(*xargs)
                    continue
                with np.errstate(all="ignore"):
                    assert_close(func(*xargs), expected)


@pytest.mark.parametrize("name", sorted(UNARY))
def test_unary_follow_numpy(permissive, device, name):
    func, ufunc = getattr(xp, name), getattr(np, UNARY[name])
    for a in NP_DTYPES:
        na = _sample(a)
        expected = _numpy(ufunc, na)
        x = xp.asarray(na, device=device)
        if expected is TypeError:
            with pytest.raises(TypeError, match=f"^{name}: "):
                func(x)
            continue
        with np.errstate(all="ignore"):
            assert_close(func(x), expected)


def test_operators(permissive, device):
    """The issue's examples, against NumPy: operators and in-place operators."""
    n = np.arange(3)
    x = xp.asarray(n, device=device)
    assert_close(x / 2, n / 2)
    assert_close(x * 1.5, n * 1.5)
    assert_close(2 / x[1:], 2 / n[1:])
    b = np.array([True, False])
    assert_close(xp.asarray(b, device=device) + 1, b + 1)
    f = np.zeros(3)
    y = xp.asarray(f, device=device)
    y += x  # float64 += int64 (cohen_kappa_score)
    f += n
    assert_close(y, f)
    i32 = xp.asarray(n.astype("int32"), device=device)
    i32 += x  # int64 result written into int32: NumPy's same_kind cast
    assert_close(i32, n.astype("int32") + n.astype("int32"))
    with pytest.raises(TypeError, match=r"^__iadd__: "):  # NumPy refuses too
        x += 1.5
    with pytest.raises(TypeError):
        n_copy = n.copy()
        n_copy += 1.5


def test_standard_results_unchanged(permissive, device):
    """Where the standard defines the result it wins: NEP 50 same-kind scalars, its
    promotion table, special cases, bounds of Python ints."""
    i8 = xp.asarray([1, 2], dtype=xp.int8, device=device)
    f32 = xp.asarray([1.0, 2.0], dtype=xp.float32, device=device)
    assert (i8 + 1).dtype == xp.int8
    assert (f32 * 1.5).dtype == xp.float32
    assert (f32 * 2).dtype == xp.float32
    assert (f32 + 1j).dtype == xp.complex64
    # numpy.float64 is a Python float (a subclass): the standard's weak float.
    assert (f32 * np.float64(2)).dtype == xp.float32
    assert (i8 + xp.asarray([1], dtype=xp.uint8, device=device)).dtype == xp.int16
    with pytest.raises(OverflowError):
        xp.asarray([1], dtype=xp.uint8, device=device) + 300
    # Special cases: the standard's, on both devices (NumPy gives -0.0 / NaN / 1 here).
    inf = xp.asarray([xp.inf, -xp.inf], device=device)
    assert_close(xp.floor_divide(inf, 2.0), np.array([np.inf, -np.inf]))
    assert_close(xp.sign(xp.asarray([xp.nan], device=device)), np.array([np.nan]))
    assert_close(xp.floor(xp.asarray([1, 2], dtype=xp.int8, device=device)),
                 np.array([1, 2], dtype="int8"))
    assert xp.can_cast(xp.int64, xp.float64) is False  # the standard's can_cast stays


def test_result_type_follows_numpy(permissive):
    for a in NP_DTYPES:
        for b in NP_DTYPES:
            assert xp.result_type(getattr(xp, a), getattr(xp, b)) == np.result_type(a, b)
        for s in (True, 1, 1.5, 1j):
            expected = np.result_type(np.dtype(a), s) if a != "bool" or s is True else None
            if expected is not None:
                assert xp.result_type(getattr(xp, a), s) == expected, (a, s)
    assert xp.result_type(xp.bool, 1) == xp.int64  # NEP 50: np.ones(1, bool) + 1
    assert xp.result_type("float32", np.int64, 1.5) == xp.float64


def test_where_clip_statistics(permissive, device):
    n = np.arange(4, dtype="int32")
    x = xp.asarray(n, device=device)
    cond = n > 1
    c = xp.asarray(cond, device=device)
    assert_close(xp.where(c, x, 1.5), np.where(cond, n, 1.5))
    f = np.linspace(0, 1, 4, dtype="float32")
    assert_close(xp.where(c, x, xp.asarray(f, device=device)), np.where(cond, n, f))
    assert_close(xp.where(x, x, 0), np.where(n, n, 0))  # a non-bool condition
    (got,) = xp.where(c)  # NumPy's one-argument form (roc_curve): nonzero
    assert_close(got, np.where(cond)[0])
    assert_close(xp.clip(x, 0.5, 2.5), np.clip(n, 0.5, 2.5))
    assert_close(xp.clip(x, 1, 2), np.clip(n, 1, 2))
    for name in ("mean", "var", "std"):
        assert_close(getattr(xp, name)(x), getattr(np, name)(n))
    b = np.array([True, False, True])
    assert_close(xp.sum(xp.asarray(b, device=device)), np.sum(b))
    assert_close(xp.mean(xp.asarray(b, device=device)), np.mean(b))
    assert_close(xp.cumulative_sum(xp.asarray(b, device=device)), np.cumsum(b))


def test_keyword_only_by_position(permissive, device):
    n = np.arange(12.0).reshape(3, 4)
    x = xp.asarray(n, device=device)
    assert_close(xp.diff(x, 2), np.diff(n, 2))
    assert_close(xp.diff(x, 1, 0), np.diff(n, 1, 0))
    assert_close(xp.sum(x, 0), np.sum(n, 0))
    assert_close(xp.sum(x, 1, xp.float32), np.sum(n, 1, np.float32))
    assert_close(xp.mean(x, 0), np.mean(n, 0))
    assert_close(xp.max(x, 1), np.max(n, 1))
    assert_close(xp.argsort(x, -1), np.argsort(n, -1))
    assert_close(xp.concat([x, x], 1), np.concatenate([n, n], 1))
    assert_close(xp.stack([x, x], 1), np.stack([n, n], 1))
    assert_close(xp.linspace(0, 1, 5, False, device=device), np.linspace(0, 1, 5, False))
    assert_close(xp.tril(x, 1), np.tril(n, 1))
    assert_close(xp.fft.fft(xp.astype(x, xp.complex128), 3),
                 np.fft.fft(n.astype("complex128"), 3))
    # sum's own code takes axis and dtype by position (no wrapper): Python's messages.
    with pytest.raises(TypeError, match=r"sum\(\) takes from 1 to 3 positional"):
        xp.sum(x, 0, None, None)
    with pytest.raises(TypeError, match=r"sum\(\) got multiple values"):
        xp.sum(x, 0, axis=1)
    with pytest.raises(TypeError, match=r"^diff: takes at most 5 positional"):
        xp.diff(x, 1, 0, None, None, 1)
    with pytest.raises(TypeError, match=r"^diff: got multiple values"):
        xp.diff(x, 1, n=1)


def test_full_of_an_array_and_searchsorted_across_kinds(permissive, device):
    # SciPy 1.18: binomtest fills with a 0-d array, quantile_test searches floats in ints.
    for fill, dtype in [(np.array(2.5), None), (np.array(7, "int32"), None),
                        (np.array(7), np.float32), (np.array([1.0, 2.0]), None)]:
        got = xp.full((2, 2), xp.asarray(fill, device=device),
                      dtype=None if dtype is None else getattr(xp, np.dtype(dtype).name))
        assert got.device == device
        assert_close(got, np.full((2, 2), fill, dtype=dtype))
    ints, floats = np.array([1, 2, 3, 5]), np.array([0.5, 2.0, 4.5, 9.0])
    for a, q in [(ints, floats), (floats, ints)]:
        for side in ("left", "right"):
            got = xp.searchsorted(xp.asarray(a, device=device), xp.asarray(q, device=device),
                                  side=side)
            assert_close(got, np.searchsorted(a, q, side=side))
    xp.set_strict(True)
    with pytest.raises(TypeError, match=r"^full: "):
        xp.full(2, xp.asarray(2.5, device=device))
    with pytest.raises(TypeError, match=r"^searchsorted: "):
        xp.searchsorted(xp.asarray(ints, device=device), xp.asarray(floats, device=device))


def test_stack_concat_of_a_namedtuple(permissive, device):
    # SciPy stacks its ConfidenceInterval namedtuples; their constructor takes 2 arguments.
    from collections import namedtuple
    pair = namedtuple("pair", "low high")
    n = np.arange(3.0)
    x = xp.asarray(n, device=device)
    i = xp.asarray(np.arange(3), device=device)
    assert_close(xp.stack(pair(x, i)), np.stack(pair(n, np.arange(3))))
    assert_close(xp.concat(pair(x, i), 0), np.concatenate(pair(n, np.arange(3)), 0))


@pytest.mark.parametrize("args", [(0, 1, 5), (-3, 2, 7), (0, 10, 4), (-1, -7, 9),
                                  (2.5, -3.5, 13), (0, 5, 5, False), (1, 4, 1), (3, 9, 0)])
@pytest.mark.parametrize("dtype", ["int8", "int32", "int64", "uint8", "uint64", "bool"])
def test_linspace_integer_dtype_as_numpy(permissive, device, args, dtype):
    if dtype.startswith("uint") and min(args[:2]) < 0:
        pytest.skip("negative values in an unsigned dtype (NumPy: undefined cast)")
    got = xp.linspace(*args, dtype=dtype, device=device)
    want = np.linspace(*args, dtype=dtype)  # NumPy 2: floor, then astype
    assert got.dtype == xp.__dict__[dtype]
    np.testing.assert_array_equal(to_numpy(got), want, strict=True)


@pytest.mark.parametrize("args", [(5,), (1, 7, 2), (0.5, 3, 0.25), (-2, 2, 0.3),
                                  (10, 0, -1.5), (3, 3)])
@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_arange_complex_dtype_as_numpy(permissive, device, args, dtype):
    got = xp.arange(*args, dtype=dtype, device=device)
    want = np.arange(*args, dtype=dtype)
    assert got.dtype == xp.__dict__[dtype]
    if device.kind == "cpu":  # the same fill as NumPy's
        np.testing.assert_array_equal(to_numpy(got), want, strict=True)
    else:  # CuPy computes start + i * step; NumPy adds a delta rounded to the dtype
        assert_close(got, want, ulps=32)
    assert_close(xp.arange(0, 3, 1, xp.complex64, device=device),
                 np.arange(0, 3, 1, np.complex64))


def test_linspace_arange_dtypes_strict_and_refusals(device):
    with pytest.raises(TypeError, match=r"^linspace: dtype must be a floating-point"):
        xp.linspace(0, 1, 3, dtype=xp.int64, device=device)
    with pytest.raises(TypeError, match=r"^arange: dtype must be a real numeric"):
        xp.arange(3, dtype=xp.complex64, device=device)
    xp.set_strict(False)
    with pytest.raises(TypeError, match=r"^linspace: complex start or stop cannot give"):
        xp.linspace(0, 1j, 3, dtype=xp.int64, device=device)
    assert_close(xp.linspace(0, 1, 3, True, dtype=xp.float32, device=device),
                 np.linspace(0, 1, 3, True, dtype=np.float32))


def test_lists_for_tuples(permissive, device):
    n = np.arange(6.0).reshape(2, 3)
    x = xp.asarray(n, device=device)
    assert_close(xp.permute_dims(x, [1, 0]), np.transpose(n, [1, 0]))
    assert_close(xp.reshape(x, [3, 2]), np.reshape(n, [3, 2]))
    assert_close(xp.broadcast_to(x, [2, 2, 3]), np.broadcast_to(n, [2, 2, 3]))
    assert_close(xp.tile(x, [1, 2]), np.tile(n, [1, 2]))
    assert_close(xp.moveaxis(x, [0], [1]), np.moveaxis(n, [0], [1]))


def test_numpy_operands(permissive, device):
    """NumPy arrays and scalars as operands: moved to the array's device, NumPy's dtype
    (NEP 50: NumPy scalars are strong); the result is an xpgpu array, both orders."""
    f = np.ones(3, dtype="float32")
    i = np.arange(3, dtype="int32")
    xf, xi = xp.asarray(f, device=device), xp.asarray(i, device=device)
    m = np.ones((2, 3))
    for got, expected in [
        (xf * np.float32(2), f * np.float32(2)),
        (np.float32(2) * xf, np.float32(2) * f),
        (xi + np.int64(2), i + np.int64(2)),
        (xi + m, i + m),
        (m + xi, m + i),
        (m * xf, m * f),
        (xp.add(xi, m), np.add(i, m)),
        (np.add(m, xi), np.add(m, i)),
        (xi @ np.ones((3, 2), dtype="float32"), i @ np.ones((3, 2), dtype="float32")),
    ]:
        assert type(got) is xp.Array and got.device == device
        assert_close(got, expected)
    y = xp.asarray(np.zeros(3), device=device)
    y += np.ones(3, dtype="float32")
    assert_close(y, np.ones(3))
    h = np.zeros(3)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the one-time copy warning on CUDA
        h += y  # NumPy's in-place operator with an array-like: written into h
    assert h.tolist() == [1.0, 1.0, 1.0]


def test_numpy_ufuncs_run_xpgpu_functions(device):
    """Both profiles: NumPy ufuncs on xpgpu arrays run xpgpu's function on the device."""
    n = np.array([-1.0, 2.0, -3.0])
    x = xp.asarray(n, device=device)
    for got, expected in [(np.abs(x), np.abs(n)), (np.exp(x), np.exp(n)),
                          (np.sum(x), np.sum(n)), (np.max(x), np.max(n)),
                          (np.add(x, 1), n + 1), (np.float64(2) * x, 2 * n)]:
        assert type(got) is xp.Array and got.device == device
        assert_close(got, expected)
    with pytest.raises(TypeError, match=r"^numpy\.add\.accumulate: "):
        np.add.accumulate(x)
    with pytest.raises(TypeError, match=r"^numpy\.add: .*set_strict\(False\)"):
        np.add(x, n)  # strict: a NumPy operand
    h = n.copy()
    with pytest.raises(TypeError, match=r"^numpy\.add: out= is not supported"):
        h += x


@pytest.mark.parametrize("op, reflected", [
    (operator.eq, operator.eq), (operator.ne, operator.ne), (operator.lt, operator.gt),
    (operator.le, operator.ge), (operator.gt, operator.lt), (operator.ge, operator.le)])
def test_reflected_comparison_with_python_float_subclasses(profile, device, op, reflected):
    """np.float64 and np.complex128 are Python float and complex (weak scalars): compared
    with an xpgpu array from the left (NumPy passes them to the ufunc as 0-d arrays), they
    give what the comparison from the right gives (SciPy's tests: ``a[i] == c[i]``)."""
    x = xp.asarray([1.0, 0.5, 2.0], device=device)
    for value in (np.float64(1.0), np.float64(0.5)):
        got = op(value, x)
        assert type(got) is xp.Array and got.device == device
        assert_close(got, op(value, to_numpy(x)))
        assert_close(got, to_numpy(reflected(x, value)))
    assert_close(np.complex128(0.5) == x, np.array([False, True, False]))
    # a value float32 cannot hold: weak (x's float32) from either side, in both profiles
    y = xp.asarray(np.array([0.1], np.float32), device=device)
    assert_close(op(np.float64(0.1), y), to_numpy(reflected(y, np.float64(0.1))))


@pytest.mark.parametrize("expr", [
    "f32 * np.float32(2)", "i + np.int64(2)", "a + np.ones((3, 4))", "np.ones((3, 4)) + a",
    "np.asarray(2.0) * f32", "np.ones(3) == f32",
    "np.float32(2) * f32", "a[np.array([0, 1])]", "np.multiply(a, np.ones((3, 4)))",
])
def test_strict_refuses_numpy_operands_with_the_fix(device, expr):
    """Issue 11 item 1: xpgpu's own TypeError/IndexError with the fix, not NumPy's."""
    names = {"np": np, "f32": xp.ones(3, dtype=xp.float32, device=device),
             "i": xp.ones(3, dtype=xp.int32, device=device), "a": xp.ones((3, 4), device=device)}
    with pytest.raises((TypeError, IndexError)) as info:
        eval(expr, names)
    message = str(info.value)
    assert "xpgpu.asarray" in message and "set_strict(False)" in message, message
    assert "__array_ufunc__" not in message and "Concatenation" not in message


def test_indices_follow_numpy(permissive, device):
    n = np.arange(24).reshape(4, 6)
    x = xp.asarray(n, device=device)
    idx = np.array([0, 2])
    mask = np.array([True, False, True, False])
    for key in [idx, [0, 2], (idx, slice(1, 3)), (slice(None), idx), 1, (mask, 0),
                (mask, slice(None)), (idx, idx), np.int64(2), (Ellipsis, idx),
                (xp.asarray(idx, device=device), slice(None))]:
        assert_close(x[key], n[key])
    y, m = xp.asarray(n, device=device), n.copy()
    for key, value in [(idx, 0), ([1, 3], np.array([7] * 6)), ((idx, slice(0, 2)), 5),
                       (0, 2.7), ((mask, 1), np.int64(9))]:
        y[key] = value
        m[key] = value
        assert_close(y, m)
    with pytest.raises(IndexError, match=r"^__getitem__: "):
        x[np.array([1.5])]
    with pytest.raises(IndexError, match=r"^__getitem__: "):
        x["a"]
    assert_close(x[np.array(1)], n[np.array(1)])


@pytest.mark.parametrize("shape, key", [
    ((0,), np.array([0])), ((2, 0), (slice(None), np.array([0, 1]))),
    ((0, 3), (Ellipsis, np.array([1]), slice(None))), ((2, 0), (np.array([1]), np.array([0])))])
def test_assignment_through_an_empty_axis_raises(permissive, device, shape, key):
    """An integer index array into an axis of length 0 is out of bounds, as in NumPy (CuPy's
    scatter divides by the length: an illegal memory access that ends the CUDA context)."""
    with pytest.raises(IndexError):
        np.zeros(shape)[key] = 1.0
    x = xp.zeros(shape, device=device)
    with pytest.raises(IndexError, match=r"^__setitem__: .*out of bounds"):
        x[key] = 1.0
    x[np.array([], dtype=np.int64)] = 1.0  # an empty index assigns nothing
    assert_close(xp.sum(x), 0.0)


def test_numpy_ufuncs_without_counterpart_run_on_the_host(permissive, device):
    """Permissive: NumPy's behaviour with an array-like (it converts with __array__), the
    result back on the array's device; strict refuses with the fix."""
    n = np.array([0.5, 2.0])
    x = xp.asarray(n, device=device)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the one-time copy warning on CUDA
        got = np.cbrt(x)
        mantissa, exponent = np.frexp(x)
    assert type(got) is xp.Array and got.device == device
    assert_close(got, np.cbrt(n))
    assert_close(mantissa, np.frexp(n)[0])
    assert_close(exponent, np.frexp(n)[1])
    xp.set_strict(True)
    with pytest.raises(TypeError, match=r"^numpy\.cbrt: .*x\.to_device"):
        np.cbrt(x)


def test_dtype_spellings(permissive, device):
    for spelling, expected in [("float32", xp.float32), (float, xp.float64),
                               (np.float32, xp.float32), ("f8", xp.float64), (int, xp.int64),
                               (bool, xp.bool), ("complex64", xp.complex64)]:
        assert xp.zeros(2, dtype=spelling, device=device).dtype == expected
        assert xp.asarray([1], dtype=spelling, device=device).dtype == expected
    assert xp.astype(xp.ones(2, device=device), "int32").dtype == xp.int32
    assert xp.isdtype("float32", "real floating")
    for bad in ("float16", "U3", object, "nonsense"):
        with pytest.raises(TypeError, match=r"^zeros: "):
            xp.zeros(2, dtype=bad, device=device)


def test_switching_restores_strict_exactly(device):
    names = {n: getattr(xp, n) for n in xp.__all__}  # strict (the autouse fixture)
    methods = {n: xp.Array.__dict__[n] for n in ("__add__", "__iadd__", "__getitem__",
                                                 "__setitem__", "__array__",
                                                 "__array_ufunc__")}
    xp.set_strict(False)
    assert xp.add is not names["add"] and xp.Array.__dict__["__add__"] is not methods["__add__"]
    x = xp.arange(3, device=device)
    assert (x / 2).dtype == xp.float64
    xp.set_strict(True)
    assert {n: getattr(xp, n) for n in xp.__all__} == names
    assert {n: xp.Array.__dict__[n] for n in methods} == methods
    with pytest.raises(TypeError):
        x / 2
    xp.set_strict(False)  # the second switch reuses the built tables
    assert (x / 2).dtype == xp.float64
    xp.set_strict(True)
    with pytest.raises(TypeError, match=r"^set_strict: "):
        xp.set_strict(0)


@pytest.mark.parametrize("order", ["profile first", "revision first"])
def test_composes_with_revisions(device, order):
    names = {n: getattr(xp, n) for n in xp.__all__}
    x = xp.arange(3, device=device)
    steps = [lambda: xp.set_strict(False), lambda: xp.set_array_api_version("2023.12")]
    for step in steps if order == "profile first" else steps[::-1]:
        step()
    try:
        assert not hasattr(xp, "diff")  # 2023.12 has no diff
        assert (x / 2).dtype == xp.float64  # permissive operators
        with pytest.raises(TypeError, match=r"came in revision 2024.12"):
            xp.add(x, 1.5)  # 2023.12: no Python scalars in functions
        assert xp.add(x, xp.asarray(1.5, device=device)).dtype == xp.float64
        xp.set_array_api_version("2025.12")
        assert xp.diff(x, 1).shape == (2,)  # permissive diff, positional n
        assert xp.add(x, 1.5).dtype == xp.float64
    finally:
        xp.set_strict(True)
        xp.set_array_api_version("2025.12")
    assert {n: getattr(xp, n) for n in xp.__all__} == names


def test_environment_variable():
    code = ("import xpgpu as xp; x = xp.arange(3, device='cpu'); print((x / 2).dtype, "
            "xp._profile.current())")
    env = {**os.environ, "XPGPU_STRICT": "0"}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                         text=True, check=True).stdout.split()
    assert out == ["xpgpu.float64", "False"]
    env["XPGPU_STRICT"] = "maybe"
    failed = subprocess.run([sys.executable, "-c", "import xpgpu"], env=env,
                            capture_output=True, text=True)
    assert failed.returncode != 0 and "XPGPU_STRICT" in failed.stderr


def test_array_protocol_on_cpu(permissive):
    x = xp.arange(3, device="cpu")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert np.asarray(x).tolist() == [0, 1, 2]  # the data itself, no warning


@pytest.mark.cuda
def test_array_protocol_on_cuda_copies_once_with_a_warning(device):
    if device.kind != "cuda":
        pytest.skip("CUDA only")
    from xpgpu._numpy_protocol import DeviceToHostCopyWarning

    x = xp.arange(3, device=device)
    with pytest.raises(TypeError, match=r"^__array__: "):
        np.asarray(x)  # strict: refused
    xp.set_strict(False)
    try:
        import xpgpu._numpy_protocol as protocol

        protocol._warned = False
        with pytest.warns(DeviceToHostCopyWarning, match=r"^__array__: copying"):
            assert np.asarray(x).tolist() == [0, 1, 2]
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            assert np.mean(x) == 1.0  # NumPy's own fallback: no second warning
        with pytest.raises(ValueError, match=r"^__array__: "):
            np.asarray(x, copy=False)
    finally:
        xp.set_strict(True)
    assert to_numpy(x).tolist() == [0, 1, 2]


SKLEARN_SCRIPT = r"""
import sys
import numpy as np
import sklearn
import xpgpu as xp
from sklearn.metrics import balanced_accuracy_score, cohen_kappa_score, roc_curve

device = sys.argv[1]
rng = np.random.default_rng(0)
y, p = rng.integers(0, 3, 50), rng.integers(0, 3, 50)
yb, s = rng.integers(0, 2, 50), rng.random(50)
CASES = {
    "balanced_accuracy_score": (balanced_accuracy_score, (y, p)),
    "roc_curve": (roc_curve, (yb, s)),
    "cohen_kappa_score(weights='quadratic')":
        (lambda a, b: cohen_kappa_score(a, b, weights="quadratic"), (y, p)),
}
failures = []
for name, (f, args) in CASES.items():
    with sklearn.config_context(array_api_dispatch=False):
        want = f(*args)
    with sklearn.config_context(array_api_dispatch=True):
        try:
            got = f(*(xp.asarray(a, device=device) for a in args))
        except Exception as e:
            failures.append(f"{name}: raised {type(e).__name__}: {e}")
            continue
    pairs = zip(got, want) if isinstance(want, tuple) else [(got, want)]
    for g, w in pairs:
        g = np.asarray(g.to_device("cpu")) if isinstance(g, xp.Array) else g
        if not np.allclose(g, w):
            failures.append(f"{name}: differs from scikit-learn on NumPy")
print("\n".join(failures))
sys.exit(1 if failures else 0)
"""


@pytest.mark.skipif(importlib.util.find_spec("sklearn") is None,
                    reason="scikit-learn is not installed")
def test_sklearn_metrics_run_in_permissive(device):
    """Issue 8's scikit-learn examples (integer true division, xp.diff(x, 2), float64 +=
    int64, where(condition)) run on xpgpu arrays in the permissive profile, with
    scikit-learn's results on NumPy."""
    # The device under test is also the default one: cohen_kappa_score makes an arange
    # without device= (peers/KNOWN.md#sklearn-cohen-kappa-quadratic), which lands on the
    # default device (cuda:0 on a GPU machine) next to cpu arrays.
    env = {**os.environ, "SCIPY_ARRAY_API": "1", "XPGPU_STRICT": "0",
           "XPGPU_DEFAULT_DEVICE": str(device)}
    run = subprocess.run([sys.executable, "-c", SKLEARN_SCRIPT, str(device)], env=env,
                         capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stdout + run.stderr[-3000:]
