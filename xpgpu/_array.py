"""The array object: construction, attributes, conversions and ``to_device``.

https://data-apis.org/array-api/2025.12/API_specification/array_object.html

Operators are installed by ``_operators``, indexing by ``_indexing`` and DLPack by
``_dlpack``; this module holds no arithmetic.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any, TypeVar

from . import _validate as v
from . import _version
from ._devices import CPU, Device, default_device
from ._dtypes import FROM_NP, KINDS, PROMOTION, DType

if TYPE_CHECKING:  # the stub-only module of the argument types
    from types import ModuleType

    from ._typing import DeviceArg, IndexKey, Operand

_object_new = object.__new__


class Array:
    """An n-dimensional array on one device: a NumPy or CuPy array underneath.

    Arrays come from the creation functions (``xpgpu.asarray``, ``xpgpu.zeros``, ...);
    the constructor is not public.
    """

    # _ndim: the data's ndim, kept there by the compiled views (_speedups.c) once read.
    __slots__ = ("__weakref__", "_data", "_device", "_dtype", "_ndim")
    __hash__ = None  # type: ignore[assignment]

    _data: Any
    _dtype: DType
    _device: Device

    def __new__(cls, *args: object, **kwargs: object) -> Array:
        raise TypeError(
            "xpgpu.Array cannot be constructed directly; use an array creation function "
            "such as xpgpu.asarray()"
        )

    def __init_subclass__(cls, /, **kwargs: object) -> None:
        """Array is not a base class: arrays come from xpgpu's functions."""
        # Note: where _speedups is built, Array is a C type that no class can subclass;
        # here the same refusal (the fast paths test type(x) is Array).
        raise TypeError("xpgpu.Array cannot be subclassed; wrap an array in a class of your "
                        "own instead")

    if TYPE_CHECKING:  # installed at import by _indexing, _operators and _dlpack
        def __getitem__(self, key: IndexKey, /) -> Array: ...
        def __setitem__(self, key: IndexKey, value: Operand, /) -> None: ...
        def __dlpack__(self, /, *, stream: Any = None, max_version: tuple[int, int] | None = None,
                       dl_device: tuple[Any, int] | None = None,
                       copy: bool | None = None) -> Any: ...
        def __dlpack_device__(self, /) -> tuple[Any, int]: ...
        def __eq__(self, other: Operand, /) -> Array: ...  # type: ignore[override]
        def __ne__(self, other: Operand, /) -> Array: ...  # type: ignore[override]
        def __lt__(self, other: Operand, /) -> Array: ...
        def __le__(self, other: Operand, /) -> Array: ...
        def __gt__(self, other: Operand, /) -> Array: ...
        def __ge__(self, other: Operand, /) -> Array: ...
        def __abs__(self, /) -> Array: ...
        def __neg__(self, /) -> Array: ...
        def __pos__(self, /) -> Array: ...
        def __invert__(self, /) -> Array: ...
        def __add__(self, other: Operand, /) -> Array: ...
        def __radd__(self, other: Operand, /) -> Array: ...
        def __iadd__(self, other: Operand, /) -> Array: ...
        def __sub__(self, other: Operand, /) -> Array: ...
        def __rsub__(self, other: Operand, /) -> Array: ...
        def __isub__(self, other: Operand, /) -> Array: ...
        def __mul__(self, other: Operand, /) -> Array: ...
        def __rmul__(self, other: Operand, /) -> Array: ...
        def __imul__(self, other: Operand, /) -> Array: ...
        def __truediv__(self, other: Operand, /) -> Array: ...
        def __rtruediv__(self, other: Operand, /) -> Array: ...
        def __itruediv__(self, other: Operand, /) -> Array: ...
        def __floordiv__(self, other: Operand, /) -> Array: ...
        def __rfloordiv__(self, other: Operand, /) -> Array: ...
        def __ifloordiv__(self, other: Operand, /) -> Array: ...
        def __mod__(self, other: Operand, /) -> Array: ...
        def __rmod__(self, other: Operand, /) -> Array: ...
        def __imod__(self, other: Operand, /) -> Array: ...
        def __pow__(self, other: Operand, /) -> Array: ...
        def __rpow__(self, other: Operand, /) -> Array: ...
        def __ipow__(self, other: Operand, /) -> Array: ...
        def __matmul__(self, other: Operand, /) -> Array: ...
        def __rmatmul__(self, other: Operand, /) -> Array: ...
        def __imatmul__(self, other: Operand, /) -> Array: ...
        def __and__(self, other: Operand, /) -> Array: ...
        def __rand__(self, other: Operand, /) -> Array: ...
        def __iand__(self, other: Operand, /) -> Array: ...
        def __or__(self, other: Operand, /) -> Array: ...
        def __ror__(self, other: Operand, /) -> Array: ...
        def __ior__(self, other: Operand, /) -> Array: ...
        def __xor__(self, other: Operand, /) -> Array: ...
        def __rxor__(self, other: Operand, /) -> Array: ...
        def __ixor__(self, other: Operand, /) -> Array: ...
        def __lshift__(self, other: Operand, /) -> Array: ...
        def __rlshift__(self, other: Operand, /) -> Array: ...
        def __ilshift__(self, other: Operand, /) -> Array: ...
        def __rshift__(self, other: Operand, /) -> Array: ...
        def __rrshift__(self, other: Operand, /) -> Array: ...
        def __irshift__(self, other: Operand, /) -> Array: ...

    # -- attributes ---------------------------------------------------------------------

    @property
    def dtype(self) -> DType:
        """The data type, one of xpgpu's dtype singletons. See https://data-apis.org/array-api/2025.12/API_specification/generated/array_api.array.dtype.html"""
        return self._dtype

    @property
    def device(self) -> Device:
        """The device the array lives on. See https://data-apis.org/array-api/2025.12/API_specification/generated/array_api.array.device.html"""
        return self._device

    @property
    def ndim(self) -> int:
        """The number of dimensions. See https://data-apis.org/array-api/2025.12/API_specification/generated/array_api.array.ndim.html"""
        return self._data.ndim  # type: ignore[no-any-return]

    @property
    def shape(self) -> tuple[int, ...]:
        """The shape, a tuple of ints. See https://data-apis.org/array-api/2025.12/API_specification/generated/array_api.array.shape.html"""
        return self._data.shape  # type: ignore[no-any-return]

    @property
    def size(self) -> int:
        """The number of elements. See https://data-apis.org/array-api/2025.12/API_specification/generated/array_api.array.size.html"""
        return self._data.size  # type: ignore[no-any-return]

    @property
    def T(self) -> Array:
        """The transpose of a 2-D array. See https://data-apis.org/array-api/2025.12/API_specification/generated/array_api.array.T.html"""
        if self._data.ndim != 2:
            v.fail("Array.T", f"requires a 2-D array, got {self._data.ndim}-D; "
                              "use matrix_transpose() or permute_dims()", ValueError)
        return wrap(self._data.T, self._dtype, self._device)

    @property
    def mT(self) -> Array:
        """The transpose of each matrix in a stack (the last two axes). See https://data-apis.org/array-api/2025.12/API_specification/generated/array_api.array.mT.html"""
        if self._data.ndim < 2:
            v.fail("Array.mT", f"requires at least 2 dimensions, got {self._data.ndim}; use "
                              "expand_dims() or reshape() first",
                   ValueError)
        return wrap(self._data.swapaxes(-1, -2), self._dtype, self._device)

    def __array_namespace__(self, /, *, api_version: str | None = None) -> ModuleType:
        """The xpgpu namespace; ``api_version`` must be the selected revision or an older
        supported one (the namespace keeps their code working). See https://data-apis.org/array-api/2025.12/API_specification/generated/array_api.array.__array_namespace__.html"""
        if api_version is not None:
            _version.check_requested("__array_namespace__", api_version)
        return sys.modules["xpgpu"]

    # -- conversions to Python scalars --------------------------------------------------

    def _scalar(self, func: str, kinds: frozenset[DType]) -> Any:
        # Note: the standard converts zero-dimensional arrays only; NumPy also takes
        # arrays of one element (deprecated there since NumPy 1.25).
        if self._data.ndim != 0:
            v.fail(func, f"only zero-dimensional arrays convert to Python scalars, got "
                         f"shape {self._data.shape}; use reshape(x, ()) for one element")
        if self._dtype not in kinds:
            v.fail(func, f"not defined for dtype {self._dtype.name}; use real(x) or imag(x) first")
        return self._data.item()  # on CUDA: one synchronising copy of one element

    def __bool__(self) -> bool:
        """A zero-dimensional array as a Python bool. See https://data-apis.org/array-api/2025.12/API_specification/generated/array_api.array.__bool__.html"""
        return bool(self._scalar("__bool__", _ALL_KINDS))

    def __complex__(self) -> complex:
        """A zero-dimensional array as a Python complex. See https://data-apis.org/array-api/2025.12/API_specification/generated/array_api.array.__complex__.html"""
        return complex(self._scalar("__complex__", _ALL_KINDS))

    def __float__(self) -> float:
        """A zero-dimensional real array as a Python float. See https://data-apis.org/array-api/2025.12/API_specification/generated/array_api.array.__float__.html"""
        return float(self._scalar("__float__", _REAL_KINDS))

    def __int__(self) -> int:
        """A zero-dimensional real array as a Python int. See https://data-apis.org/array-api/2025.12/API_specification/generated/array_api.array.__int__.html"""
        value = self._scalar("__int__", _REAL_KINDS)
        try:
            return int(value)
        except (ValueError, OverflowError) as e:
            raise type(e)(f"__int__: cannot convert {value} to int") from None

    def __index__(self) -> int:
        """A zero-dimensional integer array as a Python int, for indexing. See https://data-apis.org/array-api/2025.12/API_specification/generated/array_api.array.__index__.html"""
        if self._dtype not in _INDEX_KINDS:
            v.fail("__index__", f"only integer arrays can be used as an index, "
                                f"not dtype {self._dtype.name}; use astype(x, xpgpu.int64)")
        return int(self._scalar("__index__", _INDEX_KINDS))

    def __iter__(self) -> Iterator[Array]:
        """The elements of a 1-D array, as 0-d arrays; for more dimensions use unstack().
        Not in the standard."""
        # Note: not in the standard, which leaves iteration unspecified; Python would iterate
        # through __getitem__ with ints, which refuses them beyond 1-D, so only 1-D iterates.
        if self._data.ndim != 1:
            v.fail("__iter__", f"only 1-D arrays can be iterated, got {self._data.ndim}-D; "
                               "use unstack()")
        data, dtype, device = self._data, self._dtype, self._device
        return (wrap(data[i], dtype, device) for i in range(data.shape[0]))

    # -- devices ------------------------------------------------------------------------

    def to_device(self, device: DeviceArg, /, *, stream: Any = None) -> Array:
        """The array on ``device``: ``self`` when it is already there, else a copy. See https://data-apis.org/array-api/2025.12/API_specification/generated/array_api.array.to_device.html"""
        target = v.device_arg("to_device", device)
        if stream is not None and self._device is CPU and target is CPU:
            v.fail("to_device", f"stream must be None between cpu arrays, got {stream!r}; "
                                  "use stream=None",
                   ValueError)
        if target is self._device:
            return self
        # Note: copies run on the current stream of the CUDA device (a copy to the host is
        # complete on return); a stream argument is accepted (the standard allows ignoring
        # it).
        return wrap(transfer(self._data, self._device, target), self._dtype, target)

    def __array__(self, dtype: Any = None, copy: bool | None = None) -> Any:
        """The data as a NumPy array, for ``numpy.asarray(x)``: cpu arrays only (move a
        CUDA array with ``x.to_device("cpu")`` first). Not in the standard."""
        # Note: __array__ is not in the standard. NumPy calls it in numpy.asarray(x), which
        # without it silently builds a 0-d object array; on the CPU it returns the data, on
        # CUDA it raises, as CuPy does, so no device array reaches NumPy implicitly.
        if self._device is not CPU:
            v.fail("__array__", f"implicit conversion of a {self._device} array to NumPy is "
                                "not allowed; use x.to_device('cpu') or numpy.from_dlpack(x, "
                                "device='cpu'), or the permissive profile "
                                "(xpgpu.set_strict(False)), where NumPy code copies it to the "
                                "host with a warning")
        if copy is not None and copy is not True and copy is not False:
            v.bad_bool("__array__", copy, "copy", none=True)
        try:
            return CPU.backend.adapter.asarray_host(self._data, dtype, copy)
        except TypeError:  # not a dtype
            v.fail("__array__", f"dtype must be None or a NumPy dtype, not {dtype!r}; use "
                                "numpy.float64, say")
        except ValueError:  # copy=False needing a copy
            v.fail("__array__", f"copy=False, but converting to dtype {dtype} needs a copy; "
                                "use copy=None", ValueError)

    # -- representation and pickling ----------------------------------------------------

    def __repr__(self) -> str:
        data = self._data
        backend = self._device.backend
        body = format_body(data, backend, None if self._device is CPU else backend.adapter.to_host)
        shape = f", shape={data.shape}" if data.size == 0 and data.ndim > 1 else ""
        suffix = "" if self._device is CPU else f", device='{self._device}'"
        return f"xpgpu.Array({body}{shape}, dtype={self._dtype.name}{suffix})"

    __str__ = __repr__

    def __format__(self, format_spec: str, /) -> str:
        """``format(x, spec)``: a zero-dimensional array formats as its Python scalar (as
        NumPy's do); an empty spec gives ``str(x)``. Not in the standard."""
        # Note: not in the standard. NumPy formats a 0-d array with its scalar's spec
        # (SciPy's tests format tolerances that way) and refuses a spec for larger arrays.
        if not format_spec:
            return str(self)
        if self._data.ndim != 0:
            v.fail("__format__", f"only zero-dimensional arrays take a format spec, got "
                                 f"shape {self._data.shape}; format the elements one at a "
                                 "time, or use format(x) with no spec")
        # On CUDA: one synchronising copy of one element.
        return format(self._data.item(), format_spec)

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        """Pickle as host bytes. A cpu array unpickles on the cpu; a CUDA array on the
        receiving process's default device (its GPU when it has one, e.g. the one GPU that
        CUDA_VISIBLE_DEVICES or XPGPU_DEFAULT_DEVICE gives a worker; the cpu when it has
        none), not on the sender's cuda:N, which another process may not have or may number
        differently. copy.copy and copy.deepcopy keep the device."""
        data = self._data if self._device is CPU else self._device.backend.adapter.to_host(
            self._data)
        return _unpickle, (data, self._dtype.name, str(self._device))

    def __copy__(self) -> Array:
        """A copy on the same device."""
        return wrap(self._device.backend.copy(self._data), self._dtype, self._device)

    def __deepcopy__(self, memo: Any, /) -> Array:
        return self.__copy__()


