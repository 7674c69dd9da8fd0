"""The tree's folders keep to their jobs: tools/ and benchmarks/ never import the tests, the tests never
import benchmarks/ (no loop between them), and benchmarks/ holds only the benchmarks and what they run."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _imported_tops(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    tops = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            tops |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            tops.add(node.module.split(".")[0])
    return tops


def _offenders(folder: str, forbidden: set[str]) -> list[str]:
    return sorted(
        f"{p.relative_to(ROOT)} imports {', '.join(sorted(_imported_tops(p) & forbidden))}"
        for p in (ROOT / folder).rglob("*.py")
        if "__pycache__" not in p.parts and _imported_tops(p) & forbidden
    )


def test_tools_and_benchmarks_never_import_the_tests() -> None:
    assert _offenders("tools", {"tests", "benchmarks"}) == []
    assert _offenders("benchmarks", {"tests"}) == []


def test_the_tests_never_import_the_benchmarks() -> None:
    assert _offenders("tests", {"benchmarks"}) == []


def test_the_checker_sees_an_import_of_the_tests(tmp_path: Path) -> None:
    script = tmp_path / "x.py"
    script.write_text("import os\nfrom tests.core import test_runs\n", encoding="utf-8")
    assert _imported_tops(script) == {"os", "tests"}


def test_benchmarks_holds_only_benchmarks() -> None:
    files = sorted(
        p.relative_to(ROOT / "benchmarks").as_posix()
        for p in (ROOT / "benchmarks").rglob("*")
        if p.is_file() and "__pycache__" not in p.parts
    )
    others = [f for f in files if not (f.startswith(("bench_", "models/")) or f in ("run_all.py", "README.md"))]
    assert others == [], "tools belong in tools/, benchmarks/ keeps bench_*.py, run_all.py, models/ and README.md"
