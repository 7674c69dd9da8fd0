"""`gpu-tpu-app decide` without --model imports no pydantic, model check, torch, JAX or Qt code.

Each test starts a fresh interpreter (the test process has all of them loaded already), runs the
command there through the same entry point as `python -m gpu_tpu_app`, and lists what it imported.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"

#: module name prefixes a plain `decide` must not import.
FORBIDDEN = (
    "pydantic",
    "pydantic_core",
    "torch",
    "jax",
    "jaxlib",
    "PySide6",
    "shiboken6",
    "pyqtgraph",
    "gpu_tpu_app.core.modelcheck",
    "gpu_tpu_app.commands.check_model",
    "gpu_tpu_app.worker",
    "gpu_tpu_app.ui",
    "gpu_tpu_app.core.decision.answers",
    "gpu_tpu_app.core.decision.recommendation",
    "gpu_tpu_app.core.decision.content_schema",
)

_PROBE = """
import contextlib, importlib, io, json, sys
from gpu_tpu_app.cli import main
for name in json.loads(sys.argv[2]):
    importlib.import_module(name)
codes, printed = [], []
for argv in json.loads(sys.argv[1]):
    with contextlib.redirect_stdout(io.StringIO()) as out, contextlib.redirect_stderr(io.StringIO()) as err:
        codes.append(main(argv))
    printed.append([out.getvalue(), err.getvalue()])
print(json.dumps({"codes": codes, "printed": printed, "modules": sorted(sys.modules)}))
"""


def _imported(*argvs: list[str], first: tuple[str, ...] = ()) -> tuple[list[tuple[int, str, str]], list[str]]:
    """(exit code, stdout, stderr) of each of the commands `argvs`, run one after another in a fresh
    interpreter (which imports the modules `first` before them), and the modules it had imported at the end."""
    argv = [sys.executable, "-c", _PROBE, json.dumps(argvs), json.dumps(list(first))]
    done = subprocess.run(argv, capture_output=True, text=True, timeout=120, check=True)
    found = json.loads(done.stdout.splitlines()[-1])
    return [(code, out, err) for code, (out, err) in zip(found["codes"], found["printed"])], found["modules"]


def _forbidden(modules: list[str]) -> list[str]:
    return [m for m in modules if any(m == p or m.startswith(p + ".") for p in FORBIDDEN)]


def test_decide_imports_no_models_model_check_frameworks_or_qt() -> None:
    argvs = [
        ["decide", "--answers", str(EXAMPLES / name), "--format", fmt, "--lang", lang]
        for name in ("answers-jax-llm-pretraining.json", "answers-mixed-unknowns.json")
        for fmt in ("text", "json")
        for lang in ("en", "zh-Hans")
    ]
    runs, modules = _imported(*argvs)
    assert [code for code, _out, _err in runs] == [0] * len(argvs)
    assert all(out.strip() and not err for _code, out, err in runs)
    assert "gpu_tpu_app.core.decision.engine" in modules  # it did decide, here
    assert _forbidden(modules) == []


def test_a_bad_answers_file_is_refused_without_the_models_too(tmp_path: Path) -> None:
    bad = tmp_path / "answers.json"
    bad.write_text('{"framework": "fortran"}')
    runs, modules = _imported(["decide", "--answers", str(bad)])
    assert runs == [(2, "", f"error: {bad}: framework: 'fortran' is not one of pytorch, jax, tensorflow, other\n")]
    assert _forbidden(modules) == []


def test_the_check_sees_what_the_process_imported() -> None:
    # the same probe, where the answers model was imported before decide ran, finds it: the check can fail
    runs, modules = _imported(
        ["decide", "--answers", str(EXAMPLES / "answers-mixed-unknowns.json")],
        first=("gpu_tpu_app.core.decision.answers",),
    )
    assert runs[0][0] == 0
    assert {"pydantic", "gpu_tpu_app.core.decision.answers"} <= set(_forbidden(modules))
