"""gpu-tpu-app: decide between GPUs and TPUs, with numbers measured on your own machine."""

__version__ = "0.1.0"
APP_NAME = "gpu-tpu-app"
APP_ID = "io.github.gpu_tpu_app.GpuTpuApp"
