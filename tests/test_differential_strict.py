"""The strict profile, calibrated against array-api-strict: a differential test.

xpgpu must accept exactly the calls array-api-strict (the ecosystem's reference strict
namespace) accepts, with equal results (values and dtypes), except the deviations listed in
``DEVIATIONS`` below, the same list as docs/deviations.md ("Calibration against
array-api-strict"). Calls come from a table of templates, one or more per public function,
Array method, property and operator; each argument of a template has spellings real code
uses (lists where tuples are specified, NumPy integer scalars and Python bools for ints,
0-d arrays for scalars, NumPy scalars, dtype spellings, keyword or positional). Each
template is called with its first spellings, then once per other spelling of one argument,
and once per argument moved between position and keyword. Deterministic, no Hypothesis.
It runs on the CPU whatever the default device: acceptance is decided above the backends,
by the same code on every device (the device tests compare CPU and CUDA results).
"""

from __future__ import annotations

import inspect
import itertools
import math
import operator
import pathlib
import re
import sys
import warnings
from collections.abc import Callable, Iterator
from types import ModuleType
from typing import Any

import numpy as np
import pytest

import xpgpu as xp
from xpgpu import _devices

xs = pytest.importorskip("array_api_strict")

DTYPES = ("bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
          "float32", "float64", "complex64", "complex128")
REAL = ("int8", "int64", "uint8", "uint64", "float32", "float64")
SOME = ("bool", "int8", "int64", "uint8", "uint64", "float32", "float64", "complex64",
        "complex128")
FLOAT = ("float32", "float64")
FLOATING = ("float32", "float64", "complex64", "complex128")

# ---- arguments and their spellings --------------------------------------------------------

Make = Callable[[ModuleType], Any]


class Arg:
    """An argument: spellings, each (label, namespace -> value); the first is canonical."""

    def __init__(self, *spellings: tuple[str, Any]) -> None:
        self.spellings = [(label, v if callable(v) and not isinstance(v, type) else
                           (lambda ns, v=v: v)) for label, v in spellings]


def _values(dtype: str, shape: tuple[int, ...]) -> np.ndarray:
    base = (np.arange(math.prod(shape)).reshape(shape) % 5) - 1
    if dtype == "bool":
        return base > 0
    if dtype.startswith("uint"):
        return np.abs(base).astype(dtype)
    if dtype.startswith("complex"):
        return (base / 2 + 1j * (base % 3) / 2).astype(dtype)
    if dtype.startswith("float"):
        return (base / 2).astype(dtype)
    return base.astype(dtype)


SPECIAL = {
    "sq": np.array([[4.0, 1.0, 0.5], [1.0, 3.0, 0.25], [0.5, 0.25, 2.0]]),  # SPD
    "idx": np.array([1, 0], dtype=np.int64),
    "idx2": np.array([[1, 0, 1], [0, 1, 0]], dtype=np.int64),
    "sorted": np.array([0.0, 1.0, 2.0, 3.0]),
    "mask": np.array([[True, False, True], [False, True, False]]),
    "vec3": np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.5]]),
    "row": np.array([[1.0, 2.0, 3.0]]),
    "reps": np.array([1, 2], dtype=np.int64),
    "order": np.array([0, 1, 2, 3], dtype=np.int64),
}


def host(key: str) -> np.ndarray:
    """The NumPy values of an array key: a dtype name (shape (2, 3)), ``dtype:shape`` such
    as ``float64:4`` or ``int64:`` (0-d), or a SPECIAL name."""
    if key in SPECIAL:
        return SPECIAL[key]
    dtype, _, shape = key.partition(":")
    dims = (2, 3) if not _ else tuple(int(s) for s in shape.split("x") if s)
    return _values(dtype, dims)


def A(key: str = "float64") -> Arg:
    """An array of the namespace under test (a fresh one per call)."""
    return Arg(("array", lambda ns: ns.asarray(host(key).copy())))


def I(n: int, *, zero_d: bool = True) -> Arg:  # noqa: E743
    """An int: Python int, NumPy integer scalars, a Python bool (0 and 1), a 0-d array,
    and a float (refused by both)."""
    sp: list[tuple[str, Any]] = [("int", n), ("np.int64", np.int64(n)), ("np.int32", np.int32(n))]
    if n >= 0:
        sp.append(("np.uint8", np.uint8(n)))
    if n in (0, 1):
        sp.append(("bool", bool(n)))
    if zero_d:
        sp.append(("0-d array", lambda ns: ns.asarray(n)))
    sp.append(("float", float(n)))
    return Arg(*sp)


def T(*items: int) -> Arg:
    """A tuple of ints: a tuple, a list, and either of NumPy int64 scalars."""
    return Arg(("tuple", tuple(items)), ("list", list(items)),
               ("tuple of np.int64", tuple(np.int64(i) for i in items)),
               ("list of np.int64", [np.int64(i) for i in items]),
               ("tuple of 0-d arrays", lambda ns: tuple(ns.asarray(i) for i in items)))


def F(x: float) -> Arg:
    """A Python float: also a NumPy float64 (a float subclass), float32, an int, a 0-d array."""
    sp: list[tuple[str, Any]] = [("float", x), ("np.float64", np.float64(x)),
                                 ("np.float32", np.float32(x))]
    if x == int(x):
        sp.append(("int", int(x)))
    sp.append(("0-d array", lambda ns: ns.asarray(x)))
    return Arg(*sp)


_NP_SCALAR = {bool: np.bool_, int: np.int64, float: np.float64, complex: np.complex128}


def S(v: bool | int | float | complex) -> Arg:
    """A Python scalar operand: also its NumPy scalar, float32 for floats, a 0-d array."""
    sp: list[tuple[str, Any]] = [(type(v).__name__, v),
                                 (f"np.{_NP_SCALAR[type(v)].__name__}", _NP_SCALAR[type(v)](v))]
    if type(v) is float:
        sp.append(("np.float32", np.float32(v)))
    sp.append(("0-d array", lambda ns: ns.asarray(v)))
    return Arg(*sp)


def D(name: str) -> Arg:
    """A dtype: the namespace's, NumPy's dtype instance, its name, NumPy's scalar type."""
    return Arg(("dtype", lambda ns: getattr(ns, name)), ("np.dtype", np.dtype(name)),
               ("str", name), ("np scalar type", np.dtype(name).type))


