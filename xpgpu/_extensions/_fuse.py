"""fuse: an element-wise function as one CUDA kernel, with eager semantics.

An extension beyond the standard; see docs/fuse.md.

``xpgpu.fuse(func)`` (or ``@xpgpu.fuse()``) returns a callable. On CUDA arrays it traces
``func`` once per signature (array dtypes and ndims, Python scalar types, the values of
the scalars ``func`` reads from its closure and globals, and any other argument by
value) and runs it as one ``ElementwiseKernel``; Python scalar arguments are kernel
arguments, so new values compile nothing. On the CPU it simply calls ``func``. Either
way the result is the eager one: same dtypes, same errors, same bits.
"""

from __future__ import annotations

import functools
import sys
import types
from collections.abc import Callable
from typing import Any

from .. import _backend, _profile
from .. import _validate as v
from .._array import Array, wrap
from .._devices import CPU, Device
from .._dtypes import DType
from .._scalars import scalar_type
from . import _fuse_trace as tr

_SCALARS = frozenset({bool, int, float, complex})
_EMPTY = object()


def fuse(func: Callable[..., Any] | None = None, /, *,
         kernel_name: str | None = None) -> Any:
    """Fuse an element-wise function into one kernel: ``fuse(f)``, ``@fuse`` or
    ``@fuse(kernel_name=...)``. An xpgpu extension; see docs/fuse.md."""
    if func is None:
        return functools.partial(fuse, kernel_name=kernel_name)
    if not callable(func):
        v.fail("fuse", f"expected a function, got {type(func).__name__}")
    if kernel_name is not None and not isinstance(kernel_name, str):
        v.fail("fuse", f"kernel_name must be a str, not {type(kernel_name).__name__}")
    return Fused(func, kernel_name)


def _const_key(value: Any) -> Any:
    """A cache-key part for a value a function reads from its closure or globals:
    scalars and dtypes by value (telling 0.0 from -0.0), anything else by identity."""
    t = type(value)
    if t in _SCALARS:
        return tr._const_key(value)
    if t is DType:
        return value
    return (t, id(value))


def _cell(cell: Any) -> Any:
    try:
        return cell.cell_contents
    except ValueError:
        return _EMPTY


def _static(label: str, value: Any) -> Any:
    try:
        hash(value)
    except TypeError:
        v.fail(label, f"an argument of type {type(value).__name__} is neither an xpgpu array, "
                      "a Python scalar nor hashable; fuse cannot key its kernels on it")
    return (type(value), value)


def _python_function(func: Any) -> types.FunctionType | None:
    while True:
        if isinstance(func, types.FunctionType):
            return func
        if isinstance(func, types.MethodType):
            func = func.__func__
        elif isinstance(func, functools.partial):
            func = func.func
        else:
            return None


_namespace: tuple[types.ModuleType, dict[int, Any]] | None = None
# The swaps of every profile seen: a function imported in one profile (``from xpgpu import
# sin``) keeps its tracing counterpart after xpgpu.set_strict() rebinds the namespace (both
# profiles' functions live as long as the process, so their ids stay theirs).
_swaps_seen: dict[int, Any] = {}


def _tracing_namespace() -> tuple[types.ModuleType, dict[int, Any]]:
    global _namespace
    if _namespace is None:
        ns, swaps = tr.make_namespace(sys.modules["xpgpu"])
        _swaps_seen.update(swaps)
        _namespace = ns, {**_swaps_seen, **swaps}
    return _namespace


def _profile_switched(strict: bool) -> None:
    """The namespace changed its functions: trace with the new ones from now on."""
    global _namespace
    _namespace = None


_profile.on_switch(_profile_switched)


