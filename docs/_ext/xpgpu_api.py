"""Sphinx extension for xpgpu's API pages and benchmark plots.

- Signatures come from the declarations type checkers read (the stub ``xpgpu/__init__.pyi``,
  the sources of ``linalg`` and ``fft``): many functions are built from tables at import.
- Each page gets a parameter list (types, kind, default) from the same declarations, and an example
  (``api_examples.py``) run at build time on the CPU, its output shown.
- ``api.md`` must list every public name (a warning otherwise, so ``-W`` fails).
- The ``bench-figures`` directive shows the ``docs/_static/bench/*.png`` (written by
  ``nox -s bench``) its page does not show already, or a note saying how to produce them.
"""

from __future__ import annotations

import ast
import contextlib
import io
import re
from pathlib import Path
from typing import Any

from api_examples import EXAMPLES, FFT, LINALG
from docutils import nodes
from sphinx.application import Sphinx
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective

import xpgpu

LOG = logging.getLogger(__name__)
HERE = Path(__file__).resolve().parent
DOCS = HERE.parent
PACKAGE = Path(xpgpu.__file__).parent
MODULES = {"xpgpu": xpgpu, "xpgpu.linalg": xpgpu.linalg, "xpgpu.fft": xpgpu.fft}
# Where each module's signatures are declared: the namespace in its stub (its functions are
# built from tables in several modules), linalg and fft in their source (fft's table-built
# transforms in an ``if TYPE_CHECKING:`` block).
SOURCES = {"xpgpu": ["__init__.pyi"], "xpgpu.linalg": ["linalg.py", "_linear_algebra.py"],
           "xpgpu.fft": ["fft.py"]}
ALL_EXAMPLES = {
    **{f"xpgpu.{n}": code for n, code in EXAMPLES.items()},
    **{f"xpgpu.linalg.{n}": code for n, code in LINALG.items()},
    **{f"xpgpu.fft.{n}": code for n, code in FFT.items()},
}
# The stubs' private aliases, as a reader knows them (the API page explains them).
ALIASES = {"builtins.bool": "bool", "DTypeArg": "dtype", "DeviceArg": "device",
           "_Norm": 'Literal["backward", "ortho", "forward"]'}
SPEC = "https://data-apis.org/array-api/2025.12/API_specification/"
# Pages of names whose object has no docstring of its own (floats, None, DType instances).
DATA = {
    "e": ("IEEE 754 floating-point representation of Euler's constant.", "constants.html"),
    "inf": ("IEEE 754 floating-point representation of positive infinity.", "constants.html"),
    "nan": ("IEEE 754 floating-point representation of Not a Number (NaN).",
            "constants.html"),
    "pi": ("IEEE 754 floating-point representation of the constant π.", "constants.html"),
    "newaxis": ("An alias for ``None``, for expanding array dimensions in an index.",
                "constants.html"),
    "__array_api_version__": ("The revision of the standard the namespace follows: "
                              '``"2025.12"`` unless ``set_array_api_version`` selected '
                              "another.", "version.html"),
    **{d: (f"The ``{d}`` data type: an xpgpu singleton (``x.dtype`` is always one) that "
           f"compares and hashes equal to the NumPy dtype of the same name.",
           "data_types.html")
       for d in ("bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
                 "uint64", "float32", "float64", "complex64", "complex128")},
}


def _alias(text: str) -> str:
    for alias, shown in ALIASES.items():
        text = re.sub(rf"\b{re.escape(alias)}\b", shown, text)
    return text


def _stub_functions() -> dict[str, list[ast.FunctionDef]]:
    found: dict[str, list[ast.FunctionDef]] = {}
    for module, sources in SOURCES.items():
        public = set(MODULES[module].__all__)
        for source in sources:
            for node in ast.parse((PACKAGE / source).read_text()).body:
                block = node.body if isinstance(node, ast.If) and \
                    ast.unparse(node.test) == "TYPE_CHECKING" else [node]
                for func in block:
                    if isinstance(func, ast.FunctionDef) and func.name in public:
                        found.setdefault(f"{module}.{func.name}", []).append(func)
    return found


STUB_FUNCTIONS = _stub_functions()


def _signature(func: ast.FunctionDef) -> tuple[str, str]:
    returns = ast.unparse(func.returns) if func.returns is not None else ""
    return f"({_alias(ast.unparse(func.args))})", _alias(returns)


def process_signature(app: Sphinx, what: str, name: str, obj: Any, options: Any,
                      signature: str | None, return_annotation: str | None) -> Any:
    if what == "class" and name == "xpgpu.Array":
        return "", None  # the constructor is not public: arrays come from functions
    variants = STUB_FUNCTIONS.get(name)
    if what != "function" or not variants:
        return None
    if len(variants) == 1:
        return _signature(variants[0])
    return None  # overloads (fuse): autodoc's own signature


