"""cubed with xpgpu as its backend: every operation of cubed's array API, under each of cubed's
local executors and Dask, equals NumPy on the same inputs.

cubed reads its backend from ``CUBED_BACKEND_ARRAY_API_MODULE`` when it is first imported, so this
module sets it before importing cubed, and skips when cubed is absent or was already imported with
another backend. Worker processes (the processes and Dask executors) inherit the environment:
``XPGPU_DEFAULT_DEVICE`` picks their device and ``XPGPU_STRICT`` their profile, as in this process.

    python -m pytest tests/test_cubed.py                              # the default device
    XPGPU_DEFAULT_DEVICE=cuda:0 python -m pytest tests/test_cubed.py  # on a GPU
    XPGPU_CUBED_SHIM=0 python -m pytest tests/test_cubed.py           # without the shim

Each operation is built lazily from a table (tests/cubed_ops.py) and all of them are computed
together, once per executor (one process pool, one Dask cluster); only where that batch fails are
the operations computed one by one, to say which failed.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

# CUBED_BACKEND_ARRAY_API_MODULE=numpy runs the same table on cubed's default backend: a baseline
# that separates cubed's own limits from xpgpu's.
BACKEND = os.environ.setdefault("CUBED_BACKEND_ARRAY_API_MODULE", "xpgpu")
cubed = pytest.importorskip("cubed")
xpc = pytest.importorskip("cubed.array_api")

from cubed.runtime.create import create_executor  # noqa: E402
from cubed_ops import OPS, inputs  # noqa: E402

import xpgpu  # noqa: E402

if cubed.backend_array_api.xp_name != BACKEND:
    pytest.skip("cubed was imported with another backend", allow_module_level=True)

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
sys.path.insert(0, str(EXAMPLES))
import cubed_shim  # noqa: E402

SHIM = os.environ.get("XPGPU_CUBED_SHIM", "1") != "0"
if SHIM:
    cubed_shim.apply()

DEVICE = xpgpu.__array_namespace_info__().default_device()
pytestmark = [pytest.mark.xdist_group("cubed")]
if DEVICE != xpgpu.__array_namespace_info__().devices()[0]:
    pytestmark.append(pytest.mark.cuda)

EXECUTORS = ["single-threaded", "threads", "processes", "dask"]
RTOL = {"float32": 1e-5, "complex64": 1e-5, "float64": 1e-12, "complex128": 1e-12}


def _to_numpy(x: Any) -> np.ndarray:
    """The host copy of a computed result (an xpgpu array on any device, or NumPy's)."""
    return np.from_dlpack(x, device="cpu") if isinstance(x, xpgpu.Array) else np.asarray(x)


def _cubed_inputs() -> dict[str, Any]:
    """The inputs as cubed arrays of about two chunks per axis (cubed's default spec, as for the
    creation functions: one computation needs one spec)."""
    return {k: xpc.asarray(v, chunks=tuple(max(1, (n + 1) // 2) for n in v.shape))
            for k, v in inputs().items()}


@pytest.fixture(scope="module")
def dask_address() -> Any:
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster:
        yield cluster.scheduler_address


def _executor(name: str, request: pytest.FixtureRequest) -> Any:
    if name == "dask":
        address = request.getfixturevalue("dask_address")
        return create_executor("dask", {"compute_kwargs": {"address": address}})
    if name == "processes":
        return create_executor("processes", {"max_workers": 2})
    return create_executor(name)


def _compute(built: dict[str, Any], executor: Any) -> dict[str, np.ndarray]:
    values = cubed.compute(*built.values(), executor=executor) if built else ()
    return {k: _to_numpy(v) for k, v in zip(built, values, strict=True)}


def _fails(arr: Any, executor: Any) -> bool:
    try:
        arr.compute(executor=executor)
    except Exception:
        return True
    return False


@pytest.fixture(scope="module", params=EXECUTORS)
def results(request: pytest.FixtureRequest) -> dict[str, Any]:
    """Each operation's host result (or the exception it raised) under one executor."""
    executor = _executor(request.param, request)
    a = _cubed_inputs()
    built: dict[str, Any] = {}
    out: dict[str, Any] = {}
    for name, (build, _) in OPS.items():
        try:
            built[name] = build(xpc, a)
        except Exception as exc:
            out[name] = exc
    try:
        out.update(_compute(built, executor))
    except Exception:
        # Find the failures: those that fail in this process are computed one by one
        # (each is a pool or a round of tasks), the others together again.
        single = create_executor("single-threaded")
        suspects = {k for k, arr in built.items() if _fails(arr, single)}
        try:
            out.update(_compute({k: v for k, v in built.items() if k not in suspects}, executor))
        except Exception:
            suspects = set(built)
        for name in suspects:
            try:
                out.update(_compute({name: built[name]}, executor))
            except Exception as exc:
                out[name] = exc
    return out


@pytest.mark.parametrize("name", list(OPS))
def test_operation(results: dict[str, Any], name: str) -> None:
    got = results[name]
    if isinstance(got, Exception):
        raise got
    expected = np.asarray(OPS[name][1](inputs()))
    assert got.shape == expected.shape
    assert got.dtype == expected.dtype, (got.dtype, expected.dtype)
    if got.dtype.kind in "fc":
        # cubed sums chunk by chunk, in another order than NumPy; CUDA's math is within ulps
        rtol = RTOL[got.dtype.name]
        np.testing.assert_allclose(got, expected, rtol=rtol, atol=0, equal_nan=True)
    else:
        np.testing.assert_array_equal(got, expected)


# -- the paths around the operations: host conversion, Zarr, user functions -----------------

def test_numpy_asarray_of_a_cubed_array() -> None:
    a = inputs()["g"]
    x = xpc.asarray(a, chunks=(3, 4))
    np.testing.assert_array_equal(np.asarray(x), a)
    assert np.asarray(x, dtype=np.float32).dtype == np.float32
    assert float(xpc.sum(x)) == pytest.approx(float(np.sum(a)), rel=1e-12)


def test_zarr_round_trip(tmp_path: Path) -> None:
    # Chunks leave the device through the explicit host copy (item 4 of the shim on CUDA).
    a = inputs()["f"]
    x = xpc.asarray(a, chunks=(3, 4)) * 2.0
    cubed.to_zarr(x, str(tmp_path / "x.zarr"))
    y = cubed.from_zarr(str(tmp_path / "x.zarr"))
    assert y.chunksize == (3, 4)
    np.testing.assert_array_equal(_to_numpy(y.compute()), a * 2.0)
    np.testing.assert_allclose(_to_numpy(xpc.sum(y, axis=0).compute()), np.sum(a * 2.0, axis=0),
                               rtol=1e-14)


@pytest.mark.skipif(BACKEND != "xpgpu", reason="xpgpu's chunks")
def test_map_blocks_runs_on_the_default_device() -> None:
    # A user function sees each chunk as an xpgpu array on this process's default device.
    seen = []

    def f(block: Any) -> Any:
        seen.append((type(block), block.device))
        return xpgpu.cumulative_sum(block, axis=1)

    a = inputs()["g"]
    y = cubed.map_blocks(f, xpc.asarray(a, chunks=(3, 8)), dtype=xpc.float64)
    np.testing.assert_allclose(_to_numpy(y.compute()), np.cumsum(a, axis=1), rtol=1e-12)
    assert seen and all(s == (xpgpu.Array, DEVICE) for s in seen)
