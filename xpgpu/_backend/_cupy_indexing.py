"""Python scalars stored by one kernel or memset: ``x[mask] = value``, ``x[key] = value``
of a basic key (``__setitem__``:
https://data-apis.org/array-api/2025.12/API_specification/indexing.html), and the fill
of ``full`` and ``ones``; and ``x[mask]`` read by a scan and one kernel (``mask_take``:
on an H100 host, 1000 float32 took 48-57 µs a call, CuPy's 87, PyTorch's 48; 2**24 162,
255 and 160).

CuPy's masked assignment scans the mask to number the selected elements, then scatters the
value through those numbers: about 100 µs on an H100 host for 1000 elements, where
PyTorch's takes 9. Its fill of a view, of ``full`` and of ``ones`` is an element-wise kernel
launched through its Python layer. Here one kernel or memset, launched from C
(``_cupy_launch``), stores the scalar in place:

- ``mask_fill``: ``if (m[i]) x[i] = v``, for a C-contiguous array and a C-contiguous
  boolean mask of its shape;
- ``fill``: ``x[i * step] = v``, for a 1-D view of any step, and for a C-contiguous array
  whose scalar's bytes are not a word of 1, 2 or 4 bytes repeated (a float64 or complex
  value whose halves differ). Those words are a memset (cuMemsetD8/16/32Async), which
  costs less than a kernel: on an H100 host, 1000 float32, ``full`` took 7.1 µs a call,
  11.3 by the kernel, 13.8 by CuPy; ``a[1:10] = 0.5`` 6.2, 10.1 and 10.0. The words are
  the widest the address and size allow: a memset of single bytes took 7.4 µs (1001
  int8), of 4-byte words 4.3 (1000 float32).

The value is converted on the host as NumPy converts it (as CuPy does), or is a NumPy
scalar of the array's dtype, and its bytes are stored as they are, so -0.0 keeps its sign
(CuPy's zero shortcut, a memset of zero bytes, does not: ``_cupy._negative_zero``). Every
other call is CuPy's.
"""

from __future__ import annotations

from typing import Any

import cupy
import numpy

from . import _cupy_reductions as _r
from . import _cupy_scan
from ._cupy_launch import launch, memset

BLOCK = 256
_SOURCE = r"""
#define EACH for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; \
                  i += (long long)gridDim.x * blockDim.x)
extern "C" __global__ void xpgpu_fill(T *__restrict__ x, const long long n,
                                      const long long step, const T v) {
    EACH x[i * step] = v;
}
extern "C" __global__ void xpgpu_mask_fill(T *__restrict__ x, const bool *__restrict__ m,
                                           const long long n, const T v) {
    EACH if (m[i]) x[i] = v;
}
// out[k] = the k-th selected run of r elements of x: pos is the inclusive scan of m.
#define TAKE(NAME, P)                                                                     \
extern "C" __global__ void NAME(const T *__restrict__ x, const bool *__restrict__ m,     \
                                const P *__restrict__ pos, T *__restrict__ out,          \
                                const long long n, const long long r) {                  \
    EACH {                                                                                \
        const long long row = r == 1 ? i : i / r;                                         \
        if (m[row]) out[(pos[row] - 1) * r + (i - row * r)] = x[i];                       \
    }                                                                                     \
}
TAKE(xpgpu_mask_take32, int)
TAKE(xpgpu_mask_take64, long long)
"""
# The dtype kinds a Python scalar of each type is stored into here (the rest: CuPy's path).
_KINDS = {bool: "b", int: "iufc", float: "fc", complex: "c"}
SCALARS = frozenset(_KINDS)
_NAMES = ("xpgpu_fill", "xpgpu_mask_fill", "xpgpu_mask_take32", "xpgpu_mask_take64")
@_r.Kernels
def _kernels(itemsize: int, device: int) -> tuple[Any, ...]:
    """The kernels ``_NAMES`` of elements of ``itemsize`` bytes."""
    return _r.functions(f"typedef {_r.ELEMENT_BITS[itemsize]} T;\n" + _SOURCE, *_NAMES)


