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

from . import _cupy_solve

# Note: with one GPU it is always the current device, and the context (``with x.device``:
# a Device made, the current device read on entry and on exit) is skipped: a small
# linalg.solve went from 1.09x to 0.96x CuPy's time a call on an H100.
_SWITCHING = cupy.cuda.runtime.getDeviceCount() > 1


def _on_input_device(func: Callable[..., Any]) -> Callable[..., Any]:
    if not _SWITCHING:
        return func

    def call(x: Any, *args: Any, **kwargs: Any) -> Any:
        with x.device:  # a no-op switch when x's device is already current
            return func(x, *args, **kwargs)

    call.__name__ = call.__qualname__ = getattr(func, "__name__", "call")
    return call


_threads = threading.local()


def _on_thread_stream(func: Callable[..., Any]) -> Callable[..., Any]:
    """``func(x, ...)`` run, outside the main thread, on a stream of the calling thread's
    own (one per thread and device), ordered after and before the caller's current
    stream on ``x``'s device."""
    main = threading.main_thread()

    def call(x: Any, *args: Any, **kwargs: Any) -> Any:
        if threading.current_thread() is main:
            return func(x, *args, **kwargs)
        with x.device:
            current = cupy.cuda.get_current_stream()
            if current.ptr:  # a stream of the caller's own
                return func(x, *args, **kwargs)
            streams = _threads.__dict__.setdefault("streams", {})
            stream = streams.get(x.device.id)
            if stream is None:
                stream = streams[x.device.id] = cupy.cuda.Stream(non_blocking=True)
            stream.wait_event(current.record())
            with stream:
                out = func(x, *args, **kwargs)
            current.wait_event(stream.record())
            return out

    call.__name__ = call.__qualname__ = getattr(func, "__name__", "call")
    return call


class _Namespace:
    """A CuPy module's functions, each called on the device of its first argument (and
    through ``guard``, where one is given; ``fixes`` come as they are)."""

    def __init__(self, module: ModuleType, fixes: dict[str, Callable[..., Any]],
                 guard: Callable[[Callable[..., Any]], Callable[..., Any]] | None = None):
        self._module = module
        self._guard = guard or (lambda func: func)
        self.__dict__.update(fixes)

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


LINALG = _Namespace(cupy.linalg, {"eig": _geev("eig"), "eigvals": _geev("eigvals"),
                                   "solve": _on_input_device(_cupy_solve.solve)})
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
# Note: with CuPy 14.2 and cuFFT 12 (CUDA 13), a transform on the legacy default stream
# in any thread but the main one fails with CUFFT_EXEC_FAILED once the main thread has run
# one (whatever the plan: cached, the thread's own, or serialised under a lock); on a
# stream of the thread's own it runs (measured on an H200; SciPy's TestFFTThreadSafe,
# cubed's and Dask's thread pools). Transforms outside the main thread on the default
# stream therefore run on a per-thread stream, chained both ways to the caller's.
# https://github.com/cupy/cupy/blob/main/cupy/fft/_fft.py
FFT = _Namespace(cupy.fft, {"fftfreq": cupy.fft.fftfreq, "rfftfreq": cupy.fft.rfftfreq,
                            **{n: _on_thread_stream(_nd_in_order(n))
                               for n in ("fftn", "ifftn", "rfftn", "irfftn")}},
                 guard=_on_thread_stream)

# Registered into the CuPy adapter's FIXES: ``backend.linalg`` and ``backend.fft``.
FIXES: dict[str, Any] = {"linalg": LINALG, "fft": FFT}
