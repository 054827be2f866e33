"""Utility functions (all, any, diff) against NumPy, on each device.

On CUDA these check CuPy's all/any reductions (NaN, infinities and complex values count
as true) and diff with prepend/append against NumPy on the same data.
"""

from __future__ import annotations

import numpy as np
import pytest
from conftest import assert_close
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import xpgpu as xp

SETTINGS = settings(max_examples=30, deadline=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture])
ALL_DTYPES = ("bool", "int8", "uint16", "int64", "float32", "float64", "complex64")


def arr(a, device, dtype=None):
    return xp.asarray(np.asarray(a, dtype=dtype), device=device)


@SETTINGS
@given(dtype=st.sampled_from(ALL_DTYPES), data=st.data())
def test_all_any(device, dtype, data) -> None:
    a = data.draw(hnp.arrays(dtype, hnp.array_shapes(min_dims=0, max_dims=3, min_side=0,
                                                     max_side=3), elements=st.integers(0, 1)))
    if a.ndim:
        axis = data.draw(st.none() | st.integers(-a.ndim, a.ndim - 1) |
                         st.lists(st.integers(-a.ndim, a.ndim - 1),
                                  unique_by=lambda i: i % a.ndim, max_size=a.ndim).map(tuple))
    else:
        axis = None
    keepdims = data.draw(st.booleans())
    x = arr(a, device)
    assert_close(xp.all(x, axis=axis, keepdims=keepdims),
                 np.all(a, axis=axis, keepdims=keepdims))
    assert_close(xp.any(x, axis=axis, keepdims=keepdims),
                 np.any(a, axis=axis, keepdims=keepdims))


def test_all_any_special_values(device) -> None:
    a = np.array([np.nan, np.inf, -np.inf, -0.5])
    assert_close(xp.all(arr(a, device)), np.True_)
    c = np.array([0j, 1j, complex(0, np.nan)])
    assert_close(xp.any(arr(c, device)), np.True_)
    assert_close(xp.all(arr(c, device)), np.False_)
    assert_close(xp.all(arr(np.zeros(0), device)), np.True_)
    assert_close(xp.any(arr(np.zeros((2, 0)), device), axis=1), np.zeros(2, bool))
    with pytest.raises(ValueError, match=r"^all"):
        xp.all(arr(a, device), axis=(0, -1))
    with pytest.raises(IndexError, match=r"^any"):
        xp.any(arr(a, device), axis=1)
    with pytest.raises(TypeError, match=r"^any"):
        xp.any(a)


@SETTINGS
@given(dtype=st.sampled_from(ALL_DTYPES[1:]), data=st.data())
def test_diff(device, dtype, data) -> None:
    a = data.draw(hnp.arrays(dtype, hnp.array_shapes(min_dims=1, max_dims=3, min_side=0,
                                                     max_side=4), elements=st.integers(0, 9)))
    axis = data.draw(st.integers(-a.ndim, a.ndim - 1))
    n = data.draw(st.integers(0, 3))
    kw = {}
    np_kw = {}
    for name in ("prepend", "append"):
        if data.draw(st.booleans()):
            shape = list(a.shape)
            shape[axis] = data.draw(st.integers(0, 2))
            extra = np.arange(int(np.prod(shape)), dtype=dtype).reshape(shape)
            kw[name] = arr(extra, device)
            np_kw[name] = extra
    expected = np.diff(a, n=n, axis=axis, **np_kw)
    assert_close(xp.diff(arr(a, device), axis=axis, n=n, **kw), expected)


def test_diff_errors(device) -> None:
    x = arr(np.arange(6.0).reshape(2, 3), device)
    with pytest.raises(TypeError, match=r"^diff"):
        xp.diff(arr(np.ones(3, bool), device))
    with pytest.raises(ValueError, match=r"^diff"):
        xp.diff(arr(np.float64(1), device))
    with pytest.raises(ValueError, match=r"^diff"):
        xp.diff(x, n=-1)
    with pytest.raises(IndexError, match=r"^diff"):
        xp.diff(x, axis=2)
    with pytest.raises(TypeError, match=r"^diff"):
        xp.diff(x, prepend=arr(np.ones((2, 1), np.float32), device))
    with pytest.raises(ValueError, match=r"^diff"):
        xp.diff(x, append=arr(np.ones((3, 1)), device))
    with pytest.raises(TypeError, match=r"^diff"):
        xp.diff(x, append=np.ones((2, 1)))
    with pytest.raises(TypeError, match=r"^diff"):
        xp.diff(x, n=1.0)
