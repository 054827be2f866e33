"""The linear algebra extension.

https://data-apis.org/array-api/2025.12/extensions/linear_algebra_functions.html

Decompositions call the backend's ``linalg`` (``numpy.linalg``, or CuPy's through the
adapter); norms, ranks and pseudo-inverses are built above it from the same routines,
so both devices follow one definition. Result dtypes are the standard's: float32 in,
float32 (or complex64) out, checked on every call.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, Literal, NamedTuple

from . import _validate as v
from ._array import Array, array_arg, promote_arrays, wrap, wrap_checked
from ._devices import Device
from ._dtypes import ALL, CATEGORIES, COMPLEX_OF, KINDS, REAL_OF, DType, int64, uint64
from ._linear_algebra import (
    broadcast_shape,
    cast_data,
    matmul,
    matrix_transpose,
    tensordot,
    vecdot,
)

if TYPE_CHECKING:  # the stub-only module of the argument types
    from ._typing import DTypeArg

# The result types (EigResult, EighResult, QRResult, SlogdetResult, SVDResult) are public
# but, as in the standard's stubs, not in __all__.
__all__ = [
    "cholesky", "cross", "det", "diagonal", "eig", "eigh", "eigvals", "eigvalsh", "inv",
    "matmul", "matrix_norm", "matrix_power", "matrix_rank", "matrix_transpose", "outer",
    "pinv", "qr", "slogdet", "solve", "svd", "svdvals", "tensordot", "trace", "vecdot",
    "vector_norm",
]

_FLOAT = CATEGORIES["floating-point"]
_REAL_FLOAT = CATEGORIES["real floating-point"]
_NUMERIC = CATEGORIES["numeric"]
_COMPLEX = KINDS["complex floating"]
_FLOAT_I = tuple(d in _FLOAT for d in ALL)  # by dtype index: the fast paths' test
_SIGNED_NARROW = KINDS["signed integer"] - {int64}
_UNSIGNED_NARROW = KINDS["unsigned integer"] - {uint64}
_INF = float("inf")
_MATRIX_ORDS = ("fro", "nuc", 1, -1, 2, -2, _INF, -_INF)


class EigResult(NamedTuple):
    eigenvalues: Array
    eigenvectors: Array


class EighResult(NamedTuple):
    eigenvalues: Array
    eigenvectors: Array


class QRResult(NamedTuple):
    Q: Array
    R: Array


class SlogdetResult(NamedTuple):
    sign: Array
    logabsdet: Array


class SVDResult(NamedTuple):
    U: Array
    S: Array
    Vh: Array


# ---- helpers --------------------------------------------------------------------------

def _matrices(func: str, x: object, square: bool = False,
              allowed: frozenset[DType] = _FLOAT) -> Array:
    """``x`` as a stack of (square) matrices of an ``allowed`` dtype."""
    a = array_arg(func, x, "x", allowed)
    shape = a._data.shape
    if len(shape) < 2:
        v.fail(func, f"x must have at least 2 dimensions (a stack of matrices), got shape "
                     f"{shape}; use expand_dims() or reshape() first", ValueError)
    if square and shape[-1] != shape[-2]:
        v.fail(func, f"x must be a stack of square matrices, got shape {shape}; use square "
                     "matrices", ValueError)
    return a


def _call(func: str, device: Device, name: str, *args: Any, **kwargs: Any) -> Any:
    """The backend's ``linalg.<name>``; its LinAlgError as the standard's ValueError."""
    backend = device.backend
    try:
        return getattr(backend.linalg, name)(*args, **kwargs)
    except backend.xp.linalg.LinAlgError:
        v.fail(func, _LINALG_FAILURE.get(func, _LINALG_OTHER), ValueError)


# Why a LAPACK (cuSOLVER) routine fails, in the standard's terms, and the fix.
_LINALG_FAILURE = {
    "cholesky": "x is not positive definite, so it has no Cholesky factor; use eigh() or "
                "ldl-free methods such as solve() for other matrices",
    "inv": "x is singular, so it has no inverse; use pinv() for a pseudo-inverse",
    "solve": "x1 is singular, so the system has no unique solution; use pinv(x1) @ x2 for the "
             "least-squares solution",
    "matrix_power": "x is singular, so it has no negative power; use pinv() first",
}
_LINALG_OTHER = "the decomposition did not converge on x; use finite, well-conditioned input"


def _rtol(func: str, x: Array, rtol: object) -> Any:
    """The relative tolerance: a Python float, or backend data shaped (..., 1)."""
    if rtol is None:
        real = REAL_OF.get(x._dtype, x._dtype)
        return max(x.shape[-2:]) * float(x._device.backend.finfo(real.dtype).eps)
    if type(rtol) is not Array:
        return float(v.real_arg(func, rtol, "rtol"))
    if type(rtol) is Array:
        r = array_arg(func, rtol, "rtol", _REAL_FLOAT)
        v.common_device(func, [x._device, r._device])
        broadcast_shape(func, r.shape, x.shape[:-2], "rtol's shape and the stack shape")
        return r._data[..., None]
    v.fail(func, f"rtol must be None, a Python float or a real floating-point array, "
                 f"not {v.type_name(rtol)}; use a float")


def _large(func: str, x: Array, rtol: object, s: Any) -> Any:
    """Which singular values exceed ``rtol * max(s)`` of their matrix."""
    tol = _rtol(func, x, rtol)
    return s > tol * s.max(axis=-1, keepdims=True) if s.shape[-1] else s > 0


# ---- decompositions and solvers -------------------------------------------------------

def cholesky(x: Array, /, *, upper: bool = False) -> Array:
    """Cholesky factor. See https://data-apis.org/array-api/2025.12/extensions/generated/array_api.linalg.cholesky.html"""
    x = _matrices("cholesky", x, square=True)
    upper = v.bool_arg("cholesky", upper, "upper")
    data = _call("cholesky", x._device, "cholesky", x._data)
    if upper:  # x = U^H U with U = L^H
        data = (data.conj() if x._dtype in _COMPLEX else data).swapaxes(-1, -2)
    return wrap_checked("cholesky", data, x._device, x._dtype)


