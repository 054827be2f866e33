"""The pytest plugins that point scikit-learn's and SciPy's own tests at xpgpu (peers/).

SciPy's markers reach xpgpu as they reach array_api_strict (the plugin's ``_reason``, on
made-up items); scikit-learn's namespace generators yield xpgpu on the device under test
(in a subprocess: the plugin patches scikit-learn for the whole process).
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent


def skip(*args: Any, **kwargs: Any) -> SimpleNamespace:
    """A ``skip_xp_backends`` marker as SciPy's tests write it."""
    return SimpleNamespace(name="skip_xp_backends", args=args, kwargs=kwargs)


class _Item:
    """What ``_reason`` reads of a test item: its markers."""

    def __init__(self, *marks: SimpleNamespace) -> None:
        self.marks = marks

    def iter_markers(self, name: str) -> list[Any]:
        return [m for m in self.marks if m.name == name]


@pytest.fixture
def plugin() -> Any:
    sys.path.insert(0, str(ROOT))
    try:
        import peers._scipy_plugin as module
    finally:
        sys.path.remove(str(ROOT))
    return module


@pytest.mark.parametrize(("marks", "on_cuda", "strict", "expected"), [
    ([skip("array_api_strict", reason="no float16")], False, True, "no float16"),
    ([skip("torch", reason="torch bug")], False, True, None),
    ([skip("cupy", reason="cupy bug")], True, True, None),
    ([skip(np_only=True, reason="numpy only")], False, True, "numpy only"),
    ([skip(np_only=True, exceptions=["array_api_strict"])], False, True, None),
    ([skip(cpu_only=True, reason="host code")], False, True, None),
    ([skip(cpu_only=True, reason="host code")], True, True, "host code"),
    ([skip(cpu_only=True, exceptions=["cupy"], reason="host code")], True, True, "host code"),
    ([skip(cpu_only=True, reason="host code")], True, False, None),
    ([skip(eager_only=True, reason="lazy")], True, True, None),
    ([skip("torch"), skip("array_api_strict", reason="second")], False, True, "second"),
])
def test_scipy_markers_reach_xpgpu_as_array_api_strict(
        plugin: Any, monkeypatch: pytest.MonkeyPatch, marks: list[Any], on_cuda: bool,
        strict: bool, expected: str | None) -> None:
    monkeypatch.setattr(plugin, "ON_CUDA", on_cuda)
    monkeypatch.setattr(plugin, "STRICT", strict)
    reason = plugin._reason(_Item(*marks), "skip")
    if expected is None:
        assert reason is None
    else:  # SciPy's reason, then where it comes from
        assert reason.startswith(f"{expected} (") and "array_api_strict" in reason, reason
    assert plugin._reason(_Item(*marks), "xfail") is None


def xfail(*args: Any, **kwargs: Any) -> SimpleNamespace:
    """An ``xfail_xp_backends`` marker as SciPy's tests write it."""
    return SimpleNamespace(name="xfail_xp_backends", args=args, kwargs=kwargs)


@pytest.mark.parametrize(("mark", "on_cuda", "applies"), [
    (xfail("cupy", reason="inaccurate on CuPy"), True, True),
    (xfail("cupy", reason="cupy returns small but nonzero res.statistic"), True, True),
    (xfail("cupy", reason="inaccurate on CuPy"), False, False),
    (xfail("cupy", reason="cupy/cupy#8405"), True, False),  # a CuPy bug, not the device's
    (xfail("torch", reason="inaccurate"), True, False),
])
def test_scipy_cupy_accuracy_xfails_reach_xpgpu_on_cuda(
        plugin: Any, monkeypatch: pytest.MonkeyPatch, mark: Any, on_cuda: bool,
        applies: bool) -> None:
    """SciPy's xfails for CuPy whose reason is the CUDA device's arithmetic hold for xpgpu
    on CUDA (the same libraries), and only there; never as a skip."""
    monkeypatch.setattr(plugin, "ON_CUDA", on_cuda)
    reason = plugin._reason(_Item(mark), "xfail")
    assert (reason is not None) is applies
    if applies:
        assert reason.startswith(mark.kwargs["reason"]) and "CuPy" in reason
    assert plugin._reason(_Item(mark), "skip") is None


def test_scipy_devices_fixture_gets_a_list(plugin: Any) -> None:
    import xpgpu

    devices = plugin._devices(xpgpu)
    assert type(devices) is list
    assert devices[:-1] == list(xpgpu.__array_namespace_info__().devices())
    assert devices[-1] is None


@pytest.mark.skipif(importlib.util.find_spec("sklearn") is None,
                    reason="scikit-learn is not installed")
def test_sklearn_generators_yield_xpgpu() -> None:
    script = (
        "import peers._sklearn_plugin\n"
        "from sklearn.utils import _array_api as a, estimator_checks as e\n"
        "print(list(a.yield_namespace_device_dtype_combinations()))\n"
        "print(e.yield_namespace_device_dtype_combinations is "
        "a.yield_namespace_device_dtype_combinations)\n"
        "print([m[2] for m in a.yield_mixed_namespace_input_permutations()])\n")
    env = {**os.environ, "PYTHONPATH": str(ROOT), "SCIPY_ARRAY_API": "1",
           "XPGPU_DEFAULT_DEVICE": "cpu"}
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          env=env, cwd=ROOT, timeout=300)
    assert proc.returncode == 0, proc.stderr
    combos, same, mixed = proc.stdout.strip().splitlines()
    assert combos == "[('xpgpu', 'cpu', 'float64'), ('xpgpu', 'cpu', 'float32')]"
    assert same == "True"
    assert mixed == ("['numpy to xpgpu cpu', 'xpgpu cpu to numpy', "
                     "'array_api_strict to xpgpu cpu']")


def test_scipy_tests_draw_repeatably(tmp_path: Path) -> None:
    """SciPy's tests that draw from NumPy's global generator unseeded draw the same values
    in every run (seeded from the test's id), and different tests draw different ones
    (peers/KNOWN.md#scipy-unseeded-random-tests)."""
    (tmp_path / "conftest.py").write_text(
        "import pytest\n\n\n"
        "@pytest.fixture(params=['numpy'])  # SciPy's xp fixture; the plugin makes it xpgpu\n"
        "def xp(request):\n"
        "    return request.param\n")
    (tmp_path / "test_draws.py").write_text(
        "import numpy as np\n\n\n"
        "def test_a(xp):\n"
        "    print('draw a', np.random.random())\n\n\n"
        "def test_b(xp):\n"
        "    print('draw b', np.random.random())\n")
    env = {**os.environ, "PYTHONPATH": str(ROOT), "XPGPU_DEFAULT_DEVICE": "cpu"}
    draws = []
    for _ in range(2):
        proc = subprocess.run(
            [sys.executable, "-m", "pytest", "-q", "-s", "-p", "no:cacheprovider",
             "-p", "peers._scipy_plugin", "test_draws.py"],
            capture_output=True, text=True, env=env, cwd=tmp_path, timeout=300)
        assert proc.returncode == 0, proc.stdout + proc.stderr
        draws.append(sorted(line for line in proc.stdout.splitlines() if "draw " in line))
    assert len(draws[0]) == 2 and draws[0] == draws[1]
    assert draws[0][0].split()[-1] != draws[0][1].split()[-1]
