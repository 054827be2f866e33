"""Sorting functions.

https://data-apis.org/array-api/2025.12/API_specification/sorting_functions.html
"""

from __future__ import annotations

from typing import Any


def argsort(*args: Any, **kwargs: Any) -> Any:
    raise NotImplementedError("argsort: not implemented yet")


def sort(*args: Any, **kwargs: Any) -> Any:
    raise NotImplementedError("sort: not implemented yet")
