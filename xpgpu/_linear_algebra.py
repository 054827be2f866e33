"""Linear algebra functions of the main namespace.

https://data-apis.org/array-api/2025.12/API_specification/linear_algebra_functions.html
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from . import _validate as v
from ._array import Array, array_arg, promote_arrays, speedups, wrap, wrap_checked
from ._dtypes import ALL, CATEGORIES, KINDS, PROMOTION

_NUMERIC = CATEGORIES["numeric"]
_COMPLEX = KINDS["complex floating"]
_NUMERIC_I = tuple(d in _NUMERIC for d in ALL)  # by dtype index: the fast paths' test
_REAL_NUMERIC_I = tuple(d in _NUMERIC and d not in _COMPLEX for d in ALL)
_SPEC = "https://data-apis.org/array-api/2025.12/API_specification/generated/array_api.{}.html"


# ---- helpers (shared with linalg.py) ----------------------------------------------------

def broadcast_shape(func: str, s1: tuple[int, ...], s2: tuple[int, ...],
                    what: str = "shapes") -> tuple[int, ...]:
    """The broadcast of two shapes, or the standard's ValueError."""
    shape = _broadcast_or_none(s1, s2)
    if shape is None:
        v.fail(func, f"{what} {s1} and {s2} cannot be broadcast together; use reshape() or "
                     "expand_dims() to line them up", ValueError)
    return shape


def _broadcast_or_none(s1: tuple[int, ...], s2: tuple[int, ...]) -> tuple[int, ...] | None:
    n = max(len(s1), len(s2))
    a = (1,) * (n - len(s1)) + tuple(s1)
    b = (1,) * (n - len(s2)) + tuple(s2)
    out = []
    for p, q in zip(a, b, strict=False):
        if p != q and p != 1 and q != 1:
            return None
        out.append(q if p == 1 else p)
    return tuple(out)


def cast_data(x: Array, dtype: Any) -> Any:
    """``x``'s data in ``dtype`` (a copy of ``x`` only when the dtype differs)."""
    return x._data if x._dtype is dtype else x._data.astype(dtype.dtype)


# ---- matmul, matrix_transpose, tensordot ------------------------------------------------

def matmul(x1: Array, x2: Array, /) -> Array:
    """Matrix product. See https://data-apis.org/array-api/2025.12/API_specification/generated/array_api.matmul.html"""
    # Fast path: arrays of one numeric dtype on one device, neither 0-d.
    if (type(x1) is Array and type(x2) is Array and x1._dtype is x2._dtype
            and x1._device is x2._device and _NUMERIC_I[x1._dtype._i]
            and x1._data.ndim and x2._data.ndim):
        backend = x1._device.backend
        try:
            data = backend.matmul(x1._data, x2._data)
        except ValueError:
            pass  # shapes that do not match: the message comes below
        else:
            if type(data) is backend.ndarray and data.dtype is x1._dtype.dtype:
                return wrap(data, x1._dtype, x1._device)
            return wrap_checked("matmul", data, x1._device, x1._dtype)
    dtype, device = promote_arrays("matmul", _NUMERIC, x1, x2)
    if x1.ndim == 0 or x2.ndim == 0:
        v.fail("matmul", "0-d arrays are not allowed; use multiply()", ValueError)
    try:
        data = device.backend.matmul(x1._data, x2._data)
    except ValueError:
        _matmul_error(x1.shape, x2.shape)
    return wrap_checked("matmul", data, device, dtype)


# The fast path above in C (_speedups.Binary, as the binary element-wise functions'), for
# any two numeric dtypes that promote, where it was built. The backends refuse 0-d arrays
# and shapes that do not match with a ValueError, which hands the call to the Python
# function and its message; the backend's result dtype is checked against the table. The
# backend's matmul is read by name on every device (None), as the Python function does.
if speedups is not None:
    matmul = speedups.binary(
        matmul, tuple(PROMOTION.get((a, b)) if a in _NUMERIC and b in _NUMERIC else None
                      for a in ALL for b in ALL),
        len(ALL), None, "matmul", "matmul")


