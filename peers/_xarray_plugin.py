"""pytest plugin (``-p peers._xarray_plugin``) running xarray's ``tests/test_array_api.py``
with xpgpu in the place of array_api_strict.

That module binds ``xp = pytest.importorskip("array_api_strict")`` and imports
array_api_strict's ``Array`` class; its tests read both as module globals when they run.
Once pytest has imported the module, this plugin rebinds ``xp`` to ``xpgpu`` and ``Array``
to ``xpgpu.Array``, so every array the tests build is an xpgpu array on the device under
test. The tests turn results into NumPy arrays with ``np.asarray(result)`` to compare them;
the standard has no ``__array__`` (nor does CuPy give one), so the module's ``np`` becomes
NumPy with an ``asarray`` that first moves an xpgpu array to the host with ``to_device``.
xarray's own use of NumPy is untouched.
"""

from __future__ import annotations

import types
from typing import Any

import numpy as np
import pytest


def _host_numpy() -> types.ModuleType:
    import xpgpu

    def asarray(obj: Any, *args: Any, **kwargs: Any) -> Any:
        if isinstance(obj, xpgpu.Array):
            obj = obj.to_device("cpu")
        return np.asarray(obj, *args, **kwargs)

    shim = types.ModuleType("numpy")
    shim.__dict__.update(np.__dict__)
    shim.asarray = asarray  # type: ignore[attr-defined]
    return shim


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    import xpgpu

    host = _host_numpy()
    modules = {item.module for item in items if isinstance(item, pytest.Function)}
    swapped = [m for m in modules if m is not None and m.__name__.endswith("test_array_api")]
    if items and not swapped:
        raise pytest.UsageError("peers._xarray_plugin: no xarray test_array_api module to swap")
    for module in swapped:
        assert module.xp.__name__ == "array_api_strict", module.xp  # what upstream binds
        module.xp, module.Array, module.np = xpgpu, xpgpu.Array, host
