"""Sorting functions.

https://data-apis.org/array-api/2025.12/API_specification/sorting_functions.html

``stable=True`` (the default) keeps equal elements in their original order, in both
directions; ``stable=False`` takes each backend's fastest sort (NumPy's introsort; CuPy's
sort is always stable).
"""

from __future__ import annotations

from typing import Any

from . import _validate as v
from ._array import Array, array_arg, wrap, wrap_checked
from ._dtypes import ALL, CATEGORIES, int64

_REAL_NUMERIC = CATEGORIES["real numeric"]
_SORTABLE = tuple(d in _REAL_NUMERIC for d in ALL)  # by dtype index
_KIND = {True: "stable", False: None}  # the backend's sort kind for stable=


def _args(func: str, x: object, axis: object, descending: object, stable: object
          ) -> tuple[Array, int, bool, Any]:
    # Fast path: an array of a sortable dtype, an int axis in range, bool flags.
    if (type(x) is Array and _SORTABLE[x._dtype._i] and type(axis) is int
            and (descending is True or descending is False)
            and (stable is True or stable is False)):
        ndim = x._data.ndim
        if ndim and -ndim <= axis < ndim:
            return x, axis % ndim, descending, _KIND[stable]
    x = array_arg(func, x, allowed=_REAL_NUMERIC)
    if x.ndim == 0:
        v.fail(func, "x must have at least one dimension; use reshape(x, (1,))", ValueError)
    a = v.axis_arg(func, axis, x.ndim)
    descending = v.bool_arg(func, descending, "descending")
    return x, a, descending, _KIND[v.bool_arg(func, stable, "stable")]


def _argsort(x: Array, axis: int, descending: bool, kind: Any) -> Any:
    backend = x._device.backend
    if not descending:
        return backend.argsort(x._data, axis=axis, kind=kind)
    # Note: flipping an ascending sort reverses the order of equal elements; sorting the
    # reversed input and flipping back keeps ties in their original order (stable). With
    # stable=False too, so that ties come out as array-api-strict orders them.
    last = x.shape[axis] - 1
    idx = backend.argsort(backend.flip(x._data, axis=axis), axis=axis, kind=kind)
    return backend.subtract(last, backend.flip(idx, axis=axis))


def argsort(x: Array, /, *, axis: int = -1, descending: bool = False,
            stable: bool = True) -> Array:
    """Indices that sort an array along an axis. See https://data-apis.org/array-api/2025.12/API_specification/generated/array_api.argsort.html"""
    x, a, descending, kind = _args("argsort", x, axis, descending, stable)
    return wrap_checked("argsort", _argsort(x, a, descending, kind), x._device, int64)


def sort(x: Array, /, *, axis: int = -1, descending: bool = False, stable: bool = True) -> Array:
    """Sort an array along an axis. See https://data-apis.org/array-api/2025.12/API_specification/generated/array_api.sort.html"""
    x, a, descending, kind = _args("sort", x, axis, descending, stable)
    backend = x._device.backend
    if not descending:
        data = backend.sort(x._data, axis=a, kind=kind)
    else:
        # The stable descending sort: the reversed input sorted stably, reversed (ties
        # keep their original order); unstable: the ascending sort reversed. Either way
        # one sort and a copy into ascending memory order.
        data = x._data if kind is None else backend.flip(x._data, axis=a)
        data = backend.flip(backend.sort(data, axis=a, kind=kind), axis=a).copy()
    if data.dtype is not x._dtype.dtype or type(data) is not backend.ndarray:
        return wrap_checked("sort", data, x._device, x._dtype)
    return wrap(data, x._dtype, x._device)