def _matmul_error(s1: tuple[int, ...], s2: tuple[int, ...]) -> None:
    """Why two shapes have no matrix product (built only on failure)."""
    k1 = s1[-1]
    k2 = s2[0] if len(s2) == 1 else s2[-2]
    if k1 != k2:
        where = "its only axis" if len(s2) == 1 else "its second-to-last axis"
        v.fail("matmul", f"x1 of shape {s1} has {k1} columns, but x2 of shape {s2} has {k2} "
                         f"rows ({where}); use matrix_transpose() or permute_dims() to line up "
                         "the contracted axes", ValueError)
    v.fail("matmul", f"the stack shapes of x1 {s1[:-2]} and x2 {s2[:-2]} (all axes but the "
                     "last two) cannot be broadcast together; use reshape() or expand_dims() "
                     "to make them broadcast", ValueError)


def matrix_transpose(x: Array, /) -> Array:
    """Transpose of a matrix or a stack of matrices. See https://data-apis.org/array-api/2025.12/API_specification/generated/array_api.matrix_transpose.html"""
    x = array_arg("matrix_transpose", x)
    if x._data.ndim < 2:
        v.fail("matrix_transpose", f"x must have at least 2 dimensions, got shape {x.shape}; "
                                   "use expand_dims() first",
               ValueError)
    return wrap(x._data.swapaxes(-1, -2), x._dtype, x._device)


def tensordot(x1: Array, x2: Array, /, *,
              axes: int | tuple[Sequence[int], Sequence[int]] = 2) -> Array:
    """Tensor contraction over axes. See https://data-apis.org/array-api/2025.12/API_specification/generated/array_api.tensordot.html"""
    func = "tensordot"
    dtype, device = promote_arrays(func, _NUMERIC, x1, x2)
    s1, s2 = x1.shape, x2.shape
    if isinstance(axes, bool):
        v.fail(func, "axes must be an int or a pair of sequences of ints, not bool; use an "
                     "int")
    if isinstance(axes, int) or (hasattr(axes, "__index__") and not hasattr(axes, "__len__")):
        n = v.int_arg(func, axes, "axes")
        if n < 0:
            v.fail(func, f"axes must be non-negative, got {n}; use 0 for an outer product",
                   ValueError)
        if n > min(len(s1), len(s2)):
            v.fail(func, f"axes={n} is more than the dimensions of x1 {s1} or x2 {s2}; "
                         "use fewer axes",
                   ValueError)
        a1: tuple[int, ...] = tuple(range(len(s1) - n, len(s1)))
        a2: tuple[int, ...] = tuple(range(n))
    elif isinstance(axes, (tuple, list)) and len(axes) == 2:
        a1 = _axis_sequence(func, axes[0], len(s1), "x1")
        a2 = _axis_sequence(func, axes[1], len(s2), "x2")
        if len(a1) != len(a2):
            v.fail(func, f"axes {axes!r} name {len(a1)} axes of x1 but {len(a2)} of x2; "
                         "use as many of each",
                   ValueError)
    else:
        v.fail(func, f"axes must be an int or a pair of sequences of ints, not {axes!r}; use "
                     "axes=((1,), (0,)), say")
    for i, j in zip(a1, a2, strict=False):
        if s1[i] != s2[j]:
            v.fail(func, f"axis {i} of x1 (size {s1[i]}) and axis {j} of x2 (size {s2[j]}) "
                         "must have the same size (contracted axes do not broadcast); use "
                         "other axes",
                   ValueError)
    data = device.backend.tensordot(cast_data(x1, dtype), cast_data(x2, dtype),
                                    axes=(a1, a2))
    return wrap_checked(func, data, device, dtype)


