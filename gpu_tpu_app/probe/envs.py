"""Find the user's Python environments, ask each what it can measure, and run workers in them.

App side (pydantic allowed, no Qt): discovery of interpreters (this app's, the active venv or
conda env, conda's own list or its environments file, pyenv versions, common virtualenv folders,
ones added by path), a query per interpreter (envquery.py run in it with a timeout), a cache by
interpreter path and modification times, and what a worker in another interpreter needs: the
worker-side sources staged in a folder of their own (put on that process's PYTHONPATH only) and
the catalogue's match patterns and peaks as JSON.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
from collections.abc import Callable, Iterable, Mapping
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from pydantic import BaseModel, ConfigDict, ValidationError

from gpu_tpu_app import APP_NAME, __version__
from gpu_tpu_app.core.environments import (
    FRAMEWORKS,
    MIN_PYTHON,
    EnvironmentInfo,
    FrameworkDevices,
    PythonEnv,
    build_flavour,
)
from gpu_tpu_app.core.texts import text
from gpu_tpu_app.errors import InputError
from gpu_tpu_app.probe import envanswer, guarded
from gpu_tpu_app.safe_read import read_text
from gpu_tpu_app.shared.cliutil import one_line
from gpu_tpu_app.shared.terms import PEAK_DTYPES

#: Seconds one query may take (importing torch and JAX on a cold disk can take a while).
QUERY_TIMEOUT_S = 60.0
#: A cache file larger than this is ignored (it is rebuilt).
CACHE_MAX_BYTES = 4 * 1024 * 1024
CACHE_SCHEMA = 1
#: Folders where people keep virtualenvs, relative to the home folder.
VENV_FOLDERS = (".virtualenvs", ".venvs", "venvs", "envs", ".local/share/virtualenvs", ".cache/pypoetry/virtualenvs")
PACKAGE_DIR = Path(__file__).resolve().parent.parent
#: Everything a worker in another interpreter needs, relative to the package: the package's __init__,
#: the shared/ floor (standard library only: the import-linter contract "the worker side and shared/
#: import only the standard library and the frameworks" proves it) and the worker/ folder.
WORKER_MODULES = (
    "__init__.py",
    *sorted(
        p.relative_to(PACKAGE_DIR).as_posix()
        for folder in ("shared", "worker")
        for p in (PACKAGE_DIR / folder).rglob("*.py")
    ),
)


def cache_dir() -> Path:
    """The user's cache folder for this app."""
    import platformdirs

    return Path(platformdirs.user_cache_dir(APP_NAME, appauthor=False))


# ---------------------------------------------------------------- interpreters


#: The longest interpreter path kept (PATH_MAX on Linux); a longer one is listed as unusable.
MAX_PATH_CHARS = 4096
#: conda's environments file is a few lines; a bigger one is not read.
CONDA_LIST_MAX_BYTES = 1024 * 1024


def shown_path(path: str | Path) -> str:
    """A path as text that is safe to show and store: bytes that are not UTF-8 and control characters
    (line breaks, escape sequences) written as escapes. Equal to str(path) for an ordinary path."""
    return one_line(os.fsencode(path).decode("utf-8", "backslashreplace"))


def _is_file(path: Path) -> bool:
    try:
        return path.is_file()
    except (OSError, ValueError):  # a name too long, a NUL byte
        return False


def _bin_python(prefix: Path) -> Path | None:
    for rel in ("bin/python", "bin/python3", "Scripts/python.exe", "python.exe"):
        p = prefix / rel
        if _is_file(p):
            return p
    return None


