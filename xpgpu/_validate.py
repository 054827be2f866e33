"""The one place that judges arguments and raises the standard's errors.

Checks are cheap on success; messages, which always start with the function's name,
are built only on failure. Error types: ``TypeError`` for types and dtypes,
``DeviceMismatchError`` (a ``ValueError``) for devices, ``ValueError`` for values,
``IndexError`` for indices, ``OverflowError`` for out-of-range Python ints.
"""

from __future__ import annotations

import math
import operator
from typing import NoReturn

from . import _devices
from ._devices import Device
from ._dtypes import CATEGORIES, KINDS, DType, as_dtype
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

def not_an_array(func: str, x: object, name: str = "x") -> NoReturn:
    hint = hasattr(x, "__array__") or isinstance(x, (list, tuple))
    fail(func, f"{name} must be an xpgpu array, not {type(x).__name__}"
         + (" (use xpgpu.asarray() first)" if hint else ""))


def bad_dtype(func: str, dtype: DType, category: frozenset[DType], name: str = "x") -> NoReturn:
    fail(func, f"{name} has dtype {dtype.name}, but only {_category_name(category)} dtypes "
               "are allowed")


def no_promotion(func: str, a: DType, b: DType) -> NoReturn:
    fail(func, f"{a.name} and {b.name} cannot be promoted together by the standard's "
               "type promotion rules (use astype() to choose a dtype)")


