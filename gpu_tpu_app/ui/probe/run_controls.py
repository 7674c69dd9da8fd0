"""The Probe page's run controls: suite, backends, kernels, dtypes, and the Run and Cancel buttons.

They hold what the user chose and turn it into a ProbeRequest; starting and stopping the run is
the page's job (probe_panel.py), told by sig_run_requested and sig_cancel_requested.
The suite menu shows each suite's name in the language in use and keeps its id as the item's data.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, QObject, Qt, Signal
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QHBoxLayout,
    QLabel,
    QMenu,
    QPushButton,
    QStyle,
    QWidget,
)

from gpu_tpu_app.probe.protocol import SUITE_BUDGET_S, ProbeRequest
from gpu_tpu_app.shared.terms import BACKENDS, DTYPES, SUITES, allowed_kernels
from gpu_tpu_app.ui.charts.data import kernel_name
from gpu_tpu_app.ui.probe.results_model import SUITE_WORDS, words
from gpu_tpu_app.ui.shell.widgets import MenuButton

#: each suite in a line (English; suite_help() gives it in the language in use)
SUITE_HELP = {
    "smoke": str(
        QT_TRANSLATE_NOOP("RunControls", "smoke: a few points per kernel, seconds; checks that everything works")
    ),
    "quick": str(QT_TRANSLATE_NOOP("RunControls", "quick: the main sweep within about {seconds} s")),
    "full": str(QT_TRANSLATE_NOOP("RunControls", "full: every kernel and size, up to about {minutes} minutes")),
}


def suite_help(suite: str) -> str:
    """One suite in a line, in the language in use."""
    return QCoreApplication.translate("RunControls", SUITE_HELP[suite]).format(
        seconds=f"{SUITE_BUDGET_S['quick']:.0f}", minutes=f"{SUITE_BUDGET_S['full'] / 60:.0f}"
    )


class CheckMenuButton(MenuButton):
    """A tool button with a menu of checkable choices; none checked means 'all'. Each choice is kept by its id
    and shown as `name(id)` (the kernels' names in the language in use)."""

    def __init__(
        self,
        title: str,
        choices: list[str],
        parent: QWidget | None = None,
        name: Callable[[str], str] = str,
    ) -> None:
        super().__init__(parent=parent)
        self._title = title
        self._name = name
        self.menu_ = QMenu(self)
        self.setMenu(self.menu_)
        self.actions_: dict[str, QAction] = {}
        for c in choices:
            act = QAction(name(c), self.menu_, checkable=True)
            act.toggled.connect(self._update)
            self.menu_.addAction(act)
            self.actions_[c] = act
        self.menu_.addSeparator()
        clear = self.menu_.addAction(self.tr("All (clear the choice)"))
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
        shown = (
            ", ".join(self._name(c) for c in chosen)
            if 0 < len(chosen) <= 2
            else (str(len(chosen)) if chosen else self.tr("all"))
        )
        self.setText(self.tr("{title}: {chosen}").format(title=self._title, chosen=shown))


#: Time budgets offered besides the suite's own (seconds).
BUDGET_CHOICES_S = (30.0, 120.0, 300.0, 600.0, 1200.0, 1800.0)


def format_minutes(seconds: float) -> str:
    """'55 s', '2 min', '10 min'."""
    if seconds < 90:
        return QCoreApplication.translate("RunControls", "{n} s").format(n=f"{seconds:.0f}")
    return QCoreApplication.translate("RunControls", "{n} min").format(n=f"{seconds / 60:.0f}")


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
            self.suite.addItem(words(SUITE_WORDS, s), s)
            self.suite.setItemData(self.suite.count() - 1, suite_help(s), Qt.ItemDataRole.ToolTipRole)
        self.set_suite(default_suite)
        self.suite.setToolTip(
            self.tr("How thorough the probe is: {suites}").format(
                suites=self.tr("; ").join(suite_help(s) for s in SUITE_HELP)
            )
        )
        self.backend_boxes: dict[str, QCheckBox] = {}
        for b in BACKENDS:
            box = QCheckBox(b)
            box.setChecked(True)
            box.setToolTip(self.tr("Probe with {backend} (in its own worker process)").format(backend=b))
            box.toggled.connect(self.sig_backends_changed)
            self.backend_boxes[b] = box
        self.budget = QComboBox()
        self.budget.setAccessibleName(self.tr("Time budget for the run"))
        self.budget.setToolTip(
            self.tr(
                "How long the whole run may take; points that do not fit are left out, and each one left out says so"
            )
        )
        self._fill_budgets()
        self.suite.currentIndexChanged.connect(self._fill_budgets)
        self.kernels = CheckMenuButton(self.tr("Kernels"), list(allowed_kernels()), name=kernel_name)
        self.kernels.setToolTip(self.tr("Limit the run to some kernels (default: every kernel of the suite)"))
        self.dtypes = CheckMenuButton(self.tr("Dtypes"), list(DTYPES))
        self.dtypes.setToolTip(
            self.tr("Limit matmul and friends to some dtypes (default: every dtype the device supports)")
        )
        self.run_button = QPushButton(style.standardIcon(QStyle.StandardPixmap.SP_MediaPlay), self.tr("Run"))
        self.run_button.setToolTip(self.tr("Measure this machine with the chosen suite"))
        self.run_button.clicked.connect(lambda: self.sig_run_requested.emit())
        self.cancel_button = QPushButton(style.standardIcon(QStyle.StandardPixmap.SP_MediaStop), self.tr("Cancel"))
        self.cancel_button.setToolTip(self.tr("Stop now and keep the results measured so far"))
        self.cancel_button.clicked.connect(lambda: self.sig_cancel_requested.emit())

    def _fill_budgets(self, *_args: object) -> None:
        """The time budgets on offer: the suite's own first, then longer and shorter ones; the choice kept."""
        chosen = self.budget.currentData()
        suite_s = SUITE_BUDGET_S.get(self.suite_id(), 60.0)
        self.budget.blockSignals(True)
        self.budget.clear()
        self.budget.addItem(self.tr("suite's ({time})").format(time=format_minutes(suite_s)), None)
        for seconds in BUDGET_CHOICES_S:
            self.budget.addItem(format_minutes(seconds), seconds)
        index = self.budget.findData(chosen)
        self.budget.setCurrentIndex(max(0, index))
        self.budget.blockSignals(False)

    def suite_id(self) -> str:
        """The suite chosen ('smoke', 'quick', 'full')."""
        return str(self.suite.currentData())

    def set_suite(self, suite: str) -> None:
        """Choose a suite by its id (an unknown one leaves the choice as it is)."""
        index = self.suite.findData(suite)
        if index >= 0:
            self.suite.setCurrentIndex(index)

    def budget_s(self) -> float | None:
        """The time budget chosen, in seconds; None: the suite's own."""
        value = self.budget.currentData()
        return float(value) if value is not None else None

    def add_settings(self, bar: QHBoxLayout) -> None:
        """Put the suite, time budget, backend, kernel and dtype choices at the end of `bar`."""
        bar.addWidget(QLabel(self.tr("Suite")))
        bar.addWidget(self.suite)
        time_label = QLabel(self.tr("&Time"))
        time_label.setBuddy(self.budget)
        bar.addWidget(time_label)
        bar.addWidget(self.budget)
        bar.addSpacing(4)
        bar.addWidget(QLabel(self.tr("Backends")))
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
            suite=self.suite_id(),
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
            self.set_suite(suite)
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
