"""Bad input never crashes: every public function, fed invalid arguments by hypothesis.

Each call must either succeed as the standard says (an xpgpu Array of a standard dtype, or
the documented tuple, named tuple, bool, dtype or info object) or raise TypeError,
ValueError, IndexError, OverflowError, BufferError or NotImplementedError with the
function's name in the message. Anything else (a raw backend error naming no function,
AttributeError, KeyError, RuntimeError, a hang past the alarm, a non-standard dtype) fails.
The signature table below names every public function, linalg/fft function, Info method
and Array member; ``test_table_covers_public_api`` fails if one is missing. On CUDA (the
``device`` fixture's cuda param) some drawn arrays sit on the CPU, so every function is also
checked to refuse mixing devices with a clear error. A few oracles at the end pin results
on empty and 0-d arrays against NumPy's values and the standard's dtypes.
"""

from __future__ import annotations

import builtins
import copy
import operator
import os
import pathlib
import pickle
import signal
import subprocess
import sys
from types import ModuleType
from typing import Any

import numpy as np
import pytest
from bad_inputs_strategies import DTYPES, SLOTS
from conftest import to_numpy
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

import xpgpu as xp
from xpgpu import _devices

ALLOWED = (TypeError, ValueError, IndexError, OverflowError, BufferError, NotImplementedError)
# XPGPU_FUZZ_EXAMPLES=200 for a deeper (slower) campaign.
SETTINGS = settings(max_examples=int(os.environ.get("XPGPU_FUZZ_EXAMPLES", "20")),
                    deadline=None, derandomize=True, database=None,
                    suppress_health_check=list(HealthCheck),
                    phases=[Phase.explicit, Phase.generate, Phase.shrink])
# A call with no result within ALARM_S seconds hangs. CuPy compiles each kernel on its first
# use (seconds, more while many test workers compile at once), so hosts with a GPU allow that.
ALARM_S = 60 if _devices.cuda_devices() else 3


class Entry:
    """A public callable's argument kinds (``*kind`` is variadic), its result kind, and
    the names its messages may start with."""

    def __init__(self, *pos: str, res: str = "array", names: tuple[str, ...] = (),
                 call: Any = None, **kw: str) -> None:
        self.pos, self.kw, self.res, self.names, self.call = pos, kw, res, names, call


def E(*pos: str, res: str = "array", **kw: str) -> Entry:
    return Entry(*pos, res=res, **kw)


# ---- the namespace ------------------------------------------------------------------------

UNARY = ("abs acos acosh asin asinh atan atanh bitwise_invert ceil conj cos cosh exp expm1 "
         "floor imag isfinite isinf isnan log log10 log1p log2 logical_not negative positive "
         "real reciprocal round sign signbit sin sinh sqrt square tan tanh trunc").split()
BINARY = ("add atan2 bitwise_and bitwise_left_shift bitwise_or bitwise_right_shift bitwise_xor "
          "copysign divide equal floor_divide greater greater_equal hypot less less_equal "
          "logaddexp logical_and logical_or logical_xor maximum minimum multiply nextafter "
          "not_equal pow remainder subtract").split()
CREATE = dict(dtype="dtype", device="device")
RED = dict(axis="axes", keepdims="bool")

