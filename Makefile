# gpu-tpu-app: `make run` sets up and starts the app, `make test` sets up and runs the tests.
# Both create .venv on first use and reinstall only when pyproject.toml or constraints.txt change.

PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
PIP    := $(PY) -m pip
STAMP  := $(VENV)/.installed
# What Qt's xcb (X11) and Wayland platform plugins link (`ldd` on libqxcb.so, libQt6XcbQpa.so.6 and
# libqwayland.so): without them a real display gets "Could not load the Qt platform plugin" and an abort.
DISPLAY_PACKAGES := libxcb1 libx11-6 libx11-xcb1 libxcb-cursor0 libxcb-icccm4 libxcb-image0 libxcb-keysyms1 \
                libxcb-randr0 libxcb-render0 libxcb-render-util0 libxcb-shape0 libxcb-shm0 libxcb-sync1 \
                libxcb-util1 libxcb-xfixes0 libxcb-xkb1 libxkbcommon-x11-0 libwayland-client0 libwayland-cursor0 \
                libwayland-egl1
# Debian packages: Qt's offscreen/xcb platform libraries and the fonts the tests render with;
# desktop-file-utils and appstream validate the desktop entry and metainfo; shared-mime-info and gio
# (libglib2.0-bin) check that session and run files open with the app; poppler-utils renders the
# PDF report to images and text in its layout test; openbox gives the real-display tests (Xvfb) a window
# manager, so windows get real frames and placement. fonts-noto-cjk draws (and the PDF report embeds) the
# Simplified Chinese interface's characters; fontconfig's fc-match names its file, from which the PDF report
# derives its searchable copy (ui/result/cjk_pdf_font.py).
RUNTIME_PACKAGES := libegl1 libgl1 libxkbcommon0 libfontconfig1 fontconfig libdbus-1-3 libglib2.0-0 fonts-dejavu-core fonts-noto-cjk
DEB_PACKAGES := $(RUNTIME_PACKAGES) \
                desktop-file-utils appstream shared-mime-info libglib2.0-bin binutils $(DISPLAY_PACKAGES) xvfb xauth \
                openbox poppler-utils

.PHONY: run test test-all lint venv system-deps bench screenshots bundle bundle-check dist clean install-desktop-entry translations ts

# The window's translations: each resources/i18n/*.ts (kept with pyside6-lupdate) compiled to the .qm file
# QTranslator loads, by the venv's pyside6-lrelease. The .qm files are build output (.gitignore).
TS_FILES := $(wildcard resources/i18n/*.ts)
QM_FILES := $(TS_FILES:.ts=.qm)
LRELEASE := $(VENV)/bin/pyside6-lrelease

translations: $(QM_FILES)
	@# a .qm whose .ts is gone (a part renamed or split) would still be loaded by the window
	@for qm in resources/i18n/*.qm; do [ -e "$$qm" ] || continue; \
	  [ -f "$${qm%.qm}.ts" ] || { rm -f "$$qm"; echo "removed $$qm: its .ts is gone"; }; done

resources/i18n/%.qm: resources/i18n/%.ts | $(STAMP)
	$(LRELEASE) -silent $< -qm $@

# make ts: after adding or changing a tr() string, each window folder's strings go into its own part,
# gpu_tpu_app/ui/<part>/ -> resources/i18n/gpu_tpu_app_<part>.<locale>.ts, for every shipped locale
# (translations kept, strings no longer in the code dropped, no line numbers so edits elsewhere leave
# the file alone); then translate the entries marked unfinished (docs/architecture.md, "add a language").
# gpu_tpu_app_pyqtgraph.*.ts holds pyqtgraph's own strings and is kept by hand.
UI_PARTS   := $(filter-out __pycache__,$(notdir $(patsubst %/,%,$(wildcard gpu_tpu_app/ui/*/))))
TS_LOCALES := $(sort $(foreach f,$(TS_FILES),$(word 2,$(subst ., ,$(notdir $(f))))))
LUPDATE    := $(VENV)/bin/pyside6-lupdate

