"""The verdict gauge: a dial from the workshop (GPU, left) to the factory line (TPU, right)."""

from __future__ import annotations

import math

from PySide6.QtCore import QPointF, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QFont, QFontMetricsF, QPainter, QPaintEvent, QPen
from PySide6.QtWidgets import QSizePolicy, QWidget

from gpu_tpu_app.core.verdict_text import VERDICT_WORDS, confidence_word
from gpu_tpu_app.ui.shell.theme import theme_manager

CONFIDENCE_PIPS = {"low": 1, "medium": 2, "high": 3}


def _mix(a: QColor, b: QColor, t: float) -> QColor:
    return QColor(
        round(a.red() + (b.red() - a.red()) * t),
        round(a.green() + (b.green() - a.green()) * t),
        round(a.blue() + (b.blue() - a.blue()) * t),
    )


class VerdictGauge(QWidget):
    """Shows a score in [-1, 1] (negative leans GPU) with the verdict and its confidence."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._score = 0.0
        self._verdict = "either"
        self._confidence = "low"
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.setMinimumSize(300, 220)
        theme_manager().sig_theme_changed.connect(self.update)
        self._describe()

    def sizeHint(self) -> QSize:
        return QSize(380, 230)

    def set_value(self, score: float, verdict: str, confidence: str) -> None:
        """Show a new recommendation."""
        self._score = max(-1.0, min(1.0, float(score)))
        self._verdict = verdict
        self._confidence = confidence
        self._describe()
        self.update()

    def score(self) -> float:
        """The score shown now."""
        return self._score

    def _describe(self) -> None:
        self.setAccessibleName(self.tr("Verdict gauge"))
        self.setAccessibleDescription(
            self.tr(
                "Verdict {verdict}, score {score} from -1 (workshop, GPU) to +1 (factory line, TPU), "
                "confidence {confidence}"
            ).format(
                verdict=VERDICT_WORDS.get(self._verdict, self._verdict),
                score=f"{self._score:+.2f}",
                confidence=confidence_word(self._confidence),
            )
        )
        self.setToolTip(self.accessibleDescription())

    def paintEvent(self, event: QPaintEvent) -> None:
        tm = theme_manager()
        gpu, tpu = tm.color("gpu"), tm.color("tpu")
        fg, muted, grid = tm.color("foreground"), tm.color("muted"), tm.color("grid")
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        w, h = self.width(), self.height()
        big = QFont(self.font())
        big.setPointSizeF(20)
        big.setBold(True)
        big_h = QFontMetricsF(big).height()
        line_h = QFontMetricsF(self.font()).height() + 4
        radius = max(40.0, min(w / 2 - 90, h - 16 - big_h - line_h))
        cx, cy = w / 2, 8 + radius
        rect = QRectF(cx - radius, cy - radius, 2 * radius, 2 * radius)
        thickness = max(10.0, radius * 0.15)

        # the track: GPU colour on the left fading through grey to the TPU colour on the right
        segments = 72
        for i in range(segments):
            t0 = i / segments
            mid = (i + 0.5) / segments
            col = _mix(gpu, grid, mid * 2) if mid < 0.5 else _mix(grid, tpu, (mid - 0.5) * 2)
            p.setPen(QPen(col, thickness, Qt.PenStyle.SolidLine, Qt.PenCapStyle.FlatCap))
            start = 180.0 - t0 * 180.0
            p.drawArc(rect, round(start * 16), round(-(180.0 / segments + 0.6) * 16))

        # ticks at -0.5, 0 and 0.5
        p.setPen(QPen(muted, 1.5))
        for s in (-0.5, 0.0, 0.5):
            ang = math.radians(180.0 - (s + 1) / 2 * 180.0)
            r0, r1 = radius - thickness / 2 - 9, radius - thickness / 2 - 3
            p.drawLine(
                QPointF(cx + r0 * math.cos(ang), cy - r0 * math.sin(ang)),
                QPointF(cx + r1 * math.cos(ang), cy - r1 * math.sin(ang)),
            )

        # the needle
        ang = math.radians(180.0 - (self._score + 1) / 2 * 180.0)
        tip = QPointF(cx + (radius - 6) * math.cos(ang), cy - (radius - 6) * math.sin(ang))
        needle_col = gpu if self._verdict == "gpu" else tpu if self._verdict == "tpu" else fg
        p.setPen(QPen(needle_col, 4, Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap))
        p.drawLine(QPointF(cx, cy), tip)
        p.setPen(Qt.PenStyle.NoPen)
        p.setBrush(needle_col)
        p.drawEllipse(QPointF(cx, cy), 7, 7)

        # the two ends, under the track
        p.setFont(self.font())
        p.setPen(gpu)
        p.drawText(
            QRectF(cx - radius - 90, cy + 6, 180, line_h), Qt.AlignmentFlag.AlignCenter, self.tr("Workshop · GPU")
        )
        p.setPen(tpu)
        p.drawText(
            QRectF(cx + radius - 90, cy + 6, 180, line_h), Qt.AlignmentFlag.AlignCenter, self.tr("Factory line · TPU")
        )

        # verdict word under the hub, then the confidence with pips
        p.setFont(big)
        p.setPen(needle_col)
        word = VERDICT_WORDS.get(self._verdict, self._verdict)
        p.drawText(QRectF(cx - radius, cy + 8, 2 * radius, big_h), Qt.AlignmentFlag.AlignCenter, word)
        p.setFont(self.font())
        p.setPen(muted)
        text = self.tr("confidence: {confidence}").format(confidence=confidence_word(self._confidence))
        tw = QFontMetricsF(self.font()).horizontalAdvance(text)
        y = cy + 10 + big_h
        total = tw + 12 + 3 * 12
        x0 = cx - total / 2
        p.drawText(QRectF(x0, y, tw + 2, line_h), Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft, text)
        pips = CONFIDENCE_PIPS.get(self._confidence, 0)
        for i in range(3):
            px = x0 + tw + 14 + i * 12
            p.setPen(QPen(muted, 1.2))
            p.setBrush(needle_col if i < pips else Qt.GlobalColor.transparent)
            p.drawEllipse(QPointF(px, y + line_h / 2), 4.0, 4.0)
        p.end()
