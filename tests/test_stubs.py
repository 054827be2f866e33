"""The declared signatures against the namespace at run time: the same public names, and for
each function the same parameters (names, kinds, defaults) as ``inspect.signature``
reports, where it reports one; no parameter typed ``Any``.

The namespace's are in the stub ``xpgpu/__init__.pyi`` (its functions are built from tables
in several modules); ``linalg`` and ``fft`` declare theirs in their own source, the
table-built transforms in an ``if TYPE_CHECKING:`` block.
"""

from __future__ import annotations

import ast
import inspect
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

import xpgpu as xp

PACKAGE = Path(xp.__file__).parent
MODULES = {"__init__.pyi": xp, "linalg.py": xp.linalg, "fft.py": xp.fft}
# Where a module's names are declared: the stub, or the module and what it re-exports.
SOURCES = {"__init__.pyi": ["__init__.pyi"], "linalg.py": ["linalg.py", "_linear_algebra.py"],
           "fft.py": ["fft.py"]}
# Module attributes the stubs declare that are not namespace names.
NOT_IN_ALL = {"__all__", "__version__"}
# Declared for the permissive profile's branch (xpgpu.set_strict): until it is merged, this
# xpgpu lacks it (as tests/test_peers.py and tests/test_xarray.py skip without it).
PENDING = {"set_strict"} - set(dir(xp))
_KINDS = {
    "posonlyargs": inspect.Parameter.POSITIONAL_ONLY,
    "args": inspect.Parameter.POSITIONAL_OR_KEYWORD,
    "kwonlyargs": inspect.Parameter.KEYWORD_ONLY,
}


@pytest.fixture(autouse=True)
def _default_revision() -> Any:
    """The stubs describe 2025.12, the default revision."""
    if xp.__array_api_version__ != "2025.12":
        pytest.skip("the stubs describe revision 2025.12 (XPGPU_API_VERSION selects another)")
    yield


def _stub(name: str) -> ast.Module:
    """The declarations of ``name``: its top-level statements and those of its top-level
    ``if TYPE_CHECKING:`` blocks, from each of its sources."""
    body: list[ast.stmt] = []
    for source in SOURCES[name]:
        for node in ast.parse((PACKAGE / source).read_text()).body:
            if isinstance(node, ast.If) and ast.unparse(node.test) == "TYPE_CHECKING":
                body += node.body
            else:
                body.append(node)
    module = MODULES[name]
    names = set(module.__all__) | {n for n in dir(module) if n.endswith("Result")}
    if name != "__init__.pyi":  # a module's private and imported helpers are not declarations
        body = [n for n in body if not isinstance(n, (ast.Import, ast.ImportFrom))
                and getattr(n, "name", None) in names]
    return ast.Module(body=body, type_ignores=[])


def _public(name: str) -> bool:
    return not name.startswith("_") or (name.startswith("__") and name.endswith("__"))


def _declared(tree: ast.Module) -> dict[str, ast.stmt]:
    """The public names a stub declares, with their statement (the last, for overloads)."""
    names: dict[str, ast.stmt] = {}
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names[node.name] = node
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names[node.target.id] = node
        elif isinstance(node, ast.ImportFrom):
            for alias in node.names:
                if alias.asname == alias.name:  # `import x as x`: a re-export
                    names[alias.name] = node
    return {n: s for n, s in names.items() if _public(n) and n not in NOT_IN_ALL}


def _overloads(tree: ast.Module) -> dict[str, list[ast.FunctionDef]]:
    found: dict[str, list[ast.FunctionDef]] = {}
    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            found.setdefault(node.name, []).append(node)
    return found


