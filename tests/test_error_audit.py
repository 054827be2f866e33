"""Every refusal is xpgpu's own and tells the fix: an audit over every public function.

Each public function (the signature tables of test_bad_inputs) is called with each kind of
wrong or foreign object real code passes in each of its array arguments (NumPy arrays,
NumPy scalars and scalar types, Python types, CuPy arrays where CuPy is installed, lists,
tuples, strings, None, an array of a wrong dtype, and, on CUDA, an array on another device),
the other arguments being valid. Where the call is refused, the table ``FOREIGN`` gives the
exception type (for arrays of a wrong dtype, a ValueError about their shape also counts);
the message must start with the function's name and a colon (xpgpu's text, not NumPy's or
CuPy's) and contain a fix (``HINT``: "use ...", an ``xpgpu.`` name, or the
permissive profile). ``MESSAGES`` pins the messages a newcomer met (issue "A newcomer's
day"), each with the fix it must name.

Not covered here: NumPy scalars and arrays as operands of Array's operators (``x * np.float32
(2)``), whose messages the permissive profile's rules decide.
"""

from __future__ import annotations

import builtins
import importlib.util
import re
from collections import Counter
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from test_bad_inputs import FFT, LINALG, NAMESPACE, Entry

import xpgpu as xp
from xpgpu import _devices
from xpgpu._dtypes import DType

# Strict refusals and their messages: checked in the strict profile in every run
# (XPGPU_STRICT=0 runs included).
pytestmark = pytest.mark.usefixtures("strict_profile")

HINT = re.compile(r"\buse\b|xpgpu\.|set_strict|permissive")
_cupy = importlib.util.find_spec("cupy") is not None and bool(_devices.cuda_devices())


def _cupy_array() -> Any:
    import cupy  # optional: only where CuPy and a GPU are present

    return cupy.ones(3)


# kind -> (object maker (device -> object), the exception type of its refusal)
FOREIGN: dict[str, tuple[Callable[[Any], Any], type[Exception]]] = {
    "numpy array": (lambda d: np.ones(3), TypeError),
    "numpy 0-d array": (lambda d: np.array(1.5), TypeError),
    "numpy scalar": (lambda d: np.float32(1.5), TypeError),
    "numpy bool": (lambda d: np.True_, TypeError),
    "numpy scalar type": (lambda d: np.float32, TypeError),
    "python type": (lambda d: float, TypeError),
    "list": (lambda d: [1.0, 2.0], TypeError),
    "nested list": (lambda d: [[1, 2], [3, 4]], TypeError),
    "tuple": (lambda d: (1.0, 2.0), TypeError),
    "str": (lambda d: "abc", TypeError),
    "None": (lambda d: None, TypeError),
    "wrong dtype": (lambda d: xp.ones((3, 3), dtype=xp.bool, device=d), TypeError),
    "complex dtype": (lambda d: xp.ones((3, 3), dtype=xp.complex128, device=d), TypeError),
}
if _cupy:
    FOREIGN["cupy array"] = (lambda d: _cupy_array(), TypeError)
# On CUDA, an array on the CPU among arrays on the GPU: the valid argument of its slot (same
# dtype and shape) moved, so that the device check, not a dtype check, is what refuses it.
WRONG_DEVICE_ERROR = ValueError
# Dtypes tried, in order, for the arrays of a wrong-device call: the first that the function
# accepts with every argument on the device.
_DEVICE_DTYPES = ("float64", "int64", "bool", "complex128")

