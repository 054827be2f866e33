"""The standard's 13 data types, their kinds and the type promotion table.

https://data-apis.org/array-api/2025.12/API_specification/data_types.html
https://data-apis.org/array-api/2025.12/API_specification/type_promotion.html
"""

from __future__ import annotations

import builtins

from ._backend import _numpy as _host

# The attributes NumPy-minded consumers read from a dtype (xarray's ``dtype.kind``,
# pandas-style ``itemsize``/``char``/``str``, plotting code's ``byteorder``...), copied
# from NumPy's dtype of the same name: plain slots, no per-read cost.
# Note: ``type`` (NumPy's scalar type, such as ``numpy.float64``) is left out on purpose:
# code that reads it goes on to make NumPy scalars (``dtype.type(0)``) or to test
# ``issubclass(dtype.type, numpy.floating)``, NumPy-only paths; ``numpy.dtype(dt).type``
# says it explicitly. ``descr`` is a property, since NumPy hands out a fresh list.
NUMPY_ATTRIBUTES = (
    "kind", "itemsize", "char", "str", "byteorder", "num", "alignment", "names", "fields",
    "isnative", "hasobject", "subdtype", "shape", "ndim", "isbuiltin", "isalignedstruct",
    "metadata", "flags",
)


class DType:
    """One of the standard's data types; a singleton.

    It interoperates with NumPy's dtype machinery: ``numpy.dtype(xpgpu.float32)``
    works (through the ``dtype`` attribute), and a DType compares and hashes equal
    to the NumPy dtype instance of the same type. It answers NumPy's read-only dtype
    attributes (``NUMPY_ATTRIBUTES``, ``base`` and ``descr``) with NumPy's values.
    """

    __slots__ = ("_hash", "_i", "base", "dtype", "name", *NUMPY_ATTRIBUTES)

    kind: builtins.str
    itemsize: int
    char: builtins.str
    str: builtins.str
    byteorder: builtins.str
    num: int
    alignment: int
    names: None
    fields: None
    isnative: bool
    hasobject: bool
    subdtype: None
    shape: tuple[()]
    ndim: int
    isbuiltin: int
    isalignedstruct: bool
    metadata: None
    flags: int

    def __init__(self, name: builtins.str, index: int):
        self.name = name
        self.dtype = _host.dtype(name)  # the NumPy dtype: numpy.dtype(DType) reads it
        self._i = index
        self._hash = hash(self.dtype)
        self.base = self  # NumPy's dtype.base: itself, for a dtype without a subarray
        for attribute in NUMPY_ATTRIBUTES:
            setattr(self, attribute, getattr(self.dtype, attribute))

    @property
    def descr(self) -> list[tuple[builtins.str, builtins.str]]:
        """NumPy's ``dtype.descr``, such as ``[('', '<f8')]`` (a fresh list)."""
        return self.dtype.descr  # type: ignore[return-value]

    def __eq__(self, other: object) -> bool:
        # Note: NumPy dtype instances compare equal, since cubed, zarr and xarray pass
        # them around; strings, Python types and NumPy scalar types do not.
        if other is self:
            return True
        if isinstance(other, DType):
            return False
        return _host.is_dtype(other) and other == self.dtype

    def __ne__(self, other: object) -> bool:
        return not self.__eq__(other)

    def __hash__(self) -> int:
        return self._hash

    def __repr__(self) -> builtins.str:
        return f"xpgpu.{self.name}"

    def __reduce__(self) -> tuple[object, tuple[builtins.str]]:
        return _by_name, (self.name,)  # unpickles as the singleton


_NAMES = (
    "bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
    "float32", "float64", "complex64", "complex128",
)
ALL: tuple[DType, ...] = tuple(DType(n, i) for i, n in enumerate(_NAMES))
(bool_, int8, int16, int32, int64, uint8, uint16, uint32, uint64,
 float32, float64, complex64, complex128) = ALL
BY_NAME = {d.name: d for d in ALL}


def _by_name(name: str) -> DType:
    return BY_NAME[name]


# NumPy dtype instance -> DType; the backends' result dtypes are NumPy dtype instances.
FROM_NP = {d.dtype: d for d in ALL}

