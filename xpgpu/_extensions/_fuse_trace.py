"""fuse, tracing: proxies for arrays and Python scalars, a tracing namespace, the graph.

A fused function is called once per signature with proxies: ``Tracer`` for each array
argument and ``Scalar`` for each Python scalar argument, with its globals and closure
rebound so that the name of the xpgpu module (and of any xpgpu function imported by
name) points to a tracing namespace. The namespace's functions judge dtypes, Python
scalars and errors with the same tables and validators as the eager functions
(``_elementwise``, ``_scalars``, ``_validate``) and record a graph; ``where`` and
``astype`` run the eager function itself on 0-d host stand-ins, so their rules are never
restated here. The eager functions themselves are untouched: no per-call mode flag.
"""

from __future__ import annotations

import operator
import types
import warnings
from collections.abc import Callable
from typing import Any, NoReturn

from .. import _validate as v
from .._array import Array, wrap
from .._devices import CPU, Device
from .._dtypes import ALL, CATEGORIES, KINDS, PROMOTE, DType, bool_
from .._elementwise import (
    _INTEGER_PASSTHROUGH,
    _RESULT,
    TABLE,
    _fail_arrays,
    _no_array,
    _with_scalar,
)
from .._operators import OPERATORS
from .._scalars import INT_BOUNDS, SCALAR_RESULT, scalar_type

_INTEGRAL = KINDS["integral"]
_PY_SCALARS = (bool, int, float, complex)


class Node:
    """One value of the kernel. ``op`` is one of: ``array`` (data: array parameter index),
    ``scalar`` (data: scalar parameter index), ``const`` (data: the Python value),
    ``cast``, ``call`` (data: the standard's function name), ``where``, ``real``, ``imag``,
    ``sum`` (data: (axes or None, keepdims); only as a result).
    ``args`` are node indices; ``dtype`` the value's dtype."""

    __slots__ = ("args", "data", "dtype", "op")

    def __init__(self, op: str, args: tuple[int, ...], dtype: DType, data: Any = None):
        self.op, self.args, self.dtype, self.data = op, args, dtype, data

    def __repr__(self) -> str:
        return f"Node({self.op}, {self.args}, {self.dtype.name}, {self.data!r})"


class Lit:
    """A Python constant inside a host scalar recipe."""

    __slots__ = ("value",)

    def __init__(self, value: Any):
        self.value = value


class Graph:
    """What a trace records.

    ``arrays``: the kernel's array parameters, each ``(argument index, index key or None)``
    (a key is a view taken of the argument before the launch). ``recipes``: host-side
    Python computations on scalar arguments, ``(function, refs)``; a ref is a slot number
    (the scalar arguments come first, in order) or a ``Lit``. ``scalars``: the kernel's
    scalar parameters, ``(slot, dtype, function name)``; ``checks``: the scalar parameters
    whose Python ints must fit their integer dtype (checked on every call).
    """

    def __init__(self, name: str, device: Device, namespace: types.ModuleType):
        self.name = name
        self.device = device
        self.nodes: list[Node] = []
        self.arrays: list[tuple[int, Any]] = []
        self.recipes: list[tuple[Callable[..., Any], tuple[Any, ...]]] = []
        self.scalars: list[tuple[int, DType, str]] = []
        self.checks: list[int] = []
        self.slot_types: list[type] = []
        self._memo: dict[Any, int] = {}
        self._scalar_params: dict[tuple[int, DType], int] = {}
        self.namespace = namespace

    def add(self, op: str, args: tuple[int, ...], dtype: DType, data: Any = None) -> int:
        for a in args:
            if self.nodes[a].op == "sum":
                v.fail(self.name, "the result of sum is fusible only as the fused function's "
                                  "result (one reduction at the end); compute with it outside")
        key = (op, args, dtype, data if op != "const" else _const_key(data))
        found = self._memo.get(key)
        if found is not None:
            return found  # common subexpressions are computed once
        self.nodes.append(Node(op, args, dtype, data))
        self._memo[key] = len(self.nodes) - 1
        return len(self.nodes) - 1

    def cast(self, node: int, dtype: DType) -> int:
        return node if self.nodes[node].dtype is dtype else self.add("cast", (node,), dtype)

    def scalar_param(self, slot: int, dtype: DType, func: str) -> int:
        key = (slot, dtype)
        index = self._scalar_params.get(key)
        if index is None:
            index = self._scalar_params[key] = len(self.scalars)
            self.scalars.append((slot, dtype, func))
            if self.slot_types[slot] is int and dtype in _INTEGRAL:
                self.checks.append(index)
        return self.add("scalar", (), dtype, index)


