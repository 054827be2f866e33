"""logspace on the CPU, and the host side of the CUDA kernel of ``_cupy_logspace``.

Floating dtypes on the CPU are NumPy's own logspace. Integer dtypes take NumPy's power
and the kernel's correction (``values``), so they are exactly trunc(correctly rounded
base ** y) on both devices. This module also holds what the kernel shares with the host:
the plan of one call (the scalars the kernel reads), the double-double constants, the
CUDA source (``kernel_source``) and ``emulate``, the kernel's algorithm again in NumPy.
``emulate`` takes the ``pow`` to start from, so tests can feed it a pow a few ulp off,
as CUDA's is (up to 2 ulp), and check that the correction still recovers the exact
values: the CPU proof that the kernel's logic is right.
"""

from __future__ import annotations

import decimal
import functools
import math
from collections.abc import Callable
from typing import Any, NamedTuple

import numpy

# ---- the CPU backend ------------------------------------------------------------------


def logspace(start: float, stop: float, num: int, endpoint: bool, base: float,
             dtype: Any) -> Any:
    """NumPy's logspace, exact for integer dtypes, without warnings."""
    # Note: NumPy warns on overflow to inf and on NaN in power and in the cast; xpgpu
    # raises for what it refuses before, and CuPy does not warn, so both devices agree.
    with numpy.errstate(all="ignore"):
        if numpy.dtype(dtype).kind not in "iu":
            return numpy.logspace(start, stop, num, endpoint, base, dtype)
        # Note: an integer logspace truncates base ** y, so a power 1 ulp off can move
        # it by one. NumPy's array power uses SVML on AVX-512 machines, which is not
        # correctly rounded (numpy.power(7.0, [19.0]) is 11398895185373142.0, the
        # exact 7**19 ties to ...144): correct it as the CUDA kernel does.
        p = plan(start, stop, num, endpoint, base)
        y = numpy.linspace(start, stop, num, endpoint)
        return values(p, y, True, numpy.power).astype(dtype)


# ---- the plan of one call, shared with the CUDA kernel --------------------------------


class Plan(NamedTuple):
    """The scalars the kernel reads, all as NumPy's linspace computes them."""

    start: float
    stop: float
    delta: float    # stop - start, rounded once
    step: float     # delta / div, rounded once (NaN when div <= 0)
    div: float      # num - 1 with an endpoint, else num
    mode: int       # 0: i * step + start; 1: step == 0, i / div * delta + start; 2: div <= 0
    last: int       # the index that gets ``stop`` exactly, or -1
    a: float        # |base|
    neg: int        # base is negative (or -0.0)
    lhi: float      # ln(a) as a double-double, to about 2**-106 relative
    llo: float
    odd: float      # a = odd * 2**twos with odd an odd integer: a ** n = odd ** n * 2**(twos * n)
    twos: int


@functools.lru_cache(maxsize=64)
def ln_dd(a: float) -> tuple[float, float]:
    """ln(a) as a double-double (hi + lo, |lo| <= ulp(hi) / 2), for finite a > 0."""
    with decimal.localcontext() as ctx:
        ctx.prec = 60
        exact = decimal.Decimal(a).ln()
        hi = float(exact)
        lo = float(exact - decimal.Decimal(hi))
    return hi, lo


def plan(start: float, stop: float, num: int, endpoint: bool, base: float) -> Plan:
    div = num - 1 if endpoint else num
    delta = stop - start
    if div > 0:
        step = delta / div
        mode = 1 if step == 0 else 0
    else:
        step, mode = math.nan, 2
    a = abs(base)
    lhi, llo = ln_dd(a) if 0 < a < math.inf else (0.0, 0.0)
    odd, twos = _odd_part(a)
    return Plan(start, stop, delta, step, float(div), mode,
                num - 1 if endpoint and num > 1 else -1,
                a, int(math.copysign(1.0, base) < 0), lhi, llo, float(odd), twos)


def _odd_part(a: float) -> tuple[int, int]:
    """(odd, twos) with a = odd * 2**twos, odd an odd integer; (0, 0) for 0."""
    if not 0 < a < math.inf:
        return 0, 0
    n, d = a.as_integer_ratio()
    twos = 1 - d.bit_length()
    while n % 2 == 0:
        n //= 2
        twos += 1
    return n, twos


# ---- double-double constants ----------------------------------------------------------


