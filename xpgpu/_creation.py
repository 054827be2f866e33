"""Creation functions.

https://data-apis.org/array-api/2025.12/API_specification/creation_functions.html

Allocation happens on the target device, through its backend and inside its device
context (``adapter.on``); Python data is converted on the host (by NumPy) and copied
to the device once.
"""

from __future__ import annotations

import math
from typing import Any, NoReturn

import numpy

from . import _devices
from . import _validate as v
from ._array import Array, array_arg, promote_arrays, speedups, transfer, wrap, wrap_checked
from ._devices import CPU, Device
from ._dlpack import from_dlpack
from ._dtypes import ALL, CATEGORIES, DEFAULTS, FROM_NP, KINDS, DType, as_dtype, bool_, uint64
from ._scalars import INT_BOUNDS, scalar_type

# Python scalar types in rank order (bool < int < float < complex), the kind of dtype
# each rank maps to, and the default dtype of an array of such values.
_RANK_KINDS = ("bool", "integral", "real floating", "complex floating")
_PY_RANK = {bool: 0, int: 1, float: 2, complex: 3}
_RANK_DEFAULT = tuple(DEFAULTS[k] for k in _RANK_KINDS)
_PY_DEFAULT = {t: _RANK_DEFAULT[r] for t, r in _PY_RANK.items()}
# dtype -> the highest rank of Python values it holds without a change of kind.
_DTYPE_RANK = {d: r for r, k in enumerate(_RANK_KINDS) for d in KINDS[k]}
_COMPLEX = KINDS["complex floating"]
# Casts the standard says should not be permitted: complex to real-valued.
_NOT_FROM_COMPLEX = KINDS["integral"] | KINDS["real floating"]
_REAL_NUMERIC = CATEGORIES["real numeric"]
_ALL = CATEGORIES["all"]
_FLOATING = CATEGORIES["floating-point"]
_NUMERIC = CATEGORIES["numeric"]
_EXACT_FLOAT = 1 << 53  # integers below this are exact in float64
_MAX_BYTES = 1 << 63  # no array holds this many bytes


def _on(device: Device) -> Any:
    return device.backend.adapter.on(device.index)


def _no_copy(func: str, why: str) -> NoReturn:
    v.fail(func, f"copy=False, but {why} needs a copy; use copy=None to allow it",
           ValueError)


def _ragged(func: str) -> NoReturn:
    v.fail(func, "cannot convert the nested sequence to an array: its sequences differ in "
                 "length (or hold values beyond every dtype); use sequences of one length at "
                 "each depth", ValueError)


def _unconvertible(func: str, obj: Any, error: type[Exception]) -> NoReturn:
    v.fail(func, f"cannot convert {v.type_name(obj)} to an array; use a (nested) sequence "
                 "of Python scalars, a NumPy array or an object with __dlpack__", error)


def _complex_to_real(func: str, src: DType, dst: DType) -> NoReturn:
    v.fail(func, f"casting {src.name} to {dst.name} would discard the imaginary part, which "
                 "the standard does not permit; use real() or imag() first")


# ---- asarray --------------------------------------------------------------------------

def asarray(obj: Any, /, *, dtype: Any = None, device: Any = None,
            copy: bool | None = None) -> Array:
    """Convert ``obj`` to an array. See https://data-apis.org/array-api/2025.12/API_specification/generated/array_api.asarray.html"""
    func = "asarray"
    dt = v.dtype_or_none(func, dtype)
    target = None if device is None else v.device_arg(func, device)
    if copy is not None and copy is not True and copy is not False:
        v.bad_bool(func, copy, "copy", none=True)
    if type(obj) is Array:
        return _from_array(func, obj, dt, target, copy)
    if type(obj) in _PY_RANK or isinstance(obj, (list, tuple)):
        rank = _scan(func, obj)
        if rank is _HOLDS_ARRAYS:
            return _from_nested_arrays(func, obj, dt, target, copy)
        if rank is not None:
            return _from_python(func, obj, rank, dt, target or _default(func), copy)
    elif hasattr(obj, "__dlpack_device__") and not CPU.backend.adapter.is_host_array(obj):
        # Note: foreign arrays (CuPy, PyTorch, JAX ...) come in through DLPack, without
        # a round trip to the host.
        return _from_array(func, from_dlpack(obj, copy=False if copy is False else None),
                           dt, target, copy)
    return _from_host(func, obj, dt, target or _default(func), copy)


