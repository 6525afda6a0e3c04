# The two commands: `make run` (the app on the demo KG) and `make test` (the default suite).
# Both create .venv once and reuse it; pyproject.toml changing re-runs the install.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-$(shell cksum pyproject.toml | cut -d' ' -f1)
# On CPU machines torch must be the CPU build, installed before sentence-transformers pulls it.
TORCH  ?= torch==2.13.0
# llama-cpp-python compiles with -march=native. Some VMs advertise AMX in their CPU flags but trap
# on its instructions (`tilezero` -> SIGILL at the first token), so x86 builds leave AMX out. GPU users
# add their own flags: `CMAKE_ARGS="-DGGML_CUDA=on -DCMAKE_CUDA_ARCHITECTURES=native" CC=/usr/bin/gcc
# CXX=/usr/bin/g++ make run` (one architecture, the card's; without it CUDA builds many; see the
# README's "GPU" section). The wheel is built once per set of flags
# and kept outside the repo, so a fresh clone does not compile again (and never reuses pip's cache
# of a wheel built with other flags).
LLAMA  ?= llama-cpp-python>=0.3.2,<0.4
NOAMX  := $(if $(filter x86_64,$(shell uname -m)),-mno-amx-tile -mno-amx-int8 -mno-amx-bf16)
LLAMA_CMAKE_ARGS ?= $(if $(NOAMX),-DCMAKE_C_FLAGS='$(NOAMX)' -DCMAKE_CXX_FLAGS='$(NOAMX)') $(CMAKE_ARGS)
WHEELS := $(HOME)/.cache/kgchat/wheels/$(shell echo "$(LLAMA_CMAKE_ARGS)" | cksum | cut -d' ' -f1)

.PHONY: run test test-slow bench-load bench install tmux wordnet gpu-check

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip show torch >/dev/null 2>&1 || $(BIN)/python -m pip install -q "$(TORCH)"
	$(BIN)/python -m pip show llama-cpp-python >/dev/null 2>&1 || { \
	  ls $(WHEELS)/llama_cpp_python-*.whl >/dev/null 2>&1 || \
	  CMAKE_ARGS="$(LLAMA_CMAKE_ARGS)" $(BIN)/python -m pip wheel -q --no-deps --no-cache-dir -w $(WHEELS) "$(LLAMA)"; \
	  $(BIN)/python -m pip install -q $(WHEELS)/llama_cpp_python-*.whl; }
	$(BIN)/python -m pip install -q -e '.[test]'
	HF_HUB_OFFLINE=1 $(BIN)/kgchat prepare
	rm -f $(VENV)/.installed-*
	touch $@

install: $(STAMP) wordnet

run: $(STAMP) wordnet
	$(BIN)/kgchat $(ARGS)

# tmux drives the real-terminal smoke test; install it when we can, the test skips otherwise.
tmux:
	@command -v tmux >/dev/null 2>&1 || { [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1 && \
	  (apt-get install -y -qq tmux >/dev/null 2>&1 || (apt-get update -qq >/dev/null 2>&1 && apt-get install -y -qq tmux >/dev/null 2>&1)); } || true

# WordNet 3.0's database lets the relation matcher read relations said in other words; kgchat
# works without it, and its tests skip.
wordnet:
	@[ -f /usr/share/wordnet/index.noun ] || { [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1 && \
	  (apt-get install -y -qq wordnet-base >/dev/null 2>&1 || (apt-get update -qq >/dev/null 2>&1 && apt-get install -y -qq wordnet-base >/dev/null 2>&1)); } || true

test: $(STAMP) tmux wordnet
	HF_HUB_OFFLINE=1 $(BIN)/python -m pytest -q $(PYTEST_ARGS)

test-slow: $(STAMP) tmux wordnet
	HF_HUB_OFFLINE=1 $(BIN)/python -m pytest -q -m slow $(PYTEST_ARGS)

bench-load: $(STAMP)
	$(BIN)/kgchat bench load

# The benchmarks that run in minutes, one after the other; `kgchat bench scale` (KGs up to 10^6
# triples and an oxigraph server, longer) and `kgchat eval ...` (quality figures) are run by hand:
# docs/benchmarks.md lists every command.
BENCHES := load retrieve reason generate check

bench: $(STAMP)
	for b in $(BENCHES); do HF_HUB_OFFLINE=1 $(BIN)/kgchat bench $$b || exit $$?; done

# The GPU check (harness/gpu_check.sh says what it runs and prints): on a machine with an NVIDIA GPU
# and the CUDA toolkit, `make gpu-check [WHEELS_DIR=DIR] [CUDA_ARCH=90]` builds llama.cpp with CUDA
# (and make's no-AMX flags) into make's venv, from the wheels in DIR only when given; CPU=1 takes
# the CPU path, INSTALL=0 uses the venv as it is.
CUDA_ARCH ?= 90
gpu-check: CMAKE_ARGS = -DGGML_CUDA=on -DCMAKE_CUDA_ARCHITECTURES=$(CUDA_ARCH)
gpu-check:
	VENV='$(VENV)' LLAMA='$(LLAMA)' LLAMA_CMAKE_ARGS="$(LLAMA_CMAKE_ARGS)" CUDA_ARCH='$(CUDA_ARCH)' \
	  WHEELS_DIR='$(WHEELS_DIR)' CPU='$(CPU)' INSTALL='$(INSTALL)' GENERATE_ARGS='$(GENERATE_ARGS)' \
	  RETRIEVE_ARGS='$(RETRIEVE_ARGS)' bash harness/gpu_check.sh
