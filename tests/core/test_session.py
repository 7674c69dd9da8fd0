"""Session files: round trip, derived verdict, atomic writes, and broken or foreign files."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest

from gpu_tpu_app.core.decision import Answers, decide
from gpu_tpu_app.core.estimate import EstimateRequest
from gpu_tpu_app.core.runs import DeviceInfo, ProbeResult, RunFile, save_run
from gpu_tpu_app.core.session import (
    SCHEMA_VERSION,
    Session,
    load_session,
    loads_session,
    measured_devices,
    new_session,
    save_session,
)
from gpu_tpu_app.errors import InputError
from tests.builders import tpu_answers

ANSWERS = tpu_answers(scale=None)


def matmul(device: str, value: float, dtype: str = "float32", status: str = "ok", size: int = 1024) -> ProbeResult:
    return ProbeResult(
        kernel="matmul",
        backend=device.split(":")[0],
        device=device,
        dtype=dtype,
        size=size,
        metric="flops",
        value=value,
        unit="FLOP/s",
        status=status,
    )


def make_run(host: str = "box", results: list[ProbeResult] | None = None) -> RunFile:
    devices = [
        DeviceInfo(backend="torch", platform="cpu", name="Example CPU", memory_bytes=16 << 30),
        DeviceInfo(backend="jax", platform="cpu", name="TFRT_CPU_0"),
    ]
    if results is None:
        results = [
            matmul("torch:cpu:0", 1.0e11, size=512),
            matmul("torch:cpu:0", 2.5e11, size=2048),
            matmul("torch:cpu:0", 9.0e11, status="suspect"),
            matmul("jax:cpu:0", 1.5e11, dtype="bfloat16"),
            ProbeResult(kernel="copy", backend="torch", device="torch:cpu:0", metric="bytes_per_s", value=2e10),
        ]
    return RunFile(
        app_version="0.1.0",
        host=host,
        os="Linux",
        python="3.11",
        devices=devices,
        suite="smoke",
        started=datetime(2025, 3, 4, 5, 6, 7, tzinfo=UTC),
        complete=True,
        results=results,
    )


def full_session() -> Session:
    return new_session().model_copy(
        update={
            "answers": ANSWERS,
            "notes": "Pilot on a small slice first.\nThen decide.",
            "runs": [make_run()],
            "estimate": EstimateRequest(params=7e9, chips=8, prices={"tpu-v5e": 1.2}),
        }
    )


def test_new_session_is_empty() -> None:
    s = new_session()
    assert s.schema_version == SCHEMA_VERSION
    assert s.answers == Answers()
    assert s.runs == [] and s.notes == "" and s.estimate is None
    assert s.recommendation().verdict == "either"


def test_round_trip_keeps_everything(tmp_path: Path) -> None:
    session = full_session()
    path = tmp_path / "s.json"
    saved = save_session(session, path)
    loaded = load_session(path)
    assert loaded.same_content(session)
    assert loaded.answers == ANSWERS
    assert loaded.runs == session.runs
    assert loaded.estimate == session.estimate
    assert loaded.created == session.created
    assert saved.modified >= session.created
    assert [p.name for p in tmp_path.iterdir()] == ["s.json"]  # no temp file left behind


def test_verdict_is_written_but_derived_on_load(tmp_path: Path) -> None:
    path = tmp_path / "s.json"
    save_session(full_session(), path)
    raw = json.loads(path.read_text())
    assert raw["verdict"] == decide(ANSWERS).verdict == "tpu"
    raw["verdict"] = "gpu"  # a stale or edited cache must not matter
    path.write_text(json.dumps(raw))
    loaded = load_session(path)
    assert loaded.recommendation().verdict == "tpu"


def test_flips_serialise_by_alias_in_the_recommendation() -> None:
    rec = full_session().recommendation()
    dumped = rec.model_dump(by_alias=True)
    assert all("from" in f for f in dumped["flips"])


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("{broken", "not valid JSON"),
        ("[]", "(top level): expected a gpu-tpu-app session file, got a list"),
        ('{"schema_version": 1}', "answers: missing"),
        ('{"answers": {}}', "schema_version: missing"),
        ('{"schema_version": 5, "answers": {}}', "schema_version: 5 is not supported"),
        ('{"schema_version": true, "answers": {}}', "schema_version: true is not supported"),
        ('{"schema_version": 2, "answers": {"high_precision": "yes"}}', "answers.high_precision"),
        ('{"schema_version": 1, "answers": {"framework": "fortran"}}', "answers.framework"),
        ('{"schema_version": 1, "answers": {"colour": "red"}}', "answers.colour: unknown field"),
        ('{"schema_version": 1, "answers": {}, "extra": 1}', "extra: unknown field"),
        ('{"schema_version": 1, "answers": {}, "runs": [{"host": "x"}]}', "runs.0."),
        ('{"schema_version": 1, "answers": {}, "estimate": {"params": -5}}', "estimate.params"),
    ],
)
def test_broken_session_names_file_and_field(tmp_path: Path, text: str, expected: str) -> None:
    path = tmp_path / "broken.json"
    path.write_text(text)
    before = path.read_bytes()
    with pytest.raises(InputError) as err:
        load_session(path)
    message = str(err.value)
    assert message.startswith(f"{path}: ")
    assert expected in message
    assert "\n" not in message
    assert path.read_bytes() == before


def test_wrong_answer_value_lists_the_allowed_values() -> None:
    with pytest.raises(InputError) as err:
        loads_session('{"schema_version": 1, "answers": {"framework": "fortran"}}', "f.json")
    assert "pytorch" in str(err.value) and "jax" in str(err.value)


def test_probe_run_file_is_recognised_as_foreign(tmp_path: Path) -> None:
    path = tmp_path / "run.json"
    save_run(make_run(), path)
    with pytest.raises(InputError) as err:
        load_session(path)
    assert "probe run file" in str(err.value) and str(path) in str(err.value)


def test_missing_folder_and_binary_files(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="no such file"):
        load_session(tmp_path / "nope.json")
    with pytest.raises(InputError, match="is a folder"):
        load_session(tmp_path)
    binary = tmp_path / "b.json"
    binary.write_bytes(b"\xff\xfe\x00garbage")
    with pytest.raises(InputError, match="not UTF-8"):
        load_session(binary)


def test_failed_save_keeps_the_old_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "s.json"
    save_session(full_session(), path)
    before = path.read_bytes()

    def boom(*_a: object, **_k: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("os.replace", boom)
    with pytest.raises(OSError):
        save_session(new_session(), path)
    assert path.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["s.json"]


def test_measured_devices_take_the_best_ok_matmul_per_device() -> None:
    devices = {d.key: d for d in measured_devices([make_run()])}
    assert set(devices) == {"box/torch:cpu:0", "box/jax:cpu:0"}
    torch_cpu = devices["box/torch:cpu:0"]
    assert torch_cpu.flops == 2.5e11  # the suspect 9e11 does not count
    assert torch_cpu.memory_bytes == float(16 << 30)
    assert "Example CPU" in torch_cpu.name and "float32" in torch_cpu.name
    assert devices["box/jax:cpu:0"].memory_bytes is None


def test_measured_devices_name_the_host_when_runs_come_from_several() -> None:
    runs = [make_run("laptop"), make_run("tpu-vm", [matmul("jax:cpu:0", 3e11)])]
    names = sorted(d.name for d in measured_devices(runs))
    assert any(n.endswith("on tpu-vm") for n in names)
    assert any(n.endswith("on laptop") for n in names)
    assert measured_devices([]) == []


DATA = Path(__file__).resolve().parents[1] / "data"


@pytest.mark.parametrize("name", ["session-v1.json", "session-v1-training.json"])
def test_sessions_written_by_the_first_version_still_open(tmp_path: Path, name: str) -> None:
    """Files saved by the app before the answers changed (schema 1) open, migrated, and save as the current schema."""
    path = tmp_path / name
    original = (DATA / name).read_bytes()
    path.write_bytes(original)
    raw = json.loads(original)
    assert raw["schema_version"] == 1
    session = load_session(path)
    assert session.schema_version == SCHEMA_VERSION == 4
    old = raw["answers"]
    for factor, value in old.items():
        expected = "fp64" if (factor == "high_precision" and value == "yes") else value
        assert getattr(session.answers, factor) == expected, factor
    assert session.answers.embeddings is None
    assert session.notes == raw["notes"]
    assert session.estimate is not None and session.estimate.params == raw["estimate"]["params"]
    assert path.read_bytes() == original  # opening never rewrites the user's file
    saved = save_session(session, tmp_path / "again.json")
    again = json.loads((tmp_path / "again.json").read_text())
    assert again["schema_version"] == 4 and load_session(tmp_path / "again.json").same_content(saved)


def test_a_migrated_fp64_answer_keeps_the_old_verdict() -> None:
    """Version 1's "yes" (fp64 or strict fp32) becomes "fp64": the GPU blocker it was before."""
    session = load_session(DATA / "session-v1.json")
    rec = session.recommendation()
    assert session.answers.high_precision == "fp64"
    assert rec.verdict == "gpu" and [b.factor for b in rec.blockers] == ["high_precision"]


