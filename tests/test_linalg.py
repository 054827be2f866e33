"""Linear algebra (main namespace and xpgpu.linalg) against NumPy on every device:
values, shapes, the standard's dtypes (float32 stays float32), errors, and that vecdot
never materialises the broadcast of its inputs."""

from __future__ import annotations

import contextlib
import tracemalloc

import numpy as np
import pytest

import xpgpu as xp
from tests.conftest import to_numpy
from xpgpu import _devices

RNG = np.random.default_rng(2025)
FLOATS = ["float32", "float64", "complex64", "complex128"]
REAL_OF = {"float32": "float32", "float64": "float64", "complex64": "float32",
           "complex128": "float64"}
COMPLEX_OF = {"float32": "complex64", "float64": "complex128", "complex64": "complex64",
              "complex128": "complex128"}
TOL = {"float32": 2e-4, "complex64": 2e-4, "float64": 1e-10, "complex128": 1e-10}


def _rand(shape, dtype):
    dt = np.dtype(dtype)
    if dt.kind in "iu":
        info = np.iinfo(dt)
        return RNG.integers(max(info.min, -20), min(info.max, 20), shape, endpoint=True
                            ).astype(dt)
    a = RNG.standard_normal(shape)
    if dt.kind == "c":
        a = a + 1j * RNG.standard_normal(shape)
    return a.astype(dt)


def _wellcond(shape, dtype):
    """Random square matrices with a dominant diagonal (well conditioned)."""
    return (_rand(shape, dtype) + 3 * shape[-1] * np.eye(shape[-1])).astype(dtype)


def _hermitian(shape, dtype):
    a = _rand(shape, dtype)
    return ((a + np.conj(np.swapaxes(a, -1, -2))) / 2 + 2 * shape[-1] * np.eye(shape[-1])
            ).astype(dtype)


def _close(got, expected, dtype, scale=None):
    """The exact dtype and shape, values within a dtype tolerance scaled by the result."""
    g = to_numpy(got)
    assert g.dtype == np.dtype(dtype), (g.dtype, dtype)
    expected = np.asarray(expected)
    assert g.shape == expected.shape, (g.shape, expected.shape)
    if scale is None:
        scale = max(float(np.max(np.abs(expected), initial=0)), 1.0)
    np.testing.assert_allclose(g, expected, rtol=0, atol=TOL.get(str(g.dtype), 0) * scale)


def _x(a, device):
    return xp.asarray(a, device=device)


# ---- main namespace: matrix_transpose, tensordot, vecdot ---------------------------------

@pytest.mark.parametrize("shape", [(2, 3), (4, 2, 3), (0, 3, 1)])
def test_matrix_transpose(device, shape):
    a = _rand(shape, "int16")
    for ns in (xp, xp.linalg):
        got = ns.matrix_transpose(_x(a, device))
        assert got.dtype == xp.int16
        np.testing.assert_array_equal(to_numpy(got), np.swapaxes(a, -1, -2))
    with pytest.raises(ValueError, match=r"^matrix_transpose: "):
        xp.matrix_transpose(_x(a.reshape(-1), device))


@pytest.mark.parametrize("s1, s2, axes", [
    ((3, 4, 5), (4, 5, 2), 2), ((3, 4), (4, 2), 1), ((2, 3), (4,), 0),
    ((3, 4, 5), (5, 3, 2), ([0, 2], [1, 0])), ((3, 4, 5), (5, 3), ((-1, -3), (0, -1))),
    ((), (), 0),
])
@pytest.mark.parametrize("dtypes", [("float32", "float32"), ("int8", "uint8"),
                                    ("float32", "complex64"), ("int32", "int64")])
def test_tensordot(device, s1, s2, axes, dtypes):
    a, b = _rand(s1, dtypes[0]), _rand(s2, dtypes[1])
    expected = np.tensordot(a, b, axes=axes)
    for ns in (xp, xp.linalg):
        got = ns.tensordot(_x(a, device), _x(b, device), axes=axes)
        _close(got, expected, expected.dtype)


@pytest.mark.parametrize("s1, s2, axes", [
    ((3, 4), (4, 2), 3), ((3, 4), (4, 2), -1), ((3, 4), (1, 2), 1),
    ((3, 4), (4, 2), ((1,), (0, 1))), ((3, 4), (4, 2), ((0, 0), (0, 1))),
    ((3, 4), (4, 2), ((2,), (0,))),
])
def test_tensordot_errors(device, s1, s2, axes):
    with pytest.raises((ValueError, IndexError), match=r"^tensordot: "):
        xp.tensordot(_x(_rand(s1, "float32"), device), _x(_rand(s2, "float32"), device),
                     axes=axes)


