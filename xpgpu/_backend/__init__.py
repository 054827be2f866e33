"""Backends: NumPy on the CPU, CuPy on CUDA devices.

A ``Backend`` maps the standard's function names to the backend module's callables
(``backend.acos`` is ``numpy.arccos`` or ``cupy.arccos``) and overrides the few it gets
wrong with the fixes of its adapter module (``_numpy.FIXES``, ``_cupy.FIXES``). The
names ``numpy`` and ``cupy`` appear only below this package.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

from . import _numpy

# The standard's names whose NumPy/CuPy spelling differs.
RENAMES = {
    "acos": "arccos", "acosh": "arccosh", "asin": "arcsin", "asinh": "arcsinh",
    "atan": "arctan", "atan2": "arctan2", "atanh": "arctanh",
    "bitwise_left_shift": "left_shift", "bitwise_right_shift": "right_shift",
    "bitwise_invert": "invert", "pow": "power", "concat": "concatenate",
    "permute_dims": "transpose",
}


class Backend:
    """The compute functions of one array library, under the standard's names."""

    def __init__(self, name: str, adapter: ModuleType):
        self.name = name
        self.adapter = adapter
        self.xp = adapter.xp
        self.ndarray = adapter.xp.ndarray
        self.__dict__.update(adapter.FIXES)

    def __getattr__(self, name: str) -> Any:
        # Bound once on first use, then found in the instance dict like any attribute.
        try:
            func = getattr(self.xp, RENAMES.get(name, name))
        except AttributeError:
            raise AttributeError(f"backend {self.name} has no {name!r}") from None
        setattr(self, name, func)
        return func

    def __repr__(self) -> str:
        return f"<xpgpu backend {self.name}>"


class DeviceBackend:
    """The backend of one CUDA device on a host with several: reading any attribute
    first makes that device current (a no-op when it already is), so the call that
    follows (``device.backend.add(...)``, ``device.backend.xp.linalg.svd(...)``) runs
    there. Single-GPU hosts use the plain Backend and pay nothing."""

    __slots__ = ("_state",)

    def __init__(self, base: Backend, index: int):
        object.__setattr__(self, "_state", (base, index, base.adapter.use_device))

    def __getattribute__(self, name: str) -> Any:
        base, index, use_device = object.__getattribute__(self, "_state")
        use_device(index)
        return getattr(base, name)

    def __repr__(self) -> str:
        base, index, _ = object.__getattribute__(self, "_state")
        return f"<xpgpu backend {base.name} on device {index}>"


_backends: dict[str, Backend] = {}


def get(kind: str) -> Backend:
    """The backend of a device kind, ``"cpu"`` or ``"cuda"``; CuPy is imported on demand."""
    backend = _backends.get(kind)
    if backend is None:
        adapter = _numpy if kind == "cpu" else _import_cupy()
        backend = _backends[kind] = Backend(adapter.NAME, adapter)
    return backend


def _import_cupy() -> ModuleType:
    from . import _cupy  # lazy: raises ImportError where CuPy is missing

    return _cupy


def cuda_device_count() -> int:
    """How many CUDA devices CuPy can use; 0 where CuPy or a driver is missing."""
    try:
        return get("cuda").adapter.device_count()
    except Exception:  # ImportError, or CUDA errors without a driver
        return 0
