"""The inspection API against the spec's kinds and defaults (tests/oracle.py), per device."""

from __future__ import annotations

import itertools

import numpy as np
import oracle
import pytest
from conftest import to_numpy

import xpgpu as xp
from xpgpu import _devices

INFO = xp.__array_namespace_info__()
ATOMIC = ("bool", "signed integer", "unsigned integer", "real floating", "complex floating")


def test_capabilities() -> None:
    caps = INFO.capabilities()
    assert caps == {"boolean indexing": True, "data-dependent shapes": True,
                    "max dimensions": 64}


def test_max_dimensions_hold(device) -> None:
    n = INFO.capabilities()["max dimensions"]
    x = xp.zeros((1,) * n, device=device)
    assert x.ndim == n and x.shape == (1,) * n


def test_devices() -> None:
    devices = INFO.devices()
    assert type(devices) is tuple
    assert [str(d) for d in devices] == ["cpu"] + [
        f"cuda:{i}" for i in range(len(_devices.cuda_devices()))]
    assert INFO.default_device() in devices
    assert INFO.default_device() is _devices.default_device()
    assert xp.__array_namespace_info__() is INFO


def test_default_dtypes(device) -> None:
    for arg in (device, str(device), None):
        defaults = INFO.default_dtypes(device=arg)
        assert {k: d.name for k, d in defaults.items()} == oracle.DEFAULTS
    # the creation functions follow them
    assert xp.zeros(1, device=device).dtype is INFO.default_dtypes(device=device)["real floating"]
    assert xp.asarray(1, device=device).dtype is INFO.default_dtypes(device=device)["integral"]
    assert xp.asarray(1j, device=device).dtype is \
        INFO.default_dtypes(device=device)["complex floating"]
    assert xp.arange(3, device=device).dtype is INFO.default_dtypes(device=device)["indexing"]


@pytest.mark.parametrize("kind", [None, *oracle.KINDS])
def test_dtypes_by_kind(kind, device) -> None:
    out = INFO.dtypes(device=device, kind=kind)
    expected = set(oracle.DTYPE_NAMES) if kind is None else oracle.KINDS[kind]
    assert set(out) == set(expected)
    for name, d in out.items():
        assert d is getattr(xp, name)
        # every dtype listed works on the device
        x = xp.empty(1, dtype=d, device=device)
        assert x.dtype is d and x.device == device
        assert to_numpy(xp.zeros(2, dtype=d, device=device)).dtype == np.dtype(name)


def test_dtypes_kind_tuples(device) -> None:
    for r in (1, 2, 3):
        for kinds in itertools.combinations(ATOMIC, r):
            out = INFO.dtypes(device=device, kind=kinds)
            assert set(out) == set().union(*(oracle.KINDS[k] for k in kinds))
    assert list(INFO.dtypes(device=device)) == list(oracle.DTYPE_NAMES)


def test_bad_arguments() -> None:
    with pytest.raises(ValueError, match=r"^dtypes: "):
        INFO.dtypes(kind="integer")
    for bad in (xp.int8, ("integral", xp.int8), 3, ["bool"]):
        with pytest.raises(TypeError, match=r"^dtypes: "):
            INFO.dtypes(kind=bad)
    with pytest.raises(ValueError, match=r"^dtypes: "):
        INFO.dtypes(device="gpu:0")
    with pytest.raises(ValueError, match=r"^default_dtypes: "):
        INFO.default_dtypes(device="cuda:99")
    with pytest.raises(TypeError, match=r"^default_dtypes: "):
        INFO.default_dtypes(device=0)
    with pytest.raises(TypeError):
        INFO.dtypes("cpu")  # keyword-only
