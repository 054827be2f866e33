"""Element-wise functions, as one table.

https://data-apis.org/array-api/2025.12/API_specification/elementwise_functions.html

Each row is (name, arity, input category, result rule). The factories turn a row into a
function that validates dtypes, devices and Python scalars against precomputed tables
and calls the backend's function of the same standard name. Special cases the backends
get wrong are fixed in the backend adapters, by the same name.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import chain
from typing import Any, NoReturn

from . import _validate as v
from ._array import Array, speedups, wrap, wrap_checked
from ._devices import CPU, Device
from ._dtypes import ALL, CATEGORIES, KINDS, PROMOTE, REAL_OF, DType, bool_, int64
from ._scalars import INT_BOUNDS as _BOUNDS
from ._scalars import SCALAR_RESULT, scalar_type

_SPEC = "https://data-apis.org/array-api/2025.12/API_specification/generated/array_api.{}.html"

# Result rules: the output dtype from the (promoted) input dtype.
_RESULT: dict[str, Callable[[DType], DType]] = {
    "same": lambda d: d,
    "bool": lambda d: bool_,
    "real": lambda d: REAL_OF.get(d, d),
}

# (name, arity, input category, result rule)
TABLE: tuple[tuple[str, int, str, str], ...] = (
    ("abs", 1, "numeric", "real"),
    ("acos", 1, "floating-point", "same"),
    ("acosh", 1, "floating-point", "same"),
    ("add", 2, "numeric", "same"),
    ("asin", 1, "floating-point", "same"),
    ("asinh", 1, "floating-point", "same"),
    ("atan", 1, "floating-point", "same"),
    ("atan2", 2, "real floating-point", "same"),
    ("atanh", 1, "floating-point", "same"),
    ("bitwise_and", 2, "integer or boolean", "same"),
    ("bitwise_left_shift", 2, "integer", "same"),
    ("bitwise_invert", 1, "integer or boolean", "same"),
    ("bitwise_or", 2, "integer or boolean", "same"),
    ("bitwise_right_shift", 2, "integer", "same"),
    ("bitwise_xor", 2, "integer or boolean", "same"),
    ("ceil", 1, "real numeric", "same"),
    ("conj", 1, "numeric", "same"),
    ("copysign", 2, "real floating-point", "same"),
    ("cos", 1, "floating-point", "same"),
    ("cosh", 1, "floating-point", "same"),
    ("divide", 2, "floating-point", "same"),
    ("equal", 2, "all", "bool"),
    ("exp", 1, "floating-point", "same"),
    ("expm1", 1, "floating-point", "same"),
    ("floor", 1, "real numeric", "same"),
    ("floor_divide", 2, "real numeric", "same"),
    ("greater", 2, "real numeric", "bool"),
    ("greater_equal", 2, "real numeric", "bool"),
    ("hypot", 2, "real floating-point", "same"),
    ("imag", 1, "complex floating-point", "real"),
    ("isfinite", 1, "numeric", "bool"),
    ("isinf", 1, "numeric", "bool"),
    ("isnan", 1, "numeric", "bool"),
    ("less", 2, "real numeric", "bool"),
    ("less_equal", 2, "real numeric", "bool"),
    ("log", 1, "floating-point", "same"),
    ("log1p", 1, "floating-point", "same"),
    ("log2", 1, "floating-point", "same"),
    ("log10", 1, "floating-point", "same"),
    ("logaddexp", 2, "real floating-point", "same"),
    ("logical_and", 2, "boolean", "same"),
    ("logical_not", 1, "boolean", "same"),
    ("logical_or", 2, "boolean", "same"),
    ("logical_xor", 2, "boolean", "same"),
    ("maximum", 2, "real numeric", "same"),
    ("minimum", 2, "real numeric", "same"),
    ("multiply", 2, "numeric", "same"),
    ("negative", 1, "numeric", "same"),
    ("nextafter", 2, "real floating-point", "same"),
    ("not_equal", 2, "all", "bool"),
    ("positive", 1, "numeric", "same"),
    ("pow", 2, "numeric", "same"),
    ("real", 1, "numeric", "real"),
    ("reciprocal", 1, "floating-point", "same"),
    ("remainder", 2, "real numeric", "same"),
    ("round", 1, "numeric", "same"),
    ("sign", 1, "numeric", "same"),
    ("signbit", 1, "real floating-point", "bool"),
    ("sin", 1, "floating-point", "same"),
    ("sinh", 1, "floating-point", "same"),
    ("square", 1, "numeric", "same"),
    ("sqrt", 1, "floating-point", "same"),
    ("subtract", 2, "numeric", "same"),
    ("tan", 1, "floating-point", "same"),
    ("tanh", 1, "floating-point", "same"),
    ("trunc", 1, "real numeric", "same"),
)

# Functions whose integer inputs come back unchanged (NumPy's floor(int8) is float16).
_INTEGER_PASSTHROUGH = frozenset({"ceil", "floor", "round", "trunc"})


# Note: the hot path reads no globals it can avoid: the CPU backend's function and array
# type are bound into each closure at import (NumPy's, with the adapter's fixes), so the
# common case is one identity test; other devices look their backend up by name.
_CPU_BACKEND = CPU.backend
_CPU_NDARRAY = _CPU_BACKEND.ndarray
# The CPU backend's error state for its calls: quiet, as CUDA's kernels are (the NumPy
# adapter says why); set and reset around each CPU call, for the calling context only.
_ERRSTATE = _CPU_BACKEND.adapter.ERRSTATE
_QUIET = _CPU_BACKEND.adapter.QUIET
_quiet = _ERRSTATE.set
_unquiet = _ERRSTATE.reset
_new = object.__new__
_INTEGRAL = KINDS["integral"]
# Python int bounds by dtype index: an integer dtype's range, unbounded for the others.
_INF = float("inf")
# Python ints outside these bounds take the slow path: out of range for an integer
# dtype (OverflowError), or beyond int64 for a floating one (converted by _plain).
_LO = tuple(_BOUNDS[d][0] if d in _BOUNDS else _BOUNDS[int64][0] for d in ALL)
_HI = tuple(_BOUNDS[d][1] if d in _BOUNDS else _BOUNDS[int64][1] for d in ALL)


# The compiled fast path of the binary functions (_speedups.c), where it was built and
# XPGPU_PURE_PYTHON is unset. It takes two arrays on one device with allowed dtypes, from
# the same tables, and hands every other call to the Python function, the definition.
_speedups: Any = speedups
if _speedups is not None:
    _speedups.setup(Array, vars(Array)["_data"], vars(Array)["_dtype"], vars(Array)["_device"],
                    vars(Array)["_ndim"], vars(DType)["_i"], vars(DType)["dtype"],
                    vars(Device)["backend"], CPU, wrap_checked, _ERRSTATE, _QUIET)


def _describe(func: Callable[..., Any], label: str, name: str, category: str) -> None:
    """Name and document an element-wise function (or operator: ``label``)."""
    func.__name__ = func.__qualname__ = label
    if label == name:
        func.__module__ = "xpgpu"
        func.__doc__ = (f"{name}: element-wise; inputs of {category} dtypes.\n\n"
                        f"See {_SPEC.format(name)}")
    else:  # the array's operator: help(xpgpu.Array) shows this, not a source comment
        func.__doc__ = (f"``{name}(self, other)`` as an operator. See "
                        f"{_SPEC.format('array.' + label)}")


def _compute(label: str, name: str, device: Device, a: Any, b: Any, out: DType,
             loose: bool = False) -> Array:
    """The backend call of a binary function, off the fast path; ``loose`` (the
    permissive profile's NumPy loops) casts a result of another standard dtype to ``out``."""
    backend = device.backend
    try:
        data = getattr(backend, name)(a, b)
    except ValueError as e:
        v.fail(label, str(e), ValueError)
    if loose:
        data = _as_out(data, backend, out)
    return wrap_checked(label, data, device, out)


def _as_out(data: Any, backend: Any, out: DType) -> Any:
    # Note: the permissive profile computes in NumPy's loop dtypes, where CuPy's type
    # resolution may pick another loop (a Python bool with an int8 array ...); its result
    # is cast to NumPy's result dtype, so both devices give NumPy's dtype.
    if type(data) is not backend.ndarray:
        data = backend.asarray(data)
    return data if data.dtype == out.dtype else data.astype(out.dtype)


def _unary(name: str, category: str, rule: str, loose: Any = None) -> Callable[[Array], Array]:
    """The function ``name``; with ``loose`` (``_permissive.Loose``), its permissive form:
    the dtypes the standard leaves undefined take NumPy's loop."""
    allowed = CATEGORIES[category]
    result = _RESULT[rule]
    out_of = tuple(result(d) if d in allowed else None for d in ALL)
    # Functions whose integer inputs come back unchanged skip the backend (a copy).
    copy_of = tuple(name in _INTEGER_PASSTHROUGH and d in _INTEGRAL for d in ALL)
    cpu_func = getattr(_CPU_BACKEND, name)

    def miss(x: Any) -> Array:  # the strict profile: not an array, or not allowed
        if type(x) is not Array:
            v.not_an_array(name, x)
        v.bad_dtype(name, x._dtype, allowed)

    if loose is not None:
        # Dtypes the standard leaves undefined: NumPy's loop, in its computing dtype, off
        # the fast path (which keeps the standard's table).
        slow = {d: loop for d, loop in loose.unary_loops(name).items() if out_of[d._i] is None}
        strict_miss = miss

        def miss(x: Any) -> Array:
            loop = slow.get(x._dtype) if type(x) is Array else None
            if loop is None:
                return strict_miss(x)
            backend = x._device.backend
            data = getattr(backend, name)(_as(x, loop[0]))
            return wrap_checked(name, _as_out(data, backend, loop[1]), x._device, loop[1])

    def func(x: Array, /) -> Array:
        if type(x) is not Array:
            return miss(x)
        i = x._dtype._i
        out = out_of[i]
        if out is None:
            return miss(x)
        device = x._device
        if copy_of[i]:
            return wrap(x._data.copy(), out, device)
        if device is CPU:
            token = _quiet(_QUIET)
            try:
                data = cpu_func(x._data)
            finally:
                _unquiet(token)
            if type(data) is not _CPU_NDARRAY or data.dtype is not out.dtype:
                return wrap_checked(name, data, device, out)
        else:
            backend = device.backend
            data = getattr(backend, name)(x._data)
            if type(data) is not backend.ndarray or data.dtype is not out.dtype:
                return wrap_checked(name, data, device, out)
        a = _new(Array)
        a._data = data
        a._dtype = out
        a._device = device
        return a

    _describe(func, name, name, category)
    if _speedups is None:
        return func
    # The compiled fast path (one argument): the same table, less the copies.
    table = tuple(None if c else o for o, c in zip(out_of, copy_of, strict=True))
    return _speedups.binary(func, table, len(ALL), cpu_func, name, name)


def _binary(name: str, category: str, rule: str, dunder: str | None = None,
            loose: Any = None) -> Callable[[Any, Any], Any]:
    """The function ``name``; with ``dunder``, the forward operator of that name instead,
    which returns NotImplemented for an operand that is neither an array nor a scalar.
    With ``loose`` (``_permissive.Loose``), the permissive form: NumPy's loop where the
    standard leaves the dtypes undefined, and NumPy arrays and scalars as operands."""
    allowed = CATEGORIES[category]
    result = _RESULT[rule]
    out_of = tuple(
        tuple(result(p) if a in allowed and b in allowed and (p := PROMOTE[a._i][b._i]) else None
              for b in ALL)
        for a in ALL
    )
    scalar_out = {key: result(d) for key, d in SCALAR_RESULT.items()
                  if key[0] in allowed and d in allowed}
    cpu_func = getattr(_CPU_BACKEND, name)
    label = dunder or name

    def arrays_miss(x1: Array, x2: Array) -> Any:  # the strict profile: a TypeError
        _fail_arrays(label, allowed, x1._dtype, x2._dtype)

    def scalar_miss(x: Array, s: Any, reflected: bool) -> Any:
        """An array with anything else than an array or a Python scalar of a fast-path
        type and range: a NumPy operand, a subclass, bounds, a refusal."""
        if scalar_type(s) is None and dunder is not None:
            if _is_host(s):  # NumPy's own operators would not give it back
                _host_operand(label, s, x)
            return NotImplemented
        out = _with_scalar(label, allowed, scalar_out, x._dtype, s)
        s = v.plain_scalar(label, s, x._dtype)
        return _compute(label, name, x._device, s if reflected else x._data,
                        x._data if reflected else s, out)

    if loose is not None:
        pairs = {k: loop for k, loop in loose.binary_loops(name).items()
                 if out_of[k[0]._i][k[1]._i] is None}
        scalars = {k: loop for k, loop in loose.scalar_loops(name).items()
                   if k not in scalar_out}
        # The fast path keeps the standard's tables: what it leaves undefined takes
        # NumPy's loop below, in its computing dtypes.
        strict_arrays, strict_scalar = arrays_miss, scalar_miss

        def arrays_miss(x1: Array, x2: Array) -> Any:
            loop = pairs.get((x1._dtype, x2._dtype))
            if loop is None:
                return strict_arrays(x1, x2)
            return _compute(label, name, x1._device, _as(x1, loop[0]), _as(x2, loop[1]),
                            loop[2], True)

        def scalar_miss(x: Array, s: Any, reflected: bool) -> Any:
            t = scalar_type(s)
            if t is None and _is_host(s):
                s = loose.operand(label, s, x._device)
                return func(s, x) if reflected else func(x, s)
            loop = scalars.get((x._dtype, t))  # type: ignore[arg-type]
            if loop is None:  # defined by the standard, or refused by NumPy too
                return strict_scalar(x, s, reflected)
            s = v.plain_scalar(label, s, loop[0])
            if t is int and loop[0] in _INTEGRAL:
                v.scalar_result(label, loop[0], s)  # an OverflowError out of its bounds
            a = _as(x, loop[0])
            return _compute(label, name, x._device, s if reflected else a,
                            a if reflected else s, loop[1], True)

    # The scalar results by dtype index, then by exact Python scalar type: no DType
    # hashing per call.
    by_type = tuple({t: out for (d, t), out in scalar_out.items() if d is a} for a in ALL)

    def func(x1: Any, x2: Any, /) -> Any:
        if type(x1) is Array:
            device = x1._device
            if type(x2) is Array:
                if x2._device is not device:
                    v.mismatch(label, device, x2._device)
                out = out_of[x1._dtype._i][x2._dtype._i]
                if out is None:
                    return arrays_miss(x1, x2)
                b = x2._data
            else:
                i = x1._dtype._i
                t = type(x2)
                out = by_type[i].get(t)
                if out is None or (t is int and not _LO[i] <= x2 <= _HI[i]):
                    return scalar_miss(x1, x2, False)
                b = x2
            a = x1._data
        elif type(x2) is Array:
            device = x2._device
            i = x2._dtype._i
            t = type(x1)
            out = by_type[i].get(t)
            if out is None or (t is int and not _LO[i] <= x1 <= _HI[i]):
                return scalar_miss(x2, x1, True)
            a = x1
            b = x2._data
        else:
            _no_array(label, x1, x2)
        if device is CPU:
            token = _quiet(_QUIET)
            try:  # free in Python 3.11 unless raised: shapes that do not broadcast
                data = cpu_func(a, b)
            except ValueError:
                _no_broadcast(label, a, b)
            finally:
                _unquiet(token)
            if type(data) is not _CPU_NDARRAY or data.dtype is not out.dtype:
                return wrap_checked(label, data, device, out)
        else:
            backend = device.backend
            try:
                data = getattr(backend, name)(a, b)
            except ValueError:
                _no_broadcast(label, a, b)
            if type(data) is not backend.ndarray or data.dtype is not out.dtype:
                return wrap_checked(label, data, device, out)
        a = _new(Array)
        a._data = data
        a._dtype = out
        a._device = device
        return a

    _describe(func, label, name, category)
    if _speedups is None:
        return func
    return _speedups.binary(func, tuple(chain.from_iterable(out_of)), len(ALL), cpu_func,
                            name, label, by_type, _LO, _HI)


def _as(x: Array, dtype: DType) -> Any:
    """The backend data of ``x`` in ``dtype`` (a copy where the dtype differs)."""
    return x._data if x._dtype is dtype else x._data.astype(dtype.dtype)


def _is_host(obj: object) -> bool:
    """Whether ``obj`` is a NumPy array or a NumPy scalar (other than a Python scalar)."""
    return _CPU_BACKEND.adapter.is_host_array(obj)  # type: ignore[no-any-return]


def _host_operand(name: str, obj: Any, x: Array | None = None) -> NoReturn:
    """The strict profile's refusal of a NumPy array or scalar as an operand."""
    what = "array" if hasattr(obj, "ndim") and obj.ndim else "scalar"
    v.fail(name, f"a NumPy {what} of type {type(obj).__name__} cannot be an operand of an "
                 f"xpgpu array; convert it with xpgpu.asarray(obj, device=x.device), or "
                 "select the permissive profile (xpgpu.set_strict(False)), which does")


def _fail_arrays(name: str, allowed: frozenset[DType], a: DType, b: DType) -> NoReturn:
    if a not in allowed:
        v.bad_dtype(name, a, allowed, "x1")
    if b not in allowed:
        v.bad_dtype(name, b, allowed, "x2")
    v.no_promotion(name, a, b)


def _with_scalar(name: str, allowed: frozenset[DType], scalar_out: dict[tuple[DType, type], DType],
                 dtype: DType, value: object) -> DType:
    """The slow path of an array with a Python scalar: bounds, subclasses, errors."""
    if dtype not in allowed:
        v.bad_dtype(name, dtype, allowed)
    promoted = v.scalar_result(name, dtype, value)  # raises for kinds and bounds
    out = scalar_out.get((dtype, scalar_type(value)))  # type: ignore[arg-type]
    if out is None:
        v.bad_dtype(name, promoted, allowed, "the promoted operand")
    return out


def _no_broadcast(name: str, a: Any, b: Any) -> NoReturn:
    s1, s2 = getattr(a, "shape", ()), getattr(b, "shape", ())
    v.fail(name, f"shapes {s1} and {s2} cannot be broadcast together (trailing axes must be "
                 "equal or 1); use reshape(), expand_dims() or a[..., None] to line them up",
           ValueError)


def _no_array(name: str, x1: object, x2: object) -> NoReturn:
    for x in (x1, x2):
        if scalar_type(x) is None:
            v.not_an_array(name, x, "x1" if x is x1 else "x2")
    v.fail(name, "at least one argument must be an xpgpu array, got two Python scalars; use "
                 "xpgpu.asarray() for one of them")


def operator(dunder: str, name: str, loose: Any = None) -> Callable[[Any, Any], Any]:
    """The forward binary operator ``dunder`` (``__add__``) of the function ``name``: the
    function's own fast path, NotImplemented for operands it does not know."""
    row = next(r for r in TABLE if r[0] == name)
    return _binary(name, row[2], row[3], dunder, loose)


def _make(row: tuple[str, int, str, str]) -> Callable[..., Array]:
    name, arity, category, rule = row
    return (_unary if arity == 1 else _binary)(name, category, rule)


FUNCTIONS: dict[str, Callable[..., Array]] = {row[0]: _make(row) for row in TABLE}
CATEGORY_OF = {row[0]: row[2] for row in TABLE}

# The namespace's names, bound explicitly.
abs = FUNCTIONS["abs"]
acos = FUNCTIONS["acos"]
acosh = FUNCTIONS["acosh"]
add = FUNCTIONS["add"]
asin = FUNCTIONS["asin"]
asinh = FUNCTIONS["asinh"]
atan = FUNCTIONS["atan"]
atan2 = FUNCTIONS["atan2"]
atanh = FUNCTIONS["atanh"]
bitwise_and = FUNCTIONS["bitwise_and"]
bitwise_left_shift = FUNCTIONS["bitwise_left_shift"]
bitwise_invert = FUNCTIONS["bitwise_invert"]
bitwise_or = FUNCTIONS["bitwise_or"]
bitwise_right_shift = FUNCTIONS["bitwise_right_shift"]
bitwise_xor = FUNCTIONS["bitwise_xor"]
ceil = FUNCTIONS["ceil"]
conj = FUNCTIONS["conj"]
copysign = FUNCTIONS["copysign"]
cos = FUNCTIONS["cos"]
cosh = FUNCTIONS["cosh"]
divide = FUNCTIONS["divide"]
equal = FUNCTIONS["equal"]
exp = FUNCTIONS["exp"]
expm1 = FUNCTIONS["expm1"]
floor = FUNCTIONS["floor"]
floor_divide = FUNCTIONS["floor_divide"]
greater = FUNCTIONS["greater"]
greater_equal = FUNCTIONS["greater_equal"]
hypot = FUNCTIONS["hypot"]
imag = FUNCTIONS["imag"]
isfinite = FUNCTIONS["isfinite"]
isinf = FUNCTIONS["isinf"]
isnan = FUNCTIONS["isnan"]
less = FUNCTIONS["less"]
less_equal = FUNCTIONS["less_equal"]
log = FUNCTIONS["log"]
log1p = FUNCTIONS["log1p"]
log2 = FUNCTIONS["log2"]
log10 = FUNCTIONS["log10"]
logaddexp = FUNCTIONS["logaddexp"]
logical_and = FUNCTIONS["logical_and"]
logical_not = FUNCTIONS["logical_not"]
logical_or = FUNCTIONS["logical_or"]
logical_xor = FUNCTIONS["logical_xor"]
maximum = FUNCTIONS["maximum"]
minimum = FUNCTIONS["minimum"]
multiply = FUNCTIONS["multiply"]
negative = FUNCTIONS["negative"]
nextafter = FUNCTIONS["nextafter"]
not_equal = FUNCTIONS["not_equal"]
positive = FUNCTIONS["positive"]
pow = FUNCTIONS["pow"]
real = FUNCTIONS["real"]
reciprocal = FUNCTIONS["reciprocal"]
remainder = FUNCTIONS["remainder"]
round = FUNCTIONS["round"]
sign = FUNCTIONS["sign"]
signbit = FUNCTIONS["signbit"]
sin = FUNCTIONS["sin"]
sinh = FUNCTIONS["sinh"]
square = FUNCTIONS["square"]
sqrt = FUNCTIONS["sqrt"]
subtract = FUNCTIONS["subtract"]
tan = FUNCTIONS["tan"]
tanh = FUNCTIONS["tanh"]
trunc = FUNCTIONS["trunc"]


_REAL_NUMERIC = CATEGORIES["real numeric"]
_REAL_FLOATING_I = tuple(d in CATEGORIES["real floating-point"] for d in ALL)


def clip(x: Array, /, min: Any = None, max: Any = None) -> Array:
    """Clamp to [min, max]. See https://data-apis.org/array-api/2025.12/API_specification/generated/array_api.clip.html"""
    # Fast path: a real floating array with Python float (or no) bounds.
    if (type(x) is Array and _REAL_FLOATING_I[x._dtype._i]
            and (min is None or type(min) is float) and (max is None or type(max) is float)):
        device = x._device
        data = device.backend.clip(x._data, min, max)
        if type(data) is device.backend.ndarray and data.dtype is x._dtype.dtype:
            b = _new(Array)
            b._data = data
            b._dtype = x._dtype
            b._device = device
            return b
        return wrap_checked("clip", data, device, x._dtype)
    if type(x) is not Array:
        v.not_an_array("clip", x)
    if x._dtype not in _REAL_NUMERIC:
        v.bad_dtype("clip", x._dtype, _REAL_NUMERIC)
    bounds: list[Any] = []
    for name, bound in (("min", min), ("max", max)):
        if bound is None:
            bounds.append(None)
        elif type(bound) is Array:
            if bound._device is not x._device:
                v.mismatch("clip", x._device, bound._device)
            if bound._dtype is not x._dtype:
                v.fail("clip", f"{name} has dtype {bound._dtype.name}, but the standard defines "
                               f"clip only for bounds of x's dtype {x._dtype.name}; use "
                               f"astype({name}, xpgpu.{x._dtype.name})")
            bounds.append(bound._data)
        else:
            if v.scalar_result("clip", x._dtype, bound) is not x._dtype:
                v.fail("clip", f"a Python {type(bound).__name__} {name} cannot bound an array "
                               f"of dtype {x._dtype.name}; use a bound of the array's kind")
            bounds.append(v.plain_scalar("clip", bound, x._dtype))
    data = x._device.backend.clip(x._data, bounds[0], bounds[1])
    return wrap_checked("clip", data, x._device, x._dtype)
