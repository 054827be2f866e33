"""Indexing functions.

https://data-apis.org/array-api/2025.12/API_specification/indexing_functions.html
"""

from __future__ import annotations

from typing import Any


def take(*args: Any, **kwargs: Any) -> Any:
    raise NotImplementedError("take: not implemented yet")


def take_along_axis(*args: Any, **kwargs: Any) -> Any:
    raise NotImplementedError("take_along_axis: not implemented yet")