class Fused:
    """A fused function: call it like the function. ``source(*args)`` gives the CUDA code
    for a signature and ``cache_info()`` what has been traced and built."""

    def __init__(self, func: Callable[..., Any], kernel_name: str | None):
        functools.update_wrapper(self, func)
        self.func = func
        self.kernel_name = kernel_name or getattr(func, "__name__", None) or "fused"
        self._label = f"fuse({getattr(func, '__name__', 'function')})"
        self._cache: dict[Any, _Entry] = {}
        self.traces = 0
        inner = _python_function(func)
        self._globals = inner.__globals__ if inner is not None else {}
        self._names = tuple(sorted(tr._names(inner.__code__))) if inner is not None else ()
        self._cells = (inner.__closure__ or ()) if inner is not None else ()

    def __repr__(self) -> str:
        return f"<xpgpu.fuse of {self.func!r}>"

    def __get__(self, obj: Any, objtype: Any = None) -> Any:
        return self if obj is None else types.MethodType(self, obj)

    def cache_info(self) -> dict[str, int]:
        """How many signatures are cached, traces were run and kernels were built."""
        return {"signatures": len(self._cache), "traces": self.traces,
                "kernels": sum(len(e.kernels or ()) for e in self._cache.values())}

    def _signature(self, args: tuple[Any, ...]) -> tuple[Device | None, Any]:
        device = None
        sig: list[Any] = []
        for a in args:
            t = type(a)
            if t is Array:
                d = a._device
                if device is None:
                    device = d
                elif d is not device:
                    v.mismatch(self._label, device, d)
                sig.append((a._dtype, a._data.ndim))
            elif t in _SCALARS:
                sig.append(t)
            else:
                st = scalar_type(a)
                sig.append(st if st is not None else _static(self._label, a))
        g = self._globals
        constants = (tuple(_const_key(g.get(n, _EMPTY)) for n in self._names)
                     + tuple(_const_key(_cell(c)) for c in self._cells))
        return device, (device, tuple(sig), constants)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if kwargs:
            v.fail(self._label, "keyword arguments are not supported; pass "
                                f"{', '.join(kwargs)} positionally")
        for a in args:
            if type(a) is tr.Tracer or type(a) is tr.Scalar:
                return self._inline(a._graph, args)  # a fused function called inside one
        device, key = self._signature(args)
        if device is None or device is CPU:
            return self.func(*args)  # the CPU, or no array at all: eager
        entry = self._cache.get(key)
        if entry is None:
            entry = self._cache[key] = self._trace(args, device)
        return entry.run(self, key, args)

    def _inline(self, graph: tr.Graph, args: tuple[Any, ...]) -> Any:
        return tr.rebind(self.func, _tracing_namespace()[1])(*args)

    def _trace(self, args: tuple[Any, ...], device: Device) -> _Entry:
        namespace, swaps = _tracing_namespace()
        graph = tr.Graph(self._label, device, namespace)
        proxies: list[Any] = []
        scalar_args: list[int] = []
        for i, a in enumerate(args):
            if type(a) is Array:
                graph.arrays.append((i, None))
                node = graph.add("array", (), a._dtype, len(graph.arrays) - 1)
                proxies.append(tr.Tracer(graph, node, a._data.ndim, a))
            elif scalar_type(a) is not None:
                graph.slot_types.append(scalar_type(a))  # type: ignore[arg-type]
                proxies.append(tr.Scalar(graph, len(scalar_args), a))
                scalar_args.append(i)
            else:
                proxies.append(a)
        result = tr.rebind(self.func, swaps)(*proxies)
        self.traces += 1
        return _Entry(self, graph, result, scalar_args)

    def source(self, *args: Any) -> str:
        """The generated CUDA code for the signature of ``args`` (arrays on any device;
        CuPy must be importable): the ``ElementwiseKernel`` parts of each kernel."""
        device = self._signature(args)[0]
        entry = self._trace(args, device or CPU)
        return "\n".join(k.source() for k, _ in entry.build(self))

    def standalone_sources(self, *args: Any) -> list[tuple[str, str]]:
        """(kernel name, a self-contained CUDA translation unit) for each kernel of the
        signature of ``args``: the operation wrapped by hand in a ``__global__`` loop,
        for syntax checks with nvcc."""
        device = self._signature(args)[0]
        entry = self._trace(args, device or CPU)
        return [(k.name, k.standalone()) for k, _ in entry.build(self)]


def _live_arrays(nodes: list[tr.Node], node: int) -> frozenset[int]:
    seen: set[int] = set()
    arrays: set[int] = set()
    stack = [node]
    while stack:
        i = stack.pop()
        if i not in seen:
            seen.add(i)
            if nodes[i].op == "array":
                arrays.add(nodes[i].data)
            stack.extend(nodes[i].args)
    return frozenset(arrays)