# Valid values for the arguments not under test, by the argument kinds of test_bad_inputs.
VALID: dict[str, Callable[[Any], Any]] = {
    "array": lambda d: xp.ones((3, 3), device=d), "self": lambda d: xp.ones((3, 3), device=d),
    "scalar": lambda d: 1.0, "int": lambda d: 1, "shape": lambda d: (3,), "axes": lambda d: 0,
    "axis": lambda d: 0, "dtype": lambda d: xp.float64, "dtype_or_array": lambda d: xp.float64,
    "kind": lambda d: "real floating", "bool": lambda d: False,
    "arrays": lambda d: [xp.ones(3, device=d), xp.ones(3, device=d)],
    "tdaxes": lambda d: 1, "float": lambda d: 1.0,
}
# Valid arguments of callables that need others than VALID's.
VALID_FOR: dict[str, Callable[[Any], list[Any]]] = {
    "searchsorted": lambda d: [xp.arange(3.0, device=d), 1.0],
    "where": lambda d: [xp.ones((3, 3), dtype=xp.bool, device=d), xp.ones((3, 3), device=d),
                        xp.ones((3, 3), device=d)],
    "isin": lambda d: [xp.ones((3, 3), dtype=xp.int64, device=d),
                       xp.ones(3, dtype=xp.int64, device=d)],
    "permute_dims": lambda d: [xp.ones((3, 3), device=d), (1, 0)],
    "iinfo": lambda d: [xp.int64],
    "take": lambda d: [xp.ones(3, device=d), xp.ones(3, dtype=xp.int64, device=d)],
    "outer": lambda d: [xp.ones(3, device=d), xp.ones(3, device=d)],
    "solve": lambda d: [xp.eye(3, device=d), xp.ones((3, 3), device=d)],
}
ARRAY_SLOTS = {"array", "self", "scalar", "dtype_or_array", "arrays", "*array",
               "*dtype_or_array"}
# Callables whose array-like arguments take anything (conversion) or are not arrays.
SKIP = {"asarray", "fuse", "set_array_api_version", "__array_namespace_info__",
        "from_dlpack", "meshgrid", "broadcast_arrays", "arange", "linspace", "logspace",
        "full", "full_like", "can_cast", "result_type", "isdtype"}

TABLES = {"xp": NAMESPACE, "linalg": LINALG, "fft": FFT}


def _func(table: str, name: str) -> Any:
    return getattr(xp, name) if table == "xp" else getattr(getattr(xp, table), name)


def _valid_on_device(f: Any, name: str, kinds: list[str], device: Any) -> list[Any]:
    """Valid arguments, every array slot an array on ``device``, of a dtype ``f`` accepts."""
    base = VALID_FOR[name](device) if name in VALID_FOR else \
        [VALID.get(k, VALID["array"])(device) for k in kinds]
    if name in VALID_FOR:
        return base
    for dtype in _DEVICE_DTYPES:
        dt = getattr(xp, dtype)
        args = [xp.ones((3, 3), dtype=dt, device=device)
                if k in ARRAY_SLOTS and isinstance(a, (bool, int, float, complex, xp.Array))
                else [xp.astype(e, dt) for e in a] if k == "arrays"
                else dt if k == "dtype_or_array" else a
                for k, a in zip(kinds, base, strict=True)]
        try:
            f(*args)
        except Exception:  # this dtype is refused: try the next
            continue
        return args
    return base


def _moved(valid: Any, other: Any) -> Any:
    """The valid argument of a slot on the ``other`` device (in a list: its last array)."""
    if isinstance(valid, list):
        return [*valid[:-1], valid[-1].to_device(other)]
    if isinstance(valid, xp.Array):
        return valid.to_device(other)
    dtype = valid if isinstance(valid, DType) else xp.float64 if \
        isinstance(valid, float) else xp.int64
    return xp.ones((3, 3), dtype=dtype, device=other)


def _calls(device: Any) -> list[tuple[str, str, list[Any], type[Exception]]]:
    """(function label, foreign kind, arguments, expected exception type) per call."""
    foreign = dict(FOREIGN)
    out = []
    if device is not _devices.CPU:
        out += _wrong_device_calls(device, "cpu")
    for table, entries in TABLES.items():
        for name, entry in entries.items():
            if name in SKIP:
                continue
            kinds = [k.lstrip("*") for k in entry.pos]
            for i, kind in enumerate(entry.pos):
                if kind not in ARRAY_SLOTS:
                    continue
                for label, (make, error) in foreign.items():
                    args = VALID_FOR[name](device) if name in VALID_FOR else \
                        [VALID.get(k, VALID["array"])(device) for k in kinds]
                    args[i] = make(device)
                    out.append((f"{table}.{name}", label, args, error))
    return out


