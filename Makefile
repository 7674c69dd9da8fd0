# gpu-tpu-app: `make run` sets up and starts the app, `make test` sets up and runs the tests.
# Both create .venv on first use and reinstall only when pyproject.toml or constraints.txt change.

PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
PIP    := $(PY) -m pip
STAMP  := $(VENV)/.installed
# Debian packages: Qt's offscreen/xcb platform libraries and the fonts the tests render with;
# desktop-file-utils and appstream validate the desktop entry and metainfo.
DEB_PACKAGES := libegl1 libgl1 libxkbcommon0 libfontconfig1 libdbus-1-3 libglib2.0-0 fonts-dejavu-core \
                desktop-file-utils appstream binutils

.PHONY: run test venv system-deps bench screenshots bundle bundle-check clean install-desktop-entry

run: $(STAMP)
	$(PY) -m gpu_tpu_app

test: $(STAMP) system-deps
	QT_QPA_PLATFORM=offscreen $(PY) -m pytest

venv: $(STAMP)

$(STAMP): pyproject.toml constraints.txt
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PIP) install --quiet --disable-pip-version-check --upgrade "pip>=24"
	$(PIP) install --quiet --disable-pip-version-check -c constraints.txt -e ".[test]"
	touch $(STAMP)

# Installs the Debian packages the tests need when one is missing (needs root or sudo).
system-deps:
	@missing=""; for p in $(DEB_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "installing Debian packages:$$missing"; \
	  SUDO=""; [ "$$(id -u)" = 0 ] || SUDO=sudo; \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq --no-install-recommends $$missing; \
	fi

bench: $(STAMP)
	$(PY) benchmarks/run_all.py

screenshots: $(STAMP)
	for page in decide result probe learn; do \
	  QT_QPA_PLATFORM=offscreen $(PY) -m gpu_tpu_app --screenshot docs/screenshots/$$page.png --page $$page \
	    --session docs/screenshots/example-session.json || exit 1; \
	done

install-desktop-entry: $(STAMP)
	$(PY) -m gpu_tpu_app --install-desktop-entry

clean:
	rm -rf $(VENV) build dist *.egg-info .pytest_cache
