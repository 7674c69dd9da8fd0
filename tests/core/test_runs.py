"""Run files and stream messages: round trips, bad files, CSV, the stream decoder and assembler."""

from __future__ import annotations

import csv
import io
import json
import os
import subprocess
import sys
from datetime import UTC, datetime

import pytest

from gpu_tpu_app.core import runs
from gpu_tpu_app.core.runs import (
    BackendStatus,
    CpuInfo,
    DeviceInfo,
    Done,
    ErrorMsg,
    Hello,
    ProbeResult,
    Progress,
    ProtocolError,
    ResultMsg,
    RunFile,
    Stats,
    load_run,
    parse_message,
    save_run,
    to_csv,
)
from gpu_tpu_app.errors import InputError
from gpu_tpu_app.probe.protocol import LineDecoder, RunAssembler

CPU = CpuInfo(model="Example CPU", cores=2, threads_used=2, flags=["avx2"], caches={"L2": 1 << 20})
DEV = DeviceInfo(
    backend="torch", platform="cpu", name="Example CPU", memory_bytes=8 << 30, cpu=CPU, versions={"torch": "2.0"}
)
STATS = Stats(median=2e11, min=1.9e11, max=2.1e11, q1=1.95e11, q3=2.05e11, iqr=1e10, cv=0.02, reps=9, seconds=0.3)


def result(value: float | None = 2e11, size: int = 1024, status: str = "ok", **kw) -> ProbeResult:
    base = dict(
        kernel="matmul",
        backend="torch",
        device=DEV.key,
        dtype="float32",
        size=size,
        metric="flops",
        value=value,
        unit="FLOP/s",
        stats=STATS if value else None,
        math_mode="fp32",
        status=status,
    )
    base.update(kw)
    return ProbeResult(**base)


def run_file(results: list[ProbeResult] | None = None) -> RunFile:
    return RunFile(
        app_version="0.1.0",
        host="box",
        os="Linux",
        python="CPython 3.11",
        cpu=CPU,
        devices=[DEV],
        backends=[
            BackendStatus(backend="torch", available=True, versions={"torch": "2.0"}),
            BackendStatus(backend="jax", available=False, reason="jax is not installed"),
        ],
        versions={"torch": "2.0"},
        threads=2,
        env={"OMP_NUM_THREADS": "2"},
        suite="smoke",
        started=datetime(2025, 1, 2, 3, 4, 5, tzinfo=UTC),
        ended=datetime(2025, 1, 2, 3, 5, 0, tzinfo=UTC),
        complete=True,
        results=results if results is not None else [result(), result(1e11, 512)],
    )


MESSAGES = [
    Hello(backend="jax", versions={"jax": "0.4"}, env={"XLA_FLAGS": "--x"}, pid=12),
    runs.DeviceMsg(device=DEV),
    Progress(
        done=3,
        total=10,
        kernel="matmul",
        eta_s=4.5,
        point="torch:cpu:0/matmul/float32/1024",
        backend="torch",
        device=DEV.key,
        dtype="float32",
        size=1024,
        cap_s=3.0,
    ),
    ResultMsg(result=result()),
    ErrorMsg(backend="torch", kernel=None, message="CUDA: driver too old"),
    Done(ok=False, message="cancelled"),
]


@pytest.mark.parametrize("msg", MESSAGES, ids=lambda m: m.type)
def test_every_message_round_trips_through_one_json_line(msg) -> None:
    line = runs.dump_message(msg)
    assert "\n" not in line
    assert json.loads(line)["schema_version"] == runs.SCHEMA_VERSION
    back = parse_message(line)
    assert type(back) is type(msg)
    assert back == msg
    assert parse_message(line.encode() + b"\n") == msg


@pytest.mark.parametrize(
    "line, needle",
    [
        ("hello", "not a JSON line"),
        ("[1, 2]", "not a probe message"),
        ('{"versions": {}}', "not a probe message"),
        ('{"type": "gossip"}', "type"),
        ('{"type": "done", "ok": true, "schema_version": 3}', "schema_version: 3 is not supported"),
        ('{"type": "progress", "done": "three", "total": 1, "kernel": "matmul"}', "done"),
        ('{"type": "done", "ok": true, "surprise": 1}', "surprise"),
    ],
)
def test_parse_message_rejects_what_is_not_a_message(line: str, needle: str) -> None:
    with pytest.raises(ProtocolError, match=needle):
        parse_message(line)


