"""scikit-learn's own array API tests against xpgpu.

    python peers/sklearn.py --device cpu --profile strict [--fast]

The tests come from the installed scikit-learn package (``pytest --pyargs sklearn -k
array_api``); ``peers/_sklearn_plugin.py`` points its namespace generators at xpgpu on the
device under test and keeps only the tests that run on xpgpu (about 1,150 tests, 1 to 3
minutes on two CPU cores). ``--fast`` runs the metrics, the estimator checks of a few
estimators and scikit-learn's array API utilities (about 600 tests, 15 to 70 seconds).

scikit-learn exempts array_api_strict by name where its code or its tests need more than
the standard gives (``grep -rn array_api_strict sklearn``, outside ``externals``). In the
strict profile xpgpu behaves as array_api_strict there, so those tests fail; they are the
``*-exempts-strict`` entries of ``KNOWN``, restricted to the strict profile. The others
are scikit-learn's own bugs (they fail on array_api_strict too), in every profile.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

# This file is named after scikit-learn: its own folder must not shadow the package.
sys.path[0] = str(Path(__file__).resolve().parent.parent)

from peers._common import CACHE, Known, Options, Run, Unavailable, known, main  # noqa: E402

STRICT = ("strict",)

KNOWN: list[Known] = [
    # sklearn/metrics/_classification.py (balanced_accuracy_score) casts the confusion
    # matrix to float only `if _is_xp_namespace(xp, "array_api_strict")`: integer / integer.
    *known("sklearn-balanced-accuracy-exempts-strict",
           "*test_array_api_compliance[[]balanced_accuracy_score-*", profiles=STRICT),
    # sklearn/utils/estimator_checks.py (check_array_api_input): "numpy_asarray_works =
    # xp_X.__name__ != 'array_api_strict'"; SearchCV indexes X with a NumPy index array.
    *known("sklearn-searchcv-numpy-index-exempts-strict",
           "*test_estimators[[]GridSearchCV(*", "*test_estimators[[]RandomizedSearchCV(*",
           profiles=STRICT),
    # sklearn/utils/tests/test_extmath.py: integer-by-float matmul is tried except
    # `array_namespace in {"array_api_strict", "torch"}`.
    *known("sklearn-int-float-matmul-exempts-strict",
           "*test_randomized_range_finder_array_api_compliance[[]xpgpu-*-float64]",
           profiles=STRICT),
    # sklearn/utils/_array_api.py (_convert_to_numpy): moving a GPU array of a namespace it
    # does not know by name (cupy, torch, dpnp) to a CPU namespace falls back on
    # numpy.asarray, which strict xpgpu refuses on CUDA, as CuPy does without its special case.
    *known("sklearn-move-to-numpy-by-name",
           *(f"*test_estimators[[]{est}-check_array_api_mixed_inputs(*xpgpu', device='cuda*"
             for est in ("LogisticRegression(*", "RidgeClassifierCV(*")),
           devices=("cuda:0",), profiles=STRICT),
    # scikit-learn's own bug (array_api_strict fails the same way): integer sample_weight.
    *known("sklearn-multilabel-confusion-int-weights",
           *(f"*test_mixed_array_api_namespace_input_compliance[[]{metric}-*"
             for metric in ("f1_score", "precision_score", "recall_score",
                            "multilabel_confusion_matrix")),
           profiles=STRICT),
]

# --fast: the metrics (most of scikit-learn's array API code), a few estimators' checks
# (each family: linear model, decomposition, preprocessing, search) and the utilities.
FAST = ["sklearn.metrics.tests.test_common", "sklearn.utils.tests.test_array_api",
        "sklearn.tests.test_common", "-k",
        "array_api and (not test_estimators or Ridge or PCA or StandardScaler"
        " or GridSearchCV)"]


def prepare(opts: Options) -> Run:
    spec = importlib.util.find_spec("sklearn")
    if spec is None or not spec.submodule_search_locations:
        raise Unavailable("scikit-learn is not installed")
    site = Path(next(iter(spec.submodule_search_locations))).parent
    here = CACHE / "sklearn"
    here.mkdir(parents=True, exist_ok=True)
    # An empty pytest.ini: this checkout's pytest settings must not reach scikit-learn's.
    (here / "pytest.ini").write_text("")
    tests = FAST if opts.fast else ["sklearn", "-k", "array_api"]
    # The rootdir above the package: node ids read sklearn/metrics/tests/...
    args = ["-p", "peers._sklearn_plugin", f"--rootdir={site}", "--pyargs", *tests]
    return Run(args, here, {"SCIPY_ARRAY_API": "1"})


if __name__ == "__main__":
    sys.exit(main("sklearn", prepare, KNOWN))
