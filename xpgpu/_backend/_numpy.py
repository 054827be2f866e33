"""The NumPy adapter: the CPU backend, and the host side of every transfer."""

from __future__ import annotations

import contextlib
import contextvars
import operator
from typing import Any

import numpy
import numpy.fft  # NumPy 2 imports it on first use; the Backend binds it at once

from . import METHODS, _numpy_linalg, _numpy_logspace, _numpy_special, method
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
_METHODS = {name: method(getattr(numpy, name), numpy.ndarray, name)
            for name in (*METHODS, "cumsum", "cumprod")}

# Fixes of NumPy's results where they differ from the standard, by the standard's name.
FIXES: dict[str, Any] = {"setitem": operator.setitem}  # x[key] = value
FIXES["mask_getitem"] = None  # x[mask]: NumPy's own (the indexing layer calls it directly)
FIXES["astype"] = lambda x, dtype: x.astype(dtype)  # the method, as a function (CuPy's too)
FIXES["copy"] = lambda x: x.copy()  # a C-ordered copy (the method: numpy.copy keeps the order)
FIXES.update(_METHODS)
FIXES["permute_dims"] = _METHODS["transpose"]
FIXES["logspace"] = _numpy_logspace.logspace  # exact integer dtypes, no warnings
FIXES.update(_numpy_special.FIXES)  # element-wise special cases of the standard
FIXES.update(_SORTING_FIXES)  # searchsorted with a Python scalar
FIXES["linalg"] = _numpy_linalg.linalg(ERRSTATE)  # solve of one matrix: NumPy's gufunc, direct


# ---- NumPy 2's own rules, read by the permissive profile (xpgpu/_permissive.py) -------

# Python scalar types as NumPy's resolution takes them: int, float and complex are weak
# (NEP 50); a Python bool is NumPy's bool.
_WEAK_TYPE = {bool: numpy.dtype(bool), int: int, float: float, complex: complex}
_WEAK_VALUE = {bool: False, int: 0, float: 0.0, complex: 0j}


def ufunc_loop(name: str, operands: tuple[Any, ...]) -> tuple[Any, ...] | None:
    """The dtypes of NumPy 2's loop (inputs then output) for the ufunc ``name`` (NumPy's
    spelling) on ``operands``, NumPy dtypes or Python scalar types; None where ``name`` is
    not a ufunc or NumPy refuses the operands."""
    ufunc = getattr(numpy, name, None)
    if not isinstance(ufunc, numpy.ufunc):
        return None
    try:
        return ufunc.resolve_dtypes(  # type: ignore[no-any-return]
            (*(_WEAK_TYPE.get(o, o) for o in operands), None))  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return None


def result_dtype(a: Any, b: Any) -> Any:
    """NumPy 2's result_type of a dtype and a dtype or a Python scalar type (weak)."""
    return numpy.result_type(a, _WEAK_VALUE.get(b, b))


def can_cast_same_kind(a: Any, b: Any) -> bool:
    """Whether NumPy's in-place operators may write dtype ``a`` into an array of ``b``."""
    return bool(numpy.can_cast(a, b, "same_kind"))


def dtype_from_spelling(obj: object) -> Any:
    """The NumPy dtype NumPy makes of ``obj`` ("float32", ``float``, ``numpy.float32``,
    "f8"), or None where NumPy makes none (None itself is no spelling here)."""
    if obj is None or isinstance(obj, (bool, int, float, complex)):
        return None
    try:
        return numpy.dtype(obj)  # type: ignore[call-overload]
    except (TypeError, ValueError):
        return None


def ufunc_standard_name(ufunc: object) -> tuple[str, str] | None:
    """(NumPy's name, 'ufunc') of a NumPy ufunc, or None for anything else."""
    if isinstance(ufunc, numpy.ufunc):
        return ufunc.__name__, "ufunc"
    return None
