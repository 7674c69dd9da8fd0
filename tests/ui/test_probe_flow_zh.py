"""The Probe page in Simplified Chinese, run in the window as a user would: it lists the devices on its first
open and on Refresh, and runs the quick suite (the suite combo shows "快速"; its id, "quick", rides in the item
data). And no code reads a displayed text back as an id: `currentText()` is not used in the package."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtWidgets import QApplication

from gpu_tpu_app import i18n
from gpu_tpu_app.core.runs import RunFile

ROOT = Path(__file__).resolve().parents[2]
PROBE_TIMEOUT_MS = 180_000


def test_no_code_reads_a_displayed_text_back_as_an_id() -> None:
    """A combo's shown text is translated ("快速" for quick): its id must come from currentData()."""
    found = []
    for path in sorted((ROOT / "gpu_tpu_app").rglob("*.py")):
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if re.search(r"\.currentText\(\)|currentTextChanged", line):
                found.append(f"{path.relative_to(ROOT)}:{n}: {line.strip()}")
    assert found == []


@pytest.fixture
def zh_window(qtbot) -> Iterator:
    from gpu_tpu_app.ui.shell import translations
    from gpu_tpu_app.ui.shell.main_window import MainWindow

    before = i18n.current_language()
    language = translations.choose("zh-Hans", "zh-Hans")
    app = QApplication.instance()
    assert translations.install(app, language), "the zh-Hans translations did not load"
    w = MainWindow(persist=False)
    qtbot.addWidget(w, before_close_func=lambda win: win.session_controller.mark_clean())
    w.resize(1280, 800)
    w.show()
    yield w
    w.shutdown()
    translations.install(app, "en")
    i18n.set_language(before)


@pytest.mark.slow
def test_the_probe_page_lists_devices_and_runs_the_quick_suite_in_chinese(zh_window, qtbot, monkeypatch) -> None:
    monkeypatch.setenv("GPU_TPU_APP_DISABLE_BACKENDS", "jax")  # one backend keeps the run short
    w = zh_window
    panel = w.ensure_probe_panel()
    assert panel.suite.itemText(panel.suite.findData("quick")) == "快速"
    panel.set_selection(suite="quick")
    assert panel.suite.currentText() == "快速"
    # the first open lists the devices (it raised "unknown suite '快速'" in a slot before)
    with qtbot.waitSignal(panel.sig_devices_listed, timeout=PROBE_TIMEOUT_MS):
        w.show_page("probe")
        if not panel._listed:
            panel.list_devices()
    torch_status = panel.devices.backend_status("torch")
    assert torch_status is not None and torch_status.available
    assert any(d.backend == "torch" and d.platform == "cpu" for d in panel.devices.devices())
    # Refresh lists them again
    with qtbot.waitSignal(panel.sig_devices_listed, timeout=PROBE_TIMEOUT_MS):
        panel.list_devices()
    assert any(d.backend == "torch" for d in panel.devices.devices())
    # the quick suite, limited to one kernel and one dtype so the test stays short
    panel.set_selection(backends=["torch"], suite="quick", kernels=["matmul"], dtypes=["float32"])
    with qtbot.waitSignal(panel.sig_finished, timeout=PROBE_TIMEOUT_MS) as done:
        assert panel.start()
    run: RunFile = done.args[0]
    assert run.complete and run.suite == "quick"
    assert any(r.kernel == "matmul" and r.status == "ok" and r.value for r in run.results)
    assert panel.runs()[-1] == run
    assert "Finished" not in panel.progress.format() and "完成" in panel.progress.format()
