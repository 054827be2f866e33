"""xpgpu's own CUDA kernels for any/all and integer and complex sum/prod
(xpgpu/_backend/_cupy_reductions.py), argmax/argmin (_cupy_search.py) and cumulative_sum
(_cupy_scan.py) against NumPy on the host: exact for any, all, argmax, argmin and integer
sums and products (modulo 2**64, as NumPy's); complex sums and products within the
reduction order's rounding; floating scans exact where every partial sum is an integer
below 2**24 (any order gives the same), else within the bound the scan order gives (the
module's docstring). Rows 1 to 5000, lengths around the vector and block
boundaries, every dtype the kernels take, NaN, +-inf, -0.0, ties, misaligned views;
the dispatch thresholds (small and strided arrays keep CuPy's path).

    python -m pytest tests/test_reduction_kernels.py -m cuda
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pytest
from conftest import to_numpy

import xpgpu as xp
from xpgpu import _devices

pytestmark = [pytest.mark.cuda, pytest.mark.filterwarnings("ignore::RuntimeWarning")]

if not _devices.cuda_devices():
    pytest.skip("no CUDA device", allow_module_level=True)

from xpgpu._backend import _cupy_reductions as R  # noqa: E402  (needs CuPy)
from xpgpu._backend import _cupy_scan as C  # noqa: E402
from xpgpu._backend import _cupy_search as S  # noqa: E402

CUDA = _devices.lookup("cuda:0")
INTS = ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"]
FLOATS = ["float32", "float64"]
# (rows, length): lengths around the 16-byte vectors, the warp-row limit and the blocks.
SHAPES = [(1, 1), (1, 3), (1, 4), (1, 5), (1, 255), (1, 256), (1, 257), (1, 4095),
          (1, 65536), (1, (1 << 20) + 3), (2, 3), (7, 257), (5000, 4), (5000, 3), (64, 4095),
          (3, 65536), (1000, 1024), (33, 5000), (2, 300001)]
FEW = [(1, 5), (7, 257), (5000, 3), (64, 4096), (1, 65539), (2, 300001)]


@pytest.fixture
def forced(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every call of the tests takes xpgpu's kernels, whatever its size."""
    for m in (R, C):
        monkeypatch.setattr(m, "THRESHOLD", 1)


def _device(host: np.ndarray) -> xp.Array:
    return xp.asarray(host, device=CUDA)


def _arg_data(rng: np.random.Generator, shape: tuple[int, ...], dtype: str) -> np.ndarray:
    """Few distinct values (ties), the dtype's extremes, and for floats NaN of both signs,
    +-inf, +-0.0 and subnormals (which -ftz=true flushes in float32 comparisons) at random
    places; some rows all equal, some all -0.0/+0.0."""
    d = np.dtype(dtype)
    if d.kind == "f":
        tiny = np.finfo(d).smallest_subnormal
        pool = np.array([0.0, -0.0, 1.0, -1.0, 2.5, -2.5, np.inf, -np.inf, tiny, -tiny,
                         2 * tiny, -np.nan, np.nan], d)
        p = np.array([4, 4, 4, 4, 4, 4, 1, 1, 2, 2, 2, 0.05, 0.05])
    else:
        info = np.iinfo(d)
        pool = np.array([info.min, info.max, 0, 1, 2, info.min + 1, info.max - 1], d)
        p = np.array([1, 1, 4, 4, 4, 1, 1.0])
    host = rng.choice(pool, size=shape, p=p / p.sum())
    if shape[0] > 2:
        host[0] = pool[0]  # all equal
        host[1] = pool[-1]  # all equal (NaN for floats: index 0)
        if d.kind == "f":
            host[2] = rng.choice(np.array([0.0, -0.0], d), size=shape[1:])
    return host


@pytest.mark.parametrize("op", ["argmax", "argmin"])
@pytest.mark.parametrize("dtype", INTS + FLOATS)
def test_arg_all_dtypes(forced: None, op: str, dtype: str) -> None:
    rng = np.random.default_rng(1)
    for shape in FEW:
        host = _arg_data(rng, shape, dtype)
        x = _device(host)
        for axis in (None, -1):
            got = to_numpy(getattr(xp, op)(x, axis=axis))
            np.testing.assert_array_equal(got, getattr(np, op)(host, axis=axis))
    assert any(k[0] == op and k[1] == np.dtype(dtype) for k in S._kernels)


def test_arg_subnormals(forced: None) -> None:
    """Subnormals compare as themselves, -0.0 as +0.0 (float32 compared as floats under
    -ftz=true gave argmax([0, 2.1e-42]) 0), in a warp's row and a block's."""
    for values in ([0.0, 2.1e-42], [-0.0, 0.0, 1e-45], [-1e-45, 0.0, -0.0], [1e-45, 3e-45, 1e-45],
                   [-3e-45, np.nan, -1e-45]):
        for dtype in ("float32", "float64"):
            for reps in (1, 3000):
                host = np.tile(np.array(values, dtype), (reps, 1))
                for op in ("argmax", "argmin"):
                    for axis in (None, -1):
                        got = to_numpy(getattr(xp, op)(_device(host), axis=axis))
                        want = getattr(np, op)(host, axis=axis)
                        np.testing.assert_array_equal(got, want, err_msg=f"{op} {values}")


