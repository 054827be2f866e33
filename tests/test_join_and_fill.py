"""``concat``/``stack`` along the first axis as one kernel or device-to-device copies
(xpgpu/_backend/_cupy_manipulation.py), and ``x[mask] = scalar``, ``x[key] = scalar``,
``full`` and ``ones`` as one kernel or memset and ``x[mask]`` as a scan and one kernel
(xpgpu/_backend/_cupy_indexing.py) on CUDA, against NumPy, bit for bit: every dtype, empty
pieces, masks of leading axes, the axes and layouts that keep CuPy's path, stream order,
-0.0 and NaN, the scalars that keep CuPy's path.

    python -m pytest tests/test_join_and_fill.py -m cuda
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from conftest import to_numpy

import xpgpu as xp
from xpgpu import _devices

pytestmark = pytest.mark.cuda

if not _devices.cuda_devices():
    pytest.skip("no CUDA device", allow_module_level=True)

import cupy  # noqa: E402

from xpgpu._backend import _cupy as C  # noqa: E402
from xpgpu._backend import _cupy_indexing as I  # noqa: E402
from xpgpu._backend import _cupy_manipulation as M  # noqa: E402
from xpgpu._backend import _cupy_scan as S  # noqa: E402

CUDA = _devices.lookup("cuda:0")
DTYPES = ["bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64",
          "float32", "float64", "complex64", "complex128"]


def _random(rng: np.random.Generator, shape: tuple[int, ...], dtype: str) -> np.ndarray:
    d = np.dtype(dtype)
    if d.kind == "b":
        return rng.integers(0, 2, shape).astype(bool)
    n = int(np.prod(shape))
    return np.frombuffer(rng.bytes(n * d.itemsize), d).reshape(shape).copy()


def _bits(a: np.ndarray) -> bytes:
    return np.ascontiguousarray(a).tobytes()


def _answers(monkeypatch: pytest.MonkeyPatch, name: str,
             took: Callable[[Any], bool]) -> list[bool]:
    """``took`` of what each later call of ``_cupy_indexing.<name>`` returns."""
    answers: list[bool] = []
    func = getattr(I, name)

    def recorded(*args: Any) -> Any:
        out = func(*args)
        answers.append(took(out))
        return out

    monkeypatch.setattr(I, name, recorded)
    return answers


@pytest.fixture(params=["kernel", "copies"])
def joins(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """Every join along the first axis, by one kernel (at most PIECES pieces of at most
    SMALL bytes) or by a device-to-device copy a piece (SMALL -1): the joins' results,
    and for copies the byte counts copied."""
    seen: list[object] = []
    join, memcpy = M._join, M._memcpy

    def joined(pieces: tuple[object, ...], shape: tuple[int, ...]) -> object:
        out = join(pieces, shape)
        seen.append(out)
        return out

    def copied(dst: int, src: int, nbytes: int, kind: int, stream: int) -> None:
        seen.append(nbytes)
        memcpy(dst, src, nbytes, kind, stream)

    monkeypatch.setattr(M, "_join", joined)
    monkeypatch.setattr(M, "_memcpy", copied)
    monkeypatch.setattr(M, "SMALL", 1 << 62 if request.param == "kernel" else -1)
    return seen


@pytest.mark.parametrize("dtype", DTYPES)
def test_concat_and_stack_along_the_first_axis(dtype: str, joins: list[object]) -> None:
    rng = np.random.default_rng(len(dtype))
    by_kernel = M.SMALL > 0
    for shapes in ([(7,), (0,), (1000,)], [(3, 5), (1, 5), (0, 5)], [(2, 3, 4)],
                   [(2, 0, 3), (4, 0, 3)], [(i % 3 + 1, 2) for i in range(M.PIECES + 2)]):
        hosts = [_random(rng, s, dtype) for s in shapes]
        xs = [xp.asarray(h, device=CUDA) for h in hosts]
        full = [h.nbytes for h in hosts if h.nbytes]
        copies = full if not by_kernel or len(full) > M.PIECES else []
        for axis in (0, -len(shapes[0])):
            del joins[:]
            got = to_numpy(xp.concat(xs, axis=axis))
            want = np.concatenate(hosts, axis=0)
            assert got.shape == want.shape and _bits(got) == _bits(want), (shapes, axis)
            assert joins[:-1] == copies and len(joins) == 1 + len(copies)
        same = [_random(rng, shapes[0], dtype) for _ in range(3)]
        for axis in (0, -len(shapes[0]) - 1):
            del joins[:]
            got = to_numpy(xp.stack([xp.asarray(h, device=CUDA) for h in same], axis=axis))
            want = np.stack(same)
            assert got.shape == want.shape and _bits(got) == _bits(want), (shapes, axis)
            assert len(joins) == 1 + (0 if by_kernel or not same[0].nbytes else 3)


def test_concat_and_stack_elsewhere_are_cupys(joins: list[object]) -> None:
    """Another axis and strided views take CuPy's path; mixed dtypes (cast to one first)
    and axis=None (the pieces flattened) are contiguous pieces again: joined here."""
    rng = np.random.default_rng(1)
    a, b = rng.standard_normal((4, 6)), rng.standard_normal((4, 6))
    x, y = xp.asarray(a, device=CUDA), xp.asarray(b, device=CUDA)
    cases = [
        (xp.concat([x, y], axis=1), np.concatenate([a, b], axis=1)),
        (xp.concat([x[:, ::2], y[:, ::2]]), np.concatenate([a[:, ::2], b[:, ::2]])),
        (xp.stack([x, y], axis=1), np.stack([a, b], axis=1)),
        (xp.stack([x, y], axis=-1), np.stack([a, b], axis=-1)),
    ]
    assert joins == []
    cases.append((xp.concat([x, xp.astype(y, xp.float32)]),
                  np.concatenate([a, b.astype(np.float32)])))
    cases.append((xp.concat([x, y], axis=None), np.concatenate([a.ravel(), b.ravel()])))
    for got, want in cases:
        np.testing.assert_array_equal(to_numpy(got), want)
    assert sum(type(j) is cupy.ndarray for j in joins) == 2
    assert M._pieces([]) is None and M._pieces([cupy.ones(3), cupy.ones(3, "f")]) is None


@pytest.mark.parametrize("small", [True, False])
def test_concat_in_stream_order(small: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """On a stream of its own, behind kernels that write the pieces, the join (a kernel or
    copies) reads what those kernels wrote."""
    monkeypatch.setattr(M, "SMALL", 1 << 62 if small else -1)
    stream = cupy.cuda.Stream(non_blocking=True)
    with stream:
        slow = cupy.ones(1 << 24, np.float64)
        outs = []
        for i in range(20):
            piece = cupy.sin(slow)[:8] * 0 + i  # written by kernels queued just before
            outs.append(M.concat(cupy.concatenate)([piece, piece]))
        got = [float(o[-1]) for o in outs]
    assert got == [float(i) for i in range(20)]


def _scalars(dtype: str) -> list[object]:
    d = np.dtype(dtype)
    if d.kind == "b":
        return [True, False]
    if d.kind in "iu":
        info = np.iinfo(d)
        return [0, 1, int(info.min), int(info.max)]
    values: list[object] = [0.5, -0.0, float("nan"), float("-inf"), 1e-40, 3]
    return values + ([complex(-0.0, 2.5), complex("nan+1j")] if d.kind == "c" else [])


@pytest.mark.parametrize("dtype", DTYPES)
def test_mask_fill(dtype: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """x[mask] = scalar against NumPy's, bit for bit, in 1-D and 3-D, with one kernel."""
    rng = np.random.default_rng(len(dtype) + 7)
    launched = _answers(monkeypatch, "mask_fill", bool)
    for shape in ((1000,), (3, 5, 7), (1,)):
        for value in _scalars(dtype):
            host = _random(rng, shape, dtype)
            m = rng.random(shape) < 0.4
            x = xp.asarray(host, device=CUDA)
            x[xp.asarray(m, device=CUDA)] = value
            want = host.copy()
            want[m] = np.asarray(value, dtype)
            assert _bits(to_numpy(x)) == _bits(want), (shape, value)
    assert launched and all(launched)