def _vecdot_oracle(a, b, axis):
    """sum(conj(a) * b) along axis, with broadcasting, in NumPy."""
    return np.sum(np.conj(a) * b, axis=axis)


@pytest.mark.parametrize("s1, s2, axis", [
    ((5,), (5,), -1), ((3, 5), (5,), -1), ((4, 1, 6), (1, 3, 6), -1),
    ((2, 3, 4), (3, 4), -2), ((2, 1, 3, 4), (5, 3, 1), -2), ((7, 2, 1), (2, 3), -2),
    ((3, 1, 2, 6), (4, 1, 6), -1), ((2, 0, 3), (1, 3), -1), ((0,), (0,), -1),
    ((3, 4), (3, 4), -2), ((2, 3, 4), (2, 3, 4), -3),
])
@pytest.mark.parametrize("dtypes", [("float32", "float32"), ("float64", "float32"),
                                    ("complex64", "complex64"), ("complex128", "float64"),
                                    ("int16", "uint8"), ("uint32", "uint32")])
def test_vecdot(device, s1, s2, axis, dtypes):
    a, b = _rand(s1, dtypes[0]), _rand(s2, dtypes[1])
    expected = _vecdot_oracle(a, b, axis)
    dtype = np.result_type(a.dtype, b.dtype)
    for ns in (xp, xp.linalg):
        got = ns.vecdot(_x(a, device), _x(b, device), axis=axis)
        _close(got, expected.astype(dtype), dtype,
               scale=max(1.0, float(np.sum(np.abs(a)) * np.max(np.abs(b), initial=1))))


def test_vecdot_conjugates_x1(device):
    got = xp.vecdot(_x(np.array([1j, 2j, 3j]), device), _x(np.array([1, 2j, 3]), device))
    assert complex(got) == 4 - 10j


def test_vecdot_nonnegative_axis_message(device):
    a, b = _x(_rand((100,), "float32"), device), _x(_rand((100, 20), "float32"), device)
    with pytest.raises(ValueError) as info:
        xp.vecdot(a, b, axis=0)
    msg = str(info.value)
    assert msg.startswith("vecdot: axis=0 is not portable")
    assert "`vecdot(a[:, None], b, axis=-2)`" in msg
    assert "`vecdot(a, matrix_transpose(b))`" in msg
    assert "both giving shape (20,)" in msg
    assert "conjugating a, as NumPy's vecdot(a, b, axis=0) does" in msg
    # and both suggestions do give NumPy's vecdot(a, b, axis=0)
    expected = np.vecdot(to_numpy(a), to_numpy(b), axis=0)
    _close(xp.vecdot(a[:, None], b, axis=-2), expected, "float32", scale=100)
    _close(xp.vecdot(a, xp.matrix_transpose(b)), expected, "float32", scale=100)


def test_vecdot_size_mismatch_message(device):
    a, b = _x(_rand((100,), "float32"), device), _x(_rand((100, 20), "float32"), device)
    with pytest.raises(ValueError) as info:
        xp.vecdot(a, b)
    msg = str(info.value)
    assert msg.startswith("vecdot: x1 of shape (100,) has size 100 along axis -1")
    assert "`vecdot(a[:, None], b, axis=-2)`" in msg
    assert "`vecdot(a, matrix_transpose(b))`" in msg
    # a size 1 contracted axis does not stretch
    with pytest.raises(ValueError, match="size 1 does not broadcast"):
        xp.vecdot(_x(_rand((3, 1), "float32"), device), _x(_rand((3, 4), "float32"), device))


@pytest.mark.parametrize("s1, s2, axis, error", [
    ((3,), (3,), 0, ValueError), ((3,), (3,), -2, ValueError), ((2, 3), (4, 3), -1, ValueError),
    ((), (3,), -1, ValueError), ((3,), (3,), 1.0, TypeError),
])
def test_vecdot_errors(device, s1, s2, axis, error):
    with pytest.raises(error, match=r"^vecdot: "):
        xp.vecdot(_x(_rand(s1, "float32"), device), _x(_rand(s2, "float32"), device),
                  axis=axis)
    with pytest.raises(TypeError, match=r"^vecdot: "):
        xp.vecdot(_x(np.ones(3, bool), device), _x(np.ones(3, bool), device))


