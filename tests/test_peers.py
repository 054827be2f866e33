"""The peers' own test suites against xpgpu on the CPU (peers/*.py), one subprocess each.

Each peer script runs its library's tests with xpgpu as the array namespace and ends with
``PEER <peer> device=cpu profile=<p> passed=N failed=N skipped=N known=N``, where
``failed`` counts the failures that are not the peer's listed bugs. A peer that cannot run
here (not installed, not downloadable, profile absent) exits 77: the test skips. The
framework's own bookkeeping is tested first, on made-up outcomes.
"""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PEERS = sorted(p.stem for p in (ROOT / "peers").glob("[!_]*.py"))
LINE = re.compile(r"^PEER (\S+) device=cpu profile=(\S+) passed=(\d+) failed=(\d+) "
                  r"skipped=(\d+) known=(\d+)$")


def _common():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("peers_common", ROOT / "peers" / "_common.py")
    module = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    sys.modules["peers_common"] = module
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    return module


def test_summary_counts_known_peer_bugs_apart(capsys: pytest.CaptureFixture[str]) -> None:
    common = _common()
    known = [common.Known("t.py::test_a*", "bug-a"),
             common.Known("t.py::test_b", "bug-b", devices=("cuda:0",)),
             common.Known("t.py::test_c", "bug-c", profiles=("permissive",))]
    records = [{"nodeid": n, "outcome": o, "message": "m"} for n, o in [
        ("t.py::test_a1", "failed"), ("t.py::test_a2", "failed"), ("t.py::test_b", "failed"),
        ("t.py::test_c", "passed"), ("t.py::test_d", "skipped"), ("t.py::test_e", "passed")]]
    opts = common.Options("demo", "cpu", "strict", False, [])
    assert common.summarise(opts, records, known) == 1  # test_b is known on cuda:0 only
    out = capsys.readouterr().out.splitlines()
    assert out[-1] == "PEER demo device=cpu profile=strict passed=2 failed=1 skipped=1 known=2"
    assert "FAILED t.py::test_b - m" in out
    opts.device = "cuda:0"
    assert common.summarise(opts, records, known) == 0
    last = capsys.readouterr().out.splitlines()[-1]
    assert last == "PEER demo device=cuda:0 profile=strict passed=2 failed=0 skipped=1 known=3"


def test_known_peer_bug_by_message(capsys: pytest.CaptureFixture[str]) -> None:
    """A ``Known`` row with ``message`` takes only failures whose message matches."""
    common = _common()
    known = common.known("bug-m", "t.py::*", message=r"implicit conversion of a cuda:\d+")
    records = [
        {"nodeid": "t.py::a", "outcome": "failed",
         "message": "TypeError: __array__: implicit conversion of a cuda:0 array to NumPy"},
        {"nodeid": "t.py::b", "outcome": "failed", "message": "AssertionError: 1 != 2"}]
    opts = common.Options("demo", "cuda:0", "strict", False, [])
    assert common.summarise(opts, records, known) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[-1] == "PEER demo device=cuda:0 profile=strict passed=0 failed=1 skipped=0 known=1"
    assert "FAILED t.py::b - AssertionError: 1 != 2" in out


def test_sdist_unpacked_and_finished_once_in_parallel(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """Runs in parallel (the strict and permissive runs of one peer) unpack a source
    release once and finish it once, before any of them uses it: a finish step that
    creates a folder raised FileExistsError in the second run when it ran outside the
    lock."""
    import hashlib
    import io
    import tarfile
    import threading

    common = _common()
    monkeypatch.setattr(common, "CACHE", tmp_path)
    archive = tmp_path / "demo_pkg-1.0.tar.gz"
    with tarfile.open(archive, "w:gz") as tar:
        data = b"Name: demo-pkg\n"
        member = tarfile.TarInfo("demo_pkg-1.0/PKG-INFO")
        member.size = len(data)
        tar.addfile(member, io.BytesIO(data))
    digest = hashlib.sha256(archive.read_bytes()).hexdigest()
    finished: list[bool] = []

    def finish(folder: Path) -> None:
        finished.append((folder / ".complete").exists())
        (folder / "meta").mkdir()  # not exist_ok: a second finish fails

    results: list[object] = []

    def run() -> None:
        try:
            results.append(common.pip_download_sdist("demo-pkg", "1.0", digest, finish))
        except Exception as e:  # the test's failure, reported below
            results.append(e)

    threads = [threading.Thread(target=run) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == [tmp_path / "demo_pkg-1.0"] * 4
    assert finished == [False]
    assert (tmp_path / "demo_pkg-1.0" / "PKG-INFO").read_bytes() == b"Name: demo-pkg\n"


@pytest.mark.parametrize("profile", ["strict", "permissive"])
@pytest.mark.parametrize("peer", PEERS)
def test_peer_suite_on_cpu(peer: str, profile: str) -> None:
    script = ROOT / "peers" / f"{peer}.py"
    proc = subprocess.run([sys.executable, str(script), "--device", "cpu", "--profile", profile,
                           "--fast"], capture_output=True, text=True, cwd=ROOT, timeout=1800)
    lines = proc.stdout.strip().splitlines() or [""]
    if proc.returncode == 77:
        pytest.skip(lines[-1])
    tail = "\n".join((proc.stdout + proc.stderr).strip().splitlines()[-40:])
    match = LINE.match(lines[-1])
    assert match, f"no PEER line:\n{tail}"
    assert (match[1], match[2]) == (peer.replace("_", "-"), profile)
    assert int(match[4]) == 0 and proc.returncode == 0, f"unknown failures:\n{tail}"
    assert int(match[3]) > 0, f"no test passed:\n{tail}"
