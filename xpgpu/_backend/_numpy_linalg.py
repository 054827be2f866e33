"""``numpy.linalg`` for the CPU backend (``backend.linalg``), with ``solve`` of one matrix
made by NumPy's own gufunc.

``numpy.linalg.solve`` checks and converts its operands in Python, then calls the gufunc
``_umath_linalg.solve`` (``solve1`` for a vector) under ``numpy.errstate``, which alone
costs about 1 µs: a 16 x 16 system took 8.0 µs, of which the gufunc 3.7 (a 2-core x86-64
machine). For one square float32, float64, complex64 or complex128 matrix and a right-hand
side (a vector or a matrix) of its dtype, none of them empty, this makes the same call:
the gufunc with NumPy's signature (``dd->d``, ``DD->D``: float32 and complex64 are solved
in double precision and cast back, as NumPy does), so the same bits, under an error state
set through its context variable (``_numpy.ERRSTATE``, tens of ns), in which a singular
matrix's invalid operation raises, reported as NumPy's ``LinAlgError("Singular matrix")``.
Everything else (stacks, other dtypes, empty or mismatched operands) is
``numpy.linalg.solve``'s.
"""

from __future__ import annotations

from typing import Any

import numpy
import numpy.linalg

try:
    from numpy.linalg import _umath_linalg
except ImportError:  # a NumPy without it: numpy.linalg.solve for every call
    _umath_linalg = None  # type: ignore[assignment]

_ndarray = numpy.ndarray
_SIGNATURES = {"f": "dd->d", "d": "dd->d", "F": "DD->D", "D": "DD->D"}


class Linalg:
    """``numpy.linalg`` with ``solve`` in its place (each other name read once, then kept)."""

    def __init__(self, solve: Any) -> None:
        self.solve = solve

    def __getattr__(self, name: str) -> Any:
        value = getattr(numpy.linalg, name)
        setattr(self, name, value)
        return value


def linalg(errstate: Any) -> Linalg:
    """``backend.linalg``, given NumPy's error-state context variable (None where NumPy
    has none: then ``numpy.linalg.solve`` throughout)."""
    with numpy.errstate(invalid="raise", over="ignore", divide="ignore", under="ignore"):
        state = None if errstate is None else errstate.get(None)
    if state is None or _umath_linalg is None:
        return Linalg(numpy.linalg.solve)
    solve1, solve_k = _umath_linalg.solve1, _umath_linalg.solve

    def solve(a: Any, b: Any) -> Any:
        if (type(a) is _ndarray and type(b) is _ndarray and a.ndim == 2 and 1 <= b.ndim <= 2
                and a.dtype is b.dtype and a.dtype.char in _SIGNATURES):
            n = a.shape[0]
            if n and a.shape[1] == n and b.shape[0] == n and b.shape[-1]:
                token = errstate.set(state)
                try:
                    r = (solve1 if b.ndim == 1 else solve_k)(
                        a, b, signature=_SIGNATURES[a.dtype.char])
                except FloatingPointError:
                    raise numpy.linalg.LinAlgError("Singular matrix") from None
                finally:
                    errstate.reset(token)
                return r.astype(a.dtype, copy=False)
        return numpy.linalg.solve(a, b)

    return Linalg(solve)
