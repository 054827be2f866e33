"""The standard's special cases where NumPy or CuPy answer otherwise, written out from the
function pages (https://data-apis.org/array-api/2025.12/API_specification/elementwise_functions.html),
checked exactly (signed zeros and NaNs included) on each device and floating dtype.

On CUDA these exercise the fused kernels of ``xpgpu/_backend/_cupy_special.py``
(floor_divide, remainder, expm1, tanh, sign, log, log1p, acosh); on the CPU the NumPy repairs of
``xpgpu/_backend/_numpy_special.py`` (floor_divide, pow, expm1, tanh, sign).
"""

from __future__ import annotations

import math
import operator

import numpy as np
import pytest
from conftest import to_numpy

import xpgpu as xp

inf, nan = math.inf, math.nan
FINITE_POS = [0.5, 1.0, 2.5, 3.0, 7.0]
FINITE_NEG = [-0.5, -1.0, -2.5, -3.0, -7.0]


def same(got: float, want: float) -> bool:
    """Equal as IEEE values: NaN matches NaN, and zeros must have the same sign."""
    if math.isnan(want):
        return math.isnan(got)
    if want == 0:
        return got == 0 and math.copysign(1, got) == math.copysign(1, want)
    return got == want


# floor_divide: (x1, x2, result), from the spec's list.
FLOOR_DIVIDE = (
    [(inf, b, inf) for b in FINITE_POS] + [(inf, b, -inf) for b in FINITE_NEG]
    + [(-inf, b, -inf) for b in FINITE_POS] + [(-inf, b, inf) for b in FINITE_NEG]
    + [(a, inf, 0.0) for a in FINITE_POS] + [(a, -inf, -0.0) for a in FINITE_POS]
    + [(a, inf, -0.0) for a in FINITE_NEG] + [(a, -inf, 0.0) for a in FINITE_NEG]
    + [(inf, inf, nan), (-inf, inf, nan), (inf, -inf, nan), (0.0, 0.0, nan), (-0.0, 0.0, nan)]
    + [(0.0, 2.0, 0.0), (-0.0, 2.0, -0.0), (0.0, -2.0, -0.0), (-0.0, -2.0, 0.0)]
    + [(1.0, 0.0, inf), (1.0, -0.0, -inf), (-1.0, 0.0, -inf), (-1.0, -0.0, inf)]
    + [(nan, 1.0, nan), (1.0, nan, nan), (7.0, 2.0, 3.0), (-7.0, 2.0, -4.0), (7.0, -2.0, -4.0)]
    + [(1.0, 0.125, 8.0), (-7.5, -2.5, 3.0), (5.0, 10.0, 0.0)]
)

# remainder: (x1, x2, result); "the result must match Python's %" elsewhere.
REMAINDER = (
    [(a, inf, a) for a in FINITE_POS] + [(a, -inf, -inf) for a in FINITE_POS]
    + [(a, inf, inf) for a in FINITE_NEG] + [(a, -inf, a) for a in FINITE_NEG]
    + [(inf, 2.0, nan), (-inf, -2.0, nan), (inf, inf, nan), (0.0, 0.0, nan), (1.0, -0.0, nan)]
    + [(0.0, 2.0, 0.0), (-0.0, 2.0, 0.0), (0.0, -2.0, -0.0), (-0.0, -2.0, -0.0)]
    + [(nan, 1.0, nan), (1.0, nan, nan), (7.0, -2.0, -1.0), (-7.0, 2.0, 1.0), (5.5, 2.0, 1.5)]
)

# pow where NumPy's x ** 0.5 shortcut (sqrt) disagrees, and neighbours.
POW = [
    (-inf, 0.5, inf), (-0.0, 0.5, 0.0), (0.0, 0.5, 0.0), (4.0, 0.5, 2.0), (-4.0, 0.5, nan),
    (inf, 0.5, inf), (nan, 0.5, nan), (-inf, 1.5, inf), (-0.0, 1.5, 0.0), (-inf, 3.0, -inf),
    (-0.0, 3.0, -0.0), (nan, 0.0, 1.0), (1.0, nan, 1.0), (-1.0, inf, 1.0), (0.5, inf, 0.0),
    (0.5, -inf, inf), (-0.0, -1.0, -inf), (-0.0, -2.0, inf),
]

