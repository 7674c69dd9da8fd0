"""The Probe page's run controls: suite, backends, kernels, dtypes, and the Run and Cancel buttons.

They hold what the user chose and turn it into a ProbeRequest; starting and stopping the run is
the page's job (probe_panel.py), told by sig_run_requested and sig_cancel_requested.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QHBoxLayout,
    QLabel,
    QMenu,
    QPushButton,
    QStyle,
    QToolButton,
    QWidget,
)

from gpu_tpu_app.core.terms import BACKENDS, DTYPES, SUITES, allowed_kernels
from gpu_tpu_app.probe.protocol import SUITE_BUDGET_S, ProbeRequest

SUITE_HELP = {
    "smoke": "smoke: a few points per kernel, seconds; checks that everything works",
    "quick": f"quick: the main sweep within about {SUITE_BUDGET_S['quick']:.0f} s",
    "full": f"full: every kernel and size, up to about {SUITE_BUDGET_S['full'] / 60:.0f} minutes",
}


class CheckMenuButton(QToolButton):
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


#: Time budgets offered besides the suite's own (seconds).
BUDGET_CHOICES_S = (30.0, 120.0, 300.0, 600.0, 1200.0, 1800.0)


def format_minutes(seconds: float) -> str:
    """'55 s', '2 min', '10 min'."""
    return f"{seconds:.0f} s" if seconds < 90 else f"{seconds / 60:.0f} min"


class RunControls(QObject):
    """The widgets that say what to measure; the page lays them out in its tool bar.

    sig_run_requested: the user pressed Run; sig_cancel_requested: the user pressed Cancel;
    sig_backends_changed: a backend was ticked or unticked (Run may become (un)available).
    """

    sig_run_requested = Signal()
    sig_cancel_requested = Signal()
    sig_backends_changed = Signal()

    def __init__(self, default_suite: str, style: QStyle, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.suite = QComboBox()
        for s in SUITES:
            self.suite.addItem(s)
            self.suite.setItemData(self.suite.count() - 1, SUITE_HELP[s], Qt.ItemDataRole.ToolTipRole)
        self.suite.setCurrentText(default_suite)
        self.suite.setToolTip("How thorough the probe is: " + "; ".join(SUITE_HELP.values()))
        self.backend_boxes: dict[str, QCheckBox] = {}
        for b in BACKENDS:
            box = QCheckBox(b)
            box.setChecked(True)
            box.setToolTip(f"Probe with {b} (in its own worker process)")
            box.toggled.connect(self.sig_backends_changed)
            self.backend_boxes[b] = box
        self.budget = QComboBox()
        self.budget.setAccessibleName("Time budget for the run")
        self.budget.setToolTip(
            "How long the whole run may take; points that do not fit are left out, and each one left out says so"
        )
        self._fill_budgets()
        self.suite.currentTextChanged.connect(self._fill_budgets)
        self.kernels = CheckMenuButton("Kernels", list(allowed_kernels()))
        self.kernels.setToolTip("Limit the run to some kernels (default: every kernel of the suite)")
        self.dtypes = CheckMenuButton("Dtypes", list(DTYPES))
        self.dtypes.setToolTip("Limit matmul and friends to some dtypes (default: every dtype the device supports)")
        self.run_button = QPushButton(style.standardIcon(QStyle.StandardPixmap.SP_MediaPlay), "Run")
        self.run_button.setToolTip("Measure this machine with the chosen suite")
        self.run_button.clicked.connect(lambda: self.sig_run_requested.emit())
        self.cancel_button = QPushButton(style.standardIcon(QStyle.StandardPixmap.SP_MediaStop), "Cancel")
        self.cancel_button.setToolTip("Stop now and keep the results measured so far")
        self.cancel_button.clicked.connect(lambda: self.sig_cancel_requested.emit())

    def _fill_budgets(self, *_args: object) -> None:
        """The time budgets on offer: the suite's own first, then longer and shorter ones; the choice kept."""
        chosen = self.budget.currentData()
        suite_s = SUITE_BUDGET_S.get(self.suite.currentText(), 60.0)
        self.budget.blockSignals(True)
        self.budget.clear()
        self.budget.addItem(f"suite's ({format_minutes(suite_s)})", None)
        for seconds in BUDGET_CHOICES_S:
            self.budget.addItem(format_minutes(seconds), seconds)
        index = self.budget.findData(chosen)
        self.budget.setCurrentIndex(max(0, index))
        self.budget.blockSignals(False)

    def budget_s(self) -> float | None:
        """The time budget chosen, in seconds; None: the suite's own."""
        value = self.budget.currentData()
        return float(value) if value is not None else None

    def add_settings(self, bar: QHBoxLayout) -> None:
        """Put the suite, time budget, backend, kernel and dtype choices at the end of `bar`."""
        bar.addWidget(QLabel("Suite"))
        bar.addWidget(self.suite)
        time_label = QLabel("&Time")
        time_label.setBuddy(self.budget)
        bar.addWidget(time_label)
        bar.addWidget(self.budget)
        bar.addSpacing(8)
        bar.addWidget(QLabel("Backends"))
        for box in self.backend_boxes.values():
            bar.addWidget(box)
        bar.addWidget(self.kernels)
        bar.addWidget(self.dtypes)

    def add_buttons(self, bar: QHBoxLayout) -> None:
        """Put the Run and Cancel buttons at the end of `bar`."""
        bar.addWidget(self.run_button)
        bar.addWidget(self.cancel_button)

    def backends(self) -> list[str]:
        """The backends ticked, in the usual order."""
        return [b for b, box in self.backend_boxes.items() if box.isChecked()]

    def request(self, python: str | None) -> ProbeRequest | None:
        """What the user chose, as a request to run in `python`; None when no backend is ticked."""
        backends = self.backends()
        if not backends:
            return None
        return ProbeRequest(
            python=python,
            suite=self.suite.currentText(),
            backends=backends,
            kernels=self.kernels.checked() or None,
            dtypes=self.dtypes.checked() or None,
            budget_s=self.budget_s(),
        )

    def set_selection(
        self,
        backends: list[str] | None = None,
        kernels: list[str] | None = None,
        dtypes: list[str] | None = None,
        suite: str | None = None,
    ) -> None:
        """Set the controls as a user would (None leaves a control as it is; [] means all kernels / dtypes)."""
        if suite is not None:
            self.suite.setCurrentText(suite)
        if backends is not None:
            for b, box in self.backend_boxes.items():
                box.setChecked(b in backends)
        if kernels is not None:
            self.kernels.set_checked(kernels)
        if dtypes is not None:
            self.dtypes.set_checked(dtypes)

    def set_running(self, running: bool) -> None:
        """While a run is in progress only Cancel is available; otherwise Run needs a backend."""
        self.run_button.setEnabled(not running and bool(self.backends()))
        self.cancel_button.setEnabled(running)
        for w in (self.suite, self.budget, self.kernels, self.dtypes, *self.backend_boxes.values()):
            w.setEnabled(not running)
