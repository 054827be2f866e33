"""Indexing: the standard's index forms against NumPy, and IndexError for the forms
the standard does not specify (https://data-apis.org/array-api/2025.12/API_specification/indexing.html)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import xpgpu as xp
from tests.conftest import to_numpy

SHAPE = (3, 4, 2)
BASE = np.arange(24, dtype=np.int32).reshape(SHAPE)


def _axis_index(n: int) -> st.SearchStrategy:
    bound = st.integers(-n, n) | st.none()
    step = st.integers(-3, 3).filter(bool) | st.none()
    return st.integers(-n, n - 1) | st.builds(slice, bound, bound, step)


@st.composite
def basic_keys(draw):
    """Integers/slices for every axis, an optional ellipsis replacing some, Nones anywhere."""
    parts = [draw(_axis_index(n)) for n in SHAPE]
    if draw(st.booleans()):
        start = draw(st.integers(0, len(parts)))
        stop = draw(st.integers(start, len(parts)))
        parts[start:stop] = [Ellipsis]
    for _ in range(draw(st.integers(0, 2))):
        parts.insert(draw(st.integers(0, len(parts))), None)
    return tuple(parts)


@settings(max_examples=150, deadline=None)
@given(key=basic_keys())
def test_basic_indexing_matches_numpy(key):
    x = xp.asarray(BASE, device="cpu")
    out = x[key]
    expected = BASE[key]
    assert out.shape == expected.shape and out.dtype == xp.int32
    np.testing.assert_array_equal(to_numpy(out), expected)


def test_basic_indexing_on_device(device):
    x = xp.asarray(BASE, device=device)
    for key in [(0, slice(None), -1), (Ellipsis, 1), (slice(None, None, -1), None, 2, 0),
                (slice(1, 3), slice(-2, None), slice(None)), (-1, -1, -1)]:
        out = x[key]
        assert out.device == device
        np.testing.assert_array_equal(to_numpy(out), BASE[key])


def test_zero_dimensional(device):
    z = xp.asarray(5, device=device)
    assert z[()].shape == () and int(z[()]) == 5
    assert z[...].shape == ()
    assert z[None].shape == (1,)
    one = xp.asarray([7], device=device)[0]
    assert one.shape == () and int(one) == 7  # a 0-d array, not a scalar


@pytest.mark.parametrize("key", [
    0, (0,), (0, 0), slice(None), (slice(None), 1),  # fewer indices than dimensions
    (0, 0, 0, 0), (Ellipsis, 0, 0, 0, 0),  # too many
    (Ellipsis, Ellipsis, 0),  # two ellipses
    (0.0, 0, 0), (True, 0, 0), ([0, 1], 0, 0), ("a", 0, 0),  # not index types
    (slice(0.5, None), 0, 0), (slice(None, None, 0), 0, 0),  # bad slices
    (np.array([0, 1]), 0, 0), (slice(None), np.array([0, 1]), 0),  # NumPy arrays (cubed's)
])
@pytest.mark.strict_only
def test_unspecified_forms_raise_index_error(device, key):
    x = xp.asarray(BASE, device=device)
    with pytest.raises(IndexError, match="__getitem__"):
        x[key]


def test_out_of_bounds_integer(device):
    x = xp.asarray([1, 2, 3], device=device)
    with pytest.raises(IndexError, match="__getitem__"):
        x[3]


@settings(max_examples=60, deadline=None)
@given(mask=hnp.arrays(np.bool_, st.sampled_from([(), (3,), (3, 4), (3, 4, 2)])))
def test_boolean_mask_matches_numpy(mask):
    x = xp.asarray(BASE, device="cpu")
    out = x[xp.asarray(mask, device="cpu")]
    np.testing.assert_array_equal(to_numpy(out), BASE[mask])


def test_boolean_mask_on_device(device):
    x = xp.asarray(BASE, device=device)
    mask = BASE[:, :, 0] % 3 == 0
    np.testing.assert_array_equal(to_numpy(x[xp.asarray(mask, device=device)]), BASE[mask])
    assert x[xp.asarray(True, device=device)].shape == (1, *SHAPE)
    assert x[xp.asarray(False, device=device)].shape == (0, *SHAPE)


@pytest.mark.parametrize("mask_shape, shape", [((0,), (0, 4, 2)), ((3, 0), (0, 2)),
                                               ((0, 0), (0, 2))])
def test_boolean_mask_zero_dimension_selects_nothing(device, mask_shape, shape):
    """The standard: a mask dimension may be 0 where x's is not (NumPy raises)."""
    x = xp.asarray(BASE, device=device)
    out = x[xp.asarray(np.zeros(mask_shape, dtype=bool), device=device)]
    assert out.shape == shape and out.dtype == xp.int32