def mismatch(func: str, a: Device, b: Device) -> NoReturn:
    fail(func, f"arrays are on different devices, {a} and {b}; move one with to_device()",
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
        fail(func, f"expected an xpgpu array or a Python scalar, got {type(value).__name__}")
    result = SCALAR_RESULT.get((dtype, t))
    if result is None:
        fail(func, f"a Python {t.__name__} cannot be combined with an array of dtype "
                   f"{dtype.name} (the standard leaves this undefined)")
    if t is int and dtype in INT_BOUNDS:
        lo, hi = INT_BOUNDS[dtype]
        if not lo <= value <= hi:  # type: ignore[operator]
            fail(func, f"Python int {value} is out of range for dtype {dtype.name} "
                       f"[{lo}, {hi}]", OverflowError)
    return result


def cast_scalar(func: str, value: object, dtype: DType, name: str = "fill_value") -> object:
    """A Python scalar stored as ``dtype`` where a dtype is given (``full``, ``asarray``):
    converted as the standard's ``astype`` casts (bool to 0/1, a float truncated towards
    zero), as a scalar of the dtype; the standard's error where the cast is not permitted
    (complex to real) or the value does not fit (every backend then differs)."""
    t = scalar_type(value)
    if t is None:
        fail(func, f"{name} must be a Python bool, int, float or complex, not "
                   f"{type(value).__name__}")
    if dtype not in CAST_TO[t]:
        fail(func, f"a Python complex {name} cannot be stored as {dtype.name}: casting "
                   "complex to real discards the imaginary part, which the standard does not "
                   "permit; pass value.real or a complex dtype")
    bounds = INT_BOUNDS.get(dtype)
    if bounds is not None:
        if t is float:
            if not math.isfinite(value):  # type: ignore[arg-type]
                fail(func, f"{name} {value} has no value in {dtype.name}; pass a finite "
                           "value", ValueError)
            value = math.trunc(value)  # type: ignore[arg-type]
        if not bounds[0] <= value <= bounds[1]:  # type: ignore[operator]
            fail(func, f"{name} {value} is out of range for dtype {dtype.name} "
                       f"[{bounds[0]}, {bounds[1]}]", OverflowError)
        value = int(value)  # type: ignore[call-overload]
    try:
        return dtype.dtype.type(value)
    except OverflowError:  # an int beyond the floating range
        fail(func, f"{name} {value} is out of range for dtype {dtype.name}", OverflowError)


# ---- dtype and device arguments -------------------------------------------------------

def dtype_arg(func: str, dtype: object) -> DType:
    """A ``dtype=`` argument: an xpgpu dtype or a NumPy dtype instance of a standard dtype."""
    result = as_dtype(dtype)
    if result is None:
        fail(func, f"dtype must be an xpgpu dtype (such as xpgpu.float32), not {dtype!r}")
    return result


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
        fail(func, f"no device {device!r} here; available: "
                   f"{', '.join(map(str, _devices.all_devices()))}", ValueError)
    fail(func, f"device must be an xpgpu Device (such as x.device), not {device!r}")


def device_or_default(func: str, device: object) -> Device:
    return _devices.default_device() if device is None else device_arg(func, device)


def kind_arg(func: str, kind: object) -> frozenset[DType]:
    """A dtype kind for ``isdtype`` and ``dtypes(kind=)``: a dtype, a kind name, or a tuple."""
    if isinstance(kind, str):
        found = KINDS.get(kind)
        if found is None:
            fail(func, f"unknown dtype kind {kind!r}; kinds are {', '.join(map(repr, KINDS))}",
                 ValueError)
        return found
    if isinstance(kind, tuple):
        result: frozenset[DType] = frozenset()
        for k in kind:
            if isinstance(k, tuple):
                fail(func, "a kind tuple cannot nest tuples")
            result |= kind_arg(func, k)
        return result
    dtype = as_dtype(kind)
    if dtype is None:
        fail(func, f"kind must be a dtype, a kind name or a tuple of them, not {kind!r}")
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
        fail(func, f"{name} must be an int, not {type(value).__name__}")
    try:
        return operator.index(value)  # type: ignore[arg-type]
    except (TypeError, ValueError, OverflowError) as exc:
        reason = str(exc).removeprefix("__index__: ")
        fail(func, f"{name} must be an int, not {type(value).__name__} ({reason})", type(exc))


def axis_arg(func: str, axis: object, ndim: int, name: str = "axis") -> int:
    """A single axis in [-ndim, ndim), normalised to [0, ndim)."""
    a = int_arg(func, axis, name)
    if not -ndim <= a < ndim:
        fail(func, f"{name} {a} is out of bounds for an array of {ndim} dimension(s)",
             AxisError)
    return a % ndim if ndim else 0


def axis_or_only(func: str, axis: object, ndim: int) -> int:
    """An axis that may be None only where there is one (a 1-D array: axis 0)."""
    if ndim == 0:
        fail(func, "x must have at least one dimension", ValueError)
    if axis is None:
        if ndim > 1:
            fail(func, f"axis is required for an array of {ndim} dimensions", ValueError)
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
            fail(func, f"repeated axis in {name}={axis!r}", ValueError)
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
            fail(func, f"negative dimension {s} in shape {dims}", ValueError)
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
        fail(func, f"an array of shape {dims}{each} is too big (more than {INTP_MAX} bytes)",
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
        fail(func, f"{name} must be a tuple of ints, not {type(value).__name__}")
    return tuple(int_arg(func, s, name) for s in value)  # type: ignore[attr-defined]


def number_arg(func: str, value: object, name: str) -> int | float | complex:
    """A number argument (``linspace``'s start and stop): as real_arg, or a complex."""
    if scalar_type(value) is complex or as_dtype(getattr(value, "dtype", None)) in _COMPLEX:
        if getattr(value, "ndim", 0) == 0:
            return complex(value)  # type: ignore[call-overload]
    return real_arg(func, value, name)


def real_arg(func: str, value: object, name: str) -> int | float:
    """A real number argument (``start``, ``d``, ``rtol``, ``correction`` ...): a Python int
    or float, a NumPy integer or floating scalar or a 0-d array of such a dtype (as int or
    float, as array-api-strict and every backend take them); not a bool."""
    t = type(value)
    if t is int or t is float:
        return value  # type: ignore[return-value]
    if not isinstance(value, bool) and getattr(value, "ndim", 0) == 0:
        dtype = as_dtype(getattr(value, "dtype", None))
        if isinstance(value, float) or dtype in _REAL_FLOAT:
            return float(value)  # type: ignore[arg-type]
        if isinstance(value, int) or dtype in _INTEGRAL:
            return operator.index(value)  # type: ignore[arg-type]
    fail(func, f"{name} must be a Python int or float, not {type(value).__name__}"
         + (f" (use float({name}))" if hasattr(value, "__float__") else ""))



def axis_tuple_arg(func: str, axis: object, ndim: int, name: str = "axis",
                   unique: bool = True, sequences: tuple[type, ...] = (tuple,)
                   ) -> tuple[int, ...]:
    """An int or a tuple of ints, each normalised to [0, ndim), in the given order
    (``sequences=SEQUENCES``: a list too, where every backend takes one)."""
    if not isinstance(axis, sequences):
        return (axis_arg(func, axis, ndim, name),)
    axes = tuple(axis_arg(func, a, ndim, name) for a in axis)  # type: ignore[attr-defined]
    if unique and len(set(axes)) != len(axes):
        fail(func, f"repeated axis in {name}={axis!r}", ValueError)
    return axes
