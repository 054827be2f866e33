"""Shared code of the peer runners: run a peer library's own test suite against xpgpu.

Each ``peers/<peer>.py`` is a script::

    python peers/<peer>.py --device cpu|cuda:0 --profile strict|permissive [--fast] [-- PYTEST ARGS]

It prepares the peer's tests (from the installed package, or a pinned source release
downloaded into ``.peers/``, which git ignores), runs them with pytest in a subprocess with
xpgpu's device and profile set through the environment (``XPGPU_DEFAULT_DEVICE``, and
``XPGPU_STRICT=0`` for the permissive profile), and prints, last, one line::

    PEER <peer> device=<d> profile=<p> passed=N failed=N skipped=N known=N

where ``<peer>`` is the script's name with ``-`` for ``_``. ``known`` counts the failures
that are the peer's own bugs, listed in the script's ``KNOWN`` table (each described in
``peers/KNOWN.md``); ``failed`` counts the others, the ones xpgpu must answer for.
xfailed tests count as skipped, xpassed ones as passed.

Exit status: 0 when every failure is a known peer bug, 1 otherwise, and 77 when the peer
cannot run here (not installed, not downloadable, device or profile absent); then the last
line is ``PEER <peer> device=<d> profile=<p> unavailable: <reason>``.
"""

from __future__ import annotations

import argparse
import contextlib
import fnmatch
import hashlib
import json
import os
import re
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

try:
    import fcntl
except ImportError:  # Windows: runs in parallel there may race on the first download
    fcntl = None  # type: ignore[assignment]

ROOT = Path(__file__).resolve().parent.parent
# Downloaded peer sources live here (ignored by git; never committed).
CACHE = ROOT / ".peers"
UNAVAILABLE = 77  # the exit status of a peer that cannot run here (automake's "skipped")
PROFILES = ("strict", "permissive")


class Unavailable(Exception):
    """The peer cannot run here; the message says why."""


@dataclass(frozen=True)
class Known:
    """A failure that is the peer's own bug, not xpgpu's.

    ``pattern`` is an ``fnmatch`` pattern over pytest node ids; ``bug`` names the entry in
    ``peers/KNOWN.md`` (its minimal reproducer and upstream-ready description);
    ``devices``/``profiles`` restrict where it applies (empty: everywhere), ``message`` to
    failures whose one-line message contains a match of that regular expression.
    """

    pattern: str
    bug: str
    devices: tuple[str, ...] = ()
    profiles: tuple[str, ...] = ()
    message: str = ""  # a regular expression the failure's message must contain, if any

    def matches(self, nodeid: str, device: str, profile: str, message: str = "") -> bool:
        return ((not self.devices or device in self.devices)
                and (not self.profiles or profile in self.profiles)
                and fnmatch.fnmatchcase(nodeid, self.pattern)
                and (not self.message or re.search(self.message, message) is not None))


def known(bug: str, *patterns: str, devices: tuple[str, ...] = (),
          profiles: tuple[str, ...] = (), message: str = "") -> list[Known]:
    """The ``Known`` rows of one peer bug: one per pattern, with the same restrictions."""
    return [Known(pattern, bug, devices, profiles, message) for pattern in patterns]


@dataclass
class Run:
    """What a peer's ``prepare`` returns: pytest's arguments, its working directory and
    extra environment variables."""

    args: list[str]
    cwd: Path
    env: dict[str, str] = field(default_factory=dict)


@dataclass
class Options:
    peer: str
    device: str
    profile: str
    fast: bool
    pytest_args: list[str]


def parse_args(peer: str, argv: Sequence[str] | None = None) -> Options:
    parser = argparse.ArgumentParser(
        prog=f"peers/{peer}.py",
        description=f"Run {peer}'s own tests against xpgpu; the last line sums them up.")
    parser.add_argument("--device", default="cpu", help="cpu (default) or cuda:N")
    parser.add_argument("--profile", default="strict", choices=PROFILES)
    parser.add_argument("--fast", action="store_true",
                        help="a quicker subset (fewer hypothesis examples), for CI")
    args, rest = parser.parse_known_args(argv)
    if rest and rest[0] == "--":
        rest = rest[1:]
    return Options(peer, args.device, args.profile, args.fast, rest)


