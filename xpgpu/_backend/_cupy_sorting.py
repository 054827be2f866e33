"""CuPy fixes for the manipulation, searching, set and sorting chapters.

https://data-apis.org/array-api/2025.12/API_specification/searching_functions.html

Registered in ``_cupy.FIXES`` by the standard's name; each takes the arguments the
NumPy function of that name takes, as xpgpu passes them.
"""

from __future__ import annotations

from typing import Any

import cupy
import numpy
from cupy._core import _scalar

from . import _cupy_reductions as _r
from ._cupy_launch import launch

_ndarray = cupy.ndarray


# Note: CuPy always sorts stably (thrust, CUB) and documents no kind but None; xpgpu
# passes kind="stable" for NumPy, so it is dropped here. CuPy's radix sort (CUB, for 1-D
# arrays) orders the float bits: -0.0 sorts before +0.0 although they are equal, and a NaN
# with its sign bit set sorts first, before -inf. So rows of at most ROW_LIMIT elements are
# sorted by xpgpu's own kernel (below), on the standard's order; longer rows of real
# floats on keys in which -0.0 is +0.0 and every NaN the positive one (NaNs last, equal
# zeros and NaNs in their order), the input gathered in that order.
# https://docs.cupy.dev/en/stable/reference/generated/cupy.sort.html
# Note: CUDART_NAN has its sign bit set; fabs makes it the positive NaN.
_key = cupy.ElementwiseKernel("T x", "T k", "k = isnan(x) ? (T)fabs(CUDART_NAN) : x + (T)0",
                              "xpgpu_sort_key", preamble="#include <cupy/math_constants.h>")

# Rows of at most this many elements: one thread block a row, a bitonic network over
# (value, index) pairs in shared memory; one launch (CuPy's sort runs several).
ROW_LIMIT = 2048

_ROWS_SOURCE = r"""
#include <cupy/math_constants.h>
// a before b in the standard's ascending order: NaNs last and equal to each other,
// -0.0 == +0.0; equal values by their index (stable).
__device__ __forceinline__ bool _xpgpu_lt(const T a, const T b) {
    return a < b || (b != b && a == a);
}
extern "C" __global__ void NAME(const T *__restrict__ x, OUT *__restrict__ out,
                                const int n, const int p) {
    extern __shared__ __align__(8) unsigned char smem[];
    int *idx = reinterpret_cast<int *>(smem);
    T *key = reinterpret_cast<T *>(idx + p);  // 4p bytes in: 8-byte aligned (p >= 2)
    const long long base = (long long)blockIdx.x * n;
    for (int r = threadIdx.x; r < p; r += blockDim.x) {
        key[r] = r < n ? x[base + r] : (T)0;
        idx[r] = r;  // r >= n: padding, after every element
    }
    __syncthreads();
    for (int k = 2; k <= p; k <<= 1) {
        for (int j = k >> 1; j > 0; j >>= 1) {
            for (int t = threadIdx.x; t < (p >> 1); t += blockDim.x) {
                const int i = 2 * t - (t & (j - 1)), l = i + j;
                const T ki = key[i], kl = key[l];
                const int ii = idx[i], il = idx[l];
                // l before i in the total order (value, index), padding last
                const bool l_first = il >= n ? false : ii >= n ? true
                    : _xpgpu_lt(kl, ki) || (!_xpgpu_lt(ki, kl) && il < ii);
                if (l_first == ((i & k) == 0)) {
                    key[i] = kl; key[l] = ki; idx[i] = il; idx[l] = ii;
                }
            }
            __syncthreads();
        }
    }
    for (int r = threadIdx.x; r < n; r += blockDim.x) {
        out[base + r] = RESULT;
    }
}
"""
@_r.Kernels
def _row_kernels(dtype: numpy.dtype, indices: bool, device: int) -> Any:
    name = f"xpgpu_sort_rows_{dtype.kind}{dtype.itemsize}_{'i' if indices else 'v'}"
    src = (f"typedef {_scalar.get_typename(dtype)} T;\n"
           f"typedef {'long long' if indices else 'T'} OUT;\n"
           f"#define RESULT {'idx[r]' if indices else 'key[r]'}\n"
           + _ROWS_SOURCE.replace("NAME", name))
    return _r.functions(src, name)[0]


def _sort_rows(a: Any, axis: int, indices: bool) -> Any:
    """The stable sort (``indices``: argsort) of ``a`` along ``axis`` by xpgpu's kernel,
    or None where a row is longer than ROW_LIMIT or the dtype is not real numeric."""
    n = a.shape[axis] if a.ndim else 0
    if not 0 < n <= ROW_LIMIT or a.dtype.kind not in "iuf" or a.size // n >= 1 << 31:
        return None
    last = axis in (-1, a.ndim - 1)
    x = a if last and a._c_contiguous else cupy.ascontiguousarray(cupy.moveaxis(a, axis, -1))
    p = 1 << max(1, (n - 1).bit_length())  # a power of two, at least 2
    out = cupy.ndarray(x.shape, numpy.int64 if indices else x.dtype)
    rows = x.size // n
    if rows:
        launch(_row_kernels[x.dtype, indices, x.data.device_id], rows, min(p >> 1, 1024),
               (x, out, numpy.int32(n), numpy.int32(p)), p * (x.dtype.itemsize + 4))
    return out if last else cupy.moveaxis(out, -1, axis)


def sort(a: Any, axis: int = -1, kind: Any = None) -> Any:
    out = _sort_rows(a, axis, False)
    if out is not None:
        return out
    if a.dtype.kind != "f":
        return cupy.sort(a, axis=axis)
    return cupy.take_along_axis(a, cupy.argsort(_key(a), axis=axis), axis=axis)


def argsort(a: Any, axis: int = -1, kind: Any = None) -> Any:
    out = _sort_rows(a, axis, True)
    if out is not None:
        return out
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
