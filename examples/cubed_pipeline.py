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
    args = common.parser(__doc__.splitlines()[0], size=2000).parse_args()
    common.setup(args)  # before importing cubed: it reads its backend at import
    import cubed
    import cubed.array_api as xp
    import cubed.random
    import zarr

    spec = common.spec(cubed, args)
    n = args.size
    x = cubed.random.random((n, n), dtype=xp.float32, chunks=args.chunk or "auto", spec=spec)
    out = Path(args.work_dir or tempfile.mkdtemp(prefix="cubed-out-")) / "y.zarr"
    y = pipeline(xp, x)
    with common.executor(args) as ex:
        start = time.perf_counter()
        cubed.to_zarr(y, str(out), executor=ex)
        seconds = time.perf_counter() - start
        written = zarr.open_array(str(out), mode="r")
        common.report("pipeline", args, seconds, 2 * 4 * n * n, [written[::97, :]])
        if args.check:
            (host,), _ = common.compute(cubed, [x], ex)
    if args.check:
        np.testing.assert_allclose(np.asarray(written[...]), pipeline(np, host), rtol=1e-6)
        print("check: equal to NumPy")


if __name__ == "__main__":
    main()
