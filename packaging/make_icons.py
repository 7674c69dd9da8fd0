"""Render the app icon from its SVG master: PNG sizes for the desktop, .ico for Windows, .icns for macOS.

The window, the taskbar, the desktop menu and the bundles all show the same picture, so every
raster file is generated from resources/icons/gpu-tpu-app.svg by this script (with Qt's own SVG
renderer, offscreen) and checked against it by the tests:

    python packaging/make_icons.py            # regenerate resources/icons/png/ and packaging/pyinstaller/
    python packaging/make_icons.py --check    # exit 1 if a generated file is missing or out of date
"""

from __future__ import annotations

import argparse
import os
import struct
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SVG = ROOT / "resources" / "icons" / "gpu-tpu-app.svg"
PNG_DIR = ROOT / "resources" / "icons" / "png"
ICO = ROOT / "packaging" / "pyinstaller" / "gpu-tpu-app.ico"
ICNS = ROOT / "packaging" / "pyinstaller" / "gpu-tpu-app.icns"

#: PNG sizes shipped with the app (hicolor theme sizes, 16 to 512).
SIZES = (16, 24, 32, 48, 64, 128, 256, 512)
#: Windows icon sizes (the ICO format stops at 256).
ICO_SIZES = (16, 24, 32, 48, 64, 128, 256)
#: macOS icon entries: OSType -> pixel size, each holding a PNG (ic10 is 512@2x).
ICNS_TYPES = {"icp4": 16, "icp5": 32, "icp6": 64, "ic07": 128, "ic08": 256, "ic09": 512, "ic10": 1024}
#: Mean absolute difference per channel (0..255) under which two renderings count as the same picture.
TOLERANCE = 0.5


def png_name(size: int) -> str:
    """File name of one PNG size, e.g. gpu-tpu-app-48.png."""
    return f"gpu-tpu-app-{size}.png"


def _qt():
    """Import Qt lazily and make sure a QGuiApplication exists (offscreen when there is no display)."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6 import QtCore, QtGui, QtSvg

    if QtGui.QGuiApplication.instance() is None:
        _qt.app = QtGui.QGuiApplication([sys.argv[0]])  # type: ignore[attr-defined]
    return QtCore, QtGui, QtSvg


def render_png(size: int, svg: Path = SVG) -> bytes:
    """Render the SVG to a square transparent PNG of `size` pixels."""
    QtCore, QtGui, QtSvg = _qt()
    renderer = QtSvg.QSvgRenderer(str(svg))
    if not renderer.isValid():
        raise SystemExit(f"{svg}: not a valid SVG")
    image = QtGui.QImage(size, size, QtGui.QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(QtCore.Qt.GlobalColor.transparent)
    painter = QtGui.QPainter(image)
    painter.setRenderHint(QtGui.QPainter.RenderHint.Antialiasing)
    painter.setRenderHint(QtGui.QPainter.RenderHint.SmoothPixmapTransform)
    renderer.render(painter, QtCore.QRectF(0, 0, size, size))
    painter.end()
    return encode_png(image.convertToFormat(QtGui.QImage.Format.Format_ARGB32))


def encode_png(image) -> bytes:
    """PNG bytes of a QImage."""
    QtCore, _QtGui, _QtSvg = _qt()
    buffer = QtCore.QBuffer()
    buffer.open(QtCore.QIODevice.OpenModeFlag.WriteOnly)
    if not image.save(buffer, "PNG"):
        raise RuntimeError("Qt could not encode a PNG")
    return bytes(buffer.data())


def decode_png(data: bytes):
    """A QImage (ARGB32) from PNG bytes; raises ValueError when they do not decode."""
    _QtCore, QtGui, _QtSvg = _qt()
    image = QtGui.QImage.fromData(data, "PNG")
    if image.isNull():
        raise ValueError("not a decodable PNG")
    return image.convertToFormat(QtGui.QImage.Format.Format_ARGB32)


def pixels(image):
    """The image's pixels as a numpy array (height, width, 4) of uint8."""
    import numpy as np

    width, height = image.width(), image.height()
    raw = np.frombuffer(image.constBits(), dtype=np.uint8, count=image.sizeInBytes())
    return raw.reshape(height, image.bytesPerLine())[:, : width * 4].reshape(height, width, 4).copy()


def difference(a: bytes, b: bytes) -> float:
    """Mean absolute channel difference between two PNGs (infinite when their sizes differ)."""
    import numpy as np

    pa, pb = pixels(decode_png(a)), pixels(decode_png(b))
    if pa.shape != pb.shape:
        return float("inf")
    return float(np.abs(pa.astype(np.int16) - pb.astype(np.int16)).mean())


