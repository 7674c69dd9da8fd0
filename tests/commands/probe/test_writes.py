"""`gpu-tpu-probe run` never loses a measured run: outputs checked up front, the table printed before saving,
and a file that cannot be written (full disk, symlink loop, missing folder) kept in a fallback file, exit 2."""

from __future__ import annotations

import csv
import errno
import io
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

import pytest

from gpu_tpu_app import atomic
from gpu_tpu_app.commands import probe as cli
from gpu_tpu_app.commands.probe import common
from gpu_tpu_app.commands.probe import run as run_command
from gpu_tpu_app.core.runs import DeviceInfo, ProbeResult, RunFile, load_run, save_run
from gpu_tpu_app.probe.cli_output import ProgressPrinter


def a_run() -> RunFile:
    """A run as the probe returns it (the save path is under test here, not the measuring)."""
    dev = DeviceInfo(backend="torch", platform="cpu", name="Example CPU")
    results = [
        ProbeResult(kernel="dispatch", backend="torch", device="torch:cpu:0", metric="seconds", value=1.5e-5, unit="s")
    ]
    return RunFile(
        app_version="0.1.0",
        host="box",
        os="Linux",
        python="3.11",
        devices=[dev],
        suite="smoke",
        started=datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC),
        complete=True,
        results=results,
    )


@pytest.fixture
def state_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The user's state folder for this test (where fallback files go first)."""
    root = tmp_path / "state"
    monkeypatch.setenv("XDG_STATE_HOME", str(root))
    return root


class Probe:
    """Stands in for the measuring: returns a prepared run; `during` runs while it 'measures'."""

    def __init__(self) -> None:
        self.calls = 0
        self.during: Callable[[], None] = lambda: None

    def __call__(self, request: object, on_message: object = None, cancel_event: object = None) -> RunFile:
        self.calls += 1
        self.during()
        return a_run()


@pytest.fixture
def probe(monkeypatch: pytest.MonkeyPatch) -> Probe:
    """The measuring replaced by a Probe (the save path is under test)."""
    fake = Probe()
    monkeypatch.setattr(run_command, "run_probe", fake)
    return fake


def run_cli(*args: str) -> int:
    return cli.main(["run", "--suite", "smoke", "--kernel", "dispatch", *args])


def fallback_files(state_home: Path) -> list[Path]:
    return sorted((state_home / "gpu-tpu-app" / "unsaved-runs").glob("*")) if state_home.exists() else []


# ---------------------------------------------------------------- refused before measuring


def _setups(tmp_path: Path) -> dict[str, tuple[list[str], str]]:
    (tmp_path / "a-file").write_text("x")
    (tmp_path / "folder").mkdir()
    (tmp_path / "loop.csv").symlink_to("loop.csv")
    (tmp_path / "loop.json").symlink_to("loop.json")
    (tmp_path / "null.csv").symlink_to(os.devnull)
    (tmp_path / "budget.csv").write_text("month,amount\n1,2\n")
    return {
        "csv folder": (["--csv", str(tmp_path / "folder")], "--csv: is a folder"),
        "csv under a file": (
            ["--csv", str(tmp_path / "a-file" / "r.csv")],
            "--csv: cannot write there (Not a directory)",
        ),
        "csv symlink loop": (["--csv", str(tmp_path / "loop.csv")], "--csv: cannot write there"),
        "csv device": (["--csv", str(tmp_path / "null.csv")], "--csv: not a regular file"),
        "csv foreign file": (["--csv", str(tmp_path / "budget.csv")], "not a probe CSV file; not overwriting it"),
        "csv same as out": (
            ["--out", str(tmp_path / "r.json"), "--csv", str(tmp_path / "r.json")],
            "--csv: the same file as --out",
        ),
        "out symlink loop": (["--out", str(tmp_path / "loop.json")], "--out: cannot write there"),
        "out under a file": (["--out", str(tmp_path / "a-file" / "sub" / "r.json")], "--out: cannot write there"),
    }


REFUSED = [
    "csv folder",
    "csv under a file",
    "csv symlink loop",
    "csv device",
    "csv foreign file",
    "csv same as out",
    "out symlink loop",
    "out under a file",
]