def B(b: bool) -> Arg:
    """A flag: a Python bool, NumPy's bool, an int."""
    return Arg(("bool", b), ("np.bool_", np.bool_(b)), ("int", int(b)))


def Seq(*keys: str) -> Arg:
    """A sequence of arrays: a tuple, a list."""
    return Arg(("tuple", lambda ns: tuple(A(k).spellings[0][1](ns) for k in keys)),
               ("list", lambda ns: [A(k).spellings[0][1](ns) for k in keys]))


def C(v: Any) -> Arg:
    """A constant: one spelling."""
    return Arg(("const", v))


DEV = Arg(("x.device", lambda ns: ns.asarray(0).device), ("None", None))


def _arg(a: Any) -> Arg:
    return a if isinstance(a, Arg) else C(a)


# ---- call templates -------------------------------------------------------------------------

class Call:
    """``path(*args, **kwargs)``; ``path`` is a namespace name, ``linalg.x``, ``fft.x``,
    ``info.x`` (a method of the info object), ``op.x`` (a function of the operator module
    applied to the arguments) or ``attr.x`` (an attribute of the first argument)."""

    def __init__(self, path: str, *args: Any, label: str = "", **kwargs: Any) -> None:
        self.path, self.label = path, label
        self.args = [_arg(a) for a in args]
        self.kwargs = {k: _arg(a) for k, a in kwargs.items()}

    def target(self, ns: ModuleType) -> Callable[..., Any]:
        kind, _, name = self.path.rpartition(".")
        if kind == "op":
            return getattr(operator, name)  # type: ignore[no-any-return]
        if kind == "attr":
            return lambda x: getattr(x, name)
        if kind == "method":
            return lambda x, *a, **k: getattr(x, name)(*a, **k)
        if kind == "info":
            return getattr(ns.__array_namespace_info__(), name)  # type: ignore[no-any-return]
        return getattr(getattr(ns, kind) if kind else ns, name)  # type: ignore[no-any-return]

    def params(self) -> list[str] | None:
        """The parameter names of array-api-strict's function, in order."""
        kind = self.path.rpartition(".")[0]
        if kind in ("op", "attr", "method", "info"):
            return None
        try:
            sig = inspect.signature(self.target(xs))
        except (TypeError, ValueError):
            return None
        return [p.name for p in sig.parameters.values()
                if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)]

    def variants(self) -> Iterator[tuple[str, list[tuple[str, Any]], list[tuple[str, Any]]]]:
        """(label, positional spellings, keyword spellings) for each generated call."""
        params = self.params()
        names = [params[i] if params and i < len(params) else f"arg{i}"
                 for i in range(len(self.args))]
        pos = [a.spellings[0] for a in self.args]
        kw = [(k, a.spellings[0]) for k, a in self.kwargs.items()]
        yield "", pos, [(k, s) for k, s in kw]
        for i, a in enumerate(self.args):
            for s in a.spellings[1:]:
                yield f"{names[i]}={s[0]}", [*pos[:i], s, *pos[i + 1:]], kw
        for j, (k, a) in enumerate(self.kwargs.items()):
            for s in a.spellings[1:]:
                yield f"{k}={s[0]}", pos, [*kw[:j], (k, s), *kw[j + 1:]]
        if params is None:
            return
        # Positional arguments by keyword (the last one), keywords by position (the next).
        if len(self.args) > 1:
            yield f"{names[-1]} by keyword", pos[:-1], [(names[-1], pos[-1]), *kw]
        if kw and len(pos) < len(params):
            nxt = params[len(pos)]
            rest = [(k, s) for k, s in kw if k != nxt]
            if len(rest) < len(kw):
                yield f"{nxt} by position", [*pos, dict(kw)[nxt]], rest

    def cases(self) -> Iterator[tuple[str, Callable[[ModuleType], Any]]]:
        base = self.label or ", ".join(
            [s[0] if s[0] != "array" else "x" for s in (a.spellings[0] for a in self.args)]
            + [f"{k}" for k in self.kwargs])
        for label, pos, kw in self.variants():
            cid = f"{self.path}({base})" + (f"[{label}]" if label else "")

            def run(ns: ModuleType, pos: Any = pos, kw: Any = kw) -> Any:
                f = self.target(ns)
                return f(*[s[1](ns) for s in pos], **{k: s[1](ns) for k, s in kw})

            yield cid, run


