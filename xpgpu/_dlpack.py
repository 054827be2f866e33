"""DLPack interchange: ``from_dlpack`` and the array's ``__dlpack__``/``__dlpack_device__``.

https://data-apis.org/array-api/2025.12/design_topics/data_interchange.html

``from_dlpack`` takes the producer's capsule itself and reads the DLPack structs with
``ctypes`` before any data is used: a capsule of a newer major version, or of a dtype
outside the standard's 13 (PyTorch's bfloat16, float16, the float8s ...), is refused
with ``BufferError`` after its deleter has run exactly once. An accepted capsule goes
on to the backend of the producer's device (NumPy for CPU memory, CuPy for CUDA).
"""

from __future__ import annotations

import ctypes
import enum
from typing import Any

from . import _validate as v
from ._array import Array, transfer, wrap, wrap_checked
from ._devices import CPU, Device, lookup
from ._dtypes import BY_NAME

SPEC = "https://data-apis.org/array-api/2025.12/API_specification/generated/array_api.from_dlpack.html"


class DLDeviceType(enum.IntEnum):
    """DLPack's device types, as the standard lists them for ``__dlpack_device__``."""

    CPU = 1
    CUDA = 2
    CPU_PINNED = 3
    OPENCL = 4
    VULKAN = 7
    METAL = 8
    VPI = 9
    ROCM = 10
    ROCM_HOST = 11
    CUDA_MANAGED = 13
    ONE_API = 14


# The DLPack version this consumer reads (DLManagedTensorVersioned of DLPack 1.x).
MAX_VERSION = (1, 0)

# Device types whose memory the host can read (NumPy imports them) and CUDA's.
_HOST_TYPES = frozenset({DLDeviceType.CPU, DLDeviceType.CPU_PINNED, DLDeviceType.ROCM_HOST})
_CUDA_TYPES = frozenset({DLDeviceType.CUDA, DLDeviceType.CUDA_MANAGED})

# DLDataType (code, bits) of the standard's 13 dtypes (lanes must be 1).
# https://github.com/dmlc/dlpack/blob/main/include/dlpack/dlpack.h (DLDataTypeCode)
_ACCEPTED = {
    (0, 8): "int8", (0, 16): "int16", (0, 32): "int32", (0, 64): "int64",
    (1, 8): "uint8", (1, 16): "uint16", (1, 32): "uint32", (1, 64): "uint64",
    (2, 32): "float32", (2, 64): "float64",
    (5, 64): "complex64", (5, 128): "complex128",
    (6, 8): "bool",
}
# Names of dtypes DLPack carries that the standard lacks, for the refusal's message.
_REFUSED_NAMES = {
    (2, 16): "float16", (4, 16): "bfloat16", (5, 32): "complex32", (3, 0): "opaque handle",
    (7, 8): "float8_e3m4", (8, 8): "float8_e4m3", (9, 8): "float8_e4m3b11fnuz",
    (10, 8): "float8_e4m3fn", (11, 8): "float8_e4m3fnuz", (12, 8): "float8_e5m2",
    (13, 8): "float8_e5m2fnuz", (14, 8): "float8_e8m0fnu", (15, 6): "float6_e2m3fn",
    (16, 6): "float6_e3m2fn", (17, 4): "float4_e2m1fn",
}


# ---- the DLPack structs (dlpack.h) ------------------------------------------------------

class _DLDevice(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32)]


class _DLDataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16)]


class _DLTensor(ctypes.Structure):
    _fields_ = [
        ("data", ctypes.c_void_p), ("device", _DLDevice), ("ndim", ctypes.c_int32),
        ("dtype", _DLDataType), ("shape", ctypes.POINTER(ctypes.c_int64)),
        ("strides", ctypes.POINTER(ctypes.c_int64)), ("byte_offset", ctypes.c_uint64),
    ]


class _DLManagedTensor(ctypes.Structure):
    pass


_DELETER = ctypes.CFUNCTYPE(None, ctypes.c_void_p)
_DLManagedTensor._fields_ = [
    ("dl_tensor", _DLTensor), ("manager_ctx", ctypes.c_void_p), ("deleter", _DELETER),
]


