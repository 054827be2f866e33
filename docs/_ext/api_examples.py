"""One short example per public name, for its API page. Each is a few lines of Python; the
docs build runs them on the CPU and shows what they print, so an example cannot go stale
(an example that raises fails the build)."""

from __future__ import annotations

# Element-wise functions: the input by the kind of values the function takes.
_F = "x = xp.asarray([0.0, 0.5, 1.0])"
_UNARY_INPUT = {
    **dict.fromkeys(["acos", "asin", "atan", "cos", "cosh", "exp", "expm1", "sin",
                     "sinh", "tan", "tanh", "sqrt"], _F),
    **dict.fromkeys(["log", "log1p", "log2", "log10", "reciprocal"],
                    "x = xp.asarray([0.5, 1.0, 10.0])"),
    "acosh": "x = xp.asarray([1.0, 2.0, 10.0])",
    "asinh": _F,
    "atanh": "x = xp.asarray([-0.5, 0.0, 0.5])",
    **dict.fromkeys(["abs", "negative", "positive", "square", "sign"],
                    "x = xp.asarray([-2, 0, 3])"),
    **dict.fromkeys(["ceil", "floor", "round", "trunc"], "x = xp.asarray([-1.5, 0.5, 2.7])"),
    **dict.fromkeys(["real", "imag", "conj"], "x = xp.asarray([1 + 2j, -3j])"),
    **dict.fromkeys(["isfinite", "isinf", "isnan", "signbit"],
                    "x = xp.asarray([1.0, -xp.inf, xp.nan, -0.0])"),
    "logical_not": "x = xp.asarray([True, False])",
    "bitwise_invert": "x = xp.asarray([0, 1, 2], dtype=xp.uint8)",
}
_BINARY_CALL = {
    **dict.fromkeys(["add", "subtract", "multiply", "divide", "maximum", "minimum"],
                    "x = xp.asarray([1.0, 2.0, 3.0])\nxp.{}(x, 2.0)"),
    **dict.fromkeys(["pow"], "x = xp.asarray([1.0, 2.0, 3.0])\nxp.pow(x, 2)"),
    **dict.fromkeys(["floor_divide", "remainder"], "x = xp.asarray([7, -7])\nxp.{}(x, 2)"),
    **dict.fromkeys(["atan2", "copysign", "hypot", "logaddexp", "nextafter"],
                    "x = xp.asarray([1.0, -2.0])\nxp.{}(x, xp.asarray([3.0, 4.0]))"),
    **dict.fromkeys(["equal", "not_equal", "greater", "greater_equal", "less", "less_equal"],
                    "x = xp.asarray([1, 2, 3])\nxp.{}(x, 2)"),
    **dict.fromkeys(["logical_and", "logical_or", "logical_xor"],
                    "x = xp.asarray([True, True, False])\n"
                    "xp.{}(x, xp.asarray([True, False, False]))"),
    **dict.fromkeys(["bitwise_and", "bitwise_or", "bitwise_xor"],
                    "x = xp.asarray([12, 10])\nxp.{}(x, 6)"),
    **dict.fromkeys(["bitwise_left_shift", "bitwise_right_shift"],
                    "x = xp.asarray([1, 16])\nxp.{}(x, 2)"),
}

