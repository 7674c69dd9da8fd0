"""One .ts part per window folder: `make ts` runs pyside6-lupdate on gpu_tpu_app/ui/<part>/ into
resources/i18n/gpu_tpu_app_<part>.<locale>.ts, so a folder's tr() strings are exactly its part's messages
(none sits in another folder's part, none is missing), and every part but pyqtgraph's has its folder."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from gpu_tpu_app import qm
from tests.test_ts_files import I18N, TS_FILES, UI, read_ts

#: the part kept by hand: pyqtgraph's own strings (its export dialog and context menus), not the app's code
BY_HAND = {"pyqtgraph"}
FOLDERS = sorted(p.name for p in UI.iterdir() if p.is_dir() and (p / "__init__.py").is_file())


def _part(ts: Path) -> str:
    return ts.name.split(".")[0].removeprefix("gpu_tpu_app_")


def test_every_window_folder_has_its_part_and_every_part_its_folder() -> None:
    assert {"shell", "decide", "result", "probe", "learn", "charts"} <= set(FOLDERS)
    locales = {ts.name.split(".")[-2] for ts in TS_FILES}
    assert locales, "no .ts file"
    have = {(_part(ts), ts.name.split(".")[-2]) for ts in TS_FILES}
    assert sorted({(f, loc) for f in FOLDERS for loc in locales} - have) == []
    assert sorted({part for part, _ in have} - set(FOLDERS) - BY_HAND) == []


def test_no_tr_string_outside_the_part_folders() -> None:
    """A module straight in gpu_tpu_app/ui/ would belong to no part: `make ts` would never see it."""
    loose = [p.name for p in UI.glob("*.py") if "tr(" in p.read_text(encoding="utf-8")]
    assert loose == []


@pytest.mark.parametrize("folder", FOLDERS)
def test_lupdate_on_the_folder_leaves_its_part_as_it_is(folder: str, tmp_path: Path) -> None:
    lupdate = qm.find_tool("lupdate")
    assert lupdate is not None, "pyside6-lupdate not found (it ships with PySide6)"
    for ts in sorted(I18N.glob(f"gpu_tpu_app_{folder}.*.ts")):
        fresh = tmp_path / ts.name
        shutil.copyfile(ts, fresh)
        args = ["-silent", "-extensions", "py", "-no-obsolete", "-locations", "none", str(UI / folder), "-ts"]
        proc = subprocess.run(
            [str(lupdate), *args, str(fresh)],
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
        )
        assert proc.returncode == 0, proc.stderr

        def key(path: Path) -> set[tuple[str, str, str, tuple[str, ...], str | None]]:
            return {(m.context, m.source, m.comment, m.translations, m.state) for m in read_ts(path)}

        before, after = key(ts), key(fresh)
        assert sorted(before - after) == [], f"{ts.name}: messages not in gpu_tpu_app/ui/{folder}/"
        assert sorted(after - before) == [], f"gpu_tpu_app/ui/{folder}/: tr() strings {ts.name} lacks (make ts)"
