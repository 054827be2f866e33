"""xpgpu's own element-wise kernels on CUDA (xpgpu/_backend/_cupy_kernels.py) against
CuPy's path, which they replace for large contiguous operands: bit for bit equal values,
equal dtypes, for every element-wise function, every dtype its category allows (written
out below, independently of xpgpu's tables), the special values (NaN, +-inf, +-0, the
dtype's extremes, subnormals), arrays with arrays and with Python scalars, and where,
clip and astype. Each case runs twice on the same inputs: once with the kernels forced
(``THRESHOLD = 1``) and once with them off, and checks that the first run launched one.

    python -m pytest tests/test_kernels.py -m cuda
"""

from __future__ import annotations

import math
import zlib

import numpy as np
import pytest
from conftest import to_numpy

import xpgpu as xp
from xpgpu import _devices
from xpgpu._elementwise import TABLE

pytestmark = [pytest.mark.cuda, pytest.mark.filterwarnings("ignore::RuntimeWarning")]

if not _devices.cuda_devices():
    pytest.skip("no CUDA device", allow_module_level=True)

from xpgpu._backend import _cupy_kernels as K  # noqa: E402  (needs CuPy)
from xpgpu._backend import _cupy_launch as L  # noqa: E402

INTS = ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"]
REAL_FLOATS = ["float32", "float64"]
COMPLEX = ["complex64", "complex128"]
CATEGORY_DTYPES = {
    "numeric": INTS + REAL_FLOATS + COMPLEX,
    "real numeric": INTS + REAL_FLOATS,
    "integer": INTS,
    "integer or boolean": ["bool", *INTS],
    "boolean": ["bool"],
    "all": ["bool", *INTS, *REAL_FLOATS, *COMPLEX],
    "floating-point": REAL_FLOATS + COMPLEX,
    "real floating-point": REAL_FLOATS,
    "complex floating-point": COMPLEX,
}
N = 4099  # not a multiple of any vector width: the tail is exercised


def specials(dtype: str) -> list:
    d = np.dtype(dtype)
    if d.kind == "b":
        return [True, False]
    if d.kind in "iu":
        info = np.iinfo(d)
        vals = [0, 1, 2, 3, 5, 7, 31, 100, int(info.max), int(info.max) - 1]
        if d.kind == "i":
            vals += [-1, -2, -7, -100, int(info.min), int(info.min) + 1]
        return vals
    f = np.finfo(d if d.kind == "f" else np.dtype(f"f{d.itemsize // 2}"))
    real = [0.0, -0.0, 1.0, -1.0, 0.5, -2.5, 3.0, 1e-3, 100.0, -7.25, math.inf, -math.inf,
            math.nan, float(f.max), -float(f.max), float(f.smallest_normal),
            float(f.smallest_subnormal), -float(f.smallest_subnormal), 88.5, -745.0]
    if d.kind == "f":
        return real
    # subnormal parts: the kernels must flush subnormals where CuPy's kernel does under
    # -ftz=true, whatever the number of vectors a thread
    parts = [0.0, -0.0, 1.0, -2.5, 0.5, math.inf, -math.inf, math.nan, 1e-3, float(f.max),
             float(f.smallest_subnormal), -float(f.smallest_normal)]
    return [complex(a, b) for a in parts for b in parts]


