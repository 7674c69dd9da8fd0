"""Entry point of the frozen bundle: the same program as `python -m gpu_tpu_app`.

With no argument it opens the window; `probe-worker ...` (how probes re-invoke the bundle's
own executable) and the other subcommands are routed by gpu_tpu_app.cli.main.
"""

import multiprocessing
import sys

from gpu_tpu_app.cli import main

if __name__ == "__main__":
    multiprocessing.freeze_support()
    sys.exit(main())