ts: $(STAMP)
	@for part in $(UI_PARTS); do for locale in $(TS_LOCALES); do \
	  echo "gpu_tpu_app/ui/$$part -> resources/i18n/gpu_tpu_app_$$part.$$locale.ts"; \
	  $(LUPDATE) -silent -extensions py -no-obsolete -locations none -target-language $$locale \
	    gpu_tpu_app/ui/$$part -ts resources/i18n/gpu_tpu_app_$$part.$$locale.ts || exit 1; \
	done; done

run: $(STAMP) $(VENV)/.desktop-entry translations
	@$(MAKE) --no-print-directory system-deps DEB_PACKAGES="$(RUNTIME_PACKAGES) $(DISPLAY_PACKAGES)" \
	  || echo "warning: could not install the display libraries and fonts; the app names any library that is missing"
	$(PY) -m gpu_tpu_app

# The first `make run` also puts the app in the desktop menu (files under ~/.local/share only;
# `.venv/bin/gpu-tpu-app --uninstall-desktop-entry` removes them).
$(VENV)/.desktop-entry: $(STAMP)
	-$(PY) -m gpu_tpu_app --install-desktop-entry && touch $@

# make test: lint and the fast tests; make test-all: every test, the slow ones too (real probe runs, model
# checks, collectives, launches, builds), in one process. CI runs test-all.
# make test runs the fast tests in TEST_WORKERS pytest-xdist workers (TEST_WORKERS=0: in one process), each
# taking whole files (--dist loadfile: a file's module fixtures are made once), then the ones marked `serial`
# (they measure time or speed on the cores) alone; a failure in the first part still lets the second run.
# PYTHONDONTWRITEBYTECODE is cleared for pytest, so that asserts are rewritten and the app's modules compiled
# once, not in every pytest process and every CLI or worker subprocess the tests start (benchmarks/README.md
# has the measurement); the .pyc files go to __pycache__ folders, which git ignores.
TEST_WORKERS ?= 2
PYTEST := QT_QPA_PLATFORM=offscreen PYTHONDONTWRITEBYTECODE= $(PY) -m pytest

test: lint system-deps translations
	@$(PYTEST) -m "not slow and not serial" -n $(TEST_WORKERS) --dist loadfile; parallel=$$?; \
	echo "the serial part (tests that measure time or speed), alone:"; \
	$(PYTEST) -m "not slow and serial"; serial=$$?; \
	[ $$parallel = 0 ] && [ $$serial = 0 ]

test-all: lint system-deps translations
	$(PYTEST)

# Everything the formatter checks (the whole tree is in its style).
FORMATTED := gpu_tpu_app tests benchmarks tools packaging docs

# Lint (ruff), format check (ruff format, FORMATTED only) and type check (mypy), configured in pyproject.toml.
# The layer contracts (import-linter) run in the tests: tests/test_core_purity.py.
lint: $(STAMP)
	$(PY) -m ruff check gpu_tpu_app tests benchmarks tools packaging docs
	$(PY) -m ruff format --check $(FORMATTED)
	$(PY) -m mypy

venv: $(STAMP)

# The development venv has the frameworks the base install leaves to extras ([torch], [jax], [tpu]; not
# [nvidia], whose NVML needs an NVIDIA driver).
# torch itself comes through pip, whose configuration knows where a machine keeps its own build (uv does not
# look there, and PyPI's torch is a CUDA build of several GB); uv (pinned in constraints.txt) then installs
# the rest, torch's own dependencies too, at the same pins, in parallel (faster than pip, same packages:
# benchmarks/README.md). Both byte-compile what they install, and that is kept: where
# PYTHONDONTWRITEBYTECODE=1 is set, every later interpreter would compile torch and jax again, and the tests
# start hundreds of interpreters.
$(STAMP): pyproject.toml constraints.txt
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PIP) install --quiet --disable-pip-version-check -c constraints.txt --upgrade "pip>=24" uv
	$(PIP) install --quiet --disable-pip-version-check -c constraints.txt --no-deps torch
	$(VENV)/bin/uv pip install --python $(PY) --quiet --compile-bytecode -c constraints.txt -e ".[test,torch,jax,tpu]"
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
	$(PY) benchmarks/run_all.py $(BENCH)

