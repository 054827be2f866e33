"""A user's script for tests/test_typing.py: `mypy --strict` must accept every line but the
two marked `# wrong:`, and report exactly those (the marks name the error codes)."""

from __future__ import annotations

import numpy as np

import xpgpu as xp
from xpgpu import Array


def standardise(x: Array) -> Array:
    """Array-agnostic code, typed against the namespace."""
    return (x - xp.mean(x, axis=0)) / xp.std(x, axis=0, correction=1)


info = xp.__array_namespace_info__()
device = info.default_device()
a = xp.asarray([[1.0, 2.0], [3.0, 4.0]], dtype=xp.float32, device=device)
b = xp.zeros((2, 2), dtype=xp.float32)
c = xp.ones(3, dtype=np.dtype("float64"), device="cpu")   # NumPy dtypes and device names
d = xp.asarray(np.arange(4.0))                              # a NumPy array converts
e = xp.sin(a) * 2 + 1.0                                     # operators take Python scalars
f = 1 - e
g = xp.where(a > 2.0, a, 0.0)
h = xp.linalg.vector_norm(a, axis=-1, ord=2)
k = xp.fft.fft(xp.astype(a, xp.complex64), norm="ortho")
u = xp.unique_counts(xp.arange(5) % 2)
s = xp.linalg.svd(a, full_matrices=False)
m = a @ b
m @= b
shape: tuple[int, ...] = m.shape
value: float = float(xp.sum(standardise(a)))
dtype_ok: bool = xp.isdtype(a.dtype, ("real floating", xp.complex64))
counts: Array = u.counts
singular: Array = s.S
moved: Array = c.to_device(xp.__array_namespace_info__().devices()[0])
row: Array = a[0, :]
xp.set_array_api_version("2025.12")
xp.set_strict(True)

xp.sin([1.0])                        # wrong: arg-type
xp.zeros(3, dtype="float32")         # wrong: arg-type
