"""Start-up time of one headless command process (goal: `decide` median at most 0.15 s wall).

Run: .venv/bin/python benchmarks/bench_cli_start.py [--runs N] [--command decide|catalog|...]
Each run is a fresh `python -m gpu_tpu_app <command> ...` process, timed from spawn to exit; the
CPU time (user + system, from wait4) is printed too because on a shared, loaded machine it moves
less than the wall time. `python -c pass` and `import pydantic` are timed the same way as the floor
every command pays. `--importtime` prints the gpu_tpu_app modules the command imports, slowest first.
Set PYTHONPATH to another checkout's root to time that tree (say, main before a change). The timed
processes run without PYTHONDONTWRITEBYTECODE (a shell may set it), so they load cached bytecode as
an installed app does rather than compiling every module at each start.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

GOAL_S = 0.15
ROOT = Path(__file__).resolve().parent.parent
ANSWERS = ROOT / "examples" / "answers-jax-llm-pretraining.json"
COMMANDS = {
    "decide": ["decide", "--answers", str(ANSWERS)],
    "decide-json": ["decide", "--answers", str(ANSWERS), "--format", "json"],
    "catalog": ["catalog"],
    "explain": ["explain"],
    "probe-help": ["probe", "--help"],
}


def time_process(argv: list[str]) -> tuple[float, float]:
    """(wall seconds, CPU seconds) of one process run to its end, output discarded."""
    start = time.perf_counter()
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    _pid, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} exited {proc.returncode}")
    return wall, usage.ru_utime + usage.ru_stime


def series(argv: list[str], runs: int) -> tuple[float, float]:
    """Median wall and median CPU seconds over `runs` processes (after one warm-up for the disk cache)."""
    time_process(argv)
    walls, cpus = zip(*(time_process(argv) for _ in range(runs)))
    return statistics.median(walls), statistics.median(cpus)


def import_times(argv: list[str]) -> list[tuple[int, str]]:
    """(cumulative microseconds, module) of each gpu_tpu_app module the command imports."""
    out = subprocess.run([argv[0], "-X", "importtime", *argv[1:]], capture_output=True, text=True, check=True).stderr
    rows = []
    for line in out.splitlines():
        parts = line.split("|")
        if len(parts) == 3 and parts[2].strip().startswith("gpu_tpu_app"):
            rows.append((int(parts[1]), parts[2].strip()))
    return sorted(rows, reverse=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=21, help="processes per series (default 21)")
    parser.add_argument("--command", choices=COMMANDS, default="decide")
    parser.add_argument("--importtime", action="store_true", help="also list the command's own imports")
    args = parser.parse_args(argv)

    cmd = [sys.executable, "-m", "gpu_tpu_app", *COMMANDS[args.command]]
    print(f"load average {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} {os.getloadavg()[2]:.2f}")
    print(f"{'process':<34} {'median wall':>12} {'median CPU':>11}")
    for label, line in (
        ("python -c pass", [sys.executable, "-c", "pass"]),
        ("python -c 'import pydantic'", [sys.executable, "-c", "import pydantic"]),
        (" ".join(["gpu-tpu-app", *COMMANDS[args.command][:1]]), cmd),
    ):
        wall, cpu = series(line, args.runs)
        print(f"{label:<34} {wall:>10.3f} s {cpu:>9.3f} s")
    if args.importtime:
        print("gpu_tpu_app modules imported (cumulative ms, one run):")
        for us, name in import_times(cmd)[:15]:
            print(f"  {us / 1000:7.1f}  {name}")
    print(f"goal: median wall at most {GOAL_S:.2f} s (on an idle machine; the CPU column is the steadier figure)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
