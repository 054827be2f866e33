"""The one place that judges arguments and raises the standard's errors.

Checks are cheap on success; messages, which always start with the function's name,
are built only on failure. Error types: ``TypeError`` for types and dtypes,
``DeviceMismatchError`` (a ``ValueError``) for devices, ``ValueError`` for values,
``IndexError`` for indices, ``OverflowError`` for out-of-range Python ints.
"""

from __future__ import annotations

import math
import operator
from typing import Any, NoReturn

from . import _devices
from ._backend._memory import DeviceMemoryError  # noqa: F401  (raised by the CUDA backend)
from ._backend._numpy import dtype as _host_dtype
from ._devices import Device
from ._dtypes import ALL, BY_NAME, CATEGORIES, COMPLEX_OF, KINDS, DType, as_dtype
from ._scalars import CAST_TO, INT_BOUNDS, SCALAR_RESULT, scalar_type


class DeviceMismatchError(ValueError):
    """Arrays (or an array and a ``device=`` argument) on different devices."""


class CopyRequiredError(BufferError, ValueError):
    """copy=False where a copy is needed (from_dlpack): the standard names both errors."""


class NoDLPackError(AttributeError, TypeError):
    """from_dlpack of an object without DLPack methods: the standard names AttributeError,
    and a TypeError is what a wrong argument type raises everywhere else."""


class AxisError(ValueError, IndexError):
    """An axis out of bounds: both a ValueError and an IndexError, as NumPy's."""


def fail(func: str, message: str, error: type[Exception] = TypeError) -> NoReturn:
    raise error(f"{func}: {message}")


def _category_name(dtypes: frozenset[DType]) -> str:
    for name, members in CATEGORIES.items():
        if members == dtypes:
            return name
    return "/".join(sorted(d.name for d in dtypes))


# ---- arrays ---------------------------------------------------------------------------

# The fix named where the permissive profile lifts a refusal.
PERMISSIVE = "or xpgpu.set_strict(False) for NumPy's behaviour"


def type_name(x: object) -> str:
    """``numpy.ndarray``, ``cupy.ndarray``, ``list``; ``the type numpy.float32`` for a class."""
    t = x if isinstance(x, type) else type(x)
    module = t.__module__.partition(".")[0]
    name = t.__name__ if module == "builtins" else f"{module}.{t.__name__}"
    return f"the type {name}" if isinstance(x, type) else name


def not_an_array(func: str, x: object, name: str = "x") -> NoReturn:
    if isinstance(x, type):
        dtype = _dtype_of_type(x)
        hint = (f"for a dtype use xpgpu.{dtype.name}; for data use xpgpu.asarray()"
                if dtype is not None else f"use xpgpu.asarray({name}) to make an array")
    elif hasattr(x, "__dlpack__") or hasattr(x, "__array__"):
        hint = f"use xpgpu.asarray({name}) first (it copies host data to the device)"
    else:
        hint = f"use xpgpu.asarray({name}) to make an array"
    fail(func, f"{name} must be an xpgpu array, not {type_name(x)}; {hint}")


def _dtype_of_type(t: type) -> DType | None:
    """The standard dtype a Python or NumPy scalar type names (float32 for numpy.float32)."""
    try:
        return as_dtype(_host_dtype(t))
    except TypeError:
        return None


# Input dtype kinds, most general first: the dtype a refusal suggests casting to.
_SUGGEST = ("float64", "complex128", "int64", "bool")
# Functions with a better fix than a cast, by the kind of input they refuse.
_DTYPE_FIX = {
    **{f: f"use {f.replace('fft', 'rfft', 1) if f.startswith('fft') else 'r' + f}() for real "
          "input, or astype(x, xpgpu.complex128) first" for f in ("fft", "fftn")},
    **{f: "use astype(x, xpgpu.complex128) first" for f in ("ifft", "ifftn", "irfft", "irfftn",
                                                           "hfft")},
}
_TRUE_DIVIDE = frozenset({"divide", "__truediv__", "__rtruediv__", "__itruediv__"})


