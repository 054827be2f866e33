"""The inspection API.

https://data-apis.org/array-api/2025.12/API_specification/inspection.html

Everything here is generated from the tables of ``_dtypes`` and from ``_devices``.
"""

from __future__ import annotations

from typing import Any

from . import _devices
from . import _validate as v
from ._devices import Device
from ._dtypes import ALL, DEFAULTS, DType

_ALL_DTYPES = frozenset(ALL)
# The default dtypes by device; every device has the same (both backends hold all 13).
_DEFAULT_KINDS = ("real floating", "complex floating", "integral", "indexing")


class Info:
    """What this namespace supports: ``xpgpu.__array_namespace_info__()``."""

    __slots__ = ()

    def capabilities(self) -> dict[str, Any]:
        """See https://data-apis.org/array-api/2025.12/API_specification/generated/array_api.info.capabilities.html"""
        return {
            "boolean indexing": True,
            "data-dependent shapes": True,
            "max dimensions": min(d.backend.adapter.MAX_NDIM for d in _devices.all_devices()),
        }

    def default_device(self) -> Device:
        """See https://data-apis.org/array-api/2025.12/API_specification/generated/array_api.info.default_device.html"""
        return _devices.default_device()

    def default_dtypes(self, *, device: Any = None) -> dict[str, DType]:
        """See https://data-apis.org/array-api/2025.12/API_specification/generated/array_api.info.default_dtypes.html"""
        v.device_or_default("default_dtypes", device)
        return {k: DEFAULTS[k] for k in _DEFAULT_KINDS}

    def dtypes(self, *, device: Any = None, kind: Any = None) -> dict[str, DType]:
        """See https://data-apis.org/array-api/2025.12/API_specification/generated/array_api.info.dtypes.html"""
        func = "dtypes"
        v.device_or_default(func, device)
        if kind is None:
            members = _ALL_DTYPES
        elif isinstance(kind, str) or (
                isinstance(kind, tuple) and all(isinstance(k, str) for k in kind)):
            members = v.kind_arg(func, kind)
        else:
            v.fail(func, f"kind must be None, a kind name or a tuple of kind names, "
                         f"not {kind!r}; use a name such as 'real floating'")
        return {d.name: d for d in ALL if d in members}

    def devices(self) -> tuple[Device, ...]:
        """See https://data-apis.org/array-api/2025.12/API_specification/generated/array_api.info.devices.html"""
        return tuple(_devices.all_devices())

    def __repr__(self) -> str:
        return "xpgpu.__array_namespace_info__()"


_INFO = Info()


def __array_namespace_info__() -> Info:
    """The inspection namespace. See https://data-apis.org/array-api/2025.12/API_specification/generated/array_api.info.__array_namespace_info__.html"""
    return _INFO