# Complex: (a, b, (re, im)); None for a part whose sign the standard leaves unspecified
# (checked by magnitude / NaN-ness only).
EXPM1 = [
    (0.0, 0.0, (0.0, 0.0)), (-0.0, 0.0, (0.0, 0.0)),
    (1.0, inf, (nan, nan)), (1.0, nan, (nan, nan)), (inf, 0.0, (inf, 0.0)),
    (-inf, 1.0, (-1.0, 0.0)), (-inf, 4.0, (-1.0, -0.0)),  # +0 * cis(b) - 1
    (inf, 1.0, (inf, inf)), (inf, 2.0, (-inf, inf)),  # +inf * cis(b) - 1
    (-inf, inf, (-1.0, None)), (inf, inf, (None, nan)), (-inf, nan, (-1.0, None)),
    (inf, nan, (None, nan)), (nan, 0.0, (nan, 0.0)), (nan, 1.0, (nan, nan)),
    (nan, nan, (nan, nan)),
]
TANH = [
    (0.0, 0.0, (0.0, 0.0)), (1.0, inf, (nan, nan)), (0.0, inf, (0.0, nan)),
    (1.0, nan, (nan, nan)), (0.0, nan, (0.0, nan)),
    (inf, 1.0, (1.0, 0.0)), (inf, 2.0, (1.0, 0.0)), (inf, 3.0, (1.0, 0.0)),
    (inf, inf, (1.0, None)), (inf, nan, (1.0, None)),
    (nan, 0.0, (nan, 0.0)), (nan, 1.0, (nan, nan)), (nan, nan, (nan, nan)),
    # tanh(conj(z)) == conj(tanh(z)) and tanh(-z) == -tanh(z)
    (inf, -2.0, (1.0, -0.0)), (-inf, 2.0, (-1.0, 0.0)), (-0.0, inf, (-0.0, nan)),
]
SIGN = [
    (0.0, 0.0, (0.0, 0.0)), (-0.0, -0.0, (0.0, 0.0)), (nan, 1.0, (nan, nan)),
    (1.0, nan, (nan, nan)), (inf, nan, (nan, nan)), (nan, inf, (nan, nan)),
    (3.0, 4.0, (0.6, 0.8)), (-3.0, 0.0, (-1.0, 0.0)),
]
REAL_SIGN = [(-2.0, -1.0), (-0.0, 0.0), (0.0, 0.0), (3.0, 1.0), (nan, nan), (inf, 1.0),
             (-inf, -1.0)]


def _run_binary(func, cases, device, dtype):
    x1 = xp.asarray(np.array([c[0] for c in cases], dtype=dtype), device=device)
    x2 = xp.asarray(np.array([c[1] for c in cases], dtype=dtype), device=device)
    with np.errstate(all="ignore"):
        got = to_numpy(func(x1, x2))
    assert got.dtype == np.dtype(dtype)
    bad = [(a, b, float(g), w) for (a, b, w), g in zip(cases, got, strict=True)
           if not same(float(g), w)]
    assert not bad, bad


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("func", [xp.floor_divide, operator.floordiv], ids=["fn", "op"])
def test_floor_divide(device, dtype, func) -> None:
    """floor_divide / __floordiv__: infinities and signed zeros per the spec."""
    _run_binary(func, FLOOR_DIVIDE, device, dtype)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("func", [xp.remainder, operator.mod], ids=["fn", "op"])
