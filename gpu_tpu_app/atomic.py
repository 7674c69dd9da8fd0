"""Atomic file writes: the whole new file goes to a temporary file next to the target, then a rename.

Readers see the old file or the new one, never half of one. On top of that, a save behaves
as users expect of an ordinary one:

- a symlink is followed: the file it points to is replaced and the link stays a link;
- only a regular file is replaced: a folder, a device (/dev/null) or a FIFO is an OSError;
- an existing file keeps its mode, and its owner and group where the OS allows;
- the data, then the folder (after the rename) are fsynced, so a crash right after a save keeps it;
- a failed save leaves nothing behind (no temporary file, no folder it created) and raises an
  OSError whose filename is the path the caller asked for;
- temporary files are named `.NAME.XXXXXXXX.gpu-tpu-app.tmp`; those an interrupted save left
  behind (a kill, a power cut) are removed by the next save into that folder once they are
  older than STALE_TEMP_S.
"""

from __future__ import annotations

import errno
import os
import stat
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from gpu_tpu_app.shared import portable

#: Ends the name of every temporary file this module makes (and the only ones it ever removes).
TEMP_SUFFIX = ".gpu-tpu-app.tmp"
#: A temporary file of ours untouched for this long belongs to a save that will never finish.
STALE_TEMP_S = 15 * 60
#: Symlinks followed before a save gives up with ELOOP (Linux's own limit).
MAX_SYMLINKS = 40


def resolve_target(path: str | Path) -> Path:
    """The file a save to `path` writes: `path` itself, or the end of its chain of symlinks.

    A dangling link resolves to the file it names (the save creates it). A loop, or a chain
    longer than MAX_SYMLINKS, raises OSError(ELOOP).
    """
    current = Path(path)
    for _ in range(MAX_SYMLINKS):
        try:
            link = os.readlink(current)
        except FileNotFoundError:
            return current  # a new file (its folder may be missing too: the save creates it)
        except OSError as exc:
            if exc.errno == errno.EINVAL:  # not a symlink
                return current
            raise _named(exc, path) from None
        current = current.parent / link  # an absolute link replaces the whole path
    raise OSError(errno.ELOOP, os.strerror(errno.ELOOP), str(path))


@dataclass
class Staged:
    """A new file's content written in full to a temporary file beside its target, not yet in place.

    `commit()` puts it in place (rename, then fsync of the folder); `discard()` removes it and the
    folders made for it. After either, the object is spent.
    """

    path: Path  # what the caller asked for (named in errors)
    target: Path  # the file replaced (differs from path when path is a symlink)
    temp: str
    created: list[Path] = field(default_factory=list)  # folders made for it, outermost first

    def commit(self) -> None:
        """Rename the temporary file over the target and make the rename durable."""
        try:
            os.replace(self.temp, self.target)
        except BaseException as exc:
            self.discard()
            if isinstance(exc, OSError):
                raise _named(exc, self.path) from exc
            raise
        _fsync_dir(self.target.parent)
        for folder in self.created:  # a new folder's own entry lives in its parent
            _fsync_dir(folder.parent)

    def discard(self) -> None:
        """Remove the temporary file and any folder made for it (when still empty)."""
        try:
            os.unlink(self.temp)
        except FileNotFoundError:
            pass
        _remove_dirs(self.created)


def stage(path: str | Path, data: bytes, *, follow_symlinks: bool = True) -> Staged:
    """Write `data` to a temporary file beside the file `path` names (following symlinks), fsynced.

    With follow_symlinks=False a symlink at `path` is itself replaced by the new file (the file it
    points to is never touched): for files that are the app's own, such as a desktop menu entry.
    Raises OSError naming `path` when the data cannot be written in full (a full disk, no
    permission, a symlink loop, a folder in the way); nothing is left behind then.
    """
    target = resolve_target(path) if follow_symlinks else Path(path)
    _check_regular(target, path, follow_symlinks=follow_symlinks)
    created = _make_parents(target.parent, path)
    try:
        _remove_stale_temps(target.parent)
        fd, temp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=TEMP_SUFFIX, dir=target.parent)
    except OSError as exc:
        _remove_dirs(created)
        raise _named(exc, path) from exc
    staged = Staged(Path(path), target, temp, created)
    try:
        try:
            _copy_owner_and_mode(fd, target, follow_symlinks=follow_symlinks)
            _write_all(fd, data)
            os.fsync(fd)
        finally:
            os.close(fd)  # may itself report a late write error (network file systems)
    except BaseException as exc:
        staged.discard()
        if isinstance(exc, OSError):
            raise _named(exc, path) from exc
        raise
    return staged