def _const_key(value: Any) -> Any:
    """A hashable key telling apart every constant (0.0 from -0.0, and nan equal to nan)."""
    t = type(value)
    if t is float:
        return (t, value.hex())
    if t is complex:
        return (t, value.real.hex(), value.imag.hex())
    return (t, value)


# ---- Python scalar arguments --------------------------------------------------------

class Scalar:
    """A Python scalar argument (or a Python computation on some) during tracing: the
    computation is replayed on the host at every call, with Python's own semantics."""

    __slots__ = ("_graph", "_slot", "_value")
    __hash__ = None  # type: ignore[assignment]

    def __init__(self, graph: Graph, slot: int, value: Any):
        self._graph, self._slot, self._value = graph, slot, value

    def __repr__(self) -> str:
        return f"<fuse: traced Python {type(self._value).__name__} argument>"

    def _refuse(self, what: str) -> NoReturn:
        v.fail(self._graph.name, f"{what} of a traced Python scalar argument is not fusible "
                                 "(it would make the kernel depend on the value)")

    def __bool__(self) -> bool:
        return self._refuse("bool()")

    def __int__(self) -> int:
        return self._refuse("int()")

    def __float__(self) -> float:
        return self._refuse("float()")

    def __complex__(self) -> complex:
        return self._refuse("complex()")

    def __index__(self) -> int:
        return self._refuse("using as an index")


def _recipe(fn: Callable[..., Any], *operands: Any) -> Scalar:
    graph = next(o._graph for o in operands if type(o) is Scalar)
    refs = tuple(o._slot if type(o) is Scalar else Lit(o) for o in operands)
    value = fn(*(o._value if type(o) is Scalar else o for o in operands))
    if scalar_type(value) is None:
        v.fail(graph.name, f"a Python computation on traced scalars gave a "
                           f"{type(value).__name__}, which is not fusible")
    graph.recipes.append((fn, refs))
    graph.slot_types.append(scalar_type(value))  # type: ignore[arg-type]
    return Scalar(graph, len(graph.slot_types) - 1, value)


def _scalar_binary(fn: Callable[[Any, Any], Any], reverse: bool) -> Callable[..., Any]:
    def op(self: Scalar, other: Any) -> Any:
        if type(other) is not Scalar and type(other) not in _PY_SCALARS:
            return NotImplemented
        return _recipe(fn, other, self) if reverse else _recipe(fn, self, other)
    return op


for _name in ("add", "sub", "mul", "truediv", "floordiv", "mod", "pow", "and", "or", "xor",
              "lshift", "rshift"):
    _fn = getattr(operator, _name + "_" if _name in ("and", "or") else _name)
    setattr(Scalar, f"__{_name}__", _scalar_binary(_fn, False))
    setattr(Scalar, f"__r{_name}__", _scalar_binary(_fn, True))
for _name in ("eq", "ne", "lt", "le", "gt", "ge"):
    setattr(Scalar, f"__{_name}__", _scalar_binary(getattr(operator, _name), False))
def _scalar_unary(fn: Callable[[Any], Any]) -> Callable[[Scalar], Scalar]:
    return lambda self: _recipe(fn, self)


for _name in ("neg", "pos", "abs", "invert"):
    setattr(Scalar, f"__{_name}__", _scalar_unary(getattr(operator, _name)))


# ---- array proxies ------------------------------------------------------------------

def _refused_attribute(attr: str) -> property:
    """A property of ``Tracer`` that is not fusible (it would depend on the shape)."""
    def get(self: Tracer) -> NoReturn:
        self._refuse(f"x.{attr}")
    return property(get)


