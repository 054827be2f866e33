"""A small, documented monkeypatch of cubed (0.27-0.28) for strict array API backends such as
xpgpu. It is applied by our tests and examples only, never by xpgpu itself:

    import cubed_shim
    cubed_shim.apply()        # before building cubed arrays

cubed's chunk functions call a few things the array API standard does not define. NumPy accepts
them; a strict namespace (xpgpu, array-api-strict) refuses them. Each patch below replaces one
cubed function with a standard-only version that computes the same values; its docstring is the
upstream report. The patched functions live in this module, so the tasks that cubed pickles refer
to them by name and worker processes (the processes and Dask executors) import this module to
run them: the patch travels with the tasks.

1. ``mean``: ``_mean_aggregate`` divides a float sum by an int64 count (mixed-kind promotion).
2. ``var``/``std``: ``_var_func`` calls ``mean(a, dtype=...)`` (``mean`` has no ``dtype``);
   ``_var_combine`` calls ``take(a, 0, axis=...)`` with a Python int (``take`` takes an integer
   array) and multiplies int64 counts with float64 means; ``_var_aggregate`` subtracts a Python
   float from the int64 count.
3. ``take`` and every orthogonal index: ``_assemble_index_chunk`` indexes chunks with the NumPy
   integer arrays of Zarr's ``OrthogonalIndexer`` next to slices, and assigns through them
   (``out[int_array] = ...``); the standard has integer-array indices only with integers, and
   none in assignments.
4. CUDA chunks to Zarr: ``backend_array_to_numpy_array`` is ``np.asarray(chunk)`` unless the
   namespace's name contains "cupy"; for any other device namespace that is an implicit device-to-
   host copy, which xpgpu refuses (``__array__`` on CUDA). The patch makes it an explicit copy,
   ``np.from_dlpack(chunk, device="cpu")``, which works for every DLPack array on any device.
   (Zarr's GPU buffers, ``zarr.config.enable_gpu()``, would take a CuPy array instead:
   ``cupy.from_dlpack(chunk)``; ``apply(gpu_zarr=True)`` selects that.)
5. ``numpy.asarray(cubed_array)``: ``cubed.Array.__array__`` calls ``x.astype(dtype)`` (a method
   the standard does not have) and ``np.array(x)`` (an implicit device-to-host copy). The patch
   copies to the host explicitly, then converts with NumPy.
6. Dask executor with distributed >= 2026.7: ``check_runtime_memory`` reads per-worker memory
   from ``client.scheduler_info()``, which an asynchronous client now returns without workers
   (dask/distributed#9308), so every computation fails with "Cluster has no workers running",
   whatever the backend. The patch reads the cluster-wide totals that the cached info keeps.
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np

_applied = False


def _nxp() -> Any:
    from cubed.backend_array_api import namespace

    return namespace


# -- 1. mean ---------------------------------------------------------------------------------

def mean_aggregate(a: dict[str, Any], **kwargs: Any) -> Any:
    """cubed ``_mean_aggregate``: ``divide(total, n)`` with float ``total`` and int64 ``n``.

    Upstream fix: ``nxp.divide(a["total"], nxp.astype(a["n"], a["total"].dtype))``.
    """
    nxp = _nxp()
    return nxp.divide(a["total"], nxp.astype(a["n"], a["total"].dtype))


# -- 2. var / std ----------------------------------------------------------------------------

def var_func(a: Any, correction: Any = None, **kwargs: Any) -> dict[str, Any]:
    """cubed ``_var_func``: ``nxp.mean(a, dtype=float64)``; ``mean`` has no ``dtype`` argument
    in the standard. Upstream fix: ``nxp.mean(nxp.astype(a, float64), ...)``."""
    from cubed.array_api.statistical_functions import _numel

    nxp = _nxp()
    dtype = dict(kwargs.pop("dtype"))
    n = _numel(a, dtype=dtype["n"], **kwargs)
    a = nxp.astype(a, dtype["mu"])
    mu = nxp.mean(a, **kwargs)
    m2 = nxp.sum(nxp.square(a - mu), dtype=dtype["M2"], **kwargs)
    return {"n": n, "mu": mu, "M2": m2}


def var_combine(a: dict[str, Any], axis: Any = None, correction: Any = None,
                **kwargs: Any) -> dict[str, Any]:
    """cubed ``_var_combine``: ``nxp.take(x, 0, axis=...)`` with a Python int, and int64 counts
    times float64 means. Upstream fix: index with ``nxp.asarray([0])``-style arrays (or slices)
    and cast the counts to the means' dtype before mixing them."""
    nxp = _nxp()
    axis = axis[0]
    if a["n"].shape[axis] == 1:  # nothing to combine
        return a
    if a["n"].shape[axis] != 2:
        raise ValueError(f"Expected two elements in {axis} axis to combine")

    def half(x: Any, i: int) -> Any:
        return x[(slice(None),) * axis + (i, ...)]

    n_a, n_b = half(a["n"], 0), half(a["n"], 1)
    mu_a, mu_b = half(a["mu"], 0), half(a["mu"], 1)
    m2_a, m2_b = half(a["M2"], 0), half(a["M2"], 1)
    n_ab = n_a + n_b
    fa, fb, fab = (nxp.astype(n, mu_a.dtype) for n in (n_a, n_b, n_ab))
    delta = mu_b - mu_a
    mu_ab = (fa * mu_a + fb * mu_b) / fab
    m2_ab = m2_a + m2_b + delta**2 * fa * fb / fab
    return {"n": nxp.expand_dims(n_ab, axis=axis), "mu": nxp.expand_dims(mu_ab, axis=axis),
            "M2": nxp.expand_dims(m2_ab, axis=axis)}


