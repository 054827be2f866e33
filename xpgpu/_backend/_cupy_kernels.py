"""xpgpu's own element-wise kernels on CUDA: vectorised, for contiguous operands.

CuPy's element-wise kernels handle one element per thread with scalar loads; with 4-byte
types they reach well under the GPU's memory bandwidth. For C-contiguous operands of one
shape (or an array with a Python scalar), 16-byte aligned, of at least ``THRESHOLD``
elements, the functions here run a kernel generated from the SAME loop that CuPy's ufunc
picks (its ``_ops`` table, preamble and routine; xpgpu's special-case ufuncs where the
backend has a fix), with vectorised loads and stores: each thread moves whole 16-byte
vectors (``float4``-like aligned structs), at least ``PER_THREAD`` elements. Every other call
(strided, broadcast, misaligned, small, 0-size, an unknown loop) is CuPy's, unchanged.

Bit for bit the CuPy path's results, because the per-element code is CuPy's:

- the same routine text, typedefs (``in0_type``...), input conversions (CuPy's
  ``fix_cast_expr``: bool as ``? 1 : 0``, complex to real as ``.real()``) and preamble,
  compiled by NVRTC through CuPy's ``compile_with_cache`` with the options CuPy gives its
  ufuncs (``--std=c++17``, CuPy's headers, ``--fmad`` at its default, as CuPy's; the
  float64 loops of ``NO_FTZ`` without CuPy's ``-ftz=true``, see ``_compile``, their bits
  checked as every loop's): the
  element function is inlined into the loop exactly as CuPy's routine is, so the
  compiler contracts (or not) the same expressions. One kernel computes one operation:
  nothing is fused here, so no contraction crosses operations.
- Python scalars are converted on the host to the loop's input dtype as CuPy does
  (NumPy's assignment), and passed as kernel arguments of that C type.

Kernels are cached per (function, device, operand dtypes or scalar types). Where the
compiled module ``_launch`` was built, each function is its ``dispatch``: a cached kernel
runs from C (the tests, the scalars' conversion and the launch: a programmatic dependent
launch where ``DEPENDENT`` and compute capability 9.0+, into a result that nothing
references any more where one is kept, see ``_launch.c``), and the Python function here,
the definition, runs only to compile a kernel and for what C hands back to it.
``THRESHOLD`` (elements) is a module attribute so tests can force either path.
"""

from __future__ import annotations

import functools
import hashlib
import importlib
import math
from collections.abc import Callable
from typing import Any

import cupy
import numpy
from cupy._core import _scalar, core
from cupy._core.core import compile_with_cache
from cupy.cuda import compiler, function

from . import _cupy_special
from ._cupy_fuse import host_scalar
from ._cupy_launch import compiled, dispatch, launch