class Tracer:
    """An array inside a fused function: records operations instead of computing."""

    __slots__ = ("_arg", "_graph", "_ndim", "_node")
    __hash__ = None  # type: ignore[assignment]

    def __init__(self, graph: Graph, node: int, ndim: int, arg: Array | None = None):
        self._graph, self._node, self._ndim, self._arg = graph, node, ndim, arg

    @property
    def dtype(self) -> DType:
        return self._graph.nodes[self._node].dtype

    @property
    def ndim(self) -> int:
        return self._ndim

    @property
    def device(self) -> Device:
        return self._graph.device

    def __repr__(self) -> str:
        return f"<fuse: traced array, dtype={self.dtype.name}, ndim={self._ndim}>"

    def __array_namespace__(self, /, *, api_version: str | None = None) -> Any:
        return self._graph.namespace

    def _refuse(self, what: str) -> NoReturn:
        v.fail(self._graph.name, f"{what} of a traced array is not fusible; "
                                 "compute it outside the fused function")

    def __getitem__(self, key: Any) -> Tracer:
        return _view(self, key)

    shape = _refused_attribute("shape")
    size = _refused_attribute("size")
    T = _refused_attribute("T")
    mT = _refused_attribute("mT")


# What a traced array refuses (its values, Python control flow on them, and what would need
# its shape or another kernel): the method, and what the message calls it.
_REFUSED = {
    "__setitem__": "assigning to an element (__setitem__)",
    "__bool__": "bool() (data-dependent Python control flow)",
    "__int__": "int()", "__float__": "float()", "__complex__": "complex()",
    "__index__": "using as an index (__index__)", "__len__": "len()",
    "__iter__": "iterating over", "__matmul__": "matmul (@)", "__rmatmul__": "matmul (@)",
    "__imatmul__": "matmul (@)", "__dlpack__": "__dlpack__", "to_device": "to_device()",
}


def _refused_method(what: str) -> Callable[..., NoReturn]:
    def method(self: Tracer, *args: Any, **kwargs: Any) -> NoReturn:
        self._refuse(what)
    return method


for _name, _what in _REFUSED.items():
    setattr(Tracer, _name, _refused_method(_what))


def _view(x: Tracer, key: Any) -> Tracer:
    """A view of an input argument (slices, integers, None, ...): taken before the launch."""
    graph = x._graph
    if x._arg is None or graph.nodes[x._node].op != "array":
        x._refuse("indexing (other than a view of an argument)")
    keys = key if isinstance(key, tuple) else (key,)
    for k in keys:
        if type(k) in (Tracer, Array, Scalar) or isinstance(k, (list, bool)):
            x._refuse(f"indexing with a {type(k).__name__}")
    arg = x._arg
    # The eager indexing on a zero-stride host stand-in of the argument's shape judges the
    # key and gives the view's ndim; the same eager indexing runs on every call.
    stand_in = wrap(CPU.backend.broadcast_to(CPU.backend.zeros((), dtype=arg._dtype.dtype),
                                             arg._data.shape), arg._dtype, CPU)
    ndim = stand_in[key].ndim
    argument = graph.arrays[graph.nodes[x._node].data][0]
    graph.arrays.append((argument, key))
    node = graph.add("array", (), arg._dtype, len(graph.arrays) - 1)
    return Tracer(graph, node, ndim, None)


def _operand(graph: Graph, func: str, x: Any) -> tuple[str, Any]:
    """Classify an operand: ("tracer", Tracer), ("scalar", value) or raise."""
    t = type(x)
    if t is Tracer:
        if x._graph is not graph:
            v.fail(func, "a traced array of another fused call is not fusible here")
        return "tracer", x
    if t is Scalar or t in _PY_SCALARS or scalar_type(x) is not None:
        return "scalar", x
    if t is Array:
        v.fail(graph.name, f"{func}: an xpgpu array captured from a closure or a global is "
                           "not fusible; pass it to the fused function as an argument")
    return "other", x


def _scalar_node(graph: Graph, x: Any, dtype: DType, func: str) -> int:
    if type(x) is Scalar:
        return graph.scalar_param(x._slot, dtype, func)
    return graph.add("const", (), dtype, scalar_type(x)(x))  # type: ignore[misc]


def _value(x: Any) -> Any:
    return x._value if type(x) is Scalar else x


def _traced_unary(name: str, category: str, rule: str) -> Callable[[Any], Tracer]:
    allowed = CATEGORIES[category]
    result = _RESULT[rule]
    out_of = tuple(result(d) if d in allowed else None for d in ALL)
    passthrough = name in _INTEGER_PASSTHROUGH

    def func(x: Any, /) -> Tracer:
        if type(x) is not Tracer:
            v.not_an_array(name, x)
        graph = x._graph
        dtype = x.dtype
        out = out_of[dtype._i]
        if out is None:
            v.bad_dtype(name, dtype, allowed)
        if passthrough and dtype in _INTEGRAL:
            node = graph.add("cast", (x._node,), dtype)  # eager returns a copy
        elif name in ("real", "imag") and dtype not in KINDS["complex floating"]:
            node = graph.add("cast", (x._node,), out)
        elif name in ("real", "imag"):
            node = graph.add(name, (x._node,), out)
        else:
            node = graph.add("call", (x._node,), out, name)
        return Tracer(graph, node, x._ndim)

    return func