def _default(func: str) -> Device:
    return v.device_or_default(func, None)


def _flat_rank(obj: list[Any] | tuple[Any, ...]) -> int | None:
    """The rank of a flat list or tuple of Python scalars of one exact type (-1 when
    empty), or None: _scan's fast path."""
    kinds = set(map(type, obj))
    if len(kinds) == 1:
        return _PY_RANK.get(kinds.pop())
    return None if kinds else -1


def _scan(func: str, obj: Any) -> int | None:
    """The rank of nested Python scalars (bool < int < float < complex; -1 when empty),
    ``_HOLDS_ARRAYS`` for sequences holding xpgpu arrays, or None when ``obj`` holds
    anything else (NumPy scalars, say: NumPy converts those)."""
    t = type(obj)
    if t is list or t is tuple:  # fast path: a flat sequence of one Python type
        r = _flat_rank(obj)
        if r is not None:
            return r
    rank = -1
    stack = [obj]
    pop, extend = stack.pop, stack.extend
    while stack:
        item = pop()
        t = type(item)
        r = _PY_RANK.get(t)
        if r is not None:
            if r > rank:
                rank = r
        elif t is list or t is tuple or isinstance(item, (list, tuple)):
            extend(item)
        elif t is Array:
            return _HOLDS_ARRAYS
        else:
            return None
    return rank


_HOLDS_ARRAYS = -2  # _scan's answer for sequences holding xpgpu arrays


def _int_outside(obj: Any, lo: int, hi: int) -> int | None:
    """The first Python int of nested ``obj`` outside [lo, hi], if any."""
    stack = [obj]
    while stack:
        item = stack.pop()
        if type(item) is int and not lo <= item <= hi:
            return item
        if isinstance(item, (list, tuple)):
            stack.extend(reversed(item))
    return None


def _from_nested_arrays(func: str, obj: Any, dtype: DType | None, target: Device | None,
                        copy: bool | None) -> Array:
    """Sequences holding xpgpu arrays (``[[a[0, 0], a[0, 1]], ...]``): the arrays' dtypes
    promote with each other and with Python scalars as in result_type()."""
    if copy is False:
        _no_copy(func, "converting a sequence")
    arrays: list[Array] = []
    scalars: list[Any] = []

    def to_host(item: Any) -> Any:
        if type(item) is Array:
            arrays.append(item)
            return transfer(item._data, item._device, CPU)
        if isinstance(item, (list, tuple)):
            return [to_host(i) for i in item]
        scalars.append(item)
        return item

    nested = to_host(obj)
    promoted, source = promote_arrays(func, _ALL, *arrays)
    if dtype is None:
        dtype = promoted
        for value in scalars:
            dtype = v.scalar_result(func, dtype, value)
    try:
        host = CPU.backend.adapter.asarray_host(nested, dtype.dtype)
    except (TypeError, ValueError):
        _ragged(func)
    target = target or source
    return wrap_checked(func, transfer(host, CPU, target), target, dtype)