def test_a_schema_2_session_with_a_model_check_opens_unmigrated_and_saves_with_the_compile_table(
    tmp_path: Path,
) -> None:
    """Saved by the app at schema 2 (before the TPU compile step): its answers are schema-2 answers, its model
    check has no tpu_compile; saved again it is schema 3 and a check's per-generation table survives the trip."""
    from gpu_tpu_app.core.tpu_compile import TpuCompile

    session = load_session(DATA / "session-v2-model-check.json")
    assert session.answers.high_precision == "fp32"  # a schema-2 value, not read as a schema-1 answer
    assert session.model_check is not None and session.model_check.level == "lowered_for_tpu"
    assert session.model_check.tpu_compile is None
    table = TpuCompile.model_validate(
        {
            "status": "ok",
            "route": "jax.jit(...)",
            "libtpu": "0.0.42.1",
            "chips": 1,
            "generations": [
                {
                    "chip": "tpu-v5e",
                    "topology": "v5e:1x1",
                    "chips": 1,
                    "devices": 1,
                    "status": "compiled",
                    "programs": [{"program": "forward", "status": "compiled", "flops": 5.8e8, "argument_bytes": 9}],
                }
            ],
        }
    )
    check = session.model_check.model_copy(update={"tpu_compile": table, "level": "compiled_for_tpu"})
    saved = save_session(session.with_model_check(check), tmp_path / "v3.json")
    raw = json.loads((tmp_path / "v3.json").read_text())
    assert (
        raw["schema_version"] == SCHEMA_VERSION
        and raw["model_check"]["tpu_compile"]["generations"][0]["chip"] == "tpu-v5e"
    )
    again = load_session(tmp_path / "v3.json")
    assert again.same_content(saved) and again.model_check == check


def test_a_session_with_a_schema_2_run_says_its_version_to_an_older_app(tmp_path: Path) -> None:
    """Sessions are version 4 since runs may be run files of schema 2 (result notes): an app that reads
    sessions up to version 3 refuses the file with one line naming its version, not "unknown field" in a
    run. A version-3 file saved before that still opens, and saves as version 4."""
    from gpu_tpu_app.core.runs import SCHEMA_VERSION as RUN_SCHEMA
    from gpu_tpu_app.errors import check_schema_version

    assert RUN_SCHEMA == 2
    path = tmp_path / "now.json"
    save_session(new_session(), path)
    raw = json.loads(path.read_text())
    assert raw["schema_version"] == 4
    with pytest.raises(InputError) as info:  # what the version check of an app that reads up to 3 says
        check_schema_version(raw["schema_version"], path, 3)
    assert str(info.value).startswith(f"{path}: schema_version: 4 is not supported")
    older = tmp_path / "v3.json"
    older.write_text(json.dumps({**raw, "schema_version": 3}))
    opened = load_session(older)
    assert opened.schema_version == 4 and opened.same_content(load_session(path))
