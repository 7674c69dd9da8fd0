"""`make bench`: run every benchmark script in this folder, one after the other.

Each script prints its own table. Speed goals are reported, not enforced: the machines
these run on are shared and noisy, so a missed goal prints as such and the run goes on.
Pass script names (e.g. `bench_decide`) to run only those.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def main(argv: list[str]) -> int:
    scripts = sorted(p for p in HERE.glob("bench_*.py"))
    if argv:
        wanted = {a.removesuffix(".py") for a in argv}
        scripts = [p for p in scripts if p.stem in wanted]
    status = 0
    for script in scripts:
        print(f"== {script.stem}", flush=True)
        proc = subprocess.run([sys.executable, str(script)], cwd=HERE.parent)
        if proc.returncode not in (0, 1):  # 1 = ran, goal missed
            status = proc.returncode
        print(flush=True)
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