def bad_dtype(func: str, dtype: DType, category: frozenset[DType], name: str = "x") -> NoReturn:
    allowed = _category_name(category)
    if name == "dtype":  # a dtype= argument
        first = next(d for d in ALL if d in category)
        fail(func, f"dtype must be a {allowed} dtype, not {dtype.name}; use "
                   f"xpgpu.{first.name} or another {allowed} dtype")
    fix = _DTYPE_FIX.get(func) if dtype in KINDS["real floating"] else None
    if fix is None:
        to = _suggest(dtype, category)
        if to is None:
            fix = "use real(x), imag(x) or abs(x) first" if dtype in KINDS["complex floating"] \
                else f"use astype({name}, ...) to one of them first"
        else:
            fix = f"use astype({name}, xpgpu.{to.name}) first"
        if func in _TRUE_DIVIDE and dtype not in KINDS["complex floating"]:
            fix += f" (or floor_divide() for integers), {PERMISSIVE}"
    fail(func, f"{name} has dtype {dtype.name}, but only {allowed} dtypes are allowed; {fix}")


def _suggest(dtype: DType, category: frozenset[DType]) -> DType | None:
    """A dtype of ``category`` that holds ``dtype``'s values: the same precision's complex
    for a real floating dtype, else the default of the most general kind allowed."""
    if dtype in COMPLEX_OF and COMPLEX_OF[dtype] in category:
        return COMPLEX_OF[dtype]
    if dtype in KINDS["complex floating"]:
        return None
    for name in _SUGGEST:
        if BY_NAME[name] in category:
            return BY_NAME[name]
    return None


def no_promotion(func: str, a: DType, b: DType) -> NoReturn:
    fail(func, f"{a.name} and {b.name} cannot be promoted together by the standard's "
               f"type promotion rules; use astype() to give both one dtype, {PERMISSIVE}")


def mismatch(func: str, a: Device, b: Device) -> NoReturn:
    fail(func, f"arrays are on different devices, {a} and {b}; use to_device() to move one "
               f"first, such as y = y.to_device(x.device)",
         DeviceMismatchError)


def common_device(func: str, devices: list[Device]) -> Device:
    first = devices[0]
    for d in devices:
        if d is not first:
            mismatch(func, first, d)
    return first


# ---- Python scalars -------------------------------------------------------------------

def scalar_result(func: str, dtype: DType, value: object) -> DType:
    """The dtype of an array of ``dtype`` combined with the Python scalar ``value``."""
    t = scalar_type(value)
    if t is None:
        fail(func, f"expected an xpgpu array or a Python scalar, got {type_name(value)}; use "
                   "xpgpu.asarray(value), or float(value) / int(value) for a NumPy scalar")
    result = SCALAR_RESULT.get((dtype, t))
    if result is None:
        fail(func, f"a Python {t.__name__} cannot be combined with an array of dtype "
                   f"{dtype.name} (the standard leaves this undefined); "
                   + _scalar_fix(dtype, t))
    if t is int and dtype in INT_BOUNDS:
        lo, hi = INT_BOUNDS[dtype]
        if not lo <= value <= hi:  # type: ignore[operator]
            fail(func, f"Python int {value} is out of range for dtype {dtype.name} "
                       f"[{lo}, {hi}]; use astype() to a wider dtype first", OverflowError)
    return result


def cast_scalar(func: str, value: object, dtype: DType, name: str = "fill_value") -> object:
    """A Python scalar stored as ``dtype`` where a dtype is given (``full``, ``asarray``):
    converted as the standard's ``astype`` casts (bool to 0/1, a float truncated towards
    zero), as a scalar of the dtype; the standard's error where the cast is not permitted
    (complex to real) or the value does not fit (every backend then differs)."""
    t = scalar_type(value)
    if t is None:
        fail(func, f"{name} must be a Python bool, int, float or complex, not "
                   f"{type_name(value)}; use float(value), int(value) or complex(value)")
    if dtype not in CAST_TO[t]:
        fail(func, f"a Python complex {name} cannot be stored as {dtype.name}: casting "
                   "complex to real discards the imaginary part, which the standard does not "
                   "permit; use value.real or a complex dtype")
    bounds = INT_BOUNDS.get(dtype)
    if bounds is not None:
        if t is float:
            if not math.isfinite(value):  # type: ignore[arg-type]
                fail(func, f"{name} {value} has no value in {dtype.name}; use a finite "
                           "value", ValueError)
            value = math.trunc(value)  # type: ignore[arg-type]
        if not bounds[0] <= value <= bounds[1]:  # type: ignore[operator]
            fail(func, f"{name} {value} is out of range for dtype {dtype.name} "
                       f"[{bounds[0]}, {bounds[1]}]; use a wider dtype", OverflowError)
        value = int(value)  # type: ignore[call-overload]
    try:
        return dtype.dtype.type(value)
    except OverflowError:  # an int beyond the floating range
        fail(func, f"{name} {value} is out of range for dtype {dtype.name}", OverflowError)


