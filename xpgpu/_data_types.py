"""Data type functions.

https://data-apis.org/array-api/2025.12/API_specification/data_type_functions.html

All of them read the tables of ``_dtypes`` (kinds, promotion) and ``_scalars``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from . import _validate as v
from ._array import Array, array_arg, transfer, wrap
from ._devices import CPU, Device
from ._dtypes import CATEGORIES, KINDS, PROMOTION, REAL_OF, DType, as_dtype
from ._scalars import scalar_type

_COMPLEX = KINDS["complex floating"]
# Casts the standard says should not be permitted: complex to real-valued (not to bool).
_NOT_FROM_COMPLEX = KINDS["integral"] | KINDS["real floating"]


def astype(x: Array, dtype: Any, /, *, copy: bool = True, device: Any = None) -> Array:
    """Cast ``x`` to ``dtype``. See https://data-apis.org/array-api/2025.12/API_specification/generated/array_api.astype.html"""
    func = "astype"
    x = array_arg(func, x)
    dt = v.dtype_arg(func, dtype)
    if copy is not True and copy is not False:
        v.bad_bool(func, copy, "copy")
    source = x._device
    target = source if device is None else v.device_arg(func, device)
    src = x._dtype
    if src in _COMPLEX and dt in _NOT_FROM_COMPLEX:
        v.fail(func, f"casting {src.name} to {dt.name} would discard the imaginary part, "
                     "which the standard does not permit; use real() or imag() first")
    if dt is src and target is source:
        if not copy:
            return x
        with source.backend.adapter.on(source.index):
            return wrap(source.backend.copy(x._data), dt, target)
    data = transfer(x._data, source, target)
    if dt is not src:
        with target.backend.adapter.on(target.index):
            data = target.backend.astype(data, dt.dtype)
    return wrap(data, dt, target)


def can_cast(from_: Any, to: Any, /) -> bool:
    """Whether type promotion can turn ``from_`` into ``to``. See https://data-apis.org/array-api/2025.12/API_specification/generated/array_api.can_cast.html"""
    src = _dtype_of("can_cast", from_, "from_")
    dst = v.dtype_arg("can_cast", to)
    return PROMOTION.get((src, dst)) is dst


# ---- machine limits -------------------------------------------------------------------

@dataclass(frozen=True)
class finfo_object:
    """Machine limits of a floating-point dtype (of its real component for complex)."""

    bits: int
    eps: float
    max: float
    min: float
    smallest_normal: float
    dtype: DType


@dataclass(frozen=True)
class iinfo_object:
    """Machine limits of an integer dtype."""

    bits: int
    max: int
    min: int
    dtype: DType


def _finfo(d: DType) -> finfo_object:
    f = CPU.backend.finfo(d.dtype)
    return finfo_object(int(f.bits), float(f.eps), float(f.max), float(f.min),
                        float(f.smallest_normal), d)


def _iinfo(d: DType) -> iinfo_object:
    i = CPU.backend.iinfo(d.dtype)
    return iinfo_object(int(i.bits), int(i.max), int(i.min), d)


_FINFO = {d: _finfo(d) for d in KINDS["real floating"]}
_FINFO.update({c: _FINFO[r] for c, r in REAL_OF.items()})
_IINFO = {d: _iinfo(d) for d in KINDS["integral"]}


def _dtype_of(func: str, obj: Any, name: str = "type") -> DType:
    if type(obj) is Array:
        return obj._dtype  # type: ignore[no-any-return]
    dtype = as_dtype(obj)
    if dtype is None:
        v.fail(func, f"{name} must be a dtype (such as xpgpu.float32) or an array, not {obj!r}")
    return dtype


def finfo(type: Any, /) -> finfo_object:
    """Machine limits of a floating-point dtype. See https://data-apis.org/array-api/2025.12/API_specification/generated/array_api.finfo.html"""
    dtype = _dtype_of("finfo", type)
    info = _FINFO.get(dtype)
    if info is None:
        v.bad_dtype("finfo", dtype, CATEGORIES["floating-point"], "type")
    return info


def iinfo(type: Any, /) -> iinfo_object:
    """Machine limits of an integer dtype. See https://data-apis.org/array-api/2025.12/API_specification/generated/array_api.iinfo.html"""
    dtype = _dtype_of("iinfo", type)
    info = _IINFO.get(dtype)
    if info is None:
        v.bad_dtype("iinfo", dtype, CATEGORIES["integer"], "type")
    return info


# ---- kinds and promotion --------------------------------------------------------------

def isdtype(dtype: Any, kind: Any) -> bool:
    """Whether ``dtype`` is of the kind(s) ``kind``. See https://data-apis.org/array-api/2025.12/API_specification/generated/array_api.isdtype.html"""
    d = as_dtype(dtype)
    if d is None:
        v.fail("isdtype", f"dtype must be a dtype (such as xpgpu.float32), not {dtype!r}")
    return d in v.kind_arg("isdtype", kind)


# The rules a ``result_type`` is built from: the promotion of two dtypes (a dict of
# pairs: the strict profile's has the standard's pairs only), the dtype of an array of a
# dtype with a Python scalar (``v.scalar_result``: raises where there is none) and the
# dtype of an argument that is neither an array, a dtype nor a Python scalar (None: the
# argument is refused).
ScalarRule = Callable[[str, DType, object], DType]
OtherRule = Callable[[Any], "DType | None"]


def _no_other(arg: Any) -> DType | None:
    return None


def promotion(table: dict[tuple[DType, DType], DType], scalar_rule: ScalarRule,
              other: OtherRule = _no_other) -> Callable[..., DType]:
    """``result_type`` under the given rules; each profile builds its own once."""

    def result_type(*arrays_and_dtypes: Any) -> DType:
        """The dtype type promotion gives the arguments. See https://data-apis.org/array-api/2025.12/API_specification/generated/array_api.result_type.html"""
        func = "result_type"
        result: DType | None = None
        device: Device | None = None
        scalars: list[Any] = []
        for arg in arrays_and_dtypes:
            d: DType | None
            if type(arg) is Array:
                d = arg._dtype
                if device is None:
                    device = arg._device
                elif arg._device is not device:
                    v.mismatch(func, device, arg._device)
            else:
                d = as_dtype(arg)
                if d is None:
                    if scalar_type(arg) is not None:
                        scalars.append(arg)
                        continue
                    d = other(arg)
                    if d is None:
                        v.fail(func, "arguments must be arrays, dtypes or Python scalars, "
                                     f"not {arg!r}; use xpgpu.asarray() or a dtype such as "
                                     "xpgpu.float32")
            if result is None:
                result = d
            elif d is not result:
                promoted = table.get((result, d))
                if promoted is None:
                    v.no_promotion(func, result, d)
                result = promoted
        if result is None:
            v.fail(func, "at least one array or dtype is required; use result_type(x, ...)",
                   ValueError)
        # Python scalars are weak (NEP 50): they meet the dtype of the rest, by the rule.
        for s in scalars:
            result = scalar_rule(func, result, s)
        return result

    result_type.__qualname__ = "result_type"
    return result_type


result_type = promotion(PROMOTION, v.scalar_result)
