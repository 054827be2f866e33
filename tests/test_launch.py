"""The CUDA backend's compiled launches (xpgpu/_backend/_launch.c, _cupy_launch.py): which
path each call takes, the kernels' results against NumPy, Python scalars converted as NumPy
converts them, and ``launch`` against CuPy's own launch of the same kernel.

    python -m pytest tests/test_launch.py -m cuda
"""

from __future__ import annotations

import math
import weakref
from typing import Any

import numpy as np
import pytest

from xpgpu import _devices

pytestmark = pytest.mark.cuda

if not _devices.cuda_devices():
    pytest.skip("no CUDA device", allow_module_level=True)

import cupy  # noqa: E402
from cupy._core.core import compile_with_cache  # noqa: E402

from xpgpu._backend import _cupy_kernels as K  # noqa: E402
from xpgpu._backend import _cupy_launch as L  # noqa: E402

if not L.compiled:
    pytest.skip("xpgpu._backend._launch not built", allow_module_level=True)


class Paths:
    """A dispatch over CuPy's add, recording which function each call reached."""

    def __init__(self) -> None:
        self.seen: list[str] = []
        self.cache: dict[Any, Any] = {}
        self.ns = {"THRESHOLD": 1}

        def record_large(*args: Any, **kw: Any) -> Any:  # as _cupy_kernels.elementwise's
            self.seen.append("large")
            out = None if kw else K._generic(cupy.add, "add", self.cache, args)
            return self._small(*args, **kw) if out is None else out

        self.f = L.dispatch(self._small, record_large, self.cache, self.ns, "THRESHOLD")

    def _small(self, *args: Any, **kw: Any) -> Any:
        self.seen.append("small")
        return cupy.add(*args, **kw)

    def __call__(self, *args: Any, **kw: Any) -> tuple[Any, list[str]]:
        self.seen = []
        before = L.launches()
        out = self.f(*args, **kw)
        return out, self.seen + (["kernel"] if L.launches() > before else [])


def test_dispatch_paths() -> None:
    """A cached kernel runs from C; a new key goes to the Python function (which compiles
    and caches it); strided, misaligned, small, mismatched or keyword calls go to CuPy's
    function, as the Python function would send them."""
    p = Paths()
    host = np.arange(1, 1001, dtype=np.float32)
    a, b = cupy.asarray(host), cupy.asarray(host[::-1].copy())
    assert p(a, b)[1] == ["large", "kernel"]  # compiled and cached by the Python function
    assert len(p.cache) == 1
    out, seen = p(a, b)
    assert seen == ["kernel"]  # from C alone
    assert out.dtype == np.float32 and out.shape == (1000,)
    np.testing.assert_array_equal(out.get(), host + host[::-1])
    for args in ((a[::2], b[::2]), (a[1:], b[1:]), (a[:10], b[:10, None]), (a[:0], b[:0])):
        assert p(*args)[1] == ["small"], args
    m = a.reshape(10, 100)
    assert p(m, b.reshape(10, 100))[1] == ["kernel"]
    assert len(p.cache) == 1  # the key is the device and the dtypes, not the shape
    assert p(a, b, dtype=np.float64)[1] == ["large", "small"]  # keywords: Python decides
    p.ns["THRESHOLD"] = 1001  # read on every call
    assert p(a, b)[1] == ["small"]
    p.ns["THRESHOLD"] = 1
    assert p(a, b.astype(np.float64))[1] == ["large", "small"]  # mixed dtypes: None cached
    assert p(a, b.astype(np.float64))[1] == ["small"]


def _exact(v: Any) -> bool:
    """Whether a sum with ``v`` is NumPy's: not NaN (the GPU's own bits) nor a subnormal
    float32 part (flushed to zero)."""
    z = complex(v)
    parts = (z.real, z.imag)
    return not any(map(math.isnan, parts)) and all(p == 0 or abs(p) > 1e-38 for p in parts)


