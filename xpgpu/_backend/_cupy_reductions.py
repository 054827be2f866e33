"""xpgpu's own reduction kernels on CUDA: ``var``, ``std`` and ``mean`` of real floating
arrays, ``max`` and ``min`` of integer and real floating arrays, ``sum`` and ``prod`` of
integer (accumulated in int64 or uint64), real and complex floating arrays, and ``any``
and ``all`` of boolean, integer and real floating arrays, over trailing axes (the whole
array, or ``axis=-1`` of a 2-D array...); ``sum`` and ``mean`` of small real floating
rows in NumPy's pairwise order (``_PAIRWISE``).

``var``, ``std``: CuPy computes them as its mean and then a generic ``ReductionKernel`` of
``(x - mean)**2``, which gives one thread block to each output: the whole-array variance
of 2**26 float32 elements runs at a few GB/s (one block), a row variance at a fraction of
the bandwidth. Here, for non-empty C-contiguous real floating arrays reduced over
trailing axes (several rows: from ``THRESHOLD`` elements), one kernel reads each element
once: ``rows x L`` (``L`` the reduced length), each of ``rows * C`` blocks taking a
strided share of one row with 16-byte loads (when rows are 16-byte aligned), or, for many
rows, ``2**k`` lanes a row (``_lanes``), as the sum kernel below does.

Reduction order (the results equal CuPy's two-pass ones within the rounding, not bit for
bit): every element is taken as its deviation from the row's first element (so that the
means below stay as precise as the data's spread); each thread keeps the count, mean and
sum of squared deviations (M2) of its elements; a group of ``GROUP`` 16-byte vectors has
its mean and M2 computed from its elements (two passes over registers) and is merged into
the thread's by Chan, Golub and LeVeque's update (delta = mean_b - mean_a; mean += delta *
n_b / n; M2 += M2_b + delta**2 * n_a * n_b / n), then single vectors, then the elements
past the last whole vector one by one. A block merges its threads' triples as a
tree (warp shuffles, then the warps'); with C > 1 the last block of a row to finish (an
atomic ticket) merges the C partials in index order. The result is ``alpha * M2`` with
``alpha = 1 / (L - correction)`` in the array's dtype, as CuPy's ``_var_core``; ``std`` is
its square root, in the same kernel. A non-finite mean (an inf or NaN element) gives NaN,
as ``x - mean`` does in the two-pass formula.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import cupy
import numpy
from cupy._core import _scalar

from . import METHODS, method
from ._cupy_kernels import _compile
from ._cupy_launch import launch, planner

# CuPy's module functions as their ndarray methods (_backend.method), built once: the
# fallbacks of xpgpu's kernels here and in _cupy_search, and the adapter's own (_cupy).
CUPY_METHODS = {name: method(getattr(cupy, name), cupy.ndarray, name) for name in METHODS}

# Note: below THRESHOLD elements, rows (an array of more than one dimension reduced over
# some trailing axes) are summed as NumPy sums them: sum and mean of real floating rows
# take NumPy's pairwise order (_PAIRWISE), the same bits as NumPy; the other reductions
# that round (prod, var, std, complex sums) keep CuPy's kernels. Another summation order
# of small rows changes results by an ulp, which ill-conditioned formulas amplify:
# scikit-learn's euclidean_distances of 5 features (row norms, then a square root of a
# difference) left rtol=1e-6 of its NumPy result (tests/test_sklearn.py). A whole array
# (one row), and every exact reduction (EXACT: no rounding), takes xpgpu's kernel at every
# size: on an H100, 1000 float32 through xpgpu took 0.97 (sum), 0.45 (mean), 1.00 (max),
# 0.24 (var) and 0.59 (any) of CuPy's time, against 1.07 to 1.16 on CuPy's path
# (benchmarks/thresholds.py).
THRESHOLD = 1 << 16
EXACT = frozenset({"max", "min", "any", "all"})
MIN_SIZE = 1  # the smallest array of any reduction here (2**62: CuPy's path throughout)
BLOCK = 256
GROUP = 4  # var, std: vectors a thread reads before one merge

# CUDA source that the kernels of this module and _cupy_search share.
COMMON = r"""
template <typename V, int M> struct alignas(sizeof(V) * M) _xpgpu_vec { V v[M]; };

// Whether this block is the last of its row's ``chunks`` blocks to finish (an atomic
// ticket), after thread 0 of each block has written its partial; the last block then
// reads them all, and resets the ticket (tickets[row] = 0) for the next launch.
__device__ __forceinline__ bool _xpgpu_last_block(unsigned int *tickets, const long long row,
                                                  const int chunks) {
    __shared__ bool last;
    if (threadIdx.x == 0) {
        __threadfence();
        last = atomicAdd(&tickets[row], 1u) == (unsigned int)(chunks - 1);
    }
    __syncthreads();
    if (last) __threadfence();
    return last;
}
"""

_MOMENTS = r"""
struct S { long long n; T mean; T m2; };

// Chan, Golub and LeVeque's merge of two (count, mean, M2) triples.
__device__ __forceinline__ S _xpgpu_merge(const S a, const S b) {
    if (b.n == 0) return a;
    if (a.n == 0) return b;
    S r;
    r.n = a.n + b.n;
    const T d = b.mean - a.mean, f = T(b.n) / T(r.n);
    r.mean = a.mean + d * f;
    r.m2 = a.m2 + b.m2 + d * d * T(a.n) * f;
    return r;
}

__device__ __forceinline__ S _xpgpu_shfl(const S a, const int o, const int w = 32) {
    S r;
    r.n = __shfl_down_sync(0xffffffffu, a.n, o, w);
    r.mean = __shfl_down_sync(0xffffffffu, a.mean, o, w);
    r.m2 = __shfl_down_sync(0xffffffffu, a.m2, o, w);
    return r;
}