def _wrong_device_calls(device: Any, other: Any) -> list[tuple[str, str, list[Any],
                                                              type[Exception]]]:
    """Per array slot: the valid call with that slot's argument moved to ``other``."""
    out = []
    for table, entries in TABLES.items():
        for name, entry in entries.items():
            if name in SKIP:
                continue
            slots = [i for i, kind in enumerate(entry.pos) if kind in ARRAY_SLOTS]
            if not slots:  # nothing to move (and set_strict(False) must not be called)
                continue
            kinds = [k.lstrip("*") for k in entry.pos]
            valid = _valid_on_device(_func(table, name), name, kinds, device)
            for i in slots:
                args = list(valid)
                args[i] = _moved(valid[i], other)
                out.append((f"{table}.{name}", "wrong device", args, WRONG_DEVICE_ERROR))
    return out


def _names(entry: Entry, name: str) -> tuple[str, ...]:
    return entry.names or (name,)


def test_foreign_and_wrong_arguments(device: Any) -> None:
    """Each refusal: the table's exception type, the function's name first, a fix."""
    bad, refused = [], Counter()
    calls = _calls(device)
    assert xp._profile.current(), "building the calls left the strict profile"
    for label, kind, args, error in calls:
        table, _, name = label.partition(".")
        f = _func(table, name)
        try:
            f(*args)
        except Exception as exc:  # every refusal is checked below
            text = str(exc)
            refused[kind] += 1
            shown = f"{label}({kind}): {type(exc).__name__}: {text}"
            # A valid-dtype array may still meet a shape the function refuses first: a
            # ValueError, as clear as any other.
            values_too = kind in ("wrong dtype", "complex dtype")
            if not isinstance(exc, error) and not (values_too and isinstance(exc, ValueError)):
                bad.append(f"{shown} (expected {error.__name__})")
            elif not builtins.any(text.startswith(f"{n}: ") for n in
                                  _names(TABLES[table][name], name)):
                bad.append(f"{shown} (does not start with '{name}: ')")
            elif not HINT.search(text):
                bad.append(f"{shown} (names no fix)")
    assert not bad, f"{len(bad)} unclear refusals:\n" + "\n".join(bad)
    # Every kind of foreign object is refused somewhere: the audit is not vacuous.
    assert set(refused) == set(FOREIGN) | ({"wrong device"} if device is not _devices.CPU
                                            else set()), refused


# Wrong objects for the other arguments (ints, axes, shapes, numbers, dtypes, flags, devices):
# kind -> (object, the exception types its refusal may have).
# (A ValueError where another argument's value is refused first is as clear.)
_TV = (TypeError, ValueError)
WRONG: dict[str, tuple[Any, tuple[type[Exception], ...]]] = {
    "str": ("abc", _TV), "xpgpu dtype": (xp.float32, _TV), "numpy array": (np.ones(2), _TV),
    "python type": (float, _TV), "object": (object(), _TV), "nested list of str": ([["a"]], _TV),
}
OTHER_SLOTS = {"int", "axis", "axes", "shape", "scalar", "dtype", "bool", "float", "kind",
               "device"}
# Callables whose arguments of these kinds take any object (conversion, fuse's callable).
SKIP_OTHER = {"asarray", "fuse", "set_array_api_version", "__array_namespace_info__",
              "from_dlpack"}


