r"""Run the official array API conformance suite (data-apis/array-api-tests) against xpgpu.

    python conformance/run.py --suite .suite/array-api-tests --device cpu --version 2025.12 \
        --max-examples 100 [-n N] [--files test_a.py ...] [--out conformance/reports] [-- ARGS]

Runs pytest in the suite with xpgpu as the module under test on one device and revision,
reads the results from pytest's JUnit XML (no plugin needed), writes ``<stem>.xml``,
``<stem>.json`` and ``<stem>.md`` under ``--out`` (plus pytest-json-report's full report,
``<stem>.full.json``, when that plugin is installed), and exits non-zero on any failure that
``xfails-<cpu|cuda>.txt`` does not list, or when pytest itself broke (usage error, nothing
collected, interrupted). Tests that hang are listed in ``skips.txt`` and never run.
"""

from __future__ import annotations

import argparse
import dataclasses
import importlib.util
import json
import os
import platform
import shlex
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET
from collections import Counter
from collections.abc import Iterable
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
OUTCOMES = ("passed", "failed", "skipped", "xfailed")
SUITE_URL = "https://github.com/data-apis/array-api-tests"


@dataclasses.dataclass(frozen=True)
class Case:
    """One test's result: its pytest node id, outcome and (first line of) message."""

    nodeid: str
    outcome: str  # passed, failed, error, skipped or xfailed
    message: str = ""

    @property
    def file(self) -> str:
        return self.nodeid.split("::", 1)[0]

    @property
    def failed(self) -> bool:
        return self.outcome in ("failed", "error")


# --- reading pytest's JUnit XML -------------------------------------------------------------

def _nodeid(testcase: ET.Element) -> str:
    """The pytest node id of a JUnit ``testcase`` (xunit1 carries the file; xunit2 doesn't)."""
    classname, name = testcase.get("classname", ""), testcase.get("name", "")
    parts = [p for p in classname.split(".") if p]
    file = testcase.get("file")
    if file and not parts:  # a collection error
        return file.replace("\\", "/")
    if file:
        file = file.replace("\\", "/")
        module = file.removesuffix(".py").replace("/", ".")
        rest = classname[len(module):] if classname.startswith(module) else ""
        return "::".join([file, *filter(None, rest.split(".")), name])
    if not parts:  # a collection error: pytest names the module in ``name``
        return name.replace(".", "/") + ".py" if name and "/" not in name else name
    # No file: the module ends at the last part that is not a class name.
    cut = len(parts)
    while cut > 1 and parts[cut - 1][:1].isupper():
        cut -= 1
    return "::".join(["/".join(parts[:cut]) + ".py", *parts[cut:], name])


def _first_line(text: str | None, limit: int = 300) -> str:
    line = (text or "").strip().splitlines()[0] if (text or "").strip() else ""
    return line if len(line) <= limit else line[: limit - 3] + "..."


def parse_junit(path: str | os.PathLike[str]) -> list[Case]:
    """The cases of a JUnit XML file written by ``pytest --junitxml``."""
    cases = []
    for testcase in ET.parse(path).getroot().iter("testcase"):
        outcome, message = "passed", ""
        for child in testcase:
            tag = child.tag
            if tag in ("failure", "error"):
                # A failing teardown after a failing call is one more <error>: keep the first.
                if outcome not in ("failed", "error"):
                    outcome = "failed" if tag == "failure" else "error"
                    message = _first_line(child.get("message") or child.text)
            elif tag == "skipped" and outcome == "passed":
                outcome = "xfailed" if child.get("type") == "pytest.xfail" else "skipped"
                message = _first_line(child.get("message") or child.text)
        cases.append(Case(_nodeid(testcase), outcome, message))
    return cases


# --- the xfails and skips lists ---------------------------------------------------------------

def read_list(path: str | os.PathLike[str]) -> dict[str, str]:
    """The entries of an xfails/skips file, each with the ``# reason — link`` line above it.

    Blank lines and comments are ignored, except that every entry needs a comment line
    directly above it (or above the entry group it starts) naming a reason and a link.
    """
    entries: dict[str, str] = {}
    reason = ""
    after_comment = False
    for number, raw in enumerate(Path(path).read_text().splitlines(), 1):
        line = raw.strip()
        comment = line.startswith("#")
        if not line:
            reason = ""
        elif comment:  # the lines of one comment block are joined
            text = line.lstrip("#").strip()
            reason = f"{reason} {text}" if after_comment else text
        elif not reason or "http" not in reason:
            raise ValueError(f"{path}:{number}: entry {line!r} needs a '# reason — link' "
                             "comment line directly above it")
        else:
            entries[line] = reason
        after_comment = comment
    return entries


