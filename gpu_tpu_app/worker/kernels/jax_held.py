"""What a JAX point made that its second try, or the next point, can use again: compiled functions and inputs.

A point measured twice (worker/retry.py) used to compile its function and draw its inputs again: 0.1-0.5 s
per matmul on a CPU, 2-3 s for copy's and triad's 128 MiB arrays. The worker keeps them here instead:

- compiled executables, by what was compiled (kernel, shapes, dtype, device): small, kept for the
  worker's life, so a second try, or a later point of the same shape, calls the very same executable;
- arrays, by what they hold (seeded normal data of one shape and dtype on one device, or an output
  buffer), kept only while the point measuring now names them: `keep()` at the start of every point
  drops the others, so a device never holds more than one point's data.

The data is the same either way (the same seed gives the same numbers), so what is timed does not
change; only the set-up before the point's clock gets shorter, and the result says what it reused.
Imported only inside a worker process, by jax_data and jax_kernels.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass
from typing import Any

import jax

from gpu_tpu_app.worker.notes import note


def _deleted(value: Any) -> bool:
    """True when any array in `value` (an array, or a tuple/dict of them) was donated or deleted."""
    return any(getattr(leaf, "is_deleted", lambda: False)() for leaf in jax.tree_util.tree_leaves(value))


def _nbytes(value: Any) -> int:
    return sum(int(getattr(leaf, "nbytes", 0)) for leaf in jax.tree_util.tree_leaves(value))


@dataclass
class Reuse:
    """What the point measuring now took from earlier work instead of making it."""

    compiled: int = 0
    compiled_reused: int = 0
    arrays: int = 0
    arrays_reused: int = 0

    def words(self) -> str | None:
        """'the compiled function and 2 of 3 arrays kept from an earlier try or point', or None if nothing."""
        parts = []
        if self.compiled_reused:
            parts.append(
                note("held.function") if self.compiled == 1 else note("held.functions", n=self.compiled_reused)
            )
        if self.arrays_reused:
            parts.append(
                note("held.arrays")
                if self.arrays_reused == self.arrays
                else note("held.some_arrays", n=self.arrays_reused, total=self.arrays)
            )
        if not parts:
            return None
        what = note("held.both", first=parts[0], second=parts[1]) if len(parts) == 2 else parts[0]
        return note("held.kept", what=what)


class Held:
    """The compiled functions (kept) and arrays (the current point's only) of one worker process."""

    def __init__(self) -> None:
        self._arrays: dict[Hashable, Any] = {}
        self._compiled: dict[Hashable, Any] = {}
        self.reuse = Reuse()

    def keep(self, keys: Iterable[Hashable]) -> None:
        """Start a point that names these arrays: every other array is let go; the reuse count starts again."""
        wanted = set(keys)
        self._arrays = {k: v for k, v in self._arrays.items() if k in wanted}
        self.reuse = Reuse()

    def array(self, key: Hashable, make: Callable[[], Any]) -> Any:
        """The array (or tuple/dict of arrays) held under `key`, else make() kept under it."""
        self.reuse.arrays += 1
        value = self._arrays.get(key)
        if value is not None and not _deleted(value):
            self.reuse.arrays_reused += 1
            return value
        self._arrays.pop(key, None)  # let a donated buffer go before the new one is made
        value = make()
        self._arrays[key] = value
        return value

    def put(self, key: Hashable, value: Any) -> None:
        """Hold `value` under `key` (the output buffer a donating loop ends with)."""
        if not _deleted(value):
            self._arrays[key] = value

    def compiled(self, key: Hashable, build: Callable[[], Any]) -> Any:
        """The executable compiled under `key`, else build() kept under it."""
        self.reuse.compiled += 1
        found = self._compiled.get(key)
        if found is not None:
            self.reuse.compiled_reused += 1
            return found
        found = self._compiled[key] = build()
        return found

    def held_bytes(self) -> int:
        """Bytes of the arrays held now (counted as free by a point that will use them)."""
        return sum(_nbytes(v) for v in self._arrays.values())

    def clear(self) -> None:
        """Let everything go (tests, and a worker that wants its memory back)."""
        self._arrays.clear()
        self._compiled.clear()
        self.reuse = Reuse()