def test_wrong_other_arguments(device: Any) -> None:
    """Wrong objects for non-array arguments: refused with the function's name and a fix."""
    bad, refused = [], Counter()
    for table, entries in TABLES.items():
        for name, entry in entries.items():
            if name in SKIP_OTHER:
                continue
            kinds = [k.lstrip("*") for k in entry.pos]
            base = VALID_FOR[name](device) if name in VALID_FOR else \
                [VALID.get(k, VALID["array"])(device) for k in kinds]
            slots = [(i, None) for i, k in enumerate(kinds) if k in OTHER_SLOTS]
            slots += [(None, key) for key, k in entry.kw.items() if k in OTHER_SLOTS]
            for i, key in slots:
                for label, (obj, errors) in WRONG.items():
                    args, kwargs = list(base), {}
                    if key is None:
                        args[i] = obj  # type: ignore[index]
                    else:
                        kwargs[key] = obj
                    try:
                        _func(table, name)(*args, **kwargs)
                    except Exception as exc:  # every refusal is checked below
                        text = str(exc)
                        refused[label] += 1
                        shown = f"{table}.{name}({key or i}={label}): {type(exc).__name__}: {text}"
                        if not isinstance(exc, errors):
                            bad.append(f"{shown} (expected {errors})")
                        elif not text.startswith(f"{name}: "):
                            bad.append(f"{shown} (does not start with '{name}: ')")
                        elif not HINT.search(text):
                            bad.append(f"{shown} (names no fix)")
    assert not bad, f"{len(bad)} unclear refusals:\n" + "\n".join(bad)
    assert set(refused) == set(WRONG), refused


def _a(device: Any, values: Any = ((0.0, 1.0, 2.0), (3.0, 4.0, 5.0)), dtype: Any = None) -> Any:
    return xp.asarray(values, dtype=dtype, device=device)


def _iadd(x: Any, y: Any) -> None:
    x += y


