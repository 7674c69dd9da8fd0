"""Facts both sides use: the app and the workers (which may run in the user's own interpreter or on a
cloud VM, with nothing but the standard library and the frameworks).

Standard library only, held there by one import-linter contract (pyproject.toml: "the worker side and
shared/ import only the standard library and the frameworks"): a module put here is staged for another
interpreter with the worker (probe/envs.py, WORKER_MODULES) without being named anywhere.

- `terms`: the probe's vocabulary (backends, suites, kernels, dtypes); `units`: how a probe number reads;
- `machine`: which machine a run was measured on; `notes`: a note kept with its text id and parameters;
- `trust`: whether a measured point can be trusted; `devicematch`: a device name to its catalogue row;
- `cliutil`: helpers every command line shares (one-line errors, exit codes, aligned tables).
"""
