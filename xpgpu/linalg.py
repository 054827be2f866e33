"""The linear algebra extension.

https://data-apis.org/array-api/2025.12/extensions/linear_algebra_functions.html
"""

from __future__ import annotations

from typing import Any


def cholesky(*args: Any, **kwargs: Any) -> Any:
    raise NotImplementedError("cholesky: not implemented yet")


def cross(*args: Any, **kwargs: Any) -> Any:
    raise NotImplementedError("cross: not implemented yet")


def det(*args: Any, **kwargs: Any) -> Any:
    raise NotImplementedError("det: not implemented yet")


def diagonal(*args: Any, **kwargs: Any) -> Any:
    raise NotImplementedError("diagonal: not implemented yet")


def eig(*args: Any, **kwargs: Any) -> Any:
    raise NotImplementedError("eig: not implemented yet")


def eigh(*args: Any, **kwargs: Any) -> Any:
    raise NotImplementedError("eigh: not implemented yet")


def eigvals(*args: Any, **kwargs: Any) -> Any:
    raise NotImplementedError("eigvals: not implemented yet")


def eigvalsh(*args: Any, **kwargs: Any) -> Any:
    raise NotImplementedError("eigvalsh: not implemented yet")


def inv(*args: Any, **kwargs: Any) -> Any:
    raise NotImplementedError("inv: not implemented yet")


def matrix_norm(*args: Any, **kwargs: Any) -> Any:
    raise NotImplementedError("matrix_norm: not implemented yet")


def matrix_power(*args: Any, **kwargs: Any) -> Any:
    raise NotImplementedError("matrix_power: not implemented yet")


def matrix_rank(*args: Any, **kwargs: Any) -> Any:
    raise NotImplementedError("matrix_rank: not implemented yet")


def outer(*args: Any, **kwargs: Any) -> Any:
    raise NotImplementedError("outer: not implemented yet")


def pinv(*args: Any, **kwargs: Any) -> Any:
    raise NotImplementedError("pinv: not implemented yet")


def qr(*args: Any, **kwargs: Any) -> Any:
    raise NotImplementedError("qr: not implemented yet")


def slogdet(*args: Any, **kwargs: Any) -> Any:
    raise NotImplementedError("slogdet: not implemented yet")


def solve(*args: Any, **kwargs: Any) -> Any:
    raise NotImplementedError("solve: not implemented yet")


def svd(*args: Any, **kwargs: Any) -> Any:
    raise NotImplementedError("svd: not implemented yet")


def svdvals(*args: Any, **kwargs: Any) -> Any:
    raise NotImplementedError("svdvals: not implemented yet")


def trace(*args: Any, **kwargs: Any) -> Any:
    raise NotImplementedError("trace: not implemented yet")


def vector_norm(*args: Any, **kwargs: Any) -> Any:
    raise NotImplementedError("vector_norm: not implemented yet")
