# Two commands do everything on a fresh machine (Python 3.11, pip, make, apt):
#   make run   create .venv, install banditviz, start the app on its default instance (its videos of a run also
#              need Debian's chromium: make chromium)
#   make test  install the test dependencies (and Debian's chromium, its headless shell and nginx if missing),
#              run every test
#   make serve several app processes behind nginx, for a class larger than one process serves (deploy/serve.sh)
# Both install exactly the versions in requirements.lock (pip constraints: the versions the tests last passed
# with). `make lock` upgrades .venv to the newest versions pyproject.toml's floors allow, runs every test and
# writes those exact versions to requirements.lock; commit it. pyproject.toml keeps the floors for library users.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
LOCK := requirements.lock
# every test: on two workers (a test file per worker at a time; the 20 slowest named at the end), then the load tests
# alone (they measure the server)
PYTEST := $(PY) -m pytest -q -p no:cacheprovider --timeout=900
TEST := $(PY) -m ruff check . && $(PYTEST) -n 2 --dist loadfile -m "not load" --durations=20 && $(PYTEST) -m load
PORT ?= 8501

.PHONY: run serve test install install-test debian chromium nginx lint bench lock clean

$(VENV)/.installed: pyproject.toml $(LOCK)
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -c $(LOCK) -e ".[export]"
	touch $@

# numba's loops and noise streams compiled once (cached beside the sources): about 2 minutes on one core, which
# `make test` spends beside the test dependencies' and the browser's installs. From the sources themselves
# (PYTHONPATH), not through the editable install, which the test dependencies' pip install writes again meanwhile.
$(VENV)/.compiled: $(VENV)/.installed
	PYTHONPATH=$(CURDIR) $(PY) -c "import banditviz as b; b.run(b.preset('default'), 'pareto_ucb1', 30, snapshots=0); b.run(b.preset('default'), 'pfiwr', 30, snapshots=0); b.run(b.preset('default'), 'gege_fb', 60, snapshots=0); b.run(b.preset('default'), 'uniform', 3, snapshots=0, compiled=False); b.run(b.preset('mol_ts_main'), 'mol_ts', 3, snapshots=0); b.pareto.psi_gaps([[0.0, 1.0], [1.0, 0.0]])"
	touch $@

$(VENV)/.installed-test: $(VENV)/.installed pyproject.toml $(LOCK)
	$(PY) -m pip install --quiet -c $(LOCK) -e ".[test,distributed,export]"
	touch $@

install: $(VENV)/.installed $(VENV)/.compiled

install-test: $(VENV)/.installed-test $(VENV)/.compiled debian

# Debian's packages the tests use, one apt-get at a time (apt holds a lock)
debian:
	@$(MAKE) --no-print-directory chromium && $(MAKE) --no-print-directory nginx

chromium:
	@command -v chromium >/dev/null 2>&1 || { \
	  echo "installing Debian's chromium for the browser tests"; \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq chromium >/dev/null; }
	@command -v chromium-headless-shell >/dev/null 2>&1 || { \
	  echo "installing Debian's chromium-headless-shell (the browser tests' headless browser: less CPU a page)"; \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  { $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq chromium-headless-shell \
	    >/dev/null; } || echo "no chromium-headless-shell here: the browser tests run the full chromium headless"; }

nginx:
	@command -v nginx >/dev/null 2>&1 || test -x /usr/sbin/nginx || { \
	  echo "installing Debian's nginx for serving several app processes (make serve) and its test"; \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq nginx >/dev/null; }

run: install
	$(PY) -m streamlit run app.py --server.port $(PORT) --server.headless true --browser.gatherUsageStats false

serve: install nginx
	PY=$(PY) deploy/serve.sh

lint: install-test
	$(PY) -m ruff check .

# the installs side by side (make -j), then the tests
test:
	@$(MAKE) --no-print-directory -j 3 install-test
	$(TEST)

bench: install-test
	for f in benchmarks/*.py; do echo "== $$f"; $(PY) $$f || exit 1; done

# newest versions the floors allow, the whole test suite, then their exact versions into $(LOCK)
lock: chromium nginx
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet --upgrade -e ".[test,distributed,export]"
	$(TEST)
	$(PY) -m pip freeze --exclude-editable --exclude banditviz | LC_ALL=C sort > $(LOCK)
	@echo "$(LOCK): $$(wc -l < $(LOCK)) pinned packages"

clean:
	rm -rf $(VENV) build *.egg-info artifacts
