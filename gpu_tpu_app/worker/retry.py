"""Second tries for the probe worker (worker/main.py): a point measured once more when one of its results is
too noisy by core.trust's rule or stalled against the points measured before it (`remeasure_noisy`), or
found stalled only after a larger size was measured (`remeasure_later_stalls`), and which of the two tries
is kept (`pick_try`). Standard library only, like the rest of the worker side.
"""

from __future__ import annotations

import traceback
from collections.abc import Callable
from typing import Any

from gpu_tpu_app.shared import trust
from gpu_tpu_app.shared.terms import ONE_THREAD
from gpu_tpu_app.worker.notes import join, note
from gpu_tpu_app.worker.wire import ProbeResult, ResultMsg

#: Longest message a result carries (the run file's limit, safe_read.TEXT_CHARS; a test holds them equal).
TEXT_CHARS = 65_536


def remeasure_noisy(
    results: list[ProbeResult],
    again: Callable[[], list[ProbeResult]],
    time_left_s: float,
    est_s: float,
    announce: Callable[[], None] = lambda: None,
    why: Callable[[Any], str | None] = trust.noise,
) -> list[ProbeResult]:
    """Measure a point once more when one of its results needs it (`why`: too noisy by core.trust, or
    stalled) and the time left (`time_left_s`: what the budget has to spare beyond the points still to
    come) holds another try. Per result, between the two tries the faster is kept unless it is the
    noisy one by the rule and the slower is not; the result says it was measured twice and which try
    it keeps."""
    reasons = {id(r): w for r in results if (w := why(r)) is not None}
    if not reasons or time_left_s < est_s:
        return results
    announce()
    try:
        second = {(r.kernel, r.variant, r.dtype, r.size, r.metric): r for r in again()}
    except Exception:
        traceback.print_exc()
        return results
    out = []
    for r in results:
        other = second.get((r.kernel, r.variant, r.dtype, r.size, r.metric))
        reason = reasons.get(id(r))
        if reason is None or other is None or other.value is None or other.stats is None or r.value is None:
            out.append(r)
            continue
        keep, said = pick_try(r, other, reason)
        out.append(keep.model_copy(update={"message": _bounded(join(keep.message, said))}))
    return out


def _bounded(message: str | None) -> str | None:
    """A message within the run file's limit (a longer one loses its parts' ids: it is no longer their join)."""
    return message if message is None or len(message) <= TEXT_CHARS else message[:TEXT_CHARS]


def pick_try(first: ProbeResult, second: ProbeResult, reason: str, when: str = "twice") -> tuple[ProbeResult, str]:
    """The try to keep of two of one point and the words that say so: the faster, unless it is the noisy
    one by the rule and the other is not (for times, lower is faster; for rates, higher). `when` is
    "twice" or "again after a larger size"."""
    lower_is_faster = first.metric == "seconds"
    a, b = float(first.value or 0.0), float(second.value or 0.0)
    first_faster = a <= b if lower_is_faster else a >= b
    faster, slower = (first, second) if first_faster else (second, first)
    if trust.noise(faster) is not None and trust.noise(slower) is None:
        keep, how = slower, "steadier"
    else:
        keep, how = faster, "faster"
    which = "first" if keep is first else "second"
    said_when = note("retry.twice" if when == "twice" else "retry.again_after_larger")
    if trust.noise(first) is not None and trust.noise(second) is not None:
        return keep, note(f"retry.both_noisy_{how}_{which}", when=said_when)
    return keep, note(f"retry.{how}_{which}", when=said_when, reason=reason)


def _identity(r: Any) -> tuple[Any, ...]:
    return (r.kernel, r.variant, r.dtype, r.size, r.metric)