def format_body(data: Any, backend: Any, to_host: Any = None) -> str:
    """The text of ``data`` as NumPy's array2string writes it, with NumPy's print options,
    moving only what it shows to the host (``to_host``; None on the CPU): an array
    beyond the print threshold is cut on its device to its edge items (see edges())."""
    host = CPU.backend
    options = host.get_printoptions()
    threshold = None
    # Note: with edgeitems=0 NumPy still prints the last element and formats numbers
    # from the whole array (a[-0:]), and legacy modes summarise differently: those copy all.
    if (data.size > options["threshold"] and options["edgeitems"] > 0
            and options["legacy"] is False):
        data = edges(data, backend, options["edgeitems"])
        threshold = 0  # summarise the cut array as the whole one would be
    if to_host is not None:
        data = to_host(data)
    return host.array2string(data, separator=", ", prefix="xpgpu.Array(",  # type: ignore[no-any-return]
                             threshold=threshold)


def edges(data: Any, backend: Any, edgeitems: int) -> Any:
    """What array2string shows of a summarised array, cut on its device: along each axis
    longer than ``2 * edgeitems``, the first and last ``edgeitems`` elements and one
    element between them, which array2string elides again as "..."; it chooses the
    number format from the edge items only, so the text is that of the whole array."""
    for axis, n in enumerate(data.shape):
        if n > 2 * edgeitems:
            every = [slice(None)] * axis
            head = tuple([*every, slice(0, edgeitems + 1)])
            tail = tuple([*every, slice(n - edgeitems, n)])
            data = backend.concat([data[head], data[tail]], axis=axis)
    return data


