"""The Probe page: real probes on the CPU through the panel, cancel, crashes, missing backends, import and export."""

from __future__ import annotations

import csv
import io
import json
import socket
from datetime import UTC, datetime

import pytest
from PySide6.QtCore import Qt

from gpu_tpu_app.core.runs import CSV_COLUMNS, DeviceInfo, ProbeResult, RunFile, Stats, load_run, save_run
from gpu_tpu_app.core.settings import Preferences
from gpu_tpu_app.ui.probe.probe_panel import ProbePanel
from gpu_tpu_app.ui.probe.results_model import COL
from gpu_tpu_app.ui.shell.theme import theme_manager

PROBE_TIMEOUT_MS = 120_000


@pytest.fixture
def panel(qtbot):
    theme_manager().apply("light")
    p = ProbePanel(Preferences(default_suite="smoke"))
    qtbot.addWidget(p)
    yield p
    p.shutdown()


def _rows(p: ProbePanel) -> list[list[str]]:
    m = p.proxy
    return [[m.index(r, c).data() for c in range(m.columnCount())] for r in range(m.rowCount())]


def _hand_made_run(host: str = "tpu-vm-test") -> RunFile:
    """A run file written by hand for import tests: test input, never shown as a measurement of this machine."""
    dev = DeviceInfo(backend="jax", platform="tpu", name="TPU v5 lite", catalog_id="tpu-v5e")
    st = Stats(median=1e14, min=9e13, max=1.1e14, q1=9.5e13, q3=1.05e14, iqr=1e13, cv=0.02, reps=10, seconds=1.0)
    results = [
        ProbeResult(
            kernel="matmul",
            backend="jax",
            device=dev.key,
            dtype="bfloat16",
            size=4096,
            metric="flops",
            value=1e14,
            unit="FLOP/s",
            stats=st,
            pct_spec=50.8,
            pct_ceiling=100.0,
        ),
        ProbeResult(
            kernel="matmul",
            backend="jax",
            device=dev.key,
            dtype="bfloat16",
            size=8192,
            metric="flops",
            value=3e14,
            unit="FLOP/s",
            status="suspect",
            message="above the catalogue peak",
        ),
        ProbeResult(
            kernel="triad",
            backend="jax",
            device=dev.key,
            dtype="float32",
            size=1 << 26,
            metric="bytes_per_s",
            value=7e11,
            unit="B/s",
            pct_spec=85.0,
            pct_ceiling=100.0,
        ),
    ]
    return RunFile(
        app_version="0.1.0",
        host=host,
        os="Linux",
        python="3.11",
        devices=[dev],
        suite="quick",
        started=datetime(2026, 2, 3, 4, 5, tzinfo=UTC),
        complete=True,
        results=results,
    )


# The GUI process never importing torch or jax through a real probe run is held by
# tests/test_core_purity.py::test_the_window_process_never_imports_torch_jax_or_user_code.


@pytest.mark.slow
def test_real_smoke_probe_on_cpu_fills_the_table_and_charts(panel, qtbot):
    panel.set_selection(backends=["torch"], suite="smoke", kernels=[], dtypes=[])
    progress_texts: list[str] = []
    panel.sig_result.connect(lambda _r: progress_texts.append(panel.progress.format()))
    with (
        qtbot.waitSignal(panel.sig_runs_changed, timeout=PROBE_TIMEOUT_MS),
        qtbot.waitSignal(panel.sig_finished, timeout=PROBE_TIMEOUT_MS) as done,
    ):
        assert panel.start()
        assert panel.is_running()
        assert not panel.run_button.isEnabled() and panel.cancel_button.isEnabled()
    run: RunFile = done.args[0]
    assert not panel.is_running()
    assert run.complete and run.suite == "smoke"
    assert [d.backend for d in run.devices] == ["torch"]
    ok = [r for r in run.results if r.status == "ok"]
    assert any(r.kernel == "matmul" and r.value and r.value > 0 for r in ok)
    assert panel.runs() == [run]
    rows = _rows(panel)
    assert len(rows) == len(run.results)
    assert {row[COL["Kernel"]] for row in rows} >= {"matmul"}
    assert all(row[COL["Backend"]] == "torch" for row in rows)
    assert any(row[COL["Median"]].endswith("FLOP/s") for row in rows)
    assert "Finished" in panel.progress.format()
    # while it ran, the progress bar named the backend, the current point and the time left
    assert any(t.startswith("torch: ") and " of " in t and "so far" in t and "ETA" in t for t in progress_texts)
    panel.charts.flush_all()
    assert panel.charts.throughput.has_data


