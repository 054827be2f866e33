"""DLPack: from_dlpack routing, refusal of non-standard dtypes and newer versions (the
producer's deleter runs exactly once), copy= semantics, and __dlpack__ export."""

from __future__ import annotations

import ctypes
import gc

import numpy as np
import pytest

import xpgpu as xp
from tests.conftest import to_numpy

# ---- a hand-built DLPack producer (the structs of dlpack.h, written out here) ----------


class DLDevice(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32)]


class DLDataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16)]


class DLTensor(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("device", DLDevice), ("ndim", ctypes.c_int32),
                ("dtype", DLDataType), ("shape", ctypes.POINTER(ctypes.c_int64)),
                ("strides", ctypes.POINTER(ctypes.c_int64)), ("byte_offset", ctypes.c_uint64)]


DELETER = ctypes.CFUNCTYPE(None, ctypes.c_void_p)


class DLManagedTensor(ctypes.Structure):
    _fields_ = [("dl_tensor", DLTensor), ("manager_ctx", ctypes.c_void_p),
                ("deleter", DELETER)]


class DLPackVersion(ctypes.Structure):
    _fields_ = [("major", ctypes.c_uint32), ("minor", ctypes.c_uint32)]


class DLManagedTensorVersioned(ctypes.Structure):
    _fields_ = [("version", DLPackVersion), ("manager_ctx", ctypes.c_void_p),
                ("deleter", DELETER), ("flags", ctypes.c_uint64), ("dl_tensor", DLTensor)]


CAPSULE_DESTRUCTOR = ctypes.CFUNCTYPE(None, ctypes.c_void_p)
_new = ctypes.PYFUNCTYPE(ctypes.py_object, ctypes.c_void_p, ctypes.c_char_p,
                        CAPSULE_DESTRUCTOR)(("PyCapsule_New", ctypes.pythonapi))
_is_valid = ctypes.PYFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_char_p)(
    ("PyCapsule_IsValid", ctypes.pythonapi))
_get_pointer = ctypes.PYFUNCTYPE(ctypes.c_void_p, ctypes.c_void_p, ctypes.c_char_p)(
    ("PyCapsule_GetPointer", ctypes.pythonapi))


class Producer:
    """A CPU producer exporting ``values`` (float64 memory) with any DLDataType and version,
    counting the calls of its deleter. Its capsule destructor calls the deleter when the
    capsule was not consumed (not renamed), as real producers do."""

    def __init__(self, code: int, bits: int, lanes: int = 1, version: tuple[int, int] | None
                 = (1, 0), n: int = 4):
        self.deleted = 0
        self.values = (ctypes.c_double * n)(*range(n))
        self.shape = (ctypes.c_int64 * 1)(n * 64 // (bits * lanes) if bits else n)
        self.code, self.bits, self.lanes, self.version = code, bits, lanes, version
        self.name = b"dltensor_versioned" if version is not None else b"dltensor"

        def deleter(ptr: int) -> None:
            self.deleted += 1

        def destructor(capsule: int) -> None:
            if _is_valid(capsule, self.name):  # not consumed: the capsule owns the tensor
                self.managed.deleter(_get_pointer(capsule, self.name))

        self._deleter = DELETER(deleter)
        self._destructor = CAPSULE_DESTRUCTOR(destructor)

    def __dlpack__(self, *, stream=None, max_version=None, dl_device=None, copy=None):
        assert stream is None
        tensor = DLTensor(ctypes.cast(self.values, ctypes.c_void_p), DLDevice(1, 0), 1,
                          DLDataType(self.code, self.bits, self.lanes), self.shape, None, 0)
        if self.version is None:
            self.managed = DLManagedTensor(tensor, None, self._deleter)
        else:
            self.managed = DLManagedTensorVersioned(DLPackVersion(*self.version), None,
                                                    self._deleter, 0, tensor)
        return _new(ctypes.addressof(self.managed), self.name, self._destructor)

    def __dlpack_device__(self):
        return (1, 0)


REFUSED = [
    pytest.param(4, 16, 1, (1, 0), "bfloat16", id="bfloat16-versioned"),
    pytest.param(4, 16, 1, None, "bfloat16", id="bfloat16-legacy"),
    pytest.param(2, 16, 1, (1, 0), "float16", id="float16"),
    pytest.param(2, 32, 2, (1, 0), "lanes", id="float32x2"),
    pytest.param(12, 8, 1, (1, 1), "float8_e5m2", id="float8"),
    pytest.param(2, 64, 1, (2, 0), "DLPack 2.0", id="version-2.0"),
]


@pytest.mark.parametrize("code, bits, lanes, version, word", REFUSED)
def test_refused_capsule_deleter_runs_once(code, bits, lanes, version, word):
    producer = Producer(code, bits, lanes, version)
    with pytest.raises(BufferError, match="from_dlpack") as info:
        xp.from_dlpack(producer)
    assert word in str(info.value)
    assert producer.deleted == 1
    del info  # the traceback holds the capsule
    gc.collect()
    assert producer.deleted == 1  # the renamed capsule's destructor did not call it again


def test_refused_capsule_through_asarray():
    producer = Producer(4, 16)
    with pytest.raises(BufferError, match="bfloat16"):
        xp.asarray(producer)
    gc.collect()
    assert producer.deleted == 1


@pytest.mark.parametrize("version", [(1, 0), (1, 3), None], ids=["1.0", "1.3", "legacy"])
def test_accepted_capsule_is_a_view_and_deleted_once(version):
    producer = Producer(2, 64, 1, version)
    x = xp.from_dlpack(producer)
    assert x.dtype == xp.float64 and x.device == xp.asarray(0).device
    np.testing.assert_array_equal(to_numpy(x), [0.0, 1.0, 2.0, 3.0])
    producer.values[1] = 42.0  # a view of the producer's memory
    assert float(x[1]) == 42.0
    assert producer.deleted == 0
    del x
    gc.collect()
    assert producer.deleted == 1


def test_accepted_capsule_copy_true_when_producer_ignores_copy():
    producer = Producer(2, 64)
    x = xp.from_dlpack(producer, copy=True)
    producer.values[0] = 7.0
    assert float(x[0]) == 0.0


def test_no_dlpack_is_attribute_error():
    with pytest.raises(AttributeError, match="from_dlpack"):
        xp.from_dlpack([1, 2, 3])


@pytest.mark.parametrize("copy", ["yes", 1])
def test_bad_copy(copy):
    with pytest.raises(TypeError, match="from_dlpack"):
        xp.from_dlpack(np.arange(3), copy=copy)


# ---- round trips with NumPy --------------------------------------------------------------

DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
          "float32", "float64", "complex64", "complex128"]