EXAMPLES: dict[str, str] = {
    **{n: f"{setup}\nxp.{n}(x)" for n, setup in _UNARY_INPUT.items()},
    **{n: call.format(n) for n, call in _BINARY_CALL.items()},
    "clip": "x = xp.asarray([-1.0, 0.5, 2.0])\nxp.clip(x, 0.0, 1.0)",
    # creation
    "arange": "xp.arange(0, 10, 3)",
    "asarray": "xp.asarray([[1, 2], [3, 4]], dtype=xp.float32)",
    "empty": "xp.empty((2, 3)).shape",
    "empty_like": "x = xp.asarray([1, 2, 3])\nxp.empty_like(x).dtype",
    "eye": "xp.eye(2, 3, k=1)",
    "from_dlpack": "import numpy as np\nxp.from_dlpack(np.arange(3.0))",
    "full": "xp.full((2, 2), 7, dtype=xp.int8)",
    "full_like": "x = xp.asarray([1.0, 2.0])\nxp.full_like(x, 0.5)",
    "linspace": "xp.linspace(0, 1, 5)",
    "meshgrid": "xs, ys = xp.meshgrid(xp.arange(3), xp.arange(2))\nxs",
    "ones": "xp.ones(3, dtype=xp.int32)",
    "ones_like": "x = xp.asarray([[1, 2]])\nxp.ones_like(x)",
    "tril": "xp.tril(xp.ones((3, 3)))",
    "triu": "xp.triu(xp.ones((3, 3)), k=1)",
    "zeros": "xp.zeros((2, 2))",
    "zeros_like": "x = xp.asarray([1.5, 2.5])\nxp.zeros_like(x)",
    # data types
    "astype": "x = xp.asarray([1.7, -1.7])\nxp.astype(x, xp.int32)",
    "can_cast": "xp.can_cast(xp.int8, xp.float32), xp.can_cast(xp.float64, xp.float32)",
    "finfo": "xp.finfo(xp.float32).eps",
    "iinfo": "xp.iinfo(xp.int8).max",
    "isdtype": "xp.isdtype(xp.float32, 'real floating'), xp.isdtype(xp.int8, 'bool')",
    "result_type": "xp.result_type(xp.int8, xp.uint8), xp.result_type(xp.float32, 1.0)",
    # indexing
    "take": "x = xp.asarray([10, 20, 30])\nxp.take(x, xp.asarray([2, 0]))",
    "take_along_axis": "x = xp.asarray([[3, 1], [2, 4]])\n"
                       "xp.take_along_axis(x, xp.argsort(x, axis=1), axis=1)",
    "__array_namespace_info__": "info = xp.__array_namespace_info__()\n"
                                "info.default_dtypes()['real floating']",
    # linear algebra
    "matmul": "a = xp.asarray([[1.0, 2.0], [3.0, 4.0]])\nxp.matmul(a, a)",
    "matrix_transpose": "xp.matrix_transpose(xp.asarray([[1, 2, 3]]))",
    "tensordot": "a = xp.ones((2, 3))\nxp.tensordot(a, xp.ones((3, 4)), axes=1).shape",
    "vecdot": "a = xp.asarray([[1.0, 2.0], [3.0, 4.0]])\nxp.vecdot(a, a)",
    # manipulation
    "broadcast_arrays": "a, b = xp.broadcast_arrays(xp.ones((2, 1)), xp.ones(3))\na.shape, b.shape",
    "broadcast_shapes": "xp.broadcast_shapes((2, 1), (3,))",
    "broadcast_to": "xp.broadcast_to(xp.asarray([1, 2]), (2, 2))",
    "concat": "xp.concat([xp.asarray([1, 2]), xp.asarray([3])])",
    "expand_dims": "xp.expand_dims(xp.asarray([1, 2]), axis=0).shape",
    "flip": "xp.flip(xp.asarray([1, 2, 3]))",
    "moveaxis": "xp.moveaxis(xp.ones((2, 3, 4)), 0, -1).shape",
    "permute_dims": "xp.permute_dims(xp.ones((2, 3, 4)), (2, 0, 1)).shape",
    "repeat": "xp.repeat(xp.asarray([1, 2]), 2)",
    "reshape": "xp.reshape(xp.arange(6), (2, 3))",
    "roll": "xp.roll(xp.asarray([1, 2, 3]), 1)",
    "squeeze": "xp.squeeze(xp.ones((1, 3)), axis=0).shape",
    "stack": "xp.stack([xp.asarray([1, 2]), xp.asarray([3, 4])], axis=1)",
    "tile": "xp.tile(xp.asarray([1, 2]), (2,))",
    "unstack": "xp.unstack(xp.asarray([[1, 2], [3, 4]]))",
    # searching
    "argmax": "xp.argmax(xp.asarray([3, 7, 5]))",
    "argmin": "xp.argmin(xp.asarray([[3, 1], [0, 4]]), axis=1)",
    "count_nonzero": "xp.count_nonzero(xp.asarray([0, 1, 2, 0]))",
    "nonzero": "xp.nonzero(xp.asarray([0, 1, 2, 0]))",
    "searchsorted": "xp.searchsorted(xp.asarray([1.0, 2.0, 3.0]), xp.asarray([2.5, 0.0]))",
    "where": "x = xp.asarray([-1.0, 2.0])\nxp.where(x > 0, x, 0.0)",
    # sets
    "isin": "xp.isin(xp.asarray([1, 2, 3]), xp.asarray([2, 5]))",
    "unique_all": "xp.unique_all(xp.asarray([3, 1, 3])).counts",
    "unique_counts": "xp.unique_counts(xp.asarray([3, 1, 3]))",
    "unique_inverse": "xp.unique_inverse(xp.asarray([3, 1, 3])).inverse_indices",
    "unique_values": "xp.unique_values(xp.asarray([3, 1, 3]))",
    # sorting
    "argsort": "xp.argsort(xp.asarray([3, 1, 2]), descending=True)",
    "sort": "xp.sort(xp.asarray([3, 1, 2]))",
    # statistics
    "cumulative_prod": "xp.cumulative_prod(xp.asarray([1, 2, 3, 4]))",
    "cumulative_sum": "xp.cumulative_sum(xp.asarray([1, 2, 3]), include_initial=True)",
    "max": "xp.max(xp.asarray([[1, 5], [3, 2]]), axis=0)",
    "mean": "xp.mean(xp.asarray([1.0, 2.0, 6.0]))",
    "min": "xp.min(xp.asarray([[1, 5], [3, 2]]), axis=1)",
    "prod": "xp.prod(xp.asarray([1, 2, 3, 4]))",
    "std": "xp.std(xp.asarray([1.0, 2.0, 3.0, 4.0]), correction=1)",
    "sum": "xp.sum(xp.asarray([[1, 2], [3, 4]]), axis=1)",
    "var": "xp.var(xp.asarray([1.0, 2.0, 3.0, 4.0]))",
    # utility
    "all": "xp.all(xp.asarray([True, False]))",
    "any": "xp.any(xp.asarray([True, False]))",
    "diff": "xp.diff(xp.asarray([1, 4, 9, 16]))",
    # extensions
    "logspace": "xp.logspace(0, 3, 4, dtype=xp.int64)",
    "fuse": "@xp.fuse\ndef axpy(a, x, y):\n    return a * x + y\n\n"
            "axpy(2.0, xp.ones(3), xp.arange(3.0))",
    "set_array_api_version": "xp.set_array_api_version('2025.12')\nxp.__array_api_version__",
    "set_strict": "xp.set_strict(True)",
    # data types and constants
    "bool": "xp.bool, xp.asarray([True, False]).dtype == xp.bool",
    **{d: f"xp.{d}, xp.asarray([1, 0], dtype=xp.{d}).dtype == xp.{d}"
       for d in ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
                 "uint64", "float32", "float64", "complex64", "complex128")},
    "e": "xp.e", "pi": "xp.pi", "inf": "xp.inf", "nan": "xp.nan",
    "newaxis": "xp.asarray([1, 2])[:, xp.newaxis].shape",
    "__array_api_version__": "xp.__array_api_version__",
    "Array": "x = xp.asarray([[1.0, 2.0], [3.0, 4.0]])\nx.shape, x.dtype, x.device\n"
             "(x @ x.T)[0, :]",
}