class _DLPackVersion(ctypes.Structure):
    _fields_ = [("major", ctypes.c_uint32), ("minor", ctypes.c_uint32)]


class _DLManagedTensorVersioned(ctypes.Structure):
    # Note: dlpack.h keeps version, manager_ctx and deleter ABI-stable across major
    # versions, so the deleter of a capsule of a newer major version can still be called.
    _fields_ = [
        ("version", _DLPackVersion), ("manager_ctx", ctypes.c_void_p), ("deleter", _DELETER),
        ("flags", ctypes.c_uint64), ("dl_tensor", _DLTensor),
    ]


# Private prototypes: ctypes.pythonapi's own function objects are shared process-wide,
# and another module may set their argtypes.
_capsule_get_name = ctypes.PYFUNCTYPE(ctypes.c_char_p, ctypes.py_object)(
    ("PyCapsule_GetName", ctypes.pythonapi))
_capsule_get_pointer = ctypes.PYFUNCTYPE(ctypes.c_void_p, ctypes.py_object, ctypes.c_char_p)(
    ("PyCapsule_GetPointer", ctypes.pythonapi))
_capsule_set_name = ctypes.PYFUNCTYPE(ctypes.c_int, ctypes.py_object, ctypes.c_char_p)(
    ("PyCapsule_SetName", ctypes.pythonapi))

# capsule name -> (struct, the name marking it consumed). PyCapsule_SetName keeps the
# pointer, not a copy: these module-level bytes outlive every capsule.
_USED_VERSIONED = ctypes.create_string_buffer(b"used_dltensor_versioned")
_USED = ctypes.create_string_buffer(b"used_dltensor")
_KINDS = {
    b"dltensor_versioned": (_DLManagedTensorVersioned, _USED_VERSIONED),
    b"dltensor": (_DLManagedTensor, _USED),
}


def _refuse(capsule: Any, managed: Any, used: Any, message: str) -> None:
    """Release a capsule we will not import: its deleter runs once, here, and the
    renamed capsule's destructor then leaves it alone."""
    if _capsule_set_name(capsule, used) != 0:  # pragma: no cover - only on a broken capsule
        raise BufferError(f"from_dlpack: cannot mark the capsule as used; {message}")
    if managed.deleter:
        managed.deleter(ctypes.addressof(managed))
    raise BufferError(f"from_dlpack: {message}")


def check_capsule(capsule: Any) -> str:
    """The standard dtype name of a DLPack capsule; a ``BufferError`` (after releasing the
    capsule) for a newer major version or a dtype outside the standard's 13."""
    if type(capsule).__name__ != "PyCapsule":
        v.fail("from_dlpack", f"__dlpack__() returned {type(capsule).__name__}, not a "
                              "DLPack capsule", BufferError)
    name = _capsule_get_name(capsule)
    kind = _KINDS.get(name)  # type: ignore[arg-type]
    if kind is None:
        v.fail("from_dlpack", f"the capsule is named {name!r}: already consumed, or not "
                              "DLPack", BufferError)
    struct, used = kind
    managed = struct.from_address(_capsule_get_pointer(capsule, name))
    if struct is _DLManagedTensorVersioned and managed.version.major > MAX_VERSION[0]:
        _refuse(capsule, managed, used,
                f"the producer returned a DLPack {managed.version.major}."
                f"{managed.version.minor} capsule; this consumer reads DLPack "
                f"{MAX_VERSION[0]}.x")
    dt = managed.dl_tensor.dtype
    key = (dt.code, dt.bits)
    dtype_name = _ACCEPTED.get(key) if dt.lanes == 1 else None
    if dtype_name is None:
        known = _REFUSED_NAMES.get(key, f"code={dt.code}, bits={dt.bits}")
        lanes = f" with {dt.lanes} lanes" if dt.lanes != 1 else ""
        _refuse(capsule, managed, used,
                f"the producer's dtype {known}{lanes} is not one of the standard's 13 data "
                "types; convert it first (for example to float32)")
    return dtype_name  # type: ignore[return-value]