def plain_scalar(func: str, value: Any, dtype: DType) -> Any:
    """A validated Python scalar, to be combined with an array of ``dtype``, as the plain
    Python type the backends take: NumPy's float64 (a float subclass) as float, which the
    backends then treat as weak (NEP 50), not as a float64 array; with a floating array, an
    int beyond int64 as a float."""
    t = scalar_type(value)
    value = t(value)  # type: ignore[misc]
    if t is int and dtype not in KINDS["integral"] and not -(1 << 63) <= value < (1 << 63):
        # Note: CuPy converts a Python int to a C long first ("Python int too large to
        # convert to C long"); NumPy converts it to the array's dtype, as float does here.
        try:
            return float(value)
        except OverflowError:
            fail(func, f"Python int {value} is out of range for dtype {dtype.name}; use a "
                       "float", OverflowError)
    return value


_PY_KIND = {bool: ("bool", "bool"), int: ("integral", "int64"),
            float: ("real floating", "float64"), complex: ("complex floating", "complex128")}
_KIND_ORDER = ("bool", "integral", "real floating", "complex floating")


def _scalar_fix(dtype: DType, t: type) -> str:
    """The fix for a Python scalar of another kind than the array: cast the array up to the
    scalar's kind, or spell the scalar in the array's kind."""
    kind, default = _PY_KIND[t]
    mine = next(k for k in _KIND_ORDER if dtype in KINDS[k]) if dtype is not BY_NAME["bool"] \
        else "bool"
    if _KIND_ORDER.index(kind) > _KIND_ORDER.index(mine):
        return f"use astype(x, xpgpu.{default}) first, {PERMISSIVE}"
    spelled = {"bool": "bool(value)", "integral": "int(value)", "real floating": "float(value)",
               "complex floating": "complex(value)"}[mine]
    return f"use a scalar of the array's kind ({spelled}), {PERMISSIVE}"


# ---- dtype and device arguments -------------------------------------------------------

def dtype_arg(func: str, dtype: object) -> DType:
    """A ``dtype=`` argument: an xpgpu dtype or a NumPy dtype instance of a standard dtype."""
    result = as_dtype(dtype)
    if result is None:
        bad_dtype_arg(func, dtype, "dtype")
    return result


def bad_dtype_arg(func: str, dtype: object, name: str) -> NoReturn:
    named = BY_NAME.get(dtype) if isinstance(dtype, str) else \
        _dtype_of_type(dtype) if isinstance(dtype, type) else None
    if named is not None:
        fix = f"use xpgpu.{named.name}, {PERMISSIVE}"
    else:
        fix = "use one of the standard's dtypes, such as xpgpu.float32"
    fail(func, f"{name} must be an xpgpu dtype, not {dtype!r}; {fix}")


def dtype_or_none(func: str, dtype: object) -> DType | None:
    return None if dtype is None else dtype_arg(func, dtype)


def device_arg(func: str, device: object) -> Device:
    """A ``device=`` argument: a Device, or its name (``"cpu"``, ``"cuda:0"``)."""
    if type(device) is Device:
        return device  # type: ignore[return-value]
    if isinstance(device, str):
        found = _devices.lookup(device)
        if found is not None:
            return found
        fail(func, f"no device {device!r} here; use one of "
                   f"{', '.join(map(repr, map(str, _devices.all_devices())))}", ValueError)
    fail(func, f"device must be an xpgpu Device, not {device!r}; use x.device or a name "
               "such as 'cpu' or 'cuda:0'")


def device_or_default(func: str, device: object) -> Device:
    return _devices.default_device() if device is None else device_arg(func, device)