def test_device_key_names_backend_platform_and_index() -> None:
    assert DEV.key == "torch:cpu:0"
    assert DeviceInfo(backend="jax", platform="tpu", name="TPU v4", index=3, count=4).key == "jax:tpu:3"


def test_run_file_round_trips_and_save_is_atomic(tmp_path) -> None:
    path = tmp_path / "sub" / "run.json"
    run = run_file()
    save_run(run, path)
    assert load_run(path) == run
    assert json.loads(path.read_text())["schema_version"] == runs.SCHEMA_VERSION == 2
    assert [p.name for p in path.parent.iterdir()] == ["run.json"]  # no temp file left behind


def _unchanged_after_load(path) -> str:
    before = path.read_bytes(), os.stat(path).st_mtime_ns
    with pytest.raises(InputError) as err:
        load_run(path)
    assert (path.read_bytes(), os.stat(path).st_mtime_ns) == before
    message = str(err.value)
    assert "\n" not in message and message.startswith(str(path))
    return message


def test_other_schema_version_is_refused_with_one_line(tmp_path) -> None:
    data = json.loads(run_file().model_dump_json())
    data["schema_version"] = 3
    path = tmp_path / "run.json"
    path.write_text(json.dumps(data))
    assert _unchanged_after_load(path) == f"{path}: schema_version: 3 is not supported (this app reads 1 or 2)"


def test_broken_json_names_file_and_line(tmp_path) -> None:
    path = tmp_path / "run.json"
    path.write_text(run_file().model_dump_json(indent=2)[:-40])
    message = _unchanged_after_load(path)
    assert "not valid JSON" in message and "line " in message


@pytest.mark.parametrize("content", ['{"name": "my-package", "version": "1.0"}', "[1, 2, 3]", '"text"'])
def test_foreign_json_is_not_a_run_file(tmp_path, content: str) -> None:
    path = tmp_path / "package.json"
    path.write_text(content)
    message = _unchanged_after_load(path)
    if content.startswith("{"):
        assert message == f"{path}: schema_version: missing; this is not a gpu-tpu-app probe run file"
    else:
        assert message.startswith(f"{path}: (top level): expected a gpu-tpu-app probe run file, got a ")


def test_hand_edited_field_is_named(tmp_path) -> None:
    data = json.loads(run_file().model_dump_json())
    data["results"][1]["status"] = "record"
    path = tmp_path / "edited.json"
    path.write_text(json.dumps(data))
    message = _unchanged_after_load(path)
    assert "results.1.status" in message and "ok" in message


def test_missing_and_unreadable_files(tmp_path) -> None:
    with pytest.raises(InputError, match="no such file"):
        load_run(tmp_path / "absent.json")
    (tmp_path / "bin.json").write_bytes(b"\xff\xfe\x00garbage")
    with pytest.raises(InputError, match=r"bin\.json"):
        load_run(tmp_path / "bin.json")


def test_csv_has_a_row_per_result_in_si_units() -> None:
    run = run_file(
        [
            result(),
            result(None, 4096, status="timeout", message="timed out"),
        ]
    )
    rows = list(csv.DictReader(io.StringIO(to_csv(run))))
    assert [r["size"] for r in rows] == ["1024", "4096"]
    assert float(rows[0]["value"]) == 2e11 and rows[0]["metric"] == "flops"
    assert rows[0]["device_name"] == "Example CPU" and rows[0]["host"] == "box"
    assert float(rows[0]["cv"]) == 0.02 and rows[0]["reps"] == "9"
    assert rows[1]["value"] == "" and rows[1]["status"] == "timeout" and rows[1]["message"] == "timed out"
    assert list(rows[0]) == list(runs.CSV_COLUMNS)


def test_line_decoder_reassembles_lines_split_anywhere() -> None:
    stream = b"".join(runs.dump_message(m).encode() + b"\n" for m in MESSAGES)
    whole = LineDecoder().feed(stream)
    assert whole == MESSAGES
    dec = LineDecoder()
    pieces = [m for i in range(len(stream)) for m in dec.feed(stream[i : i + 1])]
    assert pieces == MESSAGES
    dec = LineDecoder()
    assert dec.feed(b"warning: noise\n" + stream[:-1]) == MESSAGES[:-1]
    assert dec.flush() == MESSAGES[-1:]
    assert len(dec.bad_lines) == 1 and "noise" in dec.bad_lines[0]