@pytest.mark.parametrize("case", REFUSED)
def test_outputs_that_cannot_be_written_are_refused_before_measuring(
    case: str, tmp_path: Path, probe: Probe, capsys: pytest.CaptureFixture[str]
) -> None:
    argv, needle = _setups(tmp_path)[case]
    before = {p.name: (p.lstat().st_mtime_ns, p.read_bytes() if p.is_file() else None) for p in tmp_path.iterdir()}
    assert run_cli(*argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("error: ") and needle in err and "Traceback" not in err
    assert probe.calls == 0  # nothing was measured
    after = {p.name: (p.lstat().st_mtime_ns, p.read_bytes() if p.is_file() else None) for p in tmp_path.iterdir()}
    assert after == before


def test_an_existing_probe_csv_and_run_file_may_be_overwritten(tmp_path: Path, probe: Probe) -> None:
    out, table = tmp_path / "r.json", tmp_path / "r.csv"
    assert run_cli("--out", str(out), "--csv", str(table)) == 0
    assert run_cli("--out", str(out), "--csv", str(table)) == 0
    assert load_run(out) == a_run()
    assert next(csv.DictReader(io.StringIO(table.read_text())))["kernel"] == "dispatch"


# ---------------------------------------------------------------- failing after measuring


def _make_loop(path: Path) -> None:
    path.symlink_to(path.name)


def _folder_becomes_a_file(folder: Path) -> None:
    shutil.rmtree(folder)
    folder.write_text("not a folder any more")


class _Events(io.StringIO):
    def __init__(self, events: list[str]) -> None:
        super().__init__()
        self.events = events

    def write(self, text: str) -> int:
        self.events.append("stdout")
        return super().write(text)


def _full_disk(monkeypatch: pytest.MonkeyPatch, events: list[str], suffix: str) -> None:
    """os.write to a temporary file for a `suffix` file fails with ENOSPC (after a first short write)."""
    real = os.write

    def write(fd: int, data: bytes) -> int:
        try:
            name = os.readlink(f"/proc/self/fd/{fd}")
        except OSError:
            name = ""
        if name.endswith(atomic.TEMP_SUFFIX) and f"{suffix}." in name and "unsaved-runs" not in name:
            events.append("save")
            if len(data) > 10:
                return real(fd, bytes(data[:10]))
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return real(fd, data)

    monkeypatch.setattr(os, "write", write)


@pytest.mark.parametrize(
    "case",
    [
        "out full disk",
        "csv full disk",
        "out symlink loop made during the run",
        "out folder gone during the run",
        "both full disk",
    ],
)
def test_a_failed_write_keeps_the_run_in_a_fallback_file_and_exits_2(
    case: str,
    tmp_path: Path,
    state_home: Path,
    probe: Probe,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    if "full disk" in case and not os.path.isdir("/proc/self/fd"):
        pytest.skip("the injected full disk tells our temporary files apart through /proc/self/fd")
    runs = tmp_path / "runs"
    runs.mkdir()
    out, table = runs / "run.json", runs / "run.csv"
    events: list[str] = []
    stdout = _Events(events)
    monkeypatch.setattr(sys, "stdout", stdout)
    if case == "out full disk":
        _full_disk(monkeypatch, events, ".json")
    elif case == "csv full disk":
        _full_disk(monkeypatch, events, ".csv")
    elif case == "both full disk":
        _full_disk(monkeypatch, events, "")
    elif case == "out symlink loop made during the run":
        probe.during = lambda: _make_loop(out)
    else:
        probe.during = lambda: _folder_becomes_a_file(runs)

    assert run_cli("--out", str(out), "--csv", str(table)) == 2

    err = capsys.readouterr().err
    assert "Traceback" not in err
    errors = [line for line in err.splitlines() if line.startswith("error: ")]
    failed = {
        "out full disk": ["--out"],
        "csv full disk": ["--csv"],
        "both full disk": ["--out", "--csv"],
        "out symlink loop made during the run": ["--out"],
        "out folder gone during the run": ["--out", "--csv"],
    }[case]
    assert [e.split(": ")[2] for e in errors] == failed, err
    kept = fallback_files(state_home)
    assert len(kept) == len(failed)
    for line, flag in zip(errors, failed):
        assert "cannot write (" in line and "the results are saved in " in line
        fallback = Path(line.rsplit("the results are saved in ", 1)[1].removesuffix(" instead"))
        assert fallback in kept
        if flag == "--out":
            assert load_run(fallback) == a_run()
        else:
            assert fallback.suffix == ".csv" and "dispatch" in fallback.read_text()
    # the table came out before any save was tried, and nothing half-written is left where asked
    assert "dispatch" in stdout.getvalue() and events[0] == "stdout"
    if runs.is_dir():
        assert not [p for p in runs.iterdir() if p.name.endswith(atomic.TEMP_SUFFIX)]
    if "--csv" not in failed:
        assert table.read_text().startswith("host,")  # the other file was written where asked
    if "--out" not in failed:
        assert load_run(out) == a_run()
    if case == "out symlink loop made during the run":
        assert out.is_symlink() and os.readlink(out) == out.name  # the user's link is left as it was


def test_when_no_fallback_can_be_written_the_table_is_still_shown(
    tmp_path: Path, probe: Probe, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("x")
    monkeypatch.setattr(common, "fallback_dirs", lambda: [blocker / "state", blocker / "tmp"])
    out = tmp_path / "runs" / "run.json"
    probe.during = lambda: _make_loop_folder(tmp_path / "runs")
    assert run_cli("--out", str(out)) == 2
    captured = capsys.readouterr()
    assert "dispatch" in captured.out
    errors = [line for line in captured.err.splitlines() if line.startswith("error: ")]
    assert len(errors) == 1 and "no fallback file could be written either" in errors[0]
    assert "the table printed above is all that is kept" in errors[0] and "Traceback" not in captured.err


def _make_loop_folder(folder: Path) -> None:
    folder.symlink_to(folder.name)


def test_a_closed_stdout_does_not_stop_the_save(tmp_path: Path, probe: Probe, monkeypatch: pytest.MonkeyPatch) -> None:
    class Closed(io.StringIO):
        def write(self, text: str) -> int:
            raise BrokenPipeError(errno.EPIPE, "Broken pipe")

        def fileno(self) -> int:
            return os.open(os.devnull, os.O_WRONLY)

    monkeypatch.setattr(sys, "stdout", Closed())
    out = tmp_path / "run.json"
    assert run_cli("--out", str(out)) == 0
    assert load_run(out) == a_run()


def test_fallback_in_the_shared_temp_folder_is_private(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    shared = tmp_path / "tmp"
    shared.mkdir()
    (tmp_path / "a-file").write_text("x")  # the state folder cannot be made: the temp folder is next
    monkeypatch.setattr(common.tempfile, "gettempdir", lambda: str(shared))
    path, why = common.save_fallback("{}", "/nowhere/run.json", dirs=[tmp_path / "a-file" / "x", shared])
    assert path is not None and why == ""
    assert path.parent.parent == shared and (path.parent.stat().st_mode & 0o077) == 0
    assert path.name.startswith("run-") and path.suffix == ".json" and path.read_text() == "{}"


# ---------------------------------------------------------------- a real run onto a real full disk


@pytest.mark.slow
def test_a_real_run_onto_a_full_tmpfs_is_kept_and_exits_2(tmp_path: Path, mount_tmpfs) -> None:
    tiny = mount_tmpfs("64k")
    try:
        fd = os.open(tiny / "filler", os.O_WRONLY | os.O_CREAT, 0o644)  # fill it, as a disk that ran full
        try:
            while True:
                os.write(fd, b"\0" * 4096)
        except OSError as exc:
            assert exc.errno == errno.ENOSPC
        finally:
            os.close(fd)
        state = tmp_path / "state"
        env = {**os.environ, "XDG_STATE_HOME": str(state)}
        argv = [
            sys.executable,
            "-m",
            "gpu_tpu_app",
            "probe",
            "run",
            "--suite",
            "smoke",
            "--backend",
            "torch",
            "--kernel",
            "dispatch",
            "--out",
            str(tiny / "run.json"),
            "--csv",
            str(tiny / "run.csv"),
        ]
        proc = subprocess.run(argv, capture_output=True, text=True, env=env, timeout=240)
        assert proc.returncode == 2, proc.stderr
        assert "dispatch" in proc.stdout and "Traceback" not in proc.stderr
        errors = [line for line in proc.stderr.splitlines() if line.startswith("error: ")]
        assert len(errors) == 2 and all("No space left on device" in e for e in errors)
        kept = fallback_files(state)
        assert len(kept) == 2
        run = load_run(next(p for p in kept if p.suffix == ".json"))
        assert [(r.kernel, r.status) for r in run.results] == [("dispatch", "ok")]
        assert sorted(p.name for p in tiny.iterdir()) == ["filler"]
        save_run(run, tmp_path / "copy.json")  # and it is a run file like any other
    finally:
        subprocess.run(["umount", str(tiny)], check=False)


def test_progress_on_a_stream_that_is_gone_stays_quiet() -> None:
    from gpu_tpu_app.core.runs import Done, Progress, ResultMsg

    class Gone(io.StringIO):
        writes = 0

        def write(self, text: str) -> int:
            self.writes += 1
            raise OSError(errno.EIO, os.strerror(errno.EIO))

    stream = Gone()
    printer = ProgressPrinter(stream, tty=False)
    printer(Progress(done=0, total=2, kernel="dispatch", backend="torch"))  # no exception reaches the run
    printer(ResultMsg(result=a_run().results[0]))
    printer(Done(ok=True))
    assert printer.gone and stream.writes == 1
