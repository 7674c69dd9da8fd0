"""Open a 300 MB run file with 520,000 results: the size caps must never bite such a file.

Run: .venv/bin/python benchmarks/bench_large_run.py [--results N] [--keep PATH]
Writes a run file of N results (default 520,000, about 300 MB) to a temporary folder, then
reads it in a fresh process three ways, each timed with time.perf_counter and with the
process's peak memory (ru_maxrss): the bounded read alone, `load_run` (read + validate),
and `gpu-tpu-app estimate --results` (what a user runs). Exits 1 if any of them fails.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from datetime import UTC
from pathlib import Path

CHILD = r"""
import json, resource, sys, time
from pathlib import Path
path, what = Path(sys.argv[1]), sys.argv[2]
t0 = time.perf_counter()
if what == "read":
    from gpu_tpu_app.safe_read import MAX_DATA_FILE_BYTES, read_json_object
    n = len(read_json_object(path, "a run file", MAX_DATA_FILE_BYTES)["results"])
elif what == "load_run":
    from gpu_tpu_app.core.runs import load_run
    n = len(load_run(path).results)
else:
    import contextlib, io
    from gpu_tpu_app import cli
    with contextlib.redirect_stdout(io.StringIO()):
        rc = cli.main(["estimate", "--params", "7e9", "--results", str(path)])
    assert rc == 0, rc
    n = -1
seconds = time.perf_counter() - t0
print(json.dumps({"seconds": seconds, "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, "n": n}))
"""


def write_run(path: Path, count: int) -> None:
    """A run file shaped like the probe's own (indented JSON, full stats), written result by result."""
    from datetime import datetime

    from gpu_tpu_app.core.runs import DeviceInfo, RunFile

    dev = DeviceInfo(backend="torch", platform="cuda", name="NVIDIA H100 80GB HBM3", memory_bytes=85_520_809_984)
    head = RunFile(
        app_version="0.1.0",
        host="bench-host",
        os="Linux-6.8-x86_64",
        python="3.11.9",
        devices=[dev],
        suite="full",
        started=datetime(2025, 3, 1, tzinfo=UTC),
        complete=True,
    )
    text = head.model_dump_json(indent=2)
    before, after = text.split('"results": []')
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(before + '"results": [\n')
        for i in range(count):
            value = 1e14 + i
            result = {
                "kernel": "matmul",
                "backend": "torch",
                "device": dev.key,
                "dtype": "bfloat16",
                "size": 1024 + i,
                "variant": None,
                "metric": "flops",
                "value": value,
                "unit": "FLOP/s",
                "stats": {
                    "median": value,
                    "min": value * 0.97,
                    "max": value * 1.02,
                    "q1": value * 0.99,
                    "q3": value * 1.01,
                    "iqr": value * 0.02,
                    "cv": 0.012,
                    "reps": 7,
                    "seconds": 0.41,
                },
                "math_mode": "bf16",
                "status": "ok",
                "message": None,
                "pct_spec": 10.1,
                "pct_ceiling": 99.5,
            }
            chunk = json.dumps(result, indent=2).replace("\n", "\n    ")
            fh.write("    " + chunk + (",\n" if i + 1 < count else "\n"))
        fh.write("  ]" + after)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--results", type=int, default=520_000, help="results in the file (default 520,000)")
    parser.add_argument("--keep", type=Path, help="write the file here and keep it")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        path = args.keep or Path(tmp) / "large-run.json"
        t0 = time.perf_counter()
        write_run(path, args.results)
        size = path.stat().st_size
        print(f"wrote {args.results:,} results, {size / 1e6:,.0f} MB, in {time.perf_counter() - t0:.1f} s")
        status = 0
        print(f"{'reader':<22} {'seconds':>8} {'peak MB':>8}")
        for what in ("read", "load_run", "estimate --results"):
            proc = subprocess.run(
                [sys.executable, "-c", CHILD, str(path), what.split()[0]], capture_output=True, text=True
            )
            if proc.returncode != 0:
                print(f"{what:<22} failed: {proc.stderr.strip().splitlines()[-1:]}")
                status = 1
                continue
            out = json.loads(proc.stdout)
            if out["n"] not in (-1, args.results):
                print(f"{what:<22} read {out['n']} results, not {args.results}")
                status = 1
            print(f"{what:<22} {out['seconds']:>8.1f} {out['peak_mb']:>8,.0f}")
    return status


if __name__ == "__main__":
    sys.exit(main())