_h = float.fromhex
# ln 2 and 1/k! for k = 3 .. 9 as double-doubles (hi, lo), exact to about 2**-107;
# tests/test_logspace.py recomputes them with fractions.
LN2 = (_h("0x1.62e42fefa39efp-1"), _h("0x1.abc9e3b39803fp-56"))
INV_FACT = tuple((_h(hi), _h(lo)) for hi, lo in (
    ("0x1.5555555555555p-3", "0x1.5555555555555p-57"),
    ("0x1.5555555555555p-5", "0x1.5555555555555p-59"),
    ("0x1.1111111111111p-7", "0x1.1111111111111p-63"),
    ("0x1.6c16c16c16c17p-10", "-0x1.f49f49f49f49fp-65"),
    ("0x1.a01a01a01a01ap-13", "0x1.a01a01a01a01ap-73"),
    ("0x1.a01a01a01a01ap-16", "0x1.a01a01a01a01ap-76"),
    ("0x1.71de3a556c734p-19", "-0x1.c154f8ddc6c00p-73"),
))
SQUARINGS = 10          # exp(r) = expm1(r / 2**10), then doubled back 10 times
T_MIN, T_MAX = -708.0, 709.78  # exp(t) is a normal double here; outside, pow's result stands
SPLIT = 134217729.0     # 2**27 + 1, Dekker's splitter
FAST_BAND = 2.0**-50    # |r| * 2**-50 is 4 to 8 ulp of r


# ---- double-double arithmetic on arrays, as in the kernel (no fused multiply-add) ------

def _two_sum(a: Any, b: Any) -> tuple[Any, Any]:
    s = a + b
    bb = s - a
    return s, (a - (s - bb)) + (b - bb)


def _quick_two_sum(a: Any, b: Any) -> tuple[Any, Any]:
    s = a + b
    return s, b - (s - a)


def _split(a: Any) -> tuple[Any, Any]:
    t = SPLIT * a
    hi = t - (t - a)
    return hi, a - hi


def _two_prod(a: Any, b: Any) -> tuple[Any, Any]:
    p = a * b
    ah, al = _split(a)
    bh, bl = _split(b)
    return p, ((ah * bh - p) + ah * bl + al * bh) + al * bl


def _dd_add(ah: Any, al: Any, bh: Any, bl: Any) -> tuple[Any, Any]:
    sh, sl = _two_sum(ah, bh)
    th, tl = _two_sum(al, bl)
    sh, sl = _quick_two_sum(sh, sl + th)
    return _quick_two_sum(sh, sl + tl)


def _dd_mul(ah: Any, al: Any, bh: Any, bl: Any) -> tuple[Any, Any]:
    ph, pl = _two_prod(ah, bh)
    return _quick_two_sum(ph, pl + (ah * bl + al * bh))


def _exp_dd(th: Any, tl: Any) -> tuple[Any, Any]:
    """exp(th + tl) as a double-double whose high part is the nearest double, for
    T_MIN <= th <= T_MAX."""
    m = numpy.rint(th / LN2[0])
    ph, pl = _two_prod(m, LN2[0])
    pl = pl + m * LN2[1]
    rh, rl = _dd_add(th, tl, -ph, -pl)
    scale = 2.0**-SQUARINGS
    rh, rl = rh * scale, rl * scale
    # expm1(r) = r + r^2/2! + ... + r^9/9!, by Horner in double-double.
    sh, sl = INV_FACT[-1]
    for ch, cl in reversed(INV_FACT[:-1]):
        sh, sl = _dd_mul(sh, sl, rh, rl)
        sh, sl = _dd_add(sh, sl, ch, cl)
    for c in (0.5, 1.0):
        sh, sl = _dd_mul(sh, sl, rh, rl)
        sh, sl = _dd_add(sh, sl, c, 0.0)
    sh, sl = _dd_mul(sh, sl, rh, rl)
    for _ in range(SQUARINGS):  # expm1(2x) = 2 expm1(x) + expm1(x)^2
        qh, ql = _dd_mul(sh, sl, sh, sl)
        sh, sl = _dd_add(2.0 * sh, 2.0 * sl, qh, ql)
    sh, sl = _dd_add(sh, sl, 1.0, 0.0)
    e = m.astype(numpy.int32)
    return numpy.ldexp(sh, e), numpy.ldexp(sl, e)


def emulate(start: float, stop: float, num: int, endpoint: bool, base: float, dtype: Any,
            pow: Callable[[Any, Any], Any] = numpy.power) -> Any:
    """The CUDA kernel's algorithm in NumPy: ``pow(a, y)`` (CUDA's, up to 2 ulp off),
    corrected to the correctly rounded power where the result needs it."""
    dtype = numpy.dtype(dtype)
    p = plan(start, stop, num, endpoint, base)
    with numpy.errstate(all="ignore"):
        return values(p, exponents(p, num), dtype.kind in "iu", pow).astype(dtype)