def _templates() -> list[Call]:
    t: list[Call] = []
    add = t.append
    unary = ("abs acos acosh asin asinh atan atanh bitwise_invert ceil conj cos cosh exp expm1 "
             "floor imag isfinite isinf isnan log log10 log1p log2 logical_not negative "
             "positive real reciprocal round sign signbit sin sinh sqrt square tan tanh "
             "trunc").split()
    binary = ("add atan2 bitwise_and bitwise_left_shift bitwise_or bitwise_right_shift "
              "bitwise_xor copysign divide equal floor_divide greater greater_equal hypot "
              "less less_equal logaddexp logical_and logical_or logical_xor maximum minimum "
              "multiply nextafter not_equal pow remainder subtract").split()
    scalars = (True, 1, 2.5, 1j)
    for name in unary:
        for d in DTYPES:
            add(Call(name, A(d), label=d))
    for name in binary:
        for d1, d2 in itertools.product(SOME, SOME):
            add(Call(name, A(d1), A(d2), label=f"{d1}, {d2}"))
        for d in SOME:
            for s in scalars:
                add(Call(name, A(d), S(s), label=f"{d}, {s!r}"))
                add(Call(name, S(s), A(d), label=f"{s!r}, {d}"))
    for d in SOME:
        add(Call("clip", A(d), label=d))
        for lo in (0, 0.5, True):
            add(Call("clip", A(d), label=f"{d}, min={lo!r}", min=S(lo)))
            add(Call("clip", A(d), label=f"{d}, max={lo!r}", max=S(lo)))
        add(Call("clip", A(d), label=f"{d}, min=array", min=A(d), max=A(d)))
    # Operators, through the operator module as user code spells them.
    ops = {"add": "add", "sub": "sub", "mul": "mul", "truediv": "truediv",
           "floordiv": "floordiv", "mod": "mod", "pow": "pow", "and": "and_", "or": "or_",
           "xor": "xor", "lshift": "lshift", "rshift": "rshift", "eq": "eq", "ne": "ne",
           "lt": "lt", "le": "le", "gt": "gt", "ge": "ge"}
    for op, f in ops.items():
        for d in SOME:
            add(Call(f"op.{f}", A(d), A(d), label=f"{d}, {d}"))
            for s in scalars:
                add(Call(f"op.{f}", A(d), S(s), label=f"{d}, {s!r}"))
                if op not in ("eq", "ne", "lt", "le", "gt", "ge"):
                    add(Call(f"op.{f}", S(s), A(d), label=f"{s!r}, {d}"))
                    add(Call(f"op.i{f.rstrip('_')}", A(d), S(s), label=f"{d}, {s!r}"))
        for d1, d2 in (("int8", "int64"), ("float32", "float64"), ("int64", "float64")):
            add(Call(f"op.{f}", A(d1), A(d2), label=f"{d1}, {d2}"))
            if op not in ("eq", "ne", "lt", "le", "gt", "ge"):
                add(Call(f"op.i{f.rstrip('_')}", A(d1), A(d2), label=f"{d1}, {d2}"))
                add(Call(f"op.i{f.rstrip('_')}", A(d2), A(d1), label=f"{d2}, {d1}"))
    for d in ("float64", "int64", "complex128"):
        add(Call("op.matmul", A(d), A(f"{d}:3x2"), label=d))
        add(Call("op.imatmul", A(f"{d}:2x2"), A(f"{d}:2x2"), label=d))
    for f in ("abs", "neg", "pos", "invert"):
        for d in DTYPES:
            add(Call(f"op.{f}", A(d), label=d))
    # Creation.
    objs: dict[str, Any] = {
        "True": True, "1": 1, "1.5": 1.5, "1j": 1j, "-1": -1, "300": 300, "list of ints": [1, 2],
        "nested list": [[1, 2], [3, 4]], "list of bools": [True, False],
        "list of floats": [1.0, 2.5], "mixed list": [1, 2.5], "tuple": (1, 2),
        "np.array": np.array([1, 2]), "np.float32": np.float32(1.5), "np.int64": np.int64(3),
        "np.bool_": np.bool_(True), "np float32 array": np.ones(2, np.float32),
        "0-d array": lambda ns: ns.asarray(2), "array": lambda ns: ns.asarray([1.0, 2.0]),
        "empty list": [],
    }
    for label, obj in objs.items():
        add(Call("asarray", C(obj), label=label))
        for d in DTYPES:
            add(Call("asarray", C(obj), label=f"{label}, dtype={d}", dtype=D(d)))
    add(Call("asarray", A("float64"), label="x, copy", copy=B(True)))
    add(Call("asarray", A("float64"), label="x, device", device=DEV))
    for name in ("zeros", "ones", "empty"):
        add(Call(name, T(2, 3)))
        add(Call(name, I(2)))
        add(Call(name, T()))
        for d in DTYPES:
            add(Call(name, (2,), label=f"(2,), dtype={d}", dtype=D(d), device=DEV))
    for fill in (True, 1, 1.5, 1j, -1, 300):
        add(Call("full", T(2, 3), S(fill)))
        add(Call("full", I(2), S(fill)))
        for d in DTYPES:
            add(Call("full", (2,), S(fill), label=f"(2,), {fill!r}, dtype={d}", dtype=D(d)))
    for name in ("zeros_like", "ones_like", "empty_like"):
        for d in SOME:
            add(Call(name, A(d), label=d, dtype=D("float32"), device=DEV))
    for d in SOME:
        for fill in (True, 1, 1.5, 1j):
            add(Call("full_like", A(d), S(fill), label=f"{d}, {fill!r}"))
            add(Call("full_like", A(d), S(fill), label=f"{d}, {fill!r}, dtype=float64",
                     dtype=D("float64")))
    add(Call("arange", I(5)))
    add(Call("arange", I(1), I(7), I(2)))
    add(Call("arange", F(0.5), F(3.0), F(0.5)))
    add(Call("arange", I(5), label="5, start by keyword", stop=I(9)))
    for d in DTYPES:
        add(Call("arange", I(5), label=f"5, dtype={d}", dtype=D(d), device=DEV))
        add(Call("arange", F(2.5), label=f"2.5, dtype={d}", dtype=D(d)))
    add(Call("linspace", F(0.0), F(1.0), I(5), endpoint=B(False), device=DEV))
    add(Call("linspace", S(0), S(1j), I(3)))
    for d in DTYPES:
        add(Call("linspace", 0, 1, 5, label=f"0, 1, 5, dtype={d}", dtype=D(d)))
    add(Call("eye", I(3), I(4), k=I(1), device=DEV))
    for d in SOME:
        add(Call("eye", 2, label=f"2, dtype={d}", dtype=D(d)))
    for name in ("tril", "triu"):
        add(Call(name, A("float64:3x3"), k=I(1)))
        add(Call(name, A("float64:2"), label="1-D"))
    add(Call("meshgrid", A("float64:3"), A("float64:2"), indexing=C("ij")))
    add(Call("meshgrid", A("float64:3"), A("int64:2"), label="mixed dtypes"))
    add(Call("meshgrid", A("float64:3"), A("float64:2"), label="indexing=xy", indexing=C("xy")))
    add(Call("from_dlpack", A("float32"), copy=B(True)))
    # Data types.
    for d1, d2 in itertools.product(DTYPES, DTYPES):
        add(Call("astype", A(d1), D(d2), label=f"{d1} to {d2}"))
        add(Call("can_cast", D(d1), D(d2), label=f"{d1}, {d2}"))
    add(Call("astype", A("float64"), D("float32"), label="copy, device", copy=B(False),
             device=DEV))
    add(Call("can_cast", A("int8"), D("int64"), label="array"))
    for d in DTYPES:
        add(Call("finfo", D(d), label=d))
        add(Call("iinfo", D(d), label=d))
        add(Call("finfo", A(d), label=f"array {d}"))
        add(Call("iinfo", A(d), label=f"array {d}"))
        for kind in ("bool", "signed integer", "unsigned integer", "integral", "real floating",
                     "complex floating", "numeric", ("integral", "real floating"),
                     "float64", "foo"):
            k = C(kind) if kind != "float64" else D(kind)
            add(Call("isdtype", D(d), k, label=f"{d}, {kind!r}"))
    for d1, d2 in itertools.product(SOME, SOME):
        add(Call("result_type", D(d1), D(d2), label=f"{d1}, {d2}"))
    for d in SOME:
        for s in scalars:
            add(Call("result_type", A(d), S(s), label=f"array {d}, {s!r}"))
            add(Call("result_type", D(d), S(s), label=f"{d}, {s!r}"))
    add(Call("result_type", S(1), S(2.5), label="two scalars"))
    # Manipulation.
    add(Call("broadcast_arrays", A("float64"), A("float64:3")))
    add(Call("broadcast_shapes", T(2, 3), T(3)))
    add(Call("broadcast_shapes", T(2, 1), T(1, 4)))
    add(Call("broadcast_to", A("float64:3"), T(2, 3)))
    add(Call("concat", Seq("float64", "float64"), axis=I(1)))
    add(Call("concat", Seq("float64", "int64"), label="mixed dtypes"))
    add(Call("concat", Seq("float64", "float32"), label="axis=None", axis=C(None)))
    add(Call("stack", Seq("float64", "float64"), axis=I(1)))
    add(Call("expand_dims", A(), I(0)))
    add(Call("expand_dims", A(), T(0, 2), label="x, two axes"))
    add(Call("expand_dims", A(), label="x, axis=-1", axis=I(-1)))
    add(Call("flip", A(), axis=I(1)))
    add(Call("flip", A(), axis=T(0, 1)))
    add(Call("flip", A(), label="x"))
    add(Call("moveaxis", A("float64:2x3x4"), I(0), I(-1)))
    add(Call("moveaxis", A("float64:2x3x4"), T(0, 1), T(2, 0)))
    add(Call("permute_dims", A(), T(1, 0)))
    add(Call("permute_dims", A("float64:2x3x4"), T(2, 0, 1)))
    add(Call("repeat", A(), I(2), axis=I(1)))
    add(Call("repeat", A(), A("reps"), axis=I(0)))
    add(Call("repeat", A("float64:3"), I(2), label="1-D, no axis"))
    add(Call("reshape", A(), T(3, 2), copy=B(True)))
    add(Call("reshape", A(), T(-1)))
    add(Call("reshape", A(), I(6), label="x, 6 (an int shape)"))
    add(Call("roll", A(), I(1), axis=I(1)))
    add(Call("roll", A(), T(1, 2), axis=T(0, 1)))
    add(Call("roll", A(), I(-1), label="x, -1"))
    add(Call("squeeze", A("row"), I(0)))
    add(Call("squeeze", A("float64:1x3x1"), T(0, 2)))
    add(Call("tile", A(), T(2, 1)))
    add(Call("unstack", A(), axis=I(1)))
    # Searching, sorting, sets.
    for name in ("argmax", "argmin"):
        add(Call(name, A(), axis=I(1), keepdims=B(True)))
        add(Call(name, A(), label="x"))
    add(Call("count_nonzero", A(), axis=I(1), keepdims=B(True)))
    add(Call("count_nonzero", A(), axis=T(0, 1)))
    add(Call("nonzero", A()))
    add(Call("searchsorted", A("sorted"), A("float64:3"), side=C("right"), sorter=A("order")))
    add(Call("searchsorted", A("sorted"), S(1.5), label="sorted, 1.5"))
    add(Call("searchsorted", A("sorted"), S(1), label="sorted, 1"))
    add(Call("where", A("mask"), A(), A()))
    add(Call("where", A("mask"), A(), S(0.5), label="mask, x, 0.5"))
    add(Call("where", A("mask"), A("float32"), S(0.5), label="mask, float32, 0.5"))
    add(Call("where", A("mask"), S(0.5), A("float32"), label="mask, 0.5, float32"))
    add(Call("where", A("mask"), S(1), A(), label="mask, 1, x"))
    add(Call("where", A("mask"), A("float32"), A("float64"), label="mixed float"))
    add(Call("isin", A("int64"), A("idx"), invert=B(True)))
    add(Call("isin", A("int64"), S(1), label="x, 1"))
    add(Call("isin", S(1), A("int64"), label="1, x"))
    for name in ("unique_all", "unique_counts", "unique_inverse", "unique_values"):
        for d in ("int64", "float64", "bool"):
            add(Call(name, A(d), label=d))
    for name in ("argsort", "sort"):
        for d in REAL:
            add(Call(name, A(d), label=d, axis=I(0), descending=B(True), stable=B(False)))
    # Statistics and utilities.
    for name in ("max", "min", "sum", "prod", "mean", "std", "var", "all", "any"):
        for d in SOME:
            add(Call(name, A(d), label=d))
        add(Call(name, A(), axis=I(1), keepdims=B(True)))
        add(Call(name, A(), axis=T(0, 1)))
        add(Call(name, A(), label="x, axis=None", axis=C(None)))
    for name in ("std", "var"):
        add(Call(name, A(), correction=F(1.0)))
    for name in ("sum", "prod", "cumulative_sum", "cumulative_prod"):
        for d1, d2 in itertools.product(("int8", "uint8", "float32", "complex64"), SOME):
            add(Call(name, A(f"{d1}:4"), label=f"{d1}, dtype={d2}", dtype=D(d2)))
    for name in ("cumulative_sum", "cumulative_prod"):
        add(Call(name, A(), axis=I(1), include_initial=B(True)))
        add(Call(name, A("float64:4"), label="1-D"))
    add(Call("diff", A(), axis=I(0), n=I(1)))
    add(Call("diff", A(), label="x, prepend, append", prepend=A(), append=A()))
    add(Call("diff", A("int64"), label="int64, n=2", n=I(2)))
    add(Call("take", A(), A("idx"), axis=I(1)))
    add(Call("take", A("float64:4"), A("idx"), label="1-D"))
    add(Call("take_along_axis", A(), A("idx2"), axis=I(1)))
    # Linear algebra of the main namespace.
    add(Call("matmul", A(), A("float64:3x2")))
    add(Call("matmul", A("float64:3"), A("float64:3"), label="vectors"))
    add(Call("matmul", A("int64"), A("float64:3x2"), label="mixed kinds"))
    add(Call("matrix_transpose", A()))
    add(Call("tensordot", A(), A("float64:3x2"), axes=I(1)))
    add(Call("tensordot", A(), A("float64:3x2"), label="x, y, axes=pairs",
             axes=Arg(("tuple of tuples", ((1,), (0,))), ("list of lists", [[1], [0]]),
                      ("tuple of lists", ([1], [0])))))
    add(Call("vecdot", A(), A(), axis=I(-1)))
    add(Call("vecdot", A("complex128"), A("complex128"), label="complex"))
    # The linear algebra extension.
    for name in ("cholesky", "det", "eigh", "eigvalsh", "inv", "slogdet", "svdvals",
                 "matrix_rank", "pinv", "eig", "eigvals", "qr", "svd"):
        add(Call(f"linalg.{name}", A("sq"), label="sq"))
        add(Call(f"linalg.{name}", A("int64:2x2"), label="int64"))
    add(Call("linalg.cholesky", A("sq"), upper=B(True)))
    add(Call("linalg.svd", A("sq"), full_matrices=B(False)))
    add(Call("linalg.qr", A("sq"), mode=C("complete")))
    add(Call("linalg.matrix_rank", A("sq"), rtol=F(0.5)))
    add(Call("linalg.pinv", A("sq"), rtol=F(0.5)))
    add(Call("linalg.cross", A("vec3"), A("vec3"), axis=I(-1)))
    add(Call("linalg.diagonal", A(), offset=I(1)))
    add(Call("linalg.matmul", A(), A("float64:3x2")))
    add(Call("linalg.matrix_transpose", A()))
    add(Call("linalg.tensordot", A(), A("float64:3x2"), axes=I(1)))
    add(Call("linalg.vecdot", A(), A(), axis=I(-1)))
    add(Call("linalg.outer", A("float64:3"), A("float64:2")))
    add(Call("linalg.outer", A("int64:3"), A("float64:2"), label="mixed kinds"))
    add(Call("linalg.matrix_power", A("sq"), I(2)))
    add(Call("linalg.matrix_power", A("int64:2x2"), I(2), label="int64"))
    for ord_ in ("fro", "nuc", 1, -1, 2, -2, math.inf, -math.inf):
        add(Call("linalg.matrix_norm", A("sq"), label=f"sq, ord={ord_!r}", ord=C(ord_),
                 keepdims=B(True)))
    for ord_ in (2, 1, 0, 3, math.inf, -math.inf, 2.5):
        add(Call("linalg.vector_norm", A(), label=f"x, ord={ord_!r}", ord=C(ord_), axis=I(1),
                 keepdims=B(True)))
    add(Call("linalg.vector_norm", A(), axis=T(0, 1)))
    add(Call("linalg.solve", A("sq"), A("float64:3x2")))
    add(Call("linalg.solve", A("sq"), A("float64:3"), label="sq, vector"))
    add(Call("linalg.trace", A("sq"), offset=I(1), dtype=D("float64")))
    add(Call("linalg.trace", A("int8:3x3"), label="int8"))
    # The Fourier transform extension.
    for name in ("fft", "ifft", "rfft", "irfft", "hfft", "ihfft"):
        for d in ("float64", "complex128", "float32", "int64"):
            add(Call(f"fft.{name}", A(d), label=d))
        add(Call(f"fft.{name}", A("complex128"), n=I(4), axis=I(0), norm=C("ortho")))
        add(Call(f"fft.{name}", A("float64"), label="float64, n=4", n=I(4)))
    for name in ("fftn", "ifftn", "rfftn", "irfftn"):
        for d in ("float64", "complex128", "float32"):
            add(Call(f"fft.{name}", A(d), label=d))
        add(Call(f"fft.{name}", A("complex128"), s=T(2, 4), axes=T(0, 1), norm=C("forward")))
        add(Call(f"fft.{name}", A("float64"), label="float64, axes", axes=T(1)))
    for name in ("fftfreq", "rfftfreq"):
        add(Call(f"fft.{name}", I(5), d=F(0.5), device=DEV))
        add(Call(f"fft.{name}", I(5), label="5, dtype", dtype=D("float32")))
    for name in ("fftshift", "ifftshift"):
        add(Call(f"fft.{name}", A(), axes=I(1)))
        add(Call(f"fft.{name}", A(), label="x, axes tuple", axes=T(0, 1)))
        add(Call(f"fft.{name}", A("int64"), label="int64"))
    # The info object.
    add(Call("info.capabilities"))
    add(Call("info.default_dtypes", device=DEV))
    for kind in (None, "numeric", "integral", ("bool", "real floating")):
        add(Call("info.dtypes", label=f"kind={kind!r}", kind=C(kind), device=DEV))
    # The array object: properties, conversions, indexing, methods.
    for prop in ("dtype", "shape", "ndim", "size", "T", "mT", "device"):
        add(Call(f"attr.{prop}", A()))
        add(Call(f"attr.{prop}", A("float64:4"), label="1-D"))
    for conv in ("bool", "int", "float", "complex", "index"):
        for d in DTYPES:
            path = "op.index" if conv == "index" else f"method.__{conv}__"
            add(Call(path, A(f"{d}:"), label=f"0-d {d}"))
        add(Call(f"method.__{conv}__", A("float64:1"), label="shape (1,)"))
    keys: dict[str, Any] = {
        "int": 0, "np.int64": np.int64(0), "bool": True, "0-d int array": lambda ns: ns.asarray(0),
        "slice": slice(0, 2), "slice of np.int64": slice(np.int64(0), np.int64(2)),
        "None": None, "Ellipsis": ..., "list": [0, 1], "np int array": np.array([0, 1]),
        "np bool array": np.array([True, False]), "float": 0.5,
        "int array": lambda ns: ns.asarray([0, 1]),
        "mask": lambda ns: ns.asarray(np.array([True, False])),
    }
    for label, k in keys.items():
        add(Call("op.getitem", A("float64:2"), C(k), label=f"1-D, {label}"))
        add(Call("op.getitem", A(), C(k), label=f"2-D, {label}"))
        add(Call("op.getitem", A(), C(lambda ns, k=k: (Arg(("", k)).spellings[0][1](ns), 0)),
                 label=f"2-D, ({label}, 0)"))
        add(Call("op.getitem", A(), C(lambda ns, k=k: (Arg(("", k)).spellings[0][1](ns),
                                                         slice(None))),
                 label=f"2-D, ({label}, :)"))
        add(Call("op.setitem", A("float64:2"), C(k), S(1.5), label=f"1-D, {label}, 1.5"))
    for value in (True, 1, 1.5, 1j):
        for d in SOME:
            add(Call("op.setitem", A(f"{d}:2"), C(0), S(value), label=f"{d}, 0, {value!r}"))
    for d in ("int8", "float32", "float64", "complex64"):
        add(Call("op.setitem", A("float64:2"), C(slice(None)), A(f"{d}:2"),
                 label=f"float64[:] = {d} array"))
    add(Call("method.to_device", A(), DEV))
    add(Call("method.__array_namespace__", A(), label="x, api_version",
             api_version=C("2024.12")))
    add(Call("method.__dlpack_device__", A()))
    add(Call("method.__dlpack__", A(), label="x, max_version", max_version=C((1, 0))))
    add(Call("method.__iter__", A("float64:3"), label="1-D"))
    add(Call("method.__iter__", A(), label="2-D"))
    add(Call("method.__repr__", A()))
    add(Call("method.__str__", A()))
    add(Call("method.__format__", A(), C("")))
    add(Call("method.__array__", A()))
    return t


