# On the Wire. The two commands a learner or instructor needs:
#   make lab     set up (first time only) and open lesson 00 in JupyterLab (your copies in
#                student/, made on the first run: exercises blank; `make lab-reference` opens
#                the lessons with solutions)
#   make update  pull the new version of the series and refresh every copy you have not changed
#   make test    set up the test tools too (first time only) and run every test
# Everything else here is for authors.

PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
# JupyterLab refuses to run as root (containers, CI) unless told it is on purpose.
ROOT_FLAG := $(shell [ "$$(id -u)" = 0 ] && echo --allow-root)

.PHONY: lab lab-reference update test test-pythons setup setup-test browser hub-setup js-clients outputs \
  student student-copies site slides slides-setup cheat-sheet room bench bench-hub evidence paths lock clean

# The server is rooted at the repository (helpers/, data/, docs/ are in its file browser) and
# its default URL is the lesson, so the URL it prints (/lab/tree/...?token=...) opens lesson 00
# in any browser, a remote one included. The shipped notebooks are marked trusted first (no
# "not trusted" warnings in the log). `make lab PORT=8890` serves on another port (the default
# is Jupyter's, 8888, or the next free one); `make lab NO_BROWSER=1` opens no browser (a remote
# machine, a container: open the URL it prints).
LESSON_URL = /lab/tree/$(1)/00_start_here.ipynb
PORT ?=
NO_BROWSER ?=
LAB = $(BIN)/jupyter lab --ServerApp.root_dir=. $(ROOT_FLAG) $(if $(PORT),--ServerApp.port=$(PORT)) \
  $(if $(NO_BROWSER),--no-browser)

lab: setup student-copies
	@$(BIN)/jupyter trust student/[0-9][0-9]_*.ipynb >/dev/null
	$(LAB) --LabApp.default_url=$(call LESSON_URL,student)

# Authors and instructors: the lessons with their solutions and stored outputs.
lab-reference: setup
	@$(BIN)/jupyter trust notebooks/[0-9][0-9]_*.ipynb >/dev/null
	$(LAB) --LabApp.default_url=$(call LESSON_URL,notebooks)

# A new version of the series: git pull, then every learner copy you have not changed is
# refreshed; the ones you changed are kept and named (scripts/update.py).
update: setup
	$(BIN)/python scripts/update.py

test: setup-test browser hub-setup slides-setup js-clients
	$(BIN)/python -m pytest

# The suite on every other Python 3.11+ found on this machine (python3.12, python3.13 on PATH,
# or a pyenv install), each in its own venv (.venv-3.12, ...); one that is not installed is
# reported and skipped. PYTEST_ARGS narrows the run (e.g. PYTEST_ARGS=tests/repo/test_binder.py).
PYTHONS ?= 3.12 3.13
PYTEST_ARGS ?=
test-pythons:
	@for v in $(PYTHONS); do \
	  py=$$(command -v python$$v); \
	  $$py -c pass 2>/dev/null || \
	    py=$$(ls -d $${PYENV_ROOT:-$$HOME/.pyenv}/versions/$$v*/bin/python$$v 2>/dev/null | tail -n 1); \
	  if [ -z "$$py" ] || ! $$py -c pass 2>/dev/null; then \
	    echo "== Python $$v: not installed here, skipped"; continue; fi; \
	  echo "== Python $$v ($$py)"; \
	  $(MAKE) --no-print-directory setup-test PYTHON=$$py VENV=.venv-$$v && \
	  .venv-$$v/bin/python -m pytest $(PYTEST_ARGS) || exit 1; \
	done

# Progress: one line per step, and pip's own progress (no --quiet).
PIP_INSTALL = $(BIN)/python -m pip install --disable-pip-version-check --progress-bar on

setup: $(VENV)/.installed

$(VENV)/.installed: requirements.txt constraints.txt pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 11))' || \
	  { echo "On the Wire needs Python 3.11 or newer (found: $$($(PYTHON) --version))."; exit 1; }
	@test -x $(BIN)/python || { echo "[1/3] creating the virtual environment $(VENV)"; $(PYTHON) -m venv $(VENV); }
	@echo "[2/3] installing the lessons' packages (requirements.txt)"
	$(PIP_INSTALL) -r requirements.txt
	@echo "[3/3] JupyterLab settings (start kernels without asking, no news)"
	$(BIN)/python scripts/lab_settings.py $(VENV)
	@touch $@

# The test tooling on top of the lessons' set (pytest, nbval, hypothesis, ruff, Playwright,
# JupyterHub, build, the frameworks the client tests run), then instructor with --no-deps in a
# step of its own: its releases cap jiter and rich below the pinned versions, so pip would refuse
# it (requirements-test-nodeps.txt says why; its other requirements are in requirements-test.txt).
setup-test: $(VENV)/.installed-test

$(VENV)/.installed-test: $(VENV)/.installed requirements-test.txt requirements-test-nodeps.txt
	@echo "installing the test tools (requirements-test.txt)"
	$(PIP_INSTALL) -r requirements-test.txt
	@echo "installing instructor without its capped requirements (requirements-test-nodeps.txt)"
	$(PIP_INSTALL) --no-deps -c constraints.txt -r requirements-test-nodeps.txt
	@touch $@

# Debian's Chromium for the real-browser tests (Playwright drives it; nothing is downloaded).
browser:
	@sh scripts/install-browser

# The JupyterHub class test and `make bench-hub`: configurable-http-proxy from npm, pinned by
# hub/package-lock.json, installed into hub/node_modules (nothing global). Without npm the
# class test is skipped (it says so); with npm it must pass.
hub-setup: hub/node_modules/.installed