def env_name(interpreter: str | Path, kind: str | None = None) -> str:
    """A short name for an interpreter's environment: the venv or conda env folder, 'pyenv 3.12.1', the path."""
    path = Path(os.path.abspath(interpreter))
    prefix = path.parent.parent if path.parent.name in ("bin", "Scripts") else path.parent
    if (prefix / "conda-meta").is_dir() or kind == "conda":
        return "base" if (prefix / "envs").is_dir() and (prefix / "condabin").exists() else prefix.name
    if "pyenv" in str(prefix) and prefix.parent.name == "versions":
        return f"pyenv {prefix.name}"
    if (prefix / "pyvenv.cfg").is_file():
        return prefix.name if prefix.name not in (".venv", "venv") else f"{prefix.parent.name}/{prefix.name}"
    return str(path)


def _add(found: dict[str, tuple[str, str]], interpreter: Path | str | None, kind: str) -> None:
    if interpreter is None:
        return
    key = os.path.abspath(os.path.expanduser(str(interpreter)))
    if key not in found:
        try:
            name = env_name(key, kind)
        except (OSError, ValueError):
            name = key
        found[key] = (kind, one_line(shown_path(name))[:200])


def _version_order(path: Path) -> tuple:
    """'3.9.18' before '3.10.13': numbers compared as numbers, other names after them by name."""
    parts = path.name.split(".")
    return (0, tuple(int(x) for x in parts), "") if all(x.isdigit() for x in parts) else (1, (), path.name)


#: How long `conda env list --json` may take before its environments file is read instead.
CONDA_LIST_TIMEOUT_S = 20.0


def _conda_prefixes(
    home: Path, environ: Mapping[str, str], timeout_s: float | None = None, notes: list[str] | None = None
) -> list[Path]:
    """conda's environments: from `conda env list --json` when conda is present, else its environments file.

    Both are read as untrusted: conda's output bounded in size and time, the file only when it is a
    regular file under CONDA_LIST_MAX_BYTES (never a FIFO or a device), lines longer than a path can
    be skipped. What was skipped is said in `notes`."""
    notes = [] if notes is None else notes
    timeout_s = CONDA_LIST_TIMEOUT_S if timeout_s is None else timeout_s
    conda = environ.get("CONDA_EXE") or shutil.which("conda", path=environ.get("PATH"))
    if conda:
        try:
            proc = guarded.start(  # dies with this process, like the interpreters' queries
                [conda, "env", "list", "--json"],
                env=dict(os.environ),
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
            )
            out = envanswer.read_process(proc, timeout_s, CONDA_LIST_MAX_BYTES)
            data = json.loads(out.stdout.decode("utf-8", "replace")) if out.verdict is None else None
            envs = data.get("envs") if isinstance(data, dict) else None
            if isinstance(envs, list):
                return [Path(e) for e in envs[:4096] if isinstance(e, str) and 0 < len(e) <= MAX_PATH_CHARS]
        except (OSError, ValueError, RecursionError, subprocess.SubprocessError):
            pass
    listing = home / ".conda" / "environments.txt"
    if not listing.exists():
        return []
    try:
        text = read_text(listing, "conda's list of environments", CONDA_LIST_MAX_BYTES)
    except InputError as exc:
        notes.append(f"{exc}")
        return []
    lines = [line.strip() for line in text.splitlines()]
    kept = [line for line in lines if line and not line.startswith("#") and len(line) <= MAX_PATH_CHARS]
    skipped = sum(1 for line in lines if len(line) > MAX_PATH_CHARS)
    if skipped:
        lines_word = "1 line" if skipped == 1 else f"{skipped} lines"
        notes.append(
            f"{shown_path(listing)}: {lines_word} longer than a path can be ({MAX_PATH_CHARS} characters) skipped"
        )
    return [Path(line) for line in kept]


