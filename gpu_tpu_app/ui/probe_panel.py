"""The Probe page: measure this machine live, overlay runs measured elsewhere, export what was measured.

Workers run through QProcess (probe_process.py), never in this process: the GUI imports
neither torch nor jax. Results stream into a sortable table and four charts that redraw at
most ~30 times a second. A crashed, hung or missing backend becomes a line in the message
list; the panel keeps working and keeps every result that arrived.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QPoint, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QColor, QResizeEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QApplication,
    QCheckBox,
    QComboBox,
    QFileDialog,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QMenu,
    QMessageBox,
    QProgressBar,
    QPushButton,
    QSplitter,
    QStyle,
    QTableView,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from gpu_tpu_app.atomic import write_text
from gpu_tpu_app.core.machine import is_this_machine
from gpu_tpu_app.core.runs import (
    DeviceInfo,
    ErrorMsg,
    Message,
    Progress,
    ResultMsg,
    RunFile,
    load_run,
    save_run,
    to_csv,
)
from gpu_tpu_app.core.settings import Preferences
from gpu_tpu_app.core.terms import BACKENDS, DTYPES, SUITES, allowed_kernels
from gpu_tpu_app.core.wording import format_eta, format_seconds
from gpu_tpu_app.errors import InputError, shown
from gpu_tpu_app.probe.protocol import SUITE_BUDGET_S, ProbeRequest, point_label
from gpu_tpu_app.ui.charts import ChartData, ChartRun, ChartsView
from gpu_tpu_app.ui.devices_view import DevicesView
from gpu_tpu_app.ui.envs_view import EnvsView
from gpu_tpu_app.ui.probe_process import DeviceLister, ProbeProcess, now_label
from gpu_tpu_app.ui.results_model import COLUMNS, ResultsModel, ResultsProxy, run_label
from gpu_tpu_app.ui.summary_card import SummaryCard
from gpu_tpu_app.ui.theme import theme_manager
from gpu_tpu_app.ui.widgets import WrapBar, message_box, plain_tip

LIVE_REFRESH_MS = 33
SUITE_HELP = {
    "smoke": "smoke: a few points per kernel, seconds; checks that everything works",
    "quick": f"quick: the main sweep within about {SUITE_BUDGET_S['quick']:.0f} s",
    "full": f"full: every kernel and size, up to about {SUITE_BUDGET_S['full'] / 60:.0f} minutes",
}


@dataclass
class _Entry:
    run: RunFile
    imported: bool
    visible: bool = True
    live: bool = False


class _CheckMenuButton(QToolButton):
    """A tool button with a menu of checkable choices; none checked means 'all'."""

    def __init__(self, title: str, choices: list[str], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._title = title
        self.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        self.menu_ = QMenu(self)
        self.setMenu(self.menu_)
        self.actions_: dict[str, QAction] = {}
        for c in choices:
            act = QAction(c, self.menu_, checkable=True)
            act.toggled.connect(self._update)
            self.menu_.addAction(act)
            self.actions_[c] = act
        self.menu_.addSeparator()
        clear = self.menu_.addAction("All (clear the choice)")
        clear.triggered.connect(lambda: self.set_checked([]))
        self._update()

    def checked(self) -> list[str]:
        """The chosen values; empty means all."""
        return [c for c, a in self.actions_.items() if a.isChecked()]

    def set_checked(self, values: list[str]) -> None:
        """Choose exactly these values (unknown ones ignored)."""
        for c, a in self.actions_.items():
            a.blockSignals(True)
            a.setChecked(c in values)
            a.blockSignals(False)
        self._update()

    def _update(self, *_a: object) -> None:
        chosen = self.checked()
        self.setText(f"{self._title}: {', '.join(chosen) if 0 < len(chosen) <= 2 else (len(chosen) or 'all')}")


class ProbePanel(QWidget):
    """Run probes on this machine, watch them live, import and overlay other runs, export everything.

    Public API (used by the window): runs(), set_runs(), import_run(path), start(suite), cancel(),
    is_running(), set_preferences(prefs); signals sig_runs_changed() when the list of runs changes
    (a run finished, one was imported or removed) and sig_finished(RunFile) when a probe run ends
    (complete, cancelled or failed).
    """

    sig_runs_changed = Signal()
    sig_finished = Signal(object)
    sig_message = Signal(str, str)  # level, text: every line added to the message list
    sig_result = Signal(object)  # each ProbeResult as it arrives from a worker
    sig_devices_listed = Signal()  # every backend's device-listing worker has answered
    sig_preferences_changed = Signal(object)  # Preferences: the probe environment was chosen or added here

    def __init__(self, prefs: Preferences | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.prefs = prefs or Preferences()
        self._entries: list[_Entry] = []
        self._probe: ProbeProcess | None = None
        self._pending: ProbeRequest | None = None
        self._lister: DeviceLister | None = None
        self._listed = False
        self._listed_backends: set[str] = set()
        self._t0 = 0.0
        self._messages: list[tuple[str, str]] = []
        self._error_box: QMessageBox | None = None

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
        self.suite = QComboBox()
        for s in SUITES:
            self.suite.addItem(s)
            self.suite.setItemData(self.suite.count() - 1, SUITE_HELP[s], Qt.ItemDataRole.ToolTipRole)
        self.suite.setCurrentText(self.prefs.default_suite)
        self.suite.setToolTip("How thorough the probe is: " + "; ".join(SUITE_HELP.values()))
        self.backend_boxes: dict[str, QCheckBox] = {}
        for b in BACKENDS:
            box = QCheckBox(b)
            box.setChecked(True)
            box.setToolTip(f"Probe with {b} (in its own worker process)")
            box.toggled.connect(self._update_buttons)
            self.backend_boxes[b] = box
        self.kernels = _CheckMenuButton("Kernels", list(allowed_kernels()))
        self.kernels.setToolTip("Limit the run to some kernels (default: every kernel of the suite)")
        self.dtypes = _CheckMenuButton("Dtypes", list(DTYPES))
        self.dtypes.setToolTip("Limit matmul and friends to some dtypes (default: every dtype the device supports)")
        style = self.style()
        self.run_button = QPushButton(style.standardIcon(QStyle.StandardPixmap.SP_MediaPlay), "Run")
        self.run_button.setToolTip("Measure this machine with the chosen suite")
        self.run_button.clicked.connect(lambda: self.start())
        self.cancel_button = QPushButton(style.standardIcon(QStyle.StandardPixmap.SP_MediaStop), "Cancel")
        self.cancel_button.setToolTip("Stop now and keep the results measured so far")
        self.cancel_button.clicked.connect(self.cancel)
        self.import_button = QPushButton(style.standardIcon(QStyle.StandardPixmap.SP_DialogOpenButton), "Import run…")
        self.import_button.setToolTip("Open a run file measured elsewhere (e.g. on a cloud GPU or a TPU VM) and overlay it")
        self.import_button.clicked.connect(self._import_dialog)
        self.export_button = QToolButton()
        self.export_button.setText("Export")
        self.export_button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        menu = QMenu(self.export_button)
        self.act_json = menu.addAction("Run as JSON…", lambda: self._export_run_dialog("json"))
        self.act_csv = menu.addAction("Run as CSV…", lambda: self._export_run_dialog("csv"))
        menu.addSeparator()
        self.act_png = menu.addAction("This chart as PNG…", lambda: self._export_chart_dialog("png"))
        self.act_svg = menu.addAction("This chart as SVG…", lambda: self._export_chart_dialog("svg"))
        self.export_button.setMenu(menu)

        self.side_button = QToolButton()
        self.side_button.setText("Side panel")
        self.side_button.setCheckable(True)
        self.side_button.setChecked(True)
        self.side_button.setToolTip("Show or hide devices, runs and messages (hidden by itself in a narrow window)")
        self.side_button.setAccessibleName("Show the side panel")
        self.side_button.clicked.connect(self._side_toggled_by_user)
        self._side_chosen: bool | None = None  # the user's own choice, once made

        bar = QHBoxLayout()
        bar.addWidget(self.side_button)
        bar.addSpacing(4)
        bar.addWidget(QLabel("Suite"))
        bar.addWidget(self.suite)
        bar.addSpacing(8)
        bar.addWidget(QLabel("Backends"))
        for box in self.backend_boxes.values():
            bar.addWidget(box)
        bar.addWidget(self.kernels)
        bar.addWidget(self.dtypes)
        actions = QHBoxLayout()
        actions.addSpacing(8)
        actions.addWidget(self.run_button)
        actions.addWidget(self.cancel_button)
        actions.addStretch(1)
        actions.addWidget(self.import_button)
        actions.addWidget(self.export_button)
        # below the width of both rows the run / import / export buttons move under the settings
        self.top_bar = WrapBar(bar, actions)

        self.progress = QProgressBar()
        self.progress.setRange(0, 1000)
        self.progress.setValue(0)
        self.progress.setTextVisible(True)
        self.progress.setFormat("Ready: choose a suite and press Run.")

        # left column: devices, runs, messages
        self.devices = DevicesView()
        self.refresh_button = QToolButton()
        self.refresh_button.setIcon(style.standardIcon(QStyle.StandardPixmap.SP_BrowserReload))
        self.refresh_button.setToolTip("Look for devices again")
        self.refresh_button.clicked.connect(self.list_devices)
        dev_box = QGroupBox("Devices on this machine")
        dl = QVBoxLayout(dev_box)
        dl.setContentsMargins(6, 6, 6, 6)
        head = QHBoxLayout()
        self.devices_note = QLabel("Found by a worker process for each backend.")
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

        self.runs_list = QListWidget()
        self.runs_list.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.runs_list.customContextMenuRequested.connect(self._runs_menu)
        self.runs_list.itemChanged.connect(self._on_run_item_changed)
        self.runs_list.setToolTip("Tick to show a run in the charts; right-click to remove it from the page")
        runs_box = QGroupBox("Runs shown")
        rl = QVBoxLayout(runs_box)
        rl.setContentsMargins(6, 6, 6, 6)
        rl.addWidget(self.runs_list)

        self.message_list = QListWidget()
        self.message_list.setWordWrap(True)
        self.message_list.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
        msg_box = QGroupBox("Messages")
        ml = QVBoxLayout(msg_box)
        ml.setContentsMargins(6, 6, 6, 6)
        ml.addWidget(self.message_list)

        left = QSplitter(Qt.Orientation.Vertical)
        left.addWidget(dev_box)
        left.addWidget(runs_box)
        left.addWidget(msg_box)
        left.setSizes([200, 140, 310])
        left.setChildrenCollapsible(False)

        # right column: charts over the table
        self.charts = ChartsView(self._chart_data)
        self.filter = QLineEdit()
        self.filter.setPlaceholderText("Filter results (kernel, device, dtype, status…)")
        self.filter.setClearButtonEnabled(True)
        self.filter.textChanged.connect(self.proxy.setFilterFixedString)
        self.table = QTableView()
        self.table.setModel(self.proxy)
        self.table.setSortingEnabled(True)
        self.table.sortByColumn(-1, Qt.SortOrder.AscendingOrder)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setAlternatingRowColors(True)
        self.table.verticalHeader().setVisible(False)
        self.table.verticalHeader().setDefaultSectionSize(22)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        header.setStretchLastSection(True)
        for name, width in {"Run": 130, "Kernel": 96, "Backend": 56, "Device": 100, "Dtype": 64, "Size": 56,
                            "Median": 96, "Status": 76, "CV / IQR": 84, "% ceiling": 66, "% spec": 56}.items():  # fmt: skip
            label_room = header.fontMetrics().horizontalAdvance(name) + 18  # the header text and sort arrow
            self.table.setColumnWidth(COLUMNS.index(name), max(width, label_room))
        # what matters most stays in view in a narrow window: the value and its status come right
        # after what was measured; the rest follows and elides or scrolls
        header.setStretchLastSection(False)
        header.moveSection(header.visualIndex(COLUMNS.index("Status")), header.visualIndex(COLUMNS.index("Median")) + 1)
        header.setTextElideMode(Qt.TextElideMode.ElideRight)
        table_box = QWidget()
        tl = QVBoxLayout(table_box)
        tl.setContentsMargins(0, 0, 0, 0)
        tl.addWidget(self.filter)
        tl.addWidget(self.table)
        # this machine's best trusted figures as ratios to the chips picked for the roofline
        self.summary = SummaryCard()
        self.summary.set_chip_menu(self.charts.roofline.chip_menu)
        self.charts.roofline.sig_chips_changed.connect(
            lambda _ids: self.summary.set_chips(self.charts.roofline.selected_chip_models()))
        left.insertWidget(0, self.summary)
        left.setSizes([150, 180, 110, 210])
        right = QSplitter(Qt.Orientation.Vertical)
        right.addWidget(self.charts)
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

    def _apply_theme(self, _name: str = "") -> None:
        c = theme_manager().colors()
        self.model.set_colors(c["warning"], c["error"])
        self._restyle_messages()

    # ---------------------------------------------------------------- public API
    def runs(self) -> list[RunFile]:
        """Every finished run on the page (measured here or imported), oldest first."""
        return [e.run for e in self._entries if not e.live]

    def set_runs(self, runs: list[RunFile]) -> None:
        """Show exactly these runs (e.g. from an opened session); a run in progress stays. Emits nothing."""
        live = [e for e in self._entries if e.live]
        self._entries = [_Entry(r, imported=not is_this_machine(r)) for r in runs] + live
        self._rebuild()

    def import_run(self, path: str | Path) -> bool:
        """Open a run file and overlay it; a broken file shows its one-line problem and changes nothing."""
        try:
            run = load_run(path)
        except InputError as exc:
            self._show_error("Cannot open this run file", str(exc))
            self.log("error", str(exc))
            return False
        for e in self._entries:
            if not e.live and e.run.host == run.host and e.run.started == run.started:
                self.log("info", f"{Path(path).name}: this run is already shown.")
                return True
        self._entries.append(_Entry(run, imported=not is_this_machine(run)))
        try:
            self._rebuild()
        except Exception as exc:  # valid, yet it cannot be shown: the page keeps what it had
            self._entries.pop()
            self._rebuild()
            self._show_error("Cannot open this run file", f"{path}: cannot be shown ({shown(exc, 300)})")
            return False
        n_ok = sum(r.status == "ok" for r in run.results)
        self.log("info", f"Imported {Path(path).name}: {run_label(run)}, {len(run.results)} results ({n_ok} ok).")
        self.sig_runs_changed.emit()
        return True

    def start(self, suite: str | None = None) -> bool:
        """Start a probe run with the chosen suite, backends, kernels and dtypes; False if it cannot start."""
        if self.is_running():
            return False
        if suite is not None:
            if suite not in SUITES:
                raise ValueError(f"unknown suite {suite!r} (choose from {', '.join(SUITES)})")
            self.suite.setCurrentText(suite)
        backends = [b for b, box in self.backend_boxes.items() if box.isChecked()]
        if not backends:
            self.log("warning", "Choose at least one backend (torch or jax) to run a probe.")
            return False
        request = ProbeRequest(
            python=self.envs.selected(),
            suite=self.suite.currentText(),
            backends=backends,
            kernels=self.kernels.checked() or None,
            dtypes=self.dtypes.checked() or None,
        )
        if self._lister is not None and self._lister.is_running():
            # Device detection imports torch and jax in the background: measuring next to it would
            # report noise. Start as soon as it is done.
            self._pending = request
            self.progress.setFormat("Waiting for device detection to finish before measuring…")
            self._update_buttons()
            return True
        self._start_request(request)
        return True

    def cancel(self) -> None:
        """Stop the running probe; the results measured so far stay (sig_finished follows)."""
        if self._pending is not None:
            self._pending = None
            self.log("info", "Cancelled before the probe started.")
            self.progress.setFormat("Ready: choose a suite and press Run.")
            self._update_buttons()
            return
        if self._probe is not None and self._probe.is_running():
            self.progress.setFormat("Cancelling…")
            self._probe.cancel()

    def is_running(self) -> bool:
        """True while a probe run is in progress (or about to start)."""
        return self._pending is not None or (self._probe is not None and self._probe.is_running())

    def set_preferences(self, prefs: Preferences) -> None:
        """Use new preferences: a changed default suite becomes the suite choice unless a run is in progress."""
        changed = prefs.default_suite != self.prefs.default_suite
        self.prefs = prefs
        if changed and not self.is_running():
            self.suite.setCurrentText(prefs.default_suite)

    # -- extras for the window and tests
    def set_selection(self, backends: list[str] | None = None, kernels: list[str] | None = None,
                      dtypes: list[str] | None = None, suite: str | None = None) -> None:  # fmt: skip
        """Set the run controls as a user would (None leaves a control as it is; [] means all kernels / dtypes)."""
        if suite is not None:
            self.suite.setCurrentText(suite)
        if backends is not None:
            for b, box in self.backend_boxes.items():
                box.setChecked(b in backends)
        if kernels is not None:
            self.kernels.set_checked(kernels)
        if dtypes is not None:
            self.dtypes.set_checked(dtypes)

    def messages(self) -> list[tuple[str, str]]:
        """(level, text) of every line in the message list, oldest first."""
        return list(self._messages)

    def log(self, level: str, text: str) -> None:
        """Add a line to the message list: level is info, warning or error."""
        self._messages.append((level, text))
        icon = {
            "error": QStyle.StandardPixmap.SP_MessageBoxCritical,
            "warning": QStyle.StandardPixmap.SP_MessageBoxWarning,
        }.get(level, QStyle.StandardPixmap.SP_MessageBoxInformation)
        item = QListWidgetItem(self.style().standardIcon(icon), f"{now_label()}  {text}")
        item.setData(Qt.ItemDataRole.UserRole, level)
        item.setToolTip(plain_tip(text))
        self.message_list.addItem(item)
        self._restyle_item(item)
        self.message_list.scrollToBottom()
        self.sig_message.emit(level, text)

    def list_devices(self) -> None:
        """Ask each backend's worker which devices it sees (in the background)."""
        if self._lister is not None and self._lister.is_running():
            return
        self._listed = True
        backends = tuple(BACKENDS)
        self._listed_backends.clear()
        self.devices_note.setText("Looking for devices (each backend in its own worker)…")
        self.devices.set_searching(backends)
        self._lister = DeviceLister(backends, self, python=self.envs.selected())
        self._lister.sig_backend.connect(self._on_listed)
        self._lister.sig_finished.connect(self._on_listing_done)
        self._lister.start()

    def export_run(self, path: str | Path, run: RunFile | None = None) -> None:
        """Write a run (default: the one selected, else the latest) as JSON or CSV, by the file's suffix."""
        run = run or self._selected_run()
        if run is None:
            raise ValueError("there is no run to export yet")
        path = Path(path)
        if path.suffix.lower() == ".csv":
            write_text(path, to_csv(run))
        else:
            save_run(run, path)
        self.log("info", f"Saved {run_label(run)} to {path}.")

    def export_chart(self, which: str, path: str | Path) -> None:
        """Write one chart ('matmul', 'bandwidth', 'roofline', 'compile') as PNG or SVG, by the file's suffix."""
        chart = {c.slug: c for c in self.charts.charts()}.get(which)
        if chart is None:
            raise ValueError(f"unknown chart {which!r} (choose from {', '.join(c.slug for c in self.charts.charts())})")
        self.charts.export_chart(chart, path)
        self.log("info", f"Saved the {which} chart to {path}.")

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

    def shutdown(self) -> None:
        """Stop every worker now (the window is closing)."""
        if self._probe is not None and self._probe.is_running():
            self._probe.kill()
        if self._lister is not None:
            self._lister.stop()
        self.envs.stop()

    # ---------------------------------------------------------------- running
    def _start_request(self, request: ProbeRequest) -> None:
        self._probe = ProbeProcess(request, self)
        self._probe.sig_message.connect(self._on_message)
        self._probe.sig_progress.connect(self._on_progress)
        self._probe.sig_log.connect(self.log)
        self._probe.sig_finished.connect(self._on_finished)
        self._entries.append(_Entry(self._probe.snapshot(), imported=False, live=True))
        self._rebuild()
        self._t0 = time.monotonic()
        what = ", ".join(request.backends)
        filt = []
        if request.kernels:
            filt.append("kernels " + ", ".join(request.kernels))
        if request.dtypes:
            filt.append("dtypes " + ", ".join(request.dtypes))
        self.log("info", f"Started the {request.suite} suite on {what}" + (f" ({'; '.join(filt)})" if filt else "") + ".")
        self.progress.setValue(0)
        self.progress.setFormat(f"Starting the {request.backends[0]} worker…")
        self._probe.start()
        self._update_buttons()

    def _live_index(self) -> int | None:
        return next((i for i, e in enumerate(self._entries) if e.live), None)

    def _on_message(self, msg: Message) -> None:
        if isinstance(msg, ResultMsg):
            if not self._live_timer.isActive():
                self._live_timer.start()
            self.sig_result.emit(msg.result)
        elif msg.type == "device":
            dev: DeviceInfo = msg.device
            self.devices.add_device(dev)
        elif isinstance(msg, ErrorMsg) and msg.kernel is None and msg.backend:
            status = self._probe.backend_status(msg.backend) if self._probe else None
            if status is not None and not status.available:
                self.devices.set_backend(status, [])

    def _refresh_live(self) -> None:
        i = self._live_index()
        if i is None or self._probe is None:
            return
        snap = self._probe.snapshot()
        self._entries[i].run = snap
        self.model.update_run(i, snap, self._entry_label(self._entries[i]))
        self.charts.schedule()

    def _on_progress(self, p: Progress, backend_index: int, backend_count: int) -> None:
        frac = (backend_index + (p.done / p.total if p.total else 0.0)) / max(1, backend_count)
        self.progress.setValue(int(1000 * min(1.0, frac)))
        backend = p.backend or (self._probe.request.backends[backend_index] if self._probe else "")
        eta = f" · {format_eta(p.eta_s)}" if p.eta_s is not None else ""
        then = ""
        if self._probe is not None and backend_index + 1 < backend_count:
            then = f", then {', '.join(self._probe.request.backends[backend_index + 1:])}"
        self.progress.setFormat(f"{backend}: {point_label(p)} · point {p.done + 1} of {p.total}{eta}{then}")

    def _on_finished(self, run: RunFile) -> None:
        self._live_timer.stop()
        i = self._live_index()
        entry = _Entry(run, imported=False)
        if i is None:
            self._entries.append(entry)
        else:
            self._entries[i] = entry
        self._rebuild()
        took = time.monotonic() - self._t0
        counts: dict[str, int] = {}
        for r in run.results:
            counts[r.status] = counts.get(r.status, 0) + 1
        detail = ", ".join(f"{n} {s}" for s, n in sorted(counts.items())) or "no results"
        cancelled = self._probe is not None and self._probe.session.cancelled
        if cancelled:
            head = "Cancelled"
        elif run.complete:
            head = "Finished"
        else:
            head = "Finished with problems"
        level = "info" if run.complete or cancelled else "warning"
        self.log(level, f"{head} after {format_seconds(took)}: {len(run.results)} results ({detail}).")
        for b in run.backends:
            if not b.available and self.devices.backend_status(b.backend) in (None,):
                self.devices.set_backend(b, [])
        self.progress.setValue(1000 if run.complete else self.progress.value())
        self.progress.setFormat(f"{head}: {len(run.results)} results in {format_seconds(took)}")
        self._update_buttons()
        self.sig_runs_changed.emit()
        self.sig_finished.emit(run)

    def _on_listed(self, status: object, devices: object) -> None:
        self._listed_backends.add(status.backend)  # type: ignore[attr-defined]
        self.devices.set_backend(status, devices)  # type: ignore[arg-type]
        if self._listed_backends >= set(BACKENDS):
            self.devices_note.setText("Found by a worker process for each backend.")
        if not status.available:  # type: ignore[attr-defined]
            self.log("warning", f"{status.backend}: not usable here: {status.reason}")  # type: ignore[attr-defined]

    def _on_listing_done(self) -> None:
        self.sig_devices_listed.emit()
        if self._pending is not None:
            request, self._pending = self._pending, None
            self._start_request(request)

    def _update_buttons(self) -> None:
        running = self.is_running()
        any_backend = any(b.isChecked() for b in self.backend_boxes.values())
        self.run_button.setEnabled(not running and any_backend)
        self.cancel_button.setEnabled(running)
        for w in (self.suite, self.kernels, self.dtypes, *self.backend_boxes.values()):
            w.setEnabled(not running)
        has_run = bool(self.runs())
        self.act_json.setEnabled(has_run)
        self.act_csv.setEnabled(has_run)

    # ---------------------------------------------------------------- runs list, table, charts
    def _chart_data(self) -> ChartData:
        return ChartData(
            [ChartRun(e.run, self._entry_label(e), i, e.imported, e.visible) for i, e in enumerate(self._entries)]
        )

    def _entry_label(self, e: _Entry) -> str:
        label = run_label(e.run)
        if e.live:
            return "this machine · running"
        return f"imported · {label}" if e.imported else label

    def _rebuild(self) -> None:
        labels = [self._entry_label(e) for e in self._entries]
        self.model.set_runs([e.run for e in self._entries], labels)
        self.table.setColumnHidden(COLUMNS.index("Run"), len(self._entries) <= 1)
        self.runs_list.blockSignals(True)
        self.runs_list.clear()
        for i, e in enumerate(self._entries):
            item = QListWidgetItem(labels[i])
            item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
            item.setCheckState(Qt.CheckState.Checked if e.visible else Qt.CheckState.Unchecked)
            item.setData(Qt.ItemDataRole.UserRole, i)
            devs = ", ".join(sorted({d.name for d in e.run.devices})) or "no devices"
            item.setToolTip(plain_tip(f"{e.run.host} · {e.run.os}\n{devs}\n{len(e.run.results)} results · suite {e.run.suite}"))
            self.runs_list.addItem(item)
        self.runs_list.blockSignals(False)
        if self.runs_list.count():
            self.runs_list.setCurrentRow(self.runs_list.count() - 1)
        self._devices_from_runs()
        self.summary.set_runs(e.run for e in self._entries if not e.imported and not e.live)
        self.charts.schedule()
        self._update_buttons()

    def _devices_from_runs(self) -> None:
        """Until the workers have answered, show the devices of the latest run measured on this machine."""
        local = [e.run for e in self._entries if not e.live and not e.imported]
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
            self.devices_note.setText(f"As found by the run of {run.started.strftime('%Y-%m-%d %H:%M')}; "
                                      "press the button to look again.")  # fmt: skip

    def _on_run_item_changed(self, item: QListWidgetItem) -> None:
        i = item.data(Qt.ItemDataRole.UserRole)
        if isinstance(i, int) and 0 <= i < len(self._entries):
            self._entries[i].visible = item.checkState() == Qt.CheckState.Checked
            self.charts.schedule()

    def _runs_menu(self, pos: QPoint) -> None:
        item = self.runs_list.itemAt(pos)
        if item is None:
            return
        i = item.data(Qt.ItemDataRole.UserRole)
        menu = QMenu(self)
        remove = menu.addAction("Remove from the page")
        remove.setEnabled(not self._entries[i].live)
        remove.triggered.connect(lambda: self.remove_run(i))
        menu.popup(self.runs_list.viewport().mapToGlobal(pos))

    def remove_run(self, index: int) -> None:
        """Take a finished run off the page (its file, if any, is untouched)."""
        if 0 <= index < len(self._entries) and not self._entries[index].live:
            del self._entries[index]
            self._rebuild()
            self.sig_runs_changed.emit()

    def _selected_run(self) -> RunFile | None:
        item = self.runs_list.currentItem()
        if item is not None:
            e = self._entries[item.data(Qt.ItemDataRole.UserRole)]
            if not e.live:
                return e.run
        finished = self.runs()
        return finished[-1] if finished else None

    # ---------------------------------------------------------------- dialogs
    def _show_error(self, title: str, text: str) -> None:
        box = message_box(self, QMessageBox.Icon.Warning, title, text)
        box.setWindowModality(Qt.WindowModality.WindowModal)
        box.open()  # not exec(): the window (and any running probe) keeps going
        self._error_box = box

    def last_error_box(self) -> QMessageBox | None:
        """The last error dialog shown (tests read its text)."""
        return self._error_box

    def _import_dialog(self) -> None:
        path, _f = QFileDialog.getOpenFileName(self, "Import a probe run", "", "Probe runs (*.json);;All files (*)")
        if path:
            self.import_run(path)

    def _export_run_dialog(self, kind: str) -> None:
        run = self._selected_run()
        if run is None:
            return
        host = re.sub(r"[^\w.-]+", "-", run.host).strip(".-")[:64] or "host"  # from a file: no folders in it
        stem = f"probe-{host}-{run.started.strftime('%Y%m%d-%H%M')}"
        flt = "JSON run file (*.json)" if kind == "json" else "CSV table (*.csv)"
        self._save_via_dialog("Export the run", f"{stem}.{kind}", flt, kind, lambda path: self.export_run(path, run))

    def _export_chart_dialog(self, kind: str) -> None:
        slug = self.charts.charts()[self.charts.currentIndex()].slug
        self._save_via_dialog("Export the chart", f"{slug}.{kind}", f"{kind.upper()} (*.{kind})", kind,
                              lambda path: self.export_chart(slug, path))  # fmt: skip

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
            self._show_error("Cannot save", f"{path}: {exc.strerror or exc}")

    # ---------------------------------------------------------------- misc
    def _restyle_item(self, item: QListWidgetItem) -> None:
        c = theme_manager().colors()
        level = item.data(Qt.ItemDataRole.UserRole)
        color = {"error": c["error"], "warning": c["warning"]}.get(level, c["foreground"])
        item.setForeground(QColor(color))

    def _restyle_messages(self) -> None:
        for i in range(self.message_list.count()):
            self._restyle_item(self.message_list.item(i))

    def showEvent(self, event: object) -> None:
        super().showEvent(event)  # type: ignore[arg-type]
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
        self.log("info", f"Probes now run in {python or 'this app’s own Python'}.")
        if self._lister is not None and self._lister.is_running():
            self._lister.stop()
        self.list_devices()

    def _on_env_added(self, path: str) -> None:
        added = [*self.prefs.python_envs, path][-64:]
        self.prefs = self.prefs.model_copy(update={"python_envs": added})
        self.sig_preferences_changed.emit(self.prefs)


def _preview() -> int:  # pragma: no cover - manual check: python -m gpu_tpu_app.ui.probe_panel [run.json]
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
