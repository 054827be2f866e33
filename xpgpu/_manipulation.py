"""Manipulation functions.

https://data-apis.org/array-api/2025.12/API_specification/manipulation_functions.html
"""

from __future__ import annotations

from typing import Any

from . import _validate as v
from ._array import (
    PERMUTE,
    RESHAPE,
    Array,
    array_arg,
    compiled_view,
    promote_arrays,
    wrap,
    wrap_checked,
)
from ._devices import Device
from ._dtypes import CATEGORIES, KINDS, DType, int64

_ALL = CATEGORIES["all"]
_INTEGRAL = KINDS["integral"]


# ---- shapes ---------------------------------------------------------------------------

def _shape_tuple(func: str, shape: object, name: str = "shape") -> tuple[Any, ...]:
    """A shape that may hold None (an unknown size): broadcast_shapes's."""
    if not isinstance(shape, v.SEQUENCES):
        v.fail(func, f"{name} must be a tuple of ints, not {v.type_name(shape)}; use a tuple")
    return tuple(None if s is None else v.int_arg(func, s, name) for s in shape)


def broadcast_shape(func: str, *shapes: tuple[Any, ...]) -> tuple[Any, ...]:
    """The broadcast of ``shapes`` (``None`` is an unknown size), or the standard's ValueError."""
    ndim = max((len(s) for s in shapes), default=0)
    out: list[Any] = [1] * ndim
    for shape in shapes:
        offset = ndim - len(shape)
        for i, n in enumerate(shape):
            m = out[offset + i]
            if n == 1 or n == m or (n is None and m != 1):
                continue
            if m == 1 or m is None:
                out[offset + i] = n
            elif n is not None:
                v.fail(func, f"shapes {', '.join(map(str, shapes))} cannot be broadcast "
                             "together (trailing sizes must be equal or 1); use reshape() or "
                             "expand_dims() to line them up", ValueError)
    return tuple(out)


def broadcast_shapes(*shapes: tuple[int | None, ...]) -> tuple[int | None, ...]:
    """Broadcast shapes. See https://data-apis.org/array-api/2025.12/API_specification/generated/array_api.broadcast_shapes.html"""
    func = "broadcast_shapes"
    return broadcast_shape(func, *(_shape_tuple(func, s, "shapes") for s in shapes))


def broadcast_arrays(*arrays: Array) -> tuple[Array, ...]:
    """Broadcast arrays against each other. See https://data-apis.org/array-api/2025.12/API_specification/generated/array_api.broadcast_arrays.html"""
    func = "broadcast_arrays"
    xs = [array_arg(func, x, f"arrays[{i}]") for i, x in enumerate(arrays)]
    if not xs:
        return ()
    device = v.common_device(func, [x._device for x in xs])
    broadcast_shape(func, *(x.shape for x in xs))
    datas = device.backend.broadcast_arrays(*(x._data for x in xs))
    return tuple(wrap(d, x._dtype, device) for d, x in zip(datas, xs, strict=True))


def broadcast_to(x: Array, /, shape: tuple[int, ...]) -> Array:
    """Broadcast an array to a shape. See https://data-apis.org/array-api/2025.12/API_specification/generated/array_api.broadcast_to.html"""
    func = "broadcast_to"
    x = array_arg(func, x)
    target = v.shape_arg(func, v.int_tuple_arg(func, shape))
    if len(target) < x.ndim or broadcast_shape(func, x.shape, target) != target:
        v.fail(func, f"an array of shape {x.shape} cannot be broadcast to shape {target}; use "
                     "a shape whose trailing sizes equal x's or where x's are 1", ValueError)
    return wrap(x._device.backend.broadcast_to(x._data, target), x._dtype, x._device)


# ---- joining and splitting ------------------------------------------------------------

def _sequence(func: str, arrays: object) -> tuple[list[Array], DType, Device]:
    if not isinstance(arrays, (tuple, list)):
        v.fail(func, f"arrays must be a tuple or list of arrays, not {v.type_name(arrays)}; use "
                     f"{func}([x1, x2, ...]) with xpgpu arrays")
    if not arrays:
        v.fail(func, "arrays must hold at least one array; use zeros() for an empty result",
               ValueError)
    dtype, device = promote_arrays(func, _ALL, *arrays)
    return list(arrays), dtype, device  # type: ignore[arg-type]


def _cast(xs: list[Array], dtype: DType) -> list[Any]:
    return [x._data if x._dtype is dtype else x._data.astype(dtype.dtype) for x in xs]


