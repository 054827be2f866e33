"""Small host arrays onto a CUDA device as a kernel's parameters (``asarray`` of a short
list, ``to_device`` of a few values).

CuPy copies host memory with ``cudaMemcpyAsync`` from pageable memory, which waits for
the stream's earlier work and stages the bytes before it returns: most of CuPy's 18-29 µs
for ``asarray`` of 8 floats on H100 hosts (xpgpu's, with this: 13.3 µs where CuPy's took
18.3). Up to ``WORDS``
16-byte words are instead passed by value to a one-thread kernel that stores them: a
launch (a few µs), queued on the current stream like any kernel, so the work after it on
that stream sees the values, as it sees a copy's. The bytes are the host array's in C
order (any strides), bit for bit: -0.0 and NaN payloads included.
"""

from __future__ import annotations

from typing import Any

import cupy
import numpy

from . import _cupy_reductions as _r
from ._cupy_launch import launch

WORDS = 14  # 16-byte parameters a launch, besides the output and its size (16 in all)
_SOURCE = r"""
extern "C" __global__ void xpgpu_upload(unsigned char *out, const long long nbytes,
                                        WORD_PARAMS) {
    const uint4 w[WORDS] = {WORD_LIST};
    #pragma unroll
    for (int t = 0; t < WORDS; ++t) {
        const long long at = 16ll * t;
        if (at + 16 <= nbytes) {
            *reinterpret_cast<uint4 *>(out + at) = w[t];  // out: 256-byte aligned
        } else if (at < nbytes) {
            const unsigned char *b = reinterpret_cast<const unsigned char *>(&w[t]);
            for (int k = 0; at + k < nbytes; ++k) out[at + k] = b[k];
        }
    }
}
"""
_ZERO = numpy.complex128(0)  # an unused word


@_r.Kernels
def _kernels(device: int) -> Any:
    src = (_SOURCE.replace("WORD_PARAMS", ", ".join(f"const uint4 w{t}" for t in range(WORDS)))
           .replace("WORD_LIST", ", ".join(f"w{t}" for t in range(WORDS)))
           .replace("WORDS", str(WORDS)))
    return _r.functions(src, "xpgpu_upload")[0]


def upload(data: numpy.ndarray, device: int) -> Any:
    """``data`` as a C-contiguous array on the current device (``device``), or None where it
    has more than ``WORDS`` words (CuPy's copy)."""
    nbytes = data.nbytes
    if nbytes > 16 * WORDS:
        return None
    out = cupy.ndarray(data.shape, data.dtype)
    if nbytes:
        raw = data.tobytes()
        words = numpy.frombuffer(raw + bytes(-nbytes % 16), numpy.complex128)
        launch(_kernels[(device,)], 1, 1, (out, numpy.int64(nbytes), *words,
                                       *(_ZERO,) * (WORDS - len(words))))
    return out
