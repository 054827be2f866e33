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
    args = common.parser(__doc__.splitlines()[0], size=1500).parse_args()
    common.setup(args)  # before importing cubed: it reads its backend at import
    import cubed
    import cubed.array_api as xp
    import cubed.random

    spec = common.spec(cubed, args)
    n = args.size
    chunks = args.chunk or "auto"
    a = cubed.random.random((n, n), dtype=xp.float32, chunks=chunks, spec=spec)
    b = cubed.random.random((n, n), dtype=xp.float32, chunks=chunks, spec=spec)
    rows = xp.sum(xp.matmul(a, b), axis=1)
    with common.executor(args) as ex:
        values, seconds = common.compute(cubed, [rows, a, b] if args.check else [rows], ex)
    # throughput: 2 n^3 flops, reported as GB/s of the inputs for one table
    common.report("matmul", args, seconds, 2 * 4 * n * n, values[:1])
    print(f"GFLOP/s: {2 * n**3 / seconds / 1e9:.1f}")
    if args.check:
        expected = (values[1].astype(np.float64) @ values[2].astype(np.float64)).sum(axis=1)
        np.testing.assert_allclose(values[0], expected, rtol=1e-4)
        print("check: equal to NumPy (float64 product, float32 tolerance)")


if __name__ == "__main__":
    main()
