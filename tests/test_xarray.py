"""xarray's everyday operations on xpgpu data, in each profile and on each device.

The oracle is the same xarray operation on NumPy data. Each operation has one of three
outcomes, and the table below says which one each profile gives today (issue 8 lists the
operations):

- ``xpgpu``: the result's data is an xpgpu array on the input's device, with the oracle's
  values;
- ``host``: xarray hands the data to NumPy (its nan-aware reductions and ``cumsum`` call
  NumPy functions): on the CPU the result is a NumPy array with the oracle's values; on a
  GPU the strict profile refuses the implicit copy (``__array__``) and the permissive one
  makes it;
- ``error``: xarray stops with an exception; peers/KNOWN.md says which xarray bug it is.

A change in either direction fails the test, so the table stays true.
"""

from __future__ import annotations

import importlib.util
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import xpgpu as xp
from xpgpu._devices import CPU

pytestmark = pytest.mark.skipif(importlib.util.find_spec("xarray") is None,
                                reason="xarray is not installed")

DATA = [[1.0, 2.0, 3.0], [4.0, 5.0, float("nan")]]

# operation -> (strict outcome, permissive outcome); "KNOWN.md#..." names the xarray bug.
OPERATIONS: dict[str, tuple[Callable[[Any, Any], Any], str, str]] = {
    "arithmetic": (lambda xr, a: a * 2 + 1, "xpgpu", "xpgpu"),
    "isel": (lambda xr, a: a.isel(y=0), "xpgpu", "xpgpu"),
    "sel": (lambda xr, a: a.sel(x=10), "xpgpu", "xpgpu"),
    "transpose": (lambda xr, a: a.T, "xpgpu", "xpgpu"),
    "concat": (lambda xr, a: xr.concat([a, a], "x"), "xpgpu", "xpgpu"),
    "astype": (lambda xr, a: a.astype(xp.float32), "xpgpu", "xpgpu"),
    "sum": (lambda xr, a: a.sum("y"), "xpgpu", "xpgpu"),
    # xarray-nanops-numpy: nan-aware reductions call NumPy's nan functions.
    "mean('y')": (lambda xr, a: a.mean("y"), "host", "host"),
    "max('x')": (lambda xr, a: a.max("x"), "host", "host"),
    "std('y')": (lambda xr, a: a.std("y"), "host", "host"),
    "Dataset.mean()": (lambda xr, a: xr.Dataset({"v": a}).mean()["v"], "host", "host"),
    "cumsum('y')": (lambda xr, a: a.cumsum("y"), "host", "host"),
    # xarray-groupby-numpy-index: a NumPy integer array indexes the data.
    "groupby().mean()": (lambda xr, a: a.groupby("y").mean(), "error", "host"),
    # xarray-result-type-strings: dtype names as strings to xp.result_type.
    "fillna(0.0)": (lambda xr, a: a.fillna(0.0), "error", "xpgpu"),
    "xr.where(c, a, 0.0)": (lambda xr, a: xr.where(a > 2, a, 0.0), "error", "xpgpu"),
    "argmax('y')": (lambda xr, a: a.fillna(0.0).argmax("y"), "error", "host"),
    # xarray-maybe-promote-numpy-dtype: missing-value promotion wants a numpy.dtype.
    "where(c)": (lambda xr, a: a.where(a > 2), "error", "error"),
    "shift(y=1)": (lambda xr, a: a.shift(y=1), "error", "error"),
    # xarray-result-type-strings, then xarray-pad (xp.pad is no standard function).
    "rolling(y=2).mean()": (lambda xr, a: a.rolling(y=2).mean(), "error", "error"),
    # xarray-reshape-list: a list as reshape's shape, which xpgpu takes (as NumPy, CuPy and
    # PyTorch; array-api-strict refuses it); the mean is then a nan-aware NumPy reduction.
    "coarsen(y=3).mean()": (lambda xr, a: a.coarsen(y=3).mean(), "host", "host"),
}


def _reshape_takes_a_list() -> bool:
    try:
        xp.reshape(xp.zeros(2), [2])  # type: ignore[arg-type]
    except TypeError:
        return False
    return True


# operation -> what xpgpu must accept for the outcome above; without it, "error".
NEEDS: dict[str, Callable[[], bool]] = {"coarsen(y=3).mean()": _reshape_takes_a_list}


def _data_array(xr: Any, data: Any) -> Any:
    return xr.DataArray(data, dims=("x", "y"), coords={"x": [10, 20], "y": [1, 1, 2]})


@pytest.mark.parametrize("name", list(OPERATIONS))
def test_everyday_operation(name: str, profile: str, device: Any) -> None:
    import xarray as xr

    operation, strict, permissive = OPERATIONS[name]
    expected_outcome = strict if profile == "strict" else permissive
    if not NEEDS.get(name, lambda: True)():
        expected_outcome = "error"
    expected = operation(xr, _data_array(xr, np.asarray(DATA)))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # NumPy's all-NaN warnings, the one-time copy warning
        try:
            result = operation(xr, _data_array(xr, xp.asarray(DATA, device=device)))
        except Exception as exc:
            # On a GPU the strict profile refuses xarray's NumPy calls: that is "host".
            host = str(exc).startswith("__array__:") and device is not CPU
            outcome, detail = ("host" if host else "error"), f"{type(exc).__name__}: {exc}"
            result = None
        else:
            data = result.data
            outcome = "xpgpu" if isinstance(data, xp.Array) else "host"
            detail = type(data).__name__
    assert outcome == expected_outcome, detail
    if result is None:
        return
    if outcome == "xpgpu":
        assert result.data.device == device
        got = np.asarray(result.data.to_device("cpu"))
    else:
        got = np.asarray(result.data)
    assert got.dtype == expected.dtype
    np.testing.assert_array_equal(got, expected.data)
    assert result.dims == expected.dims