def var_aggregate(a: dict[str, Any], correction: Any = None, **kwargs: Any) -> Any:
    """cubed ``_var_aggregate``: ``a["n"] - correction`` subtracts a Python float from an int64
    array. Upstream fix: cast the count to the sums' dtype first."""
    nxp = _nxp()
    return nxp.divide(a["M2"], nxp.astype(a["n"], a["M2"].dtype) - correction)


# -- 3. orthogonal indexing of chunks --------------------------------------------------------

def assemble_index_chunk(arrays: Any, dtype: Any = None, func: Any = None,
                         selection_function: Any = None, in_shape: Any = None,
                         in_chunksize: Any = None, block_id: Any = None, **kwargs: Any) -> Any:
    """cubed ``core.ops._assemble_index_chunk``: ``out[out_sel] = chunk[chunk_sel]`` where Zarr's
    ``OrthogonalIndexer`` puts NumPy integer arrays next to slices in ``chunk_sel`` and, for
    unsorted indices, in ``out_sel``. Standard-only: sort each integer-array selection (Zarr then
    gives slices for ``out_sel``), gather every chunk's piece with ``take`` per array axis, and
    restore the requested order with one ``take`` at the end."""
    from cubed.core.ops import _create_zarr_indexer
    from cubed.primitive.blockwise import ChunkKey
    from cubed.utils import array_size

    nxp = _nxp()
    in_sel = selection_function(ChunkKey("out", block_id))
    in_sel = in_sel if isinstance(in_sel, tuple) else (in_sel,)
    unsort: dict[int, np.ndarray] = {}  # output axis -> permutation restoring the order
    sorted_sel = []
    out_axis = 0
    for s in in_sel:
        if isinstance(s, np.ndarray) and s.dtype.kind in "iu" and s.ndim == 1:
            order = np.argsort(s, kind="stable")
            if np.any(order != np.arange(s.size)):
                unsort[out_axis] = np.argsort(order, kind="stable")
            s = s[order]
        sorted_sel.append(s)
        if not isinstance(s, (int, np.integer)):
            out_axis += 1
    indexer = _create_zarr_indexer(tuple(sorted_sel), in_shape, in_chunksize)
    out = nxp.empty(indexer.shape, dtype=dtype)
    if array_size(indexer.shape) > 0:
        _, chunk_sels, out_sels, *_ = zip(*indexer, strict=True)
        for ai, chunk_sel, out_sel in zip(arrays, chunk_sels, out_sels, strict=False):
            out[out_sel] = _orthogonal_take(nxp, ai, chunk_sel)
    for axis, perm in unsort.items():
        out = nxp.take(out, nxp.asarray(perm, device=out.device), axis=axis)
    if func is not None:
        from cubed.core.ops import has_keyword

        kw = {"block_id": block_id} if has_keyword(func, "block_id") else {}
        out = func(out, **kw, **kwargs)
    return out


def _orthogonal_take(nxp: Any, x: Any, sel: Any) -> Any:
    """``x[sel]`` for an orthogonal selection of slices, ints and 1-d integer NumPy arrays."""
    sel = sel if isinstance(sel, tuple) else (sel,)
    basic = []
    for axis, s in enumerate(sel):
        if isinstance(s, np.ndarray):
            x = nxp.take(x, nxp.asarray(s.reshape(-1).astype(np.int64), device=x.device), axis=axis)
            s = slice(None)
        basic.append(s.item() if isinstance(s, np.integer) else s)
    return x[(*basic, ...)]