LINALG: dict[str, str] = {
    "cholesky": "a = xp.asarray([[4.0, 2.0], [2.0, 3.0]])\nxp.linalg.cholesky(a)",
    "cross": "xp.linalg.cross(xp.asarray([1.0, 0.0, 0.0]), xp.asarray([0.0, 1.0, 0.0]))",
    "det": "xp.linalg.det(xp.asarray([[1.0, 2.0], [3.0, 4.0]]))",
    "diagonal": "xp.linalg.diagonal(xp.reshape(xp.arange(9), (3, 3)))",
    "eig": "xp.linalg.eig(xp.asarray([[2.0, 0.0], [0.0, 3.0]])).eigenvalues",
    "eigh": "xp.linalg.eigh(xp.asarray([[2.0, 1.0], [1.0, 2.0]])).eigenvalues",
    "eigvals": "xp.linalg.eigvals(xp.asarray([[2.0, 0.0], [0.0, 3.0]]))",
    "eigvalsh": "xp.linalg.eigvalsh(xp.asarray([[2.0, 1.0], [1.0, 2.0]]))",
    "inv": "xp.linalg.inv(xp.asarray([[2.0, 0.0], [0.0, 4.0]]))",
    "matmul": "a = xp.asarray([[1.0, 2.0], [3.0, 4.0]])\nxp.linalg.matmul(a, a)",
    "matrix_norm": "xp.linalg.matrix_norm(xp.asarray([[3.0, 0.0], [0.0, 4.0]]))",
    "matrix_power": "xp.linalg.matrix_power(xp.asarray([[1.0, 1.0], [0.0, 1.0]]), 3)",
    "matrix_rank": "xp.linalg.matrix_rank(xp.asarray([[1.0, 2.0], [2.0, 4.0]]))",
    "matrix_transpose": "xp.linalg.matrix_transpose(xp.asarray([[1, 2, 3]]))",
    "outer": "xp.linalg.outer(xp.asarray([1, 2]), xp.asarray([1, 10, 100]))",
    "pinv": "xp.linalg.pinv(xp.asarray([[2.0, 0.0], [0.0, 0.0]]))",
    "qr": "q, r = xp.linalg.qr(xp.asarray([[3.0, 1.0], [4.0, 2.0]]))\nr",
    "slogdet": "xp.linalg.slogdet(xp.asarray([[1.0, 2.0], [3.0, 4.0]]))",
    "solve": "a = xp.asarray([[2.0, 0.0], [0.0, 4.0]])\n"
             "xp.linalg.solve(a, xp.asarray([[2.0], [8.0]]))",
    "svd": "xp.linalg.svd(xp.asarray([[3.0, 0.0], [0.0, 4.0]])).S",
    "svdvals": "xp.linalg.svdvals(xp.asarray([[3.0, 0.0], [0.0, 4.0]]))",
    "tensordot": "a = xp.ones((2, 3))\nxp.linalg.tensordot(a, xp.ones((3, 4)), axes=1).shape",
    "trace": "xp.linalg.trace(xp.reshape(xp.arange(9), (3, 3)))",
    "vecdot": "a = xp.asarray([1.0, 2.0])\nxp.linalg.vecdot(a, a)",
    "vector_norm": "xp.linalg.vector_norm(xp.asarray([3.0, 4.0]))",
}