TEMPLATES = _templates()
CASES: dict[str, Callable[[ModuleType], Any]] = {}
for _t in TEMPLATES:
    for _cid, _run in _t.cases():
        CASES.setdefault(_cid, _run)

# ---- the calibrated deviations ------------------------------------------------------------

# (case pattern, what xpgpu does where array-api-strict does otherwise, the reason), first
# match wins. The same list as docs/deviations.md, "Calibration against array-api-strict".
# A call whose outcome differs must match a row and differ as it says; a row that no
# differing call matches fails the test (a fixed deviation is removed from the list).
ACCEPTS, REFUSES, DIFFERS = "xpgpu accepts", "xpgpu refuses", "results differ"
_NP_INT = "NumPy integer scalars and 0-d integer arrays are ints (``__index__``) in NumPy, " \
    "CuPy and PyTorch"
DEVIATIONS: list[tuple[str, str, str]] = [
    # Specific rows first (the first match wins).
    ("*[*=np.dtype]", ACCEPTS, "NumPy dtype instances as dtypes (design: cubed, zarr and "
     "xarray pass them; NumPy, CuPy and PyTorch's compat layer take them)"),
    ("fft.*freq(*)[n=np.uint8]", DIFFERS, "array-api-strict 2.6.1 computes fftfreq(np.uint8(5)) "
     "in uint8 arithmetic (wrapped frequencies)"),
    ("arange(5, dtype=*int*)[start=float]", REFUSES, "float arguments with an integer dtype "
     "(as below)"),
    ("linspace(int, complex, int)[stop=0-d array]", DIFFERS, "array-api-strict 2.6.1 drops "
     "the imaginary part of a 0-d complex array stop (a float64 result)"),
    # xpgpu refuses what array-api-strict accepts: NumPy, CuPy and PyTorch differ there.
    ("*(*, dtype=bool)", REFUSES, "a bool accumulator for sum, prod, cumulative_sum and "
     "cumulative_prod: bool is not numeric; NumPy's bool sum is a logical or"),
    ("*(complex64, dtype=*)", REFUSES, "a real accumulator for a complex input: casting "
     "complex to real should not be permitted (the standard); NumPy drops the imaginary "
     "part"),
    ("*[*=bool]", REFUSES, "a Python bool where an int is specified: NumPy's reductions "
     "refuse it (np.sum(x, axis=True)) where its other functions take it as 0 or 1"),
    ("*[*=np.bool_]", REFUSES, "a NumPy bool as a flag (keepdims, copy ...): NumPy's "
     "reductions refuse it (np.sum(x, keepdims=np.True_))"),
    ("*[*=int]", REFUSES, "an int as a flag (keepdims=1, copy=0): PyTorch refuses it"),
    ("*[*=float]", REFUSES, "a float where an int is specified (tril(x, k=1.0)): PyTorch refuses "
     "it"),
    ("op.g?(*, 1j)", REFUSES, "as op.l?, below"),
    ("op.l?(*, 1j)", REFUSES, "ordering a real array against a complex scalar: NumPy "
     "orders complex numbers lexicographically, PyTorch refuses; the standard defines "
     "ordering for real numbers only"),
    ("less*(*1j*)*", REFUSES, "the same for less, greater, maximum and minimum"),
    ("greater*(*1j*)*", REFUSES, "the same for less, greater, maximum and minimum"),
    ("m??imum(*1j*)*", REFUSES, "the same for less, greater, maximum and minimum"),
    ("full*(*1j*)*", REFUSES, "a complex fill value for a real dtype: NumPy drops the imaginary "
     "part, PyTorch refuses; the standard says casting complex to real should not be "
     "permitted"),
    ("arange(2.5, dtype=*int*)*", REFUSES, "float arguments with an integer dtype: NumPy "
     "computes the values from the first two elements (arange(0.5, 3, 0.5, dtype=int64) is "
     "all zeros), PyTorch casts the arguments to the dtype first (arange(0.5, 3.5, 1.5, "
     "dtype=int64) is [0, 2] in NumPy, [0, 1, 2] in PyTorch)"),
    ("arange(*dtype=complex*)*", REFUSES, "a complex dtype for arange: PyTorch refuses it; the "
     "standard's arange is real-valued"),
    ("linspace(0, 1, 5, dtype=*)*", REFUSES, "an integer or bool dtype for linspace: "
     "NumPy 2 rounds the grid down (floor) where a cast truncates towards zero; the standard "
     "specifies a floating-point dtype"),
    ("clip(*)[m??=0-d array]", REFUSES, "array bounds of another dtype than x: NumPy promotes "
     "(the result is int64 for int8 x), array-api-strict keeps x's dtype; the standard "
     "leaves it unspecified"),
    ("searchsorted(*)[x2=0-d array]", REFUSES, "x2 of another kind than x1 (float64 x1, int64 "
     "x2): the libraries compare in different dtypes (int64 x1 with float32 x2: NumPy in "
     "float64, PyTorch in float32, so side='right' of 16777216.0 in [16777217] is 0 in NumPy, "
     "1 in PyTorch); cross-kind promotion is not in the standard"),
    ("matmul(mixed kinds)", REFUSES, "int64 @ float64: PyTorch refuses; cross-kind promotion "
     "is not in the standard"),
    ("linalg.outer(mixed kinds)", REFUSES, "int64 with float32: NumPy gives float64, PyTorch "
     "(which takes it) float32; cross-kind promotion is not in the standard"),
    ("linalg.matrix_rank(int64)", REFUSES, "an integer matrix: PyTorch refuses it; the "
     "standard specifies floating-point input"),
    # xpgpu accepts what array-api-strict refuses: every backend agrees on the result.
    ("op.??(*)[arg1=np.*]", f"{ACCEPTS}|{REFUSES}", "== and != with a NumPy scalar: "
     "Python's identity fallback (the NumPy-operand rules of the permissive work decide it)"),
    ("astype(complex* to bool)", ACCEPTS, "complex to bool (nonzero is True): NumPy, CuPy and "
     "PyTorch agree; xpgpu reads the standard's ban as covering complex to real numeric "
     "dtypes"),
    ("*[*=np.float64]", ACCEPTS, "NumPy float64 is a subclass of Python float, so a Python "
     "scalar, as in NumPy, CuPy and PyTorch"),
    ("*[*=np.complex128]", ACCEPTS, "NumPy complex128 is a subclass of Python complex"),
    ("bitwise_*_shift(*)*", ACCEPTS, "negative shift counts: array-api-strict checks the values "
     "(on a GPU a synchronisation per call); the standard leaves the result undefined"),
    ("op.setitem(1-D, 0-d int array, *)*", ACCEPTS, "a 0-d integer array index in an "
     "assignment: an integer index, as in __getitem__ (array-api-strict takes it there)"),
    ("op.getitem(2-D, (0-d int array, :))", ACCEPTS, "a 0-d integer array beside a slice: an "
     "integer index, as alone (array-api-strict takes it alone)"),
    ("*[*=0-d array]", ACCEPTS, _NP_INT + " (array-api-strict refuses some: arange, roll, "
     "tril, fftfreq, fftshift, std's correction)"),
    ("*[*=np.int??]", ACCEPTS, _NP_INT + " (array-api-strict refuses them in roll and "
     "repeat)"),
    ("*[*=np.uint8]", ACCEPTS, _NP_INT + " (array-api-strict overflows on np.uint8 in tril and "
     "tensordot)"),
    ("fft.*n(*)[s=tuple of 0-d arrays]", ACCEPTS, _NP_INT),
    ("reshape(*)[shape=list*]", ACCEPTS, "a list as a shape: NumPy, CuPy and PyTorch take it, "
     "and array-api-strict takes lists in permute_dims, broadcast_to and flip"),
    ("tile(*)[repetitions=list*]", ACCEPTS, "the same for tile's repetitions"),
    ("roll(*)[shift=list*]", ACCEPTS, "the same for roll's shift"),
    ("isin(x, x, invert)", DIFFERS, "array-api-strict 2.6.1 ignores invert=True"),
    ("method.__array__(x)", ACCEPTS, "x.__array__() called directly (Python 3.12 and later): "
     "array-api-strict 2.6.1 refuses it there and gives NumPy its data through __buffer__; "
     "np.asarray(x) gives the same array in both libraries"),
]
# Rows that only some Python versions exercise.
_PYTHON_312 = {"method.__array__(x)"} if sys.version_info < (3, 12) else set()

