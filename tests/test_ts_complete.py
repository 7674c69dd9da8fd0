"""Nothing tr() says in gpu_tpu_app/ui/ is missing from resources/i18n/*.ts: pyside6-lupdate run on today's
sources finds no message without a finished translation (a new untranslated string fails here)."""

from __future__ import annotations

import subprocess
from pathlib import Path

from gpu_tpu_app import qm
from tests.test_ts_files import TS_FILES, UI, Message, read_ts


def _lupdate_messages(tmp_path: Path) -> list[Message]:
    """What pyside6-lupdate finds in the window's sources today (every tr()/translate() call)."""
    lupdate = qm.find_tool("lupdate")
    assert lupdate is not None, "pyside6-lupdate not found (it ships with PySide6)"
    fresh = tmp_path / "sources.zh_CN.ts"
    sources = sorted(str(p) for p in UI.rglob("*.py"))
    proc = subprocess.run(
        [str(lupdate), "-silent", "-locations", "none", *sources, "-ts", str(fresh)],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert proc.returncode == 0 and fresh.is_file(), proc.stderr
    return read_ts(fresh)


def test_lupdate_finds_no_message_the_ts_files_lack(tmp_path: Path) -> None:
    have = {(m.context, m.source, m.comment) for ts in TS_FILES for m in read_ts(ts) if m.state is None}
    missing = [m for m in _lupdate_messages(tmp_path) if (m.context, m.source, m.comment) not in have]
    assert not missing, "tr() strings with no finished translation in resources/i18n/*.ts:\n" + "\n".join(
        f"{m.context}: {m.source!r}" for m in missing
    )
