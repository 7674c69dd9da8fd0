"""Dependencies point one way: core imports no Qt, pyqtgraph, torch or jax; the window never imports
torch or jax, and it imports pyqtgraph only when the Probe page is first shown; no two files of the
package import each other, directly or round a longer loop."""

from __future__ import annotations

import json
import os
import pkgutil
import subprocess
import sys
from pathlib import Path

import grimp
import pytest

import gpu_tpu_app.core

ROOT = Path(__file__).resolve().parent.parent
HEAVY = ("PySide6", "shiboken6", "pyqtgraph", "torch", "jax", "jaxlib")


def run_python(code: str) -> dict:
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=180, env=env, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout.strip().splitlines()[-1])


def test_core_modules_are_found() -> None:
    names = {m.name for m in pkgutil.iter_modules(gpu_tpu_app.core.__path__)}
    assert {"decision", "lesson", "catalog", "estimate", "runs", "session", "report", "settings"} <= names


def test_importing_all_of_core_loads_no_gui_or_framework() -> None:
    code = f"""
import importlib, json, pkgutil, sys
import gpu_tpu_app.core as core
names = []
for m in pkgutil.iter_modules(core.__path__):
    importlib.import_module("gpu_tpu_app.core." + m.name)
    names.append(m.name)
# use the pure parts once, so lazy imports inside functions count too
from gpu_tpu_app.core.session import new_session
from gpu_tpu_app.core.report import build_markdown, build_html
from gpu_tpu_app.core.lesson import load_lesson
s = new_session()
build_markdown(s, load_lesson()); build_html(s, load_lesson())
heavy = sorted({{k.split(".")[0] for k in sys.modules}} & set({HEAVY!r}))
print(json.dumps({{"modules": names, "heavy": heavy}}))
"""
    result = run_python(code)
    assert len(result["modules"]) >= 8
    assert result["heavy"] == []


WINDOW_SESSION = r"""
import json, sys
from PySide6.QtCore import QEventLoop, QTimer
from PySide6.QtWidgets import QApplication
app = QApplication([])
from gpu_tpu_app import cli
from gpu_tpu_app.core.settings import Preferences
from gpu_tpu_app.ui.shell.theme import theme_manager
from gpu_tpu_app.ui.shell.main_window import MainWindow
theme_manager().apply("system")
w = MainWindow(Preferences(default_suite="smoke"), persist=False)
w.resize(1280, 800)
w.show()
app.processEvents()
pyqtgraph_at_start = "pyqtgraph" in sys.modules
w.show_result()
w.show_page("learn")
w.show_page("probe")
for _ in range(5):
    app.processEvents()
pyqtgraph_after_probe_page = "pyqtgraph" in sys.modules

def wait(signal, start):
    loop, got = QEventLoop(), []
    signal.connect(lambda r: (got.append(r), loop.quit()))
    QTimer.singleShot(170_000, loop.quit)
    start()
    loop.exec()
    return got[0] if got else None

# a real smoke probe of both backends from the Probe page
panel = w.ensure_probe_panel()
panel.set_selection(backends=["torch", "jax"], suite="smoke", kernels=[], dtypes=[])
run = wait(panel.sig_finished, lambda: panel.start() or sys.exit("the probe did not start"))
# a model check from the wizard, then one from the CLI in the same process
bar = w.wizard.model_check_bar
check = wait(bar.sig_finished, lambda: bar.check(sys.argv[1]))
cli_code = cli.main(["check-model", sys.argv[2], "--format", "json"])
panel.shutdown()
w.shutdown()
print(json.dumps({
    "pyqtgraph_at_start": pyqtgraph_at_start,
    "pyqtgraph_after_probe_page": pyqtgraph_after_probe_page,
    "probe_backends": sorted({d.backend for d in run.devices}) if run else None,
    "probe_ok": sum(r.status == "ok" for r in run.results) if run else 0,
    "window_check": type(check).__name__,
    "cli_check": cli_code,
    "frameworks": sorted({k.split(".")[0] for k in sys.modules} & {"torch", "jax", "jaxlib"}),
    "user_code_or_worker_side": sorted(
        k for k in sys.modules
        if k == "gpu_tpu_app_user_model"
        or k.startswith(("gpu_tpu_app.worker.modelcheck", "gpu_tpu_app.worker.kernels", "gpu_tpu_app.worker.detect"))
    ),
}))
"""


