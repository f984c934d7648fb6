# kassen: `make demo` and `make test` work on a fresh machine; they bootstrap .venv from pyproject.toml.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
# The stamp is rebuilt whenever pyproject.toml changes, so a new dependency is always installed.
STAMP  := $(VENV)/.kassen-installed

.PHONY: demo test test-slow bench lint typecheck clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/python -m kassen.demo

lint: $(STAMP)
	$(BIN)/ruff check src tests bench

typecheck: $(STAMP)
	$(BIN)/mypy --strict src

test: lint typecheck
	$(BIN)/pytest

# Long statistical runs (large Monte Carlo grids), kept out of the default suite.
test-slow: $(STAMP)
	$(BIN)/pytest -m slow

bench: $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[dev,bench]'
	$(BIN)/python bench/bench_dice.py
	$(BIN)/python bench/bench_battle.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis build src/*.egg-info
