"""The result of the Decide wizard: verdict gauge, blockers, reasons with sources, what would
change the verdict, next steps, open questions, and the estimator for the user's workload."""

from __future__ import annotations

import html
import itertools
from typing import TYPE_CHECKING

from pydantic import ValidationError
from PySide6.QtCore import QModelIndex, QPersistentModelIndex, Qt, QTimer, Signal
from PySide6.QtGui import QColor, QPalette, QResizeEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QGridLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QSpinBox,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from gpu_tpu_app.core.decision import (
    MIN_ANSWERS_FOR_VERDICT,
    QUESTIONS,
    Recommendation,
    answered_count,
    has_verdict,
)
from gpu_tpu_app.core.estimate import (
    DEFAULT_BATCH,
    DEFAULT_CONTEXT,
    OWN_FAMILIES,
    Estimate,
    EstimateRequest,
    MeasuredDevice,
    estimate,
    parse_quantity,
)
from gpu_tpu_app.core.estimate_text import (
    COST_RULE,
    MEMORY_HEADER,
    MEMORY_UNITS_NOTE,
    cost_lines,
    cost_range,
    estimate_cells,
    estimate_inputs,
    estimate_model_lines,
    estimate_warnings,
    layout_cell,
    memory_tip,
    price_origins,
)
from gpu_tpu_app.core.modelcheck import ModelCheck, measured_note
from gpu_tpu_app.core.next_steps import ACTION_TEXT, window_step
from gpu_tpu_app.core.prices import CLOUD_NAMES, PriceBook, cheapest_step, format_rate
from gpu_tpu_app.core.report import answer_label, factor_label, page_of
from gpu_tpu_app.core.runs import RunFile
from gpu_tpu_app.core.session import measured_devices
from gpu_tpu_app.core.tpu_compile import TpuCompile
from gpu_tpu_app.core.verdict_text import VERDICT_WORDS, headline, verdict_summary
from gpu_tpu_app.core.wording import MISSING, format_quantity, format_usd, plain_number
from gpu_tpu_app.errors import InputError
from gpu_tpu_app.ui.compile_card import CompileCard
from gpu_tpu_app.ui.estimator_inputs import EstimatorInputs
from gpu_tpu_app.ui.gauge import VerdictGauge
from gpu_tpu_app.ui.theme import theme_manager
from gpu_tpu_app.ui.widgets import Card, anchor, clear_layout, label, link_label, plain_tip, scroll_page

if TYPE_CHECKING:
    from gpu_tpu_app.core.catalog import Catalog
    from gpu_tpu_app.core.lesson import LessonPack

#: reasons shown before "show all".
TOP_REASONS = 6
EST_COLUMNS = [
    "Chip",
    "Kind",
    "Peak used",
    "MFU",
    "Time",
    "Bound",
    MEMORY_HEADER.replace(" needed", "\nneeded"),
    "Chips per\ncopy",
    "$/chip-hour",
    "Cost",
    "Spot cost",
    "$/M tokens",
]
PRICE_COLUMN = EST_COLUMNS.index("$/chip-hour")
COST_COLUMN = EST_COLUMNS.index("Cost")
MEMORY_COLUMN = 6  # what one copy needs / what its chips hold
#: What an empty price cell shows, so it reads as a field to type in.
PRICE_PLACEHOLDER = "✎ type $/h"
PRICE_TIP = (
    "Editable: type the USD price of one {chip} per hour (double-click or start typing); your price wins "
    "over the price tables; empty: the cheapest price known"
)
PROMPT = "Type the number of model parameters to see the estimate."
#: the Price in choice that takes the cheapest price wherever it is.
ANYWHERE = "Cheapest anywhere"


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
        return ANYWHERE
    name = CLOUD_NAMES.get(cloud, cloud)
    return f"{name} {region}" if region else f"{name} (any region)"


SORT_ROLE = Qt.ItemDataRole.UserRole + 1


class SortItem(QTableWidgetItem):
    """A table cell that sorts by a number (SORT_ROLE) when it has one, else by its text."""

    def __lt__(self, other: QTableWidgetItem) -> bool:
        a, b = self.data(SORT_ROLE), other.data(SORT_ROLE)
        if a is not None and b is not None:
            return float(a) < float(b)
        if a is not None or b is not None:
            return b is None  # empty cells last
        return self.text() < other.text()


class PriceDelegate(QStyledItemDelegate):
    """Draws an editable price cell as a field: a placeholder where it is empty, and an editor that says
    what to type."""

    def initStyleOption(self, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex) -> None:
        super().initStyleOption(option, index)
        if index.flags() & Qt.ItemFlag.ItemIsEditable and not option.text:
            option.text = PRICE_PLACEHOLDER
            option.font.setItalic(True)
            muted = QColor(theme_manager().colors()["muted"])
            for role in (QPalette.ColorRole.Text, QPalette.ColorRole.HighlightedText):
                option.palette.setColor(role, muted)

    def createEditor(
        self, parent: QWidget, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex
    ) -> QWidget:
        editor = super().createEditor(parent, option, index)
        if isinstance(editor, QLineEdit):
            editor.setPlaceholderText("USD per chip-hour, e.g. 2.5")
        return editor


