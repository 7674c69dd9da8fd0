"""The Probe page: measure this machine live, overlay runs measured elsewhere, export what was measured.

Workers run through QProcess (probe_process.py), never in this process: the GUI imports
neither torch nor jax. Results stream into a sortable table and four charts that redraw at
most ~30 times a second. A crashed, hung or missing backend becomes a line in the message
list; the panel keeps working and keeps every result that arrived.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QAction, QKeySequence, QResizeEvent, QShowEvent
from PySide6.QtWidgets import (
    QApplication,
    QFileDialog,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QMenu,
    QMessageBox,
    QProgressBar,
    QPushButton,
    QSplitter,
    QStyle,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from gpu_tpu_app.atomic import write_text
from gpu_tpu_app.core.runs import (
    RunFile,
    load_run,
    save_run,
    to_csv,
)
from gpu_tpu_app.core.settings import Preferences
from gpu_tpu_app.errors import InputError, shown
from gpu_tpu_app.shared.terms import BACKENDS
from gpu_tpu_app.ui.charts.plot import _Chart
from gpu_tpu_app.ui.charts.view import ChartData, ChartsView
from gpu_tpu_app.ui.probe.collective_run import CollectiveRun
from gpu_tpu_app.ui.probe.devices_view import DevicesView
from gpu_tpu_app.ui.probe.envs_view import EnvsView
from gpu_tpu_app.ui.probe.probe_run import ProbeRunner
from gpu_tpu_app.ui.probe.results_model import COLUMNS, ResultsModel, ResultsProxy, run_label
from gpu_tpu_app.ui.probe.results_table import build_results_table, fit_columns
from gpu_tpu_app.ui.probe.run_controls import RunControls
from gpu_tpu_app.ui.probe.runs_list import RunsList
from gpu_tpu_app.ui.result.summary_card import SummaryCard
from gpu_tpu_app.ui.shell.icons import set_themed_icon
from gpu_tpu_app.ui.shell.message_log import MessageLog
from gpu_tpu_app.ui.shell.standby_workers import StandbyWorkers
from gpu_tpu_app.ui.shell.theme import theme_manager
from gpu_tpu_app.ui.shell.widgets import MenuButton, WrapBar, message_box

LIVE_REFRESH_MS = 33


class ProbePanel(ProbeRunner):
    """Run probes on this machine, watch them live, import and overlay other runs, export everything.

    Public API (used by the window): runs(), set_runs(), import_run(path), start(suite), cancel(),
    is_running(), set_preferences(prefs); signals sig_runs_changed() when the list of runs changes
    (a run finished, one was imported or removed) and sig_finished(RunFile) when a probe run ends
    (complete, cancelled or failed).

    It wires three parts that each do one job: RunControls (what to measure; asks for a run),
    RunsList (the one owner of the runs shown) and MessageLog (the message list); it keeps the
    table (results_table.py), charts, devices and summary card in step with the runs. Running the
    workers (start, cancel, device listing, standby workers, collectives) is its base, ProbeRunner
    (probe_run.py), where sig_runs_changed, sig_finished, sig_result and sig_devices_listed live.
    """

    sig_message = Signal(str, str)  # level, text: every line added to the message list
    sig_written = Signal(str, object)  # what, Path: a run or a chart exported (the window confirms it)
    sig_imported = Signal(str, object)  # what, Path: a run file imported here (the window confirms it)
    sig_preferences_changed = Signal(object)  # Preferences: the probe environment was chosen or added here

    def __init__(self, prefs: Preferences | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.prefs = prefs or Preferences()
        self.model = ResultsModel(self)
        self.proxy = ResultsProxy(self)
        self.proxy.setSourceModel(self.model)
        self._build_ui()
        self._apply_theme()
        theme_manager().sig_theme_changed.connect(self._apply_theme)
        self._live_timer = QTimer(self)
        self._live_timer.setSingleShot(True)
        self._live_timer.setInterval(LIVE_REFRESH_MS)
        self._live_timer.timeout.connect(self._refresh_live)
        app = QApplication.instance()
        if app is not None:
            app.aboutToQuit.connect(self.shutdown)
        self._update_buttons()

    # ---------------------------------------------------------------- layout
    def _build_ui(self) -> None:
        bar, actions = self._build_top_bar()
        # below the width of both rows the run / import / export buttons move under the settings
        self.top_bar = WrapBar(bar, actions)
        self.progress = QProgressBar()
        self.progress.setRange(0, 1000)
        self.progress.setValue(0)
        self.progress.setTextVisible(True)
        self.progress.setFormat(self.tr("Ready: choose a suite and press Run."))

        left = self._build_side()
        right = QSplitter(Qt.Orientation.Vertical)
        right.addWidget(self.charts)
        table_box, self.filter, self.table = build_results_table(self.proxy)
        right.addWidget(table_box)
        right.setSizes([430, 260])
        right.setChildrenCollapsible(False)

        self.side = left
        main = QSplitter(Qt.Orientation.Horizontal)
        main.addWidget(left)
        main.addWidget(right)
        main.setStretchFactor(1, 1)
        main.setSizes([330, 950])
        main.setChildrenCollapsible(False)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 8, 8, 8)
        layout.addWidget(self.top_bar)
        layout.addWidget(self.progress)
        layout.addWidget(main, 1)

    def _build_top_bar(self) -> tuple[QHBoxLayout, QHBoxLayout]:
        """The tool bar's two rows: the side-panel toggle and the run settings; Run / Cancel and Import / Export."""
        style = self.style()
        self.controls = RunControls(self.prefs.default_suite, style, self)
        self.controls.sig_run_requested.connect(lambda: self.start())
        self.controls.sig_cancel_requested.connect(self.cancel)
        self.controls.sig_backends_changed.connect(self._update_buttons)
        self.suite = self.controls.suite
        self.backend_boxes = self.controls.backend_boxes
        self.kernels = self.controls.kernels
        self.dtypes = self.controls.dtypes
        self.run_button = self.controls.run_button
        self.cancel_button = self.controls.cancel_button
        self.act_run = self._key(self.tr("Run the probe"), "F5", self.run_button)
        self.act_cancel = self._key(self.tr("Cancel the probe"), "Esc", self.cancel_button)
        self.import_button = QPushButton(
            style.standardIcon(QStyle.StandardPixmap.SP_DialogOpenButton), self.tr("Import run…")
        )
        self.import_button.setToolTip(
            self.tr("Open a run file measured elsewhere (e.g. on a cloud GPU or a TPU VM) and overlay it")
        )
        self.import_button.clicked.connect(self._import_dialog)
        self.export_button = MenuButton(self.tr("Export"))
        menu = QMenu(self.export_button)
        self.act_json = menu.addAction(self.tr("Run as JSON…"), lambda: self._export_run_dialog("json"))
        self.act_csv = menu.addAction(self.tr("Run as CSV…"), lambda: self._export_run_dialog("csv"))
        menu.addSeparator()
        self.act_png = menu.addAction(self.tr("This chart as PNG…"), lambda: self._export_chart_dialog("png"))
        self.act_svg = menu.addAction(self.tr("This chart as SVG…"), lambda: self._export_chart_dialog("svg"))
        self.act_table = menu.addAction(self.tr("This chart as a table…"), self._show_chart_table)
        self.export_button.setMenu(menu)

        self.side_button = QToolButton()
        self.side_button.setText(self.tr("Side panel"))
        self.side_button.setCheckable(True)
        self.side_button.setChecked(True)
        self.side_button.setToolTip(
            self.tr("Show or hide devices, runs and messages (hidden by itself in a narrow window)")
        )
        self.side_button.setAccessibleName(self.tr("Show the side panel"))
        self.side_button.clicked.connect(self._side_toggled_by_user)
        self._side_chosen: bool | None = None  # the user's own choice, once made

        bar = QHBoxLayout()
        bar.addWidget(self.side_button)
        bar.addSpacing(4)
        self.controls.add_settings(bar)
        actions = QHBoxLayout()
        actions.addSpacing(8)
        self.controls.add_buttons(actions)
        actions.addStretch(1)
        actions.addWidget(self.import_button)
        actions.addWidget(self.export_button)
        return bar, actions

    def _build_devices_box(self) -> QGroupBox:
        self.devices = DevicesView()
        self.refresh_button = QToolButton()
        set_themed_icon(self.refresh_button, "reload")
        self.refresh_button.setToolTip(self.tr("Look for devices again"))
        self.refresh_button.clicked.connect(self.list_devices)
        dev_box = QGroupBox(self.tr("Devices on this machine"))
        dl = QVBoxLayout(dev_box)
        dl.setContentsMargins(6, 6, 6, 6)
        head = QHBoxLayout()
        self.devices_note = QLabel(self.tr("Found by a worker process for each backend."))
        self.devices_note.setProperty("role", "muted")
        self.devices_note.setWordWrap(True)
        head.addWidget(self.devices_note, 1)
        head.addWidget(self.refresh_button)
        dl.addLayout(head)
        self.envs = EnvsView(self.prefs.probe_python, list(self.prefs.python_envs))
        self.envs.sig_selected.connect(self._on_env_selected)
        self.envs.sig_added.connect(self._on_env_added)
        self.envs.sig_message.connect(self.log)
        dl.addWidget(self.envs)
        dl.addWidget(self.devices)
        return dev_box

    @staticmethod
    def _group(title: str, content: QWidget) -> QGroupBox:
        box = QGroupBox(title)
        lay = QVBoxLayout(box)
        lay.setContentsMargins(6, 6, 6, 6)
        lay.addWidget(content)
        return box

    def _build_side(self) -> QSplitter:
        """The left column: summary card, devices, runs shown, messages (makes the charts too)."""
        dev_box = self._build_devices_box()
        self.runs_list = RunsList()
        self.runs_list.sig_visibility_changed.connect(lambda: self.charts.schedule())
        self.runs_list.sig_remove_requested.connect(self.remove_run)
        self.message_list = MessageLog()

        left = QSplitter(Qt.Orientation.Vertical)
        left.addWidget(dev_box)
        left.addWidget(self._group(self.tr("Runs shown"), self.runs_list))
        left.addWidget(self._group(self.tr("Messages"), self.message_list))
        left.setSizes([200, 140, 310])
        left.setChildrenCollapsible(False)

        self.charts: ChartsView = ChartsView(self._chart_data)
        self.charts.collective.run_button.clicked.connect(self.run_collective)
        self._standby = StandbyWorkers(self)  # the next run's workers, started while the user reads
        self._closed = False
        self._collective: CollectiveRun | None = None
        # this machine's best trusted figures as ratios to the chips picked for the roofline
        self.summary = SummaryCard()
        self.summary.set_chip_menu(self.charts.roofline.chip_menu)
        self.charts.roofline.sig_chips_changed.connect(
            lambda _ids: self.summary.set_chips(self.charts.roofline.selected_chip_models())
        )
        left.insertWidget(0, self.summary)
        left.setSizes([150, 180, 110, 210])
        return left

    def _apply_theme(self, _name: str = "") -> None:
        c = theme_manager().colors()
        self.model.set_colors(c["warning"], c["error"])
        self.message_list.restyle()

    # ---------------------------------------------------------------- public API
    def runs(self) -> list[RunFile]:
        """Every finished run on the page (measured here or imported), oldest first."""
        return self.runs_list.runs()

    def set_runs(self, runs: list[RunFile]) -> None:
        """Show exactly these runs (e.g. from an opened session; a run already shown once is not shown
        twice); a run in progress stays. Emits nothing."""
        self.runs_list.set_runs(runs)
        self._rebuild()

    def import_run(self, path: str | Path) -> bool:
        """Open a run file and overlay it; a broken file shows its one-line problem and changes nothing."""
        try:
            run = load_run(path)
        except InputError as exc:
            self._show_error(self.tr("Cannot open this run file"), str(exc))
            self.log("error", str(exc))
            return False
        index = self.runs_list.add(run)
        if index is None:
            self.log("info", self.tr("{file}: this run is already shown.").format(file=Path(path).name))
            return True
        try:
            self._rebuild()
        except Exception as exc:  # valid, yet it cannot be shown: the page keeps what it had
            self.runs_list.remove(index)
            self._rebuild()
            self._show_error(
                self.tr("Cannot open this run file"),
                self.tr("{path}: cannot be shown ({problem})").format(path=path, problem=shown(exc, 300)),
            )
            return False
        n_ok = sum(r.status == "ok" for r in run.results)
        self.log(
            "info",
            self.tr("Imported {file}: {run}, {n} results ({ok} ok).").format(
                file=Path(path).name, run=run_label(run), n=len(run.results), ok=n_ok
            ),
        )
        self.sig_runs_changed.emit()
        self.sig_imported.emit(
            self.tr("Imported the run of {host} ({n} results)").format(host=run.host, n=len(run.results)), Path(path)
        )
        return True

    def set_preferences(self, prefs: Preferences) -> None:
        """Use new preferences: a changed default suite becomes the suite choice unless a run is in progress."""
        changed = prefs.default_suite != self.prefs.default_suite
        self.prefs = prefs
        if changed and not self.is_running():
            self.controls.set_suite(prefs.default_suite)

    # -- extras for the window and tests
    def set_selection(
        self,
        backends: list[str] | None = None,
        kernels: list[str] | None = None,
        dtypes: list[str] | None = None,
        suite: str | None = None,
    ) -> None:
        """Set the run controls as a user would (None leaves a control as it is; [] means all kernels / dtypes)."""
        self.controls.set_selection(backends, kernels, dtypes, suite)

    def messages(self) -> list[tuple[str, str]]:
        """(level, text) of every line in the message list, oldest first."""
        return self.message_list.messages()

    def log(self, level: str, text: str) -> None:
        """Add a line to the message list: level is info, warning or error."""
        self.message_list.add(level, text, self.style())
        self.sig_message.emit(level, text)

    def export_run(self, path: str | Path, run: RunFile | None = None) -> None:
        """Write a run (default: the one selected, else the latest) as JSON or CSV, by the file's suffix."""
        run = run or self.runs_list.selected_run()
        if run is None:
            raise ValueError(self.tr("there is no run to export yet"))
        path = Path(path)
        if path.suffix.lower() == ".csv":
            write_text(path, to_csv(run))
        else:
            save_run(run, path)
        self.log("info", self.tr("Saved {run} to {path}.").format(run=run_label(run), path=path))
        self.sig_written.emit(self.tr("Exported the run"), path)

    def export_chart(self, which: str, path: str | Path) -> None:
        """Write one chart ('matmul', 'bandwidth', 'roofline', 'compile') as PNG or SVG, by the file's suffix."""
        chart = {c.slug: c for c in self.charts.charts()}.get(which)
        if chart is None:
            raise ValueError(
                self.tr("unknown chart {chart} (choose from {charts})").format(
                    chart=repr(which), charts=", ".join(c.slug for c in self.charts.charts())
                )
            )
        self.charts.export_chart(chart, path)
        self.log("info", self.tr("Saved the {chart} chart to {path}.").format(chart=which, path=path))
        self.sig_written.emit(self.tr("Exported the {chart} chart").format(chart=which), Path(path))

    #: below this width the side panel hides itself, unless the user chose otherwise
    NARROW_WIDTH = 1000

    def _side_toggled_by_user(self, shown: bool) -> None:
        self._side_chosen = shown
        self.side.setVisible(shown)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        shown = self._side_chosen if self._side_chosen is not None else self.width() >= self.NARROW_WIDTH
        if shown != self.side.isVisible() or shown != self.side_button.isChecked():
            self.side.setVisible(shown)
            self.side_button.setChecked(shown)

    def _key(self, text: str, keys: str, button: QPushButton) -> QAction:
        """A page-wide shortcut that presses `button` while it is enabled; its keys join the button's tool tip
        and the window's list of shortcuts (Help › Keyboard Shortcuts)."""
        act = QAction(text, self)
        act.setShortcut(QKeySequence(keys))
        act.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        act.triggered.connect(lambda: button.click() if button.isEnabled() else None)
        self.addAction(act)
        native = act.shortcut().toString(QKeySequence.SequenceFormat.NativeText)
        button.setToolTip(self.tr("{tip} ({keys})").format(tip=button.toolTip(), keys=native))
        return act

    def _update_buttons(self) -> None:
        self.controls.set_running(self.is_running())
        has_run = bool(self.runs())
        self.act_json.setEnabled(has_run)
        self.act_csv.setEnabled(has_run)

    # ---------------------------------------------------------------- runs list, table, charts
    def _chart_data(self) -> ChartData:
        return ChartData(self.runs_list.chart_runs())

    def _rebuild(self) -> None:
        runs = self.runs_list.all_runs()
        self.model.set_runs(runs, self.runs_list.labels())
        self.table.setColumnHidden(COLUMNS.index("Run"), len(runs) <= 1)
        fit_columns(self.table)
        self.runs_list.refresh()
        self._devices_from_runs()
        self.summary.set_runs(self.runs_list.local_runs())
        self.charts.schedule()
        self._update_buttons()

    def _devices_from_runs(self) -> None:
        """Until the workers have answered, show the devices of the latest run measured on this machine."""
        local = self.runs_list.local_runs()
        if not local:
            return
        run = local[-1]
        shown = False
        for status in run.backends:
            if status.backend in self._listed_backends:
                continue
            self.devices.set_backend(status, [d for d in run.devices if d.backend == status.backend])
            shown = True
        if shown and not self._listed_backends:
            self.devices_note.setText(
                self.tr("As found by the run of {when}; press the button to look again.").format(
                    when=run.started.strftime("%Y-%m-%d %H:%M")
                )
            )

    def remove_run(self, index: int) -> None:
        """Take a finished run off the page (its file, if any, is untouched)."""
        if self.runs_list.remove(index):
            self._rebuild()
            self.sig_runs_changed.emit()

    # ---------------------------------------------------------------- dialogs
    def _show_error(self, title: str, text: str) -> None:
        box = message_box(self, QMessageBox.Icon.Warning, title, text)
        box.setWindowModality(Qt.WindowModality.WindowModal)
        box.open()  # not exec(): the window (and any running probe) keeps going; the panel owns the box

    def _import_dialog(self) -> None:
        path, _f = QFileDialog.getOpenFileName(
            self, self.tr("Import a probe run"), "", self.tr("Probe runs (*.json);;All files (*)")
        )
        if path:
            self.import_run(path)

    def _export_run_dialog(self, kind: str) -> None:
        run = self.runs_list.selected_run()
        if run is None:
            return
        host = re.sub(r"[^\w.-]+", "-", run.host).strip(".-")[:64] or "host"  # from a file: no folders in it
        stem = f"probe-{host}-{run.started.strftime('%Y%m%d-%H%M')}"
        flt = self.tr("JSON run file (*.json)") if kind == "json" else self.tr("CSV table (*.csv)")
        self._save_via_dialog(
            self.tr("Export the run"), f"{stem}.{kind}", flt, kind, lambda path: self.export_run(path, run)
        )

    def _show_chart_table(self) -> None:
        self.charts.flush_all()
        chart = self.charts.currentWidget()
        if isinstance(chart, _Chart):
            chart.show_table()

    def _export_chart_dialog(self, kind: str) -> None:
        slug = self.charts.charts()[self.charts.currentIndex()].slug
        self._save_via_dialog(
            self.tr("Export the chart"),
            f"{slug}.{kind}",
            f"{kind.upper()} (*.{kind})",
            kind,
            lambda path: self.export_chart(slug, path),
        )

    def _save_via_dialog(self, title: str, name: str, flt: str, ext: str, write: Callable[[str], object]) -> None:
        """Ask where to save (adding .ext when missing), then write; a failed write is a message, not a crash."""
        path, _f = QFileDialog.getSaveFileName(self, title, name, flt)
        if not path:
            return
        if not path.lower().endswith(f".{ext}"):
            path += f".{ext}"
        try:
            write(path)
        except OSError as exc:
            self._show_error(self.tr("Cannot save"), f"{path}: {exc.strerror or exc}")

    # ---------------------------------------------------------------- misc
    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        # Look for devices the first time the page is shown, unless a run measured on this host
        # already says what every backend found (the refresh button looks again).
        known = all(self.devices.backend_status(b) is not None for b in BACKENDS)
        if not self._listed and not known:
            QTimer.singleShot(0, self.list_devices)
        if not self.envs.environments() and not self.envs.is_listing():
            QTimer.singleShot(0, self.envs.refresh)

    def _on_env_selected(self, python: str | None) -> None:
        """Another probe environment: remember it, and list what it sees."""
        self.prefs = self.prefs.model_copy(update={"probe_python": python})
        self.sig_preferences_changed.emit(self.prefs)
        self.log(
            "info", self.tr("Probes now run in {python}.").format(python=python or self.tr("this app’s own Python"))
        )
        self._standby.stop()  # they run the other interpreter; warm_up starts new ones after the listing
        if self._lister is not None and self._lister.is_running():
            self._lister.stop()
        self.list_devices()

    def _on_env_added(self, path: str) -> None:
        added = [*self.prefs.python_envs, path][-64:]
        self.prefs = self.prefs.model_copy(update={"python_envs": added})
        self.sig_preferences_changed.emit(self.prefs)


def _preview() -> int:  # pragma: no cover - manual check: python -m gpu_tpu_app.ui.probe.probe_panel [run.json]
    import sys

    app = QApplication(sys.argv)
    theme_manager().apply("system")
    panel = ProbePanel(Preferences())
    for p in sys.argv[1:]:
        panel.import_run(p)
    panel.resize(1280, 800)
    panel.show()
    return app.exec()


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(_preview())
