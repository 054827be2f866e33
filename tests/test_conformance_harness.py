"""conformance/run.py: JUnit parsing, xfail judging and reports, on synthetic JUnit XML.

No suite runs here; the XML below is what pytest 8/9 writes for these outcomes (xunit1
carries the file of each test, xunit2 does not, and both must give the same node ids).
"""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("conformance_run", ROOT / "conformance" / "run.py")
assert _spec is not None and _spec.loader is not None
run = importlib.util.module_from_spec(_spec)
sys.modules["conformance_run"] = run  # dataclasses look their module up there
_spec.loader.exec_module(run)

T = "array_api_tests"
CASES = [  # (classname, name, file, child element or "")
    ("", f"{T}.test_linalg", f"{T}/test_linalg.py",
     '<error message="collection failure">ImportError while importing</error>'),
    (f"{T}.test_creation_functions", "test_arange", f"{T}/test_creation_functions.py", ""),
    (f"{T}.test_creation_functions", "test_zeros", f"{T}/test_creation_functions.py",
     '<failure message="AssertionError: out.dtype=float32, but should be float64&#10;more">'
     "tb</failure>"),
    (f"{T}.test_special_cases", "test_binary[floor_divide(x1_i is +infinity) -&gt; +infinity]",
     f"{T}/test_special_cases.py", '<failure message="AssertionError: nan != inf">tb</failure>'),
    (f"{T}.test_special_cases", "test_binary[add(x1_i is NaN) -&gt; NaN]",
     f"{T}/test_special_cases.py", ""),
    (f"{T}.test_data_type_functions.TestResultType", "test_with_scalars",
     f"{T}/test_data_type_functions.py",
     '<error message="failed on teardown with &quot;RuntimeError: td&quot;">tb</error>'),
    (f"{T}.test_data_type_functions.TestResultType", "test_shuffled",
     f"{T}/test_data_type_functions.py", '<skipped type="pytest.xfail" message="known" />'),
    (f"{T}.test_fft", "test_fft[complex64]", f"{T}/test_fft.py",
     '<skipped type="pytest.skip" message="fft not found">x</skipped>'),
]
IDS = [
    f"{T}/test_linalg.py",
    f"{T}/test_creation_functions.py::test_arange",
    f"{T}/test_creation_functions.py::test_zeros",
    f"{T}/test_special_cases.py::test_binary[floor_divide(x1_i is +infinity) -> +infinity]",
    f"{T}/test_special_cases.py::test_binary[add(x1_i is NaN) -> NaN]",
    f"{T}/test_data_type_functions.py::TestResultType::test_with_scalars",
    f"{T}/test_data_type_functions.py::TestResultType::test_shuffled",
    f"{T}/test_fft.py::test_fft[complex64]",
]
OUTCOMES = ["error", "passed", "failed", "failed", "passed", "error", "xfailed", "skipped"]


def junit(tmp_path: Path, family: str) -> Path:
    rows = []
    for classname, name, file, child in CASES:
        where = f' file="{file}" line="1"' if family == "xunit1" else ""
        rows.append(f'<testcase classname="{classname}" name="{name}"{where} time="0.1">'
                    f"{child}</testcase>")
    path = tmp_path / f"{family}.xml"
    path.write_text('<?xml version="1.0" encoding="utf-8"?><testsuites name="pytest tests">'
                    '<testsuite name="pytest" errors="2" failures="2" skipped="2" tests="8">'
                    + "".join(rows) + "</testsuite></testsuites>")
    return path


@pytest.mark.parametrize("family", ["xunit1", "xunit2"])
def test_parse_junit_node_ids_and_outcomes(tmp_path: Path, family: str) -> None:
    cases = run.parse_junit(junit(tmp_path, family))
    assert [c.nodeid for c in cases] == IDS
    assert [c.outcome for c in cases] == OUTCOMES
    # Messages keep the first line only.
    assert cases[2].message == "AssertionError: out.dtype=float32, but should be float64"
    assert cases[5].message == 'failed on teardown with "RuntimeError: td"'


