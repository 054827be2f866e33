"""Backends: NumPy on the CPU, CuPy on CUDA devices.

A ``Backend`` holds the backend module's names and, under the standard's names, its
callables (``backend.acos`` is ``numpy.arccos`` or ``cupy.arccos``), and overrides the few it gets
wrong with the fixes of its adapter module (``_numpy.FIXES``, ``_cupy.FIXES``). The
names ``numpy`` and ``cupy`` appear only below this package.
"""

from __future__ import annotations

import os
from types import ModuleType
from typing import TYPE_CHECKING, Any

_speedups: Any = None  # the compiled forwarding of method(), as xpgpu._array's speedups
if not os.environ.get("XPGPU_PURE_PYTHON"):
    try:
        from .. import _speedups  # type: ignore[attr-defined, no-redef]
    except ImportError:
        pass

# The standard's names whose NumPy/CuPy spelling differs.
RENAMES = {
    "acos": "arccos", "acosh": "arccosh", "asin": "arcsin", "asinh": "arcsinh",
    "atan": "arctan", "atan2": "arctan2", "atanh": "arctanh",
    "bitwise_left_shift": "left_shift", "bitwise_right_shift": "right_shift",
    "bitwise_invert": "invert", "pow": "power", "concat": "concatenate",
    "permute_dims": "transpose",
}
# NumPy's ufunc names (``ufunc.__name__``) -> the standard's function of the same meaning.
UFUNC_NAMES = {
    **{own: std for std, own in RENAMES.items() if std not in ("concat", "permute_dims")},
    "absolute": "abs", "conjugate": "conj",
}


# The module functions that only call the ndarray method of the same name (a Python layer
# of about 0.3 µs in NumPy and CuPy): the backends call the method directly on an ndarray.
METHODS = ("sum", "prod", "max", "min", "mean", "var", "std", "any", "all", "argmax", "argmin",
           "clip", "reshape", "transpose")


def method(function: Any, ndarray: type, name: str | None = None) -> Any:
    """``function`` (a module function that calls the ndarray method ``name``, by default
    its own name) calling the method directly on an ``ndarray``, and itself on anything
    else (in C where xpgpu._speedups was built: ``_speedups.method``)."""
    bound = getattr(ndarray, name or function.__name__)
    if _speedups is not None:
        return _speedups.method(function, ndarray, bound)

    def call(a: Any, *args: Any, **kwargs: Any) -> Any:
        if type(a) is ndarray:
            return bound(a, *args, **kwargs)
        return function(a, *args, **kwargs)

    call.__name__ = call.__qualname__ = name or function.__name__
    return call


class Backend:
    """The compute functions of one array library, under the standard's names."""

    def __init__(self, name: str, adapter: ModuleType):
        # Note: every name is bound here, once, into the instance dict, and the class
        # has no __getattr__: with one, CPython cannot specialise attribute reads on
        # it, and ``device.backend.add`` is read on every CUDA call.
        self.__dict__.update(
            {key: value for key, value in vars(adapter.xp).items() if key[:2] != "__"})
        self.__dict__.update(
            {std: getattr(adapter.xp, own) for std, own in RENAMES.items()})
        self.__dict__.update(adapter.FIXES)
        self.name = name
        self.adapter = adapter
        self.xp = adapter.xp
        self.ndarray = adapter.xp.ndarray

    if TYPE_CHECKING:  # the backend module's names, bound in __init__
        def __getattr__(self, name: str) -> Any: ...

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
        adapter = _import_numpy() if kind == "cpu" else _import_cupy()
        backend = _backends[kind] = Backend(adapter.NAME, adapter)
    return backend


def _import_numpy() -> ModuleType:
    from . import _numpy  # here: it reads this module's names

    return _numpy


def _import_cupy() -> ModuleType:
    from . import _cupy  # lazy: raises ImportError where CuPy is missing

    return _cupy


def cuda_device_count() -> int:
    """How many CUDA devices CuPy can use; 0 where CuPy or a driver is missing."""
    try:
        return get("cuda").adapter.device_count()
    except Exception:  # ImportError, or CUDA errors without a driver
        return 0
