"""DLPack and device-to-device copies on CUDA, through CuPy."""

from __future__ import annotations

from typing import Any

import cupy


def import_dlpack(producer: Any) -> Any:
    """The CuPy array of a producer whose capsule xpgpu has already checked."""
    return cupy.from_dlpack(producer)


def export_dlpack(data: Any, stream: Any, max_version: Any, dl_device: Any,
                  copy: bool | None) -> Any:
    """A DLPack capsule of a CuPy array (on its own device); keywords CuPy may not know
    are passed only when set."""
    kwargs: dict[str, Any] = {"stream": stream}
    if max_version is not None:
        kwargs["max_version"] = max_version
    if dl_device is not None:
        kwargs["dl_device"] = dl_device
    if copy is True and dl_device is None:
        # Note: CuPy 14 refuses copy=True for its own device ("copy=True only supported
        # for copy to CPU"); the copy is made here and exported as is.
        with cupy.cuda.Device(data.device.id):
            data = data.copy()
    elif copy is not None:
        kwargs["copy"] = copy
    return data.__dlpack__(**kwargs)


def dlpack_stream(index: int) -> int:
    """The consumer's stream for ``__dlpack__``: CuPy's current stream on device ``index``,
    as the standard encodes it (1 for the legacy default stream, whose pointer is 0)."""
    ptr = cupy.cuda.get_current_stream(index).ptr
    return ptr if ptr else 1


def to_other_device(data: Any, index: int) -> Any:
    """A copy of CUDA data on CUDA device ``index``, peer to peer (no trip to the host)."""
    source = data.device.id
    with cupy.cuda.Device(source):
        src = cupy.ascontiguousarray(data)
    with cupy.cuda.Device(index):
        out = cupy.empty(src.shape, dtype=src.dtype)
    if src.nbytes:
        # Note: cudaMemcpyPeer is serialized with all pending work of both devices (any
        # stream); CuPy's own cross-device copy needs peer access enabled.
        cupy.cuda.runtime.memcpyPeer(out.data.ptr, index, src.data.ptr, source, src.nbytes)
    return out