def det(x: Array, /) -> Array:
    """Determinant. See https://data-apis.org/array-api/2025.12/extensions/generated/array_api.linalg.det.html"""
    x = _matrices("det", x, square=True)
    return wrap_checked("det", _call("det", x._device, "det", x._data), x._device, x._dtype)


def slogdet(x: Array, /) -> SlogdetResult:
    """Sign and log of the absolute determinant. See https://data-apis.org/array-api/2025.12/extensions/generated/array_api.linalg.slogdet.html"""
    x = _matrices("slogdet", x, square=True)
    sign, logabsdet = _call("slogdet", x._device, "slogdet", x._data)
    return SlogdetResult(wrap_checked("slogdet", sign, x._device, x._dtype),
                         wrap_checked("slogdet", logabsdet, x._device,
                                      REAL_OF.get(x._dtype, x._dtype)))


def inv(x: Array, /) -> Array:
    """Inverse. See https://data-apis.org/array-api/2025.12/extensions/generated/array_api.linalg.inv.html"""
    x = _matrices("inv", x, square=True)
    return wrap_checked("inv", _call("inv", x._device, "inv", x._data), x._device, x._dtype)


def eigh(x: Array, /) -> EighResult:
    """Eigenvalues and eigenvectors of Hermitian matrices. See https://data-apis.org/array-api/2025.12/extensions/generated/array_api.linalg.eigh.html"""
    x = _matrices("eigh", x, square=True)
    w, vecs = _call("eigh", x._device, "eigh", x._data)
    return EighResult(wrap_checked("eigh", w, x._device, REAL_OF.get(x._dtype, x._dtype)),
                      wrap_checked("eigh", vecs, x._device, x._dtype))


def eigvalsh(x: Array, /) -> Array:
    """Eigenvalues of Hermitian matrices. See https://data-apis.org/array-api/2025.12/extensions/generated/array_api.linalg.eigvalsh.html"""
    x = _matrices("eigvalsh", x, square=True)
    return wrap_checked("eigvalsh", _call("eigvalsh", x._device, "eigvalsh", x._data),
                        x._device, REAL_OF.get(x._dtype, x._dtype))


