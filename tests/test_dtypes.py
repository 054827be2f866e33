"""Data type functions against the spec's tables (tests/oracle.py) and NumPy.

result_type/can_cast over all 169 dtype pairs, isdtype over every kind, finfo/iinfo
against NumPy, astype over every pair on each device, and dtype interoperability.
"""

from __future__ import annotations

import itertools

import numpy as np
import oracle
import pytest
from conftest import to_numpy
from hypothesis import given, settings
from hypothesis import strategies as st

import xpgpu as xp

NAMES = oracle.DTYPE_NAMES
PAIRS = list(itertools.product(NAMES, NAMES))


def dt(name: str) -> xp.DType:  # type: ignore[name-defined]
    return getattr(xp, name)


def np_dt(name: str) -> np.dtype:
    return np.dtype(name)


# ---- result_type and can_cast ---------------------------------------------------------

@pytest.mark.strict_only
@pytest.mark.parametrize("a, b", PAIRS, ids=[f"{a}-{b}" for a, b in PAIRS])
def test_result_type_pairs(a: str, b: str) -> None:
    expected = oracle.PROMOTION.get((a, b))
    if expected is None:
        with pytest.raises(TypeError, match=r"^result_type: "):
            xp.result_type(dt(a), dt(b))
    else:
        assert xp.result_type(dt(a), dt(b)) is dt(expected)


def test_can_cast_all_pairs() -> None:
    for a, b in PAIRS:
        expected = oracle.PROMOTION.get((a, b)) == b
        assert xp.can_cast(dt(a), dt(b)) is expected, (a, b)


@pytest.mark.strict_only
def test_result_type_and_can_cast_with_arrays(device) -> None:
    arrays = {n: xp.empty(1, dtype=dt(n), device=device) for n in NAMES}
    for a, b in PAIRS:
        expected = oracle.PROMOTION.get((a, b))
        if expected is None:
            with pytest.raises(TypeError):
                xp.result_type(arrays[a], arrays[b])
        else:
            assert xp.result_type(arrays[a], dt(b)) is dt(expected)
            assert xp.result_type(arrays[a], arrays[b]) is dt(expected)
        assert xp.can_cast(arrays[a], dt(b)) is (oracle.PROMOTION.get((a, b)) == b)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(NAMES), min_size=1, max_size=6), st.randoms())
@pytest.mark.strict_only
def test_result_type_many_any_order(names: list[str], rnd) -> None:
    expected = oracle.promote(*names)
    shuffled = list(names)
    rnd.shuffle(shuffled)
    for order in (names, shuffled):
        if expected is None:
            with pytest.raises(TypeError):
                xp.result_type(*[dt(n) for n in order])
        else:
            assert xp.result_type(*[dt(n) for n in order]) is dt(expected)


@pytest.mark.strict_only
@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("value", [True, 1, 1.5, 1j], ids=["bool", "int", "float", "complex"])
def test_result_type_with_python_scalars(name: str, value: object) -> None:
    expected = oracle.scalar_result(name, type(value))
    for args in ((dt(name), value), (value, dt(name)), (value, dt(name), value)):
        if expected is None:
            with pytest.raises(TypeError, match=r"^result_type: "):
                xp.result_type(*args)
        else:
            assert xp.result_type(*args) is dt(expected)


@pytest.mark.parametrize("name", sorted(oracle.INT_RANGE))
def test_result_type_int_scalar_bounds(name: str) -> None:
    lo, hi = oracle.INT_RANGE[name]
    assert xp.result_type(dt(name), lo) is dt(name)
    assert xp.result_type(dt(name), hi) is dt(name)
    for bad in (lo - 1, hi + 1):
        with pytest.raises(OverflowError, match=r"^result_type: "):
            xp.result_type(dt(name), bad)


def test_result_type_scalars_after_promotion() -> None:
    # Scalars are weak: they meet the promoted dtype of all arrays and dtypes.
    assert xp.result_type(xp.float32, 1j, xp.float64) is xp.complex128
    assert xp.result_type(1.0, xp.float32, xp.float32) is xp.float32
    assert xp.result_type(xp.int8, 200, xp.int16) is xp.int16


@pytest.mark.strict_only
def test_result_type_bad_arguments(device) -> None:
    with pytest.raises(ValueError, match=r"^result_type: "):
        xp.result_type()
    with pytest.raises(ValueError, match=r"^result_type: "):
        xp.result_type(1, 2.0)
    for bad in ("float32", float, np.float32, None, [1], np.float32(1.0)):
        with pytest.raises(TypeError, match=r"^result_type: "):
            xp.result_type(xp.float32, bad)
    # NumPy dtype instances are dtypes.
    assert xp.result_type(np.dtype("int8"), xp.int16) is xp.int16


