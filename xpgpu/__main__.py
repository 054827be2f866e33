"""``python -m xpgpu``: the devices, the versions, and a self-check on the default device.

Exits 0 when every check passes, 1 when one fails, 2 when the device asked for is unusable.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
from collections.abc import Callable
from typing import Any

import xpgpu as xp
from xpgpu import _backend, _devices, _profile
from xpgpu._elementwise import _speedups

GIB = 2**30


def _cpu_memory() -> float | None:
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / GIB
    except (AttributeError, ValueError, OSError):
        return None


def device_lines() -> list[str]:
    """One line per device: name, what it is, memory, backend and its version."""
    cpu = _backend.get("cpu")
    mem = _cpu_memory()
    what = f"{platform.machine() or 'host'}, {os.cpu_count()} cores"
    lines = [f"  cpu     {what:<32} {f'{mem:.1f} GiB' if mem else '?':>10}   "
             f"{cpu.name} {cpu.adapter.VERSION}"]
    try:
        cuda = _backend.get("cuda")
    except ImportError:
        return [*lines, "  cuda    none: CuPy is not installed (pip install 'xpgpu[cuda13]')"]
    devices = _devices.cuda_devices()
    if not devices:
        lines.append(f"  cuda    none: {cuda.name} {cuda.adapter.VERSION} sees no usable GPU")
    for device in devices:
        props = cuda.adapter.device_properties(device.index)
        lines.append(f"  {device!s:<7} {props['name']:<32} {props['memory'] / GIB:>6.1f} GiB   "
                     f"{cuda.name} {cuda.adapter.VERSION}")
    return lines


def _values(x: Any) -> object:
    """The values of ``x`` as (nested lists of) Python scalars, read element by element."""
    if x.ndim == 0:
        return {xp.bool: bool, xp.float32: float, xp.float64: float,
                xp.complex64: complex, xp.complex128: complex}.get(x.dtype, int)(x)
    return [_values(x[i, ...]) for i in range(x.shape[0])]


def _raises(error: type[Exception], func: Callable[[], object]) -> bool:
    try:
        func()
    except error:
        return True
    return False


def checks(d: _devices.Device) -> list[tuple[str, Callable[[], bool]]]:
    """The self-check: (description, check) pairs, each compared with written-out values."""
    # Any: the operators and indexing are installed on Array at import, unseen by mypy.
    def a(values: Any, dtype: Any = None) -> Any:
        return xp.asarray(values, dtype=dtype, device=d)

    def same(x: Any, dtype: object, values: object) -> bool:
        return x.device == d and x.dtype == dtype and _values(x) == values

    return [
        ("add int32 arrays", lambda: same(
            xp.add(a([1, 2, 3], xp.int32), a([10, 20, 30], xp.int32)), xp.int32, [11, 22, 33])),
        ("NEP 50: float32 array + 1.0 stays float32", lambda: same(
            a([1.5, -2.0], xp.float32) + 1.0, xp.float32, [2.5, -1.0])),
        ("promotion: int8 + int16 -> int16", lambda: same(
            a([100], xp.int8) + a([1000], xp.int16), xp.int16, [1100])),
        ("strict: int32 array + 1.5 raises TypeError", lambda: _raises(
            TypeError, lambda: a([1], xp.int32) + 1.5)) if _profile.current() else
        ("permissive: int32 array + 1.5 -> float64, as NumPy", lambda: same(
            a([1], xp.int32) + 1.5, xp.float64, [2.5])),
        ("arange and sum", lambda: same(xp.sum(xp.arange(10, device=d)), xp.int64, 45)),
        ("zeros default dtype float64", lambda: same(
            xp.zeros(2, device=d), xp.float64, [0.0, 0.0])),
        ("matmul float64", lambda: same(
            a([[1.0, 2.0], [3.0, 4.0]]) @ a([[5.0, 6.0], [7.0, 8.0]]),
            xp.float64, [[19.0, 22.0], [43.0, 50.0]])),
        ("sqrt and sin", lambda: same(xp.sqrt(a([4.0, 9.0], xp.float32)), xp.float32, [2.0, 3.0])
            and same(xp.sin(a([0.0])), xp.float64, [0.0])),
        ("slice and boolean mask", lambda: same(a([0, 1, 2, 3, 4, 5, 6])[2:5], xp.int64, [2, 3, 4])
            and same((x := a([5, 9, 6, 8, 7]))[x > 6], xp.int64, [9, 8, 7])),
        ("to_device round trip through cpu", lambda: same(
            a([1.0, 2.0], xp.float32).to_device(_devices.CPU).to_device(d),
            xp.float32, [1.0, 2.0])),
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m xpgpu", description=__doc__)
    parser.add_argument("--device", help="device to check (default: the default device)")
    args = parser.parse_args(argv)

    print(f"xpgpu {xp.__version__}: Python array API standard {xp.__array_api_version__}")
    print(f"Python {platform.python_version()} on {platform.system()} {platform.machine()}; "
          f"binary element-wise fast path: {'compiled' if _speedups else 'pure Python'}")
    print("Devices:")
    print("\n".join(device_lines()))
    env = os.environ.get("XPGPU_DEFAULT_DEVICE")
    try:
        default = _devices.default_device()
    except ValueError as e:
        print(f"FAIL: {e}")
        return 2
    print(f"Default device: {default}" + (f" (XPGPU_DEFAULT_DEVICE={env})" if env else ""))
    print("Profile: " + ("strict" if _profile.current() else "permissive (XPGPU_STRICT=0)"))
    device = _devices.lookup(args.device) if args.device else default
    if device is None:
        print(f"FAIL: no device {args.device!r}; available: "
              f"{', '.join(map(str, _devices.all_devices()))}")
        return 2

    print(f"Self-check on {device}:")
    failed = 0
    todo = checks(device)
    for name, check in todo:
        try:
            ok, why = bool(check()), ""
        except Exception as e:  # a crash is a failure to report, not to propagate
            ok, why = False, f": {type(e).__name__}: {e}"
        failed += not ok
        print(f"  {'PASS' if ok else 'FAIL'}  {name}{why}")
    total = len(todo)
    print(f"{'PASS' if not failed else 'FAIL'}: {total - failed}/{total} checks passed on {device}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
