"""xpgpu's own ``argmax`` and ``argmin`` kernels on CUDA: non-empty integer and real
floating C-contiguous arrays of every size (exact: one launch is also the cheaper small
call), over the whole array or the last axis (``axis=None``, ``axis=-1``).

CuPy's argmax/argmin go through its generic reduction kernels (one block per output row,
scalar loads). Here, as the reductions of ``_cupy_reductions``: ``rows * C`` blocks, each
scanning a strided share of one row with 16-byte loads where rows are 16-byte aligned,
then a tree over the block (warp shuffles of value and index); with ``C > 1`` the last
block of a row to finish (an atomic ticket) merges the ``C`` partials; rows of at most
``WARP_ROWS`` elements take a warp each.

The result is exact and does not depend on the order: a thread keeps the first index of
its extreme (it visits its elements in increasing index order and takes a new one only
when strictly better), and partials merge by a total order: a NaN beats every number (the
first NaN's index wins, as NumPy), then the larger (argmax) or smaller (argmin) value,
then the smaller index; -0.0 and +0.0 are equal, so the first of them wins. float32 values
are compared as integer keys of their bits (``TOW``): CuPy compiles with ``-ftz=true``, under
which a float comparison flushes subnormal operands to zero (``argmax([0, 2e-42])`` was 0).
"""

from __future__ import annotations

import math
from typing import Any

import cupy
import numpy
from cupy._core import _scalar

from . import _cupy_reductions as _r

MIN_SIZE = 1  # the smallest array taken here (2**62: CuPy's path throughout)

_SOURCE = r"""
#include <cupy/math_constants.h>
#define NONE 0x7fffffffffffffffLL

// (a, ia) becomes the better of (a, ia) and (b, ib): a NaN, then the extreme, then the
// smaller index.
__device__ __forceinline__ void _xpgpu_merge(W &a, long long &ia, const W b,
                                             const long long ib) {
    const bool na = a != a, nb = b != b;
    bool take;
    if (na != nb) take = nb;
    else if (na || a == b) take = ib < ia;
    else take = BETTER(b, a);
    if (take) { a = b; ia = ib; }
}

__device__ __forceinline__ void _xpgpu_warp(W &v, long long &i) {
    #pragma unroll
    for (int o = 16; o > 0; o >>= 1) {
        const W b = __shfl_down_sync(0xffffffffu, v, o);
        const long long ib = __shfl_down_sync(0xffffffffu, i, o);
        _xpgpu_merge(v, i, b, ib);
    }
}

// The block's best in thread 0.
__device__ __forceinline__ void _xpgpu_block(W &v, long long &i, W *wv, long long *wi) {
    _xpgpu_warp(v, i);
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    __syncthreads();  // wv, wi may still be read from a previous call
    if (lane == 0) { wv[warp] = v; wi[warp] = i; }
    __syncthreads();
    if (warp == 0) {
        v = WORST; i = NONE;
        if (lane < (blockDim.x >> 5)) { v = wv[lane]; i = wi[lane]; }
        _xpgpu_warp(v, i);
    }
}

// A new element x (at a larger index than best's) is taken where best is not a NaN and x
// is one or is strictly better.
#define XPGPU_TAKE(x, e) \
    if (best == best && (x != x || BETTER(x, best))) { best = x; bi = (e); }

// One row's share: thread t of chunk c takes vectors c * B + t, (C + c) * B + t, ...
// (four loads issued before their elements are compared), then the elements past the
// last whole vector.
#define XPGPU_VEC(a, j)                                                              \
    _Pragma("unroll") for (int k = 0; k < N; ++k) {                                  \
        const W x = TOW(a.v[k]); XPGPU_TAKE(x, (j) * N + k) }
#define XPGPU_SCAN(first, step)                                                      \
    typedef _xpgpu_vec<T, N> V;                                                      \
    const V *pv_ = reinterpret_cast<const V *>(p);                                   \
    const long long nv = len / N;                                                    \
    long long j = (first);                                                           \
    for (; j + 3 * (step) < nv; j += 4 * (step)) {                                   \
        const V a0 = pv_[j], a1 = pv_[j + (step)], a2 = pv_[j + 2 * (step)],         \
                a3 = pv_[j + 3 * (step)];                                            \
        XPGPU_VEC(a0, j) XPGPU_VEC(a1, j + (step)) XPGPU_VEC(a2, j + 2 * (step))     \
        XPGPU_VEC(a3, j + 3 * (step))                                                \
    }                                                                                \
    for (; j < nv; j += (step)) { const V a0 = pv_[j]; XPGPU_VEC(a0, j) }            \
    for (long long e = nv * N + (first); e < len; e += (step)) {                     \
        const W x = TOW(p[e]); XPGPU_TAKE(x, e) }

extern "C" __global__ void NAME(const T *__restrict__ x, long long *__restrict__ out,
                                W *__restrict__ pv, long long *__restrict__ pi,
                                unsigned int *__restrict__ tickets, const long long len,
                                const int chunks) {
    __shared__ W wv[32];
    __shared__ long long wi[32];
    const long long row = blockIdx.x / chunks;
    const int chunk = blockIdx.x % chunks;
    const T *p = x + row * len;
    W best = WORST;
    long long bi = NONE;
    XPGPU_SCAN((long long)chunk * blockDim.x + threadIdx.x, (long long)chunks * blockDim.x)
    _xpgpu_block(best, bi, wv, wi);
    if (chunks > 1) {
        if (threadIdx.x == 0) { pv[blockIdx.x] = best; pi[blockIdx.x] = bi; }
        if (!_xpgpu_last_block(tickets, row, chunks)) return;
        best = WORST; bi = NONE;
        const volatile W *qv = pv + row * chunks;
        const volatile long long *qi = pi + row * chunks;
        for (int c = threadIdx.x; c < chunks; c += blockDim.x) _xpgpu_merge(best, bi, qv[c], qi[c]);
        _xpgpu_block(best, bi, wv, wi);
        if (threadIdx.x == 0) tickets[row] = 0u;  // ready for the next launch
    }
    // No element beat WORST: every element equals it, the first wins.
    if (threadIdx.x == 0) out[row] = bi == NONE ? 0 : bi;
}

// Short rows: a warp a row.
extern "C" __global__ void NAME_warp(const T *__restrict__ x, long long *__restrict__ out,
                                     const long long rows, const long long len) {
    const long long row = ((long long)blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    const int lane = threadIdx.x & 31;
    if (row >= rows) return;
    const T *p = x + row * len;
    W best = WORST;
    long long bi = NONE;
    XPGPU_SCAN(lane, 32)
    _xpgpu_warp(best, bi);
    if (lane == 0) out[row] = bi == NONE ? 0 : bi;
}
"""

