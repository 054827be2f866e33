"""xpgpu's own sort kernel on CUDA (rows of at most ``ROW_LIMIT`` elements,
xpgpu/_backend/_cupy_sorting.py) against NumPy's stable sort on the host, bit for bit:
every real dtype; row lengths around the warp, the power-of-two padding and the limit;
NaN of both signs, +-inf, -0.0 and +0.0, ties; the last axis and others, views, descending.

    python -m pytest tests/test_sort_kernel.py -m cuda
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

from xpgpu._backend import _cupy_sorting as K  # noqa: E402  (needs CuPy)

CUDA = _devices.lookup("cuda:0")
REAL = ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
        "float32", "float64"]
LENGTHS = [1, 2, 3, 31, 32, 33, 255, 1000, 1024, 1025, 2047, 2048]


def _data(rng: np.random.Generator, shape: tuple[int, ...], dtype: str) -> np.ndarray:
    """Few distinct values (ties); for floats NaN of both signs, +-inf and +-0.0."""
    d = np.dtype(dtype)
    if d.kind == "f":
        pool = np.array([0.0, -0.0, 1.0, -1.0, 2.5, np.inf, -np.inf, np.nan, -np.nan], d)
    else:
        info = np.iinfo(d)
        pool = np.array([info.min, info.max, 0, 1, 2, info.max - 1], d)
    return rng.choice(pool, size=shape)


def _bits(a: np.ndarray) -> np.ndarray:
    return a.view(f"u{a.dtype.itemsize}")


def _check(host: np.ndarray, axis: int = -1, descending: bool = False) -> None:
    x = xp.asarray(host, device=CUDA)
    if descending:  # the stable descending order: NumPy's stable sort of the reversed rows
        flipped = np.flip(host, axis=axis)
        order = np.flip(host.shape[axis] - 1 - np.argsort(flipped, axis=axis, kind="stable"),
                        axis=axis)
    else:
        order = np.argsort(host, axis=axis, kind="stable")
    got = to_numpy(xp.argsort(x, axis=axis, descending=descending))
    np.testing.assert_array_equal(got, order)
    values = to_numpy(xp.sort(x, axis=axis, descending=descending))
    np.testing.assert_array_equal(_bits(values), _bits(np.take_along_axis(host, order, axis)))


@pytest.mark.parametrize("dtype", REAL)
@pytest.mark.parametrize("n", LENGTHS)
def test_rows(dtype: str, n: int) -> None:
    rng = np.random.default_rng(n)
    _check(_data(rng, (n,), dtype))
    _check(_data(rng, (3, n), dtype))


@pytest.mark.parametrize("dtype", ["int16", "float32", "float64"])
def test_axes_views_and_descending(dtype: str) -> None:
    rng = np.random.default_rng(1)
    host = _data(rng, (6, 50, 40), dtype)
    for axis in (0, 1, 2, -1):
        _check(host, axis)
        _check(host, axis, descending=True)
    _check(host[:, ::-3, 1::2], 1)  # a strided view, copied first
    _check(_data(rng, (700, 5), dtype))  # many short rows, a block each


def test_dispatch() -> None:
    """Rows longer than ROW_LIMIT, bool and complex arrays keep the other path."""
    import cupy

    assert K.ROW_LIMIT == 2048
    assert K._sort_rows(cupy.ones((2, K.ROW_LIMIT), cupy.float32), -1, False) is not None
    assert K._sort_rows(cupy.ones(K.ROW_LIMIT + 1, cupy.float32), -1, False) is None
    assert K._sort_rows(cupy.ones(0, cupy.float32), -1, False) is None
    assert K._sort_rows(cupy.ones(4, cupy.bool_), -1, False) is None
    assert K._sort_rows(cupy.ones(4, cupy.complex64), -1, False) is None
    host = _data(np.random.default_rng(2), (K.ROW_LIMIT + 5,), "float32")
    _check(host)  # the long row's path: the same order