# The README's screenshots, made by the app itself (--screenshot) from a session with a real quick run:
# every page at 1280x800, the narrow and wide windows, the dark theme, 2x scale, first start, no verdict yet,
# every page in Simplified Chinese;
# then every page on a real X display (Xvfb with openbox) at 1024x640 and 1280x800, whole screen, in both languages.
SHOT := QT_QPA_PLATFORM=offscreen $(PY) -m gpu_tpu_app --session docs/screenshots/example-session.json
screenshots: $(STAMP) translations
	for page in welcome decide result probe learn; do \
	  $(SHOT) --screenshot docs/screenshots/$$page.png --page $$page || exit 1; \
	done
	for page in result probe learn; do \
	  $(SHOT) --screenshot docs/screenshots/$$page-1024x640.png --page $$page --size 1024x640 || exit 1; \
	  $(SHOT) --screenshot docs/screenshots/$$page-dark.png --page $$page --theme dark || exit 1; \
	done
	$(SHOT) --screenshot docs/screenshots/probe-1920x1080.png --page probe --size 1920x1080
	QT_SCALE_FACTOR=2 $(SHOT) --screenshot docs/screenshots/probe-2x.png --page probe
	QT_QPA_PLATFORM=offscreen $(PY) -m gpu_tpu_app --screenshot docs/screenshots/result-no-verdict.png --page result
	# every page again in Simplified Chinese (the fonts-noto-cjk font draws the Chinese)
	mkdir -p docs/screenshots/zh-Hans
	for page in welcome decide result probe learn; do \
	  $(SHOT) --lang zh-Hans --screenshot docs/screenshots/zh-Hans/$$page.png --page $$page || exit 1; \
	done
	QT_QPA_PLATFORM=offscreen $(PY) tools/screenshots/dialogs.py docs/screenshots/example-session.json docs/screenshots
	QT_QPA_PLATFORM=offscreen $(PY) tools/screenshots/dialogs.py docs/screenshots/example-session.json docs/screenshots/zh-Hans zh-Hans
	# every page as a user sees it on a real X display (Xvfb + openbox), the window placing itself
	$(PY) tools/screenshots/real_display.py docs/screenshots/example-session.json docs/screenshots/x11 1024x640 1280x800
	$(PY) tools/screenshots/real_display.py docs/screenshots/example-session.json docs/screenshots/x11/zh-Hans 1024x640 1280x800 --lang zh-Hans

# One-folder bundle in dist/gpu-tpu-app/ (PyInstaller, pinned in constraints.txt). Linux is built and
# checked here; the spec's Windows and macOS branches are not built here.
bundle: $(STAMP) system-deps translations
	@# X11 libraries that Qt's xcb platform plugin links: present at build time, they ship in the bundle.
	@$(MAKE) --no-print-directory system-deps DEB_PACKAGES="$(DISPLAY_PACKAGES)"
	$(PIP) install --quiet --disable-pip-version-check -c constraints.txt pyinstaller pyinstaller-hooks-contrib altgraph
	$(PY) -m PyInstaller --noconfirm --log-level WARN --distpath dist --workpath build/pyinstaller \
	  packaging/pyinstaller/gpu-tpu-app.spec
	@du -sh dist/gpu-tpu-app

# Rebuilds the bundle when it is missing or older than a source file, validates the desktop files,
# then runs the bundle as a user would: plain launch, --screenshot, smoke probes, desktop entry.
bundle-check: $(STAMP) system-deps translations
	@if [ ! -x dist/gpu-tpu-app/gpu-tpu-app ] || [ -n "$$(find gpu_tpu_app resources packaging/pyinstaller \
	    pyproject.toml constraints.txt $(STAMP) -type f -newer dist/gpu-tpu-app/gpu-tpu-app \
	    ! -path '*/__pycache__/*' ! -name bundle_check.py -print -quit)" ]; then \
	  $(MAKE) --no-print-directory bundle; \
	else echo "dist/gpu-tpu-app is up to date"; fi
	sh packaging/linux/check.sh
	$(PY) packaging/pyinstaller/bundle_check.py dist/gpu-tpu-app

