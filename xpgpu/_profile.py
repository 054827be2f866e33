"""The two profiles: strict (the default) and permissive.

``set_strict(False)`` (or ``XPGPU_STRICT=0``, read once at import) selects the permissive
profile: where the standard defines a result it wins; where it leaves the behaviour
undefined, xpgpu does what NumPy 2 does, on every device. Like the revisions
(``_version``), a switch swaps rule tables once: the namespace's functions and the
array's methods are rebound to ones built from the permissive tables (by
``_permissive.build``, on the first switch). Nothing reads the profile per call.

See docs/profiles.md for every difference between the two.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Callable
from typing import Any

from . import _validate as v
from . import _version

_strict = True
_HOOKS: list[Callable[[bool], None]] = []
# (owner, attribute) -> value, per profile: owners are modules and the Array class.
_STRICT: dict[tuple[Any, str], Any] = {}
_PERMISSIVE: dict[tuple[Any, str], Any] = {}


def current() -> bool:
    """Whether the strict profile is selected."""
    return _strict


def on_switch(hook: Callable[[bool], None]) -> None:
    """Call ``hook(strict)`` now and whenever the profile changes."""
    _HOOKS.append(hook)
    hook(_strict)


def set_strict(flag: bool, /) -> None:
    """Select the strict profile (``True``, the default) or the permissive one
    (``False``). Not in the standard.

    Strict refuses what the standard leaves undefined (integer true division, mixed-kind
    promotion, NumPy operands, index forms beyond the standard's ...), so code that runs
    on xpgpu runs on every conforming library. Permissive keeps every result the
    standard defines and does what NumPy 2 does where the standard is silent, on both
    devices. The switch composes with ``set_array_api_version``, in either order, and
    costs nothing per call. Names imported earlier with ``from xpgpu import ...`` keep
    the function they were bound to. See docs/profiles.md.
    """
    if flag is not True and flag is not False:
        v.fail("set_strict", f"flag must be True or False, not {flag!r}")
    _apply(flag)


def from_environment() -> None:
    """Apply ``XPGPU_STRICT`` once, at the end of ``import xpgpu``: "0" selects the
    permissive profile, "1" (or unset) the strict one."""
    value = os.environ.get("XPGPU_STRICT", "1").strip()
    if value not in ("0", "1", ""):
        raise ValueError(f"XPGPU_STRICT={value!r} must be 0 (permissive) or 1 (strict)")
    if value == "0":
        _apply(False)


def _apply(strict: bool) -> None:
    global _strict
    if not strict and not _PERMISSIVE:
        permissive = importlib.import_module("xpgpu._permissive").build()
        for key in permissive:
            _STRICT[key] = _original(key)
        _PERMISSIVE.update(permissive)
    table = _STRICT if strict else _PERMISSIVE
    for (owner, name), obj in table.items():
        key = (getattr(owner, "__name__", ""), name)
        if key in _version._ORIGINAL:
            # The revision's own table keeps the profile's function: it re-wraps it for
            # an older revision, or leaves it out where the revision has no such name.
            _version._ORIGINAL[key] = obj
        else:
            setattr(owner, name, obj)
    _strict = strict
    _version.reapply()
    for hook in _HOOKS:
        hook(strict)


def _original(key: tuple[Any, str]) -> Any:
    owner, name = key
    recorded = _version._ORIGINAL.get((getattr(owner, "__name__", ""), name))
    if recorded is not None:
        return recorded
    return owner.__dict__[name] if isinstance(owner, type) else getattr(owner, name)
