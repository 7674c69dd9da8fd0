"""gpu-tpu-probe: devices, run (table, JSON, CSV, --out), compare, progress output, one-line errors."""

from __future__ import annotations

import csv
import io
import json
import os
import subprocess
import sys

import pytest

from gpu_tpu_app.commands import probe as cli
from gpu_tpu_app.core.runs import Done, Progress, ResultMsg, RunFile, load_run, save_run
from gpu_tpu_app.probe.cli_output import ProgressPrinter, results_table
from gpu_tpu_app.worker.detect import cpu_model


@pytest.fixture(scope="module")
def measured(tmp_path_factory) -> dict:
    """One real smoke run of the dispatch kernel on both backends, saved with --out and --csv."""
    folder = tmp_path_factory.mktemp("probe-cli")
    out, table = folder / "run.json", folder / "run.csv"
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "gpu_tpu_app",
            "probe",
            "run",
            "--suite",
            "smoke",
            "--kernel",
            "dispatch",
            "--out",
            str(out),
            "--csv",
            str(table),
            "--format",
            "json",
        ],
        capture_output=True,
        text=True,
        timeout=240,
    )
    return {"proc": proc, "out": out, "csv": table}


@pytest.mark.slow
def test_run_json_out_and_csv_agree(measured) -> None:
    proc = measured["proc"]
    assert proc.returncode == 0, proc.stderr
    printed = RunFile.model_validate_json(proc.stdout)
    saved = load_run(measured["out"])
    assert printed == saved and saved.complete and saved.suite == "smoke"
    assert [(r.backend, r.kernel, r.status) for r in saved.results] == [
        ("torch", "dispatch", "ok"),
        ("jax", "dispatch", "ok"),
    ]
    for r in saved.results:
        assert r.metric == "seconds" and 0 < r.value < 0.1 and r.stats and r.stats.reps >= 3
    assert {d.key for d in saved.devices} >= {"torch:cpu:0", "jax:cpu:0"}
    assert saved.cpu and saved.cpu.model == cpu_model() and saved.threads
    assert saved.versions["torch"] and saved.versions["jax"] and saved.versions["python"]
    assert all(set(d.versions) <= set(saved.versions) for d in saved.devices)
    assert saved.ended and saved.ended >= saved.started
    rows = list(csv.DictReader(io.StringIO(measured["csv"].read_text())))
    assert [float(r["value"]) for r in rows] == [r.value for r in saved.results]
    # stderr got plain progress lines (not a terminal) and the saved note
    assert "torch 1/1: dispatch 1 element" in proc.stderr and f"saved {measured['out']}" in proc.stderr


@pytest.mark.slow
def test_run_table_lists_each_result(measured) -> None:
    run = load_run(measured["out"])
    text = results_table(run)
    lines = text.splitlines()
    assert lines[0].startswith("smoke suite: a functional check, not a benchmark; its numbers show")
    heading = lines.index("torch:cpu:0: " + run.device("torch:cpu:0").name)
    assert lines[heading + 1].split()[:4] == ["kernel", "dtype", "size", "value"]
    assert lines[heading + 3].startswith("dispatch") and ("µs" in lines[heading + 3] or "ns" in lines[heading + 3])
    assert sum(line.startswith("dispatch") for line in lines) == len(run.results)
    assert max(len(line) for line in lines) <= 100


