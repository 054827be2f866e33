"""A reduction with cubed on xpgpu: the mean of x**2 down the columns and the maximum of a
random square matrix, computed chunk by chunk in bounded memory.

    python examples/cubed_reduction.py --size 2000 --check               # CPU, checked with NumPy
    python examples/cubed_reduction.py --device cuda:0 --size 40000      # one GPU
    python examples/cubed_reduction.py --executor dask-cuda --size 40000  # one worker per GPU
    python examples/cubed_reduction.py --backend numpy --executor processes --size 40000
"""

from __future__ import annotations

import cubed_common as common
import numpy as np


def main() -> None:
    args = common.parser(__doc__.splitlines()[0], size=2000).parse_args()
    common.setup(args)  # before importing cubed: it reads its backend at import
    import cubed
    import cubed.array_api as xp
    import cubed.random

    spec = common.spec(cubed, args)
    n = args.size
    chunks = args.chunk or "auto"
    x = cubed.random.random((n, n), dtype=xp.float32, chunks=chunks, spec=spec)
    outputs = [xp.mean(x * x, axis=0), xp.max(x), xp.sum(x, axis=1)]
    with common.executor(args) as ex:
        values, seconds = common.compute(cubed, outputs if not args.check else [*outputs, x], ex)
    common.report("reduction", args, seconds, 4 * n * n, values[:3])
    if args.check:
        host = values[3]
        np.testing.assert_allclose(values[0], np.mean(host * host, axis=0), rtol=1e-5)
        assert values[1] == host.max()
        np.testing.assert_allclose(values[2], np.sum(host, axis=1), rtol=1e-4)
        print("check: equal to NumPy")


if __name__ == "__main__":
    main()
