"""Sorting functions.

https://data-apis.org/array-api/2025.12/API_specification/sorting_functions.html

Sorts are always stable (``stable=False`` permits, but does not require, instability).
"""

from __future__ import annotations

from typing import Any

from . import _validate as v
from ._array import Array, array_arg, wrap, wrap_checked
from ._dtypes import CATEGORIES, int64

_REAL_NUMERIC = CATEGORIES["real numeric"]


def _args(func: str, x: object, axis: object, descending: object, stable: object
          ) -> tuple[Array, int, bool]:
    x = array_arg(func, x, allowed=_REAL_NUMERIC)
    if x.ndim == 0:
        v.fail(func, "x must have at least one dimension; use reshape(x, (1,))", ValueError)
    a = v.axis_arg(func, axis, x.ndim)
    descending = v.bool_arg(func, descending, "descending")
    v.bool_arg(func, stable, "stable")
    return x, a, descending


def _argsort(x: Array, axis: int, descending: bool) -> Any:
    backend = x._device.backend
    if not descending:
        return backend.argsort(x._data, axis=axis, kind="stable")
    # Note: flipping an ascending sort reverses the order of equal elements; sorting the
    # reversed input and flipping back keeps ties in their original order (stable).
    last = x.shape[axis] - 1
    idx = backend.argsort(backend.flip(x._data, axis=axis), axis=axis, kind="stable")
    return backend.subtract(last, backend.flip(idx, axis=axis))


def argsort(x: Array, /, *, axis: int = -1, descending: bool = False,
            stable: bool = True) -> Array:
    """Indices that sort an array along an axis. See https://data-apis.org/array-api/2025.12/API_specification/generated/array_api.argsort.html"""
    x, a, descending = _args("argsort", x, axis, descending, stable)
    return wrap_checked("argsort", _argsort(x, a, descending), x._device, int64)


def sort(x: Array, /, *, axis: int = -1, descending: bool = False, stable: bool = True) -> Array:
    """Sort an array along an axis. See https://data-apis.org/array-api/2025.12/API_specification/generated/array_api.sort.html"""
    x, a, descending = _args("sort", x, axis, descending, stable)
    backend = x._device.backend
    if not descending:
        data = backend.sort(x._data, axis=a, kind="stable")
    else:
        data = backend.take_along_axis(x._data, _argsort(x, a, True), axis=a)
    if data.dtype is not x._dtype.dtype:
        return wrap_checked("sort", data, x._device, x._dtype)
    return wrap(data, x._dtype, x._device)