_PROFILE = xp._profile.current()
NAMESPACE: dict[str, Entry] = {
    **{n: E("array") for n in UNARY},
    **{n: E("scalar", "scalar") for n in BINARY},
    "clip": E("array", min="scalar", max="scalar"),
    # creation
    "arange": E("scalar", "scalar", "scalar", **CREATE),
    "asarray": E("any", copy="bool", **CREATE),
    "empty": E("shape", **CREATE), "zeros": E("shape", **CREATE), "ones": E("shape", **CREATE),
    "empty_like": E("array", **CREATE), "zeros_like": E("array", **CREATE),
    "ones_like": E("array", **CREATE),
    "eye": E("int", "int", k="int", **CREATE),
    "full": E("shape", "scalar", **CREATE), "full_like": E("array", "scalar", **CREATE),
    "linspace": E("scalar", "scalar", "int", endpoint="bool", **CREATE),
    "logspace": E("scalar", "scalar", "int", base="scalar", endpoint="bool", **CREATE),
    "meshgrid": E("*array", indexing="indexing", res="arrays"),
    "tril": E("array", k="int"), "triu": E("array", k="int"),
    # data types
    "astype": E("array", "dtype", copy="bool", device="device"),
    "can_cast": E("dtype_or_array", "dtype_or_array", res="bool"),
    "finfo": E("dtype_or_array", res="info"), "iinfo": E("dtype_or_array", res="info"),
    "isdtype": E("dtype", "kind", res="bool"),
    "result_type": E("*dtype_or_array", res="dtype"),
    # manipulation
    "broadcast_arrays": E("*array", res="arrays"),
    "broadcast_shapes": E("*shape", res="shape"),
    "broadcast_to": E("array", "shape"),
    "concat": E("arrays", axis="axis"), "stack": E("arrays", axis="axis"),
    "expand_dims": E("array", "axes"), "squeeze": E("array", "axes"),
    "flip": E("array", axis="axes"),
    "moveaxis": E("array", "axes", "axes"), "permute_dims": E("array", "axes"),
    "repeat": E("array", "int", axis="axis"),
    "reshape": E("array", "shape", copy="bool"),
    "roll": E("array", "axes", axis="axes"),
    "tile": E("array", "shape"), "unstack": E("array", axis="axis", res="arrays"),
    # searching, sorting, sets
    "argmax": E("array", axis="axis", keepdims="bool"),
    "argmin": E("array", axis="axis", keepdims="bool"),
    "count_nonzero": E("array", **RED), "nonzero": E("array", res="arrays"),
    "searchsorted": E("array", "scalar", side="side", sorter="array"),
    "where": E("array", "scalar", "scalar"),
    "isin": E("scalar", "scalar", invert="bool"),
    "unique_all": E("array", res="named"), "unique_counts": E("array", res="named"),
    "unique_inverse": E("array", res="named"), "unique_values": E("array"),
    "argsort": E("array", axis="axis", descending="bool", stable="bool"),
    "sort": E("array", axis="axis", descending="bool", stable="bool"),
    # statistics and utilities
    "cumulative_sum": E("array", axis="axis", dtype="dtype", include_initial="bool"),
    "cumulative_prod": E("array", axis="axis", dtype="dtype", include_initial="bool"),
    "max": E("array", **RED), "min": E("array", **RED), "mean": E("array", **RED),
    "sum": E("array", dtype="dtype", **RED), "prod": E("array", dtype="dtype", **RED),
    "std": E("array", correction="float", **RED), "var": E("array", correction="float", **RED),
    "all": E("array", **RED), "any": E("array", **RED),
    "diff": E("array", axis="axis", n="int", prepend="array", append="array"),
    "take": E("array", "array", axis="axis"),
    "take_along_axis": E("array", "array", axis="axis"),
    # linear algebra
    "matmul": E("array", "array"), "matrix_transpose": E("array"),
    "tensordot": E("array", "array", axes="tdaxes"), "vecdot": E("array", "array", axis="axis"),
    # the rest
    "from_dlpack": E("any", device="device", copy="bool"),
    "__array_namespace_info__": E(res="info"),
    "fuse": E("callable", kernel_name="any", res="any"),
    "set_array_api_version": E("version", res="none"),
    "set_strict": E("bool", res="none"),
}

LINALG: dict[str, Entry] = {
    "cholesky": E("array", upper="bool"), "cross": E("array", "array", axis="axis"),
    "det": E("array"), "diagonal": E("array", offset="int"),
    "eig": E("array", res="named"), "eigh": E("array", res="named"),
    "eigvals": E("array"), "eigvalsh": E("array"), "inv": E("array"),
    "matmul": E("array", "array"),
    "matrix_norm": E("array", keepdims="bool", ord="ord"),
    "matrix_power": E("array", "int"), "matrix_rank": E("array", rtol="float"),
    "matrix_transpose": E("array"), "outer": E("array", "array"),
    "pinv": E("array", rtol="float"), "qr": E("array", mode="mode", res="named"),
    "slogdet": E("array", res="named"), "solve": E("array", "array"),
    "svd": E("array", full_matrices="bool", res="named"), "svdvals": E("array"),
    "tensordot": E("array", "array", axes="tdaxes"),
    "trace": E("array", offset="int", dtype="dtype"),
    "vecdot": E("array", "array", axis="axis"),
    "vector_norm": E("array", axis="axes", keepdims="bool", ord="ord"),
}

_FFT1 = dict(n="int", axis="axis", norm="norm")
_FFTN = dict(s="shape", axes="axes", norm="norm")
FFT: dict[str, Entry] = {
    **{n: E("array", **_FFT1) for n in ("fft", "ifft", "rfft", "irfft", "hfft", "ihfft")},
    **{n: E("array", **_FFTN) for n in ("fftn", "ifftn", "rfftn", "irfftn")},
    "fftfreq": E("int", d="float", **CREATE), "rfftfreq": E("int", d="float", **CREATE),
    "fftshift": E("array", axes="axes"), "ifftshift": E("array", axes="axes"),
}

INFO: dict[str, Entry] = {
    "capabilities": E(res="info"), "default_device": E(res="device"),
    "default_dtypes": E(device="device", res="info"),
    "dtypes": E(device="device", kind="kind", res="info"), "devices": E(res="info"),
}

# ---- the array object ---------------------------------------------------------------------

_OPS = {"add": "add", "sub": "subtract", "mul": "multiply", "truediv": "divide",
        "floordiv": "floor_divide", "mod": "remainder", "pow": "pow", "matmul": "matmul",
        "and": "bitwise_and", "or": "bitwise_or", "xor": "bitwise_xor",
        "lshift": "bitwise_left_shift", "rshift": "bitwise_right_shift"}