def _from_python(func: str, obj: Any, rank: int, dtype: DType | None, target: Device,
                 copy: bool | None) -> Array:
    """Python scalars and (nested) sequences of them."""
    if copy is False:
        _no_copy(func, "converting Python scalars or sequences")
    if dtype is None:
        dtype = _RANK_DEFAULT[rank] if rank >= 0 else DEFAULTS["real floating"]
    elif rank > _DTYPE_RANK[dtype] and type(obj) in _PY_RANK:
        # A Python scalar of another kind: the standard's casts, as in full().
        host = CPU.backend.asarray(v.cast_scalar(func, obj, dtype, "obj"))
        return wrap_checked(func, host if target is CPU else transfer(host, CPU, target),
                            target, dtype)
    elif rank > _DTYPE_RANK[dtype]:
        return _cast_sequence(func, obj, rank, dtype, target)
    try:
        # (NumPy 2 refuses Python ints out of an integer dtype's range: OverflowError.
        # The host backend's own asarray: asarray_host without its copy argument, which
        # a Python sequence does not need, ~0.1 us a call less.)
        host = CPU.backend.asarray(obj, dtype.dtype)
    except OverflowError:
        bounds = _INT_RANGE[dtype._i]
        if bounds is not None:
            lo, hi = bounds
            bad = _int_outside(obj, lo, hi)
            if bad is not None:
                v.fail(func, f"Python int {bad} is out of range for dtype {dtype.name} "
                             f"[{lo}, {hi}]; use a wider dtype", OverflowError)
        # an int too large for a floating dtype
        v.fail(func, f"a value is out of range for dtype {dtype.name}; use smaller values",
               OverflowError)
    except ValueError:  # ragged nesting
        _ragged(func)
    if target is not CPU:
        host = transfer(host, CPU, target)
    elif host.dtype is dtype.dtype:
        return wrap(host, dtype, target)
    return wrap_checked(func, host, target, dtype)


def _cast_sequence(func: str, obj: Any, rank: int, dtype: DType, target: Device) -> Array:
    """Nested Python values of a higher kind than ``dtype`` (``asarray([1.5], dtype=int32)``),
    cast as astype() casts: complex to real is refused, floats must fit an integer dtype."""
    if rank == _PY_RANK[complex] and dtype is not bool_:
        v.fail(func, f"Python complex values cannot be stored as {dtype.name}: casting "
                     "complex to real discards the imaginary part, which the standard does not "
                     "permit; use a complex dtype, or take the real parts first")
    backend = CPU.backend
    try:
        host = backend.adapter.asarray_host(obj, _RANK_DEFAULT[rank].dtype)
    except (OverflowError, ValueError):  # huge ints, ragged nesting
        _ragged(func)
    bounds = INT_BOUNDS.get(dtype)
    if bounds is not None and host.size:
        if not bool(backend.all(backend.isfinite(host))):
            v.fail(func, f"a non-finite value has no value in {dtype.name}; use a floating "
                         "dtype, or replace the nan and inf first", ValueError)
        whole = backend.trunc(host)
        lo, hi = float(backend.min(whole)), float(backend.max(whole))
        if lo < bounds[0] or hi > bounds[1]:
            v.fail(func, f"a value is out of range for dtype {dtype.name} "
                         f"[{bounds[0]}, {bounds[1]}]; use a wider dtype", OverflowError)
    host = host.astype(dtype.dtype)
    return wrap_checked(func, host if target is CPU else transfer(host, CPU, target), target,
                        dtype)


def _from_host(func: str, obj: Any, dtype: DType | None, target: Device,
               copy: bool | None) -> Array:
    """NumPy arrays and scalars, objects with the buffer protocol, other array-likes."""
    adapter = CPU.backend.adapter
    if not adapter.is_host_array(obj):
        try:
            obj = memoryview(obj)  # buffers: bytes, bytearray, array.array, mmap ...
        except TypeError:
            pass  # other array-likes (__array__, __array_interface__): NumPy decides
    try:
        host = adapter.asarray_host(obj, None, False if copy is False else None)
    except ValueError:
        if copy is False:
            _no_copy(func, f"converting {type(obj).__name__}")
        _unconvertible(func, obj, ValueError)
    except TypeError:
        _unconvertible(func, obj, TypeError)
    copied = False
    src = FROM_NP.get(host.dtype)
    if src is None and not host.dtype.isnative:  # byte-swapped data of a standard dtype
        src = FROM_NP.get(host.dtype.newbyteorder("="))
        if src is not None:
            if copy is False:
                _no_copy(func, "converting byte-swapped data to native byte order")
            host, copied = host.astype(src.dtype), True
    if src is None:
        v.fail(func, f"{type(obj).__name__} of dtype {host.dtype} has no equivalent among the "
                     "standard's 13 dtypes; use astype() on it first (float16 to float32, say)")
    if dtype is not None and dtype is not src:
        if copy is False:
            _no_copy(func, f"casting {src.name} to {dtype.name}")
        if src in _COMPLEX and dtype in _NOT_FROM_COMPLEX:
            _complex_to_real(func, src, dtype)
        host, copied, src = host.astype(dtype.dtype), True, dtype
    if target is not CPU:
        if copy is False:
            _no_copy(func, f"moving host data to {target}")
        return wrap(transfer(host, CPU, target), src, target)
    if copy and not copied:
        host = host.copy()
    return wrap(host, src, target)


