"""fuse on CUDA: a traced graph as one ``cupy.ElementwiseKernel``.

Each operation runs CuPy's own loop code for its dtypes (the routine of the ufunc that
the eager function calls, picked by CuPy's own loop selection), wrapped in a device
function, so that a fused result is bit for bit the eager one. Two things keep it so:

- The kernel is compiled with NVRTC's defaults, as CuPy compiles its ufuncs (``--fmad``
  is on there too), and each floating-point operation is a ``__noinline__`` device
  function: ptxas contracts a multiply and an add into an FMA only within one function,
  so the multiply of one operation is never contracted with the add of the next, which
  eager code, one kernel per operation, cannot do. (An empty inline ``asm`` between them
  does not stop it: that acts on NVVM, not on ptxas.) Inside one operation the code
  contracts exactly as CuPy's does.
- Python scalars are converted on the host exactly as CuPy converts them (NumPy's
  assignment into the dtype), and passed as kernel arguments of that C type; constants
  of the function are emitted as exact bit patterns (``__int_as_float(0x7f800000)``),
  so NVRTC never parses a decimal ``inf``, ``nan`` or a rounded ``pi``.

Only this file calls CuPy for ``fuse``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import cupy
import numpy
from cupy._core import _scalar

from . import _cupy_special

# Note: CuPy's ufunc objects expose their loops (``_ops``), loop selection
# (``_guess_routine_from_in_types``) and preambles only as private attributes; CuPy's
# own fusion (cupy/_core/_fusion_op.py) reads them the same way.
# https://github.com/cupy/cupy/blob/main/cupy/_core/_fusion_op.py

# Device code for eager functions that are not plain CuPy ufuncs (special-case fixes):
# name -> f(loop input dtypes) -> (preamble, routine, input dtypes, output dtype) or None.
# A fix module registers its device code here so that fused results follow the fix.
ROUTINES: dict[str, Callable[[tuple[Any, ...]], Any]] = {}

# The standard's names whose eager function is neither a CuPy ufunc nor in ROUTINES,
# met while generating code: fused code used CuPy's ufunc, which may differ from the
# eager fix on special values.
DIFFERS_FROM_EAGER: set[str] = set()

_RENAMES = {
    "acos": "arccos", "acosh": "arccosh", "asin": "arcsin", "asinh": "arcsinh",
    "atan": "arctan", "atan2": "arctan2", "atanh": "arctanh",
    "bitwise_left_shift": "left_shift", "bitwise_right_shift": "right_shift",
    "bitwise_invert": "invert", "pow": "power",
}

_FLOATING = {"f", "c"}  # the dtype kinds whose operations are never inlined

compiled_kernels = 0  # how many ElementwiseKernel objects fuse has built


def host_scalar(value: Any, dtype: numpy.dtype) -> Any:
    """``value`` as a NumPy scalar of ``dtype``, converted as CuPy converts a Python scalar
    for a kernel (NumPy's assignment, ``PyArray_Pack``)."""
    buf = numpy.empty((), dtype=dtype)
    buf[()] = value
    return buf[()]


def c_identifier(name: str) -> str:
    """A kernel name from a Python name: ``<lambda>`` becomes ``_lambda_``."""
    name = re.sub(r"\W", "_", name)
    return name if name[:1].isalpha() or name[:1] == "_" else "_" + name


def literal(value: Any, dtype: numpy.dtype, decls: set[str]) -> str:
    """An exact C expression of the Python scalar ``value`` converted to ``dtype``."""
    x = host_scalar(value, dtype)
    kind = dtype.kind
    if kind == "b":
        return "true" if x else "false"
    if kind in "iu":
        bits = int(x) & ((1 << (8 * dtype.itemsize)) - 1)
        return f"(({_scalar.get_typename(dtype, decls)})0x{bits:x}ULL)"
    if kind == "f":
        return _float_literal(x, dtype)
    part = numpy.dtype(f"f{dtype.itemsize // 2}")
    return (f"{_scalar.get_typename(dtype, decls)}({_float_literal(x.real, part)}, "
            f"{_float_literal(x.imag, part)})")


def _float_literal(x: Any, dtype: numpy.dtype) -> str:
    if dtype.itemsize == 4:
        return f"__int_as_float(0x{int(numpy.float32(x).view(numpy.uint32)):08x})"
    bits = int(numpy.float64(x).view(numpy.uint64))
    return f"__longlong_as_double((long long)0x{bits:016x}ULL)"


def _cast(expr: str, source: numpy.dtype, target: numpy.dtype, decls: set[str]) -> str:
    """``expr`` of ``source`` converted to ``target`` as CuPy's ``astype`` does
    (``out0 = in0``: C++ conversion)."""
    t = _scalar.get_typename(target, decls)
    if target.kind == "c":
        return f"{t}({expr})"
    if source.kind == "c":
        if target.kind == "b":
            return f"({expr}.real() != 0 || {expr}.imag() != 0)"
        return f"static_cast<{t}>({expr}.real())"
    return f"static_cast<{t}>({expr})"


class _Routines:
    """The device functions of a kernel, one per (ufunc loop, argument dtypes)."""

    def __init__(self, backend: Any, decls: set[str]):
        self.backend = backend
        self.decls = decls
        self.preambles: list[str] = []
        self.functions: list[str] = []
        self.names: dict[tuple[Any, ...], str] = {}

    def _loop(self, name: str, dtypes: tuple[numpy.dtype, ...]) -> tuple[Any, ...]:
        """(preamble, routine, loop input dtypes, loop output dtype, extra C arguments)."""
        registered = ROUTINES.get(name)
        if registered is not None:
            found = registered(dtypes)
            if found is not None:
                return (*found, ())
        # The special-case fixes' own ufuncs first: the backend's floor_divide and
        # remainder are Python wrappers (casting scalars) around them.
        fn = _cupy_special.UFUNCS.get(name) or getattr(self.backend, name)
        # The adapter's vectorised kernels (_cupy_kernels) compute a ufunc's own loops.
        fn = getattr(fn, "ufunc", fn)
        extra: tuple[str, ...] = ()
        if name == "round":
            # Note: cupy.round is a Python function calling the ufunc _round_ufunc(x, 0).
            fn, extra = cupy._core.core._round_ufunc, ("0LL",)
            dtypes = (*dtypes, numpy.dtype("int64"))
        elif not isinstance(fn, cupy.ufunc):
            DIFFERS_FROM_EAGER.add(name)
            fn = getattr(cupy, _RENAMES.get(name, name))
        op = fn._ops._guess_routine_from_in_types(dtypes)
        if op is None or op.routine is None:
            raise TypeError(f"fuse: CuPy has no {name} loop for {', '.join(map(str, dtypes))}")
        return fn._preamble, op.routine, op.in_types, op.out_types[0], extra

    def call(self, name: str, args: list[str], dtypes: tuple[numpy.dtype, ...],
             out: numpy.dtype) -> str:
        """A C call of the device function computing ``name`` on ``dtypes`` into ``out``."""
        key = (name, dtypes, out)
        fname = self.names.get(key)
        if fname is None:
            preamble, routine, loop_in, loop_out, extra = self._loop(name, dtypes)
            if preamble and preamble not in self.preambles:
                self.preambles.append(preamble)
            fname = self.names[key] = f"_xpgpu_{name}_{len(self.names)}"
            tn = self.typename
            n = len(dtypes)
            params = [f"{tn(d)} in{i}_" for i, d in enumerate(dtypes)]
            body = [f"typedef {tn(t)} in{i}_type;" for i, t in enumerate(loop_in)]
            body.append(f"typedef {tn(loop_out)} out0_type;")
            # The arguments are converted to the loop's types here, as CuPy's kernels
            # convert their inputs; the extra inputs are constants (round's decimals).
            body += [f"{tn(t)} in{i} = ({tn(t)}) in{i}_;" for i, t in enumerate(loop_in[:n])]
            body += [f"{tn(t)} in{i} = {e};" for i, (t, e) in
                     enumerate(zip(loop_in[n:], extra, strict=True), n)]
            body += [f"{tn(loop_out)} out0;", routine.strip().rstrip(";") + ";",
                     f"{tn(out)} out0_;", "out0_ = out0;", "return out0_;"]
            # A floating-point operation is a call that is never inlined: ptxas (fmad on,
            # as for CuPy's kernels) contracts a multiply and an add into an FMA only
            # within one function, so one operation's multiply never meets the next one's
            # add, as in eager code (one kernel per operation). Inside the function the
            # operation's own code is compiled, and contracts, exactly as in CuPy's kernel.
            inline = "__noinline__" if _FLOATING & {d.kind for d in (*dtypes, out)} \
                else "__forceinline__"
            self.functions.append(
                f"__device__ {inline} {tn(out)} {fname}({', '.join(params)}) {{\n  "
                + "\n  ".join(body) + "\n}")
        return f"{fname}({', '.join(args)})"

    def typename(self, dtype: numpy.dtype) -> str:
        return _scalar.get_typename(dtype, self.decls)  # type: ignore[no-any-return]


class FusedKernel:
    """One generated kernel: its parts, and the ElementwiseKernel built from them."""

    def __init__(self, name: str, in_params: str, out_params: str, operation: str,
                 preamble: str, array_params: list[int], scalar_params: list[int]):
        self.name, self.in_params, self.out_params = name, in_params, out_params
        self.operation, self.preamble = operation, preamble
        self.array_params, self.scalar_params = array_params, scalar_params  # which to pass
        self._kernel: Any = None

    def source(self) -> str:
        """The generated parts, as ``cupy.ElementwiseKernel`` receives them."""
        return (f"// {self.name}\n// in: {self.in_params}\n// out: {self.out_params}\n"
                f"{self.preamble}\n// operation:\n{self.operation}\n")

    def standalone(self) -> str:
        """A self-contained translation unit, the operation wrapped by hand in a
        ``__global__`` loop over contiguous inputs, for a syntax check with nvcc."""
        decls: set[str] = set()
        params, loads = [], []
        for kind, spec in (("in", self.in_params), ("out", self.out_params)):
            for p in filter(None, (s.strip() for s in spec.split(","))):
                dtype, name = p.split()
                t = _scalar.get_typename(numpy.dtype(dtype), decls)
                if kind == "out":
                    params.append(f"{t} *_raw_{name}")
                    loads.append(f"{t} &{name} = _raw_{name}[i];")
                elif name.startswith("s"):
                    params.append(f"{t} {name}")
                else:
                    params.append(f"const {t} *_raw_{name}")
                    loads.append(f"const {t} &{name} = _raw_{name}[i];")
        return ("#include <cupy/complex.cuh>\n#include <cupy/carray.cuh>\n"
                "#include <cupy/math_constants.h>\n" + _scalar.format_type_decls(decls)
                + self.preamble + f'\nextern "C" __global__ void {self.name}('
                + ", ".join([*params, "long long _n"]) + ") {\n"
                "  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; "
                "i < _n; i += (long long)blockDim.x * gridDim.x) {\n    "
                + "\n    ".join(loads) + "\n" + self.operation + "\n  }\n}\n")

    def __call__(self, device_index: int, arrays: list[Any], scalars: list[Any]) -> Any:
        kernel = self._kernel
        if kernel is None:
            global compiled_kernels
            kernel = self._kernel = cupy.ElementwiseKernel(
                self.in_params, self.out_params, self.operation, self.name,
                preamble=self.preamble)
            compiled_kernels += 1
        if cupy.cuda.runtime.getDevice() != device_index:
            with cupy.cuda.Device(device_index):
                return kernel(*arrays, *scalars)
        return kernel(*arrays, *scalars)


class FusedReduction(FusedKernel):
    """A traced element-wise graph ending in ``sum``: one ``cupy.ReductionKernel`` whose
    map is the graph (a device function computing it per element, with the routines of
    the element-wise kernels) and whose reduction is CuPy's sum (``a + b``, identity 0, in
    the sum's dtype) over ``axes`` of the broadcast operands."""

    def __init__(self, name: str, in_params: str, out_params: str, map_expr: str,
                 preamble: str, array_params: list[int], scalar_params: list[int],
                 reduce_type: str, axes: Any, keepdims: bool):
        super().__init__(name, in_params, out_params, f"o0 = {map_expr}", preamble,
                         array_params, scalar_params)
        self.map_expr, self.reduce_type = map_expr, reduce_type
        self.axes, self.keepdims = axes, keepdims

    def source(self) -> str:
        return (f"// {self.name}: ReductionKernel, sum over axes {self.axes}\n"
                f"// in: {self.in_params}\n// out: {self.out_params}\n{self.preamble}\n"
                f"// map: {self.map_expr}\n// reduce: a + b (identity 0, "
                f"{self.reduce_type})\n")

    def __call__(self, device_index: int, arrays: list[Any], scalars: list[Any]) -> Any:
        kernel = self._kernel
        if kernel is None:
            global compiled_kernels
            kernel = self._kernel = cupy.ReductionKernel(
                self.in_params, self.out_params, self.map_expr, "a + b", "o0 = a", "0",
                self.name, reduce_type=self.reduce_type, preamble=self.preamble)
            compiled_kernels += 1
        if cupy.cuda.runtime.getDevice() != device_index:
            with cupy.cuda.Device(device_index):
                return kernel(*arrays, *scalars, axis=self.axes, keepdims=self.keepdims)
        return kernel(*arrays, *scalars, axis=self.axes, keepdims=self.keepdims)


def build(graph: Any, outputs: list[int], name: str, backend: Any) -> FusedKernel:
    """The kernel computing the nodes ``outputs`` of ``graph`` (see ``_fuse_trace``); it
    takes the array and scalar parameters its outputs depend on. A ``sum`` output is a
    kernel of its own: a ``FusedReduction``."""
    decls: set[str] = set()
    routines = _Routines(backend, decls)
    nodes = graph.nodes
    reduction = nodes[outputs[0]] if nodes[outputs[0]].op == "sum" else None
    if reduction is not None:
        outputs = [reduction.args[0]]  # the map: the summed values, per element
    live = _live(nodes, outputs)
    lines = []
    tn = routines.typename
    for i in sorted(live):
        node = nodes[i]
        dt = node.dtype.dtype
        t = tn(dt)
        op = node.op
        a = [f"v{j}" for j in node.args]
        if op == "array":
            expr = f"a{node.data}"
        elif op == "scalar":
            expr = f"s{node.data}"
        elif op == "const":
            expr = literal(node.data, dt, decls)
        elif op == "cast":
            expr = _cast(a[0], nodes[node.args[0]].dtype.dtype, dt, decls)
        elif op == "where":
            expr = f"({a[0]} ? {a[1]} : {a[2]})"
        elif op in ("real", "imag"):
            expr = f"{a[0]}.{op}()"
        else:
            expr = routines.call(
                node.data, a, tuple(nodes[j].dtype.dtype for j in node.args), dt)
        lines.append(f"const {t} v{i} = {expr};")
    arrays = {nodes[i].data: nodes[i].dtype for i in live if nodes[i].op == "array"}
    scalars = sorted(nodes[i].data for i in live if nodes[i].op == "scalar")
    in_params = [f"{arrays[j].name} a{j}" for j in sorted(arrays)]
    in_params += [f"{graph.scalars[j][1].name} s{j}" for j in scalars]
    if reduction is not None:
        out_t = tn(reduction.dtype.dtype)
        params = [f"{tn(arrays[j].dtype)} a{j}" for j in sorted(arrays)]
        params += [f"{tn(graph.scalars[j][1].dtype)} s{j}" for j in scalars]
        names = [f"a{j}" for j in sorted(arrays)] + [f"s{j}" for j in scalars]
        fname = f"_xpgpu_map_{c_identifier(name)}"
        mapper = (f"__device__ {out_t} {fname}({', '.join(params)}) {{\n  "
                  + "\n  ".join(lines) + f"\n  return v{outputs[0]};\n}}")
        preamble = "\n".join([_scalar.format_type_decls(decls), *routines.preambles,
                              *routines.functions, mapper])
        axes, keepdims = reduction.data
        return FusedReduction(c_identifier(name), ", ".join(in_params),
                              f"{reduction.dtype.dtype.name} o0",
                              f"{fname}({', '.join(names)})", preamble, sorted(arrays),
                              scalars, out_t, axes, keepdims)
    lines += [f"o{k} = v{n};" for k, n in enumerate(outputs)]
    out_params = [f"{nodes[n].dtype.dtype.name} o{k}" for k, n in enumerate(outputs)]
    preamble = "\n".join([_scalar.format_type_decls(decls), *routines.preambles,
                          *routines.functions])
    return FusedKernel(c_identifier(name), ", ".join(in_params), ", ".join(out_params),
                       "\n".join(lines), preamble, sorted(arrays), scalars)


def _live(nodes: list[Any], outputs: list[int]) -> set[int]:
    live: set[int] = set()
    stack = list(outputs)
    while stack:
        i = stack.pop()
        if i not in live:
            live.add(i)
            stack.extend(nodes[i].args)
    return live