def discover(
    added: Iterable[str] = (),
    *,
    home: Path | None = None,
    environ: Mapping[str, str] | None = None,
    cwd: Path | None = None,
    include_app: bool = True,
    notes: list[str] | None = None,
) -> list[tuple[str, str, str]]:
    """(interpreter, kind, name) of every environment found, this app's first, without duplicates.

    A list that could not be read whole (conda's environments file as a FIFO, a line too long)
    adds one line to `notes`; the rest is still found."""
    environ = os.environ if environ is None else environ
    home = Path(environ.get("HOME") or Path.home()) if home is None else home
    cwd = Path.cwd() if cwd is None else cwd
    found: dict[str, tuple[str, str]] = {}
    if include_app and not getattr(sys, "frozen", False):
        found[os.path.abspath(sys.executable)] = ("app", "this app")
    for var in ("VIRTUAL_ENV", "CONDA_PREFIX"):
        if environ.get(var):
            _add(found, _bin_python(Path(environ[var])), "active")
    for prefix in _conda_prefixes(home, environ, notes=notes):
        _add(found, _bin_python(prefix), "conda")
    pyenv_root = Path(environ.get("PYENV_ROOT") or home / ".pyenv")
    for version in sorted((pyenv_root / "versions").glob("*"), key=_version_order):
        _add(found, _bin_python(version), "pyenv")
        for venv in sorted((version / "envs").glob("*")):
            _add(found, _bin_python(venv), "pyenv")
    for folder in VENV_FOLDERS:
        for prefix in sorted((home / folder).glob("*")):
            if _is_file(prefix / "pyvenv.cfg"):
                _add(found, _bin_python(prefix), "venv")
    for local in (".venv", "venv"):
        if (cwd / local / "pyvenv.cfg").is_file():
            _add(found, _bin_python(cwd / local), "venv")
    for path in added:
        _add(found, path, "added")
    return [(path, kind, name) for path, (kind, name) in found.items()]


# ---------------------------------------------------------------- the query


def _stat_key(interpreter: str) -> tuple[float, float] | None:
    """(interpreter's mtime, its site-packages' mtime): installing or removing a package changes the second."""
    try:
        exe = os.stat(interpreter).st_mtime
    except OSError:
        return None
    path = Path(interpreter)
    prefix = path.parent.parent if path.parent.name in ("bin", "Scripts") else path.parent
    site = 0.0
    for sp in [*prefix.glob("lib/python3*/site-packages"), prefix / "Lib" / "site-packages"]:
        try:
            site = max(site, sp.stat().st_mtime)
        except OSError:
            pass
    return exe, site


