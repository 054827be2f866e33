"""NumPy's names for the standard's functions: the AttributeError of ``xpgpu.concatenate``
names the standard's spelling. Adds no names to the namespace.

https://data-apis.org/array-api/2025.12/API_specification/index.html
"""

from __future__ import annotations

import sys

# NumPy's names -> the standard's spelling, for the AttributeError of a name NumPy users
# reach for (adds no names: module __getattr__ runs only for names that do not exist).
_STANDARD_NAMES = {
    "concatenate": "concat", "transpose": "permute_dims (or matrix_transpose)",
    "power": "pow", "unique": "unique_values, unique_counts, unique_inverse or unique_all",
    "arccos": "acos", "arcsin": "asin", "arctan": "atan", "arctan2": "atan2",
    "arccosh": "acosh", "arcsinh": "asinh", "arctanh": "atanh", "absolute": "abs",
    "invert": "bitwise_invert", "left_shift": "bitwise_left_shift",
    "right_shift": "bitwise_right_shift", "bitwise_not": "bitwise_invert",
    "true_divide": "divide", "mod": "remainder", "fmod": "remainder (signs differ)",
    "conjugate": "conj", "amax": "max", "amin": "min", "cumsum": "cumulative_sum",
    "cumprod": "cumulative_prod", "array": "asarray", "asanyarray": "asarray",
    "ascontiguousarray": "asarray", "copy": "asarray(x, copy=True)", "swapaxes": "moveaxis",
    "rollaxis": "moveaxis", "ravel": "reshape(x, (-1,))", "flatten": "reshape(x, (-1,))",
    "vstack": "concat (axis=0) or stack", "hstack": "concat (axis=-1)",
    "dstack": "stack (axis=-1)", "column_stack": "stack (axis=-1)", "split": "unstack",
    "atleast_1d": "reshape or expand_dims", "atleast_2d": "reshape or expand_dims",
    "dot": "matmul, vecdot or tensordot", "inner": "vecdot", "outer": "linalg.outer",
    "trace": "linalg.trace", "diagonal": "linalg.diagonal", "norm": "linalg.vector_norm",
    "einsum": "tensordot or matmul", "nonzero_count": "count_nonzero",
    "argwhere": "nonzero", "in1d": "isin", "sort_complex": "sort", "clamp": "clip",
    "float_": "float64", "int_": "int64", "bool_": "bool",
    "float16": "float32 (there is no float16 in the standard)", "ndarray": "Array",
    "size": "x.size", "shape": "x.shape", "ndim": "x.ndim", "isscalar": "x.ndim == 0",
    "nanmean": "mean with where()", "nansum": "sum with where()", "average": "mean",
    "ptp": "max(x) - min(x)", "around": "round", "fix": "trunc",
    "cbrt": "pow(x, 1/3)", "float_power": "pow", "identity": "eye",
}


def module_getattr(name: str) -> object:
    """xpgpu's module ``__getattr__``: runs only for names xpgpu lacks."""
    hint = _STANDARD_NAMES.get(name)
    if hint is None:
        raise AttributeError(f"module 'xpgpu' has no attribute {name!r}")
    first = hint.split()[0].split("(")[0].rstrip(",")
    known = first in vars(sys.modules["xpgpu"]) or first.startswith("linalg.")
    use = f"; use xpgpu.{first}" if known else ""
    raise AttributeError(f"module 'xpgpu' has no attribute {name!r}: the array API standard "
                         f"spells it {hint}{use}")
