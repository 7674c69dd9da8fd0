"""The pasted command output of the README and docs/ is what the commands print today.

Each ```console block of README.md, CONTRIBUTING.md and every docs/**/*.md page that runs one of the
headless commands below is run again
(in a fresh home folder, so no price catalogue or setting of this machine leaks in) and must
print exactly what the README shows. After a change that alters the output, regenerate the
blocks with `python -m tests.test_readme --write` and read the diff.
"""

from __future__ import annotations

import itertools
import os
import re
import shlex
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
#: every page whose console blocks are checked
PAGES = [README, ROOT / "CONTRIBUTING.md", *sorted((ROOT / "docs").rglob("*.md"))]
#: the commands whose output the README pastes in full (deterministic, nothing measured on this machine)
CHECKED = ("catalog", "estimate", "prices", "decide --answers examples/", "explain")
_BLOCK = re.compile(r"^```console\n(.*?)^```$", re.S | re.M)


def pasted(text: str) -> list[tuple[str, str]]:
    """(command, output) of every `$ gpu-tpu-app <CHECKED>` line of the README's console blocks."""
    found = []
    for block in _BLOCK.finditer(text):
        lines = block.group(1).splitlines()
        starts = [i for i, line in enumerate(lines) if line.startswith("$ ")] + [len(lines)]
        for here, nxt in itertools.pairwise(starts):
            command = lines[here][2:].strip()
            if command.startswith("gpu-tpu-app ") and command.removeprefix("gpu-tpu-app ").startswith(CHECKED):
                found.append((command, "\n".join(lines[here + 1 : nxt])))
    return found


def run(command: str, home: Path) -> str:
    """What the command prints, run as a user with an empty home folder would run it (stdout and stderr)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("XDG_")}
    env.update(HOME=str(home), XDG_CONFIG_HOME=str(home / ".config"), XDG_DATA_HOME=str(home / ".local/share"))
    env.update(
        XDG_STATE_HOME=str(home / ".local/state"), XDG_CACHE_HOME=str(home / ".cache"), QT_QPA_PLATFORM="offscreen"
    )
    # as the README writes it, pipes included (`| grep ...`), with this interpreter's app
    script = shlex.quote(sys.executable) + " -m gpu_tpu_app" + command.removeprefix("gpu-tpu-app")
    proc = subprocess.run(["bash", "-c", script], capture_output=True, text=True, cwd=ROOT, env=env, timeout=120)
    return (proc.stdout + proc.stderr).rstrip("\n")


CASES = [
    (page, command, output)
    for page in PAGES
    if page.is_file()
    for command, output in pasted(page.read_text(encoding="utf-8"))
]


def test_the_readme_pastes_the_tables_it_promises() -> None:
    commands = [c for _p, c, _out in CASES]
    for wanted in ("gpu-tpu-app catalog", "gpu-tpu-app estimate --params 7e9 --chips 64", "gpu-tpu-app prices"):
        assert wanted in commands
    assert all(out.strip() for _p, _c, out in CASES)


@pytest.mark.parametrize(
    ("page", "command", "output"), CASES, ids=[f"{p.relative_to(ROOT)}: {c}" for p, c, _o in CASES]
)
def test_pasted_output_is_what_the_command_prints(page: Path, command: str, output: str, tmp_path: Path) -> None:
    assert run(command, tmp_path) == output, (
        f"{page.relative_to(ROOT)} is out of date for `{command}`: python -m tests.test_readme --write"
    )


_LINK = re.compile(r"\]\(([^)\s]+)\)")


def test_the_readme_is_a_front_page() -> None:
    text = README.read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 250
    first_commands = re.findall(r"^make (\w[\w-]*)", text, re.M)[:2]
    assert first_commands == ["run", "test"]


@pytest.mark.parametrize("page", [p for p in PAGES if p.is_file()], ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_resolves(page: Path) -> None:
    """A link to a file of the repository (a page, a screenshot, a folder) names one that exists."""
    broken = []
    for target in _LINK.findall(page.read_text(encoding="utf-8")):
        if re.match(r"^[a-z][a-z0-9+.-]*:", target) or target.startswith("#"):
            continue
        path = target.split("#", 1)[0]
        if not (page.parent / path).exists():
            broken.append(target)
    assert not broken, f"{page.relative_to(ROOT)}: {broken}"


def write() -> None:
    """Replace each checked block's output in the README and docs/ with what the command prints now."""
    with tempfile.TemporaryDirectory() as home:
        for page in PAGES:
            if not page.is_file():
                continue
            text = page.read_text(encoding="utf-8")
            for command, output in pasted(text):
                fresh = run(command, Path(home))
                text = text.replace(f"$ {command}\n{output}\n", f"$ {command}\n{fresh}\n", 1)
            page.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    write()
