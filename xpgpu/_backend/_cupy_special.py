"""CuPy fixes for the standard's special cases of element-wise functions.

https://data-apis.org/array-api/2025.12/API_specification/elementwise_functions.html

Each fix is ONE fused ufunc (``cupy._core.create_ufunc``: type-specific loops, CuPy's
broadcasting and output allocation), compiled on first use. The loops of the types CuPy
gets right repeat CuPy's own bodies. Python scalars are cast to the array's dtype first
(NEP 50: a float32 array with a Python float stays float32), as NumPy scalars, which the
ufunc takes as scalar arguments; no 0-d device array is made. Registered in
``_cupy.FIXES`` by spec name. The results equal the NumPy adapter's (NumPy plus
``_numpy_special``) bit for bit on the special cases.
"""

from __future__ import annotations

from typing import Any

import cupy
from cupy._core import create_ufunc

_ndarray = cupy.ndarray

_INT_LOOPS = ("bb->b", "BB->B", "hh->h", "HH->H", "ii->i", "II->I",
              "ll->l", "LL->L", "qq->q", "QQ->Q")

# Device functions shared by the loops below; `complex` is CuPy's thrust::complex.
PREAMBLE = r"""
// floor(a / b) and Python's a % b for floating point, as NumPy's npy_divmod, with the
// standard's special cases: where a or b is infinite the quotient is a / b.
template <typename T>
__device__ T xpgpu_floor_divide(T a, T b) {
    if (isinf(a) || isinf(b) || b == 0) {
        return a / b;
    }
    T mod = fmod(a, b);
    T div = (a - mod) / b;
    if (mod != 0 && ((b < 0) != (mod < 0))) {
        div -= T(1);
    }
    if (div == 0) {
        return copysign(T(0), a / b);
    }
    T floordiv = floor(div);
    if (div - floordiv > T(0.5)) {
        floordiv += T(1);
    }
    return floordiv;
}

template <typename T>
__device__ T xpgpu_remainder(T a, T b) {
    T mod = fmod(a, b);  // NaN for b == 0, a infinite, or a NaN operand
    if (b == 0) {
        return mod;
    }
    if (mod != 0) {
        if ((b < 0) != (mod < 0)) {
            mod += b;  // finite a: x2 when the signs differ and b is infinite
        }
        return mod;
    }
    return copysign(T(0), b);
}

// expm1 for complex z = a + bj: accurate near 0, and C99's cexp(z) - 1 at the
// standard's special cases (NaN parts only where the standard has them).
template <typename T>
__device__ complex<T> xpgpu_expm1(complex<T> z) {
    T a = z.real();
    T b = z.imag();
    if (isfinite(a) && isfinite(b)) {
        if (b == 0) {
            return complex<T>(expm1(a) + T(0), b);  // expm1(-0 + 0j) is +0 + 0j
        }
        T h = sin(b / T(2));
        return complex<T>(expm1(a) * cos(b) - T(2) * h * h + T(0), exp(a) * sin(b));
    }
    if (isnan(a)) {
        return complex<T>(a, b == 0 ? b : a);
    }
    if (isinf(a)) {
        if (a > 0) {
            if (b == 0) {
                return complex<T>(a, b);
            }
            if (isfinite(b)) {
                return complex<T>(a * cos(b), a * sin(b));
            }
            return complex<T>(a, b - b);
        }
        return complex<T>(T(-1), isfinite(b) ? copysign(T(0), sin(b)) : T(0));
    }
    return complex<T>(b - b, b - b);  // finite a, b infinite or NaN
}

// tanh for complex z: thrust's ctanh gives +-1 + 0j * sin(2b) at a = +-inf and
// NaN + NaN j at a = 0 with b infinite or NaN; the standard asks +-1 + 0j (with b's sign)
// and +-0 + NaN j there.
template <typename T>
__device__ complex<T> xpgpu_tanh(complex<T> z) {
    T a = z.real();
    T b = z.imag();
    if (isinf(a)) {
        return complex<T>(copysign(T(1), a), copysign(T(0), b));
    }
    if (a == 0 && !isfinite(b)) {
        return complex<T>(a, b - b);
    }
    return tanh(z);
}

// sign for complex z as NumPy's: z / |z|, 0 at 0, NaN + NaN j with a NaN part or two
// infinite parts, and the unit direction where one part is infinite.
template <typename T>
__device__ complex<T> xpgpu_sign(complex<T> z) {
    T a = z.real();
    T b = z.imag();
    if (isnan(a) || isnan(b) || (isinf(a) && isinf(b))) {
        T nan = a - a + b - b;
        return complex<T>(nan, nan);
    }
    if (isinf(a)) {
        return complex<T>(copysign(T(1), a), T(0));
    }
    if (isinf(b)) {
        return complex<T>(T(0), copysign(T(1), b));
    }
    T n = hypot(a, b);
    if (n == 0) {
        return complex<T>(T(0), T(0));
    }
    return complex<T>(a / n, b / n);
}

// log, log1p and acosh for complex z where one part is infinite and the other NaN:
// +inf + NaN j (thrust gives NaN + NaN j); acosh(+-0 + NaN j) is NaN + pi/2 j.
template <typename T>
__device__ bool xpgpu_inf_nan(T a, T b) {
    return (isinf(a) && isnan(b)) || (isnan(a) && isinf(b));
}

template <typename T>
__device__ complex<T> xpgpu_log(complex<T> z) {
    T a = z.real();
    T b = z.imag();
    return xpgpu_inf_nan(a, b) ? complex<T>(fabs(isinf(a) ? a : b), a - a + b - b) : log(z);
}

template <typename T>
__device__ complex<T> xpgpu_log1p(complex<T> z) {
    T a = z.real();
    T b = z.imag();
    return xpgpu_inf_nan(a, b) ? complex<T>(fabs(isinf(a) ? a : b), a - a + b - b) : log1p(z);
}

template <typename T>
__device__ complex<T> xpgpu_acosh(complex<T> z) {
    T a = z.real();
    T b = z.imag();
    if (a == 0 && isnan(b)) {
        return complex<T>(b, T(1.5707963267948966192313216916397514));
    }
    return xpgpu_inf_nan(a, b) ? complex<T>(fabs(isinf(a) ? a : b), a - a + b - b) : acosh(z);
}
"""

