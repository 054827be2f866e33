"""xpgpu.fuse: fused results equal the eager ones (values bit for bit, dtypes, errors).

On ``cpu`` a fused function is the eager function, so the device tests check the CPU
path and that fuse keeps eager behaviour. On ``cuda`` they check the generated kernel
against eager xpgpu on the same device: a failure names the case, and the kernel source
is available with ``xpgpu.fuse(f).source(*args)``. Tests named ``test_trace_*`` replay
the traced graph with eager CPU functions (no GPU needed): they check the tracer's
dtypes, casts and scalar handling; ``test_source_*`` and ``test_nvcc_*`` check the
generated CUDA code (CuPy importable; nvcc on PATH for the syntax check).
"""

from __future__ import annotations

import math
import os
import shutil
import subprocess
import tempfile

import numpy as np
import pytest
from conftest import to_numpy

import xpgpu as xp
from xpgpu import sin as imported_sin
from xpgpu._devices import CPU

try:
    import cupy

    HAVE_CUPY = True
except ImportError:
    HAVE_CUPY = False

try:
    xp.where(xp.asarray([True]), xp.asarray([1.0]), xp.asarray([2.0]))
    HAVE_WHERE = True
except NotImplementedError:
    HAVE_WHERE = False
needs_where = pytest.mark.skipif(not HAVE_WHERE, reason="xpgpu.where is not implemented yet")
needs_cupy = pytest.mark.skipif(not HAVE_CUPY, reason="CuPy is not importable")
pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")

F = [0.0, -0.0, 1.0, -1.0, 0.5, -2.5, 3.0, 1e-3, 100.0, math.inf, -math.inf, math.nan]
SIGNED = [0, 1, -1, 2, -3, 5, 7, 100, -100, 3, -7, 9]
UNSIGNED = [0, 1, 2, 3, 5, 7, 100, 200, 255, 4, 9, 12]
BOOLS = [True, False, True, True, False, False, True, False, True, False, False, True]
# The standard's input categories, written out independently of xpgpu's tables.
CATEGORY_DTYPES = {
    "numeric": ["int16", "uint8", "float32", "float64", "complex64"],
    "real numeric": ["int16", "uint8", "float32", "float64"],
    "integer": ["int16", "uint8", "int64"],
    "integer or boolean": ["bool", "int16", "uint8"],
    "boolean": ["bool"],
    "all": ["bool", "int16", "float32", "complex128"],
    "floating-point": ["float32", "float64", "complex64", "complex128"],
    "real floating-point": ["float32", "float64"],
    "complex floating-point": ["complex64", "complex128"],
}


def values(dtype: str, reverse: bool = False) -> np.ndarray:
    d = np.dtype(dtype)
    if d.kind == "b":
        vals = BOOLS
    elif d.kind == "i":
        vals = SIGNED
    elif d.kind == "u":
        vals = UNSIGNED
    elif d.kind == "f":
        vals = F
    else:
        vals = [complex(a, b) for a, b in zip(F, F[5:] + F[:5], strict=True)]
    out = np.array(vals[::-1] if reverse else vals, dtype=d)
    return out


def arr(device, a) -> xp.Array:
    return xp.asarray(np.asarray(a), device=device)


def assert_same(got, want) -> None:
    """``got`` is ``want``: arrays with the same dtype, shape, device and bits (NaNs as
    NaNs), tuples and lists of such, or equal Python values."""
    if isinstance(want, (tuple, list)):
        assert type(got) is type(want) and len(got) == len(want)
        for g, w in zip(got, want, strict=True):
            assert_same(g, w)
        return
    if not isinstance(want, xp.Array):
        assert type(got) is type(want)
        assert got == want or (got != got and want != want)
        return
    assert isinstance(got, xp.Array), type(got)
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    assert got.shape == want.shape, (got.shape, want.shape)
    assert got.device == want.device
    g, w = to_numpy(got), to_numpy(want)
    if g.dtype.kind in "fc":
        g, w = g.view(g.real.dtype), w.view(w.real.dtype)  # complex: the two parts
        nan = np.isnan(w)
        np.testing.assert_array_equal(np.isnan(g), nan)
        bits = np.dtype(f"u{g.dtype.itemsize}")
        np.testing.assert_array_equal(g[~nan].view(bits), w[~nan].view(bits))
    else:
        np.testing.assert_array_equal(g, w)


