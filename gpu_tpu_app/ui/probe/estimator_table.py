"""The estimator table's parts: its columns, the Price in choices, the cells that sort by number,
the delegate that draws an empty price cell as a field to type in, and EstimateTableFill, which
fills EstimatorCard's table (ui/probe/estimator_card.py) from an estimate. Words: Qt's translate() under the
context "EstimatorTable" (constants marked with QT_TRANSLATE_NOOP keep their English text, translated
where shown); the sentences of an estimate are core's (core/estimate/text.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import (
    QHeaderView,
    QLabel,
    QLineEdit,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTableWidget,
    QTableWidgetItem,
    QWidget,
)

from gpu_tpu_app.core.estimate import OWN_FAMILIES, ChipEstimate, Estimate
from gpu_tpu_app.core.estimate.text import (
    cost_lines,
    cost_range,
    cost_rule,
    estimate_cells,
    estimate_inputs,
    estimate_model_lines,
    estimate_warnings,
    layout_cell,
    layout_why,
    memory_header,
    memory_tip,
    memory_units_note,
    mfu_source_words,
    price_origins,
    row_name,
    row_warnings,
    rule_words,
)
from gpu_tpu_app.core.prices import CLOUD_NAMES, format_rate
from gpu_tpu_app.core.texts import text as _text
from gpu_tpu_app.core.wording import MISSING, format_usd, plain_number
from gpu_tpu_app.ui.shell.theme import theme_manager
from gpu_tpu_app.ui.shell.widgets import plain_tip

if TYPE_CHECKING:
    from gpu_tpu_app.core.catalog import Catalog

#: the columns' English headers (their keys); column_headers() gives them in the language in use
EST_COLUMNS = [
    str(QT_TRANSLATE_NOOP("EstimatorTable", "Chip")),
    str(QT_TRANSLATE_NOOP("EstimatorTable", "Kind")),
    str(QT_TRANSLATE_NOOP("EstimatorTable", "Peak used")),
    "MFU",
    str(QT_TRANSLATE_NOOP("EstimatorTable", "Time")),
    str(QT_TRANSLATE_NOOP("EstimatorTable", "Bound")),
    memory_header("en").replace(" needed", "\nneeded"),
    str(QT_TRANSLATE_NOOP("EstimatorTable", "Chips per\ncopy")),
    str(QT_TRANSLATE_NOOP("EstimatorTable", "$/chip-hour")),
    str(QT_TRANSLATE_NOOP("EstimatorTable", "Cost")),
    str(QT_TRANSLATE_NOOP("EstimatorTable", "Spot cost")),
    str(QT_TRANSLATE_NOOP("EstimatorTable", "$/M tokens")),
]
#: the memory column's header as EST_COLUMNS words it (core's MEMORY_HEADER; a test holds them equal)
MEMORY_HEADER_WORDS = str(QT_TRANSLATE_NOOP("EstimatorTable", "Memory\nneeded / available"))


#: serving's latency columns after EST_COLUMNS, as core's text ids ([latency]); shown only when the estimate has
#: latency targets: the largest batch meeting them, the first token, the time per output token, tokens/s a chip,
#: $/M tokens at that batch, and the chips the request rate needs
LATENCY_COLUMNS = ["batch", "ttft", "tpot", "rate", "cost", "chips"]
LATENCY_FIRST = len(EST_COLUMNS)


def column_headers() -> list[str]:
    """The table's headers in the language in use, the latency columns last."""
    main = [QCoreApplication.translate("EstimatorTable", c) for c in EST_COLUMNS]
    return main + [_text(f"estimate.latency.{c}") for c in LATENCY_COLUMNS]


def latency_cells(est: Estimate, row: ChipEstimate) -> list[tuple[str, float | None]]:
    """The latency columns' (text, sort key) for one row: empty without a fit; a missed target says by how much
    in the batch cell."""
    fit = row.latency
    if fit is None:
        return [("", None)] * len(LATENCY_COLUMNS)
    batch: tuple[str, float | None]
    if fit.batch is not None:
        batch = (str(fit.batch), float(fit.batch))
    else:
        why = _text("estimate.inputs.list_separator").join(_text(i, **v) for i, v in fit.missed_texts)
        batch = (_text("estimate.latency.not_met", why=why), None)
    rate = est.request.requests_per_s is not None
    return [
        batch,
        (f"{fit.ttft_ms:.3g} ms", fit.ttft_ms),
        (f"{fit.tpot_ms:.3g} ms" if fit.tpot_ms is not None else MISSING, fit.tpot_ms),
        (f"{fit.tokens_per_s_chip:,.0f}" if fit.tokens_per_s_chip is not None else MISSING, fit.tokens_per_s_chip),
        (format_usd(fit.usd_per_mtok), fit.usd_per_mtok),
        (f"{fit.chips_for_rate:,}" if rate and fit.chips_for_rate is not None else MISSING, fit.chips_for_rate),
    ]


