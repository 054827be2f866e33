"""xpgpu's dtypes answer the attributes NumPy-minded consumers read (xarray, pandas-style
and plotting code), with NumPy's values: the oracle is ``numpy.dtype(name)``."""

from __future__ import annotations

import types

import numpy as np
import pytest

import xpgpu as xp
from xpgpu._dtypes import DType

NAMES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
         "float32", "float64", "complex64", "complex128"]
# Written out here, not read from xpgpu: the attributes the dtypes promise.
ATTRIBUTES = ["kind", "itemsize", "name", "char", "str", "byteorder", "num", "alignment",
              "names", "fields", "isnative", "hasobject", "subdtype", "shape", "ndim",
              "isbuiltin", "isalignedstruct", "metadata", "flags", "descr"]


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("attribute", ATTRIBUTES)
def test_attribute_has_numpys_value(profile: str, name: str, attribute: str) -> None:
    ours = getattr(getattr(xp, name), attribute)
    theirs = getattr(np.dtype(name), attribute)
    assert ours == theirs
    assert type(ours) is type(theirs)


@pytest.mark.parametrize("name", NAMES)
def test_base_is_the_dtype_itself_and_descr_a_fresh_list(name: str) -> None:
    dtype = getattr(xp, name)
    assert dtype.base is dtype  # NumPy: np.dtype(name).base is the dtype itself
    assert dtype.descr == np.dtype(name).descr
    dtype.descr.append(("x", "<i1"))  # a consumer's list, not ours
    assert dtype.descr == np.dtype(name).descr


def test_reads_are_plain_slots() -> None:
    # No property or __getattr__ on the read path (descr aside, which builds a list).
    for attribute in set(ATTRIBUTES) - {"descr"}:
        assert type(DType.__dict__[attribute]) is types.MemberDescriptorType, attribute
    assert not hasattr(xp.float64, "__dict__")


def test_no_numpy_scalar_type() -> None:
    # Note: left out on purpose (xpgpu/_dtypes.py says why); numpy.dtype(dt).type is explicit.
    assert not hasattr(xp.float64, "type")
    assert np.dtype(xp.float64).type is np.float64


@pytest.mark.parametrize("name", NAMES)
def test_numpy_reads_the_attributes_too(name: str) -> None:
    dtype = getattr(xp, name)
    # What xarray does with a dtype: np.issubdtype, kind tests, itemsize arithmetic.
    assert np.issubdtype(dtype, np.floating) == (dtype.kind == "f")
    assert np.dtype(dtype).itemsize == dtype.itemsize
    assert dtype == np.dtype(name) and hash(dtype) == hash(np.dtype(name))


@pytest.mark.parametrize("name", NAMES)
def test_pandas_reads_them_as_numpys(name: str) -> None:
    types_ = pytest.importorskip("pandas.api.types")
    checks = [types_.is_float_dtype, types_.is_integer_dtype, types_.is_bool_dtype,
              types_.is_complex_dtype, types_.is_numeric_dtype, types_.is_signed_integer_dtype,
              types_.is_unsigned_integer_dtype]
    dtype = getattr(xp, name)
    assert [check(dtype) for check in checks] == [check(np.dtype(name)) for check in checks]
    assert types_.pandas_dtype(dtype) == np.dtype(name)
