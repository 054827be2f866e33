"""logspace on CUDA: one elementwise kernel computing y, base ** y and its correction.

The algorithm, its NumPy twin (``emulate``, tested on the CPU with a pow made 1 to 3
ulp wrong) and the kernel's source live in ``_numpy_logspace``; this module compiles
and launches it.
"""

from __future__ import annotations

from typing import Any

import cupy

from ._numpy_logspace import kernel_source, plan

# Note: CuPy's logspace is power(base, linspace(...)).astype(dtype): CUDA's pow is up to
# 2 ulp off, so integer dtypes truncate 2.9999999999999996 (pow(3.0, 1.0) on CUDA) to 2
# where NumPy gives 3 — https://github.com/cupy/cupy/blob/main/cupy/_creation/ranges.py
# This kernel computes NumPy's y bit for bit (two roundings, no FMA), then the correctly
# rounded power (truncated for integer dtypes).
_KERNEL = cupy.ElementwiseKernel(
    "float64 start, float64 stop, float64 delta, float64 step, float64 ndiv, int32 mode, "
    "int64 last, float64 a, int32 neg, float64 lhi, float64 llo, float64 odd, int32 twos, "
    "int32 int_out",
    "T out",
    "out = (T)xl_logspace(i, start, stop, delta, step, ndiv, mode, last, a, neg, lhi, llo, "
    "odd, twos, int_out);",
    name="xpgpu_logspace",
    preamble=kernel_source(),
    options=("--fmad=false",),
)
_FLOAT64 = cupy.dtype("float64")


def logspace(start: float, stop: float, num: int, endpoint: bool, base: float,
             dtype: Any) -> Any:
    """``base ** linspace(start, stop, num, endpoint)`` as ``dtype``, on the current device;
    complex dtypes get the real values."""
    dtype = cupy.dtype(dtype)
    work = _FLOAT64 if dtype.kind == "c" else dtype
    out = cupy.empty(num, dtype=work)
    if num:
        _KERNEL(*plan(start, stop, num, endpoint, base), int(dtype.kind in "iu"), out)
    return out if work is dtype else out.astype(dtype)