FFT: dict[str, str] = {
    **{n: f"x = xp.asarray([1.0, 0.0, 0.0, 0.0], dtype=xp.complex64)\nxp.fft.{n}(x)"
       for n in ("fft", "ifft", "fftn", "ifftn")},
    "rfft": "xp.fft.rfft(xp.asarray([1.0, 0.0, 0.0, 0.0]))",
    "rfftn": "xp.fft.rfftn(xp.asarray([[1.0, 0.0], [0.0, 0.0]]))",
    "irfft": "xp.fft.irfft(xp.asarray([1.0, 1.0, 1.0], dtype=xp.complex128))",
    "irfftn": "xp.fft.irfftn(xp.asarray([[1.0, 1.0], [1.0, 1.0]], dtype=xp.complex128))",
    "hfft": "xp.fft.hfft(xp.asarray([1.0, 0.0, 0.0], dtype=xp.complex128))",
    "ihfft": "xp.fft.ihfft(xp.asarray([1.0, 0.0, 0.0, 0.0]))",
    "fftfreq": "xp.fft.fftfreq(4, d=0.5)",
    "rfftfreq": "xp.fft.rfftfreq(4, d=0.5)",
    "fftshift": "xp.fft.fftshift(xp.fft.fftfreq(4))",
    "ifftshift": "xp.fft.ifftshift(xp.fft.fftshift(xp.fft.fftfreq(4)))",
}
