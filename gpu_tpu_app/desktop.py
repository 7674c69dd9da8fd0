"""Desktop integration: add the app to (or remove it from) the user's desktop menu.

`gpu-tpu-app --install-desktop-entry` writes, under $XDG_DATA_HOME (default ~/.local/share),
the desktop entry with Exec set to this install's absolute launcher, the icon in every
hicolor size plus the scalable SVG, the AppStream metainfo and the shared-mime-info package that
names session and run files (application/x-gpu-tpu-session, application/x-gpu-tpu-run), so a file
manager opens them with the app. `--uninstall-desktop-entry` removes exactly those files (and the
file-type caches once they index nothing). Nothing outside the user's data directory is touched.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

from gpu_tpu_app import APP_ID, APP_NAME, atomic
from gpu_tpu_app.assets import resource_path
from gpu_tpu_app.core.texts import text
from gpu_tpu_app.shared.cliutil import error_line


def _say(ident: str, **values: Any) -> str:
    """What the desktop-entry commands print (resources/text/cli.* [desktop]), in the language in use."""
    return text(f"cli.desktop.{ident}", **values)


#: PNG sizes installed into the hicolor theme (the files in resources/icons/png/).
ICON_SIZES = (16, 24, 32, 48, 64, 128, 256, 512)


def desktop_template() -> str:
    """The packaged desktop entry (resources/desktop/), with a plain `gpu-tpu-app` launcher."""
    return resource_path("desktop", f"{APP_ID}.desktop").read_text(encoding="utf-8")


#: The MIME types of this app's files (shared-mime-info, resources/desktop/): the desktop entry opens them.
SESSION_MIME = "application/x-gpu-tpu-session"
RUN_MIME = "application/x-gpu-tpu-run"


def mime_xml() -> str:
    """The packaged shared-mime-info package (resources/desktop/) that names session and run files."""
    return resource_path("desktop", f"{APP_ID}.mime.xml").read_text(encoding="utf-8")


def metainfo() -> str:
    """The packaged AppStream metainfo (resources/desktop/)."""
    return resource_path("desktop", f"{APP_ID}.metainfo.xml").read_text(encoding="utf-8")


# Characters that force quoting of an Exec argument (Desktop Entry Specification, "The Exec key").
_EXEC_RESERVED = set(" \t\n\"'\\><~|&;$*?#()`")


def data_home() -> Path:
    """$XDG_DATA_HOME when set to an absolute path, else ~/.local/share (XDG Base Directory rules)."""
    value = os.environ.get("XDG_DATA_HOME", "")
    if value and os.path.isabs(value):
        return Path(value)
    return Path.home() / ".local" / "share"


def launcher_command() -> list[str]:
    """The absolute command that starts this install of the app.

    Frozen bundle: its own executable. Virtual environment or pip install: the `gpu-tpu-app`
    launcher next to the interpreter. Otherwise: the interpreter with `-m gpu_tpu_app`.
    """
    if getattr(sys, "frozen", False):
        return [str(Path(sys.executable).absolute())]
    # Not resolved: a venv's python is a symlink, and resolving it would leave the venv.
    bindir = Path(sys.executable).absolute().parent
    script = bindir / (APP_NAME + (".exe" if os.name == "nt" else ""))
    if script.is_file() and os.access(script, os.X_OK):
        return [str(script)]
    return [str(Path(sys.executable).absolute()), "-m", "gpu_tpu_app"]


def exec_quote(arg: str) -> str:
    """One Exec argument, quoted and escaped as the Desktop Entry Specification asks."""
    arg = arg.replace("%", "%%")
    if any(ch in _EXEC_RESERVED for ch in arg):
        escaped = "".join("\\" + ch if ch in '"`$\\' else ch for ch in arg)
        arg = f'"{escaped}"'
    # The Exec value is itself a string value, whose own escape rule doubles each backslash.
    return arg.replace("\\", "\\\\")


def string_escape(value: str) -> str:
    """A value of type string as the Desktop Entry Specification writes it (backslash doubled)."""
    return value.replace("\\", "\\\\")


def _shown(text: str) -> str:
    """`text` with control characters (and undecodable bytes) written as escapes, so it stays on one line."""
    return "".join(c if c.isprintable() or c == " " else ascii(c)[1:-1] for c in text)


class LauncherError(ValueError):
    """The install's launcher path cannot be written into a desktop entry that menus accept."""


def check_launcher(command: list[str]) -> None:
    """Refuse a launcher a desktop entry cannot carry: control characters or bytes that are not UTF-8
    (the entry is UTF-8 text, one key per line), or a '%' in the program path, which GLib-based menus
    cannot find (its loader looks up the program before expanding '%%' to '%') and would drop."""
    for arg in command:
        if any(not c.isprintable() and c != " " for c in arg):
            raise LauncherError(_say("control_characters", path=_shown(arg)))
    if "%" in command[0]:
        raise LauncherError(_say("percent", path=_shown(command[0])))