_CMP = {"eq": "equal", "ne": "not_equal", "lt": "less", "le": "less_equal",
        "gt": "greater", "ge": "greater_equal"}
_UNOPS = {"abs": ("abs", builtins.abs), "neg": ("negative", operator.neg),
          "pos": ("positive", operator.pos), "invert": ("bitwise_invert", operator.invert)}


def _op(dunder: str, func: str, how: Any, res: str = "array", kind: str = "scalar") -> Entry:
    return Entry("self", kind, res=res, names=(dunder, func), call=how)


def _binop(op: str) -> Any:
    return getattr(operator, op if op not in ("and", "or") else op + "_")


ARRAY: dict[str, Entry] = {
    **{f"__{op}__": _op(f"__{op}__", f, _binop(op)) for op, f in _OPS.items()},
    # Reflected methods are called directly (Python only calls them after the other
    # operand's forward method): NotImplemented for a non-operand is their answer.
    **{f"__r{op}__": _op(f"__r{op}__", f, (lambda d: lambda x, y: getattr(x, d)(y))(
        f"__r{op}__"), res="array_or_notimplemented") for op, f in _OPS.items()},
    **{f"__i{op}__": _op(f"__i{op}__", f, getattr(operator, f"i{op}")) for op, f in _OPS.items()},
    # == and != with a non-operand fall back to identity (a bool), as Python's do.
    **{f"__{op}__": _op(f"__{op}__", f, getattr(operator, op),
                        res="array_or_bool" if op in ("eq", "ne") else "array")
       for op, f in _CMP.items()},
    **{f"__{op}__": Entry("self", names=(f"__{op}__", f), call=g) for op, (f, g) in _UNOPS.items()},
    "__bool__": Entry("self", res="bool", call=builtins.bool),
    "__int__": Entry("self", res="int", call=builtins.int),
    "__float__": Entry("self", res="float", call=builtins.float),
    "__complex__": Entry("self", res="complex", call=builtins.complex),
    "__index__": Entry("self", res="int", call=operator.index),
    "__getitem__": Entry("self", "index", call=operator.getitem),
    "__setitem__": Entry("self", "index", "scalar", res="none", call=operator.setitem),
    "__iter__": Entry("self", res="arrays", call=lambda x: builtins.list(iter(x))),
    "__repr__": Entry("self", res="str", call=builtins.repr),
    "__str__": Entry("self", res="str", call=builtins.str),
    "__format__": Entry("self", res="str", call=lambda x: builtins.format(x, "")),
    "__array__": Entry("self", dtype="dtype", copy="bool", res="any",
                       call=lambda x, **k: x.__array__(**k)),
    "__array_namespace__": Entry("self", api_version="version", res="module",
                                 call=lambda x, **k: x.__array_namespace__(**k)),
    "__dlpack__": Entry("self", stream="any", max_version="dlversion", dl_device="dldevice",
                        copy="bool", res="any", call=lambda x, **k: x.__dlpack__(**k)),
    "__dlpack_device__": Entry("self", res="dldevice", call=lambda x: x.__dlpack_device__()),
    "__reduce__": Entry("self", call=lambda x: pickle.loads(pickle.dumps(x))),
    "__copy__": Entry("self", call=lambda x: copy.copy(x)),
    "__deepcopy__": Entry("self", call=lambda x: copy.deepcopy(x)),
    "__new__": Entry("any", res="never", call=lambda *a: xp.Array(*a)),
    "to_device": Entry("self", "device", stream="any", call=lambda x, *a, **k:
                       x.to_device(*a, **k)),
    "T": Entry("self", names=("Array.T",), call=lambda x: x.T),
    "mT": Entry("self", names=("Array.mT",), call=lambda x: x.mT),
    "ndim": Entry("self", res="int", call=lambda x: x.ndim),
    "shape": Entry("self", res="shape", call=lambda x: x.shape),
    "size": Entry("self", res="int_or_none", call=lambda x: x.size),
    "device": Entry("self", res="device", call=lambda x: x.device),
    "dtype": Entry("self", res="dtype", call=lambda x: x.dtype),
}
# Members of Array that are no public function: Python's class machinery and private slots.
ARRAY_EXEMPT = {"__module__", "__doc__", "__slots__", "__annotations__", "__weakref__",
                "__hash__", "__array_ufunc__", "__dict__", "__qualname__", "__firstlineno__",
                "__static_attributes__", "__annotate_func__", "__annotations_cache__",
                "__init__", "__init_subclass__", "_data", "_device", "_dtype", "_ndim",
                "_scalar"}

