"""Utility functions.

https://data-apis.org/array-api/2025.12/API_specification/utility_functions.html
"""

from __future__ import annotations

from . import _validate as v
from ._array import Array, array_arg, wrap, wrap_checked
from ._dtypes import CATEGORIES, bool_

_NUMERIC = CATEGORIES["numeric"]


def _truth_reduction(name: str, x: object, axis: object, keepdims: object) -> Array:
    x = array_arg(name, x)
    axes = v.axes_arg(name, axis, x.ndim)
    keepdims = v.bool_arg(name, keepdims, "keepdims")
    data = getattr(x._device.backend, name)(x._data, axis=axes, keepdims=keepdims)
    return wrap_checked(name, data, x._device, bool_)


def all(x: Array, /, *, axis: int | tuple[int, ...] | None = None,
        keepdims: bool = False) -> Array:
    """Logical AND reduction. See https://data-apis.org/array-api/2025.12/API_specification/generated/array_api.all.html"""
    return _truth_reduction("all", x, axis, keepdims)


def any(x: Array, /, *, axis: int | tuple[int, ...] | None = None,
        keepdims: bool = False) -> Array:
    """Logical OR reduction. See https://data-apis.org/array-api/2025.12/API_specification/generated/array_api.any.html"""
    return _truth_reduction("any", x, axis, keepdims)


def diff(x: Array, /, *, axis: int = -1, n: int = 1, prepend: Array | None = None,
         append: Array | None = None) -> Array:
    """n-th discrete forward difference. See https://data-apis.org/array-api/2025.12/API_specification/generated/array_api.diff.html"""
    func = "diff"
    x = array_arg(func, x, allowed=_NUMERIC)
    if x.ndim == 0:
        v.fail(func, "x must have at least one dimension; use reshape(x, (1,))", ValueError)
    a = v.axis_arg(func, axis, x.ndim)
    n = v.int_arg(func, n, "n")
    if n < 0:
        v.fail(func, f"n must be non-negative, got {n}; use n=0 for x itself", ValueError)
    extra = {}
    for name, y in (("prepend", prepend), ("append", append)):
        if y is None:
            continue
        y = array_arg(func, y, name)
        if y._device is not x._device:
            v.mismatch(func, x._device, y._device)
        # Note: the standard leaves other dtypes implementation-defined; refused here.
        if y._dtype is not x._dtype:
            v.fail(func, f"{name} has dtype {y._dtype.name}, but x has dtype {x._dtype.name}; "
                         "use astype() to match them")
        if y.ndim != x.ndim or y.shape[:a] != x.shape[:a] or y.shape[a + 1:] != x.shape[a + 1:]:
            v.fail(func, f"{name} of shape {y.shape} must match x's shape {x.shape} except "
                         f"along axis {a}; use expand_dims() or broadcast_to() first", ValueError)
        extra[name] = y._data
    length = x.shape[a] + sum(y.shape[a] for y in extra.values())
    if n >= length:
        # Note: NumPy and CuPy loop n times; past the axis length the result is empty.
        empty = (slice(None),) * a + (slice(0, 0),)
        return wrap(x._data[empty].copy(), x._dtype, x._device)
    data = x._device.backend.diff(x._data, n=n, axis=a, **extra)
    if data.dtype is x._dtype.dtype:
        return wrap(data, x._dtype, x._device)
    return wrap_checked(func, data, x._device, x._dtype)