// The block's merge of every thread's triple, in thread 0: warp shuffles, then the warps'.
__device__ __forceinline__ S _xpgpu_block(S acc, S *warps) {
    #pragma unroll
    for (int o = 16; o > 0; o >>= 1) acc = _xpgpu_merge(acc, _xpgpu_shfl(acc, o));
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    if (lane == 0) warps[warp] = acc;
    __syncthreads();
    if (warp == 0) {
        acc = lane < (blockDim.x >> 5) ? warps[lane] : S{0, T(0), T(0)};
        #pragma unroll
        for (int o = 16; o > 0; o >>= 1) acc = _xpgpu_merge(acc, _xpgpu_shfl(acc, o));
    }
    return acc;
}

__device__ __forceinline__ T _xpgpu_finish(const S acc, const T alpha, const int root) {
    T v = isfinite(acc.mean) ? acc.m2 * alpha : T(CUDART_NAN);
    return root ? sqrt(v) : v;
}

// The (count, mean, M2) of a thread's share of one row: elements start, start + step, ...
// of the row's vectors, then of its elements past the last whole vector.
__device__ __forceinline__ S _xpgpu_accumulate(const T *p, const long long len,
                                               const long long start, const long long step) {
    const long long nv = len / N;
    // Deviations from the row's first element: the means stay small numbers, as precise
    // as the data's spread (a float32 mean of 1e6 + N(0, 1) data would round to 0.06).
    const T K = p[0];
    S acc = {0, T(0), T(0)};
    long long j = start;
    // Groups of G vectors (G loads in flight, one merge); then single vectors.
    for (; j + (G - 1) * step < nv; j += G * step) {
        const _xpgpu_vec<T, N> *pv = reinterpret_cast<const _xpgpu_vec<T, N> *>(p);
        _xpgpu_vec<T, N> v[G];
        #pragma unroll
        for (int g = 0; g < G; ++g) {
            v[g] = pv[j + g * step];
            #pragma unroll
            for (int k = 0; k < N; ++k) v[g].v[k] -= K;
        }
        T s = T(0);
        #pragma unroll
        for (int g = 0; g < G; ++g) {
            #pragma unroll
            for (int k = 0; k < N; ++k) s += v[g].v[k];
        }
        S b = {G * N, s * T(1.0 / (G * N)), T(0)};
        #pragma unroll
        for (int g = 0; g < G; ++g) {
            #pragma unroll
            for (int k = 0; k < N; ++k) b.m2 += (v[g].v[k] - b.mean) * (v[g].v[k] - b.mean);
        }
        acc = _xpgpu_merge(acc, b);
    }
    for (; j < nv; j += step) {
        _xpgpu_vec<T, N> v = reinterpret_cast<const _xpgpu_vec<T, N> *>(p)[j];
        #pragma unroll
        for (int k = 0; k < N; ++k) v.v[k] -= K;
        T s = T(0);
        #pragma unroll
        for (int k = 0; k < N; ++k) s += v.v[k];
        S b = {N, s * T(1.0 / N), T(0)};
        #pragma unroll
        for (int k = 0; k < N; ++k) b.m2 += (v.v[k] - b.mean) * (v.v[k] - b.mean);
        acc = _xpgpu_merge(acc, b);
    }
    for (long long e = nv * N + start; e < len; e += step) {
        acc = _xpgpu_merge(acc, S{1, p[e] - K, T(0)});
    }
    return acc;
}

extern "C" __global__ void NAME(const T *__restrict__ x, T *__restrict__ out,
                                S *__restrict__ partial, unsigned int *__restrict__ tickets,
                                const long long len, const int chunks, const T alpha,
                                const int root) {
    __shared__ S warps[32];
    const long long row = blockIdx.x / chunks;
    const int chunk = blockIdx.x % chunks;
    S acc = _xpgpu_accumulate(x + row * len, len, (long long)chunk * blockDim.x + threadIdx.x,
                              (long long)chunks * blockDim.x);
    acc = _xpgpu_block(acc, warps);
    if (chunks == 1) {
        if (threadIdx.x == 0) out[row] = _xpgpu_finish(acc, alpha, root);
        return;
    }
    if (threadIdx.x == 0) partial[blockIdx.x] = acc;
    if (!_xpgpu_last_block(tickets, row, chunks)) return;
    acc = S{0, T(0), T(0)};
    const volatile S *q = partial + row * chunks;
    for (int c = threadIdx.x; c < chunks; c += blockDim.x) {
        acc = _xpgpu_merge(acc, S{q[c].n, q[c].mean, q[c].m2});
    }
    __syncthreads();
    acc = _xpgpu_block(acc, warps);
    if (threadIdx.x == 0) {
        out[row] = _xpgpu_finish(acc, alpha, root);
        tickets[row] = 0u;  // ready for the next launch
    }
}

