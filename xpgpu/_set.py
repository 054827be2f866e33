"""Set functions.

https://data-apis.org/array-api/2025.12/API_specification/set_functions.html

The unique_* functions share one stable sort of the flattened input. Uniqueness is
value equality (``equal``), as the standard says: every NaN (and every complex value with
a NaN component) is its own unique element, and -0 equals +0.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from . import _validate as v
from ._array import Array, array_arg, wrap, wrap_checked
from ._dtypes import ALL, KINDS, PROMOTION, bool_, int64
from ._scalars import scalar_type

_COMPLEX_I = tuple(d in KINDS["complex floating"] for d in ALL)  # by dtype index


class UniqueAllResult(NamedTuple):
    values: Array
    indices: Array
    inverse_indices: Array
    counts: Array


class UniqueCountsResult(NamedTuple):
    values: Array
    counts: Array


class UniqueInverseResult(NamedTuple):
    values: Array
    inverse_indices: Array


def _unique(func: str, x: object, want_indices: bool, want_inverse: bool, want_counts: bool
            ) -> tuple[Array, Array | None, Array | None, Array | None]:
    x = array_arg(func, x)
    backend = x._device.backend
    flat = backend.reshape(x._data, (-1,))
    n = flat.shape[0]
    order = backend.argsort(flat, kind="stable")
    ordered = flat[order]
    # Note: NumPy's unique merges NaNs (equal_nan); a new group starts wherever a value
    # differs from its predecessor, and NaN != NaN keeps each NaN apart.
    starts = backend.empty((n,), dtype=bool_.dtype)
    if n:
        starts[0] = True
        backend.not_equal(ordered[1:], ordered[:-1], out=starts[1:])
    device, dtype = x._device, x._dtype
    values = wrap_checked(func, ordered[starts], device, dtype)
    indices = inverse = counts = None
    if want_indices:
        # The stable sort puts each group's first occurrence first.
        indices = wrap_checked(func, order[starts], device, int64)
    if want_inverse:
        group = backend.cumsum(starts, dtype=int64.dtype)
        group -= 1
        inv = backend.empty((n,), dtype=int64.dtype)
        inv[order] = group
        inverse = wrap_checked(func, backend.reshape(inv, x.shape), device, int64)
    if want_counts:
        first = backend.nonzero(starts)[0]
        bounds = backend.concat([first, backend.full((1,), n, dtype=int64.dtype)])
        counts = wrap_checked(func, backend.diff(bounds), device, int64)
    return values, indices, inverse, counts


def unique_all(x: Array, /) -> UniqueAllResult:
    """Unique elements, first indices, inverse indices and counts. See https://data-apis.org/array-api/2025.12/API_specification/generated/array_api.unique_all.html"""
    return UniqueAllResult(*_unique("unique_all", x, True, True, True))  # type: ignore[arg-type]


def unique_counts(x: Array, /) -> UniqueCountsResult:
    """Unique elements and their counts. See https://data-apis.org/array-api/2025.12/API_specification/generated/array_api.unique_counts.html"""
    values, _, _, counts = _unique("unique_counts", x, False, False, True)
    return UniqueCountsResult(values, counts)  # type: ignore[arg-type]


def unique_inverse(x: Array, /) -> UniqueInverseResult:
    """Unique elements and the indices that rebuild x. See https://data-apis.org/array-api/2025.12/API_specification/generated/array_api.unique_inverse.html"""
    values, _, inverse, _ = _unique("unique_inverse", x, False, True, False)
    return UniqueInverseResult(values, inverse)  # type: ignore[arg-type]


def unique_values(x: Array, /) -> Array:
    """Unique elements. See https://data-apis.org/array-api/2025.12/API_specification/generated/array_api.unique_values.html"""
    # Fast path for real and boolean arrays: without indices to report, a stable sort of
    # the values (cheaper than argsort and a gather) gives the same groups and the same
    # first element of each (-0.0 or +0.0, whichever came first).
    if type(x) is Array and not _COMPLEX_I[x._dtype._i]:
        backend = x._device.backend
        ordered = backend.sort(backend.reshape(x._data, (-1,)), kind="stable")
        n = ordered.shape[0]
        if n > 1:
            starts = backend.empty((n,), dtype=bool_.dtype)
            starts[0] = True
            backend.not_equal(ordered[1:], ordered[:-1], out=starts[1:])
            ordered = ordered[starts]
        if ordered.dtype is x._dtype.dtype:
            return wrap(ordered, x._dtype, x._device)
    return _unique("unique_values", x, False, False, False)[0]


def isin(x1: Array | int, x2: Array | int, /, *, invert: bool = False) -> Array:
    """Whether each element of x1 is in x2. See https://data-apis.org/array-api/2025.12/API_specification/generated/array_api.isin.html"""
    func = "isin"
    invert = v.bool_arg(func, invert, "invert")
    t1, t2 = type(x1) is Array, type(x2) is Array
    if t1 and t2:
        if x1._device is not x2._device:  # type: ignore[union-attr]
            v.mismatch(func, x1._device, x2._device)  # type: ignore[union-attr]
        if PROMOTION.get((x1._dtype, x2._dtype)) is None:  # type: ignore[union-attr]
            v.no_promotion(func, x1._dtype, x2._dtype)  # type: ignore[union-attr]
    elif t1 or t2:
        array, scalar = (x1, x2) if t1 else (x2, x1)
        if scalar_type(scalar) is not int:
            v.fail(func, f"{'x2' if t1 else 'x1'} must be an xpgpu array or a Python int, "
                         f"not {v.type_name(scalar)}; use xpgpu.asarray() for other values")
        v.scalar_result(func, array._dtype, scalar)  # type: ignore[union-attr]
    else:
        array_arg(func, x1, "x1")
    device = (x1 if t1 else x2)._device  # type: ignore[union-attr]
    a1: Any = x1._data if t1 else x1  # type: ignore[union-attr]
    a2: Any = x2._data if t2 else x2  # type: ignore[union-attr]
    data = device.backend.isin(a1, a2, invert=invert)
    if type(data) is device.backend.ndarray and data.dtype is bool_.dtype:
        return wrap(data, bool_, device)
    return wrap_checked(func, data, device, bool_)
