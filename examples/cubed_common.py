"""What the cubed examples share: command-line options, the backend and device set up before
cubed is imported, the executors (threads, processes, Dask, one Dask worker per GPU), and a
per-task record of where each task ran and how much device memory its process held.

Run the examples from the repository root, e.g.

    python examples/cubed_reduction.py --size 2000 --executor processes --check
    python examples/cubed_reduction.py --device cuda:0 --size 40000 --executor threads
    python examples/cubed_reduction.py --executor dask-cuda --size 40000     # one worker per GPU
    python examples/cubed_reduction.py --backend numpy --executor processes  # cubed + NumPy
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import json
import os
import socket
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np

EXECUTORS = ["single-threaded", "threads", "processes", "dask", "dask-cuda"]
RECORD_DIR = "XPGPU_CUBED_RECORD_DIR"  # where each worker process appends its task records


def parser(description: str, size: int) -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(description=description)
    p.add_argument("--device", default="cpu", help="xpgpu's device in every worker: cpu or "
                   "cuda:0 (with dask-cuda each worker sees one GPU, as cuda:0)")
    p.add_argument("--backend", default="xpgpu", choices=["xpgpu", "numpy"],
                   help="cubed's array API backend (numpy: the host baseline)")
    p.add_argument("--executor", default="threads", choices=EXECUTORS)
    p.add_argument("--workers", type=int, default=None,
                   help="workers (threads or processes); default: the host's cores, or one "
                   "per GPU with dask-cuda")
    p.add_argument("--size", type=int, default=size, help="the side of the square inputs")
    p.add_argument("--chunk", type=int, default=None, help="the side of a chunk "
                   "(default: cubed's choice within --allowed-mem)")
    p.add_argument("--allowed-mem", default="2GB", help="cubed's memory bound per task")
    p.add_argument("--work-dir", default=None, help="cubed's intermediate Zarr store "
                   "(default: a temporary directory on local disk)")
    p.add_argument("--check", action="store_true", help="compare with NumPy on the host "
                   "(small sizes only: the inputs are materialised)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--gpu-zarr", action="store_true", help="hand chunks to Zarr as CuPy "
                   "arrays (zarr.config.enable_gpu()) instead of host copies")
    return p


def setup(args: argparse.Namespace) -> None:
    """Select cubed's backend and xpgpu's device in the environment (worker processes inherit
    it), then import cubed and apply the shim."""
    os.environ["CUBED_BACKEND_ARRAY_API_MODULE"] = args.backend
    device = "cuda:0" if args.executor == "dask-cuda" else args.device
    os.environ["XPGPU_DEFAULT_DEVICE"] = device
    if args.device != "cpu" and args.backend == "numpy":
        raise SystemExit("--backend numpy runs on the host: leave --device at cpu")
    if args.gpu_zarr:
        os.environ["XPGPU_CUBED_GPU_ZARR"] = "1"  # read by cubed_shim.apply, in every worker
    record = Path(tempfile.mkdtemp(prefix="cubed-record-"))
    os.environ[RECORD_DIR] = str(record)
    if args.backend == "xpgpu":
        import cubed_shim

        cubed_shim.apply()
    _record_tasks()
    import random

    random.seed(args.seed)  # cubed.random draws its root seed from Python's random


def spec(cubed: Any, args: argparse.Namespace) -> Any:
    work_dir = args.work_dir or tempfile.mkdtemp(prefix="cubed-work-")
    return cubed.Spec(work_dir=work_dir, allowed_mem=args.allowed_mem)


@contextlib.contextmanager
def executor(args: argparse.Namespace) -> Iterator[Any]:
    """cubed's executor for ``--executor`` (a Dask cluster lives as long as the context)."""
    from cubed.runtime.create import create_executor

    workers = args.workers or os.cpu_count() or 1
    if args.executor in ("single-threaded", "threads", "processes"):
        options = {} if args.executor == "single-threaded" else {"max_workers": workers}
        yield create_executor(args.executor, options)
        return
    if args.executor == "dask":
        from distributed import LocalCluster

        cluster = LocalCluster(n_workers=workers, threads_per_worker=1, dashboard_address=None)
    else:
        cluster = gpu_cluster(args.workers)
    with cluster:
        yield create_executor("dask", {"compute_kwargs": {"address": cluster.scheduler_address}})


