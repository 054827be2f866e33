"""CuPy fixes for the manipulation, searching, set and sorting chapters.

https://data-apis.org/array-api/2025.12/API_specification/searching_functions.html

Registered in ``_cupy.FIXES`` by the standard's name; each takes the arguments the
NumPy function of that name takes, as xpgpu passes them.
"""

from __future__ import annotations

from typing import Any

import cupy

_ndarray = cupy.ndarray


# Note: CuPy always sorts stably (thrust, CUB) and documents no kind but None; xpgpu
# passes kind="stable" for NumPy, so it is dropped here. CuPy's radix sort (CUB, for 1-D
# arrays) orders the float bits: -0.0 sorts before +0.0 although they are equal, and a NaN
# with its sign bit set sorts first, before -inf. Real floating arrays are therefore
# sorted, whatever the kind, on keys in which -0.0 is +0.0 and every NaN the positive one
# (NaNs last, equal zeros and NaNs in their order), and the input gathered in that order.
# https://docs.cupy.dev/en/stable/reference/generated/cupy.sort.html
def _key(a: Any) -> Any:
    return cupy.where(cupy.isnan(a), a.dtype.type("nan"), a + a.dtype.type(0))


def sort(a: Any, axis: int = -1, kind: Any = None) -> Any:
    if a.dtype.kind != "f":
        return cupy.sort(a, axis=axis)
    return cupy.take_along_axis(a, cupy.argsort(_key(a), axis=axis), axis=axis)


def argsort(a: Any, axis: int = -1, kind: Any = None) -> Any:
    if a.dtype.kind != "f":
        return cupy.argsort(a, axis=axis)
    return cupy.argsort(_key(a), axis=axis)


# Note: CuPy turns a Python scalar v into a 0-d array of its default dtype (a float
# becomes float64), so a float32 x1 is searched with an unrounded value; the standard
# (and NumPy, NEP 50) take the scalar at x1's dtype.
# https://github.com/cupy/cupy/blob/main/cupy/_sorting/search.py
def searchsorted(a: Any, v: Any, side: str = "left", sorter: Any = None) -> Any:
    if type(v) is not _ndarray:
        v = cupy.asarray(v, dtype=a.dtype)
    return cupy.searchsorted(a, v, side=side, sorter=sorter)


# Note: CuPy's isin ravels both arguments and takes no Python scalars; the standard
# (2025.12) allows a Python int for either. https://github.com/cupy/cupy/blob/main/cupy/_logic/truth.py
def isin(element: Any, test_elements: Any, invert: bool = False) -> Any:
    if type(element) is not _ndarray:
        element = cupy.asarray(element, dtype=test_elements.dtype)
    elif type(test_elements) is not _ndarray:
        test_elements = cupy.asarray(test_elements, dtype=element.dtype)
    return cupy.isin(element, test_elements, invert=invert)


# Note: CuPy's repeat refuses a cupy.ndarray of repeats and, along an axis, launches one
# copy per input slice from a Python loop. Here: one gather, whose source indices come
# from a cumulative sum and a search (the total length is read back once, as it must be).
# https://github.com/cupy/cupy/blob/main/cupy/_core/_routines_manipulation.pyx
def repeat(a: Any, repeats: Any, axis: int) -> Any:
    n = a.shape[axis]
    if type(repeats) is not _ndarray:
        if n == 0 or repeats == 0:
            shape = list(a.shape)
            shape[axis] = n * repeats
            return cupy.empty(tuple(shape), dtype=a.dtype)
        ends = cupy.arange(repeats, repeats * n + 1, repeats, dtype=cupy.int64)
        total = repeats * n
    else:
        ends = cupy.cumsum(repeats, dtype=cupy.int64)
        total = int(ends[-1]) if n else 0
    source = cupy.searchsorted(ends, cupy.arange(total, dtype=cupy.int64), side="right")
    return cupy.take(a, source, axis=axis)


FIXES: dict[str, Any] = {
    "sort": sort,
    "argsort": argsort,
    "searchsorted": searchsorted,
    "isin": isin,
    "repeat": repeat,
}
