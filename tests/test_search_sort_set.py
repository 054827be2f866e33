"""Searching, sorting and set functions against NumPy and Python, on each device.

On CUDA these check CuPy's argmax/argmin/nonzero/where against NumPy, the CuPy fixes
for searchsorted (a Python float searched at x1's float32 precision), isin (Python int
arguments), sort/argsort (stable; descending stays stable) and the sort-based unique_*
functions (each NaN distinct, -0 equal to +0, first-occurrence indices).
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from conftest import to_numpy
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import xpgpu as xp

SETTINGS = settings(max_examples=30, deadline=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture])
REAL = ("int8", "uint8", "int16", "uint32", "int64", "uint64", "float32", "float64")


def arr(a, device, dtype=None):
    return xp.asarray(np.asarray(a, dtype=dtype), device=device)


def same(out: xp.Array, expected, device) -> None:
    expected = np.asarray(expected)
    assert out.device == device
    got = to_numpy(out)
    assert got.dtype == expected.dtype, (got.dtype, expected.dtype)
    assert got.shape == expected.shape, (got.shape, expected.shape)
    np.testing.assert_array_equal(got, expected)


def small_ints(dtype: str, shape) -> st.SearchStrategy[np.ndarray]:
    """Arrays with many ties (values 0..3), to exercise stability and first occurrences."""
    return hnp.arrays(dtype, shape, elements=st.integers(0, 3))


# ---- argmax, argmin, count_nonzero, nonzero -------------------------------------------

@SETTINGS
@given(a=hnp.arrays(st.sampled_from(REAL), hnp.array_shapes(max_dims=3, min_side=1),
                    elements={"allow_nan": False}), data=st.data())
def test_argmax_argmin(device, a, data) -> None:
    axis = data.draw(st.none() | st.integers(-a.ndim, a.ndim - 1))
    keepdims = data.draw(st.booleans())
    x = arr(a, device)
    same(xp.argmax(x, axis=axis, keepdims=keepdims),
         np.argmax(a, axis=axis, keepdims=keepdims).astype(np.int64), device)
    same(xp.argmin(x, axis=axis, keepdims=keepdims),
         np.argmin(a, axis=axis, keepdims=keepdims).astype(np.int64), device)


def test_arg_extrema_errors(device) -> None:
    with pytest.raises(ValueError, match=r"^argmax"):
        xp.argmax(arr(np.zeros((2, 0)), device), axis=1)
    with pytest.raises(ValueError, match=r"^argmin"):
        xp.argmin(arr(np.zeros(0), device))
    with pytest.raises(TypeError, match=r"^argmax"):
        xp.argmax(arr(np.ones(2, np.complex64), device))
    with pytest.raises(TypeError, match=r"^argmin"):
        xp.argmin(arr(np.ones(2, bool), device))
    with pytest.raises(IndexError, match=r"^argmax"):
        xp.argmax(arr(np.ones(2), device), axis=1)
    with pytest.raises(TypeError, match=r"^argmax"):
        xp.argmax(arr(np.ones(2), device), axis=(0,))
    with pytest.raises(TypeError, match=r"^argmax"):
        xp.argmax(arr(np.ones(2), device), keepdims=1)


@pytest.mark.parametrize("dtype", ["bool", "int8", "uint64", "float32", "complex64"])
def test_count_nonzero_nonzero(device, dtype) -> None:
    a = np.array([[0, 1, 2], [0, 0, 3]]).astype(dtype)
    if dtype == "complex64":
        a[1, 1] = 1j  # a non-zero imaginary part alone counts
    x = arr(a, device)
    for axis in (None, 0, -1, (0, 1), ()):
        for keepdims in (False, True):
            expected = np.count_nonzero(a, axis=axis, keepdims=keepdims)
            same(xp.count_nonzero(x, axis=axis, keepdims=keepdims),
                 np.asarray(expected, dtype=np.int64), device)
    for o, e in zip(xp.nonzero(x), np.nonzero(a), strict=True):
        same(o, e.astype(np.int64), device)
    assert len(xp.nonzero(arr(np.zeros((2, 0, 3)), device))) == 3
    with pytest.raises(ValueError, match=r"^nonzero"):
        xp.nonzero(arr(np.float32(1), device))
    with pytest.raises(ValueError, match=r"^count_nonzero"):
        xp.count_nonzero(x, axis=(0, 0))


# ---- searchsorted ---------------------------------------------------------------------

@SETTINGS
@given(dtype=st.sampled_from(REAL), data=st.data())
def test_searchsorted(device, dtype, data) -> None:
    a = np.sort(data.draw(hnp.arrays(dtype, st.integers(0, 8), elements=st.integers(0, 5))))
    v = data.draw(hnp.arrays(dtype, hnp.array_shapes(min_dims=0, max_dims=2),
                             elements=st.integers(0, 6)))
    side = data.draw(st.sampled_from(["left", "right"]))
    same(xp.searchsorted(arr(a, device), arr(v, device), side=side),
         np.searchsorted(a, v, side=side).astype(np.int64), device)
    perm = np.random.default_rng(0).permutation(a.size)
    shuffled = a[perm]
    sorter = np.argsort(shuffled, kind="stable")
    same(xp.searchsorted(arr(shuffled, device), arr(v, device), side=side,
                         sorter=arr(sorter, device)),
         np.searchsorted(shuffled, v, side=side, sorter=sorter).astype(np.int64), device)
    same(xp.searchsorted(arr(a, device), 3, side=side),
         np.int64(np.searchsorted(a, np.asarray(3, dtype), side=side)), device)


def test_searchsorted_scalar_at_x1_precision(device) -> None:
    # A Python float meets a float32 x1 as float32 (NEP 50): 0.1 rounds to x1[0] exactly.
    a = np.array([np.float32(0.1), np.float32(0.5)], dtype=np.float32)
    x = arr(a, device)
    same(xp.searchsorted(x, 0.1, side="right"), np.int64(1), device)
    same(xp.searchsorted(x, 0.1, side="left"), np.int64(0), device)
    same(xp.searchsorted(x, 2.0), np.int64(2), device)


@pytest.mark.usefixtures("strict_profile")  # the strict profile's refusals too
def test_searchsorted_errors(device) -> None:
    x = arr(np.arange(4), device)
    with pytest.raises(ValueError, match=r"^searchsorted"):
        xp.searchsorted(arr(np.ones((2, 2)), device), arr(np.ones(2), device))
    with pytest.raises(ValueError, match=r"^searchsorted"):
        xp.searchsorted(x, x, side="middle")
    with pytest.raises(TypeError, match=r"^searchsorted"):
        xp.searchsorted(x, 1.5)
    with pytest.raises(TypeError, match=r"^searchsorted"):
        xp.searchsorted(x, arr(np.ones(2), device))
    with pytest.raises(TypeError, match=r"^searchsorted"):
        xp.searchsorted(arr(np.ones(2, np.complex64), device), 1.0)
    with pytest.raises(ValueError, match=r"^searchsorted"):
        xp.searchsorted(x, x, sorter=arr(np.arange(3), device))
    with pytest.raises(TypeError, match=r"^searchsorted"):
        xp.searchsorted(x, x, sorter=arr(np.arange(4.0), device))
    with pytest.raises(TypeError, match=r"^searchsorted"):
        xp.searchsorted(arr(np.ones(2), device), 1j)
    with pytest.raises(TypeError, match=r"^searchsorted"):
        xp.searchsorted(arr(np.ones(2), device), True)
    with pytest.raises(OverflowError, match=r"^searchsorted"):
        xp.searchsorted(arr(np.arange(4, dtype=np.int8), device), 300)


# ---- where ----------------------------------------------------------------------------

def test_where_broadcasts_three_ways(device) -> None:
    cond = np.array([[True], [False]])
    a = np.arange(3, dtype=np.int8)
    b = np.arange(6, dtype=np.int16).reshape(1, 2, 3) * 10
    same(xp.where(arr(cond, device), arr(a, device), arr(b, device)),
         np.where(cond, a.astype(np.int16), b), device)


@pytest.mark.parametrize("dtype,scalar,out", [
    ("int8", 5, "int8"), ("uint8", 200, "uint8"), ("float32", 1.5, "float32"),
    ("float32", 2, "float32"), ("float32", 1j, "complex64"), ("bool", True, "bool"),
    ("complex128", 2.5, "complex128"), ("float64", -1, "float64"),
])
def test_where_python_scalars(device, dtype, scalar, out) -> None:
    cond = np.array([True, False, True])
    a = np.array([1, 0, 1]).astype(dtype)
    same(xp.where(arr(cond, device), arr(a, device), scalar),
         np.where(cond, a, np.asarray(scalar, out)).astype(out), device)
    same(xp.where(arr(cond, device), scalar, arr(a, device)),
         np.where(cond, np.asarray(scalar, out), a).astype(out), device)


@pytest.mark.strict_only
def test_where_errors(device) -> None:
    cond = arr(np.array([True, False]), device)
    x = arr(np.ones(2, np.int32), device)
    with pytest.raises(TypeError, match=r"^where"):
        xp.where(arr(np.ones(2), device), x, x)
    with pytest.raises(TypeError, match=r"^where"):
        xp.where(cond, x, arr(np.ones(2), device))
    with pytest.raises(TypeError, match=r"^where"):
        xp.where(cond, x, 1.5)
    with pytest.raises(TypeError, match=r"^where"):
        xp.where(cond, 1, 2)
    with pytest.raises(TypeError, match=r"^where"):
        xp.where(cond, x, "a")
    with pytest.raises(OverflowError, match=r"^where"):
        xp.where(cond, arr(np.ones(2, np.int8), device), 1000)
    with pytest.raises(ValueError, match=r"^where"):
        xp.where(cond, x, arr(np.ones(3, np.int32), device))
    with pytest.raises(ValueError, match=r"^where"):
        xp.where(arr(np.ones(3, bool), device), x, x)


# ---- sort, argsort --------------------------------------------------------------------

def _stable_order(row, descending: bool) -> list[int]:
    """Python's sorted() is stable, also with reverse=True."""
    return sorted(range(len(row)), key=lambda i: row[i], reverse=descending)