def test_mask_fill_elsewhere_is_cupys() -> None:
    """A strided array or mask, a mask of fewer axes, an int the dtype cannot hold, a
    value of another kind, an empty array: not this kernel's (False, nothing written)."""
    a = cupy.arange(12, dtype=cupy.int8).reshape(3, 4)
    m = cupy.ones((3, 4), bool)
    for data, mask, value in ((a[:, ::2], m[:, ::2], 1), (a, m[:, ::-1], 1), (a, m[0], 1),
                              (a, m, 300), (a, m, 0.5), (a, m, True),
                              (cupy.ones(0), cupy.ones(0, bool), 1.0)):
        before = a.copy()
        assert I.mask_fill(data, mask, value) is False
        assert (a == before).all()
    x = xp.asarray(np.arange(6.0), device=CUDA)
    x[xp.asarray(np.array([1, 0, 1, 0, 1, 0], bool), device=CUDA)[::-1]] = 7.0  # a view
    np.testing.assert_array_equal(to_numpy(x), [0, 7, 2, 7, 4, 7])


@pytest.fixture
def fills(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """What each call of ``_cupy_indexing.fill`` answered (True: the kernel stored it)."""
    return _answers(monkeypatch, "fill", bool)


# Basic keys whose selection is C-contiguous or 1-D (strided, reversed, a column): one kernel.
VIEWS = [(slice(2, 900, 3),), (slice(None, None, -2),), (slice(1, 3),), (Ellipsis,),
         (3, Ellipsis), (1, 2, Ellipsis), (slice(None), 1, 2), (2, 3, slice(None, None, -1)),
         (1, Ellipsis, 0), (1, 2, 3)]


@pytest.mark.parametrize("dtype", DTYPES)
def test_fill_views(dtype: str, fills: list[bool]) -> None:
    """x[key] = scalar against NumPy's, bit for bit, for views that one kernel fills."""
    rng = np.random.default_rng(len(dtype) + 11)
    for value in _scalars(dtype):
        for key in VIEWS:
            shape = (1000,) if type(key[0]) is slice and len(key) == 1 else (4, 5, 6)
            host = _random(rng, shape, dtype)
            x = xp.asarray(host, device=CUDA)
            del fills[:]
            x[key if len(key) > 1 else key[0]] = value
            want = host.copy()
            want[key] = np.asarray(value, dtype)
            assert _bits(to_numpy(x)) == _bits(want), (key, value)
            assert fills == [True], (key, value)


@pytest.mark.parametrize("dtype", DTYPES)
def test_full_and_ones(dtype: str, fills: list[bool], monkeypatch: pytest.MonkeyPatch) -> None:
    """full, ones and zeros against NumPy's, bit for bit: by a memset where the value's
    bytes repeat a word of 1, 2 or 4 bytes, else by the kernel; and by the kernel alone."""
    widths: list[int] = []
    memset = I.memset

    def recorded(ptr: int, word: int, count: int, width: int) -> bool:
        widths.append(width)
        return memset(ptr, word, count, width)

    for by_memset in (True, False):
        monkeypatch.setattr(I, "memset", recorded if by_memset else lambda *args: False)
        for value in _scalars(dtype):
            del fills[:], widths[:]
            got = to_numpy(xp.full((3, 7), value, dtype=getattr(xp, dtype), device=CUDA))
            want = np.full((3, 7), value, dtype)
            assert _bits(got) == _bits(want), value
            assert fills == [True], value
            b = want.tobytes()[:want.itemsize]
            periods = [w for w in (1, 2, 4) if b == b[:w] * (len(b) // w)]
            words = [max(w for w in (1, 2, 4) if w >= periods[0] and not want.nbytes % w)
                     ] if periods else []  # the widest words the size allows
            assert widths == (words if by_memset else []), value
        got = to_numpy(xp.ones(9, dtype=getattr(xp, dtype), device=CUDA))
        assert _bits(got) == _bits(np.ones(9, dtype))
        assert fills[-1] is (dtype != "bool")  # ones of bool: CuPy's fill of 1
    for shape in ((1 << 16) + 3, (0, 4), ()):
        dirty = xp.asarray(np.full(shape, 7, dtype), device=CUDA)
        del dirty  # its memory goes back to the pool, for zeros to take
        want = np.zeros(shape, dtype)
        got = to_numpy(xp.zeros(shape, dtype=getattr(xp, dtype), device=CUDA))
        assert got.shape == want.shape and _bits(got) == _bits(want)


def test_fill_elsewhere_is_cupys(fills: list[bool]) -> None:
    """A 2-D strided view, an empty array, an int the dtype cannot hold, a value of another
    kind or a NumPy scalar of another dtype: not the kernel's (False, nothing written); an
    array value or an array key does not ask it."""
    a = cupy.arange(12, dtype=cupy.int8).reshape(3, 4)
    for data, value in ((a[:, ::2], 1), (a[:0], 1), (a, 300), (a, 0.5), (a, True),
                        (a, np.int16(1)), (a, 1j)):
        before = a.copy()
        assert I.fill(data, value) is False
        assert (a == before).all()
    host = np.arange(24.0).reshape(4, 6)
    x = xp.asarray(host, device=CUDA)
    del fills[:]
    x[:, ::2] = -0.0  # strided 2-D: CuPy's path, which keeps the sign too
    x[1, :] = xp.asarray(7.0, device=CUDA)  # an array value
    C._setitem(x._data, cupy.asarray([0, 2]), 5.0)  # an integer array key (permissive)
    host[:, ::2] = -0.0
    host[1, :] = 7.0
    host[[0, 2]] = 5.0
    assert _bits(to_numpy(x)) == _bits(host)
    assert fills == [False]


# (data shape, mask shape): the mask of every axis, of leading axes, of one element.
SHAPES = [((1000,), (1000,)), ((3, 5, 7), (3, 5, 7)), ((6, 4), (6,)), ((4, 3, 2), (4, 3)),
          ((1,), (1,)), ((70000,), (70000,))]


@pytest.fixture
def takes(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """Whether each call of ``mask_take`` took the key (True) or left it to CuPy."""
    return _answers(monkeypatch, "mask_take", lambda out: out is not None)


@pytest.mark.parametrize("positions", ["int32", "int64"])
@pytest.mark.parametrize("dtype", DTYPES)
def test_mask_take(dtype: str, positions: str, takes: list[bool],
                   monkeypatch: pytest.MonkeyPatch) -> None:
    """x[mask] against NumPy's, bit for bit, by the kernel: random masks, none and all
    selected."""
    if positions == "int64":
        monkeypatch.setattr(I, "INT32_POSITIONS", 0)
    rng = np.random.default_rng(len(dtype))
    for shape, mshape in SHAPES:
        host = _random(rng, shape, dtype)
        x = xp.asarray(host, device=CUDA)
        for m in (rng.random(mshape) < 0.4, np.zeros(mshape, bool), np.ones(mshape, bool)):
            del takes[:]
            got = to_numpy(x[xp.asarray(m, device=CUDA)])
            want = host[m]
            assert got.shape == want.shape and got.tobytes() == want.tobytes(), (shape, m.sum())
            assert takes == [True]


def test_mask_take_elsewhere_is_cupys(takes: list[bool], monkeypatch: pytest.MonkeyPatch) -> None:
    """Views, a 0-d mask, an integer key, an empty array and a scan turned off are not the
    kernel's (None): CuPy's path gives the same values."""
    a = cupy.arange(24, dtype=cupy.float32).reshape(4, 6)
    m = cupy.asarray(np.array([[1, 0, 1, 0, 1, 1]] * 4, bool))
    for data, mask in ((a[:, ::2], m[:, ::2]), (a, m[:, ::-1]), (a[1:], m[1:, ::-1]),
                       (a, cupy.asarray(True)), (a, cupy.arange(4)), (a[:0], m[:0])):
        assert I.mask_take(data, mask) is None
    host = np.arange(24.0).reshape(4, 6)
    hm = np.array([[1, 0, 1, 0, 1, 1]] * 4, bool)
    x, mx = xp.asarray(host, device=CUDA), xp.asarray(hm, device=CUDA)
    del takes[:]
    np.testing.assert_array_equal(to_numpy(x[:, ::2][mx[:, ::2]]), host[:, ::2][hm[:, ::2]])
    monkeypatch.setattr(S, "MIN_SIZE", 1 << 62)
    np.testing.assert_array_equal(to_numpy(x[mx]), host[hm])
    assert takes == [False, False]


def test_mask_take_in_stream_order() -> None:
    """On a stream of its own, behind kernels that write the array and the mask, the take
    reads what they wrote."""
    stream = cupy.cuda.Stream(non_blocking=True)
    with stream:
        slow = cupy.ones(1 << 24, np.float64)
        for i in range(10):
            data = cupy.sin(slow)[:1000] * 0 + i  # written by kernels queued just before
            mask = (cupy.sin(slow)[:1000] * 0 + cupy.arange(1000)) % 3 == 0
            out = I.mask_take(data, mask)
            assert out.shape == (334,) and bool((out == i).all())
