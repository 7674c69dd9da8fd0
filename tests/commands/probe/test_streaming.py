"""`gpu-tpu-probe run` on a terminal: each result's table row shows as it is measured, not only at the end."""

from __future__ import annotations

import os
import re
import select
import signal
import subprocess
import sys
import time

import pytest

pty = pytest.importorskip("pty")
pytestmark = pytest.mark.serial  # a real probe run, read as it measures: runs alone (make test's serial part)

#: a result line of the progress printer: "  torch:cpu:0 matmul float32 256×256: 197 GFLOP/s"
RESULT_LINE = re.compile(r"^  torch:cpu:0 (matmul|triad|dispatch) .+: [0-9.]+ (GFLOP/s|[GMk]?B/s|[µnm]?s)\b")
#: a streamed table row (issue 35 §8): "matmul   float32   256×256   197 GFLOP/s   2.0%  ..."
ROW = re.compile(r"^(matmul|triad|dispatch)\b.* [0-9.]+ (GFLOP/s|[GMk]?B/s|[µnm]?s)\b")


def test_results_stream_to_a_terminal_before_the_run_ends(tmp_path) -> None:
    """A real smoke run on a pseudo-terminal: each result's table row appears while the process still runs,
    under the table's headers, above the bar; with stdout and stderr one terminal, the progress printer does
    not list the results a second time (issue 35 §8)."""
    primary, secondary = pty.openpty()
    proc = subprocess.Popen(
        [sys.executable, "-m", "gpu_tpu_app", "probe", "run", "--suite", "smoke", "--backend", "torch"],
        stdin=subprocess.DEVNULL,
        stdout=secondary,
        stderr=secondary,
        cwd=tmp_path,
        env={**os.environ, "COLUMNS": "100"},
        start_new_session=True,
    )
    os.close(secondary)
    seen: list[str] = []
    first_result_running: bool | None = None
    pending = b""
    deadline = time.monotonic() + 240
    try:
        while time.monotonic() < deadline:
            ready, _, _ = select.select([primary], [], [], 1.0)
            if not ready:
                if proc.poll() is not None:
                    break
                continue
            try:
                chunk = os.read(primary, 65536)
            except OSError:  # the terminal closed: the process has ended
                break
            if not chunk:
                break
            pending += chunk
            *lines, pending = pending.replace(b"\r\n", b"\n").split(b"\n")
            for raw in lines:
                line = raw.decode("utf-8", "replace").split("\r")[-1]  # what is left after the bar's redraws
                seen.append(line)
                if first_result_running is None and ROW.match(line):
                    first_result_running = proc.poll() is None
        assert proc.wait(timeout=60) == 0, "\n".join(seen[-20:])
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
        os.close(primary)
    assert first_result_running is True, "no row came before the process ended:\n" + "\n".join(seen)
    rows = [line for line in seen if ROW.match(line)]
    assert len(rows) >= 3  # matmul (two sizes), triad and dispatch each show as they come
    table_at = next(i for i, line in enumerate(seen) if line.startswith("kernel ") and "value" in line)
    assert table_at < seen.index(rows[0])  # the headers come once, before the first row
    assert sum(line.startswith("kernel ") and "value" in line for line in seen) == 1
    assert not any(RESULT_LINE.match(line) for line in seen)  # not listed twice on one terminal