def test_vecdot_does_not_materialise_the_broadcast(device):
    """(1000, 1, 128) . (1, 1000, 128) broadcasts to 512 MB of float32; the result is 4 MB.
    On the CPU, tracemalloc's peak must stay far below the broadcast; on CUDA, CuPy's
    memory pool must grow by far less than it."""
    a = _x(_rand((1000, 1, 128), "float32"), device)
    b = _x(_rand((1, 1000, 128), "float32"), device)
    broadcast_bytes = 1000 * 1000 * 128 * 4
    if device.kind == "cpu":
        tracemalloc.start()
        try:
            got = xp.vecdot(a, b)
            _, peak = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()
    else:
        cupy = pytest.importorskip("cupy")
        pool = cupy.get_default_memory_pool()
        before = pool.total_bytes()
        got = xp.vecdot(a, b)
        peak = pool.total_bytes() - before
    assert got.shape == (1000, 1000)
    assert peak < broadcast_bytes / 20, f"vecdot allocated {peak} bytes"
    expected = np.matmul(to_numpy(a)[:, 0], to_numpy(b)[0].T)
    _close(got, expected, "float32", scale=100)


# ---- decompositions -------------------------------------------------------------------

@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("shape", [(3, 3), (2, 4, 4), (0, 2, 2)])
def test_cholesky(device, dtype, shape):
    a = _hermitian(shape, dtype)
    x = _x(a, device)
    lower = xp.linalg.cholesky(x)
    _close(lower, np.linalg.cholesky(a), dtype)
    upper = xp.linalg.cholesky(x, upper=True)
    u = to_numpy(upper)
    assert np.array_equal(u, np.triu(u))
    _close(upper, np.linalg.cholesky(a, upper=True), dtype)


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("shape", [(3, 3), (2, 4, 4), (1, 1), (0, 2, 2)])
def test_det_slogdet_inv(device, dtype, shape):
    a = _wellcond(shape, dtype)
    x = _x(a, device)
    _close(xp.linalg.det(x), np.linalg.det(a), dtype)
    sign, logabsdet = xp.linalg.slogdet(x)
    esign, elog = np.linalg.slogdet(a)
    _close(sign, esign, dtype, scale=1)
    _close(logabsdet, elog, REAL_OF[dtype], scale=10)
    res = xp.linalg.slogdet(x)
    assert res.sign is res[0] and res.logabsdet is res[1]
    _close(xp.linalg.inv(x), np.linalg.inv(a), dtype)


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("shape", [(4, 4), (3, 3, 3)])
def test_eigh(device, dtype, shape):
    a = _hermitian(shape, dtype)
    res = xp.linalg.eigh(_x(a, device))
    w, vecs = to_numpy(res.eigenvalues), to_numpy(res.eigenvectors)
    assert res[0] is res.eigenvalues and res[1] is res.eigenvectors
    assert w.dtype == REAL_OF[dtype] and vecs.dtype == dtype
    _close(res.eigenvalues, np.linalg.eigvalsh(a), REAL_OF[dtype], scale=10 * shape[-1])
    recon = vecs @ (w[..., None] * np.conj(np.swapaxes(vecs, -1, -2)))
    np.testing.assert_allclose(recon, a, atol=TOL[dtype] * 10 * shape[-1])
    _close(xp.linalg.eigvalsh(_x(a, device)), np.linalg.eigvalsh(a), REAL_OF[dtype],
           scale=10 * shape[-1])