def gpu_cluster(n: int | None) -> Any:
    """A local Dask cluster of one single-threaded worker process per GPU. Each worker sees one
    GPU (``CUDA_VISIBLE_DEVICES``), so xpgpu's default device there, cuda:0, is that GPU.
    ``dask_cuda.LocalCUDACluster`` where dask-cuda is installed; otherwise the same layout from
    distributed alone (a ``SpecCluster`` of nannies, each with its ``CUDA_VISIBLE_DEVICES``)."""
    try:
        from dask_cuda import LocalCUDACluster
    except ImportError:
        pass
    else:
        kwargs = {"n_workers": n} if n else {}
        print("cluster: dask_cuda.LocalCUDACluster")
        return LocalCUDACluster(threads_per_worker=1, dashboard_address=None, **kwargs)
    from distributed import Nanny, Scheduler, SpecCluster

    import xpgpu

    gpus = len(xpgpu.__array_namespace_info__().devices()) - 1
    visible = os.environ.get("CUDA_VISIBLE_DEVICES")
    ids = visible.split(",") if visible else [str(i) for i in range(gpus)]
    ids = ids[: n or len(ids)]
    if not ids:
        raise SystemExit("--executor dask-cuda: no CUDA device")
    workers = {f"gpu{i}": {"cls": Nanny, "options": {
        "nthreads": 1, "env": {"CUDA_VISIBLE_DEVICES": gpu, "XPGPU_DEFAULT_DEVICE": "cuda:0"}}}
        for i, gpu in enumerate(ids)}
    scheduler = {"cls": Scheduler, "options": {"dashboard_address": None}}
    print(f"cluster: distributed.SpecCluster, one worker per GPU ({', '.join(ids)})")
    return SpecCluster(workers=workers, scheduler=scheduler)


class Example:
    """One workload script's run: its options parsed, cubed imported with the chosen backend
    and device, and what the scripts share (random inputs, compute and report)."""

    def __init__(self, doc: str, size: int) -> None:
        self.args = parser(doc.splitlines()[0], size=size).parse_args()
        setup(self.args)  # before importing cubed: it reads its backend at import
        import cubed
        import cubed.array_api
        import cubed.random

        self.cubed = cubed
        self.xp = cubed.array_api
        self.spec = spec(cubed, self.args)
        self.n: int = self.args.size
        self.check: bool = self.args.check

    def random(self) -> Any:
        """A random n x n float32 matrix, in --chunk chunks (or cubed's choice)."""
        return self.cubed.random.random((self.n, self.n), dtype=self.xp.float32,
                                        chunks=self.args.chunk or "auto", spec=self.spec)

    def compute(self, name: str, nbytes: int, outputs: list[Any], inputs: list[Any]
                ) -> tuple[list[np.ndarray], list[np.ndarray], float]:
        """Compute ``outputs`` (and ``inputs`` with --check, in the same computation) and
        print the report line: the outputs' host copies, the inputs' (empty without
        --check) and the seconds it took."""
        with executor(self.args) as ex:
            values, seconds = compute(self.cubed, outputs + (inputs if self.check else []), ex)
        k = len(outputs)
        report(name, self.args, seconds, nbytes, values[:k])
        return values[:k], values[k:], seconds


def compute(cubed: Any, arrays: list[Any], ex: Any) -> tuple[list[np.ndarray], float]:
    """Compute ``arrays`` together; their host copies and the seconds it took."""
    start = time.perf_counter()
    values = cubed.compute(*arrays, executor=ex)
    seconds = time.perf_counter() - start
    return [to_host(v) for v in values], seconds


def to_host(x: Any) -> np.ndarray:
    return x if isinstance(x, np.ndarray) else np.from_dlpack(x, device="cpu")