def test_counts_by_file(tmp_path: Path) -> None:
    table = run.counts_by_file(run.parse_junit(junit(tmp_path, "xunit1")))
    assert {f: dict(c) for f, c in table.items()} == {
        f"{T}/test_creation_functions.py": {"passed": 1, "failed": 1},
        f"{T}/test_data_type_functions.py": {"failed": 1, "xfailed": 1},
        f"{T}/test_fft.py": {"skipped": 1},
        f"{T}/test_linalg.py": {"failed": 1},
        f"{T}/test_special_cases.py": {"passed": 1, "failed": 1},
    }


@pytest.mark.parametrize("pattern, selected", [
    (f"{T}/test_creation_functions.py::test_zeros", {2}),        # an exact id
    (f"{T}/test_special_cases.py::test_binary", {3, 4}),         # an id without parameters
    (f"{T}/test_special_cases.py", {3, 4}),                      # a file
    (f"{T}/", set(range(8))),                                    # a folder
    (f"{T}/test_data_type_functions.py::TestResultType::test_with_scalars", {5}),
    (f"{T}/test_creation_functions.py::test_zero", set()),       # no prefix matches
])
def test_matches_like_the_suite(pattern: str, selected: set[int]) -> None:
    assert {i for i, nodeid in enumerate(IDS) if run.matches(nodeid, pattern)} == selected


def test_judge_with_no_xfails_fails_on_every_failure(tmp_path: Path) -> None:
    verdict = run.judge(run.parse_junit(junit(tmp_path, "xunit2")), {})
    assert not verdict.ok
    assert [c.nodeid for c in verdict.unexpected] == [IDS[0], IDS[2], IDS[3], IDS[5]]
    assert verdict.known == [] and verdict.stale == []


def test_judge_excuses_listed_failures_and_reports_stale_entries(tmp_path: Path) -> None:
    cases = run.parse_junit(junit(tmp_path, "xunit1"))
    xfails = {f"{T}/test_linalg.py": "no linalg yet — https://example.org/1",
              f"{T}/test_special_cases.py::test_binary": "inf // 2 — https://example.org/2",
              f"{T}/test_creation_functions.py::test_arange": "stale — https://example.org/3"}
    verdict = run.judge(cases, xfails)
    assert [c.nodeid for c in verdict.unexpected] == [IDS[2], IDS[5]]
    assert [(c.nodeid, reason) for c, reason in verdict.known] == [
        (IDS[0], "no linalg yet — https://example.org/1"),
        (IDS[3], "inf // 2 — https://example.org/2")]
    assert verdict.stale == [f"{T}/test_creation_functions.py::test_arange"]
    xfails[f"{T}/test_creation_functions.py::test_zeros"] = "x — https://example.org/4"
    xfails[f"{T}/test_data_type_functions.py"] = "x — https://example.org/5"
    assert run.judge(cases, xfails).ok


def test_read_list_needs_a_reason_and_link_above_each_entry(tmp_path: Path) -> None:
    path = tmp_path / "xfails.txt"
    path.write_text("# header: what this file is\n\n"
                    "# floor_divide(inf, 2) — https://github.com/numpy/numpy/issues/1\n"
                    f"{T}/test_special_cases.py::test_binary\n"
                    f"{T}/test_special_cases.py::test_iop\n\n")
    assert run.read_list(path) == {
        f"{T}/test_special_cases.py::test_binary":
            "floor_divide(inf, 2) — https://github.com/numpy/numpy/issues/1",
        f"{T}/test_special_cases.py::test_iop":
            "floor_divide(inf, 2) — https://github.com/numpy/numpy/issues/1"}
    path.write_text("# header\n\n" + f"{T}/test_fft.py\n")
    with pytest.raises(ValueError, match="needs a '# reason — link'"):
        run.read_list(path)
    path.write_text("# a reason without a link\n" + f"{T}/test_fft.py\n")
    with pytest.raises(ValueError, match=":2: entry"):
        run.read_list(path)