def matches(nodeid: str, pattern: str) -> bool:
    """Whether a list entry selects a test, as the suite's own ``check_id_match`` does:
    an exact id, a file or folder, or a test id without its parameters."""
    nodeid = nodeid.removeprefix("array-api-tests/")
    return (
        nodeid == pattern
        or nodeid.startswith(pattern.removesuffix("/") + "/")
        or (pattern.endswith(".py") and nodeid.startswith(pattern))
        or nodeid.split("::", 2)[0] == pattern
        or nodeid.split("[", 2)[0] == pattern
    )


@dataclasses.dataclass
class Verdict:
    """Failures judged against the xfails list."""

    unexpected: list[Case]
    known: list[tuple[Case, str]]
    stale: list[str]  # entries that matched no failing test

    @property
    def ok(self) -> bool:
        return not self.unexpected


def judge(cases: Iterable[Case], xfails: dict[str, str]) -> Verdict:
    """Split the failures into those the xfails list excuses and those it doesn't."""
    unexpected, known, used = [], [], set()
    for case in cases:
        if not case.failed:
            continue
        entry = next((p for p in xfails if matches(case.nodeid, p)), None)
        if entry is None:
            unexpected.append(case)
        else:
            known.append((case, xfails[entry]))
            used.add(entry)
    return Verdict(unexpected, known, [p for p in xfails if p not in used])


def counts_by_file(cases: Iterable[Case]) -> dict[str, Counter[str]]:
    """passed/failed/skipped/xfailed counts per test file (errors count as failed)."""
    table: dict[str, Counter[str]] = {}
    for case in cases:
        outcome = "failed" if case.failed else case.outcome
        table.setdefault(case.file, Counter())[outcome] += 1
    return dict(sorted(table.items()))


# --- reports ------------------------------------------------------------------------------------

def markdown(meta: dict[str, object], cases: list[Case], verdict: Verdict) -> str:
    """The Markdown report: the run's facts, counts per file, and the failures."""
    table = counts_by_file(cases)
    total: Counter[str] = sum(table.values(), Counter())
    status = "PASS" if verdict.ok and meta.get("pytest_exit_code") in (0, 1) else "FAIL"
    lines = [
        f"# Conformance: xpgpu on {meta['device']}, revision {meta['version']}",
        "",
        "| | |",
        "|---|---|",
        *(f"| {key} | {value} |" for key, value in meta.items()),
        "",
        f"**{status}**: {total['passed']} passed, {total['failed']} failed "
        f"({len(verdict.unexpected)} unexpected, {len(verdict.known)} listed in the xfails file), "
        f"{total['skipped']} skipped, {len(cases)} tests.",
        "",
        "| file | " + " | ".join(OUTCOMES) + " |",
        "|---|" + "---:|" * len(OUTCOMES),
        *(f"| {file} | " + " | ".join(str(c[o]) for o in OUTCOMES) + " |"
          for file, c in table.items()),
        "| **total** | " + " | ".join(f"**{total[o]}**" for o in OUTCOMES) + " |",
    ]
    if verdict.unexpected:
        lines += ["", "## Unexpected failures", ""]
        lines += [f"- `{c.nodeid}` ({c.outcome}): {c.message}" for c in verdict.unexpected]
    if verdict.known:
        lines += ["", "## Failures listed in the xfails file", ""]
        lines += [f"- `{c.nodeid}`: {c.message} (listed: {reason})" for c, reason in verdict.known]
    if verdict.stale:
        lines += ["", "## Xfail entries that matched no failure (remove them)", ""]
        lines += [f"- `{entry}`" for entry in verdict.stale]
    return "\n".join(lines) + "\n"


def summary_json(meta: dict[str, object], cases: list[Case], verdict: Verdict) -> dict[str, object]:
    table = counts_by_file(cases)
    return {
        "meta": meta,
        "ok": verdict.ok,
        "totals": dict(sum(table.values(), Counter())),
        "files": {file: dict(c) for file, c in table.items()},
        "unexpected_failures": [dataclasses.asdict(c) for c in verdict.unexpected],
        "known_failures": [{**dataclasses.asdict(c), "reason": r} for c, r in verdict.known],
        "stale_xfails": verdict.stale,
    }


# --- running the suite ------------------------------------------------------------------------

def suite_commit(suite: Path) -> str:
    """The suite's commit: ``git rev-parse HEAD``, or the pinned one where it has no .git."""
    if (suite / ".git").exists():  # not a copy inside another repository (xpgpu's own)
        try:
            return subprocess.run(["git", "-C", str(suite), "rev-parse", "HEAD"], check=True,
                                  capture_output=True, text=True).stdout.strip()
        except (OSError, subprocess.CalledProcessError):
            pass
    return pinned_commit() + " (no .git: assumed the pinned commit)"


