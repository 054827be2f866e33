"""xpgpu's own ``cumsum`` kernel on CUDA (``cumulative_sum``): non-empty integer and real
floating C-contiguous arrays along their last axis (a 1-D array, or ``axis=-1`` of a 2-D
one...; floats of several rows from ``THRESHOLD`` elements, as the reductions),
accumulated in the requested dtype when it is an integer of at least 4 bytes (from an
integer input) or a float at least as wide as the floating input.

CuPy scans with its generic kernels; here a row is cut into tiles of ``B * IPT``
elements (``B`` threads, each with ``IPT`` consecutive elements read and written with
16-byte loads and stores where rows are 16-byte aligned). Where the rows fill the GPU,
each row is one block that scans its tiles in order, carrying the running total (one
launch, the data read once). Where few long rows do not, a row is cut into ``C`` chunks
of consecutive tiles: one launch writes each chunk's total, a second scans each chunk as
above from a carry-in that its block adds up from the earlier chunks' totals.

Scan order (integers are exact, wrapping as CuPy's; floats within this order's
rounding): element ``i``'s result is ``(c + e) + s``, where ``s`` is the thread's
running sum of its ``IPT`` elements left to right, ``e`` the block's exclusive prefix of
the thread totals (a shuffle scan within each warp, plus the exclusive scan of the warp
totals), and ``c`` the carry: the chunk's carry-in, then each earlier tile's total of the
chunk added in turn. A chunk's total (and a carry-in) is a strided sum per thread and a
shuffle tree. Every result is thus a sum of its prefix along a tree of depth at most
``D = IPT + 12 + T + (L_c + C) / B + 16`` (``T`` tiles a chunk, ``L_c`` elements a chunk),
so ``|error| <= D * eps * sum(|x_j|, j <= i)`` to first order.
"""

from __future__ import annotations

from typing import Any

import cupy
import numpy
from cupy._core import _scalar

from . import _cupy_reductions as _r
from ._cupy_launch import launch

THRESHOLD = 1 << 16
MIN_SIZE = 1  # the smallest array taken here (2**62: CuPy's path throughout)
# Threads a block, and the blocks (in waves of 256-thread blocks) a few long rows are cut
# into: shorter chains of tiles a block. Measured on an H100, 2**26 elements: 128 threads
# and four waves took 0.79 (float32), 0.95 (float64) and 0.94 (int32) of the time of 256
# threads and one wave; at 2**20, the same.
BLOCK = 128
SPREAD = 4

