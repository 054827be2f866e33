"""array-api-extra's own test suite against xpgpu.

    python peers/array_api_extra.py --device cpu --profile strict

The tests come from array-api-extra's source release on the package index (its sdist
carries ``tests/``), pinned by version and sha256 and unpacked into ``.peers/``; the package
runs from that source (``src/`` on the path), with array-api-compat from the environment.
``peers/_aax_plugin.py`` points its ``xp`` fixture at xpgpu with the markers upstream
applies to array_api_strict. Needs pytest, hypothesis, array-api-compat and
typing-extensions.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import sys
from pathlib import Path

# The repository root, not peers/, first on the path: peers/<peer>.py shadows no package.
sys.path[0] = str(Path(__file__).resolve().parent.parent)

from peers._common import ROOT, Known, Options, Run, Unavailable, main, pip_download_sdist  # noqa: E402

VERSION = "0.11.5"
SHA256 = "1f0de7dde3326a7157a63ddbcfab7409b38248f0685e5a0670bd9044a54fcac0"

# array-api-extra's own bugs (peers/KNOWN.md): none so far.
KNOWN: list[Known] = []


def _metadata(source: Path) -> None:
    """The package's metadata, as an install would leave it: its test_version reads it."""
    info = source / "src" / f"array_api_extra-{VERSION}.dist-info"
    info.mkdir(exist_ok=True)
    shutil.copy(source / "PKG-INFO", info / "METADATA")


def prepare(opts: Options) -> Run:
    for module in ("hypothesis", "array_api_compat", "typing_extensions"):
        if importlib.util.find_spec(module) is None:
            raise Unavailable(f"array-api-extra's tests need {module}, which is not installed")
    source = pip_download_sdist("array-api-extra", VERSION, SHA256, _metadata)
    # The whole suite takes seconds: --fast runs it all too. pytest-benchmark, where
    # installed, warns under upstream's filterwarnings=error: blocked.
    args = ["-p", "peers._aax_plugin", "-p", "no:benchmark", "tests/main"]
    return Run(args, source, {"PYTHONPATH": os.pathsep.join(
        p for p in (str(source / "src"), str(ROOT), os.environ.get("PYTHONPATH", "")) if p)})


if __name__ == "__main__":
    sys.exit(main("array-api-extra", prepare, KNOWN))
