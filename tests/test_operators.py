"""The array object's operators: each equals its namespace function; reflected and
in-place rules; foreign operands; devices.
https://data-apis.org/array-api/2025.12/API_specification/array_object.html#operators
"""

from __future__ import annotations

import operator

import numpy as np
import pytest
from conftest import assert_close, to_numpy

import xpgpu as xp
from xpgpu._validate import DeviceMismatchError

# (operator module function, in-place function, namespace function name, dtype of the
# operands), written from the spec's operator list.
BINARY = [
    (operator.add, operator.iadd, "add", "float32"),
    (operator.sub, operator.isub, "subtract", "int16"),
    (operator.mul, operator.imul, "multiply", "complex64"),
    (operator.truediv, operator.itruediv, "divide", "float64"),
    (operator.floordiv, operator.ifloordiv, "floor_divide", "int32"),
    (operator.mod, operator.imod, "remainder", "float32"),
    (operator.pow, operator.ipow, "pow", "float64"),
    (operator.and_, operator.iand, "bitwise_and", "uint8"),
    (operator.or_, operator.ior, "bitwise_or", "bool"),
    (operator.xor, operator.ixor, "bitwise_xor", "int64"),
    (operator.lshift, operator.ilshift, "bitwise_left_shift", "uint16"),
    (operator.rshift, operator.irshift, "bitwise_right_shift", "int8"),
]
COMPARE = [
    (operator.eq, "equal"), (operator.ne, "not_equal"), (operator.lt, "less"),
    (operator.le, "less_equal"), (operator.gt, "greater"), (operator.ge, "greater_equal"),
]
UNARY = [(operator.abs, "abs"), (operator.neg, "negative"), (operator.pos, "positive"),
         (operator.invert, "bitwise_invert")]


def _operands(dtype: str, device):
    if dtype == "bool":
        a, b = np.array([True, False, True]), np.array([False, False, True])
    elif dtype.startswith(("int", "uint")):
        a, b = np.array([5, 6, 7], dtype=dtype), np.array([1, 2, 3], dtype=dtype)
    else:
        a, b = np.array([1.5, 2.0, 0.25], dtype=dtype), np.array([0.5, 3.0, 2.0], dtype=dtype)
    return a, b, xp.asarray(a, device=device), xp.asarray(b, device=device)


def _same(x: xp.Array, y: xp.Array) -> None:
    assert type(x) is xp.Array and type(y) is xp.Array
    assert x.dtype == y.dtype and x.shape == y.shape and x.device == y.device
    np.testing.assert_array_equal(to_numpy(x), to_numpy(y))


@pytest.mark.parametrize("op,iop,name,dtype", BINARY, ids=[r[2] for r in BINARY])
def test_binary_operator_equals_function(device, op, iop, name, dtype) -> None:
    """x1 OP x2 equals f(x1, x2), with arrays and with a Python scalar on either side."""
    _a, _b, x1, x2 = _operands(dtype, device)
    f = getattr(xp, name)
    _same(op(x1, x2), f(x1, x2))
    scalar = True if dtype == "bool" else 2
    _same(op(x1, scalar), f(x1, scalar))
    _same(op(scalar, x2), f(scalar, x2))  # the reflected operator


@pytest.mark.parametrize("op,iop,name,dtype", BINARY, ids=[r[2] for r in BINARY])
def test_inplace_operator(device, op, iop, name, dtype) -> None:
    """x1 OP= x2 writes f(x1, x2) into x1: the same object, dtype and shape."""
    _a, _b, x1, x2 = _operands(dtype, device)
    want = to_numpy(getattr(xp, name)(x1, x2))
    before = x1
    x1 = iop(x1, x2)
    assert x1 is before
    assert x1.dtype == np.dtype(dtype)
    np.testing.assert_array_equal(to_numpy(x1), want)


@pytest.mark.parametrize("op,name", COMPARE, ids=[r[1] for r in COMPARE])
def test_comparison_operator_equals_function(device, op, name) -> None:
    _a, _b, x1, x2 = _operands("float64", device)
    _same(op(x1, x2), getattr(xp, name)(x1, x2))
    _same(op(x1, 2.0), getattr(xp, name)(x1, 2.0))
    assert op(x1, x2).dtype == xp.bool


@pytest.mark.parametrize("op,name", UNARY, ids=[r[1] for r in UNARY])
def test_unary_operator_equals_function(device, op, name) -> None:
    dtype = "int32" if name == "bitwise_invert" else "float32"
    x1 = _operands(dtype, device)[2]
    _same(op(x1), getattr(xp, name)(x1))


def test_matmul_operator(device) -> None:
    a = np.arange(6, dtype="float64").reshape(2, 3)
    x = xp.asarray(a, device=device)
    _same(x @ x.mT, xp.matmul(x, x.mT))
    assert_close(x @ x.mT, a @ a.T)


@pytest.mark.strict_only
def test_inplace_keeps_dtype(device) -> None:
    """In-place operations must not change the array's dtype (the standard's rule)."""
    x8 = xp.asarray(np.ones(3, dtype="int8"), device=device)
    x16 = xp.asarray(np.ones(3, dtype="int16"), device=device)
    with pytest.raises(TypeError, match=r"^__iadd__"):
        x8 += x16
    f32 = xp.asarray(np.ones(3, dtype="float32"), device=device)
    with pytest.raises(TypeError, match=r"^__imul__"):
        f32 *= 1j  # complex upgrades float32 to complex64
    with pytest.raises(TypeError, match=r"^(__itruediv__|divide)"):
        x16 /= 2  # divide of integers is undefined
    f32 += 1.0  # same dtype: fine
    f64 = xp.asarray(np.ones(3, dtype="float64"), device=device)
    f64 += f32  # float64 += float32 keeps float64
    assert f64.dtype == xp.float64
    np.testing.assert_array_equal(to_numpy(f64), [3.0, 3.0, 3.0])


