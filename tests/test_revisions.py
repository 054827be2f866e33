"""Revisions: set_array_api_version, XPGPU_API_VERSION, __array_api_version__ and
__array_namespace__(api_version=) agree; newer names leave the module; behaviours that
changed follow the selected revision. Oracle: the spec's changelog, written out here."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

import xpgpu as xp

# Names the standard added after 2023.12 (the spec's "versionadded" notes).
ADDED_2024_12 = ["count_nonzero", "cumulative_prod", "diff", "nextafter", "reciprocal",
                 "take_along_axis"]
ADDED_2025_12 = ["broadcast_shapes", "isin"]
# Binary element-wise functions that took Python scalars from 2024.12.
SCALARS_2024_12 = ["add", "atan2", "copysign", "divide", "equal", "hypot", "logaddexp",
                   "maximum", "multiply", "pow", "subtract"]


@pytest.fixture
def revision():
    """Select a revision for one test, restoring 2025.12 afterwards."""
    yield xp.set_array_api_version
    xp.set_array_api_version("2025.12")


def test_default_is_2025_12():
    assert xp.__array_api_version__ == "2025.12"
    for name in ADDED_2024_12 + ADDED_2025_12:
        assert hasattr(xp, name) and name in xp.__all__


@pytest.mark.parametrize("version", ["2023.12", "2024.12", "2025.12"])
def test_names_follow_revision(revision, version):
    revision(version)
    assert xp.__array_api_version__ == version
    for name in ADDED_2024_12:
        assert hasattr(xp, name) == (version >= "2024.12"), name
        assert (name in xp.__all__) == (version >= "2024.12"), name
    for name in ADDED_2025_12:
        assert hasattr(xp, name) == (version >= "2025.12"), name
        assert (name in xp.__all__) == (version >= "2025.12"), name
    for name in xp.__all__:
        assert hasattr(xp, name), name


def test_switch_back_restores_the_same_objects(revision):
    before = {n: getattr(xp, n) for n in xp.__all__}
    revision("2023.12")
    revision("2025.12")
    assert {n: getattr(xp, n) for n in xp.__all__} == before


@pytest.mark.parametrize("bad", ["2022.12", "2026.12", "latest", ""])
def test_unsupported_version(bad):
    with pytest.raises(ValueError, match="set_array_api_version"):
        xp.set_array_api_version(bad)
    assert xp.__array_api_version__ == "2025.12"


def test_version_must_be_str():
    with pytest.raises(TypeError, match="set_array_api_version"):
        xp.set_array_api_version(2023.12)  # type: ignore[arg-type]


def test_array_namespace_api_version(revision):
    x = xp.asarray([1.0], device="cpu")
    assert x.__array_namespace__() is xp
    for version in ("2023.12", "2024.12", "2025.12"):
        assert x.__array_namespace__(api_version=version) is xp
    assert xp.__array_api_version__ == "2025.12"  # asking does not switch
    with pytest.raises(ValueError, match="__array_namespace__"):
        x.__array_namespace__(api_version="2021.12")
    revision("2023.12")
    assert x.__array_namespace__() is xp
    assert x.__array_namespace__(api_version="2023.12") is xp
    with pytest.raises(ValueError, match="newer than the selected"):
        x.__array_namespace__(api_version="2024.12")


@pytest.mark.parametrize("name", SCALARS_2024_12)
def test_python_scalars_in_functions(revision, device, name):
    x = xp.asarray([1.0, 2.0], device=device)
    func = getattr(xp, name)
    assert func(x, 1.0).shape == (2,)
    assert func(1.0, x).shape == (2,)
    revision("2023.12")
    func = getattr(xp, name)
    with pytest.raises(TypeError, match=f"{name}: .*2024.12"):
        func(x, 1.0)
    with pytest.raises(TypeError, match=f"{name}: .*2024.12"):
        func(1.0, x)
    assert func(x, x).shape == (2,)
    assert (x + 1.0).shape == (2,)  # operators took Python scalars in every revision


def test_where_and_result_type_scalars(revision, device):
    c = xp.asarray([True, False], device=device)
    x = xp.asarray([1.0, 2.0], device=device)
    assert xp.where(c, x, 0.0).shape == (2,)
    assert xp.result_type(x, 1.0) == xp.float64
    revision("2023.12")
    with pytest.raises(TypeError, match="where"):
        xp.where(c, x, 0.0)
    with pytest.raises(TypeError, match="result_type"):
        xp.result_type(x, 1.0)
    assert xp.where(c, x, x).shape == (2,)
    assert xp.result_type(x, xp.float32) == xp.float64


def test_list_returns_before_2025_12(revision, device):
    a = xp.asarray([1, 2], device=device)
    assert type(xp.broadcast_arrays(a, a)) is tuple
    assert type(xp.meshgrid(a, a)) is tuple
    assert type(xp.__array_namespace_info__().devices()) is tuple
    for version in ("2023.12", "2024.12"):
        revision(version)
        assert type(xp.broadcast_arrays(a, a)) is list
        assert type(xp.meshgrid(a, a)) is list
        assert type(xp.__array_namespace_info__().devices()) is list


def test_capabilities_max_dimensions_from_2024_12(revision):
    assert "max dimensions" in xp.__array_namespace_info__().capabilities()
    revision("2024.12")
    assert "max dimensions" in xp.__array_namespace_info__().capabilities()
    revision("2023.12")
    assert "max dimensions" not in xp.__array_namespace_info__().capabilities()


@pytest.mark.strict_only
def test_integer_array_indexing_from_2024_12(revision, device):
    x = xp.asarray([[1, 2], [3, 4]], device=device)
    i = xp.asarray([1, 0], device=device)
    assert x[i, 0].shape == (2,)
    revision("2023.12")
    with pytest.raises(IndexError, match=r"2024\.12"):
        x[i, 0]
    assert int(x[xp.asarray(1, device=device), 0]) == 3  # 0-d arrays are integers


def test_searchsorted_scalar_from_2025_12(revision, device):
    x = xp.asarray([1.0, 2.0, 3.0], device=device)
    assert int(xp.searchsorted(x, 2.5)) == 2
    revision("2024.12")
    with pytest.raises(TypeError, match="searchsorted"):
        xp.searchsorted(x, 2.5)


def _run(code: str, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env={**os.environ, "XPGPU_DEFAULT_DEVICE": "cpu", **env}, timeout=60)


def test_environment_variable():
    code = ("import xpgpu as xp; print(xp.__array_api_version__, hasattr(xp, 'diff'), "
            "'diff' in xp.__all__)")
    out = _run(code, XPGPU_API_VERSION="2023.12")
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["2023.12", "False", "False"]
    out = _run(code, XPGPU_API_VERSION="2024.12")
    assert out.stdout.split() == ["2024.12", "True", "True"]
    out = _run("import xpgpu", XPGPU_API_VERSION="2019.01")
    assert out.returncode != 0 and "XPGPU_API_VERSION" in out.stderr