_ALL_KINDS = frozenset(FROM_NP.values())
_REAL_KINDS = KINDS["bool"] | KINDS["integral"] | KINDS["real floating"]
_INDEX_KINDS = KINDS["integral"]


# The compiled fast paths (_speedups.c), where they were built and XPGPU_PURE_PYTHON is
# unset; _elementwise sets them up. Each hands every call it does not take, untouched, to
# the Python function it wraps: the definition.
speedups: Any = None
if not os.environ.get("XPGPU_PURE_PYTHON"):
    try:
        from . import _speedups as speedups  # type: ignore[attr-defined, no-redef]
    except ImportError:
        pass
if speedups is not None:
    # Note: where the module is built, Array is the class above made again as a C type,
    # with the same attributes: its instances cost less to make and free (no garbage
    # collection, a free list); a Python class's instance was two thirds of what a view
    # cost above the backend's.
    Array = speedups.array_class(Array)  # type: ignore[misc]

_F = TypeVar("_F", bound=Callable[..., Any])
GETITEM, RESHAPE, PERMUTE = 0, 1, 2


def compiled_view(func: _F, kind: int, name: str = "", mask: DType | None = None) -> _F:
    """``func`` (``Array.__getitem__``, ``reshape`` or ``permute_dims``: ``kind``) with its
    fast path in C, where it was built; ``name``: the ndarray method that the backends'
    function of that name calls (``_backend.method``); ``mask``: the dtype of the masks
    ``__getitem__`` takes (bool)."""
    return func if speedups is None else speedups.view(func, kind, name, mask)  # type: ignore[no-any-return]


