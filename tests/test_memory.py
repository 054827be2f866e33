"""Out of device memory: xpgpu's DeviceMemoryError (a MemoryError) naming the function,
the device, the request and the free memory, with the fix.

On the CPU a fake backend error class stands in for CuPy's (raised by name from its
module, as CuPy's memory pool does); on CUDA a request beyond the GPU's memory.
"""

from __future__ import annotations

import types

import pytest

import xpgpu as xp
from xpgpu._backend import _memory
from xpgpu._devices import CPU
from xpgpu._validate import DeviceMemoryError

REQUEST = 214_748_364_800  # 200 GiB


_MODULE = types.ModuleType("fake_memory")


class FakeOutOfMemory(MemoryError):
    """CuPy's signature and message; like CuPy's, its ``super()`` goes through the class
    its module holds under the name at that moment (xpgpu's class, once installed)."""

    def __init__(self, size, total, limit=0):
        super(_MODULE.OutOfMemoryError, self).__init__(
            f"Out of memory allocating {size:,} bytes (allocated so far: {total:,} bytes).")


@pytest.fixture
def fake():
    module = _MODULE
    module.OutOfMemoryError = FakeOutOfMemory
    cls = _memory.install(module, "OutOfMemoryError", lambda: "cuda:3",
                          lambda: (3 << 30, 80 << 30))
    assert _memory.install(module, "OutOfMemoryError", str, tuple) is cls  # once

    def fail(*args, **kwargs):
        raise module.OutOfMemoryError(REQUEST, REQUEST + 1024, 0)  # looked up by name

    return fail


MESSAGE = (r"out of memory on cuda:3: allocating 214,748,364,800 bytes \(200\.0 GiB\) failed;"
           r" cuda:3 has 3,221,225,472 bytes \(3\.0 GiB\) free of 85,899,345,920 bytes "
           r"\(80\.0 GiB\)\. Free arrays you no longer need \(del x\) or work in smaller chunks")


@pytest.mark.parametrize("call, name", [
    (lambda: xp.zeros(10, device="cpu"), "zeros"),
    (lambda: xp.full((2, 3), 1.0, device="cpu"), "full"),
    (lambda: xp.matmul(xp.ones((2, 2), device="cpu"), xp.ones((2, 2), device="cpu")), "matmul"),
    (lambda: xp.sum(xp.ones((2, 2), device="cpu"), axis=(0, 1)), "sum"),
])
def test_fake_backend_error_names_function_device_request(fake, monkeypatch, call, name):
    fail = fake
    for attr in ("zeros", "full", "matmul", "sum"):
        monkeypatch.setitem(CPU.backend.__dict__, attr, fail)
    with pytest.raises(MemoryError, match=rf"^{name}: {MESSAGE}") as info:
        call()
    assert isinstance(info.value, DeviceMemoryError)
    assert isinstance(info.value, FakeOutOfMemory)  # code catching the backend's class


def test_fake_backend_error_outside_xpgpu_keeps_backend_message(fake):
    fail = fake
    with pytest.raises(FakeOutOfMemory, match=r"^Out of memory allocating 214,748,364,800"):
        fail()


@pytest.mark.cuda
def test_cuda_allocation_beyond_memory():
    cupy = pytest.importorskip("cupy")
    if not xp.__array_namespace_info__().devices()[1:]:
        pytest.skip("no CUDA device")
    with pytest.raises(MemoryError, match=r"^empty: out of memory on cuda:0: allocating "
                                          r"1,125,899,906,842,624 bytes \(1048576\.0 GiB\) "
                                          r"failed; cuda:0 has .* free of .*smaller chunks"
                       ) as info:
        xp.empty(1 << 50, dtype=xp.uint8, device="cuda:0")
    assert isinstance(info.value, DeviceMemoryError)
    assert isinstance(info.value, cupy.cuda.memory.OutOfMemoryError)
    a = xp.ones(1 << 20, device="cuda:0")
    free = cupy.cuda.runtime.memGetInfo()[0]
    big = xp.empty(int(free * 0.6), dtype=xp.uint8, device="cuda:0")
    with pytest.raises(MemoryError, match=r"^add: out of memory"):  # the compiled path too
        xp.add(big, big)  # as much again
    del big
    assert float(xp.sum(a)) == 1 << 20  # recovery
