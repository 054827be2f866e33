"""Manipulation functions against NumPy, on each device.

On CUDA these check CuPy's reshaping, joining and rearranging against NumPy's results
on the same data, and the CuPy repeat fix (an array of repeats, repeats along an axis).
"""

from __future__ import annotations

import numpy as np
import pytest
from conftest import to_numpy
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import xpgpu as xp


def arr(a, device, dtype=None):
    return xp.asarray(np.asarray(a, dtype=dtype), device=device)


def same(out: xp.Array, expected: np.ndarray, device) -> None:
    assert out.device == device
    got = to_numpy(out)
    assert got.dtype == expected.dtype, (got.dtype, expected.dtype)
    assert got.shape == expected.shape, (got.shape, expected.shape)
    np.testing.assert_array_equal(got, expected)


shapes = hnp.array_shapes(min_dims=0, max_dims=4, min_side=0, max_side=4)


# ---- broadcasting ---------------------------------------------------------------------

def test_broadcast_shapes() -> None:
    assert xp.broadcast_shapes((2, 1), (3,)) == (2, 3)
    assert xp.broadcast_shapes((5, 1, 4), (3, 1), ()) == (5, 3, 4)
    assert xp.broadcast_shapes() == ()
    assert xp.broadcast_shapes((0,), (1,)) == (0,)
    assert xp.broadcast_shapes((None, 1), (3,)) == (None, 3)
    with pytest.raises(ValueError, match=r"^broadcast_shapes"):
        xp.broadcast_shapes((2,), (3,))
    assert xp.broadcast_shapes([2, 1], (3,)) == (2, 3)  # lists, as array-api-strict
    with pytest.raises(TypeError, match=r"^broadcast_shapes"):
        xp.broadcast_shapes(2)


@settings(max_examples=40, deadline=None)
@given(st.lists(hnp.array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=3),
                min_size=1, max_size=3))
def test_broadcast_shapes_matches_numpy(shapes_) -> None:
    try:
        expected = np.broadcast_shapes(*shapes_)
    except ValueError:
        with pytest.raises(ValueError, match=r"^broadcast_shapes"):
            xp.broadcast_shapes(*shapes_)
    else:
        assert xp.broadcast_shapes(*shapes_) == expected


def test_broadcast_arrays_and_to(device) -> None:
    a, b = np.arange(3, dtype=np.int8), np.ones((2, 1), dtype=np.float32)
    out = xp.broadcast_arrays(arr(a, device), arr(b, device))
    for o, e in zip(out, np.broadcast_arrays(a, b), strict=True):
        same(o, e, device)
    same(xp.broadcast_to(arr(a, device), (4, 3)), np.broadcast_to(a, (4, 3)), device)
    with pytest.raises(ValueError, match=r"^broadcast_to"):
        xp.broadcast_to(arr(a, device), (4,))
    with pytest.raises(ValueError, match=r"^broadcast_to"):
        xp.broadcast_to(arr(np.ones((2, 3)), device), (3,))
    with pytest.raises(ValueError, match=r"^broadcast_arrays"):
        xp.broadcast_arrays(arr(a, device), arr(np.ones(4), device))
    with pytest.raises(TypeError, match=r"^broadcast_arrays"):
        xp.broadcast_arrays(arr(a, device), a)


# ---- joining --------------------------------------------------------------------------

PROMOTING = [("int8", "int16", "int16"), ("uint8", "int8", "int16"),
             ("float32", "float64", "float64"), ("float32", "complex64", "complex64"),
             ("bool", "bool", "bool"), ("uint32", "int32", "int64")]


@pytest.mark.parametrize("d1,d2,out", PROMOTING)
def test_concat_promotes(device, d1, d2, out) -> None:
    a = np.arange(6).reshape(2, 3).astype(d1)
    b = np.arange(3).reshape(1, 3).astype(d2)
    same(xp.concat([arr(a, device), arr(b, device)]),
         np.concatenate([a.astype(out), b.astype(out)]), device)
    same(xp.concat((arr(a, device), arr(b, device)), axis=None),
         np.concatenate([a.ravel().astype(out), b.ravel().astype(out)]), device)
    same(xp.stack([arr(a[:1], device), arr(b, device)], axis=-1),
         np.stack([a[:1].astype(out), b.astype(out)], axis=-1), device)