// Many rows: 2**shift lanes a row (lane l takes vectors l, l + 2**shift, ..., then a
// shuffle tree within the row's lanes; every lane of a warp takes part in the shuffles).
extern "C" __global__ void NAME_lanes(const T *__restrict__ x, T *__restrict__ out,
                                      const long long rows, const long long len,
                                      const T alpha, const int root, const int shift) {
    const long long row = ((long long)blockIdx.x * blockDim.x + threadIdx.x) >> shift;
    const int width = 1 << shift, lane = threadIdx.x & (width - 1);
    S acc = {0, T(0), T(0)};
    if (row < rows) acc = _xpgpu_accumulate(x + row * len, len, lane, width);
    for (int o = width >> 1; o > 0; o >>= 1) acc = _xpgpu_merge(acc, _xpgpu_shfl(acc, o, width));
    if (row < rows && lane == 0) out[row] = _xpgpu_finish(acc, alpha, root);
}
"""

compiled_kernels = 0  # how many modules the kernels here and in _cupy_search/_scan built


# The C type that moves an element's bytes, by itemsize: copies and stores of any dtype (a
# kernel's parameter of this type takes a NumPy scalar of the dtype: its bytes).
ELEMENT_BITS = {1: "unsigned char", 2: "unsigned short", 4: "unsigned int",
                8: "unsigned long long", 16: "ulonglong2"}


class Kernels(dict[Any, Any]):
    """Kernels compiled once a key, as a decorator of the function that builds them:
    ``kernels[key]`` is ``build(*key)``, built at the first lookup and kept (a key names
    the device among the rest: a module is loaded into one device's context)."""

    def __init__(self, build: Any) -> None:
        super().__init__()
        self.build = build

    def __missing__(self, key: tuple[Any, ...]) -> Any:
        value = self[key] = self.build(*key)
        return value


def functions(src: str, *names: str) -> tuple[Any, ...]:
    """The kernels ``names`` of the CUDA source ``src``, compiled as the element-wise
    kernels are (``_cupy_kernels._compile``: CuPy's ufunc options, headers and cache)."""
    global compiled_kernels
    module = _compile(src)
    compiled_kernels += 1
    return tuple(module.get_function(name) for name in names)


@Kernels
def _kernels(dtype: numpy.dtype, n: int, device: int) -> Any:
    t = _scalar.get_typename(dtype)
    name = f"xpgpu_moments_{dtype.char}{n}"
    src = (f"#include <cupy/math_constants.h>\ntypedef {t} T;\n#define N {n}\n"
           f"#define G {GROUP}\n" + COMMON + _MOMENTS.replace("NAME", name))
    return functions(src, name, f"{name}_lanes")


def _trailing(axis: Any, ndim: int) -> int | None:
    """The first reduced axis where ``axis`` is the trailing axes (all of them for None),
    else None."""
    if axis is None:
        return 0
    if type(axis) is int:
        return ndim - 1 if axis % ndim == ndim - 1 else None
    axes = sorted(a % ndim for a in ((axis,) if isinstance(axis, int) else axis))
    if not axes or axes != list(range(ndim - len(axes), ndim)):
        return None
    return axes[0]


def _moments(x: Any, axis: Any, ddof: Any, keepdims: bool, root: bool) -> Any:
    """xpgpu's var (``root``: std) of ``x`` over trailing axes, or None for CuPy's path."""
    if type(x) is not cupy.ndarray:
        return None
    return planned(x, _moments_plan, axis, ddof, keepdims, root, THRESHOLD, MIN_SIZE)


def _moments_plan(x: Any, axis: Any, ddof: Any, keepdims: bool, root: bool, threshold: int,
                  min_size: int) -> Any:
    if x.dtype.kind != "f" or not x._c_contiguous:
        return None
    shape = _rows(x, axis, False, threshold, min_size)
    if shape is None:
        return None
    kept, rows, length = shape
    n = _width(x, length)
    device = x.data.device_id
    # Note: as CuPy's _var_core: alpha = 1 / (n - ddof), in the array's dtype, NaN where
    # n <= ddof (xpgpu's var and std return NaN there before they reach the backend).
    alpha = x.dtype.type(1.0 / (length - ddof) if length > ddof else math.nan)
    out = kept + (1,) * (x.ndim - len(kept)) if keepdims else kept
    kernels = _kernels[x.dtype, n, device]
    shift = _lanes(rows, length, n)
    if shift is not None:
        return plan(kernels[1], -(-rows // (BLOCK >> shift)), out, x.dtype, (
            numpy.int64(rows), numpy.int64(length), alpha, numpy.int32(root),
            numpy.int32(shift)))
    chunks = _chunks(rows, length, BLOCK * n * 4, device)
    return plan(kernels[0], rows * chunks, out, x.dtype,
                (numpy.int64(length), numpy.int32(chunks), alpha, numpy.int32(root)),
                device, (3 * 8,), chunks > 1)  # a partial: (n, mean, M2)


def var(x: Any, axis: Any = None, dtype: Any = None, out: Any = None, ddof: Any = 0,
        keepdims: bool = False) -> Any:
    fast = None if dtype is not None or out is not None else _moments(
        x, axis, ddof, keepdims, False)
    if fast is None:
        return CUPY_METHODS["var"](x, axis=axis, dtype=dtype, out=out, ddof=ddof, keepdims=keepdims)
    return fast


def std(x: Any, axis: Any = None, dtype: Any = None, out: Any = None, ddof: Any = 0,
        keepdims: bool = False) -> Any:
    fast = None if dtype is not None or out is not None else _moments(
        x, axis, ddof, keepdims, True)
    if fast is None:
        return CUPY_METHODS["std"](x, axis=axis, dtype=dtype, out=out, ddof=ddof, keepdims=keepdims)
    return fast


FIXES: dict[str, Any] = {"var": var, "std": std}


# ---- sum, prod, max, min, mean over trailing axes -------------------------------------
#
# One kernel per (operation, dtype, vector width): ``rows * C`` blocks (half a wave in all:
# WAVES), each reducing a strided share of one row as above (acc = OP(acc, x) in
# the thread's order, four vectors loaded at a time, then a tree over the block); with
# C > 1 (few long rows: the whole array) each block writes its partial and the last block
# of a row to finish (an atomic ticket) reduces the C partials in index order, so the
# result does not depend on which block finishes last. Many rows
# (LANE_ROWS) take the segmented kernel: 2**k lanes a row (_lanes), lane l combining the
# row's vectors l, l + 2**k, ... in order (each vector's elements in order), then a
# shuffle tree over the row's lanes (offsets 2**(k-1), ..., 1). CuPy's whole-array sum
# goes through CUB, its reductions over an axis through its own kernels; the results agree
# within the reduction order's rounding (max, min and integers exactly, up to the sign of
# a zero result; NaN propagates as in CuPy and the standard).

_OPS = {  # name: (identity, combine(a, b), result from the row's total)
    "sum": ("T(0)", "a + b", "acc"),
    "mean": ("T(0)", "a + b", "acc / T(len)"),
    "prod": ("T(1)", "a * b", "acc"),
    # max, min: the identity is the dtype's lowest (highest) value; a != a: NaN.
    "max": (None, "(a != a || a > b) ? a : b", "acc"),
    "min": (None, "(a != a || a < b) ? a : b", "acc"),
    # any, all: the truth of each element (x != 0: NaN is true, -0.0 false), as an int.
    "any": ("0", "a | b", "acc"),
    "all": ("1", "a & b", "acc"),
}
_TRUTH = ("any", "all")
# What each element contributes (LOAD(x)): itself, or for any/all its truth; a boolean
# array whose rows are whole 4-byte words is read as uint32 words: a word is true for
# any when nonzero, for all when none of its bytes is zero (the exact "has a zero byte"
# test: (w - 0x01010101) & ~w & 0x80808080 is nonzero iff a byte of w is zero).
_LOADS = {None: "(x)", "truth": "(x != TIN(0))", "any_words": "(x != 0u)",
          "all_words": "(((x - 0x01010101u) & ~x & 0x80808080u) == 0u)"}

_REDUCE = r"""
#include <cupy/math_constants.h>
__device__ __forceinline__ T _xpgpu_op(const T a, const T b) { return COMBINE; }

// A warp shuffle of an accumulator, and a read of another block's partial past L1; a
// complex number moves as its two parts.
template <typename U>
__device__ __forceinline__ U _xpgpu_shfl(const U v, const int o, const int w = 32) {
    return __shfl_down_sync(0xffffffffu, v, o, w);
}
template <typename U>
__device__ __forceinline__ complex<U> _xpgpu_shfl(const complex<U> v, const int o,
                                                  const int w = 32) {
    return complex<U>(__shfl_down_sync(0xffffffffu, v.real(), o, w),
                      __shfl_down_sync(0xffffffffu, v.imag(), o, w));
}
template <typename U> __device__ __forceinline__ U _xpgpu_read(const volatile U *q) {
    return *q;
}
template <typename U>
__device__ __forceinline__ complex<U> _xpgpu_read(const volatile complex<U> *q) {
    return complex<U>(q->real(), q->imag());
}

// The block's reduction of every thread's acc, in thread 0: warp shuffles, then the warps'.
__device__ __forceinline__ T _xpgpu_block(T acc, T *warps) {
    #pragma unroll
    for (int o = 16; o > 0; o >>= 1) {
        acc = _xpgpu_op(acc, _xpgpu_shfl(acc, o));
    }
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    if (lane == 0) warps[warp] = acc;
    __syncthreads();
    if (warp == 0) {
        acc = lane < (blockDim.x >> 5) ? warps[lane] : IDENTITY;
        #pragma unroll
        for (int o = 16; o > 0; o >>= 1) {
            acc = _xpgpu_op(acc, _xpgpu_shfl(acc, o));
        }
    }
    return acc;
}

extern "C" __global__ void NAME(const TIN *__restrict__ x, TOUT *__restrict__ out,
                                T *__restrict__ partial, unsigned int *__restrict__ tickets,
                                const long long len, const int chunks) {
    __shared__ T warps[32];
    const long long row = blockIdx.x / chunks;
    const int chunk = blockIdx.x % chunks;
    const TIN *p = x + row * len;
    const long long nv = len / N;
    const long long step = (long long)chunks * blockDim.x;
    const _xpgpu_vec<TIN, N> *pv = reinterpret_cast<const _xpgpu_vec<TIN, N> *>(p);
    T acc = IDENTITY;
    long long j = (long long)chunk * blockDim.x + threadIdx.x;
    // UNROLL vectors loaded before they are combined (in order), then one at a time.
    for (; j + (UNROLL - 1) * step < nv; j += UNROLL * step) {
        _xpgpu_vec<TIN, N> v[UNROLL];
        #pragma unroll
        for (int u = 0; u < UNROLL; ++u) v[u] = pv[j + u * step];
        #pragma unroll
        for (int u = 0; u < UNROLL; ++u) {
            #pragma unroll
            for (int k = 0; k < N; ++k) acc = _xpgpu_op(acc, LOAD_(v[u].v[k]));
        }
    }
    for (; j < nv; j += step) {
        #pragma unroll
        for (int k = 0; k < N; ++k) acc = _xpgpu_op(acc, LOAD_(pv[j].v[k]));
    }
    for (long long e = nv * N + (long long)chunk * blockDim.x + threadIdx.x; e < len;
         e += step) {
        acc = _xpgpu_op(acc, LOAD_(p[e]));
    }
    acc = _xpgpu_block(acc, warps);
    if (chunks == 1) {
        if (threadIdx.x == 0) out[row] = (TOUT)(RESULT);
        return;
    }
    if (threadIdx.x == 0) partial[blockIdx.x] = acc;
    if (!_xpgpu_last_block(tickets, row, chunks)) return;
    acc = IDENTITY;
    const volatile T *q = partial + row * chunks;
    for (int c = threadIdx.x; c < chunks; c += blockDim.x) {
        acc = _xpgpu_op(acc, _xpgpu_read(q + c));
    }
    __syncthreads();
    acc = _xpgpu_block(acc, warps);
    if (threadIdx.x == 0) {
        out[row] = (TOUT)(RESULT);
        tickets[row] = 0u;  // ready for the next launch
    }
}

// Many rows: 2**shift lanes a row (lane l takes vectors l, l + 2**shift, ..., then a
// shuffle tree within the row's lanes; every lane of a warp takes part in the shuffles).
extern "C" __global__ void NAME_lanes(const TIN *__restrict__ x, TOUT *__restrict__ out,
                                      const long long rows, const long long len,
                                      const int shift) {
    const long long row = ((long long)blockIdx.x * blockDim.x + threadIdx.x) >> shift;
    const int width = 1 << shift, lane = threadIdx.x & (width - 1);
    T acc = IDENTITY;
    if (row < rows) {
        const TIN *p = x + row * len;
        const long long nv = len / N;
        #pragma unroll 4
        for (long long j = lane; j < nv; j += width) {
            const _xpgpu_vec<TIN, N> v = reinterpret_cast<const _xpgpu_vec<TIN, N> *>(p)[j];
            #pragma unroll
            for (int k = 0; k < N; ++k) acc = _xpgpu_op(acc, LOAD_(v.v[k]));
        }
        for (long long e = nv * N + lane; e < len; e += width) {
            acc = _xpgpu_op(acc, LOAD_(p[e]));
        }
    }
    for (int o = width >> 1; o > 0; o >>= 1) acc = _xpgpu_op(acc, _xpgpu_shfl(acc, o, width));
    if (row < rows && lane == 0) out[row] = (TOUT)(RESULT);
}
"""

# argmax/argmin (_cupy_search): rows of at most this many elements take a warp a row.
WARP_ROWS = 4096
_sms_of: dict[int, int] = {}


def _sms(device: int) -> int:
    """The device's streaming multiprocessors."""
    n = _sms_of.get(device)
    if n is None:
        n = _sms_of[device] = cupy.cuda.runtime.getDeviceProperties(device)[
            "multiProcessorCount"]
    return n


def _wave(device: int) -> int:
    """Blocks of BLOCK threads that the device runs at once (one wave)."""
    return _sms(device) * (2048 // BLOCK)


# From this many rows, the segmented kernel (_lanes): a warp or fewer lanes a row keep
# enough loads in flight to reach the bandwidth.
LANE_ROWS = 512
# Rows reduced by several blocks at most (each has a ticket in a zeroed buffer per device
# that the last block resets); with more rows, one block a row.
MAX_SPLIT_ROWS = 1024
# Note: the kernels of few rows (reductions, var/std, argmax/argmin) fill half a wave of
# blocks: with several loads in flight a thread, half a wave read as fast as a whole one
# and the last block combines half the partials. On an H100 against PyTorch's throughput,
# 2**26 elements: float64 sum 0.995 (a whole wave 0.990), float32 argmax 1.040 (1.007),
# float32 var 1.092 (1.039); 2**20 float64 argmax 1.37 (1.11).
WAVES = 0.5
# Vectors a thread of the reduction kernel loads before it combines them (the same order
# whatever their number). Measured on an H200 at 2**26 elements, GPU time of PyTorch's
# sum over xpgpu's, float64, complex64, float32: 8 vectors 1.015, 1.015, 1.065; 4 vectors
# 0.989, 0.991, 1.069 (a whole wave of blocks: 1.009, 1.007, 1.060; evict-first loads:
# 0.995; loads with L2's 256-byte prefetch: 0.972); float64 at 2**20: 1.43 (4: 1.49).
UNROLL = 8
_scratches: dict[Any, Any] = {}  # by (device, stream): tickets; (..., itemsizes): all


def limit(dtype: numpy.dtype, highest: bool, ctype: str) -> str:
    """The C literal, cast to ``ctype``, of ``dtype``'s highest (or lowest) value: +inf
    (-inf) for a float."""
    if dtype.kind == "f":
        return f"({ctype})({'' if highest else '-'}CUDART_INF)"
    info = numpy.iinfo(dtype)
    v = int(info.max if highest else info.min)
    if v == -(1 << 63):
        return f"({ctype})(-0x7fffffffffffffffLL - 1)"
    return f"({ctype})({v}{'ULL' if v >= 1 << 63 else 'LL'})"


@Kernels
def _reduce_kernels(op: str, dtype: numpy.dtype, n: int, device: int, load: str | None,
                    acc_dtype: numpy.dtype) -> Any:
    identity, combine, result = _OPS[op]
    if identity is None:
        identity = limit(dtype, op == "min", "T")
    truth = op in _TRUTH
    acc, out = ("int", "bool") if truth else (_scalar.get_typename(acc_dtype),) * 2
    name = (f"xpgpu_reduce_{op}_{dtype.kind}{dtype.itemsize}_{n}_"
            f"{acc_dtype.kind}{acc_dtype.itemsize}")
    src = (f"typedef {_scalar.get_typename(dtype)} TIN;\ntypedef {acc} T;\n"
           f"typedef {out} TOUT;\n#define N {n}\n#define LOAD_(x) {_LOADS[load]}\n"
           f"#define IDENTITY ({identity})\n#define COMBINE ({combine})\n"
           f"#define RESULT ({result})\n#define UNROLL {UNROLL}\n"
           + COMMON + _REDUCE.replace("NAME", name))
    return functions(src, name, f"{name}_lanes")


def _small(x: Any, axis: Any, threshold: int) -> bool:
    """Whether reducing x over ``axis`` is (nearly always) of several rows below the
    module's THRESHOLD: see there."""
    return axis is not None and x.ndim > 1 and x.size < threshold


def _rows(x: Any, axis: Any, small: bool, threshold: int, min_size: int
          ) -> tuple[tuple[int, ...], int, int] | None:
    """(kept shape, rows, row length) of a reduction of x over trailing axes that xpgpu's
    kernels take (``small``: small rows too, as exact reductions and NumPy's order do; the
    module's THRESHOLD and MIN_SIZE), else None."""
    size = x.size
    if size < min_size:
        return None
    if axis is None:
        return (), 1, size
    if not small and _small(x, axis, threshold):
        return None
    ndim = x.ndim
    first = _trailing(axis, ndim)
    if first is None:
        return None
    kept = x.shape[:first]
    rows = math.prod(kept)
    return kept, rows, size // rows


def _width(x: Any, length: int) -> int:
    """Elements of x per 16-byte load where every row of ``length`` elements is 16-byte
    aligned, else 1."""
    size = x.dtype.itemsize
    return 16 // size if not (length * size) & 15 and not (x.data.ptr & 15) else 1


def _scratch(device: int, *itemsizes: int) -> tuple[Any, ...]:
    """The zeroed tickets of the device's current stream, and a buffer for the blocks'
    partials of each of ``itemsizes`` bytes (one a partial's part: argmax's values and
    indices), kept per stream: launches on one stream run in order, each row's last block
    resets its ticket and has read the partials before its launch ends. A buffer holds
    ``rows * chunks`` partials of any launch (rows * ceil(wave / rows) < wave +
    MAX_SPLIT_ROWS); reusing it saves an allocation a call (~2 µs on an H100 host, a fifth
    of a whole-array sum's)."""
    key = (device, cupy.cuda.get_current_stream().ptr, itemsizes)
    s = _scratches.get(key)
    if s is None:
        t = key[:2]
        tickets = _scratches.get(t)
        if tickets is None:
            tickets = _scratches[t] = cupy.zeros(MAX_SPLIT_ROWS, numpy.uint32)
        count = MAX_SPLIT_ROWS + _wave(device)
        s = _scratches[key] = (tickets, *(cupy.ndarray((count * size,), numpy.uint8)
                                          for size in itemsizes))
    return s  # type: ignore[no-any-return]


def _lanes(rows: int, length: int, n: int) -> int | None:
    """log2 of the lanes a row of the segmented kernel, or None for the block kernel
    (fewer than LANE_ROWS rows: each gets a block, or several). A lane takes about eight
    of the row's ``n``-element vectors, up to a warp a row. (Measured on an H100 against
    every width from 1 to 32 lanes and a block a row, for sum and var of 1024 x 1024,
    65536 x 1024, 8000 x 100, 20000 x 7 and 2**20 x 4 float32 and float64: within 10% of
    the fastest, and at most PyTorch's GPU time but for 65536 x 1024 float64 sum, equal.)"""
    if rows < LANE_ROWS:
        return None
    return max(0, min(5, (-(-length // n) - 1).bit_length() - 3))


def _chunks(rows: int, length: int, per_block: int, device: int) -> int:
    """Blocks per row: one where rows fill the device, else enough to fill WAVES waves."""
    return 1 if rows > MAX_SPLIT_ROWS else max(
        1, min(-(-length // per_block), -(-int(_wave(device) * WAVES) // rows)))


# ---- plans ----------------------------------------------------------------------------
#
# A launch of the kernels here, of _cupy_search's and _cupy_scan's depends only on x's
# shape, dtype, contiguity, alignment and device and on the call's arguments (the
# module's size thresholds among them); it is worked out once for each and kept as a
# plan: a function of x that allocates the result and launches. (The Python that picks
# a kernel and its grid took ~5 µs a call on an H100 host, a third of a row sum's.)
_plans: dict[Any, Any] = {}
MAX_PLANS = 4096  # distinct calls kept; past that, the plans start afresh
_MISSING = object()


def _planned(x: Any, make: Any, *args: Any) -> Any:
    """``make(x, *args)``'s plan run on x (a CuPy ndarray), or None for CuPy's path (a
    ``make`` that returns None); the plan is made once per key. (The compiled module runs
    the cached plans itself: ``planned``.)"""
    data = x.data
    key = (make, x.shape, x.dtype, x._c_contiguous, data.ptr & 15, data.device_id, *args)
    try:
        entry = _plans.get(key, _MISSING)
    except TypeError:  # an unhashable argument (axis as a list): no plan kept
        entry = make(x, *args)
    if entry is _MISSING:
        if len(_plans) >= MAX_PLANS:
            _plans.clear()
        entry = _plans[key] = make(x, *args)
    return None if entry is None else entry[0](x)


planned = planner(_plans, _planned)


def _slot(p: Any) -> bytes:
    """A kernel parameter as the compiled module's 16-byte slot: a null pointer (None), an
    array's pointer, or a NumPy scalar's bytes."""
    if p is None:
        return bytes(16)
    if type(p) is cupy.ndarray:
        return numpy.uintp(p.data.ptr).tobytes().ljust(16, b"\0")
    return p.tobytes().ljust(16, b"\0")  # type: ignore[no-any-return]


def plan(kernel: Any, grid: int, shape: tuple[int, ...], dtype: numpy.dtype,
         params: tuple[Any, ...], device: int = 0, partials: tuple[int, ...] | None = None,
         split: bool = False, block: int = BLOCK,
         scratch: Callable[[], tuple[Any, ...]] | None = None) -> tuple[Any, Any]:
    """The plan that launches ``kernel`` on ``grid`` blocks of ``block`` threads with the
    arguments ``(x, out, *params)``, ``out`` a new array of ``shape`` and ``dtype``; for a
    kernel with ``partials`` (their itemsizes), ``(x, out, *partials, tickets, *params)``:
    the buffers of the device's current stream (_scratch) where rows are ``split`` among
    blocks, else nulls; with ``scratch``, ``(x, out, *scratch(), *params)``: the buffers
    it gives for the current stream. A plan is a pair: ``run(x)``, and the launch as the
    compiled module takes it (the parameters as 16-byte slots; with a stream's buffers,
    that stream: on another stream the module calls ``run``, which takes that stream's)."""
    if partials is not None:
        if split:
            def scratch() -> tuple[Any, ...]:
                tickets, *buffers = _scratch(device, *partials)
                return (*buffers, tickets)
        else:
            params = (None,) * (len(partials) + 1) + params
    if scratch is None:
        def run(x: Any) -> Any:
            out = cupy.ndarray(shape, dtype)
            launch(kernel, grid, block, (x, out, *params))
            return out

        return run, (kernel.ptr, grid, block, shape, dtype, b"".join(map(_slot, params)))
    buffers = scratch

    def run_split(x: Any) -> Any:
        out = cupy.ndarray(shape, dtype)
        launch(kernel, grid, block, (x, out, *buffers(), *params))
        return out

    slots = b"".join(map(_slot, (*buffers(), *params)))
    return run_split, (kernel.ptr, grid, block, shape, dtype, slots,
                       cupy.cuda.get_current_stream().ptr)


# ---- sum and mean of small rows, in NumPy's order -------------------------------------
#
# NumPy sums a contiguous row of n elements pairwise (pairwise_sum of
# numpy/_core/src/umath/loops_utils.h.src): a run of n <= 128 elements (a leaf) is added
# in 8 accumulators r[j] (elements j, j + 8, ... of its first n - n % 8; none where
# n < 8), as ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7)), then its last n % 8
# elements in turn; a longer run is split at n2 = n / 2 - (n / 2) % 8 and its halves' sums
# are added; the row's result is 0 + that sum (NumPy's identity; mean: then / n). The
# same additions here give the same bits: 8 threads take a leaf (thread j its r[j]; three
# shuffles add them in NumPy's tree). A row of one leaf is a group of 8 threads; a longer
# row is a block, whose leaves go to shared memory and are then added pairwise, a level
# of the split tree at a time (_tree: its pairs by height, below the root).
PAIRWISE_LEAF = 128  # NumPy's PW_BLOCKSIZE
PAIRWISE = frozenset({"sum", "mean"})
_SLOTS = 1025  # a block's leaves and sums: the most a row of fewer than 2**16 elements has

_PAIRWISE = r"""
// Thread j (of a group of 8, all calling) holds r[j] of the leaf of n elements at p;
// thread 0 returns the leaf's sum, as NumPy's pairwise_sum.
__device__ __forceinline__ T _xpgpu_leaf(const T *p, const int n, const int j) {
    const int whole = n < 8 ? 0 : n - (n & 7);
    T r = whole ? p[j] : T(0);
    for (int i = 8 + j; i < whole; i += 8) r += p[i];
    r += __shfl_down_sync(0xffffffffu, r, 1, 8);
    r += __shfl_down_sync(0xffffffffu, r, 2, 8);
    r += __shfl_down_sync(0xffffffffu, r, 4, 8);
    for (int i = whole; i < n; ++i) r += p[i];
    return r;
}

// Rows of one leaf (leaves == 1): 8 threads a row. Longer rows: a block a row; its leaves
// start at table[0 ... leaves - 1] (table[leaves] = len), then table[leaves + 1 + h] is
// the first pair of height h + 1 (levels + 1 offsets), then the pairs (a, b) of slots:
// slot leaves + k is pair k's sum, a + b.
extern "C" __global__ void NAME(const T *__restrict__ x, T *__restrict__ out,
                                const int *__restrict__ table, const long long rows,
                                const long long len, const int leaves, const int levels) {
    const int j = threadIdx.x & 7;
    if (leaves == 1) {
        const long long row = ((long long)blockIdx.x * blockDim.x + threadIdx.x) >> 3;
        const T s = _xpgpu_leaf(x + row * len, row < rows ? (int)len : 0, j);
        if (row < rows && j == 0) out[row] = RESULT(T(0) + s);
        return;
    }
    __shared__ T slots[SLOTS];
    const T *p = x + blockIdx.x * len;
    const int groups = blockDim.x >> 3;
    for (int base = 0; base < leaves; base += groups) {
        const int leaf = base + (threadIdx.x >> 3);
        const int start = leaf < leaves ? table[leaf] : 0;
        const T s = _xpgpu_leaf(p + start, leaf < leaves ? table[leaf + 1] - start : 0, j);
        if (leaf < leaves && j == 0) slots[leaf] = s;
    }
    const int *level = table + leaves + 1, *pairs = level + levels + 1;
    for (int h = 0; h < levels; ++h) {
        __syncthreads();
        for (int k = level[h] + threadIdx.x; k < level[h + 1]; k += blockDim.x)
            slots[leaves + k] = slots[pairs[2 * k]] + slots[pairs[2 * k + 1]];
    }
    __syncthreads();
    if (threadIdx.x == 0) out[blockIdx.x] = RESULT(T(0) + slots[leaves + level[levels] - 1]);
}
"""
_tables: dict[Any, Any] = {}  # by (row length, device): (leaves, levels, table on the device)


@Kernels
def _pairwise_kernels(op: str, dtype: numpy.dtype, device: int) -> Any:
    name = f"xpgpu_pairwise_{op}_{dtype.char}"
    result = "(s)" if op == "sum" else "((s) / T(len))"
    src = (f"typedef {_scalar.get_typename(dtype)} T;\n#define SLOTS {_SLOTS}\n"
           f"#define RESULT(s) {result}\n" + _PAIRWISE.replace("NAME", name))
    return functions(src, name)[0]


def _tree(length: int) -> tuple[list[int], list[list[tuple[int, int]]]]:
    """NumPy's pairwise split of a row of ``length`` elements: the leaves' starts, and the
    pairs (a, b) of slots added, by height (a slot is a leaf's index, or ``leaves + k``
    for pair ``k`` counted across the heights in order), the root last."""
    starts: list[int] = []
    pairs: list[tuple[int, int, int]] = []  # (height, a, b); a node: a leaf i, or ~pair

    def split(start: int, n: int) -> tuple[int, int]:  # (node, height)
        if n <= PAIRWISE_LEAF:
            starts.append(start)
            return len(starts) - 1, 0
        half = n // 2 - n // 2 % 8
        (a, ha), (b, hb) = split(start, half), split(start + half, n - half)
        pairs.append((max(ha, hb) + 1, a, b))
        return ~(len(pairs) - 1), max(ha, hb) + 1

    split(0, length)
    order = sorted(range(len(pairs)), key=lambda k: pairs[k][0])
    slot = {~k: len(starts) + rank for rank, k in enumerate(order)}
    heights: list[list[tuple[int, int]]] = []
    for k in order:
        h, a, b = pairs[k]
        if len(heights) < h:
            heights.append([])
        heights[h - 1].append((slot.get(a, a), slot.get(b, b)))
    return starts, heights


def _pairwise_plan(x: Any, op: str, rows: int, length: int, out: tuple[int, ...]) -> Any:
    """The plan of NumPy's pairwise sum (mean) of x's ``rows`` rows of ``length``."""
    device = x.data.device_id
    entry = _tables.get((length, device))
    if entry is None:
        starts, heights = _tree(length)
        offsets = [0]
        for level in heights:
            offsets.append(offsets[-1] + len(level))
        if len(starts) + offsets[-1] > _SLOTS:
            return None
        table = numpy.array(starts + [length] + offsets + [s for level in heights
                                                         for pair in level for s in pair],
                            numpy.int32)
        with cupy.cuda.Device(device):
            on_device = cupy.asarray(table)
            # (copied on this stream, read on any: once per row length, wait for the copy)
            cupy.cuda.get_current_stream().synchronize()
        entry = _tables[length, device] = (len(starts), len(heights), on_device)
    leaves, levels, table = entry
    kernel = _pairwise_kernels[op, x.dtype, device]
    params = (numpy.uint64(table.data.ptr), numpy.int64(rows), numpy.int64(length),
              numpy.int32(leaves), numpy.int32(levels))
    if leaves == 1:
        return plan(kernel, -(-rows // (BLOCK // 8)), out, x.dtype, params)
    return plan(kernel, rows, out, x.dtype, params, block=min(1024, -(-leaves // 4) * 32))


_UINT32 = numpy.dtype(numpy.uint32)
# The input kinds each reduction takes, and for sum and prod their accumulation dtype
# (dtype=None) where it is not the input's: integers widen to int64 or uint64 as CuPy's
# (and the standard's) sums; integer sums and products wrap around exactly, in any order.
_KINDS = {op: "f" for op in _OPS}
_KINDS.update(any="biuf", all="biuf", max="iuf", min="iuf", sum="iufc", prod="iufc")
_WIDEN = {"i": numpy.dtype(numpy.int64), "u": numpy.dtype(numpy.uint64)}


def _reduce(op: str, x: Any, axis: Any, keepdims: bool, dtype: Any = None) -> Any:
    """xpgpu's reduction ``op`` of ``x`` over trailing axes (accumulated in ``dtype``, by
    default as CuPy's), or None for CuPy's path."""
    if type(x) is not cupy.ndarray:
        return None
    return planned(x, _reduce_plan, op, axis, keepdims, dtype, THRESHOLD, MIN_SIZE)


def _reduce_plan(x: Any, op: str, axis: Any, keepdims: bool, dtype: Any, threshold: int,
                 min_size: int) -> Any:
    if x.dtype.kind not in _KINDS[op] or not x._c_contiguous:
        return None
    acc = _WIDEN.get(x.dtype.kind, x.dtype) if op in ("sum", "prod") else x.dtype
    if dtype is not None and dtype != acc:
        return None
    # small rows of real floats: NumPy's order (_PAIRWISE)
    pairwise = op in PAIRWISE and acc.kind == "f" and _small(x, axis, threshold)
    shape = _rows(x, axis, pairwise or op in EXACT or acc.kind in "iu", threshold, min_size)
    if shape is None:
        return None
    kept, rows, length = shape
    reduced = x.ndim - len(kept)
    out = kept + (1,) * reduced if keepdims else kept
    if pairwise:
        return _pairwise_plan(x, op, rows, length, out)
    load = "truth" if op in _TRUTH else None
    dtype = x.dtype
    if load and dtype.kind == "b" and not length & 3 and not x.data.ptr & 3:
        # the kernel reads the same memory as uint32 words (no view: one call less)
        dtype, length, load = _UINT32, length >> 2, op + "_words"
    n = 16 // dtype.itemsize if not (length * dtype.itemsize) & 15 and not (
        x.data.ptr & 15) else 1
    device = x.data.device_id
    kernels = _reduce_kernels[op, dtype, n, device, load, acc]
    out_dtype = numpy.dtype(numpy.bool_) if load else acc
    shift = _lanes(rows, length, n)
    if shift is not None:
        return plan(kernels[1], -(-rows // (BLOCK >> shift)), out, out_dtype,
                    (numpy.int64(rows), numpy.int64(length), numpy.int32(shift)))
    chunks = _chunks(rows, length, BLOCK * n * 4, device)
    return plan(kernels[0], rows * chunks, out, out_dtype,
                (numpy.int64(length), numpy.int32(chunks)), device,
                (4 if load else acc.itemsize,), chunks > 1)


def _reduction(op: str, cupy_func: Any) -> Any:
    def reduce(x: Any, axis: Any = None, dtype: Any = None, out: Any = None,
               keepdims: bool = False) -> Any:
        if out is None:
            r = _reduce(op, x, axis, keepdims, dtype)
            if r is not None:
                return r
        if dtype is None:
            return cupy_func(x, axis, out=out, keepdims=keepdims)
        return cupy_func(x, axis, dtype=dtype, out=out, keepdims=keepdims)

    reduce.__name__ = op
    return reduce


FIXES.update({op: _reduction(op, CUPY_METHODS[op]) for op in _OPS})
# Note: CuPy's any/all reduce through its generic kernels (one block per output row);
# these give the same booleans exactly (a reduction of truths has no rounding).


# Note: CuPy's dot of two vectors (tensordot_core's m == n == 1 case) is a generic
# ReductionKernel of a * b, whose call cost 54 µs on an H100 for 1000 float32 (xpgpu's
# vecdot, CuPy's (a * b).sum() 29 µs); the product and xpgpu's sum of a whole array are
# two launches, the same products summed in another order.
def dot(a: Any, b: Any) -> Any:
    if (type(a) is cupy.ndarray and type(b) is cupy.ndarray and a.ndim == 1 == b.ndim
            and a.dtype == b.dtype and a.dtype.kind in "iuf"):
        return FIXES["sum"](cupy.multiply(a, b), dtype=a.dtype)
    return cupy.dot(a, b)


FIXES["dot"] = dot
