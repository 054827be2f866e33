"""An element-wise pipeline with cubed on xpgpu: y = sqrt(|sin(x) * 2 + cos(x)**2|) * exp(-x)
over a random matrix, written to Zarr on local disk (each chunk leaves the device through an
explicit host copy), then read back to check.

    python examples/cubed_pipeline.py --size 2000 --check                  # CPU, checked
    python examples/cubed_pipeline.py --device cuda:0 --size 40000         # one GPU
    python examples/cubed_pipeline.py --executor dask-cuda --size 40000    # one worker per GPU
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

import cubed_common as common
import numpy as np


def pipeline(xp, x):  # the same code for cubed (any backend) and NumPy
    return xp.sqrt(xp.abs(xp.sin(x) * 2 + xp.cos(x) ** 2)) * xp.exp(-x)


def main() -> None:
    run = common.Example(__doc__, size=2000)
    import zarr

    x = run.random()
    y = pipeline(run.xp, x)
    out = Path(run.args.work_dir or tempfile.mkdtemp(prefix="cubed-out-")) / "y.zarr"
    with common.executor(run.args) as ex:  # the computation is the write to Zarr
        start = time.perf_counter()
        run.cubed.to_zarr(y, str(out), executor=ex)
        seconds = time.perf_counter() - start
        written = zarr.open_array(str(out), mode="r")
        common.report("pipeline", run.args, seconds, 2 * 4 * run.n**2, [written[::97, :]])
        if run.check:
            (host,), _ = common.compute(run.cubed, [x], ex)
    if run.check:
        np.testing.assert_allclose(np.asarray(written[...]), pipeline(np, host), rtol=1e-6)
        print("check: equal to NumPy")


if __name__ == "__main__":
    main()
