"""Statistical functions against NumPy and the spec's dtype rules, on each device.

On CUDA these check CuPy's reductions (sum, prod, max, min, mean, var, std) and scans
(cumsum, cumprod) against NumPy on the same data, with the spec's accumulation dtypes
(written out below, independently of xpgpu) and its NaN results for too few elements.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from conftest import assert_close, to_numpy
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import xpgpu as xp

SETTINGS = settings(max_examples=30, deadline=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture])

# The spec's default accumulation dtype of sum, prod, cumulative_sum and cumulative_prod,
# with int64 the default integer dtype.
ACCUMULATION = {
    "int8": "int64", "int16": "int64", "int32": "int64", "int64": "int64",
    "uint8": "uint64", "uint16": "uint64", "uint32": "uint64", "uint64": "uint64",
    "float32": "float32", "float64": "float64",
    "complex64": "complex64", "complex128": "complex128",
}
NUMERIC = tuple(ACCUMULATION)


def arr(a, device, dtype=None):
    return xp.asarray(np.asarray(a, dtype=dtype), device=device)


def draw_axis(data, ndim: int):
    if ndim == 0:
        return data.draw(st.none() | st.just(()))
    return data.draw(st.none() | st.integers(-ndim, ndim - 1) |
                     st.lists(st.integers(-ndim, ndim - 1), unique_by=lambda i: i % ndim,
                              max_size=ndim).map(tuple))


# ---- sum, prod ------------------------------------------------------------------------

@SETTINGS
@given(dtype=st.sampled_from(NUMERIC), data=st.data())
def test_sum_prod_default_dtypes(device, dtype, data) -> None:
    a = data.draw(hnp.arrays(dtype, hnp.array_shapes(min_dims=0, max_dims=3, min_side=0,
                                                     max_side=4), elements=st.integers(0, 3)))
    axis = draw_axis(data, a.ndim)
    keepdims = data.draw(st.booleans())
    out = ACCUMULATION[dtype]
    x = arr(a, device)
    assert_close(xp.sum(x, axis=axis, keepdims=keepdims),
                 np.sum(a, axis=axis, dtype=out, keepdims=keepdims))
    assert_close(xp.prod(x, axis=axis, keepdims=keepdims),
                 np.prod(a, axis=axis, dtype=out, keepdims=keepdims))


@pytest.mark.parametrize("dtype,target", [("int8", "int16"), ("uint8", "float32"),
                                          ("float32", "float64"), ("float32", "complex64"),
                                          ("int32", "uint8"), ("complex64", "complex128")])
def test_sum_prod_dtype_argument(device, dtype, target) -> None:
    a = np.array([[1, 2, 3], [4, 5, 6]]).astype(dtype)
    x = arr(a, device)
    assert_close(xp.sum(x, dtype=getattr(xp, target)), np.sum(a, dtype=target))
    assert_close(xp.prod(x, axis=1, dtype=getattr(xp, target)),
                 np.prod(a, axis=1, dtype=target))
    assert_close(xp.sum(x, dtype=np.dtype(target)), np.sum(a, dtype=target))


@pytest.mark.strict_only
def test_sum_prod_errors(device) -> None:
    x = arr(np.ones((2, 3), np.float32), device)
    with pytest.raises(TypeError, match=r"^sum"):
        xp.sum(arr(np.ones(3, bool), device))
    # A dtype casts the input first (the standard), as astype would: floats truncate.
    f = np.array([1.5, -2.5, 3.75], np.float32)
    assert_close(xp.sum(arr(f, device), dtype=xp.int32), np.sum(f.astype(np.int32), dtype=np.int32))
    with pytest.raises(TypeError, match=r"^sum"):
        xp.sum(x, dtype=xp.bool)
    with pytest.raises(TypeError, match=r"^prod"):
        xp.prod(arr(np.ones(2, np.complex64), device), dtype=xp.float64)
    with pytest.raises(TypeError, match=r"^sum"):
        xp.sum(x, dtype="float64")
    with pytest.raises(ValueError, match=r"^prod"):
        xp.prod(x, axis=(1, -1))
    with pytest.raises(IndexError, match=r"^sum"):
        xp.sum(x, axis=2)
    with pytest.raises(TypeError, match=r"^sum"):
        xp.sum(x, keepdims=None)
    with pytest.raises(TypeError, match=r"^sum"):
        xp.sum(np.ones(3))


def test_empty_sum_prod(device) -> None:
    x = arr(np.zeros((0, 3), np.int16), device)
    assert_close(xp.sum(x), np.int64(0))
    assert_close(xp.prod(x, axis=0), np.ones(3, np.int64))


# ---- cumulative_sum, cumulative_prod --------------------------------------------------

@SETTINGS
@given(dtype=st.sampled_from(NUMERIC), data=st.data())
def test_cumulative(device, dtype, data) -> None:
    a = data.draw(hnp.arrays(dtype, hnp.array_shapes(min_dims=1, max_dims=3, min_side=0,
                                                     max_side=4), elements=st.integers(0, 3)))
    axis = data.draw(st.integers(-a.ndim, a.ndim - 1)) if a.ndim > 1 else data.draw(
        st.none() | st.just(0) | st.just(-1))
    include = data.draw(st.booleans())
    out = ACCUMULATION[dtype]
    ax = 0 if axis is None else axis
    for func, npfunc, identity in ((xp.cumulative_sum, np.cumsum, 0),
                                   (xp.cumulative_prod, np.cumprod, 1)):
        expected = npfunc(a, axis=ax, dtype=out)
        if include:
            shape = list(a.shape)
            shape[ax] = 1
            expected = np.concatenate([np.full(shape, identity, dtype=out), expected], axis=ax)
        assert_close(func(arr(a, device), axis=axis, include_initial=include), expected)


@pytest.mark.strict_only
def test_cumulative_dtype_and_errors(device) -> None:
    a = np.array([1, 2, 3], dtype=np.int8)
    assert_close(xp.cumulative_sum(arr(a, device), dtype=xp.float32),
                 np.cumsum(a, dtype=np.float32))
    assert_close(xp.cumulative_prod(arr(a, device), dtype=xp.int16, include_initial=True),
                 np.array([1, 1, 2, 6], np.int16))
    with pytest.raises(ValueError, match=r"^cumulative_sum"):
        xp.cumulative_sum(arr(np.ones((2, 2)), device))
    with pytest.raises(ValueError, match=r"^cumulative_prod"):
        xp.cumulative_prod(arr(np.float64(1), device))
    with pytest.raises(TypeError, match=r"^cumulative_sum"):
        xp.cumulative_sum(arr(np.ones(2, bool), device))
    with pytest.raises(IndexError, match=r"^cumulative_prod"):
        xp.cumulative_prod(arr(np.ones(2), device), axis=1)
    with pytest.raises(TypeError, match=r"^cumulative_sum"):
        xp.cumulative_sum(arr(np.ones(2), device), include_initial=0)
    with pytest.raises(TypeError, match=r"^cumulative_sum"):
        xp.cumulative_sum(arr(np.ones(2), device), dtype=xp.bool)
    assert_close(xp.cumulative_sum(arr(np.array([1.5, 2.5]), device), dtype=xp.int64),
                 np.array([1, 3], np.int64))


# ---- max, min -------------------------------------------------------------------------

@SETTINGS
@given(dtype=st.sampled_from(NUMERIC[:10]), data=st.data())
def test_max_min(device, dtype, data) -> None:
    a = data.draw(hnp.arrays(dtype, hnp.array_shapes(min_dims=0, max_dims=3, min_side=1,
                                                     max_side=4),
                             elements={"allow_nan": False}))
    axis = draw_axis(data, a.ndim)
    keepdims = data.draw(st.booleans())
    x = arr(a, device)
    assert_close(xp.max(x, axis=axis, keepdims=keepdims),
                 np.max(a, axis=axis, keepdims=keepdims))
    assert_close(xp.min(x, axis=axis, keepdims=keepdims),
                 np.min(a, axis=axis, keepdims=keepdims))


def test_max_min_nan_and_errors(device) -> None:
    a = np.array([[1.0, np.nan], [2.0, 3.0]], np.float32)
    assert_close(xp.max(arr(a, device), axis=1), np.array([np.nan, 3.0], np.float32))
    assert_close(xp.min(arr(a, device)), np.float32(np.nan))
    with pytest.raises(ValueError, match=r"^max"):
        xp.max(arr(np.zeros((2, 0)), device), axis=1)
    with pytest.raises(ValueError, match=r"^min"):
        xp.min(arr(np.zeros(0), device))
    with pytest.raises(TypeError, match=r"^max"):
        xp.max(arr(np.ones(2, np.complex64), device))
    with pytest.raises(TypeError, match=r"^min"):
        xp.min(arr(np.ones(2, bool), device))


# ---- mean, var, std -------------------------------------------------------------------

@SETTINGS
@given(dtype=st.sampled_from(("float32", "float64", "complex64", "complex128")),
       data=st.data())
def test_mean(device, dtype, data) -> None:
    a = data.draw(hnp.arrays(dtype, hnp.array_shapes(min_dims=0, max_dims=3, min_side=1,
                                                     max_side=4),
                             elements=st.integers(-8, 8)))
    axis = draw_axis(data, a.ndim)
    keepdims = data.draw(st.booleans())
    assert_close(xp.mean(arr(a, device), axis=axis, keepdims=keepdims),
                 np.mean(a, axis=axis, keepdims=keepdims), ulps=16)


@SETTINGS
@given(dtype=st.sampled_from(("float32", "float64")), data=st.data())
def test_var_std(device, dtype, data) -> None:
    a = data.draw(hnp.arrays(dtype, hnp.array_shapes(min_dims=1, max_dims=3, min_side=2,
                                                     max_side=4),
                             elements=st.integers(-8, 8)))
    axis = draw_axis(data, a.ndim)
    correction = data.draw(st.sampled_from([0, 1, 0.5, 1.0]))
    keepdims = data.draw(st.booleans())
    x = arr(a, device)
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # the oracle with too few elements
        var = np.var(a, axis=axis, ddof=correction, keepdims=keepdims)
        std = np.std(a, axis=axis, ddof=correction, keepdims=keepdims)
    assert_close(xp.var(x, axis=axis, correction=correction, keepdims=keepdims), var, ulps=64)
    assert_close(xp.std(x, axis=axis, correction=correction, keepdims=keepdims), std, ulps=64)


def test_too_few_elements_give_nan(device) -> None:
    empty = arr(np.zeros((0, 2), np.float32), device)
    assert_close(xp.mean(empty), np.float32(np.nan))
    assert_close(xp.mean(empty, axis=0, keepdims=True), np.full((1, 2), np.nan, np.float32))
    assert_close(xp.mean(arr(np.zeros(0, np.complex64), device)),
                 np.complex64(complex(np.nan, np.nan)))
    x = arr(np.array([[1.0, 2.0, 4.0]]), device)
    assert_close(xp.var(x, axis=0), np.array([0.0, 0.0, 0.0]))
    assert_close(xp.var(x, axis=0, correction=1), np.full(3, np.nan))
    assert_close(xp.std(x, correction=3), np.float64(np.nan))
    assert_close(xp.std(x, correction=2.5), np.float64(np.sqrt(np.var([1, 2, 4]) * 3 / 0.5)))


@pytest.mark.strict_only
def test_moment_errors(device) -> None:
    x = arr(np.ones(3), device)
    with pytest.raises(TypeError, match=r"^mean"):
        xp.mean(arr(np.ones(3, np.int32), device))
    with pytest.raises(TypeError, match=r"^var"):
        xp.var(arr(np.ones(3, np.complex64), device))
    with pytest.raises(TypeError, match=r"^std"):
        xp.std(arr(np.ones(3, np.int8), device))
    with pytest.raises(ValueError, match=r"^var"):
        xp.var(x, correction=-1)
    with pytest.raises(TypeError, match=r"^std"):
        xp.std(x, correction=True)
    with pytest.raises(TypeError, match=r"^var"):
        xp.var(x, correction="1")
    with pytest.raises(IndexError, match=r"^mean"):
        xp.mean(x, axis=-2)
    assert to_numpy(xp.mean(x)).dtype == np.float64
