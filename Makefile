# Two commands matter: `make play` and `make test`. Both build the virtual environment they need.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: play test lint typecheck validate pytest docs bench fuzz mutation clean

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
	$(BIN)/python -m ruff check src tests bench
	$(BIN)/python -m ruff format --check src tests bench

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
	$(BIN)/python bench/run.py

# Slow: mutation testing of the dice, view, semantic and engine modules (a sample of 20
# mutants each; `make mutation ARGS="view --sample 0"` tries every mutant of one module).
mutation: $(STAMP)
	$(BIN)/python bench/mutation.py $(ARGS)

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache site
