"""README.md's Quick start runs as written, on whatever devices this machine has."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def quick_start() -> str:
    text = (ROOT / "README.md").read_text()
    section = text.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```python\n(.*?)```", section, re.S)
    assert len(blocks) == 1, "the Quick start has one Python block"
    return blocks[0]


def test_quick_start_runs() -> None:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    env.pop("XPGPU_API_VERSION", None)
    env.pop("XPGPU_STRICT", None)  # the README shows the default, strict profile
    result = subprocess.run([sys.executable, "-c", quick_start()], cwd=ROOT, env=env,
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].startswith("(Device('cpu')"), lines
    # The mean of 2 sin(x) + 1 over [0, 1] is 1 + 2 (1 - cos 1) = 1.9193954 (float32 sums).
    device, dtype, mean = lines[1].split()
    assert device in ("cpu", "cuda:0") and dtype == "xpgpu.float32", lines
    assert abs(float(mean) - 1.9193954) < 1e-4, lines
    assert lines[2].startswith("__add__: a Python float cannot be combined"), lines