@pytest.mark.slow
def test_cancel_mid_run_keeps_the_results(panel, qtbot):
    panel.set_selection(backends=["torch"], suite="quick", kernels=[], dtypes=[])
    with qtbot.waitSignal(panel.sig_result, timeout=PROBE_TIMEOUT_MS):
        panel.start()
    with qtbot.waitSignal(panel.sig_finished, timeout=30_000) as done:
        panel.cancel()
    run: RunFile = done.args[0]
    assert not run.complete
    assert len(run.results) >= 1
    assert "cancelled before the end" in run.errors
    assert panel.runs() == [run]
    assert len(_rows(panel)) == len(run.results)
    assert any(text.startswith("Cancelled") for _lvl, text in panel.messages())
    assert panel.run_button.isEnabled()


@pytest.mark.slow
def test_crashing_worker_is_a_message_and_the_panel_keeps_working(qtbot, monkeypatch):
    monkeypatch.setenv("GPU_TPU_APP_TEST_KERNELS", "1")
    panel = ProbePanel(Preferences(default_suite="smoke"))
    qtbot.addWidget(panel)
    assert "test_segfault" in panel.kernels.actions_  # offered only with the test switch on
    panel.set_selection(backends=["torch"], suite="smoke", kernels=["dispatch", "test_segfault"])
    with qtbot.waitSignal(panel.sig_finished, timeout=PROBE_TIMEOUT_MS) as done:
        panel.start()
    run: RunFile = done.args[0]
    crash = [r for r in run.results if r.kernel == "test_segfault"]
    assert len(crash) == 1 and crash[0].status == "error"
    assert "SIGSEGV" in (crash[0].message or "")
    assert any(r.kernel == "dispatch" and r.status == "ok" for r in run.results)  # earlier results stay
    errors = [text for lvl, text in panel.messages() if lvl == "error"]
    assert any("SIGSEGV" in t for t in errors)
    # the failed row is flagged in the table
    rows = _rows(panel)
    i = next(i for i, row in enumerate(rows) if row[COL["Kernel"]] == "test_segfault")
    status = panel.proxy.index(i, COL["Status"])
    assert status.data() == "error"
    assert status.data(Qt.ItemDataRole.DecorationRole) is not None
    assert "SIGSEGV" in panel.proxy.index(i, COL["Kernel"]).data(Qt.ItemDataRole.ToolTipRole)
    # and the panel still runs probes
    panel.set_selection(kernels=["dispatch"])
    with qtbot.waitSignal(panel.sig_finished, timeout=PROBE_TIMEOUT_MS) as again:
        panel.start()
    assert any(r.status == "ok" for r in again.args[0].results)
    assert len(panel.runs()) == 2
    panel.shutdown()


@pytest.mark.slow
def test_hung_point_times_out_and_the_run_goes_on(qtbot, monkeypatch):
    monkeypatch.setenv("GPU_TPU_APP_TEST_KERNELS", "1")
    panel = ProbePanel(Preferences(default_suite="smoke"))
    qtbot.addWidget(panel)
    panel.set_selection(backends=["torch"], suite="smoke", kernels=["dispatch", "test_sleep"])
    with qtbot.waitSignal(panel.sig_finished, timeout=PROBE_TIMEOUT_MS) as done:
        panel.start()
    run: RunFile = done.args[0]
    hung = [r for r in run.results if r.kernel == "test_sleep"]
    assert len(hung) == 1 and hung[0].status == "timeout"
    assert any(r.kernel == "dispatch" and r.status == "ok" for r in run.results)
    assert any("past its time cap" in text for _lvl, text in panel.messages())
    assert not panel.is_running() and panel.run_button.isEnabled()
    panel.shutdown()


