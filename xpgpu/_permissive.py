"""The permissive profile's functions and methods, built from NumPy 2's rule tables.

``build()`` runs once, on the first ``set_strict(False)``, and returns what the profile
rebinds: (owner, name) -> object, for the namespace's functions and the array's methods.
The element-wise functions and operators are the same factories as in the strict
profile, given NumPy's tables (``Loose``); the others are the strict functions behind a
thin layer that moves NumPy operands to the device, casts where NumPy would promote
across kinds, and takes keyword-only parameters by position in NumPy's order.
"""

from __future__ import annotations

import functools
import inspect
import sys
import types
from collections.abc import Callable
from typing import Any

from . import _dtypes, _elementwise, _indexing, _numpy_protocol, _operators
from . import _rules_numpy as np_rules
from . import _validate as v
from ._array import Array, transfer
from ._creation import asarray
from ._data_types import astype, promotion
from ._devices import CPU, Device
from ._dtypes import KINDS, PROMOTION, REAL_OF, DType, bool_, float64, int64
from ._linear_algebra import _broadcast_or_none
from ._scalars import SCALAR_RESULT as _STANDARD_SCALARS
from ._scalars import scalar_type

_INTEGRAL_OR_BOOL = KINDS["integral"] | KINDS["bool"]
_host = CPU.backend.adapter


class Loose:
    """The permissive tables the element-wise factories take (``loose=``)."""

    unary_loops = staticmethod(np_rules.unary_loops)
    binary_loops = staticmethod(np_rules.binary_loops)
    scalar_loops = staticmethod(np_rules.scalar_loops)

    @staticmethod
    def operand(label: str, obj: Any, device: Device) -> Array:
        """A NumPy array or scalar as an xpgpu array on ``device`` (a host-to-device copy
        on CUDA); NumPy scalars keep their dtype (NEP 50: they are not weak)."""
        try:
            return asarray(obj, device=device)
        except (TypeError, ValueError) as exc:
            v.fail(label, f"cannot use the NumPy operand: {exc}", type(exc)
                   if type(exc) in (TypeError, ValueError) else TypeError)

    @staticmethod
    def inplace_keeps(result: DType, dtype: DType) -> bool:
        """NumPy's in-place rule: the result casts to the array's dtype ("same_kind")."""
        return (result, dtype) in np_rules.SAME_KIND


def _named(wrapper: Callable[..., Any], func: Callable[..., Any]) -> Callable[..., Any]:
    """``wrapper`` whose code carries ``func``'s name: frames (and so the out-of-memory
    message, which names the outermost xpgpu function) show ``sum``, not ``wrapper``."""
    names = {"co_name": func.__name__}
    if hasattr(wrapper.__code__, "co_qualname"):  # Python 3.11+
        names["co_qualname"] = func.__qualname__
    wrapper.__code__ = wrapper.__code__.replace(**names)  # type: ignore[arg-type]
    return wrapper


# ---- dtypes ---------------------------------------------------------------------------

# The standard's promotion where it defines one, else NumPy's: every pair has a result.
_PROMOTION = {**np_rules.PROMOTION, **PROMOTION}


def _with_scalar(label: str, a: DType, value: object) -> DType:
    """The dtype of an array of ``a`` with a Python scalar: the standard's where it
    defines one (with its OverflowError), else NumPy's (NEP 50)."""
    t = scalar_type(value)
    if (a, t) in _STANDARD_SCALARS:
        return v.scalar_result(label, a, value)
    found = np_rules.SCALAR_RESULT.get((a, t))  # type: ignore[arg-type]
    if found is None:
        v.fail(label, f"arguments must be arrays, dtypes or Python scalars, not "
                              f"{value!r}")
    return found


def _host_dtype(arg: Any) -> DType | None:
    """A NumPy array's or scalar's dtype (NumPy scalars are strong), or None."""
    return _dtypes.as_dtype(arg.dtype) if _host.is_host_array(arg) else None