def query_env(
    interpreter: str, kind: str = "added", name: str | None = None, timeout_s: float = QUERY_TIMEOUT_S
) -> PythonEnv:
    """Run envquery.py in `interpreter` and describe what it reported; never raises, never waits past timeout_s.

    Its answer is untrusted (envanswer.py): at most envanswer.ANSWER_MAX_BYTES read within timeout_s,
    every value type-checked and cut to one line; a bad answer makes the environment unusable, with
    one line why.
    """
    name = one_line(name or env_name(interpreter))[:200]
    shown = shown_path(interpreter)
    base = {"interpreter": shown, "name": name, "kind": kind}
    if shown != interpreter:  # not UTF-8, or a line break in it: a run file could not record it as it is
        return PythonEnv(
            **base,
            problem=_problem("not_utf8", interpreter=shown)[:500],
        )
    if len(interpreter) > MAX_PATH_CHARS:
        return PythonEnv(**{**base, "interpreter": shown[:MAX_PATH_CHARS]}, problem=_problem("too_long"))
    path = Path(interpreter)
    try:
        if not path.exists():
            return PythonEnv(**base, problem=_problem("no_such_file", interpreter=interpreter))
        if path.is_dir():
            return PythonEnv(**base, problem=_problem("folder", interpreter=interpreter))
    except (OSError, ValueError) as exc:
        return PythonEnv(**base, problem=f"{interpreter}: cannot look at it ({getattr(exc, 'strerror', None) or exc})")
    if not os.access(path, os.X_OK):
        return PythonEnv(**base, problem=_problem("not_executable", interpreter=interpreter))
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME", "PYTHONSTARTUP")}
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    argv = [str(path), str(PACKAGE_DIR / "worker" / "envquery.py")]
    try:
        # under the process guard: the interpreter (and a conda wrapper's child) dies with this process
        proc = guarded.start(argv, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    except (OSError, ValueError) as exc:
        why = exc.strerror if isinstance(exc, OSError) and exc.strerror else exc
        return PythonEnv(**base, problem=f"{shown_path(interpreter)}: cannot run it ({why}), not a Python interpreter")
    out = envanswer.read_process(proc, timeout_s)
    try:
        return _read_answer(base, out.stdout, out.stderr, out.verdict, shown_path(interpreter))
    except ValidationError as exc:  # a value the checks above let through that the model refuses
        first = exc.errors(include_url=False)[0] if exc.errors() else {"loc": (), "msg": str(exc)}
        where = ".".join(str(x) for x in first.get("loc", ())) or "answer"
        return PythonEnv(
            **base,
            problem=one_line(f"{shown_path(interpreter)}: its answer is not valid: {where}: {first['msg']}")[:500],
        )


#: the language of the problems the cache, run files and `envs --format json` keep (read in any language).
CACHE_LANGUAGE = "en"


def _problem(ident: str, **values: object) -> str:
    """An environment's problem in English, as the cache and `envs --format json` keep it; shown in the
    language in use through core.environments.problem_words (resources/text/probe_app.*, [envs.problem])."""
    return text(f"probe_app.envs.problem.{ident}", language=CACHE_LANGUAGE, **values)


def _read_answer(base: dict, stdout: bytes, stderr: str, verdict: str | None, interpreter: str) -> PythonEnv:
    answer = envanswer.parse_answer(stdout)
    parts, started = answer.parts, answer.started
    note = answer.note()
    meta = parts.get("meta")
    if meta is None:
        why = verdict or "gave no answer"
        last = [x for x in stderr.strip().splitlines() if x.strip()][-1:]
        hint = f": {envanswer.text(last[0], 200)}" if last else ""
        extra = f"; {note}" if note else ""
        if ("SyntaxError" in stderr or "invalid syntax" in stderr) and not extra:
            return PythonEnv(**base, problem=_problem("python2", interpreter=interpreter)[:500])
        if "SyntaxError" in stderr or "invalid syntax" in stderr:
            why, hint = "too old to run the query (Python 2?)", ""
        return PythonEnv(**base, problem=f"{interpreter}: not a usable Python interpreter: {why}{hint}{extra}"[:500])
    python = envanswer.text(meta.get("python"), envanswer.PYTHON_CHARS) or None
    if meta.get("too_old") is True:
        need = ".".join(map(str, MIN_PYTHON))
        return PythonEnv(
            **base,
            python=python,
            problem=_problem("too_old", interpreter=interpreter, python=python, need=need)[:500],
        )
    versions = envanswer.versions_of(meta.get("versions"))
    frameworks: list[FrameworkDevices] = []
    for fw in ("torch", "jax"):
        part = parts.get(fw)
        if part is None and started == fw:
            frameworks.append(FrameworkDevices(framework=fw, error=f"importing {fw} {verdict or 'never finished'}"))
            continue
        if part is None:
            continue
        versions.update(envanswer.versions_of(part.get("versions")))
        devices = envanswer.devices_of(part.get("devices"))
        error = envanswer.text(part.get("error"), envanswer.ERROR_CHARS)
        if error is None and part.get("error") not in (None, ""):
            error = "gave an error that is not text"
        frameworks.append(FrameworkDevices(framework=fw, devices=devices, error=error))
    versions = {k: v for k, v in versions.items() if k in FRAMEWORKS or k.startswith(("jax_", "libtpu", "torch_"))}
    importable = [fw for fw in frameworks if fw.devices]
    problem = None
    if not any(k in versions for k in ("torch", "jax")):
        problem = _problem("no_frameworks", interpreter=interpreter)
    elif not frameworks:
        problem = f"{interpreter}: the query {verdict or 'ended before it reported a framework'}"
    elif not importable:
        problem = f"{interpreter}: " + "; ".join(fw.error or f"{fw.framework}: no devices" for fw in frameworks)
    elif verdict and parts.get("end") is None:
        problem = f"{interpreter}: the query {verdict}"
    return PythonEnv(
        **base,
        usable=problem is None or bool(importable),
        problem=problem[:500] if problem else None,
        note=note,
        python=python,
        versions=versions,
        frameworks=frameworks,
        flavour=build_flavour(versions),
    )


# ---------------------------------------------------------------- cache


class _CacheEntry(BaseModel):
    model_config = ConfigDict(extra="forbid")
    mtime: float
    site_mtime: float
    app_version: str
    env: PythonEnv


class _CacheFile(BaseModel):
    model_config = ConfigDict(extra="forbid")
    schema_version: int
    entries: dict[str, _CacheEntry] = {}


_cache_lock = threading.Lock()


def cache_path() -> Path:
    """The query cache: one JSON file in the user cache folder."""
    return cache_dir() / "environments.json"


def _read_cache(path: Path) -> dict[str, _CacheEntry]:
    try:
        if path.stat().st_size > CACHE_MAX_BYTES:
            return {}
        raw = json.loads(path.read_text(encoding="utf-8"))
        data = _CacheFile.model_validate(raw)
    except (OSError, ValueError, ValidationError):
        return {}  # missing, unreadable or not ours: queries run again and the file is rewritten
    return data.entries if data.schema_version == CACHE_SCHEMA else {}


def _write_cache(path: Path, entries: dict[str, _CacheEntry]) -> None:
    from gpu_tpu_app.atomic import write_text

    try:
        write_text(path, _CacheFile(schema_version=CACHE_SCHEMA, entries=entries).model_dump_json() + "\n")
    except OSError as exc:
        print(text("probe_app.envs.cache_not_written", path=path, problem=exc.strerror or exc), file=sys.stderr)


def list_envs(
    added: Iterable[str] = (),
    *,
    refresh: bool = False,
    timeout_s: float = QUERY_TIMEOUT_S,
    cache: Path | None = None,
    progress: Callable[[int, int, str], None] | None = None,
    **discover_kw,
) -> list[PythonEnv]:
    """Every environment found, each queried (or read from the cache when its interpreter has not changed);
    progress(k, n, interpreter) is called as the k-th of the n interpreters asked is asked."""
    found = discover(added, **discover_kw)
    return resolve(found, refresh=refresh, timeout_s=timeout_s, cache=cache, progress=progress)


def lookup(interpreter: str, *, timeout_s: float = QUERY_TIMEOUT_S, cache: Path | None = None) -> PythonEnv:
    """One interpreter, queried or from the cache."""
    path = os.path.abspath(os.path.expanduser(interpreter))
    kind, name = ("app", "this app") if is_own(path) else ("added", env_name(path))
    return resolve([(path, kind, name)], timeout_s=timeout_s, cache=cache)[0]


def resolve(
    found: list[tuple[str, str, str]],
    *,
    refresh: bool = False,
    timeout_s: float = QUERY_TIMEOUT_S,
    cache: Path | None = None,
    progress: Callable[[int, int, str], None] | None = None,
) -> list[PythonEnv]:
    """Query (interpreter, kind, name) triples, several at once, through the cache; progress(k, n, interpreter)
    as the k-th of the n interpreters not answered by the cache is asked (from the asking thread)."""
    path = cache if cache is not None else cache_path()
    with _cache_lock:
        entries = _read_cache(path)
    out: dict[str, PythonEnv] = {}
    todo: list[tuple[str, str, str]] = []
    keys: dict[str, tuple[float, float] | None] = {}
    for interpreter, kind, name in found:
        keys[interpreter] = key = _stat_key(interpreter)
        entry = None if refresh else entries.get(interpreter)
        if key and entry and (entry.mtime, entry.site_mtime) == key and entry.app_version == __version__:
            out[interpreter] = entry.env.model_copy(update={"kind": kind, "name": name[:200]})
        else:
            todo.append((interpreter, kind, name))
    if todo:
        asked = [0]
        asked_lock = threading.Lock()

        def ask(t: tuple[str, str, str]) -> PythonEnv:
            if progress is not None:
                with asked_lock:
                    asked[0] += 1
                    progress(asked[0], len(todo), t[0])
            return query_env(t[0], t[1], t[2], timeout_s)

        with ThreadPoolExecutor(max_workers=min(4, len(todo))) as pool:
            done = list(pool.map(ask, todo))
        with _cache_lock:
            entries = _read_cache(path)  # another process may have written meanwhile
            for (interpreter, _kind, _name), env in zip(todo, done):
                out[interpreter] = env
                key = keys[interpreter]
                # a hang is not cached: the next look asks again; nor a path a cache file cannot hold
                if (
                    key
                    and shown_path(interpreter) == interpreter
                    and not (env.problem and "did not answer" in env.problem)
                ):
                    entries[interpreter] = _CacheEntry(
                        mtime=key[0], site_mtime=key[1], app_version=__version__, env=env
                    )
            _write_cache(path, entries)
    return [out[i] for i, _k, _n in found]


# ---------------------------------------------------------------- running workers elsewhere


def is_own(python: str | None) -> bool:
    """True when `python` is this app's own interpreter (or not given)."""
    # a venv's python is often a link to the same binary as ours, yet another environment: compare paths
    return not python or os.path.abspath(python) == os.path.abspath(sys.executable)


def staged_source(root: Path | None = None) -> Path:
    """A folder holding only the worker-side modules, for another interpreter's PYTHONPATH.

    Putting this package's parent folder there instead would also put the app's own dependencies
    (pydantic, numpy, its CPU torch) ahead of the user's. Keyed by a hash of the sources.
    """
    digest = hashlib.sha256()
    sources = {}
    for rel in WORKER_MODULES:
        data = (PACKAGE_DIR / rel).read_bytes()
        sources[rel] = data
        digest.update(rel.encode() + b"\0" + data)
    base = (root or cache_dir() / "worker-src") / digest.hexdigest()[:16]
    if (base / "gpu_tpu_app" / "worker" / "main.py").is_file():
        return base
    base.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=".stage-", dir=base.parent))
    for rel, data in sources.items():
        target = tmp / "gpu_tpu_app" / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
    try:
        os.replace(tmp, base)
    except OSError:  # another process staged it first
        shutil.rmtree(tmp, ignore_errors=True)
    return base


