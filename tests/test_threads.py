"""Thread safety on one device: many threads computing at once get the results of a
sequential run (cubed's threads executor and Dask's threaded workers run chunks this way);
oracle: the same functions run one after another in one thread."""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor

import numpy as np

import xpgpu as xp
from tests.conftest import to_numpy
from xpgpu import _backend, _devices


def _work(device, seed: int) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    a = xp.asarray(rng.standard_normal((64, 48)), device=device)
    b = xp.asarray(rng.standard_normal((48, 32)), device=device)
    i = xp.asarray(rng.integers(0, 64, 40), device=device)
    out = [
        a @ b,
        xp.sum(xp.exp(a) * 2.0 - a, axis=0),
        xp.sort(a, axis=1),
        xp.take(a, i, axis=0),
        xp.cumulative_sum(xp.astype(a > 0, xp.int64), axis=1),
        xp.linalg.vector_norm(a, axis=1),
        xp.mean(a[::2, 1:], axis=1),
    ]
    return [to_numpy(x) for x in out]


def test_many_threads_on_one_device(device):
    seeds = list(range(32))
    expected = [_work(device, s) for s in seeds]
    with ThreadPoolExecutor(max_workers=8) as pool:
        for _ in range(3):
            got = list(pool.map(lambda s: _work(device, s), seeds))
            for g, e in zip(got, expected, strict=True):
                for x, y in zip(g, e, strict=True):
                    np.testing.assert_array_equal(x, y)


def test_fft_from_many_threads_at_once(device):
    # SciPy's TestFFTThreadSafe: 16 threads released together, each transforming the same
    # array; CuPy's plans alone fail here on CUDA (CUFFT_EXEC_FAILED, see _cupy_linalg).
    x = xp.asarray(np.random.default_rng(3).standard_normal((800, 200)), device=device)
    z = xp.astype(x, xp.complex128)
    calls = [lambda: xp.fft.rfft(x), lambda: xp.fft.ifft(z), lambda: xp.fft.fftn(z),
             lambda: xp.fft.irfft(z)]
    expected = [to_numpy(f()) for f in calls]
    barrier = threading.Barrier(16)

    def worker(i: int) -> np.ndarray:
        barrier.wait()
        return to_numpy(calls[i % len(calls)]())

    with ThreadPoolExecutor(max_workers=16) as pool:
        got = list(pool.map(worker, range(16)))
    for i, g in enumerate(got):
        np.testing.assert_array_equal(g, expected[i % len(calls)])


def test_first_device_lookup_is_shared_by_threads(monkeypatch):
    # Devices are interned: threads that meet the first look-up together must all get
    # the same Device objects (one count of the GPUs, one list).
    calls = []
    count = _backend.cuda_device_count

    def slow_count() -> int:
        calls.append(None)
        time.sleep(0.05)
        return count()

    monkeypatch.setattr(_devices, "_cuda", None)
    monkeypatch.setattr(_backend, "cuda_device_count", slow_count)
    barrier = threading.Barrier(8)

    def first_lookup(_: int) -> list:
        barrier.wait()
        return _devices.cuda_devices()

    with ThreadPoolExecutor(max_workers=8) as pool:
        lists = list(pool.map(first_lookup, range(8)))
    assert len(calls) == 1
    assert all(devices is lists[0] for devices in lists)
