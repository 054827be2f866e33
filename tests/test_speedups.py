"""The compiled fast paths (xpgpu/_speedups.c): element-wise functions, views, assignment.

The Python function each one wraps (``__wrapped__``) is the definition, so it is the
oracle here: for every binary function and operator, every pair of dtypes, Python
scalars, 0-d arrays, shapes that do not broadcast, and each device, the fast path gives
the same dtype, device and bits, or the same exception and message. Skipped where the
extension was not built (no C compiler); the pure-Python mode is tested everywhere.
"""

from __future__ import annotations

import gc
import inspect
import os
import pickle
import subprocess
import sys
from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest
from conftest import to_numpy

import xpgpu as xp
from xpgpu import _devices, _elementwise
from xpgpu._array import wrap
from xpgpu._dtypes import ALL
from xpgpu._operators import OPERATORS


def _refcounts(objects: Any) -> list[int]:
    """Each object's reference count once the garbage is collected: an exception's
    traceback and frames (pytest.raises) form cycles that hold the frames' locals until the
    collector runs, at a moment that varies from run to run (a dtype counted once more)."""
    gc.collect()
    return [sys.getrefcount(obj) for obj in objects]


built = pytest.mark.skipif(_elementwise._speedups is None,
                           reason="xpgpu._speedups not in use (not built, or pure Python)")

BINARY = [row[0] for row in _elementwise.TABLE if row[1] == 2]
UNARY = [row[0] for row in _elementwise.TABLE if row[1] == 1]
FORWARD = [d for d, (f, mode) in OPERATORS.items() if mode == "fwd" and f in BINARY]
VALUES = {"b": [True, False, True], "i": [1, 2, 3], "u": [1, 2, 3],
          "f": [-1.5, 0.0, float("nan")], "c": [1 - 2j, 0j, complex("nan")]}


def sample(dtype: Any, device: Any, shape: tuple[int, ...] = (3,)) -> xp.Array:
    values = VALUES[np.dtype(dtype).kind]
    host = np.asarray(values if shape else values[0], dtype=np.dtype(dtype))
    return xp.asarray(host, device=device)


def outcome(func: Callable[..., Any], *args: Any) -> tuple[Any, ...]:
    """What a call gives, comparably: dtype, device, shape and bytes, or the error."""
    try:
        result = func(*args)
    except Exception as e:
        return ("raised", type(e), str(e))
    if not isinstance(result, xp.Array):
        return ("returned", result)
    data = result._data  # a NumPy or CuPy array: both have shape and tobytes()
    return (result.dtype, result.device, data.shape, data.tobytes())


def same(func: Callable[..., Any], *args: Any) -> None:
    fast, python = outcome(func, *args), outcome(func.__wrapped__, *args)
    assert fast == python, (func, args)


@built
@pytest.mark.parametrize("name", BINARY)
def test_function_matches_python(name: str, device: Any) -> None:
    func = getattr(xp, name)
    assert not inspect.isfunction(func)  # the compiled object, wrapping the Python function
    for d1 in ALL:
        for d2 in ALL:
            a, b = sample(d1, device), sample(d2, device)
            same(func, a, b)
            same(func, sample(d1, device, ()), sample(d2, device, ()))  # NumPy scalars
        a = sample(d1, device)
        for scalar in (True, 2, -(2**70), 2.5, 1j):
            same(func, a, scalar)
            same(func, scalar, a)
        same(func, a, sample(d1, device)[:2])  # do not broadcast
        same(func, a, np.ones(3))  # not an xpgpu array
    same(func, 1.0, 2.0)


@built
@pytest.mark.parametrize("name", UNARY)
def test_unary_function_matches_python(name: str, device: Any) -> None:
    """The unary functions in C (Binary with a table of one dtype): for every dtype, 1-d
    and 0-d arrays (NumPy gives scalars), the integers that come back as copies, and
    what is not an array, what the Python function gives."""
    func = getattr(xp, name)
    assert type(func).__name__ == "Binary" and func.__name__ == name
    for d in ALL:
        same(func, sample(d, device))
        same(func, sample(d, device, ()))
    for other in (2.5, np.ones(3), [1.0]):
        same(func, other)
    with pytest.raises(TypeError, match="positional"):
        func(x=sample(xp.float64, device))


