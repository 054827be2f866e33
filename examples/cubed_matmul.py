"""A matrix product with cubed on xpgpu: c = a @ b for random square float32 matrices, chunk by
chunk (cubed's blockwise products and a tree sum), returned as the row sums of c.

    python examples/cubed_matmul.py --size 1500 --check                 # CPU, checked with NumPy
    python examples/cubed_matmul.py --device cuda:0 --size 30000        # one GPU
    python examples/cubed_matmul.py --executor dask-cuda --size 30000   # one worker per GPU
"""

from __future__ import annotations

import cubed_common as common
import numpy as np


def main() -> None:
    run = common.Example(__doc__, size=1500)
    xp, n = run.xp, run.n
    a, b = run.random(), run.random()
    rows = xp.sum(xp.matmul(a, b), axis=1)
    # throughput: 2 n^3 flops, reported as GB/s of the inputs for one table
    (value,), inputs, seconds = run.compute("matmul", 2 * 4 * n * n, [rows], [a, b])
    print(f"GFLOP/s: {2 * n**3 / seconds / 1e9:.1f}")
    if run.check:
        host_a, host_b = (h.astype(np.float64) for h in inputs)
        np.testing.assert_allclose(value, (host_a @ host_b).sum(axis=1), rtol=1e-4)
        print("check: equal to NumPy (float64 product, float32 tolerance)")


if __name__ == "__main__":
    main()
