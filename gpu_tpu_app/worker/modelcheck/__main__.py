"""`python -m gpu_tpu_app.worker.modelcheck`: the model-check worker's command line, as before the
worker became a folder (an app of an earlier version, or a remote VM, starts it by this name)."""

import sys

from gpu_tpu_app.worker.modelcheck.check import main

if __name__ == "__main__":  # importing the module (a package walk) runs nothing
    sys.exit(main())
