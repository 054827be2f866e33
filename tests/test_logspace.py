"""logspace, the extension: exact integer dtypes on every device.

Oracle: the correctly rounded float64 power of NumPy's own linspace exponents, computed
with Python's fractions (integer exponents, exact) or decimal (60 digits), independent
of xpgpu. NumPy's logspace is compared too: it equals the oracle wherever NumPy's power
rounds correctly (on AVX-512 machines NumPy's array power is SVML's, which misrounds
a few hard cases such as 7.0 ** 19.0).

The CUDA kernel cannot run here, so its algorithm is checked on the CPU three ways:
its NumPy twin (``emulate``) fed a pow 1 to 3 ulp off must still give the oracle's
values; its C source, compiled for the host with g++ and the same perturbed pow, must
equal the twin bit for bit; and nvcc must compile it for sm_90 with --fmad=false.
On a CUDA device the ``cuda`` params check the kernel's own results against the oracle.
"""

from __future__ import annotations

import decimal
import math
import shutil
import subprocess
from fractions import Fraction

import numpy as np
import pytest
from conftest import to_numpy
from hypothesis import given, settings
from hypothesis import strategies as st
from logspace_oracle import GRID, INT_DTYPES, RANGES, cr_pow, int_oracle, oracle

import xpgpu as xp
from xpgpu._backend import _numpy_logspace as L


def numpy_logspace(case: tuple, dtype: str) -> np.ndarray:
    base, (start, stop, num, endpoint) = case
    with np.errstate(all="ignore"):
        return np.logspace(start, stop, num, endpoint, base, dtype=dtype)


def _moved(r: np.ndarray, k: np.ndarray) -> np.ndarray:
    """r moved k ulp (towards +inf for k > 0); 0 and inf stay, as pow returns them
    exactly on underflow and overflow."""
    r = np.asarray(r, dtype=np.float64)
    out = r.copy()
    for _ in range(int(np.max(np.abs(k), initial=0))):
        step = np.where(k > 0, np.nextafter(out, np.inf),
                        np.where(k < 0, np.nextafter(out, -np.inf), out))
        out = np.where(np.isfinite(step) & (np.sign(step) == np.sign(r)), step, out)
        k = k - np.sign(k)
    return np.where((r == 0) | ~np.isfinite(r), r, out)


def perturbed(k: int):
    """NumPy's power moved k ulp, as CUDA's may be (up to 2 ulp)."""
    def pow(a, y):
        r = np.power(a, y)
        return _moved(r, np.full(np.shape(r), k))
    return pow


def random_perturbed(seed: int):
    rng = np.random.default_rng(seed)

    def pow(a, y):
        r = np.power(a, y)
        return _moved(r, rng.integers(-2, 3, size=np.shape(r)))
    return pow


PERTURBATIONS = [perturbed(k) for k in (-3, -2, -1, 0, 1, 2, 3)] + [random_perturbed(7)]


# ---- the seed case and the traps ------------------------------------------------------

def test_seed_case(device):
    # CuPy 14.2 gives [2]: CUDA's pow(3.0, 1.0) is 2.9999999999999996.
    x = xp.logspace(1, 2, num=1, base=3, dtype=xp.int64, device=device)
    assert x.dtype == xp.int64 and x.device == device
    assert to_numpy(x).tolist() == [3]


@pytest.mark.parametrize(("base", "y", "expected"), [
    (3, np.nextafter(1.0, 0.0), 2),   # 3 ** y rounds to 2.9999999999999996, truncates to 2
    (2, np.nextafter(3.0, 0.0), 7),   # 2 ** y rounds to 7.999999999999998
    (3, 1.0, 3), (2, 3.0, 8), (10, 2.0, 100), (4, 0.5, 2), (9, 0.5, 3),
    (8, 1 / 3, 2),                    # 8 ** fl(1/3) is 1.99999999999999992..., rounds to 2
    (10, np.nextafter(2.0, 0.0), 99), (10, np.nextafter(2.0, 3.0), 100),
])
def test_near_integer_traps(device, base, y, expected):
    assert math.trunc(cr_pow(base, float(y))) == expected  # the oracle agrees
    for dtype in (xp.int64, xp.uint8, xp.int16):
        x = xp.logspace(float(y), 5.0, num=1, base=base, dtype=dtype, device=device)
        assert to_numpy(x).tolist() == [expected]
        # the same y as the last element of a grid with an endpoint
        x = xp.logspace(0.0, float(y), num=3, base=base, dtype=dtype, device=device)
        assert to_numpy(x)[-1] == expected


