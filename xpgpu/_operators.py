"""The array object's operators, as a table delegating to the namespace functions.

https://data-apis.org/array-api/2025.12/API_specification/array_object.html#operators

A row is ``dunder: (function name, mode)``: ``fwd`` calls ``f(self, other)``, ``rev``
calls ``f(other, self)``, ``inplace`` computes ``f(self, other)`` and writes it into
``self``, which must keep its dtype and shape; ``unary`` calls ``f(self)``. An operand
that is neither an array nor a Python scalar gives NotImplemented, so Python tries the
other operand's reflected operator and raises TypeError when there is none.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from . import _validate as v
from ._array import Array
from ._dtypes import DType
from ._elementwise import FUNCTIONS, _host_operand, _is_host, operator
from ._linear_algebra import matmul
from ._scalars import scalar_type

_BINARY = {
    "add": "add", "sub": "subtract", "mul": "multiply", "truediv": "divide",
    "floordiv": "floor_divide", "mod": "remainder", "pow": "pow", "matmul": "matmul",
    "and": "bitwise_and", "or": "bitwise_or", "xor": "bitwise_xor",
    "lshift": "bitwise_left_shift", "rshift": "bitwise_right_shift",
}
OPERATORS: dict[str, tuple[str, str]] = {
    **{f"__{op}__": (f, "fwd") for op, f in _BINARY.items()},
    **{f"__r{op}__": (f, "rev") for op, f in _BINARY.items()},
    **{f"__i{op}__": (f, "inplace") for op, f in _BINARY.items()},
    "__eq__": ("equal", "fwd"), "__ne__": ("not_equal", "fwd"),
    "__lt__": ("less", "fwd"), "__le__": ("less_equal", "fwd"),
    "__gt__": ("greater", "fwd"), "__ge__": ("greater_equal", "fwd"),
    "__abs__": ("abs", "unary"), "__neg__": ("negative", "unary"),
    "__pos__": ("positive", "unary"), "__invert__": ("bitwise_invert", "unary"),
}

_SYMBOL = {f"__i{op}__": s for op, s in (
    ("add", "+"), ("sub", "-"), ("mul", "*"), ("truediv", "/"), ("floordiv", "//"),
    ("mod", "%"), ("pow", "**"), ("matmul", "@"), ("and", "&"), ("or", "|"), ("xor", "^"),
    ("lshift", "<<"), ("rshift", ">>"))}
_FUNCTIONS: dict[str, Callable[..., Array]] = {**FUNCTIONS, "matmul": matmul}
_SPEC = "https://data-apis.org/array-api/2025.12/API_specification/array_object.html#operators"
_DOC = {
    "fwd": "``{f}(self, other)`` as an operator. See {spec}",
    "rev": "``{f}(other, self)``: the reflected operator. See {spec}",
    "inplace": "``self = {f}(self, other)``, in place: the result must keep the array's dtype "
               "and shape. See {spec}",
}
# Operand types handled without a second look; others go through scalar_type().
_OPERANDS = frozenset({Array, bool, int, float, complex})


def _is_operand(other: object) -> bool:
    return type(other) in _OPERANDS or scalar_type(other) is not None


def _make(dunder: str, name: str, mode: str, functions: dict[str, Callable[..., Any]],
          loose: Any = None) -> Callable[..., Any]:
    f = functions[name]
    if mode == "unary":
        return f  # one argument, an Array: the function itself
    if mode == "fwd" and name in FUNCTIONS:
        # The element-wise function's own body, built for the operator: one call deep.
        return operator(dunder, name, loose)
    if mode == "fwd":
        def op(self: Array, other: Any, /) -> Any:
            if type(other) in _OPERANDS or _is_operand(other):
                return f(self, other)
            if loose is not None and _is_host(other):
                return f(self, loose.operand(dunder, other, self._device))
            return _other(dunder, other, loose)
    elif mode == "rev":
        def op(self: Array, other: Any, /) -> Any:
            if type(other) in _OPERANDS or _is_operand(other):
                return f(other, self)
            if loose is not None and _is_host(other):
                return f(loose.operand(dunder, other, self._device), self)
            return _other(dunder, other, loose)
    else:
        keeps = _keeps_dtype if loose is None else loose.inplace_keeps
        # The element-wise function built for the operator, so that refusals name
        # __iadd__, not add; matmul's are named matmul.
        g = operator(dunder, name, loose) if name in FUNCTIONS else f

        def op(self: Array, other: Any, /) -> Any:
            if not _is_operand(other):
                if loose is None or not _is_host(other):
                    return _other(dunder, other, loose)
                other = loose.operand(dunder, other, self._device)
            result = g(self, other)
            if not keeps(result._dtype, self._dtype):
                v.fail(dunder, f"the result dtype {result._dtype.name} differs from the "
                               f"array's {self._dtype.name}; in-place operations keep the "
                               f"dtype: use x = x {_SYMBOL.get(dunder, '<op>')} y instead")
            if result._data.shape != self._data.shape:
                v.fail(dunder, f"the result shape {result.shape} differs from the array's "
                               f"{self.shape}; in-place operations keep the shape: use "
                               f"x = x {_SYMBOL.get(dunder, '<op>')} y instead", ValueError)
            self._data[...] = result._data
            return self
    op.__name__ = op.__qualname__ = dunder
    op.__doc__ = _DOC[mode].format(f=name, spec=_SPEC)
    return op


def _keeps_dtype(result: DType, dtype: DType) -> bool:
    """Whether an in-place operator may write a result of ``result`` into ``dtype``."""
    return result is dtype


def _other(dunder: str, other: object, loose: Any) -> Any:
    """An operand that is neither an array nor a Python scalar: NotImplemented (Python
    then tries the other operand's reflected operator), except for a NumPy array or
    scalar, whose own operators would convert the array; the permissive form
    (``loose``) converts a NumPy operand."""
    if loose is None and _is_host(other):
        _host_operand(dunder, other)
    return NotImplemented  # (the permissive callers convert NumPy operands first)


def methods(functions: dict[str, Callable[..., Any]], loose: Any = None
            ) -> dict[str, Callable[..., Any]]:
    """The operators of the table, built on ``functions`` (by standard name)."""
    return {dunder: _make(dunder, name, mode, functions, loose)
            for dunder, (name, mode) in OPERATORS.items()}


for _dunder, _method in methods(_FUNCTIONS).items():
    setattr(Array, _dunder, _method)
