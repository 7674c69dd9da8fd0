"""The welcome card shown at first start (and from Help › Welcome): what the three parts do."""

from __future__ import annotations

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, Qt, Signal
from PySide6.QtWidgets import QGridLayout, QHBoxLayout, QPushButton, QVBoxLayout, QWidget

from gpu_tpu_app import APP_NAME
from gpu_tpu_app.core.decision import QUESTIONS
from gpu_tpu_app.ui.shell.widgets import Card, label

#: About ten seconds a question, read and answered.
SECONDS_PER_QUESTION = 10

# the three parts in English; shown through QCoreApplication.translate("WelcomeCard", ...)
PARTS = (
    (
        str(QT_TRANSLATE_NOOP("WelcomeCard", "Decide")),
        str(
            QT_TRANSLATE_NOOP(
                "WelcomeCard",
                "Answer short questions about your framework, project, workload, team and cloud. The verdict "
                "explains itself: hard constraints, the strongest reasons with sources, what would change it, "
                "and how long and how much your run would take on real chips.",
            )
        ),
    ),
    (
        str(QT_TRANSLATE_NOOP("WelcomeCard", "Probe")),
        str(
            QT_TRANSLATE_NOOP(
                "WelcomeCard",
                "Measure this machine: matrix throughput, memory bandwidth and compile times, through PyTorch "
                "and JAX in separate processes, charted as the numbers arrive. Runs from a cloud GPU or TPU VM "
                "open beside your own.",
            )
        ),
    ),
    (
        str(QT_TRANSLATE_NOOP("WelcomeCard", "Learn")),
        str(
            QT_TRANSLATE_NOOP(
                "WelcomeCard",
                "GPUs and TPUs side by side, topic by topic, every claim with its source, with your own "
                "measurements next to the claims they illustrate.",
            )
        ),
    ),
)


class WelcomeCard(QWidget):
    """First-start card; each button leads into one part of the app."""

    sig_start = Signal()
    sig_probe = Signal()
    sig_learn = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        outer = QVBoxLayout(self)
        outer.setContentsMargins(24, 24, 24, 24)
        card = Card()
        outer.addWidget(card, 0, Qt.AlignmentFlag.AlignTop)
        outer.addStretch(1)
        title = label(self.tr("Welcome to {app}").format(app=APP_NAME), "title")
        idea = label(
            self.tr(
                "GPUs are the workshop: flexible, in every cloud, ready for code that changes every week. "
                "TPUs are the factory line: built for large, steady matrix work once the design is settled."
            ),
        )
        minutes = max(1, round(len(QUESTIONS) * SECONDS_PER_QUESTION / 60))
        timing = label(
            self.tr("About {minutes} minutes for {n} questions, and every one can be skipped.").format(
                minutes=minutes, n=len(QUESTIONS)
            ),
            "muted",
        )
        card.body.addWidget(title)
        card.body.addWidget(idea)
        grid = QGridLayout()
        grid.setHorizontalSpacing(18)
        grid.setVerticalSpacing(6)
        for col, (name, text) in enumerate(PARTS):
            head = label(QCoreApplication.translate("WelcomeCard", name), "heading")
            body = label(QCoreApplication.translate("WelcomeCard", text))
            body.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
            grid.addWidget(head, 0, col)
            grid.addWidget(body, 1, col)
            grid.setColumnStretch(col, 1)
        card.body.addLayout(grid)
        card.body.addWidget(timing)
        row = QHBoxLayout()
        self.start_button = QPushButton(self.tr("&Start the questions"))
        self.start_button.setDefault(True)
        self.probe_button = QPushButton(self.tr("&Probe this machine"))
        self.learn_button = QPushButton(self.tr("&Read side by side"))
        self.start_button.clicked.connect(self.sig_start)
        self.probe_button.clicked.connect(self.sig_probe)
        self.learn_button.clicked.connect(self.sig_learn)
        row.addWidget(self.start_button)
        row.addWidget(self.probe_button)
        row.addWidget(self.learn_button)
        row.addStretch(1)
        card.body.addLayout(row)
