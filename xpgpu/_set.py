"""Set functions.

https://data-apis.org/array-api/2025.12/API_specification/set_functions.html
"""

from __future__ import annotations

from typing import Any


def isin(*args: Any, **kwargs: Any) -> Any:
    raise NotImplementedError("isin: not implemented yet")


def unique_all(*args: Any, **kwargs: Any) -> Any:
    raise NotImplementedError("unique_all: not implemented yet")


def unique_counts(*args: Any, **kwargs: Any) -> Any:
    raise NotImplementedError("unique_counts: not implemented yet")


def unique_inverse(*args: Any, **kwargs: Any) -> Any:
    raise NotImplementedError("unique_inverse: not implemented yet")


def unique_values(*args: Any, **kwargs: Any) -> Any:
    raise NotImplementedError("unique_values: not implemented yet")