@functools.lru_cache(maxsize=1)
def catalog_digest() -> str:
    """The catalogue's match patterns and peaks as JSON, for the workers (detect.CATALOG_ENV)."""
    try:
        from gpu_tpu_app.core.catalog import load_catalog

        catalog = load_catalog()
    except Exception:
        return "[]"
    chips = []
    for chip in catalog.chips:
        peaks = {d: float(v) for d in PEAK_DTYPES if (v := chip.peak_flops(d))}
        row: dict[str, object] = {
            "id": chip.id,
            "match": list(chip.match),
            "peaks": peaks,
            "bw": chip.mem_bw_bytes_per_s(),
        }
        if (llc := chip.llc_bytes()) is not None:
            row["llc"] = llc
        if chip.rocm is not None:
            row["rocm"] = [chip.rocm.target, chip.rocm.compute_units, chip.memory_bytes()]
        chips.append(row)
    return json.dumps(chips, separators=(",", ":"), allow_nan=False)


def foreign_env(base: Mapping[str, str]) -> dict[str, str]:
    """Environment for a worker in another interpreter: only the staged worker sources on PYTHONPATH."""
    env = {k: v for k, v in base.items() if k != "PYTHONHOME"}
    env["PYTHONPATH"] = str(staged_source())  # only ours: the app's own site-packages must not shadow the user's
    return env


