"""How a test run reads on a machine without CUDA: the skips of the tests marked ``cuda``
fold into one summary line with their count (conftest.py), other skips keep their own."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from xpgpu import _devices

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.skipif(bool(_devices.cuda_devices()), reason="CUDA here: the cuda tests run")
def test_cuda_skips_fold_into_one_line() -> None:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:xdist",
         "tests/test_utility.py"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stdout[-2000:]
    lines = [line for line in result.stdout.splitlines() if line.startswith("SKIPPED")]
    assert len(lines) == 1, lines
    count = int(lines[0].split("[", 1)[1].split("]", 1)[0])
    assert "no CUDA device" in lines[0] and count >= 2, lines
    assert f"{count} skipped" in result.stdout.splitlines()[-1]
