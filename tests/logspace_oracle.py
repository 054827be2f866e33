"""The logspace oracle, independent of xpgpu: the test grid and the correctly rounded
float64 power, computed with Python's fractions (integer exponents, exact) or decimal (60
digits). Shared by tests/test_logspace.py and benchmarks/logspace_grid.py; it needs only
NumPy.
"""

from __future__ import annotations

import decimal
import functools
import math
from fractions import Fraction

import numpy as np

INT_DTYPES = ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"]
BASES = range(2, 11)
# (start, stop, num, endpoint): integer exponents, then non-integer ones.
RANGES = [
    (0, 7, 8, True), (0, 15, 16, True), (0, 31, 32, True), (0, 63, 64, True),
    (-3, 3, 7, True), (0, 20, 21, True), (0, 8, 8, False), (1, 2, 1, True),
    (0, 7, 29, True), (0.5, 5.5, 11, True), (0, 1, 10, True), (1 / 3, 13 / 3, 13, True),
    (-2.5, 2.5, 11, True), (0, 40, 81, True), (0, 2, 7, False), (0.1, 2.9, 29, True),
    (0, 19.75, 80, True),
]
GRID = [(b, r) for b in BASES for r in RANGES]


def cr_pow(b: float, y: float) -> float:
    """b ** y correctly rounded to float64 (inf on overflow, NaN for b < 0 and y
    non-integer)."""
    if b < 0:
        if y != math.floor(y):
            return math.nan
        m = cr_pow(-b, y)
        return -m if abs(y) < 2**53 and y % 2 == 1 else m
    if b == 0:
        return 0.0 if y > 0 else 1.0 if y == 0 else math.inf
    if y == math.floor(y) and abs(y) <= 4096:
        q = Fraction(b) ** int(y)
        return math.inf if q > Fraction(np.finfo(np.float64).max) * 2 else float(q)
    with decimal.localcontext() as ctx:
        ctx.prec = 60
        ctx.Emax = 10**6
        ctx.Emin = -(10**6)
        v = decimal.Decimal(b) ** decimal.Decimal(y)
    return float(v)


@functools.cache
def oracle(start: float, stop: float, num: int, endpoint: bool, base: float) -> np.ndarray:
    """The correctly rounded float64 powers of NumPy's linspace exponents."""
    y = np.linspace(start, stop, num, endpoint)
    return np.array([cr_pow(base, float(t)) for t in y], dtype=np.float64)


def int_oracle(case: tuple, dtype: str) -> np.ndarray | None:
    """trunc of the oracle as ``dtype``, or None where a value is out of its range."""
    base, (start, stop, num, endpoint) = case
    r = np.trunc(oracle(start, stop, num, endpoint, base))
    info = np.iinfo(dtype)
    if not np.all(np.isfinite(r)) or any(not info.min <= int(v) <= info.max for v in r):
        return None
    return np.array([int(v) for v in r], dtype=dtype)