# Note: CuPy's float floor_divide is floor(a / b), which differs from Python's // (and
# NumPy's) for finite values (1 // 0.1 is 9.0, floor(1 / 0.1) is 10.0);
# the standard's infinities and signed zeros then come from a / b. The integer loops
# are CuPy's own (carray.cuh's _floor_divide, 0 for a zero divisor) — no upstream issue
# known for the finite values; infinities as https://github.com/numpy/numpy/issues/23860
_floor_divide = create_ufunc(
    "xpgpu_ufunc_floor_divide",
    (*((t, "out0 = _floor_divide(in0, in1)") for t in _INT_LOOPS), "ff->f", "dd->d"),
    "out0 = xpgpu_floor_divide(in0, in1)",
    preamble=PREAMBLE,
    doc="floor_divide with the standard's special cases.",
)

# Note: CuPy's float remainder is a - floor(a / b) * b, NaN for a finite a and an
# infinite b (the standard: a or b, as Python's %) and +0 for +0 % -2 (the standard: -0) —
# https://github.com/cupy/cupy/issues/8807
_remainder = create_ufunc(
    "xpgpu_ufunc_remainder",
    (*((t, "out0 = (in0 - _floor_divide(in0, in1) * in1) * (in1 != 0)")
       for t in _INT_LOOPS),
     "ff->f", "dd->d"),
    "out0 = xpgpu_remainder(in0, in1)",
    preamble=PREAMBLE,
    doc="remainder with the standard's special cases.",
)

