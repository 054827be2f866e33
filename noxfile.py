"""Nox sessions: tests, lint, typecheck, conformance, docs, bench. Each installs what it needs.

    nox -s tests                     # the test suite (pytest -n 2; arguments after -- replace that)
    nox -s conformance -- --device cuda:0 --version 2024.12 -n 12
    XPGPU_CONFORMANCE_DEVICE=cuda:0 nox -s conformance
    nox -s bench -- --device cuda:0 --large    # --large goes to the scripts that take it
    nox -s peers -- --device cpu,cuda:0 --profile strict    # peers' own suites (peers/)
    nox -s bench -- --quick                     # suite.py (and others taking it) in seconds
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import nox

nox.options.sessions = ["tests", "lint", "typecheck", "docs"]
nox.options.default_venv_backend = "venv"

ROOT = Path(__file__).parent
# Extra that brings CuPy where a session runs on a CUDA device: cuda12 or cuda13.
CUDA_EXTRA = os.environ.get("XPGPU_CUDA_EXTRA", "cuda13")


def _package(extras: list[str], device: str = "cpu") -> str:
    """The editable install of xpgpu with ``extras``, plus CuPy for a CUDA device."""
    if device.startswith("cuda"):
        extras = [*extras, CUDA_EXTRA]
    return f".[{','.join(extras)}]" if extras else "."


@nox.session
def tests(session: nox.Session) -> None:
    """The tests, as CI runs them."""
    session.install("-e", _package(["test"], os.environ.get("XPGPU_DEFAULT_DEVICE", "cpu")))
    session.run("python", "-m", "pytest", *(session.posargs or ["-n", "2"]))


@nox.session
def lint(session: nox.Session) -> None:
    """ruff over the whole repository."""
    session.install("ruff")
    session.run("ruff", "check", ".", *session.posargs)


@nox.session
def typecheck(session: nox.Session) -> None:
    """mypy over the package (configured in pyproject.toml)."""
    session.install("mypy", "-e", ".")
    session.run("mypy", *session.posargs)


@nox.session
def conformance(session: nox.Session) -> None:
    """The official suite (cloned into .suite/, see conformance/README.md) on one device and
    revision. Arguments after -- go to conformance/run.py; without them the device and revision
    come from XPGPU_CONFORMANCE_DEVICE (default cpu) and XPGPU_CONFORMANCE_VERSION (2025.12)."""
    args = session.posargs or [
        "--device", os.environ.get("XPGPU_CONFORMANCE_DEVICE", "cpu"),
        "--version", os.environ.get("XPGPU_CONFORMANCE_VERSION", "2025.12"),
    ]
    device = args[args.index("--device") + 1] if "--device" in args else "cpu"
    suite = ROOT / ".suite" / "array-api-tests"
    if "--suite" not in args and not (suite / "array_api_tests").is_dir():
        session.error(f"no suite at {suite}: clone it as conformance/README.md shows")
    session.install("-e", _package(["conformance"], device))
    session.run("python", "conformance/run.py", *args)


@nox.session
def docs(session: nox.Session) -> None:
    """The documentation, warnings as errors."""
    session.install("-e", _package(["docs"]))
    session.run("sphinx-build", "-W", "--keep-going", "-b", "html", "docs", "docs/_build/html",
                *session.posargs)


@nox.session
def bench(session: nox.Session) -> None:
    """Every benchmarks/*.py script (suite.py writes its CSV, Markdown and PNG to bench-out/)
    on one device (``-- --device cuda:0``, else
    XPGPU_DEFAULT_DEVICE, else the default). The device reaches every script through
    XPGPU_DEFAULT_DEVICE; the arguments after -- go to the scripts that take all of them."""
    args = list(session.posargs)
    device = os.environ.get("XPGPU_DEFAULT_DEVICE", "")
    if "--device" in args:
        i = args.index("--device")
        device = args[i + 1]
        del args[i : i + 2]
    session.install("-e", _package([], device or "cpu"), "array-api-strict", "array-api-compat",
                    "matplotlib")
    env = {"XPGPU_DEFAULT_DEVICE": device} if device else {}
    options = [a.split("=")[0] for a in args if a.startswith("--")]
    for script in sorted((ROOT / "benchmarks").glob("[!_]*.py")):  # _*.py: helpers
        text = script.read_text()
        takes = all(f'"{option}"' in text for option in options)
        session.run("python", str(script.relative_to(ROOT)), *(args if takes else []), env=env)


PEER_LINE = re.compile(
    r"^PEER (?P<peer>\S+) device=(?P<device>\S+) profile=(?P<profile>\S+) (?P<rest>.*)$")


@nox.session
def peers(session: nox.Session) -> None:
    """The peers' own test suites against xpgpu (peers/*.py, one subprocess each), then a
    table. ``-- --device cpu,cuda:0 --profile strict,permissive --peer NAME --fast``; the
    defaults: cpu, both profiles, every peer. Fails when a peer has unknown failures."""
    args = list(session.posargs)

    def option(name: str, default: str) -> list[str]:
        if name in args:
            i = args.index(name)
            value = args[i + 1]
            del args[i : i + 2]
            return value.split(",")
        return default.split(",")

    devices = option("--device", "cpu")
    profiles = option("--profile", "strict,permissive")
    names = option("--peer", ",".join(sorted(p.stem for p in (ROOT / "peers").glob("[!_]*.py"))))
    session.install("-e", _package(["test"], devices[-1]), "-r", "peers/requirements.txt")
    rows, bad = [], []
    for name in names:
        for device in devices:
            for profile in profiles:
                out = session.run("python", f"peers/{name}.py", "--device", device,
                                  "--profile", profile, *args, silent=True,
                                  success_codes=[0, 1, 77]) or ""
                print(out, end="")
                last = PEER_LINE.match((out.strip().splitlines() or [""])[-1])
                rest = last["rest"] if last else "no PEER line (the script crashed)"
                rows.append((name, device, profile, rest))
                if not last or re.search(r"failed=[1-9]", rest):
                    bad.append(f"{name} on {device}, {profile}")
    width = max(len(r[0]) for r in rows)
    print(f"\n{'peer':{width}}  {'device':8}  {'profile':10}  result")
    for name, device, profile, rest in rows:
        print(f"{name:{width}}  {device:8}  {profile:10}  {rest}")
    if bad:
        session.error("unknown failures: " + "; ".join(bad))
