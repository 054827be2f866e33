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


def test_method_forwards_every_argument() -> None:
    # _backend.method (compiled where xpgpu._speedups was built): the ndarray method with
    # the call's positional and keyword arguments as given; the function for a NumPy
    # scalar (a 0-d result) and a subclass; the function's name.
    cpu = _backend.get("cpu")
    a = np.arange(12.0).reshape(3, 4)
    if _backend._speedups is not None:
        assert type(cpu.sum).__name__ == "Method"
    assert cpu.sum.__name__ == "sum" and cpu.permute_dims.__name__ == "transpose"
    np.testing.assert_array_equal(cpu.sum(a, 1, keepdims=True), [[6.0], [22.0], [38.0]])
    np.testing.assert_array_equal(cpu.max(a, axis=0, keepdims=False), [8.0, 9.0, 10.0, 11.0])
    np.testing.assert_array_equal(cpu.clip(a, 2.0, 3.0)[0], [2.0, 2.0, 2.0, 3.0])
    assert cpu.sum(np.float32(3)) == 3 and type(cpu.sum(np.float32(3))) is np.float32
    assert cpu.sum(np.ma.masked_array(a, mask=a == 11.0)) == 55.0  # the subclass's own sum
    with pytest.raises(TypeError):
        cpu.sum(a, 1, 2, 3, 4, 5, 6, 7)


def test_device_backend_makes_its_device_current_before_each_use(monkeypatch) -> None:
    cpu = _backend.get("cpu")
    calls: list[int] = []
    monkeypatch.setattr(cpu.adapter, "use_device", calls.append, raising=False)
    db = _backend.DeviceBackend(cpu, 1)
    np.testing.assert_array_equal(db.add(np.ones(2), 1), [2.0, 2.0])
    assert db.xp.linalg.norm(np.ones(4)) == 2.0
    assert calls == [1, 1]  # one switch per attribute read, before the call
