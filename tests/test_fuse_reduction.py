"""xpgpu.fuse with a trailing sum: ``fuse(lambda x, y: xp.sum(x * y, axis=-1))`` runs the
element-wise graph and the sum as one reduction kernel on CUDA (eager on the CPU). The
results equal eager xpgpu's: the same dtype and shape (the standard's sum rules), values
within the reduction order's rounding (exactly for integers), the same errors."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import to_numpy

import xpgpu as xp

RTOL = {"float32": 2e-5, "float64": 1e-12, "complex64": 2e-5}


def _arrays(device, dtype, *shapes, seed=0):
    rng = np.random.default_rng(seed)
    out = []
    for shape in shapes:
        a = rng.standard_normal(shape) * 3
        if dtype.startswith("complex"):
            a = a + 1j * rng.standard_normal(shape)
        if dtype.startswith("int"):
            a = np.round(a * 10)
        out.append(xp.asarray(a.astype(dtype), device=device))
    return out


def _same(fused, eager, dtype):
    assert fused.dtype == eager.dtype
    assert fused.shape == eager.shape
    got, want = to_numpy(fused), to_numpy(eager)
    if dtype.startswith("int"):
        np.testing.assert_array_equal(got, want)
    else:
        np.testing.assert_allclose(got, want, rtol=RTOL.get(dtype, 2e-5), atol=1e-6)


@pytest.mark.parametrize("dtype", ["float32", "float64", "int32", "complex64"])
def test_dot_rows(device, dtype):
    """The issue's example: a row-wise dot product, one kernel on CUDA."""
    f = xp.fuse(lambda x, y: xp.sum(x * y, axis=-1))
    x, y = _arrays(device, dtype, (300, 257), (300, 257))
    _same(f(x, y), xp.sum(x * y, axis=-1), dtype)
    if device.kind == "cuda":
        assert f.cache_info()["kernels"] == 1


@pytest.mark.parametrize(("axis", "keepdims"), [(None, False), ((0, 1), True), (0, False),
                                                ((-1,), True)])
def test_axes_keepdims_and_dtype(device, axis, keepdims):
    f = xp.fuse(lambda x, a: xp.sum(xp.exp(x) * a + 1.0, axis=axis, keepdims=keepdims,
                                    dtype=xp.float64))
    (x,) = _arrays(device, "float32", (64, 129))
    _same(f(x, 0.5), xp.sum(xp.exp(x) * 0.5 + 1.0, axis=axis, keepdims=keepdims,
                            dtype=xp.float64), "float64")
    _same(f(x, 2.0), xp.sum(xp.exp(x) * 2.0 + 1.0, axis=axis, keepdims=keepdims,
                            dtype=xp.float64), "float64")  # a new scalar: no new kernel
    if device.kind == "cuda":
        assert f.cache_info()["kernels"] == 1


def test_broadcast_and_integer_accumulation(device):
    f = xp.fuse(lambda x, y: xp.sum(x - y, axis=-1))
    x, y = _arrays(device, "int16", (4, 1, 33), (5, 33))
    r = f(x, y)
    assert r.dtype == xp.int64  # the standard's default integer accumulation
    _same(r, xp.sum(x - y, axis=-1), "int64")


def test_with_element_wise_output(device):
    f = xp.fuse(lambda x: (x * 2, xp.sum(x * 2)))
    (x,) = _arrays(device, "float32", (1000,))
    a, s = f(x)
    np.testing.assert_array_equal(to_numpy(a), to_numpy(x * 2))
    _same(s, xp.sum(x * 2), "float32")


def test_sum_result_only_at_the_end(device):
    (x,) = _arrays(device, "float32", (8, 8))
    f = xp.fuse(lambda x: xp.sum(x, axis=-1) * 2)
    if device.kind == "cuda":
        with pytest.raises(TypeError, match=r"^fuse\(<lambda>\): the result of sum"):
            f(x)
    else:
        _same(f(x), xp.sum(x, axis=-1) * 2, "float32")  # the CPU runs the function eagerly
    with pytest.raises(Exception, match="axis"):
        xp.fuse(lambda x: xp.sum(x, axis=2))(x)
