"""Revisions of the standard: 2023.12, 2024.12 and 2025.12 (the default).

``set_array_api_version`` (or ``XPGPU_API_VERSION``, read once at import) selects one.
Switching edits the namespace once: names newer than the revision leave the module and
its ``__all__``, and the few functions whose behaviour changed between revisions are
swapped for their older form. Nothing is read per call: the default revision runs the
functions themselves, and an older one runs the swapped-in functions.

https://data-apis.org/array-api/2025.12/changelog.html
"""

from __future__ import annotations

import functools
import os
import sys
from collections.abc import Callable
from typing import Any

from . import _validate as v

SUPPORTED = ("2023.12", "2024.12", "2025.12")
DEFAULT = "2025.12"

# Names the standard added after 2023.12: (module, name) -> the revision adding them.
ADDED: dict[tuple[str, str], str] = {
    ("xpgpu", "count_nonzero"): "2024.12",
    ("xpgpu", "cumulative_prod"): "2024.12",
    ("xpgpu", "diff"): "2024.12",
    ("xpgpu", "nextafter"): "2024.12",
    ("xpgpu", "reciprocal"): "2024.12",
    ("xpgpu", "take_along_axis"): "2024.12",
    ("xpgpu", "broadcast_shapes"): "2025.12",
    ("xpgpu", "isin"): "2025.12",
    ("xpgpu.linalg", "eig"): "2025.12",
    ("xpgpu.linalg", "eigvals"): "2025.12",
}

# Functions calling back on a switch (``on_switch``): behaviour changes inside modules,
# such as integer array indexing (2024.12).
_HOOKS: list[Callable[[str], None]] = []
_current = DEFAULT
# The namespace as imported: {(module, name): object}, and each module's __all__.
_ORIGINAL: dict[tuple[str, str], Any] = {}
_ORIGINAL_ALL: dict[str, list[str]] = {}


def current() -> str:
    """The selected revision."""
    return _current


def on_switch(hook: Callable[[str], None]) -> None:
    """Call ``hook(revision)`` now and whenever the revision changes."""
    _HOOKS.append(hook)
    hook(_current)


def check_requested(func: str, api_version: object) -> None:
    """``api_version`` of ``__array_namespace__``: the selected revision or an older one,
    since the namespace keeps code written for an older revision working."""
    if api_version not in SUPPORTED:
        v.fail(func, f"unsupported api_version {api_version!r}; supported: "
                     f"{', '.join(SUPPORTED)}; use one of them", ValueError)
    if api_version > _current:  # type: ignore[operator]
        v.fail(func, f"api_version {api_version!r} is newer than the selected revision "
                     f"{_current!r}; call xpgpu.set_array_api_version({api_version!r}) first",
               ValueError)


def set_array_api_version(version: str, /) -> None:
    """Select the revision of the standard the namespace follows: ``"2023.12"``,
    ``"2024.12"`` or ``"2025.12"`` (the default). Not in the standard.

    Names newer than the revision leave ``xpgpu`` (and ``__all__``), and the functions
    whose behaviour changed follow that revision (Python scalars in functions and integer
    array indexing came in 2024.12; tuples from ``broadcast_arrays``, ``meshgrid`` and
    ``devices()`` in 2025.12). Names imported earlier with ``from xpgpu import ...``
    keep the object they were bound to.
    """
    func = "set_array_api_version"
    if type(version) is not str:
        v.fail(func, f"version must be a str such as {DEFAULT!r}, not {type(version).__name__}; "
                     f"use {DEFAULT!r}")
    if version not in SUPPORTED:
        v.fail(func, f"unsupported version {version!r}; use one of {', '.join(SUPPORTED)}",
               ValueError)
    _apply(version)


def from_environment() -> None:
    """Apply ``XPGPU_API_VERSION`` once, at the end of ``import xpgpu``."""
    version = os.environ.get("XPGPU_API_VERSION")
    if version and version not in SUPPORTED:
        raise ValueError(f"XPGPU_API_VERSION={version!r} is not a supported revision; "
                         f"supported: {', '.join(SUPPORTED)}")
    _apply(version or DEFAULT)


# ---- the older forms of functions whose behaviour changed ------------------------------

def _arrays_only(func: Callable[..., Any], positions: tuple[int, ...],
                 revision: str) -> Callable[..., Any]:
    """``func`` refusing Python scalars at ``positions`` (they came in ``revision``)."""
    name = func.__name__
    array = sys.modules["xpgpu._array"].Array  # imported by now; _array imports this module

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        for i in positions:
            if i < len(args) and type(args[i]) is not array:
                _refuse_scalar(name, i, args[i], revision)
        return func(*args, **kwargs)

    return wrapper


