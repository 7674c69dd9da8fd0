"""Start-up time of one headless command process (goal: `decide` median at most 0.15 s wall).

Run: .venv/bin/python benchmarks/bench_cli_start.py [--runs N] [--command decide|catalog|...] [--before DIR]
Each run is a fresh `python -m gpu_tpu_app <command> ...` process, timed from spawn to exit; the
CPU time (user + system, from wait4) is printed too because on a shared, loaded machine it moves
less than the wall time. `python -c pass` and `import pydantic` are timed the same way as the floor
every command pays. The processes are A/B interleaved: each round runs every one of them once, in
an order that rotates from round to round, so a change of load falls on all of them alike.
`--before DIR` adds the same command run from another checkout's root (PYTHONPATH=DIR; say, main
before a change) to the rounds. `--importtime` prints the gpu_tpu_app modules the command imports,
slowest first. The timed processes run without PYTHONDONTWRITEBYTECODE (a shell may set it), so they
load cached bytecode as an installed app does rather than compiling every module at each start.
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
    "estimate": ["estimate", "--params", "7e9"],
    "probe-help": ["probe", "--help"],
}


def time_process(argv: list[str], pythonpath: str | None = None) -> tuple[float, float]:
    """(wall seconds, CPU seconds) of one process run to its end, output discarded."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    if pythonpath:
        env["PYTHONPATH"] = pythonpath
    # from the tree's own root: `python -m` puts the working folder ahead of PYTHONPATH
    cwd = pythonpath or None
    start = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, cwd=cwd)
    _pid, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} exited {proc.returncode}")
    return wall, usage.ru_utime + usage.ru_stime


def interleaved(
    lines: dict[str, tuple[list[str], str | None]], runs: int
) -> dict[str, tuple[float, float, float, float]]:
    """Per process: (median wall, median CPU, lowest wall, lowest CPU) seconds over `runs` rounds, each round
    running every process once in a rotating order (after one warm-up round for the disk cache)."""
    labels = list(lines)
    for label in labels:
        time_process(*lines[label])
    walls: dict[str, list[float]] = {label: [] for label in labels}
    cpus: dict[str, list[float]] = {label: [] for label in labels}
    for n in range(runs):
        order = labels[n % len(labels) :] + labels[: n % len(labels)]
        for label in order:
            wall, cpu = time_process(*lines[label])
            walls[label].append(wall)
            cpus[label].append(cpu)
    return {
        label: (statistics.median(walls[label]), statistics.median(cpus[label]), min(walls[label]), min(cpus[label]))
        for label in labels
    }


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
    parser.add_argument("--runs", type=int, default=21, help="rounds (default 21)")
    parser.add_argument("--command", choices=COMMANDS, default="decide")
    parser.add_argument("--before", metavar="DIR", help="also time the command from this checkout's root")
    parser.add_argument("--importtime", action="store_true", help="also list the command's own imports")
    args = parser.parse_args(argv)

    cmd = [sys.executable, "-m", "gpu_tpu_app", *COMMANDS[args.command]]
    name = " ".join(["gpu-tpu-app", *COMMANDS[args.command][:1]])
    lines: dict[str, tuple[list[str], str | None]] = {
        "python -c pass": ([sys.executable, "-c", "pass"], None),
        "python -c 'import pydantic'": ([sys.executable, "-c", "import pydantic"], None),
    }
    if args.before:
        lines[f"{name} (before: {Path(args.before).name})"] = (cmd, str(Path(args.before).resolve()))
    lines[name] = (cmd, str(ROOT))
    print("load average before: " + " ".join(f"{x:.2f}" for x in os.getloadavg()))
    results = interleaved(lines, args.runs)
    print("load average after:  " + " ".join(f"{x:.2f}" for x in os.getloadavg()))
    print(f"{args.runs} interleaved rounds")
    print(f"{'process':<44} {'median wall':>12} {'median CPU':>11} {'min wall':>9} {'min CPU':>8}")
    for label, (wall, cpu, low_wall, low_cpu) in results.items():
        print(f"{label:<44} {wall:>10.3f} s {cpu:>9.3f} s {low_wall:>7.3f} s {low_cpu:>6.3f} s")
    if args.importtime:
        print("gpu_tpu_app modules imported (cumulative ms, one run):")
        for us, module in import_times(cmd)[:15]:
            print(f"  {us / 1000:7.1f}  {module}")
    print(f"goal: median wall at most {GOAL_S:.2f} s (on an idle machine; the CPU column is the steadier figure)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