def test_dispatch_scalars_as_numpy_converts_them() -> None:
    """Python scalars pass as the loop's C type, converted as NumPy converts them; values
    outside the exact cases (overflow, a float16 loop) go to the Python function, which
    converts them with NumPy."""
    p = Paths()
    for dtype, values in (
            ("float32", [0.1, -0.0, math.inf, math.nan, 3, -(1 << 24), 1e-45, 3.4028235e38]),
            ("float64", [0.1, -0.0, math.inf, 1 << 53, -7]),
            ("int8", [127, -128, 5, True]),
            ("uint8", [0, 255]),
            ("int16", [-32768, 32767]), ("uint16", [65535]), ("int32", [-(1 << 31)]),
            ("uint32", [(1 << 32) - 1]), ("int64", [-(1 << 63), (1 << 63) - 1]),
            ("uint64", [(1 << 63) - 1]), ("bool", [True, False]),
            ("complex64", [0.1, -0.0, complex(-0.0, 2.5), 1j, complex(0.1, -1e-45), 3,
                           -(1 << 24), math.inf, complex(math.nan, 1)]),
            ("complex128", [0.1, complex(-0.0, -0.0), complex(math.inf, 1e-310), 1 << 53,
                            -7])):
        host = np.arange(64).astype(dtype)
        x = cupy.asarray(host)
        for v in values:
            p(x, v)  # compiles the key's kernel where it is new
            out, seen = p(x, v)
            assert seen == ["kernel"], (dtype, v)
            expect = np.add(host, np.asarray(v, dtype=dtype)) if dtype != "bool" else host | v
            assert out.dtype == expect.dtype
            cupys = cupy.add(x, v).get()  # CuPy's ufunc converts the scalar with NumPy
            np.testing.assert_array_equal(out.get().view(np.uint8), cupys.view(np.uint8))
            if _exact(v):
                np.testing.assert_array_equal(out.get(), expect)
    x = cupy.asarray(np.arange(64, dtype=np.float32))
    p(x, 1e300)
    assert p(x, 1e300)[1] == ["large", "kernel"]  # float32 overflow: NumPy converts (inf)
    assert p(x, (1 << 24) + 1)[1] == ["large", "kernel"]  # not exact in float32
    c = cupy.asarray(np.arange(64, dtype=np.complex64))
    for v in (complex(1, 1e300), 1e300, (1 << 24) + 1):  # complex64: overflow, inexact
        p(c, v)
        assert p(c, v)[1] == ["large", "kernel"], v
    np.testing.assert_array_equal(p(x, (1 << 24) + 1)[0].get(),
                                  np.arange(64, dtype=np.float32) + np.float32(1 << 24))
    i8 = cupy.asarray(np.arange(64, dtype=np.int8))
    p(i8, 1)
    with pytest.raises(OverflowError):  # out of int8's range: NumPy's error
        p(i8, 300)
    assert p.seen == ["large"]
    h = cupy.asarray(np.arange(64, dtype=np.float16))
    p(h, 0.5)
    assert p(h, 0.5)[1][0] == "large"  # a float16 loop: NumPy converts
    assert p(x, 1j)[1] == ["large", "small"] and p(x, 1j)[1] == ["small"]  # a complex scalar
    for _ in range(2):  # a NumPy scalar: not cached, the Python function decides
        assert p(x, np.float32(1))[1] == ["large", "small"]


def test_launch_matches_cupys_launch() -> None:
    """launch() passes arrays as their pointers, None as a null pointer and NumPy scalars
    as their bytes, with a grid, a block and shared memory: the same results as CuPy's
    Function.__call__ of the same kernel; a list of arguments takes CuPy's launch."""
    src = r"""
    extern "C" __global__ void probe(const float *x, double *out, const int *none,
                                     const double s, const short t, const long long n) {
      extern __shared__ double buf[];
      long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
      buf[threadIdx.x] = s * t;
      __syncthreads();
      if (i < n) out[i] = x[i] * buf[threadIdx.x] + (none == 0 ? 0.5 : 1000.0);
    }"""
    f = compile_with_cache(src, ("--std=c++17",)).get_function("probe")  # a Function
    x = cupy.asarray(np.arange(1000, dtype=np.float32))
    args = (np.float64(1.5), np.int16(-3), np.int64(1000))
    mine, theirs = cupy.zeros(1000, np.float64), cupy.zeros(1000, np.float64)
    before = L.launches()
    assert L.launch(f, 8, 128, (x, mine, None, *args), 128 * 8) is None
    assert L.launches() == before + 1
    f((8,), (128,), (x, theirs, None, *args), shared_mem=128 * 8)
    np.testing.assert_array_equal(mine.get(), theirs.get())
    np.testing.assert_array_equal(mine.get(), np.arange(1000) * -4.5 + 0.5)
    again = cupy.zeros(1000, np.float64)
    L.launch(f, (8, 1), (128,), [x, again, None, *args], 128 * 8)
    assert L.launches() == before + 1  # CuPy launched it
    np.testing.assert_array_equal(again.get(), mine.get())