# make dist: the release files of the committed tree, in dist/: the sdist and the wheel (python -m build,
# isolated, on `git archive HEAD`, as a clean clone has it; twine check --strict), the Linux bundle without
# the frameworks (GPU_TPU_APP_BUNDLE_FRAMEWORKS=no; FIRST-RUN.txt says how to point it at a Python that has
# them), checked by bundle_check.py --no-frameworks, then tarred; and SHA256SUMS over the three. It refuses a
# tree with uncommitted changes, so the bundle (built from this tree) and the sdist (from HEAD) agree.
# build and twine live in their own venv (build/release-tools), not the development one.
VERSION := $(shell sed -n 's/^__version__ = "\(.*\)"/\1/p' gpu_tpu_app/__init__.py)
RELEASE_BUNDLE := gpu-tpu-app-$(VERSION)-linux-$(shell uname -m)
RELEASE_TOOLS := build/release-tools
dist: $(STAMP) system-deps translations
	@git diff --quiet HEAD -- || { echo "error: uncommitted changes: commit them first (make dist releases HEAD)" >&2; exit 1; }
	rm -rf build/release dist/gpu_tpu_app-$(VERSION)* dist/$(RELEASE_BUNDLE).tar.gz dist/SHA256SUMS
	mkdir -p build/release/src dist
	test -x $(RELEASE_TOOLS)/bin/python || $(PYTHON) -m venv $(RELEASE_TOOLS)
	$(RELEASE_TOOLS)/bin/python -m pip install --quiet --disable-pip-version-check "build>=1.2" "twine>=6"
	git archive --format=tar HEAD | tar -x -C build/release/src
	$(RELEASE_TOOLS)/bin/python -m build --outdir dist build/release/src
	$(RELEASE_TOOLS)/bin/python -m twine check --strict dist/gpu_tpu_app-$(VERSION).tar.gz dist/gpu_tpu_app-$(VERSION)-py3-none-any.whl
	@$(MAKE) --no-print-directory system-deps DEB_PACKAGES="$(DISPLAY_PACKAGES)"
	$(PIP) install --quiet --disable-pip-version-check -c constraints.txt pyinstaller pyinstaller-hooks-contrib altgraph
	GPU_TPU_APP_BUNDLE_FRAMEWORKS=no $(PY) -m PyInstaller --noconfirm --log-level WARN --distpath build/release/bundle \
	  --workpath build/release/pyinstaller packaging/pyinstaller/gpu-tpu-app.spec
	cp packaging/linux/FIRST-RUN.txt build/release/bundle/gpu-tpu-app/
	$(PY) packaging/pyinstaller/bundle_check.py --no-frameworks build/release/bundle/gpu-tpu-app
	tar -C build/release/bundle --transform 's,^gpu-tpu-app,$(RELEASE_BUNDLE),' -czf dist/$(RELEASE_BUNDLE).tar.gz gpu-tpu-app
	cd dist && sha256sum gpu_tpu_app-$(VERSION).tar.gz gpu_tpu_app-$(VERSION)-py3-none-any.whl $(RELEASE_BUNDLE).tar.gz > SHA256SUMS
	@cd dist && du -h gpu_tpu_app-$(VERSION)* $(RELEASE_BUNDLE).tar.gz && du -sh ../build/release/bundle/gpu-tpu-app && cat SHA256SUMS

install-desktop-entry: $(STAMP)
	$(PY) -m gpu_tpu_app --install-desktop-entry

clean:
	rm -rf $(VENV) build dist *.egg-info .pytest_cache .mypy_cache .ruff_cache resources/i18n/*.qm
