"""``python -m xpgpu``: run in a subprocess on the CPU, its output and exit status checked."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[1]


def run_main(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    environ = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])]), **env}
    return subprocess.run([sys.executable, "-m", "xpgpu", *args], capture_output=True,
                          text=True, env=environ, cwd=ROOT, timeout=120)


def test_main_on_cpu_passes_and_reports() -> None:
    result = run_main(XPGPU_DEFAULT_DEVICE="cpu")
    out = result.stdout
    assert result.returncode == 0, out + result.stderr
    assert "FAIL" not in out, out
    # The standard's revision, the CPU device with its backend's version, the default device.
    assert "array API standard 2025.12" in out
    assert re.search(rf"^\s+cpu\s.*numpy {re.escape(np.__version__)}$", out, re.M), out
    assert "Default device: cpu (XPGPU_DEFAULT_DEVICE=cpu)" in out
    assert "Self-check on cpu:" in out
    # Every check line passes, there are several, and the summary counts them.
    checks = re.findall(r"^  (PASS|FAIL)  (.+)$", out, re.M)
    assert len(checks) >= 8 and all(status == "PASS" for status, _ in checks), out
    assert any("NEP 50" in name and "float32" in name for _, name in checks), out
    assert re.search(rf"^PASS: {len(checks)}/{len(checks)} checks passed on cpu$", out, re.M), out


def test_main_rejects_an_unknown_default_device() -> None:
    result = run_main(XPGPU_DEFAULT_DEVICE="tpu:7")
    assert result.returncode == 2, result.stdout + result.stderr
    assert "FAIL" in result.stdout and "tpu:7" in result.stdout


def test_main_rejects_an_unknown_device_argument() -> None:
    result = run_main("--device", "cuda:99", XPGPU_DEFAULT_DEVICE="cpu")
    assert result.returncode == 2, result.stdout + result.stderr
    assert "no device 'cuda:99'" in result.stdout


def test_self_check_failure_exits_non_zero(monkeypatch: pytest.MonkeyPatch,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    """A failing (or crashing) check prints FAIL and makes the exit status 1."""
    import xpgpu.__main__ as main_module

    def broken(device: object) -> list[tuple[str, object]]:
        def crash() -> bool:
            raise RuntimeError("boom")
        return [("always true", lambda: True), ("always false", lambda: False),
                ("crashes", crash)]

    monkeypatch.setattr(main_module, "checks", broken)
    monkeypatch.setattr(main_module._devices, "_default", main_module._devices.CPU)
    assert main_module.main([]) == 1
    out = capsys.readouterr().out
    assert "  PASS  always true" in out
    assert "  FAIL  always false" in out
    assert "  FAIL  crashes: RuntimeError: boom" in out
    assert "FAIL: 1/3 checks passed on cpu" in out
