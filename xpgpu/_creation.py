"""Creation functions.

https://data-apis.org/array-api/2025.12/API_specification/creation_functions.html

Allocation happens on the target device's backend; Python data is converted on the
host (by NumPy) and copied to the device once.
"""

from __future__ import annotations

from typing import Any

from . import _validate as v
from ._array import Array, transfer, wrap, wrap_checked
from ._devices import CPU, Device
from ._dlpack import from_dlpack
from ._dtypes import FROM_NP, DType, bool_, complex128, float64, int64
from ._scalars import INT_BOUNDS

# Python scalar type -> its rank and the default dtype of an array of such values.
_PY_RANK = {bool: 0, int: 1, float: 2, complex: 3}
_PY_DEFAULT = (bool_, int64, float64, complex128)


def _python_dtype(func: str, obj: Any) -> DType | None:
    """The dtype of nested Python scalars (bool < int < float < complex), or None when
    ``obj`` is not made only of Python scalars and sequences of them."""
    rank = -1
    stack = [obj]
    while stack:
        item = stack.pop()
        r = _PY_RANK.get(type(item))
        if r is not None:
            rank = max(rank, r)
        elif isinstance(item, (list, tuple)):
            stack.extend(item)
        else:
            return None
    return _PY_DEFAULT[max(rank, 0)]


def asarray(obj: Any, /, *, dtype: Any = None, device: Any = None, copy: bool | None = None) -> Array:
    """Convert ``obj`` to an array. See https://data-apis.org/array-api/2025.12/API_specification/generated/array_api.asarray.html"""
    func = "asarray"
    dtype = v.dtype_or_none(func, dtype)
    target = None if device is None else v.device_arg(func, device)
    if copy not in (None, True, False):
        v.fail(func, f"copy must be True, False or None, not {copy!r}")
    if type(obj) is Array:
        return _from_array(obj, dtype, target, copy)
    if copy is False and type(obj) in _PY_RANK or isinstance(obj, (list, tuple)) and copy is False:
        v.fail(func, "copy=False is impossible for Python scalars and sequences", ValueError)
    if hasattr(obj, "__dlpack_device__") and not CPU.backend.adapter.is_host_array(obj):
        return _from_foreign(obj, dtype, target, copy)
    target = target or _default()
    inferred = _python_dtype(func, obj)
    if inferred is not None:
        if dtype is None:
            dtype = inferred
            if dtype is int64:
                _check_int64(func, obj)
        host = CPU.backend.adapter.asarray_host(obj, dtype.dtype)
    else:
        try:
            host = CPU.backend.adapter.asarray_host(obj, None if dtype is None else dtype.dtype,
                                                    copy if target is CPU else None)
        except (TypeError, ValueError) as e:
            v.fail(func, f"cannot convert {type(obj).__name__} to an array: {e}",
                   ValueError if isinstance(e, ValueError) else TypeError)
        if FROM_NP.get(host.dtype) is None:
            v.fail(func, f"{type(obj).__name__} of dtype {host.dtype} has no standard dtype")
    if target is not CPU:
        host = transfer(host, CPU, target)
    return wrap_checked(func, host, target, dtype)


def _default() -> Device:
    return v.device_or_default("asarray", None)


def _check_int64(func: str, obj: Any) -> None:
    lo, hi = INT_BOUNDS[int64]
    stack = [obj]
    while stack:
        item = stack.pop()
        if type(item) is int and not lo <= item <= hi:
            v.fail(func, f"Python int {item} is out of range for the default integer dtype "
                         "int64", OverflowError)
        if isinstance(item, (list, tuple)):
            stack.extend(item)


def _from_array(x: Array, dtype: DType | None, target: Device | None,
                copy: bool | None) -> Array:
    target = target or x._device
    data = x._data
    needs_copy = (dtype is not None and dtype is not x._dtype) or target is not x._device
    if copy is False and needs_copy:
        v.fail("asarray", "copy=False, but the requested dtype or device needs a copy",
               ValueError)
    data = transfer(data, x._device, target)
    if dtype is not None and dtype is not x._dtype:
        data = data.astype(dtype.dtype)
    elif copy and target is x._device:
        data = data.copy()
    return wrap(data, dtype or x._dtype, target)


def _from_foreign(obj: Any, dtype: DType | None, target: Device | None,
                  copy: bool | None) -> Array:
    """A foreign array (CuPy, PyTorch, ...) through DLPack, then the dtype and device."""
    return _from_array(from_dlpack(obj, copy=copy), dtype, target, None)


def arange(*args: Any, **kwargs: Any) -> Any:
    raise NotImplementedError("arange: not implemented yet")


def empty(*args: Any, **kwargs: Any) -> Any:
    raise NotImplementedError("empty: not implemented yet")


def empty_like(*args: Any, **kwargs: Any) -> Any:
    raise NotImplementedError("empty_like: not implemented yet")


def eye(*args: Any, **kwargs: Any) -> Any:
    raise NotImplementedError("eye: not implemented yet")


def full(*args: Any, **kwargs: Any) -> Any:
    raise NotImplementedError("full: not implemented yet")


def full_like(*args: Any, **kwargs: Any) -> Any:
    raise NotImplementedError("full_like: not implemented yet")


def linspace(*args: Any, **kwargs: Any) -> Any:
    raise NotImplementedError("linspace: not implemented yet")


def meshgrid(*args: Any, **kwargs: Any) -> Any:
    raise NotImplementedError("meshgrid: not implemented yet")


def ones(*args: Any, **kwargs: Any) -> Any:
    raise NotImplementedError("ones: not implemented yet")


def ones_like(*args: Any, **kwargs: Any) -> Any:
    raise NotImplementedError("ones_like: not implemented yet")


def tril(*args: Any, **kwargs: Any) -> Any:
    raise NotImplementedError("tril: not implemented yet")


def triu(*args: Any, **kwargs: Any) -> Any:
    raise NotImplementedError("triu: not implemented yet")


def zeros(*args: Any, **kwargs: Any) -> Any:
    raise NotImplementedError("zeros: not implemented yet")


def zeros_like(*args: Any, **kwargs: Any) -> Any:
    raise NotImplementedError("zeros_like: not implemented yet")
