"""Indexing functions.

https://data-apis.org/array-api/2025.12/API_specification/indexing_functions.html
"""

from __future__ import annotations

from typing import Any

from . import _validate as v
from ._array import Array, array_arg, wrap, wrap_checked
from ._dtypes import KINDS, int64, uint64

_INTEGRAL = KINDS["integral"]


def _indices(func: str, x: Array, indices: object) -> Any:
    idx = array_arg(func, indices, "indices", _INTEGRAL)
    if idx._device is not x._device:
        v.mismatch(func, x._device, idx._device)
    # Note: NumPy refuses to cast uint64 indices to intp ("safe" casting).
    return idx._data.astype(int64.dtype) if idx._dtype is uint64 else idx._data


def _gather(func: str, gather: Any, x: Array, idx: Any, axis: int) -> Array:
    try:
        data = gather(x._data, idx, axis=axis)
    except IndexError:
        # Note: out-of-bounds indices are unspecified by the standard; NumPy raises,
        # CuPy wraps them around (without a device synchronisation to check).
        n = x._data.shape[axis]
        v.fail(func, f"indices holds an index out of bounds for axis {axis} of size {n}; use "
                     f"indices in [{-n}, {n})", IndexError)
    return _result(func, data, x)


def _result(func: str, data: Any, x: Array) -> Array:
    if data.dtype is x._dtype.dtype:
        return wrap(data, x._dtype, x._device)
    return wrap_checked(func, data, x._device, x._dtype)


def take(x: Array, indices: Array, /, *, axis: int | None = None) -> Array:
    """Elements of an array along an axis. See https://data-apis.org/array-api/2025.12/API_specification/generated/array_api.take.html"""
    func = "take"
    x = array_arg(func, x)
    idx = _indices(func, x, indices)
    if idx.ndim != 1:
        v.fail(func, f"indices must be one-dimensional, got shape {idx.shape}; use "
                     "reshape(indices, (-1,)) or take_along_axis()", ValueError)
    a = v.axis_or_only(func, axis, x.ndim)
    return _gather(func, x._device.backend.take, x, idx, a)


def take_along_axis(x: Array, indices: Array, /, *, axis: int = -1) -> Array:
    """Elements at indices along an axis. See https://data-apis.org/array-api/2025.12/API_specification/generated/array_api.take_along_axis.html"""
    func = "take_along_axis"
    x = array_arg(func, x)
    idx = _indices(func, x, indices)
    if x.ndim == 0:
        v.fail(func, "x must have at least one dimension; use reshape(x, (1,))", ValueError)
    a = v.axis_arg(func, axis, x.ndim)
    if idx.ndim != x.ndim:
        v.fail(func, f"indices must have as many dimensions as x ({x.ndim}), got {idx.ndim}; "
                     "use expand_dims() on indices", ValueError)
    for i, (n, m) in enumerate(zip(x.shape, idx.shape, strict=True)):
        if i != a and n != m and n != 1 and m != 1:
            v.fail(func, f"indices of shape {idx.shape} does not broadcast with x of shape "
                         f"{x.shape} outside axis {a}; use indices whose other axes "
                         "match x's or are 1", ValueError)
    return _gather(func, x._device.backend.take_along_axis, x, idx, a)