EXTRA_SLOTS = {
    "tdaxes": lambda device: st.one_of(
        SLOTS["int"](device), st.tuples(SLOTS["axes"](device), SLOTS["axes"](device)),
        st.lists(SLOTS["axes"](device), max_size=3)),
    "dlversion": lambda device: st.sampled_from([None, (1, 0), (0, 8), (2, 0), (1,), "1", 1]),
    "dldevice": lambda device: st.sampled_from([None, (1, 0), (2, 0), (1,), "cpu", (1, 7)]),
}


ALL_SLOTS = {**SLOTS, **EXTRA_SLOTS}

# Known bugs. Each has one exact input in KNOWN below (test_known_bad_input, xfail
# strict=True: it turns XPASS, and fails, once fixed). While a bug stands, the fuzz test
# tolerates its symptom, for the callables listed in TOLERATED, so that it goes on finding
# new bugs there; SKIP_HUGE names callables never called with a Python int >= 2**62. Remove
# the entries once a bug is fixed.


def _has_huge(obj: object) -> bool:
    if isinstance(obj, (tuple, list)):
        return builtins.any(_has_huge(o) for o in obj)
    if isinstance(obj, dict):
        return _has_huge(list(obj.values()))
    return type(obj) is int and builtins.abs(obj) >= 2**62


SYMPTOMS: dict[str, Any] = {}  # bug -> (exception, args, kwargs) -> whether it is that bug
TOLERATED: dict[str, tuple[str, ...]] = {}
SKIP_HUGE: set[str] = set()

TABLES: dict[str, dict[str, Entry]] = {"xp": NAMESPACE, "linalg": LINALG, "fft": FFT,
                                       "info": INFO, "Array": ARRAY}
CASES = [f"{t}.{n}" for t, table in TABLES.items() for n in table]


def _target(table: str, name: str) -> Any:
    if table == "xp":
        return getattr(xp, name)
    if table in ("linalg", "fft"):
        return getattr(getattr(xp, table), name)
    if table == "info":
        return getattr(xp.__array_namespace_info__(), name)
    return ARRAY[name].call


# ---- checking one call ----------------------------------------------------------------------

class Hang(BaseException):
    pass


def _alarm(signum: int, frame: Any) -> None:
    raise Hang(f"no result within {ALARM_S} s")


def _is_array(r: object) -> bool:
    return isinstance(r, xp.Array) and any(r.dtype is d for d in DTYPES) \
        and isinstance(r.shape, tuple) and r.ndim == len(r.shape)


def _result_ok(res: str, r: object) -> bool:
    if res == "array":
        return _is_array(r)
    if res == "array_or_notimplemented":
        return _is_array(r) or r is NotImplemented
    if res == "array_or_bool":
        return _is_array(r) or type(r) is bool
    if res == "arrays":
        return isinstance(r, (tuple, list)) and builtins.all(_is_array(a) for a in r)
    if res == "named":
        return isinstance(r, tuple) and hasattr(r, "_fields") \
            and builtins.all(_is_array(a) for a in r)
    if res == "bool":
        return type(r) is bool
    if res == "int":
        return type(r) is int
    if res == "int_or_none":
        return r is None or type(r) is int
    if res == "float":
        return type(r) is float
    if res == "complex":
        return type(r) is complex
    if res == "dtype":
        return any(r is d for d in DTYPES)
    if res == "shape":
        return isinstance(r, tuple) and builtins.all(type(s) is int or s is None for s in r)
    if res == "device":
        return type(r) is _devices.Device
    if res == "str":
        return type(r) is str
    if res == "none":
        return r is None
    if res == "module":
        return isinstance(r, ModuleType)
    if res == "dldevice":
        return isinstance(r, tuple) and len(r) == 2
    if res == "never":
        return False
    return res in ("info", "any")


def _python_operator_error(exc: BaseException) -> bool:
    """Python's own TypeError when both operands return NotImplemented (or the other
    operand's: NumPy's scalars refuse an operand with __array_ufunc__ = None, and
    sequence repetition ``"ab" * x`` asks x.__index__)."""
    text = str(exc)
    return isinstance(exc, TypeError) and ("unsupported operand type" in text
                                           or "not supported between instances" in text
                                           or "bad operand type" in text
                                           or "does not support ufuncs" in text
                                           or text.startswith("__index__:"))