def environment_info(python: str | None, versions: Mapping[str, str], python_version: str | None) -> EnvironmentInfo:
    """What a run file records of the interpreter its workers ran in."""
    own = is_own(python)
    interpreter = sys.executable if own else os.path.abspath(str(python))
    if own and getattr(sys, "frozen", False):
        name, kind = "this app (bundle)", "app"
    elif own:
        name, kind = "this app", "app"
    else:
        name, kind = env_name(interpreter), "added"
    keep = {
        k: str(v)
        for k, v in versions.items()
        if k in FRAMEWORKS or k in ("cuda_runtime", "hip", "cudnn", "default_backend") or k.endswith("_runtime")
    }
    return EnvironmentInfo(
        interpreter=interpreter,
        name=name[:200],
        kind=kind,
        python=python_version,
        versions=keep,
        flavour=build_flavour(dict(versions)),
    )


def envs_command(added: Iterable[str] = (), *, refresh: bool = False, progress: bool = False) -> list[str]:
    """argv that lists the environments as JSON (`gpu-tpu-probe envs --format json`), for callers that run it
    in a process of their own (the window, with QProcess); progress: one progress line on stderr per
    interpreter asked (see progress_line)."""
    if getattr(sys, "frozen", False):
        base = [sys.executable, "probe"]
    else:
        base = [sys.executable, "-m", "gpu_tpu_app", "probe"]
    flags = [*(["--refresh"] if refresh else []), *(["--progress"] if progress else [])]
    return [*base, "envs", "--format", "json", *flags, "--", *added]