# (call (device -> None), exception type, the message's pattern: name first, then the fix)
MESSAGES: list[tuple[str, Callable[[Any], Any], type[Exception], str]] = [
    ("fft of a real array", lambda d: xp.fft.fft(_a(d)), TypeError,
     r"^fft: x has dtype float64.*; use rfft\(\) for real input, or astype\(x, "
     r"xpgpu\.complex128\)"),
    ("integer true division", lambda d: xp.arange(3, device=d) / 2, TypeError,
     r"^__truediv__: .*use astype\(x, xpgpu\.float64\).*xpgpu\.set_strict\(False\)"),
    ("an int array times a float", lambda d: xp.arange(3, device=d) * 1.5, TypeError,
     r"^__mul__: a Python float .*use astype\(x, xpgpu\.float64\).*set_strict\(False\)"),
    ("mean of ints", lambda d: xp.mean(xp.arange(3, device=d)), TypeError,
     r"^mean: x has dtype int64.*; use astype\(x, xpgpu\.float64\)"),
    ("a mask beside a slice", lambda d: _a(d)[:, _a(d, [True, False, True])], IndexError,
     r"^__getitem__: .*sole index; use .*take\(.*nonzero\("),
    ("an index array beside a slice", lambda d: _a(d)[_a(d, [0, 1]), :], IndexError,
     r"^__getitem__: .*use take\("),
    ("an index array in an assignment",
     lambda d: _a(d).__setitem__((_a(d, [0, 1]), 0), 1.0), IndexError,
     r"^__setitem__: .*use where\(\)"),
    ("a NumPy index array", lambda d: _a(d)[np.array([0, 1]), 0], IndexError,
     r"^__getitem__: .*use xpgpu\.asarray\(index, device=x\.device\), or "
     r"xpgpu\.set_strict\(False\)"),
    ("an in-place add of a float to ints", lambda d: _iadd(xp.arange(3, device=d), 1.5),
     TypeError, r"^__iadd__: .*use astype"),
    ("an in-place add that changes the dtype",
     lambda d: _iadd(xp.ones(3, dtype=xp.float32, device=d), xp.ones(3, device=d)),
     TypeError, r"^__iadd__: .*use x = x \+ y"),
    ("linspace with an integer dtype", lambda d: xp.linspace(0, 1, 3, dtype=xp.int64, device=d),
     TypeError, r"^linspace: dtype must be a floating-point dtype, not int64; use xpgpu\."),
    ("matmul of mismatched shapes", lambda d: _a(d) @ _a(d), ValueError,
     r"^matmul: x1 of shape \(2, 3\) has 3 columns, but x2 of shape \(2, 3\) has 2 rows"
     r"[^:]*; use matrix_transpose"),
    ("shapes that do not broadcast", lambda d: _a(d) + xp.ones(4, device=d), ValueError,
     r"^__add__: shapes \(2, 3\) and \(4,\) cannot be broadcast.*; use "),
    ("an index out of bounds", lambda d: _a(d)[5, 0], IndexError,
     r"^__getitem__: index 5 is out of bounds for axis 0 of size 2; use an index in "
     r"\[-2, 2\)"),
    ("a dtype string", lambda d: xp.zeros(2, dtype="float32", device=d), TypeError,
     r"^zeros: dtype must be an xpgpu dtype, not 'float32'; use xpgpu\.float32, or "
     r"xpgpu\.set_strict\(False\)"),
    ("NumPy's scalar type as a dtype", lambda d: xp.zeros(2, dtype=np.float32, device=d),
     TypeError, r"^zeros: .*use xpgpu\.float32"),
    ("cross-kind promotion", lambda d: xp.arange(3, device=d) + xp.ones(3, device=d),
     TypeError, r"^__add__: int64 and float64 cannot be promoted .*use astype\(\).*"
     r"set_strict\(False\)"),
    ("a NumPy scalar for a function", lambda d: xp.add(_a(d), np.float32(1)), TypeError,
     r"^add: .*numpy\.float32; use xpgpu\.asarray\(value\), or float\(value\)"),
    ("a NumPy array for a function", lambda d: xp.sin(np.ones(3)), TypeError,
     r"^sin: x must be an xpgpu array, not numpy\.ndarray; use xpgpu\.asarray\(x\)"),
    ("a singular matrix", lambda d: xp.linalg.inv(xp.zeros((2, 2), device=d)), ValueError,
     r"^inv: x is singular.*; use pinv\(\)"),
    ("a ragged list", lambda d: xp.asarray([[1, 2], [3]], device=d), ValueError,
     r"^asarray: cannot convert the nested sequence.*; use sequences of one length"),
    ("keepdims=1", lambda d: xp.sum(_a(d), keepdims=1), TypeError,
     r"^sum: keepdims must be True or False, not int 1; use bool\(keepdims\)"),
    ("axis as a list in a reduction", lambda d: xp.sum(_a(d), axis=[0]), TypeError,
     r"^sum: axis must be an int, not list; use"),
]


@pytest.mark.parametrize("what, call, error, pattern", MESSAGES, ids=[m[0] for m in MESSAGES])
def test_message(what: str, call: Any, error: type[Exception], pattern: str, device: Any
                 ) -> None:
    if what == "a singular matrix" and device is not _devices.CPU:
        pytest.skip("CuPy's inv does not check for singular matrices (a synchronisation)")
    with pytest.raises(error, match=pattern):
        call(device)


@pytest.mark.parametrize("numpy_name, standard", [
    ("concatenate", "concat"), ("transpose", "permute_dims"), ("power", "pow"),
    ("unique", "unique_values"), ("arccos", "acos"), ("arctan2", "atan2"),
    ("absolute", "abs"), ("cumsum", "cumulative_sum"), ("invert", "bitwise_invert"),
])
def test_numpy_names_point_to_the_standard(numpy_name: str, standard: str) -> None:
    """A NumPy name is an AttributeError naming the standard's spelling; it adds no name."""
    with pytest.raises(AttributeError, match=rf"'{numpy_name}'.* spells it {standard}.*; use "
                                             rf"xpgpu\.{standard}"):
        getattr(xp, numpy_name)
    assert numpy_name not in dir(xp) and not hasattr(xp, numpy_name)
    assert hasattr(xp, standard)
    with pytest.raises(AttributeError, match=r"^module 'xpgpu' has no attribute 'nope'$"):
        xp.nope  # noqa: B018
