"""Floating-point errors do not warn, on any device (docs/deviations.md).

CuPy's kernels never report floating-point errors; NumPy reports them as RuntimeWarnings
pointing inside xpgpu. xpgpu keeps the CPU as quiet as CUDA, without touching the user's
own NumPy error state. The values are the IEEE results on both devices.
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from conftest import to_numpy

import xpgpu as xp


def _calls(device):
    zero = xp.asarray([0.0, 1.0], device=device)
    neg = xp.asarray([-1.0], device=device)
    big = xp.asarray([1e308], device=device)
    return {
        "log(0)": (lambda: xp.log(zero), [-math.inf, 0.0]),
        "sqrt(-1)": (lambda: xp.sqrt(neg), [math.nan]),
        "x / x (arrays)": (lambda: zero / zero, [math.nan, 1.0]),
        "divide(x, x)": (lambda: xp.divide(zero, zero), [math.nan, 1.0]),
        "x / 0.0": (lambda: zero / 0.0, [math.nan, math.inf]),
        "x * 10.0 (overflow)": (lambda: big * 10.0, [math.inf]),
        "exp (overflow)": (lambda: xp.exp(big), [math.inf]),
    }


@pytest.mark.parametrize("name", list(_calls("cpu")))
def test_no_floating_point_warnings(device, name) -> None:
    call, expected = _calls(device)[name]
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # any warning fails the test
        got = to_numpy(call())
    np.testing.assert_array_equal(got, np.asarray(expected))


def test_python_paths_are_quiet_too(device) -> None:
    # The compiled fast path (where built) and the Python functions it wraps agree.
    zero = xp.asarray([0.0, 1.0], device=device)
    for func in (xp.divide, xp.add, xp.multiply):
        python = getattr(func, "__wrapped__", func)
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            python(zero, zero / zero)


def test_user_numpy_error_state_is_untouched() -> None:
    zero = xp.asarray([0.0], device="cpu")
    xp.log(zero)
    with pytest.raises(ValueError, match=r"^add"):  # a call that fails resets it too
        xp.add(xp.zeros(2, device="cpu"), xp.ones(3, device="cpu"))
    with pytest.warns(RuntimeWarning, match="divide by zero"):
        np.log(np.zeros(1))
    with np.errstate(divide="raise"), pytest.raises(FloatingPointError):
        np.log(np.zeros(1))
    assert np.geterr()["divide"] == "warn"
