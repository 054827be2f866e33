"""Python scalars with arrays (NEP 50, "weak" scalars), as rule tables.

https://data-apis.org/array-api/2025.12/API_specification/type_promotion.html#mixing-arrays-with-python-scalars

A Python ``bool`` goes only with boolean arrays, an ``int`` with integer and floating
arrays, a ``float`` with floating arrays, a ``complex`` with floating arrays (a real
floating array then takes the complex dtype of its precision). Otherwise the array's
dtype wins. The scalar itself goes to the backend raw: NumPy 2 and CuPy 14 follow NEP 50.
"""

from __future__ import annotations

from ._dtypes import ALL, COMPLEX_OF, KINDS, DType, bool_

PYTHON_SCALARS = (bool, int, float, complex)

# The kinds of array dtype each Python scalar type may meet.
_ALLOWED = {
    bool: KINDS["bool"],
    int: KINDS["integral"] | KINDS["real floating"] | KINDS["complex floating"],
    float: KINDS["real floating"] | KINDS["complex floating"],
    complex: KINDS["real floating"] | KINDS["complex floating"],
}

# (array dtype, scalar type) -> the result dtype; a missing key is a TypeError.
SCALAR_RESULT: dict[tuple[DType, type], DType] = {
    (d, t): (COMPLEX_OF.get(d, d) if t is complex else d)
    for t, kinds in _ALLOWED.items()
    for d in ALL
    if d in kinds
}

# Python scalar type -> the dtypes its values may be stored as, where a dtype is given
# (asarray, full, full_like): the standard's casts (astype), which forbid complex to real;
# values must also fit (cast_scalar in _validate checks them).
CAST_TO: dict[type, frozenset[DType]] = {
    bool: frozenset(ALL), int: frozenset(ALL), float: frozenset(ALL),
    complex: KINDS["complex floating"] | {bool_},
}

# Integer dtype -> (min, max), for the OverflowError of out-of-range Python ints.
INT_BOUNDS: dict[DType, tuple[int, int]] = {
    d: ((-(1 << (8 * d.dtype.itemsize - 1)), (1 << (8 * d.dtype.itemsize - 1)) - 1)
        if d in KINDS["signed integer"] else (0, (1 << (8 * d.dtype.itemsize)) - 1))
    for d in KINDS["integral"]
}


def scalar_type(value: object) -> type | None:
    """The Python scalar type ``value`` counts as (subclasses, NumPy's ``float64`` among
    them, count as their base), or None when it is not a Python scalar."""
    t = type(value)
    if t in _ALLOWED:
        return t
    for base in PYTHON_SCALARS:
        if isinstance(value, base):
            return base
    return None