def _same(arrays: object) -> tuple[list[Any], DType, Device] | None:
    """The fast path's test: a non-empty list or tuple of arrays of one dtype and device,
    as (their backend data, the dtype, the device); None for anything else."""
    if (type(arrays) is not list and type(arrays) is not tuple) or not arrays:
        return None
    first = arrays[0]  # type: ignore[index]
    if type(first) is not Array:
        return None
    dtype, device = first._dtype, first._device
    datas = []
    for x in arrays:  # type: ignore[attr-defined]
        if type(x) is not Array or x._dtype is not dtype or x._device is not device:
            return None
        datas.append(x._data)
    return datas, dtype, device


def concat(arrays: tuple[Array, ...] | list[Array], /, *, axis: int | None = 0) -> Array:
    """Join arrays along an existing axis. See https://data-apis.org/array-api/2025.12/API_specification/generated/array_api.concat.html"""
    func = "concat"
    # Fast path: arrays of one dtype and device and an int axis; the backend's refusals
    # (0-d arrays, shapes, the axis) go to the checks below for the standard's message.
    same = _same(arrays) if type(axis) is int else None
    if same is not None and same[0][0].ndim:
        backend = same[2].backend
        try:
            data = backend.concat(same[0], axis=axis)
        except (ValueError, IndexError, TypeError, OverflowError):  # an axis beyond C long
            pass
        else:
            if data.dtype is same[1].dtype:
                return wrap(data, same[1], same[2])
    xs, dtype, device = _sequence(func, arrays)
    backend = device.backend
    datas = _cast(xs, dtype)
    if axis is None:
        return wrap_checked(func, backend.concat([backend.reshape(d, (-1,)) for d in datas]),
                            device, dtype)
    ndim = xs[0].ndim
    if ndim == 0:
        v.fail(func, "zero-dimensional arrays cannot be concatenated; use axis=None or stack()",
               ValueError)
    a = v.axis_arg(func, axis, ndim)
    first = xs[0].shape
    for x in xs[1:]:
        s = x.shape
        if len(s) != ndim or s[:a] != first[:a] or s[a + 1:] != first[a + 1:]:
            v.fail(func, f"arrays of shapes {first} and {s} cannot be joined along axis {a}; "
                         "use arrays whose other axes match", ValueError)
    return wrap_checked(func, backend.concat(datas, axis=a), device, dtype)


def stack(arrays: tuple[Array, ...] | list[Array], /, *, axis: int = 0) -> Array:
    """Join arrays along a new axis. See https://data-apis.org/array-api/2025.12/API_specification/generated/array_api.stack.html"""
    func = "stack"
    same = _same(arrays) if type(axis) is int else None  # the fast path, as in concat
    if same is not None:
        backend = same[2].backend
        try:
            data = backend.stack(same[0], axis=axis)
        except (ValueError, IndexError, TypeError):
            pass
        else:
            if data.dtype is same[1].dtype:
                return wrap(data, same[1], same[2])
    xs, dtype, device = _sequence(func, arrays)
    first = xs[0].shape
    for x in xs[1:]:
        if x.shape != first:
            v.fail(func, f"arrays must have the same shape, got {first} and {x.shape}; use "
                         "broadcast_arrays() first", ValueError)
    a = v.axis_arg(func, axis, len(first) + 1)
    return wrap_checked(func, device.backend.stack(_cast(xs, dtype), axis=a), device, dtype)


def unstack(x: Array, /, *, axis: int = 0) -> tuple[Array, ...]:
    """Split an array into a tuple of arrays along an axis. See https://data-apis.org/array-api/2025.12/API_specification/generated/array_api.unstack.html"""
    func = "unstack"
    x = array_arg(func, x)
    if x.ndim == 0:
        v.fail(func, "x must have at least one dimension; use reshape(x, (1,))", ValueError)
    a = v.axis_arg(func, axis, x.ndim)
    moved = x._device.backend.moveaxis(x._data, a, 0)
    return tuple(wrap(moved[i], x._dtype, x._device) for i in range(moved.shape[0]))


# ---- reshaping ------------------------------------------------------------------------

def expand_dims(x: Array, /, axis: int | tuple[int, ...]) -> Array:
    """Insert axes of size one. See https://data-apis.org/array-api/2025.12/API_specification/generated/array_api.expand_dims.html"""
    func = "expand_dims"
    x = array_arg(func, x)
    n = 1 if not isinstance(axis, v.SEQUENCES) else len(axis)
    axes = v.axis_tuple_arg(func, axis, x.ndim + n, sequences=v.SEQUENCES)
    shape = iter(x.shape)
    new = tuple(1 if i in axes else next(shape) for i in range(x.ndim + n))
    return wrap(x._device.backend.reshape(x._data, new), x._dtype, x._device)


