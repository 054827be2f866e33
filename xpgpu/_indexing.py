"""Indexing: ``Array.__getitem__``/``__setitem__`` and the standard's index rules.

https://data-apis.org/array-api/2025.12/API_specification/indexing.html

The standard requires integers, slices, an ellipsis, ``None``, a boolean array as the
sole index, and tuples of integers and integer arrays (one per axis; from revision
2024.12). Everything else (flat indexing with fewer indices than dimensions, lists,
floats, booleans, masks inside tuples, integer arrays mixed with slices) raises
``IndexError``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from . import _profile, _version
from . import _validate as v
from ._array import GETITEM, Array, compiled_view, speedups, wrap, wrap_checked
from ._dtypes import ALL, CATEGORIES, KINDS, PROMOTION, DType, bool_
from ._scalars import INT_BOUNDS

_INTEGRAL = KINDS["integral"]
_new = object.__new__
_BOUND = frozenset({int, type(None)})  # slice bounds the fast paths take
_FLOATING_I = tuple(d in CATEGORIES["floating-point"] for d in ALL)  # by dtype index
_INT_RANGE = tuple(INT_BOUNDS.get(d) for d in ALL)
# Integer array indices came in revision 2024.12; read only where one occurs.
_int_arrays = True


def _switch(revision: str) -> None:
    global _int_arrays
    _int_arrays = revision >= "2024.12"


def _index_error(op: str, message: str) -> None:
    v.fail(op, message, IndexError)


def _int_index(op: str, i: Any) -> int:
    if isinstance(i, bool) or not hasattr(i, "__index__") or getattr(i, "ndim", 0) != 0:
        _index_error(op, f"index {_shown(i)} of type {v.type_name(i)} is not one the standard "
                         "specifies (integers, slices, ..., None, boolean or integer arrays); "
                         + _index_fix(i))
    return i.__index__()  # type: ignore[no-any-return]


def _shown(i: Any) -> str:
    text = repr(i)
    return text if len(text) <= 40 else text[:37] + "..."


def _index_fix(i: Any) -> str:
    """The fix for an index object the standard does not specify."""
    if hasattr(i, "__array__") or hasattr(i, "__dlpack__"):  # NumPy, CuPy, ... arrays
        return f"use xpgpu.asarray(index, device=x.device), {v.PERMISSIVE}"
    if isinstance(i, (list, tuple)):
        return "use xpgpu.asarray(index) for an integer or boolean array index, or take()"
    if isinstance(i, bool):
        return "use a boolean array (xpgpu.asarray(flag)) or None for a new axis"
    if isinstance(i, float):
        return "use an int (int(index))"
    return "use an int, a slice, ..., None or an xpgpu array"


def _out_of_bounds(op: str, shape: tuple[int, ...], key: Any) -> str:
    """The message of an integer index out of bounds (built only on failure)."""
    keys = key if isinstance(key, tuple) else (key,)
    axis = 0
    after = len(shape) - sum(1 for k in keys if k is not None and k is not Ellipsis
                             and not (hasattr(k, "ndim") and k.dtype == bool))
    for k in keys:
        if k is Ellipsis:
            axis += max(after, 0)
        elif k is None:
            continue
        else:
            if type(k) is int and axis < len(shape) and not -shape[axis] <= k < shape[axis]:
                n = shape[axis]
                return (f"{op}: index {k} is out of bounds for axis {axis} of size {n}; use an "
                        f"index in [{-n}, {n})" if n else f"{op}: index {k} is out of bounds "
                        f"for axis {axis} of size 0, which has no elements")
            axis += 1
    return f"{op}: an index is out of bounds for shape {shape}; use indices in [-n, n) " \
        "for an axis of size n"


class EmptyMask(tuple):  # type: ignore[type-arg]
    """The key of a boolean mask selecting nothing through a zero-size dimension: a tuple
    of empty slices over the mask's dimensions, which become one of size 0."""

    __slots__ = ()