def write_bytes(path: str | Path, data: bytes) -> None:
    """Write `data` to `path` so that readers see the old file or the new one, never half of one."""
    stage(path, data).commit()


def write_text(path: str | Path, text: str) -> None:
    """Atomic UTF-8 text write."""
    write_bytes(path, text.encode("utf-8"))


# ---------------------------------------------------------------- helpers


def _named(exc: OSError, path: str | Path) -> OSError:
    """The same error with `path` as its filename (the temporary file's name means nothing to a user)."""
    if exc.errno is None:
        return exc
    return OSError(exc.errno, exc.strerror or os.strerror(exc.errno), str(path))  # keeps the subclass


def _check_regular(target: Path, path: str | Path, *, follow_symlinks: bool = True) -> None:
    """Only a regular file (or none yet) is replaced: never a folder, a device such as /dev/null, a FIFO.
    Without following symlinks, a symlink itself is replaced too (never what it points to)."""
    try:
        st = os.stat(target, follow_symlinks=follow_symlinks)
    except FileNotFoundError:
        return
    except OSError as exc:
        raise _named(exc, path) from None
    if stat.S_ISLNK(st.st_mode):
        return
    if stat.S_ISDIR(st.st_mode):
        raise OSError(errno.EISDIR, "is a folder", str(path))
    if not stat.S_ISREG(st.st_mode):
        raise OSError(errno.EINVAL, "not a regular file", str(path))


def _make_parents(folder: Path, path: str | Path) -> list[Path]:
    """Create `folder` and its missing parents; returns the ones made, outermost first."""
    missing: list[Path] = []
    current = folder
    while not current.exists() and current != current.parent:
        missing.append(current)
        current = current.parent
    missing.reverse()
    made: list[Path] = []
    for d in missing:
        try:
            d.mkdir()
        except FileExistsError:
            if not d.is_dir():
                _remove_dirs(made)
                raise OSError(errno.ENOTDIR, os.strerror(errno.ENOTDIR), str(path)) from None
        except OSError as exc:
            _remove_dirs(made)
            raise _named(exc, path) from exc
        else:
            made.append(d)
    return made


def _remove_dirs(folders: list[Path]) -> None:
    """Remove folders made for a failed save, innermost first, only while they are empty."""
    for d in reversed(folders):
        try:
            d.rmdir()
        except OSError:
            return


def _umask() -> int:
    try:
        with open("/proc/self/status", encoding="ascii") as fh:  # Linux: read without changing it
            for line in fh:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _copy_owner_and_mode(fd: int, target: Path, *, follow_symlinks: bool = True) -> None:
    """Give the temporary file the existing target's owner, group and mode (a new file, or a symlink
    being replaced: 0666 less the umask)."""
    try:
        st = os.stat(target, follow_symlinks=follow_symlinks)
    except FileNotFoundError:
        st = None
    if st is None or stat.S_ISLNK(st.st_mode):
        portable.fchmod(fd, 0o666 & ~_umask())
        return
    if hasattr(os, "fchown"):
        mine = os.fstat(fd)
        if (mine.st_uid, mine.st_gid) != (st.st_uid, st.st_gid):
            try:
                os.fchown(fd, st.st_uid, st.st_gid)  # only root may give a file away
            except PermissionError:
                try:
                    os.fchown(fd, -1, st.st_gid)  # the group, when the user is a member of it
                except PermissionError:
                    pass
    portable.fchmod(fd, stat.S_IMODE(st.st_mode))  # after chown, which clears set-id bits


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        n = os.write(fd, view[: 1 << 24])
        if n <= 0:  # a regular file only writes short when the disk is full
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        view = view[n:]


def _fsync_dir(folder: Path) -> None:
    """Make a rename in `folder` durable; a file system that cannot fsync a folder keeps the rename anyway."""
    if os.name != "posix":
        return
    try:
        dfd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return
    try:
        os.fsync(dfd)
    except OSError:
        pass
    finally:
        os.close(dfd)


def _remove_stale_temps(folder: Path) -> None:
    """Remove this module's temporary files in `folder` that an interrupted save left behind."""
    now = time.time()
    me = os.geteuid() if hasattr(os, "geteuid") else None
    try:
        entries = os.scandir(folder)
    except OSError:
        return
    with entries:
        for entry in entries:
            if not (entry.name.startswith(".") and entry.name.endswith(TEMP_SUFFIX)):
                continue
            try:
                st = entry.stat(follow_symlinks=False)
                if not stat.S_ISREG(st.st_mode) or (me is not None and st.st_uid != me):
                    continue
                if now - st.st_mtime >= STALE_TEMP_S:
                    os.unlink(entry.path)
            except OSError:
                continue
