"""The standard's dtype tables, written out from the spec text, independently of xpgpu.

Sources (revision 2025.12):
https://data-apis.org/array-api/2025.12/API_specification/type_promotion.html
https://data-apis.org/array-api/2025.12/API_specification/data_types.html
https://data-apis.org/array-api/2025.12/API_specification/generated/array_api.isdtype.html

Everything here is keyed by dtype *names* (strings); tests map names to the namespace
under test with ``getattr(xp, name)``. Nothing is imported from xpgpu.
"""

from __future__ import annotations

# ---- the data types -------------------------------------------------------------------

DTYPE_NAMES = (
    "bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
    "float32", "float64", "complex64", "complex128",
)

# The type codes of the spec's promotion tables.
CODES = {
    "b": "bool", "i1": "int8", "i2": "int16", "i4": "int32", "i8": "int64",
    "u1": "uint8", "u2": "uint16", "u4": "uint32", "u8": "uint64",
    "f4": "float32", "f8": "float64", "c8": "complex64", "c16": "complex128",
}

# isdtype() kinds and __array_namespace_info__().dtypes(kind=...), as the spec lists them.
_SIGNED = {"int8", "int16", "int32", "int64"}
_UNSIGNED = {"uint8", "uint16", "uint32", "uint64"}
_REAL = {"float32", "float64"}
_COMPLEX = {"complex64", "complex128"}
KINDS: dict[str, frozenset[str]] = {
    "bool": frozenset({"bool"}),
    "signed integer": frozenset(_SIGNED),
    "unsigned integer": frozenset(_UNSIGNED),
    "integral": frozenset(_SIGNED | _UNSIGNED),
    "real floating": frozenset(_REAL),
    "complex floating": frozenset(_COMPLEX),
    "numeric": frozenset(_SIGNED | _UNSIGNED | _REAL | _COMPLEX),
}

# Bits and range of each integer dtype.
INT_BITS = {"int8": 8, "int16": 16, "int32": 32, "int64": 64,
            "uint8": 8, "uint16": 16, "uint32": 32, "uint64": 64}
INT_RANGE = {
    name: ((-(2 ** (bits - 1)), 2 ** (bits - 1) - 1) if name in _SIGNED else (0, 2 ** bits - 1))
    for name, bits in INT_BITS.items()
}
# The real dtype of each floating dtype's components (finfo of a complex dtype).
COMPONENT = {"float32": "float32", "float64": "float64",
             "complex64": "float32", "complex128": "float64"}

# The default dtypes xpgpu chooses (the standard leaves them to the library): the same
# on every device.
DEFAULTS = {"real floating": "float64", "complex floating": "complex128",
            "integral": "int64", "indexing": "int64"}

# ---- promotion: the spec's four tables, verbatim (row dtype x column dtype) -----------

_TABLES = """
      i1 i2 i4 i8
i1    i1 i2 i4 i8
i2    i2 i2 i4 i8
i4    i4 i4 i4 i8
i8    i8 i8 i8 i8

      u1 u2 u4 u8
u1    u1 u2 u4 u8
u2    u2 u2 u4 u8
u4    u4 u4 u4 u8
u8    u8 u8 u8 u8

      u1 u2 u4
i1    i2 i4 i8
i2    i2 i4 i8
i4    i4 i4 i8
i8    i8 i8 i8

      f4  f8  c8  c16
f4    f4  f8  c8  c16
f8    f8  f8  c16 c16
c8    c8  c16 c8  c16
c16   c16 c16 c16 c16
"""


def _parse(text: str) -> dict[tuple[str, str], str]:
    table: dict[tuple[str, str], str] = {}
    for block in text.strip().split("\n\n"):
        header, *rows = (line.split() for line in block.strip().splitlines())
        for row in rows:
            for col, result in zip(header, row[1:], strict=True):
                a, b, c = CODES[row[0]], CODES[col], CODES[result]
                table[a, b] = c
                table[b, a] = c  # the mixed table is given one way; promotion is symmetric
    return table


# (dtype name, dtype name) -> promoted dtype name; pairs absent here have no promotion.
# bool with bool is bool (the boolean operators).
PROMOTION: dict[tuple[str, str], str] = {**_parse(_TABLES), ("bool", "bool"): "bool"}


def promote(*names: str) -> str | None:
    """The promoted dtype name of several dtype names (None when there is none)."""
    result = names[0]
    for name in names[1:]:
        found = PROMOTION.get((result, name))
        if found is None:
            return None
        result = found
    return result


# ---- Python scalars with arrays -------------------------------------------------------

# Python scalar type -> the dtype names of arrays it may meet; with a complex scalar a
# real floating array takes the complex dtype of its precision. Otherwise the array's
# dtype is the result.
SCALAR_KINDS: dict[type, frozenset[str]] = {
    bool: KINDS["bool"],
    int: KINDS["integral"] | KINDS["real floating"] | KINDS["complex floating"],
    float: KINDS["real floating"] | KINDS["complex floating"],
    complex: KINDS["real floating"] | KINDS["complex floating"],
}
_TO_COMPLEX = {"float32": "complex64", "float64": "complex128"}


def scalar_result(dtype: str, kind: type) -> str | None:
    """The dtype name of an array of ``dtype`` with a Python scalar of type ``kind``."""
    if dtype not in SCALAR_KINDS[kind]:
        return None
    return _TO_COMPLEX.get(dtype, dtype) if kind is complex else dtype


# The dtype an array of Python scalars (or a fill value) gets by default.
PYTHON_DEFAULT = {bool: "bool", int: "int64", float: "float64", complex: "complex128"}
