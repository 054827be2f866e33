"""xarray's own array API tests (``xarray/tests/test_array_api.py`` of the installed
xarray) against xpgpu.

    python peers/xarray.py --device cpu --profile strict

``peers/_xarray_plugin.py`` puts xpgpu where the module uses array_api_strict. Needs
xarray (with pandas) and array-api-strict, which the module imports before the swap.
xarray's everyday operations on xpgpu data are tested in tests/test_xarray.py.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

# The repository root, not peers/, first on the path: peers/<peer>.py shadows no package.
sys.path[0] = str(Path(__file__).resolve().parent.parent)

from peers._common import CACHE, Known, Options, Run, Unavailable, main  # noqa: E402

# xarray's own bugs (peers/KNOWN.md).
KNOWN: list[Known] = []


def prepare(opts: Options) -> Run:
    for module in ("xarray", "array_api_strict"):
        if importlib.util.find_spec(module) is None:
            raise Unavailable(f"{module} is not installed")
    spec = importlib.util.find_spec("xarray.tests.test_array_api")
    if spec is None or spec.origin is None:
        raise Unavailable("this xarray ships no tests/test_array_api.py")
    CACHE.mkdir(exist_ok=True)  # a neutral working directory, outside the package
    return Run(["-p", "peers._xarray_plugin", spec.origin], CACHE)


if __name__ == "__main__":
    sys.exit(main("xarray", prepare, KNOWN))