def _from_array(func: str, x: Array, dtype: DType | None, target: Device | None,
                copy: bool | None) -> Array:
    target = target or x._device
    src = x._dtype
    out = dtype or src
    if copy is False and (out is not src or target is not x._device):
        _no_copy(func, "the requested dtype or device")
    if src in _COMPLEX and out in _NOT_FROM_COMPLEX:
        _complex_to_real(func, src, out)
    data = x._data
    if target is not x._device:
        data = transfer(data, x._device, target)
    elif copy and out is src:
        with _on(target):
            data = target.backend.copy(data)
    if out is not src:
        with _on(target):
            data = target.backend.astype(data, out.dtype)
    return wrap(data, out, target)


# ---- shapes and fills -----------------------------------------------------------------

_DEFAULT_FLOAT = DEFAULTS["real floating"]
_DEFAULT_INT = DEFAULTS["integral"]
_FLOATING_I = tuple(d in _FLOATING for d in ALL)  # by dtype index
_INT_RANGE = tuple(INT_BOUNDS.get(d) for d in ALL)  # by dtype index
_SMALL = 1 << 40  # a one-dimensional shape below this needs no size check


def _alloc(func: str, name: str, shape: Any, dtype: Any, device: Any,
           fill: Any = None) -> Array:
    """A new array of the backend's ``zeros``/``ones``/``empty`` (``full`` with ``fill``)."""
    # Fast path: an int shape, an xpgpu dtype (or None), a Device (or None).
    if (type(shape) is int and 0 <= shape < _SMALL
            and (dtype is None or type(dtype) is DType)
            and (device is None or type(device) is Device)):
        dt = _DEFAULT_FLOAT if dtype is None else dtype
        target = device or _devices.default_device()
        backend = target.backend
        if fill is None:  # (positional arguments: the backends' calls are faster)
            data = getattr(backend, name)(shape, dt.dtype)
        else:
            data = backend.full(shape, fill, dt.dtype)
        return wrap(data, dt, target)
    dt = _DEFAULT_FLOAT if dtype is None else v.dtype_arg(func, dtype)
    dims = v.shape_arg(func, shape, dt.dtype.itemsize)
    target = v.device_or_default(func, device)
    # The allocation runs on the target: with several GPUs, reading target.backend
    # makes it current (DeviceBackend); with one, it is the only one.
    backend = target.backend
    if fill is None:  # (the backends' zeros, ones and empty take (shape, dtype))
        data = getattr(backend, name)(dims, dt.dtype)
    else:
        data = backend.full(dims, fill, dtype=dt.dtype)
    return wrap(data, dt, target)


def _like(func: str, name: str, x: Any, dtype: Any, device: Any, fill: Any = None) -> Array:
    x = array_arg(func, x)
    dt = x._dtype if dtype is None else v.dtype_arg(func, dtype)
    target = x._device if device is None else v.device_arg(func, device)
    backend = target.backend  # current on reading, as in _alloc
    if fill is None:
        data = getattr(backend, name)(x._data.shape, dt.dtype)
    else:
        data = backend.full(x._data.shape, fill, dtype=dt.dtype)
    return wrap(data, dt, target)


