"""worker/wire.py's fields are generated from core/runs.py (python -m tools.gen_wire): the file in the tree is
what the generator writes, the check catches a planted change on either side, and the records it writes build
lines the app's models read field for field, in the same order."""

from __future__ import annotations

import dataclasses
import json
import subprocess
import sys
from pathlib import Path

import pytest
from pydantic import Field

from gpu_tpu_app.core import runs
from gpu_tpu_app.worker import wire
from tools import gen_wire

ROOT = Path(__file__).resolve().parents[2]


def _source() -> str:
    return gen_wire.WIRE.read_text(encoding="utf-8")


def test_wire_py_is_what_the_generator_writes() -> None:
    source = _source()
    assert gen_wire.generate(source) == source
    proc = subprocess.run(
        [sys.executable, "-m", "tools.gen_wire", "--check"], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, "wire.py is up to date\n", "")


def test_every_record_has_exactly_one_generated_block() -> None:
    source = _source()
    assert source.count(gen_wire.BEGIN) == source.count(gen_wire.END) == len(gen_wire.RECORDS)
    assert set(gen_wire.RECORDS) == {
        name for name in dir(runs) if name in dir(wire) and dataclasses.is_dataclass(getattr(wire, name))
    }


def test_a_hand_edit_inside_a_block_is_caught_and_undone(tmp_path: Path) -> None:
    source = _source()
    planted = source.replace("    metric: str\n", '    metric: str = "seconds"\n', 1)
    assert planted != source
    assert gen_wire.generate(planted) == source
    copy = tmp_path / "wire.py"
    copy.write_text(planted, encoding="utf-8")
    proc = subprocess.run(
        [sys.executable, "-m", "tools.gen_wire", "--check", "--path", str(copy)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 1
    assert proc.stderr == "wire.py is not what core/runs.py generates: run python -m tools.gen_wire\n"
    assert copy.read_text(encoding="utf-8") == planted  # --check writes nothing
    proc = subprocess.run(
        [sys.executable, "-m", "tools.gen_wire", "--path", str(copy)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0
    assert copy.read_text(encoding="utf-8") == source


def test_the_schema_version_is_the_run_files(monkeypatch: pytest.MonkeyPatch) -> None:
    assert wire.SCHEMA_VERSION == runs.SCHEMA_VERSION
    source = _source()
    planted = source.replace(f"\nSCHEMA_VERSION = {runs.SCHEMA_VERSION}\n", "\nSCHEMA_VERSION = 1\n", 1)
    assert planted != source
    assert gen_wire.generate(planted) == source
    monkeypatch.setattr(runs, "SCHEMA_VERSION", 3)
    assert "\nSCHEMA_VERSION = 3\n" in gen_wire.generate(source)
    with pytest.raises(gen_wire.GenerationError, match="0 lines assign SCHEMA_VERSION"):
        gen_wire.generate(source.replace("\nSCHEMA_VERSION = ", "\nVERSION = ", 1))


def test_a_field_added_to_the_model_reaches_the_generated_record(monkeypatch: pytest.MonkeyPatch) -> None:
    class Grown(runs.Progress):
        warmup_s: runs.NonNegative | None = None
        labels: list[runs.Text] = Field([], max_length=4)

    monkeypatch.setattr(runs, "Progress", Grown)
    source = _source()
    grown = gen_wire.generate(source)
    assert grown != source
    assert (
        "    cap_s: float | None = None\n    warmup_s: float | None = None\n    labels: list[str] = field(default_factory=list)\n"
        in grown
    )


def test_a_field_type_without_a_plain_twin_stops_the_generator(monkeypatch: pytest.MonkeyPatch) -> None:
    from datetime import datetime

    class Dated(runs.Progress):
        taken: datetime

    monkeypatch.setattr(runs, "Progress", Dated)
    with pytest.raises(gen_wire.GenerationError, match=r"core\.runs\.Progress\.taken: no standard-library type"):
        gen_wire.generate(_source())


def test_a_block_removed_from_wire_py_is_named() -> None:
    source = _source()
    start = source.index(gen_wire.BEGIN, source.index("class Stats("))
    end = source.index(gen_wire.END, start) + len(gen_wire.END)
    with pytest.raises(gen_wire.GenerationError, match="no generated block in Stats"):
        gen_wire.generate(source[:start] + source[end:])


def test_the_records_fields_match_the_models_in_name_order_and_default() -> None:
    for name in gen_wire.RECORDS:
        model = runs.__dict__[name]
        fields = [f for f in model.model_fields if f != "schema_version"]
        record = dataclasses.fields(getattr(wire, name))
        assert [f.name for f in record] == fields, name
        for f in record:
            info = model.model_fields[f.name]
            if info.is_required():
                assert f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING, (name, f.name)
            elif f.default_factory is not dataclasses.MISSING:
                assert f.default_factory() == info.default, (name, f.name)
            else:
                assert f.default == info.default, (name, f.name)


def test_a_result_names_its_metric_as_the_run_file_requires() -> None:
    """Every worker result sets its metric; a result without one is refused on both sides alike."""
    with pytest.raises(TypeError, match="metric"):
        wire.ProbeResult(kernel="matmul", backend="torch", device="torch:cpu:0")  # type: ignore[call-arg]
    line = {"type": "result", "result": {"kernel": "matmul", "backend": "torch", "device": "torch:cpu:0"}}
    with pytest.raises(runs.ProtocolError, match="metric"):
        runs.parse_message(json.dumps(line))


def test_an_old_workers_line_with_its_fields_in_the_old_order_still_reads() -> None:
    """Workers before the generated records wrote `type` last and notes before math_mode_notes: the app reads
    a message by name, so the order of a line's keys never mattered; the line below is such a worker's."""
    old = (
        '{"schema_version":2,"result":{"kernel":"matmul","backend":"torch","device":"torch:cpu:0","dtype":"float32",'
        '"size":256,"variant":null,"metric":"flops","value":1.5e9,"unit":"FLOP/s","stats":null,"math_mode":null,'
        '"status":"ok","message":null,"pct_spec":null,"pct_ceiling":null},"type":"result"}'
    )
    msg = runs.parse_message(old)
    assert isinstance(msg, runs.ResultMsg)
    assert (msg.result.metric, msg.result.value, msg.result.size) == ("flops", 1.5e9, 256)


def _within(sent: object, read: object) -> bool:
    """Every value of `sent` is in `read` (the app's dump also writes the empty fields a worker leaves out)."""
    if isinstance(sent, dict):
        return isinstance(read, dict) and all(k in read and _within(v, read[k]) for k, v in sent.items())
    return sent == read


def test_a_generated_records_line_reads_back_key_for_key_in_the_models_order() -> None:
    stats = wire.Stats(median=2.0, min=1.0, max=3.0, q1=1.5, q3=2.5, iqr=1.0, cv=0.1, reps=5, seconds=0.5)
    result = wire.ProbeResult(
        kernel="matmul",
        backend="torch",
        device="torch:cpu:0",
        dtype="float32",
        size=256,
        metric="flops",
        value=2.0,
        unit="FLOP/s",
        stats=stats,
    )
    for msg in (
        wire.ResultMsg(result=result),
        wire.Progress(done=0, total=3, kernel="matmul"),
        wire.Done(ok=True),
        wire.ErrorMsg(message="no backend", backend="jax"),
    ):
        line = wire.dump_message(msg)
        parsed = runs.parse_message(line)
        sent = json.loads(line)
        assert _within(sent, json.loads(runs.dump_message(parsed))), line
        assert list(json.loads(line)) == ["schema_version", *msg.to_dict()]
        dumped = parsed.model_dump(mode="json", exclude={"schema_version"})
        assert list(msg.to_dict()) == [k for k in dumped if k in msg.to_dict()]
