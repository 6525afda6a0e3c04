#!/usr/bin/env bash
# The GPU check (`make gpu-check`): on a machine with an NVIDIA GPU and the CUDA toolkit, build
# llama.cpp with CUDA into make's venv, then run `kgchat prepare`, `kgchat ask --demo office`,
# `kgchat bench generate` and `kgchat bench retrieve`, and print where each model ran, TTFT,
# tokens/s and the engine/bare ratio. Without network: WHEELS_DIR=DIR installs from a folder of
# wheels only: kgchat's dependencies, the llama-cpp-python sdist and the build tools pip fetches
# for it and for kgchat itself (scikit-build-core, cmake, ninja, setuptools, wheel).
#
# Settings (environment, or make variables): WHEELS_DIR; CUDA_ARCH (90: H100/H200); CPU=1 skips the
# CUDA build (the CPU path, also taken when no GPU answers); INSTALL=0 uses the venv as it is;
# VENV (make's .venv); GENERATE_ARGS and RETRIEVE_ARGS, extra options of the two benchmarks;
# STEP_TIMEOUT, seconds each kgchat command may take (600).
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT" || exit 2
VENV=${VENV:-.venv}
PY="$VENV/bin/python"
CUDA_ARCH=${CUDA_ARCH:-90}
STEP_TIMEOUT=${STEP_TIMEOUT:-600}
LLAMA=${LLAMA:-"llama-cpp-python>=0.3.2,<0.4"}
QUESTION="Who is in the Engineering group?"
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
export HF_HUB_OFFLINE=1 PIP_DISABLE_PIP_VERSION_CHECK=1
# the sources of this checkout run, whatever the venv's editable install points at
export PYTHONPATH="$ROOT${PYTHONPATH:+:$PYTHONPATH}"
if [ -n "${WHEELS_DIR:-}" ]; then
  [ -d "$WHEELS_DIR" ] || { echo "gpu-check: WHEELS_DIR=$WHEELS_DIR: no such folder" >&2; exit 2; }
  export PIP_NO_INDEX=1 PIP_FIND_LINKS="$WHEELS_DIR"  # pip, and pip inside make, install from there only
fi

say() { printf 'gpu-check: %s\n' "$*"; }
fail() { printf 'gpu-check: FAILED: %s\n' "$*" >&2; exit 1; }

# --- the GPU and the toolkit ---------------------------------------------------------------
gpu=""
if [ "${CPU:-0}" = 1 ]; then
  say "CPU=1: the CUDA build is skipped"
elif command -v nvidia-smi >/dev/null 2>&1 && gpu=$(nvidia-smi --query-gpu=name,memory.total,driver_version \
     --format=csv,noheader 2>/dev/null | head -1) && [ -n "$gpu" ]; then
  say "GPU: $gpu"
  command -v nvcc >/dev/null 2>&1 || export PATH="/usr/local/cuda/bin:$PATH"
  command -v nvcc >/dev/null 2>&1 || fail "no CUDA toolkit: nvcc is neither on PATH nor in /usr/local/cuda/bin"
  say "CUDA toolkit: $(nvcc --version | grep -o 'release [0-9.]*')"
else
  gpu=""
  say "no NVIDIA GPU answers nvidia-smi: the CPU path only"
fi

# --- make's venv, with llama.cpp built for the GPU -----------------------------------------
if [ "${INSTALL:-1}" = 1 ]; then
  start=$SECONDS
  test -x "$PY" || python3 -m venv "$VENV" || fail "python3 -m venv $VENV"
  if [ -n "$gpu" ]; then
    # make's flags (the x86 no-AMX ones) before the CUDA ones; the wheel is kept where make keeps
    # it for these flags, so `make run CMAKE_ARGS=...` with the same flags finds it too
    args=${LLAMA_CMAKE_ARGS:-"-DGGML_CUDA=on -DCMAKE_CUDA_ARCHITECTURES=$CUDA_ARCH"}
    wheels="$HOME/.cache/kgchat/wheels/$(echo "$args" | cksum | cut -d' ' -f1)"
    if ! ls "$wheels"/llama_cpp_python-*.whl >/dev/null 2>&1; then
      say "building llama-cpp-python with CMAKE_ARGS=$args on $(nproc) cores (about 5 minutes)"
      build=$SECONDS
      CMAKE_ARGS="$args" CC=/usr/bin/gcc CXX=/usr/bin/g++ CMAKE_BUILD_PARALLEL_LEVEL=$(nproc) \
        "$PY" -m pip wheel -q --no-deps --no-cache-dir -w "$wheels" "$LLAMA" || fail "the CUDA build of llama-cpp-python"
      say "built in $((SECONDS - build)) s"
    fi
    "$PY" -m pip install -q --force-reinstall --no-deps "$wheels"/llama_cpp_python-*.whl || fail "installing $wheels"
  fi
  "$PY" -m pip show -q kgchat >/dev/null 2>&1 || "$PY" -m pip install -q -e . || fail "pip install -e . (WHEELS_DIR lacks a dependency?)"
  if [ -n "$gpu" ] && "$PY" -m pip show -q onnxruntime >/dev/null 2>&1; then
    # the CPU package and onnxruntime-gpu write one module; the last one installed wins
    say "the CPU package onnxruntime is installed: removed, onnxruntime-gpu reinstalled"
    "$PY" -m pip uninstall -y -q onnxruntime
    "$PY" -m pip install -q --force-reinstall --no-deps onnxruntime-gpu || say "onnxruntime-gpu could not be reinstalled"
  fi
  say "venv $VENV ready in $((SECONDS - start)) s"