# ---- the full integer grid ------------------------------------------------------------

@pytest.mark.parametrize("dtype", INT_DTYPES)
def test_integer_grid(device, dtype):
    """Every (base, range) of the grid: exactly the oracle, or OverflowError."""
    checked = numpy_mismatch = 0
    for case in GRID:
        base, (start, stop, num, endpoint) = case
        want = int_oracle(case, dtype)
        if want is None:
            with pytest.raises(OverflowError, match=r"^logspace: "):
                xp.logspace(start, stop, num, base=base, endpoint=endpoint,
                            dtype=getattr(xp, dtype), device=device)
            continue
        got = to_numpy(xp.logspace(start, stop, num, base=base, endpoint=endpoint,
                                   dtype=getattr(xp, dtype), device=device))
        assert got.dtype == np.dtype(dtype)
        np.testing.assert_array_equal(got, want, err_msg=f"base={base} range={case[1]}")
        checked += 1
        # NumPy agrees wherever its own power is correctly rounded.
        npv = numpy_logspace(case, dtype)
        npf = numpy_logspace(case, "float64")
        differ = got != npv
        numpy_mismatch += int(differ.sum())
        assert np.all(npf[differ] != oracle(start, stop, num, endpoint, base)[differ])
    assert checked >= 40
    assert numpy_mismatch <= 8  # NumPy's own misroundings (SVML), 0 with glibc's pow


@pytest.mark.parametrize("dtype", ["int8", "int32", "int64", "uint64"])
def test_negative_bases(device, dtype):
    for base in range(-10, -1):
        for start, stop, num in [(0, 7, 8), (-2, 2, 5), (0, 40, 41), (3, 1, 3)]:
            want = int_oracle((base, (start, stop, num, True)), dtype)
            if want is None:
                with pytest.raises(OverflowError, match=r"^logspace: "):
                    xp.logspace(start, stop, num, base=base, dtype=getattr(xp, dtype),
                                device=device)
                continue
            got = xp.logspace(start, stop, num, base=base, dtype=getattr(xp, dtype),
                              device=device)
            np.testing.assert_array_equal(to_numpy(got), want)


# ---- the kernel's algorithm, checked on the CPU ---------------------------------------

def test_exponents_are_numpy_linspace():
    cases = [(s, t, n, e) for (s, t, n, e) in RANGES] + [
        (0, 1e-320, 5, True), (5, 5, 4, True), (-1, 1, 0, True), (2, 3, 1, False),
        (1e300, -1e300, 7, True), (-0.0, 0.0, 3, True), (0.1, 0.7, 1000, False),
        (3.7, -2.2, 33, True), (1, 1 + 2**-52, 9, True),
    ]
    for start, stop, num, endpoint in cases:
        p = L.plan(float(start), float(stop), num, endpoint, 10.0)
        got = L.exponents(p, num)
        want = np.linspace(start, stop, num, endpoint)
        assert got.tobytes() == want.tobytes(), (start, stop, num, endpoint)


def test_emulated_kernel_under_perturbed_pow():
    """The correction recovers the oracle exactly with a pow 1 to 3 ulp off."""
    mismatches = naive = 0
    for base, (start, stop, num, endpoint) in GRID:
        want = np.trunc(oracle(start, stop, num, endpoint, base))
        for pow in PERTURBATIONS:
            with np.errstate(all="ignore"):
                got = L.emulate(start, stop, num, endpoint, base, np.float64, pow)
                p = L.plan(float(start), float(stop), num, endpoint, float(base))
                got = L.values(p, L.exponents(p, num), True, pow)
            mismatches += int((got != want).sum())
        with np.errstate(all="ignore"):
            raw = perturbed(-1)(np.float64(base), np.linspace(start, stop, num, endpoint))
        naive += int((np.trunc(raw) != want).sum())
    assert mismatches == 0
    assert naive > 100  # truncating a pow 1 ulp low, as CuPy does, is often wrong