def digest(values: list[np.ndarray]) -> str:
    """A SHA-256 of the results' bytes: equal digests are bit-identical results."""
    h = hashlib.sha256()
    for v in values:
        h.update(np.ascontiguousarray(v).tobytes())
    return h.hexdigest()[:16]


def report(name: str, args: argparse.Namespace, seconds: float, nbytes: int,
           values: list[np.ndarray]) -> dict[str, Any]:
    """Print and return one line of results: throughput over the input bytes, the digest of
    the results, and where the tasks ran with the most device memory a worker's pool held."""
    records = read_records()
    placement: dict[str, int] = {}
    peak: dict[str, int] = {}
    for r in records:
        where = f"{r['host']}/pid{r['pid']}/{r['gpu']}"
        placement[where] = placement.get(where, 0) + 1
        peak[where] = max(peak.get(where, 0), r["pool_total_bytes"])
    out = {"workload": name, "backend": args.backend, "device": args.device,
           "executor": args.executor, "size": args.size, "seconds": round(seconds, 3),
           "GB/s": round(nbytes / seconds / 1e9, 3), "digest": digest(values),
           "tasks": len(records), "workers": len(placement), "gpus": sorted(
               {r["gpu"] for r in records}),
           "peak_pool_bytes_per_worker": max(peak.values(), default=0),
           "allowed_mem": args.allowed_mem}
    print(json.dumps(out))
    return out


# -- per-task records ------------------------------------------------------------------------

def _record_tasks() -> None:
    """Wrap cubed's blockwise stage function so that each task appends where it ran and its
    process's CuPy pool size to ``$XPGPU_CUBED_RECORD_DIR/<pid>.jsonl``. The wrapper lives in
    this module, so tasks pickled to worker processes carry it."""
    import cubed.primitive.blockwise as blockwise

    global _inner
    if blockwise.apply_blockwise is not recorded_apply_blockwise:
        _inner = blockwise.apply_blockwise
        blockwise.apply_blockwise = recorded_apply_blockwise


_inner: Any = None


def recorded_apply_blockwise(out_coords: Any, *, config: Any) -> Any:
    inner = _inner
    if inner is None:  # a worker process: this module was imported by unpickling the task
        import cubed.primitive.blockwise as blockwise

        inner = blockwise.apply_blockwise
        if os.environ.get("CUBED_BACKEND_ARRAY_API_MODULE") == "xpgpu":
            import cubed_shim

            inner = cubed_shim.apply_blockwise
    result = inner(out_coords, config=config)
    _write_record(list(config.writes_map), out_coords)
    return result


def _write_record(outputs: list[str], coords: Any) -> None:
    directory = os.environ.get(RECORD_DIR)
    if not directory:
        return
    gpu, total, used = "cpu", 0, 0
    if os.environ.get("XPGPU_DEFAULT_DEVICE", "cpu") != "cpu":
        import cupy  # the examples may read CuPy's pool statistics; xpgpu keeps them private

        pool = cupy.get_default_memory_pool()
        total, used = pool.total_bytes(), pool.used_bytes()
        gpu = cupy.cuda.Device().pci_bus_id  # the physical GPU, whatever its local number
    record = {"host": socket.gethostname(), "pid": os.getpid(), "gpu": gpu,
              "cuda_visible_devices": os.environ.get("CUDA_VISIBLE_DEVICES"),
              "outputs": outputs, "coords": list(coords), "pool_total_bytes": total,
              "pool_used_bytes": used, "time": time.time()}
    with open(Path(directory) / f"{os.getpid()}.jsonl", "a") as f:
        f.write(json.dumps(record) + "\n")


def read_records() -> list[dict[str, Any]]:
    directory = Path(os.environ[RECORD_DIR])
    records = []
    for path in sorted(directory.glob("*.jsonl")):
        records += [json.loads(line) for line in path.read_text().splitlines()]
    return records


def clear_records() -> None:
    for path in Path(os.environ[RECORD_DIR]).glob("*.jsonl"):
        path.unlink()