def _no_scalars(func: Callable[..., Any], revision: str) -> Callable[..., Any]:
    """``result_type`` refusing Python scalars (they came in ``revision``)."""
    name = func.__name__

    @functools.wraps(func)
    def wrapper(*args: Any) -> Any:
        for i, a in enumerate(args):
            if isinstance(a, (bool, int, float, complex)):
                _refuse_scalar(name, i, a, revision)
        return func(*args)

    return wrapper


def _refuse_scalar(name: str, i: int, value: object, revision: str) -> None:
    if isinstance(value, (bool, int, float, complex)):
        v.fail(name, f"argument {i + 1} is a Python {type(value).__name__}; Python scalars "
                     f"as arguments came in revision {revision} of the standard, and "
                     f"{_current} is selected (xpgpu.set_array_api_version)")


def _as_list(func: Callable[..., Any]) -> Callable[..., Any]:
    """``func`` returning a list, as before 2025.12, instead of a tuple."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        return list(func(*args, **kwargs))

    return wrapper


def _info_before(revision: str, info: Callable[[], Any]) -> Callable[[], Any]:
    """``__array_namespace_info__`` as before 2025.12: ``devices()`` returns a list, and
    before 2024.12 ``capabilities()`` has no "max dimensions"."""
    base = type(info())

    class Info(base):  # type: ignore[misc, valid-type]
        __slots__ = ()

        def devices(self) -> list[Any]:
            return list(base.devices(self))

        def capabilities(self) -> dict[str, Any]:
            caps = base.capabilities(self)
            if revision < "2024.12":
                caps.pop("max dimensions", None)
            return caps  # type: ignore[no-any-return]

    Info.__name__ = Info.__qualname__ = base.__name__
    instance = Info()

    @functools.wraps(info)
    def __array_namespace_info__() -> Any:
        return instance

    return __array_namespace_info__


_BINARY_2024 = (
    "add", "atan2", "bitwise_and", "bitwise_left_shift", "bitwise_or", "bitwise_right_shift",
    "bitwise_xor", "copysign", "divide", "equal", "floor_divide", "greater", "greater_equal",
    "hypot", "less", "less_equal", "logaddexp", "logical_and", "logical_or", "logical_xor",
    "maximum", "minimum", "multiply", "not_equal", "pow", "remainder", "subtract",
)

# (module, name) -> (the revision whose behaviour the function has, the factory of its
# form for older revisions).
REVISED: dict[tuple[str, str], tuple[str, Callable[[Callable[..., Any], str], Any]]] = {
    **{("xpgpu", n): ("2024.12", lambda f, r: _arrays_only(f, (0, 1), "2024.12"))
       for n in _BINARY_2024},
    ("xpgpu", "where"): ("2024.12", lambda f, r: _arrays_only(f, (1, 2), "2024.12")),
    ("xpgpu", "result_type"): ("2024.12", lambda f, r: _no_scalars(f, "2024.12")),
    ("xpgpu", "searchsorted"): ("2025.12", lambda f, r: _arrays_only(f, (1,), "2025.12")),
    ("xpgpu", "broadcast_arrays"): ("2025.12", lambda f, r: _as_list(f)),
    ("xpgpu", "meshgrid"): ("2025.12", lambda f, r: _as_list(f)),
    ("xpgpu", "__array_namespace_info__"): ("2025.12", lambda f, r: _info_before(r, f)),
}


def _record() -> None:
    """Keep the namespace as imported (the 2025.12 one), once."""
    for key in (*ADDED, *REVISED):
        module = sys.modules.get(key[0])
        if module is not None and hasattr(module, key[1]):
            _ORIGINAL[key] = getattr(module, key[1])
    for name in {k[0] for k in (*ADDED, *REVISED)}:
        module = sys.modules.get(name)
        if module is not None and hasattr(module, "__all__"):
            _ORIGINAL_ALL[name] = list(module.__all__)


def reapply() -> None:
    """Apply the selected revision again, to the namespace as it now is (after the
    profile, ``_profile``, replaced functions in ``_ORIGINAL``)."""
    _apply(_current)


def _apply(version: str) -> None:
    global _current
    if not _ORIGINAL_ALL:
        _record()
    absent: dict[str, set[str]] = {name: set() for name in _ORIGINAL_ALL}
    for key, obj in _ORIGINAL.items():
        module = sys.modules[key[0]]
        added = ADDED.get(key)
        if added is not None and version < added:
            if hasattr(module, key[1]):
                delattr(module, key[1])
            absent.setdefault(key[0], set()).add(key[1])
            continue
        revised = REVISED.get(key)
        if revised is not None and version < revised[0]:
            obj = revised[1](obj, version)
        setattr(module, key[1], obj)
    for name, names in _ORIGINAL_ALL.items():
        # In place: `from xpgpu import __all__` holders see the change too.
        sys.modules[name].__all__[:] = [n for n in names if n not in absent[name]]
    _current = version
    sys.modules["xpgpu"].__array_api_version__ = version  # type: ignore[attr-defined]
    for hook in _HOOKS:
        hook(version)
