"""Manipulation functions.

https://data-apis.org/array-api/2025.12/API_specification/manipulation_functions.html
"""

from __future__ import annotations

from typing import Any


def broadcast_arrays(*args: Any, **kwargs: Any) -> Any:
    raise NotImplementedError("broadcast_arrays: not implemented yet")


def broadcast_shapes(*args: Any, **kwargs: Any) -> Any:
    raise NotImplementedError("broadcast_shapes: not implemented yet")


def broadcast_to(*args: Any, **kwargs: Any) -> Any:
    raise NotImplementedError("broadcast_to: not implemented yet")


def concat(*args: Any, **kwargs: Any) -> Any:
    raise NotImplementedError("concat: not implemented yet")


def expand_dims(*args: Any, **kwargs: Any) -> Any:
    raise NotImplementedError("expand_dims: not implemented yet")


def flip(*args: Any, **kwargs: Any) -> Any:
    raise NotImplementedError("flip: not implemented yet")


def moveaxis(*args: Any, **kwargs: Any) -> Any:
    raise NotImplementedError("moveaxis: not implemented yet")


def permute_dims(*args: Any, **kwargs: Any) -> Any:
    raise NotImplementedError("permute_dims: not implemented yet")


def repeat(*args: Any, **kwargs: Any) -> Any:
    raise NotImplementedError("repeat: not implemented yet")


def reshape(*args: Any, **kwargs: Any) -> Any:
    raise NotImplementedError("reshape: not implemented yet")


def roll(*args: Any, **kwargs: Any) -> Any:
    raise NotImplementedError("roll: not implemented yet")


def squeeze(*args: Any, **kwargs: Any) -> Any:
    raise NotImplementedError("squeeze: not implemented yet")


def stack(*args: Any, **kwargs: Any) -> Any:
    raise NotImplementedError("stack: not implemented yet")


def tile(*args: Any, **kwargs: Any) -> Any:
    raise NotImplementedError("tile: not implemented yet")


def unstack(*args: Any, **kwargs: Any) -> Any:
    raise NotImplementedError("unstack: not implemented yet")
