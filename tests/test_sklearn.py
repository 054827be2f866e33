"""scikit-learn's array API mode on xpgpu arrays, on each device.

scikit-learn dispatches through ``array_api_compat.array_namespace(x)`` when
``sklearn.set_config(array_api_dispatch=True)``; the oracle is the same scikit-learn code
on NumPy arrays without dispatch. It runs in a subprocess because scikit-learn needs
``SCIPY_ARRAY_API=1`` set before SciPy is first imported. Skipped where scikit-learn is
not installed (the ``test`` extra installs it).
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from typing import Any

import pytest

pytestmark = pytest.mark.skipif(importlib.util.find_spec("sklearn") is None,
                                reason="scikit-learn is not installed")

SCRIPT = r"""
import sys
import numpy as np
import sklearn
import xpgpu as xp
from sklearn import metrics
from sklearn.decomposition import PCA
from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
from sklearn.linear_model import Ridge, RidgeClassifier
from sklearn.preprocessing import MaxAbsScaler, MinMaxScaler, Normalizer, StandardScaler

device = sys.argv[1]
rng = np.random.default_rng(0)
X = rng.standard_normal((60, 5))
y = (X[:, 0] + 0.1 * rng.standard_normal(60) > 0).astype(np.int64)
t = X @ rng.standard_normal(5)

CASES = {
    "PCA": lambda X, y, t: PCA(n_components=2, svd_solver="full").fit_transform(X),
    "LinearDiscriminantAnalysis": lambda X, y, t: LinearDiscriminantAnalysis().fit(X, y)
        .predict_proba(X),
    "Ridge": lambda X, y, t: Ridge(alpha=1.0, solver="svd").fit(X, t).predict(X),
    "RidgeClassifier": lambda X, y, t: RidgeClassifier(solver="svd").fit(X, y)
        .decision_function(X),
    "StandardScaler": lambda X, y, t: StandardScaler().fit_transform(X),
    "MinMaxScaler": lambda X, y, t: MinMaxScaler().fit_transform(X),
    "MaxAbsScaler": lambda X, y, t: MaxAbsScaler().fit_transform(X),
    "Normalizer": lambda X, y, t: Normalizer().fit_transform(X),
    "accuracy_score": lambda X, y, t: metrics.accuracy_score(y, y[::-1]),
    "r2_score": lambda X, y, t: metrics.r2_score(t, t * 0.9),
    "mean_squared_error": lambda X, y, t: metrics.mean_squared_error(t, t * 0.9),
    "confusion_matrix": lambda X, y, t: metrics.confusion_matrix(y, y[::-1]),
    "euclidean_distances": lambda X, y, t: metrics.pairwise.euclidean_distances(
        X[:5, :], X[:7, :]),
    "rbf_kernel": lambda X, y, t: metrics.pairwise.rbf_kernel(X[:5, :], X[:7, :]),
    "cosine_similarity": lambda X, y, t: metrics.pairwise.cosine_similarity(
        X[:5, :], X[:7, :]),
}

failures = []
for name, case in CASES.items():
    with sklearn.config_context(array_api_dispatch=False):
        want = np.asarray(case(X, y, t))
    with sklearn.config_context(array_api_dispatch=True):
        try:
            got = case(*(xp.asarray(a, device=device) for a in (X, y, t)))
        except Exception as e:
            failures.append(f"{name}: raised {type(e).__name__}: {e}")
            continue
    if isinstance(got, xp.Array):
        if got.device != xp.asarray(0, device=device).device:
            failures.append(f"{name}: result on {got.device}, not {device}")
            continue
        got = np.asarray(got.to_device("cpu"))
    elif want.ndim:
        failures.append(f"{name}: returned {type(got).__name__}, not an xpgpu array")
        continue
    if not np.allclose(np.asarray(got, dtype=want.dtype), want, rtol=1e-6, atol=1e-9):
        failures.append(f"{name}: differs from scikit-learn on NumPy")
print("\n".join(failures))
sys.exit(1 if failures else 0)
"""


def test_estimators_and_metrics_match_numpy(device: Any) -> None:
    env = {**os.environ, "SCIPY_ARRAY_API": "1"}
    run = subprocess.run([sys.executable, "-c", SCRIPT, str(device)], env=env,
                         capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stdout + run.stderr[-3000:]