def test_assembler_turns_a_crash_into_an_error_result_for_the_running_point() -> None:
    asm = RunAssembler("smoke")
    asm.start_worker("torch")
    for m in MESSAGES[:3]:
        asm.add(m)
    made, restart = asm.worker_exited(-11)
    assert restart == 4  # the announced point was number 3 (0-based): continue after it
    assert len(made) == 1 and made[0].result.status == "error"
    assert made[0].result.message.startswith("worker crashed (SIGSEGV) during matmul float32 1024")
    asm.start_worker("torch")
    asm.add(Progress(done=4, total=10, kernel="matmul", backend="torch", device=DEV.key, size=2048, cap_s=1.0))
    made, restart = asm.worker_exited(-9, timed_out=True)
    assert made[0].result.status == "timeout" and "1 s cap" in made[0].result.message and restart == 5
    asm.start_worker("jax")
    asm.add(Hello(backend="jax"))
    asm.add(ErrorMsg(backend="jax", kernel=None, message="jax is not installed"))
    asm.add(Done(ok=False))
    assert asm.worker_exited(1) == ([], None)
    run = asm.finish()
    assert run.complete
    assert {b.backend: b.available for b in run.backends} == {"torch": True, "jax": False}
    assert next(b for b in run.backends if b.backend == "jax").reason == "jax is not installed"
    assert [r.status for r in run.results] == ["error", "timeout"]
    assert run.env["XLA_FLAGS"] == "--x" and run.versions["jax"] == "0.4"
    cancelled = asm.finish(cancelled=True)
    assert not cancelled.complete and "cancelled before the end" in cancelled.errors


def test_a_point_measured_again_takes_its_first_results_place_in_the_run() -> None:
    """The worker re-measures a point found stalled after a larger size and sends the try it keeps:
    the run holds that one, where the first stood; a failed later result is added, never a replacement."""
    asm = RunAssembler("quick")
    asm.start_worker("torch")
    asm.add(runs.DeviceMsg(device=DEV))

    def mm(size: int, value: float | None, status: str = "ok", variant: str | None = None) -> ResultMsg:
        return ResultMsg(
            result=ProbeResult(
                kernel="matmul", backend="torch", device=DEV.key, dtype="float32", size=size, variant=variant,
                metric="flops", value=value, status=status,
            )
        )  # fmt: skip

    for m in (mm(256, 2.1e9), mm(256, 9.0e10, variant="1 thread"), mm(1024, 9.0e10), mm(256, 8.8e10)):
        asm.add(m)
    asm.add(mm(1024, None, status="timeout"))
    asm.add(Done(ok=True))
    run = asm.finish()
    assert [(r.size, r.variant, r.value, r.status) for r in run.results] == [
        (256, None, 8.8e10, "ok"),
        (256, "1 thread", 9.0e10, "ok"),
        (1024, None, 9.0e10, "ok"),
        (1024, None, None, "timeout"),
    ]


def test_assembler_takes_cpu_and_environment_from_the_workers_hello() -> None:
    """A GPU-only run (no device reports the CPU) still records the host CPU, as the worker saw it."""
    asm = RunAssembler("smoke")
    asm.start_worker("torch")
    asm.add(Hello(backend="torch", env={"OMP_NUM_THREADS": "3"}, cpu=CPU))
    gpu = DeviceInfo(backend="torch", platform="cuda", name="Example GPU")
    asm.add(runs.DeviceMsg(device=gpu))
    asm.add(Done(ok=True))
    run = asm.finish()
    assert run.cpu == CPU and run.threads == CPU.threads_used
    assert run.env == {"OMP_NUM_THREADS": "3"}


