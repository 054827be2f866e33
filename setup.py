"""The optional compiled fast path of the binary element-wise functions.

Everything else is in pyproject.toml. Where the C compiler or Python's headers are
missing, the build goes on without it and xpgpu runs the same Python functions.
"""

from setuptools import Extension, setup

setup(ext_modules=[Extension("xpgpu._speedups", ["xpgpu/_speedups.c"], optional=True)])
