"""Per-call overhead of xpgpu over its backend (NumPy on the CPU, CuPy on CUDA).

    python benchmarks/overhead.py [--device cpu|cuda:0] [--large] [--strict]

Times small float32 operations (16 elements) through xpgpu in both profiles (strict and
permissive, ``xpgpu.set_strict(False)``, selected between timings), through the raw
backend and, on the CPU, through array_api_strict when it is installed: best of 25 repeats
(timeit), in µs per call, all in one run; the targets hold for both profiles. On CUDA
each repeat ends with a synchronisation of the stream, so the time counts the kernels'
work, not only their launch. ``--large`` adds a bandwidth
row: a 1 GiB float32 add on CUDA, a 64 MiB one on the CPU.

The targets printed next to the measurements are the project's budget (CPU: add within
backend + 1 µs, x * 2 + 1 within backend + 2 µs, x[1:10] within backend + 1 µs; CUDA: small
add within 1.05x the backend's time, 1 GiB add at 0.95x its throughput or better). The exit
status is 0 whatever they show, unless ``--strict``.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import os
import platform
import sys
import time
import timeit
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout

import xpgpu as xp
from xpgpu import _devices

xs = (importlib.import_module("array_api_strict")
      if importlib.util.find_spec("array_api_strict") else None)

N = 16
REPEAT = 25  # the best of many short repeats: a CUDA call's overhead is ~0.3 µs
WARMUP_S = 0.5  # seconds of untimed calls before each comparison
# (operation, target kind, target value) per device kind; "diff" in µs, "ratio" of times,
# "throughput" ratio of bandwidths (higher is better).
TARGETS = {
    "cpu": {"add(a, b)": ("diff", 1.0), "x * 2 + 1": ("diff", 2.0), "x[1:10]": ("diff", 1.0)},
    "cuda": {"add(a, b)": ("ratio", 1.05), "add 1 GiB": ("throughput", 0.95)},
}


def operations(ns: Any, x: Any, a: Any, b: Any, mask: Any) -> dict[str, Callable[[], Any]]:
    """The timed operations on one namespace's arrays (all of length 16, float32)."""
    if ns is xp:
        zeros = lambda: xp.zeros(8, dtype=xp.float32, device=x.device)
    else:  # NumPy, CuPy and array_api_strict all default to their one device
        zeros = lambda: ns.zeros(8, dtype=ns.float32)
    return {
        "add(a, b)": lambda: ns.add(a, b),
        "x + 1.0": lambda: x + 1.0,
        "x * 2 + 1": lambda: x * 2 + 1,
        "sin(x)": lambda: ns.sin(x),
        "zeros(8)": zeros,
        "x[1:10]": lambda: x[1:10],
        "x[mask]": lambda: x[mask],
        "where(m, a, b)": lambda: ns.where(mask, a, b),
        "result_type(a, b)": lambda: ns.result_type(a, b),
    }


def _profile_of(name: str) -> None:
    """Select the profile a column times (outside the timings): the permissive one for
    the "permissive" column, else the strict one (the backends ignore it)."""
    xp.set_strict(name != "permissive")


def best_us(funcs: dict[str, Callable[[], Any]], sync: Callable[[], None], seconds: float,
            number: int = 0) -> dict[str, float]:
    """Best of REPEAT timings per function, in µs per call; the repeats of the functions
    alternate, so a change of machine load touches them all alike. Each timing is ``number``
    calls (by default as many as last about ``seconds``) and one synchronisation. The
    "permissive" function is the "xpgpu" one timed in the permissive profile."""
    bodies = {}
    warm_until = time.perf_counter() + (WARMUP_S if seconds else 0.0)
    while time.perf_counter() < warm_until:  # caches, kernels, GPU clocks: before timing
        for name, func in funcs.items():
            _profile_of(name)
            func()
        sync()
    for name, func in funcs.items():
        _profile_of(name)
        n = number or calibrate(func, sync, seconds)

        def body(func: Callable[[], Any] = func, n: int = n) -> None:
            for _ in range(n):
                func()
            sync()
        body()  # warm up: caches, kernel compilation
        bodies[name] = (body, n)
    best = dict.fromkeys(funcs, float("inf"))
    for _ in range(REPEAT):
        for name, (body, n) in bodies.items():
            _profile_of(name)
            best[name] = min(best[name], timeit.Timer(body).timeit(1) / n * 1e6)
    xp.set_strict(True)
    return best


def calibrate(func: Callable[[], Any], sync: Callable[[], None], seconds: float) -> int:
    """A call count whose timing lasts about ``seconds``."""
    def calls(number: int) -> None:
        for _ in range(number):
            func()
        sync()

    number = 1
    while True:
        t = timeit.Timer(lambda: calls(number)).timeit(1)
        if t >= seconds or number >= 1 << 22:
            return max(1, int(number * seconds / max(t, 1e-9)))
        number *= 4


