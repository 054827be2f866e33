"""NumPy fixes for the searching chapter, registered in ``_numpy.FIXES`` by spec name.

https://data-apis.org/array-api/2025.12/API_specification/searching_functions.html
"""

from __future__ import annotations

from typing import Any

import numpy

from . import _speedups

_ndarray = numpy.ndarray


# Note: searchsorted makes an array of a Python scalar v with NumPy's default dtype (a
# float becomes float64), so a float32 x1 is searched with an unrounded value; the
# standard takes the scalar at x1's dtype (NEP 50 does not reach searchsorted's v).
# https://numpy.org/doc/stable/reference/generated/numpy.searchsorted.html
def searchsorted(a: Any, v: Any, side: str = "left", sorter: Any = None) -> Any:
    if type(v) is not _ndarray:
        v = a.dtype.type(v)
    return numpy.searchsorted(a, v, side=side, sorter=sorter)  # type: ignore[call-overload]


# Note: NumPy's stable sort (timsort, or radix sort for small integers) takes about 7x the
# time of its default introsort, which is SIMD-vectorised. A sort of values (not of
# indices) shows the order of equal elements only where they differ in their bits: never
# for integers and booleans, and for floating-point numbers only in the group of zeros
# (-0.0 and +0.0) and in the group of NaNs. So a stable sort of a 1-D floating array is the
# fast sort with those two groups, found by one binary search, rewritten in their original
# order: the zeros where they are more than one, the NaNs wherever there is one (NumPy's
# SIMD sort writes its NaNs back as the default NaN, whatever their sign and payload).
# https://numpy.org/doc/stable/reference/generated/numpy.sort.html
_PROBES = {t: numpy.array([0.0, numpy.finfo(t).smallest_subnormal, numpy.nan], dtype=t)
           for t in (numpy.float16, numpy.float32, numpy.float64, numpy.longdouble)}
# The same for 1-D float32 and float64 arrays in C (xpgpu._speedups.stable_sort, where it
# was built; None for other arrays): ~1.5 us less on the CPU per-call suite's 1000 values.
_stable_sort = None if _speedups is None else _speedups.stable_sort


def sort(a: Any, axis: int = -1, kind: Any = None) -> Any:
    # numpy.sort without its Python wrapper; a copy in C order (numpy.sort keeps a's
    # layout, and sorting a reversed view's copy in place then runs on negative strides).
    if kind == "stable" and _stable_sort is not None:
        s = _stable_sort(a)
        if s is not None:
            return s
    s = a.copy()
    if kind != "stable" or a.dtype.kind in "biu":
        s.sort(axis=axis)
        return s
    probes = _PROBES.get(a.dtype.type)
    if probes is None or a.ndim != 1:
        s.sort(axis=axis, kind="stable")
        return s
    s.sort()
    zeros, positive, nans = s.searchsorted(probes).tolist()
    if positive - zeros > 1:
        s[zeros:positive] = a[a == 0]
    if a.shape[0] > nans:  # even one: NumPy's SIMD sort writes NaNs back as the default NaN
        s[nans:] = a[numpy.isnan(a)]
    return s


FIXES: dict[str, Any] = {"searchsorted": searchsorted, "sort": sort}