@pytest.mark.strict_only
def test_can_cast_bad_arguments() -> None:
    for bad in ("int8", int, np.int8, 1):
        with pytest.raises(TypeError, match=r"^can_cast: "):
            xp.can_cast(bad, xp.int16)
        with pytest.raises(TypeError, match=r"^can_cast: "):
            xp.can_cast(xp.int8, bad)
    assert xp.can_cast(np.dtype("int8"), np.dtype("int16")) is True


# ---- isdtype --------------------------------------------------------------------------

KIND_NAMES = list(oracle.KINDS)


@pytest.mark.parametrize("name", NAMES)
def test_isdtype_kinds(name: str) -> None:
    for kind, members in oracle.KINDS.items():
        assert xp.isdtype(dt(name), kind) is (name in members), (name, kind)
    for other in NAMES:
        assert xp.isdtype(dt(name), dt(other)) is (name == other)
    assert xp.isdtype(np_dt(name), dt(name)) is True


@given(st.sampled_from(NAMES),
       st.lists(st.sampled_from(KIND_NAMES) | st.sampled_from(NAMES), min_size=1, max_size=4))
def test_isdtype_tuples(name: str, kinds: list[str]) -> None:
    expected = any(name in oracle.KINDS[k] if k in oracle.KINDS else name == k for k in kinds)
    kind = tuple(k if k in oracle.KINDS else dt(k) for k in kinds)
    assert xp.isdtype(dt(name), kind) is expected


@pytest.mark.strict_only
def test_isdtype_bad_arguments() -> None:
    with pytest.raises(ValueError, match=r"^isdtype: "):
        xp.isdtype(xp.int8, "integer")  # not a kind name of the standard
    for bad in ("int8", int, np.int8, None):
        with pytest.raises(TypeError, match=r"^isdtype: "):
            xp.isdtype(bad, "integral")
    with pytest.raises(TypeError, match=r"^isdtype: "):
        xp.isdtype(xp.int8, (("integral",),))
    with pytest.raises(TypeError, match=r"^isdtype: "):
        xp.isdtype(xp.int8, 3)


# ---- finfo and iinfo ------------------------------------------------------------------

FLOATS = ("float32", "float64", "complex64", "complex128")
INTS = tuple(oracle.INT_RANGE)


@pytest.mark.parametrize("name", FLOATS)
def test_finfo_against_numpy(name: str, device) -> None:
    ref = np.finfo(np.dtype(oracle.COMPONENT[name]))
    for arg in (dt(name), np_dt(name), xp.ones(2, dtype=dt(name), device=device)):
        info = xp.finfo(arg)
        assert type(info.bits) is int and info.bits == ref.bits
        for field in ("eps", "max", "min", "smallest_normal"):
            value = getattr(info, field)
            assert type(value) is float and value == float(getattr(ref, field)), field
        assert info.dtype is dt(oracle.COMPONENT[name])


@pytest.mark.parametrize("name", INTS)
def test_iinfo_against_numpy(name: str, device) -> None:
    ref = np.iinfo(np.dtype(name))
    for arg in (dt(name), np_dt(name), xp.zeros(2, dtype=dt(name), device=device)):
        info = xp.iinfo(arg)
        assert (type(info.bits), type(info.max), type(info.min)) == (int, int, int)
        assert (info.bits, info.min, info.max) == (ref.bits, int(ref.min), int(ref.max))
        assert (info.min, info.max) == oracle.INT_RANGE[name]
        assert info.dtype is dt(name)


@pytest.mark.strict_only
def test_info_wrong_kinds() -> None:
    for name in NAMES:
        if name not in FLOATS:
            with pytest.raises(TypeError, match=r"^finfo: "):
                xp.finfo(dt(name))
        if name not in INTS:
            with pytest.raises(TypeError, match=r"^iinfo: "):
                xp.iinfo(dt(name))
    for bad in ("float32", float, np.float32, 1.0):
        with pytest.raises(TypeError, match=r"^finfo: "):
            xp.finfo(bad)
        with pytest.raises(TypeError, match=r"^iinfo: "):
            xp.iinfo(bad)


# ---- astype ---------------------------------------------------------------------------

_SAMPLE = [0, 1, 2, 7, 100]