def build_ico(pngs: dict[int, bytes]) -> bytes:
    """A Windows .ico holding one PNG per size (PNG entries are read by Windows Vista and later)."""
    sizes = sorted(pngs)
    header = struct.pack("<HHH", 0, 1, len(sizes))
    offset = len(header) + 16 * len(sizes)
    entries, blobs = [], []
    for size in sizes:
        if not 1 <= size <= 256:
            raise ValueError(f"ICO sizes stop at 256, got {size}")
        data = pngs[size]
        dim = 0 if size == 256 else size  # 0 means 256 in the directory entry
        entries.append(struct.pack("<BBBBHHII", dim, dim, 0, 0, 1, 32, len(data), offset))
        blobs.append(data)
        offset += len(data)
    return header + b"".join(entries) + b"".join(blobs)


def read_ico(data: bytes) -> dict[int, bytes]:
    """The PNG entries of an .ico written by build_ico, keyed by the size its directory claims."""
    reserved, kind, count = struct.unpack_from("<HHH", data, 0)
    if reserved != 0 or kind != 1:
        raise ValueError("not an ICO file")
    out: dict[int, bytes] = {}
    for i in range(count):
        width, height, _c, _r, _planes, _bpp, length, offset = struct.unpack_from("<BBBBHHII", data, 6 + 16 * i)
        if width != height:
            raise ValueError(f"ICO entry {i} is not square")
        out[width or 256] = data[offset : offset + length]
    return out


def build_icns(pngs: dict[str, bytes]) -> bytes:
    """A macOS .icns: the 'icns' header, then one (OSType, length, PNG) entry per type."""
    body = b"".join(kind.encode("ascii") + struct.pack(">I", 8 + len(data)) + data for kind, data in pngs.items())
    return b"icns" + struct.pack(">I", 8 + len(body)) + body


def read_icns(data: bytes) -> dict[str, bytes]:
    """The entries of an .icns file, keyed by OSType."""
    if data[:4] != b"icns" or struct.unpack_from(">I", data, 4)[0] != len(data):
        raise ValueError("not an ICNS file (bad header or length)")
    out: dict[str, bytes] = {}
    pos = 8
    while pos < len(data):
        kind = data[pos : pos + 4].decode("ascii")
        (length,) = struct.unpack_from(">I", data, pos + 4)
        if length < 8 or pos + length > len(data):
            raise ValueError(f"ICNS entry {kind!r} has a bad length")
        out[kind] = data[pos + 8 : pos + length]
        pos += length
    return out


def generate(svg: Path = SVG) -> dict[Path, bytes]:
    """Every generated file (PNG sizes, .ico, .icns) as path -> bytes, rendered from `svg`."""
    rendered = {size: render_png(size, svg) for size in sorted({*SIZES, *ICO_SIZES, *ICNS_TYPES.values()})}
    files = {PNG_DIR / png_name(size): rendered[size] for size in SIZES}
    files[ICO] = build_ico({size: rendered[size] for size in ICO_SIZES})
    files[ICNS] = build_icns({kind: rendered[size] for kind, size in ICNS_TYPES.items()})
    return files


def _display(path: Path) -> Path:
    """`path` relative to the repository when it lies inside it."""
    try:
        return path.relative_to(ROOT)
    except ValueError:
        return path


def stale(svg: Path = SVG) -> list[str]:
    """Generated files that are missing or no longer show what the SVG shows (empty list: all up to date)."""
    fresh = generate(svg)
    problems: list[str] = []
    for path, data in fresh.items():
        rel = _display(path)
        if not path.exists():
            problems.append(f"{rel}: missing")
            continue
        on_disk = path.read_bytes()
        try:
            if path.suffix == ".png":
                pairs = [(str(rel), on_disk, data)]
            elif path.suffix == ".ico":
                old, new = read_ico(on_disk), read_ico(data)
                if sorted(old) != sorted(new):
                    problems.append(f"{rel}: sizes {sorted(old)}, expected {sorted(new)}")
                    continue
                pairs = [(f"{rel}[{size}]", old[size], new[size]) for size in new]
            else:
                old, new = read_icns(on_disk), read_icns(data)
                if list(old) != list(new):
                    problems.append(f"{rel}: entries {list(old)}, expected {list(new)}")
                    continue
                pairs = [(f"{rel}[{kind}]", old[kind], new[kind]) for kind in new]
            for name, have, want in pairs:
                diff = difference(have, want)
                if diff > TOLERANCE:
                    problems.append(f"{name}: differs from the SVG rendering (mean difference {diff:.2f})")
        except ValueError as exc:
            problems.append(f"{rel}: {exc}")
    return problems


def main(argv: list[str] | None = None) -> int:
    """Regenerate the icon files, or with --check report the ones that are out of date."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only check; exit 1 if a file is missing or stale")
    args = parser.parse_args(argv)
    if args.check:
        problems = stale()
        for line in problems:
            print(line, file=sys.stderr)
        if problems:
            print("run: python packaging/make_icons.py", file=sys.stderr)
            return 1
        print("icons up to date")
        return 0
    for path, data in generate().items():
        path.parent.mkdir(parents=True, exist_ok=True)
        if not path.exists() or path.read_bytes() != data:
            path.write_bytes(data)
            print(f"wrote {_display(path)} ({len(data)} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
