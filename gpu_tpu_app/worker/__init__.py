"""What runs in a worker process: the user's interpreter, a cloud VM, or this app's own.

Standard library and the frameworks (torch, jax) only, so that `gpu-tpu-probe run --python` can
stage this folder for another interpreter (probe/envs.py, WORKER_MODULES); the app validates what
the workers send (core/runs.py).

- `main`: the `probe-worker` process (its second tries: `retry`); `detect`: what it finds; `kernels`: what it measures;
  `collective/`: one rank of a group; `testkernels`: kernels that misbehave on purpose.
- `modelcheck/`: the `model-check-worker` process that runs one user model file (its stages:
  `jax_check`, `torch_check`, `torchops`; shared: `base`, `work`); `tpu_compile`: its child
  that compiles the model for TPU generations with libtpu (a process of its own: libtpu may end it),
  started and read by `tpu_compile_launch`.
- `envquery`: run as a script in each interpreter the Probe page lists.
- `wire`: the records the workers print; `lifeline`: a worker ends when its parent does;
  `guard`: runs an untrusted command (a model check, an env query) so nothing it starts outlives it;
  `nvml`: device clocks and temperatures.
"""
