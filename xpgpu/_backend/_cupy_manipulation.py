"""``concat`` and ``stack`` along the first axis as device-to-device copies
(https://data-apis.org/array-api/2025.12/API_specification/generated/array_api.concat.html,
https://data-apis.org/array-api/2025.12/API_specification/generated/array_api.stack.html).

CuPy joins arrays with a kernel that reads a table of the arrays' pointers and shapes, which
it first copies to the device: about 25 µs on an H100 host for two arrays of 1000 elements,
where PyTorch's takes 9. Along the first axis, C-contiguous arrays of one dtype are
contiguous pieces of the result, in order: each is one ``cudaMemcpyAsync`` on the current
stream into a new C-contiguous array, the same bytes as CuPy's. Every other call (another
axis, other layouts, mixed dtypes or shapes) is CuPy's.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import cupy

_ndarray = cupy.ndarray
_memcpy = cupy.cuda.runtime.memcpyAsync
_DEVICE_TO_DEVICE = cupy.cuda.runtime.memcpyDeviceToDevice
_stream = cupy.cuda.get_current_stream


def _pieces(arrays: Sequence[Any]) -> tuple[Any, ...] | None:
    """The arrays where they are C-contiguous ndarrays of one dtype and device, else None."""
    if type(arrays) not in (list, tuple) or not arrays:
        return None
    first = arrays[0]
    if type(first) is not _ndarray:
        return None
    dtype, device = first.dtype, first.data.device_id
    for a in arrays:
        if (type(a) is not _ndarray or a.dtype != dtype or not a._c_contiguous
                or a.data.device_id != device):
            return None
    return tuple(arrays)


def _join(pieces: tuple[Any, ...], shape: tuple[int, ...]) -> Any:
    out = _ndarray(shape, pieces[0].dtype)
    stream = _stream().ptr
    at = out.data.ptr
    for a in pieces:
        nbytes = a.nbytes
        if nbytes:
            _memcpy(at, a.data.ptr, nbytes, _DEVICE_TO_DEVICE, stream)
            at += nbytes
    return out


def concat(fallback: Callable[..., Any]) -> Callable[..., Any]:
    def concat(arrays: Sequence[Any], axis: Any = 0) -> Any:
        pieces = _pieces(arrays)
        if pieces is not None and type(axis) is int:
            rest = pieces[0].shape[1:]
            ndim = len(rest) + 1
            if axis in (0, -ndim) and all(a.shape[1:] == rest and a.ndim == ndim
                                          for a in pieces):
                return _join(pieces, (sum(a.shape[0] for a in pieces), *rest))
        return fallback(arrays, axis=axis)

    return concat


def stack(fallback: Callable[..., Any]) -> Callable[..., Any]:
    def stack(arrays: Sequence[Any], axis: Any = 0) -> Any:
        pieces = _pieces(arrays)
        if pieces is not None and type(axis) is int:
            shape = pieces[0].shape
            if axis in (0, -len(shape) - 1) and all(a.shape == shape for a in pieces):
                return _join(pieces, (len(pieces), *shape))
        return fallback(arrays, axis=axis)

    return stack