def _axis_sequence(func: str, axes: Any, ndim: int, name: str) -> tuple[int, ...]:
    if not isinstance(axes, (tuple, list)):
        v.fail(func, f"the axes of {name} must be a sequence of ints, not {axes!r}; use a "
                     "tuple")
    out = tuple(v.axis_arg(func, a, ndim, f"axis of {name}") for a in axes)
    if len(set(out)) != len(out):
        v.fail(func, f"repeated axis in the axes of {name}: {axes!r}; use each axis once",
               ValueError)
    return out


# ---- vecdot -----------------------------------------------------------------------------

def vecdot(x1: Array, x2: Array, /, *, axis: int = -1) -> Array:
    """Vector dot product sum(conj(x1) * x2) along an axis. See https://data-apis.org/array-api/2025.12/API_specification/generated/array_api.vecdot.html"""
    func = "vecdot"
    # Fast path: real arrays of one shape, dtype and device along the last axis: one
    # (batched) product of rows by columns, as the general path below computes it.
    if (type(x1) is Array and type(x2) is Array and x1._dtype is x2._dtype
            and x1._device is x2._device and type(axis) is int and axis == -1
            and _REAL_NUMERIC_I[x1._dtype._i]):
        a, b = x1._data, x2._data
        shape = a.shape
        if shape and shape == b.shape:
            backend = x1._device.backend
            if len(shape) == 1:  # one reduction kernel (CuPy) or BLAS call (NumPy)
                r = backend.dot(a, b)
                if type(r) is not backend.ndarray:
                    r = backend.asarray(r)  # NumPy's scalar
            else:
                r = backend.matmul(a[..., None, :], b[..., :, None]).reshape(shape[:-1])
            if r.dtype is x1._dtype.dtype:
                return wrap(r, x1._dtype, x1._device)
    dtype, device = promote_arrays(func, _NUMERIC, x1, x2)
    s1, s2 = x1.shape, x2.shape
    p = v.int_arg(func, axis, "axis")
    if not -min(len(s1), len(s2)) <= p <= -1:
        _vecdot_axis_error(s1, s2, p)
    if s1[p] != s2[p]:
        _vecdot_size_error(s1, s2, p)
    backend = device.backend
    # Note: computed as one (batched) matrix product on views, never materialising the
    # broadcast (array-api-compat's multiply-then-sum spelling is ~290x slower on a GPU):
    # a batch axis where only x1 is longer than 1 becomes a row of the product, one where
    # only x2 is becomes a column, and axes where both agree stay batch axes.
    a = backend.moveaxis(cast_data(x1, dtype), p, -1)
    b = backend.moveaxis(cast_data(x2, dtype), p, -1)
    n = a.shape[-1]
    k = max(a.ndim, b.ndim) - 1
    sa = (1,) * (k + 1 - a.ndim) + a.shape[:-1]
    sb = (1,) * (k + 1 - b.ndim) + b.shape[:-1]
    batch, rows, cols = [], [], []
    for i, (u, w) in enumerate(zip(sa, sb, strict=False)):
        if u == w:
            batch.append(i)
        elif w == 1:
            rows.append(i)
        elif u == 1:
            cols.append(i)
        else:
            v.fail(func, f"x1 of shape {s1} and x2 of shape {s2} do not broadcast along the "
                         f"axes other than axis {p}; use expand_dims() to line them "
                         "up", ValueError)
    nb = math.prod(sa[i] for i in batch)
    nr = math.prod(sa[i] for i in rows)
    nc = math.prod(sb[i] for i in cols)
    a = a.reshape((*sa, n)).transpose(batch + rows + cols + [k]).reshape(nb, nr, n)
    b = b.reshape((*sb, n)).transpose(batch + cols + rows + [k]).reshape(nb, nc, n)
    if dtype in _COMPLEX:
        a = a.conj()  # a copy of x1's size only
    b = b.swapaxes(-1, -2)
    r = backend.matmul(a[0], b[0])[None] if nb == 1 else backend.matmul(a, b)
    order = batch + rows + cols
    r = r.reshape(tuple(sa[i] for i in batch) + tuple(sa[i] for i in rows)
                  + tuple(sb[i] for i in cols))
    if order != sorted(order):
        r = r.transpose([order.index(i) for i in range(k)])
    return wrap_checked(func, r, device, dtype)