class _Entry:
    """A traced signature: the host scalar recipe, the kernels, the result's structure."""

    def __init__(self, owner: Fused, graph: tr.Graph, result: Any, scalar_args: list[int]):
        self.graph = graph
        self.scalar_args = scalar_args
        self.slot_types = tuple(graph.slot_types)
        self.structure = self._structure(owner, result)
        self.kernels: list[tuple[Any, list[int]]] | None = None  # built on first use
        self.host_scalar: Callable[[Any, Any], Any] | None = None

    def build(self, owner: Fused) -> list[tuple[Any, list[int]]]:
        """The kernels: outputs grouped by the arrays they depend on, since each group
        has its own broadcast shape (usually there is one group)."""
        graph = self.graph
        groups: dict[Any, list[int]] = {}
        for kind, node in self._leaves():
            if kind == "kernel" and all(node not in g for g in groups.values()):
                # A sum is a kernel of its own (a reduction); the rest group by arrays.
                reduction = node if graph.nodes[node].op == "sum" else None
                groups.setdefault((_live_arrays(graph.nodes, node), reduction),
                                  []).append(node)
        kernels = []
        if groups:
            from .._backend import _cupy_fuse  # cold path: only when building kernels

            self.host_scalar = _cupy_fuse.host_scalar
            backend = graph.device.backend if graph.device is not CPU else _backend.get("cuda")
            for k, outputs in enumerate(groups.values()):
                name = owner.kernel_name if len(groups) == 1 else f"{owner.kernel_name}_{k}"
                kernel = _cupy_fuse.build(graph, outputs, f"xpgpu_fused_{name}", backend)
                kernels.append((kernel, outputs))
        self.kernels = kernels
        return kernels

    def _leaf(self, owner: Fused, x: Any) -> tuple[str, Any]:
        graph = self.graph
        t = type(x)
        if t is tr.Tracer:
            if x._graph is not graph:
                v.fail(owner._label, "returned a traced array of another fused call")
            node = graph.nodes[x._node]
            return ("array", node.data) if node.op == "array" else ("kernel", x._node)
        if t is tr.Scalar:
            return "slot", x._slot
        if t is Array:
            v.fail(owner._label, "returned an xpgpu array captured from a closure or a "
                                 "global; pass it to the fused function as an argument")
        return "value", x

    def _structure(self, owner: Fused, result: Any) -> Any:
        if type(result) in (tuple, list):
            return type(result), [self._leaf(owner, x) for x in result]
        return None, self._leaf(owner, result)

    def _leaves(self) -> list[tuple[str, Any]]:
        kind, leaves = self.structure
        return leaves if kind is not None else [leaves]  # type: ignore[no-any-return]

    def run(self, owner: Fused, key: Any, args: tuple[Any, ...]) -> Any:
        graph = self.graph
        values = [args[i] for i in self.scalar_args]
        for fn, refs in graph.recipes:
            values.append(fn(*[r.value if type(r) is tr.Lit else values[r] for r in refs]))
        if graph.recipes and tuple(map(scalar_type, values)) != self.slot_types:
            # A Python computation changed type with the values (2 ** -1 is a float):
            # trace again for these values.
            entry = owner._cache[key] = owner._trace(args, graph.device)
            return entry.run(owner, key, args)
        device = graph.device
        arrays = [args[i] if index is None else args[i][index] for i, index in graph.arrays]
        results: dict[int, Array] = {}
        kernels = self.kernels if self.kernels is not None else self.build(owner)
        if kernels:
            scalars = []
            checks = graph.checks
            for j, (slot, dtype, func) in enumerate(graph.scalars):
                x = values[slot]
                if j in checks:
                    v.scalar_result(func, dtype, x)  # an out-of-range int: OverflowError
                scalars.append(self.host_scalar(x, dtype.dtype))  # type: ignore[misc]
            for kernel, outputs in kernels:
                try:
                    out = kernel(device.index, [arrays[j]._data for j in kernel.array_params],
                                 [scalars[j] for j in kernel.scalar_params])
                except ValueError:  # shapes that do not broadcast
                    shapes = ", ".join(str(arrays[j].shape) for j in kernel.array_params)
                    v.fail(owner._label, f"the arguments' shapes {shapes} cannot be broadcast "
                                         "together; use reshape() or expand_dims() to line "
                                         "them up", ValueError)
                if len(outputs) == 1:
                    out = (out,)
                for node, data in zip(outputs, out, strict=True):
                    results[node] = wrap(data, graph.nodes[node].dtype, device)
        kind, leaves = self.structure
        if kind is None:
            return self._value(leaves, arrays, values, results)
        return kind(self._value(leaf, arrays, values, results) for leaf in leaves)

    @staticmethod
    def _value(leaf: tuple[str, Any], arrays: list[Array], values: list[Any],
               results: dict[int, Array]) -> Any:
        what, x = leaf
        if what == "kernel":
            return results[x]
        if what == "array":
            return arrays[x]
        if what == "slot":
            return values[x]
        return x
