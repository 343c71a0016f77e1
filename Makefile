# Ranklens: `make run` serves the app with a Celery worker, `make test` runs the suite.

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: run test lint format messages

# The virtualenv is (re)installed when missing or when pyproject.toml changed.
$(VENV)/.installed: pyproject.toml
	@$(PYTHON) -c "import sys; sys.exit(0 if sys.version_info >= (3, 11) else \"Ranklens needs Python 3.11 or newer (set PYTHON=...)\")"
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[dev]"
	touch $@

run: $(VENV)/.installed
	$(BIN)/python scripts/run.py

lint: $(VENV)/.installed
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports

test: lint
	$(BIN)/python -m pytest

format: $(VENV)/.installed
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

# The web UI's texts in Simplified Chinese: extract every {% translate %}, gettext() and
# static/js gettext() into locale/zh_Hans/LC_MESSAGES/django.po and djangojs.po (new texts
# get an empty msgstr, changed ones are marked fuzzy), then compile the .mo files the app
# reads. Translate the empty and fuzzy entries, run it again, commit .po and .mo together;
# tests/test_translations.py fails while a text has no Chinese or a .mo is stale.
MESSAGES_ARGS := --locale=zh_Hans --add-location=file --no-obsolete \
	--ignore=analyzers --ignore=tests --ignore=bench --ignore=docs --ignore=deploy \
	--ignore=scripts --ignore=var --ignore=static/vendor --ignore=build --ignore=dist \
	--ignore=ranklens_cli --ignore=*.egg-info
messages: $(VENV)/.installed
	$(BIN)/python manage.py makemessages --domain=django $(MESSAGES_ARGS)
	$(BIN)/python manage.py makemessages --domain=djangojs $(MESSAGES_ARGS)
	$(BIN)/python manage.py compilemessages --locale=zh_Hans --ignore=.venv

# Category and first-error accuracy of the analyzer on ../shared/corpus (targets 95% / 95%),
# with its reliability table. EVAL_ARGS="--corpus A --corpus B" scores several labelled sets
# (the corpus and held-out batches) one by one and pooled.
eval: $(VENV)/.installed
	$(BIN)/python -m analyzers.eval $(EVAL_ARGS)

# Speed and memory: full analysis vs `zcat | grep -E <signatures>` on a synthetic 64-rank
# bundle of ~700 MB and one 4x larger (bundles cached in $TMPDIR/ranklens-bench).
# Also times the analysis plus the log viewer's line store (what the Celery task does), then
# checkpoint-heavy jobs (8 ranks x 50,000 and 1,024 ranks x 2,000 checkpoints).
# BENCH_ARGS=--noisy: a job printing four kinds of warning on every step (8 ranks x 50,000
# lines, the error at the end) beside the job mix of the same size; its ratio should be no worse.
# BENCH_ARGS=--quick for a ~70 MB smoke run; see bench/run.py --help.
# bench/ is also a directory: without .PHONY make would call the target up to date.
.PHONY: bench
bench: $(VENV)/.installed
	$(BIN)/python bench/run.py --with-store --repeat 3 $(BENCH_ARGS)
	$(BIN)/python bench/run.py --bisection --repeat 3 $(BENCH_ARGS)

# Timeline server time, payload size and Chromium render time, 8 ranks x 2,000 checkpoints
# up to 8 x 50,000 and 1,024 x 2,000 (targets: 300 ms per request, 2 s to draw).
.PHONY: bench-timeline
bench-timeline: $(VENV)/.installed
	$(BIN)/python bench/timeline_bench.py --browser

# Case-library search over 100,000 synthetic cases (target < 100 ms per query).
# SQLite under var/bench/ by default; set DATABASE_URL to a PostgreSQL database of its own.
.PHONY: bench-search
bench-search: $(VENV)/.installed
	$(BIN)/python bench/search_bench.py
