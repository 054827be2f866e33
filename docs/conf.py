"""Sphinx configuration: MyST Markdown pages, pydata-sphinx-theme, autosummary tables.

Build with warnings as errors: ``sphinx-build -W -b html docs docs/_build/html``.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

import xpgpu  # noqa: E402

project = "xpgpu"
author = "xpgpu developers"
copyright = "2026, xpgpu developers"
version = release = xpgpu.__version__

extensions = ["myst_parser", "sphinx.ext.autodoc", "sphinx.ext.autosummary"]
source_suffix = {".md": "markdown", ".rst": "restructuredtext"}
exclude_patterns = ["_build", "Thumbs.db", ".DS_Store"]
myst_heading_anchors = 3
autosummary_generate = False  # tables only: one page per function is the standard's job
autodoc_typehints = "none"

html_theme = "pydata_sphinx_theme"
html_title = f"xpgpu {release}"
html_theme_options = {"navigation_with_keys": False, "show_toc_level": 2}
html_static_path: list[str] = []


def _check_api_page(app: object) -> None:
    """Every public name of the namespace appears on the API page (a warning, so -W fails)."""
    from sphinx.util import logging

    text = (HERE / "api.md").read_text()
    listed = set(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", text))
    modules = {"": xpgpu, "linalg.": xpgpu.linalg, "fft.": xpgpu.fft}
    missing = [prefix + name for prefix, module in modules.items()
               for name in module.__all__ if name not in listed]
    if missing:
        logging.getLogger(__name__).warning(
            "docs/api.md does not list: %s", ", ".join(sorted(missing)))


def setup(app: object) -> None:
    app.connect("builder-inited", _check_api_page)  # type: ignore[attr-defined]
