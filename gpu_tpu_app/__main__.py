"""`python -m gpu_tpu_app`: the same as the `gpu-tpu-app` launcher."""

import sys

from gpu_tpu_app.cli import main

if __name__ == "__main__":
    sys.exit(main())
