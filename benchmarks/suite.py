"""The benchmark suite: xpgpu side by side with the other array libraries, in one run.

    python benchmarks/suite.py                          # the CPU: xpgpu, NumPy, array-api-strict
    python benchmarks/suite.py --device cuda:0 --out bench-out
    python benchmarks/suite.py --quick                  # a smoke run (seconds)

On the CPU it compares xpgpu with NumPy and array-api-strict; on a CUDA device with CuPy,
PyTorch and array-api-compat's CuPy namespace (each skipped when not installed). Three parts:

- per call: the representative set (element-wise with arrays and Python scalars, reductions,
  ``where``, ``clip``, indexing and assignment, creation, reshaping and joining, ``matmul``,
  ``vecdot``, ``sort``, ``unique_values``, ``linalg.solve``) on 1000 float32 elements (64x64
  and 16x16 matrices), µs per call, with the targets (CPU: NumPy + 1 µs for element-wise and
  indexing, + 2 µs for the rest; CUDA: 1.05x CuPy);
- throughput: copy, ``add``, ``a * 2``, ``sin``, ``where`` and the reductions (``sum``,
  ``max``, ``argmax``, ``var`` of the whole array, ``sum`` and ``var`` along the last axis
  of 1024-element rows, ``cumulative_sum``) over sizes 1 to 2^28 (capped by memory; 2^24 on
  the CPU unless ``--max-log2``; ``--sizes`` picks powers of two), float32/float64/int32/
  complex64 (each operation on the dtypes the standard allows it), in GB/s of memory
  traffic and as a fraction of the fastest measured device copy (target on CUDA from 2^20
  elements: at least PyTorch's throughput);
- sort: 10 M float64 (stable, ``stable=False``, ``descending=True``).

The libraries' timings alternate round by round (each round: as many calls as last a few
milliseconds, then a synchronisation), and each figure is the median of the rounds (wall
time on CUDA; on the CPU the thread's CPU time, so other processes' load counts less). The run
writes CSV files, a Markdown summary and matplotlib plots (PNG, when matplotlib is installed)
into ``--out`` (default ``bench-out``); the documentation's figures are made with
``--out docs/_static/bench``; where matplotlib is missing (a GPU machine, say), ``--replot``
draws them later from the CSV files. The exit status is 0 whatever the targets show, unless
``--strict``.
"""

from __future__ import annotations

import argparse
import csv
import os
import platform
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout

import _libs

import xpgpu as xp
from xpgpu import _devices

STAT: Callable[[list[float]], float] = statistics.median  # --stat min: the best round
# The clock: wall time on CUDA (the synchronisation waits for the GPU); on the CPU the
# thread's CPU time, which does not count the time other processes take from it.
CLOCK: Callable[[], float] = time.perf_counter


def timed(funcs: dict[str, Callable[[], Any]], sync: Any, rounds: int,
          seconds: float) -> dict[str, float]:
    """Median (or, with --stat min, best) µs per call of each function; the functions'
    rounds alternate. A function that raises is reported as NaN (a library lacking the
    operation)."""
    syncs = sync if isinstance(sync, dict) else dict.fromkeys(funcs, sync)  # per library
    live: dict[str, tuple[Callable[[], Any], int]] = {}
    for name, func in funcs.items():
        sync = syncs[name]
        try:
            func()
            sync()
        except Exception as exc:
            print(f"  ({name}: {type(exc).__name__}: {str(exc)[:80]}; skipped)", file=sys.stderr)
            continue
        live[name] = (func, _calibrate(func, sync, seconds))
    times: dict[str, list[float]] = {name: [] for name in live}
    for _ in range(rounds):
        for name, (func, n) in live.items():
            sync = syncs[name]
            start = CLOCK()
            for _ in range(n):
                func()
            sync()
            times[name].append((CLOCK() - start) / n * 1e6)
    return {name: STAT(times[name]) if name in times else float("nan")
            for name in funcs}


def _calibrate(func: Callable[[], Any], sync: Callable[[], None], seconds: float) -> int:
    number = 1
    while True:
        start = time.perf_counter()
        for _ in range(number):
            func()
        sync()
        t = time.perf_counter() - start
        if t >= seconds / 4 or number >= 1 << 20:
            return max(1, int(number * seconds / max(t, 1e-9)))
        number *= 4


