"""No internal key reaches the report a user reads: for every example answers file and the example session, in
English and in Simplified Chinese, the Markdown report has no `answer_id = value` pair (the old
"custom_ops = some, team = cuda" reasons), no catalogue chip id outside a link (a chip is named, "NVIDIA H100
SXM", not "h100-sxm") and no torchax call chain. Formulas of the estimator's method ("FLOPs = 6 x N x D") and
package names in prose ("torch_xla") are the project's words and stay."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from gpu_tpu_app import i18n
from gpu_tpu_app.core.catalog import load_catalog
from gpu_tpu_app.core.decision import Answers
from gpu_tpu_app.core.decision.io import load_answers
from gpu_tpu_app.core.lesson import load_lesson
from gpu_tpu_app.core.report import build_markdown, session_estimate
from gpu_tpu_app.core.session import load_session, new_session

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((ROOT / "examples").glob("answers-*.json"))
SESSIONS = [
    ROOT / "docs" / "screenshots" / "example-session.json",
    ROOT / "tests" / "data" / "session-v2-model-check.json",
]
URL = re.compile(r"https?://\S+")


def leftovers(report: str) -> list[str]:
    """The internal keys, chip ids and call chains in a report's text (links taken out first)."""
    text = URL.sub(" ", report)
    keys = "|".join(re.escape(k) for k in Answers.model_fields)
    found = [m.group() for m in re.finditer(rf"\b(?:{keys})\s*=\s*\w+", text)]
    for chip in load_catalog().chips:
        if "-" in chip.id and re.search(rf"(?<![\w/.-]){re.escape(chip.id)}(?![\w-])", text):
            found.append(chip.id)
    found += re.findall(r"\btorchax\.\w+(?:\.\w+)*", text)
    return found


def _reports(path: Path) -> str:
    catalog, lesson = load_catalog(), load_lesson()
    if path.name.startswith("answers-"):
        session = new_session().with_answers(load_answers(path.read_text(encoding="utf-8"), path.name))
    else:
        session = load_session(path)
    return build_markdown(session, lesson, catalog, session_estimate(session, catalog, None), path.stem)


@pytest.mark.parametrize("language", ["en", "zh-Hans"])
@pytest.mark.parametrize("path", [*EXAMPLES, *SESSIONS], ids=lambda p: p.stem)
def test_the_report_has_no_internal_keys(path: Path, language: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(i18n.LANG_ENV, language)
    i18n.set_language(language)
    assert leftovers(_reports(path)) == []


def test_the_check_finds_what_it_looks_for() -> None:
    assert leftovers("custom_ops = some, team = cuda; on h100-sxm via torchax.interop.jax_view") == [
        "custom_ops = some",
        "team = cuda",
        "h100-sxm",
        "torchax.interop.jax_view",
    ]
    assert leftovers("training FLOPs = 6 x N x D; see https://cloud.google.com/tpu/docs/v5e and torch_xla") == []
