"""The PDF report's searchable copy of the Chinese font (ui/result/cjk_pdf_font.py): how long the first
derivation takes (on the first Chinese PDF export, once per font file version) and a later export's
cache lookup, Regular and Bold, with the copy's size.

Run: QT_QPA_PLATFORM=offscreen .venv/bin/python benchmarks/bench_cjk_pdf_font.py [--runs N]
Each run derives into a fresh temporary folder (the user's cache is not touched).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

from PySide6.QtGui import QGuiApplication


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    _app = QGuiApplication(sys.argv[:1])
    from gpu_tpu_app.ui.result import cjk_pdf_font
    from gpu_tpu_app.ui.shell import cjk_text

    family = cjk_text.cjk_family()
    if family is None:
        print("no Simplified Chinese font installed")
        return 1
    print(f"load average {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} {os.getloadavg()[2]:.2f}")
    for bold in (False, True):
        found = cjk_pdf_font.font_file(family, bold)
        if found is None:
            print(f"{'Bold' if bold else 'Regular'}: fontconfig names no file")
            continue
        first, cached = [], []
        size = 0
        for _ in range(args.runs):
            with tempfile.TemporaryDirectory() as folder:
                start = time.perf_counter()
                path = cjk_pdf_font.cached_copy(found[0], found[1], family, Path(folder))
                first.append(time.perf_counter() - start)
                start = time.perf_counter()
                cjk_pdf_font.cached_copy(found[0], found[1], family, Path(folder))
                cached.append(time.perf_counter() - start)
                size = path.stat().st_size
        print(
            f"{'Bold' if bold else 'Regular':7} {found[0].name}#{found[1]}: first derivation median "
            f"{statistics.median(first):.2f} s (min {min(first):.2f}, max {max(first):.2f}), cached "
            f"{statistics.median(cached) * 1000:.2f} ms, copy {size / 1e6:.1f} MB"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