def _traced_binary(name: str, category: str, rule: str) -> Callable[[Any, Any], Tracer]:
    allowed = CATEGORIES[category]
    result = _RESULT[rule]
    scalar_out = {key: result(d) for key, d in SCALAR_RESULT.items()
                  if key[0] in allowed and d in allowed}

    def func(x1: Any, x2: Any, /) -> Tracer:
        graph = _graph_of(name, x1, x2)
        if graph is None:
            _no_array(name, _value(x1), _value(x2))
        k1, a = _operand(graph, name, x1)
        k2, b = _operand(graph, name, x2)
        if k1 == "tracer" and k2 == "tracer":
            p = PROMOTE[a.dtype._i][b.dtype._i]
            if p is None or a.dtype not in allowed or b.dtype not in allowed:
                _fail_arrays(name, allowed, a.dtype, b.dtype)
            args = (graph.cast(a._node, p), graph.cast(b._node, p))
            ndim = max(a._ndim, b._ndim)
        else:
            tracer, scalar = (a, b) if k1 == "tracer" else (b, a)
            if "other" in (k1, k2):
                v.not_an_array(name, scalar, "x2" if tracer is a else "x1")
            dtype, value = tracer.dtype, _value(scalar)
            t = type(value)
            out = scalar_out.get((dtype, t))
            if out is None or (t is int and dtype in INT_BOUNDS and not (
                    INT_BOUNDS[dtype][0] <= value <= INT_BOUNDS[dtype][1])):
                _with_scalar(name, allowed, scalar_out, dtype, value)  # raises, or subclass
            p = SCALAR_RESULT[(dtype, scalar_type(value))]  # type: ignore[index]
            tnode = graph.cast(tracer._node, p)
            snode = _scalar_node(graph, scalar, p, name)
            args = (tnode, snode) if tracer is a else (snode, tnode)
            ndim = tracer._ndim
        out = result(p)
        node = graph.add("call", args, out, name)
        return Tracer(graph, node, ndim)

    return func


# The element-wise functions as seen inside a fused function, by the standard's name.
TRACED: dict[str, Callable[..., Tracer]] = {
    name: (_traced_unary if arity == 1 else _traced_binary)(name, category, rule)
    for name, arity, category, rule in TABLE
}
_OPERAND_TYPES = frozenset({Tracer, Scalar, Array, bool, int, float, complex})


def _is_operand(other: object) -> bool:
    return type(other) in _OPERAND_TYPES or scalar_type(other) is not None


def _operator(dunder: str, name: str, mode: str) -> Callable[..., Any]:
    f = TRACED[name]
    if mode == "unary":
        def unary(self: Tracer, /) -> Any:
            return f(self)
        unary.__name__ = unary.__qualname__ = dunder
        return unary
    if mode == "fwd":
        def op(self: Tracer, other: Any, /) -> Any:
            return f(self, other) if _is_operand(other) else NotImplemented
    elif mode == "rev":
        def op(self: Tracer, other: Any, /) -> Any:
            return f(other, self) if _is_operand(other) else NotImplemented
    else:
        def op(self: Tracer, other: Any, /) -> Any:
            if not _is_operand(other):
                return NotImplemented
            if self._graph.nodes[self._node].op == "array":
                self._refuse(f"the in-place operator {dunder} on an argument")
            result = f(self, other)
            if result.dtype is not self.dtype:
                v.fail(dunder, f"the result dtype {result.dtype.name} differs from the "
                               f"array's {self.dtype.name}; in-place operations keep the dtype")
            return result
    op.__name__ = op.__qualname__ = dunder
    return op


for _dunder, (_fname, _mode) in OPERATORS.items():
    if _fname != "matmul":
        setattr(Tracer, _dunder, _operator(_dunder, _fname, _mode))


