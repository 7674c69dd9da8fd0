"""The estimator's model inputs beyond size and shape: mixture of experts, the default shape's ratio,
training memory (micro-batch, checkpointing), strict fp32, the decode share of bandwidth, serving's latency
targets (first token, per output token, requests a second, output length) and the goodputs.

EstimatorCard (ui/result/result_page.py) lays these widgets out with its own and asks for their values;
the estimate itself is core's (core/estimate.py). Every field maps to one EstimateRequest field,
and an empty or default widget leaves that field at its default. Its words go through Qt's translate()
under the context "EstimatorInputs" (it is not a QObject).
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication
from PySide6.QtWidgets import QCheckBox, QComboBox, QLineEdit, QSpinBox, QWidget

from gpu_tpu_app.core.estimate import DEFAULT_MICRO_BATCH, EstimateRequest, parse_quantity
from gpu_tpu_app.core.transformer import DEFAULT_ASPECT_RATIO
from gpu_tpu_app.core.wording import format_quantity

#: checkpointing choices as the combo box shows them, in EstimateRequest's words
CHECKPOINTING_WORDS = (
    ("auto", str(QT_TRANSLATE_NOOP("EstimatorInputs", "auto (fastest that fits)"))),
    ("none", str(QT_TRANSLATE_NOOP("EstimatorInputs", "none"))),
    ("selective", str(QT_TRANSLATE_NOOP("EstimatorInputs", "selective"))),
    ("full", str(QT_TRANSLATE_NOOP("EstimatorInputs", "full"))),
)
#: what a training run trains, as the combo box shows it, in EstimateRequest's words ("": pre-training)
FINETUNE_WORDS = (
    ("", str(QT_TRANSLATE_NOOP("EstimatorInputs", "pre-training"))),
    ("full", str(QT_TRANSLATE_NOOP("EstimatorInputs", "full fine-tune"))),
    ("lora", str(QT_TRANSLATE_NOOP("EstimatorInputs", "LoRA"))),
    ("qlora", str(QT_TRANSLATE_NOOP("EstimatorInputs", "QLoRA (4-bit weights)"))),
)
#: LoRA / QLoRA adapter rank when none is chosen (EstimateRequest's default)
DEFAULT_LORA_RANK = 16


class EstimatorInputs:
    """The widgets, how they read into request fields, and how a saved request fills them back."""

    def __init__(self) -> None:
        self.active_edit = QLineEdit()
        self.active_edit.setPlaceholderText(QCoreApplication.translate("EstimatorInputs", "all (dense)"))
        self.active_edit.setAccessibleName(QCoreApplication.translate("EstimatorInputs", "Active parameters per token"))
        self.active_edit.setToolTip(
            QCoreApplication.translate(
                "EstimatorInputs",
                "Mixture of experts: the parameters each token uses, e.g. 12.9B of Mixtral's 46.7B. FLOPs follow "
                "these; memory follows all the parameters. Empty: a dense model.",
            )
        )
        self.experts_edit = QLineEdit()
        self.experts_edit.setPlaceholderText(QCoreApplication.translate("EstimatorInputs", "none"))
        self.experts_edit.setAccessibleName(QCoreApplication.translate("EstimatorInputs", "Experts per layer"))
        self.experts_edit.setToolTip(
            QCoreApplication.translate(
                "EstimatorInputs",
                "Mixture of experts: experts per layer. With experts per token, a decode step reads the experts "
                "the batch routes to (more at larger batch).",
            )
        )
        self.top_k_edit = QLineEdit()
        self.top_k_edit.setPlaceholderText(QCoreApplication.translate("EstimatorInputs", "none"))
        self.top_k_edit.setAccessibleName(QCoreApplication.translate("EstimatorInputs", "Experts per token (top-k)"))
        self.top_k_edit.setToolTip(
            QCoreApplication.translate(
                "EstimatorInputs", "Mixture of experts: experts each token is routed to (top-k)."
            )
        )
        self.aspect_edit = QLineEdit()
        self.aspect_edit.setPlaceholderText(f"{DEFAULT_ASPECT_RATIO:g}")
        self.aspect_edit.setAccessibleName(
            QCoreApplication.translate("EstimatorInputs", "Width to layers ratio of the default shape")
        )
        self.aspect_edit.setToolTip(
            QCoreApplication.translate(
                "EstimatorInputs",
                "The default shape follows the parameter count at this width / layers ratio (N = 12 x layers x "
                "width^2); empty: {ratio}, as GPT-3 and Llama 3 use. Shape fields you type win.",
            ).format(ratio=f"{DEFAULT_ASPECT_RATIO:g}")
        )
        self.micro_spin = QSpinBox()
        self.micro_spin.setRange(1, 100_000)
        self.micro_spin.setValue(DEFAULT_MICRO_BATCH)
        self.micro_spin.setAccessibleName(
            QCoreApplication.translate("EstimatorInputs", "Training micro-batch: sequences per step of one copy")
        )
        self.micro_spin.setToolTip(
            QCoreApplication.translate(
                "EstimatorInputs", "Training: sequences one copy processes per micro-step; sets the activations."
            )
        )
        self.checkpoint_combo = QComboBox()
        for value, text in CHECKPOINTING_WORDS:
            self.checkpoint_combo.addItem(QCoreApplication.translate("EstimatorInputs", text), value)
        self.checkpoint_combo.setAccessibleName(
            QCoreApplication.translate("EstimatorInputs", "Activation checkpointing")
        )
        self.checkpoint_combo.setToolTip(
            QCoreApplication.translate(
                "EstimatorInputs",
                "Training: activation recomputation (Korthikanti et al. 2022). none keeps every activation; "
                "selective recomputes the attention core; full keeps each layer's input and repeats the forward "
                "pass. auto: the layout search takes the fastest that fits each chip.",
            )
        )
        self.finetune_combo = QComboBox()
        for value, words in FINETUNE_WORDS:
            self.finetune_combo.addItem(QCoreApplication.translate("EstimatorInputs", words), value)
        self.finetune_combo.setAccessibleName(QCoreApplication.translate("EstimatorInputs", "Training or fine-tune"))
        self.finetune_combo.setToolTip(
            QCoreApplication.translate(
                "EstimatorInputs",
                "Training: pre-training, or a fine-tune of every weight (16 B each), or LoRA / QLoRA adapters on "
                "frozen weights (bf16, or 4-bit for QLoRA: no weight gradients, about 4 x N x D FLOPs). A fine-tune "
                "needs its tokens: your data times the epochs.",
            )
        )
        self.rank_spin = QSpinBox()
        self.rank_spin.setRange(1, 65_536)
        self.rank_spin.setValue(DEFAULT_LORA_RANK)
        self.rank_spin.setAccessibleName(QCoreApplication.translate("EstimatorInputs", "LoRA adapter rank"))
        self.rank_spin.setToolTip(
            QCoreApplication.translate(
                "EstimatorInputs", "LoRA / QLoRA: the adapters' rank r; 18 x r x width trained parameters a layer."
            )
        )
        self.fp32_check = QCheckBox(QCoreApplication.translate("EstimatorInputs", "needs strict fp32"))
        self.fp32_touched = False  # the user toggled it here: a wizard answer no longer sets it
        self.fp32_check.clicked.connect(self._fp32_clicked)
        self.fp32_check.setAccessibleName(
            QCoreApplication.translate("EstimatorInputs", "The workload needs strict fp32 matmuls")
        )
        self.fp32_check.setToolTip(
            QCoreApplication.translate(
                "EstimatorInputs",
                "Full fp32 matrix products: GPUs at their FP32 peak (no TF32), TPUs at their bf16 peak over 3 to 6 "
                "bf16 passes (precision=HIGH to HIGHEST).",
            )
        )
        self.steps_edit = QLineEdit()
        self.steps_edit.setPlaceholderText(QCoreApplication.translate("EstimatorInputs", "from a model check"))
        self.steps_edit.setAccessibleName(
            QCoreApplication.translate("EstimatorInputs", "Steps of your compiled model to run")
        )
        self.steps_edit.setToolTip(
            QCoreApplication.translate(
                "EstimatorInputs",
                "With a model check that compiled your model for TPUs: the steps (training steps, or forward passes "
                "when serving) to run, for the time of the rows from your model; empty: their step time only.",
            )
        )
        self.share_edit = QLineEdit()
        self.share_edit.setPlaceholderText(QCoreApplication.translate("EstimatorInputs", "measured 0.65-0.80"))
        self.share_edit.setAccessibleName(
            QCoreApplication.translate("EstimatorInputs", "Share of nominal bandwidth decode reaches")
        )
        self.share_edit.setToolTip(
            QCoreApplication.translate(
                "EstimatorInputs",
                "Serving: the share of a chip's nominal memory bandwidth a decode step reaches, 0 to 1. Empty: the "
                "catalogue's measured range.",
            )
        )

        self._latency_widgets()

    def _latency_widgets(self) -> None:
        """Serving's latency targets and the goodputs (EstimateRequest's ttft_ms, tpot_ms, requests_per_s,
        output_len, goodput and spot_goodput)."""

        def edit(placeholder: str, name: str, tip: str) -> QLineEdit:
            widget = QLineEdit()
            widget.setPlaceholderText(placeholder)
            widget.setAccessibleName(name)
            widget.setToolTip(tip)
            return widget

        self.ttft_edit = edit(
            QCoreApplication.translate("EstimatorInputs", "no target"),
            QCoreApplication.translate("EstimatorInputs", "Time to the first token target, ms"),
            QCoreApplication.translate(
                "EstimatorInputs",
                "Serving: the first token of a request within this many milliseconds (its prompt prefilled alone, "
                "compute-bound). With a target the table shows the largest batch that meets it on each chip.",
            ),
        )
        self.tpot_edit = edit(
            QCoreApplication.translate("EstimatorInputs", "no target"),
            QCoreApplication.translate("EstimatorInputs", "Time per output token target, ms"),
            QCoreApplication.translate(
                "EstimatorInputs",
                "Serving: each further token within this many milliseconds: the largest batch whose decode step "
                "(max of compute and bytes / bandwidth) stays within it and whose KV cache fits.",
            ),
        )
        self.rate_edit = edit(
            QCoreApplication.translate("EstimatorInputs", "none"),
            QCoreApplication.translate("EstimatorInputs", "Requests per second to serve"),
            QCoreApplication.translate(
                "EstimatorInputs",
                "Serving: requests a second to serve; with the output length, the table says how many chips that "
                "rate needs on each kind.",
            ),
        )
        self.output_edit = edit(
            QCoreApplication.translate("EstimatorInputs", "none"),
            QCoreApplication.translate("EstimatorInputs", "Output tokens per request"),
            QCoreApplication.translate(
                "EstimatorInputs",
                "Serving: tokens each request generates (the rest of the context is its prompt); needed with a "
                "request rate.",
            ),
        )
        self.goodput_edit = edit(
            "1",
            QCoreApplication.translate("EstimatorInputs", "Goodput: share of time making progress"),
            QCoreApplication.translate(
                "EstimatorInputs",
                "The share of time that makes progress, 0 to 1 (restarts, preemptions, stalls); times and "
                "on-demand costs are divided by it. Empty: 1.",
            ),
        )
        self.spot_goodput_edit = edit(
            "0.93",
            QCoreApplication.translate("EstimatorInputs", "Spot goodput: further share on spot capacity"),
            QCoreApplication.translate(
                "EstimatorInputs",
                "Spot costs are divided by this too, 0 to 1. Empty: 1 - 25/360 = 0.93, the app's assumption of a "
                "preemption every 6 hours losing half of a 30-minute checkpoint interval plus 10 minutes to restart.",
            ),
        )

    def latency_edits(self) -> list[tuple[str, QLineEdit]]:
        """(request field, input) of the latency targets and goodputs."""
        return [
            ("ttft_ms", self.ttft_edit),
            ("tpot_ms", self.tpot_edit),
            ("requests_per_s", self.rate_edit),
            ("output_len", self.output_edit),
            ("goodput", self.goodput_edit),
            ("spot_goodput", self.spot_goodput_edit),
        ]

    def _fp32_clicked(self, _checked: bool) -> None:
        self.fp32_touched = True

    def follow_answer(self, strict_fp32: bool) -> bool:
        """Check strict fp32 when the wizard's answers say the workload needs it, unless the user set the box
        here; True when the box changed."""
        if self.fp32_touched or self.fp32_check.isChecked() == strict_fp32:
            return False
        self.fp32_check.setChecked(strict_fp32)
        return True

    def labelled(self) -> list[tuple[str, QWidget]]:
        """(label with its mnemonic, widget) in grid order."""
        return [
            (QCoreApplication.translate("EstimatorInputs", "&Active parameters"), self.active_edit),
            (QCoreApplication.translate("EstimatorInputs", "Expert&s"), self.experts_edit),
            (QCoreApplication.translate("EstimatorInputs", "Experts per toke&n"), self.top_k_edit),
            (QCoreApplication.translate("EstimatorInputs", "Shape ratio (width / la&yers)"), self.aspect_edit),
            (QCoreApplication.translate("EstimatorInputs", "Fine-tune"), self.finetune_combo),
            (QCoreApplication.translate("EstimatorInputs", "LoRA rank"), self.rank_spin),
            (QCoreApplication.translate("EstimatorInputs", "&Micro-batch"), self.micro_spin),
            (QCoreApplication.translate("EstimatorInputs", "Checkpo&inting"), self.checkpoint_combo),
            (QCoreApplication.translate("EstimatorInputs", "Precision (&fp32)"), self.fp32_check),
            (QCoreApplication.translate("EstimatorInputs", "De&code bandwidth share"), self.share_edit),
            (QCoreApplication.translate("EstimatorInputs", "Steps (your model)"), self.steps_edit),
            (QCoreApplication.translate("EstimatorInputs", "First token within (ms)"), self.ttft_edit),
            (QCoreApplication.translate("EstimatorInputs", "Per output token within (ms)"), self.tpot_edit),
            (QCoreApplication.translate("EstimatorInputs", "Requests per second"), self.rate_edit),
            (QCoreApplication.translate("EstimatorInputs", "Output tokens per request"), self.output_edit),
            (QCoreApplication.translate("EstimatorInputs", "Goodput"), self.goodput_edit),
            (QCoreApplication.translate("EstimatorInputs", "Spot goodput"), self.spot_goodput_edit),
        ]

    def connect(self, slot: Any) -> None:
        """Call `slot` whenever one of the inputs changes."""
        for edit in (
            self.active_edit,
            self.experts_edit,
            self.top_k_edit,
            self.aspect_edit,
            self.share_edit,
            self.steps_edit,
            *(edit for _field, edit in self.latency_edits()),
        ):
            edit.editingFinished.connect(slot)
        self.micro_spin.valueChanged.connect(slot)
        self.checkpoint_combo.currentIndexChanged.connect(slot)
        self.finetune_combo.currentIndexChanged.connect(slot)
        self.rank_spin.valueChanged.connect(slot)
        self.fp32_check.toggled.connect(slot)

    def values(self, mode: str) -> dict[str, Any]:
        """The request fields these inputs set; ValueError names the input at fault."""
        training = mode == "training"
        return {
            "active_params": _quantity(self.active_edit),
            "experts": _whole(self.experts_edit),
            "top_k": _whole(self.top_k_edit),
            "aspect_ratio": _number(self.aspect_edit),
            "micro_batch": (self.micro_spin.value() if self.micro_spin.value() != DEFAULT_MICRO_BATCH else None)
            if training
            else None,
            "checkpointing": self.checkpoint_combo.currentData() if training else "auto",
            "finetune": (self.finetune_combo.currentData() or None) if training else None,
            "lora_rank": self.rank_spin.value(),
            "strict_fp32": self.fp32_check.isChecked(),
            "bw_share": None if training else _number(self.share_edit),
            "steps": _quantity(self.steps_edit),
            # latency targets are serving's: a training estimate leaves them out (their text stays for serving)
            "ttft_ms": None if training else _number(self.ttft_edit),
            "tpot_ms": None if training else _number(self.tpot_edit),
            "requests_per_s": None if training else _number(self.rate_edit),
            "output_len": None if training else _whole(self.output_edit),
            "goodput": _number(self.goodput_edit),
            "spot_goodput": _number(self.spot_goodput_edit),
        }

    def failing_edit(self) -> QLineEdit | None:
        """The first of these inputs whose text does not read (where values() raised), or None."""
        for edit, read in (
            (self.active_edit, _quantity),
            (self.experts_edit, _whole),
            (self.top_k_edit, _whole),
            (self.aspect_edit, _number),
            (self.share_edit, _number),
            (self.steps_edit, _quantity),
            (self.ttft_edit, _number),
            (self.tpot_edit, _number),
            (self.rate_edit, _number),
            (self.output_edit, _whole),
            (self.goodput_edit, _number),
            (self.spot_goodput_edit, _number),
        ):
            try:
                read(edit)
            except ValueError:
                return edit
        return None

    def fill(self, request: EstimateRequest | None) -> None:
        """Show a saved request's values (the caller blocks its change signal meanwhile)."""
        self.active_edit.setText(format_quantity(request.active_params) if request and request.active_params else "")
        self.experts_edit.setText(str(request.experts) if request and request.experts else "")
        self.top_k_edit.setText(str(request.top_k) if request and request.top_k else "")
        self.aspect_edit.setText(f"{request.aspect_ratio:g}" if request and request.aspect_ratio else "")
        self.micro_spin.setValue(request.micro_batch if request and request.micro_batch else DEFAULT_MICRO_BATCH)
        self.checkpoint_combo.setCurrentIndex(
            max(0, self.checkpoint_combo.findData(request.checkpointing if request else "auto"))
        )
        self.finetune_combo.setCurrentIndex(
            max(0, self.finetune_combo.findData((request.finetune or "") if request else ""))
        )
        self.rank_spin.setValue(request.lora_rank if request else DEFAULT_LORA_RANK)
        self.fp32_check.setChecked(bool(request and request.strict_fp32))
        self.share_edit.setText(f"{request.bw_share:g}" if request and request.bw_share else "")
        self.steps_edit.setText(format_quantity(request.steps) if request and request.steps else "")
        for field, edit in self.latency_edits():
            value = getattr(request, field, None) if request else None
            edit.setText(f"{value:g}" if value is not None else "")


def _quantity(edit: QLineEdit) -> float | None:
    text = edit.text().strip()
    if not text:
        return None
    try:
        return parse_quantity(text)
    except ValueError as exc:
        raise ValueError(
            QCoreApplication.translate("EstimatorInputs", "{input}: {problem}").format(
                input=edit.accessibleName(), problem=exc
            )
        ) from None


def _whole(edit: QLineEdit) -> int | None:
    text = edit.text().strip()
    if not text:
        return None
    if not text.isdigit():
        raise ValueError(
            QCoreApplication.translate("EstimatorInputs", "{input}: type a whole number, e.g. 8").format(
                input=edit.accessibleName()
            )
        )
    return int(text)


def _number(edit: QLineEdit) -> float | None:
    text = edit.text().strip()
    if not text:
        return None
    try:
        return float(text)
    except ValueError:
        raise ValueError(
            QCoreApplication.translate("EstimatorInputs", "{input}: type a number, e.g. 0.7").format(
                input=edit.accessibleName()
            )
        ) from None