def desktop_entry(command: list[str]) -> str:
    """The packaged desktop entry with Exec and TryExec pointing at `command`.

    Exec is quoted by the Exec rules; TryExec is a plain path (a string value: only escaped), as
    GLib's loader looks it up verbatim. LauncherError when `command` cannot be written (check_launcher).
    """
    check_launcher(command)
    # %F: the files a file manager opens with the app (sessions and probe runs, by their MIME types)
    values = {"Exec": " ".join(exec_quote(a) for a in command) + " %F", "TryExec": string_escape(command[0])}
    lines = []
    for line in desktop_template().splitlines():
        key = line.split("=", 1)[0]
        lines.append(f"{key}={values[key]}" if key in values and "=" in line else line)
    return "\n".join(lines) + "\n"


def planned_files(root: Path | None = None) -> dict[Path, bytes]:
    """Every file --install-desktop-entry writes, as path -> content, under `root` (default: data_home())."""
    root = data_home() if root is None else root
    files: dict[Path, bytes] = {
        root / "applications" / f"{APP_ID}.desktop": desktop_entry(launcher_command()).encode("utf-8"),
        root / "metainfo" / f"{APP_ID}.metainfo.xml": metainfo().encode("utf-8"),
        root / "mime" / "packages" / f"{APP_ID}.xml": mime_xml().encode("utf-8"),
        root / "icons" / "hicolor" / "scalable" / "apps" / f"{APP_ID}.svg": resource_path(
            "icons", "gpu-tpu-app.svg"
        ).read_bytes(),
    }
    for size in ICON_SIZES:
        png = resource_path("icons", "png", f"gpu-tpu-app-{size}.png").read_bytes()
        files[root / "icons" / "hicolor" / f"{size}x{size}" / "apps" / f"{APP_ID}.png"] = png
    return files


def installed_paths(root: Path | None = None) -> list[Path]:
    """The paths --uninstall-desktop-entry removes (the same ones install writes)."""
    root = data_home() if root is None else root
    paths = [
        root / "applications" / f"{APP_ID}.desktop",
        root / "metainfo" / f"{APP_ID}.metainfo.xml",
        root / "mime" / "packages" / f"{APP_ID}.xml",
        root / "icons" / "hicolor" / "scalable" / "apps" / f"{APP_ID}.svg",
    ]
    paths += [root / "icons" / "hicolor" / f"{s}x{s}" / "apps" / f"{APP_ID}.png" for s in ICON_SIZES]
    return paths