def squeeze(x: Array, /, axis: int | tuple[int, ...]) -> Array:
    """Remove axes of size one. See https://data-apis.org/array-api/2025.12/API_specification/generated/array_api.squeeze.html"""
    func = "squeeze"
    x = array_arg(func, x)
    axes = v.axis_tuple_arg(func, axis, x.ndim)
    for a in axes:
        if x.shape[a] != 1:
            v.fail(func, f"axis {a} has size {x.shape[a]}; only axes of size one can be removed: "
                         "use reshape() to change other axes", ValueError)
    return wrap(x._device.backend.squeeze(x._data, axis=axes), x._dtype, x._device)


def reshape(x: Array, /, shape: tuple[int, ...], *, copy: bool | None = None) -> Array:
    """Give an array a new shape. See https://data-apis.org/array-api/2025.12/API_specification/generated/array_api.reshape.html"""
    func = "reshape"
    # Fast path: a tuple of Python ints and copy=None; the backend refuses what the
    # standard does (a size mismatch, two -1, sizes below -1): the checks below say why.
    if type(x) is Array and copy is None and type(shape) is tuple:
        for s in shape:
            if type(s) is not int or s < -1:  # NumPy takes any negative size as -1
                break
        else:
            backend = x._device.backend
            try:
                data = backend.reshape(x._data, shape)
            except (ValueError, OverflowError):
                pass
            else:
                return wrap(data, x._dtype, x._device)
    x = array_arg(func, x)
    dims = v.int_tuple_arg(func, shape)
    if copy is not None:
        v.bool_arg(func, copy, "copy")
    unknown = [i for i, s in enumerate(dims) if s == -1]
    if len(unknown) > 1 or any(s is None or s < -1 for s in dims):
        v.fail(func, f"invalid shape {shape}: sizes must be non-negative, with at most one -1; "
                     "use one -1 for the size to infer", ValueError)
    known = 1
    for s in dims:
        if s != -1:
            known *= s
    size = x.size
    if unknown:
        if known == 0 or size % known:
            v.fail(func, f"cannot reshape an array of size {size} into shape {shape}; use a "
                         f"shape of {size} elements", ValueError)
        dims = tuple(size // known if s == -1 else s for s in dims)
    elif known != size:
        v.fail(func, f"cannot reshape an array of size {size} into shape {shape}; use a shape "
                     f"of {size} elements", ValueError)
    v.size_check(func, dims, x._data.dtype.itemsize)
    backend = x._device.backend
    data = backend.reshape(x._data, dims)
    if copy:
        data = data.copy()
    elif copy is False and size and not backend.may_share_memory(data, x._data):
        v.fail(func, f"cannot reshape an array of shape {x.shape} into {dims} without a copy "
                     "(copy=False); use copy=None to allow one", v.CopyRequiredError)
    return wrap(data, x._dtype, x._device)


def permute_dims(x: Array, /, axes: tuple[int, ...]) -> Array:
    """Permute the axes of an array. See https://data-apis.org/array-api/2025.12/API_specification/generated/array_api.permute_dims.html"""
    func = "permute_dims"
    # Fast path: a tuple of one Python int per axis; the backend refuses repeated and
    # out-of-range axes (the checks below say why).
    if type(x) is Array and type(axes) is tuple and len(axes) == x._data.ndim:
        for a in axes:
            if type(a) is not int:
                break
        else:
            try:
                data = x._device.backend.permute_dims(x._data, axes)
            except (ValueError, IndexError, OverflowError, TypeError):
                pass
            else:
                return wrap(data, x._dtype, x._device)
    x = array_arg(func, x)
    if not isinstance(axes, v.SEQUENCES):
        v.int_tuple_arg(func, axes, "axes")  # the TypeError
    if len(axes) != x.ndim:
        v.fail(func, f"axes {axes} must have one entry per dimension of x ({x.ndim}); use a "
                     "permutation of range(x.ndim)", ValueError)
    perm = v.axis_tuple_arg(func, axes, x.ndim, "axes", sequences=v.SEQUENCES)
    return wrap(x._device.backend.permute_dims(x._data, perm), x._dtype, x._device)


# Note: the fast paths of reshape and permute_dims again in C (_speedups.c: View), where
# built: a view of CuPy costs ~2 µs, and one Python call more than 5% of that.
reshape = compiled_view(reshape, RESHAPE, "reshape")
permute_dims = compiled_view(permute_dims, PERMUTE, "transpose")


def moveaxis(x: Array, source: int | tuple[int, ...], destination: int | tuple[int, ...], /
             ) -> Array:
    """Move axes to new positions. See https://data-apis.org/array-api/2025.12/API_specification/generated/array_api.moveaxis.html"""
    func = "moveaxis"
    x = array_arg(func, x)
    src = v.axis_tuple_arg(func, source, x.ndim, "source", sequences=v.SEQUENCES)
    dst = v.axis_tuple_arg(func, destination, x.ndim, "destination", sequences=v.SEQUENCES)
    if len(src) != len(dst):
        v.fail(func, f"source {source} and destination {destination} must have the same "
                     "number of axes; use as many of each", ValueError)
    return wrap(x._device.backend.moveaxis(x._data, src, dst), x._dtype, x._device)


# ---- rearranging ----------------------------------------------------------------------

def flip(x: Array, /, *, axis: int | tuple[int, ...] | None = None) -> Array:
    """Reverse the order of elements along axes. See https://data-apis.org/array-api/2025.12/API_specification/generated/array_api.flip.html"""
    func = "flip"
    x = array_arg(func, x)
    axes = v.axes_arg(func, axis, x.ndim, sequences=v.SEQUENCES)
    return wrap(x._device.backend.flip(x._data, axis=axes), x._dtype, x._device)


def roll(x: Array, /, shift: int | tuple[int, ...], *,
         axis: int | tuple[int, ...] | None = None) -> Array:
    """Roll elements along axes. See https://data-apis.org/array-api/2025.12/API_specification/generated/array_api.roll.html"""
    func = "roll"
    x = array_arg(func, x)
    backend = x._device.backend
    if axis is None:
        s = _shift(func, shift, x.size)
        data = backend.reshape(backend.roll(backend.reshape(x._data, (-1,)), s), x.shape)
        return wrap(data, x._dtype, x._device)
    axes = v.axis_tuple_arg(func, axis, x.ndim, unique=False, sequences=v.SEQUENCES)
    if isinstance(shift, v.SEQUENCES):
        if len(shift) != len(axes):
            v.fail(func, f"shift {shift} and axis {axis} must have the same length; use one "
                         "shift per axis", ValueError)
        shifts = tuple(_shift(func, s, x.shape[a]) for s, a in zip(shift, axes, strict=True))
    else:
        shifts = tuple(_shift(func, shift, x.shape[a]) for a in axes)
    return wrap(backend.roll(x._data, shifts, axis=axes), x._dtype, x._device)


def _shift(func: str, shift: object, n: int) -> int:
    """A shift of any size, reduced modulo the axis length (the backends take an intp)."""
    s = v.int_arg(func, shift, "shift")
    return s % n if n else 0


def repeat(x: Array, repeats: int | Array, /, *, axis: int | None = None) -> Array:
    """Repeat each element of an array. See https://data-apis.org/array-api/2025.12/API_specification/generated/array_api.repeat.html"""
    func = "repeat"
    x = array_arg(func, x)
    backend = x._device.backend
    data = x._data
    if axis is None:
        data = backend.reshape(data, (-1,))
        a = 0
    else:
        a = v.axis_arg(func, axis, x.ndim)
    n = data.shape[a] if data.ndim else 1
    if type(repeats) is Array:
        r = array_arg(func, repeats, "repeats", _INTEGRAL)
        if r._device is not x._device:
            v.mismatch(func, x._device, r._device)
        if r.ndim > 1 or (r.ndim == 1 and r.shape[0] not in (1, n)):
            v.fail(func, f"repeats of shape {r.shape} does not broadcast to ({n},); use one "
                         "count per element along the axis", ValueError)
        counts = r._data if r._dtype is int64 else r._data.astype(int64.dtype)
        # Note: the output size depends on the values: one device synchronisation.
        if r.size and int(backend.min(counts)) < 0:
            v.fail(func, "repeats must be non-negative; use 0 to drop an element", ValueError)
        if r.ndim == 0 or r.shape[0] == 1:  # a 0-d array broadcasts as one count
            counts = int(counts.reshape(-1)[0])
    else:
        counts = v.int_arg(func, repeats, "repeats")
        if counts < 0:
            v.fail(func, f"repeats must be non-negative, got {counts}; use 0 for an empty "
                         "result", ValueError)
        v.size_check(func, (*data.shape[:a], n * counts, *data.shape[a + 1:]),
                     data.dtype.itemsize)
    return wrap(backend.repeat(data, counts, axis=a), x._dtype, x._device)


def tile(x: Array, repetitions: tuple[int, ...], /) -> Array:
    """Repeat an array along each axis. See https://data-apis.org/array-api/2025.12/API_specification/generated/array_api.tile.html"""
    func = "tile"
    x = array_arg(func, x)
    reps = v.int_tuple_arg(func, repetitions, "repetitions")
    if any(r < 0 for r in reps):
        v.fail(func, f"repetitions must be non-negative ints, got {repetitions}; use 0 "
                     "for an empty axis", ValueError)
    pad = max(len(reps), x.ndim)
    shape = (1,) * (pad - x.ndim) + x.shape
    reps_full = (1,) * (pad - len(reps)) + reps
    v.size_check(func, tuple(a * b for a, b in zip(shape, reps_full, strict=True)),
                 x._data.dtype.itemsize)
    return wrap(x._device.backend.tile(x._data, reps), x._dtype, x._device)
