"""xpgpu.fft against numpy.fft on every device: values, shapes, dtypes (precision kept)
and the standard's errors."""

from __future__ import annotations

import numpy as np
import pytest

import xpgpu as xp
from tests.conftest import to_numpy

RNG = np.random.default_rng(1234)
TOL = {np.dtype("complex64"): 2e-5, np.dtype("float32"): 2e-5,
       np.dtype("complex128"): 1e-12, np.dtype("float64"): 1e-12}
COMPLEX_OF = {np.dtype("float32"): np.dtype("complex64"),
              np.dtype("float64"): np.dtype("complex128")}
REAL_OF = {v: k for k, v in COMPLEX_OF.items()}


def _array(shape, dtype):
    a = RNG.standard_normal(shape)
    if np.dtype(dtype).kind == "c":
        a = a + 1j * RNG.standard_normal(shape)
    return a.astype(dtype)


def _check(got, expected, dtype):
    """Shape, the exact dtype, and values within a tolerance scaled by the result."""
    g = to_numpy(got)
    assert g.dtype == np.dtype(dtype), (g.dtype, dtype)
    assert g.shape == expected.shape, (g.shape, expected.shape)
    scale = max(float(np.max(np.abs(expected), initial=0)), 1.0)
    np.testing.assert_allclose(g, expected, rtol=0, atol=TOL[np.dtype(dtype)] * scale * 10)


ONE_D = [  # name, input kind, result dtype of a float32/complex64 input
    ("fft", "c", "complex64"), ("ifft", "c", "complex64"), ("rfft", "f", "complex64"),
    ("irfft", "c", "float32"), ("hfft", "c", "float32"), ("ihfft", "f", "complex64"),
]


@pytest.mark.parametrize("name, kind, result", ONE_D)
@pytest.mark.parametrize("precision", ["single", "double"])
@pytest.mark.parametrize("kw", [{}, {"n": 5}, {"n": 12, "axis": 0}, {"axis": -2},
                                {"norm": "ortho"}, {"norm": "forward", "n": 7, "axis": 1}])
def test_one_d(device, name, kind, result, precision, kw):
    dtype = {("c", "single"): "complex64", ("f", "single"): "float32",
             ("c", "double"): "complex128", ("f", "double"): "float64"}[kind, precision]
    expected_dtype = result if precision == "single" else \
        {"complex64": "complex128", "float32": "float64"}[result]
    a = _array((6, 8, 3), dtype)
    x = xp.asarray(a, device=device)
    got = getattr(xp.fft, name)(x, **kw)
    expected = getattr(np.fft, name)(a.astype(np.complex128 if kind == "c" else np.float64),
                                     **kw)
    _check(got, expected, expected_dtype)


ND = [("fftn", "c", "complex64"), ("ifftn", "c", "complex64"), ("rfftn", "f", "complex64"),
      ("irfftn", "c", "float32")]


@pytest.mark.parametrize("name, kind, result", ND)
@pytest.mark.parametrize("kw", [{}, {"axes": (0,)}, {"axes": [2, 0]},
                                {"s": (4, 6), "axes": (-1, 0)}, {"axes": (1, 2), "s": [3, 5]},
                                {"norm": "ortho", "axes": (0, 1, 2)},
                                {"norm": "forward"}])
def test_n_d(device, name, kind, result, kw):
    a = _array((4, 5, 6), "complex64" if kind == "c" else "float32")
    got = getattr(xp.fft, name)(xp.asarray(a, device=device), **kw)
    expected = getattr(np.fft, name)(
        a.astype(np.complex128 if kind == "c" else np.float64), **kw)
    _check(got, expected, result)


def test_s_minus_one_means_whole_axis(device):
    a = _array((4, 5), "complex64")
    x = xp.asarray(a, device=device)
    _check(xp.fft.fftn(x, s=(-1, 8), axes=(0, 1)),
           np.fft.fftn(a.astype(np.complex128), s=(4, 8), axes=(0, 1)), "complex64")
    # for c2r, -1 on the last axis gives the default 2*(m-1) points
    _check(xp.fft.irfftn(x, s=(3, -1), axes=(0, 1)),
           np.fft.irfftn(a.astype(np.complex128), s=(3, 8), axes=(0, 1)), "float32")


def test_round_trips(device):
    a = _array((3, 10), "float32")
    x = xp.asarray(a, device=device)
    _check(xp.fft.irfft(xp.fft.rfft(x), n=10), a.astype(np.float64), "float32")
    c = xp.asarray(a.astype(np.complex64), device=device)
    _check(xp.fft.ifftn(xp.fft.fftn(c)), a.astype(np.complex128), "complex64")
    _check(xp.fft.hfft(xp.fft.ihfft(x), n=10), a.astype(np.float64), "float32")