@pytest.mark.parametrize("op", ["argmax", "argmin"])
@pytest.mark.parametrize("dtype", ["float32", "float64", "int32"])
def test_arg_shapes(forced: None, op: str, dtype: str) -> None:
    rng = np.random.default_rng(2)
    for shape in SHAPES:
        host = _arg_data(rng, shape, dtype)
        if dtype != "int32":  # rare NaN: one per row at a random place in half the rows
            rows = rng.integers(0, shape[0], shape[0] // 2 + 1)
            host[rows, rng.integers(0, shape[1], rows.size)] = np.nan
        x = _device(host)
        for axis in (None, -1):
            for keepdims in (False, True):
                got = getattr(xp, op)(x, axis=axis, keepdims=keepdims)
                want = getattr(np, op)(host, axis=axis, keepdims=keepdims)
                assert got.dtype == xp.int64
                np.testing.assert_array_equal(to_numpy(got), want, err_msg=f"{shape} {axis}")
        # the rising ramp: the extreme at either end
        ramp = np.arange(shape[0] * shape[1], dtype=np.float64).reshape(shape) % 100
        ramp = ramp.astype(dtype)
        for axis in (None, -1):
            np.testing.assert_array_equal(to_numpy(getattr(xp, op)(_device(ramp), axis=axis)),
                                          getattr(np, op)(ramp, axis=axis))


def test_arg_views(forced: None) -> None:
    """A misaligned contiguous view (scalar loads), a 3-D array's last axis, and views
    that are not C-contiguous (CuPy's path) give NumPy's indices."""
    rng = np.random.default_rng(3)
    host = _arg_data(rng, (300001,), "float32")
    x = _device(host)
    for op in ("argmax", "argmin"):
        f, g = getattr(xp, op), getattr(np, op)
        assert int(to_numpy(f(x[1:]))) == g(host[1:])
        assert int(to_numpy(f(x[3:-2]))) == g(host[3:-2])
        h3 = _arg_data(rng, (4, 6, 1001), "float64")
        np.testing.assert_array_equal(to_numpy(f(_device(h3), axis=-1)), g(h3, axis=-1))
        np.testing.assert_array_equal(to_numpy(f(_device(h3), axis=1)), g(h3, axis=1))
        h2 = _arg_data(rng, (300, 1000), "int16")
        y = _device(h2)
        np.testing.assert_array_equal(to_numpy(f(y[:, ::2], axis=-1)), g(h2[:, ::2], axis=-1))
        np.testing.assert_array_equal(to_numpy(f(y[:, 1:], axis=-1)), g(h2[:, 1:], axis=-1))


def _truth_data(rng: np.random.Generator, shape: tuple[int, ...], dtype: str,
                op: str) -> np.ndarray:
    """Rows with no true element, one, or many (for all: no false, one, or many); for
    floats the truths are 1, -1, NaN, +-inf and the falsehoods 0.0 and -0.0."""
    rows, length = shape[0], int(np.prod(shape[1:]))
    true = np.zeros((rows, length), bool)
    mode = rng.integers(0, 3, rows)
    true[mode == 2] = rng.random(((mode == 2).sum(), length)) < 0.5
    one = np.flatnonzero(mode == 1)
    true[one, rng.integers(0, length, one.size)] = True
    if op == "all":
        true = ~true
    d = np.dtype(dtype)
    if d.kind == "b":
        return true.reshape(shape)
    if d.kind == "f":
        yes = rng.choice(np.array([1.0, -1.0, np.nan, np.inf, -np.inf, 3e-3], d), true.shape)
        no = rng.choice(np.array([0.0, -0.0], d), true.shape)
    else:
        info = np.iinfo(d)
        yes = rng.choice(np.array([1, info.max, info.min or 2, 64],
                                  d), true.shape)
        no = np.zeros(true.shape, d)
    return np.where(true, yes, no).reshape(shape)


@pytest.mark.parametrize("op", ["any", "all"])
@pytest.mark.parametrize("dtype", ["bool", "int8", "uint16", "int32", "uint64", *FLOATS])
def test_truth(forced: None, op: str, dtype: str) -> None:
    rng = np.random.default_rng(4)
    shapes = SHAPES if dtype in ("bool", "float32") else FEW
    for shape in shapes:
        host = _truth_data(rng, shape, dtype, op)
        x = _device(host)
        for axis in (None, -1):
            for keepdims in (False, True):
                got = getattr(xp, op)(x, axis=axis, keepdims=keepdims)
                assert got.dtype == xp.bool
                np.testing.assert_array_equal(
                    to_numpy(got), getattr(np, op)(host, axis=axis, keepdims=keepdims),
                    err_msg=f"{shape} {axis}")
        # a misaligned view (bool: not whole words), 3-D trailing axes
        np.testing.assert_array_equal(to_numpy(getattr(xp, op)(x[:, 1:], axis=-1)),
                                      getattr(np, op)(host[:, 1:], axis=-1))
    h3 = _truth_data(rng, (6, 5, 1003), dtype, op)
    for axis in ((1, 2), (-1,), (0, 1), (0, 2)):
        np.testing.assert_array_equal(to_numpy(getattr(xp, op)(_device(h3), axis=axis)),
                                      getattr(np, op)(h3, axis=axis))
    assert any(k[0] == op and (k[1] == np.dtype(dtype) or k[4] == f"{op}_words")
               for k in R._reduce_kernels)


def test_truth_bool_bytes(forced: None) -> None:
    """A boolean row as uint32 words: every single false (for all) or true (for any) byte
    position within a word is seen."""
    for pos in range(8):
        host = np.ones((3, 4096), bool)
        host[1, 100 + pos] = False
        np.testing.assert_array_equal(to_numpy(xp.all(_device(host), axis=-1)),
                                      [True, False, True])
        np.testing.assert_array_equal(to_numpy(xp.any(_device(~host), axis=-1)),
                                      [False, True, False])
        assert not bool(to_numpy(xp.all(_device(host))))
        assert bool(to_numpy(xp.any(_device(~host))))


# Rows that take the segmented kernel with 1 to 32 lanes a row, and the block kernel.
ROWS = [*FEW, (3, 4099), (1000, 1024), (8000, 100), (65536, 64), (20000, 7), (600, 500)]


@pytest.mark.parametrize("op", ["sum", "prod", "max", "min"])
@pytest.mark.parametrize("dtype", INTS)
def test_integer_reductions(forced: None, op: str, dtype: str) -> None:
    """Integer sums and products accumulate in int64 (signed) or uint64 (unsigned), the
    standard's dtype, and wrap around as NumPy's: exact whatever the order; max and min
    keep the dtype (its extremes included)."""
    rng = np.random.default_rng(12)
    d = np.dtype(dtype)
    summed = op in ("sum", "prod")
    acc = np.dtype("int64" if d.kind == "i" else "uint64") if summed else d
    kw = {"dtype": acc} if summed else {}
    info = np.iinfo(d)
    for shape in ROWS:
        host = rng.integers(int(info.min), int(info.max), shape, dtype=d, endpoint=True)
        x = _device(host)
        for axis in (None, -1):
            for keepdims in (False, True):
                got = getattr(xp, op)(x, axis=axis, keepdims=keepdims)
                want = getattr(np, op)(host, axis=axis, keepdims=keepdims, **kw)
                assert np.dtype(got.dtype) == acc
                np.testing.assert_array_equal(to_numpy(got), want, err_msg=f"{shape} {axis}")
        if summed:
            assert to_numpy(getattr(xp, op)(x, dtype=getattr(xp, str(acc)))) == getattr(
                np, op)(host, dtype=acc)
    ext = np.array([[info.max] * 5, [info.min] * 5], d)
    np.testing.assert_array_equal(to_numpy(getattr(xp, op)(_device(ext), axis=-1)),
                                  getattr(np, op)(ext, axis=-1, **kw))
    np.testing.assert_array_equal(to_numpy(getattr(xp, op)(x[:, 1:], axis=-1)),
                                  getattr(np, op)(host[:, 1:], axis=-1, **kw))
    assert any(k[0] == op and k[1] == d and k[5] == acc for k in R._reduce_kernels)


@pytest.mark.parametrize("op", ["sum", "prod"])
@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_complex_sum_prod(forced: None, op: str, dtype: str) -> None:
    """Complex sums and products against NumPy in complex128: within the reduction
    order's rounding, the same bits on a second call; NaN propagates."""
    rng = np.random.default_rng(13)
    tol = (1e-2 if op == "prod" else 1e-5) if dtype == "complex64" else 1e-11
    for shape in ROWS:
        if op == "prod":  # factors near the unit circle: the product stays finite
            host = (rng.uniform(0.999, 1.001, shape)
                    * np.exp(1j * rng.uniform(-np.pi, np.pi, shape))).astype(dtype)
        else:
            host = (rng.uniform(0.5, 1.5, shape) + 1j * rng.uniform(-1, 1, shape)).astype(dtype)
        x = _device(host)
        for axis in (None, -1):
            for keepdims in (False, True):
                got = to_numpy(getattr(xp, op)(x, axis=axis, keepdims=keepdims))
                again = to_numpy(getattr(xp, op)(x, axis=axis, keepdims=keepdims))
                want = getattr(np, op)(host.astype(np.complex128), axis=axis, keepdims=keepdims)
                assert got.dtype == np.dtype(dtype) and got.shape == want.shape
                assert got.tobytes() == again.tobytes()
                scale = (np.abs(host).sum(axis=axis, keepdims=keepdims) if op == "sum"
                         else np.abs(want))
                assert (np.abs(got - want) <= tol * scale).all(), (shape, axis)
        host.reshape(-1)[-1] = complex(np.nan, 1.0)
        got = to_numpy(getattr(xp, op)(_device(host), axis=-1))
        assert np.isnan(got[-1]) and not np.isnan(got[:-1]).any()
    assert any(k[0] == op and k[1] == np.dtype(dtype) for k in R._reduce_kernels)


# (input dtype, the dtype= passed or None): the default accumulation is the standard's.
SCAN_CASES = [("int8", None), ("int16", None), ("int32", None), ("int64", None),
              ("uint8", None), ("uint32", None), ("uint64", None), ("int32", "int32"),
              ("uint16", "uint32"), ("float32", None), ("float64", None),
              ("float32", "float64"), ("complex64", None), ("complex128", None),
              ("complex64", "complex128")]


def _scan_small(rng: np.random.Generator, shape: tuple[int, ...], d: np.dtype) -> np.ndarray:
    """Integers from -3 to 3 (real and imaginary parts): every partial sum is exact."""
    small = rng.integers(-3, 4, shape).astype(d)
    if d.kind == "c":
        small += 1j * rng.integers(-3, 4, shape).astype(d)
    return small


def _scan_bound(host: np.ndarray, acc: np.dtype) -> np.ndarray:
    """The docstring's bound, times eps and the prefix sums of |x| (|re| + |im|):
    D = TIPT + 12 + 5 L (tile kernel, L levels of 32), TIPT + 22 (one tile a block) or
    IPT + 12 + T (a block a row)."""
    rows, length = host.size // host.shape[-1], host.shape[-1]
    ipt = C._tile_ipt(host.dtype, acc)
    tiles = -(-length // (C._tile_block(acc) * ipt))
    levels = 0
    while 32**levels < tiles:
        levels += 1
    depth = ipt + 12 + 5 * levels
    if C._one_block(C._kernels[host.dtype, acc, True, 0][5], length, ipt, rows):
        depth = ipt + 22
    if tiles == 1 or rows >= C.SPREAD * R._wave(0):  # a block a row
        ipt = C._ipt(host.dtype, acc)
        depth = ipt + 12 + -(-length // (C.BLOCK * ipt))
    size = np.abs(host.real).astype(np.float64) + np.abs(host.imag).astype(np.float64)
    return depth * np.finfo(acc).eps * np.cumsum(size, axis=-1)


@pytest.mark.parametrize(("dtype", "acc"), SCAN_CASES)
def test_cumulative_sum(forced: None, dtype: str, acc: str | None) -> None:
    rng = np.random.default_rng(7)
    d = np.dtype(dtype)
    shapes = SHAPES if dtype in ("int32", "float32", "complex64") else FEW
    for shape in shapes:
        if d.kind in "fc":
            small = _scan_small(rng, shape, d)
        else:
            info = np.iinfo(d)
            small = rng.integers(int(info.min), int(info.max), shape, dtype=d, endpoint=True)
        for host in (small, small.reshape(-1)) if shape[0] == 1 else (small,):
            x = _device(host)
            got = xp.cumulative_sum(x, axis=-1, dtype=None if acc is None else getattr(xp, acc))
            out = np.dtype(got.dtype)
            want = np.cumsum(host.astype(out), axis=-1, dtype=out)  # integers: modular
            np.testing.assert_array_equal(to_numpy(got), want, err_msg=f"{shape}")
    if d.kind in "fc":
        out = np.dtype(acc or dtype)
        for shape in FEW:
            host = rng.standard_normal(shape).astype(d)
            if d.kind == "c":
                host += 1j * rng.standard_normal(shape).astype(d)
            got = to_numpy(xp.cumulative_sum(_device(host), axis=-1, dtype=getattr(xp, str(out))))
            want = np.cumsum(host.astype(np.clongdouble if d.kind == "c" else np.longdouble),
                             axis=-1)
            err = np.abs(got.astype(want.dtype) - want).astype(np.float64)
            assert (err <= _scan_bound(host, out)).all(), shape
    if d.kind == "f":
        host = rng.standard_normal((3, 70001)).astype(d)
        host[0, 5] = np.nan
        host[1, 60000] = np.inf
        host[2, 7], host[2, 9] = np.inf, -np.inf
        got = to_numpy(xp.cumulative_sum(_device(host), axis=-1))
        want = np.cumsum(host.astype(np.float64), axis=-1)
        np.testing.assert_array_equal(np.isnan(got), np.isnan(want))
        np.testing.assert_array_equal(np.isinf(got), np.isinf(want))
        assert (np.sign(got) == np.sign(want))[np.isinf(want)].all()
    assert any(k[0] == d for k in C._kernels)


@pytest.fixture(params=["one tile a block", "tiles"])
def scan_kernel(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
                ) -> Iterator[str]:
    """Both kernels of rows of several tiles: the one-tile kernel where it takes the launch
    (few tiles), and the tile kernel everywhere (ONE_BLOCKS empty); plans made afresh."""
    if request.param == "tiles":
        monkeypatch.setattr(C, "ONE_BLOCKS", ())
    R._plans.clear()
    yield request.param
    R._plans.clear()


@pytest.mark.parametrize("dtype", ["int32", "float32", "float64", "complex64"])
def test_cumulative_sum_tiles(forced: None, scan_kernel: str, dtype: str) -> None:
    """Rows of several tiles (the one-tile kernel, and the tile kernel with its levels of
    32 tiles): lengths around one, 32, 162 and 1024 tiles, one and three rows (one row of
    at most a tile a block: ONE_TILE_LAG), misaligned 1-D views, every scan launched
    before any result is read (each launch its own flags); many rows of a few tiles (a
    block a row, int32)."""
    d = np.dtype(dtype)
    tile = C._tile_block(d) * C._tile_ipt(d, d)
    rng = np.random.default_rng(9)
    cases = []
    for length in (tile - 1, tile, tile + 1, 2 * tile, 32 * tile - 1, 32 * tile,
                   32 * tile + 1, 161 * tile + 1, 1024 * tile, 1024 * tile + 1):
        for rows in (1, 3) if length < 1024 * tile else (1,):
            host = _scan_small(rng, (rows, length), d)
            cases.append((host, xp.cumulative_sum(_device(host), axis=-1)))
        host = _scan_small(rng, (length + 1,), d)
        cases.append((host[1:], xp.cumulative_sum(_device(host)[1:])))
    if dtype == "int32":
        length = 2 * C.BLOCK * C._ipt(d, d) + 1
        host = rng.integers(-1000, 1000, (C.SPREAD * R._wave(0), length)).astype(d)
        cases.append((host, xp.cumulative_sum(_device(host), axis=-1)))
    for host, got in cases:
        want = np.cumsum(host, axis=-1, dtype=np.dtype(got.dtype))
        np.testing.assert_array_equal(to_numpy(got), want, err_msg=f"{host.shape}")
    ones = C._kernels[d, d, True, 0][5]
    taken = [C._one_block(ones, h.shape[-1], C._tile_ipt(d, d), h.size // h.shape[-1]) > 0
             for h, _ in cases]
    assert any(taken) == (scan_kernel == "one tile a block") and not all(taken)


def test_cumulative_sum_epoch_wrap(forced: None) -> None:
    """The one-tile kernel's launch of the last epoch before its words' tag wraps to 0 (a
    zeroed word's) zeroes its entries and ticket: entries left with tag 1 by a launch
    2**32 launches before (here: written by hand) cannot pass for the next launch's, which
    gives the right sums; without the zeroing it would add them in (or, with tag 0, the
    zeroed words)."""
    import cupy

    d = np.dtype(np.float64)
    host = _scan_small(np.random.default_rng(13), (1 << 18,), d)
    x = cupy.asarray(host)
    assert C._one_block(C._kernels[d, d, True, 0][5], host.size, C._tile_ipt(d, d), 1)
    C._scan(x, -1, None)
    words, ticket = C._one_buffer(0)
    stale = np.array([1e6]).view(np.uint32).astype(np.uint64) | np.uint64(1 << 32)  # tag 1
    words.reshape(-1, 2)[:] = cupy.asarray(stale)
    ticket[:] = cupy.asarray(np.array([(2**32 - 2) << 32, 0], np.uint64))  # tag 2**32 - 1
    np.testing.assert_array_equal(cupy.asnumpy(C._scan(x, -1, None)), np.cumsum(host))
    assert not words.any() and not ticket.any()  # zeroed: the next tag is 1
    for _ in range(2):  # tags 1 and 2
        np.testing.assert_array_equal(cupy.asnumpy(C._scan(x, -1, None)), np.cumsum(host))
    assert ticket.get().tolist() == [2 << 32, 0]


def test_cumulative_sum_one_tile_plan_on_its_stream(monkeypatch: pytest.MonkeyPatch) -> None:
    """The one-tile kernel's plan keeps the slots of the current stream's entries and
    ticket: the compiled module launches it with no _one_buffer lookup on that stream; on
    another stream the plan's Python takes that stream's buffers; every result exact."""
    import cupy

    from xpgpu._backend import _cupy_launch

    host = _scan_small(np.random.default_rng(14), (1 << 18,), np.dtype(np.int64))
    x = cupy.asarray(host)
    C._scan(x, -1, None)  # the plan, made on the default stream
    real, calls = C._one_buffer, []
    monkeypatch.setattr(C, "_one_buffer", lambda *a: calls.append(a) or real(*a))
    results = [C._scan(x, -1, None) for _ in range(3)]
    assert len(calls) == (0 if _cupy_launch.compiled else 3)
    with cupy.cuda.Stream(non_blocking=True) as stream:
        results.append(C._scan(x, -1, None))
        stream.synchronize()
    assert len(calls) == (1 if _cupy_launch.compiled else 4)
    assert len({c[0] for c in calls}) == 1
    for got in results:
        np.testing.assert_array_equal(cupy.asnumpy(got), np.cumsum(host))


def test_cumulative_sum_deterministic(forced: None) -> None:
    """The same bits on every call: the tile kernel's order does not depend on timing."""
    host = np.random.default_rng(10).standard_normal((1 << 22) + 3).astype(np.float32)
    x = _device(host)
    first = to_numpy(xp.cumulative_sum(x))
    for _ in range(3):
        np.testing.assert_array_equal(to_numpy(xp.cumulative_sum(x)).view(np.uint32),
                                      first.view(np.uint32))
    assert (np.abs(first - np.cumsum(host, dtype=np.float64)) <= _scan_bound(host, np.dtype(
        np.float32))).all()


def test_cumulative_sum_stage_too_large(forced: None, monkeypatch: pytest.MonkeyPatch) -> None:
    """A tile kernel whose shared memory (TILE_LAG + 1 tiles) does not fit a block: no
    launch, CuPy's scan instead, the same sums."""
    monkeypatch.setattr(C, "TILE_LAG", 1000)
    monkeypatch.setattr(C, "ONE_BLOCKS", ())
    monkeypatch.setattr(C, "_kernels", type(C._kernels)(C._kernels.build))
    R._plans.clear()
    d = np.dtype(np.int32)
    host = _scan_small(np.random.default_rng(11), (3 * C._tile_block(d) * C._tile_ipt(d, d),), d)
    import cupy

    assert C._scan(cupy.asarray(host), -1, None) is None
    assert C._kernels[(d, d, True, 0)][3] == 0  # no grid
    np.testing.assert_array_equal(to_numpy(xp.cumulative_sum(_device(host))), np.cumsum(host))


def test_cumulative_sum_views(forced: None) -> None:
    """Misaligned views (scalar loads), include_initial, a 3-D last axis, and axes that
    are not the last one (CuPy's path)."""
    rng = np.random.default_rng(8)
    host = rng.integers(-1000, 1000, (5, 100003)).astype(np.int64)
    x = _device(host)
    np.testing.assert_array_equal(to_numpy(xp.cumulative_sum(x[:, 1:], axis=-1)),
                                  np.cumsum(host[:, 1:], axis=-1))
    np.testing.assert_array_equal(to_numpy(xp.cumulative_sum(x[2, 3:])), np.cumsum(host[2, 3:]))
    np.testing.assert_array_equal(to_numpy(xp.cumulative_sum(x, axis=0)), np.cumsum(host, 0))
    got = to_numpy(xp.cumulative_sum(x, axis=-1, include_initial=True))
    np.testing.assert_array_equal(got[:, 1:], np.cumsum(host, axis=-1))
    assert (got[:, 0] == 0).all()
    h3 = host.astype(np.float32)[:, :100000].reshape(5, 40, 2500)
    np.testing.assert_array_equal(to_numpy(xp.cumulative_sum(_device(h3), axis=-1)),
                                  np.cumsum(h3, axis=-1))  # small integers: exact


# (shape, axis): rows of one leaf (n <= 128, n < 8 included), of several (NumPy's split
# tree: 30729 elements have 257 leaves, 61449 have 513, the most below 2**16), one row of
# a 2-D array, and trailing axes of a 3-D one.
PAIRWISE_CASES = [((2, 1), -1), ((3, 7), -1), ((5, 8), 1), ((4, 100), -1), ((3, 128), -1),
                  ((3, 129), -1), ((2, 1000), -1), ((7, 4097), -1), ((2, 30729), -1),
                  ((1, 61449), -1), ((1, 5000), (0, 1)), ((500, 5), -1), ((1000, 13), -1),
                  ((4, 6, 50), (1, 2)), ((4, 6, 50), -1), ((33, 1, 3), (-2, -1))]


@pytest.mark.parametrize("op", ["sum", "mean"])
@pytest.mark.parametrize("dtype", FLOATS)
def test_pairwise_rows(op: str, dtype: str) -> None:
    """Rows of real floats below THRESHOLD (the default: no forcing) are summed in NumPy's
    pairwise order: xpgpu's sum and mean give NumPy's bits (NaN's payload aside), -0.0
    rows, NaN and inf included, with keepdims. The data spans 8 decades, so that another
    order (in turn, by halves) changes the results: the check below that it does keeps
    this test able to fail."""
    rng = np.random.default_rng(21)
    fn = getattr(np, op)
    for shape, axis in PAIRWISE_CASES:
        host = (rng.standard_normal(shape) * 10.0 ** rng.uniform(-4, 4, shape)).astype(dtype)
        if shape[0] > 3:
            host[1] = -0.0
            host[2].flat[0], host[3].flat[-1] = np.nan, np.inf
        for keepdims in (False, True):
            got = getattr(xp, op)(_device(host), axis=axis, keepdims=keepdims)
            want = fn(host, axis=axis, keepdims=keepdims)
            assert got.dtype == getattr(xp, dtype) and got.shape == want.shape
            _same_bits(to_numpy(got), want)
    # the order matters for such data: summing in turn gives other bits
    host = (rng.standard_normal((12, 4097)) * 10.0 ** rng.uniform(-4, 4, (12, 4097))).astype(dtype)
    in_turn = np.add.accumulate(host, axis=-1)[:, -1]
    assert (in_turn != np.sum(host, axis=-1)).any()
    assert to_numpy(xp.sum(_device(host), axis=-1)).tobytes() == np.sum(host, axis=-1).tobytes()


def _same_bits(got: np.ndarray, want: np.ndarray) -> None:
    """The same bits, but for NaN's payload (a float32 addition on the GPU makes its own
    NaN): NaN where NumPy has NaN, every other value to the bit (the sign of zero too)."""
    nan = np.isnan(want)
    np.testing.assert_array_equal(np.isnan(got), nan)
    assert got[~nan].tobytes() == want[~nan].tobytes()


def test_dispatch() -> None:
    """Default thresholds: exact reductions (any, all, argmax, argmin; integer scans) and
    whole arrays take xpgpu's kernels at every size; several small rows of floats take
    NumPy's pairwise order for sum and mean and keep CuPy's path for the other rounding
    reductions (the adapters answer None), as do empty arrays and non-C-contiguous views."""
    import cupy

    small = cupy.ones((4, 1000), cupy.float32)
    large = cupy.ones((64, 2048), cupy.float32)
    assert C.THRESHOLD == R.THRESHOLD == 1 << 16 and R.EXACT == {"max", "min", "any", "all"}
    for f in (lambda a, ax: S._arg("argmax", a, ax, False),
              lambda a, ax: R._reduce("any", a, ax, False),
              lambda a, ax: R._reduce("max", a, ax, False),
              lambda a, ax: R._reduce("sum", a, ax, False),
              lambda a, ax: R._moments(a, ax, 0, False, False),
              lambda a, ax: C._scan(a, -1 if ax is None else ax, None)):
        assert f(small[0], -1) is not None  # one row
        assert f(large, -1) is not None
        assert f(large[:, ::2], -1) is None
        assert f(large.T, -1) is None
        assert f(cupy.ones((0, 3), cupy.float32), -1) is None
    for f in (lambda a: S._arg("argmax", a, -1, False), lambda a: R._reduce("any", a, -1, False),
              lambda a: R._reduce("max", a, -1, False),
              lambda a: R._reduce("sum", a.astype(cupy.int32), -1, False),
              lambda a: R._reduce("prod", a.astype(cupy.uint8), -1, False),
              lambda a: C._scan(a.astype(cupy.int32), -1, None)):
        assert f(small) is not None  # exact: every size
    for f in (lambda a: R._reduce("sum", a, -1, False), lambda a: R._reduce("mean", a, 1, True)):
        assert f(small) is not None  # NumPy's pairwise order
    for f in (lambda a: R._reduce("prod", a, -1, False),
              lambda a: R._reduce("sum", a.astype(cupy.complex64), -1, False),
              lambda a: R._moments(a, -1, 0, False, True), lambda a: C._scan(a, -1, None)):
        assert f(small) is None  # rows that round, below THRESHOLD
    assert R._reduce("sum", large.astype(cupy.int32), -1, False, cupy.int32) is None
    assert R._reduce("mean", large.astype(cupy.int32), -1, False) is None
    assert C._scan(large, 0, None) is None  # not the last axis
    assert C._scan(large, -1, cupy.float16) is None  # a narrower accumulation
    assert C._scan(large.astype(cupy.int32), -1, cupy.int16) is None
    assert S._arg("argmax", large.astype(cupy.complex64), None, False) is None
    assert S._arg("argmax", large.reshape(64, 32, 64), 1, False) is None


def test_plans(monkeypatch: pytest.MonkeyPatch) -> None:
    """A reduction's launch is worked out once per (shape, dtype, layout, alignment,
    device, arguments, thresholds) and kept: a second call of the same kind adds no plan
    and launches one kernel from the compiled module (where it is built), with the same
    result as the Python definition (R._planned); a changed threshold, a misaligned view,
    a list axis, split rows and CuPy's path each get what they got before plans."""
    import cupy

    from xpgpu._backend import _cupy_launch as L

    rng = np.random.default_rng(12)
    host = rng.standard_normal((600, 500)).astype(np.float32)
    a = cupy.asarray(host)
    calls = [lambda x: R.FIXES["sum"](x, -1), lambda x: R.FIXES["max"](x, None),
             lambda x: R.FIXES["var"](x, -1, ddof=1), lambda x: S.FIXES["argmax"](x, -1),
             lambda x: R.FIXES["any"](x > 0, -1), lambda x: R.FIXES["sum"](x, [0, 1])]
    wants = [host.astype(np.float64).sum(-1), host.max(), host.astype(np.float64).var(-1, ddof=1),
             host.argmax(-1), (host > 0).any(-1), host.astype(np.float64).sum()]
    for f, want in zip(calls, wants, strict=True):
        first = f(a)
        n, before = len(R._plans), L.launches()
        again = f(a)
        assert len(R._plans) == n  # no new plan
        assert not L.compiled or L.launches() - before in (1, 2)  # any's x > 0 is a launch
        monkeypatch.setattr(R, "planned", R._planned)
        python = f(a)
        monkeypatch.undo()
        for got in (first, again, python):
            np.testing.assert_allclose(cupy.asnumpy(got), want, rtol=1e-5, atol=1e-4)
        np.testing.assert_array_equal(cupy.asnumpy(again), cupy.asnumpy(python))
    # views of one shape, 16-byte aligned and not, each take their own plan
    flat, k = a.ravel(), 1 << 15
    for offset in (0, 1, 4, 1):
        want = host.ravel()[offset:offset + k].astype(np.float64).sum()
        got = cupy.asnumpy(R.FIXES["sum"](flat[offset:offset + k]))
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=0.05)
    # a threshold is part of the key: small rows of floats switch paths with it
    small = cupy.ones((4, 1000), cupy.float32)
    assert R._reduce("prod", small, -1, False) is None
    monkeypatch.setattr(R, "THRESHOLD", 1)
    assert R._reduce("prod", small, -1, False) is not None
    monkeypatch.setattr(R, "MAX_PLANS", len(R._plans))
    assert R._reduce("prod", small, -1, True) is not None  # a full dict starts afresh
    assert len(R._plans) == 1


def test_partials_buffer_reused_per_stream() -> None:
    """The blocks' partials of a launch go to one buffer per (device, stream, item size),
    not an allocation a call: back-to-back reductions of other arrays, dtypes and sizes,
    with no synchronisation between them, each give their own result; another stream has
    its own buffer."""
    import cupy

    rng = np.random.default_rng(11)
    hosts = [rng.standard_normal(n).astype(d) for n in (1 << 20, 300_001, 1 << 17)
             for d in ("float32", "float64")]
    xs = [cupy.asarray(h) for h in hosts]
    runs = [(R.FIXES["sum"](x), R.FIXES["max"](x), R.var(x), S.FIXES["argmax"](x))
            for x in xs for _ in range(2)]
    keys = len(R._scratches)
    for (total, top, var, arg), h in zip(runs, [h for h in hosts for _ in range(2)], strict=True):
        np.testing.assert_allclose(total.get(), h.sum(dtype=np.float64), rtol=1e-4)
        assert top.get() == h.max() and arg.get() == h.argmax()
        np.testing.assert_allclose(var.get(), h.astype(np.float64).var(), rtol=1e-4)
    R.FIXES["sum"](xs[0])
    assert len(R._scratches) == keys  # reused, not one more
    with cupy.cuda.Stream(non_blocking=True) as stream:
        total = R.FIXES["sum"](xs[0])
        stream.synchronize()
    assert len(R._scratches) > keys
    np.testing.assert_allclose(total.get(), hosts[0].sum(dtype=np.float64), rtol=1e-4)


def test_split_plans_launch_from_c_on_their_stream(monkeypatch: pytest.MonkeyPatch) -> None:
    """A reduction whose rows are split among blocks keeps, in its plan, the slots of the
    current stream's partials and tickets: the compiled module launches it without the
    plan's Python (no _scratch lookup) on that stream, and on another stream calls the
    Python, which takes that stream's buffers; every result is the sum."""
    import cupy

    from xpgpu._backend import _cupy_launch

    host = np.random.default_rng(12).standard_normal(1 << 20)
    x = cupy.asarray(host)
    R.FIXES["sum"](x)  # the plan, made on the default stream
    real, calls = R._scratch, []
    monkeypatch.setattr(R, "_scratch", lambda *a: calls.append(a) or real(*a))
    totals = [R.FIXES["sum"](x) for _ in range(3)]
    assert len(calls) == (0 if _cupy_launch.compiled else 3)
    with cupy.cuda.Stream(non_blocking=True) as stream:
        totals.append(R.FIXES["sum"](x))
        stream.synchronize()
    assert len(calls) == (1 if _cupy_launch.compiled else 4)
    for total in totals:
        np.testing.assert_allclose(total.get(), host.sum(), rtol=1e-10)