#: How `envs --progress` starts each progress line on stderr (the rest is one JSON object).
PROGRESS_PREFIX = "envs-progress: "


def progress_line(step: int, of: int, interpreter: str) -> str:
    """The stderr line `envs --progress` writes as it asks the step-th of `of` interpreters."""
    return PROGRESS_PREFIX + json.dumps(
        {"step": step, "of": of, "interpreter": shown_path(interpreter)}, allow_nan=False
    )


def parse_progress_line(line: str) -> tuple[int, int, str] | None:
    """(step, of, interpreter) from a progress line; None for any other line (a problem, a warning) or a
    malformed one. Bounded: the interpreter's path is cut to 300 characters and shown as one line."""
    if not line.startswith(PROGRESS_PREFIX) or len(line) > 4096:
        return None
    try:
        raw = json.loads(line[len(PROGRESS_PREFIX) :])
        step, of, interpreter = raw["step"], raw["of"], raw["interpreter"]
    except (ValueError, KeyError, TypeError, RecursionError):
        return None
    if not (isinstance(step, int) and isinstance(of, int) and isinstance(interpreter, str)):
        return None
    if not 1 <= step <= of <= 10_000:
        return None
    return step, of, one_line(interpreter)[:300]


def parse_envs_json(data: bytes) -> list[PythonEnv]:
    """The environments in `envs --format json` output; ValueError (one line) when it is not that.

    That output is the `envs` command's own (every environment there already a valid entry, an odd
    one as an unusable row); every text of an entry comes back on one line."""
    if len(data) > CACHE_MAX_BYTES:
        raise ValueError(f"the environment list is larger than {CACHE_MAX_BYTES // 1024**2} MiB")
    try:
        raw = json.loads(data.decode("utf-8", "replace"))
        items = raw["environments"]
        if not isinstance(items, list):
            raise TypeError("environments is not a list")
        return [PythonEnv.model_validate(item) for item in items[:256]]
    except RecursionError:
        raise ValueError("the environment list could not be read: JSON nested too deeply") from None
    except (ValueError, KeyError, TypeError, ValidationError) as exc:
        text = one_line(" ".join(str(exc).split()))[:200]
        raise ValueError(f"the environment list could not be read: {text}") from None