# Calls with fewer elements take CuPy's path. With the compiled dispatch (_launch.c) that is
# none: its call and launch cost less than a CuPy ufunc's at every size (1000 float32 on an
# H100 host: about 7 µs, CuPy's add 15.6, sin 9.5). Without it, a call of the Python path
# costs more than CuPy's below 2**16 elements (launch-bound: nothing to gain). astype takes
# its kernel at every size: CuPy's astype costs more per call than a launch (measured on an
# H200, 1000 float32 to float64: 10.0 µs, CuPy 10.0, CuPy's path through xpgpu 12.3).
THRESHOLD = 1 if compiled else 1 << 16
ASTYPE_THRESHOLD = 1
BLOCK = 256
# Elements a thread, at least: whole 16-byte vectors of every operand, as many as make
# PER_THREAD elements (float64, int64: two vectors; complex128: four), as PyTorch's
# kernels take four elements a thread; two vectors where an operand is float32 or float16
# (see Kernel). Measured on an H100 at 2**26 elements, four float4 a thread were no faster
# (binary) or up to 2% slower (one input) than one; for float64, two vectors were up to
# 11% faster than one where the arithmetic, not the memory, is the limit (exp, atan,
# log1p, asin), the same elsewhere.
PER_THREAD = 4
# Vectors a thread of the functions whose arithmetic, not the memory, sets their speed,
# by (function, the loop's first input dtype). Measured on an H200 at 2**26 elements, the
# kernels of one to four vectors side by side in one process (GPU time of 10 back-to-back
# calls, 15 rounds in rotating order; PyTorch's time over the kernel's, 1 / 2 / 3 / 4):
# float32 pow 0.88 / 0.98 / 0.97 / 1.02, floor_divide 1.01 / 0.99 / 0.93 / 0.87; float64
# asin 0.73 / 0.92 / 0.93 / 0.98, log2 0.91 / 0.99 / 1.00 / 1.01, log1p 0.95 / 0.99 /
# 0.99 / 1.00, remainder 0.91 / 0.98 / 1.01 / 1.00, atanh 0.96 / 1.00 / 0.99 / 1.01, acos
# 0.95 / 1.00 / 0.98 / 1.00 (exp 0.93 / 1.05 / 1.03 / 1.02, sin float32 1.00 / 1.00 /
# 0.99 / 0.97: the default). atan: 0.99 -> 1.02 with four in separate runs.
VECTORS = {
    ("pow", "float32"): 4, ("floor_divide", "float32"): 1,
    **{(name, "float64"): 4 for name in (
        "acos", "asin", "atan", "atanh", "log2", "log10", "log1p", "remainder", "tanh")},
}
# Loops compiled without the -ftz=true that CuPy adds to every kernel's options (flush
# float32 subnormals to zero), by (function, the loop's first input dtype). float64 tanh's
# libdevice code scales its argument in float32 (exp2's range reduction): under -ftz=true
# the compiler adds a test, a scaling and two flushing multiplications an element, about 6
# of its 113 instructions (PyTorch's kernel, built without it: 103). With the GPU at its
# power limit (the SM clock at 1.5-1.7 GHz), the instructions set its speed: measured on
# an H200 at 2**26 elements, after 60 s of load, PyTorch's time over the kernel's: two
# vectors 0.950 (as CuPy's options) / 0.985 (without -ftz); four 0.956 / 1.002. The bits
# are CuPy's (test_elementwise_bits, subnormals included; PyTorch's are the same). Not
# every float64 loop keeps its bits without it: log, log2 and log10 of subnormals differ.
NO_FTZ = frozenset({("tanh", "float64")})
# Threads a block where a thread takes several vectors, as PyTorch's 128. Measured on an
# H100 (float64, GPU time of CUDA graphs, rounds interleaved with PyTorch's), together
# with whole blocks that test no vector (_VECTORS): asin 0.95 -> 1.01 and atan 0.99 ->
# 1.03 of PyTorch's throughput at 2**26, 0.90 -> 1.06 and 0.95 -> 1.09 at 2**20; blocks
# of 256 with the same loop gave 1.00 and 1.02 at 2**26. One vector a thread (bool, int32,
# floor_divide of float32) keeps BLOCK, 256: for float32's one-vector loop, before it took
# two, 128 was 0.3% slower.
VECTORS_BLOCK = 128
# Programmatic dependent launch (compute capability 9.0 and later): each kernel first
# waits for the work before it on its stream (griddepcontrol.wait, a no-op in a plain
# launch), so the compiled dispatch may launch it to start before that work ends: the
# GPU has the grid ready and runs it as the kernel before ends, instead of a launch's
# latency after. Measured on an H200 with an add kernel at 2**20 elements, back to back:
# float32 3.2 -> 2.0 µs a kernel, float64 5.0 -> 3.8 (PyTorch's add 3.2 and 5.2).
DEPENDENT = True

_ndarray = cupy.ndarray
_empty = cupy.ndarray  # cupy.empty without its Python layer
_int64 = numpy.int64
# Note: CuPy's ufuncs are compiled with these options (cupy/_core/_kernel.pyx,
# _get_ufunc_kernel); compile_with_cache prepends <cupy/carray.cuh> and CuPy's include
# paths, as for CuPy's own kernels.
_OPTIONS = ("--std=c++17",)
_HEADERS = "".join(f"#include <{h}>\n" for h in core._cupy_header_list)
_KINDS = {"b": 0, "u": 1, "i": 1, "f": 2, "c": 3}  # bool < integer < real < complex
_PY_KIND = {bool: 0, int: 1, float: 2, complex: 3}
# A loop's last inputs given as C constants: (the loop's input dtype, the C expression).
Constants = tuple[tuple[numpy.dtype, str], ...]

compiled_kernels = 0  # how many kernels this module has built (for tests)
failed: list[Any] = []  # (name, dtypes) whose generated kernel did not compile