@pytest.mark.strict_only
def test_concat_axes_and_errors(device) -> None:
    a = np.arange(24, dtype=np.int32).reshape(2, 3, 4)
    for axis in (-3, -1, 0, 1, 2):
        same(xp.concat([arr(a, device)] * 2, axis=axis), np.concatenate([a] * 2, axis=axis),
             device)
    same(xp.concat([arr(np.int8(3), device)], axis=None), np.array([3], np.int8), device)
    with pytest.raises(ValueError, match=r"^concat"):
        xp.concat([arr(a, device), arr(a[:, :2, :2], device)], axis=1)
    with pytest.raises(ValueError, match=r"^concat"):
        xp.concat([arr(a, device), arr(a[0], device)])
    with pytest.raises(ValueError, match=r"^concat"):
        xp.concat([arr(1, device)])
    with pytest.raises(IndexError, match=r"^concat"):
        xp.concat([arr(a, device)], axis=3)
    with pytest.raises(ValueError, match=r"^concat"):
        xp.concat([])
    with pytest.raises(TypeError, match=r"^concat"):
        xp.concat(arr(a, device))
    with pytest.raises(TypeError, match=r"^concat"):
        xp.concat([arr(a, device), arr(a.astype(np.float64), device)])
    with pytest.raises(TypeError, match=r"^concat"):
        xp.concat([arr(a, device), a])


def test_stack_unstack(device) -> None:
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    for axis in (-3, -1, 0, 1, 2):
        same(xp.stack([arr(a, device)] * 3, axis=axis), np.stack([a] * 3, axis=axis), device)
    for axis in (-2, -1, 0, 1):
        out = xp.unstack(arr(a, device), axis=axis)
        expected = tuple(np.moveaxis(a, axis, 0))
        assert len(out) == len(expected)
        for o, e in zip(out, expected, strict=True):
            same(o, e, device)
    with pytest.raises(ValueError, match=r"^stack"):
        xp.stack([arr(a, device), arr(a.T, device)])
    with pytest.raises(IndexError, match=r"^stack"):
        xp.stack([arr(a, device)], axis=3)
    with pytest.raises(ValueError, match=r"^unstack"):
        xp.unstack(arr(1.0, device))
    with pytest.raises(IndexError, match=r"^unstack"):
        xp.unstack(arr(a, device), axis=2)


# ---- shapes ---------------------------------------------------------------------------

def test_expand_dims_squeeze(device) -> None:
    a = np.arange(6, dtype=np.int16).reshape(2, 3)
    for axis in (0, 1, 2, -1, -3, (0, 1), (0, -1), (-1, 1), (3, 0, 1)):
        same(xp.expand_dims(arr(a, device), axis), np.expand_dims(a, axis), device)
    for axis in (3, -4, (0, 4), (0, 0), (1, -3)):
        with pytest.raises((IndexError, ValueError), match=r"^expand_dims"):
            xp.expand_dims(arr(a, device), axis)
    b = a.reshape(1, 2, 1, 3)
    for axis in (0, 2, -2, (0, 2), (2, -4)):
        same(xp.squeeze(arr(b, device), axis), np.squeeze(b, axis), device)
    with pytest.raises(ValueError, match=r"^squeeze"):
        xp.squeeze(arr(b, device), 1)
    with pytest.raises(ValueError, match=r"^squeeze"):
        xp.squeeze(arr(b, device), (0, 0))
    with pytest.raises(IndexError, match=r"^squeeze"):
        xp.squeeze(arr(b, device), 4)
    with pytest.raises(TypeError, match=r"^squeeze"):
        xp.squeeze(arr(b, device), 0.0)


def test_reshape(device) -> None:
    a = np.arange(12, dtype=np.uint16).reshape(3, 4)
    for shape in ((12,), (-1,), (2, -1), (2, 3, 2), (4, 3), (1, 12, 1)):
        same(xp.reshape(arr(a, device), shape), a.reshape(shape), device)
    same(xp.reshape(arr(np.float64(2), device), (1, 1)), np.ones((1, 1)) * 2, device)
    same(xp.reshape(arr(np.zeros((0, 3)), device), (-1, 2)), np.zeros((0, 2)), device)
    x = arr(a, device)
    view = xp.reshape(x, (12,), copy=False)
    same(view, a.ravel(), device)
    copied = xp.reshape(x, (12,), copy=True)
    copied[0] = 99
    assert int(x[0, 0]) == 0
    with pytest.raises(ValueError, match=r"^reshape"):
        xp.reshape(x.mT, (12,), copy=False)
    same(xp.reshape(x.mT, (12,)), a.T.ravel(), device)
    for bad in ((5,), (-1, -1), (-2, 6), (0, -1)):
        with pytest.raises(ValueError, match=r"^reshape"):
            xp.reshape(x, bad)
    # A list as a shape, as NumPy, CuPy and PyTorch take it (docs/deviations.md).
    same(xp.reshape(x, [2, np.int64(6)]), a.reshape(2, 6), device)
    with pytest.raises(TypeError, match=r"^reshape"):
        xp.reshape(x, 12)
    with pytest.raises(TypeError, match=r"^reshape"):
        xp.reshape(x, (12,), copy=1)