def kind_arg(func: str, kind: object) -> frozenset[DType]:
    """A dtype kind for ``isdtype`` and ``dtypes(kind=)``: a dtype, a kind name, or a tuple."""
    if isinstance(kind, str):
        found = KINDS.get(kind)
        if found is None:
            fail(func, f"unknown dtype kind {kind!r}; use one of "
                       f"{', '.join(map(repr, KINDS))}", ValueError)
        return found
    if isinstance(kind, tuple):
        result: frozenset[DType] = frozenset()
        for k in kind:
            if isinstance(k, tuple):
                fail(func, "a kind tuple cannot nest tuples; use one flat tuple")
            result |= kind_arg(func, k)
        return result
    dtype = as_dtype(kind)
    if dtype is None:
        fail(func, f"kind must be a dtype, a kind name or a tuple of them, not {kind!r}; use "
                   "a name such as 'real floating' or a dtype such as xpgpu.float32")
    return frozenset({dtype})


# ---- integers and axes ----------------------------------------------------------------

_REAL_FLOAT = KINDS["real floating"]
_COMPLEX = KINDS["complex floating"]
_INTEGRAL = KINDS["integral"]

# The backend's largest size (intp is 64-bit on every supported platform): an array of more
# bytes never reaches the backend, whose errors name no function (see size_check).
INTP_MAX = 2**63 - 1


def int_arg(func: str, value: object, name: str) -> int:
    """An int argument (a Python int, or an object with ``__index__``), of any size."""
    if type(value) is int:
        return value  # type: ignore[return-value]
    if isinstance(value, bool) or not hasattr(value, "__index__"):
        fail(func, f"{name} must be an int, not {type_name(value)}; use "
                   + ("a Python int" if isinstance(value, bool) or not hasattr(value, "__int__")
                      else f"int({name}) if it holds a whole number"))
    try:
        return operator.index(value)  # type: ignore[arg-type]
    except (TypeError, ValueError, OverflowError) as exc:
        text = str(exc)  # xpgpu's own reason (a 0-d array's __index__), not a backend's
        reason = f" ({text.removeprefix('__index__: ')})" if text.startswith("__index__:") else ""
        fail(func, f"{name} must be an int, not {type_name(value)}{reason}; use a Python int",
             type(exc))


def axis_arg(func: str, axis: object, ndim: int, name: str = "axis") -> int:
    """A single axis in [-ndim, ndim), normalised to [0, ndim)."""
    a = int_arg(func, axis, name)
    if not -ndim <= a < ndim:
        fail(func, f"{name} {a} is out of bounds for an array of {ndim} dimension(s); use an "
                   f"axis in [{-ndim}, {ndim})" if ndim else f"{name} {a} is out of bounds for a "
                   "0-d array, which has no axes; use axis=None or reshape x first", AxisError)
    return a % ndim if ndim else 0


def axis_or_only(func: str, axis: object, ndim: int) -> int:
    """An axis that may be None only where there is one (a 1-D array: axis 0)."""
    if ndim == 0:
        fail(func, "x must have at least one dimension; use reshape(x, (1,)) first",
             ValueError)
    if axis is None:
        if ndim > 1:
            fail(func, f"axis is required for an array of {ndim} dimensions; use axis=..., or "
                       "reshape(x, (-1,)) to work on all elements", ValueError)
        return 0
    return axis_arg(func, axis, ndim)


def axes_arg(func: str, axis: object, ndim: int, name: str = "axis",
             sequences: tuple[type, ...] = (tuple,)) -> tuple[int, ...]:
    """None (all axes), an int or a tuple of distinct ints, normalised and sorted
    (``sequences=SEQUENCES``: a list too, where every backend takes one)."""
    if axis is None:
        return tuple(range(ndim))
    if isinstance(axis, sequences):
        axes = tuple(axis_arg(func, a, ndim, name) for a in axis)  # type: ignore[attr-defined]
        if len(set(axes)) != len(axes):
            fail(func, f"repeated axis in {name}={axis!r}; use each axis once", ValueError)
        return tuple(sorted(axes))
    return (axis_arg(func, axis, ndim, name),)


def shape_arg(func: str, shape: object, itemsize: int = 1) -> tuple[int, ...]:
    """A shape: an int or a tuple of non-negative ints, of at most INTP_MAX bytes in all."""
    if type(shape) is int and 0 <= shape <= INTP_MAX // itemsize:  # fast path: one dim
        return (shape,)
    if isinstance(shape, (tuple, list)):
        dims = tuple(int_arg(func, s, "shape") for s in shape)
    else:
        dims = (int_arg(func, shape, "shape"),)
    for s in dims:
        if s < 0:
            fail(func, f"negative dimension {s} in shape {dims}; use sizes >= 0", ValueError)
    size_check(func, dims, itemsize)
    return dims


