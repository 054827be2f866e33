"""The NumPy adapter: the CPU backend, and the host side of every transfer."""

from __future__ import annotations

import contextlib
import contextvars
import operator
from typing import Any

import numpy
import numpy.fft  # NumPy 2 imports it on first use; the Backend binds it at once

from . import _numpy_logspace, _numpy_special
from ._numpy_interchange import dlpack_stream, export_dlpack, import_dlpack  # noqa: F401
from ._numpy_sorting import FIXES as _SORTING_FIXES

NAME = "numpy"
xp = numpy
dtype = numpy.dtype
VERSION = numpy.__version__


# Note: NumPy reports floating-point errors (log(0), 0/0, sqrt(-1), overflow) as
# RuntimeWarnings from the line that called it, which is inside xpgpu; CuPy's kernels
# never warn. xpgpu follows CuPy on both devices: the CPU calls of the element-wise
# functions run with NumPy's error state set to ignore through the context variable
# that numpy.errstate sets (tens of ns; numpy.errstate itself costs about 1 µs), so the
# user's own NumPy calls keep their error state. https://numpy.org/doc/stable/reference/generated/numpy.errstate.html
try:
    from numpy._core._multiarray_umath import _extobj_contextvar as ERRSTATE
except ImportError:  # a NumPy without it: a variable nothing reads (NumPy then warns)
    ERRSTATE = contextvars.ContextVar("xpgpu_errstate")
with numpy.errstate(all="ignore"):
    QUIET = ERRSTATE.get(None)


def is_dtype(obj: object) -> bool:
    return isinstance(obj, numpy.dtype)


def is_host_array(obj: object) -> bool:
    return isinstance(obj, numpy.ndarray) or isinstance(obj, numpy.generic)


def device_count() -> int:
    return 1


# The most dimensions an array may have (NumPy's NPY_MAXDIMS).
MAX_NDIM = 64
_NO_CONTEXT = contextlib.nullcontext()


def on(index: int) -> contextlib.AbstractContextManager[Any]:
    """The context that makes device ``index`` current: nothing to do on the CPU."""
    return _NO_CONTEXT


def asarray_host(obj: Any, dtype: Any = None, copy: bool | None = None) -> Any:
    if copy is None:
        return numpy.asarray(obj, dtype=dtype)
    return numpy.asarray(obj, dtype=dtype, copy=copy)


# Note: NumPy's module functions for reductions and reshapes (numpy.sum, numpy.reshape
# ...) are Python wrappers that cost about 1 µs a call before they reach the ndarray
# method of the same name, which runs the same code (the same ufunc reduction): the
# backend calls the method directly on an ndarray, and the function on anything else.
def _method(function: Any) -> Any:
    method = getattr(numpy.ndarray, function.__name__)
    ndarray = numpy.ndarray

    def call(a: Any, *args: Any, **kwargs: Any) -> Any:
        if type(a) is ndarray:
            return method(a, *args, **kwargs)
        return function(a, *args, **kwargs)

    call.__name__ = call.__qualname__ = function.__name__
    return call


_METHODS = {name: _method(getattr(numpy, name)) for name in (
    "sum", "prod", "max", "min", "mean", "var", "std", "argmax", "argmin", "clip",
    "reshape", "transpose", "cumsum", "cumprod")}

# Fixes of NumPy's results where they differ from the standard, by the standard's name.
FIXES: dict[str, Any] = {"setitem": operator.setitem}  # x[key] = value
FIXES["astype"] = lambda x, dtype: x.astype(dtype)  # the method, as a function (CuPy's too)
FIXES.update(_METHODS)
FIXES["permute_dims"] = _METHODS["transpose"]
FIXES["logspace"] = _numpy_logspace.logspace  # exact integer dtypes, no warnings
FIXES.update(_numpy_special.FIXES)  # element-wise special cases of the standard
FIXES.update(_SORTING_FIXES)  # searchsorted with a Python scalar