@pytest.mark.parametrize("src", NAMES)
def test_astype_all_targets(src: str, device) -> None:
    host = np.asarray(_SAMPLE, dtype=np_dt(src))
    if src in oracle.KINDS["complex floating"]:
        host = host + np.asarray([0, 0, 1j, -2j, 0]).astype(src)  # (0+1j) must cast to True
    x = xp.asarray(host, device=device)
    for dst in NAMES:
        complex_to_real = dst in oracle.KINDS["integral"] | oracle.KINDS["real floating"]
        if src in oracle.KINDS["complex floating"] and complex_to_real:
            with pytest.raises(TypeError, match=r"^astype: "):
                xp.astype(x, dt(dst))
            continue
        out = xp.astype(x, dt(dst))
        assert out.dtype is dt(dst) and out.device == device
        expected = host != 0 if dst == "bool" else host.astype(np_dt(dst))
        np.testing.assert_array_equal(to_numpy(out), expected)


def test_astype_copy_semantics(device) -> None:
    x = xp.asarray([1.0, 2.0], device=device)
    assert xp.astype(x, xp.float64, copy=False) is x
    y = xp.astype(x, xp.float64)
    assert y is not x
    x[0] = 5.0
    assert to_numpy(y)[0] == 1.0  # copy=True gives independent memory
    z = xp.astype(x, np.dtype("float32"), copy=False)  # a cast copies regardless
    assert z.dtype is xp.float32
    with pytest.raises(TypeError, match=r"^astype: "):
        xp.astype(x, xp.float32, copy=None)


def test_astype_device(device) -> None:
    x = xp.asarray([1, 2, 3], dtype=xp.int16, device=device)
    out = xp.astype(x, xp.float32, device="cpu")
    assert out.device == xp.__array_namespace_info__().devices()[0]
    np.testing.assert_array_equal(to_numpy(out), np.asarray([1, 2, 3], np.float32))
    back = xp.astype(out, xp.int16, device=device)
    assert back.device == device
    with pytest.raises(ValueError, match=r"^astype: "):
        xp.astype(x, xp.float32, device="nowhere")


# ---- dtype objects and dtype arguments ------------------------------------------------

@pytest.mark.parametrize("name", NAMES)
def test_dtype_numpy_interop(name: str) -> None:
    d = dt(name)
    assert np.dtype(d) == np_dt(name)
    assert d == np_dt(name) and np_dt(name) == d
    assert hash(d) == hash(np_dt(name))
    assert {np_dt(name): 1}[d] == 1
    assert d != name and d != np_dt(name).type  # strings and NumPy scalar types differ
    assert str(d.name) == name
    others = [o for o in NAMES if o != name]
    assert all(d != dt(o) and d != np_dt(o) for o in others)


_CALLS = {
    "asarray": lambda d: xp.asarray([1], dtype=d),
    "zeros": lambda d: xp.zeros(2, dtype=d),
    "ones": lambda d: xp.ones(2, dtype=d),
    "empty": lambda d: xp.empty(2, dtype=d),
    "full": lambda d: xp.full(2, 1, dtype=d),
    "arange": lambda d: xp.arange(3, dtype=d),
    "eye": lambda d: xp.eye(2, dtype=d),
    "linspace": lambda d: xp.linspace(0, 1, 3, dtype=d),
    "zeros_like": lambda d: xp.zeros_like(xp.zeros(2), dtype=d),
    "ones_like": lambda d: xp.ones_like(xp.zeros(2), dtype=d),
    "empty_like": lambda d: xp.empty_like(xp.zeros(2), dtype=d),
    "full_like": lambda d: xp.full_like(xp.zeros(2), 1, dtype=d),
    "astype": lambda d: xp.astype(xp.zeros(2), d),
}


@pytest.mark.strict_only
@pytest.mark.parametrize("func", list(_CALLS))
@pytest.mark.parametrize("bad", ["float64", float, np.float64, np.dtype("float16"),
                                 np.dtype("O"), None],
                         ids=["str", "pytype", "nptype", "float16", "object", "none"])
def test_dtype_arguments_refused(func: str, bad: object) -> None:
    if bad is None:  # dtype=None is the default for all but astype
        if func == "astype":
            with pytest.raises(TypeError, match=rf"^{func}: "):
                _CALLS[func](bad)
        return
    with pytest.raises(TypeError, match=rf"^{func}: "):
        _CALLS[func](bad)


@pytest.mark.parametrize("func", list(_CALLS))
def test_numpy_dtype_instances_accepted(func: str) -> None:
    out = _CALLS[func](np.dtype("float64"))
    assert out.dtype is xp.float64
