"""The inspection API.

https://data-apis.org/array-api/2025.12/API_specification/inspection.html
"""

from __future__ import annotations

from typing import Any


def __array_namespace_info__(*args: Any, **kwargs: Any) -> Any:
    raise NotImplementedError("__array_namespace_info__: not implemented yet")