def _wrap(data: Any, dtype: DType, device: Device) -> Array:
    """Wrap backend data whose dtype is ``dtype`` (the callers guarantee it)."""
    a = _object_new(Array)
    a._data = data
    a._dtype = dtype
    a._device = device
    return a


# The same in C where it was built (~0.1 µs a call less; the layout comes from
# _elementwise's setup, before any array is made).
wrap: Callable[[Any, DType, Device], Array] = _wrap if speedups is None else speedups.wrap


def wrap_checked(func: str, data: Any, device: Device, expected: DType | None = None) -> Array:
    """Wrap backend data, reading its dtype; an internal error when the backend
    returned another dtype than the standard's (``expected``)."""
    if type(data) is not device.backend.ndarray:
        data = device.backend.asarray(data)  # NumPy returns scalars from 0-d operations
    dtype = FROM_NP.get(data.dtype)
    if dtype is None or (expected is not None and dtype is not expected):
        raise RuntimeError(
            f"{func}: internal error: the {device.backend.name} backend returned dtype "
            f"{data.dtype}, expected {expected.name if expected else 'a standard dtype'}; "
            "please report this"
        )
    return wrap(data, dtype, device)


def transfer(data: Any, source: Device, target: Device) -> Any:
    """Backend data of ``source`` as backend data of ``target`` (a copy across devices;
    between two CUDA devices a peer copy that does not pass through the host)."""
    if source is target:
        return data
    if target is CPU:
        return source.backend.adapter.to_host(data)
    if source is CPU:
        return target.backend.adapter.from_host(data, target.index)
    return target.backend.adapter.to_other_device(data, target.index)