# The standard's promotion, and NumPy 2's where the standard defines none.
result_type = promotion(_PROMOTION, _with_scalar, _host_dtype)


# ---- operands of several arrays -------------------------------------------------------

def _device_of(items: list[Any]) -> Device | None:
    for x in items:
        if type(x) is Array:
            return x._device
    return None


def _arrays(label: str, items: list[Any], device: Device | None,
            scalars: bool = False) -> list[Any]:
    """NumPy operands as arrays on ``device``, and every array cast to the common dtype
    where the standard defines no promotion (NumPy's result_type); Python scalars of
    another kind (``scalars``) make it NumPy's result too."""
    if device is not None:
        items = [Loose.operand(label, x, device)
                 if _host.is_host_array(x) and scalar_type(x) is None else x for x in items]
    dtypes = [x._dtype for x in items if type(x) is Array]
    if not dtypes:
        return items
    common = dtypes[0]
    for d in dtypes[1:]:
        common = _PROMOTION[(common, d)]
    if scalars:
        for s in items:
            if type(s) is not Array and scalar_type(s) is not None:
                common = _with_scalar(label, common, s)
    return [astype(x, common) if type(x) is Array and x._dtype is not common else x
            for x in items]


def _casting(func: Callable[..., Any], count: int, scalars: bool = False
             ) -> Callable[..., Any]:
    """``func`` whose first ``count`` positional arguments are arrays (or scalars) meeting
    NumPy's promotion first."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        head = list(args[:count])
        return func(*_arrays(func.__name__, head, _device_of(head), scalars),
                    *args[count:], **kwargs)

    return _named(wrapper, func)


def _sequence_casting(func: Callable[..., Any]) -> Callable[..., Any]:
    """``concat``/``stack``: the arrays of the sequence meet NumPy's promotion first."""

    @functools.wraps(func)
    def wrapper(arrays: Any, /, *args: Any, **kwargs: Any) -> Any:
        if isinstance(arrays, (list, tuple)):
            # A plain list or tuple: a subclass's constructor (a namedtuple's) need not
            # take one iterable.
            items = list(arrays)
            cast = _arrays(func.__name__, items, _device_of(items))
            arrays = list(cast) if isinstance(arrays, list) else tuple(cast)
        return func(arrays, *args, **kwargs)

    return _named(wrapper, func)


_MISSING = object()