@pytest.mark.parametrize("name", ["xfails-cpu.txt", "xfails-cuda.txt", "skips.txt"])
def test_shipped_lists_are_valid(name: str) -> None:
    """Every entry is a suite test id with a reason and an upstream link above it; the
    entries are only the pinned suite's own bugs (the goal stays an empty list)."""
    path = ROOT / "conformance" / name
    assert path.read_text().startswith("#")
    for entry, reason in run.read_list(path).items():
        assert entry.startswith("array_api_tests/test_"), entry
        assert "https://" in reason, (entry, reason)
        assert "suite" in reason, (entry, reason)  # only the suite's bugs are listed


def test_pinned_commit_is_a_full_hash() -> None:
    commit = run.pinned_commit()
    assert len(commit) == 40 and int(commit, 16) >= 0
    assert commit.startswith("55fcc60")


def test_markdown_and_json_reports(tmp_path: Path) -> None:
    cases = run.parse_junit(junit(tmp_path, "xunit1"))
    verdict = run.judge(cases, {f"{T}/test_linalg.py": "r — https://example.org/1",
                                f"{T}/test_fft.py": "r — https://example.org/2"})
    meta = {"device": "cuda:0", "version": "2025.12", "suite": "x @ 55fcc60",
            "pytest_exit_code": 1}
    md = run.markdown(meta, cases, verdict)
    assert md.startswith("# Conformance: xpgpu on cuda:0, revision 2025.12\n")
    assert "| suite | x @ 55fcc60 |" in md
    assert ("**FAIL**: 2 passed, 4 failed (3 unexpected, 1 listed in the xfails file), "
            "1 skipped, 8 tests.") in md
    assert f"| {T}/test_special_cases.py | 1 | 1 | 0 | 0 |" in md
    assert "| **total** | **2** | **4** | **1** | **1** |" in md
    assert f"- `{IDS[2]}` (failed): AssertionError: out.dtype=float32" in md
    assert "## Failures listed in the xfails file" in md
    assert f"- `{T}/test_fft.py`" in md.split("matched no failure")[1]
    data = json.loads(json.dumps(run.summary_json(meta, cases, verdict)))
    assert data["ok"] is False
    assert data["totals"] == {"passed": 2, "failed": 4, "skipped": 1, "xfailed": 1}
    assert [c["nodeid"] for c in data["unexpected_failures"]] == [IDS[2], IDS[3], IDS[5]]
    assert data["stale_xfails"] == [f"{T}/test_fft.py"]
    passing = run.judge([c for c in cases if not c.failed], {})
    assert "**PASS**: 1 passed, 0 failed" in run.markdown(meta, cases[1:2], passing)


def test_suite_commit_from_git_or_the_pin(tmp_path: Path) -> None:
    """A suite with its own .git reports its HEAD; a copy without one (the slim copy carried
    to the GPU machine, even inside another repository) reports the pinned commit."""
    assert run.suite_commit(tmp_path).startswith(run.pinned_commit() + " (no .git")
    git = ["git", "-C", str(tmp_path), "-c", "user.name=t", "-c", "user.email=t@t"]
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "commit", "-q", "--allow-empty", "-m", "x"], check=True)
    head = subprocess.run([*git, "rev-parse", "HEAD"], check=True, capture_output=True,
                          text=True).stdout.strip()
    assert run.suite_commit(tmp_path) == head
    inner = tmp_path / "copy"
    inner.mkdir()
    assert run.suite_commit(inner).startswith(run.pinned_commit())


def test_help_shows_the_usage_as_written(capsys: pytest.CaptureFixture[str]) -> None:
    """``--help`` names the command as it is typed, and the docstring's continued usage line
    stays two lines (a backslash-newline in a non-raw docstring joined them)."""
    with pytest.raises(SystemExit) as exit_info:
        run.main(["--help"])
    assert exit_info.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith("usage: python conformance/run.py [-h]")
    assert "--version 2025.12 \\\n        --max-examples 100" in out
