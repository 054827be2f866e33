"""Bounded memory: cubed on xpgpu reduces an input larger than the GPU's memory, read from Zarr
on local disk, with each worker's device memory bounded by cubed's ``allowed_mem``.

The input is float32, ``x[i, j] = p[j] + i % 8`` with ``p`` a seeded row of integers below
1000, so every result is known exactly and the array compresses well on disk (a 160 GB array
takes a few GB). Three reductions run over it: the float64 sum of all elements, the maximum and
the mean of each column. Each task records its worker's CuPy pool size after it ran; the
largest is the peak device memory of a worker, compared with ``allowed_mem``.

    python examples/cubed_bounded_memory.py --size-gb 0.05                     # CPU, tiny
    python examples/cubed_bounded_memory.py --device cuda:0                    # 2x the GPU
    python examples/cubed_bounded_memory.py --device cuda:0 --size-gb 160 \\
        --allowed-mem 2GB --executor processes --workers 8 --data-dir /tmp/xpgpu-cubed
"""

from __future__ import annotations

import multiprocessing
import os
import shutil
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import cubed_common as common
import numpy as np

COLS = 8192  # 32 KiB rows


def _pattern(seed: int) -> np.ndarray:
    return np.random.default_rng(seed).integers(0, 1000, COLS).astype(np.float32)


def _write_rows(path: str, start: int, stop: int, seed: int) -> None:
    import zarr

    rows = np.arange(start, stop) % 8
    zarr.open_array(path, mode="r+")[start:stop] = _pattern(seed)[None, :] + rows[:, None]


def write_input(path: Path, rows: int, chunk_rows: int, seed: int, workers: int) -> float:
    """The input as Zarr on local disk, one chunk per task on ``workers`` processes."""
    import zarr

    start = time.perf_counter()
    zarr.create_array(str(path), shape=(rows, COLS), chunks=(chunk_rows, COLS),
                      dtype="float32", overwrite=True)
    # spawn: the parent may have initialised CUDA (to read the GPU's size)
    with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn")) as pool:
        jobs = [pool.submit(_write_rows, str(path), r, min(r + chunk_rows, rows), seed)
                for r in range(0, rows, chunk_rows)]
        for job in jobs:
            job.result()
    return time.perf_counter() - start


def expected(rows: int, seed: int) -> tuple[float, np.ndarray, np.ndarray]:
    p = _pattern(seed).astype(np.float64)
    i8 = np.arange(8, dtype=np.float64)
    full, rest = divmod(rows, 8)
    offsets_sum = full * i8.sum() + i8[:rest].sum()
    total = rows * p.sum() + COLS * offsets_sum
    colmax = (p + min(rows - 1, 7)).astype(np.float32)
    colmean = p + offsets_sum / rows
    return total, colmax, colmean


def device_memory_bytes(device: str) -> int:
    import cupy  # the example reads the GPU's size from CuPy; xpgpu does not report it

    with cupy.cuda.Device(int(device.partition(":")[2] or 0)):
        return int(cupy.cuda.runtime.memGetInfo()[1])


def peak_host_memory() -> Any:
    """A cubed callback: the largest host memory a task's process reached (cubed's measure)."""
    from cubed import Callback

    class PeakHostMemory(Callback):  # type: ignore[misc]
        peak = 0

        def on_task_end(self, event: Any) -> None:
            self.peak = max(self.peak, event.peak_measured_mem_end or 0)

    return PeakHostMemory()


def main() -> None:
    p = common.parser(__doc__.splitlines()[0], size=0)
    p.add_argument("--size-gb", type=float, default=None,
                   help="the input's size in GB (default: twice the GPU's memory, or 0.05 on "
                   "the CPU)")
    p.add_argument("--chunk-mb", type=float, default=128, help="the input's chunk size")
    p.add_argument("--data-dir", default=None, help="where the input is written (local disk)")
    p.add_argument("--keep", action="store_true", help="keep and reuse the input")
    args = p.parse_args()
    common.setup(args)
    import cubed
    import cubed.array_api as xp

    gb = args.size_gb
    if gb is None:
        gb = 0.05 if args.device == "cpu" else 2 * device_memory_bytes(args.device) / 1e9
    rows = max(8, int(gb * 1e9) // (4 * COLS))
    chunk_rows = max(1, min(rows, int(args.chunk_mb * 1e6) // (4 * COLS)))
    data_dir = Path(args.data_dir or tempfile.mkdtemp(prefix="xpgpu-cubed-"))
    data_dir.mkdir(parents=True, exist_ok=True)
    path = data_dir / f"input-{rows}x{COLS}-{chunk_rows}.zarr"
    workers = args.workers or os.cpu_count() or 1
    if not (args.keep and path.exists()):
        seconds = write_input(path, rows, chunk_rows, args.seed, workers)
        on_disk = sum(f.stat().st_size for f in path.rglob("*") if f.is_file())
        print(f"input: {rows} x {COLS} float32 = {4 * rows * COLS / 1e9:.2f} GB "
              f"({on_disk / 1e9:.2f} GB on disk), written in {seconds:.1f} s")
    if args.work_dir is None:
        args.work_dir = str(data_dir / "work")
    spec = common.spec(cubed, args)
    x = cubed.from_zarr(str(path), spec=spec)
    outputs = [xp.sum(xp.astype(x, xp.float64)), xp.max(x, axis=0), xp.mean(x, axis=0)]
    peak_host = peak_host_memory()
    with common.executor(args) as ex:
        start = time.perf_counter()
        values = cubed.compute(*outputs, executor=ex, callbacks=[peak_host])
        seconds = time.perf_counter() - start
    values = [common.to_host(v) for v in values]
    args.size = rows
    out = common.report("bounded-memory", args, seconds, 4 * rows * COLS, values)
    total, colmax, colmean = expected(rows, args.seed)
    assert float(values[0]) == total, (float(values[0]), total)
    np.testing.assert_array_equal(values[1], colmax)
    np.testing.assert_allclose(values[2], colmean, rtol=1e-6)
    allowed = cubed.Spec(allowed_mem=args.allowed_mem).allowed_mem
    peak = out["peak_pool_bytes_per_worker"]
    print(f"input {4 * rows * COLS / 1e9:.1f} GB; allowed_mem {allowed / 1e9:.2f} GB per task; "
          f"peak CuPy pool per worker {peak / 1e9:.2f} GB ({peak / allowed:.2f} x allowed_mem); "
          f"peak host memory of a task {peak_host.peak / 1e9:.2f} GB; "
          f"{out['workers']} worker(s); results exact")
    if not args.keep:
        shutil.rmtree(data_dir, ignore_errors=True)


if __name__ == "__main__":
    main()
