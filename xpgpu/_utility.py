"""Utility functions.

https://data-apis.org/array-api/2025.12/API_specification/utility_functions.html
"""

from __future__ import annotations

from typing import Any


def all(*args: Any, **kwargs: Any) -> Any:
    raise NotImplementedError("all: not implemented yet")


def any(*args: Any, **kwargs: Any) -> Any:
    raise NotImplementedError("any: not implemented yet")


def diff(*args: Any, **kwargs: Any) -> Any:
    raise NotImplementedError("diff: not implemented yet")