def backend_key(x: Array, key: Any, op: str) -> Any:
    """Validate ``key`` for ``x`` and return it with arrays replaced by backend data."""
    keys = key if isinstance(key, tuple) else (key,)
    ndim = x._data.ndim
    out: list[Any] = []
    axes = 0
    ellipses = 0
    has_slice_or_none = False
    index_arrays = 0
    for i in keys:
        t = type(i)
        if t is slice:
            for bound in (i.start, i.stop, i.step):
                if bound is not None:
                    _int_index(op, bound)
            if i.step is not None and i.step.__index__() == 0:
                _index_error(op, "slice step cannot be zero; use a step of 1 or -1, or None")
            out.append(i)
            axes += 1
            has_slice_or_none = True
        elif i is Ellipsis:
            ellipses += 1
            out.append(i)
        elif i is None:
            if op == "__setitem__":
                _index_error(op, "None (newaxis) is not allowed in an assignment index; use "
                                 "the index without None")
            out.append(i)
            has_slice_or_none = True
        elif t is Array:
            if i._device is not x._device:
                v.mismatch(op, x._device, i._device)
            if i._dtype is bool_:
                if len(keys) != 1:
                    _index_error(op, "a boolean array index must be the sole index; use a[mask] "
                                     "with a mask of the leading axes, or take(a, nonzero(mask)"
                                     "[0], axis=...) to select along one axis")
                if i.shape != x.shape[: i.ndim]:
                    if i.ndim > ndim or any(m not in (s, 0)
                                            for m, s in zip(i.shape, x.shape, strict=False)):
                        _index_error(op, f"boolean index of shape {i.shape} does not match "
                                         f"the indexed array's shape {x.shape}; use a mask "
                                         "of the array's leading dimensions")
                    # Note: the standard lets a mask dimension be 0 where x's is not (it
                    # selects nothing); NumPy and CuPy refuse it, so slice out nothing.
                    return EmptyMask((slice(0, 0),) * i.ndim)
                return i._data
            if i._dtype not in _INTEGRAL:
                _index_error(op, f"array indices must have an integer or boolean dtype, "
                                 f"not {i._dtype.name}; use astype(index, xpgpu.int64)")
            if i.ndim == 0:
                out.append(int(i))
            else:
                if op == "__setitem__":
                    _index_error(op, "integer array indices are not supported in assignments; "
                                     "use where() to build the new array, or a boolean mask "
                                     "(x[mask] = value)")
                if not _int_arrays:
                    _index_error(op, "integer array indices came in revision 2024.12 of the "
                                     f"standard, and {_version.current()} is selected; use "
                                     "take(), or xpgpu.set_array_api_version('2024.12')")
                out.append(i._data)
                index_arrays += 1
            axes += 1
        else:
            out.append(_int_index(op, i))
            axes += 1
    if ellipses > 1:
        _index_error(op, "an index can only have a single ellipsis ('...'); use one")
    if axes > ndim:
        _index_error(op, f"too many indices ({axes}) for an array of {ndim} dimension(s); use "
                         "one index per axis")
    if not ellipses and axes < ndim:
        _index_error(op, f"the index gives {axes} of {ndim} axes, as the standard requires "
                         "every axis; use one index per axis, or add an ellipsis (a[i, ...])")
    if index_arrays and (ellipses or has_slice_or_none):
        _index_error(op, "integer array indices can be combined only with integers "
                         "(one index per axis); use take(a, idx, axis=...) to select along one "
                         "axis")
    return tuple(out)


def _bounds_message(op: str, shape: tuple[int, ...], key: Any, exc: Exception) -> str:
    """The strict profile's message of a backend IndexError: an index out of bounds."""
    return _out_of_bounds(op, shape, key)