@pytest.mark.slow
def test_missing_backend_is_reported_and_the_other_backend_results_stay(panel, qtbot, monkeypatch):
    monkeypatch.setenv("GPU_TPU_APP_DISABLE_BACKENDS", "jax")
    panel.set_selection(backends=["torch", "jax"], suite="smoke", kernels=["dispatch"])
    with qtbot.waitSignal(panel.sig_finished, timeout=PROBE_TIMEOUT_MS) as done:
        panel.start()
    run: RunFile = done.args[0]
    assert any(r.backend == "torch" and r.status == "ok" for r in run.results)
    assert not any(r.backend == "jax" for r in run.results)
    jax = next(b for b in run.backends if b.backend == "jax")
    assert not jax.available and jax.reason
    assert any(text.startswith("jax") and lvl == "error" for lvl, text in panel.messages())
    assert panel.devices.backend_status("jax") is not None and not panel.devices.backend_status("jax").available


@pytest.mark.slow
def test_device_list_comes_from_worker_processes(panel, qtbot, monkeypatch):
    monkeypatch.setenv("GPU_TPU_APP_DISABLE_BACKENDS", "jax")
    with qtbot.waitSignal(panel.sig_devices_listed, timeout=PROBE_TIMEOUT_MS):
        panel.list_devices()
    torch_status = panel.devices.backend_status("torch")
    assert torch_status is not None and torch_status.available
    devices = panel.devices.devices()
    assert any(d.backend == "torch" and d.platform == "cpu" for d in devices)
    top = [panel.devices.topLevelItem(i).text(0) for i in range(panel.devices.topLevelItemCount())]
    assert any(t.startswith("torch") and "1 device" in t for t in top)
    assert any(t.startswith("jax") and "not usable" in t for t in top)


def test_import_a_run_file_and_overlay_it(panel, qtbot, tmp_path):
    path = tmp_path / "tpu.json"
    run = _hand_made_run()
    save_run(run, path)
    with qtbot.waitSignal(panel.sig_runs_changed):
        assert panel.import_run(path)
    assert panel.runs() == [run]
    rows = _rows(panel)
    assert len(rows) == 3
    run_tips = [panel.proxy.index(r, COL["Run"]).data(Qt.ItemDataRole.ToolTipRole) for r in range(len(rows))]
    assert all(tip.startswith("imported · tpu-vm-test") for tip in run_tips)
    assert any(row[COL["% spec"]] == "51 %" for row in rows)
    # importing the same run again changes nothing
    assert panel.import_run(path) and len(panel.runs()) == 1
    # the suspect point is flagged
    i = next(i for i, row in enumerate(rows) if row[COL["Status"]] == "above roof")
    assert panel.proxy.index(i, COL["Status"]).data(Qt.ItemDataRole.DecorationRole) is not None
    for col in ("Median", "Status"):
        assert "Suspect" in panel.proxy.index(i, COL[col]).data(Qt.ItemDataRole.ToolTipRole)
    panel.charts.flush_all()
    assert panel.charts.throughput.has_data and panel.charts.roofline.has_data


@pytest.mark.parametrize(
    "content, expected",
    [("{not json", "not valid JSON"), (json.dumps({"schema_version": 99, "results": []}), "schema_version")],
)
def test_broken_run_file_shows_one_line_and_changes_nothing(panel, error_boxes, tmp_path, content, expected):
    good = tmp_path / "good.json"
    save_run(_hand_made_run(), good)
    assert panel.import_run(good)
    bad = tmp_path / "broken.json"
    bad.write_text(content, encoding="utf-8")
    before = bad.read_bytes()
    assert panel.import_run(bad) is False
    assert len(error_boxes) == 1
    box = error_boxes[0]
    assert box.isVisible() and box.textFormat() == Qt.TextFormat.PlainText
    assert str(bad) in box.text() and expected in box.text()
    assert "\n" not in box.text() and "Traceback" not in box.text()
    assert len(panel.runs()) == 1
    assert bad.read_bytes() == before
    box.close()


