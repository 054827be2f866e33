"""SciPy's own array API tests against xpgpu.

    python peers/scipy.py --device cpu --profile strict [--fast]

The tests come from the installed SciPy package (its wheel carries them), run with
``SCIPY_ARRAY_API=1``; ``peers/_scipy_plugin.py`` makes xpgpu, on the device under test,
the only parameter of SciPy's ``xp`` fixture, and keeps only the tests that take it; xpgpu
inherits SciPy's skip/xfail markers for array_api_strict (and, on a CUDA device in the
strict profile, its ``cpu_only`` ones). The submodules are those whose tests use ``xp``
(about 29,000 tests, 4 to 6 minutes on two CPU cores); ``--fast`` takes four of them
(special, fft, integrate, cluster: about 5,800 tests, one minute).
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

# This file is named after SciPy: its own folder must not shadow the package.
sys.path[0] = str(Path(__file__).resolve().parent.parent)

from peers._common import CACHE, Known, Options, Run, Unavailable, known, main  # noqa: E402

# scipy.datasets is left out: its tests need pooch and the network.
SUBMODULES = ["_lib", "cluster", "constants", "differentiate", "fft", "integrate",
              "interpolate", "linalg", "ndimage", "optimize", "signal", "spatial", "special",
              "stats"]
FAST = ["special", "fft", "integrate", "cluster"]

STRICT = ("strict",)

# SciPy exempts array_api_strict by name (``is_array_api_strict(xp)``) where its code or
# its tests need more than the standard gives; in the strict profile xpgpu behaves as
# array_api_strict there, so those tests fail (strict profile only).
KNOWN: list[Known] = [
    # scipy/stats/_resampling.py (_get_from_last_axis): `sample[..., i]` (an integer
    # array index after an ellipsis) unless is_array_api_strict(xp); bootstrap, jackknife
    # and permutation_test resample through it.
    *known("scipy-resampling-exempts-strict",
           "scipy/stats/tests/test_resampling.py::TestBootstrap::*",
           "scipy/stats/tests/test_resampling.py::TestPermutationTest::*",
           "scipy/stats/tests/test_*.py::*::test_permutation_method[[]*",
           "scipy/stats/tests/test_morestats.py::TestWilcoxon::test_all_zeros_exact[[]*",
           "scipy/stats/tests/test_hypotests.py::TestBWSTest::*", profiles=STRICT),
    # SciPy 1.18: find_root fills with a 0-d array (xp.full(n, xp.asarray(...))); the
    # tests skip the exact interval for array_api_strict by name.
    *known("scipy-find-root-full-array-exempts-strict",
           "scipy/stats/tests/test_morestats.py::TestBinomTest::test_dtype[[]*-exact-*",
           "scipy/stats/tests/test_morestats.py::TestBinomTest::test_ndarray[[]*-exact-*",
           profiles=STRICT),
    # SciPy 1.18: the test promotes integer y to float64 for array_api_strict by name.
    *known("scipy-slopes-test-exempts-strict",
           "scipy/stats/tests/test_correlation.py::Test*slopes::test_against_mstats[[]*-2-*",
           profiles=STRICT),
    # SciPy 1.18: quantile_test searches an int64 array for float64 values (mixed kinds,
    # which PyTorch refuses and the strict profile refuses with it: docs/deviations.md).
    *known("scipy-quantile-test-searchsorted-kinds",
           "scipy/stats/tests/test_stats.py::TestQuantileTest::*", profiles=STRICT),
    # scipy/ndimage/tests/test_filters.py (TestVectorizedFilter): `[..., mask]` indexing
    # and expected messages, skipped or adapted `if is_array_api_strict(xp)`.
    *known("scipy-vectorized-filter-exempts-strict",
           "scipy/ndimage/tests/test_filters.py::TestVectorizedFilter::*", profiles=STRICT),
    # scipy/special/tests/test_logsumexp.py (test_dtypes_ab): the expected dtype comes from
    # result_type(int, float) except `if is_array_api_strict(xp)`.
    *known("scipy-logsumexp-dtypes-exempts-strict",
           "scipy/special/tests/test_logsumexp.py::TestLogSumExp::test_dtypes_ab[[]*",
           profiles=STRICT),
    # Tests that ask for what the standard leaves undefined and xpgpu's strict profile
    # refuses on purpose (docs/deviations.md): an integer dtype for linspace, a complex
    # one for arange (NumPy, CuPy and PyTorch give different results or refuse).
    *known("scipy-linspace-arange-dtypes",
           "scipy/signal/tests/test_signaltools.py::TestCorrelateReal::test_rank1_*",
           "scipy/signal/tests/test_signaltools.py::TestConvolve::test_input_swapping[[]*",
           profiles=STRICT),
    # SciPy's own test bugs, in every profile.
    *known("scipy-result-type-test-regex",
           "scipy/_lib/tests/test_array_api.py::test_xp_result_type_force_floating[[]*"),
    *known("scipy-backend-error-messages",
           "scipy/stats/tests/test_correlation.py::*::test_input_validation[[]*",
           "scipy/ndimage/tests/test_filters.py::TestVectorizedFilter::test_input_validation[[]*"),
    # A cpu_only test (run in the permissive profile on CUDA, where its NumPy calls work):
    # rtol=1e-15 against a reference computed on the host, which CuPy misses the same way.
    *known("scipy-cumulative-simpson-nd-rtol",
           "scipy/integrate/tests/test_quadrature.py::TestCumulativeSimpson::test_nd[[]*",
           devices=("cuda:0",), profiles=("permissive",)),
    # On CUDA in the strict profile: SciPy's NumPy fallback (np.asarray of a device array)
    # meets the refusal of an implicit device-to-host copy, in tests that SciPy marks
    # cpu_only only for the GPU backends it names.
    *known("scipy-numpy-fallback-strict-gpu", "scipy/*", devices=("cuda:0",),
           profiles=STRICT, message=r"__array__: implicit conversion of a cuda:\d+ array"),
    # The NumPy fallback of scipy.special returns its result on the default device; the
    # test, which moves its input to every device, skips array_api_strict by name.
    *known("scipy-special-fallback-default-device",
           "scipy/stats/tests/test_device_dtype.py::test_quantile[[]*harrell-davis*",
           devices=("cuda:0",)),
    # The test takes `.max()` of `np.abs(zpk[1])`, an ndarray method on what NumPy's ufunc
    # returns; NumPy's ufuncs on xpgpu arrays return xpgpu arrays (as on CuPy arrays).
    *known("scipy-filtfilt-test-ndarray-method",
           "scipy/signal/tests/test_signaltools.py::Test*FiltFilt::test_sine[[]*"),
]


def prepare(opts: Options) -> Run:
    spec = importlib.util.find_spec("scipy")
    if spec is None or not spec.submodule_search_locations:
        raise Unavailable("SciPy is not installed")
    package = Path(next(iter(spec.submodule_search_locations)))
    here = CACHE / "scipy"
    here.mkdir(parents=True, exist_ok=True)
    # An empty pytest.ini: this checkout's pytest settings must not reach SciPy's.
    (here / "pytest.ini").write_text("")
    tests = [f"scipy.{name}" for name in (FAST if opts.fast else SUBMODULES)
             if (package / name / "tests").is_dir()]
    args = ["-p", "peers._scipy_plugin", f"--rootdir={package.parent}", "--pyargs", *tests]
    return Run(args, here, {"SCIPY_ARRAY_API": "1"})


if __name__ == "__main__":
    sys.exit(main("scipy", prepare, KNOWN))