def _sorted_complex(w):
    return np.sort_complex(np.round(w.astype(np.complex128), 3))


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("shape", [(4, 4), (2, 3, 3), (0, 2, 2)])
def test_eig(device, dtype, shape):
    """eig/eigvals give complex results of x's precision (NumPy may give real ones)."""
    a = _rand(shape, dtype)
    res = xp.linalg.eig(_x(a, device))
    assert res[0] is res.eigenvalues and res[1] is res.eigenvectors
    w, vecs = to_numpy(res.eigenvalues), to_numpy(res.eigenvectors)
    assert w.dtype == COMPLEX_OF[dtype] and vecs.dtype == COMPLEX_OF[dtype]
    assert w.shape == shape[:-1] and vecs.shape == shape
    np.testing.assert_allclose(a @ vecs, vecs * w[..., None, :], atol=TOL[dtype] * 20)
    vals = to_numpy(xp.linalg.eigvals(_x(a, device)))
    assert vals.dtype == COMPLEX_OF[dtype]
    expected = np.linalg.eigvals(a.astype(np.complex128))
    for got, exp in zip(vals.reshape(-1, shape[-1]), expected.reshape(-1, shape[-1]), strict=True):
        np.testing.assert_allclose(_sorted_complex(got), _sorted_complex(exp), atol=2e-3)
    # real eigenvalues too come back complex
    diag = np.diag(np.arange(1, 4)).astype(REAL_OF[dtype])
    assert xp.linalg.eigvals(_x(diag, device)).dtype == xp.__dict__[COMPLEX_OF[REAL_OF[dtype]]]


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("shape", [(5, 3), (3, 5), (2, 4, 4), (0, 3, 2)])
@pytest.mark.parametrize("mode", ["reduced", "complete"])
def test_qr(device, dtype, shape, mode):
    a = _rand(shape, dtype)
    res = xp.linalg.qr(_x(a, device), mode=mode)
    assert res[0] is res.Q and res[1] is res.R
    q, r = to_numpy(res.Q), to_numpy(res.R)
    eq, er = np.linalg.qr(a, mode=mode)
    assert q.dtype == dtype and r.dtype == dtype
    assert q.shape == eq.shape and r.shape == er.shape
    assert np.array_equal(r, np.triu(r))
    np.testing.assert_allclose(q @ r, a, atol=TOL[dtype] * 10)


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("shape", [(5, 3), (3, 5), (2, 4, 4), (0, 3, 2)])
@pytest.mark.parametrize("full", [True, False])
def test_svd(device, dtype, shape, full):
    a = _rand(shape, dtype)
    res = xp.linalg.svd(_x(a, device), full_matrices=full)
    assert res[0] is res.U and res[1] is res.S and res[2] is res.Vh
    u, s, vh = (to_numpy(t) for t in res)
    eu, es, evh = np.linalg.svd(a, full_matrices=full)
    assert (u.dtype, s.dtype, vh.dtype) == (np.dtype(dtype), REAL_OF[dtype], np.dtype(dtype))
    assert (u.shape, s.shape, vh.shape) == (eu.shape, es.shape, evh.shape)
    k = min(shape[-2:])
    np.testing.assert_allclose((u[..., :k] * s[..., None, :]) @ vh[..., :k, :], a,
                               atol=TOL[dtype] * 10)
    _close(res.S, es, REAL_OF[dtype], scale=10)
    _close(xp.linalg.svdvals(_x(a, device)), es, REAL_OF[dtype], scale=10)


@pytest.mark.parametrize("dtypes", [("float32", "float32"), ("float64", "float32"),
                                    ("complex64", "float32")])
@pytest.mark.parametrize("s1, s2", [
    ((3, 3), (3,)), ((2, 3, 3), (3,)), ((3, 3), (3, 2)), ((2, 3, 3), (3, 4)),
    ((2, 1, 3, 3), (5, 3, 2)), ((3, 3), (4, 3, 1)), ((2, 3, 3), (2, 3, 3)),
])
def test_solve(device, dtypes, s1, s2):
    """2025.12: x2 is one vector when 1-D, else a stack of matrices (stacks broadcast)."""
    a, b = _wellcond(s1, dtypes[0]), _rand(s2, dtypes[1])
    got = xp.linalg.solve(_x(a, device), _x(b, device))
    dtype = np.result_type(a.dtype, b.dtype)
    if b.ndim == 1:
        expected = np.linalg.solve(a, np.broadcast_to(b[:, None], (*a.shape[:-1], 1)))[..., 0]
    else:
        batch = np.broadcast_shapes(a.shape[:-2], b.shape[:-2])
        expected = np.linalg.solve(np.broadcast_to(a, batch + a.shape[-2:]),
                                   np.broadcast_to(b, batch + b.shape[-2:]))
    _close(got, expected.astype(dtype), dtype)


