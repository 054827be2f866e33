"""The optional compiled parts: the fast path of the binary element-wise functions, and the
CUDA backend's kernel launches.

Everything else is in pyproject.toml. Where the C compiler or Python's headers are
missing, the build goes on without them and xpgpu runs the same Python functions.
"""

from setuptools import Extension, setup

setup(ext_modules=[
    Extension("xpgpu._speedups", ["xpgpu/_speedups.c"], optional=True),
    # cuLaunchKernel is looked up at run time in the libcuda that CuPy loaded (dlsym).
    Extension("xpgpu._backend._launch", ["xpgpu/_backend/_launch.c"], optional=True),
])