def test_export_json_and_csv_from_the_panel(panel, tmp_path):
    save_run(_hand_made_run(), tmp_path / "in.json")
    panel.import_run(tmp_path / "in.json")
    panel.export_run(tmp_path / "out.json")
    panel.export_run(tmp_path / "out.csv")
    assert load_run(tmp_path / "out.json") == _hand_made_run()
    rows = list(csv.reader(io.StringIO((tmp_path / "out.csv").read_text(encoding="utf-8"))))
    assert tuple(rows[0]) == CSV_COLUMNS
    assert len(rows) == 1 + 3
    panel.export_chart("roofline", tmp_path / "roof.png")
    panel.export_chart("matmul", tmp_path / "matmul.svg")
    assert (tmp_path / "roof.png").stat().st_size > 1000
    assert (tmp_path / "matmul.svg").read_text(encoding="utf-8").lstrip().startswith("<?xml")


def test_csv_export_of_a_shared_run_file_runs_no_formula(panel, tmp_path):
    """A run file from elsewhere whose host and device name begin like formulas exports as plain text."""
    run = _hand_made_run(host="=cmd|' /C calc'!A0")
    run = run.model_copy(update={"devices": [run.devices[0].model_copy(update={"name": "@SUM(1+1)"})]})
    save_run(run, tmp_path / "shared.json")
    panel.import_run(tmp_path / "shared.json")
    panel.export_run(tmp_path / "out.csv")
    rows = list(csv.DictReader(io.StringIO((tmp_path / "out.csv").read_text(encoding="utf-8"))))
    assert len(rows) == 3
    assert {r["host"] for r in rows} == {"'=cmd|' /C calc'!A0"} and {r["device_name"] for r in rows} == {"'@SUM(1+1)"}


def test_table_sorts_on_numbers_not_text(panel, tmp_path):
    save_run(_hand_made_run(), tmp_path / "in.json")
    panel.import_run(tmp_path / "in.json")
    panel.table.sortByColumn(COL["Median"], Qt.SortOrder.DescendingOrder)
    medians = [row[COL["Median"]] for row in _rows(panel)]
    assert medians == ["300 TFLOP/s", "100 TFLOP/s", "700 GB/s"]
    panel.filter.setText("triad")
    assert [row[COL["Kernel"]] for row in _rows(panel)] == ["triad"]


def test_set_runs_replaces_the_runs_and_hidden_runs_leave_the_charts(panel, qtbot):
    a, b = _hand_made_run("host-a"), _hand_made_run("host-b")
    panel.set_runs([a, b])
    assert panel.runs() == [a, b]
    assert panel.runs_list.count() == 2
    panel.runs_list.item(0).setCheckState(Qt.CheckState.Unchecked)
    data = panel._chart_data()
    assert [r.run.host for r in data.visible()] == ["host-b"]
    panel.remove_run(0)
    assert panel.runs() == [b]


def test_start_needs_a_backend(panel):
    panel.set_selection(backends=[])
    assert not panel.run_button.isEnabled()
    assert panel.start() is False
    assert not panel.is_running()
    assert panel.messages()[-1][0] == "warning"


def test_suite_choice_follows_a_new_default_suite_unless_a_run_is_in_progress(panel, monkeypatch):
    assert panel.suite.currentText() == "smoke"
    panel.set_preferences(Preferences(default_suite="full"))
    assert panel.suite.currentText() == "full"
    assert panel.prefs.default_suite == "full"
    # Another preference changing leaves a suite the user picked on the page alone.
    panel.set_selection(suite="quick")
    panel.set_preferences(Preferences(default_suite="full", theme="dark"))
    assert panel.suite.currentText() == "quick"
    # During a run the suite shown is the one running; the new preferences are still kept.
    monkeypatch.setattr(panel, "is_running", lambda: True)
    panel.set_preferences(Preferences(default_suite="smoke"))
    assert panel.suite.currentText() == "quick"
    assert panel.prefs.default_suite == "smoke"


