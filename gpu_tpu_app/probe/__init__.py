"""Device detection and probe runs. torch and jax are imported only inside worker processes.

- `runner.run_probe(request)`: headless run (the CLI), `runner.list_devices()`.
- `protocol.ProbeSession`: the same run as a state machine for callers with their own process API
  (the window's QProcess); `protocol.LineDecoder` and `protocol.RunAssembler` underneath.
- `worker`: the `probe-worker` process; `detect`: what it finds; `kernels`: what it measures.
"""
