# Two commands do everything on a fresh machine (Python 3.11, pip, make, apt):
#   make run   create .venv, install banditviz, start the app on its default instance
#   make test  install the test dependencies (and Debian's chromium if missing), run every test
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
PORT ?= 8501

.PHONY: run test install install-test chromium lint bench clean

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e .
	touch $@

$(VENV)/.installed-test: $(VENV)/.installed pyproject.toml
	$(PY) -m pip install --quiet -e ".[test,distributed]"
	touch $@

install: $(VENV)/.installed

install-test: $(VENV)/.installed-test chromium

chromium:
	@command -v chromium >/dev/null 2>&1 || { \
	  echo "installing Debian's chromium for the browser tests"; \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq chromium >/dev/null; }

run: install
	$(PY) -m streamlit run app.py --server.port $(PORT) --server.headless true --browser.gatherUsageStats false

lint: install-test
	$(PY) -m ruff check .

test: install-test
	$(PY) -m ruff check .
	$(PY) -m pytest -q -p no:cacheprovider --timeout=900

bench: install-test
	for f in benchmarks/*.py; do echo "== $$f"; $(PY) $$f || exit 1; done

clean:
	rm -rf $(VENV) build *.egg-info artifacts