def _fill(func: str, value: Any, dtype: DType | None) -> tuple[Any, DType]:
    """The fill value as a scalar of the dtype, and the dtype: the default dtype of the
    value's kind, or ``dtype`` where the value belongs to it (the scalar rules)."""
    t = scalar_type(value)
    if t is None:
        v.fail(func, f"fill_value must be a Python bool, int, float or complex, "
                     f"not {v.type_name(value)}; use float(value) or int(value)")
    if dtype is None:
        dtype = _PY_DEFAULT[t]
    # A scalar of the dtype itself: no backend has to judge a Python int beyond int64.
    return v.cast_scalar(func, value, dtype), dtype


def empty(shape: Any, *, dtype: Any = None, device: Any = None) -> Array:
    """An uninitialised array. See https://data-apis.org/array-api/2025.12/API_specification/generated/array_api.empty.html"""
    return _alloc("empty", "empty", shape, dtype, device)


def zeros(shape: Any, *, dtype: Any = None, device: Any = None) -> Array:
    """An array of zeros. See https://data-apis.org/array-api/2025.12/API_specification/generated/array_api.zeros.html"""
    return _alloc("zeros", "zeros", shape, dtype, device)


def ones(shape: Any, *, dtype: Any = None, device: Any = None) -> Array:
    """An array of ones. See https://data-apis.org/array-api/2025.12/API_specification/generated/array_api.ones.html"""
    return _alloc("ones", "ones", shape, dtype, device)


def full(shape: Any, fill_value: Any, *, dtype: Any = None, device: Any = None) -> Array:
    """An array filled with ``fill_value``. See https://data-apis.org/array-api/2025.12/API_specification/generated/array_api.full.html"""
    # Fast path: a Python float with a floating dtype (or none: float64), which the
    # backends store as it is.
    if type(fill_value) is float and (dtype is None or (type(dtype) is DType
                                                        and _FLOATING_I[dtype._i])):
        return _alloc("full", "full", shape, dtype, device, fill_value)
    value, dt = _fill("full", fill_value, v.dtype_or_none("full", dtype))
    return _alloc("full", "full", shape, dt, device, value)


# _flat_rank in C where it was built (the same answer without a set of types: 0.5 of an
# 8-element asarray's 1.3 us above NumPy's, on a 2-core x86-64 machine).
if speedups is not None:
    _flat_rank = speedups.flat_rank(_flat_rank, _PY_RANK)


# The fast path of _alloc in C where it was built (_speedups.Alloc): a call it does not
# take, or before the default device is chosen, is the Python function's, the definition.
if speedups is not None:
    empty, zeros, ones = (speedups.alloc(f, f.__name__, _DEFAULT_FLOAT, Device, vars(_devices))
                          for f in (empty, zeros, ones))


def empty_like(x: Array, /, *, dtype: Any = None, device: Any = None) -> Array:
    """An uninitialised array shaped as ``x``. See https://data-apis.org/array-api/2025.12/API_specification/generated/array_api.empty_like.html"""
    return _like("empty_like", "empty", x, dtype, device)


def zeros_like(x: Array, /, *, dtype: Any = None, device: Any = None) -> Array:
    """Zeros shaped as ``x``. See https://data-apis.org/array-api/2025.12/API_specification/generated/array_api.zeros_like.html"""
    return _like("zeros_like", "zeros", x, dtype, device)


def ones_like(x: Array, /, *, dtype: Any = None, device: Any = None) -> Array:
    """Ones shaped as ``x``. See https://data-apis.org/array-api/2025.12/API_specification/generated/array_api.ones_like.html"""
    return _like("ones_like", "ones", x, dtype, device)


def full_like(x: Array, /, fill_value: Any, *, dtype: Any = None, device: Any = None) -> Array:
    """``fill_value`` shaped as ``x``. See https://data-apis.org/array-api/2025.12/API_specification/generated/array_api.full_like.html"""
    func = "full_like"
    x = array_arg(func, x)
    value, dt = _fill(func, fill_value, x._dtype if dtype is None else v.dtype_arg(func, dtype))
    return _like(func, "full", x, dt, device, value)