@pytest.mark.parametrize("name", DTYPES)
def test_numpy_round_trip(name):
    a = (np.arange(6) % 3).astype(name).reshape(2, 3)
    x = xp.from_dlpack(a)
    assert x.dtype == getattr(xp, name)
    assert x.shape == (2, 3)
    np.testing.assert_array_equal(to_numpy(x), a)
    b = np.from_dlpack(x)  # xpgpu -> NumPy through x.__dlpack__
    assert b.dtype == a.dtype
    np.testing.assert_array_equal(b, a)


def test_numpy_view_and_copy():
    a = np.arange(4.0)
    view = xp.from_dlpack(a)
    same = xp.from_dlpack(a, copy=False)
    copied = xp.from_dlpack(a, copy=True)
    a[0] = 9.0
    assert float(view[0]) == 9.0 and float(same[0]) == 9.0
    assert float(copied[0]) == 0.0


def test_numpy_non_contiguous_and_0d():
    a = np.arange(12.0).reshape(3, 4)[:, ::2]
    np.testing.assert_array_equal(to_numpy(xp.from_dlpack(a)), a)
    z = xp.from_dlpack(np.asarray(5, dtype=np.int32))
    assert z.shape == () and int(z) == 5 and z.dtype == xp.int32


@pytest.mark.parametrize("dtype", [np.float16, np.dtype("m8[s]")])
def test_numpy_nonstandard_dtype_refused(dtype):
    with pytest.raises(BufferError):
        xp.from_dlpack(np.zeros(3, dtype=dtype))


def test_from_dlpack_of_xpgpu_array(device):
    x = xp.asarray([1, 2, 3], device=device)
    y = xp.from_dlpack(x)
    assert y.device == device and y.dtype == xp.int64
    z = xp.from_dlpack(x, copy=True)
    x[0] = 10
    assert int(y[0]) == 10 and int(z[0]) == 1
    on_cpu = xp.from_dlpack(x, device="cpu")
    assert on_cpu.device == xp.asarray(0, device="cpu").device
    np.testing.assert_array_equal(to_numpy(on_cpu), [10, 2, 3])


# ---- the producer side -------------------------------------------------------------------

def test_dlpack_device(device):
    t, i = xp.asarray([1.0], device=device).__dlpack_device__()
    assert (int(t), i) == ((1, 0) if device.kind == "cpu" else (2, device.index))


@pytest.mark.parametrize("max_version, name", [(None, "dltensor"), ((0, 8), "dltensor"),
                                               ((1, 0), "dltensor_versioned"),
                                               ((2, 0), "dltensor_versioned")])