def environment(opts: Options, extra: dict[str, str] | None = None) -> dict[str, str]:
    """The environment of the peer's test process: xpgpu importable from this checkout,
    the device and the profile chosen."""
    env = dict(os.environ)
    path = env.get("PYTHONPATH", "")
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), path) if p)
    env["XPGPU_DEFAULT_DEVICE"] = opts.device
    env.pop("XPGPU_STRICT", None)
    if opts.profile == "permissive":
        env["XPGPU_STRICT"] = "0"
    env.update(extra or {})
    return env


_PREFLIGHT = """
import json, xpgpu
print(json.dumps({"device": str(xpgpu.__array_namespace_info__().default_device()),
                  "permissive": hasattr(xpgpu, "set_strict"),
                  "version": xpgpu.__version__}))
"""


def preflight(opts: Options) -> dict[str, object]:
    """xpgpu's answers in the peer's environment: its default device and whether it has
    the permissive profile. Raises Unavailable where the request cannot be met."""
    proc = subprocess.run([sys.executable, "-c", _PREFLIGHT], env=environment(opts),
                          capture_output=True, text=True, cwd=ROOT)
    if proc.returncode:
        last = (proc.stderr.strip().splitlines() or ["no output"])[-1]
        raise Unavailable(f"xpgpu cannot start on {opts.device}: {last}")
    info: dict[str, object] = json.loads(proc.stdout.strip().splitlines()[-1])
    if opts.profile == "permissive" and not info["permissive"]:
        raise Unavailable("this xpgpu has no permissive profile (xpgpu.set_strict)")
    return info


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@contextlib.contextmanager
def _cache_lock() -> Iterator[None]:
    """Exclusive use of ``.peers/`` (peer runs in parallel download the same source)."""
    CACHE.mkdir(exist_ok=True)
    with open(CACHE / ".lock", "w") as handle:
        if fcntl is not None:
            fcntl.flock(handle, fcntl.LOCK_EX)
        yield


def pip_download_sdist(name: str, version: str, digest: str,
                       finish: Callable[[Path], None] | None = None) -> Path:
    """The source distribution ``name==version`` from the package index, checked against
    its sha256, unpacked into ``.peers/`` (once; later runs reuse it), then ``finish(folder)``
    (once, before the folder counts as complete; runs in parallel wait for it). Returns the
    unpacked folder."""
    stem = f"{name.replace('-', '_')}-{version}"
    folder = CACHE / stem
    if (folder / ".complete").exists():
        return folder
    with _cache_lock():
        if (folder / ".complete").exists():
            return folder
        _fetch(name, version, digest)
        if finish is not None:
            finish(folder)
        (folder / ".complete").touch()
        return folder


def _fetch(name: str, version: str, digest: str) -> None:
    stem = f"{name.replace('-', '_')}-{version}"
    archive = CACHE / f"{stem}.tar.gz"
    if not archive.exists() or sha256(archive) != digest:
        proc = subprocess.run(
            [sys.executable, "-m", "pip", "download", "--no-deps", "--no-binary", name,
             "--dest", str(CACHE), f"{name}=={version}"],
            capture_output=True, text=True, timeout=900)
        if proc.returncode or not archive.exists():
            last = (proc.stderr.strip().splitlines() or ["no output"])[-1]
            raise Unavailable(f"cannot download the {name} {version} sdist: {last}")
    if sha256(archive) != digest:  # not "unavailable": a changed release is an error
        raise RuntimeError(f"{archive.name}: sha256 {sha256(archive)}, expected {digest}")
    with tarfile.open(archive) as tar:
        kwargs = {"filter": "data"} if hasattr(tarfile, "data_filter") else {}
        tar.extractall(CACHE, **kwargs)  # type: ignore[arg-type]


