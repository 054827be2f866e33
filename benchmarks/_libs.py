"""The libraries the benchmark suite compares, behind one small interface.

Each ``Lib`` turns a host NumPy array into the library's array on the measured device,
waits for queued work (``sync``) and gives the representative set of per-call operations
(``percall``) and the throughput operations (``THROUGHPUT``) under one spelling, the
standard's. Libraries that are not installed are skipped by ``available``.
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

# (name, target group): "fast" functions (element-wise, indexing) have the tighter CPU
# budget (backend + 1 µs), the others backend + 2 µs; on CUDA every call 1.05x CuPy.
PERCALL: tuple[tuple[str, str], ...] = (
    ("add(a, b)", "fast"), ("a + 1.0", "fast"), ("a * 2", "fast"), ("sin(a)", "fast"),
    ("a > 0", "fast"),
    ("sum(a)", "other"), ("mean(a)", "other"), ("max(a)", "other"),
    ("sum(M, axis=1)", "other"),
    ("where(m, a, b)", "other"), ("where(m, a, 0.0)", "other"), ("clip(a, -0.5, 0.5)", "other"),
    ("a[1:10]", "fast"), ("a[3]", "fast"), ("M[2, :]", "fast"), ("a[m]", "fast"),
    ("a[1:10] = 0.5", "fast"), ("a[m] = 0.5", "fast"),
    ("zeros(1000)", "other"), ("ones(1000)", "other"), ("full(1000, 2.0)", "other"),
    ("asarray(list8)", "other"), ("arange(1000)", "other"),
    ("reshape(a, (10, 100))", "other"), ("permute_dims(M, (1, 0))", "other"),
    ("concat([a, b])", "other"), ("stack([a, b])", "other"),
    ("matmul(M, M)", "other"), ("vecdot(a, b)", "other"),
    ("sort(a)", "other"), ("unique_values(a)", "other"), ("linalg.solve(S, s)", "other"),
)
GROUP = dict(PERCALL)

# Throughput: (name, input dtypes allowed, bytes moved per element / itemsize, bool bytes).
# ``A`` is the same elements as rows of ROW elements (one row below ROW elements).
THROUGHPUT: tuple[tuple[str, str, int, int], ...] = (
    ("copy", "all", 2, 0),
    ("add(a, b)", "all", 3, 0),
    ("a * 2", "all", 2, 0),
    ("sin(a)", "floating", 2, 0),
    ("where(m, a, b)", "all", 3, 1),
    ("sum(a)", "all", 1, 0),
    ("sum(A, axis=-1)", "all", 1, 0),
    ("max(a)", "real", 1, 0),
    ("argmax(a)", "real", 1, 0),
    ("var(a)", "real floating", 1, 0),
    ("var(A, axis=-1)", "real floating", 1, 0),
    ("cumulative_sum(a)", "all", 2, 0),
)
DTYPES = ("float32", "float64", "int32", "complex64")
ALLOWED = {"all": frozenset(DTYPES), "floating": frozenset(DTYPES) - {"int32"},
           "real": frozenset(DTYPES) - {"complex64"},
           "real floating": frozenset({"float32", "float64"})}
ROW = 1024


def _find(name: str) -> Any:
    try:
        return importlib.import_module(name) if importlib.util.find_spec(name) else None
    except Exception:  # a broken install (no CUDA driver, say): skipped
        return None


@dataclass
class Lib:
    """One library on one device: ``ns`` has the standard's names (a shim where needed)."""

    name: str
    ns: Any
    put: Callable[[np.ndarray], Any]
    sync: Callable[[], None] = lambda: None
    creation: dict[str, Any] = field(default_factory=dict)  # device= / dtype keywords
    linalg: Any = None
    setitem: Callable[[Any, Any, Any], None] | None = None

    def percall(self, host: dict[str, np.ndarray]) -> dict[str, Callable[[], Any]]:
        """The representative set on this library's arrays (made from ``host``)."""
        ns, kw = self.ns, self.creation
        a, b, m, M, S, s = (self.put(host[k]) for k in ("a", "b", "m", "M", "S", "s"))
        w = self.put(host["a"].copy())  # written by the __setitem__ rows
        f32 = kw.get("float32")
        extra = {k: v for k, v in kw.items() if k != "float32"}
        linalg = self.linalg or ns.linalg
        lst = [0.5, 1.5, 2.5, 3.5, 4.5, 5.5, 6.5, 7.5]
        setitem = self.setitem or _setitem

        def put_slice() -> None:
            setitem(w, slice(1, 10), 0.5)

        def put_mask() -> None:
            setitem(w, m, 0.5)

        return {
            "add(a, b)": lambda: ns.add(a, b),
            "a + 1.0": lambda: a + 1.0,
            "a * 2": lambda: a * 2,
            "sin(a)": lambda: ns.sin(a),
            "a > 0": lambda: a > 0,
            "sum(a)": lambda: ns.sum(a),
            "mean(a)": lambda: ns.mean(a),
            "max(a)": lambda: ns.max(a),
            "sum(M, axis=1)": lambda: ns.sum(M, axis=1),
            "where(m, a, b)": lambda: ns.where(m, a, b),
            "where(m, a, 0.0)": lambda: ns.where(m, a, 0.0),
            "clip(a, -0.5, 0.5)": lambda: ns.clip(a, -0.5, 0.5),
            "a[1:10]": lambda: a[1:10],
            "a[3]": lambda: a[3],
            "M[2, :]": lambda: M[2, :],
            "a[m]": lambda: a[m],
            "a[1:10] = 0.5": put_slice,
            "a[m] = 0.5": put_mask,
            "zeros(1000)": lambda: ns.zeros(1000, dtype=f32, **extra),
            "ones(1000)": lambda: ns.ones(1000, dtype=f32, **extra),
            "full(1000, 2.0)": lambda: ns.full(1000, 2.0, dtype=f32, **extra),
            "asarray(list8)": lambda: ns.asarray(lst, **extra),
            "arange(1000)": lambda: ns.arange(1000, **extra),
            "reshape(a, (10, 100))": lambda: ns.reshape(a, (10, 100)),
            "permute_dims(M, (1, 0))": lambda: ns.permute_dims(M, (1, 0)),
            "concat([a, b])": lambda: ns.concat([a, b]),
            "stack([a, b])": lambda: ns.stack([a, b]),
            "matmul(M, M)": lambda: ns.matmul(M, M),
            "vecdot(a, b)": lambda: ns.vecdot(a, b),
            "sort(a)": lambda: ns.sort(a),
            "unique_values(a)": lambda: ns.unique_values(a),
            "linalg.solve(S, s)": lambda: linalg.solve(S, s),
        }

    def throughput(self, op: str, a: Any, b: Any, m: Any) -> Callable[[], Any]:
        ns = self.ns
        n = a.shape[0]
        A = ns.reshape(a, (n // ROW, ROW) if n >= ROW else (1, n))
        return {
            "copy": lambda: ns.asarray(a, copy=True) if self.name != "PyTorch" else a.clone(),
            "add(a, b)": lambda: ns.add(a, b),
            "a * 2": lambda: a * 2,
            "sin(a)": lambda: ns.sin(a),
            "where(m, a, b)": lambda: ns.where(m, a, b),
            "sum(a)": lambda: ns.sum(a),
            "sum(A, axis=-1)": lambda: ns.sum(A, axis=-1),
            "max(a)": lambda: ns.max(a),
            "argmax(a)": lambda: ns.argmax(a),
            "var(a)": lambda: ns.var(a),
            "var(A, axis=-1)": lambda: ns.var(A, axis=-1),
            "cumulative_sum(a)": lambda: ns.cumulative_sum(a),
        }[op]


def _setitem(x: Any, key: Any, value: Any) -> None:
    x[key] = value


def host_inputs(rng: np.random.Generator) -> dict[str, np.ndarray]:
    """The per-call operands: 1000 float32, a mask, a 64x64 matrix, a 16x16 system."""
    a = rng.standard_normal(1000).astype(np.float32)
    S = rng.standard_normal((16, 16)) + 16 * np.eye(16)
    return {"a": a, "b": rng.standard_normal(1000).astype(np.float32), "m": a > 0,
            "M": rng.standard_normal((64, 64)).astype(np.float32), "S": S,
            "s": rng.standard_normal((16, 1))}


class _Shim:
    """A backend module under the standard's names (only those the suite uses). Its names
    are copied in, so reading one costs what reading the module's does."""

    def __init__(self, module: Any, **renames: Any):
        self.__dict__.update({k: getattr(module, k) for k in dir(module)
                              if not k.startswith("__") and hasattr(module, k)})
        self.__dict__.update(renames)
        self._module = module


def _numpy_like(name: str, mod: Any, put: Callable[[np.ndarray], Any],
                sync: Callable[[], None]) -> Lib:
    """NumPy or CuPy: the names the standard spells differently."""
    vecdot = getattr(mod, "vecdot", None) or (lambda x, y: (x * y).sum(axis=-1))
    unique_values = getattr(mod, "unique_values", None) or mod.unique
    cumulative_sum = getattr(mod, "cumulative_sum", None) or mod.cumsum
    shim = _Shim(mod, concat=mod.concatenate, permute_dims=mod.transpose, vecdot=vecdot,
                 unique_values=unique_values, cumulative_sum=cumulative_sum)
    return Lib(name, shim, put, sync, {"float32": mod.float32})


def cpu_libs(xp: Any) -> list[Lib]:
    """xpgpu, NumPy and array-api-strict on the CPU."""
    cpu = xp.asarray(0.0, device="cpu").device
    libs = [Lib("xpgpu", xp, lambda h: xp.asarray(h, device=cpu),
                creation={"float32": xp.float32, "device": cpu})]
    libs.append(_numpy_like("NumPy", np, np.asarray, lambda: None))
    strict = _find("array_api_strict")
    if strict is not None:
        libs.append(Lib("array-api-strict", strict, strict.asarray,
                        creation={"float32": strict.float32}))
    return libs


def cuda_libs(xp: Any, device: Any) -> list[Lib]:
    """xpgpu, CuPy, PyTorch and array-api-compat's CuPy namespace on one CUDA device."""
    cupy = _find("cupy")
    if cupy is None:
        raise SystemExit("the CUDA benchmarks need CuPy")
    cupy.cuda.Device(device.index).use()
    stream_sync = lambda: cupy.cuda.get_current_stream().synchronize()
    libs = [Lib("xpgpu", xp, lambda h: xp.asarray(h, device=device), stream_sync,
                {"float32": xp.float32, "device": device})]
    libs.append(_numpy_like("CuPy", cupy, cupy.asarray, stream_sync))
    torch = _find("torch")
    if torch is not None and torch.cuda.is_available():
        libs.append(_torch_lib(torch, f"cuda:{device.index}"))
    compat = _find("array_api_compat")
    if compat is not None:
        ns = compat.array_namespace(cupy.zeros(1))
        libs.append(Lib("compat(CuPy)", ns, cupy.asarray, stream_sync,
                        {"float32": ns.float32}))
    return libs


def _torch_lib(torch: Any, dev: str) -> Lib:
    def put(h: np.ndarray) -> Any:
        return torch.from_numpy(np.ascontiguousarray(h)).to(dev)

    shim = _Shim(
        torch, concat=torch.cat, permute_dims=torch.permute, clip=torch.clamp,
        max=torch.amax, vecdot=torch.linalg.vecdot,
        var=lambda x, axis=None: torch.var(x, dim=axis, correction=0),
        cumulative_sum=lambda x: torch.cumsum(x, 0),
        full=lambda n, value, **kw: torch.full((n,), value, **kw),
        sort=lambda x: torch.sort(x).values, unique_values=torch.unique,
        asarray=lambda obj, copy=None, **kw: (obj.clone() if copy else obj)
        if isinstance(obj, torch.Tensor) else torch.asarray(obj, **kw),
    )
    sync = torch.cuda.synchronize
    return Lib("PyTorch", shim, put, sync, {"float32": torch.float32, "device": dev},
               linalg=torch.linalg)