@built
@pytest.mark.parametrize("dunder", FORWARD)
def test_operator_matches_python(dunder: str, device: Any) -> None:
    op = getattr(xp.Array, dunder)
    for d1 in ALL:
        a = sample(d1, device)
        for d2 in ALL:
            same(op, a, sample(d2, device))
        for other in (2, 2.5, "x", None, np.ones(3)):
            same(op, a, other)


@built
def test_matmul_matches_python(device: Any) -> None:
    """matmul in C (Binary, with the promotion table of the numeric dtypes): for every
    pair of dtypes and 1-D, 2-D, stacked, 0-d and mismatched shapes, what the Python
    function gives (dtype, device, shape, bytes) or its exception and message."""
    from xpgpu._linear_algebra import matmul  # the strict profile's (the permissive
    assert type(matmul).__name__ == "Binary" and matmul.__name__ == "matmul"  # casts first)

    def array(dtype: Any, shape: tuple[int, ...]) -> xp.Array:
        values = VALUES[np.dtype(dtype).kind]
        return xp.asarray(np.resize(np.asarray(values, dtype=np.dtype(dtype)), shape),
                          device=device)

    shapes = [((3, 3), (3, 3)), ((3,), (3,)), ((2, 3), (3,)), ((2, 2, 3), (3, 2)),
              ((), (3,)), ((2, 3), (2, 3)), ((2, 2, 3), (3, 3, 2))]
    for d1 in ALL:
        for d2 in ALL:
            for s1, s2 in shapes:
                same(matmul, array(d1, s1), array(d2, s2))
    x = array(xp.float32, (3, 3))
    same(matmul, x, 2.0)
    same(matmul, x, np.ones((3, 3), dtype=np.float32))
    assert outcome(lambda: x @ x) == outcome(matmul.__wrapped__, x, x)


@built
@pytest.mark.cuda
@pytest.mark.skipif(not _devices.cuda_devices(), reason="no CUDA device")
def test_devices_mismatch_matches_python() -> None:
    a, b = sample(xp.float32, "cpu"), sample(xp.float32, "cuda:0")
    for name in BINARY:
        same(getattr(xp, name), a, b)
        same(getattr(xp, name), b, a)


@built
def test_backend_result_is_checked() -> None:
    """A backend that answers with another dtype, or not with an array, is caught as the
    Python function catches it (an internal error naming the function)."""
    answers = {"float64": lambda a, b: np.add(a, b, dtype=np.float64),
               "scalar": lambda a, b: np.float32(np.add(a, b)[0])}
    for answer, add in answers.items():
        device = object.__new__(_devices.Device)
        device.kind, device.index, device._name = "cuda", 99, "cuda:99"
        device.backend = SimpleNamespace(add=add, ndarray=np.ndarray, asarray=np.asarray,
                                         name="faulty")  # type: ignore[assignment]
        # NumPy data (the faulty backend calls NumPy), whatever the default device
        a = xp.asarray([1.0, 2.0], dtype=xp.float32, device=_devices.lookup("cpu"))
        x = wrap(a._data, a.dtype, device)
        same(xp.add, x, x)
        if answer == "float64":
            with pytest.raises(RuntimeError, match=r"^add: internal error.*float64"):
                xp.add(x, x)
        else:
            assert xp.add(x, x)._data.shape == ()


