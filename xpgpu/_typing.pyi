"""Type aliases of the declared signatures (the stub ``__init__.pyi``, ``linalg``, ``fft`` and
the array's operators); read by type checkers only: no module of this name exists at run
time."""

from types import EllipsisType
from typing import Any, Protocol, TypeAlias, TypeVar

import numpy
from typing_extensions import Buffer

from ._array import Array
from ._devices import Device
from ._dtypes import DType

_T_co = TypeVar("_T_co", covariant=True)

# A dtype argument: an xpgpu dtype (xpgpu.float32 ...) or a NumPy dtype instance, which
# xpgpu accepts for cubed, zarr and xarray; strings and Python types are refused.
DTypeArg: TypeAlias = DType | numpy.dtype[Any]
# A device argument: an xpgpu Device (x.device, info.devices()) or its name, "cpu" or "cuda:N".
DeviceArg: TypeAlias = Device | str
# An operand of the operators and of the binary element-wise functions.
Operand: TypeAlias = Array | bool | int | float | complex
# A key of Array.__getitem__ and Array.__setitem__.
IndexKey: TypeAlias = (
    int | slice | EllipsisType | Array | tuple[int | slice | EllipsisType | Array | None, ...]
    | None
)


class NestedSequence(Protocol[_T_co]):
    """Nested lists or tuples of Python scalars, as asarray takes them."""

    def __getitem__(self, key: int, /) -> _T_co | NestedSequence[_T_co]: ...
    def __len__(self, /) -> int: ...


class SupportsDLPack(Protocol):
    """An array of another library that exports DLPack (CuPy, PyTorch, JAX ...)."""

    def __dlpack__(self, /) -> Any: ...
    def __dlpack_device__(self, /) -> tuple[Any, int]: ...


class SupportsArray(Protocol):
    """A host array NumPy converts (a NumPy array, or an object with ``__array__``)."""

    def __array__(self, /) -> Any: ...


# What asarray converts.
ArrayLike: TypeAlias = (
    Array | bool | int | float | complex | NestedSequence[bool | int | float | complex]
    | SupportsDLPack | SupportsArray | Buffer
)
