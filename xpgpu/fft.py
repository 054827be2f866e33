"""The Fourier transform extension.

https://data-apis.org/array-api/2025.12/extensions/fourier_transform_functions.html

Transforms call the backend's ``fft`` (``numpy.fft``, or CuPy's through the adapter,
i.e. cuFFT). Precision is kept: complex64 in, complex64 out; float32 in, complex64 out;
the result dtype is checked on every call.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Literal

from . import _validate as v
from ._array import Array, array_arg, wrap, wrap_checked
from ._dtypes import CATEGORIES, COMPLEX_OF, REAL_OF, DType, float64

if TYPE_CHECKING:  # the stub-only module of the argument types
    from ._typing import DeviceArg, DTypeArg

_Norm = Literal["backward", "ortho", "forward"]

__all__ = [
    "fft", "ifft", "fftn", "ifftn", "rfft", "irfft", "rfftn", "irfftn", "hfft", "ihfft",
    "fftfreq", "rfftfreq", "fftshift", "ifftshift",
]

_SPEC = "https://data-apis.org/array-api/2025.12/extensions/generated/array_api.fft.{}.html"
_NORMS = ("backward", "ortho", "forward")

# Input categories and result dtypes, by the transform's direction.
_KINDS: dict[str, tuple[frozenset[DType], Callable[[DType], DType]]] = {
    "c2c": (CATEGORIES["complex floating-point"], lambda d: d),
    "r2c": (CATEGORIES["real floating-point"], lambda d: COMPLEX_OF[d]),
    "c2r": (CATEGORIES["complex floating-point"], lambda d: REAL_OF[d]),
}

# name -> direction. c2r transforms take the output length: by default 2*(m-1).
_ONE_D = {"fft": "c2c", "ifft": "c2c", "rfft": "r2c", "irfft": "c2r", "hfft": "c2r",
          "ihfft": "r2c"}
_N_D = {"fftn": "c2c", "ifftn": "c2c", "rfftn": "r2c", "irfftn": "c2r"}


# ---- helpers --------------------------------------------------------------------------

def _norm_arg(func: str, norm: object) -> _Norm:
    if not isinstance(norm, str) or norm not in _NORMS:
        v.fail(func, f"norm must be 'backward', 'ortho' or 'forward', not {norm!r}; use "
                     "one of them",
               ValueError)
    return norm  # type: ignore[return-value]


def _length(func: str, value: object, name: str) -> int:
    n = v.int_arg(func, value, name)
    if n < 1:
        v.fail(func, f"{name} must be a positive number of points, got {n}; use n >= 1",
               ValueError)
    return n


def _default_length(func: str, kind: str, m: int, axis: int) -> int:
    n = 2 * (m - 1) if kind == "c2r" else m
    if n < 1:
        v.fail(func, f"the default length along axis {axis} is {n} (input size {m}); "
                     "use n or s to give it", ValueError)
    return n


def _make_1d(name: str) -> Callable[..., Array]:
    kind = _ONE_D[name]
    allowed, result = _KINDS[kind]

    def transform(x: Array, /, *, n: int | None = None, axis: int = -1,
                  norm: _Norm = "backward") -> Array:
        x = array_arg(name, x, "x", allowed)
        ax = v.axis_arg(name, axis, x.ndim)
        size = _default_length(name, kind, x.shape[ax], ax) if n is None \
            else _length(name, n, "n")
        norm = _norm_arg(name, norm)
        v.size_check(name, (*x.shape[:ax], size, *x.shape[ax + 1:]), 16)
        backend = x._device.backend
        data = getattr(backend.fft, name)(x._data, n=size, axis=ax, norm=norm)
        return wrap_checked(name, data, x._device, result(x._dtype))

    transform.__name__ = transform.__qualname__ = name
    transform.__doc__ = f"One-dimensional {name}. See {_SPEC.format(name)}"
    return transform


def _make_nd(name: str) -> Callable[..., Array]:
    kind = _N_D[name]
    allowed, result = _KINDS[kind]

    def transform(x: Array, /, *, s: Sequence[int] | None = None,
                  axes: Sequence[int] | None = None, norm: _Norm = "backward") -> Array:
        x = array_arg(name, x, "x", allowed)
        shape = x.shape
        if axes is None:
            if s is not None:
                v.fail(name, "s needs axes: use axes=... to name the axes s applies to", ValueError)
            ax = tuple(range(x.ndim))
        else:
            ax = _axes_list(name, axes, x.ndim)
        if not ax and kind != "c2c":
            v.fail(name, "needs at least one axis; use axes=(-1,), say", ValueError)
        if s is None:
            s = (-1,) * len(ax)
        elif not isinstance(s, (tuple, list)) or len(s) != len(ax):
            v.fail(name, f"s must be a sequence of {len(ax)} ints, one per axis in axes, "
                         f"not {s!r}; use one size per axis", ValueError)
        last = len(ax) - 1
        # Note: -1 in s means the whole axis (for c2r's last axis: 2*(m-1) points).
        sizes = tuple(_default_length(name, kind if i == last else "c2c", shape[a], a)
                      if v.int_arg(name, si, "s") == -1 else _length(name, si, "s")
                      for i, (si, a) in enumerate(zip(s, ax, strict=False)))
        norm = _norm_arg(name, norm)
        out = list(shape)
        for a, si in zip(ax, sizes, strict=True):
            out[a] = si
        v.size_check(name, tuple(out), 16)
        if not ax:
            return wrap_checked(name, x._data.copy(), x._device, x._dtype)
        backend = x._device.backend
        data = getattr(backend.fft, name)(x._data, s=sizes, axes=ax, norm=norm)
        return wrap_checked(name, data, x._device, result(x._dtype))

    transform.__name__ = transform.__qualname__ = name
    transform.__doc__ = f"N-dimensional {name}. See {_SPEC.format(name)}"
    return transform


def _axes_list(func: str, axes: object, ndim: int) -> tuple[int, ...]:
    """A sequence of distinct axes, normalised, in the given order."""
    if not isinstance(axes, (tuple, list)):
        v.fail(func, f"axes must be a sequence of ints, not {axes!r}; use a tuple")
    out = tuple(v.axis_arg(func, a, ndim, "axes") for a in axes)
    if len(set(out)) != len(out):
        v.fail(func, f"repeated axis in axes={axes!r}; use each axis once", ValueError)
    return out


# ---- transforms -----------------------------------------------------------------------

# The transforms are built from tables; type checkers read their signatures here.
if TYPE_CHECKING:
    def fft(x: Array, /, *, n: int | None = None, axis: int = -1,
            norm: _Norm = "backward") -> Array: ...
    def ifft(x: Array, /, *, n: int | None = None, axis: int = -1,
             norm: _Norm = "backward") -> Array: ...
    def rfft(x: Array, /, *, n: int | None = None, axis: int = -1,
             norm: _Norm = "backward") -> Array: ...
    def irfft(x: Array, /, *, n: int | None = None, axis: int = -1,
              norm: _Norm = "backward") -> Array: ...
    def hfft(x: Array, /, *, n: int | None = None, axis: int = -1,
             norm: _Norm = "backward") -> Array: ...
    def ihfft(x: Array, /, *, n: int | None = None, axis: int = -1,
              norm: _Norm = "backward") -> Array: ...
    def fftn(x: Array, /, *, s: Sequence[int] | None = None,
             axes: Sequence[int] | None = None, norm: _Norm = "backward") -> Array: ...
    def ifftn(x: Array, /, *, s: Sequence[int] | None = None,
              axes: Sequence[int] | None = None, norm: _Norm = "backward") -> Array: ...
    def rfftn(x: Array, /, *, s: Sequence[int] | None = None,
              axes: Sequence[int] | None = None, norm: _Norm = "backward") -> Array: ...
    def irfftn(x: Array, /, *, s: Sequence[int] | None = None,
               axes: Sequence[int] | None = None, norm: _Norm = "backward") -> Array: ...
else:
    fft = _make_1d("fft")
    ifft = _make_1d("ifft")
    rfft = _make_1d("rfft")
    irfft = _make_1d("irfft")
    hfft = _make_1d("hfft")
    ihfft = _make_1d("ihfft")
    fftn = _make_nd("fftn")
    ifftn = _make_nd("ifftn")
    rfftn = _make_nd("rfftn")
    irfftn = _make_nd("irfftn")


# ---- frequencies and shifts -----------------------------------------------------------

def _freq(name: str, n: object, d: object, dtype: object, device: object) -> Array:
    size = _length(name, n, "n")
    v.size_check(name, (size,), 8)
    d = v.real_arg(name, d, "d")
    if not d:
        v.fail(name, "d must be non-zero; use the sample spacing, such as 1.0", ValueError)
    out = float64 if dtype is None else v.dtype_arg(name, dtype)
    if out not in CATEGORIES["real floating-point"]:
        v.bad_dtype(name, out, CATEGORIES["real floating-point"], "dtype")
    target = v.device_or_default(name, device)
    backend = target.backend
    with backend.adapter.on(target.index):
        data = getattr(backend.fft, name)(size, float(d))
        # Note: the backends compute in float64; rounding once gives exact float32 values.
        data = data.astype(out.dtype, copy=False)
    return wrap_checked(name, data, target, out)


def fftfreq(n: int, /, *, d: float = 1.0, dtype: DTypeArg | None = None,
            device: DeviceArg | None = None) -> Array:
    """Sample frequencies of fft. See https://data-apis.org/array-api/2025.12/extensions/generated/array_api.fft.fftfreq.html"""
    return _freq("fftfreq", n, d, dtype, device)


