"""pytest plugin (``-p peers._aax_plugin``) pointing array-api-extra's own test fixtures at
xpgpu.

array-api-extra's ``tests/main/conftest.py`` parametrises ``library`` over its ``Backend``
enum and builds ``xp`` from it. Before pytest reads that conftest's fixtures, this plugin
replaces three of them:

- ``library`` yields only ``Backend.ARRAY_API_STRICT`` (test id ``xpgpu``), through the
  upstream fixture body, so the ``skip_xp_backend``/``xfail_xp_backend`` markers upstream
  applies to array_api_strict apply to xpgpu, as do the tests' own branches on it;
- ``xp`` yields ``xpgpu`` (its device and profile come from the environment);
- ``device`` yields a device other than the default where there is one (upstream gives
  array_api_strict's ``Device("device1")``).

Its assertion helpers turn arrays into NumPy arrays with ``_as_numpy_array``, which knows
CuPy, PyTorch and JAX by name and otherwise tries ``numpy.from_dlpack(x)`` (no host copy)
and then ``numpy.asarray(x)`` (``__array__``, not in the standard): neither works for a
GPU array of another namespace (peers/KNOWN.md#array-api-extra-as-numpy-gpu). For xpgpu
arrays on a GPU the plugin moves the array to the host with ``to_device("cpu")`` first.

Tests of other backends' fixtures (``da``, ``jnp``, ``torch``) are deselected. In the
permissive profile, the tests in ``PERMISSIVE_SKIPS`` are skipped with their reason: their
array_api_strict branch asserts a refusal of something the standard leaves undefined,
which the permissive profile does as NumPy does (and the same test accepts from NumPy).

On a GPU, xpgpu is what CuPy is there: ``numpy.asarray(x)`` of a device array is refused
in the strict profile, exactly as CuPy refuses it. The tests upstream skips for CuPy for
that reason (``HOST_COPY_REASONS``: ``lazy_apply(as_numpy=True)`` and the like) are
skipped for xpgpu in the strict profile too. The permissive profile makes that copy and
says so once with ``DeviceToHostCopyWarning``, which upstream's ``filterwarnings = error``
would turn into a failure: the plugin ignores that one warning class, as a user who chose
the permissive profile for its host copies would (docs/profiles.md).
"""

from __future__ import annotations

import os
from collections.abc import Generator
from typing import Any

import pytest

_OTHER_BACKENDS = {"da", "jnp", "torch"}
_replaced: list[str] = []  # the conftest whose fixtures now give xpgpu

PERMISSIVE_SKIPS = {
    f"tests/main/test_at.py::test_incompatible_dtype[xpgpu-{op}-": (
        f"permissive profile: int_array[idx] = {op}(int_array[idx], 1.1) truncates as in "
        "NumPy (the standard leaves it undefined); upstream expects array_api_strict to raise "
        "and NumPy not to") for op in ("set", "min", "max")
}
PERMISSIVE_SKIPS["tests/main/test_testing.py::test_lazy_xp_function_cython_ufuncs[xpgpu]"] = (
    "permissive profile: scipy.special.erf(x) (a NumPy ufunc xpgpu has no function for) "
    "runs on the host and returns an xpgpu array, as upstream's CuPy/Dask branch expects; "
    "upstream expects array_api_strict's NumPy result")


# The reasons of upstream's skip_xp_backend(Backend.CUPY) markers that are about a host
# copy of a device array, which xpgpu on a GPU refuses in the strict profile as CuPy does.
HOST_COPY_REASONS = {"device->host copy", "converts to NumPy"}


def _on_gpu() -> bool:
    import xpgpu

    return xpgpu.__array_namespace_info__().default_device().kind != "cpu"


def _permissive() -> bool:
    return os.environ.get("XPGPU_STRICT", "1").strip() == "0"


def pytest_configure(config: pytest.Config) -> None:
    if _permissive() and _on_gpu():
        # Appended after upstream's "error": the later filter wins.
        config.addinivalue_line(
            "filterwarnings", "ignore::xpgpu._numpy_protocol.DeviceToHostCopyWarning")


def _replace_fixtures(conftest: Any) -> None:
    from array_api_extra._lib._backends import Backend
    from array_api_extra.testing import patch_lazy_xp_functions

    import xpgpu

    upstream_library = conftest.library.__wrapped__

    @pytest.fixture(params=[pytest.param(Backend.ARRAY_API_STRICT, id="xpgpu")])
    def library(request: pytest.FixtureRequest) -> Any:
        return upstream_library(request)

    @pytest.fixture
    def xp(library: Any, request: pytest.FixtureRequest) -> Generator[Any]:
        with patch_lazy_xp_functions(request, xp=xpgpu):
            yield xpgpu

    @pytest.fixture
    def device(library: Any, xp: Any) -> Any:
        default = xp.__array_namespace_info__().default_device()
        others = [d for d in xp.__array_namespace_info__().devices() if d != default]
        return others[0] if others else default

    conftest.library, conftest.xp, conftest.device = library, xp, device
    _host_copies_for_assertions(xpgpu)
    _replaced.append(conftest.__name__)


def _host_copies_for_assertions(xpgpu: Any) -> None:
    from array_api_extra.testing import _testing

    upstream = _testing._as_numpy_array
    cpu = xpgpu.asarray(0, device="cpu").device

    def as_numpy_array(array: Any, *, xp: Any) -> Any:
        if isinstance(array, xpgpu.Array) and array.device != cpu:
            array = array.to_device(cpu)
        return upstream(array, xp=xp)

    _testing._as_numpy_array = as_numpy_array


@pytest.hookimpl(tryfirst=True)
def pytest_plugin_registered(plugin: object, plugin_name: str) -> None:
    # tryfirst: before pytest's FixtureManager parses the conftest's fixtures.
    name = (plugin_name or "").replace("\\", "/")
    if name.endswith("tests/main/conftest.py") and hasattr(plugin, "library"):
        _replace_fixtures(plugin)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if not _replaced:  # upstream moved its fixtures: never run it against another library
        raise pytest.UsageError("peers._aax_plugin: no tests/main/conftest.py with a library "
                                "fixture was seen; the plugin needs updating")
    from array_api_extra._lib._backends import Backend

    permissive = _permissive()
    like_cupy = _on_gpu() and not permissive
    keep: list[pytest.Item] = []
    drop: list[pytest.Item] = []
    for item in items:
        names = set(getattr(item, "fixturenames", ()))
        (drop if names & _OTHER_BACKENDS else keep).append(item)
        for prefix, reason in PERMISSIVE_SKIPS.items() if permissive else ():
            if item.nodeid.startswith(prefix):
                item.add_marker(pytest.mark.skip(reason=reason))
        for marker in item.iter_markers("skip_xp_backend") if like_cupy else ():
            why = marker.kwargs.get("reason")
            if marker.args == (Backend.CUPY,) and why in HOST_COPY_REASONS:
                item.add_marker(pytest.mark.skip(
                    reason=f"strict profile on a GPU refuses numpy.asarray(x), as CuPy does; "
                           f"upstream skips CuPy here ({why})"))
                break
    if drop:
        config.hook.pytest_deselected(items=drop)
        items[:] = keep