@pytest.mark.slow
def test_compare_puts_runs_side_by_side(measured, tmp_path, capsys) -> None:
    run = load_run(measured["out"])
    other = tmp_path / "other.json"
    save_run(run.model_copy(update={"host": "tpu-vm"}), other)  # a second file to line up against
    assert cli.main(["compare", str(measured["out"]), str(other)]) == 0
    out = capsys.readouterr().out
    header = next(line for line in out.splitlines() if line.startswith("kernel"))
    for label in (f"[1] {run.host} torch", f"[1] {run.host} jax", "[2] tpu-vm torch", "[2] tpu-vm jax"):
        assert label in header
    row = next(line for line in out.splitlines() if line.startswith("dispatch"))
    assert row.count("µs") + row.count("ns") == 4
    assert cli.main(["compare", str(measured["out"]), str(other), "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert len(data["columns"]) == 4 and data["rows"][0]["kernel"] == "dispatch"
    assert all(v["status"] == "ok" for v in data["rows"][0]["values"].values())


@pytest.mark.slow
def test_compare_keeps_two_runs_of_one_host_apart(measured, capsys) -> None:
    assert cli.main(["compare", str(measured["out"]), str(measured["out"]), "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert len(data["columns"]) == len(set(data["columns"])) == 4
    assert all(len(row["values"]) == 4 for row in data["rows"])


@pytest.mark.slow
def test_compare_with_a_broken_file_is_one_line_and_leaves_it_alone(measured, tmp_path, capsys) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"schema_version": 1, "results": [], "host": 3}')
    before = bad.read_bytes()
    assert cli.main(["compare", str(measured["out"]), str(bad)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(f"error: {bad}: ")
    assert bad.read_bytes() == before


@pytest.mark.slow
def test_devices_table_and_json(capsys) -> None:
    assert cli.main(["devices", "--backend", "torch"]) == 0
    table = capsys.readouterr().out
    assert "torch:cpu:0" in table and cpu_model() in table and "CPU:" in table
    assert cli.main(["devices", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    keys = [d["key"] for d in data["devices"]]
    assert "torch:cpu:0" in keys and "jax:cpu:0" in keys
    assert {b["backend"]: b["available"] for b in data["backends"]} == {"torch": True, "jax": True}


@pytest.mark.parametrize(
    "argv, needle",
    [
        (["run", "--suite", "huge"], "invalid choice: 'huge'"),
        (["run", "--backend", "tensorflow"], "invalid choice: 'tensorflow'"),
        (["run", "--kernel", "test_segfault"], "invalid choice: 'test_segfault'"),
        (["run", "--dtype", "int4"], "invalid choice: 'int4'"),
        (["run", "--budget-s", "soon"], "argument --budget-s: 'soon' is not a number"),
        # issue 22 §4: no number flag takes NaN or Infinity (--budget-s nan turned the group's deadline off)
        (["run", "--budget-s", "nan"], "argument --budget-s: must be a finite number more than 0, not 'nan'"),
        (["run", "--budget-s", "0"], "argument --budget-s: must be a finite number more than 0, not '0'"),
        (["collective", "--processes", "2", "--budget-s", "nan"], "argument --budget-s: must be a finite number"),
        (["collective", "--processes", "2", "--timeout-s", "nan"], "argument --timeout-s: must be a finite number"),
        (["collective", "--processes", "2", "--timeout-s", "inf"], "argument --timeout-s: must be a finite number"),
        (["collective", "--processes", "2", "--timeout-s", "-5"], "argument --timeout-s: must be a finite number"),
        (["collective", "--processes", "nan"], "argument --processes: invalid int value: 'nan'"),
        (["envs", "--timeout-s", "Infinity"], "argument --timeout-s: must be a finite number more than 0"),
        (["compare"], "the following arguments are required"),
        (["frobnicate"], "invalid choice: 'frobnicate'"),
        ([], "the following arguments are required: COMMAND"),
    ],
)
def test_bad_flags_are_one_line_exit_2(argv: list[str], needle: str, capsys) -> None:
    with pytest.raises(SystemExit) as exc:
        cli.main(argv)
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and needle in err and "Traceback" not in err


def test_out_never_overwrites_a_foreign_file(tmp_path, capsys) -> None:
    foreign = tmp_path / "notes.json"
    foreign.write_text('{"my": "notes"}')
    assert cli.main(["run", "--suite", "smoke", "--kernel", "dispatch", "--out", str(foreign)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "not a probe run file; not overwriting it" in err
    assert foreign.read_text() == '{"my": "notes"}'


def test_main_reads_sys_argv_when_given_none(monkeypatch, capsys) -> None:
    monkeypatch.setattr(sys, "argv", ["gpu-tpu-probe", "--version"])
    with pytest.raises(SystemExit) as exc:
        cli.main()
    assert exc.value.code == 0 and "gpu-tpu-probe 0.1.0" in capsys.readouterr().out


@pytest.mark.slow  # the module's real smoke run (`measured`) is its cost; test_streaming shows the bar in the fast set
def test_progress_is_a_bar_on_a_terminal_and_lines_otherwise(measured) -> None:
    result = load_run(measured["out"]).results[0]
    msgs = [
        Progress(done=0, total=2, kernel="dispatch", backend="torch", size=1, eta_s=3.0),
        ResultMsg(result=result),
        Done(ok=True),
    ]
    plain = io.StringIO()
    printer = ProgressPrinter(plain, tty=False)
    for m in msgs:
        printer(m)
    assert plain.getvalue().splitlines()[0] == "torch 1/2: dispatch 1 element (ETA 3 s)"
    assert "\r" not in plain.getvalue() and "dispatch 1 element:" in plain.getvalue().splitlines()[1]
    term = io.StringIO()
    printer = ProgressPrinter(term, tty=True)
    for m in msgs:
        printer(m)
    assert term.getvalue().startswith("\r[") and "0% torch 1/2: dispatch 1 element  ETA 3 s" in term.getvalue()
    assert term.getvalue().endswith("\r")  # the bar is cleared at the end


def test_gpu_tpu_app_probe_is_the_same_command() -> None:
    env = {**os.environ}
    proc = subprocess.run(
        [sys.executable, "-m", "gpu_tpu_app", "probe", "run", "--suite", "nope"],
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
    )
    assert proc.returncode == 2 and proc.stderr.startswith("gpu-tpu-probe run: error: argument --suite")


def test_each_subcommand_is_its_own_module_with_configure_and_run() -> None:
    """One module per subcommand, listed in --help in the order of SUBCOMMANDS, each with configure and run."""
    import argparse

    parser = cli.build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    assert list(sub.choices) == list(cli.SUBCOMMANDS) == ["devices", "run", "envs", "collective", "compare"]
    for name, module in cli.SUBCOMMANDS.items():
        assert module.__name__ == f"gpu_tpu_app.commands.probe.{name}"
        assert callable(module.configure) and callable(module.run)


@pytest.mark.parametrize("command", ["run", "collective"])
def test_run_and_collective_refuse_the_same_file_for_out_and_csv_before_measuring(
    tmp_path, command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    same = tmp_path / "x.json"
    extra = ["--processes", "2"] if command == "collective" else []
    assert cli.main([command, *extra, "--out", str(same), "--csv", str(same)]) == 2
    captured = capsys.readouterr()
    assert captured.err == f"error: {same}: --csv: the same file as --out\n" and not same.exists()