@SETTINGS
@given(dtype=st.sampled_from(REAL), data=st.data())
def test_argsort_sort_stable(device, dtype, data) -> None:
    a = data.draw(small_ints(dtype, hnp.array_shapes(min_dims=1, max_dims=3, max_side=6)))
    axis = data.draw(st.integers(-a.ndim, a.ndim - 1))
    descending = data.draw(st.booleans())
    x = arr(a, device)
    moved = np.moveaxis(a, axis, -1)
    expected = np.empty(moved.shape, dtype=np.int64)
    for idx in np.ndindex(moved.shape[:-1]):
        expected[idx] = _stable_order(list(moved[idx]), descending)
    expected = np.moveaxis(expected, -1, axis)
    same(xp.argsort(x, axis=axis, descending=descending), expected, device)
    same(xp.argsort(x, axis=axis, descending=descending, stable=False).shape and
         xp.sort(x, axis=axis, descending=descending),
         np.take_along_axis(a, expected, axis=axis), device)


def _bits(a: np.ndarray) -> np.ndarray:
    return a.view(f"u{a.dtype.itemsize}")


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("shape", [(40,), (3, 17)])
def test_sort_stable_keeps_signed_zeros_and_nans_in_order(device, dtype, shape) -> None:
    # Equal values that differ in their bits (-0.0/+0.0, NaNs of either sign) stay in
    # their original order (stable), ascending with NaNs last and descending with NaNs
    # first; the oracle is Python's stable sorted() on (NaN?, value) keys.
    rng = np.random.default_rng(7)
    pool = np.array([0.0, -0.0, np.nan, -np.nan, 1.5, -2.0, np.inf, -np.inf], dtype=dtype)
    a = pool[rng.integers(0, len(pool), size=shape)]
    for descending in (False, True):
        expected = np.empty_like(a)
        for idx in np.ndindex(a.shape[:-1]):
            row = list(a[idx])
            if descending:
                key = lambda i, row=row: (0, 0.0) if math.isnan(row[i]) else (1, -row[i])
            else:
                key = lambda i, row=row: (1, 0.0) if math.isnan(row[i]) else (0, row[i])
            expected[idx] = a[idx][sorted(range(len(row)), key=key)]
        got = to_numpy(xp.sort(arr(a, device), descending=descending))
        np.testing.assert_array_equal(_bits(got), _bits(expected))
        fast = to_numpy(xp.sort(arr(a, device), descending=descending, stable=False))
        np.testing.assert_array_equal(fast, expected)  # equal values (NaN == NaN here)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_sort_stable_keeps_a_lone_nans_bits_on_the_cpu(dtype) -> None:
    # NumPy's SIMD sort writes NaNs back as the default NaN; the stable sort keeps each
    # element's bits, a lone NaN's sign and payload too (oracle: NumPy's stable sort,
    # which moves elements).
    bits = f"u{np.dtype(dtype).itemsize}"
    odd = (np.array(np.nan, dtype).view(bits) + 1).view(dtype)
    for values in ([np.inf, odd], [-odd, 1.0, -2.0], [odd, -0.0, 3.0, 0.0], [0.5, -np.nan]):
        a = np.array(values, dtype)
        got = to_numpy(xp.sort(xp.asarray(a, device="cpu")))
        np.testing.assert_array_equal(got.view(bits), np.sort(a, kind="stable").view(bits))