def check(func, *args) -> None:
    """fuse(func)(*args) is func(*args), twice (the second call runs the cached kernel)."""
    want = func(*args)
    fused = xp.fuse(func)
    assert_same(fused(*args), want)
    assert_same(fused(*args), want)


# ---- replaying a trace with eager CPU functions (no GPU needed) ----------------------

def replay(func, *args):
    """Trace fuse(func) for ``args`` and evaluate the graph node by node with eager xpgpu
    functions, checking each node's dtype against the eager result's."""
    fused = xp.fuse(func)
    entry = fused._trace(args, CPU)
    graph = entry.graph
    slots = [args[i] for i in entry.scalar_args]
    for fn, refs in graph.recipes:
        slots.append(fn(*[r.value if hasattr(r, "value") else slots[r] for r in refs]))
    arrays = [args[i] if key is None else args[i][key] for i, key in graph.arrays]

    def host(value, dtype):
        buf = np.empty((), dtype=np.dtype(dtype))
        buf[()] = value
        return xp.asarray(buf)

    env = []
    for node in graph.nodes:
        a = [env[j] for j in node.args]
        if node.op == "array":
            r = arrays[node.data]
        elif node.op == "scalar":
            slot, dtype, _ = graph.scalars[node.data]
            r = host(slots[slot], dtype)
        elif node.op == "const":
            r = host(node.data, node.dtype)
        elif node.op == "cast":
            r = xp.astype(a[0], node.dtype)
        elif node.op == "where":
            r = xp.where(*a)
        elif node.op in ("real", "imag"):
            r = getattr(xp, node.op)(a[0])
        else:
            r = getattr(xp, node.data)(*a)
        assert r.dtype == node.dtype, (node, r.dtype)
        env.append(r)

    def leaf(item):
        what, x = item
        return {"kernel": lambda: env[x], "array": lambda: arrays[x],
                "slot": lambda: slots[x], "value": lambda: x}[what]()

    kind, leaves = entry.structure
    return leaf(leaves) if kind is None else kind(leaf(x) for x in leaves)


# ---- the battery ----------------------------------------------------------------------

SCALE = 2.5


def _helper(x):
    return xp.sqrt(x)


_inner = xp.fuse(lambda x: x * 2)


def _inplace(x):
    y = x * 2
    y += 1
    return y


