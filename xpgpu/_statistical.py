"""Statistical functions.

https://data-apis.org/array-api/2025.12/API_specification/statistical_functions.html
"""

from __future__ import annotations

import math
from typing import Any, cast

from . import _validate as v
from ._array import Array, array_arg, wrap, wrap_checked
from ._dtypes import ALL, CATEGORIES, KINDS, DType, int64, uint64

_NUMERIC = CATEGORIES["numeric"]
_REAL_NUMERIC = CATEGORIES["real numeric"]
_FLOATING = CATEGORIES["floating-point"]
_REAL_FLOATING = CATEGORIES["real floating-point"]
_INTEGRAL = KINDS["integral"]

# The accumulation dtype of sum, prod and cumulative_* when dtype=None: integers widen to
# the default integer dtype (int64) or its unsigned twin; floating dtypes stay.
_ACCUMULATE: dict[DType, DType] = {
    **{d: int64 for d in KINDS["signed integer"]},
    **{d: uint64 for d in KINDS["unsigned integer"]},
    **{d: d for d in _FLOATING},
}
# The dtype= arguments accepted for an input dtype: the input is cast to dtype first, as
# the standard says, where astype() may cast it: any numeric dtype, but a complex input
# never becomes real (the standard: "should not be permitted"); bool is not numeric.
_DTYPE_ALLOWED: dict[DType, frozenset[DType]] = {
    **{d: _NUMERIC for d in KINDS["integral"]},
    **{d: _NUMERIC for d in _REAL_FLOATING},
    **{d: KINDS["complex floating"] for d in KINDS["complex floating"]},
}
_NAN = {d: float("nan") for d in _REAL_FLOATING} | {
    d: complex(float("nan"), float("nan")) for d in KINDS["complex floating"]}


# The fast paths' tables, by dtype index: sum's (and prod's) accumulation dtype (None for
# bool), whether a dtype has one, and the dtypes max/min, mean and var/std take.
_ACCUMULATE_I: tuple[Any, ...] = tuple(_ACCUMULATE.get(d) for d in ALL)
_NUMERIC_I = tuple(d in _NUMERIC for d in ALL)
_REAL_NUMERIC_I = tuple(d in _REAL_NUMERIC for d in ALL)
_FLOATING_I = tuple(d in _FLOATING for d in ALL)
_REAL_FLOATING_I = tuple(d in _REAL_FLOATING for d in ALL)


def _simple(x: object, axis: object, keepdims: object, allowed: tuple[bool, ...]) -> bool:
    """The fast path of the reductions: an array of an allowed dtype, reduced whole or
    along one int axis in range, over at least one element; keepdims a bool."""
    if type(x) is not Array or not allowed[x._dtype._i] or (keepdims is not False
                                                            and keepdims is not True):
        return False
    if axis is None:
        return x._data.size != 0
    shape = x._data.shape
    return type(axis) is int and -len(shape) <= axis < len(shape) and shape[axis] != 0


def _reduced(func: str, data: Any, x: Array, dtype: DType | None = None) -> Array:
    """The result of a reduction of ``x`` of the standard's ``dtype`` (x's by default;
    NumPy returns a scalar for a 0-d one)."""
    backend = x._device.backend
    if type(data) is not backend.ndarray:
        data = backend.asarray(data)
    if dtype is None:
        dtype = x._dtype
    if data.dtype is dtype.dtype:
        return wrap(data, dtype, x._device)
    return wrap_checked(func, data, x._device, dtype)


def _reduction(func: str, x: object, axis: object, keepdims: object,
               allowed: frozenset[DType]) -> tuple[Array, tuple[int, ...], bool]:
    x = array_arg(func, x, allowed=allowed)
    return x, v.axes_arg(func, axis, x.ndim), v.bool_arg(func, keepdims, "keepdims")


def _reduced_shape(shape: tuple[int, ...], axes: tuple[int, ...], keepdims: bool
                   ) -> tuple[int, ...]:
    if keepdims:
        return tuple(1 if i in axes else n for i, n in enumerate(shape))
    return tuple(n for i, n in enumerate(shape) if i not in axes)


def _accumulation_dtype(func: str, x: Array, dtype: object) -> DType:
    if dtype is None:
        return _ACCUMULATE[x._dtype]
    out = v.dtype_arg(func, dtype)
    allowed = _DTYPE_ALLOWED[x._dtype]
    if out not in allowed:
        v.fail(func, f"dtype={out.name} cannot accumulate an array of dtype {x._dtype.name}; "
                     f"use one of {', '.join(sorted(d.name for d in allowed))}")
    return out