@pytest.mark.parametrize("mask_shape", [(4,), (3, 3), (3, 4, 2, 1)])
def test_boolean_mask_shape_mismatch(device, mask_shape):
    x = xp.asarray(BASE, device=device)
    with pytest.raises(IndexError, match="__getitem__"):
        x[xp.asarray(np.ones(mask_shape, dtype=bool), device=device)]


@pytest.mark.strict_only
def test_boolean_mask_must_be_sole_index(device):
    x = xp.asarray(BASE, device=device)
    m = xp.asarray(np.ones(3, dtype=bool), device=device)
    for key in [(m, 0), (m, Ellipsis), (None, m)]:
        with pytest.raises(IndexError, match="sole index"):
            x[key]


@settings(max_examples=80, deadline=None)
@given(data=st.data())
def test_integer_arrays_match_numpy(data):
    """Tuples of integers and integer arrays, one per axis, broadcast together."""
    n_arrays = data.draw(st.integers(1, 3))
    shapes = data.draw(hnp.mutually_broadcastable_shapes(num_shapes=n_arrays, max_dims=2,
                                                         min_side=1)).input_shapes
    key, i = [], 0
    positions = data.draw(st.permutations(range(3)))[:n_arrays]
    for axis, n in enumerate(SHAPE):
        if axis in positions:
            idx = data.draw(hnp.arrays(np.int64, shapes[i], elements=st.integers(-n, n - 1)))
            key.append(idx)
            i += 1
        else:
            key.append(data.draw(st.integers(-n, n - 1)))
    x = xp.asarray(BASE, device="cpu")
    out = x[tuple(xp.asarray(k, device="cpu") if isinstance(k, np.ndarray) else k for k in key)]
    np.testing.assert_array_equal(to_numpy(out), BASE[tuple(key)])


def test_integer_arrays_on_device(device):
    x = xp.asarray(BASE, device=device)
    i = xp.asarray([[0, 2], [1, -1]], dtype=xp.int32, device=device)
    j = xp.asarray([3, 0], dtype=xp.uint8, device=device)
    out = x[i, j, xp.asarray(1, device=device)]
    expected = BASE[np.array([[0, 2], [1, -1]]), np.array([3, 0]), 1]
    np.testing.assert_array_equal(to_numpy(out), expected)
    assert xp.asarray([5, 6, 7], device=device)[xp.asarray([2, 2, 0], device=device)].shape == (3,)


@pytest.mark.strict_only
def test_integer_arrays_unspecified_mixes(device):
    x = xp.asarray(BASE, device=device)
    i = xp.asarray([0, 1], device=device)
    for key in [(i, slice(None), 0), (i, Ellipsis), (i, None, 0, 0), (i, 0),
                (xp.asarray([0.0], device=device), 0, 0)]:
        with pytest.raises(IndexError, match="__getitem__"):
            x[key]


@pytest.mark.cuda
def test_index_from_other_device_raises():
    from xpgpu import _devices
    if not _devices.cuda_devices():
        pytest.skip("no CUDA device")
    x = xp.asarray([1, 2, 3], device="cpu")
    with pytest.raises(ValueError, match="different devices"):
        x[xp.asarray([True, False, True], device="cuda:0")]


# ---- __setitem__ -------------------------------------------------------------------------