def test_inplace_keeps_shape(device) -> None:
    """In-place operations must not broadcast the left operand to a larger shape."""
    x = xp.asarray(np.ones(3, dtype="float64"), device=device)
    y = xp.asarray(np.ones((2, 3), dtype="float64"), device=device)
    with pytest.raises(ValueError, match=r"^__iadd__"):
        x += y
    y += x  # broadcasting the right operand is fine
    np.testing.assert_array_equal(to_numpy(y), np.full((2, 3), 2.0))


@pytest.mark.strict_only
def test_reflected_dtype_rules(device) -> None:
    """Reflected operators follow the same scalar rules: 1.0 - float32 stays float32."""
    x = xp.asarray(np.array([1.0, 2.0], dtype="float32"), device=device)
    for out in (1.0 - x, 2 * x, 1 / x, 2.0 ** x, 7.0 // x, 7.0 % x):
        assert out.dtype == xp.float32
    i = xp.asarray(np.array([1, 2], dtype="uint8"), device=device)
    assert (300 - i if False else 3 - i).dtype == xp.uint8
    with pytest.raises(OverflowError):
        300 - i
    with pytest.raises(TypeError):
        1.5 - i  # a float with an integer array is undefined


class Foreign:
    """An operand xpgpu does not know."""


@pytest.mark.strict_only
@pytest.mark.parametrize("dunder", ["__add__", "__radd__", "__iadd__", "__mul__", "__eq__",
                                    "__lt__", "__and__", "__rpow__", "__matmul__",
                                    "__rmatmul__", "__floordiv__", "__imod__"])
def test_foreign_operands_return_not_implemented(device, dunder) -> None:
    """Operators return NotImplemented for operands that are neither arrays nor scalars,
    so Python can try the other operand."""
    x = xp.asarray(np.ones(2, dtype="int32"), device=device)
    for other in (Foreign(), "a", [1, 2], None):
        assert getattr(x, dunder)(other) is NotImplemented, (dunder, other)
    # A NumPy operand is refused with the fix (the strict profile), not deferred: NumPy's
    # own operators would not give it back.
    with pytest.raises(TypeError, match=rf"^{dunder}: .*xpgpu\.asarray\(obj, device=x\.device\)"):
        getattr(x, dunder)(np.ones(2))


def test_foreign_operands_raise_type_error(device) -> None:
    x = xp.asarray(np.ones(2, dtype="float64"), device=device)
    for other in (Foreign(), "a", [1.0, 2.0]):
        with pytest.raises(TypeError):
            x + other
        with pytest.raises(TypeError):
            _ = other * x
    assert (x == None) is False  # noqa: E711  (NotImplemented both ways: identity)


@pytest.mark.strict_only
def test_numpy_array_operands_raise(device) -> None:
    """numpy_array + x raises TypeError (NumPy defers, xpgpu refuses), both orders."""
    x = xp.asarray(np.ones(2, dtype="float64"), device=device)
    n = np.ones(2)
    with pytest.raises(TypeError, match=r"^numpy\.add: .*xpgpu\.asarray"):
        n + x
    with pytest.raises(TypeError, match=r"^__add__: .*xpgpu\.asarray"):
        x + n
    with pytest.raises(TypeError):
        _ = n < x


def test_other_array_type_gets_its_reflected_operator(device) -> None:
    """A foreign type with __radd__ is called when xpgpu returns NotImplemented."""

    class Other:
        def __radd__(self, other):
            return "other"

    x = xp.asarray(np.ones(2, dtype="float64"), device=device)
    assert x + Other() == "other"


def test_same_device_operands(device) -> None:
    """Arrays on the same device combine; the result stays there."""
    x = xp.asarray(np.ones(2), device=device)
    y = xp.asarray(np.ones(2), device=device)
    assert (x + y).device == device
    assert xp.add(x, y).device == device


@pytest.mark.cuda
def test_cpu_cuda_mismatch_raises() -> None:
    """On a CUDA machine: a cpu array with a cuda:0 array raises DeviceMismatchError (a
    ValueError) naming the function or operator, for functions, operators and in-place."""
    from xpgpu import _devices

    if not _devices.cuda_devices():
        pytest.skip("no CUDA device")
    c = xp.asarray(np.ones(2), device="cpu")
    g = xp.asarray(np.ones(2), device="cuda:0")
    with pytest.raises(DeviceMismatchError, match=r"^add"):
        xp.add(c, g)
    with pytest.raises(DeviceMismatchError, match=r"^__add__"):
        c + g
    with pytest.raises(DeviceMismatchError, match=r"^__radd__|^add"):
        g.__radd__(c)
    with pytest.raises(DeviceMismatchError):
        g += c
    with pytest.raises(DeviceMismatchError, match=r"^floor_divide"):
        xp.floor_divide(g, c)
    assert issubclass(DeviceMismatchError, ValueError)