def eig(x: Array, /) -> EigResult:
    """Eigenvalues and eigenvectors of general matrices. See https://data-apis.org/array-api/2025.12/extensions/generated/array_api.linalg.eig.html"""
    x = _matrices("eig", x, square=True)
    cdtype = COMPLEX_OF.get(x._dtype, x._dtype)
    w, vecs = _call("eig", x._device, "eig", x._data)
    # Note: NumPy returns real eigenpairs when every eigenvalue is real (and CuPy for an
    # empty input); the standard's are always complex.
    return EigResult(
        wrap_checked("eig", w.astype(cdtype.dtype, copy=False), x._device, cdtype),
        wrap_checked("eig", vecs.astype(cdtype.dtype, copy=False), x._device, cdtype))


def eigvals(x: Array, /) -> Array:
    """Eigenvalues of general matrices. See https://data-apis.org/array-api/2025.12/extensions/generated/array_api.linalg.eigvals.html"""
    x = _matrices("eigvals", x, square=True)
    cdtype = COMPLEX_OF.get(x._dtype, x._dtype)
    w = _call("eigvals", x._device, "eigvals", x._data)
    # Note: complex always, as in eig().
    return wrap_checked("eigvals", w.astype(cdtype.dtype, copy=False), x._device, cdtype)


def qr(x: Array, /, *, mode: Literal["reduced", "complete"] = "reduced") -> QRResult:
    """QR decomposition. See https://data-apis.org/array-api/2025.12/extensions/generated/array_api.linalg.qr.html"""
    x = _matrices("qr", x)
    if mode not in ("reduced", "complete") or not isinstance(mode, str):
        v.fail("qr", f"mode must be 'reduced' or 'complete', not {mode!r}; use one of them",
               ValueError)
    q, r = _call("qr", x._device, "qr", x._data, mode=mode)
    return QRResult(wrap_checked("qr", q, x._device, x._dtype),
                    wrap_checked("qr", r, x._device, x._dtype))


def _svd(func: str, x: Array, full: bool) -> Any:
    """The backend's full SVD (u, s, vh) of finite matrices."""
    # Note: LAPACK's gesdd (NumPy) never returns on a matrix holding inf, and on nan it
    # raises LinAlgError ("SVD did not converge"): non-finite input is refused up front
    # with that ValueError on every device, at the cost of one reduction.
    if not bool(x._device.backend.isfinite(x._data).all()):
        v.fail(func, "x holds inf or nan, on which the SVD does not converge; use finite "
                     "values (where(isfinite(x), x, 0), say)", ValueError)
    return _call(func, x._device, "svd", x._data, full_matrices=full)


def svd(x: Array, /, *, full_matrices: bool = True) -> SVDResult:
    """Singular value decomposition. See https://data-apis.org/array-api/2025.12/extensions/generated/array_api.linalg.svd.html"""
    x = _matrices("svd", x)
    full = v.bool_arg("svd", full_matrices, "full_matrices")
    u, s, vh = _svd("svd", x, full)
    return SVDResult(wrap_checked("svd", u, x._device, x._dtype),
                     wrap_checked("svd", s, x._device, REAL_OF.get(x._dtype, x._dtype)),
                     wrap_checked("svd", vh, x._device, x._dtype))


def _svdvals(func: str, x: Array) -> Any:
    return _call(func, x._device, "svd", x._data, compute_uv=False)


def svdvals(x: Array, /) -> Array:
    """Singular values. See https://data-apis.org/array-api/2025.12/extensions/generated/array_api.linalg.svdvals.html"""
    x = _matrices("svdvals", x)
    return wrap_checked("svdvals", _svdvals("svdvals", x), x._device,
                        REAL_OF.get(x._dtype, x._dtype))