def rfftfreq(n: int, /, *, d: float = 1.0, dtype: DTypeArg | None = None,
             device: DeviceArg | None = None) -> Array:
    """Sample frequencies of rfft. See https://data-apis.org/array-api/2025.12/extensions/generated/array_api.fft.rfftfreq.html"""
    return _freq("rfftfreq", n, d, dtype, device)


def _shift(name: str, x: Array, axes: object) -> Array:
    x = array_arg(name, x, "x", CATEGORIES["floating-point"])
    if axes is None:
        ax: tuple[int, ...] = tuple(range(x.ndim))
    elif isinstance(axes, (tuple, list)):
        ax = _axes_list(name, axes, x.ndim)
    else:
        ax = (v.axis_arg(name, axes, x.ndim, "axes"),)
    if not ax:  # Note: NumPy's roll fails on an empty tuple of axes (a 0-d x).
        return wrap(x._data.copy(), x._dtype, x._device)
    data = getattr(x._device.backend.fft, name)(x._data, axes=ax)
    return wrap_checked(name, data, x._device, x._dtype)


def fftshift(x: Array, /, *, axes: int | Sequence[int] | None = None) -> Array:
    """Shift the zero frequency to the centre. See https://data-apis.org/array-api/2025.12/extensions/generated/array_api.fft.fftshift.html"""
    return _shift("fftshift", x, axes)


def ifftshift(x: Array, /, *, axes: int | Sequence[int] | None = None) -> Array:
    """Inverse of fftshift. See https://data-apis.org/array-api/2025.12/extensions/generated/array_api.fft.ifftshift.html"""
    return _shift("ifftshift", x, axes)


def __dir__() -> list[str]:
    """The public names and the module's dunders (no helpers) in ``dir()``."""
    return sorted({*__all__, *(n for n in globals() if n[:2] == n[-2:] == "__")})