def test_setitem_forms_match_numpy(device):
    x = xp.asarray(BASE, device=device)
    ref = BASE.copy()
    x[0, 1, 1] = 100
    ref[0, 1, 1] = 100
    x[1, :, 0] = xp.asarray([7, 8, 9, 10], dtype=xp.int32, device=device)
    ref[1, :, 0] = [7, 8, 9, 10]
    x[..., 1] = -1
    ref[..., 1] = -1
    mask = ref > 15
    x[xp.asarray(mask, device=device)] = 0
    ref[mask] = 0
    x[2, ...] = xp.asarray(3, dtype=xp.int8, device=device)  # int8 promotes to int32
    ref[2] = 3
    np.testing.assert_array_equal(to_numpy(x), ref)
    assert x.dtype == xp.int32


@pytest.mark.strict_only
@pytest.mark.parametrize("dtype, value", [
    (xp.int32, 1.5), (xp.int32, True), (xp.float32, 1j), (xp.bool, 1), (xp.float64, "a"),
    (xp.int8, None)])
def test_setitem_scalar_type_errors(device, dtype, value):
    x = xp.zeros(3, dtype=dtype, device=device)
    with pytest.raises(TypeError, match="__setitem__"):
        x[0] = value


def test_setitem_scalar_overflow(device):
    x = xp.zeros(3, dtype=xp.uint8, device=device)
    with pytest.raises(OverflowError, match="__setitem__"):
        x[0] = 256
    with pytest.raises(OverflowError, match="__setitem__"):
        x[0] = -1


@pytest.mark.strict_only
@pytest.mark.parametrize("dtype, value_dtype", [
    (xp.int8, xp.int16), (xp.int32, xp.float32), (xp.float32, xp.float64),
    (xp.float64, xp.complex128), (xp.uint8, xp.int8), (xp.int64, xp.bool)])
def test_setitem_array_dtype_must_promote_to_self(device, dtype, value_dtype):
    x = xp.zeros(3, dtype=dtype, device=device)
    with pytest.raises(TypeError, match="__setitem__"):
        x[0] = xp.zeros((), dtype=value_dtype, device=device)


def test_setitem_python_scalars_allowed(device):
    x = xp.zeros(2, dtype=xp.float32, device=device)
    x[0] = 2
    x[1] = 0.5
    np.testing.assert_array_equal(to_numpy(x), np.array([2, 0.5], dtype=np.float32))
    c = xp.zeros(1, dtype=xp.complex64, device=device)
    c[0] = 1 + 2j
    assert complex(c[0]) == 1 + 2j


@pytest.mark.strict_only
def test_setitem_unspecified_keys(device):
    x = xp.zeros((2, 2), device=device)
    for key in [(None, 0, 0), 0, (xp.asarray([0, 1], device=device), 0)]:
        with pytest.raises(IndexError, match="__setitem__"):
            x[key] = 1.0


def test_setitem_shape_mismatch(device):
    x = xp.zeros((2, 3), device=device)
    with pytest.raises(ValueError):
        x[0, :] = xp.zeros(2, device=device)


def test_setitem_empty_mask(device):
    x = xp.asarray(BASE, device=device)
    x[xp.asarray(np.zeros((0,), dtype=bool), device=device)] = 5
    np.testing.assert_array_equal(to_numpy(x), BASE)


def test_setitem_keeps_negative_zero(device) -> None:
    """x[...] = -0.0, x[mask] = -0.0 and x[i] = -0.0 store a negative zero on every device
    (CuPy writes scalar zeros with a memset, which drops the sign)."""
    for key in (Ellipsis, 0, slice(0, 2)):
        x = xp.ones(3, device=device)
        x[key] = -0.0
        assert np.signbit(to_numpy(x)[0]), key
    x = xp.ones(3, device=device)
    x[x > 0] = -0.0
    assert np.signbit(to_numpy(x)).all()
    z = xp.ones(2, dtype=xp.complex64, device=device)
    z[...] = complex(0.0, -0.0)
    assert np.signbit(to_numpy(z).imag).all()