def exponents(p: Plan, num: int) -> Any:
    """The exponents y as the kernel computes them: NumPy's linspace, bit for bit."""
    i = numpy.arange(num, dtype=numpy.float64)
    if p.mode == 0:
        y = i * p.step + p.start
    elif p.mode == 1:
        y = (i / p.div) * p.delta + p.start
    else:
        y = i * p.delta + p.start
    if p.last >= 0:
        y[p.last] = p.stop
    return y


def values(p: Plan, y: Any, int_out: bool, pow: Callable[[Any, Any], Any]) -> Any:
    """The float64 values of ``xl_logspace`` below, element by element as the kernel."""
    r = numpy.asarray(pow(numpy.float64(p.a), y), dtype=numpy.float64)
    t0 = y * p.lhi
    done = (p.a == 0) | (p.a == 1) | ~numpy.isfinite(y) | ~((t0 >= T_MIN) & (t0 <= T_MAX))
    if int_out:
        band = numpy.abs(r) * FAST_BAND
        done |= ~numpy.isfinite(r) | (numpy.trunc(r - band) == numpy.trunc(r + band))
    result = r.copy()
    slow = ~done
    exact = slow & (p.odd != 0) & (y == numpy.trunc(y)) & (y >= 0) & (y <= 2048)
    for k in numpy.flatnonzero(exact):
        n = int(p.odd) ** int(y[k])
        if n < 2**64:  # one rounding, then an exact scaling, as in the kernel
            result[k] = numpy.ldexp(float(n), p.twos * int(y[k]))
        else:
            exact[k] = False
    dd = slow & ~exact
    if dd.any():
        th, tl = _two_prod(y[dd], p.lhi)
        th, tl = _quick_two_sum(th, tl + y[dd] * p.llo)
        result[dd] = _exp_dd(th, tl)[0]
    if int_out:
        result = numpy.trunc(result)
    if p.neg:
        frac = y != numpy.trunc(y)
        odd = (numpy.abs(y) < 2.0**53) & (numpy.fmod(y, 2.0) != 0) & ~frac
        result = numpy.where(frac & (p.a != 0), numpy.nan, result)
        result = numpy.where(odd, -result, result)
    return result


# ---- the CUDA source of the same algorithm (compiled by _cupy_logspace) ---------------