def _input(x: Array, out: DType) -> Any:
    """x's data for an accumulation in ``out``: cast first where a floating input meets an
    integer dtype (as astype casts; the backends' reductions would refuse or differ)."""
    if out is not x._dtype and out in _INTEGRAL and x._dtype in _REAL_FLOATING:
        return x._data.astype(out.dtype)
    return x._data


def _nan_fill(x: Array, shape: tuple[int, ...]) -> Array:
    """The standard's NaN for a statistic of too few elements."""
    data = x._device.backend.full(shape, _NAN[x._dtype], dtype=x._dtype.dtype)
    return wrap(data, x._dtype, x._device)


# ---- sums and products ----------------------------------------------------------------

def _accumulated(func: str, x: Array, axis: Any, keepdims: bool) -> Array:
    """The fast path of sum and prod (dtype=None): the standard's accumulation dtype,
    passed to the backend only where it is not x's own (integers narrower than 64 bits)."""
    acc = _ACCUMULATE_I[x._dtype._i]
    reduce = getattr(x._device.backend, func)
    if acc is x._dtype:
        return _reduced(func, reduce(x._data, axis, keepdims=keepdims), x)
    return _reduced(func, reduce(x._data, axis, dtype=acc.dtype, keepdims=keepdims), x, acc)


def sum(x: Array, /, *, axis: int | tuple[int, ...] | None = None, dtype: Any = None,
        keepdims: bool = False) -> Array:
    """Sum of elements. See https://data-apis.org/array-api/2025.12/API_specification/generated/array_api.sum.html"""
    if dtype is None and _simple(x, axis, keepdims, _NUMERIC_I):
        return _accumulated("sum", x, axis, keepdims)  # type: ignore[arg-type]
    x, axes, keepdims = _reduction("sum", x, axis, keepdims, _NUMERIC)
    out = _accumulation_dtype("sum", x, dtype)
    data = x._device.backend.sum(_input(x, out), axis=axes, dtype=out.dtype, keepdims=keepdims)
    return wrap_checked("sum", data, x._device, out)


def prod(x: Array, /, *, axis: int | tuple[int, ...] | None = None, dtype: Any = None,
         keepdims: bool = False) -> Array:
    """Product of elements. See https://data-apis.org/array-api/2025.12/API_specification/generated/array_api.prod.html"""
    if dtype is None and _simple(x, axis, keepdims, _NUMERIC_I):
        return _accumulated("prod", x, axis, keepdims)  # type: ignore[arg-type]
    x, axes, keepdims = _reduction("prod", x, axis, keepdims, _NUMERIC)
    out = _accumulation_dtype("prod", x, dtype)
    data = x._device.backend.prod(_input(x, out), axis=axes, dtype=out.dtype,
                                  keepdims=keepdims)
    return wrap_checked("prod", data, x._device, out)


def _cumulative(func: str, x: object, axis: object, dtype: object, include_initial: object,
                identity: int) -> Array:
    # Fast path: a 1-D numeric array, the standard's accumulation dtype, no initial value.
    if (type(x) is Array and dtype is None and include_initial is False
            and _NUMERIC_I[x._dtype._i] and x._data.ndim == 1
            and (axis is None or (type(axis) is int and -1 <= axis <= 0))):
        acc = _ACCUMULATE_I[x._dtype._i]
        backend = x._device.backend
        data = (backend.cumsum if identity == 0 else backend.cumprod)(x._data, axis=0,
                                                                         dtype=acc.dtype)
        return _reduced(func, data, x, acc)
    x = array_arg(func, x, allowed=_NUMERIC)
    a = v.axis_or_only(func, axis, x.ndim)
    out = _accumulation_dtype(func, x, dtype)
    include_initial = v.bool_arg(func, include_initial, "include_initial")
    backend = x._device.backend
    data = (backend.cumsum if identity == 0 else backend.cumprod)(_input(x, out), axis=a,
                                                                     dtype=out.dtype)
    if include_initial:
        shape = (*x.shape[:a], 1, *x.shape[a + 1:])
        first = backend.full(shape, identity, dtype=out.dtype)
        data = backend.concat([first, data], axis=a)
    return wrap_checked(func, data, x._device, out)


def cumulative_sum(x: Array, /, *, axis: int | None = None, dtype: Any = None,
                   include_initial: bool = False) -> Array:
    """Cumulative sum. See https://data-apis.org/array-api/2025.12/API_specification/generated/array_api.cumulative_sum.html"""
    return _cumulative("cumulative_sum", x, axis, dtype, include_initial, 0)


