"""The CuPy adapter: the backend of every CUDA device. Imported only when one is used."""

from __future__ import annotations

import math
from typing import Any

import cupy

from . import (
    RENAMES,
    _cupy_indexing,
    _cupy_kernels,
    _cupy_launch,
    _cupy_linalg,
    _cupy_logspace,
    _cupy_manipulation,
    _cupy_matmul,
    _cupy_reductions,
    _cupy_scan,
    _cupy_search,
    _cupy_special,
    _cupy_upload,
    _memory,
)
from ._cupy_interchange import (  # noqa: F401  (the adapter's DLPack functions)
    dlpack_stream,
    export_dlpack,
    import_dlpack,
    to_other_device,
)
from ._cupy_sorting import FIXES as _SORTING_FIXES

NAME = "cupy"
xp = cupy
VERSION = cupy.__version__


def device_count() -> int:
    return cupy.cuda.runtime.getDeviceCount()


def current_device() -> int:
    return cupy.cuda.runtime.getDevice()


def use_device(index: int, _get: Any = cupy.cuda.runtime.getDevice,
               _set: Any = cupy.cuda.runtime.setDevice) -> None:
    """Make ``index`` the current CUDA device; a no-op when it already is. (Read on every
    call on hosts with several GPUs: the runtime's functions are bound once.)"""
    if _get() != index:
        _set(index)


# The most dimensions an array may have (CuPy's MAX_NDIM, NumPy's NPY_MAXDIMS).
MAX_NDIM = 64


def on(index: int) -> Any:
    """The context making CUDA device ``index`` current for allocations and kernels;
    ``cupy.cuda.Device`` switches (and switches back) only when it is not already."""
    return cupy.cuda.Device(index)


# Note: out of memory, CuPy's pool raises cupy.cuda.memory.OutOfMemoryError, looked up by
# name in its module when it raises: xpgpu's DeviceMemoryError (a subclass of both) takes
# that name once here, so the user gets the function, the device, the request and the
# free memory with the fix, and code catching CuPy's class still catches it.
# https://github.com/cupy/cupy/blob/main/cupy/cuda/memory.pyx
OutOfMemoryError = _memory.install(
    cupy.cuda.memory, "OutOfMemoryError",
    lambda: f"cuda:{cupy.cuda.runtime.getDevice()}", cupy.cuda.runtime.memGetInfo)


def device_properties(index: int) -> dict[str, Any]:
    props = cupy.cuda.runtime.getDeviceProperties(index)
    name = props["name"]
    return {"name": name.decode() if isinstance(name, bytes) else name,
            "memory": props["totalGlobalMem"]}


def to_host(data: Any) -> Any:
    return cupy.asnumpy(data)


def from_host(data: Any, index: int) -> Any:
    # The copy goes to device ``index``, made current as DeviceBackend does (not switched
    # back: cupy.cuda.Device's context costs a call of its own, a fifth of a small copy's).
    use_device(index)
    # Note: every 0-d array is small: CuPy copies one with ndarray.fill, whose zero
    # shortcut (a memset) turns -0.0 into +0.0; the upload keeps the sign.
    small = _cupy_upload.upload(data, index)
    return cupy.asarray(data) if small is None else small


def synchronize() -> None:
    """Wait for the work queued on the current device's current stream (for timings)."""
    cupy.cuda.get_current_stream().synchronize()


# Fixes of CuPy's results where they differ from the standard, by the standard's name.
# Note: CuPy writes a scalar zero with a memset (ndarray.fill's shortcut, also taken by
# cupy.full, x[...] = v and x[mask] = v), so -0.0 comes out as +0.0; where xpgpu's fill
# kernels do not take the call (_cupy_indexing), a negative zero is copied from a
# 1-element device array instead.
def _negative_zero(value: Any) -> bool:
    if type(value) is cupy.ndarray or value != 0:
        return False
    z = complex(value)
    return math.copysign(1.0, z.real) < 0 or math.copysign(1.0, z.imag) < 0


def _full(shape: Any, fill_value: Any, dtype: Any, order: str = "C") -> Any:
    out = cupy.ndarray(shape, dtype, None, None, order)  # cupy.full without its Python layer
    if _cupy_indexing.fill(out, fill_value):  # a memset or one kernel (C-contiguous)
        return out
    if not _negative_zero(fill_value):
        out.fill(fill_value)
    else:
        out[...] = cupy.asarray([fill_value], dtype).reshape(())  # 1-d: a copy, not a fill
    return out


def _ones(shape: Any, dtype: Any, order: str = "C") -> Any:
    out = cupy.ndarray(shape, dtype, None, None, order)  # cupy.ones without its Python layer
    if not _cupy_indexing.fill(out, 1):
        out.fill(1)
    return out


# The keys whose selection is a view (basic indexing), which a scalar is stored into by
# one kernel where the view is contiguous or 1-D (_cupy_indexing.fill).
_BASIC = frozenset((int, slice, type(None), type(Ellipsis)))