def _stand_in(x: Any) -> Any:
    """A 0-d host array of a tracer's dtype, or the value of a scalar, for eager rules."""
    if type(x) is Tracer:
        return wrap(CPU.backend.zeros((), dtype=x.dtype.dtype), x.dtype, CPU)
    return _value(x)


def _eager_rules(func: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return func(*map(_stand_in, args), **kwargs)


def _graph_of(func: str, *args: Any) -> Graph | None:
    """The graph of the first tracer among ``args``; None when there is none (an xpgpu
    array among them is then one captured from outside, which is refused)."""
    for x in args:
        if type(x) is Tracer:
            return x._graph
    for x in args:
        if type(x) is Array:
            v.fail(func, "an xpgpu array captured from a closure or a global is not "
                         "fusible; pass it to the fused function as an argument")
    return None


def _traced_where(eager: Callable[..., Any]) -> Callable[..., Tracer]:
    def where(condition: Any, x1: Any, x2: Any, /) -> Tracer:
        graph = _graph_of("where", condition, x1, x2)
        if graph is None:
            return eager(*map(_value, (condition, x1, x2)))  # type: ignore[no-any-return]
        kinds = [_operand(graph, "where", x)[0] for x in (condition, x1, x2)]
        out = _eager_rules(eager, condition, x1, x2).dtype  # the eager rules and errors
        if "other" in kinds:
            v.not_an_array("where", (condition, x1, x2)[kinds.index("other")])
        args = tuple(
            graph.cast(x._node, dtype) if type(x) is Tracer
            else _scalar_node(graph, x, dtype, "where")
            for x, dtype in ((condition, bool_), (x1, out), (x2, out)))
        ndim = max(x._ndim for x in (condition, x1, x2) if type(x) is Tracer)
        return Tracer(graph, graph.add("where", args, out), ndim)
    return where


def _traced_astype(eager: Callable[..., Any]) -> Callable[..., Tracer]:
    def astype(x: Any, dtype: Any, /, *, copy: bool = True, device: Any = None) -> Tracer:
        if type(x) is not Tracer:
            _graph_of("astype", x)
            return eager(_value(x), dtype, copy=copy, device=device)  # type: ignore
        if device is not None and v.device_arg("astype", device) is not x._graph.device:
            x._refuse("astype() to another device")
        out = _eager_rules(eager, x, dtype, copy=copy).dtype
        if out is x.dtype and not copy:
            return x
        return Tracer(x._graph, x._graph.add("cast", (x._node,), out), x._ndim)
    return astype


def _traced_sum(eager: Callable[..., Any]) -> Callable[..., Tracer]:
    """sum as the last operation of a fused function: the element-wise graph of ``x`` and
    its sum run as one reduction kernel (CuPy's fuse has the same)."""
    def sum(x: Any, /, *, axis: Any = None, dtype: Any = None, keepdims: bool = False
            ) -> Tracer:
        if type(x) is not Tracer:
            _graph_of("sum", x)
            return eager(_value(x), axis=axis, dtype=dtype, keepdims=keepdims)  # type: ignore
        # The eager rules (dtype, axis, keepdims) on a host stand-in of the traced ndim.
        stand_in = wrap(CPU.backend.zeros((1,) * x._ndim, dtype=x.dtype.dtype), x.dtype, CPU)
        r = eager(stand_in, axis=axis, dtype=dtype, keepdims=keepdims)
        axes = None if axis is None else tuple(
            sorted(a % x._ndim for a in ((axis,) if isinstance(axis, int) else axis)))
        graph = x._graph
        node = graph.add("sum", (graph.cast(x._node, r.dtype),), r.dtype, (axes, keepdims))
        return Tracer(graph, node, r.ndim)
    return sum


def _dtype_only(eager: Callable[..., Any]) -> Callable[..., Any]:
    def func(*args: Any, **kwargs: Any) -> Any:
        return _eager_rules(eager, *args, **kwargs)
    func.__name__ = eager.__name__
    return func


def _not_fusible(name: str) -> Callable[..., Any]:
    def func(*args: Any, **kwargs: Any) -> Any:
        v.fail("fuse", f"{name} is not fusible: only element-wise functions, operators, "
                       "where, astype and a final sum run inside a fused kernel; call it "
                       "outside")
    func.__name__ = name
    return func


class _NotFusibleModule(types.ModuleType):
    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        return _not_fusible(f"{self.__name__}.{name}")


# Names of the namespace that pass through unchanged: dtypes, constants, dtype functions.
_DTYPE_FUNCTIONS = ("can_cast", "finfo", "iinfo", "isdtype", "result_type")
_SAME = frozenset({"e", "inf", "nan", "newaxis", "pi", "bool", "int8", "int16", "int32",
                   "int64", "uint8", "uint16", "uint32", "uint64", "float32", "float64",
                   "complex64", "complex128", "__array_api_version__",
                   "__array_namespace_info__", "fuse", "set_array_api_version"})


def make_namespace(module: types.ModuleType) -> tuple[types.ModuleType, dict[int, Any]]:
    """The tracing namespace standing in for the xpgpu module, and a map from the id of
    each public xpgpu callable to its tracing counterpart."""
    ns = types.ModuleType(module.__name__, "xpgpu, as seen inside a fused function")
    traced: dict[str, Any] = dict(TRACED)
    traced["where"] = _traced_where(module.where)
    traced["astype"] = _traced_astype(module.astype)
    traced["sum"] = _traced_sum(module.sum)
    for name in _DTYPE_FUNCTIONS:
        traced[name] = _dtype_only(getattr(module, name))
    for name in module.__all__:
        if name in traced:
            value = traced[name]
        elif name in _SAME:
            value = getattr(module, name)
        elif name in ("linalg", "fft"):
            value = _NotFusibleModule(f"{module.__name__}.{name}")
        elif name == "Array":
            value = Tracer
        else:
            value = _not_fusible(name)
        setattr(ns, name, value)
    swaps = {id(getattr(module, name)): getattr(ns, name) for name in traced}
    swaps[id(module)] = ns
    for name in ("linalg", "fft"):
        swaps[id(getattr(module, name))] = getattr(ns, name)
    return ns, swaps


# ---- rebinding a function's globals and closure ----------------------------------------

def _names(code: types.CodeType) -> set[str]:
    names = set(code.co_names)
    for c in code.co_consts:
        if isinstance(c, types.CodeType):
            names |= _names(c)
    return names


class Rebinder:
    """Copies of user functions whose globals and closure cells see the tracing
    namespace where they saw xpgpu; helper functions they call are rebound too."""

    def __init__(self, swaps: dict[int, Any]):
        self.swaps = swaps
        self.functions: dict[int, Any] = {}
        self.globals: dict[int, dict[str, Any]] = {}

    def swap(self, value: Any) -> Any:
        found = self.swaps.get(id(value))
        if found is not None:
            return found
        if isinstance(value, types.FunctionType) and not (
                value.__module__ or "").startswith("xpgpu"):
            return self.function(value)
        if isinstance(value, types.MethodType) and isinstance(value.__func__,
                                                              types.FunctionType):
            return types.MethodType(self.swap(value.__func__), value.__self__)
        return value

    def function(self, func: types.FunctionType) -> types.FunctionType:
        done = self.functions.get(id(func))
        if done is not None:
            return done  # type: ignore[no-any-return]
        old = func.__globals__
        new = self.globals.get(id(old))
        if new is None:
            new = self.globals[id(old)] = dict(old)
        closure = None
        if func.__closure__ is not None:
            closure = tuple(types.CellType() for _ in func.__closure__)
        copy = types.FunctionType(func.__code__, new, func.__name__, func.__defaults__, closure)
        copy.__kwdefaults__ = func.__kwdefaults__
        self.functions[id(func)] = copy
        for name in _names(func.__code__):
            if name in old:
                new[name] = self.swap(old[name])
        if closure is not None:
            for old_cell, new_cell in zip(func.__closure__, closure, strict=True):  # type: ignore[arg-type]
                try:
                    new_cell.cell_contents = self.swap(old_cell.cell_contents)
                except ValueError:
                    pass  # an empty cell stays empty
        return copy


def rebind(func: Callable[..., Any], swaps: dict[int, Any]) -> Callable[..., Any]:
    """``func`` as seen by a trace (functions, bound methods, partials; other callables
    are called as they are, and the eager functions then reject the proxies)."""
    rebinder = Rebinder(swaps)
    swapped = rebinder.swap(func)
    if swapped is func and hasattr(func, "func") and hasattr(func, "args"):  # a partial
        return type(func)(rebinder.swap(func.func), *func.args, **func.keywords)  # type: ignore
    return swapped  # type: ignore[no-any-return]