@pytest.mark.cuda
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_small_solve_kernel_as_accurate_as_cusolver(dtype, monkeypatch):
    """CUDA solves small real systems in one kernel (_cupy_solve): partial pivoting as
    LAPACK's (zeros on the diagonal, every row moved), sizes up to LARGEST, one vector or
    several columns, stacks; each result within the forward error bound of LU with
    partial pivoting, 2 n eps cond(A) |x|, of NumPy's float64 solution (over 40 seeds,
    cuSOLVER's errors reach 0.99 of n eps cond(A) |x|, this kernel's 0.96); bigger and
    complex systems CuPy's."""
    if not _devices.cuda_devices():
        pytest.skip("no CUDA device")
    import cupy

    from xpgpu._backend import _cupy_solve

    rng = np.random.default_rng(7)
    eps = float(np.finfo(dtype).eps)
    perm = np.eye(4)[[2, 0, 3, 1]]
    cases = [(perm, rng.standard_normal(4)), (perm @ np.diag([1.0, 2, 3, 4]), np.ones((4, 3)))]
    cases += [(rng.standard_normal((n, n)), rng.standard_normal(shape))
              for n in (1, 2, 3, 5, 16, 17, 31, 33, 64) for shape in ((n,), (n, 1), (n, 5))]
    cases += [(rng.standard_normal((3, 7, 7)), rng.standard_normal((3, 7, 2))),
              (rng.standard_normal((2, 2, 4, 4)), rng.standard_normal((2, 2, 4, 1)))]
    for a, b in cases:
        a, b = a.astype(dtype), b.astype(dtype)
        got = to_numpy(xp.linalg.solve(_x(a, "cuda:0"), _x(b, "cuda:0")))
        exact = np.linalg.solve(a.astype(np.float64), b.astype(np.float64))
        assert got.dtype == np.dtype(dtype) and got.shape == exact.shape
        n = a.shape[-1]
        bound = 2 * n * eps * np.max(np.linalg.cond(a.astype(np.float64))) * np.max(abs(exact))
        assert np.max(np.abs(got - exact)) <= bound, (a.shape, b.shape)
    assert (np.dtype(dtype).char, 0) in _cupy_solve._kernels  # the kernel ran
    # A singular matrix: infinities or NaNs, as cuSOLVER's (no check unless asked for).
    for a in (np.zeros((3, 3), dtype), np.ones((3, 3), dtype)):
        got = to_numpy(xp.linalg.solve(_x(a, "cuda:0"), _x(np.ones(3, dtype), "cuda:0")))
        assert not np.isfinite(got).all()
    # CuPy's solve takes the others: 65 unknowns, complex, [A | B] beyond 48 KiB.
    calls = []
    real = cupy.linalg.solve
    monkeypatch.setattr(cupy.linalg, "solve", lambda *args: calls.append(args) or real(*args))
    theirs = [(np.eye(65, dtype=dtype), np.ones(65, dtype)),
              (np.eye(3, dtype=np.complex64), np.ones(3, np.complex64))]
    if dtype == "float64":
        theirs.append((np.eye(64), np.ones((64, 40))))
    for a, b in [*theirs, (np.eye(3, dtype=dtype), np.ones(3, dtype))]:  # the last: the kernel
        got = to_numpy(xp.linalg.solve(_x(a, "cuda:0"), _x(b, "cuda:0")))
        np.testing.assert_array_equal(got, np.linalg.solve(a, b))
    assert len(calls) == len(theirs)
    # A stack of matrices with one vector (xpgpu's solve never passes it): CuPy's call,
    # whatever CuPy makes of it (LinAlgError is a ValueError), never an IndexError here.
    calls.clear()
    with contextlib.suppress(ValueError):
        _cupy_solve.solve(cupy.asarray(np.stack([np.eye(3, dtype=dtype)] * 2)),
                          cupy.ones(3, dtype))
    assert len(calls) == 1


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("n", [0, 1, 2, 5, -1, -3])
def test_matrix_power(device, dtype, n):
    a = (_wellcond((2, 3, 3), dtype) / 9).astype(dtype)
    x = _x(a, device)
    got = xp.linalg.matrix_power(x, n)
    _close(got, np.linalg.matrix_power(a, n), dtype)
    if n == 1:  # a new array, not x itself
        got[...] = 0
        assert np.array_equal(to_numpy(x), a)


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("shape", [(5, 3), (3, 5), (2, 4, 4), (0, 3, 2), (3, 0)])
def test_pinv_matrix_rank(device, dtype, shape):
    a = _rand(shape, dtype)
    if shape == (2, 4, 4):
        a[0, :, 0] = 0  # rank 3
    x = _x(a, device)
    _close(xp.linalg.pinv(x), np.linalg.pinv(a), dtype, scale=10)
    rank = xp.linalg.matrix_rank(x)
    assert rank.dtype == xp.int64
    np.testing.assert_array_equal(to_numpy(rank), np.linalg.matrix_rank(a))
    # rtol: a Python float, or an array broadcasting with the stack shape
    _close(xp.linalg.pinv(x, rtol=0.5), np.linalg.pinv(a, rtol=0.5), dtype, scale=10)
    np.testing.assert_array_equal(to_numpy(xp.linalg.matrix_rank(x, rtol=0.5)),
                                  np.linalg.matrix_rank(a, rtol=0.5))
    rtol = np.full(shape[:-2], 0.3)
    np.testing.assert_array_equal(
        to_numpy(xp.linalg.matrix_rank(x, rtol=_x(rtol, device))),
        np.linalg.matrix_rank(a, rtol=rtol))


