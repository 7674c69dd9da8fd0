"""Device detection and probe runs, the app's side: torch and jax run only in worker processes.

- `runner.run_probe(request)`: headless run (the CLI), `runner.list_devices()`.
- `protocol.ProbeSession`: the same run as a state machine for callers with their own process API
  (the window's QProcess); `protocol.LineDecoder` and `protocol.RunAssembler` underneath.
- `group`: local collective groups; `envs`: the interpreters to run workers in;
  `modelcheck_launch`: starts the model-check worker; `guarded`: starts a command under worker/guard.py.
  The workers themselves: gpu_tpu_app/worker/.
"""
