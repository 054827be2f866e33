"""logspace: an extension beyond the standard, exact for integer dtypes.
"""

from __future__ import annotations

from typing import Any


def logspace(*args: Any, **kwargs: Any) -> Any:
    raise NotImplementedError("logspace: not implemented yet")