def judge(kind: str, op: str, backend: float, ours: float, higher_better: bool = False
          ) -> tuple[str, str]:
    """(target text, PASS/FAIL) for one row, or ("", "") where the row has no target."""
    target = TARGETS[kind].get(op)
    if target is None:
        return "", ""
    how, value = target
    if how == "diff":
        return f"<= backend + {value:g} µs", "PASS" if ours - backend <= value else "FAIL"
    if how == "ratio":
        return f"<= {value:g}x backend", "PASS" if ours <= value * backend else "FAIL"
    return f">= {value:g}x backend", "PASS" if ours >= value * backend else "FAIL"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--device", default=None, help="cpu or cuda:N (default: the default)")
    parser.add_argument("--large", action="store_true", help="add a bandwidth row")
    parser.add_argument("--strict", action="store_true", help="exit 1 when a target is missed")
    parser.add_argument("--seconds", type=float, default=0.02, help="length of one repeat")
    args = parser.parse_args(argv)

    device = _devices.lookup(args.device) if args.device else _devices.default_device()
    if device is None:
        parser.error(f"no device {args.device!r}")
    kind = device.kind
    if kind == "cpu":
        bk: Any = np
        sync: Callable[[], None] = lambda: None
        backend_name, where = "NumPy", f"{platform.machine()}, {os.cpu_count()} cores"
    else:
        bk = importlib.import_module("cupy")  # only where a CUDA device is asked for
        from xpgpu._backend import _cupy

        bk.cuda.Device(device.index).use()
        sync = _cupy.synchronize
        backend_name = "CuPy"
        where = _cupy.device_properties(device.index)["name"]

    host = np.linspace(-1.0, 1.0, N, dtype=np.float32)
    host_b = np.linspace(2.0, 3.0, N, dtype=np.float32)
    ours: list[Any] = [xp.asarray(h, device=device) for h in (host, host_b)]
    raw = [bk.asarray(h) for h in (host, host_b)]
    xpgpu_ops = operations(xp, ours[0], ours[0], ours[1], ours[0] > 0.0)
    impls = {"xpgpu": xpgpu_ops, "permissive": xpgpu_ops,
             backend_name: operations(bk, raw[0], raw[0], raw[1], raw[0] > 0.0)}
    if xs is not None and kind == "cpu":
        strict = [xs.asarray(h) for h in (host, host_b)]
        impls["array_api_strict"] = operations(xs, strict[0], strict[0], strict[1],
                                               strict[0] > 0.0)

    print(f"xpgpu {xp.__version__} on {device} ({where}); backend {backend_name} "
          f"{bk.__version__}; Python {platform.python_version()}; float32[{N}], "
          f"best of {REPEAT} repeats, µs per call")
    head = ["operation", backend_name, "xpgpu", "diff", "ratio", "permissive", "diff"]
    if "array_api_strict" in impls:
        head.append("array_api_strict")
    head += ["target", "result"]
    rows: list[list[str]] = []
    failed = 0
    for op in impls["xpgpu"]:
        times = best_us({name: ops[op] for name, ops in impls.items()}, sync, args.seconds)
        base, mine, loose = times[backend_name], times["xpgpu"], times["permissive"]
        target, result = judge(kind, op, base, mine)
        result = "FAIL" if "FAIL" in (result, judge(kind, op, base, loose)[1]) else result
        failed += result == "FAIL"
        row = [op, f"{base:.2f}", f"{mine:.2f}", f"{mine - base:+.2f}", f"{mine / base:.2f}x",
               f"{loose:.2f}", f"{loose - base:+.2f}"]
        if "array_api_strict" in impls:
            row.append(f"{times['array_api_strict']:.2f}")
        rows.append([*row, target, result])

    if args.large:
        size = (1 << 28) if kind == "cuda" else (1 << 24)  # float32: 1 GiB or 64 MiB
        label = "add 1 GiB" if kind == "cuda" else "add 64 MiB"
        a_ours = xp.ones(size, dtype=xp.float32, device=device)
        b_ours = xp.ones(size, dtype=xp.float32, device=device)
        a_raw, b_raw = bk.ones(size, dtype=bk.float32), bk.ones(size, dtype=bk.float32)
        number = 10 if kind == "cuda" else 3
        large = best_us({"raw": lambda: bk.add(a_raw, b_raw),
                         "ours": lambda: xp.add(a_ours, b_ours)}, sync, 0.0, number)
        t_raw, t_ours = large["raw"], large["ours"]
        gbs = lambda us: 3 * 4 * size / (us * 1e-6) / 1e9  # two reads and one write
        target, result = judge(kind, "add 1 GiB" if kind == "cuda" else label,
                               gbs(t_raw), gbs(t_ours))
        failed += result == "FAIL"
        row = [f"{label} (GB/s)", f"{gbs(t_raw):.1f}", f"{gbs(t_ours):.1f}",
               f"{gbs(t_ours) - gbs(t_raw):+.1f}", f"{gbs(t_ours) / gbs(t_raw):.2f}x", "", ""]
        if "array_api_strict" in impls:
            row.append("")
        rows.append([*row, target, result])

    widths = [max(len(r[i]) for r in [head, *rows]) for i in range(len(head))]
    for r in [head, ["-" * w for w in widths], *rows]:
        print("  ".join(c.rjust(w) if i else c.ljust(w) for i, (c, w) in
                        enumerate(zip(r, widths, strict=True))).rstrip())
    print(f"{failed} target(s) missed" if failed else "all targets met")
    return 1 if failed and args.strict else 0


if __name__ == "__main__":
    sys.exit(main())
