"""The runs shown on the Probe page: the one list that owns them, and the widget that ticks them on and off.

Every run enters through add() (an imported file, a session's runs) with one duplicate rule: a
finished run with the same host and start time is already shown. A run in progress ("live") is
kept apart: it is replaced by its final form when it ends and cannot be removed meanwhile.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QCoreApplication, QPoint, Qt, Signal
from PySide6.QtWidgets import QListWidget, QListWidgetItem, QMenu, QWidget

from gpu_tpu_app.core.runs import RunFile
from gpu_tpu_app.shared.machine import is_this_machine
from gpu_tpu_app.ui.charts.view import ChartRun
from gpu_tpu_app.ui.probe.results_model import SUITE_WORDS, run_label, words
from gpu_tpu_app.ui.shell.widgets import plain_tip


@dataclass
class RunEntry:
    """A run on the page: imported (measured elsewhere), shown in the charts, still running."""

    run: RunFile
    imported: bool
    visible: bool = True
    live: bool = False

    def label(self) -> str:
        """How the run is named in the list, the table and the charts."""
        if self.live:
            return QCoreApplication.translate("RunsList", "this machine · running")
        label = run_label(self.run)
        return (
            QCoreApplication.translate("RunsList", "imported · {label}").format(label=label) if self.imported else label
        )


class RunsList(QListWidget):
    """The runs shown, oldest first, each with a tick box for the charts and a menu to remove it.

    sig_visibility_changed: a run was ticked or unticked; sig_remove_requested(index): the user
    asked to take a run off the page (the page removes it with remove() and redraws).
    """

    sig_visibility_changed = Signal()
    sig_remove_requested = Signal(int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._entries: list[RunEntry] = []
        self.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.customContextMenuRequested.connect(self._menu)
        self.itemChanged.connect(self._on_item_changed)
        self.setToolTip(self.tr("Tick to show a run in the charts; right-click to remove it from the page"))

    # ------------------------------------------------------------ the runs
    def runs(self) -> list[RunFile]:
        """Every finished run (measured here or imported), oldest first."""
        return [e.run for e in self._entries if not e.live]

    def all_runs(self) -> list[RunFile]:
        """Every run shown, a live one included, in the list's order."""
        return [e.run for e in self._entries]

    def labels(self) -> list[str]:
        """The name of each run in all_runs()."""
        return [e.label() for e in self._entries]

    def local_runs(self) -> list[RunFile]:
        """The finished runs measured on this machine, oldest first."""
        return [e.run for e in self._entries if not e.live and not e.imported]

    def chart_runs(self) -> list[ChartRun]:
        """Every run as the charts draw it."""
        return [ChartRun(e.run, e.label(), i, e.imported, e.visible) for i, e in enumerate(self._entries)]

    def add(self, run: RunFile) -> int | None:
        """Show a finished run after the others; None (and no change) when it is already shown."""
        for e in self._entries:
            if not e.live and e.run.host == run.host and e.run.started == run.started:
                return None
        self._entries.append(RunEntry(run, imported=not is_this_machine(run)))
        return len(self._entries) - 1

    def set_runs(self, runs: list[RunFile]) -> None:
        """Show exactly these runs (each through add()); a run in progress stays, last."""
        live = [e for e in self._entries if e.live]
        self._entries = []
        for run in runs:
            self.add(run)
        self._entries += live

    def remove(self, index: int) -> bool:
        """Take a finished run off the list; False when there is none at `index` (or it is running)."""
        if 0 <= index < len(self._entries) and not self._entries[index].live:
            del self._entries[index]
            return True
        return False

    def live_index(self) -> int | None:
        """Where the run in progress is, if any."""
        return next((i for i, e in enumerate(self._entries) if e.live), None)

    def add_live(self, run: RunFile) -> None:
        """Show a run that has just started on this machine."""
        self._entries.append(RunEntry(run, imported=False, live=True))

    def update_live(self, run: RunFile) -> int | None:
        """Replace the run in progress by a newer snapshot of it; its index, None when there is none."""
        i = self.live_index()
        if i is not None:
            self._entries[i].run = run
        return i

    def finish_live(self, run: RunFile) -> None:
        """The run in progress ended as `run` (added at the end when none was shown)."""
        i = self.live_index()
        entry = RunEntry(run, imported=False)
        if i is None:
            self._entries.append(entry)
        else:
            self._entries[i] = entry

    def label(self, index: int) -> str:
        """The name of the run at `index`."""
        return self._entries[index].label()

    def selected_run(self) -> RunFile | None:
        """The finished run picked in the list, else the latest finished one."""
        item = self.currentItem()
        if item is not None:
            e = self._entries[item.data(Qt.ItemDataRole.UserRole)]
            if not e.live:
                return e.run
        finished = self.runs()
        return finished[-1] if finished else None

    # ------------------------------------------------------------ the widget
    def refresh(self) -> None:
        """Show one line per run, the latest current."""
        self.blockSignals(True)
        self.clear()
        for i, e in enumerate(self._entries):
            item = QListWidgetItem(f"#{i + 1} · {e.label()}")  # the number the table's Run column shows
            item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
            item.setCheckState(Qt.CheckState.Checked if e.visible else Qt.CheckState.Unchecked)
            item.setData(Qt.ItemDataRole.UserRole, i)
            devs = ", ".join(sorted({d.name for d in e.run.devices})) or self.tr("no devices")
            item.setToolTip(
                plain_tip(
                    self.tr("{host} · {os}\n{devices}\n{n} results · suite {suite}").format(
                        host=e.run.host,
                        os=e.run.os,
                        devices=devs,
                        n=len(e.run.results),
                        suite=words(SUITE_WORDS, e.run.suite),
                    )
                )
            )
            self.addItem(item)
        self.blockSignals(False)
        if self.count():
            self.setCurrentRow(self.count() - 1)

    def _on_item_changed(self, item: QListWidgetItem) -> None:
        i = item.data(Qt.ItemDataRole.UserRole)
        if isinstance(i, int) and 0 <= i < len(self._entries):
            self._entries[i].visible = item.checkState() == Qt.CheckState.Checked
            self.sig_visibility_changed.emit()

    def _menu(self, pos: QPoint) -> None:
        item = self.itemAt(pos)
        if item is None:
            return
        i = item.data(Qt.ItemDataRole.UserRole)
        menu = QMenu(self)
        remove = menu.addAction(self.tr("Remove from the page"))
        remove.setEnabled(not self._entries[i].live)
        remove.triggered.connect(lambda: self.sig_remove_requested.emit(i))
        menu.popup(self.viewport().mapToGlobal(pos))