def size_check(func: str, dims: tuple[int, ...], itemsize: int = 1) -> None:
    """Refuse a result of more than INTP_MAX bytes (zero dims count as one, as NumPy's)."""
    total = itemsize
    for s in dims:
        if s > 1:
            total *= s
    if total > INTP_MAX:
        each = f" with {itemsize}-byte elements" if itemsize > 1 else ""
        fail(func, f"an array of shape {dims}{each} is too big (more than {INTP_MAX} bytes); "
                   "use smaller arrays or chunks",
             ValueError)


def bool_arg(func: str, value: object, name: str) -> bool:
    """A flag argument (``keepdims``, ``descending`` ...): a Python bool."""
    if value is not True and value is not False:
        bad_bool(func, value, name)
    return value  # type: ignore[return-value]


def bad_bool(func: str, value: object, name: str, none: bool = False) -> NoReturn:
    # Note: array-api-strict takes ints and NumPy bools here; PyTorch refuses ints and
    # NumPy's reductions refuse numpy.bool_ (calibration: docs/deviations.md).
    fail(func, f"{name} must be {'True, False or None' if none else 'True or False'}, not "
               f"{type(value).__name__} {value!r}; use bool({name})")


# The sequences taken where the standard says tuple and every backend (NumPy, CuPy,
# PyTorch) also takes a list: shapes, permutations, the axes of flip/expand_dims/moveaxis.
SEQUENCES = (tuple, list)


def int_tuple_arg(func: str, value: object, name: str = "shape") -> tuple[int, ...]:
    """A tuple of ints (a shape, a permutation, repetitions): a tuple or a list, as every
    backend takes, of ints or objects with ``__index__``."""
    if type(value) is not tuple and not isinstance(value, SEQUENCES):
        fail(func, f"{name} must be a tuple of ints, not {type_name(value)}; use a tuple, "
                   f"such as ({name},) for one dimension")
    return tuple(int_arg(func, s, name) for s in value)  # type: ignore[attr-defined]


def number_arg(func: str, value: object, name: str) -> int | float | complex:
    """A number argument (``linspace``'s start and stop): as real_arg, or a complex."""
    if scalar_type(value) is complex or as_dtype(getattr(value, "dtype", None)) in _COMPLEX:
        if getattr(value, "ndim", 0) == 0 and not isinstance(value, DType):
            return complex(value)  # type: ignore[call-overload]
    return real_arg(func, value, name)


def real_arg(func: str, value: object, name: str) -> int | float:
    """A real number argument (``start``, ``d``, ``rtol``, ``correction`` ...): a Python int
    or float, a NumPy integer or floating scalar or a 0-d array of such a dtype (as int or
    float, as array-api-strict and every backend take them); not a bool."""
    t = type(value)
    if t is int or t is float:
        return value  # type: ignore[return-value]
    if not isinstance(value, (bool, DType)) and getattr(value, "ndim", 0) == 0:
        dtype = as_dtype(getattr(value, "dtype", None))
        if isinstance(value, float) or dtype in _REAL_FLOAT:
            return float(value)  # type: ignore[arg-type]
        if isinstance(value, int) or dtype in _INTEGRAL:
            return operator.index(value)  # type: ignore[arg-type]
    fail(func, f"{name} must be a Python int or float, not {type_name(value)}; use "
         + (f"float({name})" if hasattr(value, "__float__") and not isinstance(value, bool)
            else "a Python int or float"))



def axis_tuple_arg(func: str, axis: object, ndim: int, name: str = "axis",
                   unique: bool = True, sequences: tuple[type, ...] = (tuple,)
                   ) -> tuple[int, ...]:
    """An int or a tuple of ints, each normalised to [0, ndim), in the given order
    (``sequences=SEQUENCES``: a list too, where every backend takes one)."""
    if not isinstance(axis, sequences):
        return (axis_arg(func, axis, ndim, name),)
    axes = tuple(axis_arg(func, a, ndim, name) for a in axis)  # type: ignore[attr-defined]
    if unique and len(set(axes)) != len(axes):
        fail(func, f"repeated axis in {name}={axis!r}; use each axis once", ValueError)
    return axes
