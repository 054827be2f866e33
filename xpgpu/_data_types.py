"""Data type functions.

https://data-apis.org/array-api/2025.12/API_specification/data_type_functions.html
"""

from __future__ import annotations

from typing import Any


def astype(*args: Any, **kwargs: Any) -> Any:
    raise NotImplementedError("astype: not implemented yet")


def can_cast(*args: Any, **kwargs: Any) -> Any:
    raise NotImplementedError("can_cast: not implemented yet")


def finfo(*args: Any, **kwargs: Any) -> Any:
    raise NotImplementedError("finfo: not implemented yet")


def iinfo(*args: Any, **kwargs: Any) -> Any:
    raise NotImplementedError("iinfo: not implemented yet")


def isdtype(*args: Any, **kwargs: Any) -> Any:
    raise NotImplementedError("isdtype: not implemented yet")


def result_type(*args: Any, **kwargs: Any) -> Any:
    raise NotImplementedError("result_type: not implemented yet")
