"""Kernel launches without CuPy's Python layer, where the compiled module was built
(``xpgpu/_backend/_launch.c``; ``XPGPU_PURE_PYTHON=1`` turns it off).

- ``launch(function, grid, block, args, shared_mem=0)``: ``function((grid,), (block,),
  args, shared_mem)`` of a CuPy ``Function`` (1-D grid and block; args a tuple of arrays,
  None and NumPy scalars), ~1.3 µs a launch less on an H100 host.
- ``dispatch(small, large, cache, namespace, threshold)``: an element-wise function that
  runs the kernels ``large`` (the Python definition) has compiled into ``cache``; ``large``
  itself where the compiled module is missing.
- ``planner(plans, miss)``: the function that runs the reductions' cached plans
  (``_cupy_reductions.planned``): the compiled one, or ``miss`` (the Python definition).
- ``memset(ptr, word, count, width)``: ``count`` words of ``width`` bytes (1, 2, 4) set
  to ``word`` on the current stream (cuMemsetD8/16/32Async); where the compiled module
  is missing, words of one byte repeated only (CuPy's ``memsetAsync``), and False
  (nothing done) for the others.
- ``launches()``: how many kernels the compiled module launched (for tests).
- ``outputs(kept=-1)``: how many results the compiled module's launches took from the
  arrays it keeps, the last few results it made that nothing references any more (see
  ``_launch.c``, "results"); ``kept`` sets how many it keeps (0 to 4), letting go of
  those it kept.
- ``zeros(shape, dtype)``: ``cupy.zeros`` (positional arguments), in C where built.
- ``basic_view(data, key)``: ``data[key]`` of ints and slices (no or a positive step)
  made without CuPy's indexing (~0.5 µs less on an H100 host), or None where the key,
  the array or the view is another (then ``data[key]``); ``Array.__getitem__`` calls its C
  function (``xpgpu._speedups.basic_views``).
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Callable
from typing import Any

import cupy
import numpy

try:
    if os.environ.get("XPGPU_PURE_PYTHON"):
        raise ImportError("XPGPU_PURE_PYTHON is set")
    from . import _launch  # type: ignore[attr-defined]

    # Note: CuPy's Function.__call__ takes the launch's stream from this C function and
    # calls this one first (cupy/cuda/function.pyx, _launch); so does _launch.c.
    _launch.setup(
        cupy.ndarray, numpy.dtype,
        importlib.import_module("cupy_backends.cuda.stream").__pyx_capi__["get_current_stream_ptr"],
        importlib.import_module("cupy_backends.cuda.api.runtime").__pyx_capi__["_ensure_context"])
except (ImportError, AttributeError, KeyError):
    _launch = None

compiled = _launch is not None


def _basic_view_python(data: Any, key: Any) -> None:
    return None


def _zeros_python(shape: Any, dtype: Any) -> Any:
    out = cupy.ndarray(shape, dtype)  # cupy.zeros without its Python layer
    out.data.memset_async(0, out.nbytes)
    return out


# zeros(shape, dtype): the backend's zeros (cupy.zeros; in C, ~0.2 us less a call).
zeros: Callable[[Any, Any], Any] = _launch.zeros if compiled else _zeros_python


# basic_view(data, key): data[key] of a basic key (ints and slices) made in C without
# CuPy's indexing, or None (data[key] is CuPy's); x[key] of an Array takes it from C too.
basic_view: Callable[[Any, Any], Any] = _launch.basic_view if compiled else _basic_view_python
if compiled:
    from . import _speedups as _views  # xpgpu._speedups where it was built, else None

    if _views is not None:
        _views.basic_views(cupy.ndarray, _launch.BASIC_VIEW)


def _launch_python(function: Any, grid: int, block: int, args: tuple[Any, ...],
                   shared_mem: int = 0) -> None:
    function((grid,), (block,), args, shared_mem)


def _dispatch_python(small: Callable[..., Any], large: Callable[..., Any],
                     cache: dict[Any, Any], namespace: dict[str, Any],
                     threshold: str) -> Callable[..., Any]:
    return large


launch: Callable[..., None] = _launch.launch if compiled else _launch_python
dispatch: Callable[..., Callable[..., Any]] = _launch.dispatch if compiled else _dispatch_python


def planner(plans: dict[Any, Any], miss: Callable[..., Any]) -> Callable[..., Any]:
    if not compiled:
        return miss
    _launch.planner(plans, miss)
    return _launch.planned  # type: ignore[no-any-return]


def memset(ptr: int, word: int, count: int, width: int) -> bool:
    if not compiled:  # words of one byte repeated only, through CuPy's runtime module
        b = word.to_bytes(width, "little")
        if b != b[:1] * width:
            return False
        cupy.cuda.runtime.memsetAsync(ptr, b[0], count * width,
                                      cupy.cuda.get_current_stream().ptr)
        return True
    status = _launch.memset(ptr, word, count, width)
    if status > 0:
        cupy.cuda.driver.check_status(status)  # CuPy's CUDADriverError
    return status == 0  # type: ignore[no-any-return]


def launches() -> int:
    return _launch.launches() if compiled else 0  # type: ignore[no-any-return]


def outputs(kept: int = -1) -> int:
    return _launch.outputs(kept) if compiled else 0  # type: ignore[no-any-return]