def test_sort_nan_and_errors(device) -> None:
    a = np.array([2.0, np.nan, -1.0, np.inf, np.nan, 0.0])
    same(xp.sort(arr(a, device)), np.sort(a), device)
    same(xp.argsort(arr(a, device)), np.argsort(a, kind="stable"), device)
    with pytest.raises(TypeError, match=r"^sort"):
        xp.sort(arr(np.ones(2, bool), device))
    with pytest.raises(TypeError, match=r"^argsort"):
        xp.argsort(arr(np.ones(2, np.complex128), device))
    with pytest.raises(ValueError, match=r"^sort"):
        xp.sort(arr(np.float32(1), device))
    with pytest.raises(IndexError, match=r"^argsort"):
        xp.argsort(arr(np.ones(2), device), axis=1)
    with pytest.raises(TypeError, match=r"^sort"):
        xp.sort(arr(np.ones(2), device), descending="yes")


# ---- unique_* -------------------------------------------------------------------------

def _unique_oracle(a: np.ndarray):
    """Sorted unique values by value equality, written out in Python: each NaN distinct."""
    flat = a.ravel().tolist()
    groups: dict[object, list[int]] = {}
    nans: list[int] = []
    for i, value in enumerate(flat):
        if value != value:
            nans.append(i)
        else:
            groups.setdefault(value, []).append(i)
    keys = sorted(groups)
    values = [flat[groups[k][0]] for k in keys] + [flat[i] for i in nans]
    indices = [groups[k][0] for k in keys] + nans
    counts = [len(groups[k]) for k in keys] + [1] * len(nans)
    position = {k: j for j, k in enumerate(keys)}
    inverse = [len(keys) + nans.index(i) if flat[i] != flat[i] else position[flat[i]]
               for i in range(len(flat))]
    return (np.array(values, dtype=a.dtype), np.array(indices, dtype=np.int64),
            np.array(inverse, dtype=np.int64).reshape(a.shape),
            np.array(counts, dtype=np.int64))


