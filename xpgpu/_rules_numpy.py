"""NumPy 2's rules for the standard's 13 dtypes: the tables of the permissive profile.

Read from NumPy (``_backend._numpy``) once, when the permissive profile is first
selected: type promotion (``result_type``), Python scalars (NEP 50), the casts of
in-place operators (``same_kind``), the loops of the element-wise functions, and the
dtype spellings NumPy accepts. NumPy's float16 is no standard dtype: where NumPy would
compute in float16 (``sin`` of an int8 array), the permissive profile computes in
float32, the smallest standard floating dtype.
"""

from __future__ import annotations

from typing import Any

from ._backend import RENAMES
from ._backend import _numpy as _host
from ._dtypes import ALL, FROM_NP, DType, float32

PYTHON_TYPES = (bool, int, float, complex)
_FLOAT16 = _host.dtype("float16")


def _standard(np_dtype: Any) -> DType | None:
    return float32 if np_dtype == _FLOAT16 else FROM_NP.get(np_dtype)


# NumPy's result_type of two standard dtypes (always a standard dtype: int64 with uint64
# is float64, bool with int8 is int8).
PROMOTION: dict[tuple[DType, DType], DType] = {
    (a, b): FROM_NP[_host.result_dtype(a.dtype, b.dtype)] for a in ALL for b in ALL
}
# NumPy's result_type of an array of a dtype with a Python scalar (NEP 50: int, float and
# complex are weak; bool is NumPy's bool): int8 with a float is float64.
SCALAR_RESULT: dict[tuple[DType, type], DType] = {
    (a, t): FROM_NP[_host.result_dtype(a.dtype, t)] for a in ALL for t in PYTHON_TYPES
}
# (result dtype, array dtype) pairs NumPy's in-place operators write ("same_kind" casts).
SAME_KIND: frozenset[tuple[DType, DType]] = frozenset(
    (a, b) for a in ALL for b in ALL if _host.can_cast_same_kind(a.dtype, b.dtype)
)


def _loop(name: str, operands: tuple[Any, ...]) -> tuple[DType, ...] | None:
    found = _host.ufunc_loop(RENAMES.get(name, name), operands)
    if found is None:
        return None
    loop = tuple(_standard(d) for d in found)
    return None if None in loop else loop  # type: ignore[return-value]


def unary_loops(name: str) -> dict[DType, tuple[DType, DType]]:
    """dtype -> (the dtype NumPy computes in, the result dtype), where NumPy has a loop."""
    return {a: loop for a in ALL if (loop := _loop(name, (a.dtype,)))}  # type: ignore[misc]


def binary_loops(name: str) -> dict[tuple[DType, DType], tuple[DType, DType, DType]]:
    """(dtype, dtype) -> (x1's computing dtype, x2's, the result dtype)."""
    return {(a, b): loop for a in ALL for b in ALL  # type: ignore[misc]
            if (loop := _loop(name, (a.dtype, b.dtype)))}


def scalar_loops(name: str) -> dict[tuple[DType, type], tuple[DType, DType]]:
    """(array dtype, Python scalar type) -> (the array's computing dtype, the result)."""
    out: dict[tuple[DType, type], tuple[DType, DType]] = {}
    for a in ALL:
        for t in PYTHON_TYPES:
            loop = _loop(name, (a.dtype, t))
            if loop is not None:
                out[(a, t)] = (loop[0], loop[-1])
    return out


def from_spelling(obj: object) -> DType | None:
    """The standard dtype NumPy makes of a spelling ("float32", ``float``, "f8", a NumPy
    scalar type), or None."""
    np_dtype = _host.dtype_from_spelling(obj)
    return None if np_dtype is None else FROM_NP.get(np_dtype)
