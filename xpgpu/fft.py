"""The Fourier transform extension.

https://data-apis.org/array-api/2025.12/extensions/fourier_transform_functions.html
"""

from __future__ import annotations

from typing import Any


def fft(*args: Any, **kwargs: Any) -> Any:
    raise NotImplementedError("fft: not implemented yet")


def ifft(*args: Any, **kwargs: Any) -> Any:
    raise NotImplementedError("ifft: not implemented yet")


def fftn(*args: Any, **kwargs: Any) -> Any:
    raise NotImplementedError("fftn: not implemented yet")


def ifftn(*args: Any, **kwargs: Any) -> Any:
    raise NotImplementedError("ifftn: not implemented yet")


def rfft(*args: Any, **kwargs: Any) -> Any:
    raise NotImplementedError("rfft: not implemented yet")


def irfft(*args: Any, **kwargs: Any) -> Any:
    raise NotImplementedError("irfft: not implemented yet")


def rfftn(*args: Any, **kwargs: Any) -> Any:
    raise NotImplementedError("rfftn: not implemented yet")


def irfftn(*args: Any, **kwargs: Any) -> Any:
    raise NotImplementedError("irfftn: not implemented yet")


def hfft(*args: Any, **kwargs: Any) -> Any:
    raise NotImplementedError("hfft: not implemented yet")


def ihfft(*args: Any, **kwargs: Any) -> Any:
    raise NotImplementedError("ihfft: not implemented yet")


def fftfreq(*args: Any, **kwargs: Any) -> Any:
    raise NotImplementedError("fftfreq: not implemented yet")


def rfftfreq(*args: Any, **kwargs: Any) -> Any:
    raise NotImplementedError("rfftfreq: not implemented yet")


def fftshift(*args: Any, **kwargs: Any) -> Any:
    raise NotImplementedError("fftshift: not implemented yet")


def ifftshift(*args: Any, **kwargs: Any) -> Any:
    raise NotImplementedError("ifftshift: not implemented yet")