def pinned_commit() -> str:
    return (HERE / "array-api-tests.commit").read_text().split()[0]


_ENV_PROBE = """
import json, os, platform, importlib.metadata as md
import numpy, xpgpu
from xpgpu import _devices
d = _devices.default_device()
info = {"xpgpu": xpgpu.__version__, "NumPy": numpy.__version__}
for name in ("cupy-cuda13x", "cupy-cuda12x", "cupy"):
    try:
        info["CuPy"] = md.version(name) + f" ({name})"
        break
    except md.PackageNotFoundError:
        info["CuPy"] = "not installed"
for name in ("hypothesis", "pytest", "ndindex"):
    try:
        info[name] = md.version(name)
    except md.PackageNotFoundError:
        info[name] = "not installed"
if d.kind == "cpu":
    name = f"cpu ({platform.processor() or platform.machine()}, {os.cpu_count()} cores)"
else:
    props = d.backend.adapter.device_properties(d.index)
    name = f"{d} ({props['name']}, {props['memory'] / 2**30:.0f} GiB)"
info["device_name"] = name
print(json.dumps(info))
"""

_SHIM = '''"""Stands in for pytest-json-report where it is missing: the suite's conftest needs its
``json_metadata`` fixture. Written by xpgpu's conformance/run.py."""
import pytest


@pytest.fixture
def json_metadata():
    return {}
'''


def _shim_dir() -> str:
    """A folder holding a stand-in ``pytest_jsonreport`` package (fixture only)."""
    folder = Path(tempfile.mkdtemp(prefix="xpgpu-jsonreport-shim-"))
    (folder / "pytest_jsonreport").mkdir()
    (folder / "pytest_jsonreport" / "__init__.py").write_text("")
    (folder / "pytest_jsonreport" / "plugin.py").write_text(_SHIM)
    return str(folder)


def device_family(device: str) -> str:
    return "cpu" if device == "cpu" else "cuda"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python conformance/run.py", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--suite", type=Path, default=ROOT / ".suite" / "array-api-tests",
                        help="the array-api-tests checkout (default: .suite/array-api-tests)")
    parser.add_argument("--device", default="cpu", help="cpu or cuda:N (default: cpu)")
    parser.add_argument("--version", default="2025.12", help="standard revision (default 2025.12)")
    parser.add_argument("--max-examples", type=int, default=100)
    parser.add_argument("-n", "--workers", type=int, default=0,
                        help="pytest-xdist workers (default 0: no xdist)")
    parser.add_argument("--files", nargs="+", default=[], metavar="TEST_FILE",
                        help="only these files of array_api_tests/ (test_a.py ...)")
    parser.add_argument("--out", type=Path, default=HERE / "reports")
    parser.add_argument("--derandomize", action="store_true", help="a repeatable run")
    parser.add_argument("--no-json-report", action="store_true",
                        help="don't use pytest-json-report even where it is installed")
    parser.add_argument("--warmup", type=int, default=None, metavar="N",
                        help="first run the suite once at N examples, unreported, so that the "
                             "CUDA kernels are compiled before the measured run (default: 3 "
                             "on cuda, 0 on cpu; 0 skips it)")
    parser.add_argument("pytest_args", nargs="*", help="after --: more pytest arguments")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="xpgpu-conformance-hypothesis-") as database:
        return run(args, parser, database)


