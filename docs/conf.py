"""Sphinx configuration: MyST Markdown pages, pydata-sphinx-theme, one generated page per
public name (autosummary), signatures and examples from ``_ext/xpgpu_api.py``.

Build with warnings as errors: ``sphinx-build -W -b html docs docs/_build/html``.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE / "_ext"))
# The examples on the API pages run at build time, on the CPU wherever the docs are built.
os.environ["XPGPU_DEFAULT_DEVICE"] = "cpu"

import xpgpu  # noqa: E402

project = "xpgpu"
author = "xpgpu developers"
copyright = "2026, xpgpu developers"
version = release = xpgpu.__version__

extensions = ["myst_parser", "sphinx.ext.autodoc", "sphinx.ext.autosummary", "xpgpu_api"]
source_suffix = {".md": "markdown", ".rst": "restructuredtext"}
exclude_patterns = ["_build", "_templates", "_ext", "Thumbs.db", ".DS_Store"]
templates_path = ["_templates"]
myst_heading_anchors = 3
autosummary_generate = True  # one page per name, under docs/generated/ (not committed)
autodoc_typehints = "none"  # signatures come from the stubs (_ext/xpgpu_api.py)
autodoc_default_options = {"member-order": "bysource"}

html_theme = "pydata_sphinx_theme"
html_title = f"xpgpu {release}"
html_theme_options = {"navigation_with_keys": False, "show_toc_level": 2}
html_static_path: list[str] = []
