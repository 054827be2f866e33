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
    run = common.Example(__doc__, size=2000)
    xp, n = run.xp, run.n
    x = run.random()
    outputs = [xp.mean(x * x, axis=0), xp.max(x), xp.sum(x, axis=1)]
    (mean, top, sums), inputs, _ = run.compute("reduction", 4 * n * n, outputs, [x])
    if run.check:
        (host,) = inputs
        np.testing.assert_allclose(mean, np.mean(host * host, axis=0), rtol=1e-5)
        assert top == host.max()
        np.testing.assert_allclose(sums, np.sum(host, axis=1), rtol=1e-4)
        print("check: equal to NumPy")


if __name__ == "__main__":
    main()
