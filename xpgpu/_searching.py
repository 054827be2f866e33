"""Searching functions.

https://data-apis.org/array-api/2025.12/API_specification/searching_functions.html
"""

from __future__ import annotations

from typing import Any

from . import _validate as v
from ._array import Array, array_arg, wrap, wrap_checked
from ._dtypes import ALL, CATEGORIES, KINDS, PROMOTION, DType, bool_, int64
from ._manipulation import broadcast_shape
from ._scalars import scalar_type

_REAL_NUMERIC = CATEGORIES["real numeric"]
_INTEGRAL = KINDS["integral"]
_BOOL = CATEGORIES["boolean"]
_SIDES = ("left", "right")


def _arg_extremum(func: str, x: object, axis: object, keepdims: object) -> Array:
    x = array_arg(func, x, allowed=_REAL_NUMERIC)
    keepdims = v.bool_arg(func, keepdims, "keepdims")
    if axis is None:
        count = x.size
    else:
        axis = v.axis_arg(func, axis, x.ndim)
        count = x.shape[axis] if x.ndim else 1
    if count == 0:
        v.fail(func, f"the {func[3:]}imum of zero elements has no index (x has shape {x.shape}); "
                     "use a non-empty array", ValueError)
    data = getattr(x._device.backend, func)(x._data, axis=axis, keepdims=keepdims)
    return wrap_checked(func, data, x._device, int64)


def argmax(x: Array, /, *, axis: int | None = None, keepdims: bool = False) -> Array:
    """Indices of the maximum values. See https://data-apis.org/array-api/2025.12/API_specification/generated/array_api.argmax.html"""
    return _arg_extremum("argmax", x, axis, keepdims)


def argmin(x: Array, /, *, axis: int | None = None, keepdims: bool = False) -> Array:
    """Indices of the minimum values. See https://data-apis.org/array-api/2025.12/API_specification/generated/array_api.argmin.html"""
    return _arg_extremum("argmin", x, axis, keepdims)


def count_nonzero(x: Array, /, *, axis: int | tuple[int, ...] | None = None,
                  keepdims: bool = False) -> Array:
    """Count the non-zero elements. See https://data-apis.org/array-api/2025.12/API_specification/generated/array_api.count_nonzero.html"""
    func = "count_nonzero"
    x = array_arg(func, x)
    axes = v.axes_arg(func, axis, x.ndim)
    keepdims = v.bool_arg(func, keepdims, "keepdims")
    backend = x._device.backend
    nonzero_ = x._data if x._dtype is bool_ else backend.not_equal(x._data, 0)
    data = backend.sum(nonzero_, axis=axes, dtype=int64.dtype, keepdims=keepdims)
    return wrap_checked(func, data, x._device, int64)


def nonzero(x: Array, /) -> tuple[Array, ...]:
    """Indices of the non-zero elements. See https://data-apis.org/array-api/2025.12/API_specification/generated/array_api.nonzero.html"""
    x = array_arg("nonzero", x)
    if x.ndim == 0:
        v.fail("nonzero", "x must have at least one dimension; use reshape(x, (1,))",
               ValueError)
    return tuple(wrap_checked("nonzero", d, x._device, int64)
                 for d in x._device.backend.nonzero(x._data))