@SETTINGS
@given(data=st.data())
def test_unique(device, data) -> None:
    dtype = data.draw(st.sampled_from(("int8", "uint16", "int64", "float32", "float64")))
    kind = np.dtype(dtype).kind
    elements = (st.sampled_from([0.0, 1.5, -2.0, np.nan, np.inf]) if kind == "f"
                else st.integers(0, 4))
    a = data.draw(hnp.arrays(dtype, hnp.array_shapes(min_dims=0, max_dims=3, min_side=0,
                                                     max_side=4), elements=elements))
    values, indices, inverse, counts = _unique_oracle(a)
    x = arr(a, device)
    out = xp.unique_all(x)
    assert out._fields == ("values", "indices", "inverse_indices", "counts")
    same(out.values, values, device)
    same(out.indices, indices, device)
    same(out.inverse_indices, inverse, device)
    same(out.counts, counts, device)
    c = xp.unique_counts(x)
    assert c._fields == ("values", "counts")
    same(c.values, values, device)
    same(c.counts, counts, device)
    i = xp.unique_inverse(x)
    assert i._fields == ("values", "inverse_indices")
    same(i.values, values, device)
    same(i.inverse_indices, inverse, device)
    same(xp.unique_values(x), values, device)


def test_unique_signed_zeros_and_complex_nans(device) -> None:
    out = xp.unique_all(arr(np.array([-0.0, 0.0, 1.0, -0.0]), device))
    same(out.values, np.array([-0.0, 1.0]), device)
    assert math.copysign(1, float(out.values[0])) == -1  # the first occurrence
    same(out.counts, np.array([3, 1]), device)
    c = np.array([complex(np.nan, 1), 1 + 1j, complex(1, np.nan), 1 + 1j], np.complex128)
    cnt = xp.unique_counts(arr(c, device))
    assert cnt.values.shape == (3,)
    same(xp.sort(cnt.counts), np.array([1, 1, 2]), device)
    with pytest.raises(TypeError, match=r"^unique_values"):
        xp.unique_values(np.ones(3))


