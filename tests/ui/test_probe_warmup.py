"""The Probe page's workers start before the page is built (a moment after the window shows, or as the
pointer moves onto Probe): one standby worker per backend finds and lists the devices, the page takes
the listing and the workers over when it opens, and Run measures on the worker that already loaded."""

from __future__ import annotations

import os

import pytest

from gpu_tpu_app.core.settings import Preferences
from gpu_tpu_app.ui.shell.main_window import MainWindow

pytestmark = pytest.mark.slow
TIMEOUT_MS = 240_000


@pytest.fixture
def window(qtbot, monkeypatch):
    monkeypatch.setenv("GPU_TPU_APP_DISABLE_BACKENDS", "jax")  # one framework to load: the test stays short
    w = MainWindow(Preferences(default_suite="smoke"), persist=False)
    qtbot.addWidget(w, before_close_func=lambda w: w.session_controller.mark_clean())  # no unsaved-run prompt
    yield w
    w.shutdown()


def test_the_probe_page_takes_over_the_workers_started_with_the_window(window, qtbot) -> None:
    window.warm_probe_later()
    warmup = window.probe_warmup
    assert warmup is not None and not warmup.started()  # the window paints first
    qtbot.waitUntil(warmup.started, timeout=5_000)
    assert window.probe_panel is None  # nothing of the page (nor pyqtgraph) built for it
    lister = warmup.lister
    assert lister is not None and warmup.standby.count() == 2  # one process per backend lists and waits
    qtbot.waitUntil(lambda: not lister.is_running(), timeout=TIMEOUT_MS)
    assert lister.results["torch"][0].available and lister.results["torch"][1][0].platform == "cpu"
    assert not lister.results["jax"][0].available

    window.show_page("probe")
    panel = window.probe_panel
    assert panel._standby is warmup.standby and panel._lister is lister  # taken over, not started again
    assert panel.devices.backend_status("torch").available
    assert not panel.devices.backend_status("jax").available
    assert panel.devices_note.text() == "Found by a worker process for each backend."
    panel.set_selection(backends=["torch"], kernels=["dispatch"])
    with qtbot.waitSignal(panel.sig_finished, timeout=TIMEOUT_MS) as done:
        assert panel.start("smoke")
        assert "started ahead of time" in panel.progress.format()
    assert panel._probe.warm_starts == 1
    assert [r.status for r in done.args[0].results] == ["ok"]


def test_run_pressed_while_the_workers_still_load_waits_and_says_what_it_waits_for(window, qtbot) -> None:
    window.warm_probe_later()
    window.probe_warmup.start(window.prefs)  # the pointer reached Probe: at once
    window.show_page("probe")
    panel = window.probe_panel
    assert panel._lister.is_running()
    panel.set_selection(backends=["torch"], kernels=["dispatch"])
    with qtbot.waitSignal(panel.sig_finished, timeout=TIMEOUT_MS) as done:
        assert panel.start("smoke")
        waiting = panel.progress.format()
        assert waiting.startswith("Getting ready: finding devices (") and "loading the torch worker" in waiting
    assert panel._probe.warm_starts == 1
    assert [r.status for r in done.args[0].results] == ["ok"]


def test_the_window_closing_ends_workers_the_page_never_took(window, qtbot) -> None:
    window.warm_probe_later()
    window.probe_warmup.start(window.prefs)
    standby = window.probe_warmup.standby
    procs = [w.proc for w in standby._procs.values()]
    assert len(procs) == 2 and all(p.waitForStarted(30_000) for p in procs)
    pids = [int(p.processId()) for p in procs]
    window.shutdown()
    assert standby.count() == 0 and window.probe_warmup.started()
    for pid in pids:  # reaped, not just signalled
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)
    assert not window.probe_warmup.start(window.prefs)  # nothing starts after the window closed
