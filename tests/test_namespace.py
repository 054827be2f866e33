"""The namespace: __all__ is the standard's 2025.12 name list (written out here, from
the spec's API reference) plus xpgpu's documented extras; every name resolves."""

from __future__ import annotations

import xpgpu as xp

# https://data-apis.org/array-api/2025.12/API_specification/index.html
SPEC_2025_12 = """
    __array_namespace_info__ abs acos acosh add all any arange argmax argmin argsort asarray
    asin asinh astype atan atan2 atanh bitwise_and bitwise_invert bitwise_left_shift
    bitwise_or bitwise_right_shift bitwise_xor broadcast_arrays broadcast_shapes
    broadcast_to can_cast ceil clip concat conj copysign cos cosh count_nonzero
    cumulative_prod cumulative_sum diff divide e empty empty_like equal exp expand_dims
    expm1 eye finfo flip floor floor_divide from_dlpack full full_like greater greater_equal
    hypot iinfo imag inf isdtype isfinite isin isinf isnan less less_equal linspace log
    log10 log1p log2 logaddexp logical_and logical_not logical_or logical_xor matmul
    matrix_transpose max maximum mean meshgrid min minimum moveaxis multiply nan negative
    newaxis nextafter nonzero not_equal ones ones_like permute_dims pi positive pow prod
    real reciprocal remainder repeat reshape result_type roll round searchsorted sign
    signbit sin sinh sort sqrt square squeeze stack std subtract sum take take_along_axis
    tan tanh tensordot tile tril triu trunc unique_all unique_counts unique_inverse
    unique_values unstack var vecdot where zeros zeros_like
""".split()
DTYPES = """
    bool int8 int16 int32 int64 uint8 uint16 uint32 uint64 float32 float64 complex64 complex128
""".split()
LINALG = """
    cholesky cross det diagonal eigh eigvalsh inv matmul matrix_norm matrix_power
    matrix_rank matrix_transpose outer pinv qr slogdet solve svd svdvals tensordot trace
    vecdot vector_norm
""".split()
FFT = """
    fft fftfreq fftn fftshift hfft ifft ifftn ifftshift ihfft irfft irfftn rfft rfftfreq
    rfftn
""".split()
# Documented extras: the array type, the version, the extensions, and three functions.
EXTRAS = ["Array", "__array_api_version__", "fft", "linalg", "logspace", "fuse",
          "set_array_api_version", "set_strict"]


def test_all_is_spec_plus_extras():
    assert xp.__array_api_version__ == "2025.12"
    assert len(SPEC_2025_12) == 141
    assert sorted(xp.__all__) == sorted(SPEC_2025_12 + DTYPES + EXTRAS)
    assert len(set(xp.__all__)) == len(xp.__all__)


def test_every_name_resolves():
    for name in xp.__all__:
        assert hasattr(xp, name), name
    for name in SPEC_2025_12:
        obj = getattr(xp, name)
        if name not in ("e", "inf", "nan", "pi", "newaxis"):
            assert callable(obj), name


def test_constants():
    assert xp.newaxis is None
    assert xp.e == 2.718281828459045 and xp.pi == 3.141592653589793
    assert xp.inf == float("inf") and xp.nan != xp.nan
    for name in ("e", "inf", "nan", "pi"):
        assert type(getattr(xp, name)) is float


def test_extensions():
    for name in LINALG:
        assert callable(getattr(xp.linalg, name)), name
    for name in FFT:
        assert callable(getattr(xp.fft, name)), name


def test_no_private_or_backend_names_leak():
    public = {n for n in dir(xp) if not n.startswith("_")}
    assert "numpy" not in public and "cupy" not in public and "np" not in public
    assert public == {n for n in xp.__all__ if not n.startswith("_")}
    for module in (xp, xp.linalg, xp.fft):
        shown = dir(module)
        assert set(module.__all__) <= set(shown), module.__name__
        # Only public names and dunders: no helpers, no private submodules.
        assert [n for n in shown if n.startswith("_") and not n.endswith("__")] == []
        assert [n for n in shown if not n.startswith("_") and n not in module.__all__] == []
        assert "__version__" in dir(xp) and "__array_api_version__" in dir(xp)


def test_private_submodules_still_import():
    import xpgpu._dtypes
    from xpgpu._array import Array

    assert Array is xp.Array
    assert xpgpu._dtypes.float32 is xp.float32


def test_help_shows_docstrings_not_source_comments():
    """pydoc shows the comment above a def that has no docstring: no method of Array has
    one there without a docstring, so help(xpgpu.Array) shows no `# Note:` comment (those
    stay in the source, inside the functions); the attributes have docstrings."""
    import inspect
    import pydoc

    text = pydoc.render_doc(xp.Array, renderer=pydoc.plaintext)
    assert "Note:" not in text
    for name, member in vars(xp.Array).items():
        target = member.fget if isinstance(member, property) else member
        if isinstance(member, property):
            assert target.__doc__, name
        if inspect.isfunction(target) and not target.__doc__:
            assert inspect.getcomments(target) is None, name
    for name in ("to_device", "__array_namespace__", "__bool__", "__float__", "__iter__",
                 "__array__", "__add__", "__radd__", "__iadd__", "__eq__"):
        assert getattr(xp.Array, name).__doc__, name


def test_every_function_links_its_specification():
    extensions = {"logspace", "fuse", "set_array_api_version", "set_strict"}
    for module in (xp, xp.linalg, xp.fft):
        for name in module.__all__:
            obj = getattr(module, name)
            if callable(obj) and not isinstance(obj, type) and name not in extensions:
                assert "https://data-apis.org/array-api/2025.12/" in (obj.__doc__ or ""), name
