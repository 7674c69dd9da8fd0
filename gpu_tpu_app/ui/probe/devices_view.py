"""The probe page's device list: what each backend found, its catalogue match, and why a backend is missing."""

from __future__ import annotations

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, Qt
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import QApplication, QStyle, QTreeWidget, QTreeWidgetItem, QWidget

from gpu_tpu_app.core.note_text import reason_text, shown_message
from gpu_tpu_app.core.runs import BackendStatus, DeviceInfo
from gpu_tpu_app.core.wording import MISSING, version_words
from gpu_tpu_app.extras import backend_not_installed, page_hint
from gpu_tpu_app.shared.terms import BACKENDS
from gpu_tpu_app.ui.shell.theme import theme_manager
from gpu_tpu_app.ui.shell.widgets import plain_tip

_GiB = 1024**3


def memory_text(n: int | None) -> str:
    """'15.6 GiB' or a dash."""
    return MISSING if not n else f"{n / _GiB:.1f} GiB"


def _chip_name(catalog_id: str | None) -> str | None:
    if not catalog_id:
        return None
    from gpu_tpu_app.core.catalog import load_catalog

    try:
        return load_catalog().chip(catalog_id).name
    except KeyError:
        return catalog_id


def device_tooltip(dev: DeviceInfo) -> str:
    """Everything known about a device, one fact per line (in the language in use)."""

    def _t(text: str) -> str:
        return QCoreApplication.translate("DevicesView", text)

    lines = [f"{dev.name}", _t("key: {key}   ({n} of this kind)").format(key=dev.key, n=dev.count)]
    if dev.memory_bytes:
        memory = memory_text(dev.memory_bytes)
        if dev.memory_note:
            note = shown_message(dev.memory_note, dev.memory_note_notes) or dev.memory_note
            lines.append(_t("memory: {memory} ({note})").format(memory=memory, note=note))
        else:
            lines.append(_t("memory: {memory}").format(memory=memory))
    if dev.cache_bytes:
        lines.append(_t("last-level cache: {mib} MiB").format(mib=f"{dev.cache_bytes / 2**20:.0f}"))
    if dev.first_use_s is not None:
        lines.append(_t("warm-up before the first point: {seconds} s").format(seconds=f"{dev.first_use_s:.2f}"))
    if dev.versions:
        versions = ", ".join(f"{k} {v}" for k, v in dev.versions.items())
        lines.append(_t("versions: {versions}").format(versions=versions))
    if dev.cpu is not None:
        cpu = dev.cpu
        lines.append(
            _t("CPU: {model}; {cores} cores, {threads} threads used").format(
                model=cpu.model, cores=cpu.cores or "?", threads=cpu.threads_used or "?"
            )
        )
        if cpu.flags:
            lines.append("ISA: " + " ".join(cpu.flags))
        if cpu.caches:
            caches = ", ".join(f"{k} {v // 1024} KiB" for k, v in cpu.caches.items())
            lines.append(_t("caches: {caches}").format(caches=caches))
    return "\n".join(lines)


# the tooltip's lines, for lupdate (device_tooltip translates them under "DevicesView")
_TOOLTIP_WORDS = (
    QT_TRANSLATE_NOOP("DevicesView", "key: {key}   ({n} of this kind)"),
    QT_TRANSLATE_NOOP("DevicesView", "memory: {memory} ({note})"),
    QT_TRANSLATE_NOOP("DevicesView", "memory: {memory}"),
    QT_TRANSLATE_NOOP("DevicesView", "last-level cache: {mib} MiB"),
    QT_TRANSLATE_NOOP("DevicesView", "warm-up before the first point: {seconds} s"),
    QT_TRANSLATE_NOOP("DevicesView", "versions: {versions}"),
    QT_TRANSLATE_NOOP("DevicesView", "CPU: {model}; {cores} cores, {threads} threads used"),
    QT_TRANSLATE_NOOP("DevicesView", "caches: {caches}"),
)