def _refresh_caches(root: Path) -> None:
    """Refresh the caches of the user's data directory that name this app.

    The icon cache is refreshed only where it exists (the desktop reads the icon folders directly, and
    a new cache would be left behind). The file-type caches are what a file manager reads to open a
    session or run file with this app, so they are made: the MIME database of the user's own packages
    (built from mime/packages) and the applications' mimeinfo.cache. Once this app's files are gone
    and nothing else is left to index, those two are removed again (_drop_empty_caches).
    """
    jobs = []
    applications = root / "applications"
    hicolor = root / "icons" / "hicolor"
    if applications.is_dir() and shutil.which("update-desktop-database"):
        jobs.append(["update-desktop-database", "-q", str(applications)])
    mime = root / "mime"
    if (mime / "packages").is_dir() and shutil.which("update-mime-database"):
        jobs.append(["update-mime-database", str(mime)])
    if (hicolor / "icon-theme.cache").exists() and shutil.which("gtk-update-icon-cache"):
        jobs.append(["gtk-update-icon-cache", "-q", "-t", "-f", str(hicolor)])
    for cmd in jobs:
        try:
            subprocess.run(cmd, check=False, timeout=60, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        except (OSError, subprocess.SubprocessError):
            pass  # a cache that cannot be refreshed only delays the menu update
    _drop_empty_caches(root)


def _drop_empty_caches(root: Path) -> None:
    """Remove the file-type caches that index nothing: a mimeinfo.cache with no association, and the
    MIME database (everything under mime/ is generated from mime/packages) of no package."""
    applications = root / "applications"
    cache = applications / "mimeinfo.cache"
    if cache.is_file():
        try:
            entries = [ln for ln in cache.read_text(encoding="utf-8", errors="replace").splitlines() if "=" in ln]
        except OSError:
            entries = ["unreadable: leave it"]
        if not entries:  # the header alone: no desktop entry there names a file type
            cache.unlink()
    mime = root / "mime"
    packages = mime / "packages"
    if mime.is_dir() and not (packages.is_dir() and any(packages.glob("*.xml"))):
        for path in sorted(mime.rglob("*"), key=lambda p: len(p.parts), reverse=True):
            if path.is_dir() and not path.is_symlink():
                path.rmdir()
            else:
                path.unlink()


class _Link(str):
    """The text of a symlink an install replaced (an undo puts the link back)."""


def _current(path: Path) -> bytes | _Link | None:
    """What is at `path` now, without following a symlink: a regular file's bytes, a symlink's text, or None."""
    try:
        if path.is_symlink():
            return _Link(os.readlink(path))
        return path.read_bytes() if path.is_file() else None
    except OSError:
        return None


def install_entry(root: Path | None = None) -> list[Path]:
    """Write the desktop entry, icons and metainfo; returns the paths whose content changed.

    These are the app's own files: a symlink at one of their paths is replaced by the file, never
    written through (the file it points to keeps its content).
    All or nothing: every file is first written in full beside its place, then all are renamed.
    When one fails (a full disk), what this install wrote is removed (a file it replaced gets its
    old content back, a symlink it replaced comes back) and the OSError names the file that failed.
    """
    root = data_home() if root is None else root
    previous: dict[Path, bytes | _Link | None] = {}
    staged: list[atomic.Staged] = []
    try:
        for path, data in planned_files(root).items():
            old = _current(path)
            if old == data and not isinstance(old, _Link):
                continue
            previous[path] = old
            staged.append(atomic.stage(path, data, follow_symlinks=False))
    except BaseException:
        for s in reversed(staged):
            s.discard()
        raise
    done: list[atomic.Staged] = []
    try:
        for s in staged:
            s.commit()
            done.append(s)
    except BaseException:
        for s in reversed(staged[len(done) + 1 :]):
            s.discard()
        _undo(done, previous)
        raise
    file_type_caches = (root / "applications" / "mimeinfo.cache", root / "mime" / "mime.cache")
    if staged or not all(p.is_file() for p in file_type_caches):  # a reinstall that changes nothing, touches nothing
        _refresh_caches(root)
    return [s.path for s in staged]


def _undo(done: list[atomic.Staged], previous: dict[Path, bytes | _Link | None]) -> None:
    """Take back files an install put in place: restore what they replaced, remove the new ones."""
    for s in reversed(done):
        try:
            old = previous.get(s.path)
            if isinstance(old, _Link):
                s.path.unlink()
                os.symlink(str(old), s.path)
                continue
            if old is not None:
                atomic.write_bytes(s.path, old)
                continue
            s.path.unlink()
            for folder in reversed(s.created):
                folder.rmdir()
        except OSError:
            continue


def foreign_paths(root: Path | None = None) -> list[Path]:
    """The paths of this app's files that hold something install never writes (a symlink, a folder):
    uninstall leaves them alone."""
    root = data_home() if root is None else root
    return [p for p in installed_paths(root) if p.is_symlink() or (p.exists() and not p.is_file())]


def uninstall_entry(root: Path | None = None) -> list[Path]:
    """Remove the files install_entry() writes; returns the ones that were there.

    Only regular files are removed: install never leaves a symlink, so one found there is the
    user's (or another program's) and stays, as does the file it points to (foreign_paths)."""
    root = data_home() if root is None else root
    removed = []
    for path in installed_paths(root):
        if path.is_file() and not path.is_symlink():
            path.unlink()
            removed.append(path)
    _refresh_caches(root)
    return removed


def main(install: bool) -> int:
    """--install-desktop-entry (install=True) or --uninstall-desktop-entry; prints what it did."""
    if not sys.platform.startswith(("linux", "freebsd", "openbsd", "netbsd")):
        print(error_line(_say("not_linux")), file=sys.stderr)
        return 1
    root = data_home()
    try:
        if install:
            changed = install_entry(root)
            for path in planned_files(root):
                print(_say("wrote" if path in changed else "unchanged", path=path))
            print(_say("installed", app=APP_NAME, command=" ".join(launcher_command())))
        else:
            removed = uninstall_entry(root)
            for path in removed:
                print(_say("removed", path=path))
            for path in foreign_paths(root):
                print(_say("left_alone", path=_shown(str(path))))
            if not removed:
                print(_say("nothing_to_remove", root=root))
    except LauncherError as exc:
        print(error_line(exc), file=sys.stderr)
        return 1
    except OSError as exc:
        where = _shown(str(exc.filename or root))
        problem = _say("os_error_undone" if install else "os_error", path=where, problem=exc.strerror or exc)
        print(error_line(problem), file=sys.stderr)
        return 1
    return 0