_C_SOURCE = r"""
// xpgpu logspace: y as NumPy's linspace computes it, then base ** y correctly rounded
// (integer outputs: truncated). Compile without contraction (--fmad=false): the
// double-double steps below rely on every product and sum being rounded on its own.
#define XL_F __host__ __device__ __forceinline__

XL_F void xl_two_sum(double a, double b, double &s, double &e) {
    s = a + b;
    double bb = s - a;
    e = (a - (s - bb)) + (b - bb);
}

XL_F void xl_quick_two_sum(double a, double b, double &s, double &e) {
    s = a + b;
    e = b - (s - a);
}

XL_F void xl_two_prod(double a, double b, double &p, double &e) {
    p = a * b;
    double t = %(split)s * a, ah = t - (t - a), al = a - ah;
    t = %(split)s * b;
    double bh = t - (t - b), bl = b - bh;
    e = ((ah * bh - p) + ah * bl + al * bh) + al * bl;
}

XL_F void xl_dd_add(double ah, double al, double bh, double bl, double &h, double &l) {
    double sh, sl, th, tl;
    xl_two_sum(ah, bh, sh, sl);
    xl_two_sum(al, bl, th, tl);
    xl_quick_two_sum(sh, sl + th, sh, sl);
    xl_quick_two_sum(sh, sl + tl, h, l);
}

XL_F void xl_dd_mul(double ah, double al, double bh, double bl, double &h, double &l) {
    double ph, pl;
    xl_two_prod(ah, bh, ph, pl);
    xl_quick_two_sum(ph, pl + (ah * bl + al * bh), h, l);
}

// exp(th + tl) rounded to the nearest double (and the rest in lo), for
// %(t_min)s <= th <= %(t_max)s.
XL_F double xl_exp_dd(double th, double tl, double &lo) {
    const double inv_fact[%(nfact)d][2] = {%(inv_fact)s};
    double m = rint(th / %(ln2_hi)s);
    double ph, pl, rh, rl, sh, sl, qh, ql;
    xl_two_prod(m, %(ln2_hi)s, ph, pl);
    pl = pl + m * %(ln2_lo)s;
    xl_dd_add(th, tl, -ph, -pl, rh, rl);
    rh = rh * %(scale)s;
    rl = rl * %(scale)s;
    sh = inv_fact[%(nfact)d - 1][0];
    sl = inv_fact[%(nfact)d - 1][1];
    for (int k = %(nfact)d - 2; k >= 0; --k) {
        xl_dd_mul(sh, sl, rh, rl, sh, sl);
        xl_dd_add(sh, sl, inv_fact[k][0], inv_fact[k][1], sh, sl);
    }
    xl_dd_mul(sh, sl, rh, rl, sh, sl);
    xl_dd_add(sh, sl, 0.5, 0.0, sh, sl);
    xl_dd_mul(sh, sl, rh, rl, sh, sl);
    xl_dd_add(sh, sl, 1.0, 0.0, sh, sl);
    xl_dd_mul(sh, sl, rh, rl, sh, sl);
    for (int k = 0; k < %(squarings)d; ++k) {
        xl_dd_mul(sh, sl, sh, sl, qh, ql);
        xl_dd_add(2.0 * sh, 2.0 * sl, qh, ql, sh, sl);
    }
    xl_dd_add(sh, sl, 1.0, 0.0, sh, sl);
    lo = ldexp(sl, (int)m);
    return ldexp(sh, (int)m);
}

// The element i of logspace: base ** y_i, correctly rounded (truncated for integers).
XL_F double xl_logspace(long long i, double start, double stop, double delta, double step,
                        double div, int mode, long long last, double a, int neg,
                        double lhi, double llo, double odd, int twos, int int_out) {
    double fi = (double)i, y;
    if (mode == 0) {
        y = fi * step + start;
    } else if (mode == 1) {
        y = (fi / div) * delta + start;
    } else {
        y = fi * delta + start;
    }
    if (i == last) {
        y = stop;
    }
    double r = %(pow)s(a, y), result = r;
    double t0 = y * lhi;
    bool done = a == 0.0 || a == 1.0 || !isfinite(y) || !(t0 >= %(t_min)s && t0 <= %(t_max)s);
    if (!done && int_out) {
        // trunc is constant on [r - 4 ulp, r + 4 ulp], which holds the correctly
        // rounded power (pow is within 2 ulp of the exact one): trunc(r) is the answer.
        double band = fabs(r) * %(band)s;
        done = !isfinite(r) || trunc(r - band) == trunc(r + band);
    }
    if (!done) {
        bool exact = false;
        if (odd != 0.0 && y == trunc(y) && y >= 0.0 && y <= 2048.0) {
            // a ** y = odd ** y * 2 ** (twos * y): exact when odd ** y fits 64 bits,
            // then one rounding and an exact scaling
            unsigned long long b = (unsigned long long)odd, acc = 1ULL;
            unsigned long long e = (unsigned long long)y;
            const unsigned long long top = 18446744073709551615ULL;
            exact = true;
            while (e != 0ULL && exact) {
                if (e & 1ULL) {
                    if (acc > top / b) exact = false;
                    acc *= b;
                }
                e >>= 1;
                if (e != 0ULL) {
                    if (b > top / b) exact = false;
                    b *= b;
                }
            }
            if (exact) {
                result = ldexp((double)acc, twos * (int)y);
            }
        }
        if (!exact) {
            double th, tl;
            xl_two_prod(y, lhi, th, tl);
            xl_quick_two_sum(th, tl + y * llo, th, tl);
            result = xl_exp_dd(th, tl, tl);
        }
    }
    if (int_out) {
        result = trunc(result);
    }
    if (neg) {
        if (y != trunc(y)) {
            if (a != 0.0) {
                result = nan("");
            }
        } else if (fabs(y) < 9007199254740992.0 && fmod(y, 2.0) != 0.0) {
            result = -result;
        }
    }
    return result;
}
"""


def _c(x: float) -> str:
    """A double as an exact C literal."""
    return x.hex() if math.isfinite(x) else repr(x)


def kernel_source(pow: str = "pow") -> str:
    """The CUDA C++ source of ``xl_logspace``, the kernel's element function."""
    return _C_SOURCE % {
        "split": _c(SPLIT), "t_min": _c(T_MIN), "t_max": _c(T_MAX), "band": _c(FAST_BAND),
        "nfact": len(INV_FACT), "ln2_hi": _c(LN2[0]), "ln2_lo": _c(LN2[1]),
        "scale": _c(2.0**-SQUARINGS), "squarings": SQUARINGS, "pow": pow,
        "inv_fact": ", ".join(f"{{{_c(h)}, {_c(lo)}}}" for h, lo in INV_FACT),
    }