_OPS = {"argmax": "((a) > (b))", "argmin": "((a) < (b))"}  # BETTER(a, b): a beats b
_INT_MAX, _INT_MIN = "2147483647", "(-2147483647 - 1)"
# float32: each element compared as an int key, in the values' order: -0.0 as +0.0, NaN
# (NAN_KEY) above every number for argmax, below for argmin, so the first NaN wins; WORST
# is below (above) every key. -ftz=true flushes a float comparison's subnormal operands;
# it does not touch float64, whose elements are compared as they are.
_FLOAT32_KEY = r"""
__device__ __forceinline__ int _xpgpu_key(const float f) {
    const int b = __float_as_int(f), m = b & 0x7fffffff;
    return m > 0x7f800000 ? NAN_KEY : m == 0 ? 0 : b < 0 ? b ^ 0x7fffffff : b;
}
#define TOW(x) _xpgpu_key(x)
"""
@_r.Kernels
def _kernels(op: str, dtype: numpy.dtype, n: int, device: int) -> Any:
    t = _scalar.get_typename(dtype)
    # 8- and 16-bit integers widen to int for the warp shuffles (exact).
    w = "int" if dtype.itemsize < 4 else t
    # WORST: the value no element is worse than (-inf for argmax of a float64)
    worst = _r.limit(dtype, op == "argmin", "W")
    tow = "#define TOW(x) ((W)(x))\n"
    if dtype == numpy.float32:
        w, worst = "int", _INT_MAX if op == "argmin" else _INT_MIN
        tow = (f"#define NAN_KEY {_INT_MIN if op == 'argmin' else _INT_MAX}\n"
               + _FLOAT32_KEY)
    name = f"xpgpu_{op}_{dtype.kind}{dtype.itemsize}_{n}"
    src = (f"typedef {t} T;\ntypedef {w} W;\n#define N {n}\n{tow}"
           f"#define BETTER(a, b) {_OPS[op]}\n#define WORST {worst}\n"
           + _r.COMMON + _SOURCE.replace("NAME", name))
    return _r.functions(src, name, f"{name}_warp")


def _arg(op: str, x: Any, axis: Any, keepdims: bool) -> Any:
    """xpgpu's ``op`` of x over the whole array or its last axis, or None for CuPy's."""
    if type(x) is not cupy.ndarray:
        return None
    return _r.planned(x, _arg_plan, op, axis, keepdims, MIN_SIZE)


def _arg_plan(x: Any, op: str, axis: Any, keepdims: bool, min_size: int) -> Any:
    if x.size < min_size or x.dtype.kind not in "iuf" or not x._c_contiguous:
        return None
    if axis is None:
        kept, length = (), x.size
        shape = (1,) * x.ndim if keepdims else ()
    elif axis % x.ndim == x.ndim - 1:
        kept, length = x.shape[:-1], x.shape[-1]
        shape = (*kept, 1) if keepdims else kept
    else:
        return None
    rows = math.prod(kept)
    dtype = x.dtype
    n = _r._width(x, length)
    device = x.data.device_id
    kernels = _kernels[op, dtype, n, device]
    index = numpy.dtype(numpy.int64)
    if length <= _r.WARP_ROWS and rows > 1:
        return _r.plan(kernels[1], -(-rows // (_r.BLOCK // 32)), shape, index,
                       (numpy.int64(rows), numpy.int64(length)))
    chunks = _r._chunks(rows, length, _r.BLOCK * n * 4, device)
    # partial values (at least int32) and indices
    return _r.plan(kernels[0], rows * chunks, shape, index,
                   (numpy.int64(length), numpy.int32(chunks)), device,
                   (max(4, dtype.itemsize), 8), chunks > 1)


def _search(op: str) -> Any:
    cupy_func = _r.CUPY_METHODS[op]

    def search(x: Any, axis: Any = None, keepdims: bool = False) -> Any:
        r = _arg(op, x, axis, keepdims)
        return cupy_func(x, axis=axis, keepdims=keepdims) if r is None else r

    search.__name__ = op
    return search


# Note: CuPy's argmax/argmin run its generic reductions; these give the same indices
# (NumPy's: the first extreme, the first NaN) at the memory bandwidth.
FIXES: dict[str, Any] = {op: _search(op) for op in _OPS}