# ---- products, diagonals, norms -------------------------------------------------------

@pytest.mark.parametrize("s1, s2, axis", [
    ((3,), (3,), -1), ((4, 3), (3,), -1), ((2, 1, 3), (5, 3), -1), ((3, 4), (3, 1), -2),
])
@pytest.mark.parametrize("dtypes", [("float32", "float32"), ("int8", "int16"),
                                    ("complex64", "float64")])
def test_cross(device, s1, s2, axis, dtypes):
    a, b = _rand(s1, dtypes[0]), _rand(s2, dtypes[1])
    expected = np.cross(a, b, axis=axis)
    _close(xp.linalg.cross(_x(a, device), _x(b, device), axis=axis), expected, expected.dtype)


@pytest.mark.parametrize("s1, s2, axis", [((3,), (3,), 0), ((2,), (2,), -1),
                                          ((3, 3), (1, 3), -2), ((3,), (3,), -2)])
def test_cross_errors(device, s1, s2, axis):
    with pytest.raises(ValueError, match=r"^cross: "):
        xp.linalg.cross(_x(_rand(s1, "float32"), device), _x(_rand(s2, "float32"), device),
                        axis=axis)


@pytest.mark.parametrize("dtypes", [("float32", "float32"), ("int8", "uint8"),
                                    ("float32", "complex128")])
def test_outer(device, dtypes):
    a, b = _rand((4,), dtypes[0]), _rand((3,), dtypes[1])
    expected = np.outer(a, b)
    _close(xp.linalg.outer(_x(a, device), _x(b, device)), expected, expected.dtype)
    with pytest.raises(ValueError, match=r"^outer: "):
        xp.linalg.outer(_x(a[None], device), _x(b, device))


@pytest.mark.parametrize("offset", [0, 1, -2, 7, -9])
@pytest.mark.parametrize("dtype", ["bool", "uint8", "int32", "float32", "complex64"])
def test_diagonal_trace(device, offset, dtype):
    a = _rand((2, 3, 4), dtype) if dtype != "bool" else RNG.random((2, 3, 4)) > 0.5
    x = _x(a, device)
    got = xp.linalg.diagonal(x, offset=offset)
    np.testing.assert_array_equal(to_numpy(got),
                                  np.diagonal(a, offset=offset, axis1=-2, axis2=-1))
    assert got.dtype == x.dtype
    if dtype == "bool":
        with pytest.raises(TypeError, match=r"^trace: "):
            xp.linalg.trace(x)
        return
    # narrow integers sum in the default integer dtype (or its unsigned twin)
    out = {"uint8": "uint64", "int32": "int64"}.get(dtype, dtype)
    expected = np.trace(a, offset=offset, axis1=-2, axis2=-1, dtype=out)
    _close(xp.linalg.trace(x, offset=offset), expected, out)
    _close(xp.linalg.trace(x, offset=offset, dtype=xp.complex128),
           np.trace(a, offset=offset, axis1=-2, axis2=-1, dtype=np.complex128), "complex128")


ORDS = ["fro", "nuc", 1, -1, 2, -2, np.inf, -np.inf]


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("ord", ORDS)
@pytest.mark.parametrize("keepdims", [False, True])
def test_matrix_norm(device, dtype, ord, keepdims):
    a = _rand((2, 3, 4), dtype)
    got = xp.linalg.matrix_norm(_x(a, device), ord=ord, keepdims=keepdims)
    expected = np.linalg.matrix_norm(a, ord=ord, keepdims=keepdims)
    _close(got, expected, REAL_OF[dtype], scale=10)


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("ord", [2, 1, 0, -1, -2, np.inf, -np.inf, 3, 0.5, -1.5])
@pytest.mark.parametrize("axis", [None, 0, -1, (0, 2), ()])
@pytest.mark.parametrize("keepdims", [False, True])
def test_vector_norm(device, dtype, ord, axis, keepdims):
    a = _rand((3, 4, 5), dtype)
    got = xp.linalg.vector_norm(_x(a, device), axis=axis, keepdims=keepdims, ord=ord)
    expected = np.linalg.vector_norm(a.astype(COMPLEX_OF[dtype] if "c" in dtype else
                                              np.float64), axis=axis, keepdims=keepdims,
                                     ord=ord)
    _close(got, expected.astype(REAL_OF[dtype]), REAL_OF[dtype], scale=100)