def operands(dtype: str, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """Two host arrays of N elements: every pair of special values, then random ones."""
    s = specials(dtype)
    m = len(s)
    pairs = min(m * m, N)
    a = np.array([s[i % m] for i in range(pairs)], dtype=dtype)
    b = np.array([s[(i // m) % m] for i in range(pairs)], dtype=dtype)
    d = np.dtype(dtype)
    rest = N - pairs
    if d.kind == "b":
        ra, rb = rng.random(rest) < 0.5, rng.random(rest) < 0.5
    elif d.kind in "iu":
        info = np.iinfo(d)
        lo, hi = max(int(info.min), -1000), min(int(info.max), 1000)
        ra, rb = rng.integers(lo, hi, rest), rng.integers(lo, hi, rest)
        rb[rb == 0] = 1
    else:
        ra = rng.standard_normal(rest) * 10
        rb = rng.standard_normal(rest) * 10
        if d.kind == "c":
            ra = ra + 1j * rng.standard_normal(rest)
            rb = rb + 1j * rng.standard_normal(rest)
    return (np.concatenate([a, ra.astype(dtype)]), np.concatenate([b, rb.astype(dtype)]))


def scalars(dtype: str) -> list:
    kind = np.dtype(dtype).kind
    if kind == "b":
        return [True, False]
    if kind == "u":
        return [0, 1, 3, 200]
    if kind == "i":
        return [0, 1, -3, 100]
    out = [0.0, -0.0, 2.0, -0.5, math.inf, math.nan, 3, -1]
    return out + ([1j, complex(2, -3)] if kind == "c" else [])


class Counter:
    """Counts the launches of xpgpu's kernels: the compiled module's count where it was
    built (the compiled dispatch runs kernels without Kernel.__call__), else the calls of
    Kernel.__call__."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch):
        self.calls = 0
        call = K.Kernel.__call__

        def counting(kernel, *args):
            self.calls += 1
            return call(kernel, *args)

        monkeypatch.setattr(K.Kernel, "__call__", counting)

    @property
    def n(self) -> int:
        return L.launches() if L.compiled else self.calls


def both(monkeypatch: pytest.MonkeyPatch, counter: Counter, fn, *args):
    """``fn(*args)`` with xpgpu's kernels forced, then with CuPy's path; the results as host
    arrays (or the exception types), and whether the first run launched a kernel."""
    out = []
    for threshold in (1, 1 << 62):
        monkeypatch.setattr(K, "THRESHOLD", threshold)
        monkeypatch.setattr(K, "ASTYPE_THRESHOLD", threshold)
        before = counter.n
        try:
            r = fn(*args)
            out.append((to_numpy(r), r.dtype))
        except Exception as e:  # the same refusal on both paths
            out.append((type(e), None))
        if threshold == 1:
            launched = counter.n > before
    return out[0], out[1], launched


def same_bits(own, ref, label):
    (a, da), (b, db) = own, ref
    if isinstance(a, type):
        assert a is b, f"{label}: raised {a.__name__} with kernels, {b} without"
        return
    assert da == db, f"{label}: dtype {da} != {db}"
    assert a.shape == b.shape, f"{label}: shape {a.shape} != {b.shape}"
    va, vb = a.view(np.uint8), b.view(np.uint8)
    if not np.array_equal(va, vb):
        bad = np.flatnonzero((va != vb).reshape(a.size, -1).any(axis=1))[:5]
        bits = [(va.reshape(a.size, -1)[i].tobytes()[::-1].hex(),
                 vb.reshape(b.size, -1)[i].tobytes()[::-1].hex()) for i in bad]
        pytest.fail(f"{label}: {len(bad)}+ elements differ, first at {bad.tolist()}: "
                    f"{a.ravel()[bad].tolist()} != {b.ravel()[bad].tolist()}; bits {bits}")


CASES = [(name, arity, dtype) for name, arity, category, _ in TABLE
         for dtype in CATEGORY_DTYPES[category]]


@pytest.fixture
def counter(monkeypatch):
    return Counter(monkeypatch)


# The functions CuPy computes with Python code rather than one ufunc (no own kernel; round
# is a Python function too, whose ufunc xpgpu's kernel computes with decimals 0).
NOT_UFUNCS = {"real", "imag"}


@pytest.mark.parametrize(("name", "arity", "dtype"), CASES,
                         ids=[f"{n}-{d}" for n, _, d in CASES])
def test_elementwise_bits(name, arity, dtype, monkeypatch, counter):
    rng = np.random.default_rng(zlib.crc32(f"{name} {dtype}".encode()))
    a, b = operands(dtype, rng)
    fn = getattr(xp, name)
    x1 = xp.asarray(a, device=_devices.lookup("cuda:0"))
    x2 = xp.asarray(b, device=_devices.lookup("cuda:0"))
    launched_any = False
    if arity == 1:
        own, ref, launched = both(monkeypatch, counter, fn, x1)
        same_bits(own, ref, f"{name}({dtype})")
        launched_any |= launched
    else:
        own, ref, launched = both(monkeypatch, counter, fn, x1, x2)
        same_bits(own, ref, f"{name}({dtype}, {dtype})")
        launched_any |= launched
        for s in scalars(dtype):
            for args in ((x1, s), (s, x2)):
                own, ref, _ = both(monkeypatch, counter, fn, *args)
                same_bits(own, ref, f"{name} of {dtype} with {s!r}")
    # integer ceil, floor, round, trunc: a copy
    passthrough = name in ("ceil", "floor", "round", "trunc") and np.dtype(dtype).kind in "iu"
    if name not in NOT_UFUNCS and not passthrough and (name, dtype) not in {
            (n, d) for n, d in K.failed}:
        assert launched_any or isinstance(own[0], type), f"{name}({dtype}): no kernel ran"


MIXED = [("int8", "uint8"), ("int16", "int32"), ("uint8", "uint32"), ("float32", "float64"),
         ("complex64", "float64"), ("float32", "complex128"), ("bool", "bool")]


@pytest.mark.parametrize("name", ["add", "multiply", "less", "maximum", "pow", "divide",
                                  "equal", "atan2", "bitwise_and"])
@pytest.mark.parametrize(("d1", "d2"), MIXED, ids=[f"{a}-{b}" for a, b in MIXED])
def test_mixed_dtypes_bits(name, d1, d2, monkeypatch, counter):
    rng = np.random.default_rng(1)
    cuda = _devices.lookup("cuda:0")
    a = operands(d1, rng)[0]
    b = operands(d2, rng)[1]
    x1, x2 = xp.asarray(a, device=cuda), xp.asarray(b, device=cuda)
    own, ref, _ = both(monkeypatch, counter, getattr(xp, name), x1, x2)
    same_bits(own, ref, f"{name}({d1}, {d2})")


@pytest.mark.parametrize("dtype", CATEGORY_DTYPES["all"])
def test_where_bits(dtype, monkeypatch, counter):
    rng = np.random.default_rng(2)
    cuda = _devices.lookup("cuda:0")
    a, b = operands(dtype, rng)
    c = xp.asarray(rng.random(N) < 0.5, device=cuda)
    x1, x2 = xp.asarray(a, device=cuda), xp.asarray(b, device=cuda)
    own, ref, launched = both(monkeypatch, counter, xp.where, c, x1, x2)
    same_bits(own, ref, f"where({dtype})")
    assert launched
    for s in scalars(dtype):
        for args in ((c, x1, s), (c, s, x2)):
            own, ref, _ = both(monkeypatch, counter, xp.where, *args)
            same_bits(own, ref, f"where({dtype}) with {s!r}")


@pytest.mark.parametrize("dtype", CATEGORY_DTYPES["real numeric"])
def test_clip_bits(dtype, monkeypatch, counter):
    rng = np.random.default_rng(3)
    cuda = _devices.lookup("cuda:0")
    a, b = operands(dtype, rng)
    x = xp.asarray(a, device=cuda)
    kind = np.dtype(dtype).kind
    lo, hi = (1, 100) if kind == "u" else (-3, 7) if kind == "i" else (-2.5, math.inf)
    launched_any = False
    for bounds in ((lo, hi), (lo, None), (None, hi), (hi, lo)):
        own, ref, launched = both(monkeypatch, counter, xp.clip, x, *bounds)
        same_bits(own, ref, f"clip({dtype}, {bounds})")
        launched_any |= launched
    lo_a = xp.asarray(np.minimum(a, b), device=cuda)
    hi_a = xp.asarray(np.maximum(a, b), device=cuda)
    own, ref, _ = both(monkeypatch, counter, xp.clip, x, lo_a, hi_a)
    same_bits(own, ref, f"clip({dtype}, arrays)")
    assert launched_any


@pytest.mark.parametrize("src", CATEGORY_DTYPES["all"])
def test_astype_bits(src, monkeypatch, counter):
    rng = np.random.default_rng(4)
    cuda = _devices.lookup("cuda:0")
    x = xp.asarray(operands(src, rng)[0], device=cuda)
    for dst in CATEGORY_DTYPES["all"]:
        if dst == src or (np.dtype(src).kind == "c" and np.dtype(dst).kind != "c"
                          and dst != "bool"):
            continue
        own, ref, launched = both(monkeypatch, counter, xp.astype, x, getattr(xp, dst))
        same_bits(own, ref, f"astype({src} -> {dst})")
        assert launched, f"astype({src} -> {dst}): no kernel ran"


@pytest.mark.parametrize("dtype", ["bool", "int8", "float32", "float64", "complex128"])
def test_copy_bits(dtype, monkeypatch, counter):
    """asarray(copy=True), astype(copy=True) and copy.copy: a new array with the same bits,
    by the astype kernel for aligned contiguous arrays, CuPy's copy for other layouts."""
    import copy

    cuda = _devices.lookup("cuda:0")
    x = xp.asarray(operands(dtype, np.random.default_rng(5))[0], device=cuda)
    for fn in (lambda a: xp.asarray(a, copy=True), lambda a: xp.astype(a, a.dtype),
               copy.copy):
        own, ref, launched = both(monkeypatch, counter, fn, x)
        same_bits(own, ref, f"copy of {dtype}")
        assert launched and fn(x)._data.data.ptr != x._data.data.ptr
    for view in (x[1:], x[::2], x[:0]):  # CuPy's copy
        before = counter.n
        got = xp.asarray(view, copy=True)
        assert counter.n == before
        np.testing.assert_array_equal(to_numpy(got), to_numpy(view))


# Sizes about the kernels' units (V vectors of N elements a thread: 4 float32, 2 x 2
# float64 or complex64, 4 x 1 complex128, 16 bool) and blocks (256 threads; 128 where a
# thread takes several vectors, whose whole blocks test no vector: 512 float64, complex64
# or complex128 elements):
# a partial last block, a tail of elements after the whole units or blocks, and none.
SIZES = [1, 3, 4, 5, 15, 16, 17, 1023, 1024, 1025, 2047, 2049, 4096, 4096 * 3 + 7, 65536 + 13]


@pytest.mark.parametrize("dtype", ["bool", "uint8", "float32", "float64", "complex64",
                                   "complex128"])
def test_every_element_of_every_size(dtype, monkeypatch, counter):
    """Each element of every size is computed once by the kernel (or its tail): negative
    (bool: logical_not) and add of two arrays against NumPy's, exact values."""
    monkeypatch.setattr(K, "THRESHOLD", 1)
    cuda = _devices.lookup("cuda:0")
    for n in SIZES:
        a = (np.arange(n) % 251).astype(dtype)
        b = (np.arange(n)[::-1] % 7).astype(dtype)
        x, y = xp.asarray(a, device=cuda), xp.asarray(b, device=cuda)
        before = counter.n
        if dtype == "bool":
            got, want = (xp.logical_not(x), xp.logical_or(x, y)), (~a, a | b)
        else:
            got, want = (xp.negative(x), xp.add(x, y)), (-a, a + b)
        assert counter.n == before + 2, f"{dtype} of {n}: no kernel ran"
        for g, w in zip(got, want, strict=True):
            np.testing.assert_array_equal(to_numpy(g), w, err_msg=f"{dtype} of {n}")


@pytest.mark.parametrize(("name", "dtype"), sorted(K.VECTORS.keys() | K.NO_FTZ))
def test_tuned_kernels_take_their_vectors(name, dtype, monkeypatch):
    """Each entry of the tables of tuned loops (vectors a thread, compiled without
    -ftz=true) names an element-wise function that takes the dtype, and the kernel built
    for that function's loop (as _generic_kernel builds it) takes that many 16-byte
    vectors a thread and is compiled as its entry says; its bits: test_elementwise_bits.
    Only float64 loops go without -ftz=true: it changes float32 arithmetic alone."""
    from xpgpu._backend import _cupy

    arity, category = next((a, c) for n, a, c, _ in TABLE if n == name)
    assert dtype in CATEGORY_DTYPES[category], f"{name} takes no {dtype}"
    ufunc = K._cupy_special.UFUNCS.get(name, _cupy._CURRENT[name])
    d = np.dtype(dtype)
    compiles = []
    compile_ = K._compile
    monkeypatch.setattr(K, "_compile", lambda source, ftz=True: (
        compiles.append(ftz), compile_(source, ftz))[1])
    kernel = K._ufunc_kernel(ufunc, name, (d,) * arity, (d,) * arity)
    if (name, dtype) in K.VECTORS:
        assert kernel.per_thread == K.VECTORS[name, dtype] * 16 // d.itemsize
    assert compiles == [(name, dtype) not in K.NO_FTZ]
    assert compiles[0] or dtype == "float64"


_PROBE = """extern "C" __global__ void probe(const float *x, float *y) {
  y[threadIdx.x] = x[threadIdx.x] * 1.5f;
}"""


def test_compile_without_ftz_keeps_float32_subnormals():
    """_compile as CuPy compiles (-ftz=true) flushes float32 subnormal results to zero;
    without it, a kernel gives IEEE float32 arithmetic: NumPy's."""
    import cupy

    x = np.array([1e-40, -3e-41, 1.4e-45, 1e-30], np.float32)
    want = x * np.float32(1.5)
    for ftz, expect in ((True, np.where(np.abs(want) < np.finfo(np.float32).tiny, 0, want)),
                        (False, want)):
        f = K._compile(_PROBE, ftz).get_function("probe")
        y = cupy.empty(4, np.float32)
        f((1,), (4,), (cupy.asarray(x), y))
        np.testing.assert_array_equal(cupy.asnumpy(y), expect, err_msg=f"ftz={ftz}")


def test_compile_without_ftz_is_cached(monkeypatch):
    """A module compiled without -ftz=true is kept in CuPy's kernel cache: compiling the
    same source again loads it, without NVRTC."""
    if getattr(K.compiler, "_kernel_cache_backend", None) is None:
        pytest.skip("CuPy before 14.1 has no kernel cache backend")
    K._compile(_PROBE, False)

    def again(*args, **kwargs):
        raise AssertionError("compiled again")

    monkeypatch.setattr(K.compiler, "compile_using_nvrtc", again)
    assert K._compile(_PROBE, False).get_function("probe") is not None


def test_other_layouts_take_cupys_path(monkeypatch, counter):
    """Views with an offset, strided views, broadcasting and 0-size arrays run CuPy's
    kernels, with the same results as the contiguous copies."""
    monkeypatch.setattr(K, "THRESHOLD", 1)
    cuda = _devices.lookup("cuda:0")
    a = xp.asarray(np.arange(1, 4100, dtype=np.float32), device=cuda)
    for x, y in ((a[1:], a[:-1]), (a[:-1:2], a[1::2]), (a[:10][:, None], a[:7][None, :]),
                 (a[:0], a[:0])):
        before = counter.n
        got = to_numpy(xp.add(x, y))
        assert counter.n == before
        np.testing.assert_array_equal(got, to_numpy(x) + to_numpy(y))
    before = counter.n
    got = to_numpy(xp.multiply(a, a))
    assert counter.n == before + 1
    np.testing.assert_array_equal(got, to_numpy(a) * to_numpy(a))


VAR_CASES = [((1 << 12, 1024), None), ((1 << 12, 1024), -1), ((64, 1027), -1),
             ((3, 5, 4099), (-2, -1)), ((100003,), None), ((8, 8, 64), (1, 2)),
             ((8000, 100), -1), ((65536, 64), -1), ((20000, 7), -1), ((600, 500), -1)]


@pytest.mark.parametrize("dtype", REAL_FLOATS)
@pytest.mark.parametrize(("shape", "axis"), VAR_CASES, ids=[f"{s}-{a}" for s, a in VAR_CASES])
@pytest.mark.parametrize("func", ["var", "std"])
def test_var_std_kernel(func, shape, axis, dtype, monkeypatch):
    """var and std through xpgpu's kernel (whole array and trailing axes, aligned rows and
    not) against NumPy in float64 (a few ulp of the reduction's rounding) and against CuPy's
    path; correction and keepdims as the standard says."""
    from xpgpu._backend import _cupy_reductions as R

    rng = np.random.default_rng(5)
    host = (rng.standard_normal(shape) * 3 + 1.5).astype(dtype)
    x = xp.asarray(host, device=_devices.lookup("cuda:0"))
    f = getattr(xp, func)
    tol = 2e-5 if dtype == "float32" else 1e-12
    for correction in (0, 1):
        for keepdims in (False, True):
            monkeypatch.setattr(R, "THRESHOLD", 1)
            got = to_numpy(f(x, axis=axis, correction=correction, keepdims=keepdims))
            monkeypatch.setattr(R, "THRESHOLD", 1 << 62)
            ref = to_numpy(f(x, axis=axis, correction=correction, keepdims=keepdims))
            want = getattr(np, func)(host.astype(np.float64), axis=axis, ddof=correction,
                                     keepdims=keepdims)
            assert got.dtype == ref.dtype == np.dtype(dtype)
            assert got.shape == ref.shape == want.shape
            np.testing.assert_allclose(got, want, rtol=tol)
            np.testing.assert_allclose(got, ref, rtol=tol)
            assert any(k[0] == np.dtype(dtype) for k in R._kernels), "no kernel ran"
    monkeypatch.setattr(R, "THRESHOLD", 1)
    special = host.copy().reshape(-1)
    special[:3] = [np.nan, np.inf, -np.inf]
    y = xp.asarray(special.reshape(shape), device=_devices.lookup("cuda:0"))
    got = to_numpy(f(y, axis=axis))
    want = getattr(np, func)(special.reshape(shape).astype(np.float64), axis=axis)
    np.testing.assert_array_equal(np.isnan(got), np.isnan(want))


@pytest.mark.parametrize(("offset", "first"), [(1e6, None), (1e4, 1e4 + 3e4), (-2.5e5, None)])
@pytest.mark.parametrize("axis", [None, -1])
def test_var_kernel_of_offset_data(offset, first, axis):
    """float32 data far from zero (and a first element far from the rest, the kernel's
    shift): the one-pass kernel keeps the two-pass accuracy (NumPy in float64 as the
    oracle; a float32 Welford mean of 1e6 + N(0, 1) data is off by 0.7%)."""
    host = (np.random.default_rng(7).standard_normal((64, 1 << 14)) + offset).astype("float32")
    if first is not None:
        host[:, 0] = first
    x = xp.asarray(host, device=_devices.lookup("cuda:0"))
    want = np.var(host.astype(np.float64), axis=axis)
    np.testing.assert_allclose(to_numpy(xp.var(x, axis=axis)), want, rtol=2e-5)
    np.testing.assert_allclose(to_numpy(xp.std(x, axis=axis)), np.sqrt(want), rtol=2e-5)


RED_CASES = [((1 << 12, 1024), None), ((1 << 12, 1024), -1), ((64, 1027), -1),
             ((3, 5, 4099), (-2, -1)), ((100003,), None), ((2000, 33), -1),
             ((8, 300001), -1), ((8, 8, 64), (1, 2)), ((5000, 5000), -1), ((3, 4097), -1),
             ((8000, 100), -1), ((65536, 64), -1), ((20000, 7), -1), ((600, 500), -1)]


@pytest.mark.parametrize("dtype", REAL_FLOATS)
@pytest.mark.parametrize(("shape", "axis"), RED_CASES, ids=[f"{s}-{a}" for s, a in RED_CASES])
@pytest.mark.parametrize("func", ["sum", "prod", "mean", "max", "min"])
def test_reduction_kernel(func, shape, axis, dtype, monkeypatch):
    """sum, prod, mean, max and min through xpgpu's kernel (whole array, trailing axes,
    one block a row and several) against NumPy in float64 and CuPy's path: max and min
    exactly, the others within the reduction order's rounding; the same bits on a second
    call (the order does not depend on which block ends last); NaN propagates."""
    from xpgpu._backend import _cupy_reductions as R

    rng = np.random.default_rng(6)
    low, high = (0.999, 1.001) if func == "prod" else (0.5, 1.5)
    host = rng.uniform(low, high, shape).astype(dtype)
    if func in ("max", "min"):
        host = ((host - 1) * rng.choice([1, -1, 1e6], shape)).astype(dtype)
    cuda = _devices.lookup("cuda:0")
    x = xp.asarray(host, device=cuda)
    f = getattr(xp, func)
    # prod of 2**22 float32 factors: 2**22 roundings, about 3e-3 measured.
    tol = (1e-2 if func == "prod" else 1e-5) if dtype == "float32" else 1e-11
    for keepdims in (False, True):
        monkeypatch.setattr(R, "THRESHOLD", 1)
        compiled = R.compiled_kernels
        got = to_numpy(f(x, axis=axis, keepdims=keepdims))
        again = to_numpy(f(x, axis=axis, keepdims=keepdims))
        assert any(k[0] == func for k in R._reduce_kernels) or compiled < R.compiled_kernels
        monkeypatch.setattr(R, "THRESHOLD", 1 << 62)
        ref = to_numpy(f(x, axis=axis, keepdims=keepdims))
        want = getattr(np, func)(host.astype(np.float64), axis=axis, keepdims=keepdims)
        assert got.dtype == ref.dtype == np.dtype(dtype)
        assert got.shape == ref.shape == want.shape
        assert got.tobytes() == again.tobytes()
        if func in ("max", "min"):
            np.testing.assert_array_equal(got, ref)
            np.testing.assert_array_equal(got, want.astype(dtype))
        else:
            np.testing.assert_allclose(got, want, rtol=tol)
            np.testing.assert_allclose(got, ref, rtol=tol)
    monkeypatch.setattr(R, "THRESHOLD", 1)
    special = host.copy().reshape(-1)
    special[-1] = np.nan
    special[0] = np.inf if func != "prod" else 2.0
    y = xp.asarray(special.reshape(shape), device=cuda)
    got = to_numpy(f(y, axis=axis))
    want = getattr(np, func)(special.reshape(shape).astype(np.float64), axis=axis)
    np.testing.assert_array_equal(np.isnan(got), np.isnan(want))
    np.testing.assert_array_equal(np.isinf(got), np.isinf(want))
