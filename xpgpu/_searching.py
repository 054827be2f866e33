"""Searching functions.

https://data-apis.org/array-api/2025.12/API_specification/searching_functions.html
"""

from __future__ import annotations

from typing import Any


def argmax(*args: Any, **kwargs: Any) -> Any:
    raise NotImplementedError("argmax: not implemented yet")


def argmin(*args: Any, **kwargs: Any) -> Any:
    raise NotImplementedError("argmin: not implemented yet")


def count_nonzero(*args: Any, **kwargs: Any) -> Any:
    raise NotImplementedError("count_nonzero: not implemented yet")


def nonzero(*args: Any, **kwargs: Any) -> Any:
    raise NotImplementedError("nonzero: not implemented yet")


def searchsorted(*args: Any, **kwargs: Any) -> Any:
    raise NotImplementedError("searchsorted: not implemented yet")


def where(*args: Any, **kwargs: Any) -> Any:
    raise NotImplementedError("where: not implemented yet")
