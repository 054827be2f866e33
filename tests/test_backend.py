"""The backend layer: spec names map to backend callables; multi-GPU switching."""

from __future__ import annotations

import numpy as np

from xpgpu import _backend


def test_renames_map_to_backend_functions() -> None:
    cpu = _backend.get("cpu")
    assert cpu.acos is np.arccos or cpu.acos is _backend._numpy.FIXES.get("acos")
    assert cpu.concat is np.concatenate
    assert cpu.permute_dims is np.transpose


def test_device_backend_makes_its_device_current_before_each_use(monkeypatch) -> None:
    cpu = _backend.get("cpu")
    calls: list[int] = []
    monkeypatch.setattr(cpu.adapter, "use_device", calls.append, raising=False)
    db = _backend.DeviceBackend(cpu, 1)
    np.testing.assert_array_equal(db.add(np.ones(2), 1), [2.0, 2.0])
    assert db.xp.linalg.norm(np.ones(4)) == 2.0
    assert calls == [1, 1]  # one switch per attribute read, before the call
