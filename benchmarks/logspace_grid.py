"""logspace with integer dtypes: mismatches against NumPy and the exact answer, per device.

    python benchmarks/logspace_grid.py

The grid: bases 2..10, integer and non-integer exponent ranges, the eight integer dtypes
(combinations with values out of the dtype's range are left out: xpgpu refuses them).
The exact answer is trunc of the correctly rounded float64 power of NumPy's linspace
exponents (fractions / decimal), from the tests' oracle (tests/logspace_oracle.py). Rows:
NumPy itself, xpgpu on each device, the CUDA kernel's algorithm emulated on the CPU with a
pow moved k ulp (CUDA's pow is up to 2 ulp off), and the naive truncation of such a pow
(CuPy's logspace), plus CuPy itself where there is a GPU.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))  # the tests' oracle

from logspace_oracle import GRID, INT_DTYPES, int_oracle

import xpgpu as xp
from xpgpu import _devices
from xpgpu._backend import _numpy_logspace as L


def moved(k: int):
    def pow(a, y):
        r = np.power(a, y)
        for _ in range(abs(k)):
            r = np.nextafter(r, np.inf if k > 0 else -np.inf)
        return r
    return pow


def main() -> int:
    cases = []  # (base, range, dtype, exact values, NumPy's values)
    for base, rng in GRID:
        for dtype in INT_DTYPES:
            want = int_oracle((base, rng), dtype)  # None: out of the dtype's range
            if want is not None:
                start, stop, num, endpoint = rng
                npv = np.logspace(start, stop, num, endpoint, base, dtype=dtype)
                cases.append((base, rng, dtype, want, npv))
    elements = sum(c[3].size for c in cases)
    print(f"grid: {len(GRID)} (base, range) pairs x {len(INT_DTYPES)} integer dtypes -> "
          f"{len(cases)} cases in range, {elements} elements")

    rows: list[tuple[str, object]] = [("numpy.logspace", lambda c: c[4])]
    devices = ["cpu"] + [str(d) for d in _devices.cuda_devices()]
    for dev in devices:
        rows.append((f"xpgpu.logspace on {dev}", lambda c, dev=dev: np.asarray(
            xp.logspace(c[1][0], c[1][1], c[1][2], endpoint=c[1][3], base=c[0],
                        dtype=getattr(xp, c[2]), device=dev).to_device("cpu"))))
    for k in (-2, -1, 1, 2):
        rows.append((f"kernel emulated, pow {k:+d} ulp", lambda c, k=k: L.emulate(
            c[1][0], c[1][1], c[1][2], c[1][3], c[0], c[2], moved(k))))
    for k in (-1, 1):
        rows.append((f"trunc(pow {k:+d} ulp) (naive)", lambda c, k=k: np.trunc(
            moved(k)(np.float64(c[0]), np.linspace(*c[1]))).astype(c[2])))
    if len(devices) > 1:
        import cupy  # benchmarks may name the backends

        rows.append(("cupy.logspace", lambda c: cupy.asnumpy(cupy.logspace(
            c[1][0], c[1][1], c[1][2], c[1][3], c[0], dtype=c[2]))))

    print(f"\n{'implementation':34} {'vs exact':>9} {'vs NumPy':>9} {'cases off':>10} {'s':>6}")
    for name, func in rows:
        off_exact = off_numpy = cases_off = 0
        t = time.perf_counter()
        with np.errstate(all="ignore"):
            for c in cases:
                got = func(c)
                off_exact += int((got != c[3]).sum())
                off_numpy += int((got != c[4]).sum())
                cases_off += bool((got != c[3]).any())
        print(f"{name:34} {off_exact:9d} {off_numpy:9d} {cases_off:10d} "
              f"{time.perf_counter() - t:6.2f}")
    npoff = [(c[0], c[1], c[2]) for c in cases if (c[4] != c[3]).any()]
    if npoff:
        print(f"\nNumPy differs from the exact answer in {len(npoff)} cases (its power is "
              "not correctly rounded there, e.g. SVML on AVX-512):")
        for base, rng, dtype in npoff[:8]:
            print(f"  base {base}, linspace{rng[:3]} endpoint={rng[3]}, {dtype}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