def solve(x1: Array, x2: Array, /) -> Array:
    """Solution of x1 @ result = x2. See https://data-apis.org/array-api/2025.12/extensions/generated/array_api.linalg.solve.html"""
    func = "solve"
    # Fast path: one (M, M) matrix and an (M,) vector or (M, K) matrix of its dtype and
    # device, none of them empty: the backend's solve as the general path calls it.
    if (type(x1) is Array and type(x2) is Array and x1._dtype is x2._dtype
            and x1._device is x2._device and _FLOAT_I[x1._dtype._i]):
        s1, s2 = x1._data.shape, x2._data.shape
        if (len(s1) == 2 and s1[0] == s1[1] and 0 < len(s2) <= 2 and s2[0] == s1[0]
                and s1[0] and s2[-1]):
            # Note: with one (M, M) matrix, both backends solve a 1-D x2 as one vector
            # (NumPy >= 2, CuPy): no (M, 1) view and back, two view calls a solve less.
            data = _call(func, x1._device, "solve", x1._data, x2._data)
            if data.dtype is x1._dtype.dtype:
                return wrap(data, x1._dtype, x1._device)
    dtype, device = promote_arrays(func, _FLOAT, x1, x2)
    a = _matrices(func, x1, square=True)
    if x2.ndim == 0:
        v.fail(func, "x2 must have at least one dimension; use reshape(x2, (1,))", ValueError)
    m = a.shape[-1]
    vector = x2.ndim == 1
    rows = x2.shape[0] if vector else x2.shape[-2]
    if rows != m:
        v.fail(func, f"x1 of shape {x1.shape} needs x2 of shape ({m},) or (..., {m}, K), "
                     f"got {x2.shape}; use x2 with {m} rows", ValueError)
    # Note: 2025.12's rule: x2 is one vector when 1-D, else a stack of matrices whose
    # stack shape broadcasts with x1's (NumPy >= 2; CuPy does not broadcast stacks).
    backend = device.backend
    b = cast_data(x2, dtype)
    if vector:
        b = b[:, None]
    batch = broadcast_shape(func, x1.shape[:-2], b.shape[:-2], "the stack shapes")
    if 0 in batch or 0 in b.shape[-2:]:
        # Note: CuPy 14 divides by zero on empty right-hand sides; nothing to solve.
        data = backend.zeros((*batch, *b.shape[-2:]), dtype.dtype)
    else:
        data = _call(func, device, "solve",
                     backend.broadcast_to(cast_data(x1, dtype), (*batch, m, m)),
                     backend.broadcast_to(b, batch + b.shape[-2:]))
    return wrap_checked(func, data[..., 0] if vector else data, device, dtype)


def matrix_power(x: Array, n: int, /) -> Array:
    """A matrix raised to an integer power. See https://data-apis.org/array-api/2025.12/extensions/generated/array_api.linalg.matrix_power.html"""
    x = _matrices("matrix_power", x, square=True)
    n = v.int_arg("matrix_power", n, "n")
    data = _call("matrix_power", x._device, "matrix_power", x._data, n)
    if data is x._data:
        data = data.copy()  # never the input itself
    return wrap_checked("matrix_power", data, x._device, x._dtype)


def pinv(x: Array, /, *, rtol: float | Array | None = None) -> Array:
    """Moore-Penrose pseudo-inverse. See https://data-apis.org/array-api/2025.12/extensions/generated/array_api.linalg.pinv.html"""
    x = _matrices("pinv", x)
    backend = x._device.backend
    u, s, vh = _svd("pinv", x, False)
    keep = _large("pinv", x, rtol, s)
    s = backend.where(keep, 1 / backend.where(keep, s, 1), 0).astype(s.dtype, copy=False)
    if x._dtype in _COMPLEX:
        u, vh = u.conj(), vh.conj()
    data = backend.matmul(vh.swapaxes(-1, -2) * s[..., None, :], u.swapaxes(-1, -2))
    return wrap_checked("pinv", data, x._device, x._dtype)


def matrix_rank(x: Array, /, *, rtol: float | Array | None = None) -> Array:
    """Rank of matrices. See https://data-apis.org/array-api/2025.12/extensions/generated/array_api.linalg.matrix_rank.html"""
    x = _matrices("matrix_rank", x)
    large = _large("matrix_rank", x, rtol, _svdvals("matrix_rank", x))
    return wrap_checked("matrix_rank", large.sum(axis=-1, dtype=int64.dtype), x._device,
                        int64)


