"""pytest plugin: SciPy's own array API tests, their ``xp`` fixture pointed at xpgpu.

Loaded with ``-p peers._scipy_plugin`` by ``peers/scipy.py`` (with ``SCIPY_ARRAY_API=1``).
SciPy's conftest defines the ``xp`` fixture with one parameter per backend it found
installed (numpy, array_api_strict, torch, cupy ...); before the tests are parametrised,
this plugin replaces those parameters with xpgpu alone, so every test that takes ``xp``
runs once, on xpgpu on the device under test (``XPGPU_DEFAULT_DEVICE``). Tests that do
not take ``xp`` are deselected.

SciPy's ``skip_xp_backends``/``xfail_xp_backends`` markers name backends; xpgpu inherits
the ones SciPy applies to array_api_strict (a backend argument ``"array_api_strict"``, and
``np_only`` unless array_api_strict is among the exceptions). ``cpu_only`` applies where
SciPy applies it to CuPy, on a CUDA device, but only in the strict profile: there SciPy's
NumPy fallback (``np.asarray``) is refused, as CuPy refuses it; the permissive profile
copies to the host, so those tests run. ``eager_only`` never applies (xpgpu is eager).
On a CUDA device, markers for other backends whose reason holds for a device array too
(``GPU_REASONS``: ndimage's ``output=`` arrays, which ``np.asarray`` must view, or which a
NumPy round trip does not write back) apply, and so do SciPy's xfails for CuPy where the
device's arithmetic misses a near-exact reference (``CUPY_ACCURACY_REASONS``).

SciPy tests that draw from NumPy's global generator without a seed get a seed of their
own, from their test id, as pytest-randomly gives them: a run is repeatable
(peers/KNOWN.md#scipy-unseeded-random-tests).

SciPy's assertion helpers compare with ``numpy.testing``, which converts its arguments
with ``np.asarray``; on a CUDA device this plugin moves xpgpu arrays to the host first
(``x.to_device("cpu")``), after checking that they are on the device under test, so the
tests' own checks need no implicit transfer.
"""

from __future__ import annotations

import functools
import os
import sys
import threading
import zlib
from typing import Any

import numpy
import pytest

import xpgpu

DEVICE = os.environ.get("XPGPU_DEFAULT_DEVICE") or "cpu"
STRICT = os.environ.get("XPGPU_STRICT", "1").strip() != "0"
ON_CUDA = DEVICE.startswith("cuda")
HOST = next(d for d in xpgpu.__array_namespace_info__().devices() if str(d) == "cpu")
ALIAS = "array_api_strict"  # the backend whose markers xpgpu inherits


def _devices(xp: Any) -> list[Any]:
    """SciPy's ``devices`` fixture for a namespace it does not special-case, with the
    2025.12 revision's tuple from ``devices()`` turned into a list first."""
    return [*xp.__array_namespace_info__().devices(), None]


@pytest.hookimpl(tryfirst=True)
def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """SciPy's ``xp`` fixture: xpgpu is its only parameter. SciPy's ``devices`` fixture
    appends ``[None]`` to ``devices()``, a tuple since the 2025.12 revision (array_api_strict
    runs at 2024.12 in SciPy's tests, where it is a list): worked around here, so that the
    device propagation tests run (peers/KNOWN.md#scipy-devices-fixture-tuple)."""
    for fixturedef in metafunc._arg2fixturedefs.get("xp", ()):
        if fixturedef.params is not None:
            # (the marker SciPy's conftest registers, read once it has)
            param = pytest.param(xpgpu, id="xpgpu", marks=pytest.mark.array_api_backends)
            fixturedef.params = (param,)  # type: ignore[misc]
            fixturedef.ids = None  # type: ignore[misc]
    for fixturedef in metafunc._arg2fixturedefs.get("devices", ()):
        if fixturedef.argnames == ("xp",):
            fixturedef.func = _devices  # type: ignore[misc]


# Reasons of SciPy's markers for other backends that hold for xpgpu on a CUDA device too:
# ``output=`` arrays that ``np.asarray`` must view (ndimage writes into np.asarray(output));
# on CUDA ``np.asarray`` is a copy (permissive) or refused (strict), as for Dask and JAX.
GPU_REASONS = {"output=array requires buffer view", "numpy round-trip"}
# SciPy's xfails for CuPy where a CUDA device's arithmetic (its reduction order, cuSOLVER)
# misses an exact or near-exact reference (``cheby2``/``ellip`` ``ba_output``, ``kruskal``
# of equal samples): xpgpu computes on the same libraries, so they hold for it on CUDA.
CUPY_ACCURACY_REASONS = {"inaccurate", "inaccurate on CuPy", "slightly inaccurate",
                         "cupy returns small but nonzero res.statistic"}