# Names of xpgpu with no counterpart in array-api-strict (extensions, documented).
XPGPU_ONLY = {"fuse", "logspace", "set_array_api_version", "set_strict"}

# ---- running both ---------------------------------------------------------------------------


def _host_result(ns: ModuleType, r: Any) -> Any:
    """A comparable form of a result: arrays as (dtype name, NumPy values)."""
    if isinstance(r, (tuple, list)):
        return type(r).__name__ if hasattr(r, "_fields") else "seq", [
            _host_result(ns, a) for a in r]
    if isinstance(r, np.ndarray):
        return "ndarray", r.dtype.name, r
    if hasattr(r, "__array_namespace__"):
        if ns is xp:
            values = np.asarray(r.to_device("cpu"))
            return "array", r.dtype.name, values
        return "array", str(r.dtype).rpartition(".")[2], np.asarray(r._array)
    if type(r).__name__ == "DType" or r in (getattr(ns, d) for d in DTYPES if hasattr(ns, d)):
        return "dtype", str(r).rpartition(".")[2]
    if isinstance(r, dict):
        return "dict", {k: _host_result(ns, v) for k, v in r.items()}
    if type(r).__name__ in ("finfo_object", "iinfo_object"):
        return "info", {k: _host_result(ns, getattr(r, k)) for k in
                        ("bits", "eps", "max", "min", "smallest_normal", "dtype") if hasattr(r, k)}
    if type(r).__name__ == "Device":
        return "device"
    if isinstance(r, str):
        return "str"
    if hasattr(r, "__next__"):
        return _host_result(ns, list(r))
    if type(r).__name__ == "PyCapsule":
        return "capsule"
    if isinstance(r, ModuleType):
        return "module"
    if isinstance(r, int) and not isinstance(r, bool):
        return "int", int(r)  # DLDeviceType (an IntEnum) compares as its value
    return type(r).__name__, r


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, tuple) and len(a) == 3 and a[0] in ("array", "ndarray"):
        if not (isinstance(b, tuple) and len(b) == 3 and a[:2] == b[:2]):
            return False
        u, w = a[2], b[2]
        if u.shape != w.shape:
            return False
        if u.dtype.kind in "fc":
            return bool(np.allclose(u, w, rtol=2e-6, atol=1e-12, equal_nan=True))
        return bool(np.array_equal(u, w))
    if isinstance(a, (tuple, list)) and isinstance(b, (tuple, list)):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if type(a) is not type(b) and isinstance(a, int) and isinstance(b, int):
        return a == b  # an IntEnum (DLDeviceType) and its int
    if isinstance(a, float) and isinstance(b, float):
        return a == b or (math.isnan(a) and math.isnan(b))
    return bool(a == b)


