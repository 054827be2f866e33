"""xpgpu without CuPy: import and every CPU path work when ``import cupy`` fails."""

from __future__ import annotations

import os
import subprocess
import sys

CODE = r'''
import sys
sys.modules["cupy"] = None  # `import cupy` now raises ImportError
import xpgpu as xp
assert "cupy" not in {m.split(".")[0] for m, v in sys.modules.items() if v is not None}
info = xp.__array_namespace_info__()
assert [str(d) for d in info.devices()] == ["cpu"], info.devices()
assert str(info.default_device()) == "cpu"
x = xp.asarray([[1.0, 2.0], [3.0, 4.0]])
assert str(x.device) == "cpu"
y = xp.sum(x * 2 + 1, axis=0)
assert [float(v) for v in y] == [10.0, 14.0]
assert abs(float(xp.linalg.det(x)) + 2.0) < 1e-12
assert x[0, 1].shape == () and float(x[xp.asarray([1, 0]), 0][0]) == 3.0
assert x.to_device("cpu") is x
import numpy, pickle
assert (numpy.from_dlpack(x) == numpy.array([[1.0, 2.0], [3.0, 4.0]])).all()
assert float(pickle.loads(pickle.dumps(x))[1, 1]) == 4.0
try:
    xp.zeros(2, device="cuda:0")
except ValueError as e:
    assert "cuda:0" in str(e)
else:
    raise AssertionError("cuda:0 exists without CuPy")
print("ok")
'''


def test_import_and_cpu_ops_without_cupy():
    env = {k: v for k, v in os.environ.items() if k != "XPGPU_DEFAULT_DEVICE"}
    out = subprocess.run([sys.executable, "-c", CODE], capture_output=True, text=True,
                         env=env, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "ok"
