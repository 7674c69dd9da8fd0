"""The Result page's card for the model check's TPU compile: one row per generation and program.

The rows are worded by core.tpu_compile.table_rows (the same words as the CLI and the report); this card
only lays them out, with the compiler's reason or the roofline's working as each row's tooltip.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTableWidget, QTableWidgetItem, QWidget

from gpu_tpu_app.core.catalog import Catalog, load_catalog
from gpu_tpu_app.core.modelcheck import HIGH_PRECISION_FP64, ModelCheck
from gpu_tpu_app.core.note_model import said
from gpu_tpu_app.core.tpu_compile import (
    FLOAT64_NOTE,
    TABLE_HEADERS,
    caveat_lines,
    column_words,
    failure_words,
    next_step,
    table_rows,
)
from gpu_tpu_app.ui.shell.widgets import Card, label

#: TableRow fields in TABLE_HEADERS order.
_FIELDS = (
    "generation",
    "topology",
    "program",
    "outcome",
    "compile_time",
    "arguments",
    "outputs",
    "temporaries",
    "fits",
    "flops",
    "bytes_accessed",
    "step_time",
)


class CompileCard(Card):
    """ "Compiled for TPU generations": hidden until a model check with a compile step is shown."""

    def __init__(self, catalog: Catalog | None = None, parent: QWidget | None = None) -> None:
        super().__init__(QCoreApplication.translate("CompileCard", "Compiled for TPU generations"), parent=parent)
        if catalog is None:
            try:
                catalog = load_catalog()
            except Exception:  # a broken catalogue is reported where it loads; the rows then have no roofline
                catalog = None
        self._catalog = catalog
        self.intro = label("", "muted")
        self.body.addWidget(self.intro)
        self.table = QTableWidget(0, len(TABLE_HEADERS))
        self.table.setHorizontalHeaderLabels(column_words())
        self.table.setAccessibleName(self.tr("Compiled for TPU generations"))
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.verticalHeader().setVisible(False)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.body.addWidget(self.table)
        self.notes = label("", "muted")
        self.body.addWidget(self.notes)
        self.hide()

    def set_check(self, check: ModelCheck | None) -> None:
        """Show the check's table, or hide the card when the check has none."""
        tc = check.tpu_compile if check is not None else None
        if check is None or tc is None:
            self.table.setRowCount(0)
            self.hide()
            return
        name = Path(check.file.replace("\\", "/")).name
        if tc.status != "ok":
            # the same four failures, worded and with the next step, as the CLI's text and the JSON say
            failure = tc.failure_kind() or "not_run"
            detail = f"{failure_words(failure)}: {said(tc, 'detail')} ({next_step(failure)})"
            self.intro.setText(
                self.tr("{file}: not compiled for TPU generations. {detail}").format(file=name, detail=detail)
            )
            self.table.setRowCount(0)
            self.table.hide()
            self.notes.setText("")
            self.show()
            return
        float64 = check.answers.high_precision == HIGH_PRECISION_FP64
        rows = table_rows(tc, self._catalog, float64)
        if tc.chips == 1:
            intro = self.tr(
                "{file}, compiled on this computer by the TPU compiler (libtpu {libtpu}) for "
                "1 chip of each generation, without a TPU. Per chip: "
                "memory from memory_analysis(), work from cost_analysis(); the roofline step is the slower of "
                "FLOPs at the bf16 peak and bytes at the memory bandwidth (catalogue figures). Hover a row for "
                "the compiler's reason or the working."
            )
        else:
            intro = self.tr(
                "{file}, compiled on this computer by the TPU compiler (libtpu {libtpu}) for "
                "{n} chips of each generation, without a TPU. Per chip: "
                "memory from memory_analysis(), work from cost_analysis(); the roofline step is the slower of "
                "FLOPs at the bf16 peak and bytes at the memory bandwidth (catalogue figures). Hover a row for "
                "the compiler's reason or the working."
            )
        self.intro.setText(intro.format(file=name, libtpu=tc.libtpu or "?", n=tc.chips))
        self.table.setRowCount(len(rows))
        for i, row in enumerate(rows):
            for j, field in enumerate(_FIELDS):
                item = QTableWidgetItem(getattr(row, field))
                if row.note:
                    item.setToolTip(row.note)
                self.table.setItem(i, j, item)
        self.table.setFixedHeight(
            self.table.horizontalHeader().height() + sum(self.table.rowHeight(i) for i in range(len(rows))) + 4
        )
        self.table.show()
        layouts = dict.fromkeys(g.sharding for g in tc.generations if g.sharding)
        notes = [self.tr("Layout: {layout}.").format(layout=s) for s in layouts]
        notes += [f"{r.generation} {r.program}: {r.note}" for r in rows if r.status != "compiled" and r.note]
        notes += caveat_lines(rows)  # loops multiplied in, lower bounds, Pallas, precision: as the CLI says them
        if float64 and any(r.step_time.endswith("*") for r in rows):
            notes.append(f"* {FLOAT64_NOTE}.")
        self.notes.setText("\n".join(notes))
        self.show()
