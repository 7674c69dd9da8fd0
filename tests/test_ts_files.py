"""The window's translations (resources/i18n/*.ts): every message translated and finished, its placeholders
kept, nothing left in English by accident, and nothing tr() says in gpu_tpu_app/ui/ missing from them."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path

import pytest

from gpu_tpu_app import i18n, qm
from tools.i18n_allow import left_in_english

ROOT = Path(__file__).resolve().parents[1]
I18N = ROOT / "resources" / qm.FOLDER
UI = ROOT / "gpu_tpu_app" / "ui"
TS_FILES = qm.ts_files(I18N)
#: {name}, Qt's %1..%99 and %n (plurals), %L1
PLACEHOLDER = re.compile(r"\{[A-Za-z_]\w*\}|%L?\d{1,2}|%n")


@dataclass(frozen=True)
class Message:
    file: str
    context: str
    source: str
    comment: str
    translations: tuple[str, ...]  # one, or one per plural form
    state: str | None  # the translation's type attribute: None when finished

    @property
    def where(self) -> str:
        return f"{self.file}: {self.context}: {self.source!r}"


def read_ts(path: Path) -> list[Message]:
    """Every message of one .ts file."""
    root = ET.parse(path).getroot()
    out = []
    for context in root.iter("context"):
        name = context.findtext("name") or ""
        for message in context.iter("message"):
            translation = message.find("translation")
            forms: tuple[str, ...] = ()
            state = "missing"
            if translation is not None:
                state = translation.get("type")
                plural = translation.findall("numerusform")
                forms = tuple(f.text or "" for f in plural) if plural else (translation.text or "",)
            out.append(
                Message(
                    path.name,
                    name,
                    message.findtext("source") or "",
                    message.findtext("comment") or "",
                    forms,
                    state,
                )
            )
    return out


def test_the_translations_folder_names_its_languages() -> None:
    assert TS_FILES, "resources/i18n/ has no .ts file"
    locales = {i18n.QT_LOCALE_NAMES[lang] for lang in i18n.LANGUAGES if lang != i18n.DEFAULT_LANGUAGE}
    for ts in TS_FILES:
        assert ts.name.split(".")[-2] in locales, f"{ts.name}: not <part>.<qt locale>.ts for a shipped language"
        assert ET.parse(ts).getroot().get("language") == ts.name.split(".")[-2], ts.name


def problems(messages: list[Message]) -> list[str]:
    """What is wrong with these messages' translations: unfinished, empty, a placeholder lost, left English."""
    out = []
    for m in messages:
        if m.state is not None:
            out.append(f"{m.where}: translation is {m.state}")
            continue
        for form in m.translations:
            if not form.strip():
                out.append(f"{m.where}: empty translation")
            elif set(PLACEHOLDER.findall(form)) != set(PLACEHOLDER.findall(m.source)):
                out.append(f"{m.where}: placeholders {PLACEHOLDER.findall(m.source)} became {form!r}")
            elif left_in_english(form):
                out.append(f"{m.where}: {form!r} keeps English words {left_in_english(form)}")
    return out


@pytest.mark.parametrize("ts", TS_FILES, ids=[t.name for t in TS_FILES])
def test_every_message_is_translated_finished_and_keeps_its_placeholders(ts: Path) -> None:
    messages = read_ts(ts)
    assert messages, f"{ts.name} has no message"
    found = problems(messages)
    assert not found, "\n".join(found)


def test_the_check_finds_each_kind_of_problem(tmp_path: Path) -> None:
    bad = tmp_path / "bad.zh_CN.ts"
    bad.write_text(
        """<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context><name>Demo</name>
  <message><source>Open</source><translation type="unfinished"></translation></message>
  <message><source>Gone</source><translation type="vanished">已删除</translation></message>
  <message><source>Old</source><translation type="obsolete">旧的</translation></message>
  <message><source>Save</source><translation></translation></message>
  <message><source>Needs {n} chips</source><translation>需要 {count} 块芯片</translation></message>
  <message><source>%1 of %2</source><translation>%1 之</translation></message>
  <message><source>Cancel the run</source><translation>Cancel the run</translation></message>
  <message numerus="yes"><source>%n runs</source><translation><numerusform>%n 次运行</numerusform></translation></message>
  <message><source>CUDA on %1</source><translation>CUDA on %1</translation></message>
</context>
</TS>
""",
        encoding="utf-8",
    )
    found = problems(read_ts(bad))
    assert [line.split(": ", 3)[2].split("'")[1] for line in found] == [
        "Open",
        "Gone",
        "Old",
        "Save",
        "Needs {n} chips",
        "%1 of %2",
        "Cancel the run",
        "CUDA on %1",
    ]
    assert "unfinished" in found[0] and "vanished" in found[1] and "obsolete" in found[2]
    assert "empty" in found[3] and "placeholders" in found[4] and "placeholders" in found[5]
    assert "English words ['Cancel', 'the', 'run']" in found[6] and "['on']" in found[7]


def test_no_message_is_in_two_files() -> None:
    seen: dict[tuple[str, str, str], str] = {}
    doubled = []
    for ts in TS_FILES:
        for m in read_ts(ts):
            key = (m.context, m.source, m.comment)
            if key in seen and seen[key] != ts.name:
                doubled.append(f"{m.where}: also in {seen[key]}")
            seen.setdefault(key, ts.name)
    assert not doubled, "\n".join(doubled)


def test_the_built_qm_files_are_as_new_as_their_ts() -> None:
    # tests/conftest.py rebuilt any stale one at session start; `make translations` does the same
    assert qm.stale(I18N) == []
    for ts in TS_FILES:
        assert qm.qm_for(ts).stat().st_size > 16, ts.name