def test_permute_moveaxis(device) -> None:
    a = np.arange(24, dtype=np.int64).reshape(2, 3, 4)
    for axes in ((0, 1, 2), (2, 0, 1), (-1, 0, 1), (1, -1, -3)):
        same(xp.permute_dims(arr(a, device), axes), np.transpose(a, axes), device)
    for bad in ((0, 1), (0, 0, 1), (0, 1, 3)):
        with pytest.raises((ValueError, IndexError), match=r"^permute_dims"):
            xp.permute_dims(arr(a, device), bad)
    for src, dst in ((0, -1), ((0, 1), (2, 0)), (-1, 0), ((), ())):
        same(xp.moveaxis(arr(a, device), src, dst), np.moveaxis(a, src, dst), device)
    with pytest.raises(ValueError, match=r"^moveaxis"):
        xp.moveaxis(arr(a, device), (0, 1), 2)
    with pytest.raises(ValueError, match=r"^moveaxis"):
        xp.moveaxis(arr(a, device), (0, 0), (1, 2))
    with pytest.raises(IndexError, match=r"^moveaxis"):
        xp.moveaxis(arr(a, device), 3, 0)


# ---- rearranging ----------------------------------------------------------------------

@settings(max_examples=25, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(shape=shapes, data=st.data())
def test_flip_roll_tile_match_numpy(device, shape, data) -> None:
    a = np.arange(int(np.prod(shape)), dtype=np.float32).reshape(shape)
    x = arr(a, device)
    axes = data.draw(st.none() | st.lists(st.integers(-len(shape), len(shape) - 1),
                                          unique_by=lambda i: i % max(len(shape), 1),
                                          max_size=len(shape)).map(tuple)) if shape else None
    same(xp.flip(x, axis=axes), np.flip(a, axis=axes), device)
    shift = data.draw(st.integers(-5, 5))
    if axes is None:
        same(xp.roll(x, shift), np.roll(a, shift), device)
    else:
        same(xp.roll(x, shift, axis=axes), np.roll(a, shift, axis=axes), device)
        shifts = tuple(data.draw(st.integers(-5, 5)) for _ in axes)
        same(xp.roll(x, shifts, axis=axes), np.roll(a, shifts, axis=axes), device)
    reps = tuple(data.draw(st.lists(st.integers(0, 2), max_size=4)))
    same(xp.tile(x, reps), np.tile(a, reps), device)


def test_rearranging_errors(device) -> None:
    x = arr(np.ones((2, 3)), device)
    with pytest.raises(ValueError, match=r"^flip"):
        xp.flip(x, axis=(0, 0))
    with pytest.raises(IndexError, match=r"^flip"):
        xp.flip(x, axis=2)
    with pytest.raises(ValueError, match=r"^roll"):
        xp.roll(x, (1, 2), axis=0)
    with pytest.raises(TypeError, match=r"^roll"):
        xp.roll(x, (1, 2))
    with pytest.raises(ValueError, match=r"^tile"):
        xp.tile(x, (-1,))
    with pytest.raises(TypeError, match=r"^tile"):
        xp.tile(x, 2)
    with pytest.raises(TypeError, match=r"^flip"):
        xp.flip(np.ones(3))


def test_repeat(device) -> None:
    a = np.arange(6, dtype=np.int8).reshape(2, 3)
    x = arr(a, device)
    for reps, axis in ((2, None), (0, None), (3, 1), (0, 0), (2, -1)):
        same(xp.repeat(x, reps, axis=axis), np.repeat(a, reps, axis=axis), device)
    for reps, axis in (([1, 0, 2], 1), ([2], 0), ([1, 2], 0), ([3], None),
                       ([0, 1, 2, 0, 1, 2], None)):
        for dtype in ("int64", "uint8", "int16"):
            r = arr(np.array(reps, dtype=dtype), device)
            same(xp.repeat(x, r, axis=axis), np.repeat(a, np.array(reps), axis=axis), device)
    same(xp.repeat(arr(np.zeros((0, 2)), device), 3, axis=0), np.zeros((0, 2)), device)
    with pytest.raises(ValueError, match=r"^repeat"):
        xp.repeat(x, -1)
    with pytest.raises(ValueError, match=r"^repeat"):
        xp.repeat(x, arr(np.array([1, -1, 1]), device), axis=1)
    with pytest.raises(ValueError, match=r"^repeat"):
        xp.repeat(x, arr(np.array([1, 2]), device), axis=1)
    with pytest.raises(TypeError, match=r"^repeat"):
        xp.repeat(x, arr(np.array([1.0]), device))
    with pytest.raises(TypeError, match=r"^repeat"):
        xp.repeat(x, 1.5)
    with pytest.raises(IndexError, match=r"^repeat"):
        xp.repeat(x, 2, axis=2)
