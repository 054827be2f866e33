"""The CuPy adapter: the backend of every CUDA device. Imported only when one is used."""

from __future__ import annotations

from typing import Any

import cupy

NAME = "cupy"
xp = cupy
VERSION = cupy.__version__


def device_count() -> int:
    return cupy.cuda.runtime.getDeviceCount()


def current_device() -> int:
    return cupy.cuda.runtime.getDevice()


def use_device(index: int) -> None:
    """Make ``index`` the current CUDA device; a no-op when it already is."""
    if cupy.cuda.runtime.getDevice() != index:
        cupy.cuda.runtime.setDevice(index)


def device_properties(index: int) -> dict[str, Any]:
    props = cupy.cuda.runtime.getDeviceProperties(index)
    name = props["name"]
    return {"name": name.decode() if isinstance(name, bytes) else name,
            "memory": props["totalGlobalMem"]}


def to_host(data: Any) -> Any:
    return cupy.asnumpy(data)


def from_host(data: Any, index: int) -> Any:
    with cupy.cuda.Device(index):
        return cupy.asarray(data)


# Fixes of CuPy's results where they differ from the standard, by the standard's name.
FIXES: dict[str, Any] = {}