# ---- errors ---------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["cholesky", "det", "eig", "eigh", "eigvals", "eigvalsh",
                                  "inv", "slogdet", "svd", "svdvals", "qr", "pinv",
                                  "matrix_rank", "matrix_norm"])
def test_errors(device, name):
    func = getattr(xp.linalg, name)
    with pytest.raises(TypeError, match=rf"^{name}: "):  # integers: floating-point only
        func(_x(np.eye(3, dtype=np.int32), device))
    with pytest.raises(ValueError, match=rf"^{name}: "):  # one matrix needs two dimensions
        func(_x(np.ones(3, np.float32), device))
    if name not in ("svd", "svdvals", "qr", "pinv", "matrix_rank", "matrix_norm"):
        with pytest.raises(ValueError, match=rf"^{name}: .*square"):
            func(_x(np.ones((2, 3), np.float32), device))


def test_argument_errors(device):
    x = _x(_wellcond((3, 3), "float32"), device)
    with pytest.raises(ValueError, match=r"^qr: "):
        xp.linalg.qr(x, mode="r")
    with pytest.raises(ValueError, match=r"^matrix_norm: "):
        xp.linalg.matrix_norm(x, ord=3)
    with pytest.raises(TypeError, match=r"^vector_norm: "):
        xp.linalg.vector_norm(x, ord="fro")
    with pytest.raises(TypeError, match=r"^cholesky: "):
        xp.linalg.cholesky(x, upper=1)
    with pytest.raises(TypeError, match=r"^matrix_power: "):
        xp.linalg.matrix_power(x, 2.0)
    with pytest.raises(TypeError, match=r"^pinv: "):
        xp.linalg.pinv(x, rtol="0.1")
    with pytest.raises(TypeError, match=r"^matrix_rank: "):
        xp.linalg.matrix_rank(x, rtol=_x(np.array(1, np.int32), device))
    with pytest.raises(ValueError, match=r"^solve: "):
        xp.linalg.solve(x, _x(np.ones(4, np.float32), device))
    with pytest.raises(ValueError, match=r"^solve: "):
        xp.linalg.solve(_x(_wellcond((2, 3, 3), "float32"), device),
                        _x(np.ones((3, 3, 1), np.float32), device))
    with pytest.raises(TypeError, match=r"^trace: "):
        xp.linalg.trace(_x(np.ones((2, 2), np.complex64), device), dtype=xp.float64)


def test_singular_matrix_cpu():
    """NumPy's LinAlgError comes back as the standard's ValueError, named by function.
    (CuPy does not check for singular matrices by default: CPU only.)"""
    with pytest.raises(ValueError, match=r"^inv: "):
        xp.linalg.inv(xp.zeros((2, 2)))