class NumPyTookOver(TypeError):
    """array-api-strict's array met a NumPy scalar on the left of an operator: NumPy
    converted it (``__array__``) and returned a NumPy array; the namespace did not accept."""


def outcome(ns: ModuleType, cid: str) -> tuple[str, Any]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            r = CASES[cid](ns)
        except Exception as exc:  # a refusal of either library
            return "refused", exc
        if isinstance(r, np.ndarray) and not cid.startswith("method.__array__"):
            return "refused", NumPyTookOver(f"a NumPy array {r!r:.60}")
        result = _host_result(ns, r)
        if cid.startswith(("empty", "method.__repr__", "method.__str__",
                                        "method.__format__")):  # unspecified, text
            result = result[:2] if result[0] == "array" else result[0]
        return "accepted", result


# Python's own refusals, before any xpgpu code runs: a call that does not fit the signature,
# and an operator whose operands both return NotImplemented (NumPy scalars and arrays, whose
# operator messages the permissive profile's rules decide).
_PYTHON = re.compile(r"positional argument|keyword argument|positional-only|unsupported operand"
                     r"|not supported between|does not support ufuncs")
_CLEAR = re.compile(r"^[\w.]+: .*(\buse\b|xpgpu\.|set_strict)", re.S)


def unclear(cid: str) -> str | None:
    """xpgpu's refusal of a call, where it does not name its function and a fix."""
    kind, exc = outcome(xp, cid)
    if kind != "refused" or _PYTHON.search(str(exc)) or _CLEAR.match(str(exc)):
        return None
    return f"{cid}: {type(exc).__name__}: {exc}"