# ---- per call ---------------------------------------------------------------------------

def percall(libs: list[_libs.Lib], kind: str, rounds: int, seconds: float) -> list[dict[str, Any]]:
    rng = np.random.default_rng(0)
    host = _libs.host_inputs(rng)
    ops = {lib.name: lib.percall(host) for lib in libs}
    syncs = {lib.name: lib.sync for lib in libs}
    base = libs[1].name  # NumPy or CuPy
    rows = []
    for op, group in _libs.PERCALL:
        times = timed({lib: ops[lib][op] for lib in ops}, syncs, rounds, seconds)
        ours, ref = times["xpgpu"], times[base]
        if kind == "cpu":
            budget = 1.0 if group == "fast" else 2.0
            target, ok = f"<= {base} + {budget:g} us", ours - ref <= budget
        else:
            target, ok = f"<= 1.05x {base}", ours <= 1.05 * ref
        for lib, t in times.items():
            rows.append({"op": op, "group": group, "lib": lib, "us": t, "ratio": t / ref,
                         "diff_us": t - ref, "target": target if lib == "xpgpu" else "",
                         "result": ("PASS" if ok else "FAIL") if lib == "xpgpu" else ""})
    return rows


# ---- throughput -------------------------------------------------------------------------

def _host(dtype: str, n: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    a = rng.random(n, dtype=np.float32) * 2 - 1
    b = rng.random(n, dtype=np.float32) * 2 - 1
    if dtype == "int32":
        return (a * 1000).astype(np.int32), (b * 1000).astype(np.int32)
    return a.astype(dtype), b.astype(dtype)


def _copy(lib: _libs.Lib, a: Any) -> Callable[[], Any]:
    if lib.name in ("NumPy", "CuPy", "compat(CuPy)"):
        return a.copy
    if lib.name == "PyTorch":
        return a.clone
    return lambda: lib.ns.asarray(a, copy=True)


def throughput(libs: list[_libs.Lib], kind: str, sizes: list[int], rounds: int,
               seconds: float) -> list[dict[str, Any]]:
    rng = np.random.default_rng(1)
    rows = []
    for dtype in _libs.DTYPES:
        itemsize = np.dtype(dtype).itemsize
        for n in sizes:
            ha, hb = _host(dtype, n, rng)
            hm = ha.real > 0
            arrays = {lib.name: (lib.put(ha), lib.put(hb), lib.put(hm)) for lib in libs}
            copy_gbs = 0.0
            for op, allowed, per, mask_bytes in _libs.THROUGHPUT:
                if dtype not in _libs.ALLOWED[allowed]:
                    continue
                funcs = {}
                for lib in libs:
                    a, b, m = arrays[lib.name]
                    funcs[lib.name] = (_copy(lib, a) if op == "copy"
                                       else lib.throughput(op, a, b, m))
                times = timed(funcs, {lib.name: lib.sync for lib in libs}, rounds, seconds)
                moved = n * (per * itemsize + mask_bytes)
                gbs = {lib: moved / (t * 1e-6) / 1e9 for lib, t in times.items()}
                if op == "copy":
                    copy_gbs = max(g for g in gbs.values() if g == g)
                for lib, t in times.items():
                    rows.append({"op": op, "dtype": dtype, "size": n, "lib": lib, "us": t,
                                 "gbs": gbs[lib], "of_copy": gbs[lib] / copy_gbs})
            del arrays
    return rows


def throughput_judged(rows: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    """The rows with a target: xpgpu against PyTorch (CUDA) or NumPy (CPU) from 2^20."""
    ref = "PyTorch" if kind == "cuda" else "NumPy"
    want = 1.0 if kind == "cuda" else 0.9
    by = {(r["op"], r["dtype"], r["size"], r["lib"]): r for r in rows}
    out = []
    for r in rows:
        if r["lib"] != "xpgpu" or r["op"] == "copy" or r["size"] < 1 << 20:
            continue
        other = by.get((r["op"], r["dtype"], r["size"], ref))
        if other is None or other["gbs"] != other["gbs"]:
            continue
        ratio = r["gbs"] / other["gbs"]
        out.append({**r, "ref": ref, "ratio": ratio, "target": f">= {want:g}x {ref}",
                    "result": "PASS" if ratio >= want else "FAIL"})
    return out


# ---- sort -------------------------------------------------------------------------------

def sorting(libs: list[_libs.Lib], n: int, rounds: int) -> list[dict[str, Any]]:
    host = np.random.default_rng(2).standard_normal(n)
    rows = []
    variants = {
        "sort (stable)": ({"stable": True}, {"kind": "stable"}, {"stable": True}),
        "sort stable=False": ({"stable": False}, {}, {}),
        "sort descending": ({"descending": True}, None, {"descending": True}),
    }
    for label, (std, npkw, torchkw) in variants.items():
        funcs = {}
        for lib in libs:
            x = lib.put(host)
            if lib.name in ("NumPy", "CuPy"):
                mod = lib.ns._module
                if npkw is None:  # flipping an ascending sort: the fastest equivalent
                    funcs[lib.name] = (lambda x=x, mod=mod: mod.sort(x)[::-1].copy())
                else:
                    kw = npkw if lib.name == "NumPy" else {}
                    funcs[lib.name] = (lambda x=x, mod=mod, kw=kw: mod.sort(x, **kw))
            elif lib.name == "PyTorch":
                sort = lib.ns._module.sort
                funcs[lib.name] = (lambda x=x, kw=torchkw, sort=sort: sort(x, **kw).values)
            else:
                funcs[lib.name] = (lambda x=x, ns=lib.ns, kw=std: ns.sort(x, **kw))
        times = timed(funcs, {lib.name: lib.sync for lib in libs}, rounds, 0.0)
        base = times[libs[1].name]
        for lib, t in times.items():
            rows.append({"op": label, "size": n, "lib": lib, "us": t, "ratio": t / base})
    return rows


# ---- output -----------------------------------------------------------------------------

def write_csv(path: Path, rows: list[dict[str, Any]]) -> None:
    if not rows:
        return
    with path.open("w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0]))
        writer.writeheader()
        for r in rows:
            writer.writerow({k: f"{v:.6g}" if isinstance(v, float) else v for k, v in r.items()})


def table(head: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(head) + " |", "|" + "|".join("---" for _ in head) + "|"]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(lines)


def percall_table(rows: list[dict[str, Any]], libs: list[str], base: str) -> str:
    ops = list(dict.fromkeys(r["op"] for r in rows))
    by = {(r["op"], r["lib"]): r for r in rows}
    head = ["operation", *[f"{lib} µs" for lib in libs], "xpgpu - " + base,
            "xpgpu / " + base, "target", "result"]
    body = []
    for op in ops:
        ours = by[(op, "xpgpu")]
        body.append([f"`{op}`", *[f"{by[(op, lib)]['us']:.2f}" for lib in libs],
                     f"{ours['diff_us']:+.2f}", f"{ours['ratio']:.2f}x", ours["target"],
                     ours["result"]])
    return table(head, body)


def throughput_table(rows: list[dict[str, Any]], libs: list[str], size: int) -> str:
    by = {(r["op"], r["dtype"], r["lib"]): r for r in rows if r["size"] == size}
    keys = list(dict.fromkeys((r["op"], r["dtype"]) for r in rows if r["size"] == size))
    head = ["operation", "dtype", *[f"{lib} GB/s" for lib in libs], "xpgpu of copy"]
    body = [[f"`{op}`", dt, *[f"{by[(op, dt, lib)]['gbs']:.1f}" if (op, dt, lib) in by else ""
                              for lib in libs], f"{by[(op, dt, 'xpgpu')]['of_copy']:.2f}"]
            for op, dt in keys]
    return table(head, body)


def plots(out: Path, kind: str, percall_rows: list[dict[str, Any]],
          tp_rows: list[dict[str, Any]], libs: list[str], base: str) -> list[Path]:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("(matplotlib is not installed: no plots)", file=sys.stderr)
        return []
    written = []
    if percall_rows:
        ops = list(dict.fromkeys(r["op"] for r in percall_rows))
        by = {(r["op"], r["lib"]): r["ratio"] for r in percall_rows}
        fig, ax = plt.subplots(figsize=(8, 0.28 * len(ops) + 1.5))
        height = 0.8 / len(libs)
        for j, lib in enumerate(libs):
            ys = [i + j * height for i in range(len(ops))]
            ax.barh(ys, [by.get((op, lib), float("nan")) for op in ops], height=height,
                    label=lib)
        ax.set_yticks([i + 0.4 - height / 2 for i in range(len(ops))], ops, fontsize=7)
        ax.invert_yaxis()
        ax.set_xscale("log")
        ax.axvline(1.0, color="black", lw=0.8)
        ax.set_xlabel(f"time per call / {base}'s (log scale; lower is faster)")
        ax.set_title(f"Per-call time on {kind}, 1000 float32 elements")
        ax.legend(fontsize=7)
        fig.tight_layout()
        path = out / f"{kind}-percall.png"
        fig.savefig(path, dpi=110)
        plt.close(fig)
        written.append(path)
    for dtype in dict.fromkeys(r["dtype"] for r in tp_rows):
        sub = [r for r in tp_rows if r["dtype"] == dtype]
        ops = list(dict.fromkeys(r["op"] for r in sub))
        nrows = 2 if len(ops) <= 8 else 3
        fig, axes = plt.subplots(nrows, -(-len(ops) // nrows), figsize=(11, 3 * nrows),
                                 squeeze=False)
        for ax, op in zip(axes.flat, ops, strict=False):
            for lib in libs:
                pts = sorted((r["size"], r["gbs"]) for r in sub if r["op"] == op
                             and r["lib"] == lib)
                if pts:
                    ax.plot(*zip(*pts, strict=True), marker=".", label=lib)
            ax.set_xscale("log", base=2)
            ax.set_yscale("log")
            ax.set_title(op, fontsize=9)
            ax.set_xlabel("elements", fontsize=8)
            ax.set_ylabel("GB/s", fontsize=8)
        for ax in list(axes.flat)[len(ops):]:
            ax.set_visible(False)
        axes.flat[0].legend(fontsize=7)
        fig.suptitle(f"Throughput on {kind}, {dtype} (memory traffic, higher is better)")
        fig.tight_layout()
        path = out / f"{kind}-throughput-{dtype}.png"
        fig.savefig(path, dpi=100)
        plt.close(fig)
        written.append(path)
    return written


def read_csv(path: Path) -> list[dict[str, Any]]:
    """Rows written by write_csv, with their numbers as numbers."""
    if not path.exists():
        return []
    rows = []
    with path.open(newline="") as f:
        for r in csv.DictReader(f):
            for k, value in r.items():
                if k == "size":
                    r[k] = int(value)  # type: ignore[assignment]
                elif k in ("us", "ratio", "diff_us", "gbs", "of_copy"):
                    r[k] = float(value)  # type: ignore[assignment]
            rows.append(r)
    return rows


def replot(out: Path) -> int:
    """The plots of the CSV files in ``out`` (from a run on a machine without matplotlib)."""
    written = []
    for kind in ("cpu", "cuda"):
        pc = read_csv(out / f"{kind}-percall.csv")
        tp = read_csv(out / f"{kind}-throughput.csv")
        rows = pc or tp
        if not rows:
            continue
        libs = list(dict.fromkeys(r["lib"] for r in rows))
        written += plots(out, kind, pc, tp, libs, libs[1])
    print("\n".join(map(str, written)) or f"no CSV files in {out}")
    return 0 if written else 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--device", default=None, help="cpu or cuda:N (default: the default)")
    parser.add_argument("--out", default="bench-out", help="folder for CSV, Markdown, PNG")
    parser.add_argument("--quick", action="store_true", help="few sizes and rounds (smoke)")
    parser.add_argument("--max-log2", type=int, default=None,
                        help="largest size as a power of two (default 28 on CUDA, 24 on CPU)")
    parser.add_argument("--sizes", default=None,
                        help="throughput sizes as comma-separated powers of two (20,26)")
    parser.add_argument("--parts", default="percall,throughput,sort",
                        help="comma-separated: percall, throughput, sort")
    parser.add_argument("--rounds", type=int, default=None, help="rounds per comparison")
    parser.add_argument("--stat", choices=("median", "min"), default="median",
                        help="the rounds' median (default) or best (on a busy machine)")
    parser.add_argument("--strict", action="store_true", help="exit 1 when a target is missed")
    parser.add_argument("--replot", action="store_true",
                        help="only draw the plots of the CSV files in --out (no timing)")
    args = parser.parse_args(argv)
    if args.replot:
        return replot(Path(args.out))
    global STAT, CLOCK
    STAT = min if args.stat == "min" else statistics.median

    device = _devices.lookup(args.device) if args.device else _devices.default_device()
    if device is None:
        parser.error(f"no device {args.device!r}")
    kind = device.kind
    CLOCK = time.thread_time if kind == "cpu" else time.perf_counter
    libs = _libs.cpu_libs(xp) if kind == "cpu" else _libs.cuda_libs(xp, device)
    names = [lib.name for lib in libs]
    base = names[1]
    parts = set(args.parts.split(","))
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    rounds = args.rounds or (5 if args.quick else 15)
    seconds = 0.002 if args.quick else 0.005

    where = (f"{platform.machine()}, {os.cpu_count()} cores" if kind == "cpu"
             else libs[1].ns._module.cuda.runtime.getDeviceProperties(device.index)["name"])
    where = where.decode() if isinstance(where, bytes) else where
    header = (f"xpgpu {xp.__version__} on {device} ({where!s}); "
              f"{', '.join(names)}; Python {platform.python_version()}, NumPy {np.__version__}; "
              f"{args.stat} of {rounds} interleaved rounds, "
              f"{'thread CPU' if kind == 'cpu' else 'wall'} time")
    print(header)
    summary = [f"# Benchmark summary ({kind})", "", header, ""]
    failed = 0

    pc_rows: list[dict[str, Any]] = []
    if "percall" in parts:
        pc_rows = percall(libs, kind, rounds, seconds)
        write_csv(out / f"{kind}-percall.csv", pc_rows)
        text = percall_table(pc_rows, names, base)
        failed += sum(r["result"] == "FAIL" for r in pc_rows)
        summary += ["## Per call (µs)", "", text, ""]
        print(text)

    tp_rows: list[dict[str, Any]] = []
    if "throughput" in parts:
        top = args.max_log2 if args.max_log2 is not None else (28 if kind == "cuda" else 24)
        if kind == "cuda":  # four libraries' operands and results of the widest dtype
            free = libs[1].ns._module.cuda.runtime.memGetInfo()[0]
            while top > 10 and len(libs) * 5 * 8 * (1 << top) > free * 0.8:
                top -= 1
        step = max(1, top // 3) if args.quick else 2
        sizes = sorted({1 << k for k in range(0, top + 1, step)} | {1 << top})
        if args.sizes:
            sizes = sorted({1 << int(k) for k in args.sizes.split(",") if int(k) <= top})
        tp_rows = throughput(libs, kind, sizes, 3 if args.quick else 7, seconds * 2)
        write_csv(out / f"{kind}-throughput.csv", tp_rows)
        judged = throughput_judged(tp_rows, kind)
        failed += sum(r["result"] == "FAIL" for r in judged)
        text = throughput_table(tp_rows, names, sizes[-1])
        summary += [f"## Throughput at {sizes[-1]} elements", "", text, ""]
        print(text)
        if judged:
            jt = table(["operation", "dtype", "size", "xpgpu / " + judged[0]["ref"], "target",
                        "result"],
                       [[f"`{r['op']}`", r["dtype"], str(r["size"]), f"{r['ratio']:.2f}x",
                         r["target"], r["result"]] for r in judged])
            summary += ["## Throughput targets", "", jt, ""]
            print(jt)

    if "sort" in parts:
        n = 1_000_000 if args.quick else 10_000_000
        s_rows = sorting(libs, n, 3 if args.quick else 5)
        write_csv(out / f"{kind}-sort.csv", s_rows)
        by = {(r["op"], r["lib"]): r for r in s_rows}
        ops = list(dict.fromkeys(r["op"] for r in s_rows))
        text = table(["operation", *[f"{lib} ms" for lib in names], "xpgpu / " + base],
                     [[f"{op}, {n} float64", *[f"{by[(op, lib)]['us'] / 1e3:.1f}"
                                                for lib in names],
                       f"{by[(op, 'xpgpu')]['ratio']:.2f}x"] for op in ops])
        summary += ["## Sort", "", text, ""]
        print(text)

    for path in plots(out, kind, pc_rows, tp_rows, names, base):
        summary.append(f"![{path.stem}]({path.name})")
    (out / f"{kind}-summary.md").write_text("\n".join(summary) + "\n")
    print(f"{failed} target(s) missed; results in {out}/" if failed
          else f"all targets met; results in {out}/")
    return 1 if failed and args.strict else 0


if __name__ == "__main__":
    sys.exit(main())