class DevicesView(QTreeWidget):
    """Backends as top-level rows (available or not, with the reason), their devices below."""

    COLUMNS = ("Device", "Catalogue match", "Memory")

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setColumnCount(len(self.COLUMNS))
        self.setHeaderLabels([self.tr("Device"), self.tr("Catalogue match"), self.tr("Memory")])
        self.setRootIsDecorated(False)
        self.setUniformRowHeights(True)
        self.setWordWrap(True)
        self.setAlternatingRowColors(False)
        self._items: dict[str, QTreeWidgetItem] = {}
        self._state: dict[str, tuple[BackendStatus | None, list[DeviceInfo], str | None]] = {}
        theme_manager().sig_theme_changed.connect(self._on_theme)

    def _on_theme(self, _name: str) -> None:
        self._rebuild()

    def set_searching(self, backends: tuple[str, ...]) -> None:
        """Show a backend not shown yet as 'looking for devices…' until its worker answers."""
        for b in backends:
            if b not in self._state or self._state[b][0] is None:
                self._state[b] = (None, [], self.tr("looking for devices…"))
        self._rebuild()

    def set_backend(self, status: BackendStatus, devices: list[DeviceInfo]) -> None:
        """Show what one backend reported (replaces its earlier rows)."""
        self._state[status.backend] = (status, list(devices), None)
        self._rebuild()

    def add_device(self, dev: DeviceInfo) -> None:
        """A device reported by a probe run (kept next to the listed ones, without duplicates)."""
        status, devices, _note = self._state.get(dev.backend, (None, [], None))
        if any(d.key == dev.key for d in devices):
            return
        if status is None or not status.available:
            status = BackendStatus(backend=dev.backend, available=True, versions=dev.versions)
        self._state[dev.backend] = (status, [*devices, dev], None)
        self._rebuild()

    def backend_status(self, backend: str) -> BackendStatus | None:
        """The last status reported for a backend."""
        return self._state.get(backend, (None, [], None))[0]

    def devices(self) -> list[DeviceInfo]:
        """Every device shown."""
        return [d for _s, devs, _n in self._state.values() for d in devs]

    def _rebuild(self) -> None:
        colors = theme_manager().colors()
        style = QApplication.style()
        self.clear()
        for backend in sorted(self._state, key=lambda b: BACKENDS.index(b) if b in BACKENDS else 9):
            status, devices, note = self._state[backend]
            top = QTreeWidgetItem(self)
            version = (status.versions.get(backend) if status else None) or ""
            title = f"{backend} {version_words(version)}".strip()
            font = top.font(0)
            font.setBold(True)
            top.setFont(0, font)
            if status is None:
                top.setText(0, self.tr("{backend}: {note}").format(backend=title, note=note or self.tr("unknown")))
                top.setForeground(0, QBrush(QColor(colors["muted"])))
            elif not status.available:
                top.setText(0, self.tr("{backend}: not usable").format(backend=title))
                top.setIcon(0, style.standardIcon(QStyle.StandardPixmap.SP_MessageBoxWarning))
                reason = reason_text(status) or self.tr("no reason given")
                top.setToolTip(0, plain_tip(reason))
                why = QTreeWidgetItem(top, [reason])
                why.setForeground(0, QBrush(QColor(colors["error"])))
                why.setToolTip(0, plain_tip(reason))
                why.setFirstColumnSpanned(True)
                if backend_not_installed(status):  # the base install has no framework: name the extra
                    hint = page_hint(backend)
                    how = QTreeWidgetItem(top, [hint])
                    how.setToolTip(0, plain_tip(hint))
                    how.setFirstColumnSpanned(True)
            else:
                n = len(devices)
                if n == 1:
                    top.setText(0, self.tr("{backend}: 1 device").format(backend=title))
                else:
                    top.setText(0, self.tr("{backend}: {n} devices").format(backend=title, n=n))
                if status.reason:
                    note_item = QTreeWidgetItem(top, [reason_text(status) or status.reason])
                    note_item.setForeground(0, QBrush(QColor(colors["warning"])))
                    note_item.setFirstColumnSpanned(True)
            top.setFirstColumnSpanned(True)
            for dev in devices:
                chip = _chip_name(dev.catalog_id)
                item = QTreeWidgetItem(
                    top,
                    [
                        f"{dev.name} ({dev.platform})",
                        chip or self.tr("no catalogue entry"),
                        memory_text(dev.memory_bytes),
                    ],
                )
                if chip is None:
                    item.setForeground(1, QBrush(QColor(colors["muted"])))
                    item.setToolTip(
                        1, self.tr("No catalogue chip matches this device name, so % of spec is not shown.")
                    )
                else:
                    item.setToolTip(
                        1,
                        plain_tip(
                            self.tr("Catalogue entry {id}: % of spec uses its published peaks.").format(
                                id=dev.catalog_id
                            )
                        ),
                    )
                tip = device_tooltip(dev)
                item.setToolTip(0, plain_tip(tip))
                item.setData(0, Qt.ItemDataRole.UserRole, dev.key)
            top.setExpanded(True)
        header = self.header()
        header.setStretchLastSection(False)
        header.setSectionResizeMode(0, header.ResizeMode.Stretch)
        for col in range(1, self.columnCount()):
            header.setSectionResizeMode(col, header.ResizeMode.ResizeToContents)
