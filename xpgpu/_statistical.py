"""Statistical functions.

https://data-apis.org/array-api/2025.12/API_specification/statistical_functions.html
"""

from __future__ import annotations

from typing import Any


def cumulative_prod(*args: Any, **kwargs: Any) -> Any:
    raise NotImplementedError("cumulative_prod: not implemented yet")


def cumulative_sum(*args: Any, **kwargs: Any) -> Any:
    raise NotImplementedError("cumulative_sum: not implemented yet")


def max(*args: Any, **kwargs: Any) -> Any:
    raise NotImplementedError("max: not implemented yet")


def mean(*args: Any, **kwargs: Any) -> Any:
    raise NotImplementedError("mean: not implemented yet")


def min(*args: Any, **kwargs: Any) -> Any:
    raise NotImplementedError("min: not implemented yet")


def prod(*args: Any, **kwargs: Any) -> Any:
    raise NotImplementedError("prod: not implemented yet")


def std(*args: Any, **kwargs: Any) -> Any:
    raise NotImplementedError("std: not implemented yet")


def sum(*args: Any, **kwargs: Any) -> Any:
    raise NotImplementedError("sum: not implemented yet")


def var(*args: Any, **kwargs: Any) -> Any:
    raise NotImplementedError("var: not implemented yet")