def _setitem(data: Any, key: Any, value: Any) -> None:
    t = type(key)
    if t is cupy.ndarray:
        if _cupy_indexing.mask_fill(data, key, value):
            return
    elif type(value) in _cupy_indexing.SCALARS and (
            t in _BASIC or (t is tuple and all(type(k) in _BASIC for k in key))):
        view = _cupy_launch.basic_view(data, key)
        if _cupy_indexing.fill(data[key] if view is None else view, value):
            return
    if _negative_zero(value):
        value = cupy.asarray([value], data.dtype).reshape(())
    if data.size == 0:
        _empty_axis_scatter(data.shape, key)
    data[key] = value


# Note: CuPy's scatter (x[idx] = v, cupy/_core/_routines_indexing.pyx) wraps each integer
# index by the axis length, without checking it: on an axis of length 0 that is a division
# by zero, and the kernel writes anywhere (cudaErrorIllegalAddress, which ends the process's
# CUDA context). Its gather checks this case; NumPy raises an IndexError for both.
def _empty_axis_scatter(shape: tuple[int, ...], key: Any) -> None:
    """An IndexError for a non-empty integer array index into an axis of length 0."""
    parts = key if type(key) is tuple else (key,)
    spans = [p.ndim if type(p) is cupy.ndarray and p.dtype.kind == "b"
             else 0 if p is None or p is Ellipsis else 1 for p in parts]
    axis = 0
    for i, (p, span) in enumerate(zip(parts, spans, strict=True)):
        if p is Ellipsis:
            axis = len(shape) - sum(spans[i + 1:])
            continue
        if (type(p) is cupy.ndarray and p.dtype.kind in "iu" and p.size
                and axis < len(shape) and shape[axis] == 0):
            raise IndexError(f"index is out of bounds for axis {axis} with size 0")
        axis += span


FIXES: dict[str, Any] = {"full": _full, "zeros": _cupy_launch.zeros, "ones": _ones,
                         "setitem": _setitem, "mask_getitem": _cupy_indexing.mask_getitem}
# CuPy's module functions that call the ndarray method, called as the method (the
# reductions among them are replaced below by xpgpu's kernels, whose fallbacks they are).
FIXES.update(_cupy_reductions.CUPY_METHODS)
FIXES["permute_dims"] = FIXES["transpose"]
FIXES.update(_cupy_special.FIXES)  # element-wise special cases: fused kernels
FIXES.update(_cupy_linalg.FIXES)  # backend.linalg and backend.fft
FIXES["logspace"] = _cupy_logspace.logspace  # CuPy's pow is off for integer dtypes
FIXES.update(_SORTING_FIXES)  # sort, argsort, searchsorted, isin, repeat
FIXES.update(_cupy_reductions.FIXES)  # var, std, sum ... any, all: xpgpu's own kernels
FIXES.update(_cupy_search.FIXES)  # argmax, argmin: xpgpu's own kernels
FIXES.update(_cupy_scan.FIXES)  # cumsum: xpgpu's own scan
FIXES["concat"] = _cupy_manipulation.concat(cupy.concatenate)  # along axis 0: copies
FIXES["stack"] = _cupy_manipulation.stack(cupy.stack)
FIXES["matmul"] = _cupy_matmul.matmul  # two C-contiguous matrices: CuPy's cuBLAS call, direct


def _astype(x: Any, dtype: Any) -> Any:
    return x.astype(dtype)


def _copy(x: Any) -> Any:
    return x.copy()


# xpgpu's own vectorised kernels for large contiguous operands, over every function
# above that is a ufunc (CuPy's, or a fix's), with where, clip and astype: the function
# they replace stays the path of every other call (_cupy_kernels).
_CURRENT = {name: f for name, f in vars(cupy).items() if isinstance(f, cupy.ufunc)}
_CURRENT.update({std: getattr(cupy, own) for std, own in RENAMES.items()})
_CURRENT.update(FIXES)
_CURRENT.update(where=cupy.where, clip=FIXES["clip"], astype=_astype, copy=_copy, round=cupy.round)
FIXES.update(_cupy_kernels.fixes(_CURRENT))


# Note: CuPy's logical functions refuse complex operands ("Wrong type ... for
# cupy_logical_and"); NumPy takes a complex value's truth (nonzero). The strict profile
# never passes one (boolean inputs only); the permissive profile follows NumPy.
def _truth(value: Any) -> Any:
    if type(value) is cupy.ndarray:
        return value != 0 if value.dtype.kind == "c" else value
    return bool(value) if type(value) is complex else value


def _complex_truth(func: Any, nin: int) -> Any:
    if nin == 1:
        def fixed(x: Any) -> Any:
            return func(_truth(x))
    else:
        def fixed(x1: Any, x2: Any) -> Any:  # type: ignore[misc]
            return func(_truth(x1), _truth(x2))
    fixed.ufunc = getattr(func, "ufunc", func)  # type: ignore[attr-defined]  # what fuse runs
    return fixed


for _name, _nin in (("logical_and", 2), ("logical_or", 2), ("logical_xor", 2),
                    ("logical_not", 1)):
    FIXES[_name] = _complex_truth(FIXES.get(_name, getattr(cupy, _name)), _nin)