#: The estimator's inputs: at most this many across, each column about this wide at the least.
INPUT_COLUMNS = 5
INPUT_COLUMN_WIDTH = 170
INPUT_MIN_WIDTH = 120
#: How long the estimator waits after the last keystroke before it estimates again.
TYPING_PAUSE_MS = 350


class EstimatorCard(Card):
    """Inputs for the workload and a table of time, memory fit and cost across chips."""

    sig_request_changed = Signal(object)  # EstimateRequest | None

    def __init__(self, catalog: Catalog | None = None, parent: QWidget | None = None) -> None:
        super().__init__("How long would your run take?", parent=parent)
        self._catalog = catalog
        self._measured: list[MeasuredDevice] = []
        self._compiled: TpuCompile | None = None  # a model check's TPU compile: rows from the model itself
        self._request: EstimateRequest | None = None
        self._prices: dict[str, float] = {}
        self._book: PriceBook | None = None
        self._filling = False
        self.result: Estimate | None = None
        theme_manager().sig_theme_changed.connect(self._on_theme)

        self.body.addWidget(
            label(
                "Type your model's size; time, memory and cost follow for every chip in the catalogue and for "
                "each device measured in this session's probe runs. Costs use the cheapest price known for "
                "each chip (hover a price for its source and age; File > Import Prices… adds a SkyPilot or "
                "gpuhunt catalogue); type your own price per chip-hour in a ✎ cell and it wins.",
                "muted",
            )
        )
        self._add_input_grid(self._make_inputs())
        self.message = label("", "muted")
        self.body.addWidget(self.message)
        self._build_table()
        self.body.addWidget(self.table)
        self.rules = label("", "muted")
        self.body.addWidget(self.rules)
        self._connect_inputs()
        self._refresh()

    def _make_inputs(self) -> list[tuple[str, QWidget]]:
        """The workload's input widgets, as (label text with its mnemonic, widget) in grid order."""
        self.model_inputs = EstimatorInputs()
        self.params_edit = QLineEdit()
        self.params_edit.setPlaceholderText("e.g. 7B or 7e9")
        self.params_edit.setAccessibleName("Model parameters")
        self.tokens_edit = QLineEdit()
        self.tokens_edit.setPlaceholderText("20 × parameters")
        self.tokens_edit.setAccessibleName("Tokens")
        self.tokens_edit.setToolTip(
            "Training tokens; empty: 20 per parameter (compute-optimal; modern runs train "
            "on 10-100x more). With inference: the tokens to generate."
        )
        self.mode_combo = QComboBox()
        self.mode_combo.addItem("Training", "training")
        self.mode_combo.addItem("Inference", "inference")
        self.mode_combo.setAccessibleName("Training or inference")
        self.chips_spin = QSpinBox()
        self.chips_spin.setRange(1, 1_000_000)
        self.chips_spin.setValue(1)
        self.chips_spin.setAccessibleName("Number of chips")
        self.mfu_edit = QLineEdit()
        self.mfu_edit.setPlaceholderText("family default")
        self.mfu_edit.setAccessibleName("Model FLOPs utilisation")
        self.mfu_edit.setToolTip("Model FLOPs utilisation, 0 to 1. Empty: the default per chip family.")
        self.batch_spin = QSpinBox()
        self.batch_spin.setRange(1, 1_000_000)
        self.batch_spin.setValue(DEFAULT_BATCH)
        self.batch_spin.setAccessibleName("Batch: sequences decoded together per model copy")
        self.batch_spin.setToolTip("Serving: sequences decoded together by one model copy.")
        self.context_spin = QSpinBox()
        self.context_spin.setRange(1, 100_000_000)
        self.context_spin.setValue(DEFAULT_CONTEXT)
        self.context_spin.setAccessibleName("Context length in tokens")
        self.context_spin.setToolTip(
            "Tokens per sequence: the KV-cache length when serving, the attention span when training."
        )
        self.prompt_edit = QLineEdit()
        self.prompt_edit.setPlaceholderText("0")
        self.prompt_edit.setAccessibleName("Prompt tokens to prefill")
        self.prompt_edit.setToolTip("Serving: prompt tokens to prefill in all (compute-bound).")
        self.dtype_combo = QComboBox()
        for value, text in (("bfloat16", "bf16"), ("float8", "fp8"), ("int8", "int8"), ("float32", "fp32")):
            self.dtype_combo.addItem(text, value)
        self.dtype_combo.setAccessibleName("Weights and KV-cache type")
        self.dtype_combo.setToolTip("Serving: bytes per weight and KV value (bf16 2, fp8 and int8 1, fp32 4).")
        self.place_combo = QComboBox()
        self.place_combo.addItem(ANYWHERE, place_key(None, None))
        self.place_combo.setAccessibleName("Where the price is")
        self.place_combo.setToolTip(
            "Cost with the cheapest price anywhere, or in one cloud or region only (the clouds and regions "
            "the price table and your catalogues know)."
        )
        self.shape_edits: dict[str, QLineEdit] = {}
        for key, name in (("layers", "Layers"), ("width", "Model width"), ("heads", "Heads"), ("kv_heads", "KV heads")):
            edit = QLineEdit()
            edit.setPlaceholderText("from the size")
            edit.setAccessibleName(name)
            edit.setToolTip(f"{name} of the model; empty: from the parameter count at the shape ratio.")
            self.shape_edits[key] = edit
        inputs = [
            ("&Parameters", self.params_edit),
            ("&Tokens", self.tokens_edit),
            ("M&ode", self.mode_combo),
            ("C&hips", self.chips_spin),
            ("MF&U", self.mfu_edit),
            ("&Batch", self.batch_spin),
            ("Conte&xt", self.context_spin),
            ("P&rompt tokens", self.prompt_edit),
            ("&Data type", self.dtype_combo),
            ("&Layers", self.shape_edits["layers"]),
            ("&Width", self.shape_edits["width"]),
            ("H&eads", self.shape_edits["heads"]),
            ("&KV heads", self.shape_edits["kv_heads"]),
            ("Pr&ice in", self.place_combo),
            *self.model_inputs.labelled(),
        ]
        return inputs

    def _add_input_grid(self, inputs: list[tuple[str, QWidget]]) -> None:
        """The inputs in rows (five across where there is room, fewer on a narrow window), each under its
        label, so the card never gets wider than the page."""
        self._form = QGridLayout()
        self._form.setHorizontalSpacing(10)
        self._inputs: list[tuple[QLabel, QWidget]] = []
        for text, widget in inputs:
            lab = QLabel(text)
            lab.setBuddy(widget)
            lab.setWordWrap(True)
            widget.setMinimumWidth(min(widget.minimumSizeHint().width(), INPUT_MIN_WIDTH))
            self._inputs.append((lab, widget))
        self._input_columns = 0
        self._arrange_inputs(INPUT_COLUMNS)
        self.body.addLayout(self._form)

    def _arrange_inputs(self, columns: int) -> None:
        if columns == self._input_columns:
            return
        self._input_columns = columns
        for lab, widget in self._inputs:
            self._form.removeWidget(lab)
            self._form.removeWidget(widget)
        for n, (lab, widget) in enumerate(self._inputs):
            row, col = divmod(n, columns)
            self._form.addWidget(lab, 2 * row, col)
            self._form.addWidget(widget, 2 * row + 1, col)
        for col in range(INPUT_COLUMNS):
            self._form.setColumnStretch(col, 1 if col < columns else 0)

    def resizeEvent(self, event: QResizeEvent) -> None:
        self._arrange_inputs(max(2, min(INPUT_COLUMNS, event.size().width() // INPUT_COLUMN_WIDTH)))
        super().resizeEvent(event)

    def _build_table(self) -> None:
        """The estimate table: one row per chip, sortable, with an editable price column."""
        self.table = QTableWidget(0, len(EST_COLUMNS))
        self.table.setHorizontalHeaderLabels(EST_COLUMNS)
        self.table.verticalHeader().setVisible(False)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setEditTriggers(
            QAbstractItemView.EditTrigger.DoubleClicked
            | QAbstractItemView.EditTrigger.EditKeyPressed
            | QAbstractItemView.EditTrigger.AnyKeyPressed
        )
        self.table.setAlternatingRowColors(True)
        self.price_delegate = PriceDelegate(self.table)
        self.table.setItemDelegateForColumn(PRICE_COLUMN, self.price_delegate)
        header_tips = {
            PRICE_COLUMN: "Editable: type your own price per chip-hour in USD for any catalogue chip; it wins "
            "over the cheapest price known, which shows otherwise",
            COST_COLUMN + 1: "The same run at the cheapest spot (preemptible) price known",
            COST_COLUMN + 2: "Serving: the cost per million tokens generated (on-demand; spot in the tooltip)",
            MEMORY_COLUMN: "What one model copy needs (training: the whole state, sharded) / what the chips it uses "
            "hold; " + MEMORY_UNITS_NOTE,
        }
        for col, tip in header_tips.items():
            if (head := self.table.horizontalHeaderItem(col)) is not None:
                head.setToolTip(tip)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        # the chip's name: as wide as the longest name after each fill, and the user may drag it wider or narrower
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Interactive)
        header.setStretchLastSection(True)
        header.setSortIndicator(EST_COLUMNS.index("Time"), Qt.SortOrder.AscendingOrder)  # fastest first
        self.table.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.table.itemChanged.connect(self._price_edited)
        self.table.setTabKeyNavigation(False)  # Tab leaves the table; arrows move between cells

    def _connect_inputs(self) -> None:
        # the estimate follows the typing (debounced: once the user pauses), and at once on Enter or leaving
        self._typing = QTimer(self)
        self._typing.setSingleShot(True)
        self._typing.setInterval(TYPING_PAUSE_MS)
        self._typing.timeout.connect(self._inputs_changed)
        for edit in (self.params_edit, self.tokens_edit, self.mfu_edit, self.prompt_edit, *self.shape_edits.values()):
            edit.editingFinished.connect(self._inputs_changed)
            edit.textEdited.connect(self._typing.start)
        self.dtype_combo.currentIndexChanged.connect(self._inputs_changed)
        self.model_inputs.connect(self._inputs_changed)
        self.place_combo.currentIndexChanged.connect(self._inputs_changed)
        self.mode_combo.currentIndexChanged.connect(self._inputs_changed)
        self.chips_spin.valueChanged.connect(self._inputs_changed)
        self.batch_spin.valueChanged.connect(self._inputs_changed)
        self.context_spin.valueChanged.connect(self._inputs_changed)

    # ------------------------------------------------------------------ inputs

    def request(self) -> EstimateRequest | None:
        """The request the inputs describe, or None while they are incomplete."""
        return self._request

    def set_request(self, request: EstimateRequest | None) -> None:
        """Fill the inputs from a saved request without emitting sig_request_changed."""
        self._filling = True
        try:
            self.params_edit.setText(format_quantity(request.params) if request else "")
            self.tokens_edit.setText(format_quantity(request.tokens) if request and request.tokens else "")
            self.mode_combo.setCurrentIndex(1 if request and request.mode == "inference" else 0)
            self.chips_spin.setValue(request.chips if request else 1)
            self.mfu_edit.setText(f"{request.mfu:g}" if request and request.mfu else "")
            self.batch_spin.setValue(request.batch if request and request.batch else DEFAULT_BATCH)
            self.context_spin.setValue(request.context if request and request.context else DEFAULT_CONTEXT)
            for key, edit in self.shape_edits.items():
                value = getattr(request, key) if request else None
                edit.setText(str(value) if value else "")
            self.prompt_edit.setText(
                format_quantity(request.prompt_tokens) if request and request.prompt_tokens else ""
            )
            self.dtype_combo.setCurrentIndex(
                max(0, self.dtype_combo.findData(request.dtype if request else "bfloat16"))
            )
            self.model_inputs.fill(request)
            self._prices = dict(request.prices) if request else {}
            place = (request.price_cloud, request.price_region) if request else (None, None)
            if self.place_combo.findData(place_key(*place)) < 0:
                self.place_combo.addItem(place_words(*place), place_key(*place))
            self.place_combo.setCurrentIndex(self.place_combo.findData(place_key(*place)))
            self._request = request
        finally:
            self._filling = False
        self._refresh()

    def set_price_book(self, book: PriceBook | None) -> None:
        """The prices the costs use where the user typed none (shipped table, local catalogues)."""
        self._book = book
        self._fill_places()
        self._refresh()

    def _fill_places(self) -> None:
        """The Price in choices: anywhere, each cloud, each cloud region the book prices; the chosen one kept."""
        chosen = place_of(self.place_combo.currentData())
        places: list[tuple[str | None, str | None]] = [(None, None)]
        if self._book is not None:
            winners = self._book.winners()
            for cloud in sorted({q.cloud for q in winners}):
                places.append((cloud, None))
                places += [(cloud, r) for r in sorted({q.region for q in winners if q.cloud == cloud})]
        if chosen not in places:
            places.append(chosen)  # from a saved session: kept, even where no price is known now
        self._filling, was = True, self._filling
        try:
            self.place_combo.clear()
            for place in places:
                self.place_combo.addItem(place_words(*place), place_key(*place))
            self.place_combo.setCurrentIndex(places.index(chosen))
        finally:
            self._filling = was

    def set_compiled(self, compiled: TpuCompile | None) -> None:
        """Rows from the user's own model as the TPU compiler compiled it (a model check), beside the others."""
        self._compiled = compiled
        self._refresh()

    def set_measured(self, devices: list[MeasuredDevice]) -> None:
        """Rows for the devices probed on this machine (and imported runs)."""
        self._measured = list(devices)
        self._refresh()

    def _parse(self) -> EstimateRequest | None:
        text = self.params_edit.text().strip()
        if not text:
            self.message.setText(PROMPT)
            return None
        try:
            params = parse_quantity(text)
            tokens_text = self.tokens_edit.text().strip()
            tokens = parse_quantity(tokens_text) if tokens_text else None
            mfu_text = self.mfu_edit.text().strip()
            mfu = float(mfu_text) if mfu_text else None
            mode = self.mode_combo.currentData()
            if mode == "inference" and tokens is None:
                self.message.setText("Inference: type the number of tokens to serve.")
                return None
            shape: dict[str, int | None] = {}
            for key, edit in self.shape_edits.items():
                shape_text = edit.text().strip()
                if shape_text and not shape_text.isdigit():
                    raise ValueError(f"{edit.accessibleName()}: type a whole number, e.g. 32")
                shape[key] = int(shape_text) if shape_text else None
            batch = self.batch_spin.value() if mode == "inference" else None
            prompt_text = self.prompt_edit.text().strip()
            prompt = parse_quantity(prompt_text) if (prompt_text and mode == "inference") else None
            context = self.context_spin.value()
            request = EstimateRequest(
                params=params,
                tokens=tokens,
                mode=mode,
                chips=self.chips_spin.value(),
                mfu=mfu,
                prices=self._prices,
                batch=None if batch == DEFAULT_BATCH else batch,
                context=None if context == DEFAULT_CONTEXT else context,
                prompt_tokens=prompt or None,
                dtype=self.dtype_combo.currentData() if mode == "inference" else "bfloat16",
                price_cloud=place_of(self.place_combo.currentData())[0],
                price_region=place_of(self.place_combo.currentData())[1],
                **self.model_inputs.values(mode),
                **shape,
            )
        except ValidationError as exc:
            err = exc.errors(include_url=False)[0]
            where = ".".join(str(part) for part in err["loc"])
            text = str(err["msg"]).removeprefix("Value error, ")
            self.message.setText(f"Check the inputs: {where + ': ' if where else ''}{text}")
            return None
        except ValueError as exc:
            self.message.setText(f"Check the inputs: {exc}")
            return None
        return request

    def _inputs_changed(self, *_args: object) -> None:
        if self._filling:
            return
        request = self._parse()
        if request != self._request:
            self._request = request
            self.sig_request_changed.emit(request)
        self._refresh()

    def _price_edited(self, item: QTableWidgetItem) -> None:
        if self._filling or item.column() != PRICE_COLUMN:
            return
        chip_id = item.data(Qt.ItemDataRole.UserRole)
        if not chip_id:
            return
        text = item.text().strip().lstrip("$")
        if text:
            try:
                price = float(text)
                if price < 0:
                    raise ValueError
            except ValueError:
                self.message.setText(f"Price for {chip_id}: type a number of USD per chip-hour, e.g. 2.5")
                QTimer.singleShot(0, self._refresh)
                return
            self._prices[chip_id] = price
        else:
            self._prices.pop(chip_id, None)
        QTimer.singleShot(0, self._inputs_changed)

    # ------------------------------------------------------------------ table

    def _refresh(self) -> None:
        request = self._request
        self.result = None
        if request is not None:
            request = request.model_copy(update={"prices": dict(self._prices)})
            try:
                self.result = estimate(request, self._catalog, self._measured, self._book, self._compiled)
            except (ValueError, InputError) as exc:  # e.g. a price for a chip the catalogue lacks
                self.message.setText(str(exc))
        self._fill_table()

    def _on_theme(self, _name: str) -> None:
        self._fill_table()  # the kind and fit columns are coloured

    def _fill_table(self) -> None:
        colors = theme_manager().colors()
        self._filling = True
        self.table.setSortingEnabled(False)
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
                (c.time, row.days),
                (c.bound, None),
                (c.memory_fit, row.memory_needed_bytes),
                (c.chips_per_copy, row.chips_per_copy),
                (price_text, price if price is not None else known),
                (c.cost, row.cost_usd),
                (cost_range(row, spot=True), row.spot_cost_usd),
                (format_usd(row.usd_per_mtok), row.usd_per_mtok),
            ]
            cost_tip = plain_tip("\n".join(cost_lines(row))) if cost_lines(row) else ""
            for col, (text, key) in enumerate(cells):
                item = SortItem(text)
                if key is not None:
                    item.setData(SORT_ROLE, float(key))
                editable = col == PRICE_COLUMN and row.family not in OWN_FAMILIES
                flags = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable
                if editable:
                    flags |= Qt.ItemFlag.ItemIsEditable
                    item.setData(Qt.ItemDataRole.UserRole, row.chip_id)
                    tip = PRICE_TIP.format(chip=row.chip_name)
                    if row.price is not None:
                        tip = (
                            f"{row.price.describe()}" + (f" [{row.price.note}]" if row.price.note else "") + "\n" + tip
                        )
                    item.setToolTip(plain_tip(tip))
                    item.setBackground(QColor(colors["selection"]))  # a field to type in, not a figure
                    if price is None and row.price is not None:
                        font = item.font()
                        font.setItalic(True)  # a known price, not one the user typed
                        item.setFont(font)
                        if row.price.stale():
                            item.setForeground(QColor(colors["error"]))
                elif col == PRICE_COLUMN:
                    item.setToolTip("A measured device has no price here: costs are for catalogue chips")
                item.setFlags(flags)
                if col == 0:
                    item.setToolTip(plain_tip(f"{row.chip_name} ({c.kind})"))
                if col == 1:
                    item.setForeground(QColor(colors.get(row.family, colors["accent"])))
                if col == 3:
                    item.setToolTip(plain_tip(row.mfu_source))
                if col == 4 and row.warnings:
                    item.setToolTip(plain_tip("\n".join(row.warnings)))
                if col == 5:
                    item.setToolTip(
                        "what limits a decode step: compute, or reading weights and KV cache from memory"
                        if est and est.request.mode == "inference"
                        else "training is compute-bound"
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
                            f"One copy: {layout_cell(row)} (tensor parallel inside the fast-link group x pipeline "
                            "stages or sharded data parallel across groups, checkpointing as shown)"
                        )
                    )
                if col > PRICE_COLUMN and cost_tip:
                    item.setToolTip(cost_tip)
                if col in (2, 3, 4, 6, 7, 8, 9, 10, 11):
                    item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                self.table.setItem(i, col, item)
        self.table.setSortingEnabled(True)
        if rows:
            self.table.resizeColumnToContents(0)  # full chip names, readable (the column stays resizable)
        self._fit_table_height()
        self._filling = False
        if est is not None:
            sources = self._source_titles(est.sources)
            self.message.setText(
                f"{estimate_inputs(est)}: {plain_number(est.flops)} FLOPs in all. Fastest first; times run "
                "from the high to the low MFU (memory-bound decode: from the high to the low bandwidth share)."
            )
            warnings = "".join(f"\nWarning: {w}" for w in estimate_warnings(est))
            model = "".join(f"\n{line}" for line in estimate_model_lines(est))
            self.rules.setText(
                f"Compute: {est.rule}.\nMemory: {est.memory_rule}; {MEMORY_UNITS_NOTE}.{model}\nCost: {COST_RULE}; "
                f"{price_origins(est)}.{warnings}\nSources: {sources}."
            )
        else:
            self.rules.setText("")
            if not self.params_edit.text().strip():
                self.message.setText(PROMPT)

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
        return "; ".join(titles)


