"""The suite's language fixture (tests/conftest.py `_language_restored`): a test that switches the app to
zh-Hans in-process, as `--lang zh-Hans` does, leaves the next test in the language the suite set (English).

The proof runs a real inner pytest session of two tests in order: the first switches the language by running a
command with `--lang zh-Hans` in-process, the second checks it speaks English again. Without the fixture the
second test fails (the inner run with the fixture switched off shows that)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from gpu_tpu_app import i18n
from gpu_tpu_app.core.texts import text

ROOT = Path(__file__).resolve().parents[1]
CONFTEST = ROOT / "tests" / "conftest.py"

INNER = """
import os

from gpu_tpu_app import cli, i18n
from gpu_tpu_app.core.texts import text


def test_a_switches_to_chinese(capsys):
    assert cli.main(["--lang", "zh-Hans", "explain"]) == 0
    assert i18n.current_language() == "zh-Hans"
    assert os.environ[i18n.LANG_ENV] == "zh-Hans"


def test_b_speaks_english_again():
    assert os.environ.get(i18n.LANG_ENV) == "en"
    assert i18n.current_language() == "en"
    assert text("terms.kernel.copy") == "copy"
"""


def _inner(tmp_path: Path, conftest: str) -> subprocess.CompletedProcess[str]:
    """The two inner tests run in order, with `conftest` (the suite's own, or a broken copy) beside them."""
    test = tmp_path / "test_inner_language.py"
    test.write_text(INNER, encoding="utf-8")
    (tmp_path / "conftest.py").write_text(conftest, encoding="utf-8")
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(test)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        env={**{k: v for k, v in os.environ.items() if k != "GPU_TPU_APP_TEST_TIMES"}, "PYTHONPATH": str(ROOT)},
    )


def test_a_language_switch_in_one_test_does_not_reach_the_next(tmp_path: Path) -> None:
    proc = _inner(tmp_path, CONFTEST.read_text(encoding="utf-8"))
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-2000:]
    assert "2 passed" in proc.stdout


def test_without_the_fixture_the_language_leaks(tmp_path: Path) -> None:
    """The inner check can fail: with the fixture's restore turned off, the second test sees zh-Hans."""
    conftest = CONFTEST.read_text(encoding="utf-8")
    broken = conftest.replace("    yield\n    i18n._current = before_current\n", "    yield\n    return\n")
    assert broken != conftest, "the fixture's restore line moved: update this test"
    proc = _inner(tmp_path, broken)
    assert proc.returncode == 1 and "1 failed, 1 passed" in proc.stdout, proc.stdout[-3000:]


def test_this_suite_runs_in_english() -> None:
    assert i18n.current_language() == "en"
    assert text("terms.kernel.copy") == "copy"
