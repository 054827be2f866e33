"""logspace: an extension beyond the standard, exact for integer dtypes.

See docs/logspace.md for the rule, its proof and how it is tested.
"""

from __future__ import annotations

import decimal
import math
from typing import Any

from .. import _validate as v
from .._array import Array, wrap_checked
from .._devices import Device
from .._dtypes import KINDS, DType, bool_, float64
from .._scalars import INT_BOUNDS

_FUNC = "logspace"
_INTEGRAL = KINDS["integral"]
_BAND = 2.0**-50


def logspace(start: int | float, stop: int | float, /, num: int = 50, *,
             base: int | float = 10.0, endpoint: bool = True, dtype: DType | None = None,
             device: Device | None = None) -> Array:
    """``num`` numbers ``base ** y``, ``y`` evenly spaced from ``start`` to ``stop``.

    An extension beyond the standard, NumPy's ``logspace`` for scalar arguments, equal on
    every device. ``y`` is NumPy's ``linspace(start, stop, num, endpoint)`` in float64,
    bit for bit. Floating dtypes get ``base ** y`` correctly rounded to float64 (on CUDA,
    where CuPy's pow is up to 2 ulp off; the CPU gives NumPy's, within 1 ulp of it), then
    rounded once to the dtype; complex dtypes get these real values. Integer dtypes get
    exactly ``trunc(R)``, R the correctly rounded float64 ``base ** y``, which is what
    NumPy computes where its pow rounds correctly (``logspace(1, 2, num=1, base=3,
    dtype=int64)`` is ``[3]``; CuPy gives ``[2]``).

    Proof sketch of the integer rule: pow gives r within 2 ulp of ``base ** y``, so R lies
    within 3 ulp of r. Where ``trunc`` takes one value on [r - 4 ulp, r + 4 ulp], that
    value is ``trunc(R)``. Elsewhere r is near an integer (or beyond 2**49, where
    integers are dense) and R is computed exactly: with ``|base| = odd * 2**k``, as
    ``ldexp(odd ** y, k * y)`` (one rounding) when y is a non-negative integer and
    ``odd ** y``, taken by squaring, fits 64 bits, which settles exact ties such as
    7 ** 19; else as exp(y ln base) in double-double (about 2**-96 relative), whose
    rounding is R unless base ** y lies within 2**-96 of a rounding boundary. An epsilon
    band alone would be wrong: 2.9999999999999996 is also the correctly rounded
    ``3 ** nextafter(1, 0)``, whose truncation is 2.

    Refused: non-finite or non-real ``start``, ``stop`` or ``base`` (``ValueError`` /
    ``TypeError``), ``stop - start`` overflowing float64, a negative ``base`` with a
    non-integer ``y`` (NaN; ``ValueError``), integer results outside the dtype's range
    (``OverflowError``), and ``bool`` dtypes (``TypeError``).
    """
    start = _real("start", start)
    stop = _real("stop", stop)
    base = _real("base", base)
    num = v.int_arg(_FUNC, num, "num")
    if num < 0:
        v.fail(_FUNC, f"num must be non-negative, got {num}; use num=0 for an empty array",
               ValueError)
    v.bool_arg(_FUNC, endpoint, "endpoint")
    dtype = float64 if dtype is None else v.dtype_arg(_FUNC, dtype)
    if dtype is bool_:
        v.fail(_FUNC, "dtype bool is not supported; use an integer or floating dtype")
    device = v.device_or_default(_FUNC, device)
    if num and not math.isfinite(stop - start):
        v.fail(_FUNC, f"stop - start = {stop} - {start} overflows float64", ValueError)
    backend = device.backend
    with backend.adapter.on(device.index):
        if base < 0 and num:
            _check_negative(backend, start, stop, num, endpoint, base, dtype)
        elif dtype in _INTEGRAL:
            for y in _extreme_exponents(start, stop, num, endpoint):
                _check_power(dtype, base, y)
        data = backend.logspace(start, stop, num, endpoint, base, dtype.dtype)
    return wrap_checked(_FUNC, data, device, dtype)


def _real(name: str, value: object) -> float:
    real = v.real_arg(_FUNC, value, name)  # NumPy scalars and 0-d arrays, as arange
    try:
        x = float(real)
    except OverflowError:
        v.fail(_FUNC, f"{name} = {value} is out of range for float64; use a smaller value",
               OverflowError)
    if not math.isfinite(x):
        v.fail(_FUNC, f"{name} must be finite, got {x}; use a finite value", ValueError)
    return x


def _extreme_exponents(start: float, stop: float, num: int, endpoint: bool) -> list[float]:
    """The least and greatest y, computed as NumPy's linspace does (Python floats are
    IEEE doubles: one rounding per operation). y is monotonic in the index, except that
    the last one is ``stop`` itself with an endpoint, so three candidates suffice."""
    div = num - 1 if endpoint else num
    delta = stop - start
    if div <= 0:
        return [0.0 * delta + start] if num else []
    step = delta / div

    def y(i: int) -> float:
        return (i / div) * delta + start if step == 0 else i * step + start

    if endpoint:
        return [y(0), y(num - 2), stop]
    return [y(0), y(num - 1)]


def _check_power(dtype: DType, base: float, y: float) -> None:
    """``trunc(R)``, R the correctly rounded ``base ** y`` (``base >= 0``), must fit
    ``dtype``. The host's pow decides unless R may be on either side of a bound."""
    try:
        r = math.pow(base, y)
    except (OverflowError, ValueError):  # overflow, or 0 ** negative: inf
        r = math.inf
    band = abs(r) * _BAND  # 4 to 8 ulp: R is within 3 ulp of any pow within 2 ulp
    if math.isfinite(r):
        lo, hi = INT_BOUNDS[dtype]
        if lo <= math.trunc(r - band) and math.trunc(r + band) <= hi:
            return
        if lo <= math.trunc(r + band) and math.trunc(r - band) <= hi:
            r = _rounded_power(base, y)  # near a bound: decide exactly
    _check_range(dtype, r)


def _rounded_power(base: float, y: float) -> float:
    """``base ** y`` correctly rounded to float64, for finite ``base ** y`` near an
    integer bound (decimal's power is correctly rounded to 60 digits)."""
    with decimal.localcontext() as ctx:
        ctx.prec = 60
        return float(decimal.Decimal(base) ** decimal.Decimal(y))


def _check_range(dtype: DType, r: float) -> None:
    lo, hi = INT_BOUNDS[dtype]
    if not (math.isfinite(r) and lo <= math.trunc(r) <= hi):
        v.fail(_FUNC, f"the value {r} is out of range for dtype {dtype.name} [{lo}, {hi}]",
               OverflowError)


def _check_negative(backend: Any, start: float, stop: float, num: int, endpoint: bool,
                    base: float, dtype: DType) -> None:
    """A negative base: every y must be an integer, and integer results in range."""
    # Which y are integers is known only element by element: look at the float64 values
    # (a reduction, on the device; negative bases are rare).
    values = backend.logspace(start, stop, num, endpoint, base, float64.dtype)
    if bool(backend.any(backend.isnan(values))):
        v.fail(_FUNC, f"a negative base ({base}) needs integer exponents, but "
                      f"linspace({start}, {stop}, {num}, endpoint={endpoint}) has others",
               ValueError)
    if dtype in _INTEGRAL:
        _check_range(dtype, float(backend.min(values)))
        _check_range(dtype, float(backend.max(values)))
