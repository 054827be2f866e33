"""The operations of cubed's array API as a table, each with its NumPy oracle.

Every row is ``name: (cubed_fn, numpy_fn)``. ``cubed_fn(xp, a)`` builds a lazy cubed array from
``a``, a dict of cubed input arrays (``xp`` is ``cubed.array_api``); ``numpy_fn(a)`` computes the
same thing with NumPy 2 on the host copies of those inputs. NumPy is the independent oracle: it
never sees xpgpu. Used by tests/test_cubed.py and runnable on its own (``python -m
tests.cubed_ops`` prints the count of operations).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

# Small inputs, two chunks per axis, so that every operation crosses chunk boundaries.
SHAPE = (6, 8)


def inputs() -> dict[str, np.ndarray]:
    """The host inputs, deterministic."""
    rng = np.random.default_rng(20261125)
    return {
        "f": rng.uniform(0.1, 0.9, SHAPE),            # float64 in (0, 1): every float function
        "g": rng.uniform(-2.0, 2.0, SHAPE),           # float64, signed
        "f32": rng.uniform(-1.0, 1.0, SHAPE).astype(np.float32),
        "i": rng.integers(-20, 20, SHAPE, dtype=np.int64),
        "j": rng.integers(1, 5, SHAPE, dtype=np.int64),  # positive, small: shifts and divisors
        "u": rng.integers(0, 200, SHAPE, dtype=np.uint8),
        "b": rng.uniform(size=SHAPE) < 0.5,
        "c": (rng.uniform(size=SHAPE) + 1j * rng.uniform(size=SHAPE)).astype(np.complex128),
        "m": rng.uniform(-1.0, 1.0, (SHAPE[1], 4)),   # right operand of matmul
        "v": np.sort(rng.uniform(0.0, 1.0, 8)),       # sorted 1-d, for searchsorted
        "q": rng.uniform(0.0, 1.0, 5),
        "idx": np.array([0, 5, 2, 7, 7], dtype=np.int64),
    }


Op = tuple[Callable[[Any, dict[str, Any]], Any], Callable[[dict[str, np.ndarray]], Any]]

_UNARY_FLOAT = ["acos", "asin", "atan", "acosh:1+", "asinh", "atanh", "cos", "cosh", "sin",
                "sinh", "tan", "tanh", "exp", "expm1", "log", "log1p", "log2", "log10", "sqrt",
                "ceil", "floor", "trunc", "round", "sign", "signbit", "isfinite", "isinf",
                "isnan", "abs", "negative", "positive", "square", "reciprocal"]
_NP_NAMES = {"acos": "arccos", "asin": "arcsin", "atan": "arctan", "acosh": "arccosh",
             "asinh": "arcsinh", "atanh": "arctanh", "atan2": "arctan2", "pow": "power",
             "bitwise_invert": "invert", "bitwise_left_shift": "left_shift",
             "bitwise_right_shift": "right_shift", "concat": "concatenate",
             "permute_dims": "transpose"}


def _np(name: str) -> Callable[..., Any]:
    return getattr(np, _NP_NAMES.get(name, name))


def _unary(name: str, key: str, shift: float = 0.0) -> Op:
    if shift:
        return (lambda xp, a: getattr(xp, name)(a[key] + shift),
                lambda a: _np(name)(a[key] + shift))
    return lambda xp, a: getattr(xp, name)(a[key]), lambda a: _np(name)(a[key])


def _binary(name: str, k1: str, k2: str) -> Op:
    return (lambda xp, a: getattr(xp, name)(a[k1], a[k2]), lambda a: _np(name)(a[k1], a[k2]))


def _table() -> dict[str, Op]:
    ops: dict[str, Op] = {}
    for entry in _UNARY_FLOAT:
        name, _, shift = entry.partition(":")
        ops[name] = _unary(name, "f", 1.0 if shift else 0.0)
    ops["conj"] = _unary("conj", "c")
    ops["real"] = _unary("real", "c")
    ops["imag"] = _unary("imag", "c")
    ops["bitwise_invert"] = _unary("bitwise_invert", "i")
    ops["logical_not"] = _unary("logical_not", "b")
    for name in ["add", "subtract", "multiply", "divide", "atan2", "copysign", "hypot",
                 "logaddexp", "maximum", "minimum", "nextafter", "pow", "equal", "not_equal",
                 "less", "less_equal", "greater", "greater_equal"]:
        ops[name] = _binary(name, "f", "g")
    for name in ["floor_divide", "remainder"]:
        ops[name] = _binary(name, "i", "j")
    for name in ["bitwise_and", "bitwise_or", "bitwise_xor", "bitwise_left_shift",
                 "bitwise_right_shift"]:
        ops[name] = _binary(name, "i", "j")
    for name in ["logical_and", "logical_or", "logical_xor"]:
        ops[name] = _binary(name, "b", "b")
    ops["clip"] = (lambda xp, a: xp.clip(a["g"], min=-1.0, max=1.0),
                   lambda a: np.clip(a["g"], -1.0, 1.0))
    ops["where"] = (lambda xp, a: xp.where(a["b"], a["f"], a["g"]),
                    lambda a: np.where(a["b"], a["f"], a["g"]))
    ops["astype"] = (lambda xp, a: xp.astype(a["g"], xp.float32),
                     lambda a: a["g"].astype(np.float32))
    ops["operators"] = (lambda xp, a: (a["f"] * 2.0 - a["g"]) / (a["f"] + 1.0) ** 2,
                        lambda a: (a["f"] * 2.0 - a["g"]) / (a["f"] + 1.0) ** 2)
    ops["int_operators"] = (lambda xp, a: (a["i"] * 3 + a["j"]) // a["j"] % 7,
                            lambda a: (a["i"] * 3 + a["j"]) // a["j"] % 7)

    # statistical (whole array and along an axis)
    for name in ["sum", "prod", "max", "min", "mean", "var", "std"]:
        ops[name] = (lambda xp, a, n=name: getattr(xp, n)(a["f"]),
                     lambda a, n=name: getattr(np, n)(a["f"]))
        ops[f"{name}_axis0"] = (lambda xp, a, n=name: getattr(xp, n)(a["g"], axis=0),
                                lambda a, n=name: getattr(np, n)(a["g"], axis=0))
    ops["mean_float32"] = (lambda xp, a: xp.mean(a["f32"], axis=1),
                           lambda a: np.mean(a["f32"], axis=1, dtype=np.float64)
                           .astype(np.float32))
    ops["var_correction"] = (lambda xp, a: xp.var(a["g"], axis=1, correction=1.0),
                             lambda a: np.var(a["g"], axis=1, ddof=1))
    ops["std_keepdims"] = (lambda xp, a: xp.std(a["g"], axis=0, keepdims=True),
                           lambda a: np.std(a["g"], axis=0, keepdims=True))
    ops["sum_int"] = (lambda xp, a: xp.sum(a["i"], axis=1), lambda a: np.sum(a["i"], axis=1))
    ops["sum_uint8"] = (lambda xp, a: xp.sum(a["u"]), lambda a: np.sum(a["u"], dtype=np.uint64))
    ops["mean_int"] = (lambda xp, a: xp.mean(a["i"]), lambda a: np.mean(a["i"]))
    ops["cumulative_sum"] = (lambda xp, a: xp.cumulative_sum(a["g"], axis=1),
                             lambda a: np.cumsum(a["g"], axis=1))
    ops["cumulative_prod"] = (lambda xp, a: xp.cumulative_prod(a["f"], axis=0),
                              lambda a: np.cumprod(a["f"], axis=0))
    ops["all"] = (lambda xp, a: xp.all(a["b"], axis=0), lambda a: np.all(a["b"], axis=0))
    ops["any"] = (lambda xp, a: xp.any(a["b"]), lambda a: np.any(a["b"]))
    ops["count_nonzero"] = (lambda xp, a: xp.count_nonzero(a["b"], axis=1),
                            lambda a: np.count_nonzero(a["b"], axis=1))
    ops["diff"] = (lambda xp, a: xp.diff(a["g"], axis=1), lambda a: np.diff(a["g"], axis=1))

    # searching, sets
    ops["argmax"] = (lambda xp, a: xp.argmax(a["g"], axis=1), lambda a: np.argmax(a["g"], axis=1))
    ops["argmin"] = (lambda xp, a: xp.argmin(a["q"]), lambda a: np.argmin(a["q"]))
    ops["searchsorted"] = (lambda xp, a: xp.searchsorted(a["v"], a["q"]),
                           lambda a: np.searchsorted(a["v"], a["q"]))
    ops["isin"] = (lambda xp, a: xp.isin(a["i"], a["j"]), lambda a: np.isin(a["i"], a["j"]))

    # indexing
    ops["take"] = (lambda xp, a: xp.take(a["g"], a["idx"], axis=1),
                   lambda a: np.take(a["g"], a["idx"], axis=1))
    ops["getitem"] = (lambda xp, a: a["g"][1:5, ::2], lambda a: a["g"][1:5, ::2])
    ops["getitem_int"] = (lambda xp, a: a["g"][2], lambda a: a["g"][2])

    # linear algebra
    ops["matmul"] = (lambda xp, a: xp.matmul(a["g"], a["m"]), lambda a: a["g"] @ a["m"])
    ops["matrix_transpose"] = (lambda xp, a: xp.matrix_transpose(a["g"]), lambda a: a["g"].T)
    ops["tensordot"] = (lambda xp, a: xp.tensordot(a["g"], a["m"], axes=1),
                        lambda a: np.tensordot(a["g"], a["m"], axes=1))
    ops["vecdot"] = (lambda xp, a: xp.vecdot(a["f"], a["g"]),
                     lambda a: np.sum(a["f"] * a["g"], axis=-1))

    # manipulation
    ops["broadcast_to"] = (lambda xp, a: xp.broadcast_to(a["q"], (3, 5)),
                           lambda a: np.broadcast_to(a["q"], (3, 5)))
    ops["concat"] = (lambda xp, a: xp.concat([a["f"], a["g"]], axis=0),
                     lambda a: np.concatenate([a["f"], a["g"]], axis=0))
    ops["stack"] = (lambda xp, a: xp.stack([a["f"], a["g"]], axis=1),
                    lambda a: np.stack([a["f"], a["g"]], axis=1))
    ops["unstack"] = (lambda xp, a: xp.unstack(a["g"], axis=1)[3],
                      lambda a: a["g"][:, 3])
    ops["expand_dims"] = (lambda xp, a: xp.expand_dims(a["g"], axis=1),
                          lambda a: np.expand_dims(a["g"], axis=1))
    ops["squeeze"] = (lambda xp, a: xp.squeeze(xp.expand_dims(a["g"], axis=0), axis=0),
                      lambda a: a["g"])
    ops["flip"] = (lambda xp, a: xp.flip(a["g"], axis=1), lambda a: np.flip(a["g"], axis=1))
    ops["moveaxis"] = (lambda xp, a: xp.moveaxis(a["g"], 0, 1), lambda a: np.moveaxis(a["g"], 0, 1))
    ops["permute_dims"] = (lambda xp, a: xp.permute_dims(a["g"], (1, 0)), lambda a: a["g"].T)
    ops["reshape"] = (lambda xp, a: xp.reshape(a["g"], (2, 3, 8)),
                      lambda a: a["g"].reshape(2, 3, 8))
    ops["repeat"] = (lambda xp, a: xp.repeat(a["g"], 2, axis=0),
                     lambda a: np.repeat(a["g"], 2, axis=0))
    ops["roll"] = (lambda xp, a: xp.roll(a["g"], 3, axis=1), lambda a: np.roll(a["g"], 3, axis=1))
    ops["tile"] = (lambda xp, a: xp.tile(a["q"], (2, 2)), lambda a: np.tile(a["q"], (2, 2)))
    ops["broadcast_arrays"] = (lambda xp, a: xp.broadcast_arrays(a["q"], xp.ones((3, 1)))[0],
                               lambda a: np.broadcast_to(a["q"], (3, 5)))

    # creation
    ops["arange"] = (lambda xp, a: xp.arange(3, 50, 4, chunks=5),
                     lambda a: np.arange(3, 50, 4))
    ops["linspace"] = (lambda xp, a: xp.linspace(0.0, 1.0, 11, chunks=4),
                       lambda a: np.linspace(0.0, 1.0, 11))
    ops["eye"] = (lambda xp, a: xp.eye(5, 7, k=1, chunks=3), lambda a: np.eye(5, 7, k=1))
    ops["full"] = (lambda xp, a: xp.full((5, 3), 2.5, chunks=2), lambda a: np.full((5, 3), 2.5))
    ops["ones"] = (lambda xp, a: xp.ones((5, 3), dtype=xp.int32, chunks=2),
                   lambda a: np.ones((5, 3), dtype=np.int32))
    ops["zeros_like"] = (lambda xp, a: xp.zeros_like(a["g"]), lambda a: np.zeros_like(a["g"]))
    ops["ones_like"] = (lambda xp, a: xp.ones_like(a["i"]), lambda a: np.ones_like(a["i"]))
    ops["full_like"] = (lambda xp, a: xp.full_like(a["f"], 7.0), lambda a: np.full_like(a["f"], 7))
    ops["tril"] = (lambda xp, a: xp.tril(a["g"], k=-1), lambda a: np.tril(a["g"], k=-1))
    ops["triu"] = (lambda xp, a: xp.triu(a["g"], k=1), lambda a: np.triu(a["g"], k=1))
    ops["meshgrid"] = (lambda xp, a: xp.meshgrid(a["q"], a["v"])[1],
                       lambda a: np.meshgrid(a["q"], a["v"])[1])
    return ops


OPS: dict[str, Op] = _table()


if __name__ == "__main__":
    print(len(OPS), "operations")