def _parameters(func: ast.FunctionDef) -> list[str]:
    """A field list: each parameter with its type, how it is passed and its default."""
    a = func.args
    positional = [*a.posonlyargs, *a.args]
    defaults: list[ast.expr | None] = [None] * (len(positional) - len(a.defaults))
    defaults += a.defaults
    rows: list[tuple[ast.arg, str, ast.expr | None]] = [
        (arg, "positional only" if arg in a.posonlyargs else "positional or keyword", d)
        for arg, d in zip(positional, defaults, strict=True)]
    if a.vararg is not None:
        rows.append((a.vararg, "any number, positional", None))
    rows += [(arg, "keyword only", d) for arg, d in zip(a.kwonlyargs, a.kw_defaults,
                                                         strict=True)]
    lines = []
    for arg, kind, default in rows:
        text = kind + (f"; default ``{ast.unparse(default)}``" if default is not None else "")
        name = f"\\*{arg.arg}" if arg is a.vararg else arg.arg
        lines.append(f":param {name}: {text}.")
        if arg.annotation is not None:
            lines.append(f":type {name}: {_alias(ast.unparse(arg.annotation))}")
    if func.returns is not None:
        lines.append(f":rtype: {_alias(ast.unparse(func.returns))}")
    return lines


def run_example(code: str) -> list[str]:
    """``code`` as an interactive session: each statement, then what it shows."""
    namespace: dict[str, Any] = {"xp": xpgpu}
    exec("import xpgpu as xp", namespace)
    lines = [">>> import xpgpu as xp"]
    source = code.splitlines()
    for statement in ast.parse(code).body:
        text = source[statement.lineno - 1:statement.end_lineno]
        if getattr(statement, "decorator_list", None):
            text = source[statement.decorator_list[0].lineno - 1:statement.end_lineno]
        lines += [(">>> " if i == 0 else "... ") + t for i, t in enumerate(text)]
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            if isinstance(statement, ast.Expr):
                value = eval(compile(ast.Expression(statement.value), "<example>", "eval"),
                             namespace)
                if value is not None:
                    print(repr(value))
            else:
                exec(compile(ast.Module([statement], []), "<example>", "exec"), namespace)
        lines += out.getvalue().rstrip("\n").splitlines()
    return lines


def process_docstring(app: Sphinx, what: str, name: str, obj: Any, options: Any,
                      lines: list[str]) -> None:
    short = name.rsplit(".", 1)[-1]
    if what == "data" and name == f"xpgpu.{short}" and short in DATA:
        text, page = DATA[short]
        lines[:] = [text, "", f"See {SPEC}{page}"]
    variants = STUB_FUNCTIONS.get(name)
    if what == "function" and variants and len(variants) == 1:
        lines += ["", *_parameters(variants[0])]
    code = ALL_EXAMPLES.get(name)
    if code is not None and what in ("function", "data", "class"):
        try:
            session = run_example(code)
        except Exception as exc:  # a stale example fails the build (-W)
            LOG.warning("the example of %s raises %s: %s", name, type(exc).__name__, exc)
            return
        lines += ["", ".. rubric:: Example", "", ".. code-block:: pycon", "",
                  *("   " + line for line in session), ""]


def check_api_page(app: Sphinx) -> None:
    """Every public name of the namespace appears on the API page, with an example."""
    text = (DOCS / "api.md").read_text()
    listed = set(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", text))
    missing = [prefix + name for prefix, module in MODULES.items()
               for name in module.__all__
               if name not in listed and name not in ("fft", "linalg")]
    if missing:
        LOG.warning("docs/api.md does not list: %s", ", ".join(sorted(missing)))
    no_example = [f"{prefix}.{name}" for prefix, module in MODULES.items()
                  for name in module.__all__
                  if f"{prefix}.{name}" not in ALL_EXAMPLES and name not in ("fft", "linalg")]
    if no_example:
        LOG.warning("docs/_ext/api_examples.py has no example of: %s", ", ".join(no_example))


class BenchFigures(SphinxDirective):
    """The benchmark plots, ``_static/bench/*.png`` beside this page, as figures: those the
    page does not already show, or a note where there are none."""

    def run(self) -> list[nodes.Node]:
        page = Path(self.env.doc2path(self.env.docname)).read_text()
        shown = set(re.findall(r"_static/bench/([\w.-]+\.png)", page))
        images = [p for p in sorted((DOCS / "_static" / "bench").glob("*.png"))
                  if p.name not in shown]
        if not images:
            text = nodes.paragraph()
            text += [nodes.Text("No further plots in this build: "),
                     nodes.literal(text="nox -s bench"), nodes.Text(" writes them to "),
                     nodes.literal(text="docs/_static/bench/"),
                     nodes.Text(", and the next docs build shows them here.")]
            note = nodes.note()
            note += text
            return [note]
        figures: list[nodes.Node] = []
        for path in images:
            figure = nodes.figure()
            figure += nodes.image(uri=f"/_static/bench/{path.name}", alt=path.stem)
            figure += nodes.caption(text=path.stem.replace("-", " ").replace("_", " "))
            figures.append(figure)
        return figures


def setup(app: Sphinx) -> dict[str, Any]:
    app.connect("builder-inited", check_api_page)
    app.connect("autodoc-process-signature", process_signature)
    app.connect("autodoc-process-docstring", process_docstring)
    app.add_directive("bench-figures", BenchFigures)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
