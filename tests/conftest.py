"""Shared fixtures: every test runs on each available device through ``device``."""

from __future__ import annotations

import numpy as np
import pytest

import xpgpu as xp
from xpgpu import _devices

_CUDA = _devices.cuda_devices()
_NO_CUDA = "no CUDA device: the tests marked cuda run where CuPy sees a GPU"
# The profile of this run: XPGPU_STRICT=0 selects the permissive one.
STRICT = xp._profile.current()


@pytest.fixture
def strict_profile():  # type: ignore[no-untyped-def]
    """The strict profile for one test, whatever the run selected; the run's after."""
    xp.set_strict(True)
    yield
    xp.set_strict(STRICT)


@pytest.fixture(params=["strict", "permissive"])
def profile(request):  # type: ignore[no-untyped-def]
    """Each profile in turn, by name; the run's profile (XPGPU_STRICT) after."""
    xp.set_strict(request.param == "strict")
    try:
        yield request.param
    finally:
        xp.set_strict(STRICT)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Tests marked ``strict_only`` assert refusals of the strict profile: skipped in a
    permissive run (XPGPU_STRICT=0), where NumPy's result replaces the refusal."""
    if STRICT:
        return
    skip = pytest.mark.skip(reason="asserts a strict-profile refusal (XPGPU_STRICT=0 run)")
    for item in items:
        if "strict_only" in item.keywords:
            item.add_marker(skip)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> object:
    """On a machine without CUDA, every skip of a test marked ``cuda`` is reported at one
    place, so ``-ra`` prints one line with their count instead of one line per test."""
    report = yield
    if (not _CUDA and report.skipped and isinstance(report.longrepr, tuple)
            and item.get_closest_marker("cuda") is not None):
        report.longrepr = (__file__, None, _NO_CUDA)
    return report


@pytest.fixture(
    params=[pytest.param("cpu", id="cpu"),
            pytest.param("cuda:0", id="cuda", marks=pytest.mark.cuda)],
)
def device(request: pytest.FixtureRequest) -> _devices.Device:
    """The device a test runs on: ``cpu``, and ``cuda:0`` where there is one."""
    if request.param != "cpu" and not _CUDA:
        pytest.skip("no CUDA device")
    return _devices.lookup(request.param)  # type: ignore[return-value]


def to_numpy(x: xp.Array) -> np.ndarray:
    """The host copy of an xpgpu array (through to_device and DLPack-free __array__)."""
    return np.asarray(x.to_device("cpu"))


# Tolerances for comparisons against NumPy, by dtype (CUDA's math library may differ by
# a few ulp from the host's).
RTOL = {np.dtype("float32"): 2e-6, np.dtype("complex64"): 2e-6,
        np.dtype("float64"): 1e-13, np.dtype("complex128"): 1e-13}


def assert_close(actual: xp.Array, expected: np.ndarray, ulps: float = 4) -> None:
    """``actual`` equals ``expected`` in shape and dtype, and in value within a few ulp
    (exactly for integer and boolean dtypes); NaNs must match."""
    got = to_numpy(actual)
    # an xpgpu expectation (a CUDA one cannot go through np.asarray in the strict profile)
    expected = to_numpy(expected) if type(expected) is xp.Array else np.asarray(expected)
    assert got.shape == expected.shape, (got.shape, expected.shape)
    assert got.dtype == expected.dtype, (got.dtype, expected.dtype)
    if got.dtype.kind in "fc":
        np.testing.assert_allclose(got, expected, rtol=RTOL[got.dtype] * ulps / 4,
                                   atol=0, equal_nan=True)
    else:
        np.testing.assert_array_equal(got, expected)


# With pytest-xdist (-n 2), tests marked xdist_group("name") run on one worker (xdist's loadgroup
# mode, otherwise its default "load"): tests/test_cubed.py computes each executor's table of
# operations once, in a module-scoped fixture.
def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "xdist_group(name): run these tests on one xdist worker")
    if getattr(config.option, "dist", None) == "load":  # the controller
        config.option.dist = "loadgroup"
    worker = getattr(config, "workerinput", None)
    if worker is not None and not any(a.startswith("--dist") for a in worker.get("mainargv", ())):
        config.option.loadgroup = True  # a worker under the default mode: groups in the ids
