"""The model-check worker: runs one model file in its own process (see check.py, its entry).

`python -m gpu_tpu_app.worker.modelcheck` and `gpu-tpu-app model-check-worker` start it by this name. The
package itself imports nothing at load time, so the TPU-compile child (worker/tpu_compile.py), which uses
this folder's base and outputs modules, can import them without loading the check's entry, which in turn
imports the child's launcher.
"""

from __future__ import annotations


def main(argv: list[str] | None = None) -> int:
    """The worker's command line (check.main)."""
    from gpu_tpu_app.worker.modelcheck.check import main as check_main

    return check_main(argv)
