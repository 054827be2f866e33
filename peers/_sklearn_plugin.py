"""pytest plugin: scikit-learn's own array API tests, pointed at xpgpu on one device.

Loaded with ``-p peers._sklearn_plugin`` by ``peers/sklearn.py``. scikit-learn parametrises
its array API tests with ``sklearn.utils._array_api.yield_namespace_device_dtype_combinations``
(and ``yield_mixed_namespace_input_permutations`` for mixed inputs); its test modules and
``sklearn.utils.estimator_checks`` import those generators by name, so they are replaced in
every scikit-learn module already imported when this plugin loads (before collection), and
test modules imported later pick the replacements up from ``sklearn.utils._array_api``.
``_array_api_for_tests("xpgpu", "cuda:0", ...)`` then imports xpgpu and hands the device
string to ``xp.asarray(..., device=...)``, which xpgpu accepts.

Only the tests that run on xpgpu are kept: an item whose id does not name ``xpgpu`` (numpy
and array_api_strict parametrisations written out by name) is deselected.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from typing import Any

import pytest

DEVICE = os.environ.get("XPGPU_DEFAULT_DEVICE") or "cpu"
NAMESPACE = "xpgpu"


def _combinations(include_numpy_namespaces: bool = True) -> Iterator[tuple[str, str, str]]:
    """xpgpu on the device under test, in both float dtypes (as scikit-learn does for torch)."""
    for dtype in ("float64", "float32"):
        yield NAMESPACE, DEVICE, dtype


def _mixed() -> Iterator[tuple[Any, Any, str]]:
    """Mixed inputs: NumPy to xpgpu, xpgpu to NumPy, array-api-strict to xpgpu."""
    from sklearn.utils._array_api import NamespaceAndDevice as NaD

    yield NaD("numpy", None), NaD(NAMESPACE, DEVICE), f"numpy to xpgpu {DEVICE}"
    yield NaD(NAMESPACE, DEVICE), NaD("numpy", None), f"xpgpu {DEVICE} to numpy"
    yield (NaD("array_api_strict", "device1"), NaD(NAMESPACE, DEVICE),
           f"array_api_strict to xpgpu {DEVICE}")


def _namespaces(include_numpy_namespaces: bool = True) -> Iterator[str]:
    yield NAMESPACE


_REPLACEMENTS = {
    "yield_namespaces": _namespaces,
    "yield_namespace_device_dtype_combinations": _combinations,
    "yield_mixed_namespace_input_permutations": _mixed,
}


def _install() -> None:
    import sklearn.utils._array_api as array_api
    import sklearn.utils.estimator_checks  # noqa: F401  (imports the generators by name)

    originals = {name: getattr(array_api, name) for name in _REPLACEMENTS}
    for module in list(sys.modules.values()):
        if getattr(module, "__name__", "").startswith("sklearn"):
            for name, replacement in _REPLACEMENTS.items():
                if getattr(module, name, None) is originals[name]:
                    setattr(module, name, replacement)


_install()


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Keep only the items that run on xpgpu."""
    kept = [item for item in items if NAMESPACE in item.nodeid]
    dropped = [item for item in items if NAMESPACE not in item.nodeid]
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = kept


def pytest_report_header(config: pytest.Config) -> str:
    import xpgpu

    return f"xpgpu {xpgpu.__file__} on {DEVICE}, XPGPU_STRICT={os.environ.get('XPGPU_STRICT', '1')}"
