"""A pytest plugin (``-p peers._report``) that writes one JSON line per test to the file
named by ``XPGPU_PEER_REPORT``: its node id, its outcome (passed, failed or skipped; an
error in setup or teardown is a failure, xfail a skip, xpass a pass) and a one-line message.
Collection errors are failures too."""

from __future__ import annotations

import json
import os
from typing import Any

import pytest

_outcomes: dict[str, tuple[str, str]] = {}


def _message(report: Any) -> str:
    crash = getattr(report.longrepr, "reprcrash", None)
    if crash is not None:
        return str(crash.message).splitlines()[0] if crash.message else ""
    if isinstance(report.longrepr, tuple):  # a skip: (path, line, reason)
        return str(report.longrepr[2])
    text = str(report.longrepr or "").strip().splitlines()
    return text[-1] if text else ""


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    previous = _outcomes.get(report.nodeid)
    if previous and previous[0] == "failed":
        return  # the first failure (setup or call) is the one that counts
    if hasattr(report, "wasxfail"):
        outcome = "passed" if report.passed else "skipped"
    elif report.failed:
        outcome = "failed"
    elif report.skipped:
        outcome = "skipped"
    elif report.when == "call":
        outcome = "passed"
    else:
        return
    _outcomes[report.nodeid] = (outcome, _message(report) if outcome != "passed" else "")


def pytest_collectreport(report: pytest.CollectReport) -> None:
    if report.failed:
        _outcomes[report.nodeid or "<collection>"] = ("failed", _message(report))


def pytest_sessionfinish(session: pytest.Session) -> None:
    path = os.environ.get("XPGPU_PEER_REPORT")
    if not path or hasattr(session.config, "workerinput"):
        return  # an xdist worker: its reports reach the controller, which writes
    with open(path, "w") as out:
        for nodeid, (outcome, message) in _outcomes.items():
            out.write(json.dumps({"nodeid": nodeid, "outcome": outcome,
                                  "message": message}) + "\n")
