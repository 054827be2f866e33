"""CuPy's ``linalg`` and ``fft`` for xpgpu: ``backend.linalg`` and ``backend.fft`` on CUDA.

Each routine runs with its input's CUDA device current (cuSOLVER, cuBLAS and cuFFT
handles belong to the current device), and the routines CuPy lacks raise
``NotImplementedError`` naming what is missing, instead of going through the host.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from types import ModuleType
from typing import Any

import cupy
import cupy.fft
import cupy.linalg


def _on_input_device(func: Callable[..., Any]) -> Callable[..., Any]:
    def call(x: Any, *args: Any, **kwargs: Any) -> Any:
        with x.device:  # a no-op switch when x's device is already current
            return func(x, *args, **kwargs)

    call.__name__ = call.__qualname__ = getattr(func, "__name__", "call")
    return call


def _serialised(func: Callable[..., Any], lock: Any) -> Callable[..., Any]:
    def call(*args: Any, **kwargs: Any) -> Any:
        with lock:
            return func(*args, **kwargs)

    call.__name__ = call.__qualname__ = getattr(func, "__name__", "call")
    return call


class _Namespace:
    """A CuPy module's functions, each called on the device of its first argument (and
    under ``lock``, where one is given)."""

    def __init__(self, module: ModuleType, fixes: dict[str, Callable[..., Any]],
                 lock: Any = None):
        self._module = module
        self._lock = lock
        self.__dict__.update({n: self._guard(f) for n, f in fixes.items()})

    def _guard(self, func: Callable[..., Any]) -> Callable[..., Any]:
        return func if self._lock is None else _serialised(func, self._lock)

    def __getattr__(self, name: str) -> Any:
        obj = getattr(self._module, name)
        if callable(obj) and not isinstance(obj, type):
            obj = self._guard(_on_input_device(obj))
        setattr(self, name, obj)
        return obj


# Note: general (non-Hermitian) eigenproblems need cuSOLVER's Xgeev (CUDA >= 12.6),
# which CuPy wraps as cupy.linalg.eig/eigvals from CuPy 14 on; older CuPy or CUDA has
# none, and a host round trip is not a fix. Xgeev itself keeps a small workspace in
# pinned host memory (its hybrid algorithm), and CuPy loops over a stack of matrices.
# https://github.com/cupy/cupy/pull/8980
def _geev(name: str) -> Callable[..., Any]:
    func = getattr(cupy.linalg, name, None)

    def call(x: Any) -> Any:
        if func is None:
            raise NotImplementedError(
                f"{name}: CuPy {cupy.__version__} has no cupy.linalg.{name} (general "
                "eigenproblems need CuPy >= 14 with cuSOLVER Xgeev, CUDA >= 12.6)")
        with x.device:
            try:
                return func(x)
            except RuntimeError as e:
                if "geev" not in str(e):
                    raise
                raise NotImplementedError(
                    f"{name}: cuSOLVER Xgeev is not available with this CUDA "
                    f"({e}); general eigenproblems need CUDA >= 12.6") from None

    call.__name__ = call.__qualname__ = name
    return call


LINALG = _Namespace(cupy.linalg, {"eig": _geev("eig"), "eigvals": _geev("eigvals")})
# Note: CuPy 14's n-D transforms shape the result wrongly when ``axes`` is not increasing
# (rfftn of a (1, 2) array with s=(1, 2), axes=[1, 0] gives shape (1, 2), NumPy (2, 1));
# the axes are moved last in the requested order, where CuPy gets them right, and back
# (views: no copy beyond CuPy's own) — no upstream issue known.
def _nd_in_order(name: str) -> Callable[..., Any]:
    func = getattr(cupy.fft, name)

    def call(x: Any, s: Any = None, axes: Any = None, norm: Any = None) -> Any:
        with x.device:
            if axes is None or list(axes) == sorted(axes):
                return func(x, s=s, axes=axes, norm=norm)
            last = tuple(range(x.ndim - len(axes), x.ndim))
            out = func(cupy.moveaxis(x, axes, last), s=s, axes=last, norm=norm)
            return cupy.moveaxis(out, last, axes)

    call.__name__ = call.__qualname__ = name
    return call


# fftfreq and rfftfreq take no array: their callers make the target device current.
# Note: CuPy's cuFFT plans fail with CUFFT_EXEC_FAILED when several threads transform at
# once (16 threads of rfft on an H200, SciPy's TestFFTThreadSafe; peers/KNOWN.md#cupy-fft-
# threads): the transforms are launched one thread at a time. The lock is held while a
# plan is found or made and the transform enqueued, not while the GPU runs it.
FFT = _Namespace(cupy.fft, {"fftfreq": cupy.fft.fftfreq, "rfftfreq": cupy.fft.rfftfreq,
                            **{n: _nd_in_order(n) for n in ("fftn", "ifftn", "rfftn", "irfftn")}},
                 lock=threading.RLock())

# Registered into the CuPy adapter's FIXES: ``backend.linalg`` and ``backend.fft``.
FIXES: dict[str, Any] = {"linalg": LINALG, "fft": FFT}
