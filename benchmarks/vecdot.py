"""xpgpu.vecdot of broadcast inputs against the equivalent backend matmul.

    python benchmarks/vecdot.py [--device cpu|cuda:0] [--size large|small] [--strict]

``vecdot`` of (4096, 1, 256) and (1, 4096, 256) float32 broadcasts to 4096 x 4096 vectors
of 256: 16 GiB if materialised, which is what a multiply-then-sum spelling does
(array-api-compat's is ~290x slower than matmul on a GPU). xpgpu maps it onto one matrix
product of views; the backend row is that product written by hand,
``a[:, 0, :] @ b[0].T``. A second row does the same for a stack of vector pairs,
(64, 512, 256) . (64, 512, 256), against ``a[..., None, :] @ b[..., :, None]``.

Best of 5 repeats, each ending with a synchronisation of the device on CUDA. The target
on a GPU is at most 1.5x the backend's time. ``--size small`` shrinks the shapes (for a
quick run on the CPU). The exit status is 0 whatever the ratios, unless ``--strict``.
"""

from __future__ import annotations

import argparse
import sys
import timeit
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout

import xpgpu as xp
from xpgpu import _devices

TARGET = {"cuda": 1.5, "cpu": 1.5}
SIZES = {  # name -> (m, n, k, batch): outer (m,1,k).(1,n,k); stacked (batch,m,k).(batch,m,k)
    "large": (4096, 4096, 256, 64),
    "small": (512, 512, 64, 8),
}
REPEAT = 5


def _best(funcs: list[Callable[[], Any]], sync: Callable[[], None]) -> list[float]:
    """Seconds per call of each function: best of REPEAT timings of enough calls to last
    ~0.2 s, the functions' repeats interleaved so that a change of load hits all alike."""
    runs = []
    for func in funcs:
        def run(func: Callable[[], Any] = func) -> None:
            func()
            sync()

        run()  # warm up (plans, kernels, caches)
        number = 1
        while timeit.timeit(run, number=number) < 0.2 and number < 1 << 16:
            number *= 2
        runs.append((run, number))
    best = [float("inf")] * len(funcs)
    for _ in range(REPEAT):
        for i, (run, number) in enumerate(runs):
            best[i] = min(best[i], timeit.timeit(run, number=number) / number)
    return best


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--device", help="cpu or cuda:N (default: the default device)")
    parser.add_argument("--size", choices=sorted(SIZES), default="large")
    parser.add_argument("--strict", action="store_true", help="exit 1 when over target")
    args = parser.parse_args(argv)
    device = _devices.lookup(args.device) if args.device else _devices.default_device()
    if device is None:
        parser.error(f"no device {args.device!r}")
    backend = device.backend
    sync = getattr(backend.adapter, "synchronize", lambda: None)
    m, n, k, batch = SIZES[args.size]
    rng = np.random.default_rng(0)

    def arr(*shape: int) -> Any:
        return xp.asarray(rng.standard_normal(shape, dtype=np.float32), device=device)

    a, b = arr(m, 1, k), arr(1, n, k)
    c, d = arr(batch, m, k), arr(batch, m, k)
    cases = {
        f"vecdot ({m},1,{k}).(1,{n},{k})": (
            lambda: xp.vecdot(a, b),
            lambda: backend.matmul(a._data[:, 0, :], b._data[0].T)),
        f"vecdot ({batch},{m},{k}).({batch},{m},{k})": (
            lambda: xp.vecdot(c, d),
            lambda: backend.matmul(c._data[..., None, :], d._data[..., :, None])),
    }
    # the results agree
    for ours, theirs in cases.values():
        got = np.asarray(ours().to_device("cpu"))
        ref = backend.adapter.to_host(theirs()) if device.kind != "cpu" else theirs()
        np.testing.assert_allclose(got, np.reshape(ref, got.shape), rtol=1e-3, atol=1e-2)

    target = TARGET[device.kind]
    print(f"xpgpu {xp.__version__} on {device} ({backend.name}), float32, size {args.size}")
    print(f"{'case':<36} {'xpgpu ms':>10} {backend.name + ' ms':>10} {'ratio':>7}  target")
    over = False
    for name, (ours, theirs) in cases.items():
        t_ours, t_theirs = _best([ours, theirs], sync)
        ratio = t_ours / t_theirs
        over |= ratio > target
        print(f"{name:<36} {t_ours * 1e3:>10.3f} {t_theirs * 1e3:>10.3f} {ratio:>6.2f}x  "
              f"<= {target}x {'ok' if ratio <= target else 'OVER'}")
    return 1 if over and args.strict else 0


if __name__ == "__main__":
    sys.exit(main())
