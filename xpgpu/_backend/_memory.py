"""Out of device memory: the backend's error as xpgpu's ``DeviceMemoryError``.

CuPy raises ``cupy.cuda.memory.OutOfMemoryError`` from its memory pool, a class it looks
up by name in its module at the moment it raises. ``install`` puts a subclass of it and of
``DeviceMemoryError`` under that name, once, when the CUDA backend is imported: every
failed allocation then raises xpgpu's error with its message, at no cost per call (no
``try`` around any function). The message is built only on failure: the xpgpu function
(the outermost xpgpu frame on the stack), the device, the request and the free memory.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from types import FrameType, ModuleType
from typing import Any


class DeviceMemoryError(MemoryError):
    """Out of memory on a device (a ``MemoryError``); the message names the function,
    the device, the request and the free memory."""


def _caller(frame: FrameType | None) -> str | None:
    """The name of the outermost xpgpu function on the stack (the one the user called),
    or None when no xpgpu code is on it (a plain CuPy allocation)."""
    found = None
    while frame is not None:
        module = frame.f_globals.get("__name__", "")
        if module.startswith("xpgpu.") and not module.startswith("xpgpu._backend"):
            code = frame.f_code.co_name
            local = frame.f_locals
            # Most functions name themselves in a local ``func``; the table-made
            # element-wise functions (all called ``func``) carry their ``label``.
            name = local.get("func") if isinstance(local.get("func"), str) else None
            if name is None and code == "func":
                name = local.get("label") or local.get("name")
            found = name if isinstance(name, str) else code
        frame = frame.f_back
    return found


def _bytes(n: int) -> str:
    for unit, size in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= size:
            return f"{n:,} bytes ({n / size:.1f} {unit})"
    return f"{n:,} bytes"


def error_class(base: type[MemoryError], device: Callable[[], str],
                memory: Callable[[], tuple[int, int]]) -> type[DeviceMemoryError]:
    """The error to raise in place of ``base`` (the backend's, constructed as
    ``base(size, total, limit)``): both a ``base`` and a DeviceMemoryError. ``device``
    names the current device; ``memory`` gives its (free, total) bytes."""

    class OutOfDeviceMemoryError(DeviceMemoryError, base):  # type: ignore[valid-type, misc]
        __module__ = "xpgpu"

        def __init__(self, size: int = 0, total: int = 0, limit: int = 0, *args: Any):
            func = _caller(sys._getframe(1))
            if func is None or not isinstance(size, int):
                # Note: a plain backend allocation (no xpgpu function on the stack): the
                # backend's own text. Not base.__init__: CuPy's calls super() through the
                # name this class now holds, which would reach its own __init__ again
                # with the message alone.
                MemoryError.__init__(self, f"Out of memory allocating {size:,} bytes "
                                           f"(allocated so far: {total:,} bytes).")
                self.size, self.total, self.limit = size, total, limit
                return
            try:
                free, whole = memory()
                where = f"{device()} has {_bytes(free)} free of {_bytes(whole)}"
            except Exception:  # the driver may fail too: say what is known
                where = f"{device()} could not report its free memory"
            MemoryError.__init__(
                self, f"{func}: out of memory on {device()}: allocating {_bytes(size)} failed;"
                      f" {where}. Free arrays you no longer need (del x) or work in smaller "
                      "chunks.")
            self.size, self.total, self.limit = size, total, limit

    OutOfDeviceMemoryError.__qualname__ = "OutOfDeviceMemoryError"
    return OutOfDeviceMemoryError


def install(module: ModuleType, name: str, device: Callable[[], str],
            memory: Callable[[], tuple[int, int]]) -> type[DeviceMemoryError]:
    """Replace the error class ``module.<name>`` that the backend raises by name."""
    current = getattr(module, name)
    if isinstance(current, type) and issubclass(current, DeviceMemoryError):
        return current  # installed already
    cls = error_class(current, device, memory)
    setattr(module, name, cls)
    return cls