@built
def test_no_reference_leaks(device: Any) -> None:
    """Every path through the C code gives back the references it takes."""
    a, b = sample(xp.float32, device), sample(xp.float32, device)
    a0, b0 = sample(xp.float32, device, ()), sample(xp.float32, device, ())
    short = sample(xp.float32, device)[:2]
    watched = [a, b, a._data, b._data, a0._data, xp.float32, xp.float32.dtype, xp.bool,
               xp.bool.dtype, device, device.backend.add, device.backend.ndarray]

    def calls() -> None:
        xp.add(a, b)
        a + b
        xp.negative(a)
        xp.negative(a0)  # a NumPy scalar: the checked wrap
        xp.add(a0, b0)  # NumPy returns a scalar: the checked wrap
        xp.less(a, b)
        xp.add(a, 1.0)
        2.0 * a  # a reflected operator with a Python scalar
        xp.less(a0, 3)  # a NumPy scalar: the checked wrap
        with pytest.raises(ValueError):
            xp.add(a, short)

    def let_go() -> None:  # of the CUDA results kept for reuse (they hold their dtypes)
        if device.kind == "cuda":
            from xpgpu._backend import _cupy_launch

            _cupy_launch.outputs(4)

    calls()
    let_go()
    before = _refcounts(watched)
    for _ in range(200):
        calls()
    let_go()
    assert _refcounts(watched) == before


@built
def test_introspection_is_the_python_function() -> None:
    assert xp.add.__name__ == xp.add.__qualname__ == "add"
    assert xp.add.__module__ == "xpgpu"
    assert xp.add.__doc__ == xp.add.__wrapped__.__doc__ and "array_api.add" in xp.add.__doc__
    assert str(inspect.signature(xp.add)) == "(x1: 'Any', x2: 'Any', /) -> 'Any'"
    assert inspect.isroutine(xp.add)
    assert pickle.loads(pickle.dumps(xp.add)) is xp.add
    assert xp.Array.__add__.__name__ == "__add__"
    x = xp.asarray([1.0, 2.0])
    assert x.__add__(x).dtype == xp.float64  # bound like a method
    assert x.__add__("x") is NotImplemented
    with pytest.raises(TypeError, match="positional"):
        xp.add(x, x2=x)


@built
def test_wrap_in_c_as_in_python(device: Any) -> None:
    """_array.wrap is the compiled function where it was built, and gives what its Python
    definition (_array._wrap) gives: an Array of exactly the data, dtype and device passed,
    with no reference left behind; a wrong call raises."""
    from xpgpu import _array

    assert _array.wrap is _elementwise._speedups.wrap
    x = sample(xp.float32, device)
    for f in (_array.wrap, _array._wrap):
        a = f(x._data, xp.float32, device)
        assert type(a) is xp.Array
        assert a._data is x._data and a._dtype is xp.float32 and a._device is device
        assert outcome(lambda a=a: a + 1) == outcome(lambda: x + 1)
    watched = (x._data, xp.float32, device)
    before = _refcounts(watched)
    for _ in range(100):
        _array.wrap(x._data, xp.float32, device)
    assert _refcounts(watched) == before
    with pytest.raises(TypeError, match="3 arguments"):
        _array.wrap(x._data, xp.float32)


@built
def test_array_is_a_c_type(device: Any) -> None:
    """Where the module was built, Array is its Python definition made again as a C type
    (_speedups.array_class): the same namespace, slots of its own, instances that are not
    tracked by the garbage collector (an Array holds no container) and come from a free
    list; no subclass; weak references die with their array, not with the memory's next
    array; data, dtype and device are released when an array dies."""
    import gc
    import weakref

    from xpgpu import _array

    assert xp.Array is _array.Array and not xp.Array.__flags__ & (1 << 14)  # not GC
    assert xp.Array.__module__ == "xpgpu._array" and xp.Array.__qualname__ == "Array"
    assert xp.Array.__doc__.startswith("An n-dimensional array")
    assert xp.Array.__hash__ is None and "ndim" in vars(xp.Array)
    with pytest.raises(TypeError, match="cannot be constructed directly"):
        xp.Array()
    with pytest.raises(TypeError):
        type("Sub", (xp.Array,), {})
    x = sample(xp.float32, device)
    with pytest.raises(AttributeError):
        x._ndim  # noqa: B018  (not read yet)
    a = x[1:3]
    assert not gc.is_tracked(a) and x._ndim == 1  # read by the view, and kept
    ref = weakref.ref(a)
    assert ref() is a
    del a
    assert ref() is None
    b = x[1:3]  # from the free list: a new object to every weak reference
    assert ref() is None and b.shape == (2,)
    watched = (x._data, xp.float32, device)
    before = _refcounts(watched)
    arrays = [_array.wrap(x._data, xp.float32, device) for _ in range(200)]
    assert _refcounts(watched) == [n + 200 for n in before]
    del arrays
    assert _refcounts(watched) == before