def _vecdot_axis_error(s1: tuple[int, ...], s2: tuple[int, ...], p: int) -> None:
    n = min(len(s1), len(s2))
    where = (f"[-{n}, -1] for arrays of {len(s1)} and {len(s2)} dimensions" if n
             else "negative, and x1 and x2 must have at least one dimension")
    msg = f"axis={p} is not portable: the standard counts axis from the end and requires it " \
          f"in {where}"
    if p >= 0 and p < len(s1) and p < len(s2) and s1[p] == s2[p]:
        # NumPy's meaning: axis p of each array, counted from its start.
        msg += _vecdot_hint(s1, s2, p - len(s1), p - len(s2),
                            f", as NumPy's vecdot(a, b, axis={p}) does")
    elif p < 0:
        msg += _vecdot_search(s1, s2, p)
    v.fail("vecdot", msg, ValueError)


def _vecdot_size_error(s1: tuple[int, ...], s2: tuple[int, ...], p: int) -> None:
    msg = f"x1 of shape {s1} has size {s1[p]} along axis {p}, but x2 of shape {s2} has size " \
          f"{s2[p]}; the contracted sizes must be equal (size 1 does not broadcast)"
    v.fail("vecdot", msg + _vecdot_search(s1, s2, p), ValueError)


def _vecdot_search(s1: tuple[int, ...], s2: tuple[int, ...], p: int) -> str:
    """A hint for the first pairing of axes, one of them ``p``, whose sizes agree."""
    pairs = [(p, j) for j in range(-1, -len(s2) - 1, -1)]
    pairs += [(i, p) for i in range(-1, -len(s1) - 1, -1)]
    for p1, p2 in pairs:
        if (p1 != p2 and -len(s1) <= p1 and -len(s2) <= p2 and s1[p1] == s2[p2]
                and _pair_shape(s1, s2, p1, p2) is not None):
            return f". Did you mean axis {p1} of x1 with axis {p2} of x2" \
                + _vecdot_hint(s1, s2, p1, p2, "")
    return ""


def _pair_shape(s1: tuple[int, ...], s2: tuple[int, ...], p1: int,
                p2: int) -> tuple[int, ...] | None:
    r1 = s1[:len(s1) + p1] + s1[len(s1) + p1 + 1:]
    r2 = s2[:len(s2) + p2] + s2[len(s2) + p2 + 1:]
    return _broadcast_or_none(r1, r2)


def _moved(name: str, ndim: int, p: int) -> str:
    if p == -1:
        return name
    if p == -2:
        return f"matrix_transpose({name})"
    return f"moveaxis({name}, {p}, -1)"


def _vecdot_hint(s1: tuple[int, ...], s2: tuple[int, ...], p1: int, p2: int,
                 conj: str) -> str:
    """The portable spellings of contracting axis p1 of x1 with axis p2 of x2."""
    if p1 == p2:
        spellings = [f"vecdot(a, b, axis={p1})"]
    else:
        spellings = []
        if len(s1) == 1:
            spellings.append(f"vecdot(a[:{', None' * (-p2 - 1)}], b, axis={p2})")
        elif len(s2) == 1:
            spellings.append(f"vecdot(a, b[:{', None' * (-p1 - 1)}], axis={p1})")
        spellings.append(f"vecdot({_moved('a', len(s1), p1)}, {_moved('b', len(s2), p2)})")
    shape = _pair_shape(s1, s2, p1, p2)
    gives = "" if shape is None else (" giving" if len(spellings) == 1 else ", both giving") \
        + f" shape {shape}"
    return (f"; with a = x1 of shape {s1} and b = x2 of shape {s2}, write "
            + " or ".join(f"`{s}`" for s in spellings) + f"{gives} (conjugating a{conj})")
