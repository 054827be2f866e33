"""Devices: the default device, XPGPU_DEFAULT_DEVICE, device= strings and objects,
mismatch errors, to_device across devices."""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest

import xpgpu as xp
from tests.conftest import to_numpy
from xpgpu import _devices

CUDA = bool(_devices.cuda_devices())


def _run(code: str, **env: str | None) -> subprocess.CompletedProcess[str]:
    full = {k: v for k, v in os.environ.items() if k != "XPGPU_DEFAULT_DEVICE"}
    full.update({k: v for k, v in env.items() if v is not None})
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=full, timeout=60)


def test_default_device_without_override():
    out = _run("import xpgpu as xp; print(xp.__array_namespace_info__().default_device(), "
               "xp.asarray(1.0).device)")
    assert out.returncode == 0, out.stderr
    expected = "cuda:0" if CUDA else "cpu"
    assert out.stdout.split() == [expected, expected]


@pytest.mark.parametrize("name", ["cpu", pytest.param("cuda:0", marks=pytest.mark.cuda),
                                  pytest.param("cuda", marks=pytest.mark.cuda)])
def test_default_device_environment(name):
    if name != "cpu" and not CUDA:
        pytest.skip("no CUDA device")
    out = _run("import xpgpu as xp; print(xp.zeros(2).device, xp.asarray([1]).device)",
               XPGPU_DEFAULT_DEVICE=name)
    assert out.returncode == 0, out.stderr
    expected = "cpu" if name == "cpu" else "cuda:0"
    assert out.stdout.split() == [expected, expected]


@pytest.mark.cuda
def test_cuda_visible_devices_gives_a_process_its_gpu():
    # One worker process per GPU (dask_cuda): a process shown only GPU k computes on it as
    # cuda:0, its default device; shown none, on the cpu.
    if not CUDA:
        pytest.skip("no CUDA device")
    code = ("import xpgpu as xp; i = xp.__array_namespace_info__(); "
            "print(i.default_device(), len(i.devices()) - 1)")
    last = str(len(_devices.cuda_devices()) - 1)
    out = _run(code, CUDA_VISIBLE_DEVICES=last)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["cuda:0", "1"]
    out = _run(code, CUDA_VISIBLE_DEVICES="")
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["cpu", "0"]


def test_default_device_environment_unknown():
    out = _run("import xpgpu as xp; xp.zeros(2)", XPGPU_DEFAULT_DEVICE="tpu:3")
    assert out.returncode != 0
    assert "XPGPU_DEFAULT_DEVICE" in out.stderr and "tpu:3" in out.stderr


def test_device_strings_and_objects(device):
    a = xp.asarray([1, 2], device=str(device))
    assert a.device == device and a.device is device
    b = xp.asarray([1, 2], device=a.device)
    assert b.device is device
    assert str(device) in ("cpu", "cuda:0") and repr(device) == f"Device('{device}')"
    assert hash(a.device) == hash(b.device)


@pytest.mark.parametrize("bad", ["gpu", "cuda:x", "cuda:99", "CPU", ""])
def test_unknown_device_string(bad):
    with pytest.raises(ValueError, match="asarray"):
        xp.asarray([1], device=bad)


@pytest.mark.parametrize("bad", [0, object(), 1.5])
def test_device_wrong_type(bad):
    with pytest.raises(TypeError, match="asarray"):
        xp.asarray([1], device=bad)


def test_device_objects_are_not_constructible():
    with pytest.raises(TypeError):
        _devices.Device("cpu")  # type: ignore[call-arg]


def test_devices_listing():
    devices = xp.__array_namespace_info__().devices()
    assert str(devices[0]) == "cpu"
    assert len(devices) == 1 + len(_devices.cuda_devices())


def test_to_device_same_device_returns_self(device):
    a = xp.asarray([1.0, 2.0], device=device)
    assert a.to_device(device) is a
    assert a.to_device(str(device)) is a


def test_to_device_round_trip(device):
    a = xp.asarray([[1, 2], [3, 4]], dtype=xp.int16, device=device)
    host = a.to_device("cpu")
    assert host.device == xp.asarray(0, device="cpu").device and host.dtype == xp.int16
    back = host.to_device(device)
    assert back.device == device
    np.testing.assert_array_equal(to_numpy(back), [[1, 2], [3, 4]])


def test_to_device_bad_arguments():
    a = xp.asarray([1.0], device="cpu")
    with pytest.raises(ValueError, match="to_device"):
        a.to_device("nowhere")
    with pytest.raises(TypeError, match="to_device"):
        a.to_device(3)
    with pytest.raises(ValueError, match="to_device"):
        a.to_device("cpu", stream=1)


@pytest.mark.cuda
@pytest.mark.skipif(not CUDA, reason="no CUDA device")
def test_mismatch_errors():
    """cuda: combining a cpu and a cuda:0 array raises a ValueError (DeviceMismatchError)
    naming the function, in functions, operators, indexing and assignment."""
    c = xp.asarray([1.0, 2.0], device="cpu")
    g = xp.asarray([1.0, 2.0], device="cuda:0")
    for call in (lambda: xp.add(c, g), lambda: c + g, lambda: g * c,
                 lambda: xp.where(xp.asarray([True, False], device="cpu"), g, g),
                 lambda: g[xp.asarray([True, False], device="cpu")],
                 lambda: g.__setitem__(0, c[0])):
        with pytest.raises(ValueError, match="different devices"):
            call()


@pytest.mark.cuda
@pytest.mark.skipif(len(_devices.cuda_devices()) < 2, reason="needs two CUDA devices")
def test_cuda_to_cuda():
    """cuda (2 GPUs): to_device between cuda:0 and cuda:1 keeps values and dtype and
    lands on the target device (a peer copy)."""
    a = xp.asarray(np.arange(12, dtype=np.float32).reshape(3, 4)[:, ::2], device="cuda:0")
    b = a.to_device("cuda:1")
    assert str(b.device) == "cuda:1" and b._data.device.id == 1
    expected = np.arange(12, dtype=np.float32).reshape(3, 4)[:, ::2]
    np.testing.assert_array_equal(to_numpy(b), expected)
    c = b.to_device("cuda:0")
    np.testing.assert_array_equal(to_numpy(c), to_numpy(a))