# The kinds of isdtype() and __array_namespace_info__().dtypes(kind=...).
_signed = frozenset({int8, int16, int32, int64})
_unsigned = frozenset({uint8, uint16, uint32, uint64})
_real_float = frozenset({float32, float64})
_complex_float = frozenset({complex64, complex128})
KINDS: dict[str, frozenset[DType]] = {
    "bool": frozenset({bool_}),
    "signed integer": _signed,
    "unsigned integer": _unsigned,
    "integral": _signed | _unsigned,
    "real floating": _real_float,
    "complex floating": _complex_float,
    "numeric": _signed | _unsigned | _real_float | _complex_float,
}

# The input categories of functions, as the standard names them.
CATEGORIES: dict[str, frozenset[DType]] = {
    "all": frozenset(ALL),
    "boolean": KINDS["bool"],
    "integer": KINDS["integral"],
    "integer or boolean": KINDS["integral"] | KINDS["bool"],
    "numeric": KINDS["numeric"],
    "real numeric": KINDS["integral"] | _real_float,
    "floating-point": _real_float | _complex_float,
    "real floating-point": _real_float,
    "complex floating-point": _complex_float,
    "real numeric or boolean": KINDS["integral"] | _real_float | KINDS["bool"],
}

# Type promotion: a half table, its symmetric closure and the diagonal.
# https://data-apis.org/array-api/2025.12/API_specification/type_promotion.html
_HALF = {
    (int8, int16): int16, (int8, int32): int32, (int8, int64): int64,
    (int16, int32): int32, (int16, int64): int64, (int32, int64): int64,
    (uint8, uint16): uint16, (uint8, uint32): uint32, (uint8, uint64): uint64,
    (uint16, uint32): uint32, (uint16, uint64): uint64, (uint32, uint64): uint64,
    (int8, uint8): int16, (int8, uint16): int32, (int8, uint32): int64,
    (int16, uint8): int16, (int16, uint16): int32, (int16, uint32): int64,
    (int32, uint8): int32, (int32, uint16): int32, (int32, uint32): int64,
    (int64, uint8): int64, (int64, uint16): int64, (int64, uint32): int64,
    (float32, float64): float64, (float32, complex64): complex64,
    (float32, complex128): complex128, (float64, complex64): complex128,
    (float64, complex128): complex128, (complex64, complex128): complex128,
}
PROMOTION: dict[tuple[DType, DType], DType] = {
    **_HALF, **{(b, a): c for (a, b), c in _HALF.items()}, **{(d, d): d for d in ALL},
}
# The same table indexed by position, PROMOTE[a._i][b._i]: the elementwise hot path.
PROMOTE: tuple[tuple[DType | None, ...], ...] = tuple(
    tuple(PROMOTION.get((a, b)) for b in ALL) for a in ALL
)

# The default dtypes, by the kind names of __array_namespace_info__().default_dtypes()
# (plus "bool"); the same on every device, since both backends support all 13 dtypes.
DEFAULTS: dict[str, DType] = {
    "bool": bool_, "integral": int64, "real floating": float64,
    "complex floating": complex128, "indexing": int64,
}

REAL_OF = {complex64: float32, complex128: float64}
COMPLEX_OF = {float32: complex64, float64: complex128}


def result_type_pair(a: DType, b: DType) -> DType | None:
    """The promoted dtype of two dtypes, or None where the standard defines none."""
    return PROMOTION.get((a, b))


def as_dtype(obj: object) -> DType | None:
    """``obj`` as a DType when it is one or a NumPy dtype instance of a standard dtype."""
    if type(obj) is DType:
        return obj  # type: ignore[return-value]
    if _host.is_dtype(obj):
        return FROM_NP.get(obj)  # type: ignore[call-overload]
    return spelled(obj)


def _no_spelling(obj: object) -> DType | None:
    return None


# Other spellings of a dtype ("float32", ``float``, a NumPy scalar type): none in the
# strict profile; the permissive profile swaps in NumPy's (``_rules_numpy.from_spelling``).
spelled = _no_spelling