# ---- products, diagonals, norms -------------------------------------------------------

def cross(x1: Array, x2: Array, /, *, axis: int = -1) -> Array:
    """Cross product of 3-element vectors. See https://data-apis.org/array-api/2025.12/extensions/generated/array_api.linalg.cross.html"""
    func = "cross"
    dtype, device = promote_arrays(func, _NUMERIC, x1, x2)
    s1, s2 = x1.shape, x2.shape
    p = v.int_arg(func, axis, "axis")
    n = min(len(s1), len(s2))
    if not -n <= p <= -1:
        v.fail(func, f"axis={p} must be negative, in [-{n}, -1] for arrays of {len(s1)} and "
                     f"{len(s2)} dimensions (the standard counts axis from the end); "
                     "use a negative axis",
               ValueError)
    if s1[p] != 3 or s2[p] != 3:
        v.fail(func, f"x1 of shape {s1} and x2 of shape {s2} must both have size 3 along "
                     f"axis {p} (that axis does not broadcast); use axis= to name the "
                     "3-element axis", ValueError)
    broadcast_shape(func, s1[:len(s1) + p] + s1[len(s1) + p + 1:],
                    s2[:len(s2) + p] + s2[len(s2) + p + 1:],
                    f"the shapes other than axis {p},")
    data = device.backend.cross(cast_data(x1, dtype), cast_data(x2, dtype), axis=p)
    return wrap_checked(func, data, device, dtype)


def outer(x1: Array, x2: Array, /) -> Array:
    """Outer product of two vectors. See https://data-apis.org/array-api/2025.12/extensions/generated/array_api.linalg.outer.html"""
    dtype, device = promote_arrays("outer", _NUMERIC, x1, x2)
    if x1.ndim != 1 or x2.ndim != 1:
        v.fail("outer", f"x1 and x2 must be 1-D, got shapes {x1.shape} and {x2.shape}; use "
                        "reshape(x, (-1,)) first", ValueError)
    data = device.backend.outer(cast_data(x1, dtype), cast_data(x2, dtype))
    return wrap_checked("outer", data, device, dtype)


def _offset(func: str, x: Array, offset: object) -> int:
    """A diagonal offset, clamped to [-rows, cols]: beyond, the diagonal is empty (and the
    backends take a C int)."""
    k = v.int_arg(func, offset, "offset")
    return max(-x.shape[-2], min(k, x.shape[-1]))  # type: ignore[operator]


def diagonal(x: Array, /, *, offset: int = 0) -> Array:
    """Diagonals of matrices. See https://data-apis.org/array-api/2025.12/extensions/generated/array_api.linalg.diagonal.html"""
    x = _matrices("diagonal", x, allowed=CATEGORIES["all"])
    offset = _offset("diagonal", x, offset)
    data = x._device.backend.diagonal(x._data, offset=offset, axis1=-2, axis2=-1)
    return wrap(data, x._dtype, x._device)


def trace(x: Array, /, *, offset: int = 0, dtype: DTypeArg | None = None) -> Array:
    """Sums along diagonals. See https://data-apis.org/array-api/2025.12/extensions/generated/array_api.linalg.trace.html"""
    x = _matrices("trace", x, allowed=_NUMERIC)
    offset = _offset("trace", x, offset)
    if dtype is None:
        # Note: narrower integers sum in the default integer dtype (or its unsigned twin).
        out = int64 if x._dtype in _SIGNED_NARROW else \
            uint64 if x._dtype in _UNSIGNED_NARROW else x._dtype
    else:
        out = v.dtype_arg("trace", dtype)
        if out not in _NUMERIC:
            v.bad_dtype("trace", out, _NUMERIC, "dtype")
        if x._dtype in _COMPLEX and out not in _COMPLEX:
            v.fail("trace", f"cannot sum {x._dtype.name} values in {out.name} (that would "
                            "drop the imaginary parts); use a complex dtype")
    data = x._device.backend.trace(x._data, offset=offset, axis1=-2, axis2=-1,
                                   dtype=out.dtype)
    return wrap_checked("trace", data, x._device, out)


