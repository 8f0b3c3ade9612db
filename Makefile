# Two commands matter: `make play` and `make test`. Both build the virtual environment they need.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: play test lint typecheck validate pytest docs bench bench-compiled fuzz mutation compiled compiled-check compiled-test clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

play: $(STAMP)
	$(BIN)/rulecraft play $(ARGS)

test: $(STAMP) pytest typecheck lint validate docs

pytest: $(STAMP)
	$(BIN)/python -m pytest -n 2 --dist loadgroup

typecheck: $(STAMP)
	$(BIN)/python -m mypy

lint: $(STAMP)
	$(BIN)/python -m ruff check src tests bench hatch_build.py
	$(BIN)/python -m ruff format --check src tests bench hatch_build.py

validate: $(STAMP)
	$(BIN)/rulecraft validate --strict rulesets
	$(BIN)/rulecraft fmt --check rulesets

# The docs site (mkdocs-material over docs/), strictly: a broken link or an unlisted page fails.
docs: $(STAMP)
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict --quiet --site-dir site

# The runtime fuzzer at length (nightly-style): random valid rulesets played with random
# choices; `make test` runs 200 of them. FUZZ_EXAMPLES=N chooses the number.
FUZZ_EXAMPLES ?= 5000
fuzz: $(STAMP)
	FUZZ_EXAMPLES=$(FUZZ_EXAMPLES) $(BIN)/python -m pytest tests/fuzz -p no:randomly -x -q

bench: $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[bench]'
	$(BIN)/python bench/run.py $(ARGS)

# The same benches on the runtime compiled with mypyc (`make compiled`, below), which is what
# an installed wheel runs: each bench's summary names the runtime it timed.
bench-compiled: compiled
	$(BIN)/python -m pip install --quiet -e '.[bench]'
	RULECRAFT_BENCH_SRC=$(COMPILED)/src PYTHONPATH=$(COMPILED)/src $(BIN)/python bench/run.py $(ARGS)

# Optional: the runtime's hottest modules compiled to C extensions with mypyc (it comes with
# mypy, in the dev extra), in build/compiled/src, a copy of src/ beside the pure-Python one,
# which stays the default and the fallback. Run anything on it with
# PYTHONPATH=build/compiled/src (docs/architecture.md, "Speed"). `make compiled-check`
# builds it and checks it plays the same games (the record hashes) with those modules compiled.
# The modules are pyproject.toml's build-hook list (a test keeps the two equal): game (the
# Game a driver calls at each decision) but not decision or rng, whose frozen records users
# copy and pickle (compiled, they could not be: GameRecord lives in decision for that); with them compile.expressions, the closures every rule's expressions run as, but not
# compile.define_calls (a call of a define stays one Python frame, so an endless recursion
# meets Python's recursion limit: RC305, not a crash); and splitmix, rng's shuffle in
# machine integers (compiled only: run as Python, rng keeps its own loop).
COMPILED      := build/compiled
MYPYC_MODULES := runtime.engine runtime.game runtime.instructions runtime.builtins runtime.ids \
                 runtime.values runtime.state runtime.program runtime.map runtime.plan \
                 runtime.incremental compile.expressions splitmix
# With them, the generated code of the expressions and routines of AOT_RULESETS (the
# rulesets bench/ times), written by rulecraft.compile.aot into the copy only and compiled
# in the same build (its module text); other rulesets run their expressions' source and
# their routines' instructions as before.  Each ruleset adds C to compile: with their
# routines these four make the build take about 10 minutes on 2 cores (2.5 without them,
# 5 with their expressions only).  (The copy's mypy.ini: mypyc checks the generated
# code as plain Python, not by the project's strict settings.)
AOT_MODULE    := rulecraft/compile/generated_rules.py
AOT_RULESETS  := radlands waste_knights tictactoe connect4
compiled: $(STAMP)
	rm -rf $(COMPILED) && mkdir -p $(COMPILED)
	cp -r src $(COMPILED)/src && ln -s ../../rulesets $(COMPILED)/rulesets && ln -s ../../docs $(COMPILED)/docs
	printf '[mypy]\nignore_missing_imports = True\n' > $(COMPILED)/src/mypy.ini
	PYTHONPATH=$(COMPILED)/src $(BIN)/python -m rulecraft.compile.aot \
		$(COMPILED)/src/$(AOT_MODULE) $(AOT_RULESETS)
	cd $(COMPILED)/src && $(CURDIR)/$(BIN)/mypyc $(foreach m,$(MYPYC_MODULES),rulecraft/$(subst .,/,$(m)).py) \
		$(AOT_MODULE) > ../mypyc.log

compiled-check: compiled
	PYTHONPATH=$(COMPILED)/src $(BIN)/python -c "import rulecraft.runtime.engine as e; \
		import rulecraft.compile.generated_rules as g; \
		assert e.__file__.endswith('.so'), 'not compiled: ' + e.__file__; \
		assert g.__file__.endswith('.so'), 'not compiled: ' + g.__file__"
	PYTHONPATH=$(COMPILED)/src $(BIN)/python -m pytest tests/engine/test_record_hashes.py \
		tests/engine/test_splitmix.py -p no:randomly -p no:cacheprovider -n 2 -q

# The whole test suite (not the slow one) on the compiled copy: what a wheel's user runs.
# Only the tests marked pure_only are left out (they replace a runtime function with
# monkeypatch, which the compiled modules, calling their own functions directly, never see).
compiled-test: compiled
	PYTHONPATH=$(COMPILED)/src $(BIN)/python -m pytest -n 2 --dist loadgroup -p no:cacheprovider \
		-m 'not slow and not pure_only'

# Slow: mutation testing of the dice, view, semantic and engine modules (a sample of 20
# mutants each; `make mutation ARGS="view --sample 0"` tries every mutant of one module).
mutation: $(STAMP)
	$(BIN)/python bench/mutation.py $(ARGS)

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache site build
