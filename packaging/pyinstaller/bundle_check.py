"""Check a built bundle the way a user meets it: no venv, no source tree, only dist/gpu-tpu-app/.

Run by `make bundle-check` with the project's venv python (which decodes the screenshot and
validates the probe run files against the app's own schema):

    python packaging/pyinstaller/bundle_check.py [dist/gpu-tpu-app]

Each step prints `ok` or `FAIL` with what it saw; the exit code is 1 when any step failed.
The bundle itself always runs with a bare environment (PATH=/usr/bin:/bin, a fresh HOME and
XDG folders, no PYTHONPATH or VIRTUAL_ENV) from a folder outside the repository.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from gpu_tpu_app import APP_ID, __version__  # noqa: E402

SCREENSHOT_SIZE = (1280, 800)
#: Top-level packages the spec excludes; finding one in the bundle means an exclude stopped working.
MUST_BE_ABSENT = (
    "scipy",
    "libtpu",  # Google Cloud's terms: never shipped in the bundle
    "matplotlib",
    "IPython",
    "tkinter",
    "PyQt5",
    "PyQt6",
    "PySide2",
    "OpenGL",
    "pytest",
    "hypothesis",
    "h5py",
    "numba",
    "cupy",
)
#: Modules the bundle cannot work without (the window, the worker, both probe backends).
MUST_BE_PRESENT = (
    "gpu_tpu_app.ui.shell.app",
    "gpu_tpu_app.ui.shell.main_window",
    "gpu_tpu_app.worker.main",
    "gpu_tpu_app.worker.guard",  # model checks and env queries start under it
    "gpu_tpu_app.worker.collective",  # imported by name when a rank of a group starts
    "gpu_tpu_app.worker.collective.common",
    "gpu_tpu_app.worker.collective.torch_group",
    "gpu_tpu_app.worker.collective.jax_group",
    "gpu_tpu_app.worker.collective.report",
    "gpu_tpu_app.worker.kernels.torch_kernels",
    "gpu_tpu_app.worker.kernels.jax_kernels",
    "gpu_tpu_app.desktop",
    "PySide6.QtSvg",
    "pyqtgraph",
)


#: The frameworks: in the bundle `make bundle` builds, absent from the release bundle (`make dist`, --no-frameworks).
FRAMEWORKS = ("torch", "jax", "jaxlib")


class Checker:
    """Collects ok / FAIL lines; `failed` is True after any failure."""

    def __init__(self) -> None:
        self.failed = False

    def ok(self, what: str) -> None:
        print(f"ok    {what}", flush=True)

    def fail(self, what: str) -> None:
        print(f"FAIL  {what}", flush=True)
        self.failed = True

    def check(self, cond: bool, what: str, why: str = "") -> bool:
        if cond:
            self.ok(what)
        else:
            self.fail(f"{what}{': ' + why if why else ''}")
        return cond


def bare_env(home: Path, **extra: str) -> dict[str, str]:
    """The environment a double-clicked app gets at most: no Python variables, a fresh home."""
    env = {"PATH": "/usr/bin:/bin", "HOME": str(home), "LANG": "C.UTF-8", "QT_QPA_PLATFORM": "offscreen"}
    for var in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME"):
        env[var] = str(home / var.lower())
    env.update(extra)
    return env


def run(cmd: list[str], env: dict[str, str], cwd: Path, timeout: float) -> tuple[int, str, float]:
    """Run the bundle; returns (exit code, stdout+stderr, seconds). Exit code 124 on timeout."""
    t0 = time.monotonic()
    try:
        proc = subprocess.run(cmd, env=env, cwd=cwd, capture_output=True, text=True, timeout=timeout)
        return proc.returncode, proc.stdout + proc.stderr, time.monotonic() - t0
    except subprocess.TimeoutExpired as exc:
        out = (exc.stdout or b"").decode(errors="replace") + (exc.stderr or b"").decode(errors="replace")
        return 124, out + f"\n(timed out after {timeout:.0f} s)", time.monotonic() - t0


def tail(text: str, lines: int = 15) -> str:
    return "\n".join("        " + line for line in text.strip().splitlines()[-lines:])


def bundle_size(folder: Path) -> int:
    """Bytes of all regular files in the bundle (symlinks not followed)."""
    return sum(p.lstat().st_size for p in folder.rglob("*") if p.is_file() and not p.is_symlink())


def archive_modules(exe: Path) -> set[str]:
    """Module names in the executable's embedded PYZ archive (PyInstaller's own reader)."""
    from PyInstaller.archive.readers import CArchiveReader, ZlibArchiveReader

    carchive = CArchiveReader(str(exe))
    pyz_name = next(name for name in carchive.toc if name.endswith(".pyz"))
    folder = tempfile.mkdtemp(prefix="pyz-")
    try:
        pyz_path = Path(folder) / pyz_name
        pyz_path.write_bytes(carchive.extract(pyz_name))
        return set(ZlibArchiveReader(str(pyz_path)).toc)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def extension_on_disk(internal: Path, module: str) -> bool:
    """True when `module` is collected as a compiled extension file (those live beside the archive)."""
    *package, name = module.split(".")
    folder = internal.joinpath(*package)
    return folder.is_dir() and (any(folder.glob(f"{name}.*.so")) or any(folder.glob(f"{name}.*.pyd")))


def check_contents(c: Checker, bundle: Path, exe: Path, frameworks: bool = True) -> None:
    internal = bundle / "_internal"
    size = bundle_size(bundle)
    c.ok(f"bundle size {size / 1e6:.0f} MB ({size / 2**30:.2f} GiB) in {bundle}")
    try:
        modules = archive_modules(exe)
    except Exception as exc:
        c.fail(f"cannot read the executable's module archive: {type(exc).__name__}: {exc}")
        return
    wanted = MUST_BE_PRESENT + (FRAMEWORKS if frameworks else ())
    missing = [m for m in wanted if m not in modules and not extension_on_disk(internal, m)]
    c.check(
        not missing,
        f"{len(modules)} modules in the archive, including the window, worker and backends",
        f"missing {missing}",
    )
    on_disk = {p.name for p in internal.iterdir()} if internal.is_dir() else set()
    present = sorted(
        {m for m in MUST_BE_ABSENT if m in on_disk}
        | {m.split(".")[0] for m in modules if m.split(".")[0] in MUST_BE_ABSENT}
    )
    c.check(
        not present, "excluded packages are absent (" + ", ".join(MUST_BE_ABSENT[:6]) + ", ...)", f"found {present}"
    )
    if not frameworks:
        bundled = sorted(
            {m for m in FRAMEWORKS if (internal / m).exists()} | {m.split(".")[0] for m in modules} & set(FRAMEWORKS)
        )
        c.check(not bundled, "torch, jax and jaxlib are left out (--no-frameworks)", f"found {bundled}")
        note = bundle / "FIRST-RUN.txt"
        c.check(
            note.is_file() and "--python" in note.read_text(encoding="utf-8"),
            "FIRST-RUN.txt beside the launcher says how to add a framework",
            f"{note} missing",
        )
    dropped = [p for p in ("torch/test", "torch/include", "torch/bin/test_api") if (internal / p).exists()]
    c.check(not dropped, "torch's test and header files are trimmed", f"found {dropped}")
    check_platform_plugins(c, internal)
    check_translations(c, internal)


def check_translations(c: Checker, internal: Path) -> None:
    """The window's compiled translations and Qt's own (qtbase) are in the bundle; their .ts sources are not."""
    shipped = internal / "gpu_tpu_app" / "resources" / "i18n"
    wanted = [ts.with_suffix(".qm").name for ts in sorted((ROOT / "resources" / "i18n").glob("*.ts"))]
    missing = [name for name in wanted if not (shipped / name).is_file()]
    sources = sorted(p.name for p in shipped.glob("*.ts")) if shipped.is_dir() else []
    c.check(
        bool(wanted) and not missing and not sources,
        f"the window's translations: {len(wanted)} .qm files, no .ts",
        f"missing {missing}, sources shipped {sources}",
    )
    qtbase = sorted(internal.rglob("qtbase_zh_CN.qm"))
    c.check(
        bool(qtbase),
        f"Qt's own translations: {qtbase[0].relative_to(internal) if qtbase else '-'}",
        "no qtbase_zh_CN.qm",
    )


def check_platform_plugins(c: Checker, internal: Path) -> None:
    """Qt's X11, Wayland and offscreen plugins: every library they link ships in the bundle.

    Libraries that PyInstaller leaves to the system on purpose (libc, libGL, libxcb, libwayland-*)
    are not asked for; any other one that resolves outside the bundle, or not at all, would be
    missing on a user's machine that lacks it.
    """
    from PyInstaller.depend.dylib import include_library

    if not shutil.which("ldd"):
        c.fail("ldd is not installed: cannot check the Qt platform plugins")
        return
    plugins = internal / "PySide6" / "Qt" / "plugins" / "platforms"
    env = {"PATH": "/usr/bin:/bin", "LD_LIBRARY_PATH": str(internal)}  # as the bundle's own launcher sets it
    problems = []
    for name in ("libqxcb.so", "libqwayland.so", "libqoffscreen.so"):
        plugin = plugins / name
        if not plugin.is_file():
            problems.append(f"{name} missing")
            continue
        out = subprocess.run(["ldd", str(plugin)], capture_output=True, text=True, env=env).stdout
        for line in out.splitlines():
            parts = line.split()
            if len(parts) < 3 or parts[1] != "=>" or not include_library(parts[0]):
                continue
            where = parts[2]
            if where == "not" or not Path(where).resolve().is_relative_to(internal.resolve()):
                problems.append(
                    f"{name} needs {parts[0]}, not in the bundle ({'not found' if where == 'not' else where})"
                )
    c.check(
        not problems,
        "Qt's xcb, wayland and offscreen platform plugins find their libraries in the bundle",
        "; ".join(sorted(set(problems))),
    )


def check_png(c: Checker, path: Path) -> None:
    """The screenshot is a 1280x800 PNG with real content (not one flat colour)."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtGui import QGuiApplication, QImage

    _app = QGuiApplication.instance() or QGuiApplication([sys.argv[0]])
    if not c.check(path.is_file(), f"screenshot written: {path}"):
        return
    if not c.check(path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n", "screenshot is a PNG file"):
        return
    image = QImage(str(path))
    size = (image.width(), image.height())
    c.check(size == SCREENSHOT_SIZE, f"screenshot is {size[0]}x{size[1]}", f"expected {SCREENSHOT_SIZE}")
    counts: dict[int, int] = {}
    for y in range(0, image.height(), 4):
        for x in range(0, image.width(), 4):
            rgb = image.pixel(x, y) & 0xFFFFFF
            counts[rgb] = counts.get(rgb, 0) + 1
    total = sum(counts.values()) or 1
    top = max(counts.values(), default=0) / total
    c.check(
        len(counts) >= 32 and top < 0.9,
        f"screenshot has content: {len(counts)} colours, the commonest covers {top:.0%}",
        "looks blank",
    )


def check_run_file(c: Checker, path: Path, backend: str) -> None:
    """The probe's run file loads with the app's schema and holds at least one ok result of `backend`."""
    from gpu_tpu_app.core.runs import SCHEMA_VERSION, load_run
    from gpu_tpu_app.errors import InputError

    try:
        run_file = load_run(path)
    except InputError as exc:
        c.fail(f"{backend} run file does not validate: {exc}")
        return
    c.check(run_file.schema_version == SCHEMA_VERSION, f"{backend} run file validates (schema {SCHEMA_VERSION})")
    ok = [r for r in run_file.results if r.status == "ok" and r.backend == backend and (r.value or 0) > 0]
    statuses = sorted({r.status for r in run_file.results})
    c.check(bool(ok), f"{backend}: {len(ok)} of {len(run_file.results)} results ok", f"statuses {statuses}")
    for r in ok:
        if r.kernel == "matmul":
            print(f"        {r.device} matmul {r.dtype} {r.size}: {r.value / 1e9:.1f} GFLOP/s", flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Check a built gpu-tpu-app bundle.")
    parser.add_argument("bundle", nargs="?", default=str(ROOT / "dist" / "gpu-tpu-app"), help="the bundle folder")
    parser.add_argument(
        "--backend",
        action="append",
        choices=["torch", "jax"],
        help="probe backends to run through the bundle (default: torch and jax)",
    )
    parser.add_argument(
        "--no-frameworks",
        action="store_true",
        help="the release bundle (make dist): torch and jax absent, and the probe names what to do instead",
    )
    args = parser.parse_args(argv)
    bundle = Path(args.bundle).absolute()
    exe = bundle / "gpu-tpu-app"
    c = Checker()
    if not c.check(exe.is_file() and os.access(exe, os.X_OK), f"launcher {exe} exists", "run `make bundle` first"):
        return 1
    check_contents(c, bundle, exe, frameworks=not args.no_frameworks)

    work = Path(tempfile.mkdtemp(prefix="gpu-tpu-app-bundle-check-"))
    home = work / "home"
    home.mkdir()
    env = bare_env(home)
    try:
        code, out, secs = run([str(exe), "--version"], env, work, 60)
        c.check(code == 0 and __version__ in out, f"--version says {out.strip()!r} ({secs:.1f} s)", tail(out))

        # A double-click runs the launcher with no arguments: the window must open and paint.
        code, out, secs = run([str(exe)], bare_env(home, GPU_TPU_APP_QUIT_AFTER_PAINT="1"), work, 120)
        painted = re.search(r"first-paint-seconds ([0-9.]+)", out)
        c.check(
            code == 0 and painted is not None,
            f"plain launch opens and paints the window (first paint {painted.group(1) if painted else '?'} s)",
            f"exit {code}\n{tail(out)}",
        )

        # The window and the commands in Chinese: translators loaded (the window's files and Qt's own), help in Chinese.
        code, out, secs = run(
            [str(exe), "--lang", "zh-Hans"], bare_env(home, GPU_TPU_APP_QUIT_AFTER_PAINT="1"), work, 120
        )
        loaded = re.search(r"language zh-Hans · translations (\d+)", out)
        wanted = len(list((ROOT / "resources" / "i18n").glob("*.zh_CN.ts"))) + 1
        c.check(
            code == 0 and loaded is not None and int(loaded.group(1)) >= wanted,
            f"--lang zh-Hans opens the window with {loaded.group(1) if loaded else '?'} translations loaded",
            f"exit {code}, wanted {wanted}\n{tail(out)}",
        )
        code, out, secs = run([str(exe), "--lang", "zh-Hans", "catalog", "--help"], env, work, 60)
        c.check(code == 0 and out.startswith("用法："), "--lang zh-Hans catalog --help is in Chinese", tail(out))

        shot = work / "learn.png"
        code, out, secs = run([str(exe), "--screenshot", str(shot), "--page", "learn"], env, work, 180)
        if c.check(code == 0, f"--screenshot --page learn exits 0 ({secs:.1f} s)", f"exit {code}\n{tail(out)}"):
            check_png(c, shot)

        if args.no_frameworks:
            # no framework inside: the probe says to use another Python, and nothing crashes
            code, out, secs = run([str(exe), "probe", "run", "--suite", "smoke"], env, work, 300)
            c.check(
                "torch is not in this bundle" in out and "jax is not in this bundle" in out and "Traceback" not in out,
                f"a probe without frameworks names what to do instead ({secs:.1f} s)",
                f"exit {code}\n{tail(out)}",
            )
        for backend in [] if args.no_frameworks else args.backend or ["torch", "jax"]:
            out_file = work / f"smoke-{backend}.json"
            cmd = [str(exe), "probe", "run", "--suite", "smoke", "--backend", backend, "--out", str(out_file)]
            code, out, secs = run(cmd, env, work, 600)
            if c.check(
                code == 0 and out_file.is_file(),
                f"smoke probe ({backend}) through the bundle ({secs:.1f} s)",
                f"exit {code}\n{tail(out)}",
            ):
                check_run_file(c, out_file, backend)

        data = work / "data"
        code, out, _ = run([str(exe), "--install-desktop-entry"], bare_env(home, XDG_DATA_HOME=str(data)), work, 60)
        entry = data / "applications" / f"{APP_ID}.desktop"
        if c.check(code == 0 and entry.is_file(), "--install-desktop-entry from the bundle", tail(out)):
            text = entry.read_text()
            c.check(
                f"Exec={exe}\n" in text,
                f"desktop entry starts the bundle: Exec={exe}",
                next((line for line in text.splitlines() if line.startswith("Exec=")), "no Exec line"),
            )
            if shutil.which("desktop-file-validate"):
                proc = subprocess.run(["desktop-file-validate", str(entry)], capture_output=True, text=True)
                c.check(
                    proc.returncode == 0 and not proc.stdout.strip(),
                    "installed desktop entry validates",
                    proc.stdout + proc.stderr,
                )
            else:
                c.fail("desktop-file-validate is not installed (make system-deps installs it)")
        code, out, _ = run([str(exe), "--uninstall-desktop-entry"], bare_env(home, XDG_DATA_HOME=str(data)), work, 60)
        left = [p for p in data.rglob("*") if p.is_file()] if data.exists() else []
        c.check(code == 0 and not left, "--uninstall-desktop-entry removes every file it wrote", f"left {left}")
    finally:
        shutil.rmtree(work, ignore_errors=True)

    print("bundle-check: " + ("FAILED" if c.failed else "all checks passed"), flush=True)
    return 1 if c.failed else 0


if __name__ == "__main__":
    sys.exit(main())