hub/node_modules/.installed: hub/package.json hub/package-lock.json
	@if command -v npm >/dev/null; then \
	  cd hub && npm ci --no-audit --no-fund --loglevel=error && touch node_modules/.installed; \
	else echo "npm not found: the JupyterHub class test will be skipped (install Node.js 20+)"; fi

# The openai node SDK and the Vercel AI SDK that tests/standin/test_clients_frameworks.py runs against
# the stand-in, pinned by tests/standin/js_clients/package-lock.json, installed into
# tests/standin/js_clients/node_modules (nothing global). Without npm those tests are skipped (they say so).
js-clients: tests/standin/js_clients/node_modules/.installed

tests/standin/js_clients/node_modules/.installed: tests/standin/js_clients/package.json tests/standin/js_clients/package-lock.json
	@if command -v npm >/dev/null; then \
	  cd tests/standin/js_clients && npm ci --no-audit --no-fund --loglevel=error && touch node_modules/.installed; \
	else echo "npm not found: the JavaScript client tests will be skipped (install Node.js 20+)"; fi

# Authors: re-run every notebook top to bottom and store its outputs (do this after any edit).
outputs: setup
	$(BIN)/python scripts/run_notebooks.py
	$(BIN)/python scripts/lesson_times.py --write
	$(BIN)/python scripts/live_costs.py --write
	$(BIN)/python scripts/make_student.py --learner

# The learner copies in student/ (solutions removed, exercises blank; not tracked by git: made
# here on the first `make lab`, refreshed by `make update`). A copy a learner changed is kept
# and named, with exit 0, unless FORCE=1 (then a backup is kept first). RESET=NN gives a fresh
# copy of lesson NN only, after saving the learner's in student/backup/ (it says where; only
# what is saved on disk: save the notebook first, Ctrl+S).
student: setup
	@$(BIN)/python scripts/make_student.py $(if $(FORCE),--force) $(if $(RESET),--reset "$(RESET)")

student-copies: setup
	@$(BIN)/python scripts/make_student.py --quiet

# Anyone: a static website of the whole series (outputs, figures, navigation) in site/.
site: setup
	$(BIN)/python scripts/build_site.py site

# Instructors: the one-page cheat sheet, build/cheat-sheet/cheat_sheet.html and a printable
# PDF (Chromium's print-to-PDF through Playwright; scripts/cheat_sheet.py computes every number).
cheat-sheet: setup-test browser
	$(BIN)/python scripts/cheat_sheet.py build/cheat-sheet

# Instructors: which exercises each learner's checks passed (scripts/room.py), read from the
# learners' folders under ROOM (a hub's /home, or collected copies); LESSON=NN narrows it.
ROOM ?= /home
room:
	@$(PYTHON) scripts/room.py "$(ROOM)" $(if $(LESSON),--lesson "$(LESSON)")

# Instructors: one reveal.js deck per lesson in build/slides/ (prose and key outputs, no
# solutions; scripts/build_slides.py), opening offline: reveal.js comes from npm, pinned by
# slides/package-lock.json, installed into slides/node_modules (nothing global). LESSON=NN: one.
slides: setup slides-setup
	$(BIN)/python scripts/build_slides.py build/slides $(if $(LESSON),--lesson "$(LESSON)")

slides-setup: slides/node_modules/.installed

slides/node_modules/.installed: slides/package.json slides/package-lock.json
	@if command -v npm >/dev/null; then \
	  cd slides && npm ci --no-audit --no-fund --loglevel=error && touch node_modules/.installed; \
	else echo "npm not found: make slides needs Node.js 18+ and npm (the slide test is skipped)"; fi

# Authors: speed and memory benchmarks, printed as a table.
bench: setup
	$(BIN)/python -m benchmarks

# Instructors: a JupyterHub class on this machine, measured (N simulated learners run lessons
# 04 and 11 through the hub's API; prints a table; docs/hosting.md "Sizing" quotes it).
N ?= 20
bench-hub: setup-test hub-setup
	$(BIN)/python scripts/hub_class.py --learners $(N)

# Maintainers: what a learner steps into from each lesson (files, functions, lines), measured by
# running its code cells under a tracer (scripts/paths.py; DETAIL=1 lists every function).
paths: setup
	$(BIN)/python scripts/paths.py $(if $(DETAIL),--detail)

# Authors: real request bodies with the provider's verdict (a corpus directory: index.json +
# bodies/) against check, parse + render and the local provider; prints the agreement table.
evidence: setup
	@test -n "$(CORPUS)" || { echo "usage: make evidence CORPUS=dir (a directory with index.json and bodies/)"; exit 2; }
	$(BIN)/python scripts/evidence.py "$(CORPUS)"

# Authors: re-pin every transitive dependency of requirements.txt and requirements-test.txt in
# a throwaway venv (then check it on the other Pythons: make test-pythons).
lock:
	rm -rf .lock-venv && $(PYTHON) -m venv .lock-venv
	.lock-venv/bin/python -m pip install --disable-pip-version-check \
	  $$(grep -hE '^[A-Za-z0-9_.-]+==' requirements.txt requirements-test.txt)
	{ echo "# Every package of the environment, pinned (generated by \`make lock\` from requirements.txt and requirements-test.txt; do not edit by hand)."; \
	  .lock-venv/bin/python -m pip freeze --exclude-editable; echo; \
	  sed -n '/^# Only on Windows or macOS/,$$p' constraints.txt; } > .lock-constraints.txt
	mv .lock-constraints.txt constraints.txt
	rm -rf .lock-venv

clean:
	rm -rf $(VENV) test-artifacts hub/node_modules slides/node_modules tests/standin/js_clients/node_modules