# ---- ranges ---------------------------------------------------------------------------

def arange(start: int | float, /, stop: int | float | None = None, step: int | float = 1, *,
           dtype: Any = None, device: Any = None) -> Array:
    """Evenly spaced values in ``[start, stop)``. See https://data-apis.org/array-api/2025.12/API_specification/generated/array_api.arange.html"""
    func = "arange"
    # Fast path: arange(n) of the default dtype; the backend allocates on the target
    # (reading target.backend makes it current, as in _alloc).
    if (type(start) is int and stop is None and step == 1 and type(step) is int
            and dtype is None and 0 <= start < _SMALL
            and (device is None or type(device) is Device)):
        target = device or _devices.default_device()
        data = target.backend.arange(start, dtype=_DEFAULT_INT.dtype)
        return wrap(data, _DEFAULT_INT, target)
    start = v.real_arg(func, start, "start")
    stop = None if stop is None else v.real_arg(func, stop, "stop")
    step = v.real_arg(func, step, "step")
    if stop is None:
        start, stop = 0, start
    all_int = type(start) is int and type(stop) is int and type(step) is int
    if dtype is None:
        dt = DEFAULTS["integral" if all_int else "real floating"]
    else:
        dt = v.dtype_arg(func, dtype)
        if dt not in _REAL_NUMERIC:
            v.bad_dtype(func, dt, _REAL_NUMERIC, "dtype")
        if not all_int and dt not in _FLOATING:
            v.fail(func, f"Python float arguments cannot give dtype {dt.name}; use ints, or "
                         "a floating dtype and astype()")
    if step == 0:
        v.fail(func, "step must not be zero; use a positive or negative step", ValueError)
    if not all(map(math.isfinite, (start, stop, step))):
        v.fail(func, f"start, stop and step must be finite, got {start}, {stop}, {step}; use "
                     "finite values", ValueError)
    target = v.device_or_default(func, device)
    backend = target.backend
    bounds = INT_BOUNDS.get(dt)
    if bounds is None:
        span = (stop - start) / step  # the backends' length, before its ceil (float64)
        if not span * dt.dtype.itemsize < _MAX_BYTES:
            v.fail(func, f"{span:.4g} elements of {dt.name} are more than an array can hold; "
                         "use a larger step", ValueError)
        with backend.adapter.on(target.index):
            data = backend.arange(start, stop, step, dtype=dt.dtype)
        return wrap_checked(func, data, target, dt)
    n = max(0, -((start - stop) // step))  # len(range(start, stop, step)), unbounded
    lo, hi = bounds
    if n and not (lo <= start <= hi and lo <= start + (n - 1) * step <= hi):
        v.fail(func, f"the values from {start} to {start + (n - 1) * step} do not fit dtype "
                     f"{dt.name} [{lo}, {hi}]; use a wider dtype", OverflowError)
    if n * dt.dtype.itemsize >= _MAX_BYTES:
        v.fail(func, f"{n} elements of {dt.name} are more than an array can hold; use a larger "
                     "step", ValueError)
    with backend.adapter.on(target.index):
        if lo <= stop <= hi and lo <= step <= hi and abs(stop - start) < _EXACT_FLOAT:
            data = backend.arange(start, stop, step, dtype=dt.dtype)
        else:
            # Note: the backends size the result as ceil((stop - start) / step) in float64,
            # inexact beyond 2**53; build start + i * step modulo 2**64 instead, exact
            # since every element fits the dtype.
            # (Typed uint64 scalars: Python ints beyond int64 are not weak on every backend.)
            wide = uint64.dtype.type
            data = backend.arange(n, dtype=uint64.dtype)
            data *= wide(step % (1 << 64))
            data += wide(start % (1 << 64))
            data = data.astype(dt.dtype)
    return wrap_checked(func, data, target, dt)


_DOUBLE = numpy.float64  # linspace's working type for Python-number ends
_SINGLE = frozenset(map(numpy.dtype, ("float32", "complex64")))  # ends kept in float32


def _line(backend: Any, a: float, b: float, num: int, endpoint: bool, work: Any) -> Any:
    """``num`` evenly spaced values from ``a``, computed in the NumPy scalar type ``work``
    (as NumPy's linspace does, step by step); the last is ``b`` exactly when ``endpoint``."""
    y = backend.arange(num, dtype=work)
    div = num - 1 if endpoint else num
    if div > 0:
        if work is _DOUBLE:  # Python floats: float64 arithmetic, inf without a warning
            delta = b - a
        else:  # float32 ends (NumPy's scalars): NumPy's float32 arithmetic
            a, b = work(a), work(b)
            with numpy.errstate(over="ignore"):
                delta = b - a
        step = delta / div
        if not math.isfinite(delta):  # b - a overflows: interpolate a(1 - t) + bt
            y /= div
            t = y * b
            y *= -a
            y += a
            y += t
            if endpoint:
                y[-1] = b
            return y
        if step == 0 and delta != 0:  # a subnormal step: scale instead
            y /= div
            y *= delta
        else:
            y *= step
    y += a
    if endpoint and num > 1:
        y[-1] = b
    return y


# Note: NumPy computes linspace in the result type of its ends (Python numbers weak, as
# NEP 50 has it; at least float64 for integers): float32 where float32 ends meet only each
# other or Python numbers, and rounds the grid to the dtype asked for last. array-api-strict
# hands such ends to NumPy, and SciPy's histograms (stats.relfreq, cumfreq) compare with
# NumPy's float32 bin edges: the same ends give the same values here, on every device.
def _working_type(start: object, stop: object) -> Any:
    if type(start) in _PY_RANK and type(stop) in _PY_RANK:  # Python numbers: float64
        return _DOUBLE
    parts: list[Any] = [x if d is None else d.dtype
                        for x in (start, stop) for d in (as_dtype(getattr(x, "dtype", None)),)]
    return numpy.float32 if numpy.result_type(*parts) in _SINGLE else _DOUBLE


def linspace(start: int | float | complex, stop: int | float | complex, /, num: int, *,
             dtype: Any = None, device: Any = None, endpoint: bool = True) -> Array:
    """Evenly spaced numbers over an interval. See https://data-apis.org/array-api/2025.12/API_specification/generated/array_api.linspace.html"""
    func = "linspace"
    ends = (start, stop)
    start = v.number_arg(func, start, "start")
    stop = v.number_arg(func, stop, "stop")
    work = _working_type(*ends)
    kinds = (type(start), type(stop))
    n = v.int_arg(func, num, "num")
    if n < 0:
        v.fail(func, f"num must be non-negative, got {n}; use num=0 for an empty array",
               ValueError)
    v.size_check(func, (n,), 16)
    v.bool_arg(func, endpoint, "endpoint")
    is_complex = complex in kinds
    if dtype is None:
        dt = DEFAULTS["complex floating" if is_complex else "real floating"]
    else:
        dt = v.dtype_arg(func, dtype)
        if dt not in _FLOATING:
            v.bad_dtype(func, dt, _FLOATING, "dtype")
        if is_complex and dt not in _COMPLEX:
            v.fail(func, f"complex start or stop cannot give the real dtype {dt.name}; use "
                         "a complex dtype")
    try:
        a, b = complex(start), complex(stop)
    except OverflowError:
        v.fail(func, f"start {start} or stop {stop} is beyond the float range; use finite "
                     "values", OverflowError)
    target = v.device_or_default(func, device)
    backend = target.backend
    with backend.adapter.on(target.index):
        if dt in _COMPLEX:
            # Note: real and imaginary parts are spaced separately, as the standard
            # defines it; CuPy's scalar linspace takes no complex endpoints.
            data = backend.empty(n, dtype=dt.dtype)
            data.real[...] = _line(backend, a.real, b.real, n, endpoint, work)
            data.imag[...] = _line(backend, a.imag, b.imag, n, endpoint, work)
        else:
            data = _line(backend, a.real, b.real, n, endpoint, work).astype(dt.dtype, copy=False)
    return wrap_checked(func, data, target, dt)


# ---- matrices -------------------------------------------------------------------------

def eye(n_rows: int, n_cols: int | None = None, /, *, k: int = 0, dtype: Any = None,
        device: Any = None) -> Array:
    """Ones on the ``k``-th diagonal. See https://data-apis.org/array-api/2025.12/API_specification/generated/array_api.eye.html"""
    func = "eye"
    rows = v.int_arg(func, n_rows, "n_rows")
    cols = rows if n_cols is None else v.int_arg(func, n_cols, "n_cols")
    if rows < 0 or cols < 0:
        v.fail(func, f"n_rows and n_cols must be non-negative, got {rows}, {cols}; use "
                     "0 for an empty matrix", ValueError)
    # Beyond these bounds the diagonal is empty: clamp, so the backend sees small ints.
    diag = max(-rows, min(v.int_arg(func, k, "k"), cols))
    dt = DEFAULTS["real floating"] if dtype is None else v.dtype_arg(func, dtype)
    v.size_check(func, (rows, cols), dt.dtype.itemsize)
    target = v.device_or_default(func, device)
    backend = target.backend
    with backend.adapter.on(target.index):
        data = backend.eye(rows, cols, k=diag, dtype=dt.dtype)
    return wrap(data, dt, target)


def _triangle(func: str, x: Any, k: Any) -> Array:
    x = array_arg(func, x)
    if x._data.ndim < 2:
        v.fail(func, f"x must have at least 2 dimensions, got {x._data.ndim}; use "
                     "reshape() or expand_dims() first", ValueError)
    rows, cols = x._data.shape[-2:]
    diag = max(-rows, min(v.int_arg(func, k, "k"), cols))
    backend = x._device.backend
    with backend.adapter.on(x._device.index):
        data = getattr(backend, func)(x._data, k=diag)
    return wrap_checked(func, data, x._device, x._dtype)


def tril(x: Array, /, *, k: int = 0) -> Array:
    """The lower triangle(s) of ``x``. See https://data-apis.org/array-api/2025.12/API_specification/generated/array_api.tril.html"""
    return _triangle("tril", x, k)


def triu(x: Array, /, *, k: int = 0) -> Array:
    """The upper triangle(s) of ``x``. See https://data-apis.org/array-api/2025.12/API_specification/generated/array_api.triu.html"""
    return _triangle("triu", x, k)


def meshgrid(*arrays: Array, indexing: str = "xy") -> tuple[Array, ...]:
    """Coordinate matrices from coordinate vectors. See https://data-apis.org/array-api/2025.12/API_specification/generated/array_api.meshgrid.html"""
    func = "meshgrid"
    if not isinstance(indexing, str) or indexing not in ("xy", "ij"):
        v.fail(func, f"indexing must be 'xy' or 'ij', not {indexing!r}; use one of them",
               ValueError)
    xs = [array_arg(func, a, f"arrays[{i}]", _NUMERIC) for i, a in enumerate(arrays)]
    if not xs:
        return ()
    device = v.common_device(func, [x._device for x in xs])
    dtype = xs[0]._dtype
    for i, x in enumerate(xs):
        if x._dtype is not dtype:
            v.fail(func, f"all arrays must have one dtype, got {dtype.name} and "
                         f"{x._dtype.name} (arrays[{i}]); use astype() to give them one")
        if x._data.ndim != 1:
            v.fail(func, f"arrays must be 1-D, arrays[{i}] has {x._data.ndim} dimensions; use "
                         "reshape(a, (-1,))", ValueError)
    backend = device.backend
    with backend.adapter.on(device.index):
        grids = backend.meshgrid(*[x._data for x in xs], indexing=indexing)
    return tuple(wrap(g, dtype, device) for g in grids)
