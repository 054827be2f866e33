"""Linear algebra functions of the main namespace.

https://data-apis.org/array-api/2025.12/API_specification/linear_algebra_functions.html
"""

from __future__ import annotations

from typing import Any

from . import _validate as v
from ._array import Array, promote_arrays, wrap_checked
from ._dtypes import CATEGORIES

_NUMERIC = CATEGORIES["numeric"]


def matmul(x1: Array, x2: Array, /) -> Array:
    """Matrix product. See https://data-apis.org/array-api/2025.12/API_specification/generated/array_api.matmul.html"""
    dtype, device = promote_arrays("matmul", _NUMERIC, x1, x2)
    if x1.ndim == 0 or x2.ndim == 0:
        v.fail("matmul", "0-d arrays are not allowed; use multiply()", ValueError)
    try:
        data = device.backend.matmul(x1._data, x2._data)
    except ValueError as e:
        v.fail("matmul", f"shapes {x1.shape} and {x2.shape} do not match: {e}", ValueError)
    return wrap_checked("matmul", data, device, dtype)


def matrix_transpose(x: Array, /) -> Array:
    raise NotImplementedError("matrix_transpose")


def tensordot(x1: Array, x2: Array, /, *, axes: Any = 2) -> Array:
    raise NotImplementedError("tensordot")


def vecdot(x1: Array, x2: Array, /, *, axis: int = -1) -> Array:
    raise NotImplementedError("vecdot")