def test_remainder(device, dtype, func) -> None:
    """remainder / __mod__: x1 or x2 with an infinite divisor, signed zeros, as Python's %."""
    _run_binary(func, REMAINDER, device, dtype)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_pow(device, dtype) -> None:
    """pow with arrays, with a scalar 0.5 exponent, and the in-place operator."""
    _run_binary(xp.pow, POW, device, dtype)
    x = xp.asarray(np.array([-inf, -0.0, 4.0], dtype=dtype), device=device)
    for out in (xp.pow(x, 0.5), x ** 0.5, xp.pow(x, xp.asarray(0.5, dtype=x.dtype,
                                                                device=device))):
        got = [float(g) for g in to_numpy(out)]
        assert got == [inf, 0.0, 2.0] and math.copysign(1, got[1]) == 1, got
        assert out.dtype == x.dtype
    x **= 0.5
    got = to_numpy(x)
    assert got[0] == inf and math.copysign(1, got[1]) == 1


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_floor_divide_scalars(device, dtype) -> None:
    """Python scalars on either side keep the array's dtype (NEP 50) and the special cases."""
    x = xp.asarray(np.array([inf, -inf, 1.0, -1.0], dtype=dtype), device=device)
    with np.errstate(all="ignore"):
        for out, want in ((xp.floor_divide(x, 2.0), [inf, -inf, 0.0, -1.0]),
                          (x // -inf, [nan, nan, -0.0, 0.0]),
                          (xp.floor_divide(1.0, x), [0.0, -0.0, 1.0, -1.0]),
                          (xp.remainder(x, 2), [nan, nan, 1.0, 1.0]),
                          (xp.remainder(3.0, x), [3.0, -inf, 0.0, -0.0])):
            assert out.dtype == np.dtype(dtype)
            got = [float(g) for g in to_numpy(out)]
            assert all(same(g, w) for g, w in zip(got, want, strict=True)), (got, want)


def _check_complex(func, cases, device, dtype):
    z = np.array([complex(a, b) for a, b, _ in cases], dtype=dtype)
    with np.errstate(all="ignore"):
        got = to_numpy(func(xp.asarray(z, device=device)))
    assert got.dtype == np.dtype(dtype)
    bad = []
    for (a, b, (re, im)), g in zip(cases, got, strict=True):
        for part, want in ((float(g.real), re), (float(g.imag), im)):
            if want is None:
                ok = abs(part) in (1.0, inf, 0.0) or math.isnan(part)
            elif math.isnan(want) or math.isinf(want) or want == 0:
                ok = same(part, want)
            else:
                ok = math.isclose(part, want, rel_tol=1e-6)
            if not ok:
                bad.append((complex(a, b), complex(g), (re, im)))
    assert not bad, bad


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_expm1_complex(device, dtype) -> None:
    """expm1 of complex: the spec's list (C99's cexp(z) - 1), with +0 real at -0 + 0j."""
    _check_complex(xp.expm1, EXPM1, device, dtype)


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_expm1_complex_accuracy(device, dtype) -> None:
    """Near 0 the result keeps its relative accuracy (not exp(z) - 1)."""
    z = np.array([1e-6 + 1e-6j, -2e-5 + 3e-7j, 0.5 - 0.25j], dtype=dtype)
    got = to_numpy(xp.expm1(xp.asarray(z, device=device)))
    # expm1(a + bj) = expm1(a) cos(b) - 2 sin(b/2)**2 + j exp(a) sin(b), in float64
    w = z.astype("complex128")
    want = (np.expm1(w.real) * np.cos(w.imag) - 2 * np.sin(w.imag / 2) ** 2
            + 1j * np.exp(w.real) * np.sin(w.imag))
    np.testing.assert_allclose(got, want, rtol=5e-6 if dtype == "complex64" else 1e-12)


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_tanh_complex(device, dtype) -> None:
    """tanh of complex: 1 + 0j at +inf + bj for every finite b > 0, and the symmetries."""
    _check_complex(xp.tanh, TANH, device, dtype)


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_sign_complex(device, dtype) -> None:
    """sign of complex: 0 at 0, NaN + NaN j with any NaN part, z / |z| otherwise."""
    _check_complex(xp.sign, SIGN, device, dtype)


# log, log1p and acosh of complex where one part is infinite and the other NaN, and the
# spec's other cases of these functions (acosh(+-0 + NaN j): the spec allows +-pi/2).
HALF_PI = math.pi / 2
LOG = [(inf, nan, (inf, nan)), (-inf, nan, (inf, nan)), (nan, inf, (inf, nan)),
       (nan, -inf, (inf, nan)), (-0.0, 0.0, (-inf, math.pi)), (0.0, 0.0, (-inf, 0.0)),
       (inf, 0.0, (inf, 0.0)), (-inf, 1.0, (inf, math.pi)), (nan, nan, (nan, nan)),
       (1.0, 0.0, (0.0, 0.0))]
LOG1P = [(inf, nan, (inf, nan)), (-inf, nan, (inf, nan)), (nan, inf, (inf, nan)),
         (-1.0, 0.0, (-inf, 0.0)), (0.0, 0.0, (0.0, 0.0)), (nan, nan, (nan, nan))]
ACOSH = [(0.0, nan, (nan, HALF_PI)), (-0.0, nan, (nan, HALF_PI)), (inf, nan, (inf, nan)),
         (nan, inf, (inf, nan)), (0.0, 0.0, (0.0, HALF_PI)), (nan, nan, (nan, nan))]


@pytest.mark.parametrize("func, cases", [(xp.log, LOG), (xp.log1p, LOG1P), (xp.acosh, ACOSH)],
                         ids=["log", "log1p", "acosh"])
@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_log_family_complex(device, dtype, func, cases) -> None:
    """log, log1p, acosh of complex at infinities and NaNs (CuPy's give NaN + NaN j)."""
    _check_complex(func, cases, device, dtype)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_sign_real(device, dtype) -> None:
    """sign of real floats: -1, 0, +1, and NaN for NaN."""
    x = xp.asarray(np.array([c[0] for c in REAL_SIGN], dtype=dtype), device=device)
    got = [float(g) for g in to_numpy(xp.sign(x))]
    assert all(same(g, w) for g, (_, w) in zip(got, REAL_SIGN, strict=True)), got


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex64", "complex128"])
def test_fixes_keep_ordinary_values(device, dtype) -> None:
    """The fixed functions equal NumPy away from the special cases, in every shape."""
    rng = np.random.default_rng(0)
    shape = (3, 4)
    a = rng.uniform(-3, 3, shape).astype(dtype)
    if dtype.startswith("complex"):
        a = a + 1j * rng.uniform(-3, 3, shape).astype(dtype)
    funcs = [(xp.expm1, np.expm1), (xp.tanh, np.tanh), (xp.sign, np.sign)]
    x = xp.asarray(a, device=device)
    rtol = 1e-12 if dtype in ("float64", "complex128") else 2e-6
    for f, g in funcs:
        np.testing.assert_allclose(to_numpy(f(x)), g(a), rtol=rtol)
    if not dtype.startswith("complex"):
        b = rng.uniform(0.5, 3, shape).astype(dtype) * rng.choice([-1, 1], shape)
        y = xp.asarray(b, device=device)
        np.testing.assert_array_equal(to_numpy(xp.floor_divide(x, y)), np.floor_divide(a, b))
        np.testing.assert_array_equal(to_numpy(xp.remainder(x, y)), np.remainder(a, b))
        np.testing.assert_array_equal(to_numpy(xp.floor_divide(x, y[0, :])),
                                      np.floor_divide(a, b[0]))


def test_floor_divide_integers(device) -> None:
    """Integer floor_divide and remainder round toward -inf, as Python's // and %."""
    a = np.array([7, -7, 7, -7, 0], dtype="int32")
    b = np.array([2, 2, -2, -2, 3], dtype="int32")
    x1, x2 = xp.asarray(a, device=device), xp.asarray(b, device=device)
    np.testing.assert_array_equal(to_numpy(xp.floor_divide(x1, x2)), [3, -4, -4, 3, 0])
    np.testing.assert_array_equal(to_numpy(xp.remainder(x1, x2)), [1, 1, -1, -1, 0])
    assert xp.floor_divide(x1, 2).dtype == xp.int32