def _parameters(func: ast.FunctionDef) -> list[tuple[str, Any, Any]]:
    """(name, kind, default) of a stub function; ``inspect.Parameter.empty`` for none."""
    a = func.args
    empty = inspect.Parameter.empty
    positional = [*a.posonlyargs, *a.args]
    defaults = [empty] * (len(positional) - len(a.defaults)) + [
        ast.literal_eval(d) for d in a.defaults]
    out = []
    for arg, default in zip(positional, defaults, strict=True):
        kind = _KINDS["posonlyargs" if arg in a.posonlyargs else "args"]
        out.append((arg.arg, kind, default))
    if a.vararg is not None:
        out.append((a.vararg.arg, inspect.Parameter.VAR_POSITIONAL, empty))
    for arg, kw_default in zip(a.kwonlyargs, a.kw_defaults, strict=True):
        default = empty if kw_default is None else ast.literal_eval(kw_default)
        out.append((arg.arg, _KINDS["kwonlyargs"], default))
    if a.kwarg is not None:
        out.append((a.kwarg.arg, inspect.Parameter.VAR_KEYWORD, empty))
    return out


def _runtime_parameters(obj: Any) -> list[tuple[str, Any, Any]] | None:
    try:
        signature = inspect.signature(obj)
    except (TypeError, ValueError):  # a compiled function without a signature
        return None
    return [(p.name, p.kind, p.default) for p in signature.parameters.values()]


@pytest.mark.parametrize("stub", MODULES)
def test_stub_declares_exactly_the_namespace(stub: str) -> None:
    module: ModuleType = MODULES[stub]
    declared = _declared(_stub(stub))
    # The result types (linalg.SVDResult ...) are attributes, not namespace names.
    classes = {n for n, node in declared.items() if isinstance(node, ast.ClassDef)}
    assert all(hasattr(module, n) for n in classes)
    declared_names = set(declared) - classes - PENDING
    public = set(module.__all__)
    assert declared_names - public == set(), f"{stub} declares names the module lacks"
    assert public - declared_names == set(), f"{stub} misses names of {module.__name__}.__all__"


@pytest.mark.usefixtures("strict_profile")  # the stubs declare the standard's signatures
@pytest.mark.parametrize("stub", MODULES)
def test_stub_signatures_match_the_functions(stub: str) -> None:
    module = MODULES[stub]
    tree = _stub(stub)
    checked = 0
    for name, variants in _overloads(tree).items():
        if not _public(name) or (module is xp and name in PENDING):
            continue
        runtime = _runtime_parameters(getattr(module, name))
        if runtime is None:
            continue
        if len(variants) == 1:
            assert _parameters(variants[0]) == runtime, name
        else:  # overloads: each names parameters the function has, of the same kind
            kinds = {n: k for n, k, _ in runtime}
            for variant in variants:
                for n, k, _ in _parameters(variant):
                    assert kinds.get(n) == k, (name, n)
        checked += 1
    # Most functions report a signature (the compiled binary ones may not).
    assert checked >= len(_overloads(tree)) // 2


@pytest.mark.parametrize("stub", MODULES)
def test_no_parameter_is_typed_any(stub: str) -> None:
    for name, variants in _overloads(_stub(stub)).items():
        for variant in variants:
            a = variant.args
            for arg in [*a.posonlyargs, *a.args, *a.kwonlyargs]:
                assert arg.annotation is not None, (name, arg.arg)
                assert ast.unparse(arg.annotation) != "Any", (name, arg.arg)


def test_array_declares_every_installed_method() -> None:
    """The array's operators, indexing and DLPack methods are installed at import; the class
    declares each one for type checkers (with a typed operand, not Any)."""
    from xpgpu._operators import OPERATORS

    tree = ast.parse((PACKAGE / "_array.py").read_text())
    cls = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Array")
    block = next(n for n in cls.body if isinstance(n, ast.If)
                 and ast.unparse(n.test) == "TYPE_CHECKING")
    declared = {f.name: f for f in block.body if isinstance(f, ast.FunctionDef)}
    installed = {*OPERATORS, "__getitem__", "__setitem__", "__dlpack__", "__dlpack_device__"}
    assert installed - set(declared) == set()
    for name in installed:
        assert hasattr(xp.Array, name), name
        params = declared[name].args.posonlyargs + declared[name].args.args
        for p in params[1:]:
            assert p.annotation is not None and ast.unparse(p.annotation) != "Any", name