def _battery(device):
    f32 = arr(device, np.array(F, dtype=np.float32))
    f64 = arr(device, np.array(F, dtype=np.float64))
    pts = arr(device, np.arange(36, dtype=np.float32).reshape(12, 3) - 10)
    mask = arr(device, np.array(BOOLS))
    i8 = arr(device, np.array(SIGNED, dtype=np.int8))
    i16 = arr(device, np.array(SIGNED[::-1], dtype=np.int16))
    u8 = arr(device, np.array(UNSIGNED, dtype=np.uint8))
    col = arr(device, np.arange(3, dtype=np.float64).reshape(3, 1))
    row = arr(device, np.linspace(-1, 1, 4))
    zero_d = arr(device, np.float32(1.5))
    empty = arr(device, np.zeros((0, 3), dtype=np.float32))
    strided = arr(device, np.arange(24, dtype=np.float64).reshape(4, 6))[::2, 1::2]
    cases = [
        ("axpy", lambda mu, dt, d: 1 + mu * dt * d, (0.5, 0.1, f32)),
        ("axpy_f64", lambda mu, dt, d: 1 + mu * dt * d, (0.3, 0.7, f64)),
        ("constants", lambda x: x * xp.nan + xp.e - xp.pi * x + xp.inf, (f32,)),
        ("closure", lambda x: x * SCALE - 1, (f64,)),
        ("lambda_ops", lambda x: -x ** 2 // 3 % 5 + abs(x) / 7, (f32,)),
        ("astype", lambda x: xp.astype(x * 3, xp.int32), (arr(device, np.arange(-6, 6.0)),)),
        ("astype_bool", lambda x: xp.astype(x, xp.bool), (f64,)),
        ("astype_up", lambda x: xp.astype(x, xp.complex128) * 1j, (i8,)),
        ("compare", lambda x, y: (x < y) | (x == 0) & ~(x >= 1),
         (f32, arr(device, values("float32", True)))),
        ("int_promotion", lambda a, b: a * b + a, (i8, i16)),
        ("uint_scalar", lambda a: a + 200 - 3, (u8,)),
        ("mixed_uint", lambda a, b: a - b, (i8, u8)),
        ("complex_scalar", lambda x: x * 1j + 2, (f32,)),
        ("tuple_out", lambda x: (xp.sin(x), xp.cos(x)), (f32,)),
        ("list_out", lambda x, y: [x + 1, y * 2], (col, row)),
        ("passthrough", lambda x: (x, x + 1), (f32,)),
        ("scalar_out", lambda x, s: (x + s, s * 2), (f64, 3)),
        ("ceil_int", lambda x: xp.ceil(x), (i16,)),
        ("broadcast", lambda a, b: a * b - a, (col, row)),
        ("bitwise", lambda a, b: (a & b) ^ (~a << 1) | (b >> 2),
         (i16, arr(device, np.arange(12, dtype=np.int16)))),
        ("nested_fuse", lambda x: _inner(x) + 1, (f32,)),
        ("array_namespace", lambda x: x.__array_namespace__().exp(x), (f64,)),
        ("helper_function", lambda x: _helper(x) + 1, (f32,)),
        ("imported_name", lambda x: imported_sin(x) * 2, (f64,)),
        ("inplace_intermediate", _inplace, (f32,)),
        ("zero_d", lambda x: x + 1, (zero_d,)),
        ("empty", lambda x: x * 2, (empty,)),
        ("strided", lambda x: xp.exp(x) - x, (strided,)),
        ("int_pow_scalar", lambda x, n: x ** n, (i16, 3)),
        ("scalar_recipe", lambda x, a, b: x * (a / b) + (a // b), (f64, 7, 2)),
        ("complex_parts", lambda z: xp.real(z) + xp.imag(z) * xp.abs(z),
         (arr(device, values("complex64")),)),
        ("logical", lambda m: xp.logical_xor(m, xp.logical_not(m)) | (m == True), (mask,)),  # noqa: E712
        ("round_floor_trunc", lambda x: xp.round(x) + xp.floor(x) - xp.trunc(x), (f32,)),
        ("view_inside", lambda m, p: xp.astype(m[:, None], xp.float32) * p, (mask, pts)),
    ]
    if HAVE_WHERE:
        cases += [
            ("where_mask_inf", lambda m, p: xp.where(m, xp.inf, p), (mask[:, None], pts)),
            ("where_view_inside", lambda m, p: xp.where(m[:, None], xp.inf, p), (mask, pts)),
            ("where_mixed", lambda m, x, y: xp.where(m, x, y) * 2,
             (mask, f32, arr(device, np.float32(-1)))),
            ("where_scalar_arg", lambda m, x, s: xp.where(m, x, s), (mask, f32, 2.0)),
        ]
    return cases


CASE_IDS = [c[0] for c in _battery(CPU)]


@pytest.mark.parametrize("case", CASE_IDS)
def test_fused_equals_eager(device, case):
    """cuda: the fused kernel's result is the eager one, bit for bit, in dtype and shape."""
    _, func, args = next(c for c in _battery(device) if c[0] == case)
    check(func, *args)


@pytest.mark.parametrize("case", CASE_IDS)
def test_trace_replays_eager(case):
    """The traced graph, replayed with eager CPU functions, gives the eager result."""
    _, func, args = next(c for c in _battery(CPU) if c[0] == case)
    assert_same(replay(func, *args), func(*args))


def _elementwise_cases():
    rows = []
    spec = {  # name: (arity, category), written from the standard's pages
        "abs": (1, "numeric"), "acos": (1, "floating-point"), "acosh": (1, "floating-point"),
        "add": (2, "numeric"), "asin": (1, "floating-point"), "asinh": (1, "floating-point"),
        "atan": (1, "floating-point"), "atan2": (2, "real floating-point"),
        "atanh": (1, "floating-point"), "bitwise_and": (2, "integer or boolean"),
        "bitwise_left_shift": (2, "integer"), "bitwise_invert": (1, "integer or boolean"),
        "bitwise_or": (2, "integer or boolean"), "bitwise_right_shift": (2, "integer"),
        "bitwise_xor": (2, "integer or boolean"), "ceil": (1, "real numeric"),
        "conj": (1, "numeric"), "copysign": (2, "real floating-point"),
        "cos": (1, "floating-point"), "cosh": (1, "floating-point"),
        "divide": (2, "floating-point"), "equal": (2, "all"), "exp": (1, "floating-point"),
        "expm1": (1, "floating-point"), "floor": (1, "real numeric"),
        "floor_divide": (2, "real numeric"), "greater": (2, "real numeric"),
        "greater_equal": (2, "real numeric"), "hypot": (2, "real floating-point"),
        "imag": (1, "complex floating-point"), "isfinite": (1, "numeric"),
        "isinf": (1, "numeric"), "isnan": (1, "numeric"), "less": (2, "real numeric"),
        "less_equal": (2, "real numeric"), "log": (1, "floating-point"),
        "log1p": (1, "floating-point"), "log2": (1, "floating-point"),
        "log10": (1, "floating-point"), "logaddexp": (2, "real floating-point"),
        "logical_and": (2, "boolean"), "logical_not": (1, "boolean"),
        "logical_or": (2, "boolean"), "logical_xor": (2, "boolean"),
        "maximum": (2, "real numeric"), "minimum": (2, "real numeric"),
        "multiply": (2, "numeric"), "negative": (1, "numeric"),
        "nextafter": (2, "real floating-point"), "not_equal": (2, "all"),
        "positive": (1, "numeric"), "pow": (2, "numeric"), "real": (1, "numeric"),
        "reciprocal": (1, "floating-point"), "remainder": (2, "real numeric"),
        "round": (1, "numeric"), "sign": (1, "numeric"),
        "signbit": (1, "real floating-point"), "sin": (1, "floating-point"),
        "sinh": (1, "floating-point"), "square": (1, "numeric"),
        "sqrt": (1, "floating-point"), "subtract": (2, "numeric"),
        "tan": (1, "floating-point"), "tanh": (1, "floating-point"),
        "trunc": (1, "real numeric"),
    }
    for name, (arity, category) in spec.items():
        for dtype in CATEGORY_DTYPES[category]:
            rows.append((name, arity, dtype))
    return rows


ELEMENTWISE = _elementwise_cases()


def _elementwise_args(device, name, arity, dtype):
    x1 = values(dtype)
    if arity == 1:
        return lambda a: getattr(xp, name)(a), (arr(device, x1),)
    x2 = values(dtype, reverse=True)
    if np.dtype(dtype).kind in "iu" and name in ("pow", "bitwise_left_shift",
                                                 "bitwise_right_shift"):
        x2 = np.abs(x2) % 5  # non-negative, small exponents and shifts
    if np.dtype(dtype).kind in "iu" and name in ("floor_divide", "remainder"):
        x2 = np.where(x2 == 0, 3, x2)  # integer division by zero is undefined
    return lambda a, b: getattr(xp, name)(a, b), (arr(device, x1), arr(device, x2))


@pytest.mark.parametrize("name,arity,dtype", ELEMENTWISE,
                         ids=[f"{n}-{d}" for n, _, d in ELEMENTWISE])
def test_every_elementwise_function(device, name, arity, dtype):
    """cuda: each element-wise function, fused alone, equals eager bit for bit."""
    func, args = _elementwise_args(device, name, arity, dtype)
    check(func, *args)


@pytest.mark.parametrize("name,arity,dtype", ELEMENTWISE,
                         ids=[f"{n}-{d}" for n, _, d in ELEMENTWISE])
def test_trace_every_elementwise_function(name, arity, dtype):
    func, args = _elementwise_args(CPU, name, arity, dtype)
    assert_same(replay(func, *args), func(*args))


# ---- errors ---------------------------------------------------------------------------

def _if_positive(x):
    return x if x > 0 else -x


def _scalar_branch(x, s):
    return x * (2 if s > 0 else 3)


def _setitem(x):
    y = x + 1
    y[0] = 2.0
    return y


def _inplace_argument(x):
    x += 1
    return x


NOT_FUSIBLE = [
    ("reduction", lambda x: xp.sum(x) + x, "sum"),
    ("indexing", lambda x: (x + 1)[0], "indexing"),
    ("bool", _if_positive, "bool()"),
    ("shape", lambda x: x * x.shape[0], "x.shape"),
    ("matmul", lambda x: x @ x, "matmul"),
    ("float", lambda x: float(x) * x, "float()"),
    ("linalg", lambda x: xp.linalg.vector_norm(x) * x, "linalg.vector_norm"),
    ("inplace_argument", _inplace_argument, "in-place"),
    ("int", lambda x: int(x) * x, "int()"),
    ("complex", lambda x: complex(x) * x, "complex()"),
    ("index", lambda x: [1.0, 2.0][x] * x, "__index__"),
    ("len", lambda x: len(x) * x, "len()"),
    ("iter", lambda x: sum(x) * x, "iterating over"),
    ("rmatmul", lambda x: x.__rmatmul__(x), "matmul"),
    ("dlpack", lambda x: x.__dlpack__() and x, "__dlpack__"),
    ("to_device", lambda x: x.to_device("cpu"), "to_device()"),
    ("setitem", _setitem, "__setitem__"),
]


@pytest.mark.parametrize("case", [c[0] for c in NOT_FUSIBLE])
def test_not_fusible(device, case):
    """Tracing (and on cuda, calling) raises a TypeError naming the operation."""
    _, func, what = next(c for c in NOT_FUSIBLE if c[0] == case)
    x = arr(device, np.array([1.0, -2.0], dtype=np.float32))
    fused = xp.fuse(func)
    with pytest.raises(TypeError, match=what.replace("(", r"\(").replace(")", r"\)")) as info:
        fused._trace((x,), device)
    message = str(info.value)  # fuse's own refusal, not Python's TypeError
    assert message.startswith("fuse") and "fusible" in message, message
    if device.kind == "cuda":
        with pytest.raises(TypeError, match="fusible"):
            fused(x)


def test_not_fusible_scalar_control_flow(device):
    x = arr(device, np.array([1.0], dtype=np.float32))
    with pytest.raises(TypeError, match=r"bool\(\)"):
        xp.fuse(_scalar_branch)._trace((x, 2.0), device)


def test_captured_array_refused(device):
    y = arr(device, np.array([1.0, 2.0]))
    x = arr(device, np.array([3.0, 4.0]))
    with pytest.raises(TypeError, match="captured"):
        xp.fuse(lambda a: a + y)._trace((x,), device)


@pytest.mark.strict_only
def test_nep50_errors(device):
    """int16 * 1.5 is a TypeError and int8 + 1000 an OverflowError, as in eager xpgpu,
    whether the scalar is a literal or an argument (checked again on cached calls)."""
    i16 = arr(device, np.array([1, 2], dtype=np.int16))
    i8 = arr(device, np.array([1, 2], dtype=np.int8))
    for func, args, err in [(lambda x: x * 1.5, (i16,), TypeError),
                            (lambda x, s: x * s, (i16, 1.5), TypeError),
                            (lambda x: x + 1000, (i8,), OverflowError),
                            (lambda x, s: x + s, (i8, 1000), OverflowError)]:
        with pytest.raises(err):
            func(*args)
        with pytest.raises(err):
            xp.fuse(func)(*args)
        with pytest.raises(err):
            xp.fuse(func)._trace(args, device)
    fused = xp.fuse(lambda x, s: x + s)
    assert_same(fused(i8, 1), i8 + 1)
    with pytest.raises(OverflowError, match="out of range"):
        fused(i8, 1000)  # the cached signature checks the new value
    with pytest.raises(OverflowError):
        fused(i8, -129)


def test_device_mismatch_and_bad_arguments(device):
    x = arr(device, np.array([1.0]))
    fused = xp.fuse(lambda a, b: a + b)
    with pytest.raises(TypeError, match="keyword"):
        fused(x, b=1.0)
    with pytest.raises(TypeError, match="hashable"):
        fused(x, [1.0])
    with pytest.raises(TypeError):
        xp.fuse(3)


# ---- the cache ------------------------------------------------------------------------

def test_cache(device):
    """cuda: a second call with the same signature (other scalar values) traces and
    compiles nothing; a new dtype traces again. cpu: nothing is traced (eager)."""
    x = arr(device, np.array([1.0, 2.0], dtype=np.float32))
    fused = xp.fuse(lambda a, s: a * s + 1)
    assert_same(fused(x, 2.0), x * 2.0 + 1)
    if device.kind == "cpu":
        assert fused.cache_info() == {"signatures": 0, "traces": 0, "kernels": 0}
        return
    from xpgpu._backend import _cupy_fuse

    assert fused.cache_info() == {"signatures": 1, "traces": 1, "kernels": 1}
    built = _cupy_fuse.compiled_kernels
    assert_same(fused(x, 3.0), x * 3.0 + 1)
    assert_same(fused(x, 3), x * 3 + 1)  # an int scalar: another signature
    assert fused.cache_info()["traces"] == 2
    assert_same(fused(x, 4.0), x * 4.0 + 1)
    assert fused.cache_info()["traces"] == 2
    assert _cupy_fuse.compiled_kernels == built + 1
    fused(arr(device, np.array([1.0, 2.0])), 2.0)
    assert fused.cache_info()["signatures"] == 3


def test_signature_keys(device):
    """The cache key: dtypes, ndims and scalar types, not scalar values; the values of
    scalars read from the closure (0.0 and -0.0 differ)."""
    x = arr(device, np.array([1.0], dtype=np.float32))
    factor = 1.0

    def f(a, s):
        return a * s * factor

    fused = xp.fuse(f)
    key = fused._signature((x, 2.0))[1]
    assert fused._signature((x, 5.0))[1] == key
    assert fused._signature((x, 5))[1] != key
    assert fused._signature((x[None, :], 5.0))[1] != key
    assert fused._signature((xp.astype(x, xp.float64), 5.0))[1] != key
    factor = -0.0
    assert fused._signature((x, 2.0))[1] != key
    assert_same(fused(x, 2.0), f(x, 2.0))


def test_decorator_spellings(device):
    x = arr(device, np.array([1.0, 4.0]))

    @xp.fuse
    def a(v):
        return xp.sqrt(v)

    @xp.fuse()
    def b(v):
        return xp.sqrt(v)

    @xp.fuse(kernel_name="my kernel")
    def c(v):
        return xp.sqrt(v)

    for f in (a, b, c):
        assert_same(f(x), xp.sqrt(x))
    assert c.kernel_name == "my kernel" and a.__name__ == "a"


def test_no_arrays_is_eager():
    assert xp.fuse(lambda a, b: a * b + 1)(2, 3.0) == 7.0


# ---- the generated source -------------------------------------------------------------

@needs_cupy
@needs_where
def test_source_where_inf():
    """where(mask[:, None], inf, points): inf is an exact bit pattern, no bare inf."""
    mask = xp.asarray(np.array(BOOLS))[:, None]
    pts = xp.asarray(np.zeros((12, 3), dtype=np.float32))
    src = xp.fuse(lambda m, p: xp.where(m, xp.inf, p)).source(mask, pts)
    assert "__int_as_float(0x7f800000)" in src
    operation = src.split("// operation:")[1]
    assert "inf" not in operation.replace("__int_as_float", "")
    assert "xpgpu_fused__lambda_" in src


@needs_cupy
def test_source_scalars_are_arguments():
    x = xp.asarray(np.ones(4, dtype=np.float32))
    fused = xp.fuse(lambda mu, dt, d: 1 + mu * dt * d, kernel_name="axpy")
    src = fused.source(0.5, 0.25, x)
    assert src == fused.source(7.0, 3.0, x)
    assert "float32 s0" in src and "xpgpu_fused_axpy" in src
    assert "__int_as_float(0x3f800000)" in src  # the constant 1, exactly
    # Each floating-point operation is a call never inlined (no FMA across operations).
    assert src.count("__device__ __noinline__ float _xpgpu_") == 2


@needs_cupy
def test_fused_loops_are_eager_loops(device):
    """Fused code runs the loops of the ufunc the eager function calls, for every
    element-wise function of the standard: none falls back to a CuPy ufunc that the eager
    function does not use (only code generation: runs wherever CuPy is importable)."""
    from xpgpu import _elementwise
    from xpgpu._backend import _cupy_fuse

    names = {n for n, _, _ in ELEMENTWISE}
    table = {row[0] for row in _elementwise.TABLE}
    assert table <= names, sorted(table - names)  # every function is covered below
    _cupy_fuse.DIFFERS_FROM_EAGER.clear()
    for name, arity, dtype in ELEMENTWISE:
        func, args = _elementwise_args(device, name, arity, dtype)
        xp.fuse(func, kernel_name=f"{name}_{dtype}").source(*args)
    assert not _cupy_fuse.DIFFERS_FROM_EAGER


_SASS_TOOLS = ("nvcc", "cuobjdump", "nvdisasm")


@needs_cupy
@pytest.mark.skipif(any(shutil.which(t) is None for t in _SASS_TOOLS),
                    reason="nvcc, cuobjdump or nvdisasm is not on PATH")
def test_sass_has_no_fma_across_operations():
    """a * x + y and 1 + mu * dt * d, compiled by nvcc for sm_90 with the defaults
    (--fmad=true, as NVRTC compiles CuPy's kernels): the machine code multiplies and adds
    separately, as eager code does, never in one FFMA/DFMA."""
    include = os.path.join(os.path.dirname(cupy.__file__), "_core", "include")
    cases = []
    for dtype in ("float32", "float64"):
        x = xp.asarray(np.ones(4, dtype=dtype))
        cases.append((lambda a, x, y: a * x + y, (2.0, x, x)))
        cases.append((lambda mu, dt, d: 1 + mu * dt * d, (0.37, 1e-3, x)))
    with tempfile.TemporaryDirectory() as tmp:
        for i, (func, args) in enumerate(cases):
            [(_name, src)] = xp.fuse(func, kernel_name=f"k{i}").standalone_sources(*args)
            path = os.path.join(tmp, f"k{i}.cu")
            with open(path, "w") as f:
                f.write(src)
            r = subprocess.run(["nvcc", "-std=c++17", "-arch=sm_90", "-cubin", "-I", include,
                                path, "-o", path + ".cubin"], capture_output=True, text=True)
            assert r.returncode == 0, r.stderr[-4000:]
            r = subprocess.run(["cuobjdump", "-sass", path + ".cubin"],
                               capture_output=True, text=True)
            assert r.returncode == 0, r.stderr[-4000:]
            ops = [w for line in r.stdout.splitlines() for w in line.split()
                   if w.rstrip(";") in ("FFMA", "DFMA", "FMUL", "DMUL", "FADD", "DADD")]
            assert not {"FFMA", "DFMA"} & set(ops), (i, ops)
            assert {"FMUL", "DMUL"} & set(ops) and {"FADD", "DADD"} & set(ops), (i, ops)


@needs_cupy
@pytest.mark.skipif(shutil.which("nvcc") is None, reason="nvcc is not on PATH")
def test_nvcc_compiles_every_kernel():
    """Every element-wise function's kernel (and the battery's) compiles with nvcc, each
    wrapped by hand in a __global__ loop, all in one translation unit."""
    units = []
    for name, arity, dtype in ELEMENTWISE:
        func, args = _elementwise_args(CPU, name, arity, dtype)
        units += xp.fuse(func, kernel_name=f"{name}_{dtype}").standalone_sources(*args)
    for case, func, args in _battery(CPU):
        if isinstance(func(*args), xp.Array) or case in ("tuple_out", "list_out"):
            units += xp.fuse(func, kernel_name=case).standalone_sources(*args)
    include = os.path.join(os.path.dirname(cupy.__file__), "_core", "include")
    head = "#include <cupy/complex.cuh>\n#include <cupy/carray.cuh>\n" \
           "#include <cupy/math_constants.h>\n"
    body = []
    base = head
    for i, (_name, src) in enumerate(units):
        assert src.startswith(base)
        lines = src[len(base):].splitlines()
        head += "".join(f"{x}\n" for x in lines if x.startswith("#include") and x not in head)
        code = "\n".join(x for x in lines if not x.startswith("#include"))
        body.append(f"namespace k{i} {{\n{code}\n}}\n")
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "fused.cu")
        with open(path, "w") as f:
            f.write(head + "".join(body))
        r = subprocess.run(["nvcc", "-std=c++17", "-I", include, "-c", path,
                            "-o", os.path.join(tmp, "fused.o")], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr[-4000:]
