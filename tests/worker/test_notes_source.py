"""Issue 30 §3: the worker's English notes have one source, gpu_tpu_app/worker/notes.py (standard library,
inside the worker, which runs in a user's interpreter or a cloud VM without the app's files);
resources/text/worker.en.toml is generated from it and must say exactly what the generator writes."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

from gpu_tpu_app.core.texts import text_folder
from gpu_tpu_app.worker import notes

ENGLISH = Path(text_folder()) / "worker.en.toml"


def test_the_english_file_is_the_one_generated_from_the_worker_s_notes() -> None:
    assert ENGLISH.read_text(encoding="utf-8") == notes.english_toml(), (
        "resources/text/worker.en.toml is generated: run `python -m gpu_tpu_app.worker.notes > "
        "resources/text/worker.en.toml` after editing gpu_tpu_app/worker/notes.py"
    )


def test_the_generator_writes_every_note_once_and_the_module_writes_it_to_stdout() -> None:
    parsed = tomllib.loads(notes.english_toml())
    flat = {f"{area}.{k}": v for area, table in parsed.items() if isinstance(table, dict) for k, v in table.items()}
    assert flat == notes.TEMPLATES
    assert {k: parsed[k] for k in notes.FILE_ENTRIES} == notes.FILE_ENTRIES
    out = subprocess.run(
        [sys.executable, "-m", "gpu_tpu_app.worker.notes"], capture_output=True, text=True, timeout=60, check=True
    )
    assert out.stdout == notes.english_toml()


def test_a_changed_note_makes_the_file_stale(monkeypatch) -> None:
    monkeypatch.setitem(notes.TEMPLATES, "common.threads", "{threads} worker threads")
    assert ENGLISH.read_text(encoding="utf-8") != notes.english_toml()