def test_dunder_dlpack_capsule_names(max_version, name):
    x = xp.asarray([1.0, 2.0], device="cpu")
    capsule = x.__dlpack__(max_version=max_version)
    assert f'"{name}"' in repr(capsule)


def test_dunder_dlpack_copy_and_dl_device():
    x = xp.asarray([1.0, 2.0], device="cpu")
    y = np.from_dlpack(x, copy=True)
    y[0] = 5.0
    assert float(x[0]) == 1.0
    x.__dlpack__(dl_device=(1, 0), copy=False)
    with pytest.raises(BufferError):
        x.__dlpack__(dl_device=(2, 0))
    with pytest.raises(ValueError):
        x.__dlpack__(stream=1)


def test_dunder_dlpack_read_only_view():
    x = xp.broadcast_to(xp.asarray([1.0, 2.0], device="cpu"), (3, 2))
    b = np.from_dlpack(x)  # NumPy asks for a versioned capsule: read-only view
    np.testing.assert_array_equal(b, [[1.0, 2.0]] * 3)
    x.__dlpack__()  # a 0.x capsule cannot say read-only: a copy is exported


# ---- CUDA --------------------------------------------------------------------------------

@pytest.mark.cuda
def test_cuda_round_trips(device):
    """cuda: from_dlpack of a CuPy array lands on its cuda device sharing memory; the
    array exports back to CuPy; device='cpu' copies to the host; copy=False across
    devices raises a BufferError that is also a ValueError."""
    if device.kind != "cuda":
        pytest.skip("cuda only")
    cupy = pytest.importorskip("cupy")
    c = cupy.arange(5, dtype=cupy.float32)
    x = xp.from_dlpack(c)
    assert x.device == device and x.dtype == xp.float32
    c[0] = 7
    assert float(x[0]) == 7.0
    back = cupy.from_dlpack(x)
    assert int(back.data.ptr) == int(c.data.ptr)
    host = xp.from_dlpack(c, device="cpu")
    assert host.device == xp.asarray(0, device="cpu").device
    np.testing.assert_array_equal(to_numpy(host), [7, 1, 2, 3, 4])
    with pytest.raises(BufferError):
        xp.from_dlpack(c, device="cpu", copy=False)
    with pytest.raises(ValueError):
        xp.from_dlpack(c, device="cpu", copy=False)
    to_gpu = xp.from_dlpack(np.arange(3.0), device=device)
    assert to_gpu.device == device
    np.testing.assert_array_equal(to_numpy(to_gpu), [0.0, 1.0, 2.0])
    capsule_cpu = xp.asarray([1.0, 2.0], device=device).__dlpack__(dl_device=(1, 0))
    assert "dltensor" in repr(capsule_cpu)


@pytest.mark.cuda
def test_cuda_torch_bfloat16_refused(device):
    """cuda: a PyTorch CUDA bfloat16 (and float16) tensor is refused with a BufferError
    naming the dtype before any data is used; float32 tensors import fine."""
    if device.kind != "cuda":
        pytest.skip("cuda only")
    torch = pytest.importorskip("torch")
    for dtype, name in [(torch.bfloat16, "bfloat16"), (torch.float16, "float16")]:
        t = torch.ones(4, dtype=dtype, device="cuda")
        with pytest.raises(BufferError, match=name):
            xp.from_dlpack(t)
    t = torch.arange(4, dtype=torch.float32, device="cuda")
    x = xp.from_dlpack(t)
    assert x.device == device and x.dtype == xp.float32
    np.testing.assert_array_equal(to_numpy(x), [0, 1, 2, 3])


@pytest.mark.cuda
def test_cuda_dunder_dlpack_copy(device):
    """cuda: __dlpack__(copy=True) exports a copy (CuPy itself refuses copy=True on its
    own device); copy=False to the CPU raises the BufferError the standard requires."""
    if device.kind != "cuda":
        pytest.skip("cuda only")
    cupy = pytest.importorskip("cupy")
    x = xp.asarray([1.0, 2.0], device=device)
    c = cupy.from_dlpack(_Exporter(x.__dlpack__(copy=True, max_version=(1, 0)), x))
    c[0] = 5.0
    assert float(x[0]) == 1.0
    with pytest.raises(BufferError):
        x.__dlpack__(copy=False, dl_device=(1, 0))


class _Exporter:
    """Hands a consumer one capsule already taken from ``x``."""

    def __init__(self, capsule, x):
        self.capsule, self.x = capsule, x

    def __dlpack__(self, **kwargs):
        return self.capsule

    def __dlpack_device__(self):
        return self.x.__dlpack_device__()