def check_call(case: str, args: list, kwargs: dict, tolerate: tuple[str, ...] = ()) -> None:
    table, name = case.split(".", 1)
    entry = TABLES[table][name]
    f = _target(table, name)
    names = entry.names or (name,)
    shown = f"{case}(*{args!r}, **{kwargs!r})"
    old = signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, ALARM_S)
    try:
        result = f(*args, **kwargs)
    except ALLOWED as exc:
        if entry.call is not None and _python_operator_error(exc):
            return
        if name == "__new__" and isinstance(exc, TypeError):
            return
        if builtins.any(SYMPTOMS[t](exc, args, kwargs) for t in tolerate):
            return
        if not any(n in str(exc) for n in names):
            raise AssertionError(f"{shown} raised {type(exc).__name__} whose message does not "
                                 f"name {names[0]!r}: {exc}") from exc
        return
    except Hang:
        raise AssertionError(f"{shown} hung (no result within {ALARM_S} s)") from None
    except Exception as exc:
        if builtins.any(SYMPTOMS[t](exc, args, kwargs) for t in tolerate):
            return
        raise AssertionError(f"{shown} raised {type(exc).__name__}: {exc}") from exc
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
        if name == "set_array_api_version":
            xp.set_array_api_version("2025.12")
        if name == "set_strict":
            xp.set_strict(_PROFILE)  # the profile the run selected (XPGPU_STRICT)
    assert _result_ok(entry.res, result), \
        f"{shown} returned {type(result).__name__} {result!r:.200}, not a valid {entry.res!r}"


def _draw_args(data: st.DataObject, entry: Entry, device: Any) -> tuple[list, dict]:
    args: list = []
    for kind in entry.pos:
        if kind.startswith("*"):
            args += data.draw(st.lists(ALL_SLOTS[kind[1:]](device), max_size=3), label=kind)
        else:
            args.append(data.draw(ALL_SLOTS[kind](device), label=kind))
    kwargs = {}
    for key, kind in entry.kw.items():
        if data.draw(st.booleans(), label=f"pass {key}"):
            kwargs[key] = data.draw(ALL_SLOTS[kind](device), label=key)
    return args, kwargs


# ---- the tests ----------------------------------------------------------------------------

def test_table_covers_public_api() -> None:
    """Every public callable has a signature entry (and no entry names a missing one)."""
    callables = {n for n in xp.__all__ if callable(getattr(xp, n))
                 and not isinstance(getattr(xp, n), (type, ModuleType))
                 and not any(getattr(xp, n) is d for d in DTYPES)}
    assert callables == set(NAMESPACE), (callables ^ set(NAMESPACE))
    assert set(xp.linalg.__all__) == set(LINALG), set(xp.linalg.__all__) ^ set(LINALG)
    assert set(xp.fft.__all__) == set(FFT), set(xp.fft.__all__) ^ set(FFT)
    info = xp.__array_namespace_info__()
    public = {n for n in dir(info) if not n.startswith("_")}
    assert public == set(INFO), public ^ set(INFO)
    members = set(vars(xp.Array)) - ARRAY_EXEMPT
    assert members == set(ARRAY), members ^ set(ARRAY)
    assert set(TOLERATED) <= set(CASES)
    assert {k[0] for k in KNOWN} <= set(CASES)


@pytest.mark.parametrize("case", CASES)
@SETTINGS
@given(data=st.data())
def test_bad_input(case: str, device: Any, data: st.DataObject) -> None:
    """One public callable, called with drawn arguments: a valid result or a clear error
    (or, while it stands, a known bug's symptom: TOLERATED)."""
    table, name = case.split(".", 1)
    args, kwargs = _draw_args(data, TABLES[table][name], device)
    if case in SKIP_HUGE and (_has_huge(args) or _has_huge(kwargs)):
        return
    check_call(case, args, kwargs, TOLERATED.get(case, ()))


def _x(device: Any, shape: tuple = (2, 3), dtype: str = "float32") -> xp.Array:
    return xp.asarray(np.ones(shape, dtype=dtype), device=device)


def _b(device: Any) -> xp.Array:
    return xp.asarray(True, device=device)


# The bugs found, one exact input each: (case, device -> (args, kwargs), reason).
KNOWN: list[tuple[str, Any, str]] = []


@pytest.mark.parametrize("case, make, reason", [
    pytest.param(c, m, r, marks=pytest.mark.xfail(strict=True, reason=r), id=f"{c}-{i}")
    for i, (c, m, r) in enumerate(KNOWN)])
def test_known_bad_input(case: str, make: Any, reason: str, device: Any) -> None:
    """The bugs found by fuzzing, one exact input each: a valid result or a clear error."""
    args, kwargs = make(device)
    check_call(case, args, kwargs)