@pytest.mark.parametrize("name", ["fftfreq", "rfftfreq"])
@pytest.mark.parametrize("n", [1, 2, 7, 10])
@pytest.mark.parametrize("dtype", [None, xp.float32, xp.float64])
def test_freq(device, name, n, dtype):
    got = getattr(xp.fft, name)(n, d=0.3, dtype=dtype, device=device)
    assert got.device == device
    expected = getattr(np.fft, name)(n, d=0.3)
    _check(got, expected, "float64" if dtype is None else np.dtype(dtype))


def test_freq_default_device_and_dtype():
    got = xp.fft.fftfreq(4)
    assert got.dtype == xp.float64
    np.testing.assert_array_equal(to_numpy(got), [0, 0.25, -0.5, -0.25])


@pytest.mark.parametrize("name", ["fftshift", "ifftshift"])
@pytest.mark.parametrize("axes", [None, 0, -1, [1], (0, 1), [2, 0]])
@pytest.mark.parametrize("dtype", ["float32", "complex64"])
def test_shift(device, name, axes, dtype):
    a = _array((3, 4, 5), dtype)
    got = getattr(xp.fft, name)(xp.asarray(a, device=device), axes=axes)
    expected = getattr(np.fft, name)(a, axes=axes)
    g = to_numpy(got)
    assert g.dtype == a.dtype
    np.testing.assert_array_equal(g, expected)


@pytest.mark.parametrize("call, error", [
    (lambda x, c: xp.fft.fft(x), TypeError),            # real input to a c2c transform
    (lambda x, c: xp.fft.rfft(c), TypeError),           # complex input to r2c
    (lambda x, c: xp.fft.ihfft(c), TypeError),
    (lambda x, c: xp.fft.irfftn(x), TypeError),
    (lambda x, c: xp.fft.fftshift(xp.astype(x, xp.int32)), TypeError),
    (lambda x, c: xp.fft.fft(c, norm="none"), ValueError),
    (lambda x, c: xp.fft.fft(c, n=0), ValueError),
    (lambda x, c: xp.fft.fft(c, n=2.0), TypeError),
    (lambda x, c: xp.fft.fft(c, axis=2), IndexError),
    (lambda x, c: xp.fft.fftn(c, s=(2, 2)), ValueError),  # s needs axes
    (lambda x, c: xp.fft.fftn(c, axes=(0, 0)), ValueError),
    (lambda x, c: xp.fft.fftn(c, s=(2,), axes=(0, 1)), ValueError),
    (lambda x, c: xp.fft.rfftn(x, axes=()), ValueError),
    (lambda x, c: xp.fft.irfft(c[:, :1]), ValueError),  # default n = 2*(1-1) = 0
    (lambda x, c: xp.fft.fftshift(x, axes=(1, -1)), ValueError),
    (lambda x, c: xp.fft.fftfreq(0), ValueError),
    (lambda x, c: xp.fft.fftfreq(4, d=0.0), ValueError),
    (lambda x, c: xp.fft.fftfreq(4, dtype=xp.complex64), TypeError),
    (lambda x, c: xp.fft.fft(np.ones(3, np.complex64)), TypeError),
])
def test_errors(device, call, error):
    a = _array((3, 4), "float32")
    x = xp.asarray(a, device=device)
    c = xp.asarray(a.astype(np.complex64), device=device)
    with pytest.raises(error) as info:
        call(x, c)
    assert str(info.value).split(":")[0] in {
        "fft", "rfft", "ihfft", "irfftn", "fftshift", "fftn", "rfftn", "irfft", "fftfreq",
    }


@pytest.mark.parametrize("name", ["fftn", "ifftn", "rfftn", "irfftn"])
@pytest.mark.parametrize("shape, s, axes", [((1, 2), (1, 2), [1, 0]), ((3, 4, 5), (4, 3), [2, 0]),
                                            ((2, 3, 4), (3, 5, 2), [2, 0, 1])])
def test_nd_axes_out_of_order(device, name, shape, s, axes) -> None:
    """n-D transforms over axes in any order match NumPy in shape and values (CuPy 14
    mis-shapes them when the axes are not increasing)."""
    rng = np.random.default_rng(0)
    host = rng.standard_normal(shape)
    if name != "rfftn":
        host = host + 1j * rng.standard_normal(shape)
    x = xp.asarray(host, device=device)
    got = getattr(xp.fft, name)(x, s=s, axes=axes)
    want = getattr(np.fft, name)(host, s=s, axes=axes)
    assert got.shape == want.shape
    np.testing.assert_allclose(to_numpy(got), want, rtol=1e-10, atol=1e-10)