_SOURCE = r"""
template <typename V, int M> struct alignas(sizeof(V) * M) _xpgpu_vec { V v[M]; };

// The block's sum of every thread's v, in every thread.
__device__ __forceinline__ T _xpgpu_block_sum(T v, T *warps) {
    #pragma unroll
    for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    __syncthreads();  // warps[] may still be read from a previous call
    if (lane == 0) warps[warp] = v;
    __syncthreads();
    if (warp == 0) {
        v = lane < (blockDim.x >> 5) ? warps[lane] : T(0);
        #pragma unroll
        for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
        if (lane == 0) warps[32] = v;
    }
    __syncthreads();
    return warps[32];
}

// The exclusive prefix of v over the block's threads; total: the block's sum.
__device__ __forceinline__ T _xpgpu_block_scan(const T v, T *warps, T &total) {
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    T inc = v;
    #pragma unroll
    for (int o = 1; o < 32; o <<= 1) {
        const T y = __shfl_up_sync(0xffffffffu, inc, o);
        if (lane >= o) inc += y;
    }
    T ex = __shfl_up_sync(0xffffffffu, inc, 1);
    if (lane == 0) ex = T(0);
    __syncthreads();  // warps[] may still be read from the previous tile
    if (lane == 31) warps[warp] = inc;
    __syncthreads();
    if (warp == 0) {
        const T w = lane < (blockDim.x >> 5) ? warps[lane] : T(0);
        T wi = w;
        #pragma unroll
        for (int o = 1; o < 32; o <<= 1) {
            const T y = __shfl_up_sync(0xffffffffu, wi, o);
            if (lane >= o) wi += y;
        }
        T wx = __shfl_up_sync(0xffffffffu, wi, 1);
        if (lane == 0) wx = T(0);
        warps[lane] = wx;
        if (lane == 31) warps[32] = wi;
    }
    __syncthreads();
    total = warps[32];
    return warps[warp] + ex;
}

// Each chunk's total: block b sums elements [c * clen, (c + 1) * clen) of its row.
extern "C" __global__ void NAME_totals(const TIN *__restrict__ x, T *__restrict__ totals,
                                       const long long len, const int chunks,
                                       const long long clen) {
    __shared__ T warps[33];
    const long long row = blockIdx.x / chunks;
    const int chunk = blockIdx.x % chunks;
    const long long start = (long long)chunk * clen;
    const long long stop = min(start + clen, len);
    const TIN *p = x + row * len;
    T s = T(0);
    if (VEC) {
        const long long v0 = start / NIN, v1 = stop / NIN;
        #pragma unroll 4
        for (long long j = v0 + threadIdx.x; j < v1; j += blockDim.x) {
            const _xpgpu_vec<TIN, NIN> v = reinterpret_cast<const _xpgpu_vec<TIN, NIN> *>(p)[j];
            #pragma unroll
            for (int k = 0; k < NIN; ++k) s += T(v.v[k]);
        }
        for (long long e = v1 * NIN + threadIdx.x; e < stop; e += blockDim.x) s += T(p[e]);
    } else {
        for (long long e = start + threadIdx.x; e < stop; e += blockDim.x) s += T(p[e]);
    }
    s = _xpgpu_block_sum(s, warps);
    if (threadIdx.x == 0) totals[blockIdx.x] = s;
}

// A thread's IPT elements from base (16-byte loads where the tile is whole), zeros past stop.
__device__ __forceinline__ void _xpgpu_load(const TIN *p, const long long base,
                                            const long long stop, TIN *r) {
    if (VEC && base + IPT <= stop) {
        #pragma unroll
        for (int u = 0; u < IPT / NIN; ++u) {
            const _xpgpu_vec<TIN, NIN> v =
                reinterpret_cast<const _xpgpu_vec<TIN, NIN> *>(p + base)[u];
            #pragma unroll
            for (int k = 0; k < NIN; ++k) r[u * NIN + k] = v.v[k];
        }
    } else {
        #pragma unroll
        for (int k = 0; k < IPT; ++k) r[k] = base + k < stop ? p[base + k] : TIN(0);
    }
}

// Block b scans chunk c of its row (tiles of blockDim.x * IPT elements, in order) from the
// sum of the earlier chunks' totals (none where chunks == 1); the next tile's loads are
// issued before the current tile's scan, so they are in flight during it.
extern "C" __global__ void NAME(const TIN *__restrict__ x, T *__restrict__ out,
                                const T *__restrict__ totals, const long long len,
                                const int chunks, const long long clen) {
    __shared__ T warps[33];
    const long long row = blockIdx.x / chunks;
    const int chunk = blockIdx.x % chunks;
    const TIN *p = x + row * len;
    T *q = out + row * len;
    const long long stop = min((long long)(chunk + 1) * clen, len);
    const long long tile = (long long)blockDim.x * IPT;
    long long t0 = (long long)chunk * clen;
    TIN r[IPT];
    if (t0 < stop) _xpgpu_load(p, t0 + (long long)threadIdx.x * IPT, stop, r);
    T carry = T(0);
    if (chunk > 0) {
        for (int c = threadIdx.x; c < chunk; c += blockDim.x) carry += totals[row * chunks + c];
        carry = _xpgpu_block_sum(carry, warps);
    }
    for (; t0 < stop; t0 += tile) {
        const long long base = t0 + (long long)threadIdx.x * IPT;
        const bool whole = VEC && base + IPT <= stop;
        T s[IPT];
        #pragma unroll
        for (int k = 0; k < IPT; ++k) s[k] = T(r[k]);
        if (t0 + tile < stop) _xpgpu_load(p, base + tile, stop, r);
        #pragma unroll
        for (int k = 1; k < IPT; ++k) s[k] += s[k - 1];
        T total;
        const T pre = carry + _xpgpu_block_scan(s[IPT - 1], warps, total);
        carry += total;
        if (whole) {
            #pragma unroll
            for (int u = 0; u < IPT / NOUT; ++u) {
                _xpgpu_vec<T, NOUT> v;
                #pragma unroll
                for (int k = 0; k < NOUT; ++k) v.v[k] = pre + s[u * NOUT + k];
                reinterpret_cast<_xpgpu_vec<T, NOUT> *>(q + base)[u] = v;
            }
        } else {
            #pragma unroll
            for (int k = 0; k < IPT; ++k) if (base + k < stop) q[base + k] = pre + s[k];
        }
    }
}
"""

