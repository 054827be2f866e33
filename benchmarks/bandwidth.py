"""Memory bandwidth of element-wise functions and reductions: xpgpu vs CuPy vs PyTorch.

    python benchmarks/bandwidth.py --device cuda:0 [--log2n 20 24 26 28] [--csv out.csv]

Side by side in one run, on the same device buffers (shared through DLPack): each
function's throughput in GB/s (the bytes it must move, each input read once and the
output written once, over the median time of one call, timed with CUDA events around
``--calls`` back-to-back calls, so launch and Python costs count as they do in a loop: by
default at least 16, a few milliseconds of the GPU's time from 2**24 elements, as the
suite's rounds; the libraries' rounds alternate, each round in a rotated order, since the
GPU's clock drops under a sustained float64 load),
against a device-to-device copy measured in the same run and a hand-written float4 add
kernel (the bandwidth an element-wise kernel can reach). The last table prints xpgpu's
ratios to PyTorch and to CuPy; ``--csv`` writes every figure.

xpgpu's element-wise kernels are its own for contiguous operands of any size (of at
least 2**16 elements without the compiled launch module; xpgpu/_backend/_cupy_kernels.py;
the group "table" times every element-wise function of xpgpu's table), and so are its
reductions over trailing axes (sum, prod, max, min, mean, var, std of real floating
arrays; any and all: xpgpu/_backend/_cupy_reductions.py), argmax and argmin
(_cupy_search.py) and cumulative_sum along the last axis (_cupy_scan.py), of any size
except several rows of floats below 2**16 elements;
``--cupy-path`` turns them all off, so xpgpu runs CuPy's kernels as before. The column
"on cupy" is xpgpu with them off, in the same run.
"""

from __future__ import annotations

import argparse
import csv
import statistics
import sys
from collections.abc import Callable
from typing import Any

import numpy as np

import xpgpu as xp
from xpgpu import _devices

ADD4 = r"""
extern "C" __global__ void add4(const float4 *__restrict__ a, const float4 *__restrict__ b,
                                float4 *__restrict__ c, long long n4) {
    long long i = (long long)blockIdx.x * blockDim.x * 4 + threadIdx.x;
    float4 x[4], y[4];
    #pragma unroll
    for (int u = 0; u < 4; ++u) {
        long long j = i + (long long)u * blockDim.x;
        if (j < n4) { x[u] = a[j]; y[u] = b[j]; }
    }
    #pragma unroll
    for (int u = 0; u < 4; ++u) {
        long long j = i + (long long)u * blockDim.x;
        if (j < n4) {
            c[j] = make_float4(x[u].x + y[u].x, x[u].y + y[u].y, x[u].z + y[u].z, x[u].w + y[u].w);
        }
    }
}
"""


def timer(calls: int, repeat: int) -> Callable[[dict[str, Callable[[], Any]]], dict[str, float]]:
    """Median seconds per call of each library's function; the libraries' rounds alternate
    (a round of each in turn, the order rotated a place each time, so that no library
    always follows the same one), so the GPU's clock, which drops under a sustained float64
    load, weighs on each alike. A library whose function raises gets NaN."""
    import cupy

    def run(fns: dict[str, Callable[[], Any]]) -> dict[str, float]:
        live = {}
        for lib, fn in fns.items():
            try:
                fn()
                live[lib] = fn
            except Exception as e:  # a library lacking a case
                print(f"  {lib}: {type(e).__name__}: {e}", file=sys.stderr)
        cupy.cuda.get_current_stream().synchronize()
        times: dict[str, list[float]] = {lib: [] for lib in live}
        libs = list(live)
        for r in range(repeat):
            for lib in libs[r % len(libs):] + libs[:r % len(libs)]:
                fn = live[lib]
                start, stop = cupy.cuda.Event(), cupy.cuda.Event()
                start.record()
                for _ in range(calls):
                    fn()
                stop.record()
                stop.synchronize()
                times[lib].append(cupy.cuda.get_elapsed_time(start, stop) / 1e3 / calls)
        return {lib: statistics.median(times[lib]) if lib in times else float("nan")
                for lib in fns}

    return run


