"""The NumPy adapter: the CPU backend, and the host side of every transfer."""

from __future__ import annotations

from typing import Any

import numpy

NAME = "numpy"
xp = numpy
dtype = numpy.dtype
VERSION = numpy.__version__


def is_dtype(obj: object) -> bool:
    return isinstance(obj, numpy.dtype)


def is_host_array(obj: object) -> bool:
    return isinstance(obj, numpy.ndarray) or isinstance(obj, numpy.generic)


def device_count() -> int:
    return 1


def asarray_host(obj: Any, dtype: Any = None, copy: bool | None = None) -> Any:
    return numpy.asarray(obj, dtype=dtype, copy=copy) if copy is not None else numpy.asarray(obj, dtype=dtype)


# Fixes of NumPy's results where they differ from the standard, by the standard's name.
FIXES: dict[str, Any] = {}
