# The two commands: `make demo` and `make test`. Both create .venv on first use.
# `make demo` installs only what a player needs (RUNTIME); the dev tools (pytest, ruff, mypy,
# hypothesis, ...) come with `make test` and the other developer targets (STAMP).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
RUNTIME := $(VENV)/.runtime
STAMP := $(VENV)/.installed

.PHONY: demo test lint bench clean fuzz docs lock

$(RUNTIME): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e .
	touch $(RUNTIME)

$(STAMP): $(RUNTIME)
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

demo: $(RUNTIME)
	$(BIN)/boardchat demo powergrid --players 4 --seed 1 --out demo-out

# docs/rules/<game>.md from the games' rulebooks (engine/<game>/data/rulebook.toml).
docs: $(STAMP)
	$(BIN)/python tools/rulebook_docs.py

# mypy: engine and bot, and all the tests (what tests import from other tests is read for types,
# not judged). In tests/bot the fakes of the Telegram and Discord libraries are typed as fakes:
# where bot/ declares a library type, a fake goes in through a cast (fake_discord.as_interaction,
# as_event) or a small Protocol of its own (test_discord.SlashCallback); stand-in stores are
# typed with bot/store_protocol.py's Store.
lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy engine bot
	$(BIN)/mypy --follow-imports=silent tests

test: lint
	$(BIN)/python -m pytest -p no:cacheprovider

# Property tests with fresh random seeds for FUZZ_SECONDS (not part of `make test`, which is
# derandomised): prints the seed of anything it finds.
FUZZ_SECONDS ?= 600
fuzz: $(STAMP)
	$(BIN)/python tools/fuzz.py --seconds $(FUZZ_SECONDS)

bench: $(STAMP)
	for b in bench/*.py; do $(BIN)/python $$b || exit 1; done

clean:
	rm -rf $(VENV) demo-out .mypy_cache .ruff_cache

# requirements.lock: the runtime dependencies, pinned, for the Docker image. Regenerate after a
# change of pyproject.toml's dependencies (a clean venv, so no dev tool slips in).
lock:
	rm -rf .lock-venv && $(PYTHON) -m venv .lock-venv
	.lock-venv/bin/python -m pip install --quiet --upgrade pip
	.lock-venv/bin/python -m pip install --quiet .
	{ echo "# pinned runtime dependencies of boardchat (make lock); used by the Dockerfile"; \
	  .lock-venv/bin/python -m pip freeze --exclude boardchat; } > requirements.lock
	rm -rf .lock-venv

# Translations: extract messages to bot/locale/boardchat.pot, update the ru/zh_Hant/pl .po
# files and compile the .mo files (bot/locale/update.py). `make i18n-check` changes nothing.
.PHONY: i18n i18n-check
i18n: $(STAMP)
	$(BIN)/python bot/locale/update.py

i18n-check: $(STAMP)
	$(BIN)/python bot/locale/update.py --check
