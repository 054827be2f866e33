"""take and take_along_axis against NumPy, on each device.

On CUDA these check CuPy's take (negative indices count from the end) and
take_along_axis (with broadcasting outside the axis) against NumPy on the same data.
"""

from __future__ import annotations

import numpy as np
import pytest
from conftest import assert_close

import xpgpu as xp

INDEX_DTYPES = ("int8", "int16", "int64", "uint8", "uint64")


def arr(a, device, dtype=None):
    return xp.asarray(np.asarray(a, dtype=dtype), device=device)


@pytest.mark.parametrize("index_dtype", INDEX_DTYPES)
def test_take(device, index_dtype) -> None:
    a = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    idx = np.array([0, 2, 1, 1], dtype=index_dtype)
    for axis in (0, 1, 2, -1, -3):
        i = idx % a.shape[axis]
        assert_close(xp.take(arr(a, device), arr(i, device), axis=axis),
                     np.take(a, i.astype(np.int64), axis=axis))
    v = np.arange(5, dtype=np.int16)
    assert_close(xp.take(arr(v, device), arr(idx, device)), np.take(v, idx.astype(np.int64)))
    assert_close(xp.take(arr(v, device), arr(np.zeros(0, index_dtype), device)),
                 np.zeros(0, np.int16))


def test_take_negative_indices(device) -> None:
    a = np.arange(12).reshape(3, 4)
    idx = np.array([-1, -4, 0], dtype=np.int32)
    assert_close(xp.take(arr(a, device), arr(idx, device), axis=1), np.take(a, idx, axis=1))


def test_take_errors(device) -> None:
    x = arr(np.ones((2, 3)), device)
    i = arr(np.array([0, 1]), device)
    with pytest.raises(ValueError, match=r"^take"):
        xp.take(x, i)
    with pytest.raises(TypeError, match=r"^take"):
        xp.take(x, arr(np.array([0.0]), device), axis=0)
    with pytest.raises(ValueError, match=r"^take"):
        xp.take(x, arr(np.zeros((1, 1), np.int64), device), axis=0)
    with pytest.raises(IndexError, match=r"^take"):
        xp.take(x, i, axis=2)
    with pytest.raises(ValueError, match=r"^take"):
        xp.take(arr(np.float64(1), device), i)
    with pytest.raises(TypeError, match=r"^take"):
        xp.take(x, [0, 1], axis=0)


@pytest.mark.parametrize("index_dtype", INDEX_DTYPES)
def test_take_along_axis(device, index_dtype) -> None:
    a = np.arange(24, dtype=np.int32).reshape(2, 3, 4) * 7 % 11
    for axis in (0, 1, 2, -1):
        order = np.argsort(a, axis=axis, kind="stable").astype(index_dtype)
        assert_close(xp.take_along_axis(arr(a, device), arr(order, device), axis=axis),
                     np.take_along_axis(a, order.astype(np.int64), axis=axis))
    # indices broadcast against x outside the axis; fewer or more picks along it
    idx = np.array([[[0, 3]]], dtype=index_dtype)
    assert_close(xp.take_along_axis(arr(a, device), arr(idx, device), axis=-1),
                 np.take_along_axis(a, idx.astype(np.int64), axis=-1))
    neg = np.full((2, 3, 1), -1, dtype=np.int8)
    assert_close(xp.take_along_axis(arr(a, device), arr(neg, device), axis=2), a[:, :, -1:])


def test_take_along_axis_errors(device) -> None:
    x = arr(np.ones((2, 3)), device)
    with pytest.raises(ValueError, match=r"^take_along_axis"):
        xp.take_along_axis(x, arr(np.zeros(2, np.int64), device))
    with pytest.raises(ValueError, match=r"^take_along_axis"):
        xp.take_along_axis(x, arr(np.zeros((3, 1), np.int64), device), axis=1)
    with pytest.raises(IndexError, match=r"^take_along_axis"):
        xp.take_along_axis(x, arr(np.zeros((2, 1), np.int64), device), axis=2)
    with pytest.raises(TypeError, match=r"^take_along_axis"):
        xp.take_along_axis(x, arr(np.zeros((2, 1)), device))


def test_out_of_bounds_on_cpu() -> None:
    # The standard leaves out-of-bounds indices unspecified; on the CPU they raise
    # (NumPy's check), named by the function. CuPy wraps them around, unchecked.
    x = xp.asarray(np.arange(3), device="cpu")
    with pytest.raises(IndexError, match=r"^take"):
        xp.take(x, xp.asarray(np.array([3]), device="cpu"))
    with pytest.raises(IndexError, match=r"^take_along_axis"):
        xp.take_along_axis(x, xp.asarray(np.array([-4]), device="cpu"))