def cumulative_prod(x: Array, /, *, axis: int | None = None, dtype: Any = None,
                    include_initial: bool = False) -> Array:
    """Cumulative product. See https://data-apis.org/array-api/2025.12/API_specification/generated/array_api.cumulative_prod.html"""
    return _cumulative("cumulative_prod", x, axis, dtype, include_initial, 1)


# ---- extrema --------------------------------------------------------------------------

def _extremum(func: str, x: object, axis: object, keepdims: object) -> Array:
    if _simple(x, axis, keepdims, _REAL_NUMERIC_I):
        data = getattr(x._device.backend, func)(x._data, axis, keepdims=keepdims)  # type: ignore[attr-defined]
        return _reduced(func, data, x)  # type: ignore[arg-type]
    x, axes, keepdims = _reduction(func, x, axis, keepdims, _REAL_NUMERIC)
    if math.prod(x.shape[a] for a in axes) == 0:
        v.fail(func, f"the {func}imum over zero elements is undefined (x has shape {x.shape}); "
                     "use a non-empty array or other axes", ValueError)
    data = getattr(x._device.backend, func)(x._data, axis=axes, keepdims=keepdims)
    return wrap_checked(func, data, x._device, x._dtype)


def max(x: Array, /, *, axis: int | tuple[int, ...] | None = None,
        keepdims: bool = False) -> Array:
    """Maximum value. See https://data-apis.org/array-api/2025.12/API_specification/generated/array_api.max.html"""
    return _extremum("max", x, axis, keepdims)


def min(x: Array, /, *, axis: int | tuple[int, ...] | None = None,
        keepdims: bool = False) -> Array:
    """Minimum value. See https://data-apis.org/array-api/2025.12/API_specification/generated/array_api.min.html"""
    return _extremum("min", x, axis, keepdims)


# ---- moments --------------------------------------------------------------------------

def mean(x: Array, /, *, axis: int | tuple[int, ...] | None = None,
         keepdims: bool = False) -> Array:
    """Arithmetic mean. See https://data-apis.org/array-api/2025.12/API_specification/generated/array_api.mean.html"""
    if _simple(x, axis, keepdims, _FLOATING_I):
        return _reduced("mean", x._device.backend.mean(x._data, axis, keepdims=keepdims), x)
    x, axes, keepdims = _reduction("mean", x, axis, keepdims, _FLOATING)
    if math.prod(x.shape[a] for a in axes) == 0:
        # Note: NumPy warns on empty means; the standard says NaN (NaN + NaN j).
        return _nan_fill(x, _reduced_shape(x.shape, axes, keepdims))
    data = x._device.backend.mean(x._data, axis=axes, keepdims=keepdims)
    return wrap_checked("mean", data, x._device, x._dtype)


def _moment(func: str, x: object, axis: object, correction: object, keepdims: object) -> Array:
    t = type(correction)
    if (t is int or t is float) and _simple(x, axis, keepdims, _REAL_FLOATING_I):
        a, c = cast(Array, x), cast(float, correction)
        if 0 <= c < (a._data.size if axis is None else a._data.shape[axis]):
            # Note: NumPy's var takes 1.4 µs longer with a float ddof (the default
            # correction is 0.0); an integral one is passed as an int, the same divisor.
            ddof = int(c) if t is float and c.is_integer() else c
            data = getattr(a._device.backend, func)(a._data, axis, ddof=ddof, keepdims=keepdims)
            return _reduced(func, data, a)
    x, axes, keepdims = _reduction(func, x, axis, keepdims, _REAL_FLOATING)
    correction = v.real_arg(func, correction, "correction")
    if not correction >= 0:
        v.fail(func, f"correction must be non-negative, got {correction}; use 0 or 1",
               ValueError)
    if math.prod(x.shape[a] for a in axes) - correction <= 0:
        return _nan_fill(x, _reduced_shape(x.shape, axes, keepdims))
    data = getattr(x._device.backend, func)(x._data, axis=axes, ddof=correction,
                                            keepdims=keepdims)
    return wrap_checked(func, data, x._device, x._dtype)


def var(x: Array, /, *, axis: int | tuple[int, ...] | None = None,
        correction: int | float = 0.0, keepdims: bool = False) -> Array:
    """Variance. See https://data-apis.org/array-api/2025.12/API_specification/generated/array_api.var.html"""
    return _moment("var", x, axis, correction, keepdims)


def std(x: Array, /, *, axis: int | tuple[int, ...] | None = None,
        correction: int | float = 0.0, keepdims: bool = False) -> Array:
    """Standard deviation. See https://data-apis.org/array-api/2025.12/API_specification/generated/array_api.std.html"""
    return _moment("std", x, axis, correction, keepdims)
