"""setuptools hook: the wheel carries the window's compiled translations (resources/i18n/*.qm).

Everything else is in pyproject.toml. Each resources/i18n/*.ts is compiled with PySide6's lrelease
into the built package (gpu_tpu_app/qm.py), so a wheel built from a clean clone, without `make`,
still speaks every shipped language. Without lrelease (a build environment without PySide6) the
.qm files `make translations` left in the tree are used, and a .ts without one is named.
"""

import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent


class BuildWithTranslations(build_py):
    def run(self) -> None:
        super().run()
        sys.path.insert(0, str(ROOT))
        from gpu_tpu_app import qm

        target = Path(self.build_lib) / "gpu_tpu_app" / "resources" / qm.FOLDER
        target.mkdir(parents=True, exist_ok=True)
        lrelease = qm.find_tool("lrelease")
        for ts in qm.ts_files(ROOT / "resources" / qm.FOLDER):
            out = target / qm.qm_for(ts).name
            if lrelease is not None:
                qm.compile_ts(ts, out, lrelease)
            elif not out.is_file() or qm.is_stale(ts):
                self.warn(f"{ts.name}: pyside6-lrelease not found and no current .qm: that part stays English")


setup(cmdclass={"build_py": BuildWithTranslations})
