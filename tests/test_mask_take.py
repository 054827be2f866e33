"""``x[mask]`` on CUDA by xpgpu's scan and one kernel (xpgpu/_backend/_cupy_indexing.py,
``mask_take``), against NumPy, bit for bit: every dtype, masks of every leading axis count,
none and all selected, int32 and int64 positions, and the arrays that keep CuPy's path.

    python -m pytest tests/test_mask_take.py -m cuda
"""

from __future__ import annotations

import numpy as np
import pytest
from conftest import to_numpy

import xpgpu as xp
from xpgpu import _devices

pytestmark = pytest.mark.cuda

if not _devices.cuda_devices():
    pytest.skip("no CUDA device", allow_module_level=True)

import cupy  # noqa: E402

from xpgpu._backend import _cupy_indexing as I  # noqa: E402
from xpgpu._backend import _cupy_scan as S  # noqa: E402

CUDA = _devices.lookup("cuda:0")
DTYPES = ["bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64",
          "float32", "float64", "complex64", "complex128"]
# (data shape, mask shape): the mask of every axis, of leading axes, of one element.
SHAPES = [((1000,), (1000,)), ((3, 5, 7), (3, 5, 7)), ((6, 4), (6,)), ((4, 3, 2), (4, 3)),
          ((1,), (1,)), ((70000,), (70000,))]


def _random(rng: np.random.Generator, shape: tuple[int, ...], dtype: str) -> np.ndarray:
    d = np.dtype(dtype)
    if d.kind == "b":
        return rng.integers(0, 2, shape).astype(bool)
    n = int(np.prod(shape))
    return np.frombuffer(rng.bytes(n * d.itemsize), d).reshape(shape).copy()


@pytest.fixture
def takes(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """Whether each call of ``mask_take`` took the key (True) or left it to CuPy."""
    answers: list[bool] = []
    take = I.mask_take

    def counted(data: object, mask: object) -> object:
        out = take(data, mask)
        answers.append(out is not None)
        return out

    monkeypatch.setattr(I, "mask_take", counted)
    return answers


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