@pytest.mark.cuda
def test_matmul_direct_cublas_call_as_cupys(monkeypatch):
    """matmul of two C-contiguous floating matrices (every dimension at least 2) makes
    CuPy's cuBLAS call itself (_cupy_matmul): the same bits as cupy.matmul, under CuPy's
    default and pedantic compute types; every other case (vectors, a row or a column,
    F-order or strided views, mixed or integer dtypes, stacks) is cupy.matmul's."""
    if not _devices.cuda_devices():
        pytest.skip("no CUDA device")
    import cupy
    from cupy._core import _routines_linalg as L
    from cupy_backends.cuda.libs import cublas

    from xpgpu._backend import _cupy_matmul

    calls = []
    real = cublas.gemmEx
    monkeypatch.setattr(cublas, "gemmEx", lambda *args: calls.append(args) or real(*args))
    rng = np.random.default_rng(5)

    def host(shape, dtype):
        h = rng.standard_normal(shape)
        if np.dtype(dtype).kind == "c":
            h = h + 1j * rng.standard_normal(shape)
        return h.astype(dtype)

    direct = [((64, 64), (64, 64)), ((100, 37), (37, 250)), ((2, 3), (3, 2)), ((7, 2), (2, 9))]
    for dtype in ("float32", "float64", "complex64", "complex128"):
        for s1, s2 in direct:
            a, b = cupy.asarray(host(s1, dtype)), cupy.asarray(host(s2, dtype))
            before = len(calls)
            got = _cupy_matmul.matmul(a, b)
            assert len(calls) == before + 1, (dtype, s1, s2)  # the direct call
            monkeypatch.setattr(cublas, "gemmEx", real)
            want = cupy.matmul(a, b)
            monkeypatch.setattr(cublas, "gemmEx", lambda *args: calls.append(args) or real(*args))
            assert got.dtype == want.dtype and got.shape == want.shape
            np.testing.assert_array_equal(got.get().view(np.uint8), want.get().view(np.uint8))
        # xpgpu's matmul of Arrays takes it
        a, b = host((5, 6), dtype), host((6, 4), dtype)
        before = len(calls)
        got = to_numpy(xp.matmul(_x(a, "cuda:0"), _x(b, "cuda:0")))
        assert len(calls) == before + 1
        rtol = 1e-4 if dtype in ("float32", "complex64") else 1e-10
        np.testing.assert_allclose(got, a @ b, rtol=rtol)
    # pedantic compute type: still CuPy's bits
    old = L.get_compute_type(np.float32)
    L.set_compute_type(np.float32, L.COMPUTE_TYPE_PEDANTIC)
    try:
        a, b = cupy.asarray(host((33, 17), "float32")), cupy.asarray(host((17, 40), "float32"))
        before = len(calls)
        got = _cupy_matmul.matmul(a, b)
        assert calls[before][-2] == cublas.CUBLAS_COMPUTE_32F_PEDANTIC
        np.testing.assert_array_equal(got.get(), cupy.matmul(a, b).get())
    finally:
        L.set_compute_type(np.float32, old)
    # CuPy's matmul for the rest
    theirs = [(host((1, 5), "float32"), host((5, 3), "float32")),  # a row
              (host((4, 5), "float32"), host((5, 1), "float32")),  # a column
              (host((4, 1), "float32"), host((1, 3), "float32")),  # k = 1
              (host(5, "float32"), host((5, 3), "float32")),  # a vector
              (host((2, 4, 5), "float32"), host((5, 3), "float32")),  # a stack
              (host((4, 5), "float32"), host((5, 3), "float64")),  # mixed dtypes
              (rng.integers(-9, 9, (4, 5)), rng.integers(-9, 9, (5, 3)))]  # integers
    for a, b in theirs:
        ca, cb = cupy.asarray(a), cupy.asarray(b)
        np.testing.assert_array_equal(_cupy_matmul.matmul(ca, cb).get(),
                                      cupy.matmul(ca, cb).get())
    fortran = cupy.asfortranarray(cupy.asarray(host((6, 5), "float64")))
    strided = cupy.asarray(host((6, 10), "float64"))[:, ::2]
    for a in (fortran, strided):
        b = cupy.asarray(host((5, 4), "float64"))
        np.testing.assert_array_equal(_cupy_matmul.matmul(a, b).get(), cupy.matmul(a, b).get())


def test_cpu_solve_by_numpys_gufunc(monkeypatch):
    """On the CPU, solve of one square matrix calls NumPy's gufunc itself
    (_numpy_linalg): the same bits as numpy.linalg.solve for every floating dtype, with
    a vector or a matrix on the right; a singular matrix is solve's ValueError; the
    caller's NumPy error state is left as it was; stacks take numpy.linalg.solve."""
    cpu = _devices.lookup("cpu")
    calls = []
    real = np.linalg.solve
    monkeypatch.setattr(np.linalg, "solve", lambda *args: calls.append(args) or real(*args))
    rng = np.random.default_rng(8)
    for dtype in ("float32", "float64", "complex64", "complex128"):
        for n, rhs in ((1, (1,)), (7, (7,)), (7, (7, 3)), (16, (16, 1))):
            a = rng.standard_normal((n, n)) + n * np.eye(n)
            b = rng.standard_normal(rhs)
            if dtype.startswith("complex"):
                a, b = a + 1j * rng.standard_normal(a.shape), b + 1j * rng.standard_normal(rhs)
            a, b = a.astype(dtype), b.astype(dtype)
            got = to_numpy(xp.linalg.solve(_x(a, cpu), _x(b, cpu)))
            want = real(a, b)
            assert got.dtype == want.dtype and got.shape == want.shape
            np.testing.assert_array_equal(got.view(np.uint8), want.view(np.uint8))
    assert calls == []  # none went through numpy.linalg.solve
    with np.errstate(invalid="warn", divide="raise"):
        before = np.geterr()
        with pytest.raises(ValueError, match=r"^solve: x1 is singular"):
            xp.linalg.solve(_x(np.zeros((3, 3)), cpu), _x(np.ones(3), cpu))
        assert np.geterr() == before
    stack = rng.standard_normal((2, 4, 4)) + 4 * np.eye(4)
    got = to_numpy(xp.linalg.solve(_x(stack, cpu), _x(np.ones((2, 4, 2)), cpu)))
    np.testing.assert_array_equal(got, real(stack, np.ones((2, 4, 2))))
    assert len(calls) == 1