class _Taken:
    """Hands an already taken (and checked) capsule on to ``numpy``/``cupy.from_dlpack``."""

    __slots__ = ("_capsule", "_device")

    def __init__(self, capsule: Any, device: tuple[int, int]):
        self._capsule = capsule
        self._device = device

    def __dlpack__(self, *args: Any, **kwargs: Any) -> Any:
        capsule, self._capsule = self._capsule, None
        if capsule is None:
            raise BufferError("from_dlpack: the capsule was already consumed")
        return capsule

    def __dlpack_device__(self) -> tuple[int, int]:
        return self._device


def _request(x: Any, stream: Any, dl_device: Any, copy: bool | None) -> Any:
    """The producer's capsule, asking for DLPack 1.0 first (the standard's consumer logic).

    Only ``copy=False`` goes to the producer (it must then refuse to copy); xpgpu makes the
    copy of ``copy=True`` itself, since a producer may ignore the request."""
    kwargs: dict[str, Any] = {}
    if stream is not None:
        kwargs["stream"] = stream
    if dl_device is not None:
        kwargs["dl_device"] = dl_device
    if copy is False:
        kwargs["copy"] = False
    try:
        return x.__dlpack__(max_version=MAX_VERSION, **kwargs)
    except TypeError:
        if "copy" not in kwargs:
            return x.__dlpack__(**kwargs)
    # Note: a producer of DLPack 0.x (before 2023.12) has no copy keyword and never copies.
    del kwargs["copy"]
    try:
        return x.__dlpack__(max_version=MAX_VERSION, **kwargs)
    except TypeError:
        return x.__dlpack__(**kwargs)


def _import(x: Any, source: Device, copy: bool | None, dl_device: Any = None) -> Array:
    """Import the producer's data on ``source`` (its own device, or the CPU when
    ``dl_device`` asks the producer to copy to the host)."""
    backend = source.backend
    stream = None if source is CPU else backend.adapter.dlpack_stream(source.index)
    capsule = _request(x, stream, dl_device, copy)
    dtype = BY_NAME[check_capsule(capsule)]
    device_tuple = (DLDeviceType.CPU, 0) if source is CPU else (DLDeviceType.CUDA, source.index)
    data = backend.adapter.import_dlpack(_Taken(capsule, device_tuple))
    if copy:
        data = data.copy()
    return wrap_checked("from_dlpack", data, source, dtype)


def _source_device(x: Any) -> tuple[Device | None, tuple[int, int]]:
    """The xpgpu device of a producer's ``__dlpack_device__()`` (None where there is none
    here), and the tuple itself."""
    try:
        dev_type, dev_id = x.__dlpack_device__()
    except AttributeError:
        v.fail("from_dlpack", f"{type(x).__name__} has no __dlpack_device__ method, so it "
                              "does not support DLPack", v.NoDLPackError)
    if dev_type in _HOST_TYPES:
        return CPU, (dev_type, dev_id)
    if dev_type in _CUDA_TYPES:
        return lookup(f"cuda:{int(dev_id)}"), (dev_type, dev_id)
    v.fail("from_dlpack", f"DLPack device type {dev_type} of {type(x).__name__} is not "
                          "supported; xpgpu reads CPU and CUDA memory", BufferError)


def from_dlpack(x: Any, /, *, device: Any = None, copy: bool | None = None) -> Array:
    """An array from an object with ``__dlpack__``. See https://data-apis.org/array-api/2025.12/API_specification/generated/array_api.from_dlpack.html"""
    func = "from_dlpack"
    if copy is not None and copy is not True and copy is not False:
        v.bad_bool(func, copy, "copy", none=True)
    target = None if device is None else v.device_arg(func, device)
    if type(x) is Array:
        return _from_array(x, target, copy)
    if not hasattr(x, "__dlpack__"):
        v.fail(func, f"{type(x).__name__} has no __dlpack__ method, so it does not "
                     "support DLPack", v.NoDLPackError)
    source, dl = _source_device(x)
    target = target or source
    if target is None:
        v.fail(func, f"{type(x).__name__} is on DLPack device {tuple(map(int, dl))}, which is "
                     "not available here (is CuPy installed?)", BufferError)
    if target is source:
        return _import(x, source, copy)
    if copy is False:
        v.fail(func, f"copy=False, but moving {type(x).__name__} from DLPack device "
                     f"{tuple(map(int, dl))} to {target} needs a copy", v.CopyRequiredError)
    if target is CPU:
        # The standard's path to host memory: ask the producer to copy there.
        try:
            return _import(x, CPU, None, (DLDeviceType.CPU, 0))
        except (TypeError, BufferError, NotImplementedError, ValueError) as e:
            if source is None or "from_dlpack:" in str(e):
                raise
    if source is None:
        v.fail(func, f"{type(x).__name__} is on DLPack device {tuple(map(int, dl))}, which "
                     "is not available here (is CuPy installed?)", BufferError)
    imported = _import(x, source, None)
    return wrap(transfer(imported._data, source, target), imported._dtype, target)