def test_dispatch_launches_on_cupys_current_stream() -> None:
    """Kernels launch on CuPy's current stream: captured into a CUDA graph on a blocking
    stream, where a launch on the legacy default stream would break the capture."""
    f = _add()
    host = np.arange(4096, dtype=np.float32)
    z = cupy.asarray(host)
    stream = cupy.cuda.Stream()
    with stream:
        f(z, z)  # compiles the kernel; the stream's pool keeps the freed block for below
        stream.synchronize()
        stream.begin_capture()
        before = L.launches()
        r = f(z, z)
        launched = L.launches() - before
        graph = stream.end_capture()
        graph.launch()
        stream.synchronize()
    assert launched == 1
    np.testing.assert_array_equal(r.get(), host + host)


def test_memset_words_on_the_current_stream() -> None:
    """memset sets words of 1, 2 and 4 bytes, in order on CuPy's current stream (after the
    kernels that wrote the memory before it); other widths are refused."""
    stream = cupy.cuda.Stream(non_blocking=True)
    with stream:
        big = cupy.ones(1 << 24, np.float64)
        for width, word in ((1, 0xAB), (2, 0xBEEF), (4, 0xDEADBEEF)):
            x = (cupy.sin(big)[:64] * 0).astype(np.uint8)  # written by kernels just queued
            assert L.memset(x.data.ptr + 4, word, 56 // width, width) is True
            want = np.zeros(64, np.uint8)
            want[4:60] = np.frombuffer(word.to_bytes(width, "little") * (56 // width), np.uint8)
            np.testing.assert_array_equal(x.get(), want)
    with pytest.raises(ValueError, match="width"):
        L.memset(x.data.ptr, 0, 1, 3)


def _basic(key: Any, ndim: int) -> bool:
    """Whether basic_view takes ``key`` (its documented keys), the oracle's side."""
    items = key if type(key) is tuple else (key,)

    def int64(v: Any) -> bool:
        return type(v) is int and -2**63 <= v < 2**63

    return 0 < len(items) <= ndim and all(
        int64(k) or (type(k) is slice and all(v is None or int64(v) for v in
                                             (k.start, k.stop, k.step))
                     and (k.step is None or k.step > 0))
        for k in items)


def test_basic_view_as_cupys_indexing() -> None:
    """basic_view(data, key), the view x[key] takes on CUDA: for each key it takes, CuPy's
    own data[key] (shape, strides, flags, dtype, values, the same address); None for the
    others (CuPy's indexing then); the memory shared and kept alive."""
    base = cupy.arange(2 * 3 * 4 * 5, dtype=cupy.float32).reshape(2, 3, 4, 5)
    arrays = [cupy.arange(10.0), base, base[:, ::2], base.transpose(3, 1, 0, 2), base[1, :, 1:3],
              cupy.arange(12, dtype=cupy.int8).reshape(3, 4)[:, 1:], cupy.asfortranarray(base),
              cupy.arange(10.0)[::-1], cupy.asarray(3.0), cupy.zeros((0, 3))]
    keys = [0, -1, 3, 10, -11, slice(None), slice(1, 10), slice(1, None, 2), slice(None, None, 3),
            slice(-3, None), slice(100, 200), slice(2, 1), slice(None, None, -1), slice(0, 2**70),
            slice(0.0, 1), (0, 0), (1, slice(None)), (slice(None), 1), (-1, slice(0, 2), 1),
            (0, 1, 2, 3), (slice(None),) * 4, (0, 0, 0, 0, 0), (), None, Ellipsis,
            (Ellipsis, 0), True, 2**70]
    taken = 0
    for data in arrays:
        for key in keys:
            view = L.basic_view(data, key)
            try:
                want = data[key]
            except (IndexError, TypeError, OverflowError):
                assert view is None, (data.shape, key)
                continue
            expected = (_basic(key, data.ndim) and want.size > 0 and data.size > 0
                        and min(data.strides, default=0) >= 0)
            assert (view is not None) == expected, (data.shape, data.strides, key)
            if view is None:
                continue
            taken += 1
            assert type(view) is cupy.ndarray and view.dtype == want.dtype
            assert (view.shape, view.strides, view.data.ptr) == (want.shape, want.strides,
                                                                 want.data.ptr)
            assert (view.flags.c_contiguous, view.flags.f_contiguous) == (
                want.flags.c_contiguous, want.flags.f_contiguous), (data.shape, key)
            np.testing.assert_array_equal(view.get(), want.get())
    assert taken >= 80, taken
    data = cupy.zeros((4, 5))
    L.basic_view(data, (2, slice(1, 4)))[...] = 7.0  # writes through to data
    expected = np.zeros((4, 5))
    expected[2, 1:4] = 7.0
    np.testing.assert_array_equal(data.get(), expected)
    view = L.basic_view(cupy.arange(1000.0), slice(10, 20))  # holds the allocation
    cupy.get_default_memory_pool().free_all_blocks()
    cupy.ones(1000) * 5.0
    np.testing.assert_array_equal(view.get(), np.arange(10.0, 20.0))
    assert L.basic_view(np.arange(3.0), 1) is None  # CuPy's ndarray only


@pytest.mark.parametrize("shape, dtype", [((3, 5), "float32"), (7, "int8"), ((2, 3), "complex128"),
                                          (0, "float64"), ((4, 0), "int16"), (1001, "bool"),
                                          ((), "uint64")])
def test_zeros_as_cupys(shape: Any, dtype: str) -> None:
    """zeros(shape, dtype) in C: cupy.zeros's array (shape, dtype, layout), zero bytes in
    memory the pool hands back dirty, set on the current stream."""
    dirty = cupy.full(4096, 255, cupy.uint8)  # freed below: the next allocation reuses it
    del dirty
    stream = cupy.cuda.Stream(non_blocking=True)
    with stream:
        got = L.zeros(shape, np.dtype(dtype))
        stream.synchronize()
    want = cupy.zeros(shape, dtype)
    assert type(got) is cupy.ndarray
    assert (got.shape, got.dtype, got.strides) == (want.shape, want.dtype, want.strides)
    assert got.get().tobytes() == bytes(got.nbytes)
    assert L._zeros_python(shape, np.dtype(dtype)).get().tobytes() == bytes(got.nbytes)


def _add() -> Any:
    return L.dispatch(cupy.add, K.elementwise("add", cupy.add, cupy.add), {}, {"THRESHOLD": 1},
                      "THRESHOLD")


def test_results_reused_only_when_nothing_holds_them() -> None:
    """A result that nothing references any more (only the module's slot) is the next
    result of its shape, dtype and stream; one that a name, a view, a MemoryPointer, a weak
    reference or a DLPack capsule holds is not, and keeps its values."""
    f = _add()
    host = np.arange(4096, dtype=np.float32)
    z, w = cupy.asarray(host), cupy.asarray(host * 3)
    L.outputs(4)  # lets go of those kept
    try:
        f(z, z)  # compiles the kernel
        before = L.outputs()
        first = f(z, z)
        ptr = first.data.ptr
        del first
        again = f(z, w)
        assert L.outputs() == before + 1 and again.data.ptr == ptr
        np.testing.assert_array_equal(again.get(), host * 4)

        def holders(r: Any) -> list[Any]:
            return [r, r[1:], r.data + 4, weakref.ref(r), cupy.from_dlpack(r)]

        for k in range(5):
            L.outputs(4)  # lets go of those kept: r the one kept below
            r = f(z, z)
            ptr = r.data.ptr
            held = holders(r)[k]
            del r
            count = L.outputs()
            other = f(w, w)
            assert L.outputs() == count and other.data.ptr != ptr, k  # a new array
            np.testing.assert_array_equal(other.get(), host * 6)
            if k == 0:
                np.testing.assert_array_equal(held.get(), host * 2)
            elif k == 1:
                np.testing.assert_array_equal(held.get(), host[1:] * 2)
            elif k == 2:
                np.testing.assert_array_equal(cupy.ndarray((4095,), np.float32, held).get(),
                                              host[1:] * 2)
            elif k == 3:
                np.testing.assert_array_equal(held().get(), host * 2)
            else:
                np.testing.assert_array_equal(held.get(), host * 2)
            del held, other
            assert f(z, z).data.ptr == ptr, k  # let go: taken again
        r = f(z, z)
        del r
        count = L.outputs()
        for x, y in ((z[:2048], z[:2048]), (z.astype(np.float64), z.astype(np.float64))):
            assert f(x, y).shape == x.shape and L.outputs() == count  # another shape, dtype
        with cupy.cuda.Stream(non_blocking=True) as stream:
            np.testing.assert_array_equal(f(z, z).get(), host * 2)
            stream.synchronize()
        assert L.outputs() == count  # another stream
        L.outputs(0)
        f(z, z)
        assert f(z, z) is not None and L.outputs() == count  # none kept
    finally:
        L.outputs(4)


def test_results_reused_through_the_namespace() -> None:
    """xpgpu's functions and reductions take a result nothing holds, with NumPy's values."""
    import xpgpu as xp

    host = np.random.default_rng(0).standard_normal(1 << 16)
    a = xp.asarray(host, device="cuda:0")
    for func, numpy_func in ((xp.sin, np.sin), (xp.sum, np.sum), (xp.cumulative_sum, np.cumsum)):
        func(a)
        before = L.outputs()
        for _ in range(3):
            np.testing.assert_allclose(np.asarray(func(a).to_device("cpu")), numpy_func(host),
                                       rtol=1e-12, atol=1e-9)
        assert L.outputs() >= before + 2, func


def test_dependent_launches_wait_for_the_work_before() -> None:
    """On compute capability 9.0 and later the element-wise kernels are launched to start
    before the kernel ahead of them ends, and wait for it: a chain of dependent calls, mixed
    with CuPy's kernels and in-place updates, gives the exact sums."""
    import xpgpu as xp

    dependent = int(cupy.cuda.Device().compute_capability) >= 90
    assert K._dependent_launch(cupy.cuda.Device().id) is dependent
    n = 1 << 20
    host = np.arange(n, dtype=np.float64)
    x = xp.asarray(host, device="cuda:0")
    one = xp.ones(n, dtype=xp.float64, device="cuda:0")
    for i in range(1, 65):
        x = xp.add(x, one)
        if i % 8 == 0:
            x = xp.asarray(x._data * 1.0)  # CuPy's kernel between two of ours
            x += one
    np.testing.assert_array_equal(np.asarray(x.to_device("cpu")), host + 72)
    cache: dict[Any, Any] = {}
    K._generic(cupy.add, "add", cache, (one._data, one._data))
    (kernel,) = cache.values()
    assert kernel.spec[5] is (K.DEPENDENT and dependent)
    assert "griddepcontrol.wait" in kernel.source


def test_results_kept_are_let_go_when_memory_runs_out() -> None:
    """Results kept for reuse give their memory back where a new result finds the memory
    pool out of memory: the call then succeeds within a limit that they alone exceed."""
    f = _add()
    pool = cupy.get_default_memory_pool()
    n = 1 << 20
    z = cupy.ones(n, np.float32)
    f(z, z)  # compiles the kernel
    L.outputs(4)  # lets go of those kept
    for m in (n - 64, n - 128):  # two results of other shapes: kept, referenced by none
        f(z[:m], z[:m])
    limit = pool.get_limit()
    try:
        pool.free_all_blocks()
        pool.set_limit(size=pool.used_bytes() + (2 << 20))  # less than a result's 4 MiB
        out = f(z, z)
        pool.set_limit(size=limit)
        np.testing.assert_array_equal(out.get(), np.full(n, 2, np.float32))
    finally:
        pool.set_limit(size=limit)
        L.outputs(4)
