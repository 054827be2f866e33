"""Small host arrays onto a CUDA device as a kernel's parameters
(xpgpu/_backend/_cupy_upload.py): the bytes of every dtype, bit for bit, on both sides of
the 16-byte words and of the largest upload, from strided host arrays, 0-size and 0-d
ones, in stream order, and read on another stream after a synchronisation.

    python -m pytest tests/test_upload.py -m cuda
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

from xpgpu._backend import _cupy_upload as U  # noqa: E402

CUDA = _devices.lookup("cuda:0")
DTYPES = ["bool", "int8", "uint16", "int32", "uint64", "float32", "float64", "complex64",
          "complex128"]


def _random_bits(n: int, dtype: str, seed: int) -> np.ndarray:
    """n values of ``dtype`` from random bytes (NaN payloads, -0.0, subnormals among the
    floats); bools from 0 and 1."""
    d = np.dtype(dtype)
    rng = np.random.default_rng(seed)
    if d.kind == "b":
        return rng.integers(0, 2, n).astype(bool)
    return np.frombuffer(rng.bytes(n * d.itemsize), d).copy()


@pytest.mark.parametrize("dtype", DTYPES)
def test_upload_bits(dtype: str) -> None:
    """Every size up to one past the largest upload: the device bytes are the host's."""
    d = np.dtype(dtype)
    for n in range(0, 16 * U.WORDS // d.itemsize + 2):
        host = _random_bits(n, dtype, n)
        up = U.upload(host, 0)
        if host.nbytes > 16 * U.WORDS:
            assert up is None, n  # CuPy's copy
        else:
            got = cupy.asnumpy(up)
            assert got.dtype == d and got.shape == (n,)
            assert got.tobytes() == host.tobytes(), n
        assert to_numpy(xp.asarray(host, device=CUDA)).tobytes() == host.tobytes(), n


def test_upload_limits_and_layouts() -> None:
    """More than WORDS words: not uploaded (CuPy's copy); a strided or Fortran-ordered host
    array arrives in C order; 0-d arrays (signed zeros, NaN payloads) and 0-size ones."""
    big = np.arange(2 * U.WORDS + 1, dtype=np.float64)
    assert U.upload(big, 0) is None
    host = np.arange(24, dtype=np.int32).reshape(4, 6)
    for view in (host[:, ::2], host.T, np.asfortranarray(host), host[::-1]):
        got = U.upload(view, 0)
        assert got.flags.c_contiguous and got.shape == view.shape
        np.testing.assert_array_equal(cupy.asnumpy(got), view)
    for value in (np.float64(-0.0), np.float32(-0.0), np.complex128(complex(-0.0, -0.0)),
                  np.frombuffer(b"\x01\x00\x00\x00\x00\x00\xf8\x7f", np.float64)[0]):
        got = cupy.asnumpy(U.upload(np.asarray(value), 0))
        assert got.shape == () and got.tobytes() == np.asarray(value).tobytes()
    empty = U.upload(np.zeros((3, 0), np.float32), 0)
    assert empty.shape == (3, 0) and empty.dtype == np.float32


def test_upload_stream_order() -> None:
    """On a stream of its own, uploads queued behind a long kernel are read in order by
    the kernels after them."""
    stream = cupy.cuda.Stream(non_blocking=True)
    with stream:
        slow = cupy.ones(1 << 24, np.float64)
        outs = []
        for i in range(50):
            _ = cupy.sin(slow)  # work queued ahead of the upload
            outs.append(U.upload(np.full(8, float(i)), 0) * 2)
        got = [float(o[-1]) for o in outs]
    assert got == [2.0 * i for i in range(50)]


def test_upload_read_on_another_stream_after_synchronizing() -> None:
    """docs/devices.md: an upload is ordered on the current stream; another stream reads
    it once that stream has been synchronised (here behind long kernels on it)."""
    first, second = cupy.cuda.Stream(non_blocking=True), cupy.cuda.Stream(non_blocking=True)
    with first:
        slow = cupy.ones(1 << 24, np.float64)
        ups = []
        for i in range(20):
            _ = cupy.sin(slow)  # work queued ahead of the upload
            ups.append(xp.asarray([float(i)] * 8, device=CUDA))
    first.synchronize()
    with second:
        got = [float((u._data * 2)[-1]) for u in ups]
    assert got == [2.0 * i for i in range(20)]


def test_asarray_of_a_list_on_cuda() -> None:
    """asarray of a short list (the upload) and of a long one (CuPy's copy), and
    to_device of a small host array, each equal to NumPy's conversion."""
    for values in ([0.5, -0.0, float("inf"), 3.0, -2.5, 1e-300, 7.0, 8.0], list(range(100))):
        x = xp.asarray(values, device=CUDA)
        want = np.asarray(values)
        assert to_numpy(x).tobytes() == want.tobytes()
    y = xp.asarray([1, 2, 3], dtype=xp.int16, device="cpu").to_device(CUDA)
    assert to_numpy(y).tolist() == [1, 2, 3]