# Bugs found by fuzzing and fixed, one exact input each: (case, device -> (args, kwargs),
# what went wrong). Each must now give a valid result or an error naming the function.
_INDEX = "a bool or non-0-d array as an int argument: the message named __index__"
_HUGE = "a Python int >= 2**62 reached NumPy: unnamed ValueError/OverflowError"
FIXED = [
    ("xp.sum", lambda d: ([_x(d)], {"axis": _b(d)}), _INDEX),
    ("xp.zeros", lambda d: ([(_b(d),)], {}), _INDEX),
    ("xp.eye", lambda d: ([_b(d)], {}), _INDEX),
    ("fft.fftfreq", lambda d: ([_b(d)], {}), _INDEX),
    ("xp.sum", lambda d: ([_x(d)], {"axis": _x(d, (1,), "int64")}), _INDEX),
    ("xp.zeros", lambda d: ([(2**70,)], {}), _HUGE),
    ("xp.zeros", lambda d: ([(2**62,)], {}), "a too-big shape: NumPy's unnamed ValueError"),
    ("xp.eye", lambda d: ([2**63], {}), _HUGE),
    ("xp.eye", lambda d: ([2**32], {}), "a too-big shape: NumPy's unnamed ValueError"),
    ("xp.linspace", lambda d: ([0, 0, 2**63], {}), _HUGE + " (here an IndexError)"),
    ("xp.tile", lambda d: ([_x(d), (2**70,)], {}), _HUGE),
    ("xp.tile", lambda d: ([_x(d), (2**62,)], {}), "a too-big result"),
    ("xp.repeat", lambda d: ([_x(d), 2**70], {}), _HUGE),
    ("xp.repeat", lambda d: ([_x(d), 2**62], {}), "a too-big result: negative dimensions"),
    ("fft.fftfreq", lambda d: ([2**63], {}), _HUGE),
    ("fft.hfft", lambda d: ([_x(d, (0,), "complex64")], {"n": 2**64, "norm": "forward"}),
     _HUGE + " (here a UFuncTypeError)"),
    ("fft.fft", lambda d: ([_x(d, (3,), "complex64")], {"n": 2**62}), "a too-big result"),
    ("linalg.trace", lambda d: ([_x(d)], {"offset": 2**63}), _HUGE),
    ("linalg.diagonal", lambda d: ([_x(d)], {"offset": 2**40}), "offset is a C int in NumPy"),
    ("xp.diff", lambda d: ([_x(d, (0,), "int8")], {"n": 2**63}), "hung: NumPy loops n times"),
    ("xp.from_dlpack", lambda d: ([None], {}), "AttributeError, not TypeError"),
    ("linalg.matrix_norm", lambda d: ([_x(d)], {"ord": _b(d)}), "ord=<Array>: named __eq__"),
    ("Array.__setitem__", lambda d: ([_x(d), ..., _x(d, (0,))], {}),
     "value not broadcastable: NumPy's unnamed ValueError"),
    ("Array.__array__", lambda d: ([_x(d)], {"dtype": xp.int8, "copy": False}),
     "copy=False needing a copy: NumPy's unnamed ValueError"),
    ("Array.__array__", lambda d: ([_x(d)], {"dtype": 3}), "bad dtype: NumPy's unnamed TypeError"),
    ("Array.__dlpack__", lambda d: ([_x(d)], {"max_version": (1,)}),
     "bad max_version: NumPy's unnamed TypeError"),
    ("Array.__setitem__", lambda d: ([_x(d, (0,), "int8"), 0, 0], {}),
     "index out of bounds: NumPy's unnamed IndexError"),
    ("xp.reshape", lambda d: ([_x(d, (0,), "bool"), (2**64, 0)], {}),
     "a dimension beyond intp: NumPy's unnamed ValueError"),
    ("fft.ifftshift", lambda d: ([_x(d, (), "float32")], {}),
     "a 0-d x: NumPy's unnamed ValueError from roll"),
]


@pytest.mark.parametrize("case, make, reason", FIXED,
                         ids=[f"{c}-{i}" for i, (c, _, _) in enumerate(FIXED)])
def test_fixed_bad_input(case: str, make: Any, reason: str, device: Any) -> None:
    """The bugs found by fuzzing and since fixed stay fixed: a valid result or a clear error."""
    args, kwargs = make(device)
    check_call(case, args, kwargs)


HANG_SCRIPT = """
import numpy as np, xpgpu as xp
for dt in ("float32", "float64", "complex64", "complex128"):
    a = np.arange(9, dtype=dt).reshape(3, 3) / 2
    a[0, 0] = np.inf
    try:
        xp.linalg.{name}(xp.asarray(a, device="{device}"))
    except (ValueError, TypeError) as exc:
        assert "{name}" in str(exc), exc
print("done")
"""


@pytest.mark.parametrize("name", ["svd", "pinv", "svdvals", "matrix_rank", "eig"])
def test_no_hang_on_infinity(name: str, device: Any) -> None:
    """Linear algebra on a matrix holding inf returns or raises within seconds (run in a
    subprocess: a hang in LAPACK or cuSOLVER cannot be interrupted in-process)."""
    code = HANG_SCRIPT.format(name=name, device=device)
    root = pathlib.Path(__file__).resolve().parent.parent
    try:
        out = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True,
                             text=True, timeout=8, env={**os.environ, "PYTHONPATH": str(root)})
    except subprocess.TimeoutExpired:
        pytest.fail(f"linalg.{name} hangs on a 3x3 matrix holding inf")
    assert out.returncode == 0 and "done" in out.stdout, out.stderr[-2000:]


# ---- oracles on empty and 0-d arrays --------------------------------------------------------

def _a(values: Any, dtype: Any, device: Any) -> xp.Array:
    return xp.asarray(np.asarray(values, dtype=np.dtype(dtype)), device=device)