def compare(cid: str) -> str:
    """'accepted by both', 'refused by both', or a difference: 'xpgpu refuses',
    'xpgpu accepts', 'results differ' (with details after a colon)."""
    ks, rs = outcome(xs, cid)
    kx, rx = outcome(xp, cid)
    if ks == kx == "refused":
        return "refused by both"
    if ks == "accepted" and kx == "refused":
        return f"xpgpu refuses: {type(rx).__name__}: {rx}"
    if ks == "refused" and kx == "accepted":
        return f"xpgpu accepts: strict's {type(rs).__name__}: {rs}"
    if _same(rs, rx):
        return "accepted by both"
    return f"results differ: strict {rs!r:.300} xpgpu {rx!r:.300}"


def _pattern(p: str) -> re.Pattern[str]:
    """A row's pattern: ``*`` any text, ``?`` one character, the rest literal."""
    return re.compile(re.escape(p).replace(r"\*", ".*").replace(r"\?", ".") + "$")


_PATTERNS = [(_pattern(row[0]), row) for row in DEVIATIONS]


def deviation(cid: str) -> tuple[str, str, str] | None:
    for pattern, row in _PATTERNS:
        if pattern.match(cid):
            return row
    return None


@pytest.fixture(autouse=True)
def _on_the_cpu(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_devices, "_default", _devices.CPU)