def test_export_dialogs_add_the_extension_and_report_a_failed_write(panel, error_boxes, tmp_path, monkeypatch):
    from PySide6.QtWidgets import QFileDialog

    save_run(_hand_made_run(), tmp_path / "in.json")
    panel.import_run(tmp_path / "in.json")
    answers = iter(
        [(str(tmp_path / "run"), ""), (str(tmp_path / "chart"), ""), (str(tmp_path / "missing" / "dir" / "run"), "")]
    )
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *_a, **_k: next(answers))
    panel._export_run_dialog("json")
    assert load_run(tmp_path / "run.json") == _hand_made_run()
    panel._export_chart_dialog("png")
    assert (tmp_path / "chart.png").read_bytes().startswith(b"\x89PNG")
    monkeypatch.setattr(panel, "export_run", lambda *_a: (_ for _ in ()).throw(OSError(13, "Permission denied")))
    assert error_boxes == []
    panel._export_run_dialog("csv")
    assert len(error_boxes) == 1
    box = error_boxes[0]
    assert "Permission denied" in box.text() and box.text().endswith("Permission denied")
    assert str(tmp_path / "missing" / "dir" / "run.csv") in box.text()


def test_a_run_from_another_machine_with_this_host_name_is_listed_as_imported(panel) -> None:
    from gpu_tpu_app.core.runs import CpuInfo
    from gpu_tpu_app.shared.machine import cpu_model, this_machine

    here = socket.gethostname()
    other_cpu = "AMD EPYC 7B13" if "EPYC" not in cpu_model() else "Intel Xeon Platinum 8481C"
    other = _hand_made_run(host=here).model_copy(update={"cpu": CpuInfo(model=other_cpu), "machine": None})
    mine = _hand_made_run(host=here).model_copy(
        update={
            "cpu": CpuInfo(model=cpu_model()),
            "machine": this_machine(),
            "started": datetime(2026, 2, 3, 5, 5, tzinfo=UTC),
        }
    )
    panel.set_runs([other, mine])
    labels = [panel.runs_list.item(i).text() for i in range(panel.runs_list.count())]
    assert labels[0].startswith("#1 · imported · ") and not labels[1].startswith("#2 · imported")


def test_two_runs_are_told_apart_in_the_table_and_no_cell_is_cut(panel, qtbot) -> None:
    from PySide6.QtWidgets import QStyle

    first = _hand_made_run(host="vm")
    second = first.model_copy(update={"started": datetime(2026, 2, 3, 6, 7, tzinfo=UTC), "complete": False})
    second = second.model_copy(
        update={"results": [r.model_copy(update={"message": "only 3 of 10 repetitions ran"}) for r in second.results]}
    )
    panel.resize(1900, 900)  # room for every column (in a narrow window the ones before Status cut in the middle)
    panel.show()
    panel.set_runs([first, second])
    qtbot.wait(10)
    rows = _rows(panel)
    run_cells = {row[COL["Run"]] for row in rows}
    assert len(run_cells) == 2, run_cells  # each run its own Run cell
    assert all(cell.startswith(("#1 ", "#2 ")) for cell in run_cells)
    items = [panel.runs_list.item(i).text() for i in range(panel.runs_list.count())]
    assert items[0].startswith("#1 · ") and items[1].startswith("#2 · ")
    metrics = panel.table.fontMetrics()
    icon = panel.table.style().pixelMetric(QStyle.PixelMetric.PM_SmallIconSize)
    for r, row in enumerate(rows):
        for c, text in enumerate(row):
            if panel.table.isColumnHidden(c):
                continue
            extra = icon if panel.proxy.index(r, c).data(Qt.ItemDataRole.DecorationRole) is not None else 0
            need = metrics.horizontalAdvance(text) + extra + 8
            assert panel.table.columnWidth(c) >= need, f"{COLUMNS_SHOWN[c]} cut: {text!r}"


COLUMNS_SHOWN = list(COL)