def _from_array(x: Array, target: Device | None, copy: bool | None) -> Array:
    """from_dlpack of an xpgpu array: no capsule needed."""
    target = target or x._device
    if target is not x._device:
        if copy is False:
            v.fail("from_dlpack", f"copy=False, but moving the array from {x._device} to "
                                  f"{target} needs a copy", v.CopyRequiredError)
        return wrap(transfer(x._data, x._device, target), x._dtype, target)
    return wrap(x._data.copy() if copy else x._data, x._dtype, target)


# ---- the producer side ------------------------------------------------------------------

def __dlpack__(self: Array, /, *, stream: Any = None, max_version: tuple[int, int] | None = None,
               dl_device: tuple[Any, int] | None = None, copy: bool | None = None) -> Any:
    """Export as a DLPack capsule. See https://data-apis.org/array-api/2025.12/API_specification/generated/array_api.array.__dlpack__.html"""
    func = "__dlpack__"
    if copy is not None and copy is not True and copy is not False:
        v.bad_bool(func, copy, "copy", none=True)
    if max_version is not None and not (
            type(max_version) is tuple and len(max_version) == 2
            and all(type(i) is int for i in max_version)):
        v.fail(func, f"max_version must be None or a (major, minor) pair of ints, "
                     f"not {max_version!r}")
    device = self._device
    data = self._data
    if dl_device is not None:
        try:
            dev_type, dev_id = dl_device
            wanted = (int(dev_type), int(dev_id))
        except (TypeError, ValueError):
            v.fail(func, f"dl_device must be a (device type, device id) pair, not {dl_device!r}")
        own = (1, 0) if device is CPU else (2, device.index)
        if wanted != own:
            if wanted != (1, 0):
                v.fail(func, f"cannot export a {device} array to DLPack device {wanted}; "
                             "only its own device and the CPU (1, 0) are supported", BufferError)
            if copy is False:
                v.fail(func, f"copy=False, but exporting a {device} array to the CPU needs "
                             "a copy", BufferError)
            if stream is not None:
                v.fail(func, "stream must be None when exporting to the CPU", ValueError)
            data, device, copy = transfer(data, device, CPU), CPU, None
        dl_device = None  # now the data's own device
    if device is CPU and stream is not None:
        v.fail(func, f"stream must be None for a cpu array, got {stream!r}", ValueError)
    if stream is not None and (
            type(stream) is not int or stream == 0 or not -1 <= stream < 1 << 63):
        v.fail(func, f"stream must be None, -1, 1, 2 or a CUDA stream pointer, not {stream!r}",
               ValueError if type(stream) is int else TypeError)
    return device.backend.adapter.export_dlpack(data, stream, max_version, dl_device, copy)


def __dlpack_device__(self: Array, /) -> tuple[DLDeviceType, int]:
    """The DLPack (device type, device id). See https://data-apis.org/array-api/2025.12/API_specification/generated/array_api.array.__dlpack_device__.html"""
    device = self._device
    if device is CPU:
        return (DLDeviceType.CPU, 0)
    return (DLDeviceType.CUDA, device.index)


Array.__dlpack__ = __dlpack__  # type: ignore[method-assign]
Array.__dlpack_device__ = __dlpack_device__  # type: ignore[method-assign]
