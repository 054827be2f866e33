"""Devices: ``cpu`` and one ``cuda:N`` per GPU, interned, each with its backend.

https://data-apis.org/array-api/2025.12/design_topics/device_support.html
"""

from __future__ import annotations

import os
import threading

from . import _backend
from ._backend import Backend


class Device:
    """A device arrays live on. Compare with ``==`` (identity: devices are interned)."""

    __slots__ = ("__weakref__", "_name", "backend", "index", "kind")

    kind: str
    index: int
    _name: str
    backend: Backend  # the backend computing here: NumPy on cpu, CuPy on cuda:N

    def __new__(cls, *args: object, **kwargs: object) -> Device:
        raise TypeError(
            "Device objects cannot be created directly; use x.device, "
            "xpgpu.__array_namespace_info__().devices() or default_device()"
        )

    @classmethod
    def _make(cls, kind: str, index: int, switching: bool = False) -> Device:
        self = object.__new__(cls)
        self.kind = kind
        self.index = index
        self._name = "cpu" if kind == "cpu" else f"cuda:{index}"
        backend = _backend.get(kind)
        # A plain slot, read on every call; with several GPUs, a backend that makes
        # this device current before each use.
        self.backend = _backend.DeviceBackend(backend, index) if switching else backend  # type: ignore[assignment]
        return self

    def __repr__(self) -> str:
        return f"Device({self._name!r})"

    def __str__(self) -> str:
        return self._name

    def __reduce__(self) -> tuple[object, tuple[str]]:
        return _unpickle, (self._name,)

    def __hash__(self) -> int:
        return hash(self._name)


CPU = Device._make("cpu", 0)
_cuda: list[Device] | None = None


# Guards the first look-up of the devices: devices are interned and compared by identity, so
# two threads meeting here first must get the same Device objects.
_first_use = threading.Lock()


def cuda_devices() -> list[Device]:
    """The CUDA devices CuPy can use (an empty list where there is none)."""
    global _cuda
    if _cuda is None:
        with _first_use:
            if _cuda is None:
                count = _backend.cuda_device_count()
                _cuda = [Device._make("cuda", i, switching=count > 1) for i in range(count)]
    return _cuda


def all_devices() -> list[Device]:
    return [CPU, *cuda_devices()]


def lookup(name: str) -> Device | None:
    """The device named ``"cpu"``, ``"cuda"`` (cuda:0) or ``"cuda:N"``; None if there is none."""
    if name == "cpu":
        return CPU
    kind, _, index = name.partition(":")
    if kind != "cuda" or (index and not index.isdigit()):
        return None
    devices = cuda_devices()
    i = int(index or 0)
    return devices[i] if i < len(devices) else None


_default: Device | None = None


def default_device() -> Device:
    """``cuda:0`` when a CUDA device is usable, else ``cpu``; ``XPGPU_DEFAULT_DEVICE`` overrides."""
    global _default
    if _default is None:
        name = os.environ.get("XPGPU_DEFAULT_DEVICE")
        if name:
            device = lookup(name)
            if device is None:
                raise ValueError(
                    f"XPGPU_DEFAULT_DEVICE={name!r} names no available device; "
                    f"available: {', '.join(map(str, all_devices()))}"
                )
        else:
            devices = cuda_devices()
            device = devices[0] if devices else CPU
        _default = device
    return _default


def _unpickle(name: str) -> Device:
    device = lookup(name)
    if device is None:
        raise ValueError(f"unpickling an array of device {name!r}, which is not available here")
    return device
