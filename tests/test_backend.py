"""The backend layer: spec names map to backend callables; multi-GPU switching."""

from __future__ import annotations

import numpy as np
import pytest

from xpgpu import _backend


def test_renames_map_to_backend_functions() -> None:
    cpu = _backend.get("cpu")
    assert cpu.acos is np.arccos or cpu.acos is _backend._numpy.FIXES.get("acos")
    assert cpu.concat is np.concatenate
    assert cpu.permute_dims is _backend._numpy.FIXES["permute_dims"]  # ndarray.transpose


@pytest.mark.parametrize("name", ["sum", "prod", "max", "min", "mean", "var", "std", "argmax",
                                  "argmin", "cumsum", "cumprod"])
def test_numpy_reductions_call_the_methods_with_numpys_results(name) -> None:
    # The CPU backend skips NumPy's Python wrappers: same results, bit for bit, on
    # ndarrays; anything else (a list) still goes through NumPy's function.
    cpu = _backend.get("cpu")
    a = np.random.default_rng(0).standard_normal((5, 7)).astype(np.float32)
    for args in ((), (0,), (1,)):
        np.testing.assert_array_equal(getattr(cpu, name)(a, *args),
                                      getattr(np, name)(a, *args), strict=True)
    np.testing.assert_array_equal(getattr(cpu, name)([1.0, 2.0]), getattr(np, name)([1.0, 2.0]))


def test_device_backend_makes_its_device_current_before_each_use(monkeypatch) -> None:
    cpu = _backend.get("cpu")
    calls: list[int] = []
    monkeypatch.setattr(cpu.adapter, "use_device", calls.append, raising=False)
    db = _backend.DeviceBackend(cpu, 1)
    np.testing.assert_array_equal(db.add(np.ones(2), 1), [2.0, 2.0])
    assert db.xp.linalg.norm(np.ones(4)) == 2.0
    assert calls == [1, 1]  # one switch per attribute read, before the call
