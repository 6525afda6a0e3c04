# The two commands: `make run` (the app on the demo KG) and `make test` (the default suite).
# Both create .venv once and reuse it; pyproject.toml changing re-runs the install.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-$(shell cksum pyproject.toml | cut -d' ' -f1)
# On CPU machines torch must be the CPU build, installed before sentence-transformers pulls it.
TORCH  ?= torch==2.13.0
# llama.cpp's native CPU build uses AMX when the CPU lists it, and some VMs list AMX but trap on
# its instructions (SIGILL at the first token): build without AMX unless CMAKE_ARGS is given
# (e.g. CMAKE_ARGS="-DGGML_CUDA=on" for the GPU build).
ifeq ($(shell uname -m),x86_64)
NO_AMX := -mno-amx-tile -mno-amx-int8 -mno-amx-bf16
CMAKE_ARGS ?= -DCMAKE_C_FLAGS='$(NO_AMX)' -DCMAKE_CXX_FLAGS='$(NO_AMX)'
export CMAKE_ARGS
endif

.PHONY: run test test-slow bench-load bench install tmux

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip show torch >/dev/null 2>&1 || $(BIN)/python -m pip install -q "$(TORCH)"
	$(BIN)/python -m pip install -q -e '.[test]'
	rm -f $(VENV)/.installed-*
	touch $@

install: $(STAMP)

run: $(STAMP)
	$(BIN)/kgchat $(ARGS)

# tmux drives the real-terminal smoke test; install it when we can, the test skips otherwise.
tmux:
	@command -v tmux >/dev/null 2>&1 || { [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1 && \
	  (apt-get install -y -qq tmux >/dev/null 2>&1 || (apt-get update -qq >/dev/null 2>&1 && apt-get install -y -qq tmux >/dev/null 2>&1)); } || true

test: $(STAMP) tmux
	HF_HUB_OFFLINE=1 $(BIN)/python -m pytest -q $(PYTEST_ARGS)

test-slow: $(STAMP) tmux
	HF_HUB_OFFLINE=1 $(BIN)/python -m pytest -q -m slow $(PYTEST_ARGS)

bench-load: $(STAMP)
	$(BIN)/kgchat bench load

bench: $(STAMP)
	$(BIN)/kgchat bench all