# Real loops as CuPy's own; the complex loops call one of the device functions above.
def _complex_fix(name: str, body: str, real: str) -> Any:
    return create_ufunc(
        f"xpgpu_ufunc_{name}",
        ("f->f", "d->d", ("F->F", body), ("D->D", body)),
        real,
        preamble=PREAMBLE,
        doc=f"{name} with the standard's complex special cases.",
    )


# Note: CuPy's complex expm1 is exp(z) - 1 (inaccurate near 0, NaN parts at the
# standard's infinities; see also https://github.com/numpy/numpy/issues/21746) — no CuPy
# issue known
_expm1 = _complex_fix("expm1", "out0 = xpgpu_expm1(in0)", "out0 = expm1(in0)")

# Note: CuPy's complex tanh (FreeBSD's ctanh) follows C99 at real(z) = inf (imaginary
# part 0 * sin(2b)) and gives NaN + NaN j at 0 + inf j; the standard differs — no
# upstream issue known
_tanh = _complex_fix("tanh", "out0 = xpgpu_tanh(in0)", "out0 = tanh(in0)")

# Note: CuPy's complex sign is z / abs(z), NaN + NaN j for infinite parts where NumPy
# (and the standard's division rules) give the limit direction; the real loops repeat
# CuPy 14's (NaN for NaN, which older CuPy got wrong) — no upstream issue known
_SIGNED = "out0 = (in0 > 0) - (in0 < 0)"
_UNSIGNED = "out0 = in0 > 0"
_sign = create_ufunc(
    "xpgpu_ufunc_sign",
    (("b->b", _SIGNED), ("B->B", _UNSIGNED), ("h->h", _SIGNED), ("H->H", _UNSIGNED),
     ("i->i", _SIGNED), ("I->I", _UNSIGNED), ("l->l", _SIGNED), ("L->L", _UNSIGNED),
     ("q->q", _SIGNED), ("Q->Q", _UNSIGNED), "f->f", "d->d",
     ("F->F", "out0 = xpgpu_sign(in0)"), ("D->D", "out0 = xpgpu_sign(in0)")),
    "out0 = (in0 < 0 || in0 > 0) ? copysign(in0_type(1), in0) : in0 - in0",
    preamble=PREAMBLE,
    doc="sign with NaN for NaN and NumPy's complex limits.",
)


# Note: CuPy's complex log, log1p and acosh (thrust's) give NaN + NaN j where one part
# is infinite and the other NaN, and acosh gives NaN + NaN j at +-0 + NaN j; the standard
# (as C99) asks +inf + NaN j and NaN + pi/2 j — no upstream issue known
_log = _complex_fix("log", "out0 = xpgpu_log(in0)", "out0 = log(in0)")
_log1p = _complex_fix("log1p", "out0 = xpgpu_log1p(in0)", "out0 = log1p(in0)")
_acosh = _complex_fix("acosh", "out0 = xpgpu_acosh(in0)", "out0 = acosh(in0)")


def _typed(x1: Any, x2: Any) -> tuple[Any, Any]:
    """The operands with a Python scalar cast to the other operand's dtype, as a NumPy
    scalar (the callers validated its kind and range)."""
    if type(x1) is not _ndarray:
        return x2.dtype.type(x1), x2
    if type(x2) is not _ndarray:
        return x1, x1.dtype.type(x2)
    return x1, x2


def floor_divide(x1: Any, x2: Any) -> Any:
    return _floor_divide(*_typed(x1, x2))


def remainder(x1: Any, x2: Any) -> Any:
    return _remainder(*_typed(x1, x2))


FIXES: dict[str, Any] = {
    "floor_divide": floor_divide,
    "remainder": remainder,
    "expm1": _expm1,
    "tanh": _tanh,
    "sign": _sign,
    "log": _log,
    "log1p": _log1p,
    "acosh": _acosh,
}

# Each fix's ufunc by spec name, for fuse to run the same loops (_cupy_fuse).
UFUNCS: dict[str, Any] = {name: f for name, f in FIXES.items() if isinstance(f, cupy.ufunc)}
UFUNCS.update(floor_divide=_floor_divide, remainder=_remainder)
