"""The model check's limits and defaults, in a module that imports nothing.

The CLI's `--timeout`, `--memory-limit` and `--tpu-chips` flags show these in their help, so
`decide` (which offers the flags for `--model`) can build its parser without importing the model
check itself (pydantic models, the catalogue, the worker launcher).
"""

from __future__ import annotations

#: seconds a check may take before it is stopped (the CLI's --timeout overrides it). 300, not 180: under load
#: (two cores shared by eight jobs) two model files' TPU compiles needed 189 and 227 s and one lost a generation.
DEFAULT_TIMEOUT_S = 300.0
#: address-space limit of the worker (RLIMIT_AS), MiB; frameworks reserve a few GiB of it at import.
DEFAULT_MEMORY_LIMIT_MB = 8192
#: chips per TPU generation the check compiles for unless the user picks another count.
DEFAULT_TPU_CHIPS = 1
#: the most chips a check compiles for (a v5e or v6e pod is 256 chips).
MAX_CHIPS = 256
