#!/usr/bin/env bash
# Confirm the accelerator paths on a machine with a GPU or TPU: one command, a time limit,
# everything under one folder.
#
#   tools/device_check.sh [OUT_DIR] [TIME_LIMIT_S]      (defaults: device-check-<UTC time>, 540)
#
# Runs, each under what is left of the limit: the driver's own report (nvidia-smi / rocm-smi),
# `gpu-tpu-probe devices`, a smoke and a quick run (run files + CSV), a torch fp32 matmul with
# TORCH_ALLOW_TF32_CUBLAS_OVERRIDE=1, then tools/device_check.py over the run files.
# Exit status: 0 when every check holds, 1 when one does not, 124 when the time ran out.
set -u
OUT=${1:-device-check-$(date -u +%Y%m%dT%H%M%SZ)}
LIMIT=${2:-540}
HERE=$(cd "$(dirname "$0")/.." && pwd)
PY=${PYTHON:-$HERE/.venv/bin/python}
[ -x "$PY" ] || PY=$(command -v python3)
mkdir -p "$OUT"
END=$(( $(date +%s) + LIMIT ))

left() { echo $(( END - $(date +%s) )); }

step() {  # step NAME SECONDS_AT_MOST COMMAND...: output to OUT/NAME.{out,err,rc}
    local name=$1 most=$2; shift 2
    local t; t=$(left)
    [ "$t" -gt "$most" ] && t=$most
    if [ "$t" -le 5 ]; then echo "skipped: out of time" > "$OUT/$name.rc"; return 124; fi
    echo "== $name (at most ${t}s)" >&2
    timeout --kill-after=10 "$t" "$@" > "$OUT/$name.out" 2> "$OUT/$name.err"
    local rc=$?
    echo "$rc" > "$OUT/$name.rc"
    return $rc
}

{
    date -u +%FT%TZ; uname -a; "$PY" --version
    "$PY" -m pip list 2>/dev/null | grep -iE '^(torch|jax|jaxlib|jax-cuda|nvidia-ml-py|libtpu|gpu-tpu-app) ' || true
    env | grep -E '^(CUDA_VISIBLE_DEVICES|HIP_VISIBLE_DEVICES|NVIDIA_TF32_OVERRIDE|TORCH_ALLOW_TF32_CUBLAS_OVERRIDE|XLA_|JAX_|TPU_)' || true
} > "$OUT/environment.txt" 2>&1
command -v nvidia-smi >/dev/null && step nvidia-smi 30 nvidia-smi -q
command -v rocm-smi >/dev/null && step rocm-smi 30 rocm-smi --showallinfo
step devices 240 "$PY" -m gpu_tpu_app probe devices --format json
step smoke 120 "$PY" -m gpu_tpu_app probe run --suite smoke --out "$OUT/smoke.json" --csv "$OUT/smoke.csv"
step quick 300 "$PY" -m gpu_tpu_app probe run --suite quick --out "$OUT/quick.json" --csv "$OUT/quick.csv"
step tf32-override 120 env TORCH_ALLOW_TF32_CUBLAS_OVERRIDE=1 "$PY" -m gpu_tpu_app probe run --suite smoke \
    --backend torch --kernel matmul --dtype float32 --out "$OUT/tf32-override.json"
step check 60 "$PY" "$HERE/tools/device_check.py" "$OUT"
rc=$(cat "$OUT/check.rc" 2>/dev/null || echo 124)
cat "$OUT/check.out" 2>/dev/null
echo "results in $OUT (check exit status $rc)" >&2
[ "$rc" = "skipped: out of time" ] && exit 124
exit "$rc"