def _where(func: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(func)
    def where(condition: Any, x1: Any = _MISSING, x2: Any = _MISSING, /) -> Any:
        if x1 is _MISSING and x2 is _MISSING:  # NumPy's where(condition): nonzero
            return sys.modules["xpgpu"].nonzero(condition)
        if x1 is _MISSING or x2 is _MISSING:
            v.fail("where", "either both or neither of x1 and x2 should be given")
        items = [condition, x1, x2]
        device = _device_of(items)
        if device is not None and _host.is_host_array(condition):
            condition = Loose.operand("where", condition, device)
        if type(condition) is Array and condition._dtype is not bool_:
            condition = astype(condition, bool_)  # NumPy: the truth of each element
        x1, x2 = _arrays("where", [x1, x2], device, scalars=True)
        return func(condition, x1, x2)

    return where


def _clip(func: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(func)
    def clip(x: Any, /, min: Any = None, max: Any = None) -> Any:
        items = [x] + [b for b in (min, max) if b is not None]
        if type(x) is Array:
            items = _arrays("clip", items, x._device, scalars=True)
            x = items[0]
            rest = iter(items[1:])
            min = None if min is None else next(rest)
            max = None if max is None else next(rest)
        try:
            return func(x, min=min, max=max)
        except ValueError as exc:  # bounds that do not broadcast (NumPy's message)
            if str(exc).startswith("clip"):
                raise
            v.fail("clip", f"the bounds do not broadcast to x: {exc}", ValueError)

    return clip


def _asarray(func: Callable[..., Any]) -> Callable[..., Any]:
    """``asarray`` storing Python values of another kind in ``dtype`` as NumPy does
    (``asarray([1, 0], dtype=bool)``)."""

    @functools.wraps(func)
    def asarray(obj: Any, /, *, dtype: Any = None, device: Any = None,
                copy: bool | None = None) -> Any:
        try:
            return func(obj, dtype=dtype, device=device, copy=copy)
        except TypeError:
            if dtype is None or not isinstance(obj, (list, tuple, bool, int, float, complex)):
                raise
        dt = v.dtype_arg("asarray", dtype)
        try:
            host = _host.asarray_host(obj, dt.dtype)
        except (TypeError, ValueError, OverflowError) as exc:
            v.fail("asarray", f"NumPy cannot store these values as {dt.name} either: {exc}",
                   ValueError if isinstance(exc, ValueError) else TypeError)
        return func(host, device=device, copy=copy)

    return asarray


def _full(func: Callable[..., Any]) -> Callable[..., Any]:
    """``full`` with an array as ``fill_value``, as NumPy's: the array broadcast to
    ``shape``, in ``dtype`` (by default the array's), on the array's device."""

    @functools.wraps(func)
    def full(shape: Any, fill_value: Any, *, dtype: Any = None, device: Any = None) -> Any:
        if type(fill_value) is not Array:
            return func(shape, fill_value, dtype=dtype, device=device)
        dt = fill_value._dtype if dtype is None else v.dtype_arg("full", dtype)
        out = func(shape, False if dt is bool_ else 0, dtype=dt,
                   device=fill_value._device if device is None else device)
        if out._device is not fill_value._device:
            v.mismatch("full", out._device, fill_value._device)
        if _broadcast_or_none(fill_value.shape, out.shape) != out.shape:
            v.fail("full", f"a fill_value of shape {fill_value.shape} does not broadcast to "
                           f"shape {out.shape}; use a 0-d array or a Python scalar", ValueError)
        out[...] = astype(fill_value, dt)
        return out

    return full


# ---- ranges ---------------------------------------------------------------------------

def _arange(func: Callable[..., Any]) -> Callable[..., Any]:
    """``arange`` with a complex dtype, as NumPy 2: NumPy fills the real part as for the
    component dtype and the imaginary part with zeros, so the real range, then a cast."""

    @functools.wraps(func)
    def arange(start: Any, /, stop: Any = None, step: Any = 1, dtype: Any = None, *,
               device: Any = None) -> Any:
        if dtype is not None:
            dt = v.dtype_arg("arange", dtype)
            part = REAL_OF.get(dt)
            if part is not None:
                return astype(func(start, stop, step, dtype=part, device=device), dt)
        return func(start, stop, step, dtype=dtype, device=device)

    return arange


def _linspace(func: Callable[..., Any]) -> Callable[..., Any]:
    """``linspace`` with an integer or bool dtype, as NumPy 2: the float64 grid, rounded
    down (floor) for an integer dtype, then cast (``astype``)."""

    @functools.wraps(func)
    def linspace(start: Any, stop: Any, /, num: Any, endpoint: Any = True, *,
                 dtype: Any = None, device: Any = None) -> Any:
        if dtype is not None:
            dt = v.dtype_arg("linspace", dtype)
            if dt in _INTEGRAL_OR_BOOL:
                if complex in (type(v.number_arg("linspace", x, "start or stop"))
                               for x in (start, stop)):
                    # Note: NumPy drops the imaginary part with a ComplexWarning.
                    v.fail("linspace", f"complex start or stop cannot give the dtype "
                                       f"{dt.name}; use a complex dtype, or real endpoints")
                grid = func(start, stop, num, endpoint=endpoint, dtype=float64,
                            device=device)
                if dt is not bool_:
                    grid = sys.modules["xpgpu"].floor(grid)
                return astype(grid, dt)
        return func(start, stop, num, endpoint=endpoint, dtype=dtype, device=device)

    return linspace


def _lists_as_tuples(func: Callable[..., Any]) -> Callable[..., Any]:
    """``func`` taking lists where the standard says tuples (shapes, axes), as NumPy."""

    @functools.wraps(func)
    def wrapper(x: Any, /, *args: Any, **kwargs: Any) -> Any:
        args = tuple(tuple(a) if type(a) is list else a for a in args)
        kwargs = {k: tuple(a) if type(a) is list else a for k, a in kwargs.items()}
        return func(x, *args, **kwargs)

    return _named(wrapper, func)


# ---- statistics -----------------------------------------------------------------------

def _input_cast(func: Callable[..., Any], table: dict[DType, DType]) -> Callable[..., Any]:
    """``func`` whose input array is first cast by ``table`` (NumPy's statistics of
    integer and boolean arrays)."""

    @functools.wraps(func)
    def wrapper(x: Any, /, *args: Any, **kwargs: Any) -> Any:
        if type(x) is Array:
            target = table.get(x._dtype)
            if target is not None:
                x = astype(x, target)
        return func(x, *args, **kwargs)

    return _named(wrapper, func)


_TO_FLOAT = dict.fromkeys(_INTEGRAL_OR_BOOL, float64)  # mean, var, std: float64
_BOOL_TO_INT = {bool_: int64}  # sum, prod, cumulative_*: NumPy's default integer


# ---- keyword-only parameters by position ---------------------------------------------

def _positional(func: Callable[..., Any], names: tuple[str, ...]) -> Callable[..., Any]:
    """``func`` taking its keyword-only parameters ``names`` by position too, after its
    positional ones, in NumPy's order (``out`` only as None)."""
    params = inspect.signature(func).parameters.values()
    lead = sum(p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) for p in params)
    label = func.__name__
    most = lead + len(names)

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        if len(args) > lead:
            if len(args) > most:
                v.fail(label, f"takes at most {most} positional arguments "
                              f"({', '.join(names)} after the first {lead}), got {len(args)}")
            for name, value in zip(names, args[lead:], strict=False):
                if name == "out":
                    if value is not None:
                        v.fail(label, "out= is not supported; use the returned array")
                    continue
                if name in kwargs:
                    v.fail(label, f"got multiple values for argument {name!r}")
                kwargs[name] = value
            args = args[:lead]
        return func(*args, **kwargs)

    return _named(wrapper, func)


def _by_position(func: Callable[..., Any], names: tuple[str, ...]) -> Callable[..., Any]:
    """``func`` taking the keyword-only parameters ``names`` (NumPy's order) by position.

    Where they lead ``func``'s own keyword-only parameters in that order (``sum``: axis,
    dtype), the result is ``func``'s code with them made positional-or-keyword: the same
    function, at no cost per call. Otherwise (``diff``: NumPy's n before axis) a thin
    wrapper maps positions to names."""
    code = func.__code__
    own = code.co_varnames[code.co_argcount:code.co_argcount + code.co_kwonlyargcount]
    kwdefaults = dict(func.__kwdefaults__ or {})
    k = 0
    while k < min(len(names), len(own)) and names[k] == own[k] and own[k] in kwdefaults:
        k += 1
    if k < len(names) and names[k] != "out":
        return _positional(func, names)
    moved = tuple(kwdefaults.pop(n) for n in own[:k])
    new = types.FunctionType(
        code.replace(co_argcount=code.co_argcount + k,
                     co_kwonlyargcount=code.co_kwonlyargcount - k),
        func.__globals__, func.__name__, (func.__defaults__ or ()) + moved, func.__closure__)
    new.__kwdefaults__ = kwdefaults or None
    for attr in ("__doc__", "__qualname__", "__module__", "__annotations__"):
        setattr(new, attr, getattr(func, attr))
    return new


# NumPy's order of the standard's keyword-only parameters, by function.
POSITIONAL: dict[tuple[str, str], tuple[str, ...]] = {
    **{("xpgpu", n): ("axis", "dtype", "out", "keepdims") for n in ("sum", "prod")},
    **{("xpgpu", n): ("axis",) for n in ("mean", "var", "std", "argsort", "sort", "concat",
                                         "flip", "roll", "count_nonzero", "take_along_axis",
                                         "repeat")},
    **{("xpgpu", n): ("axis", "out", "keepdims") for n in ("max", "min", "all", "any")},
    **{("xpgpu", n): ("axis", "out") for n in ("argmax", "argmin", "stack", "take")},
    ("xpgpu", "diff"): ("n", "axis", "prepend", "append"),
    ("xpgpu", "searchsorted"): ("side", "sorter"),
    ("xpgpu", "tensordot"): ("axes",),
    ("xpgpu", "tril"): ("k",),
    ("xpgpu", "triu"): ("k",),
    **{("xpgpu", n): ("dtype",) for n in ("zeros", "ones", "empty", "zeros_like", "ones_like",
                                          "empty_like", "full", "full_like", "asarray",
                                          "arange")},
    ("xpgpu", "linspace"): ("endpoint",),
    ("xpgpu", "eye"): ("k", "dtype"),
    **{("xpgpu.fft", n): ("n", "axis", "norm")
       for n in ("fft", "ifft", "rfft", "irfft", "hfft", "ihfft")},
    **{("xpgpu.fft", n): ("s", "axes", "norm") for n in ("fftn", "ifftn", "rfftn", "irfftn")},
    **{("xpgpu.fft", n): ("d",) for n in ("fftfreq", "rfftfreq")},
    **{("xpgpu.fft", n): ("axes",) for n in ("fftshift", "ifftshift")},
    ("xpgpu.linalg", "svd"): ("full_matrices",),
    ("xpgpu.linalg", "qr"): ("mode",),
    ("xpgpu.linalg", "tensordot"): ("axes",),
}

# Functions of several arrays that promote like NumPy: (module, name) -> layer.
_LAYERS: dict[tuple[str, str], Callable[[Callable[..., Any]], Callable[..., Any]]] = {
    ("xpgpu", "result_type"): lambda f: result_type,
    ("xpgpu", "asarray"): _asarray,
    **{("xpgpu", n): _lists_as_tuples
       for n in ("permute_dims", "reshape", "broadcast_to", "tile", "moveaxis")},
    ("xpgpu", "where"): _where,
    ("xpgpu", "clip"): _clip,
    ("xpgpu", "full"): _full,
    ("xpgpu", "searchsorted"): lambda f: _casting(f, 2),
    ("xpgpu", "concat"): _sequence_casting,
    ("xpgpu", "stack"): _sequence_casting,
    ("xpgpu", "arange"): _arange,
    ("xpgpu", "linspace"): _linspace,
    ("xpgpu", "matmul"): lambda f: _casting(f, 2),
    ("xpgpu", "tensordot"): lambda f: _casting(f, 2),
    ("xpgpu", "vecdot"): lambda f: _casting(f, 2),
    ("xpgpu.linalg", "matmul"): lambda f: _casting(f, 2),
    ("xpgpu.linalg", "tensordot"): lambda f: _casting(f, 2),
    ("xpgpu.linalg", "vecdot"): lambda f: _casting(f, 2),
    ("xpgpu.linalg", "solve"): lambda f: _casting(f, 2),
    ("xpgpu.linalg", "outer"): lambda f: _casting(f, 2),
    ("xpgpu.linalg", "cross"): lambda f: _casting(f, 2),
    **{("xpgpu", n): (lambda f: _input_cast(f, _TO_FLOAT)) for n in ("mean", "var", "std")},
    **{("xpgpu", n): (lambda f: _input_cast(f, _BOOL_TO_INT))
       for n in ("sum", "prod", "cumulative_sum", "cumulative_prod")},
}


# ---- indexing -------------------------------------------------------------------------

def _numpy_part(x: Array, part: Any, op: str) -> Any:
    """One part of an index as the backend takes it, the way NumPy reads it."""
    if type(part) is Array:
        if part._device is not x._device:
            v.mismatch(op, x._device, part._device)
        return part._data
    if isinstance(part, list) or _host.is_host_array(part):
        host = _host.asarray_host(part)
        if host.ndim == 0:
            return host.item()  # NumPy reads a 0-d index as its Python scalar
        return transfer(host, CPU, x._device)
    return part


def backend_key(x: Array, key: Any, op: str) -> Any:
    """The standard's index forms as in the strict profile; the others as NumPy reads
    them (lists, NumPy index arrays, integer arrays with slices, fewer indices than
    dimensions, masks in tuples)."""
    try:
        return _indexing.backend_key(x, key, op)
    except IndexError:
        pass
    if isinstance(key, tuple):
        return tuple(_numpy_part(x, k, op) for k in key)
    return _numpy_part(x, key, op)


def _index_message(op: str, shape: tuple[int, ...], key: Any, exc: Exception) -> str:
    """The message of a backend IndexError for the index forms NumPy reads: NumPy's own
    reason (a float index array ...), or the strict profile's for an index out of bounds."""
    if "out of bounds" in str(exc):
        return _indexing._out_of_bounds(op, shape, key)
    return f"{op}: {exc}"


def _value(self: Array, value: Any) -> Any:
    """An assigned value as NumPy takes it: any dtype (NumPy casts), NumPy data and lists
    moved to the array's device."""
    if type(value) is Array:
        if value._device is not self._device:
            v.mismatch("__setitem__", self._device, value._device)
        return value._data
    if scalar_type(value) is not None:
        return value
    if isinstance(value, (list, tuple)) or _host.is_host_array(value):
        return transfer(_host.asarray_host(value), CPU, self._device)
    v.fail("__setitem__", f"cannot assign a {type(value).__name__}; use an xpgpu array or "
                          "a Python scalar")


# ---- the whole profile ----------------------------------------------------------------

def build() -> dict[tuple[Any, str], Any]:
    """(owner, name) -> the permissive object, for ``_profile`` to bind."""
    loose = Loose()
    functions = {row[0]: (_elementwise._unary if row[1] == 1 else _elementwise._binary)(
        row[0], row[2], row[3], loose=loose) for row in _elementwise.TABLE}
    out: dict[tuple[Any, str], Any] = {}
    namespace = sys.modules["xpgpu"]
    for name, f in functions.items():
        out[(namespace, name)] = f
    modules = {m: sys.modules[m] for m in ("xpgpu", "xpgpu.fft", "xpgpu.linalg")}
    keys = set(_LAYERS) | set(POSITIONAL)
    for key in sorted(keys):
        module = modules[key[0]]
        f = _original(module, key[1])
        if f is None:
            continue
        if key in POSITIONAL:
            f = _by_position(f, POSITIONAL[key])
        if key in _LAYERS:
            f = _LAYERS[key](f)
        out[(module, key[1])] = f
    matmul = out.get((namespace, "matmul"), namespace.matmul)
    for dunder, method in _operators.methods({**functions, "matmul": matmul}, loose).items():
        out[(Array, dunder)] = method
    out[(Array, "__getitem__")] = _indexing.getitem(backend_key, _index_message)
    out[(Array, "__setitem__")] = _indexing.setitem(backend_key, _value)
    out[(Array, "__array__")] = _numpy_protocol.__array__
    out[(Array, "__array_ufunc__")] = _numpy_protocol.array_ufunc(loose)
    out[(_dtypes, "spelled")] = np_rules.from_spelling
    return out


def _original(module: Any, name: str) -> Any:
    """The strict profile's object of a name (the revision may hide it for now)."""
    recorded = sys.modules["xpgpu._version"]._ORIGINAL.get((module.__name__, name))
    return recorded if recorded is not None else getattr(module, name, None)