# ---- isin -----------------------------------------------------------------------------

@pytest.mark.parametrize("d1,d2", [("int8", "int8"), ("int8", "uint8"), ("int64", "int16"),
                                   ("float32", "float64"), ("uint64", "uint8")])
def test_isin(device, d1, d2) -> None:
    a = np.array([[0, 1, 2], [3, 4, 5]]).astype(d1)
    b = np.array([5, 1, 1, 7]).astype(d2)
    for invert in (False, True):
        same(xp.isin(arr(a, device), arr(b, device), invert=invert),
             np.isin(a, b, invert=invert), device)
        same(xp.isin(arr(a, device), 4, invert=invert), np.isin(a, 4, invert=invert), device)
        same(xp.isin(1, arr(b, device), invert=invert),
             np.asarray(np.isin(1, b, invert=invert)), device)
    same(xp.isin(arr(a, device), arr(b[:0], device)), np.zeros(a.shape, bool), device)


def test_isin_nan_and_errors(device) -> None:
    a = np.array([np.nan, 0.0, -0.0, 1.0])
    same(xp.isin(arr(a, device), arr(np.array([np.nan, 0.0]), device)),
         np.array([False, True, True, False]), device)
    x = arr(np.arange(3), device)
    with pytest.raises(TypeError, match=r"^isin"):
        xp.isin(x, arr(np.ones(2), device))
    with pytest.raises(TypeError, match=r"^isin"):
        xp.isin(x, 1.5)
    with pytest.raises(TypeError, match=r"^isin"):
        xp.isin(1, 2)
    with pytest.raises(OverflowError, match=r"^isin"):
        xp.isin(arr(np.arange(3, dtype=np.uint8), device), -1)
    with pytest.raises(TypeError, match=r"^isin"):
        xp.isin(x, x, invert=None)