def run(args: argparse.Namespace, parser: argparse.ArgumentParser, database: str) -> int:
    """The run ``main`` parsed, with ``database`` as Hypothesis' storage directory."""
    suite = args.suite.resolve()
    if not (suite / "array_api_tests").is_dir():
        parser.error(f"{suite} holds no array_api_tests/: see conformance/README.md")
    family = device_family(args.device)
    xfails_file, skips_file = HERE / f"xfails-{family}.txt", HERE / "skips.txt"
    try:
        xfails, _ = read_list(xfails_file), read_list(skips_file)
    except ValueError as e:
        print(f"run.py: {e}", file=sys.stderr)
        return 2

    env = {**os.environ,
           "ARRAY_API_TESTS_MODULE": "xpgpu", "ARRAY_API_TESTS_VERSION": args.version,
           "XPGPU_DEFAULT_DEVICE": args.device, "XPGPU_API_VERSION": args.version}
    # Note: every run starts with an empty Hypothesis example database, so a run's result
    # does not hang on examples saved by earlier runs (of an older xpgpu, or by the suite's
    # own shrinking); the report prints each failing example.
    env["HYPOTHESIS_STORAGE_DIRECTORY"] = database
    pythonpath = [str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])]
    use_json = not args.no_json_report and importlib.util.find_spec("pytest_jsonreport") is not None
    extra: list[str] = []
    if not use_json:
        pythonpath.insert(0, _shim_dir())
        extra += ["-p", "no:pytest_jsonreport", "-p", "pytest_jsonreport.plugin"]
    env["PYTHONPATH"] = os.pathsep.join(pythonpath)

    probe = subprocess.run([sys.executable, "-c", _ENV_PROBE], env=env, capture_output=True,
                           text=True)
    if probe.returncode:
        print(f"run.py: xpgpu cannot run on {args.device}:\n{probe.stderr}", file=sys.stderr)
        return 2
    info = json.loads(probe.stdout)

    args.out.mkdir(parents=True, exist_ok=True)
    stem = str(args.out / f"{args.device.replace(':', '')}-{args.version}")
    junit = Path(f"{stem}.xml")
    targets = [f"array_api_tests/{f}" for f in args.files] or ["array_api_tests/"]
    cmd = [sys.executable, "-m", "pytest", *targets, "-p", "no:cacheprovider", "-q",
           "--continue-on-collection-errors",
           f"--max-examples={args.max_examples}", f"--skips-file={skips_file}",
           f"--junitxml={junit}", "-o", "junit_family=xunit1", "-o", "junit_logging=no",
           *extra]
    if args.workers:
        cmd += ["-n", str(args.workers)]
    if args.derandomize:
        cmd.append("--derandomize")
    if use_json:  # the omit list ends at the next option: keep one after it
        cmd += ["--json-report", f"--json-report-file={stem}.full.json",
                "--json-report-omit", "collectors", "keywords", "streams", "log",
                "--json-report-indent=0"]
    cmd += args.pytest_args

    # Note: CuPy compiles each kernel on its first use (NVRTC, then its on-disk cache).
    # Compiling takes seconds, which Hypothesis' 800 ms deadline would count against the
    # test; a short unreported pass first compiles them, so the measured run keeps the
    # suite's deadline.
    warmup = args.warmup if args.warmup is not None else (0 if family == "cpu" else 3)
    # Note: a warm-up compiles what it draws, not every dtype and shape the measured run
    # draws later; on CUDA the deadline is therefore off too (a kernel's first compile is
    # no failure of the standard's semantics).
    if family != "cpu":
        cmd.append("--hypothesis-disable-deadline")
    if warmup:
        warm = [sys.executable, "-m", "pytest", *targets, "-p", "no:cacheprovider", "-q",
                "--continue-on-collection-errors", f"--max-examples={warmup}",
                "--hypothesis-disable-deadline", f"--skips-file={skips_file}", *extra,
                *(["-n", str(args.workers)] if args.workers else [])]
        print("+ (warm-up)", shlex.join(warm), flush=True)
        subprocess.run(warm, cwd=suite, env=env, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)

    print("+", shlex.join(cmd), flush=True)
    start = time.monotonic()
    rc = subprocess.run(cmd, cwd=suite, env=env).returncode
    duration = time.monotonic() - start
    if not junit.exists():
        print(f"run.py: pytest exited {rc} and wrote no {junit}", file=sys.stderr)
        return rc or 2

    cases = parse_junit(junit)
    verdict = judge(cases, xfails)
    commit = suite_commit(suite)
    pinned = pinned_commit()
    meta: dict[str, object] = {
        "device": args.device,
        "device name": info.pop("device_name"),
        "version": args.version,
        "suite": f"{SUITE_URL} @ {commit}"
                 + ("" if commit.startswith(pinned) else f" (pinned: {pinned})"),
        **info,
        "Python": platform.python_version(),
        "max examples": args.max_examples,
        "derandomize": args.derandomize,
        "workers": args.workers,
        "duration": f"{duration:.1f} s",
        "date": time.strftime("%Y-%m-%d %H:%M:%S %Z"),
        "xfails file": f"{xfails_file.name} ({len(xfails)} entries)",
        "pytest_exit_code": rc,
    }
    Path(f"{stem}.md").write_text(markdown(meta, cases, verdict))
    Path(f"{stem}.json").write_text(json.dumps(summary_json(meta, cases, verdict), indent=1))
    print(markdown(meta, cases, verdict).split("\n\n| file |")[0].splitlines()[-1])
    print(f"reports: {stem}.md, {stem}.json, {junit}")
    if rc not in (0, 1):
        print(f"run.py: pytest exited {rc} (not a test failure: see its output)", file=sys.stderr)
        return rc
    if not cases:
        print("run.py: no tests ran", file=sys.stderr)
        return 5
    return 0 if verdict.ok else 1


if __name__ == "__main__":
    sys.exit(main())