def test_core_runs_imports_neither_qt_nor_frameworks() -> None:
    code = (
        "import sys, gpu_tpu_app.core.runs, gpu_tpu_app.probe.runner, gpu_tpu_app.commands.probe.run, gpu_tpu_app.commands.probe.collective; "
        "bad = [m for m in ('torch', 'jax', 'PySide6') if m in sys.modules]; print(bad); sys.exit(bool(bad))"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_session_splits_the_budget_restarts_after_failures_and_times_out_points() -> None:
    from gpu_tpu_app.probe.protocol import ProbeRequest, ProbeSession

    now = [100.0]
    session = ProbeSession(ProbeRequest(suite="smoke", budget_s=20), clock=lambda: now[0])

    def arg(argv: list[str], flag: str) -> str | None:
        return argv[argv.index(flag) + 1] if flag in argv else None

    first = session.next_launch()
    assert first.backend == "torch" and arg(first.argv, "--suite") == "smoke"
    assert arg(first.argv, "--budget-s") == "10.000" and arg(first.argv, "--skip-points") is None
    assert first.env["PYTHONUNBUFFERED"] == "1"
    line = runs.dump_message(Progress(done=2, total=5, kernel="matmul", backend="torch", device=DEV.key, cap_s=4.0))
    assert [m.type for m in session.feed(line.encode()[:10])] == []
    assert [m.type for m in session.feed(line.encode()[10:] + b"\n")] == ["progress"]
    now[0] += 4.0 * 1.5 + 1.9
    assert not session.timed_out()
    now[0] += 0.2
    assert session.timed_out()
    (made,) = session.worker_exited(-9, timed_out=True)
    assert made.result.status == "timeout"
    again = session.next_launch()
    assert again.backend == "torch" and arg(again.argv, "--skip-points") == "3"
    assert arg(again.argv, "--budget-s") == "10.000"  # same plan as before
    assert float(arg(again.argv, "--time-left-s")) == pytest.approx(10 - 8.1)
    session.feed(runs.dump_message(Done(ok=True)).encode() + b"\n")
    assert session.worker_exited(0) == []
    now[0] += 1.0
    jax = session.next_launch()
    assert jax.backend == "jax" and jax.env["XLA_PYTHON_CLIENT_PREALLOCATE"] == "false"
    assert float(arg(jax.argv, "--budget-s")) == pytest.approx(20 - 9.1)
    session.feed(runs.dump_message(Done(ok=True)).encode() + b"\n")
    session.worker_exited(0)
    assert session.next_launch() is None
    run = session.finish()
    assert run.complete and [r.status for r in run.results] == ["timeout"]


@pytest.mark.parametrize("lead", ["=", "+", "-", "@", "\t", "\r"])
def test_csv_cells_that_begin_like_a_formula_stay_text(lead: str) -> None:
    """A shared run file's host, device name, message, kernel... reach a spreadsheet behind a quote (OWASP);
    numbers, negative ones too, stay numbers."""
    attack = f"{lead}cmd|' /C calc'!A0"
    cell = "'" + attack.replace("\r", "\n")  # a CR would end the row in a reader: a line feed, quoted
    dev = DEV.model_copy(update={"name": attack})
    run = run_file([result(message=attack, variant=attack), result(1e11, 512)]).model_copy(
        update={"host": attack, "devices": [dev]}
    )
    rows = list(csv.DictReader(io.StringIO(to_csv(run), newline="")))
    for field in ("host", "device_name", "message", "variant"):
        assert rows[0][field] == cell, field
    assert len(rows) == 2 and rows[1]["host"] == cell and float(rows[1]["value"]) == 1e11
    assert not any(cell.startswith(runs.FORMULA_LEADS) for row in rows for cell in row.values())
    assert runs.inert_cell(-1.5) == -1.5 and runs.inert_cell("-") == "'-"


def test_csv_of_a_collective_run_is_inert_too() -> None:
    """The collective's run file (host list, op in the variant) goes through the same writer."""
    run = run_file(
        [
            result(
                kernel="all_reduce",
                variant='=HYPERLINK("http://x")',
                metric="bytes_per_s",
                unit="B/s",
                message="@SUM(A1)",
                collective=runs.CollectiveInfo(
                    op="all_reduce", ranks=2, hosts=1, transport="-gloo", time_s=1e-3, algbw=1e9, busbw=1e9
                ),
            )
        ]
    ).model_copy(update={"host": "+a-host"})
    rows = list(csv.DictReader(io.StringIO(to_csv(run), newline="")))
    assert rows[0]["variant"] == '\'=HYPERLINK("http://x")' and rows[0]["message"] == "'@SUM(A1)"
    assert rows[0]["host"] == "'+a-host"


def test_csv_leaves_plain_text_alone() -> None:
    rows = list(csv.DictReader(io.StringIO(to_csv(run_file([result(message="a 'quoted' note")])))))
    assert rows[0]["message"] == "a 'quoted' note" and rows[0]["host"] == "box"