class ResultPage(QWidget):
    """Everything the engine says about the answers, with links into Learn and back to the wizard."""

    sig_open_topic = Signal(str)  # topic id
    sig_edit_question = Signal(str)  # answer field
    sig_edit_answers = Signal()
    sig_export = Signal()
    sig_estimate_changed = Signal(object)  # EstimateRequest | None
    sig_notes_changed = Signal(str)
    sig_action = Signal(str)  # a next step's action: estimate, probe_quick, compare_chips, check_model, answer

    def __init__(
        self, lesson: LessonPack | None = None, catalog: Catalog | None = None, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.setObjectName("ResultPage")
        self._lesson = lesson
        self._rec: Recommendation | None = None
        self._model_check: ModelCheck | None = None
        self._show_all = False
        self._book: PriceBook | None = None
        self._catalog = catalog

        outer = QVBoxLayout(self)
        outer.setContentsMargins(24, 18, 24, 14)
        outer.setSpacing(10)
        outer.addLayout(self._build_top_bar())

        body = QWidget()
        col = QVBoxLayout(body)
        col.setContentsMargins(0, 0, 8, 8)
        col.setSpacing(12)
        columns = QHBoxLayout()
        columns.setSpacing(12)
        left = QVBoxLayout()
        left.setSpacing(12)
        right = QVBoxLayout()
        right.setSpacing(12)
        columns.addLayout(left, 3)
        columns.addLayout(right, 2)
        col.addLayout(columns)
        self._build_left_column(left)
        self._build_right_column(right)

        self.compile_card = CompileCard(catalog)
        col.addWidget(self.compile_card)
        self.estimator = EstimatorCard(catalog)
        self.estimator.sig_request_changed.connect(self.sig_estimate_changed)
        col.addWidget(self.estimator)
        col.addStretch(1)
        self.scroll_area = scroll_page(body)
        outer.addWidget(self.scroll_area, 1)
        theme_manager().sig_theme_changed.connect(self._rerender)

    def _build_top_bar(self) -> QHBoxLayout:
        """The page title and its two buttons: Change answers, Export report."""
        top = QHBoxLayout()
        top.addWidget(label("Recommendation", "title", wrap=False))
        top.addStretch(1)
        self.edit_button = QPushButton("&Change answers")
        self.edit_button.clicked.connect(self.sig_edit_answers)
        self.export_button = QPushButton("&Export report…")
        self.export_button.clicked.connect(self.sig_export)
        top.addWidget(self.edit_button)
        top.addWidget(self.export_button)
        return top

    def _build_left_column(self, left: QVBoxLayout) -> None:
        """Verdict and gauge, hard constraints, strongest reasons."""
        self.verdict_card = Card()
        self.headline = label("", "heading")
        self.summary = label("", "muted")
        self.gauge = VerdictGauge()
        self.verdict_card.body.addWidget(self.headline)
        self.verdict_card.body.addWidget(self.summary)
        self.verdict_card.body.addWidget(self.gauge)
        left.addWidget(self.verdict_card)

        self.blockers_card = Card("Hard constraints", kind="blocker")
        self.blockers_box = QVBoxLayout()
        self.blockers_card.body.addLayout(self.blockers_box)
        left.addWidget(self.blockers_card)

        self.reasons_card = Card("Strongest reasons")
        self.reasons_box = QVBoxLayout()
        self.reasons_box.setSpacing(10)
        self.reasons_card.body.addLayout(self.reasons_box)
        self.more_link = link_label("")
        self.more_link.linkActivated.connect(self._toggle_all)
        self.reasons_card.body.addWidget(self.more_link)
        left.addWidget(self.reasons_card)
        left.addStretch(1)

    def _build_right_column(self, right: QVBoxLayout) -> None:
        """What would change this, next steps, open questions, notes."""
        self.flips_card = Card("What would change this")
        self.flips_label = link_label("")
        self.flips_label.linkActivated.connect(self._link)
        self.flips_card.body.addWidget(self.flips_label)
        right.addWidget(self.flips_card)

        self.steps_card = Card("Next steps")
        self.steps_label = link_label("")
        self.steps_label.linkActivated.connect(self._link)
        self.steps_card.body.addWidget(self.steps_label)
        right.addWidget(self.steps_card)

        self.open_card = Card("Open questions")
        self.open_label = link_label("")
        self.open_label.linkActivated.connect(self._link)
        self.open_card.body.addWidget(self.open_label)
        right.addWidget(self.open_card)

        self.notes_card = Card("Notes")
        self.notes_edit = QPlainTextEdit()
        self.notes_edit.setPlaceholderText("Your notes on this decision; saved with the session and in the report.")
        self.notes_edit.setAccessibleName("Notes")
        self.notes_edit.setTabChangesFocus(True)
        self.notes_edit.setFixedHeight(90)
        self.notes_edit.textChanged.connect(lambda: self.sig_notes_changed.emit(self.notes_edit.toPlainText()))
        self.notes_card.body.addWidget(self.notes_edit)
        right.addWidget(self.notes_card)
        right.addStretch(1)

    # ------------------------------------------------------------------ data in

    def set_recommendation(self, rec: Recommendation) -> None:
        """Show a recommendation; an answer that the work needs strict fp32 checks the estimator's box
        (TPUs then run at 3-6 bf16 passes), unless the user set that box there."""
        self._rec = rec
        strict = any(r.factor == "high_precision" and r.answer == "fp32" for r in rec.reasons)
        self.estimator.model_inputs.follow_answer(strict)
        self._render()

    def recommendation(self) -> Recommendation | None:
        """The recommendation shown."""
        return self._rec

    def set_runs(self, runs: list[RunFile]) -> None:
        """Probe runs of the session: their best matmul per device becomes an estimator row."""
        self.estimator.set_measured(measured_devices(runs))

    def set_notes(self, notes: str) -> None:
        """Notes from the session, without emitting sig_notes_changed."""
        if notes != self.notes_edit.toPlainText():
            self.notes_edit.blockSignals(True)
            self.notes_edit.setPlainText(notes)
            self.notes_edit.blockSignals(False)

    def set_estimate_request(self, request: EstimateRequest | None) -> None:
        """Estimator inputs from the session."""
        self.estimator.set_request(request)

    def set_price_book(self, book: PriceBook | None) -> None:
        """The prices the estimator costs with and the next steps name the cheapest places from."""
        self._book = book
        self.estimator.set_price_book(book)
        if self._rec is not None:
            self._render_steps(self._rec)

    def _cheapest_step(self, rec: Recommendation) -> str | None:
        if (
            self._book is None
            or self._catalog is None
            or not has_verdict(rec)
            or (rec.blockers and rec.verdict == "tpu")
        ):
            return None
        chips = [(c.id, c.name, c.family) for c in self._catalog.chips]
        return cheapest_step(self._book, chips, rec.verdict)

    # ------------------------------------------------------------------ rendering

    def _rerender(self, *_args: object) -> None:
        self._render()

    def _source_titles(self, ids: list[str]) -> list[str]:
        if self._lesson is None:
            return list(ids)
        return [text for _key, text, _url in self._lesson.citations_for(ids)]

    def _topic_title(self, topic: str) -> str:
        if self._lesson is not None:
            try:
                return self._lesson.topic(topic).title
            except KeyError:
                pass
        return topic

    def _lean_html(self, leans: str) -> str:
        c = theme_manager().colors()
        word = {"gpu": "GPU", "tpu": "TPU"}.get(leans, leans)
        return f'<span style="color:{c.get(leans, c["foreground"])}; font-weight:600">{word}</span>'

    def set_model_check(self, check: ModelCheck | None) -> None:
        """The model check whose evidence is shown beside the reasons it feeds."""
        self._model_check = check
        self.compile_card.set_check(check)
        self.estimator.set_compiled(check.tpu_compile if check is not None else None)
        self._render()

    def _item_html(self, message: str, factor: str, answer: str, sources: list[str], topic: str, lean: str) -> str:
        c = theme_manager().colors()
        src = "; ".join(html.escape(t) for t in self._source_titles(sources))
        note = measured_note(self._model_check, factor, answer)
        measured = f'<br><span style="color:{c["ok"]}">{html.escape(note)}</span>' if note else ""
        return (
            f"{self._lean_html(lean)}&nbsp; {html.escape(message)}<br>"
            f'<span style="color:{c["muted"]}">Your answer: {html.escape(factor_label(factor))}: '
            f"{html.escape(answer_label(factor, answer))}{measured}<br>Sources: {src}</span><br>"
            f"{anchor('topic:' + topic, 'Open in Learn: ' + self._topic_title(topic))} →"
        )

    def _render(self) -> None:
        rec = self._rec
        if rec is None:
            return
        ready = self._render_verdict(rec)
        self.gauge.setVisible(ready)
        self.flips_card.setVisible(ready)
        self.steps_card.setVisible(ready and bool(rec.steps))
        self._render_blockers(rec)
        self._render_reasons(rec)
        self._render_flips(rec)
        self._render_steps(rec)
        self._render_open_questions(rec)
        self._reading_order()

    def _render_verdict(self, rec: Recommendation) -> bool:
        """Headline, summary and gauge; False while there are too few answers for a verdict."""
        ready = has_verdict(rec)
        if ready:
            self.headline.setText(headline(rec))
            self.summary.setText(verdict_summary(rec))
            self.gauge.set_value(rec.score, rec.verdict, rec.confidence)
        else:
            n = answered_count(rec)
            self.headline.setText("No verdict yet")
            self.summary.setText(
                f"{n} of {len(QUESTIONS)} questions answered: answer at least {MIN_ANSWERS_FOR_VERDICT} "
                "(any of them; every one can be skipped) and the verdict appears here."
            )
        return ready

    def _render_blockers(self, rec: Recommendation) -> None:
        clear_layout(self.blockers_box)
        self.blockers_card.setVisible(bool(rec.blockers))
        for b in rec.blockers:
            lab = link_label(self._item_html(b.message, b.factor, b.answer, b.sources, b.topic, b.verdict))
            lab.linkActivated.connect(self._link)
            self.blockers_box.addWidget(lab)

    def _render_reasons(self, rec: Recommendation) -> None:
        """The strongest reasons (all of them after Show more)."""
        clear_layout(self.reasons_box)
        shown = rec.reasons if self._show_all else rec.reasons[:TOP_REASONS]
        if not rec.reasons:
            self.reasons_box.addWidget(
                label("No answer leans either way yet. Answer the questions to see reasons here.", "muted")
            )
        for r in shown:
            lab = link_label(self._item_html(r.message, r.factor, r.answer, r.sources, r.topic, r.leans))
            lab.setToolTip(f"weight {r.weight:g}")
            lab.linkActivated.connect(self._link)
            self.reasons_box.addWidget(lab)
        hidden = len(rec.reasons) - TOP_REASONS
        if hidden > 0:
            self.more_link.setText(anchor("more:", "Show fewer" if self._show_all else f"Show {hidden} more"))
            self.more_link.show()
        else:
            self.more_link.hide()

    def _render_flips(self, rec: Recommendation) -> None:
        """The single answer changes that would change the verdict."""
        if rec.flips:
            c = theme_manager().colors()
            items = []
            for f in rec.flips:
                verdict = VERDICT_WORDS.get(f.verdict, f.verdict)
                col = c.get(f.verdict, c["foreground"])
                items.append(
                    f"<li>{anchor('question:' + f.factor, factor_label(f.factor))}: "
                    f"{html.escape(answer_label(f.factor, f.to))} instead of "
                    f"{html.escape(answer_label(f.factor, f.from_))} → "
                    f'<span style="color:{col}; font-weight:600">{html.escape(verdict)}</span></li>'
                )
            self.flips_label.setText("<ul style='margin-left:-20px'>" + "".join(items) + "</ul>")
        else:
            self.flips_label.setText("No single answer change would change this verdict.")

    def _render_steps(self, rec: Recommendation) -> None:
        """Next steps, each with its in-app action when it has one; the cheapest places to rent the
        verdict's chips last, when prices are known."""
        step_items = []
        for step in rec.steps:
            ws = window_step(step)
            link = f"<br>{anchor('action:' + ws.action, ACTION_TEXT[ws.action])} →" if ws.action else ""
            step_items.append(f"<li>{html.escape(ws.text)}{link}</li>")
        cheapest = self._cheapest_step(rec)
        if cheapest is not None:
            link = f"<br>{anchor('action:estimate', ACTION_TEXT['estimate'])} →"
            step_items.append(f"<li>{html.escape(cheapest)}{link}</li>")
        self.steps_label.setText("<ol style='margin-left:-20px'>" + "".join(step_items) + "</ol>")

    def _render_open_questions(self, rec: Recommendation) -> None:
        self.open_card.setVisible(bool(rec.unanswered))
        if rec.unanswered:
            c = theme_manager().colors()
            items = [
                f"<li>{anchor('question:' + f, factor_label(f))} "
                f'<span style="color:{c["muted"]}">({html.escape(page_of(f))})</span></li>'
                for f in rec.unanswered
            ]
            self.open_label.setText(
                f"{len(rec.unanswered)} question{'s' if len(rec.unanswered) != 1 else ''} skipped; "
                "each one answered makes the verdict firmer."
                "<ul style='margin-left:-20px'>" + "".join(items) + "</ul>"
            )

    def _reading_order(self) -> None:
        """Tab follows reading order: the buttons, the left column (blockers, reasons), the right column
        (flips, next steps, open questions, notes), then the estimator's inputs and its table."""

        def links(box: QVBoxLayout) -> list[QWidget]:
            return [
                w
                for i in range(box.count())
                if (it := box.itemAt(i)) is not None
                and isinstance(w := it.widget(), QLabel)
                and w.focusPolicy() != Qt.FocusPolicy.NoFocus
            ]

        chain: list[QWidget] = [
            self.edit_button,
            self.export_button,
            *links(self.blockers_box),
            *links(self.reasons_box),
            self.more_link,
            self.flips_label,
            self.steps_label,
            self.open_label,
            self.notes_edit,
        ]
        estimator: list[QWidget] = []
        w: QWidget | None = self.estimator.params_edit
        while w is not None and w not in estimator and self.estimator.isAncestorOf(w):
            if w.focusPolicy() & Qt.FocusPolicy.TabFocus:
                estimator.append(w)
            w = w.nextInFocusChain()
        chain += estimator
        for first, second in itertools.pairwise(chain):
            QWidget.setTabOrder(first, second)

    def _toggle_all(self, _href: str) -> None:
        self._show_all = not self._show_all
        self._render()

    def _link(self, href: str) -> None:
        kind, _, value = href.partition(":")
        if kind == "topic":
            self.sig_open_topic.emit(value)
        elif kind == "question":
            self.sig_edit_question.emit(value)
        elif kind == "action" and value == "estimate":
            self.focus_estimator()
        elif kind == "action":
            self.sig_action.emit(value)

    def focus_estimator(self) -> None:
        """Scroll to the estimator and put the cursor in its first input."""
        self.scroll_area.ensureWidgetVisible(self.estimator, 0, 0)
        self.estimator.params_edit.setFocus(Qt.FocusReason.OtherFocusReason)


if __name__ == "__main__":  # a page on its own: python -m gpu_tpu_app.ui.result_page
    import sys

    from PySide6.QtWidgets import QApplication

    from gpu_tpu_app.core.catalog import load_catalog
    from gpu_tpu_app.core.decision import Answers, decide
    from gpu_tpu_app.core.lesson import load_lesson

    app = QApplication(sys.argv)
    theme_manager().apply("system")
    page = ResultPage(load_lesson(), load_catalog())
    page.set_recommendation(decide(Answers(framework="jax", stage="production", deployment="google_cloud")))
    page.set_estimate_request(EstimateRequest(params=7e9, chips=8))
    page.resize(1100, 800)
    page.show()
    sys.exit(app.exec())
