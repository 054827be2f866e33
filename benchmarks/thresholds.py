"""Where xpgpu's own CUDA kernels start to pay: per-call time below their size thresholds.

    python benchmarks/thresholds.py --device cuda:0 [--sizes 1000 16384 65536]

xpgpu runs its own element-wise kernels (xpgpu/_backend/_cupy_kernels.py) from
``THRESHOLD`` elements and CuPy's below, and its reductions and scans of several rows of
floats (_cupy_reductions.py, _cupy_scan.py) likewise. This script
times each function, side by side in one run (rounds interleaved, medians, each round
ending with a stream synchronisation), through CuPy itself, through xpgpu as configured,
and, in a second run beside CuPy again, through xpgpu with every threshold at 1 (its own
kernels at every size); it prints the ratios to CuPy: the evidence for each threshold.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout

from suite import timed

import xpgpu as xp
from xpgpu import _devices


def _modules() -> list[tuple[Any, str]]:
    from xpgpu._backend import _cupy_kernels, _cupy_reductions, _cupy_scan

    return [(_cupy_kernels, "THRESHOLD"), (_cupy_reductions, "THRESHOLD"),
            (_cupy_scan, "THRESHOLD")]


def _set(modules: list[tuple[Any, str]], values: list[int]) -> None:
    for (m, name), value in zip(modules, values, strict=True):
        setattr(m, name, value)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--device", default="cuda:0")
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 16384])
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--seconds", type=float, default=0.05)
    args = parser.parse_args()
    device = _devices.lookup(args.device)
    if device is None or device.kind != "cuda":  # nox -s bench on a CPU machine
        print(f"thresholds.py: no CUDA device {args.device!r}; skipped (CUDA only)")
        return
    import cupy

    modules = _modules()
    saved = [getattr(m, name) for m, name in modules]
    sync = cupy.cuda.get_current_stream().synchronize
    rng = np.random.default_rng(0)
    print("| op | n | CuPy µs | xpgpu µs | own kernels µs | xpgpu / CuPy | own / CuPy |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for n in args.sizes:
        host = rng.standard_normal(n).astype(np.float32)
        a, b = cupy.asarray(host), cupy.asarray(host[::-1].copy())
        m = a > 0
        xa, xb, xm = (xp.asarray(v, device=device) for v in (host, host[::-1].copy(), host > 0))
        ops = {
            "add(a, b)": (lambda: cupy.add(a, b), lambda: xp.add(xa, xb)),
            "a * 2": (lambda: a * 2, lambda: xa * 2),
            "sin(a)": (lambda: cupy.sin(a), lambda: xp.sin(xa)),
            "where(m, a, b)": (lambda: cupy.where(m, a, b), lambda: xp.where(xm, xa, xb)),
            "where(m, a, 0.0)": (lambda: cupy.where(m, a, 0.0),
                                 lambda: xp.where(xm, xa, 0.0)),
            "clip(a, -0.5, 0.5)": (lambda: cupy.clip(a, -0.5, 0.5),
                                   lambda: xp.clip(xa, min=-0.5, max=0.5)),
            "astype(a, float64)": (lambda: a.astype(cupy.float64),
                                   lambda: xp.astype(xa, xp.float64)),
            "sum(a)": (lambda: cupy.sum(a), lambda: xp.sum(xa)),
            "mean(a)": (lambda: cupy.mean(a), lambda: xp.mean(xa)),
            "max(a)": (lambda: cupy.max(a), lambda: xp.max(xa)),
            "var(a)": (lambda: cupy.var(a), lambda: xp.var(xa)),
            "argmax(a)": (lambda: cupy.argmax(a), lambda: xp.argmax(xa)),
            "any(m)": (lambda: cupy.any(m), lambda: xp.any(xm)),
            "cumulative_sum(a)": (lambda: cupy.cumsum(a), lambda: xp.cumulative_sum(xa)),
        }
        for op, (raw, ours) in ops.items():
            t = timed({"cupy": raw, "xpgpu": ours}, sync, args.rounds, args.seconds)
            _set(modules, [1] * len(modules))  # own kernels at every size, CuPy alongside
            try:
                f = timed({"cupy": raw, "own": ours}, sync, args.rounds, args.seconds)
            finally:
                _set(modules, saved)
            print(f"| `{op}` | {n} | {t['cupy']:.2f} | {t['xpgpu']:.2f} | {f['own']:.2f} "
                  f"| {t['xpgpu'] / t['cupy']:.2f} | {f['own'] / f['cupy']:.2f} |", flush=True)

if __name__ == "__main__":
    main()