@pytest.mark.parametrize("dtype", INT_DTYPES)
def test_emulated_kernel_dtypes(dtype):
    for case in GRID:
        want = int_oracle(case, dtype)
        if want is None:
            continue
        base, (start, stop, num, endpoint) = case
        for pow in PERTURBATIONS[:3] + PERTURBATIONS[-3:]:
            got = L.emulate(start, stop, num, endpoint, base, dtype, pow)
            np.testing.assert_array_equal(got, want)


def test_emulated_kernel_floats():
    """Floating outputs are correctly rounded whatever pow's error."""
    for base in (2, 3, 10, 0.5, 7.25, 1e-3):
        for start, stop, num, endpoint in [*RANGES[:12], (-300, 300, 61, True)]:
            want = oracle(float(start), float(stop), num, endpoint, float(base))
            for pow in PERTURBATIONS[::2]:
                got = L.emulate(start, stop, num, endpoint, base, np.float64, pow)
                assert got.tobytes() == want.tobytes(), (base, start, stop, num)
                got32 = L.emulate(start, stop, num, endpoint, base, np.float32, pow)
                with np.errstate(over="ignore"):
                    assert got32.tobytes() == want.astype(np.float32).tobytes()


def test_double_double_constants():
    with decimal.localcontext() as ctx:
        ctx.prec = 60
        ln2 = Fraction(decimal.Decimal(2).ln())
    assert abs(Fraction(L.LN2[0]) + Fraction(L.LN2[1]) - ln2) < Fraction(1, 2**106)
    for k, (hi, lo) in zip(range(3, 10), L.INV_FACT, strict=True):
        q = Fraction(1, math.factorial(k))
        assert hi == float(q) and lo == float(q - Fraction(hi))


def test_exp_dd_accuracy():
    rng = np.random.default_rng(3)
    t = np.concatenate([rng.uniform(-700, 709, 300), rng.uniform(-1, 1, 200),
                        rng.uniform(-1e-6, 1e-6, 50)])
    hi, lo = L._exp_dd(t, np.zeros_like(t))
    with decimal.localcontext() as ctx:
        ctx.prec = 60
        for ti, h, lw in zip(t, hi, lo, strict=True):
            exact = decimal.Decimal(float(ti)).exp()
            assert h == float(exact)
            if -650 < ti:
                err = abs(decimal.Decimal(float(h)) + decimal.Decimal(float(lw)) - exact)
                assert err / exact < decimal.Decimal(2) ** -92


@settings(max_examples=60, deadline=None)
@given(start=st.floats(-25, 25), length=st.floats(0, 25), num=st.integers(0, 12),
       endpoint=st.booleans(), base=st.sampled_from([2, 3, 5, 10, 1.5, 0.5, 6.25, 2.0**0.5]),
       k=st.integers(-2, 2))
def test_emulated_kernel_random(start, length, num, endpoint, base, k):
    stop = start + length
    want = np.trunc(oracle(start, stop, num, endpoint, base))
    p = L.plan(start, stop, num, endpoint, float(base))
    with np.errstate(all="ignore"):
        got = L.values(p, L.exponents(p, num), True, perturbed(k))
    np.testing.assert_array_equal(got, want)
    if np.all(np.abs(want) < 2.0**63):
        got = to_numpy(xp.logspace(start, stop, num, base=base, endpoint=endpoint,
                                   dtype=xp.int64, device="cpu"))
        np.testing.assert_array_equal(got, want.astype(np.int64))
    else:
        with pytest.raises(OverflowError, match=r"^logspace: "):
            xp.logspace(start, stop, num, base=base, endpoint=endpoint, dtype=xp.int64,
                        device="cpu")


