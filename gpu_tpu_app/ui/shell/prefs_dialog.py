"""Preferences dialog, generated from the fields of `core.settings.Preferences`.

A field with choices (a Literal, or the language list) becomes a combo box, a bool a check box;
each field's title is the label and its description the help line, in the interface language
(``core.settings.field_text``). Adding a field to the model adds it here.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QVBoxLayout,
    QWidget,
)

from gpu_tpu_app.core.settings import Preferences, choice_label, editable_fields, field_choices, field_text
from gpu_tpu_app.ui.shell.widgets import label


class PreferencesDialog(QDialog):
    """Edit a copy of the preferences; `preferences()` returns the result after accept."""

    def __init__(self, prefs: Preferences, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Preferences"))
        self.setMinimumWidth(460)
        self._prefs = prefs
        self.editors: dict[str, QWidget] = {}
        root = QVBoxLayout(self)
        form = QFormLayout()
        form.setRowWrapPolicy(QFormLayout.RowWrapPolicy.WrapLongRows)
        for name in editable_fields():
            info = Preferences.model_fields[name]
            title = field_text(name, "title")
            description = field_text(name, "description")
            editor = self._editor(name, info.annotation, getattr(prefs, name))
            editor.setToolTip(description)
            editor.setAccessibleName(title)
            self.editors[name] = editor
            lab = QLabel(self.tr("{title}:").format(title=title))
            lab.setBuddy(editor)
            box = QWidget()
            col = QVBoxLayout(box)
            col.setContentsMargins(0, 0, 0, 6)
            col.setSpacing(2)
            col.addWidget(editor)
            col.addWidget(label(description, "muted"))
            form.addRow(lab, box)
        root.addLayout(form)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        root.addWidget(buttons)

    @staticmethod
    def _editor(name: str, annotation: Any, value: Any) -> QWidget:
        choices = field_choices(name)
        if choices is not None:
            combo = QComboBox()
            for choice in choices:
                combo.addItem(choice_label(name, choice), choice)
            combo.setCurrentIndex(max(0, combo.findData(value)))
            return combo
        if annotation is bool:
            check = QCheckBox()
            check.setChecked(bool(value))
            return check
        raise TypeError(f"Preferences.{name}: no editor for {annotation!r}")

    def values(self) -> dict[str, Any]:
        """The values the editors show now."""
        out: dict[str, Any] = {}
        for name, editor in self.editors.items():
            if isinstance(editor, QComboBox):
                out[name] = editor.currentData()
            elif isinstance(editor, QCheckBox):
                out[name] = editor.isChecked()
        return out

    def preferences(self) -> Preferences:
        """The edited preferences (validated by the model)."""
        return Preferences.model_validate({**self._prefs.model_dump(), **self.values()})