@pytest.mark.slow
def test_the_window_process_never_imports_torch_jax_or_user_code() -> None:
    """One window session in a fresh interpreter, everything that could pull a framework in: all pages, a real
    smoke probe of both backends, a model check from the wizard and one from the CLI. pyqtgraph loads only
    with the Probe page; torch, jax, the worker side and the user's model file never load (they run in
    worker processes)."""
    models = ROOT / "examples" / "models"
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    proc = subprocess.run(
        [
            sys.executable,
            "-c",
            WINDOW_SESSION,
            str(models / "jax_boolean_mask.py"),
            str(models / "torch_elementwise.py"),
        ],
        capture_output=True,
        text=True,
        timeout=400,
        env=env,
        cwd=ROOT,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    result = json.loads(proc.stdout.strip().splitlines()[-1])
    assert result["probe_ok"] > 0
    del result["probe_ok"]
    assert result == {
        "pyqtgraph_at_start": False,
        "pyqtgraph_after_probe_page": True,
        "probe_backends": ["jax", "torch"],
        "window_check": "ModelCheck",
        "cli_check": 0,
        "frameworks": [],
        "user_code_or_worker_side": [],
    }


def test_layer_contracts_hold() -> None:
    """The import-linter contracts in pyproject.toml: core pure, probe without Qt, the worker side without the
    app's dependencies, ui without the worker side."""
    code = "import sys; from importlinter.cli import lint_imports; sys.exit(lint_imports(no_cache=True))"
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert " kept, 0 broken" in proc.stdout and "BROKEN" not in proc.stdout


def test_the_worker_contract_forbids_every_other_part_of_the_package() -> None:
    """The contract that keeps worker/ and shared/ to the standard library names every other top-level
    module and package of gpu_tpu_app, so a new one is forbidden to them until someone decides otherwise."""
    import tomllib

    contracts = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["importlinter"][
        "contracts"
    ]
    worker = next(c for c in contracts if "gpu_tpu_app.worker" in c["source_modules"])
    assert sorted(worker["source_modules"]) == ["gpu_tpu_app.shared", "gpu_tpu_app.worker"]
    package = ROOT / "gpu_tpu_app"
    parts = {f"gpu_tpu_app.{m.name}" for m in pkgutil.iter_modules([str(package)]) if m.name != "__main__"}
    assert {"gpu_tpu_app.core", "gpu_tpu_app.ui", "gpu_tpu_app.cli"} <= parts
    assert sorted(parts - set(worker["source_modules"]) - set(worker["forbidden_modules"])) == []


#: An import hook that makes Qt and pyqtgraph missing, as in an environment where they are not installed.
_NO_QT = """
import importlib.abc, sys
class _NoQt(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in ("PySide6", "shiboken6", "pyqtgraph", "torch", "jax", "jaxlib"):
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None
sys.meta_path.insert(0, _NoQt())
"""


def test_core_and_headless_commands_run_without_qt(tmp_path: Path) -> None:
    """Every core module, and each headless command, works where PySide6 and pyqtgraph are not installed."""
    run_file = tmp_path / "run.json"
    code = (
        _NO_QT
        + f"""
import contextlib, importlib, io, json, pkgutil
import gpu_tpu_app.core as core
for m in pkgutil.iter_modules(core.__path__):
    importlib.import_module("gpu_tpu_app.core." + m.name)
from datetime import datetime, timezone
from gpu_tpu_app import cli
from gpu_tpu_app.core.runs import DeviceInfo, ProbeResult, RunFile, save_run
dev = DeviceInfo(backend="torch", platform="cpu", name="Test CPU")
res = ProbeResult(kernel="matmul", backend="torch", device=dev.key, dtype="float32", size=256, metric="flops",
                  value=1.5e11, unit="FLOP/s")
save_run(RunFile(app_version="0", host="h", os="Linux", python="3.11", devices=[dev], suite="smoke",
                 started=datetime.now(timezone.utc), results=[res]), {str(run_file)!r})
codes, outs = {{}}, {{}}
for argv in (["explain"], ["catalog"], ["decide", "--answers", "examples/answers-research-prototype.json"],
             ["estimate", "--params", "7B"], ["probe", "compare", {str(run_file)!r}]):
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        codes[argv[0]] = cli.main(argv)
    outs[argv[0]] = buf.getvalue()
try:
    import PySide6  # noqa: F401
    blocked = False
except ModuleNotFoundError:
    blocked = True
print(json.dumps({{"codes": codes, "outs": outs, "blocked": blocked}}))
"""
    )
    result = run_python(code)
    assert result["blocked"]
    assert result["codes"] == {"explain": 0, "catalog": 0, "decide": 0, "estimate": 0, "probe": 0}
    assert all(out.strip() for out in result["outs"].values())
    assert "150 GFLOP/s" in result["outs"]["probe"]


def import_cycles(graph: grimp.ImportGraph) -> list[list[str]]:
    """Every set of modules that import each other round a loop (strongly connected, two or more), sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(module: str) -> None:  # Tarjan's algorithm; the package has about 100 modules
        index[module] = low[module] = len(index)
        stack.append(module)
        on_stack.add(module)
        for other in sorted(graph.find_modules_directly_imported_by(module)):
            if other not in index:
                visit(other)
                low[module] = min(low[module], low[other])
            elif other in on_stack:
                low[module] = min(low[module], index[other])
        if low[module] == index[module]:
            group = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                group.append(top)
                if top == module:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for module in sorted(graph.modules):
        if module not in index:
            visit(module)
    return sorted(found)


def test_the_cycle_finder_finds_a_loop_of_two_and_of_three() -> None:
    graph = grimp.ImportGraph()
    for importer, imported in (("p.a", "p.b"), ("p.b", "p.a"), ("p.c", "p.d"), ("p.d", "p.e"), ("p.e", "p.c")):
        graph.add_import(importer=importer, imported=imported)
    graph.add_import(importer="p.f", imported="p.a")  # imports into a loop, is not part of it
    assert import_cycles(graph) == [["p.a", "p.b"], ["p.c", "p.d", "p.e"]]


def test_no_import_cycle_between_files() -> None:
    # imports under TYPE_CHECKING and inside functions count too: a loop of either kind ties two files together
    graph = grimp.build_graph("gpu_tpu_app", include_external_packages=False, exclude_type_checking_imports=False)
    assert len(graph.modules) > 50
    assert import_cycles(graph) == []
