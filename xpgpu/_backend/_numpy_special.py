"""NumPy fixes for the standard's special cases of element-wise functions.

https://data-apis.org/array-api/2025.12/API_specification/elementwise_functions.html

Each fix computes with NumPy first, then repairs only where the standard and NumPy
disagree; a cheap check (a scalar test or one reduction) keeps the common path, where
no infinity occurs, to one extra test. Registered in ``_numpy.FIXES`` by spec name.
"""

from __future__ import annotations

import math
from typing import Any

import numpy

_ndarray = numpy.ndarray
_generic = numpy.generic
_isinf = numpy.isinf
_isfinite = numpy.isfinite
_divide = numpy.divide
_copyto = numpy.copyto
_np_floor_divide = numpy.floor_divide
_np_power = numpy.power
_np_expm1 = numpy.expm1
_np_tanh = numpy.tanh
_np_sign = numpy.sign


def _finite(x: Any) -> bool:
    """Whether ``x`` (a float array or a Python scalar) is free of infinities and NaNs,
    by one reduction (a sum is finite only when every term is; an overflowing sum is a
    false alarm, which the repair then finds clean)."""
    if type(x) is _ndarray or isinstance(x, _generic):  # NumPy returns 0-d results as scalars
        return math.isfinite(x.sum())
    return not isinstance(x, float) or math.isfinite(x)


def _as_array(out: Any) -> Any:
    # NumPy returns a scalar from 0-d operations; repairs need an array to write to.
    return out if type(out) is _ndarray else numpy.asarray(out)


# Note: NumPy's floor_divide follows Python's divmod at infinities (inf // 2 is NaN,
# 1 // -inf is -1.0); the standard asks for the limits of floor(x1 / x2): inf // 2 is
# +inf and 1 // -inf is -0, which is x1 / x2 wherever x1 or x2 is infinite (including
# its NaN for inf // inf) — https://github.com/numpy/numpy/issues/23860
def floor_divide(x1: Any, x2: Any) -> Any:
    out = _np_floor_divide(x1, x2)
    # An infinite x1 makes the output NaN there: one check of the output covers it.
    if out.dtype.kind != "f" or (_finite(x2) and _finite(out)):
        return out
    out = _as_array(out)
    where = _isinf(x1) | _isinf(x2)
    with numpy.errstate(all="ignore"):
        _copyto(out, _divide(x1, x2), where=where)
    return out


def _is_half(x2: Any) -> bool:
    if isinstance(x2, float):
        return x2 == 0.5
    return type(x2) is _ndarray and x2.size == 1 and x2.dtype.kind == "f" and x2.item() == 0.5


# Note: NumPy computes x ** 0.5 (a scalar exponent) as sqrt(x), so (-inf) ** 0.5 is NaN
# and (-0) ** 0.5 is -0 where the standard (and C's pow) give +inf and +0 —
# https://github.com/numpy/numpy/issues/21213
def pow(x1: Any, x2: Any) -> Any:
    out = _np_power(x1, x2)
    if out.dtype.kind != "f" or not _is_half(x2):
        return out
    out = _as_array(out)
    numpy.add(out, 0.0, out=out)  # -0 -> +0; only sqrt(-0) gives a zero of either sign
    if math.isnan(out.sum()):  # sqrt's results sum to NaN only where one is NaN
        _copyto(out, numpy.inf, where=(x1 == -numpy.inf))
    return out


# Note: NumPy's complex expm1 gives NaN parts at infinities (expm1(inf + 0j) is
# inf + nanj, expm1(-inf + 1j) is nan + nanj) and -0 + 0j at -0 + 0j, where the
# standard follows C99's cexp(z) - 1 — https://github.com/numpy/numpy/issues/21746
def expm1(x: Any) -> Any:
    out = _np_expm1(x)
    if x.dtype.kind != "c":
        return out
    out = _as_array(out)
    numpy.add(out.real, 0.0, out=out.real)  # real(e**z - 1) is +0 where it is zero
    finite = _isfinite(out)
    if not finite.all():  # non-finite inputs, or overflow (NumPy: inf * sin(0) is NaN)
        bad = ~finite
        z = x[bad]
        out[bad] = _expm1_special(z.real, z.imag)
    return out


def _expm1_special(a: Any, b: Any) -> Any:
    """expm1(a + bj) by the standard's special cases (and exactly on the real axis)."""
    with numpy.errstate(all="ignore"):
        nan = numpy.nan
        b_fin = _isfinite(b)
        a_fin = _isfinite(a)
        h = numpy.sin(b / 2)
        fin_re = numpy.expm1(a) * numpy.cos(b) - 2 * h * h + 0.0
        fin_im = numpy.where(b == 0, b, numpy.exp(a) * numpy.sin(b))
        # a = +inf: inf * cis(b) - 1 for finite nonzero b; inf + bj for b = 0; else inf + nanj.
        pos_re = numpy.where(b_fin & (b != 0), numpy.inf * numpy.cos(b), numpy.inf)
        pos_im = numpy.where(b_fin, numpy.where(b == 0, b, numpy.inf * numpy.sin(b)), nan)
        # a = -inf: +0 * cis(b) - 1 for finite b; -1 + 0j otherwise.
        neg_im = numpy.where(b_fin, numpy.copysign(0.0, numpy.sin(b)), 0.0)
        # a = NaN: NaN + bj for b = 0, else NaN + NaN j; a finite (b not): NaN + NaN j.
        nan_im = numpy.where(b == 0, b, nan)
        fin = a_fin & b_fin
        re = numpy.select([fin, a == numpy.inf, a == -numpy.inf], [fin_re, pos_re, -1.0], nan)
        im = numpy.select([fin, a == numpy.inf, a == -numpy.inf, numpy.isnan(a)],
                          [fin_im, pos_im, neg_im, nan_im], nan)
    return _complex(re, im)


def _complex(re: Any, im: Any) -> Any:
    z = numpy.empty(numpy.shape(re), numpy.complex128)
    z.real = re
    z.imag = im
    return z


# Note: NumPy's complex tanh gives 1 + 0j * sin(2b) at real(z) = inf (C99's rule), so
# tanh(inf + 2j) is 1 - 0j; the standard asks for 1 + 0j for every positive finite b
# (and tanh(conj(z)) = conj(tanh(z)), tanh(-z) = -tanh(z)) — no upstream issue known;
# the spec's tanh page
def tanh(x: Any) -> Any:
    out = _np_tanh(x)
    if x.dtype.kind != "c":
        return out
    bad = _isinf(x.real)
    if not bad.any():
        return out
    out = _as_array(out)
    z = x[bad]
    out[bad] = _complex(numpy.copysign(1.0, z.real), numpy.copysign(0.0, z.imag))
    return out


# Note: NumPy's complex sign of inf + nanj is 1 + 0j (the direction of the infinite part);
# the standard says NaN + NaN j wherever a part is NaN — no upstream issue known.
def sign(x: Any) -> Any:
    out = _np_sign(x)
    if x.dtype.kind != "c":
        return out
    bad = numpy.isnan(x)
    if bad.any():
        out = _as_array(out)
        out[bad] = complex(numpy.nan, numpy.nan)
    return out


FIXES: dict[str, Any] = {
    "sign": sign,
    "floor_divide": floor_divide,
    "pow": pow,
    "expm1": expm1,
    "tanh": tanh,
}