# (function, input values, input dtype, kwargs, expected value (NumPy), expected dtype)
ORACLES = [
    ("sum", [], "float32", {}, np.float32(0), xp.float32),
    ("sum", [], "int8", {}, np.int64(0), xp.int64),
    ("sum", [], "uint16", {}, np.uint64(0), xp.uint64),
    ("sum", np.zeros((0, 3)), "float64", {"axis": 0}, np.zeros(3), xp.float64),
    ("sum", np.ones((2, 3)), "int8", {"axis": ()}, np.ones((2, 3), np.int64), xp.int64),
    ("prod", [], "complex64", {}, np.complex64(1), xp.complex64),
    ("prod", [], "int32", {}, np.int64(1), xp.int64),
    ("mean", 2.5, "float32", {}, np.float32(2.5), xp.float32),
    ("mean", [], "float64", {}, np.float64(np.nan), xp.float64),
    ("mean", 2.5, "float64", {"keepdims": True}, np.float64(2.5), xp.float64),
    ("std", 2.5, "float64", {}, np.float64(0), xp.float64),
    ("var", [1.0, 3.0], "float32", {"correction": 1}, np.float32(2), xp.float32),
    ("max", 3, "int16", {}, np.int16(3), xp.int16),
    ("all", [], "bool", {}, np.True_, xp.bool),
    ("any", [], "bool", {}, np.False_, xp.bool),
    ("count_nonzero", [], "float32", {}, np.int64(0), xp.int64),
    ("cumulative_sum", [], "int8", {}, np.zeros(0, np.int64), xp.int64),
    ("cumulative_sum", [], "float32", {"include_initial": True}, np.zeros(1, np.float32),
     xp.float32),
    ("unique_values", [], "float64", {}, np.zeros(0), xp.float64),
    ("sort", np.zeros((0, 2)), "uint8", {}, np.zeros((0, 2), np.uint8), xp.uint8),
    ("argsort", [], "float32", {}, np.zeros(0, np.int64), xp.int64),
    ("reshape", np.zeros((0, 3)), "float32", {"shape": (-1,)}, np.zeros(0, np.float32),
     xp.float32),
    ("flip", 1.5, "float64", {}, np.float64(1.5), xp.float64),
    ("linalg.vector_norm", [], "float32", {}, np.float32(0), xp.float32),
    ("linalg.vector_norm", [3.0, 4.0], "complex64", {}, np.float32(5), xp.float32),
]


@pytest.mark.parametrize("fname, values, dtype, kwargs, expected, edtype", ORACLES,
                         ids=[f"{o[0]}-{o[2]}-{i}" for i, o in enumerate(ORACLES)])
def test_oracle(fname, values, dtype, kwargs, expected, edtype, device) -> None:
    """Empty and 0-d inputs give NumPy's value, the exact shape, and the standard's dtype."""
    f = xp.linalg.vector_norm if fname == "linalg.vector_norm" else getattr(xp, fname)
    x = _a(values, dtype, device)
    if fname == "reshape":
        got = f(x, kwargs["shape"])
    else:
        got = f(x, **kwargs)
    expected = np.asarray(expected)
    if kwargs.get("keepdims"):
        expected = expected.reshape((1,) * x.ndim)
    assert got.dtype is edtype, (got.dtype, edtype)
    assert got.shape == expected.shape, (got.shape, expected.shape)
    assert got.device == x.device
    np.testing.assert_array_equal(to_numpy(got), expected.astype(np.dtype(edtype)))


ERROR_ORACLES = [
    ("max", [], "float32", {}), ("min", np.zeros((2, 0)), "int8", {"axis": 1}),
    ("argmax", [], "float64", {}), ("argmin", np.zeros((0, 2)), "int8", {"axis": 0}),
    ("sum", np.zeros(3), "float32", {"axis": 1}),
    ("sum", np.zeros(3), "float32", {"axis": (0, 0)}),
    pytest.param("mean", np.zeros(3), "int32", {}, marks=pytest.mark.strict_only),
    pytest.param("sum", [True], "bool", {}, marks=pytest.mark.strict_only),
    ("squeeze", np.zeros((2, 1)), "float32", {"axis": 0}),
    ("concat", 1.0, "float32", {}), ("unstack", 1.0, "float32", {}),
    ("matrix_transpose", [1.0], "float64", {}), ("cumulative_sum", np.zeros((2, 2)), "float32", {}),
]


@pytest.mark.parametrize("fname, values, dtype, kwargs", ERROR_ORACLES,
                         ids=[f"{getattr(o, 'values', o)[0]}-{i}"
                              for i, o in enumerate(ERROR_ORACLES)])
def test_error_oracle(fname, values, dtype, kwargs, device) -> None:
    """Inputs the standard leaves without a result raise a named ValueError/TypeError."""
    x = _a(values, dtype, device)
    arg = [x] if fname == "concat" else x
    with pytest.raises((ValueError, TypeError, IndexError)) as info:
        getattr(xp, fname)(arg, **kwargs)
    assert fname in str(info.value)


