"""NumPy's protocols on xpgpu arrays: ``__array_ufunc__`` and ``__array__``.

Not in the standard. NumPy ufuncs on xpgpu arrays (``numpy.abs(x)``, ``numpy.sum(x)``,
which reduces with ``numpy.add``, and ``numpy_array + x``) run xpgpu's function of the
same meaning on the array's device and return an xpgpu array, as CuPy does for its own
arrays. A NumPy array or scalar among the operands is refused in the strict profile
(with the fix) and moved to the array's device in the permissive one, where a ufunc
without an xpgpu counterpart (``scipy.special.erf``) runs on the host, as NumPy runs it
on any array-like, and its result comes back to the array's device. Other NumPy
functions (``numpy.mean``, ``numpy.concatenate``) convert their input with
``__array__``: on the CPU the data itself; on CUDA the strict profile refuses, and the
permissive one copies to the host with a one-time ``DeviceToHostCopyWarning``.
See docs/deviations.md and docs/profiles.md.
"""

from __future__ import annotations

import sys
import warnings
from collections.abc import Callable
from typing import Any

from . import _validate as v
from ._array import Array
from ._backend import UFUNC_NAMES
from ._devices import CPU
from ._elementwise import FUNCTIONS
from ._scalars import scalar_type

# NumPy ufunc name -> the standard's function, for ``ufunc(...)`` and ``ufunc.reduce``.
_CALL = {**{n: n for n in FUNCTIONS}, **UFUNC_NAMES, "matmul": "matmul"}
_CALL = {np_name: std for np_name, std in _CALL.items() if std in FUNCTIONS or std == "matmul"}
_REDUCE = {"add": "sum", "multiply": "prod", "maximum": "max", "minimum": "min",
           "logical_and": "all", "logical_or": "any"}
_REDUCE_KWARGS = frozenset({"axis", "dtype", "out", "keepdims"})
_WITH_DTYPE = frozenset({"sum", "prod"})


class DeviceToHostCopyWarning(UserWarning):
    """A CUDA array was copied to the host for NumPy (``numpy.asarray(x)``): the
    permissive profile's ``__array__``. Issued once per process."""


def array_ufunc(loose: Any = None) -> Callable[..., Any]:
    """``Array.__array_ufunc__``; with ``loose``, the permissive form, which moves NumPy
    operands to the array's device."""

    def __array_ufunc__(self: Array, ufunc: Any, method: str, *inputs: Any,
                        **kwargs: Any) -> Any:
        np_name = getattr(ufunc, "__name__", repr(ufunc))
        label = f"numpy.{np_name}" + ("" if method == "__call__" else f".{method}")
        std = (_CALL if method == "__call__" else _REDUCE if method == "reduce" else {}
               ).get(np_name)
        out = kwargs.get("out")
        outs = out if isinstance(out, tuple) else (out,)
        given = [o for o in outs if o is not None]
        if loose is not None and method == "__call__" and (std is None or given):
            if any(type(o) is Array for o in given):
                v.fail(label, "out= cannot be an xpgpu array; use the returned array")
            # NumPy's own behaviour with an array-like: ``numpy_array += x`` writes into
            # the NumPy array; a ufunc xpgpu lacks (scipy.special.erf) runs on the host.
            return _on_host(label, ufunc, inputs, kwargs, self, loose, bool(given))
        if std is None:
            v.fail(label, "NumPy ufuncs on xpgpu arrays run only where xpgpu has the "
                          "function (calls of element-wise functions and matmul, reductions "
                          "of add, multiply, maximum, minimum, logical_and, logical_or); "
                          "use the xpgpu namespace (x.__array_namespace__()), or convert "
                          "explicitly with numpy.asarray(x.to_device('cpu'))")
        if given:
            v.fail(label, "out= is not supported for xpgpu arrays (they are not written in "
                          "place by NumPy); use the returned array")
        extra = set(kwargs) - (_REDUCE_KWARGS if method == "reduce" else {"out"})
        if extra:
            v.fail(label, f"the arguments {', '.join(sorted(extra))} are not supported for "
                          f"xpgpu arrays; call xpgpu.{std} instead")
        args = [_operand(label, a, self, loose) for a in inputs]
        namespace = sys.modules["xpgpu"]
        f = getattr(namespace, std)
        if method == "reduce":
            options = {"axis": kwargs.get("axis", 0), "keepdims": kwargs.get("keepdims", False)}
            if kwargs.get("dtype") is not None and std in _WITH_DTYPE:
                options["dtype"] = kwargs["dtype"]
            elif kwargs.get("dtype") is not None:
                v.fail(label, f"dtype= is not supported here; xpgpu.{std} has none")
            return f(*args, **options)
        return f(*args)

    return __array_ufunc__


