"""Type stubs of ``xpgpu.fft``: the standard's signatures (revision 2025.12) with xpgpu's
argument types. ``tests/test_stubs.py`` keeps them in sync with the module.

https://data-apis.org/array-api/2025.12/extensions/fourier_transform_functions.html
"""

from collections.abc import Sequence
from typing import Literal

from ._array import Array
from ._typing import DeviceArg, DTypeArg

__all__: list[str]

def fft(
    x: Array, /, *, n: int | None = None, axis: int = -1,
    norm: Literal["backward", "ortho", "forward"] = "backward"
) -> Array: ...
def ifft(
    x: Array, /, *, n: int | None = None, axis: int = -1,
    norm: Literal["backward", "ortho", "forward"] = "backward"
) -> Array: ...
def fftn(
    x: Array, /, *, s: Sequence[int] | None = None, axes: Sequence[int] | None = None,
    norm: Literal["backward", "ortho", "forward"] = "backward"
) -> Array: ...
def ifftn(
    x: Array, /, *, s: Sequence[int] | None = None, axes: Sequence[int] | None = None,
    norm: Literal["backward", "ortho", "forward"] = "backward"
) -> Array: ...
def rfft(
    x: Array, /, *, n: int | None = None, axis: int = -1,
    norm: Literal["backward", "ortho", "forward"] = "backward"
) -> Array: ...
def irfft(
    x: Array, /, *, n: int | None = None, axis: int = -1,
    norm: Literal["backward", "ortho", "forward"] = "backward"
) -> Array: ...
def rfftn(
    x: Array, /, *, s: Sequence[int] | None = None, axes: Sequence[int] | None = None,
    norm: Literal["backward", "ortho", "forward"] = "backward"
) -> Array: ...
def irfftn(
    x: Array, /, *, s: Sequence[int] | None = None, axes: Sequence[int] | None = None,
    norm: Literal["backward", "ortho", "forward"] = "backward"
) -> Array: ...
def hfft(
    x: Array, /, *, n: int | None = None, axis: int = -1,
    norm: Literal["backward", "ortho", "forward"] = "backward"
) -> Array: ...
def ihfft(
    x: Array, /, *, n: int | None = None, axis: int = -1,
    norm: Literal["backward", "ortho", "forward"] = "backward"
) -> Array: ...
def fftfreq(
    n: int, /, *, d: float = 1.0, dtype: DTypeArg | None = None, device: DeviceArg | None = None
) -> Array: ...
def rfftfreq(
    n: int, /, *, d: float = 1.0, dtype: DTypeArg | None = None, device: DeviceArg | None = None
) -> Array: ...
def fftshift(x: Array, /, *, axes: int | Sequence[int] | None = None) -> Array: ...
def ifftshift(x: Array, /, *, axes: int | Sequence[int] | None = None) -> Array: ...