_kernels: dict[Any, Any] = {}


def _ipt(dtype: numpy.dtype) -> int:
    """Elements a thread per tile: at least 8, at least one 16-byte load. (Measured on an
    H200, rows of 1024 float32: 16 a thread, or loading the next tile before scanning the
    current one, were no faster.)"""
    return max(8, 16 // dtype.itemsize)


def _kernel(dtype: numpy.dtype, acc: numpy.dtype, vec: bool, device: int) -> Any:
    key = (dtype, acc, vec, device)
    k = _kernels.get(key)
    if k is None:
        name = f"xpgpu_cumsum_{dtype.kind}{dtype.itemsize}_{acc.kind}{acc.itemsize}_{int(vec)}"
        src = (f"typedef {_scalar.get_typename(dtype)} TIN;\n"
               f"typedef {_scalar.get_typename(acc)} T;\n#define VEC {int(vec)}\n"
               f"#define IPT {_ipt(dtype)}\n#define NIN {16 // dtype.itemsize}\n"
               f"#define NOUT {16 // acc.itemsize}\n" + _SOURCE.replace("NAME", name))
        k = _kernels[key] = _r.functions(src, name, f"{name}_totals")
    return k


def _accumulates(kind: str, acc: numpy.dtype, dtype: numpy.dtype) -> bool:
    """Whether the kernel scans ``dtype`` in ``acc``: integers into 4- or 8-byte integers
    (as CuPy, modular), floats into floats at least as wide."""
    if kind in "iu":
        return acc.kind in "iu" and acc.itemsize >= 4
    return kind == "f" and acc.kind == "f" and acc.itemsize >= dtype.itemsize


def _scan(x: Any, axis: Any, dtype: Any) -> Any:
    """xpgpu's cumulative sum of x along its last axis, or None for CuPy's path."""
    if (type(x) is not cupy.ndarray or x.size < MIN_SIZE or axis is None
            or axis % x.ndim != x.ndim - 1 or not x._c_contiguous):
        return None
    acc = x.dtype if dtype is None else numpy.dtype(dtype)
    if not _accumulates(x.dtype.kind, acc, x.dtype):
        return None
    length = x.shape[-1]
    rows = x.size // length
    if rows > 1 and x.size < THRESHOLD and acc.kind == "f":
        return None  # as the reductions' rows (_cupy_reductions.THRESHOLD)
    ipt = _ipt(x.dtype)
    vec = _r._width(x, length) > 1 and not (length * acc.itemsize) & 15
    device = x.data.device_id
    scan, totals_kernel = _kernel(x.dtype, acc, vec, device)
    threads = -(-length // ipt)  # short rows: a block of fewer threads, one tile a row
    block = min(BLOCK, max(32, -(-threads // 32) * 32))
    tile = block * ipt
    tiles = -(-length // tile)
    spread = SPREAD * _r._wave(device)
    chunks = 1 if rows >= spread else min(tiles, -(-spread // rows))
    per_chunk = -(-tiles // chunks)
    chunks = -(-tiles // per_chunk)
    clen = per_chunk * tile
    out = cupy.ndarray(x.shape, acc)
    args = (numpy.int64(length), numpy.int32(chunks), numpy.int64(clen))
    totals = None
    if chunks > 1:
        # rows * chunks < spread + rows < 2 * spread totals: the reductions' buffer of
        # this stream (MAX_SPLIT_ROWS + wave items) of 2 * SPREAD totals an item.
        totals = _r._scratch(device, 2 * SPREAD * acc.itemsize)[1]
        launch(totals_kernel, rows * chunks, block, (x, totals, *args))
    launch(scan, rows * chunks, block, (x, out, totals, *args))
    return out


def cumsum(x: Any, axis: Any = None, dtype: Any = None, out: Any = None) -> Any:
    r = None if out is not None else _scan(x, axis, dtype)
    return cupy.cumsum(x, axis=axis, dtype=dtype, out=out) if r is None else r


# Note: CuPy's cumsum runs its generic scan kernels (about a fifth of PyTorch's throughput
# on an H200); this gives the same integers and floats within the order's rounding.
FIXES: dict[str, Any] = {"cumsum": cumsum}