@pytest.mark.strict_only
def test_calibration() -> None:
    """Every generated call: the same acceptance and results in both libraries, except
    the listed deviations, each of which must occur as listed; and each of xpgpu's refusals
    names its function and a fix."""
    counts = {"accepted by both": 0, "refused by both": 0, "deviation": 0}
    bad, used = [], set()
    for cid in CASES:
        got = compare(cid)
        row = deviation(cid) if got not in counts else None
        if row is not None:
            if not got.startswith(tuple(row[1].split("|"))):
                bad.append(f"{cid}: listed as {row[1]!r}, got {got}")
            used.add(row[0])
            counts["deviation"] += 1
        elif got in counts:
            counts[got] += 1
        else:
            bad.append(f"{cid}: {got}")
        why = unclear(cid)
        if why is not None:
            bad.append(f"unclear refusal: {why}")
    print(f"{len(CASES)} calls: " + ", ".join(f"{v} {k}" for k, v in counts.items()))
    unused = [p for p, *_ in DEVIATIONS if p not in used and p not in _PYTHON_312]
    assert not unused, f"deviations no call exercises: {unused}"
    assert not bad, f"{len(bad)} differences:\n" + "\n".join(bad)


def test_deviations_are_documented() -> None:
    """docs/deviations.md lists every row of DEVIATIONS (by its pattern), and no other."""
    docs = pathlib.Path(__file__).resolve().parent.parent / "docs" / "deviations.md"
    text = docs.read_text().partition("## Calibration against array-api-strict")[2]
    listed = re.findall(r"^\| `([^`]+)` \|", text, re.M)
    assert listed == [row[0] for row in DEVIATIONS]


def test_templates_cover_public_api() -> None:
    """Every public function, method and property has at least one template."""
    paths = {c.path for c in TEMPLATES}
    names = {n for n in xp.__all__ if callable(getattr(xp, n)) and not isinstance(
        getattr(xp, n), type) and not isinstance(getattr(xp, n), ModuleType)
        and n not in XPGPU_ONLY and n not in DTYPES and n != "__array_namespace_info__"}
    missing = {n for n in names if n not in paths}
    missing |= {f"linalg.{n}" for n in xp.linalg.__all__ if f"linalg.{n}" not in paths}
    missing |= {f"fft.{n}" for n in xp.fft.__all__ if f"fft.{n}" not in paths}
    info = xp.__array_namespace_info__()
    missing |= {f"info.{n}" for n in dir(info) if not n.startswith("_")
                and f"info.{n}" not in paths and n not in ("devices", "default_device")}
    assert not missing, sorted(missing)


# Array members without a counterpart to compare: pickling, NumPy's opt-out, Python's own.
ARRAY_EXEMPT = {"__reduce__", "__copy__", "__deepcopy__", "__array_ufunc__", "__new__",
                "__hash__", "__init__", "__init_subclass__"}


def test_templates_cover_the_array_object() -> None:
    """Every public member of Array has a template: operators through the operator module
    (reflected ones with the scalar first), properties, conversions and methods."""
    paths = {c.path for c in TEMPLATES}
    ops = {"and": "and_", "or": "or_", "inv": "invert"}
    missing = []
    for member in vars(xp.Array):
        if (member.startswith("_") and not member.startswith("__")) or member in ARRAY_EXEMPT \
                or member in ("__module__", "__doc__", "__slots__", "__annotations__",
                              "__weakref__", "__dict__", "__qualname__", "__firstlineno__",
                              "__static_attributes__", "__annotate_func__",
                              "__annotations_cache__"):
            continue
        core = member.strip("_")
        if member.startswith("__r") and core[1:] in (p.split(".")[1].rstrip("_") for p in paths
                                                     if p.startswith("op.")):
            core = core[1:]  # __radd__: op.add(scalar, x)
        candidates = {f"attr.{member}", f"method.{member}", f"op.{ops.get(core, core)}",
                      f"op.{core}_"}
        if member == "__index__":
            candidates.add("op.index")
        if not candidates & paths:
            missing.append(member)
    assert not missing, missing