def matrix_norm(x: Array, /, *, keepdims: bool = False,
                ord: int | float | Literal["fro", "nuc"] | None = "fro") -> Array:
    """Matrix norms. See https://data-apis.org/array-api/2025.12/extensions/generated/array_api.linalg.matrix_norm.html"""
    func = "matrix_norm"
    x = _matrices(func, x)
    keepdims = v.bool_arg(func, keepdims, "keepdims")
    if type(ord) not in (int, float, str) or ord not in _MATRIX_ORDS:
        v.fail(func, f"ord must be one of 'fro', 'nuc', 1, -1, 2, -2, inf, -inf, not {ord!r}; "
                     "use one of them",
               ValueError if type(ord) in (int, float, str) else TypeError)
    backend = x._device.backend
    real = REAL_OF.get(x._dtype, x._dtype)
    if ord in ("nuc", 2, -2):
        s = _svdvals(func, x)
        if ord != "nuc" and not s.shape[-1]:
            v.fail(func, f"ord={ord} is undefined for empty matrices, got shape {x.shape}; use "
                         "ord='fro'", ValueError)
        data = s.sum(axis=-1) if ord == "nuc" else s.max(axis=-1) if ord == 2 else \
            s.min(axis=-1)
        if keepdims:
            data = data[..., None, None]
    else:
        a = backend.abs(x._data)
        if ord == "fro":
            data = backend.sqrt((a * a).sum(axis=(-2, -1), keepdims=keepdims))
        else:
            summed, over = (-2, -1) if ord in (1, -1) else (-1, -2)
            sums = a.sum(axis=summed, keepdims=True)
            if not sums.shape[over]:
                v.fail(func, f"ord={ord} is undefined for empty matrices, got shape "
                             f"{x.shape}; use ord='fro'", ValueError)
            largest = ord in (1, _INF)
            data = sums.max(axis=over, keepdims=True) if largest else \
                sums.min(axis=over, keepdims=True)
            if not keepdims:
                data = data[..., 0, 0]
    return wrap_checked(func, data, x._device, real)


def vector_norm(x: Array, /, *, axis: int | tuple[int, ...] | None = None,
                keepdims: bool = False, ord: int | float = 2) -> Array:
    """Vector norms. See https://data-apis.org/array-api/2025.12/extensions/generated/array_api.linalg.vector_norm.html"""
    func = "vector_norm"
    x = array_arg(func, x, "x", _FLOAT)
    axes = v.axes_arg(func, axis, x.ndim)
    keepdims = v.bool_arg(func, keepdims, "keepdims")
    if isinstance(ord, bool) or not isinstance(ord, (int, float)) or math.isnan(ord):
        v.fail(func, f"ord must be an int or a float (inf included), not {ord!r}; use "
                     "float(ord)",
               TypeError if not isinstance(ord, (int, float)) else ValueError)
    backend = x._device.backend
    real = REAL_OF.get(x._dtype, x._dtype)
    a = backend.abs(x._data)
    if ord == 2:
        data = backend.sqrt((a * a).sum(axis=axes, keepdims=keepdims))
    elif ord == 1:
        data = a.sum(axis=axes, keepdims=keepdims)
    elif ord == 0:
        data = (a != 0).sum(axis=axes, keepdims=keepdims, dtype=real.dtype)
    elif ord in (_INF, -_INF):
        if a.size == 0 and any(a.shape[i] == 0 for i in axes):
            v.fail(func, f"ord={ord} is undefined for empty vectors, got shape {x.shape}; use "
                         "ord=2", ValueError)
        data = a.max(axis=axes, keepdims=keepdims) if ord > 0 else \
            a.min(axis=axes, keepdims=keepdims)
    else:
        data = ((a ** float(ord)).sum(axis=axes, keepdims=keepdims)) ** (1.0 / ord)
    return wrap_checked(func, data, x._device, real)


def __dir__() -> list[str]:
    """The public names and the module's dunders (no helpers) in ``dir()``."""
    return sorted({*__all__, *(n for n in globals() if n[:2] == n[-2:] == "__")})
