"""The model-check worker: loads a user's model file in this process only and measures what XLA would see.

Started as `gpu-tpu-app model-check-worker FILE [--memory-limit-mb N]` by the CLI or the window,
never imported by them. It needs only the standard library and the model's framework (it may
run in another interpreter); what it finds is a plain JSON object that the app validates on its
side (gpu_tpu_app.core.modelcheck). Stdout carries one JSON object per line:

  {"type": "stage", "stage": ..., "function": ...}   what runs now (the parent names it on a timeout)
  {"type": "findings", "findings": {...}}             the measurements, once
  {"type": "error", "kind": ..., "message": ..., "function": ..., "line": ...}

The model contract: PyTorch `model()` and `example_inputs()`; JAX `params()`,
`forward(params, *inputs)` and `example_inputs()`; either may add `other_inputs()`. This module holds
the entry point; the JAX stages are in gpu_tpu_app.worker.modelcheck.jax_check, the PyTorch stages in
gpu_tpu_app.worker.modelcheck.torch_check.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
import traceback
from typing import Any

from gpu_tpu_app.worker import tpu_compile_launch
from gpu_tpu_app.worker.modelcheck import base
from gpu_tpu_app.worker.modelcheck.base import Loader, UserError, _emit, _first_line, _framework, _stage
from gpu_tpu_app.worker.modelcheck.jax_check import _export_for, check_jax
from gpu_tpu_app.worker.modelcheck.torch_check import check_torch
from gpu_tpu_app.worker.notes import note

# =========================================================================== entry point


def _limit_memory(megabytes: int) -> None:
    if megabytes <= 0:
        return
    try:
        import resource

        limit = megabytes * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    except (ImportError, ValueError, OSError):  # not on this OS: the parent's timeout still applies
        pass


def _peak_rss_mb() -> float | None:
    try:
        import resource

        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        return round(peak / (1024 * 1024) if sys.platform == "darwin" else peak / 1024, 1)
    except (ImportError, OSError):
        return None


def _start_tpu_compile(
    loader: Loader, framework: str, args: argparse.Namespace, start: float
) -> tpu_compile_launch.CompileChild | dict[str, Any] | None:
    """6. Compile for the catalogue's TPU generations, in a child process (worker/tpu_compile.py, started by
    worker/tpu_compile_launch.py) before the other stages, so that its start-up (importing the frameworks and
    libtpu, loading the model again) and its compiles overlap them; within what is left of the check's timeout;
    not tried with --tpu-chips 0."""
    if args.tpu_chips <= 0:
        return None
    try:
        targets = json.loads(args.tpu_targets)
    except ValueError:
        targets = []
    # stop early enough that the findings still reach the parent before its own timeout
    left = (args.timeout - (time.monotonic() - start) - max(5.0, 0.1 * args.timeout)) if args.timeout > 0 else 600.0
    return tpu_compile_launch.start_child(
        loader.path, framework, args.tpu_chips, targets if isinstance(targets, list) else [], left
    )


def _tpu_compile(
    child: tpu_compile_launch.CompileChild | dict[str, Any] | None, findings: dict[str, Any], args: argparse.Namespace
) -> dict[str, Any] | None:
    """The compile step's finding: the child's result, or "not compiled" (the child stopped) when lowering for
    TPU already failed, so that the compiler has no program."""
    lowering = findings.get("tpu_lowering") or {}
    # lowering failed, or its route could not run (torchax unavailable for this model): the compiler, which
    # takes the same route, has no program either, so it is stopped now rather than left to run out its time
    if isinstance(child, tpu_compile_launch.CompileChild) and lowering.get("status") in ("failed", "unavailable"):
        child.cancel()
        child = None
    if child is None:
        if args.tpu_chips <= 0:
            return None
        return {
            "status": "failed",
            "failure": "not_run",
            "detail": note("check.not_compiled"),
            "chips": args.tpu_chips,
        }
    if isinstance(child, dict):
        return child
    return child.collect(on_stage=lambda text: _stage(text, "the TPU compiler"))


def main(argv: list[str] | None = None) -> int:
    """Check one model file and print the findings as JSON lines; exit 0 when a line was printed."""
    parser = argparse.ArgumentParser(prog="gpu-tpu-app model-check-worker")
    parser.add_argument("file")
    parser.add_argument("--memory-limit-mb", type=int, default=0)
    parser.add_argument("--timeout", type=float, default=0.0, help="the check's timeout, for the TPU compile step")
    parser.add_argument("--tpu-chips", type=int, default=1)
    parser.add_argument("--tpu-targets", default="[]", help="JSON list of {id, topology, dims} to compile for")
    args = parser.parse_args(argv)
    # keep the real stdout for our lines; whatever the model or the frameworks print goes to stderr
    sys.stdout.flush()
    fd = os.dup(1)
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    base.set_output(os.fdopen(fd, "w", buffering=1, encoding="utf-8"))
    _limit_memory(args.memory_limit_mb)
    os.environ.setdefault("JAX_PLATFORMS", "cpu")
    start = time.monotonic()
    loader = Loader(args.file)
    child: tpu_compile_launch.CompileChild | dict[str, Any] | None = None
    try:
        loader.load()
        framework = _framework(loader)
        child = _start_tpu_compile(loader, framework, args, start)
        findings = check_torch(loader, _export_for) if framework == "pytorch" else check_jax(loader)
        findings["tpu_compile"] = _tpu_compile(child, findings, args)
        findings["worker_seconds"] = round(time.monotonic() - start, 3)
        findings["interpreter"] = sys.executable
        findings["peak_rss_mb"] = _peak_rss_mb()
        _emit({"type": "findings", "findings": findings})
        return 0
    except UserError as err:
        _emit({"type": "error", "kind": err.kind, "message": err.message, "function": err.function, "line": err.line})
        return 0
    except MemoryError:
        _emit(
            {
                "type": "error",
                "kind": "memory",
                "message": "ran out of memory under the check's memory limit",
                "function": None,
                "line": None,
            }
        )
        return 0
    except KeyboardInterrupt:
        return 130
    except Exception as exc:
        traceback.print_exc()
        _emit(
            {
                "type": "error",
                "kind": "internal",
                "message": f"{type(exc).__name__}: {_first_line(exc)}",
                "function": None,
                "line": None,  # the check's own code failed: never pointed at a line of the user's file
            }
        )
        return 0
    finally:
        if isinstance(child, tpu_compile_launch.CompileChild):
            child.cancel()  # nothing it compiles outlives the check (a no-op once collected)


if __name__ == "__main__":
    sys.exit(main())