def _unpickle(data: Any, dtype_name: str, device_name: str) -> Array:
    device = CPU if device_name == "cpu" else default_device()
    host = CPU.backend.asarray(data)
    return wrap_checked("unpickle", transfer(host, CPU, device), device, FROM_NP[host.dtype])


def array_arg(func: str, x: object, name: str = "x",
              allowed: frozenset[DType] | None = None) -> Array:
    """``x`` if it is an Array (of an ``allowed`` dtype), else the standard's TypeError."""
    if type(x) is not Array:
        v.not_an_array(func, x, name)
    if allowed is not None and x._dtype not in allowed:  # type: ignore[attr-defined]
        v.bad_dtype(func, x._dtype, allowed, name)  # type: ignore[attr-defined]
    return x  # type: ignore[return-value]


def promote_arrays(func: str, allowed: frozenset[DType], *arrays: object) -> tuple[DType, Device]:
    """The promoted dtype and common device of arrays of ``allowed`` dtypes."""
    xs = [array_arg(func, x, f"x{i + 1}" if len(arrays) > 1 else "x", allowed)
          for i, x in enumerate(arrays)]
    device = v.common_device(func, [x._device for x in xs])
    dtype = xs[0]._dtype
    for x in xs[1:]:
        promoted = PROMOTION.get((dtype, x._dtype))
        if promoted is None:
            v.no_promotion(func, dtype, x._dtype)
        dtype = promoted
    return dtype, device
