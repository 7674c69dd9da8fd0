"""The estimator card of the result page: inputs for the workload and a table of time, memory fit
and cost across chips (its columns and cells in ui/probe/estimator_table.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pydantic import ValidationError
from PySide6.QtCore import QCoreApplication, Qt, QTimer, Signal
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QGridLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QScrollArea,
    QSpinBox,
    QTableWidget,
    QTableWidgetItem,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from gpu_tpu_app.core.estimate import (
    DEFAULT_BATCH,
    DEFAULT_CONTEXT,
    Estimate,
    EstimateRequest,
    MeasuredDevice,
    estimate,
    parse_quantity,
)
from gpu_tpu_app.core.estimate.rules import RuleError
from gpu_tpu_app.core.estimate.text import memory_units_note
from gpu_tpu_app.core.prices import PriceBook
from gpu_tpu_app.core.tpu_compile import TpuCompile
from gpu_tpu_app.core.wording import format_quantity
from gpu_tpu_app.errors import InputError
from gpu_tpu_app.ui.probe.estimator_inputs import EstimatorInputs
from gpu_tpu_app.ui.probe.estimator_table import (
    ANYWHERE,
    COST_COLUMN,
    EST_COLUMNS,
    MEMORY_COLUMN,
    PRICE_COLUMN,
    PROMPT,
    EstimateTableFill,
    PriceDelegate,
    column_headers,
    place_key,
    place_of,
    place_words,
    table_words,
)
from gpu_tpu_app.ui.shell.theme import theme_manager
from gpu_tpu_app.ui.shell.widgets import Card, label

if TYPE_CHECKING:
    from gpu_tpu_app.core.catalog import Catalog

#: The estimator's inputs: at most this many across, each column about this wide at the least.
INPUT_COLUMNS = 5
INPUT_COLUMN_WIDTH = 170
INPUT_MIN_WIDTH = 120
#: How long the estimator waits after the last keystroke before it estimates again.
TYPING_PAUSE_MS = 350


class EstimatorCard(EstimateTableFill, Card):
    """Inputs for the workload and a table of time, memory fit and cost across chips."""

    sig_request_changed = Signal(object)  # EstimateRequest | None

    def __init__(self, catalog: Catalog | None = None, parent: QWidget | None = None) -> None:
        super().__init__(QCoreApplication.translate("EstimatorCard", "How long would your run take?"), parent=parent)
        self._catalog = catalog
        self._measured: list[MeasuredDevice] = []
        self._compiled: TpuCompile | None = None  # a model check's TPU compile: rows from the model itself
        self._request: EstimateRequest | None = None
        self._prices: dict[str, float] = {}
        self._book: PriceBook | None = None
        self._filling = False
        #: the cloud the wizard's deployment answer names ("gcp"; None: any), which the price filter follows
        #: until the user picks where the price is here (place_touched)
        self._answered_cloud: str | None = None
        self._answered_region: str | None = None
        self.place_touched = False
        self.result: Estimate | None = None
        theme_manager().sig_theme_changed.connect(self._on_theme)

        self.body.addWidget(
            label(
                self.tr(
                    "Type your model's size; time, memory and cost follow for every chip in the catalogue and for "
                    "each device measured in this session's probe runs. Costs use the cheapest price known for "
                    "each chip (hover a price for its source and age; File > Import Prices… adds a SkyPilot or "
                    "gpuhunt catalogue); type your own price per chip-hour in a ✎ cell and it wins."
                ),
                "muted",
            )
        )
        self.advanced_button = QToolButton()
        self.advanced_button.setText(self.tr("Advanced inputs"))
        self.advanced_button.setCheckable(True)
        self.advanced_button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.advanced_button.setArrowType(Qt.ArrowType.RightArrow)
        self.advanced_button.setToolTip(
            self.tr("Show the model's shape, mixture of experts, memory and precision inputs; empty ones keep defaults")
        )
        self.advanced_button.toggled.connect(self._show_advanced)
        self._add_input_grid(self._make_inputs())
        self.body.addWidget(self.advanced_button)
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
        self.params_edit.setPlaceholderText(self.tr("e.g. 7B or 7e9"))
        self.params_edit.setAccessibleName(self.tr("Model parameters"))
        self.tokens_edit = QLineEdit()
        self.tokens_edit.setPlaceholderText(self.tr("20 × parameters"))
        self.tokens_edit.setAccessibleName(self.tr("Tokens"))
        self.tokens_edit.setToolTip(
            self.tr(
                "Training tokens; empty: 20 per parameter (compute-optimal; modern runs train "
                "on 10-100x more). With inference: the tokens to generate."
            )
        )
        self.mode_combo = QComboBox()
        self.mode_combo.addItem(self.tr("Training"), "training")
        self.mode_combo.addItem(self.tr("Inference"), "inference")
        self.mode_combo.setAccessibleName(self.tr("Training or inference"))
        self.chips_spin = QSpinBox()
        self.chips_spin.setRange(1, 1_000_000)
        self.chips_spin.setValue(1)
        self.chips_spin.setAccessibleName(self.tr("Number of chips"))
        self.mfu_edit = QLineEdit()
        self.mfu_edit.setPlaceholderText(self.tr("family default"))
        self.mfu_edit.setAccessibleName(self.tr("Model FLOPs utilisation"))
        self.mfu_edit.setToolTip(self.tr("Model FLOPs utilisation, 0 to 1. Empty: the default per chip family."))
        self.batch_spin = QSpinBox()
        self.batch_spin.setRange(1, 1_000_000)
        self.batch_spin.setValue(DEFAULT_BATCH)
        self.batch_spin.setAccessibleName(self.tr("Batch: sequences decoded together per model copy"))
        self.batch_spin.setToolTip(self.tr("Serving: sequences decoded together by one model copy."))
        self.context_spin = QSpinBox()
        self.context_spin.setRange(1, 100_000_000)
        self.context_spin.setValue(DEFAULT_CONTEXT)
        self.context_spin.setAccessibleName(self.tr("Context length in tokens"))
        self.context_spin.setToolTip(
            self.tr("Tokens per sequence: the KV-cache length when serving, the attention span when training.")
        )
        self.prompt_edit = QLineEdit()
        self.prompt_edit.setPlaceholderText("0")
        self.prompt_edit.setAccessibleName(self.tr("Prompt tokens to prefill"))
        self.prompt_edit.setToolTip(self.tr("Serving: prompt tokens to prefill in all (compute-bound)."))
        self.dtype_combo = QComboBox()
        for value, text in (("bfloat16", "bf16"), ("float8", "fp8"), ("int8", "int8"), ("float32", "fp32")):
            self.dtype_combo.addItem(text, value)
        self.dtype_combo.setAccessibleName(self.tr("Weights and KV-cache type"))
        self.dtype_combo.setToolTip(
            self.tr(
                "Serving: bytes per weight and KV value (bf16 2, fp8 and int8 1, fp32 4). fp8 also uses each chip's "
                "FP8 peak where it is faster, for training too."
            )
        )
        self.place_combo = QComboBox()
        self.place_combo.addItem(table_words(ANYWHERE), place_key(None, None))
        self.place_combo.setAccessibleName(self.tr("Where the price is"))
        self.place_combo.setToolTip(
            self.tr(
                "Cost with the cheapest price anywhere, or in one cloud or region only (the clouds and regions "
                "the price table and your catalogues know)."
            )
        )
        self.shape_edits: dict[str, QLineEdit] = {}
        for key, name in (
            ("layers", self.tr("Layers")),
            ("width", self.tr("Model width")),
            ("heads", self.tr("Heads")),
            ("kv_heads", self.tr("KV heads")),
        ):
            edit = QLineEdit()
            edit.setPlaceholderText(self.tr("from the size"))
            edit.setAccessibleName(name)
            edit.setToolTip(
                self.tr("{name} of the model; empty: from the parameter count at the shape ratio.").format(name=name)
            )
            self.shape_edits[key] = edit
        inputs = [
            (self.tr("&Parameters"), self.params_edit),
            (self.tr("&Tokens"), self.tokens_edit),
            (self.tr("M&ode"), self.mode_combo),
            (self.tr("C&hips"), self.chips_spin),
            (self.tr("MF&U"), self.mfu_edit),
            (self.tr("&Batch"), self.batch_spin),
            (self.tr("Conte&xt"), self.context_spin),
            (self.tr("P&rompt tokens"), self.prompt_edit),
            (self.tr("&Data type"), self.dtype_combo),
            (self.tr("&Layers"), self.shape_edits["layers"]),
            (self.tr("&Width"), self.shape_edits["width"]),
            (self.tr("H&eads"), self.shape_edits["heads"]),
            (self.tr("&KV heads"), self.shape_edits["kv_heads"]),
            (self.tr("Pr&ice in"), self.place_combo),
            *self.model_inputs.labelled(),
        ]
        return inputs

    def _add_input_grid(self, inputs: list[tuple[str, QWidget]]) -> None:
        """The inputs in rows (five across where there is room, fewer on a narrow window), each under its
        label with room for its error under it, so the card never gets wider than the page; the advanced
        ones show when the Advanced inputs button is down."""
        self._form = QGridLayout()
        self._form.setHorizontalSpacing(10)
        self._inputs: list[tuple[QLabel, QWidget]] = []
        self.field_errors: dict[QWidget, QLabel] = {}
        self._boxes: dict[QWidget, QWidget] = {}
        basic = set(self._basic_inputs())
        self._advanced: set[QWidget] = set()
        for text, widget in inputs:
            lab = QLabel(text, self)
            lab.setBuddy(widget)
            lab.setWordWrap(True)
            widget.setMinimumWidth(min(widget.minimumSizeHint().width(), INPUT_MIN_WIDTH))
            box = QWidget(self)
            column = QVBoxLayout(box)
            column.setContentsMargins(0, 0, 0, 0)
            column.setSpacing(2)
            column.addWidget(widget)
            error = label("", "error")
            error.setWordWrap(True)
            error.hide()
            column.addWidget(error)
            self.field_errors[widget] = error
            self._boxes[widget] = box
            if widget not in basic:
                self._advanced.add(widget)
            self._inputs.append((lab, widget))
        self._input_columns = 0
        self._arrange_inputs(INPUT_COLUMNS)
        self.body.addLayout(self._form)

    def _basic_inputs(self) -> list[QWidget]:
        """The inputs shown without the Advanced inputs button: size, tokens, mode, chips, batch, context, data
        type, where the price is, and the fine-tune."""
        return [
            self.params_edit,
            self.tokens_edit,
            self.mode_combo,
            self.chips_spin,
            self.batch_spin,
            self.context_spin,
            self.dtype_combo,
            self.place_combo,
            self.model_inputs.finetune_combo,
        ]

    def _show_advanced(self, shown: bool) -> None:
        self.advanced_button.setArrowType(Qt.ArrowType.DownArrow if shown else Qt.ArrowType.RightArrow)
        columns, self._input_columns = self._input_columns, 0
        self._arrange_inputs(columns or INPUT_COLUMNS)

    def _arrange_inputs(self, columns: int) -> None:
        if columns == self._input_columns:
            return
        self._input_columns = columns
        for lab, widget in self._inputs:
            self._form.removeWidget(lab)
            self._form.removeWidget(self._boxes[widget])
        shown = [
            (lab, widget)
            for lab, widget in self._inputs
            if widget not in self._advanced or self.advanced_button.isChecked()
        ]
        for lab, widget in self._inputs:
            visible = (lab, widget) in shown
            lab.setVisible(visible)
            self._boxes[widget].setVisible(visible)
        for n, (lab, widget) in enumerate(shown):
            row, col = divmod(n, columns)
            self._form.addWidget(lab, 2 * row, col)
            self._form.addWidget(self._boxes[widget], 2 * row + 1, col)
        for col in range(INPUT_COLUMNS):
            self._form.setColumnStretch(col, 1 if col < columns else 0)

    # ------------------------------------------------------------------ errors at their fields

    def _field_widget(self, field: str) -> QWidget | None:
        """The input a request field comes from (None for one without its own input, such as prices)."""
        own = {
            "params": self.params_edit,
            "tokens": self.tokens_edit,
            "mode": self.mode_combo,
            "chips": self.chips_spin,
            "mfu": self.mfu_edit,
            "batch": self.batch_spin,
            "context": self.context_spin,
            "prompt_tokens": self.prompt_edit,
            "dtype": self.dtype_combo,
            **self.shape_edits,
            "active_params": self.model_inputs.active_edit,
            "experts": self.model_inputs.experts_edit,
            "top_k": self.model_inputs.top_k_edit,
            "aspect_ratio": self.model_inputs.aspect_edit,
            "micro_batch": self.model_inputs.micro_spin,
            "checkpointing": self.model_inputs.checkpoint_combo,
            "strict_fp32": self.model_inputs.fp32_check,
            "bw_share": self.model_inputs.share_edit,
            "steps": self.model_inputs.steps_edit,
            "finetune": self.model_inputs.finetune_combo,
            "lora_rank": self.model_inputs.rank_spin,
            **dict(self.model_inputs.latency_edits()),
        }
        return own.get(field)

    def _clear_field_errors(self) -> None:
        for widget, error in self.field_errors.items():
            if error.isVisible() or error.text():
                error.setText("")
                error.hide()
                widget.setStyleSheet("")

    def _field_error(self, widget: QWidget | None, problem: str) -> None:
        """Show `problem` under `widget` with a red frame, open the advanced inputs when it is one of them, and
        scroll the page to it; the card's message says it too."""
        self.message.setText(self.tr("Check the inputs: {problem}").format(problem=problem))
        if widget is None or widget not in self.field_errors:
            return
        if widget in self._advanced and not self.advanced_button.isChecked():
            self.advanced_button.setChecked(True)
        error = self.field_errors[widget]
        error.setText(problem)
        error.show()
        color = theme_manager().colors()["error"]
        widget.setStyleSheet(f"border: 2px solid {color};")
        parent = self.parentWidget()
        while parent is not None and not isinstance(parent, QScrollArea):
            parent = parent.parentWidget()
        if isinstance(parent, QScrollArea):
            parent.ensureWidgetVisible(widget)

    def resizeEvent(self, event: QResizeEvent) -> None:
        self._arrange_inputs(max(2, min(INPUT_COLUMNS, event.size().width() // INPUT_COLUMN_WIDTH)))
        super().resizeEvent(event)

    def _build_table(self) -> None:
        """The estimate table: one row per chip, sortable, with an editable price column."""
        self.table = QTableWidget(0, len(column_headers()))
        self.table.setAccessibleName(self.tr("Estimate for each chip"))
        self.table.setHorizontalHeaderLabels(column_headers())
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
            PRICE_COLUMN: self.tr(
                "Editable: type your own price per chip-hour in USD for any catalogue chip; it wins "
                "over the cheapest price known, which shows otherwise"
            ),
            COST_COLUMN + 1: self.tr("The same run at the cheapest spot (preemptible) price known"),
            COST_COLUMN + 2: self.tr("Serving: the cost per million tokens generated (on-demand; spot in the tooltip)"),
            MEMORY_COLUMN: self.tr(
                "What one model copy needs (training: the whole state, sharded) / what the chips it uses hold; {units}"
            ).format(units=memory_units_note()),
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
        self.place_combo.activated.connect(self._place_chosen)  # the user's own pick, never a programmatic one
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
            self.place_touched = request is not None  # a saved estimate's place, anywhere included, is the user's
            if self.place_combo.findData(place_key(*place)) < 0:
                self.place_combo.addItem(place_words(*place), place_key(*place))
            self.place_combo.setCurrentIndex(self.place_combo.findData(place_key(*place)))
            self._request = request
        finally:
            self._filling = False
        self._refresh()

    def set_price_place(self, cloud: str | None, region: str | None = None) -> None:
        """Price in one cloud (and region), or anywhere with (None, None): the Price in choice, kept where the
        book knows no price there (the rows then say so); the estimate follows. For a caller that knows the
        user's cloud (the wizard's answer)."""
        key = place_key(cloud, region)
        if self.place_combo.findData(key) < 0:
            self.place_combo.addItem(place_words(cloud, region), key)
        self.place_combo.setCurrentIndex(self.place_combo.findData(key))  # currentIndexChanged re-estimates

    def set_price_book(self, book: PriceBook | None) -> None:
        """The prices the costs use where the user typed none (shipped table, local catalogues)."""
        self._book = book
        self._fill_places()
        if not self._follow_cloud():
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

    def _place_chosen(self, _index: int) -> None:
        self.place_touched = True

    def follow_deployment(self, cloud: str | None, region: str | None = None) -> bool:
        """Price the costs in the cloud the wizard's deployment answer names ("gcp" for Google Cloud; None: the
        cheapest anywhere), unless the user picked where the price is here; True when the choice changed."""
        self._answered_cloud = cloud
        self._answered_region = region if cloud is not None else None
        return self._follow_cloud()

    def _follow_cloud(self) -> bool:
        if self.place_touched:
            return False
        index = self.place_combo.findData(place_key(self._answered_cloud, self._answered_region))
        if index < 0:
            index = self.place_combo.findData(place_key(self._answered_cloud, None))
        if index < 0 or index == self.place_combo.currentIndex():
            return False  # no price known in that cloud yet, or already there
        self.place_combo.setCurrentIndex(index)  # the request changes with it (_inputs_changed)
        return True

    def set_compiled(self, compiled: TpuCompile | None) -> None:
        """Rows from the user's own model as the TPU compiler compiled it (a model check), beside the others."""
        self._compiled = compiled
        self._refresh()

    def set_measured(self, devices: list[MeasuredDevice]) -> None:
        """Rows for the devices probed on this machine (and imported runs)."""
        self._measured = list(devices)
        self._refresh()

    def _parse(self) -> EstimateRequest | None:
        self._clear_field_errors()
        text = self.params_edit.text().strip()
        if not text:
            self.message.setText(table_words(PROMPT))
            return None
        where: QWidget | None = self.params_edit  # the input being read, for an error at its field
        try:
            params = parse_quantity(text)
            where = self.tokens_edit
            tokens_text = self.tokens_edit.text().strip()
            tokens = parse_quantity(tokens_text) if tokens_text else None
            where = self.mfu_edit
            mfu_text = self.mfu_edit.text().strip()
            mfu = float(mfu_text) if mfu_text else None
            mode = self.mode_combo.currentData()
            if mode == "inference" and tokens is None:
                self.message.setText(self.tr("Inference: type the number of tokens to serve."))
                return None
            if mode == "training" and tokens is None and self.model_inputs.finetune_combo.currentData():
                self._field_error(
                    self.tokens_edit,
                    self.tr("Fine-tune: type the tokens to train on (your data times the epochs); it has no default."),
                )
                return None
            shape: dict[str, int | None] = {}
            for key, edit in self.shape_edits.items():
                where = edit
                shape_text = edit.text().strip()
                if shape_text and not shape_text.isdigit():
                    raise ValueError(
                        self.tr("{input}: type a whole number, e.g. 32").format(input=edit.accessibleName())
                    )
                shape[key] = int(shape_text) if shape_text else None
            batch = self.batch_spin.value() if mode == "inference" else None
            where = self.prompt_edit
            prompt_text = self.prompt_edit.text().strip()
            prompt = parse_quantity(prompt_text) if (prompt_text and mode == "inference") else None
            context = self.context_spin.value()
            where = None
            model_values = self.model_inputs.values(mode)
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
                dtype=self._dtype(mode),
                price_cloud=place_of(self.place_combo.currentData())[0],
                price_region=place_of(self.place_combo.currentData())[1],
                **model_values,
                **shape,
            )
        except ValidationError as exc:
            err = exc.errors(include_url=False)[0]
            rule = (err.get("ctx") or {}).get("error")
            if isinstance(rule, RuleError):  # a rule across inputs: said in the language in use, at its field
                self._field_error(self._field_widget(rule.field), rule.words())
                return None
            field = str(err["loc"][0]) if err["loc"] else ""
            where_text = ".".join(str(part) for part in err["loc"])
            text = str(err["msg"]).removeprefix("Value error, ")
            problem = self.tr("{field}: {problem}").format(field=where_text, problem=text) if where_text else text
            self._field_error(self._field_widget(field), problem)
            return None
        except ValueError as exc:
            self._field_error(where or self.model_inputs.failing_edit(), str(exc))
            return None
        return request

    def _dtype(self, mode: str) -> str:
        """The data type: any when serving; training takes fp8 (the chips' FP8 peaks) or else bf16."""
        chosen = str(self.dtype_combo.currentData())
        return chosen if mode == "inference" or chosen == "float8" else "bfloat16"

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
                self.message.setText(
                    self.tr("Price for {chip}: type a number of USD per chip-hour, e.g. 2.5").format(chip=chip_id)
                )
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
