"""NumPy fixes for the searching chapter, registered in ``_numpy.FIXES`` by spec name.

https://data-apis.org/array-api/2025.12/API_specification/searching_functions.html
"""

from __future__ import annotations

from typing import Any

import numpy

_ndarray = numpy.ndarray


# Note: searchsorted makes an array of a Python scalar v with NumPy's default dtype (a
# float becomes float64), so a float32 x1 is searched with an unrounded value; the
# standard takes the scalar at x1's dtype (NEP 50 does not reach searchsorted's v).
# https://numpy.org/doc/stable/reference/generated/numpy.searchsorted.html
def searchsorted(a: Any, v: Any, side: str = "left", sorter: Any = None) -> Any:
    if type(v) is not _ndarray:
        v = a.dtype.type(v)
    return numpy.searchsorted(a, v, side=side, sorter=sorter)  # type: ignore[call-overload]


FIXES: dict[str, Any] = {"searchsorted": searchsorted}