_HARNESS = r"""#define __host__
#define __device__
#define __forceinline__ inline
#include <cmath>
#include <cstdio>
#include <cstdlib>
using std::isfinite;
static int xl_k = 0;
double xl_test_pow(double a, double y) {
    double r = pow(a, y), out = r;
    if (r == 0.0 || !isfinite(r)) return r;
    for (int j = 0; j < abs(xl_k); ++j) {
        double s = nextafter(out, xl_k > 0 ? INFINITY : -INFINITY);
        if (isfinite(s) && s != 0.0 && (s > 0.0) == (r > 0.0)) out = s;
    }
    return out;
}
%s
int main() {
    // lines "E th tl" print xl_exp_dd's hi and lo; lines "L n start ... k" the elements
    long long n, last;
    double start, stop, delta, step, div, a, lhi, llo, odd, th, tl, lo;
    int mode, neg, twos, int_out, k;
    char tag;
    while (scanf(" %%c", &tag) == 1) {
        if (tag == 'E') {
            if (scanf("%%la %%la", &th, &tl) != 2) return 1;
            double hi = xl_exp_dd(th, tl, lo);
            printf("%%a %%a\n", hi, lo);
            continue;
        }
        if (scanf("%%lld %%la %%la %%la %%la %%la %%d %%lld %%la %%d %%la %%la %%la %%d %%d %%d",
                  &n, &start, &stop, &delta, &step, &div, &mode, &last, &a, &neg, &lhi, &llo,
                  &odd, &twos, &int_out, &k) != 16) return 1;
        xl_k = k;
        for (long long i = 0; i < n; ++i)
            printf("%%a\n", xl_logspace(i, start, stop, delta, step, div, mode, last, a, neg,
                                         lhi, llo, odd, twos, int_out));
    }
    return 0;
}
"""


@pytest.mark.skipif(shutil.which("g++") is None, reason="no g++")
def test_kernel_source_on_host(tmp_path):
    """The kernel's C source, built for the host (glibc pow moved k ulp), equals the
    NumPy twin bit for bit."""
    src = tmp_path / "host.cpp"
    src.write_text(_HARNESS % L.kernel_source("xl_test_pow"))
    exe = tmp_path / "host"
    subprocess.run(["g++", "-O2", "-ffp-contract=off", "-std=c++17", str(src), "-o", str(exe)],
                   check=True, capture_output=True)
    lines, expected = [], []
    ranges = [*RANGES, (-300, 300, 61, True), (0, 1e-300, 5, True), (1, 1, 4, True),
              (-5, 5, 0, True), (0.5, 1.5, 3, True)]
    for base in (2, 3, 7, 10, 0.5, 2.5, -2, -3, -1.5, 0, 1, -0.0, 1e10, 123456789):
        for start, stop, num, endpoint in ranges:
            p = L.plan(float(start), float(stop), num, endpoint, float(base))
            for int_out in (0, 1):
                for k in (-2, 0, 2):
                    fields = [str(num), *(float(x).hex() for x in p[:5]), str(p.mode),
                              str(p.last), p.a.hex(), str(p.neg), p.lhi.hex(), p.llo.hex(),
                              p.odd.hex(), str(p.twos), str(int_out), str(k)]
                    lines.append("L " + " ".join(fields))
                    with np.errstate(all="ignore"):
                        expected.append(L.values(p, L.exponents(p, num), bool(int_out),
                                                 perturbed(k)))
    # exp_dd alone, both parts: a lost low part rarely shows in the rounded values
    rng = np.random.default_rng(5)
    th = np.concatenate([rng.uniform(-700, 709, 400), rng.uniform(-2, 2, 200)])
    tl = th * rng.uniform(-2.0**-53, 2.0**-53, th.size)
    lines += [f"E {h.hex()} {lw.hex()}" for h, lw in zip(th, tl, strict=True)]
    hi, lo = L._exp_dd(th, tl)
    expected.append(np.stack([hi, lo], axis=1).ravel())
    out = subprocess.run([str(exe)], input="\n".join(lines) + "\n", capture_output=True,
                         text=True, check=True).stdout.split()
    got = np.array([float.fromhex(v) if "n" not in v else float(v.replace("-nan", "nan"))
                    for v in out])
    want = np.concatenate(expected)
    assert got.shape == want.shape
    assert got.tobytes() == want.tobytes() or np.array_equal(got, want, equal_nan=True)
    assert np.array_equal(np.signbit(got), np.signbit(want))