def _mask(x: Array, data: Any, key: Any) -> Any:
    """``data[key]`` of backend data ``key`` (a boolean mask of leading axes, or in the
    permissive profile any array index) by the backend's ``mask_getitem`` where it has one
    (None: the ndarray's own indexing)."""
    take = x._device.backend.mask_getitem
    return data[key] if take is None else take(data, key)


def getitem(key_of: Callable[[Array, Any, str], Any],
            index_message: Callable[[str, tuple[int, ...], Any, Exception], str] = _bounds_message
            ) -> Callable[[Array, Any], Array]:
    """``Array.__getitem__`` reading keys with ``key_of`` (``backend_key`` in the strict
    profile); the fast paths are the same in both profiles."""

    def __getitem__(self: Array, key: Any, /) -> Array:
        data = self._data
        t = type(key)
        # Fast paths: a slice of Python ints (or None) into a 1-D array, always a view of
        # the backend's array type; a tuple of one int or such slice per axis.
        if (t is slice and data.ndim == 1 and type(key.start) in _BOUND
                and type(key.stop) in _BOUND and type(key.step) in _BOUND and key.step != 0):
            a = _new(Array)
            a._data = data[key]
            a._dtype = self._dtype
            a._device = self._device
            return a
        if t is tuple and len(key) == data.ndim:
            for k in key:
                tk = type(k)
                if tk is not int and (tk is not slice or type(k.start) not in _BOUND
                                      or type(k.stop) not in _BOUND
                                      or type(k.step) not in _BOUND or k.step == 0):
                    break
            else:
                try:
                    result = data[key]
                except IndexError:  # an int out of bounds
                    raise IndexError(_out_of_bounds("__getitem__", data.shape, key)) from None
                if type(result) is not self._device.backend.ndarray:
                    return wrap_checked("__getitem__", result, self._device, self._dtype)
                return wrap(result, self._dtype, self._device)
        if data.ndim == 1 and ((t is slice and key.step != 0) or t is int):
            try:
                result = data[key]
            except (TypeError, IndexError):  # non-integer slice bounds, an index out of bounds
                if t is slice:
                    backend_key(self, key, "__getitem__")  # names the bad bound
                raise IndexError(_out_of_bounds("__getitem__", data.shape, key)) from None
        elif (t is Array and key._dtype is bool_ and key._device is self._device
              and key._data.shape == data.shape):
            result = _mask(self, data, key._data)  # fast path: a mask of the array's shape
        else:
            bkey = key
            try:
                bkey = key_of(self, key, "__getitem__")
                result = _mask(self, data, bkey) if type(bkey) is type(data) else data[bkey]
                if type(bkey) is EmptyMask:
                    result = result.reshape((0, *data.shape[len(bkey):]))
            except IndexError as e:
                if str(e).startswith("__getitem__"):
                    raise
                raise IndexError(index_message("__getitem__", data.shape, bkey, e)) from None
            except (TypeError, ValueError) as e:  # (permissive) keys NumPy or CuPy refuse
                if str(e).startswith("__getitem__"):
                    raise  # xpgpu's own (a DeviceMismatchError among them)
                raise IndexError(f"__getitem__: {e}") from None
        if type(result) is not self._device.backend.ndarray:
            return wrap_checked("__getitem__", result, self._device, self._dtype)
        return wrap(result, self._dtype, self._device)

    # Note: the fast paths above (slices and ints, masks) again in C (_speedups.c: View),
    # where built.
    return compiled_view(__getitem__, GETITEM, mask=bool_)


def _keeps(dtype: DType, value: Any) -> bool:
    """Whether a Python scalar ``value`` may be stored in ``dtype`` as it is (the fast
    path of __setitem__: a float in a floating array, a bool in a boolean one, an int in
    range of an integer one)."""
    t = type(value)
    if t is float:
        return _FLOATING_I[dtype._i]
    if t is int:
        bounds = _INT_RANGE[dtype._i]
        return bounds is not None and bounds[0] <= value <= bounds[1]
    return t is bool and dtype is bool_