def _scalar(dtype: numpy.dtype, value: Any) -> Any:
    """``value`` as a NumPy scalar of ``dtype`` (the kernels take its bytes), or None where
    the value is not this module's: another kind, an int the dtype cannot hold (CuPy's
    path, and its error)."""
    t = type(value)
    kinds = _KINDS.get(t)
    if kinds is not None:
        if dtype.kind not in kinds:
            return None
        if t is int and dtype.kind in "iu":
            info = numpy.iinfo(dtype)
            if not info.min <= value <= info.max:
                return None
        try:
            value = dtype.type(value)  # NumPy's conversion, as CuPy's
        except (OverflowError, ValueError, TypeError):
            return None
    elif not isinstance(value, numpy.generic) or value.dtype != dtype:
        return None
    return value


def _pattern(value: Any, ptr: int, nbytes: int) -> tuple[int, int] | None:
    """(word, width): ``value``'s bytes as a word of 1, 2 or 4 bytes repeated, the widest
    that the address ``ptr`` and the size ``nbytes`` allow, or None."""
    b = value.tobytes()
    for period in (1, 2, 4):
        if b == b[:period] * (len(b) // period):
            for width in (4, 2, 1):
                if width >= period and not (ptr | nbytes) % width:
                    return int.from_bytes(b[:period] * (width // period), "little"), width
            return None
    return None


def _grid(n: int) -> int:
    return min(-(-n // BLOCK), 4096)


def fill(data: Any, value: Any) -> bool:
    """Store the scalar ``value`` into every element of ``data`` (a C-contiguous array or
    a 1-D view), in place, and return True; False (nothing done) where the call is not
    this kernel's."""
    n = data.size
    if n == 0:
        return False
    dtype = data.dtype
    if data._c_contiguous:
        step = 1
    elif data.ndim == 1 and data.strides[0] % dtype.itemsize == 0:
        step = data.strides[0] // dtype.itemsize
    else:
        return False
    v = _scalar(dtype, value)
    if v is None:
        return False
    if step == 1:
        ptr, nbytes = data.data.ptr, data.nbytes
        pattern = _pattern(v, ptr, nbytes)
        if pattern is not None and memset(ptr, pattern[0], nbytes // pattern[1], pattern[1]):
            return True
    launch(_kernels[dtype.itemsize, data.data.device_id][0], _grid(n), BLOCK,
           (data, numpy.int64(n), numpy.int64(step), v))
    return True


def mask_fill(data: Any, mask: Any, value: Any) -> bool:
    """Store the scalar ``value`` into ``data`` where ``mask`` is true, in place, and
    return True; False (nothing done) where the call is not this kernel's."""
    if (type(mask) is not cupy.ndarray or mask.dtype.kind != "b" or mask.shape != data.shape
            or not data._c_contiguous or not mask._c_contiguous or data.size == 0):
        return False
    v = _scalar(data.dtype, value)
    if v is None:
        return False
    n = data.size
    launch(_kernels[data.dtype.itemsize, data.data.device_id][1], _grid(n), BLOCK,
           (data, mask, numpy.int64(n), v))
    return True


# Positions of the selected elements as int32 up to this many mask elements (int64 above:
# a scan of twice the bytes).
INT32_POSITIONS = (1 << 31) - 1


def mask_take(data: Any, mask: Any) -> Any:
    """``data[mask]`` of a boolean ``mask`` of ``data``'s leading axes, both C-contiguous
    and not empty, or None (CuPy's path): the mask's inclusive scan (xpgpu's cumsum) gives
    each selected row its place; its last entry, read on the host (a synchronisation, as
    in CuPy's and NumPy's: the result's shape depends on it), sizes the result, which one
    kernel fills."""
    k = mask.ndim
    if (type(mask) is not cupy.ndarray or mask.dtype.kind != "b" or k == 0
            or mask.shape != data.shape[:k] or not data._c_contiguous
            or not mask._c_contiguous or data.size == 0):
        return None
    positions = numpy.int32 if mask.size <= INT32_POSITIONS else numpy.int64
    pos = _cupy_scan._scan(mask.reshape(-1).view(numpy.uint8), 0, positions)
    if pos is None:
        return None
    count = int(pos[-1])
    out = cupy.ndarray((count, *data.shape[k:]), data.dtype)
    if count:
        n = data.size
        kernels = _kernels[data.dtype.itemsize, data.data.device_id]
        launch(kernels[2 if positions is numpy.int32 else 3], _grid(n), BLOCK,
               (data, mask, pos, out, numpy.int64(n), numpy.int64(n // mask.size)))
    return out


def mask_getitem(data: Any, key: Any) -> Any:
    """``data[key]``: ``mask_take``'s where it takes the key, else CuPy's."""
    out = mask_take(data, key) if type(key) is cupy.ndarray else None
    return data[key] if out is None else out