def remeasure_later_stalls(
    earlier: list[ProbeResult],
    point_of: dict[int, tuple[Any, Any]],
    retried: set[str],
    slack: Callable[[], float],
    measure: Callable[[Any, Any], list[ProbeResult]],
    emit: Callable[[Any], None],
    announce: Callable[[Any], Any],
) -> None:
    """Measure once more each point of `earlier` (a device's results so far) that the stall rule only
    now finds stalled, against a size measured after it, while the budget's `slack()` holds the point's
    estimate. The try kept (core.trust's rule: the faster unless it is the noisy one) is emitted again
    and takes the first one's place, here and in the parent's run (the same point's result); a point
    is measured at most twice in all (`retried`: the ids of points measured twice)."""
    refs = [trust.noise(r) is None for r in earlier]
    for j, why in sorted(trust.stalls(earlier, lambda k: refs[k]).items()):
        r = earlier[j]
        found = point_of.get(id(r))
        if found is None or r.value is None or r.stats is None:
            continue
        point, ctx = found
        if point.id in retried or slack() < point.est_s:
            continue
        retried.add(point.id)
        emit(announce(point))
        try:
            again = {_identity(x): x for x in measure(point, ctx)}
        except Exception:
            traceback.print_exc()
            continue
        other = again.get(_identity(r))
        if other is None or other.value is None or other.stats is None:
            continue
        keep, said = pick_try(r, other, why, when="again after a larger size")
        keep = keep.model_copy(update={"message": _bounded(join(keep.message, said))})
        earlier[j] = keep
        point_of[id(keep)] = found
        emit(ResultMsg(result=keep))


class NoiseWatch:
    """Whether a noisy point is worth a second try now. A noise retry that ended too noisy again says the
    machine is busy for longer than one point: its next noisy points keep their one try (still flagged),
    until a point measures steady at its first try. Stalled points are measured again whatever it says:
    a stall is one try held back, and the next try is usually not."""

    def __init__(self) -> None:
        self.busy = False

    def why(self, earlier: list[ProbeResult], batch: list[ProbeResult], r: ProbeResult) -> str | None:
        """_retry_reason_among, without the noise reasons while the machine is busy."""
        reason = _retry_reason_among(earlier, batch, r)
        if reason is not None and self.busy and not reason.startswith(STALLED):
            return None
        return reason

    def saw(self, first: list[ProbeResult], kept: list[ProbeResult], retried: bool) -> None:
        """Learn from one point: its first try's results and the ones kept (after a second try when `retried`)."""
        main = [r for r in first if r.variant != ONE_THREAD and r.stats is not None]
        if main and all(trust.noise(r) is None for r in main):
            self.busy = False
        elif retried and any(trust.noise(r) is not None for r in kept if r.variant != ONE_THREAD):
            self.busy = True


#: How the stall rule's reasons begin (core.trust.stalls).
STALLED = "stalled: "


def _stalled(earlier: list[ProbeResult], r: ProbeResult) -> str | None:
    """Why `r` is stalled against the points measured before it on its device (core.trust.stalls), or None."""
    both = [*earlier, r]
    return trust.stalls(both, lambda j: trust.noise(both[j]) is None).get(len(earlier))


def _retry_reason_among(earlier: list[ProbeResult], batch: list[ProbeResult], r: ProbeResult) -> str | None:
    """_retry_reason, with the point's other results (its one-thread reference) beside those measured before.
    The one-thread reference itself never asks for a second try: noisy, it is simply no reference."""
    if r.variant == ONE_THREAD or r.kernel in NO_NOISE_RETRY:
        return None
    return _retry_reason([*earlier, *(x for x in batch if x is not r)], r)


#: Kernels whose points never get a second try for noise (nor for a stall: they are times, not rates).
#: The compile point times one-off work, a trace, a lowering, a compile, a first call, whose spread is
#: its nature: on the 2-core development machine its lowering phase (about 8 ms) had an IQR of 26-36 %
#: of its median in each of 3 runs and was too noisy at both tries every time, so a second try cost as
#: much as the first (about 2.5 s) and changed nothing. A noisy phase stays flagged.
NO_NOISE_RETRY = frozenset({"compile"})


def _retry_reason(earlier: list[ProbeResult], r: ProbeResult) -> str | None:
    """Why a result gets one more try: stalled against the points before it, or too noisy where a second
    try can change that. Not for too few repetitions: the point ran out of its cap, and a second try
    under the same cap would end the same way (it stays flagged)."""
    stalled = _stalled(earlier, r)
    if stalled is not None:
        return stalled
    if r.stats is not None and r.stats.reps < trust.MIN_REPS:
        return None
    return trust.noise(r)
