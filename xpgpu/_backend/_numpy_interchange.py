"""DLPack on the CPU: NumPy imports and exports the capsules."""

from __future__ import annotations

from typing import Any

import numpy


def import_dlpack(producer: Any) -> Any:
    """The NumPy array of a producer whose capsule xpgpu has already checked."""
    return numpy.from_dlpack(producer)


def export_dlpack(data: Any, stream: Any, max_version: Any, dl_device: Any,
                  copy: bool | None) -> Any:
    """A DLPack capsule of a NumPy array (on its own device)."""
    try:
        return data.__dlpack__(stream=stream, max_version=max_version, dl_device=dl_device,
                               copy=copy)
    except BufferError:
        # Note: NumPy refuses to export a read-only array (broadcast_to's views) as a
        # DLPack 0.x capsule, which cannot say read-only; export a copy instead unless
        # copy=False — https://github.com/numpy/numpy/pull/26501
        if copy is False or data.flags.writeable:
            raise
        return data.copy().__dlpack__(stream=stream, max_version=max_version,
                                      dl_device=dl_device)


def dlpack_stream(index: int) -> None:
    """The consumer's stream for ``__dlpack__``: the CPU has none."""
    return None
