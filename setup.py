"""setuptools hook: the wheel's compiled translations and the package page's long description.

Everything else is in pyproject.toml.

- Each resources/i18n/*.ts is compiled with PySide6's lrelease (gpu_tpu_app/qm.py) into the built package, so
  a wheel built from a clean clone (`python -m build`, isolated: PySide6-Essentials is a build requirement for
  its lrelease) speaks every shipped language. A build that finds no lrelease and no current .qm stops, naming
  the .ts file, rather than build a window that is half English.
- The long description is README.md with its relative links made absolute (images to the repository's raw
  files, other files to their page), so the package index shows the screenshots the repository does.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent
REPO = "https://github.com/gpu-tpu-app/gpu-tpu-app"
RAW = "https://raw.githubusercontent.com/gpu-tpu-app/gpu-tpu-app/main/"
PAGE = REPO + "/blob/main/"

# a Markdown link or image: [text](target) or ![alt](target "title"); the target without spaces
_LINK = re.compile(r"(?P<bang>!?)\[(?P<text>[^\]]*)\]\((?P<target>[^)\s]+)(?P<rest>[^)]*)\)")
_IMAGE_SUFFIXES = (".png", ".svg", ".jpg", ".jpeg", ".gif", ".webp")


def _absolute(target: str, image: bool) -> str:
    if re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*:", target) or target.startswith(("#", "//")):
        return target  # a URL, a mail link or an anchor in the same page
    path = target.removeprefix("./").lstrip("/")
    is_image = image or path.lower().split("#", 1)[0].endswith(_IMAGE_SUFFIXES)
    return (RAW if is_image else PAGE) + path


def long_description(text: str) -> str:
    """`text` (Markdown) with every relative link and image made an absolute URL into the repository."""

    def fix(m: re.Match[str]) -> str:
        target = _absolute(m["target"], image=bool(m["bang"]))
        return f"{m['bang']}[{m['text']}]({target}{m['rest']})"

    text = _LINK.sub(fix, text)
    # HTML images (<img src="docs/...">) too
    return re.sub(
        r'(<img\b[^>]*\bsrc=")([^"]+)(")', lambda m: m[1] + _absolute(m[2], image=True) + m[3], text, flags=re.I
    )


def _setup() -> None:
    from setuptools import setup
    from setuptools.command.build_py import build_py

    class BuildWithTranslations(build_py):
        def run(self) -> None:
            super().run()
            sys.path.insert(0, str(ROOT))
            from gpu_tpu_app import qm

            target = Path(self.build_lib) / "gpu_tpu_app" / "resources" / qm.FOLDER
            target.mkdir(parents=True, exist_ok=True)
            lrelease = qm.find_tool("lrelease")
            sources = qm.ts_files(ROOT / "resources" / qm.FOLDER)
            if not sources:
                raise SystemExit(f"resources/{qm.FOLDER}: no .ts files to compile (an sdist without MANIFEST.in's)")
            for ts in sources:
                out = target / qm.qm_for(ts).name
                if lrelease is not None:
                    qm.compile_ts(ts, out, lrelease)
                elif not out.is_file() or qm.is_stale(ts):
                    raise SystemExit(
                        f"{ts.name}: pyside6-lrelease not found and no current .qm; install PySide6-Essentials "
                        "in the build environment (python -m build does) or run `make translations` first"
                    )

    setup(
        cmdclass={"build_py": BuildWithTranslations},
        long_description=long_description((ROOT / "README.md").read_text(encoding="utf-8")),
        long_description_content_type="text/markdown",
    )


if __name__ == "__main__":  # setuptools runs this file as __main__; the tests import long_description
    _setup()
