"""DLPack interchange: from_dlpack and the array's __dlpack__.

https://data-apis.org/array-api/2025.12/design_topics/data_interchange.html
"""

from __future__ import annotations

from typing import Any


def from_dlpack(*args: Any, **kwargs: Any) -> Any:
    raise NotImplementedError("from_dlpack: not implemented yet")