def _compile(source: str, ftz: bool = True) -> Any:
    """The module of ``source`` compiled as CuPy compiles its ufuncs (``compile_with_cache``),
    or, where not ``ftz``, the same without ``-ftz=true``.

    Note: CuPy appends ``-ftz=true`` to every kernel's options (cupy/cuda/compiler.py,
    _compile_with_cache_cuda), so that path compiles here: CuPy's headers and options
    (``assemble_cupy_compiler_options``), NVRTC through ``compile_using_nvrtc`` (which adds
    the architecture, as CuPy's), and CuPy's kernel cache (``CUPY_CACHE_DIR``; CuPy 14.1
    and later, else none) under a key of its own: CuPy's version (its headers), the
    architecture, options, NVRTC's version and the source."""
    if ftz:
        return compile_with_cache(source, _OPTIONS)
    source = _HEADERS + source
    options = core.assemble_cupy_compiler_options(_OPTIONS)
    arch = compiler._get_arch()
    key = repr((cupy.__version__, arch, options, compiler._get_nvrtc_version(), "no -ftz",
                source))
    name = hashlib.sha1(key.encode()).hexdigest() + ".cubin"
    cache = getattr(compiler, "_kernel_cache_backend", None)
    binary = cache and cache.load(name)
    if binary is None:
        binary, _ = compiler.compile_using_nvrtc(source, options, arch, cache_in_memory=True)
        if cache:
            cache.save(name, binary, source)
    module = function.Module()
    module.load(binary)
    return module


def _fix_cast(src: numpy.dtype, dst: numpy.dtype, expr: str) -> str:
    """CuPy's input conversion of an array element (``_kernel.pyx: fix_cast_expr``)."""
    if src.kind == dst.kind:
        return expr
    if src.kind == "b":
        return f"(({expr}) ? 1 : 0)"
    if src.kind == "c":
        if dst.kind == "b":
            return f"(({expr}) != {_scalar.get_typename(src)}())"
        return f"({expr}).real()"
    return expr



_SOURCE = """
{decls}
{typedefs}
{preamble}
template <typename T, int N> struct alignas(sizeof(T) * N) _xpgpu_vec {{ T v[N]; }};
__device__ __forceinline__ out0_type _xpgpu_op({op_params}) {{
  out0_type out0;
  {body};
  return out0;
}}
extern "C" __global__ void {name}({params}) {{
#if __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
{loop}
  if (blockIdx.x == gridDim.x - 1) {{
    for (long long e = nv * {n} + threadIdx.x; e < n; e += blockDim.x) {{
      po[e] = {tail};
    }}
  }}
}}
"""
# One vector a thread: the vectors n holds whole (nv), each tested; the grid's last block
# then does the elements after them one by one.
_ONE = """\
  const long long nv = n / {n};
  const long long j = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (j < nv) {{
    {load}
    _xpgpu_vec<{out}, {n}> r;
    #pragma unroll
    for (int k = 0; k < {n}; ++k) {{
      r.v[k] = {store};
    }}
    reinterpret_cast<_xpgpu_vec<{out}, {n}> *>(po)[j] = r;
  }}"""
# {v} vectors a thread, a block's width apart (coalesced): all loads, then all stores. Only
# the blocks whose {block} x {v} vectors n holds whole run them (nb), with no test a vector
# (as PyTorch's vectorized kernel); the grid's last block then does the elements after them
# (fewer than a block's) one by one.
_VECTORS = """\
  const long long nb = n / ({block}LL * {v} * {n});
  const long long nv = nb * {block} * {v};
  if (blockIdx.x < nb) {{
    const long long j0 = (long long)blockIdx.x * {block} * {v} + threadIdx.x;
    {decl}
    #pragma unroll
    for (int u = 0; u < {v}; ++u) {{
      const long long j = j0 + u * {block};
      {load}
    }}
    #pragma unroll
    for (int u = 0; u < {v}; ++u) {{
      const long long j = j0 + u * {block};
      _xpgpu_vec<{out}, {n}> r;
      #pragma unroll
      for (int k = 0; k < {n}; ++k) {{
        r.v[k] = {store};
      }}
      reinterpret_cast<_xpgpu_vec<{out}, {n}> *>(po)[j] = r;
    }}
  }}"""