PRICE_COLUMN = EST_COLUMNS.index("$/chip-hour")
COST_COLUMN = EST_COLUMNS.index("Cost")
MEMORY_COLUMN = 6  # what one copy needs / what its chips hold
#: What an empty price cell shows, so it reads as a field to type in.
PRICE_PLACEHOLDER = str(QT_TRANSLATE_NOOP("EstimatorTable", "✎ type $/h"))
PRICE_TIP = str(
    QT_TRANSLATE_NOOP(
        "EstimatorTable",
        "Editable: type the USD price of one {chip} per hour (double-click or start typing); your price wins "
        "over the price tables; empty: the cheapest price known",
    )
)
PROMPT = str(QT_TRANSLATE_NOOP("EstimatorTable", "Type the number of model parameters to see the estimate."))
#: the Price in choice that takes the cheapest price wherever it is.
ANYWHERE = str(QT_TRANSLATE_NOOP("EstimatorTable", "Cheapest anywhere"))


def table_words(english: str) -> str:
    """One of this module's marked constants (PRICE_PLACEHOLDER, PROMPT, ANYWHERE, ...) in the language in use."""
    return QCoreApplication.translate("EstimatorTable", english)


def place_key(cloud: str | None, region: str | None) -> str:
    """A Price in choice as the combo box keeps it: 'aws/us-east-1', 'aws/', '/'."""
    return f"{cloud or ''}/{region or ''}"


def place_of(key: object) -> tuple[str | None, str | None]:
    """(cloud, region) of a place_key; (None, None) for anything else."""
    cloud, _, region = str(key or "/").partition("/")
    return cloud or None, region or None


def place_words(cloud: str | None, region: str | None) -> str:
    """'Cheapest anywhere', 'AWS (any region)', 'Google Cloud us-central1'."""
    if cloud is None:
        return table_words(ANYWHERE)
    name = CLOUD_NAMES.get(cloud, cloud)
    if region:
        return f"{name} {region}"
    return QCoreApplication.translate("EstimatorTable", "{cloud} (any region)").format(cloud=name)


SORT_ROLE = Qt.ItemDataRole.UserRole + 1
#: a row's place in the estimate (fastest first, then by chip id): how cells without a number sort
TIE_ROLE = SORT_ROLE + 1


class SortItem(QTableWidgetItem):
    """A table cell that sorts by a number (SORT_ROLE) when it has one, else by its text."""

    def __lt__(self, other: QTableWidgetItem) -> bool:
        a, b = self.data(SORT_ROLE), other.data(SORT_ROLE)
        if a is not None and b is not None:
            return float(a) < float(b)
        if a is not None or b is not None:
            return b is None  # empty cells last
        ta, tb = self.data(TIE_ROLE), other.data(TIE_ROLE)
        if ta is not None and tb is not None and ta != tb:
            return int(ta) < int(tb)  # the estimate's own order, the same in every language
        return self.text() < other.text()


class PriceDelegate(QStyledItemDelegate):
    """Draws an editable price cell as a field: a placeholder where it is empty, and an editor that says
    what to type."""

    def initStyleOption(self, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex) -> None:
        super().initStyleOption(option, index)
        if index.flags() & Qt.ItemFlag.ItemIsEditable and not option.text:
            option.text = table_words(PRICE_PLACEHOLDER)
            option.font.setItalic(True)
            muted = QColor(theme_manager().colors()["muted"])
            for role in (QPalette.ColorRole.Text, QPalette.ColorRole.HighlightedText):
                option.palette.setColor(role, muted)

    def createEditor(
        self, parent: QWidget, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex
    ) -> QWidget:
        editor = super().createEditor(parent, option, index)
        if isinstance(editor, QLineEdit):
            editor.setPlaceholderText(QCoreApplication.translate("EstimatorTable", "USD per chip-hour, e.g. 2.5"))
        return editor