def searchsorted(x1: Array, x2: Array | int | float, /, *, side: str = "left",
                 sorter: Array | None = None) -> Array:
    """Insertion indices that keep x1 sorted. See https://data-apis.org/array-api/2025.12/API_specification/generated/array_api.searchsorted.html"""
    func = "searchsorted"
    x1 = array_arg(func, x1, "x1", _REAL_NUMERIC)
    if x1.ndim != 1:
        v.fail(func, f"x1 must be one-dimensional, got shape {x1.shape}; use "
                     "reshape(x1, (-1,))", ValueError)
    if type(x2) is Array:
        array_arg(func, x2, "x2", _REAL_NUMERIC)
        if x2._device is not x1._device:
            v.mismatch(func, x1._device, x2._device)
        if PROMOTION.get((x1._dtype, x2._dtype)) is None:
            v.no_promotion(func, x1._dtype, x2._dtype)
        values: Any = x2._data
    else:
        if v.scalar_result(func, x1._dtype, x2) is not x1._dtype:
            v.fail(func, f"x2 must be an array, an int or a float, not {v.type_name(x2)}; use "
                         "xpgpu.asarray(x2)")
        values = x2
    if side not in _SIDES:
        v.fail(func, f"side must be 'left' or 'right', not {side!r}; use one of them",
               ValueError)
    order = None
    if sorter is not None:
        s = array_arg(func, sorter, "sorter", _INTEGRAL)
        if s._device is not x1._device:
            v.mismatch(func, x1._device, s._device)
        if s.shape != x1.shape:
            v.fail(func, f"sorter of shape {s.shape} must have x1's shape {x1.shape}; use "
                         "argsort(x1)", ValueError)
        order = s._data if s._dtype is int64 else s._data.astype(int64.dtype)
    try:
        data = x1._device.backend.searchsorted(x1._data, values, side=side, sorter=order)
    except ValueError:  # NumPy checks the sorter's values
        v.fail(func, f"sorter holds an index outside [0, {x1.shape[0]}); use argsort(x1)",
               ValueError)
    return wrap_checked(func, data, x1._device, int64)


def _where_dtype(x1: Any, x2: Any) -> DType:
    t1, t2 = type(x1) is Array, type(x2) is Array
    if t1 and t2:
        out = PROMOTION.get((x1._dtype, x2._dtype))
        if out is None:
            v.no_promotion("where", x1._dtype, x2._dtype)
        return out
    if t1:
        return v.scalar_result("where", x1._dtype, x2)
    if t2:
        return v.scalar_result("where", x2._dtype, x1)
    for name, x in (("x1", x1), ("x2", x2)):
        if scalar_type(x) is None:
            v.not_an_array("where", x, name)
    v.fail("where", "at least one of x1 and x2 must be an xpgpu array, got two Python scalars; "
                    "use xpgpu.asarray(x1) for one of them")


# The dtypes a Python float leaves unchanged (floating ones), by dtype index.
_FLOAT_KEEPS = tuple(d in CATEGORIES["floating-point"] for d in ALL)


def where(condition: Array, x1: Array | bool | int | float | complex,
          x2: Array | bool | int | float | complex, /) -> Array:
    """Choose elements from x1 or x2. See https://data-apis.org/array-api/2025.12/API_specification/generated/array_api.where.html"""
    # Fast path: a boolean condition, an array x1, and x2 an array of x1's dtype or a
    # Python float with a floating x1, all on one device; shapes the backend broadcasts.
    if type(condition) is Array and type(x1) is Array and condition._dtype is bool_:
        device = condition._device
        out = x1._dtype
        if type(x2) is Array:
            ok = x2._dtype is out and x2._device is device
            b = x2._data
        else:
            ok = type(x2) is float and _FLOAT_KEEPS[out._i]
            b = x2
        if ok and x1._device is device:
            backend = device.backend
            try:
                data = backend.where(condition._data, x1._data, b)
            except ValueError:
                pass  # shapes that do not broadcast: the message comes below
            else:
                if type(data) is backend.ndarray and data.dtype is out.dtype:
                    return wrap(data, out, device)
                return wrap_checked("where", data, device, out)
    return _where(condition, x1, x2)


def _where(condition: object, x1: Any, x2: Any) -> Array:
    func = "where"
    condition = array_arg(func, condition, "condition", _BOOL)
    out = _where_dtype(x1, x2)
    arrays = [a for a in (x1, x2) if type(a) is Array]
    device = v.common_device(func, [condition._device, *(a._device for a in arrays)])
    broadcast_shape(func, condition.shape, *(a.shape for a in arrays))
    a1 = x1._data if type(x1) is Array else v.plain_scalar(func, x1, out)
    a2 = x2._data if type(x2) is Array else v.plain_scalar(func, x2, out)
    return wrap_checked(func, device.backend.where(condition._data, a1, a2), device, out)