fi
test -x "$PY" || fail "no venv at $VENV (INSTALL=0 needs one)"
build=$("$PY" -c 'from engine.llm import gpu_build; print(gpu_build() or "none")')
say "llama.cpp GPU backend: $build"
[ -z "$gpu" ] || [ "$build" = cuda ] || fail "the installed llama-cpp-python has no CUDA backend"

# --- the commands ------------------------------------------------------------------------
run() {  # name, then the kgchat arguments: stdout to $OUT/name.json, stderr to $OUT/name.err
  local name=$1 step=$SECONDS rc
  shift
  timeout "$STEP_TIMEOUT" "$VENV/bin/kgchat" "$@" >"$OUT/$name.json" 2>"$OUT/$name.err"
  rc=$?
  if [ $rc -eq 124 ]; then
    say "kgchat $name: no answer within $STEP_TIMEOUT s"
  elif [ $rc -gt 128 ]; then
    say "kgchat $name: killed by signal $((rc - 128)) ($(kill -l $((rc - 128)) 2>/dev/null)): $(tail -1 "$OUT/$name.err")"
  elif [ $rc -ne 0 ]; then
    say "kgchat $name: exit $rc: $(tail -1 "$OUT/$name.err")"
  else
    say "kgchat $name: done in $((SECONDS - step)) s"
  fi
  echo $rc >"$OUT/$name.rc"
}
run prepare prepare --json
run ask ask --demo office --json "$QUESTION"
# shellcheck disable=SC2086  # the extra options are words
run generate bench generate --json ${GENERATE_ARGS:-}
# shellcheck disable=SC2086
run retrieve bench retrieve --json ${RETRIEVE_ARGS:-}

"$PY" - "$OUT" <<'EOF'
import json
import sys
from pathlib import Path

out = Path(sys.argv[1])


def result(name):
    if (out / f"{name}.rc").read_text().strip() != "0":
        return None
    try:
        return json.loads((out / f"{name}.json").read_text())
    except ValueError:
        return None


def num(value, spec=".1f"):
    return "n/a" if value is None else format(value, spec)


failed = []
prepare = result("prepare")
if prepare:
    for key, name in (("encoder", "sentence encoder"), ("relevance", "relevance model"), ("llm", "chat model")):
        model = prepare[key]
        where = f", {model['process']} process" if key == "llm" else ""
        print(f"{name}: {model['device']}{where}" + (f" ({model['note']})" if model["note"] else ""))
else:
    failed.append("prepare")
ask = result("ask")
if ask and not ask["error"]:
    print(f"ask --demo office: device {ask['device']}, answer from {ask['answer_source']}, "
          f"{len(ask['retrieved'])} facts, {len(ask['response'])} characters of reply")
else:
    failed.append("ask")
gen = result("generate")
if gen:
    f, t, s = gen["figures"], gen["targets"], gen["settings"]
    print(f"bench generate: {s['device']} ({s['process']} process; {s['device_note'] or 'all layers'}), "
          f"prompt {s['prompt_tokens']} tokens, {s['tokens']} tokens per call, {s['rounds']} rounds")
    for side in ("bare", "engine"):
        print(f"  {side:6} TTFT {num(f[side]['ttft_ms'])} ms, {num(f[side]['tokens_per_s'])} tokens/s")
    print(f"  engine/bare tokens/s {num(t['tokens_per_s_ratio'], '.3f')} (≥ 0.95: "
          f"{'ok' if t['tokens_per_s_ok'] else 'MISSED'}); TTFT ≤ retrieval + {t['ttft_factor']} × bare = "
          f"{num(t['ttft_limit_ms'])} ms: {'ok' if t['ttft_ok'] else 'MISSED'}; cancel within "
          f"{num(f['cancel']['returned_ms_max'])} ms: {'ok' if t['cancel_ok'] else 'MISSED'}")
else:
    failed.append("bench generate")
ret = result("retrieve")
if ret:
    s = ret["settings"]
    print(f"bench retrieve: office p50 {ret['office']['p50_ms']} ms, Wikidata-style ({ret['wikidata']['triples']} "
          f"triples) p50 {ret['wikidata']['p50_ms']} ms, ratio {ret['ratio_p50']} (≤ {ret['targets']['ratio_max']}: "
          f"{'ok' if ret['ratio_p50'] is not None and ret['ratio_p50'] <= ret['targets']['ratio_max'] else 'MISSED'}); "
          f"scorer {s['scorer_device']}, encoder {s['encoder_device']}")
else:
    failed.append("bench retrieve")
if failed:
    print(f"gpu-check: FAILED: {', '.join(failed)}")
    sys.exit(1)
EOF