@pytest.mark.skipif(shutil.which("nvcc") is None, reason="no nvcc")
def test_kernel_source_compiles(tmp_path):
    """nvcc accepts the kernel source for sm_90 with --fmad=false, as NVRTC gets it."""
    src = tmp_path / "k.cu"
    body = ""
    for name, ctype in [("i8", "signed char"), ("u64", "unsigned long long"),
                        ("f32", "float"), ("f64", "double")]:
        body += f"""
extern "C" __global__ void k_{name}({ctype}* o, long long n, double start, double stop,
        double delta, double step, double div, int mode, long long last, double a, int neg,
        double lhi, double llo, double odd, int twos, int int_out) {{
    long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    if (i < n) o[i] = ({ctype})xl_logspace(i, start, stop, delta, step, div, mode, last, a,
                                           neg, lhi, llo, odd, twos, int_out);
}}"""
    src.write_text(L.kernel_source() + body)
    result = subprocess.run(["nvcc", "-c", "-arch=sm_90", "--fmad=false", str(src), "-o",
                             str(tmp_path / "k.o")], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


# ---- floating and complex dtypes ------------------------------------------------------

FLOAT_CASES = [(b, r) for b in (2, 3, 10, 0.5, 7.25) for r in RANGES[:13]]


def _ulps(got: np.ndarray, want: np.ndarray) -> np.ndarray:
    """How many ulp of ``want`` apart (0 where equal, infinities included)."""
    with np.errstate(invalid="ignore", over="ignore"):
        d = np.abs(got - want) / np.spacing(np.abs(want).astype(want.dtype))
    return np.where(got == want, 0, d)


def test_float64(device):
    for base, (start, stop, num, endpoint) in FLOAT_CASES:
        got = to_numpy(xp.logspace(start, stop, num, base=base, endpoint=endpoint,
                                   device=device))
        assert got.dtype == np.float64
        want = np.logspace(start, stop, num, endpoint, base)
        assert np.all(_ulps(got, want) <= 1), (base, start, stop)
        exact = oracle(start, stop, num, endpoint, base)
        if device.kind == "cuda":  # the kernel: correctly rounded
            assert got.tobytes() == exact.tobytes(), (base, start, stop)
        else:  # NumPy's own values
            assert got.tobytes() == want.tobytes()


def test_float32(device):
    for base, (start, stop, num, endpoint) in FLOAT_CASES:
        got = to_numpy(xp.logspace(start, stop, num, base=base, endpoint=endpoint,
                                   dtype=xp.float32, device=device))
        assert got.dtype == np.float32
        with np.errstate(over="ignore"):
            want = np.logspace(start, stop, num, endpoint, base, dtype=np.float32)
        assert np.all(_ulps(got, want) <= 1)
        if device.kind == "cuda":  # one rounding of the correctly rounded float64
            exact = oracle(start, stop, num, endpoint, base).astype(np.float32)
            assert got.tobytes() == exact.tobytes()


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_complex(device, dtype):
    got = to_numpy(xp.logspace(0, 3, 7, base=2.5, dtype=getattr(xp, dtype), device=device))
    assert got.dtype == np.dtype(dtype)
    assert np.all(got.imag == 0)
    want = np.logspace(0, 3, 7, base=2.5, dtype=dtype)
    assert np.all(_ulps(got.real, want.real) <= 1)


def test_defaults_and_shapes(device):
    x = xp.logspace(0, 2, device=device)
    assert x.shape == (50,) and x.dtype == xp.float64 and x.device == device
    assert xp.logspace(0, 2, 0, device=device).shape == (0,)
    assert xp.logspace(0, 2, 0, dtype=xp.int8, device=device).dtype == xp.int8
    got = to_numpy(xp.logspace(0, 2, 3, endpoint=False, dtype=xp.int32, device=device))
    np.testing.assert_array_equal(got, np.logspace(0, 2, 3, endpoint=False, dtype=np.int32))
    # base 0 and 1, huge and tiny values
    np.testing.assert_array_equal(
        to_numpy(xp.logspace(-1, 1, 3, base=0, device=device)), [np.inf, 1.0, 0.0])
    np.testing.assert_array_equal(
        to_numpy(xp.logspace(0, 1, 3, base=0, dtype=xp.uint8, device=device)), [1, 0, 0])
    np.testing.assert_array_equal(
        to_numpy(xp.logspace(-5, 5, 3, base=1, dtype=xp.int8, device=device)), [1, 1, 1])
    np.testing.assert_array_equal(
        to_numpy(xp.logspace(-3, 3, 3, base=10, dtype=xp.int16, device=device)), [0, 1, 1000])
    assert to_numpy(xp.logspace(300, 400, 2, device=device)).tolist() == [1e300, math.inf]
    np.testing.assert_array_equal(
        to_numpy(xp.logspace(0, 63, 2, base=2, dtype=xp.uint64, device=device)), [1, 2**63])
    # a NumPy dtype instance is accepted
    assert xp.logspace(0, 1, 2, dtype=np.dtype("int16"), device=device).dtype == xp.int16


# ---- errors ---------------------------------------------------------------------------

@pytest.mark.strict_only
@pytest.mark.parametrize(("args", "kwargs", "error"), [
    ((0, 1), {"dtype": xp.bool}, TypeError),
    ((0j, 1), {}, TypeError),
    (("0", 1), {}, TypeError),
    ((True, 1), {}, TypeError),
    ((0, 1), {"base": 2j}, TypeError),
    ((0, 1), {"endpoint": 1}, TypeError),
    ((0, 1, 2.0), {}, TypeError),
    ((0, 1), {"dtype": "float64"}, TypeError),
    ((0, 1, -1), {}, ValueError),
    ((math.nan, 1), {}, ValueError),
    ((0, math.inf), {}, ValueError),
    ((0, 1), {"base": math.nan}, ValueError),
    ((-1e308, 1e308), {}, ValueError),
    ((10**400, 1), {}, OverflowError),
    ((0, 3.5, 4), {"base": -2}, ValueError),
    ((0, 3.5, 4), {"base": -2, "dtype": xp.int64}, ValueError),
    ((0.5, 0.5, 1), {"base": -4, "dtype": xp.float32}, ValueError),
    ((0, 3, 4), {"dtype": xp.int8}, OverflowError),
    ((0, 1, 2), {"base": -2, "dtype": xp.uint8}, OverflowError),
    ((0, 7, 8), {"base": -2, "dtype": xp.int8}, None),         # -128 fits int8
    ((0, 8, 9), {"base": -2, "dtype": xp.int8}, OverflowError),  # 256 does not
    ((-1, 1, 3), {"base": 0, "dtype": xp.int64}, OverflowError),  # 0 ** -1 is inf
    ((0, 64, 2), {"base": 2, "dtype": xp.uint64}, OverflowError),
    ((0, 8, 2), {"base": 2, "dtype": xp.uint8}, OverflowError),
    ((0, 7, 2), {"base": 2, "dtype": xp.int8}, OverflowError),  # 128
])
def test_errors(device, args, kwargs, error):
    if error is None:
        xp.logspace(*args, device=device, **kwargs)
        return
    with pytest.raises(error, match=r"^logspace: "):
        xp.logspace(*args, device=device, **kwargs)


def test_bad_device():
    with pytest.raises(ValueError, match=r"^logspace: "):
        xp.logspace(0, 1, device="cuda:99")
    with pytest.raises(TypeError, match=r"^logspace: "):
        xp.logspace(0, 1, device=0)


def test_cpu_matches_numpy_without_warnings(recwarn):
    xp.logspace(0, 400, 5, device="cpu")
    xp.logspace(0, 20, 5, dtype=xp.float32, device="cpu")
    xp.logspace(-1, 1, 3, base=0, device="cpu")
    assert not [w for w in recwarn if issubclass(w.category, RuntimeWarning)]
