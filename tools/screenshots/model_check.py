"""Screenshot of the Framework-check page after a real model check (`make screenshots` runs it).

Run: QT_QPA_PLATFORM=offscreen .venv/bin/python tools/screenshots/model_check.py MODEL.py OUT.png [FIELD ...]
Checks MODEL.py in a worker process exactly as the Check-my-model button does, opens the evidence of
each FIELD, and saves the window at 1280x800.
"""

from __future__ import annotations

import sys

from PySide6.QtCore import QEventLoop
from PySide6.QtWidgets import QApplication


def main(argv: list[str]) -> int:
    model, out, *fields = argv
    app = QApplication([])
    from gpu_tpu_app.ui.shell.main_window import MainWindow
    from gpu_tpu_app.ui.shell.theme import theme_manager

    theme_manager().apply("light")
    window = MainWindow(persist=False)
    window.resize(1280, 800)
    window.show()
    bar = window.wizard.model_check_bar
    loop = QEventLoop()
    results = []
    bar.sig_finished.connect(lambda r: (results.append(r), loop.quit()))
    bar.check(model)
    loop.exec()
    if not results or isinstance(results[0], str) or results[0] is None:
        print(f"error: the check did not run: {results[0] if results else 'no result'}", file=sys.stderr)
        return 2
    for field in fields:
        window.wizard.cards[field].toggle_evidence()
    app.processEvents()
    if not window.grab().save(out):
        print(f"error: {out}: could not save the screenshot", file=sys.stderr)
        return 2
    window._clean = window.session()
    window.shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