def _on_host(label: str, ufunc: Any, inputs: tuple[Any, ...], kwargs: dict[str, Any],
             x: Array, loose: Any, into_numpy: bool) -> Any:
    """The permissive profile's NumPy ufunc without an xpgpu counterpart
    (``scipy.special.erf``), or writing into a NumPy array (``into_numpy``): NumPy computes
    it on the host, as for any array-like; a new result comes back as an xpgpu array on
    ``x``'s device."""
    host = CPU.backend.adapter.asarray_host
    result = ufunc(*(host(a) if type(a) is Array else a for a in inputs), **kwargs)
    if into_numpy:
        return result
    if isinstance(result, tuple):
        return tuple(loose.operand(label, r, x._device) for r in result)
    return loose.operand(label, result, x._device)


# Note: NumPy hands its scalars to a comparison's ufunc as 0-d arrays: ``np.float64(1) == x``
# calls ``numpy.equal(array(1.), x)``. np.float64 and np.complex128 are subclasses of
# Python's float and complex, weak scalars in both profiles (docs/deviations.md); in a
# comparison their 0-d arrays are taken as the scalar again, so ``np.float64(v) == x``
# gives what ``x == np.float64(v)`` gives, in both profiles.
_COMPARISONS = frozenset(("equal", "not_equal", "less", "less_equal", "greater",
                          "greater_equal"))
_SCALAR_DTYPES = frozenset(("float64", "complex128"))


def _operand(label: str, obj: Any, x: Array, loose: Any) -> Any:
    if type(obj) is Array or scalar_type(obj) is not None:
        return obj
    if CPU.backend.adapter.is_host_array(obj):
        if (obj.ndim == 0 and obj.dtype.name in _SCALAR_DTYPES
                and label.removeprefix("numpy.") in _COMPARISONS):
            return obj[()]
        if loose is not None:
            return loose.operand(label, obj, x._device)
        v.fail(label, f"a NumPy {type(obj).__name__} cannot meet an xpgpu array in a NumPy "
                      "ufunc; convert it with xpgpu.asarray(obj, device=x.device) and call "
                      "the xpgpu function, or select the permissive profile "
                      "(xpgpu.set_strict(False)), which moves it to the array's device")
    v.fail(label, f"cannot combine an xpgpu array with {type(obj).__name__}; use xpgpu "
                  "arrays (xpgpu.asarray())")


_STRICT_ARRAY = Array.__array__
_warned = False


def __array__(self: Array, dtype: Any = None, copy: bool | None = None) -> Any:
    """The permissive ``__array__``: on CUDA an explicit device-to-host copy, with a
    one-time warning (NumPy fallbacks of SciPy and scikit-learn then run)."""
    global _warned
    if self._device is CPU:
        return _STRICT_ARRAY(self, dtype, copy)
    if copy is False:
        v.fail("__array__", f"a {self._device} array needs a copy to become a NumPy array, "
                            "and copy=False was given", ValueError)
    if not _warned:
        _warned = True
        warnings.warn(f"__array__: copying a {self._device} array to the host for NumPy "
                      "(numpy.asarray(x)); NumPy code on xpgpu arrays runs on the CPU. "
                      "This warning is shown once.", DeviceToHostCopyWarning, stacklevel=2)
    return _STRICT_ARRAY(self.to_device(CPU), dtype, None)


Array.__array_ufunc__ = array_ufunc()  # type: ignore[attr-defined]