def cases(n: int, dtype: str, device: Any) -> list[tuple[str, str, int, dict[str, Any]]]:
    """(group, name, bytes moved, {library: function}) for one size and dtype."""
    import cupy
    import torch

    rng = np.random.default_rng(0)
    size = np.dtype(dtype).itemsize
    a = xp.asarray(rng.standard_normal(n).astype(dtype), device=device)
    b = xp.asarray(rng.standard_normal(n).astype(dtype), device=device)
    c = a > 0
    ca, cb, cc = (cupy.from_dlpack(t) for t in (a, b, c))
    ta, tb, tc = (torch.from_dlpack(t) for t in (a, b, c))
    rows = 1024
    a2, ca2, ta2 = xp.reshape(a, (n // rows, rows)), ca.reshape(n // rows, rows), \
        ta.reshape(n // rows, rows)
    other = "float64" if dtype == "float32" else "float32"
    osize = np.dtype(other).itemsize
    tother = getattr(torch, other)
    out = [
        ("binary", "add(a, b)", 3 * size * n,
         {"xpgpu": lambda: a + b, "cupy": lambda: ca + cb, "torch": lambda: ta + tb}),
        ("binary", "multiply(a, b)", 3 * size * n,
         {"xpgpu": lambda: a * b, "cupy": lambda: ca * cb, "torch": lambda: ta * tb}),
        ("scalar", "a * 2", 2 * size * n,
         {"xpgpu": lambda: a * 2, "cupy": lambda: ca * 2, "torch": lambda: ta * 2}),
        ("compare", "a > b", (2 * size + 1) * n,
         {"xpgpu": lambda: a > b, "cupy": lambda: ca > cb, "torch": lambda: ta > tb}),
        ("unary", "sin(a)", 2 * size * n,
         {"xpgpu": lambda: xp.sin(a), "cupy": lambda: cupy.sin(ca),
          "torch": lambda: torch.sin(ta)}),
        ("unary", "exp(a)", 2 * size * n,
         {"xpgpu": lambda: xp.exp(a), "cupy": lambda: cupy.exp(ca),
          "torch": lambda: torch.exp(ta)}),
        ("unary", "sqrt(abs(a)) [2 calls]", 4 * size * n,
         {"xpgpu": lambda: xp.sqrt(xp.abs(a)), "cupy": lambda: cupy.sqrt(cupy.abs(ca)),
          "torch": lambda: torch.sqrt(torch.abs(ta))}),
        ("where", "where(c, a, b)", (3 * size + 1) * n,
         {"xpgpu": lambda: xp.where(c, a, b), "cupy": lambda: cupy.where(cc, ca, cb),
          "torch": lambda: torch.where(tc, ta, tb)}),
        ("clip", "clip(a, -1, 1)", 2 * size * n,
         {"xpgpu": lambda: xp.clip(a, -1, 1), "cupy": lambda: cupy.clip(ca, -1, 1),
          "torch": lambda: torch.clamp(ta, -1, 1)}),
        ("astype", f"astype({other})", (size + osize) * n,
         {"xpgpu": lambda: xp.astype(a, getattr(xp, other)), "cupy": lambda: ca.astype(other),
          "torch": lambda: ta.to(tother)}),
    ]
    red = [
        ("sum", xp.sum, cupy.sum, torch.sum),
        ("prod", xp.prod, cupy.prod, torch.prod),
        ("max", xp.max, cupy.max, torch.amax),
        ("min", xp.min, cupy.min, torch.amin),
        ("mean", xp.mean, cupy.mean, torch.mean),
        ("var", xp.var, cupy.var, lambda t, dim=None: torch.var(t, dim=dim, correction=0)),
        ("std", xp.std, cupy.std, lambda t, dim=None: torch.std(t, dim=dim, correction=0)),
        ("argmax", xp.argmax, cupy.argmax, torch.argmax),
        ("argmin", xp.argmin, cupy.argmin, torch.argmin),
    ]
    for name, fx, fc, ft in red:
        out.append(("reduce", f"{name}(a)", size * n,
                    {"xpgpu": lambda fx=fx: fx(a), "cupy": lambda fc=fc: fc(ca),
                     "torch": lambda ft=ft: ft(ta)}))
        out.append(("reduce-1", f"{name}(a2, axis=-1)", size * n,
                    {"xpgpu": lambda fx=fx: fx(a2, axis=-1), "cupy": lambda fc=fc: fc(ca2, axis=-1),
                     "torch": lambda ft=ft: ft(ta2, dim=-1)}))
    c2, cc2, tc2 = xp.reshape(c, (n // rows, rows)), cc.reshape(n // rows, rows), \
        tc.reshape(n // rows, rows)
    for name, fx, fc, ft in (("any", xp.any, cupy.any, torch.any),
                             ("all", xp.all, cupy.all, torch.all)):
        out.append(("reduce", f"{name}(c)", n, {"xpgpu": lambda fx=fx: fx(c),
                                                "cupy": lambda fc=fc: fc(cc),
                                                "torch": lambda ft=ft: ft(tc)}))
        out.append(("reduce-1", f"{name}(c2, axis=-1)", n,
                    {"xpgpu": lambda fx=fx: fx(c2, axis=-1), "cupy": lambda fc=fc: fc(cc2, axis=-1),
                     "torch": lambda ft=ft: ft(tc2, dim=-1)}))
    out += table_cases(n, dtype, device)
    out.append(("scan", "cumulative_sum(a)", 2 * size * n,
                {"xpgpu": lambda: xp.cumulative_sum(a), "cupy": lambda: cupy.cumsum(ca),
                 "torch": lambda: torch.cumsum(ta, dim=0)}))
    out.append(("scan", "cumulative_sum(a2, axis=-1)", 2 * size * n,
                {"xpgpu": lambda: xp.cumulative_sum(a2, axis=-1),
                 "cupy": lambda: cupy.cumsum(ca2, axis=-1),
                 "torch": lambda: torch.cumsum(ta2, dim=-1)}))
    return out


# The table's functions whose PyTorch name differs; a real array's conj, real and positive
# are views or the array itself in PyTorch (nothing to time).
_TORCH_NAMES = {"equal": "eq"}
_SKIP = {"conj", "real", "positive"}


def table_cases(n: int, dtype: str, device: Any) -> list[tuple[str, str, int, dict[str, Any]]]:
    """Group "table": every element-wise function of xpgpu's table that takes ``dtype``, on
    values in its domain (uniform in [0.1, 0.9); acosh: [1.1, 1.9])."""
    import cupy
    import torch

    from xpgpu._elementwise import TABLE

    rng = np.random.default_rng(1)
    size = np.dtype(dtype).itemsize
    u = [xp.asarray(rng.uniform(lo, lo + 0.8, n).astype(dtype), device=device)
         for lo in (0.1, 0.1, 1.1)]
    out = []
    for name, nargs, category, _ in TABLE:
        if name in _SKIP or category not in _REAL_FLOATING:
            continue
        args = [u[2]] if name == "acosh" else u[:nargs]
        fx = getattr(xp, name)
        nbytes = (nargs * size + cupy.from_dlpack(fx(*args)).itemsize) * n
        fc = getattr(cupy, name, None)
        ft = getattr(torch, _TORCH_NAMES.get(name, name))
        ca = [cupy.from_dlpack(t) for t in args]
        ta = [torch.from_dlpack(t) for t in args]
        out.append(("table", f"{name}", nbytes,
                    {"xpgpu": lambda fx=fx, args=args: fx(*args),
                     "cupy": (lambda fc=fc, ca=ca: fc(*ca)) if fc is not None else _missing,
                     "torch": lambda ft=ft, ta=ta: ft(*ta)}))
    return out


def _missing() -> None:
    raise NotImplementedError("no such function")


# The table's categories that take real floating-point arrays.
_REAL_FLOATING = {"numeric", "floating-point", "real floating-point", "real numeric", "all"}


def references(n: int, dtype: str,
               run: Callable[[dict[str, Callable[[], Any]]], dict[str, float]]) -> dict[str, float]:
    """GB/s of a device copy (cudaMemcpy, read + write) and of the float4 add kernel."""
    import cupy

    size = np.dtype(dtype).itemsize
    src = cupy.ones(n, dtype)
    dst = cupy.empty_like(src)
    t = run({"copy": lambda: dst.data.copy_from_device(src.data, size * n)})["copy"]
    out = {"copy": 2 * size * n / t / 1e9}
    if dtype == "float32" and n % 4 == 0:
        kern = cupy.RawKernel(ADD4, "add4")
        b, c = cupy.ones(n, dtype), cupy.empty(n, dtype)
        blocks = (n // 4 + 1023) // 1024
        args = (src, b, c, np.int64(n // 4))
        t = run({"add": lambda: kern((blocks,), (256,), args)})["add"]
        out["float4 add"] = 3 * size * n / t / 1e9
    return out


def percall(device: Any, cupy_path: Callable[..., Any]) -> None:
    """µs per call on the host clock (many calls, one synchronisation): what a loop of
    calls costs where launching, not the GPU, is the limit."""
    import time

    import cupy
    import torch

    for log2n in (10, 16, 18, 20, 22):
        a = xp.asarray(np.ones(1 << log2n, np.float32), device=device)
        ca, ta = cupy.from_dlpack(a), torch.from_dlpack(a)
        fns = {"xpgpu a+b": lambda: a + a, "xpgpu-cupy a+b": cupy_path(lambda: a + a),
               "cupy a+b": lambda: ca + ca, "torch a+b": lambda: ta + ta,
               "xpgpu sin": lambda: xp.sin(a), "cupy sin": lambda: cupy.sin(ca),
               "cupy.empty": lambda: cupy.empty(ca.shape, ca.dtype)}
        line = []
        for name, fn in fns.items():
            best = float("inf")
            for _ in range(5):
                fn()
                cupy.cuda.get_current_stream().synchronize()
                t = time.perf_counter()
                for _ in range(1000):
                    fn()
                cupy.cuda.get_current_stream().synchronize()
                best = min(best, (time.perf_counter() - t) / 1000 * 1e6)
            line.append(f"{name} {best:.2f}")
        print(f"# per call, 2^{log2n} float32, µs: " + ", ".join(line), flush=True)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--device", default="cuda:0")
    p.add_argument("--log2n", type=int, nargs="+", default=[20, 24, 26, 28])
    p.add_argument("--dtypes", nargs="+", default=["float32", "float64"],
                   choices=["float32", "float64"])
    p.add_argument("--calls", type=int, default=0, help="calls per timing (default: by size)")
    p.add_argument("--repeat", type=int, default=7)
    p.add_argument("--only", default="", help="run the cases whose name contains this")
    p.add_argument("--groups", nargs="+", default=[],
                   help="run these groups only (binary scalar compare unary where clip astype "
                        "table reduce reduce-1 scan; table: every element-wise function)")
    p.add_argument("--cupy-path", action="store_true", help="xpgpu without its own kernels")
    p.add_argument("--percall", action="store_true",
                   help="also print µs per call of small and mid-size calls (host clock)")
    p.add_argument("--csv", default="")
    args = p.parse_args()
    device = _devices.lookup(args.device)
    if device is None or device.kind != "cuda":  # nox -s bench on a CPU machine
        print(f"bandwidth.py: no CUDA device {args.device!r}; skipped (CUDA only)")
        return
    from xpgpu._backend import _cupy_kernels, _cupy_reductions, _cupy_scan, _cupy_search

    # The size thresholds from which xpgpu takes its own kernels: 2**62 turns one off.
    switches = [(_cupy_kernels, "THRESHOLD"), (_cupy_kernels, "ASTYPE_THRESHOLD"),
                (_cupy_reductions, "MIN_SIZE"), (_cupy_search, "MIN_SIZE"),
                (_cupy_scan, "MIN_SIZE")]
    own = [getattr(m, name) for m, name in switches]
    if args.cupy_path:
        for m, name in switches:
            setattr(m, name, 1 << 62)
        own = [1 << 62] * len(switches)

    def cupy_path(fn: Callable[[], Any]) -> Callable[[], Any]:
        """``fn`` with xpgpu's own kernels off: xpgpu on CuPy's kernels, as before."""
        def run() -> Any:
            for m, name in switches:
                setattr(m, name, 1 << 62)
            try:
                return fn()
            finally:
                for (m, name), t in zip(switches, own, strict=True):
                    setattr(m, name, t)
        return run

    if args.percall:
        percall(device, cupy_path)
    results = []
    for log2n in args.log2n:
        n = 1 << log2n
        # Note: 16 calls or more. A timing starts on an idle GPU, so the first call's launch
        # counts whole: with 4 calls of 2**26 float32 elements (about 0.5 ms), that is 1-2%
        # of the time, and the ratios of two runs differed by as much (measured on an H200).
        calls = args.calls or max(16, min(400, (1 << 28) // n))
        run = timer(calls, args.repeat)
        for dtype in args.dtypes:
            ref = references(n, dtype, run)
            print(f"# 2^{log2n} {dtype}: " + ", ".join(f"{k} {v:.0f} GB/s" for k, v in ref.items()),
                  flush=True)
            for k, v in ref.items():
                results.append({"log2n": log2n, "dtype": dtype, "group": "reference",
                                "case": k, "xpgpu": v, "cupy": v, "torch": v,
                                "xpgpu-cupy": v})
            for group, name, nbytes, fns in cases(n, dtype, device):
                if (args.only and args.only not in name) or (args.groups
                                                              and group not in args.groups):
                    continue
                fns["xpgpu-cupy"] = cupy_path(fns["xpgpu"])
                row: dict[str, Any] = dict(log2n=log2n, dtype=dtype, group=group, case=name)
                row.update({lib: nbytes / t / 1e9 for lib, t in run(fns).items()})
                results.append(row)
                x, c, t, xc = row["xpgpu"], row["cupy"], row["torch"], row["xpgpu-cupy"]
                print(f"2^{log2n:<3} {dtype:8} {name:28} xpgpu {x:5.0f} (on cupy {xc:5.0f})  "
                      f"cupy {c:5.0f}  torch {t:5.0f} GB/s  x/torch {x / t:5.2f}  "
                      f"x/cupy {x / c:5.2f}  own/before {x / xc:5.2f}", flush=True)
    if args.csv:
        with open(args.csv, "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=list(results[-1]))
            w.writeheader()
            w.writerows(results)


if __name__ == "__main__":
    main()
