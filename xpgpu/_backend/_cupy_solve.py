"""``linalg.solve`` of small real systems on CUDA in one kernel launch.

CuPy's ``solve`` runs cuSOLVER's ``getrf`` and ``getrs``: LU factorisation with partial
pivoting, then the two triangular solves. For a small matrix that is a few dozen kernel
launches and a workspace query: about 100 µs on an H100 host for a 16-by-16 system, of
which the arithmetic is a few hundred nanoseconds. Here one block per system holds the
augmented matrix ``[A | B]`` in shared memory and runs the same algorithm: Gaussian
elimination with partial pivoting (the pivot of each column the first row of the largest
magnitude, as LAPACK's ``i?amax``; the multipliers ``A[r, c] / A[c, c]``, left as they
are where the pivot is zero, as ``getf2`` leaves them), then back substitution. The
results agree with cuSOLVER's to the rounding of the operations' order; a singular
matrix gives infinities and NaNs, as CuPy's (CuPy checks nothing unless
``cupyx.seterr(linalg="raise")``).

``solve(a, b)`` takes float32 or float64 ``a`` of shape ``(..., n, n)`` with ``0 < n <=
LARGEST`` and ``b`` of its dtype, shaped ``(n,)`` (``a`` 2-D) or ``(..., n, k)`` with
``a``'s stack shape, whose augmented matrix fits the shared memory of a block (strided
or broadcast inputs copied into C order first); anything else (complex, larger, stack
shapes that differ, empty) is CuPy's ``solve``.
"""

from __future__ import annotations

from typing import Any

import cupy
import cupy.linalg
import numpy

from . import _cupy_reductions as _r
from ._cupy_launch import launch

# The kernel's time grows with its n steps, cuSOLVER's more slowly: up to 64 unknowns it
# was measured faster (64 x 64 float64: 90 us a call against 147 on an H100 host; see
# docs/kernels.md, "Small linear systems").
LARGEST = 64
SHARED = 48 * 1024  # bytes of shared memory a block may have without opting in

_SOURCE = r"""
extern "C" __global__ void xpgpu_solve(const T* A, const T* B, T* X, int n, int k)
{
    extern __shared__ unsigned char smem[];
    T* W = (T*)smem;  /* [A | B], n rows of w */
    __shared__ int pivot;
    const int w = n + k;
    const long long system = blockIdx.x;
    A += system * n * n;
    B += system * n * k;
    X += system * n * k;
    for (int i = threadIdx.x; i < n * n; i += blockDim.x) W[(i / n) * w + i % n] = A[i];
    for (int i = threadIdx.x; i < n * k; i += blockDim.x) W[(i / k) * w + n + i % k] = B[i];
    __syncthreads();
    for (int c = 0; c < n; c++) {
        if (threadIdx.x < 32) {  /* the first row of the largest magnitude, from c on */
            T best = -1;
            int at = c;
            for (int r = c + threadIdx.x; r < n; r += 32) {
                const T v = fabs(W[r * w + c]);
                if (v > best) { best = v; at = r; }
            }
            for (int s = 16; s; s >>= 1) {
                const T other = __shfl_down_sync(0xffffffffu, best, s);
                const int row = __shfl_down_sync(0xffffffffu, at, s);
                if (other > best || (other == best && row < at)) { best = other; at = row; }
            }
            if (threadIdx.x == 0) pivot = at;
        }
        __syncthreads();
        const int p = pivot;
        if (p != c) {
            for (int j = threadIdx.x; j < w; j += blockDim.x) {
                const T t = W[c * w + j];
                W[c * w + j] = W[p * w + j];
                W[p * w + j] = t;
            }
            __syncthreads();
        }
        const T d = W[c * w + c];
        if (d != T(0)) {
            for (int r = c + 1 + threadIdx.x; r < n; r += blockDim.x) W[r * w + c] /= d;
        }
        __syncthreads();
        const int cols = w - c - 1;
        for (int i = threadIdx.x; i < (n - c - 1) * cols; i += blockDim.x) {
            const int r = c + 1 + i / cols, j = c + 1 + i % cols;
            W[r * w + j] -= W[r * w + c] * W[c * w + j];
        }
        __syncthreads();
    }
    for (int c = n - 1; c >= 0; c--) {
        for (int j = n + threadIdx.x; j < w; j += blockDim.x) W[c * w + j] /= W[c * w + c];
        __syncthreads();
        for (int i = threadIdx.x; i < c * k; i += blockDim.x) {
            const int r = i / k, j = n + i % k;
            W[r * w + j] -= W[r * w + c] * W[c * w + j];
        }
        __syncthreads();
    }
    for (int i = threadIdx.x; i < n * k; i += blockDim.x) X[i] = W[(i / k) * w + n + i % k];
}
"""
_TYPES = {"f": "float", "d": "double"}
@_r.Kernels
def _kernels(char: str, device: int) -> Any:
    return _r.functions(f"typedef {_TYPES[char]} T;\n" + _SOURCE, "xpgpu_solve")[0]


def solve(a: Any, b: Any) -> Any:
    """``cupy.linalg.solve(a, b)``, small real systems in one kernel (see the module)."""
    n = a.shape[-1] if a.ndim >= 2 else 0
    vector = a.ndim == 2 and b.ndim == 1
    k = 1 if vector else b.shape[-1] if b.ndim else 0
    char = a.dtype.char
    if (char not in _TYPES or b.dtype != a.dtype or not 0 < n <= LARGEST or not k
            or b.ndim != (1 if vector else a.ndim)
            or a.shape[-2] != n or b.shape[0 if vector else -2] != n
            or not (vector or b.shape[:-1] == a.shape[:-1])
            or n * (n + k) * a.itemsize > SHARED or not 0 < a.size // (n * n) < 2**31):
        return cupy.linalg.solve(a, b)
    a = cupy.ascontiguousarray(a)
    b = cupy.ascontiguousarray(b)
    out = cupy.empty(b.shape, a.dtype)
    launch(_kernels[char, out.data.device_id], a.size // (n * n), 128 if n <= 16 else 256,
           (a, b, out, numpy.int32(n), numpy.int32(k)), n * (n + k) * a.itemsize)
    return out