def _value(self: Array, value: Any) -> Any:
    """The strict profile's assigned value: an array or a Python scalar of the dtype."""
    dtype = self._dtype
    if type(value) is Array:
        if value._device is not self._device:
            v.mismatch("__setitem__", self._device, value._device)
        if PROMOTION.get((dtype, value._dtype)) is not dtype:
            v.fail("__setitem__", f"cannot assign an array of dtype {value._dtype.name} to an "
                                  f"array of dtype {dtype.name} without changing its dtype; "
                                  f"use astype(value, xpgpu.{dtype.name})")
        return value._data
    if v.scalar_result("__setitem__", dtype, value) is not dtype:
        v.fail("__setitem__", f"cannot assign a Python {type(value).__name__} to an array of "
                              f"dtype {dtype.name}; use a value of the array's kind")
    return value


def setitem(key_of: Callable[[Array, Any, str], Any], value_of: Callable[[Array, Any], Any]
            ) -> Callable[[Array, Any, Any], None]:
    """``Array.__setitem__`` reading keys with ``key_of`` and values with ``value_of``
    (``backend_key`` and ``_value`` in the strict profile); the fast path is the same in
    both profiles."""

    def __setitem__(self: Array, key: Any, value: Any, /) -> None:
        data = self._data
        t = type(key)
        # Fast path: a slice of Python ints (or None) into a 1-D array, or a mask of the
        # array's shape; a value of the array's dtype and device, or a scalar it keeps.
        if ((t is slice and data.ndim == 1 and type(key.start) in _BOUND
             and type(key.stop) in _BOUND and type(key.step) in _BOUND and key.step != 0)
                or (t is Array and key._dtype is bool_ and key._device is self._device
                    and key._data.shape == data.shape)):
            tv = type(value)
            if (value._dtype is self._dtype and value._device is self._device if tv is Array
                    else _keeps(self._dtype, value)):
                try:
                    self._device.backend.setitem(data, key._data if t is Array else key,
                                                 value._data if tv is Array else value)
                    return
                except (ValueError, IndexError):
                    pass  # the value does not broadcast: the message comes below
        bkey = key_of(self, key, "__setitem__")
        value = value_of(self, value)
        try:
            self._device.backend.setitem(self._data, bkey, value)
        except ValueError:  # the value does not broadcast to the indexed shape
            shape = self._data[bkey].shape
            v.fail("__setitem__", f"a value of shape {getattr(value, 'shape', ())} cannot be "
                                  f"assigned to an indexed region of shape {shape}; use a value "
                                  "that broadcasts to it", ValueError)
        except IndexError:  # an integer index out of bounds
            raise IndexError(_out_of_bounds("__setitem__", self._data.shape, bkey)) from None
        except TypeError as exc:  # (permissive) a value NumPy cannot cast
            v.fail("__setitem__", f"cannot assign the value: {exc}", TypeError)
        except OverflowError as exc:  # (permissive) a Python int out of the dtype's range
            v.fail("__setitem__", f"{exc}; use a value in the dtype's range", OverflowError)

    # Note: the fast path above again in C (_speedups.c: Setitem), where built.
    if speedups is None:
        return __setitem__
    return speedups.setitem(__setitem__, _FLOATING_I, _INT_RANGE, bool_)  # type: ignore[no-any-return]


_version.on_switch(_switch)
__getitem__ = getitem(backend_key)
__setitem__ = setitem(backend_key, _value)
Array.__getitem__ = __getitem__  # type: ignore[method-assign]
Array.__setitem__ = __setitem__  # type: ignore[method-assign]
if speedups is not None:
    # x[key] calls the compiled __getitem__ without CPython's generic slot (_speedups.c:
    # fast_subscript), again after each profile switch (which assigns __getitem__).
    _profile.on_switch(lambda strict: speedups.fast_subscript())