@built
def test_flat_rank_in_c_as_in_python() -> None:
    """asarray's scan of a flat list or tuple in C (FlatRank) gives its Python function's
    answer: the rank of one exact Python scalar type, -1 when empty, None otherwise."""
    from xpgpu import _creation

    fast = _creation._flat_rank
    assert type(fast).__name__ == "FlatRank"

    class Ints(list):  # a list subclass: the Python function's
        pass

    cases = [[], (), [1.0, 2.0, 3.0], (1, 2), [True, False], [1j, 2j], [1, 2.0], [1, True],
             [[1.0]], [np.float64(1.0)], [np.float64(1.0), 1.0], [None], Ints([1, 2]),
             [2**70, 1]]
    for obj in cases:
        assert fast(obj) == fast.__wrapped__(obj), obj
    assert [fast(obj) for obj in cases[:6]] == [-1, -1, 2, 1, 0, 3]


@built
@pytest.mark.parametrize("name", ["zeros", "ones", "empty"])
def test_alloc_in_c_as_in_python(name: str, device: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """zeros, ones and empty in C (Alloc): for every shape, dtype, device and keyword, the
    Python function's result (dtype, device, shape, and bytes but empty's) or its exception
    and message, and no reference left behind; before the default device is chosen, the
    Python function chooses it."""
    from xpgpu import _creation

    fast = getattr(_creation, name)  # the strict profile's (the permissive one's takes
    python = fast.__wrapped__  # dtype by position too, in Python)
    assert type(fast).__name__ == "Alloc" and fast.__name__ == name
    assert pickle.loads(pickle.dumps(fast)) is fast

    def outcome(f: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        try:
            r = f(*args, **kwargs)
        except Exception as e:  # (out of device memory: the free memory varies, not the rest)
            return type(e), str(e).split(" failed;")[0]
        return (type(r), r.dtype, r.device, r._data.shape,
                None if name == "empty" else r._data.tobytes())

    # (no 2**40 and the like: an allocation that may succeed, on a host that overcommits)
    shapes = [0, 5, (2, 3), (), -1, 2**62, 2**70, 5.0, True, [2], None]
    keywords = [{}, {"dtype": xp.int8}, {"dtype": None}, {"dtype": xp.bool},
                {"dtype": xp.complex64, "device": device}, {"device": device},
                {"device": None}, {"dtype": "float32"}, {"dtype": np.float32},
                {"device": "cpu"}, {"order": "C"}, {"dtype": xp.float32, "device": 0}]
    for shape in shapes:
        for kw in keywords:
            assert outcome(fast, (shape,), kw) == outcome(python, (shape,), kw), (shape, kw)
    for args in [(), (3, xp.float32), (3, None, None)]:
        assert outcome(fast, args, {}) == outcome(python, args, {}), args
    # The default device (of this test: the parameter) before and after it is chosen.
    monkeypatch.setattr(_devices, "_default", None)
    monkeypatch.setenv("XPGPU_DEFAULT_DEVICE", str(device))
    assert fast(3).device == device and _devices._default is device
    assert fast(3).device == device
    watched = (xp.float64, xp.int8, device, xp.float64.dtype)
    for _ in range(2):
        before = _refcounts(watched)
        for _ in range(100):
            fast(4)
            fast(4, dtype=xp.int8, device=device)
        after = _refcounts(watched)
    assert after == before


@built
def test_setitem_in_c_as_in_python(device: Any) -> None:
    """__setitem__ in C (Setitem): for every key, value and dtype, the array the Python
    function leaves (bytes, dtype) or its exception and message; no reference left behind."""
    setitem = xp.Array.__setitem__  # either profile's
    assert type(setitem).__name__ == "Setitem"
    python = setitem.__wrapped__
    arrays = {d: xp.asarray(np.arange(6) % 3, dtype=d, device=device)
              for d in (xp.float32, xp.int8, xp.uint64, xp.bool, xp.complex64)}
    arrays["2-D"] = xp.reshape(xp.arange(6.0, device=device), (2, 3))
    keys = [slice(1, 3), slice(None, None, -2), slice(-4, None), slice(0, 5, 0), slice(1.0, 2),
            slice(1, 3, None), 3, (slice(1, 3),), Ellipsis]
    values = [2.5, -0.0, 7, -1, 300, 2**64, 2**70, True, 1j, "x", None, float("nan")]
    for name, x in arrays.items():
        nonzero = xp.astype(x, xp.bool)
        masks = [nonzero, xp.asarray([True, False], device=device), xp.astype(nonzero, xp.int8)]
        same = [xp.ones(n, dtype=x.dtype, device=device) for n in (1, 2, 3)]
        same.append(xp.ones(2, device=device))
        for key in keys + masks:
            for value in values + same:
                outcome = []
                for f in (setitem, python):
                    y = xp.asarray(x, copy=True)
                    try:
                        f(y, key, value)
                        outcome.append((y.dtype, to_numpy(y).tobytes()))
                    except Exception as e:  # the same refusal, word for word
                        outcome.append((type(e), str(e)))
                assert outcome[0] == outcome[1], (name, key, value)
    x, m = arrays[xp.float32], arrays[xp.float32] > 0
    watched = [x, x._data, m, m._data, xp.float32, device]
    for _ in range(2):
        before = _refcounts(watched)
        for _ in range(100):
            x[1:3] = 2.5
            x[m] = 1.0
            x[0:2] = x[2:4]
        after = _refcounts(watched)
    assert after == before


def test_pure_python_mode() -> None:
    """XPGPU_PURE_PYTHON=1 runs the Python functions alone, with the same results."""
    code = ("import inspect, xpgpu as xp, xpgpu._elementwise as e\n"
            "assert e._speedups is None and inspect.isfunction(xp.add)\n"
            "x = xp.asarray([1, 2], dtype=xp.int8)\n"
            "assert (x + x).dtype == xp.int8\n"
            "assert xp.all(xp.add(x, 3) == xp.asarray([4, 5], dtype=xp.int8))\n")
    env = {**os.environ, "XPGPU_PURE_PYTHON": "1"}
    subprocess.run([sys.executable, "-c", code], check=True, env=env)


@built
def test_launch_dispatch_hands_other_calls_to_python() -> None:
    """The CUDA backend's compiled dispatch (xpgpu/_backend/_launch.c) runs only cached
    kernels on CuPy arrays; every other call is the Python function's (``large``), which
    also lends every other attribute. Runs without CUDA: nothing here is a CuPy array."""
    try:
        from xpgpu._backend import _launch  # type: ignore[attr-defined]
    except ImportError:
        pytest.skip("xpgpu._backend._launch not built")

    def small(*args: Any, **kwargs: Any) -> tuple[str, tuple[Any, ...], dict[str, Any]]:
        return "small", args, kwargs

    def large(*args: Any, **kwargs: Any) -> tuple[str, tuple[Any, ...], dict[str, Any]]:
        return "large", args, kwargs

    large.ufunc = "the ufunc"  # type: ignore[attr-defined]
    a = SimpleNamespace(size=9, shape=(9,))
    f = _launch.dispatch(small, large, {}, {"THRESHOLD": 1}, "THRESHOLD")
    assert f(a, 1.0) == ("large", (a, 1.0), {})
    assert f(a, out=2) == ("large", (a,), {"out": 2})
    assert f()[0] == f(1.0)[0] == f(None, 2)[0] == f(*range(20))[0] == "large"
    assert f.ufunc == "the ufunc" and f.__name__ == "large" and repr(f) == repr(large)
    assert f.__call__(a, 1)[0] == "large"  # tp_call: the large one
    with pytest.raises(TypeError):
        _launch.dispatch(small, large, [], {}, "THRESHOLD")

    calls = []

    def function(*args: Any) -> None:  # CuPy's Function.__call__, where C does not launch
        calls.append(args)

    assert _launch.launch(function, 3, (32, 2), [None], 8) is None
    assert calls == [((3,), (32, 2), [None], 8)]
    with pytest.raises(TypeError):
        _launch.launch(function, 1, 1)


@built
def test_views_in_c_as_in_python(device: Any) -> None:
    """__getitem__, reshape and permute_dims in C (View): for every key, shape and axes,
    the Python function's result (values, dtype, device) or its exception and message;
    values as NumPy's."""
    from xpgpu import _manipulation as m_  # the strict functions (the permissive profile's
    reshape, permute_dims = m_.reshape, m_.permute_dims  # take lists too, then call these)

    getitem = xp.Array.__getitem__  # either profile's
    assert type(getitem).__name__ == type(reshape).__name__ == type(permute_dims).__name__ == "View"
    host = np.arange(24.0)
    a = xp.asarray(host, device=device)
    m = xp.reshape(xp.asarray(host, device=device), (4, 6))
    cases = [(a, k) for k in (slice(1, 10), slice(None, None, -3), slice(-5, None),
                              slice(30, 40), 3, -1, 24, -25, slice(0, 5, 0), slice(1.0, 2), True,
                              (2,), (slice(4),), (), Ellipsis, None, (1, 2))]
    cases += [(m, k) for k in ((2, slice(None)), (-1, slice(1, None, 2)), (slice(None), 5),
                               (0, 0), (4, 0), slice(1, 3), 1, (1,), (Ellipsis, 1))]
    masks = (a > 5.0, m > 5.0, m < 0.0, xp.asarray([True, False], device=device),
             xp.astype(a > 5.0, xp.int8), xp.asarray(True, device=device))
    cases += [(x, k) for x in (a, m) for k in masks]
    calls = [(getitem, getitem.__wrapped__, x, k) for x, k in cases]
    calls += [(reshape, reshape.__wrapped__, x, s) for x in (a, m)
              for s in ((4, 6), (-1, 2), (2, -1, 3), (24,), (5, 5), (-1, -1), (-2, 12), [4, 6],
                        (4.0, 6), (2**70, 0))]
    calls += [(permute_dims, permute_dims.__wrapped__, m, p)
              for p in ((1, 0), (0, 1), (-1, 0), (-1, -2), (1, -2), (0, 0), (2, 0), (0,), [1, 0],
                        (1.0, 0))]
    cube = xp.reshape(a, (2, 3, 4))  # a reversal of the axes is the ndarray's T in C
    calls += [(permute_dims, permute_dims.__wrapped__, x, p) for x, axes in (
        (cube, ((2, 1, 0), (-1, 1, -3), (2, 1, -1), (0, 2, 1), (1, 0, 2))), (a, ((0,), (-1,))),
        (a[3], ((),))) for p in axes]
    for fast, python, x, key in calls:
        outcome = []
        for f in (fast, python):
            try:
                r = f(x, key)
                strides = getattr(r._data, "strides", None)  # a view of the same layout
                outcome.append((to_numpy(r), r.dtype, r.device, r.shape, strides))
            except Exception as e:  # the same refusal, word for word
                outcome.append((type(e), str(e)))
        (got, want) = outcome
        assert type(got[0]) is type(want[0]), (fast, key, got, want)
        if isinstance(want[0], type):
            assert got == want, (fast, key)
        else:
            np.testing.assert_array_equal(got[0], want[0])
            assert got[1:] == want[1:], (fast, key)
    np.testing.assert_array_equal(to_numpy(m[1, 2:5]), host.reshape(4, 6)[1, 2:5])
    np.testing.assert_array_equal(to_numpy(xp.permute_dims(m, (1, 0))), host.reshape(4, 6).T)


def test_backend_views_are_ndarray_methods() -> None:
    """View calls the ndarray methods reshape and transpose: every backend's reshape and
    permute_dims are those methods (_backend.method), or the C path would differ."""
    for device in _devices.all_devices():
        backend = device.backend
        assert backend.reshape.__name__ == "reshape", device
        assert backend.permute_dims.__name__ == "transpose", device
        data = backend.asarray(np.arange(6.0))
        assert backend.reshape(data, (2, 3)).shape == (2, 3)
        assert backend.permute_dims(backend.reshape(data, (2, 3)), (1, 0)).shape == (3, 2)


@built
def test_subscript_calls_what_getitem_is() -> None:
    """x[key] calls the compiled __getitem__ directly (fast_subscript), and whatever is
    assigned as Array.__getitem__ afterwards (CPython's generic slot again), and the
    profile's own __getitem__ after each switch."""
    speedups = _elementwise._speedups
    x = xp.asarray([1.0, 2.0, 3.0])
    view = xp.Array.__dict__["__getitem__"]
    assert speedups.fast_subscript() is True
    assert float(x[1]) == 2.0
    try:
        xp.Array.__getitem__ = lambda self, key: ("other", key)  # type: ignore[method-assign]
        assert x[1] == ("other", 1)
        assert speedups.fast_subscript() is False  # not a View: left to the generic slot
        assert x[:2] == ("other", slice(None, 2))
    finally:
        xp.Array.__getitem__ = view  # type: ignore[method-assign]
    assert speedups.fast_subscript() is True
    assert float(x[2]) == 3.0
    strict = xp._profile.current()
    try:
        xp.set_strict(True)
        with pytest.raises(IndexError):
            x[[0, 2]]  # a list index: refused by the strict profile
        xp.set_strict(False)
        np.testing.assert_array_equal(to_numpy(x[[0, 2]]), [1.0, 3.0])  # NumPy's rule
        xp.set_strict(True)
        with pytest.raises(IndexError):
            x[[0, 2]]
    finally:
        xp.set_strict(strict)


@built
def test_stable_sort_as_numpys_stable_sort() -> None:
    """stable_sort(a) is numpy.sort(a, kind="stable") bit for bit for 1-D float32 and
    float64 arrays (the order of -0.0 and +0.0, and of NaNs of either sign, kept), a new
    array, a untouched; it declines (None) every other array; the CPU backend's stable
    sort takes it."""
    stable_sort = _elementwise._speedups.stable_sort
    rng = np.random.default_rng(13)
    for dtype in (np.float32, np.float64):
        tiny = np.finfo(dtype).smallest_subnormal
        nan = np.array(np.nan, dtype)
        pool = np.array([-2.5, -tiny, -0.0, 0.0, tiny, 1.0, np.inf, -np.inf, np.nan,
                         -np.nan], dtype)
        pool = np.concatenate([pool, (nan.view(f"u{nan.itemsize}") + 1).view(dtype)[None]])
        cases = [np.zeros(0, dtype), np.full(5, np.nan, dtype), np.zeros(4, dtype),
                 -np.zeros(3, dtype), np.ones(3, dtype), -np.ones(3, dtype)]
        cases += [rng.choice(pool, n) for n in (1, 2, 3, 7, 64, 1000) for _ in range(5)]
        cases.append(rng.standard_normal(1000).astype(dtype))
        for case in cases:
            before = case.copy()
            got = stable_sort(case)
            want = np.sort(case, kind="stable")
            bits = f"u{case.itemsize}"
            assert got is not case and got.dtype == case.dtype
            np.testing.assert_array_equal(got.view(bits), want.view(bits))
            np.testing.assert_array_equal(case.view(bits), before.view(bits))
        readonly = np.array([0.0, -0.0, 1.0], dtype)
        readonly.flags.writeable = False
        assert np.signbit(stable_sort(readonly)).tolist() == [False, True, False]
    for other in (np.zeros(3, np.float16), np.zeros(3, np.longdouble), np.zeros(6)[::2],
                  np.zeros((2, 2)), np.zeros(3, ">f8" if np.little_endian else "<f8"),
                  np.zeros(3, np.int32), [0.0, 1.0], 1.5):
        assert stable_sort(other) is None
    from xpgpu._backend import _numpy_sorting

    assert _numpy_sorting._stable_sort is stable_sort