# ---- the fixed bugs' semantics, against NumPy -----------------------------------------------

def test_huge_ints_where_they_have_a_meaning(device: Any) -> None:
    """Huge k, offset, shift and n keep their meaning (clamped or reduced), as NumPy's
    results for the equivalent small ints."""
    a = np.arange(6.0).reshape(2, 3)
    x = xp.asarray(a, device=device)
    big = 2**70
    np.testing.assert_array_equal(to_numpy(xp.roll(x, big + 1)), np.roll(a, (big + 1) % 6))
    np.testing.assert_array_equal(to_numpy(xp.roll(x, (1, big + 2), axis=(0, 1))),
                                  np.roll(a, (1, (big + 2) % 3), axis=(0, 1)))
    assert xp.linalg.diagonal(x, offset=big).shape == (0,)
    assert xp.linalg.diagonal(x, offset=-big).shape == (0,)
    assert float(xp.linalg.trace(x, offset=2**63)) == 0.0
    np.testing.assert_array_equal(to_numpy(xp.tril(x, k=big)), a)
    assert xp.diff(x, n=big).shape == np.diff(a, n=3).shape == (2, 0)
    assert xp.diff(x, n=big, axis=0, append=x).shape == (0, 3)
    assert xp.diff(x, n=2).dtype is xp.float64


@pytest.mark.parametrize("call", [
    lambda d: xp.zeros((2**62,), device=d), lambda d: xp.ones((2**70, 0), device=d),
    lambda d: xp.eye(2**32, device=d), lambda d: xp.linspace(0, 1, 2**63, device=d),
    lambda d: xp.repeat(_x(d), 2**62), lambda d: xp.tile(_x(d), (2**62, 1)),
    lambda d: xp.fft.fftfreq(2**63, device=d),
    lambda d: xp.fft.fft(_x(d, (3,), "complex64"), n=2**62),
    lambda d: xp.fft.fftn(_x(d, (3,), "complex64"), s=(2**64,), axes=(0,))])
def test_too_big_is_a_named_value_error(call: Any, device: Any) -> None:
    with pytest.raises(ValueError, match=r"^\w+: an array of shape .* is too big"):
        call(device)


@pytest.mark.parametrize("value", [True, (1,), 1.5, "array"])
def test_int_argument_names_the_function(value: Any, device: Any) -> None:
    bad = {True: xp.asarray(True, device=device), (1,): _x(device, (1,), "int64"),
           1.5: xp.asarray(1.5, device=device), "array": _x(device, (2,), "float32")}[value]
    with pytest.raises(TypeError, match=r"^sum: axis must be an int, not xpgpu.Array"):
        xp.sum(_x(device), axis=bad)


@pytest.mark.parametrize("name", ["svd", "pinv"])
@pytest.mark.parametrize("bad", [np.inf, -np.inf, np.nan])
def test_svd_of_non_finite_is_a_value_error(name: str, bad: float, device: Any) -> None:
    """NumPy raises LinAlgError (a ValueError) for nan; inf, on which LAPACK never returns,
    is refused the same way, on every device."""
    a = np.eye(3)
    a[1, 2] = bad
    with pytest.raises(ValueError, match=f"^{name}: "):
        getattr(xp.linalg, name)(xp.asarray(a, device=device))


def test_from_dlpack_of_no_producer_is_attribute_and_type_error() -> None:
    """The standard names AttributeError; a wrong argument type is a TypeError elsewhere."""
    with pytest.raises(AttributeError, match=r"^from_dlpack: "):
        xp.from_dlpack(None)
    with pytest.raises(TypeError, match=r"^from_dlpack: "):
        xp.from_dlpack(None)


def test_setitem_array_and_dlpack_errors_name_the_member(device: Any) -> None:
    x = _x(device)
    with pytest.raises(ValueError, match=r"^__setitem__: .*broadcast"):
        x[...] = _x(device, (0,))
    with pytest.raises(TypeError, match=r"^__dlpack__: max_version"):
        x.__dlpack__(max_version=(1,))
    with pytest.raises(TypeError, match=r"^matrix_norm: ord"):
        xp.linalg.matrix_norm(x, ord=xp.asarray(2, device=device))
    if device is _devices.CPU:
        with pytest.raises(ValueError, match=r"^__array__: "):
            x.__array__(dtype=np.int8, copy=False)
        with pytest.raises(TypeError, match=r"^__array__: "):
            x.__array__(dtype=3)
    with pytest.raises(IndexError, match=r"^__setitem__: "):
        x[5, 0] = 1.0
    with pytest.raises(ValueError, match=r"^reshape: .* too big"):
        xp.reshape(xp.asarray(np.zeros(0, np.int8), device=device), (2**64, 0))