def _reason(item: pytest.Item, kind: str) -> str | None:
    """Why SciPy's ``{kind}_xp_backends`` markers skip/xfail xpgpu here, or None."""
    inherited = f"(SciPy's marker for {ALIAS}, inherited by xpgpu)"
    for marker in item.iter_markers(f"{kind}_xp_backends"):
        kwargs = marker.kwargs
        reason = kwargs.get("reason")
        if marker.args:
            if marker.args[0] == ALIAS:
                return f"{reason or f'{kind} for {ALIAS}'} {inherited}"
            if ON_CUDA and reason in GPU_REASONS:
                return f"{reason} (a CUDA array's np.asarray is no view)"
            if (ON_CUDA and kind == "xfail" and marker.args[0] == "cupy"
                    and reason in CUPY_ACCURACY_REASONS):
                return f"{reason} (SciPy's xfail for CuPy: xpgpu shares its CUDA libraries)"
        elif kwargs.get("np_only") and ALIAS not in kwargs.get("exceptions", ()):
            return f"{reason or 'do not run with non-NumPy backends'} {inherited}"
        elif kwargs.get("cpu_only") and ON_CUDA and STRICT:
            return f"{reason or 'no delegation for this backend and device'} {inherited}"
    return None


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    callspec = getattr(item, "callspec", None)
    if callspec is None or callspec.params.get("xp") is not xpgpu:
        return
    for kind, act in (("skip", pytest.skip), ("xfail", pytest.xfail)):
        reason = _reason(item, kind)
        if reason is not None:
            act(reason)


@pytest.fixture(autouse=True)
def _seeded_global_generator(request: pytest.FixtureRequest) -> None:
    """NumPy's global generator seeded from the test's id before each test. SciPy's
    ``TestFFT::test_dtypes_real`` draws ``np.random.random(30)`` unseeded and compares at
    ``rtol`` only, so about one run in a thousand fails on any backend (an element near 0)."""
    numpy.random.seed(zlib.crc32(request.node.nodeid.encode()))


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Keep only the tests that run on xpgpu."""
    kept: list[pytest.Item] = []
    dropped: list[pytest.Item] = []
    for item in items:
        callspec = getattr(item, "callspec", None)
        on_xpgpu = callspec is not None and callspec.params.get("xp") is xpgpu
        (kept if on_xpgpu else dropped).append(item)
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = kept


def _to_host(value: Any) -> Any:
    if isinstance(value, xpgpu.Array):
        if str(value.device) != DEVICE:
            raise AssertionError(f"an xpgpu array on {value.device}, not on {DEVICE}")
        return value.to_device(HOST)
    return value


_nested = threading.local()


def _on_host(assertion: Any) -> Any:
    """``assertion`` with its two array arguments moved from the CUDA device to the host.
    An assertion that another one calls (``assert_array_almost_equal`` calls
    ``xp_assert_close``) gets the arguments the outer one already moved: no second check."""

    @functools.wraps(assertion)
    def wrapper(actual: Any, desired: Any, *args: Any, **kwargs: Any) -> Any:
        if getattr(_nested, "depth", 0):
            return assertion(actual, desired, *args, **kwargs)
        _nested.depth = 1
        try:
            return assertion(_to_host(actual), _to_host(desired), *args, **kwargs)
        finally:
            _nested.depth = 0

    return wrapper


def _install_host_assertions() -> None:
    """Every reference to SciPy's assertion helpers (whatever name a module imported them
    under) goes through ``_on_host``; the ones a SciPy version lacks are left out."""
    import importlib

    array_api = importlib.import_module("scipy._lib._array_api")
    names = ["xp_assert_equal", "xp_assert_close", "xp_assert_less", "xp_assert_close_nulp",
             "assert_array_almost_equal", "assert_almost_equal"]
    replacements: dict[int, Any] = {
        id(f): _on_host(f) for f in (getattr(array_api, n, None) for n in names) if f}
    copy = getattr(array_api, "_xp_copy_to_numpy", None)
    if copy is not None:
        replacements[id(copy)] = lambda x: copy(x if getattr(_nested, "depth", 0) else _to_host(x))
    try:  # imports the helpers under other names (xp_assert_close_base ...)
        importlib.import_module("scipy._lib._array_api_no_0d")
    except ImportError:
        pass
    for module in list(sys.modules.values()):
        if getattr(module, "__name__", "").startswith("scipy"):
            for name, value in list(vars(module).items()):
                if id(value) in replacements and not name.startswith("__"):
                    setattr(module, name, replacements[id(value)])


if ON_CUDA:
    _install_host_assertions()


def pytest_report_header(config: pytest.Config) -> str:
    return (f"xpgpu {xpgpu.__file__} on {DEVICE}, "
            f"profile {'strict' if STRICT else 'permissive'}")