class Kernel:
    """One generated kernel of one loop: array operands (``operands[i]`` their dtype) and
    scalar operands (``operands[i]`` None; passed converted to ``scalars[i]``, the loop's
    dtype), then the loop's last inputs as C constants (``constants``: round's decimals),
    one C-contiguous output of dtype ``out``.

    Each thread loads V 16-byte vectors (N elements each; V = ``vectors`` where given,
    else PER_THREAD // N, at least one; two where an operand is float32 or float16) of
    every array operand, then computes and stores V * N results, in blocks of ``block``
    threads; the grid's last block does the elements after the vectors one by one.
    Compiled with CuPy's ``-ftz=true`` where ``ftz``, else without it (``_compile``).
    """

    __slots__ = ("_f", "block", "out", "per_thread", "scalars", "source", "spec")

    def __init__(self, name: str, preamble: str, body: str, in_loop: tuple[numpy.dtype, ...],
                 out_loop: numpy.dtype, operands: tuple[numpy.dtype | None, ...],
                 out: numpy.dtype, extra: str = "", constants: tuple[str, ...] = (),
                 vectors: int | None = None, ftz: bool = True):
        decls: set[str] = set()

        def tn(d: numpy.dtype) -> str:
            return _scalar.get_typename(d, decls)  # type: ignore[no-any-return]

        dtypes = [d for d in (*operands, out) if d is not None]
        n = max(1, 16 // max(d.itemsize for d in dtypes))
        # Two vectors a thread for float32 (or float16) operands, as PyTorch's 32 bytes a
        # thread on compute capability 9.0 and later (ATen/native/cuda/CUDALoops.cuh).
        # Measured on an H200 at 2**26 elements (PyTorch's time over the kernel's, one
        # vector -> two): acosh 0.93 -> 1.005, asinh 0.95 -> 1.006, atanh 0.97 -> 1.007,
        # isnan 0.97 -> 1.016, signbit 0.97 -> 1.013, pow 0.88 -> 0.99 (four: VECTORS),
        # the rest 1.00-1.02 either way. complex64 takes two vectors a thread too, as its
        # functions' arithmetic (sin, exp: sincosf, expf) is the limit: PyTorch's time over
        # the kernel's for sin, cos, exp, sinh: one vector 0.87, 0.89, 0.96, 0.87; two
        # 1.02, 1.01, 1.04, 1.02. The bits are CuPy's, subnormals and the special values
        # included, for every function and loop (tests/test_kernels.py).
        single = any(d.kind == "f" and d.itemsize < 8 for d in dtypes)
        v = vectors or (2 if single else max(1, PER_THREAD // n))
        block = BLOCK if v == 1 else VECTORS_BLOCK
        params, decl, load, vec, tail = [], [], [], [], []
        for i, d in enumerate(operands):
            if d is None:  # a scalar, already of the loop's dtype
                params.append(f"const in{i}_type s{i}")
                vec.append(f"s{i}")
                tail.append(f"s{i}")
                continue
            t = tn(d)
            params.append(f"const {t} *__restrict__ p{i}")
            vector = f"reinterpret_cast<const _xpgpu_vec<{t}, {n}> *>(p{i})[j]"
            if v == 1:
                load.append(f"const _xpgpu_vec<{t}, {n}> a{i} = {vector};")
                vec.append(f"in{i}_type({_fix_cast(d, in_loop[i], f'a{i}.v[k]')})")
            else:
                decl.append(f"_xpgpu_vec<{t}, {n}> a{i}[{v}];")
                load.append(f"a{i}[u] = {vector};")
                vec.append(f"in{i}_type({_fix_cast(d, in_loop[i], f'a{i}[u].v[k]')})")
            tail.append(f"in{i}_type({_fix_cast(d, in_loop[i], f'p{i}[e]')})")
        for i, c in enumerate(constants, len(operands)):
            vec.append(f"in{i}_type({c})")
            tail.append(f"in{i}_type({c})")
        to = tn(out)
        params += [f"{to} *__restrict__ po", "const long long n"]
        typedefs = [f"typedef {tn(t)} in{i}_type;" for i, t in enumerate(in_loop)]
        typedefs.append(f"typedef {tn(out_loop)} out0_type;")
        loop = (_ONE if v == 1 else _VECTORS).format(
            n=n, v=v, block=block, out=to, decl="\n  ".join(decl),
            load=("\n    " if v == 1 else "\n      ").join(load),
            # The output conversion as CuPy's (an assignment, fix_cast_expr's rules).
            store=_fix_cast(out_loop, out, f"_xpgpu_op({', '.join(vec)})"))
        self.source = _SOURCE.format(
            decls=_scalar.format_type_decls(decls), typedefs="\n".join(typedefs),
            preamble=preamble, body=body.strip().rstrip(";"), n=n, name=name,
            op_params=", ".join(f"in{i}_type in{i}" for i in range(len(in_loop))),
            params=", ".join(params), loop=loop,
            tail=_fix_cast(out_loop, out, f"_xpgpu_op({', '.join(tail)})"))
        self.per_thread = n * v
        self.block = block
        self.out = out
        self.scalars = tuple(None if d is not None else t
                             for d, t in zip(operands, in_loop, strict=False))
        global compiled_kernels
        self._f = _compile(self.source, ftz).get_function(name)
        compiled_kernels += 1
        # What the compiled dispatch (_launch.c) launches: "a" for an array operand, the
        # loop dtype's char for a scalar, "-" for an argument that is not a parameter
        # (``extra``: astype's dtype).
        codes = "".join("a" if d is not None else t.char
                        for d, t in zip(operands, in_loop, strict=False)) + extra
        self.spec = (self._f.ptr, n * v, block, out, codes.encode(),
                     DEPENDENT and _dependent_launch(cupy.cuda.Device().id))

    def __call__(self, shape: tuple[int, ...], size: int, args: list[Any]) -> Any:
        out = _empty(shape, self.out)
        block = self.block
        launch(self._f, (size // self.per_thread + block - 1) // block or 1, block,
               (*args, out, _int64(size)))
        return out


@functools.cache
def _dependent_launch(device: int) -> bool:
    """Whether the device runs programmatic dependent launches (compute capability 9.0+).

    Note: the kernels' wait is compiled where ``__CUDA_ARCH__ >= 900``: CuPy compiles for
    the device's architecture, capped at the newest its NVRTC knows, and the NVRTC of
    every CUDA that CuPy 14 supports (12 and later) knows 9.0, so a device of 9.0 or later
    always runs a kernel that waits."""
    return int(cupy.cuda.Device(device).compute_capability) >= 90


def _aligned(a: Any) -> bool:
    """C-contiguous and 16-byte aligned (CuPy allocates 256-byte aligned memory; a view
    with an offset may not be). Note: ``_c_contiguous`` is CuPy's flag itself (a readonly
    attribute); ``flags.c_contiguous`` builds a flags object per call."""
    return a._c_contiguous and not a.data.ptr & 15  # type: ignore[no-any-return]


def _loop(ufunc: Any, dtypes: tuple[numpy.dtype, ...]) -> Any:
    op = ufunc._ops._guess_routine_from_in_types(dtypes)
    if op is None or op.routine is None or len(op.out_types) != 1:
        return None
    return op


def _ufunc_kernel(ufunc: Any, name: str, operands: tuple[numpy.dtype | None, ...],
                  dtypes: tuple[numpy.dtype, ...], constants: Constants = ()) -> Kernel | None:
    """The kernel of ``ufunc``'s loop for input ``dtypes`` (scalars where ``operands`` is
    None) and ``constants``, or None where CuPy has no plain loop for them."""
    dtypes = (*dtypes, *(d for d, _ in constants))
    op = _loop(ufunc, dtypes)
    if op is None:
        return None
    in_loop = tuple(numpy.dtype(t) for t in op.in_types)
    if len(in_loop) != len(dtypes):
        return None  # a loop with more inputs than given
    out = numpy.dtype(op.out_types[0])
    tag = "_".join("s" if d is None else d.char for d in operands).replace("?", "b_")
    try:
        return Kernel(f"xpgpu_{name}_{tag}", ufunc._preamble or "", op.routine, in_loop,
                      out, operands, out, constants=tuple(c for _, c in constants),
                      vectors=VECTORS.get((name, in_loop[0].name)),
                      ftz=(name, in_loop[0].name) not in NO_FTZ)
    except cupy.cuda.compiler.CompileException:
        failed.append((name, dtypes))  # a routine that needs CuPy's own loop
        return None


_MISSING = object()


def _generic(ufunc: Any, name: str, cache: dict[Any, Any], args: tuple[Any, ...],
             constants: Constants = ()) -> Any:
    """xpgpu's kernel for ``args`` (arrays of one shape, contiguous and aligned, and Python
    scalars that CuPy casts to the arrays' dtype), or None: the caller takes CuPy's path.

    The kernel is cached by the key (the first array's device, then each argument's dtype
    or, for a Python scalar, its type), None where the key rules it out: the compiled
    dispatch (_launch.c) makes the same tests as the loop below and runs what is cached."""
    ref = None
    for a in args:
        if type(a) is _ndarray:
            if ref is None:
                if a.size < THRESHOLD:
                    return None
                ref = a
            elif a.shape != ref.shape:
                return None
            if not _aligned(a):
                return None
    if ref is None:
        return None
    key = (ref.data.device_id, *(a.dtype if type(a) is _ndarray else type(a) for a in args))
    k = cache.get(key, _MISSING)
    if k is _MISSING:
        k = cache[key] = _generic_kernel(ufunc, name, args, constants)
    if k is None:
        return None
    values = [a if t is None else host_scalar(a, t) for a, t in zip(args, k.scalars, strict=True)]
    return k(ref.shape, ref.size, values)


def _generic_kernel(ufunc: Any, name: str, args: tuple[Any, ...],
                    constants: Constants = ()) -> Kernel | None:
    """The kernel of ``ufunc``'s loop for the arguments' dtypes and scalar types, or None."""
    rd = [a for a in args if type(a) is _ndarray][-1].dtype  # the scalars' dtype
    # Note: the arrays (past where's condition) share one dtype: with two, the generated
    # kernel may return NaN results with other sign and payload bits than CuPy's (the
    # converted operand's NaN); CuPy's path keeps them.
    for a in args[1:] if name == "where" else args:
        if type(a) is _ndarray and a.dtype != rd:
            return None
    kind = _KINDS[rd.kind]
    if not all(type(a) is _ndarray or _PY_KIND.get(type(a), 9) <= kind for a in args):
        return None
    return _ufunc_kernel(ufunc, name, tuple(a.dtype if type(a) is _ndarray else None for a in args),
                         tuple(a.dtype if type(a) is _ndarray else rd for a in args), constants)


def elementwise(name: str, fallback: Callable[..., Any], ufunc: Any,
                constants: Constants = ()) -> Callable[..., Any]:
    """``fallback`` (CuPy's function, or xpgpu's fix) with xpgpu's own kernel computing
    ``ufunc``'s loops for contiguous operands (see ``_generic``), its last inputs the
    ``constants`` ((dtype, C expression) pairs); ``where`` too."""
    cache: dict[Any, Any] = {}

    def call(*args: Any, **kw: Any) -> Any:
        out = None if kw else _generic(ufunc, name, cache, args, constants)
        return fallback(*args, **kw) if out is None else out

    call.__name__ = name
    call.ufunc = ufunc  # type: ignore[attr-defined]  # what fuse runs (_cupy_fuse)
    return dispatch(fallback, call, cache, globals(), "THRESHOLD")


# Note: CuPy's clip (cupy/_core/_routines_math.pyx, _ndarray_clip) replaces a bound of
# None by -inf/inf (floating) or the integer dtype's limits, then calls its clip ufunc.
def _clip_bounds(dtype: numpy.dtype, lo: Any, hi: Any) -> tuple[Any, Any]:
    if dtype.kind == "f":
        return (-math.inf if lo is None else lo), (math.inf if hi is None else hi)
    info = numpy.iinfo(dtype)
    return (int(info.min) if lo is None else lo), (int(info.max) if hi is None else hi)


def clip(fallback: Callable[..., Any], ufunc: Any) -> Callable[..., Any]:
    cache: dict[Any, Any] = {}

    def call(x: Any, lo: Any = None, hi: Any = None, **kw: Any) -> Any:
        if not kw and type(x) is _ndarray and x.size >= THRESHOLD and x.dtype.kind in "iuf" and (
                lo is not None or hi is not None):
            lo_, hi_ = _clip_bounds(x.dtype, lo, hi)
            out = _generic(ufunc, "clip", cache, (x, lo_, hi_))
            if out is not None:
                return out
        return fallback(x, lo, hi, **kw)

    return dispatch(fallback, call, cache, globals(), "THRESHOLD")


# Note: CuPy's where (cupy/_sorting/search.py) converts the condition with astype("?"),
# a copy even of a boolean array (one launch more), then calls its where ufunc: a
# boolean condition goes to the ufunc directly, the same kernel on the same operands.
def _boolean_where(fallback: Callable[..., Any], ufunc: Any) -> Callable[..., Any]:
    def where(condition: Any, x1: Any, x2: Any) -> Any:
        if type(condition) is _ndarray and condition.dtype.kind == "b":
            return ufunc(condition, x1, x2)
        return fallback(condition, x1, x2)

    return where


_COPY_BODY = "out0 = in0"


def astype(fallback: Callable[..., Any]) -> Callable[..., Any]:
    """``x.astype(dtype)`` as CuPy's (its copy ufunc: ``out0 = in0`` in the source's loop,
    converted to the target by the assignment to the output, fix_cast_expr's rules)."""
    cache: dict[Any, Any] = {}

    def call(x: Any, dtype: Any) -> Any:
        if type(x) is not _ndarray or x.size < ASTYPE_THRESHOLD or not _aligned(x):
            return fallback(x, dtype)
        key = (x.data.device_id, x.dtype, dtype)  # as the compiled dispatch's
        k = cache.get(key, _MISSING)
        if k is _MISSING:
            src, dst = x.dtype, numpy.dtype(dtype)
            k = cache[key] = Kernel(f"xpgpu_astype_{src.char}_{dst.char}".replace("?", "b_"),
                                    "", _COPY_BODY, (src,), src, (src,), dst, "-")
        return k(x.shape, x.size, [x])

    return dispatch(fallback, call, cache, globals(), "ASTYPE_THRESHOLD")


def copy(fallback: Callable[..., Any], cast: Callable[..., Any]) -> Callable[..., Any]:
    """``x.copy()``: CuPy's copies a float32 array with its one-element-per-thread copy
    kernel (0.56 of PyTorch's clone at 2**28 elements on an H100); an aligned C-contiguous
    array is copied by the astype kernel to its own dtype (16-byte vectors)."""
    def call(x: Any) -> Any:
        if type(x) is _ndarray and _aligned(x):
            return cast(x, x.dtype)
        return fallback(x)

    return call


def fixes(current: dict[str, Any]) -> dict[str, Any]:
    """The fast functions for ``_cupy.FIXES``, by name: each function of ``current`` (the
    backend's functions so far, by name) that is a CuPy ufunc or one of xpgpu's
    special-case ufuncs, and ``where``, ``clip`` and ``astype``; the function of that
    name in ``current`` is the fallback."""
    out: dict[str, Any] = {}
    for name, func in current.items():
        ufunc = _cupy_special.UFUNCS.get(name, func)
        if isinstance(ufunc, cupy.ufunc) and ufunc.nout == 1 and not ufunc._loop_prep:
            out[name] = elementwise(name, func, ufunc)
    # Note: CuPy's round is a Python function calling the ufunc _round_ufunc(x, 0)
    # (cupy/_core/_routines_math.pyx): the kernel has the decimals as a constant.
    round_ufunc = getattr(cupy._core.core, "_round_ufunc", None)
    if "round" in current and isinstance(round_ufunc, cupy.ufunc):
        out["round"] = elementwise("round", current["round"], round_ufunc,
                                   ((numpy.dtype(numpy.int64), "0LL"),))
    # Note: CuPy's where and clip are Python functions over these ufuncs
    # (cupy/_sorting/search.py, cupy/_core/_routines_math.pyx).
    where_ufunc = getattr(importlib.import_module("cupy._sorting.search"), "_where_ufunc", None)
    if isinstance(where_ufunc, cupy.ufunc):
        out["where"] = elementwise("where", _boolean_where(current["where"], where_ufunc),
                                   where_ufunc)
    clip_ufunc = getattr(cupy._core._routines_math, "clip", None)
    if isinstance(clip_ufunc, cupy.ufunc):
        out["clip"] = clip(current["clip"], clip_ufunc)
    out["astype"] = astype(current["astype"])
    out["copy"] = copy(current["copy"], out["astype"])
    return out
