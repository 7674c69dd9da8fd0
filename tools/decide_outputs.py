"""`decide`'s outputs over a fixed set of answer files, to compare two versions of the code byte for byte.

Run: .venv/bin/python tools/decide_outputs.py --write OUT.json [--cases DIR]
     .venv/bin/python tools/decide_outputs.py --compare BEFORE.json AFTER.json

The cases: the shipped examples (examples/answers-*.json), the test data's answers files, a few
hundred answer files drawn at random (fixed seed; every factor left open or given one of its
values), every single-answer file, and hostile files (not JSON, not an object, unknown fields,
values of the wrong type or out of range, unsupported schema versions, a byte-order mark, text
that is not UTF-8, deep nesting, a file over the size cap, a folder, a missing file), answers on
standard input, bad command lines, and the --help of every headless command and a few runs of
catalog, explain and estimate (they share decide's parser). Each runs through
`gpu_tpu_app.cli.main` in this process in English and in zh-Hans, as text and as JSON; the exit
status, stdout and stderr of each are written out. The case files are written to DIR (default
/tmp/decide-output-cases) so that error lines, which name the file, are the same in both runs. Set
PYTHONPATH to another checkout's root to record that tree (say, main before a change).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SEED = 24
RANDOM_FILES = 400


def _factors() -> dict[str, tuple[str, ...]]:
    from gpu_tpu_app.core.decision import FACTORS, choices

    return {factor: choices(factor) for factor in FACTORS}


def _hostile(factors: dict[str, tuple[str, ...]]) -> dict[str, bytes]:
    first = next(iter(factors))
    big = b'{"framework": "jax", "pad": "' + b"x" * (1024 * 1024) + b'"}'
    return {
        "not-json.json": b"{framework: jax}",
        "truncated.json": b'{"framework": "jax"',
        "empty.json": b"",
        "list.json": b'["framework", "jax"]',
        "string.json": b'"jax"',
        "null.json": b"null",
        "number.json": b"12",
        "unknown-field.json": b'{"framework": "jax", "colour": "blue"}',
        "unknown-field-long.json": json.dumps({"x" * 500 + "\n\u202e": 1}).encode(),
        "wrong-value.json": b'{"framework": "fortran"}',
        "wrong-type-int.json": json.dumps({first: 3}).encode(),
        "wrong-type-list.json": json.dumps({first: ["jax"]}).encode(),
        "wrong-type-bool.json": json.dumps({"xla_verified": True}).encode(),
        "wrong-type-object.json": json.dumps({"scale": {"large": 1}}).encode(),
        "value-control-chars.json": json.dumps({"team": "cuda\n\x1b[31mred"}).encode(),
        "value-very-long.json": json.dumps({"team": "c" * 5000}).encode(),
        "version-3.json": b'{"schema_version": 3, "framework": "jax"}',
        "version-string.json": b'{"schema_version": "2", "framework": "jax"}',
        "version-true.json": b'{"schema_version": true}',
        "version-float.json": b'{"schema_version": 2.0}',
        "version-1-yes.json": b'{"schema_version": 1, "high_precision": "yes", "framework": "jax"}',
        "version-2-yes.json": b'{"schema_version": 2, "high_precision": "yes"}',
        "nulls.json": json.dumps(dict.fromkeys(factors)).encode(),
        "bom.json": b'\xef\xbb\xbf{"framework": "jax", "scale": "massive"}',
        "latin1.json": b'{"team": "caf\xe9"}',
        "deep.json": b'{"framework": ' + b"[" * 100_000 + b"]" * 100_000 + b"}",
        "huge-number.json": b'{"scale": ' + b"9" * 5000 + b"}",
        "duplicate-keys.json": b'{"framework": "jax", "framework": "pytorch"}',
        "nan.json": b'{"scale": NaN}',
        "too-big.json": big,
    }


def write_cases(folder: Path) -> list[Path]:
    """The answer files, written to `folder`; their paths in a fixed order."""
    factors = _factors()
    folder.mkdir(parents=True, exist_ok=True)
    files: dict[str, bytes] = {}
    for path in sorted((ROOT / "examples").glob("answers-*.json")):
        files[f"example-{path.name}"] = path.read_bytes()
    for path in sorted((ROOT / "tests" / "data").glob("answers*.json")):
        files[f"testdata-{path.name}"] = path.read_bytes()
    rng = random.Random(SEED)
    for n in range(RANDOM_FILES):
        open_share = rng.choice((0.0, 0.2, 0.5, 0.8))
        answers = {f: rng.choice(values) for f, values in factors.items() if rng.random() >= open_share}
        files[f"random-{n:03d}.json"] = json.dumps(answers).encode()
    for factor, values in factors.items():
        for value in values:
            files[f"one-{factor}-{value}.json"] = json.dumps({factor: value}).encode()
    files["none.json"] = b"{}"
    for name, data in _hostile(factors).items():
        files[f"hostile-{name}"] = data
    paths = []
    for name, data in files.items():
        (folder / name).write_bytes(data)
        paths.append(folder / name)
    (folder / "hostile-folder.json").mkdir(exist_ok=True)
    paths += [folder / "hostile-folder.json", folder / "hostile-missing.json"]
    return paths


def _run(argv: list[str], stdin: bytes = b"") -> dict[str, object]:
    from gpu_tpu_app.cli import main

    out, err = io.StringIO(), io.StringIO()
    environ = dict(os.environ)  # --lang sets GPU_TPU_APP_LANG for child processes: not for the next case
    real_stdin = sys.stdin
    sys.stdin = io.TextIOWrapper(io.BytesIO(stdin))
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            rc: object = main(argv)
        except SystemExit as exc:
            rc = exc.code
        finally:
            os.environ.clear()
            os.environ.update(environ)
            sys.stdin = real_stdin
    return {"rc": rc, "stdout": out.getvalue(), "stderr": err.getvalue()}


def record(folder: Path) -> dict[str, dict[str, object]]:
    """Every case's exit status, stdout and stderr, by a name that says the file, language and format."""
    results: dict[str, dict[str, object]] = {}
    for path in write_cases(folder):
        for lang in ("en", "zh-Hans"):
            for fmt in ("text", "json"):
                argv = ["decide", "--answers", str(path), "--format", fmt, "--lang", lang]
                results[f"{path.name} {lang} {fmt}"] = _run(argv)
    bad_lines = {
        "no-answers": ["decide"],
        "bad-format": ["decide", "--answers", "x.json", "--format", "yaml"],
        "bad-lang": ["decide", "--answers", "x.json", "--lang", "fr"],
        "unknown-flag": ["decide", "--answers", "x.json", "--colour"],
        "leading-lang": [
            "--lang",
            "zh-Hans",
            "decide",
            "--answers",
            str(ROOT / "examples" / "answers-mixed-unknowns.json"),
        ],
        "help": ["decide", "--help"],
        # the parser all headless commands share, and the other commands' own output
        **{f"help-{name}": [name, "--help"] for name in ("explain", "catalog", "estimate", "check-model", "prices")},
        "catalog": ["catalog"],
        "catalog-json": ["catalog", "--format", "json"],
        "explain": ["explain"],
        "explain-flexibility": ["explain", "flexibility"],
        "estimate": ["estimate", "--params", "7e9"],
        "estimate-bad": ["estimate", "--params", "seven"],
    }
    stdin_cases = {
        "example": (ROOT / "examples" / "answers-research-prototype.json").read_bytes(),
        "not-json": b"{framework",
        "not-utf8": b'{"team": "caf\xe9"}',
        "too-big": b" " * (1024 * 1024 + 1),
        "wrong-value": b'{"scale": "huge"}',
    }
    for name, data in stdin_cases.items():
        for lang in ("en", "zh-Hans"):
            for fmt in ("text", "json"):
                argv = ["decide", "--answers", "-", "--format", fmt, "--lang", lang]
                results[f"stdin-{name} {lang} {fmt}"] = _run(argv, stdin=data)
    for name, argv in bad_lines.items():
        for lang in ("en", "zh-Hans"):
            results[f"argv-{name} {lang}"] = _run([*argv, "--lang", lang] if name != "leading-lang" else argv)
    return results


def compare(before: Path, after: Path) -> int:
    """Print the cases whose outputs differ; exit status 1 if any does."""
    a, b = json.loads(before.read_text()), json.loads(after.read_text())
    differ = [name for name in a if a[name] != b.get(name)]
    missing = sorted(set(a) ^ set(b))
    for name in differ[:20]:
        print(f"differs: {name}\n  before: {a[name]!r:.300}\n  after:  {b.get(name)!r:.300}")
    print(
        f"{len(a)} cases compared ({sum(1 for n in a if not n.startswith('argv-'))} answer-file runs): "
        f"{len(differ)} differ, {len(missing)} only in one"
    )
    return 1 if differ or missing else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", metavar="OUT", type=Path)
    parser.add_argument("--cases", metavar="DIR", type=Path, default=Path("/tmp/decide-output-cases"))
    parser.add_argument("--compare", nargs=2, metavar=("BEFORE", "AFTER"), type=Path)
    args = parser.parse_args(argv)
    if args.compare:
        return compare(*args.compare)
    if not args.write:
        parser.error("give --write OUT or --compare BEFORE AFTER")
    results = record(args.cases)
    args.write.write_text(json.dumps(results, ensure_ascii=False, indent=1))
    print(f"{len(results)} cases written to {args.write}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