class EstimateTableFill:
    """EstimatorCard's filling of its table from the estimate: a cell per figure, a tooltip per source."""

    table: QTableWidget
    result: Estimate | None
    message: QLabel
    rules: QLabel
    params_edit: QLineEdit
    _prices: dict[str, float]
    _filling: bool
    _catalog: Catalog | None

    def _fill_table(self) -> None:
        colors = theme_manager().colors()
        self._filling = True
        self.table.setSortingEnabled(False)
        # a ResizeToContents column measures all its cells again after every setItem: 0.6 s of CPU for the 29
        # catalogue rows, 25 times the fill itself; held at Fixed while filling, the columns are sized once after
        header = self.table.horizontalHeader()
        modes = [header.sectionResizeMode(col) for col in range(header.count())]
        header.setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        est = self.result
        rows = est.rows if est else []
        self.table.setRowCount(len(rows))
        for i, row in enumerate(rows):
            c = estimate_cells(row)
            price = self._prices.get(row.chip_id)
            known = row.price.usd if row.price is not None else None
            if row.family in OWN_FAMILIES:
                price_text = MISSING
            elif price is not None:
                price_text = f"{price:g}"
            else:
                price_text = format_rate(known) if known is not None else ""
            cells = [
                (c.chip, None),
                (c.kind, None),
                (c.peak, row.peak_flops),
                (c.mfu, row.mfu),
                (c.time_why, row.days),
                (c.bound, None),
                (c.memory_chip_fit, row.memory_needed_bytes),
                (c.chips_per_copy, row.chips_per_copy),
                (price_text, price if price is not None else known),
                (c.cost, row.cost_usd),
                (cost_range(row, spot=True), row.spot_cost_usd),
                (format_usd(row.usd_per_mtok), row.usd_per_mtok),
            ]
            cost_tip = plain_tip("\n".join(cost_lines(row))) if cost_lines(row) else ""
            for col, (text, key) in enumerate(cells):
                item = SortItem(text)
                item.setData(TIE_ROLE, i)
                if key is not None:
                    item.setData(SORT_ROLE, float(key))
                editable = col == PRICE_COLUMN and row.family not in OWN_FAMILIES
                flags = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable
                if editable:
                    flags |= Qt.ItemFlag.ItemIsEditable
                    item.setData(Qt.ItemDataRole.UserRole, row.chip_id)
                    tip = table_words(PRICE_TIP).format(chip=row_name(row))
                    if row.price is not None:
                        note = row.price.note_words()
                        said = _text("estimate.cost.note", note=note) if note else ""
                        tip = f"{row.price.describe()}{said}\n{tip}"
                    item.setToolTip(plain_tip(tip))
                    item.setBackground(QColor(colors["selection"]))  # a field to type in, not a figure
                    if price is None and row.price is not None:
                        font = item.font()
                        font.setItalic(True)  # a known price, not one the user typed
                        item.setFont(font)
                        if row.price.stale():
                            item.setForeground(QColor(colors["error"]))
                elif col == PRICE_COLUMN:
                    item.setToolTip(
                        QCoreApplication.translate(
                            "EstimatorTable", "A measured device has no price here: costs are for catalogue chips"
                        )
                    )
                item.setFlags(flags)
                if col == 0:
                    own = row.family in OWN_FAMILIES  # its name already says it is measured or your model
                    item.setToolTip(
                        plain_tip(c.chip if own else _text("estimate.row.name_kind", name=c.chip, kind=c.kind))
                    )
                if col == 1:
                    item.setForeground(QColor(colors.get(row.family, colors["accent"])))
                if col == 3:
                    item.setToolTip(plain_tip(mfu_source_words(row, catalog=self._catalog)))
                if col == 4 and row.warnings:
                    item.setToolTip(plain_tip("\n".join(row_warnings(row))))
                if col == 5:
                    item.setToolTip(
                        QCoreApplication.translate(
                            "EstimatorTable",
                            "what limits a decode step: compute, or reading weights and KV cache from memory",
                        )
                        if est and est.request.mode == "inference"
                        else QCoreApplication.translate("EstimatorTable", "training is compute-bound")
                    )
                if col == 6:
                    item.setToolTip(
                        plain_tip(memory_tip(row, training=est is not None and est.request.mode == "training"))
                    )
                    if row.fits is not None:
                        item.setForeground(QColor(colors["ok" if row.fits else "error"]))
                if col == 7 and row.tensor_parallel is not None:
                    item.setToolTip(
                        plain_tip(
                            QCoreApplication.translate(
                                "EstimatorTable",
                                "Layout: {layout} (TP: tensor parallel inside the fast-link group; FSDP: the "
                                "state sharded over that many groups; DP: copies working side by side). Why: {why}",
                            ).format(layout=layout_cell(row), why=layout_why(row))
                        )
                    )
                if col > PRICE_COLUMN and cost_tip:
                    item.setToolTip(cost_tip)
                if col in (2, 3, 4, 6, 7, 8, 9, 10, 11):
                    item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                self.table.setItem(i, col, item)
            if est is not None:
                self._fill_latency(i, est, row)
        targets = any(row.latency is not None for row in rows)
        for n in range(len(LATENCY_COLUMNS)):
            self.table.setColumnHidden(LATENCY_FIRST + n, not targets)
        for col, mode in enumerate(modes):
            header.setSectionResizeMode(col, mode)
        self.table.setSortingEnabled(True)
        if rows:
            self.table.resizeColumnToContents(0)  # full chip names, readable (the column stays resizable)
        self._fit_table_height()
        self._filling = False
        if est is not None:
            sources = self._source_titles(est.sources)
            self.message.setText(
                QCoreApplication.translate(
                    "EstimatorTable",
                    "{inputs}: {flops} FLOPs in all. Fastest first; times run "
                    "from the high to the low MFU (memory-bound decode: from the high to the low bandwidth share).",
                ).format(inputs=estimate_inputs(est), flops=plain_number(est.flops))
            )
            warning = QCoreApplication.translate("EstimatorTable", "Warning: {warning}")
            warnings = "".join("\n" + warning.format(warning=w) for w in estimate_warnings(est))
            model = "".join(f"\n{line}" for line in estimate_model_lines(est))
            self.rules.setText(
                QCoreApplication.translate(
                    "EstimatorTable",
                    "Compute: {compute}.\nMemory: {memory}; {units}.{model}\nCost: {cost}; {origins}.{warnings}\n"
                    "Sources: {sources}.",
                ).format(
                    compute=rule_words(est.rule),
                    memory=rule_words(est.memory_rule),
                    units=memory_units_note(),
                    model=model,
                    cost=cost_rule(),
                    origins=price_origins(est),
                    warnings=warnings,
                    sources=sources,
                )
            )
        else:
            self.rules.setText("")
            if not self.params_edit.text().strip():
                self.message.setText(table_words(PROMPT))

    def _fill_latency(self, i: int, est: Estimate, row: ChipEstimate) -> None:
        """Row i's latency cells, each with the fit's arithmetic (the JSON's) as its tooltip."""
        fit = row.latency
        tip = ""
        if fit is not None:
            tip = plain_tip(f"{_text('estimate.latency.rule')}\n{fit.arithmetic}")
        for n, (words, key) in enumerate(latency_cells(est, row)):
            item = SortItem(words)
            item.setData(TIE_ROLE, i)
            if key is not None:
                item.setData(SORT_ROLE, float(key))
            item.setFlags(Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable)
            if tip:
                item.setToolTip(tip)
            if n > 0 or key is not None:
                item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            elif fit is not None:
                item.setForeground(QColor(theme_manager().colors()["error"]))
            self.table.setItem(i, LATENCY_FIRST + n, item)

    def _fit_table_height(self) -> None:
        """Show every row: the page scrolls, the table does not."""
        rows = max(self.table.rowCount(), 3)
        height = self.table.horizontalHeader().height() + 2 * self.table.frameWidth()
        height += sum(self.table.rowHeight(r) for r in range(self.table.rowCount()))
        height += (rows - self.table.rowCount()) * self.table.verticalHeader().defaultSectionSize()
        if self.table.horizontalScrollBar().isVisible():
            height += self.table.horizontalScrollBar().height()
        self.table.setFixedHeight(height + 2)

    def _source_titles(self, ids: list[str]) -> str:
        titles = []
        for sid in ids:
            try:
                titles.append(self._catalog.source(sid).title if self._catalog else sid)
            except KeyError:
                titles.append(sid)
        return QCoreApplication.translate("EstimatorTable", "; ").join(titles)