def log_path(opts: Options) -> Path:
    """Where pytest's whole output goes: ``$XPGPU_PEER_LOGS`` or ``.peers/logs/``."""
    folder = Path(os.environ.get("XPGPU_PEER_LOGS") or CACHE / "logs")
    folder.mkdir(parents=True, exist_ok=True)
    return folder / f"{opts.peer}-{opts.device.replace(':', '')}-{opts.profile}.log"


def run_pytest(opts: Options, run: Run) -> list[dict[str, str]]:
    """Run pytest as ``run`` says, with the outcome-recording plugin; returns one record
    per test: nodeid, outcome (passed/failed/skipped) and a one-line message. pytest's
    output, with short tracebacks, goes to ``log_path(opts)``."""
    log = log_path(opts)
    with tempfile.TemporaryDirectory() as tmp, open(log, "w") as out:
        report = Path(tmp) / "report.jsonl"
        env = environment(opts, {**run.env, "XPGPU_PEER_REPORT": str(report)})
        cmd = [sys.executable, "-m", "pytest", "-p", "peers._report", "-p", "no:cacheprovider",
               "-q", "--no-header", "-rfE", "--tb=short", *run.args, *opts.pytest_args]
        print("$", " ".join(cmd), f"(in {run.cwd})", flush=True)
        start = time.perf_counter()
        proc = subprocess.run(cmd, cwd=run.cwd, env=env, stdout=out, stderr=subprocess.STDOUT)
        print(f"pytest exited {proc.returncode} after {time.perf_counter() - start:.0f} s; "
              f"its output: {log}", flush=True)
        records = ([json.loads(line) for line in report.read_text().splitlines()]
                   if report.exists() else [])
    if proc.returncode not in (0, 1) and not records:
        print("\n".join(log.read_text().strip().splitlines()[-20:]))
        records.append({"nodeid": "<pytest>", "outcome": "failed",
                        "message": f"pytest exited {proc.returncode}"})
    return records


def summarise(opts: Options, records: list[dict[str, str]], known: Sequence[Known]) -> int:
    """Print the failures (known peer bugs, then xpgpu's) and, last, the PEER line;
    return the exit status."""
    counts = {"passed": 0, "failed": 0, "skipped": 0, "known": 0}
    hits: dict[str, list[str]] = {}
    unknown: list[dict[str, str]] = []
    for rec in records:
        if rec["outcome"] != "failed":
            counts[rec["outcome"]] += 1
            continue
        entry = next((k for k in known
                      if k.matches(rec["nodeid"], opts.device, opts.profile, rec["message"])),
                     None)
        if entry is None:
            counts["failed"] += 1
            unknown.append(rec)
        else:
            counts["known"] += 1
            hits.setdefault(entry.bug, []).append(rec["nodeid"])
    for bug, nodeids in sorted(hits.items()):
        print(f"KNOWN {bug} ({len(nodeids)} test(s); peers/KNOWN.md#{bug}): {nodeids[0]}")
    for rec in unknown:
        print(f"FAILED {rec['nodeid']} - {rec['message'][:300]}")
    print(f"PEER {opts.peer} device={opts.device} profile={opts.profile} "
          + " ".join(f"{k}={v}" for k, v in counts.items()), flush=True)
    return 1 if counts["failed"] else 0


def main(peer: str, prepare: Callable[[Options], Run], known: Sequence[Known] = (),
         argv: Sequence[str] | None = None) -> int:
    """The whole of a peer script: options, preflight, prepare, pytest, summary."""
    opts = parse_args(peer, argv)
    try:
        preflight(opts)
        run = prepare(opts)
    except Unavailable as exc:
        print(f"PEER {peer} device={opts.device} profile={opts.profile} unavailable: {exc}",
              flush=True)
        return UNAVAILABLE
    return summarise(opts, run_pytest(opts, run), known)
