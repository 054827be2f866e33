#!/usr/bin/env bash
# The GPU parts of docs/cubed.md in one command, from the repository root, on a host with CuPy,
# one or more GPUs, and examples/cubed-requirements.txt installed:
#
#   bash examples/cubed_gpu.sh [OUT_DIR]
#
# 1. tests/test_cubed.py on cuda:0 (strict, and permissive where xpgpu has it);
# 2. the three workloads with cubed + xpgpu on one GPU, and with cubed + NumPy on the host's
#    cores, then on one worker per GPU where there are several (same digests as on one GPU);
# 3. the bounded-memory run: an input twice the GPU's memory (CUBED_BOUNDED_GB overrides).
# CUBED_PARTS selects parts (default "tests workloads bounded"), to stay within a time limit.
# Results: OUT_DIR/results.jsonl (one JSON line per run) and the logs beside it.
# A smoke run on the CPU: CUBED_DEVICE=cpu CUBED_SIZE=600 CUBED_MATMUL_SIZE=400 \
#     CUBED_BOUNDED_GB=0.05 bash examples/cubed_gpu.sh
set -uo pipefail
out=${1:-cubed-gpu-results}
mkdir -p "$out"
export PYTHONPATH=$PWD${PYTHONPATH:+:$PYTHONPATH}
cores=$(python -c "import os; print(os.cpu_count())")
gpus=$(python -c "import xpgpu; print(len(xpgpu.__array_namespace_info__().devices()) - 1)")
device=${CUBED_DEVICE:-cuda:0}
n=${CUBED_SIZE:-40000}
m=${CUBED_MATMUL_SIZE:-20000}
echo "device=$device cores=$cores gpus=$gpus size=$n matmul=$m" | tee "$out/log.txt"

parts=${CUBED_PARTS:-tests workloads bounded}
has() { [[ " $parts " == *" $1 "* ]]; }

if has tests; then
    XPGPU_DEFAULT_DEVICE=$device python -m pytest tests/test_cubed.py -q -p no:cacheprovider \
        -rf 2>&1 | tail -30 | tee "$out/tests-strict.txt"
fi
if has tests && python -c "import xpgpu, sys; sys.exit(not hasattr(xpgpu, 'set_strict'))"; then
    XPGPU_STRICT=0 XPGPU_DEFAULT_DEVICE=$device python -m pytest tests/test_cubed.py -q \
        -p no:cacheprovider -rf 2>&1 | tail -30 | tee "$out/tests-permissive.txt"
fi

run() {  # one example run; its JSON line goes to results.jsonl
    echo "+ $*" | tee -a "$out/log.txt"
    python "$@" 2>>"$out/log.txt" | tee -a "$out/log.txt" | grep '^{' >>"$out/results.jsonl"
}
for w in reduction pipeline matmul; do
    has workloads || break
    size=$n; [ "$w" = matmul ] && size=$m
    run "examples/cubed_$w.py" --device "$device" --executor processes --workers 4 --size "$size"
    run "examples/cubed_$w.py" --backend numpy --executor processes --workers "$cores" \
        --size "$size"
    if [ "$gpus" -gt 1 ]; then
        run "examples/cubed_$w.py" --executor dask-cuda --size "$size"
    fi
done
bounded=()
[ -n "${CUBED_BOUNDED_GB:-}" ] && bounded=(--size-gb "$CUBED_BOUNDED_GB")
if has bounded; then
    run examples/cubed_bounded_memory.py --device "$device" "${bounded[@]}" --allowed-mem 2GB \
        --chunk-mb 128 --executor processes --workers 8 --data-dir "${TMPDIR:-/tmp}/xpgpu-cubed"
fi
grep -h "results exact" "$out/log.txt" | tail -1
cat "$out/results.jsonl" 2>/dev/null