# -- 4. chunks to Zarr -----------------------------------------------------------------------

def to_host(arr: Any) -> Any:
    """cubed ``backend_array_to_numpy_array`` for device arrays: an explicit host copy through
    DLPack instead of ``np.asarray`` (upstream: dispatch on ``__dlpack_device__`` rather than on
    the namespace's name)."""
    if isinstance(arr, np.ndarray):
        return arr
    return np.from_dlpack(arr, device="cpu")


def to_cupy(arr: Any) -> Any:
    """For Zarr's GPU buffers (``zarr.config.enable_gpu()``): the chunk as a CuPy array, without
    a copy."""
    import cupy

    return cupy.from_dlpack(arr)


# -- 5. numpy.asarray(cubed_array) ----------------------------------------------------------

def cubed_array_to_numpy(self: Any, dtype: Any = None, copy: Any = None) -> np.ndarray:
    """cubed ``Array.__array__``: ``x.astype(dtype)`` and ``np.array(x)`` on the computed
    backend array. Upstream fix: ``np.from_dlpack(x, device="cpu")``, then NumPy's astype."""
    x = to_host(self.compute())
    return x if dtype is None else x.astype(dtype, copy=False)


# -- 6. Dask's memory check -----------------------------------------------------------------

def check_runtime_memory(spec: Any, client: Any) -> None:
    """cubed ``runtime.executors.dask.check_runtime_memory`` for distributed >= 2026.7, whose
    asynchronous ``Client.scheduler_info()`` has an empty ``"workers"``: the memory per thread
    from the cluster-wide totals. Upstream fix: ``await client.scheduler.identity(n_workers=-1)``
    in ``_async_execute_dag`` and pass that to the check."""
    info = client.scheduler_info()
    workers = info.get("workers") or {}
    if workers:
        runtime_memory = min(w["memory_limit"] // w["nthreads"] for w in workers.values())
    elif info.get("total_threads"):
        runtime_memory = info["total_memory"] // info["total_threads"]
    else:
        raise ValueError("Cluster has no workers running")
    allowed_mem = spec.allowed_mem if spec is not None else None
    if allowed_mem is not None and runtime_memory < allowed_mem:
        raise ValueError(
            f"Runtime memory ({runtime_memory}) is less than allowed_mem ({allowed_mem})")


def apply_blockwise(out_coords: Any, *, config: Any) -> Any:
    """cubed's stage function for blockwise, run after patching cubed in this process: a
    worker process that unpickles a task imports this module, and the first task applies the
    patch there (the chunk-writing function, item 4, is called by name inside cubed)."""
    apply()
    return _apply_blockwise(out_coords, config=config)


_apply_blockwise: Any = None


def apply(gpu_zarr: bool | None = None) -> None:
    """Patch cubed in this process (idempotent). ``gpu_zarr``: hand chunks to Zarr as CuPy
    arrays (default: ``XPGPU_CUBED_GPU_ZARR=1``)."""
    global _applied, _apply_blockwise
    if _applied:
        return
    import cubed.array_api.array_object as array_object
    import cubed.array_api.statistical_functions as stats
    import cubed.backend_array_api as backend
    import cubed.core.indexing as indexing
    import cubed.core.ops as ops
    import cubed.primitive.blockwise as blockwise

    stats._mean_aggregate = mean_aggregate
    stats._var_func = var_func
    stats._var_combine = var_combine
    stats._var_aggregate = var_aggregate
    ops._assemble_index_chunk = assemble_index_chunk
    array_object.Array.__array__ = cubed_array_to_numpy
    try:
        import cubed.runtime.executors.dask as dask_executor
    except ImportError:  # distributed is not installed
        pass
    else:
        dask_executor.check_runtime_memory = check_runtime_memory
    if gpu_zarr is None:
        gpu_zarr = os.environ.get("XPGPU_CUBED_GPU_ZARR", "0") == "1"
    writer = to_cupy if gpu_zarr else to_host
    if gpu_zarr:
        import zarr

        zarr.config.enable_gpu()  # Zarr reads and writes CuPy buffers
    for module in (backend, blockwise, indexing):
        module.backend_array_to_numpy_array = writer  # type: ignore[attr-defined]
    if blockwise.apply_blockwise is not apply_blockwise:
        _apply_blockwise = blockwise.apply_blockwise
        blockwise.apply_blockwise = apply_blockwise  # the tasks carry the patch to the workers
    _applied = True
