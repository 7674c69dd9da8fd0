"""Repetition statistics and the time-based measuring loop every probe kernel shares.

The loop follows the usual benchmarking practice: warm up and discard the first call,
time bursts of calls between two synchronisation points (so a sync per call does not
distort accelerator timings), collect samples for a target time, and keep extending
while the coefficient of variation stays above 3.5 % (Phoronix), up to the point's cap, unless
the median is already pinned to within 1 % (its standard error): on a busy or shared machine the CV
of short samples may never fall to 3.5 %, and past that point more samples only move the median by
less than its error.
Pure Python: no torch, no jax.
"""

from __future__ import annotations

import math
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from gpu_tpu_app.worker.notes import note as _note
from gpu_tpu_app.worker.wire import Stats

#: Extend a point while its coefficient of variation is above this.
CV_TARGET = 0.035
#: The measuring loop stops this fraction of the cap early, leaving time to build the result.
CAP_MARGIN = 0.85
#: ... or, while the CV stays above CV_TARGET, once the median is pinned this closely: its standard error
#: (from the IQR, so a few stalled samples do not count for more than they move the median) over the median.
MEDIAN_PRECISION = 0.01
#: Fewest samples whose quartiles are trusted for that: below it only the CV can end the loop early.
PINNED_MIN_SAMPLES = 50


def median_error(values: Sequence[float]) -> float:
    """Relative standard error of the median of `values`: 1.2533·σ/√n over the median, with σ = IQR / 1.349
    (the normal distribution's; robust to the odd stalled sample). inf under PINNED_MIN_SAMPLES values."""
    n = len(values)
    if n < PINNED_MIN_SAMPLES:
        return math.inf
    ordered = sorted(values)
    mid = quantile(ordered, 0.5)
    if mid == 0:
        return math.inf
    sigma = (quantile(ordered, 0.75) - quantile(ordered, 0.25)) / 1.349
    return 1.2533 * sigma / math.sqrt(n) / abs(mid)


def quantile(sorted_values: Sequence[float], q: float) -> float:
    """The q-quantile of already sorted values, linear interpolation (numpy's default method)."""
    n = len(sorted_values)
    if n == 0:
        raise ValueError("quantile of no values")
    if not 0.0 <= q <= 1.0:
        raise ValueError(f"quantile q must lie in [0, 1], got {q}")
    pos = q * (n - 1)
    lo = math.floor(pos)
    hi = min(lo + 1, n - 1)
    frac = pos - lo
    return sorted_values[lo] + (sorted_values[hi] - sorted_values[lo]) * frac


def cv(values: Sequence[float]) -> float:
    """Coefficient of variation: sample standard deviation over the mean (0 for fewer than 2 values)."""
    if len(values) < 2:
        return 0.0
    mean = statistics.fmean(values)
    if mean == 0:
        return 0.0
    return statistics.stdev(values) / abs(mean)


def summarize(values: Sequence[float], seconds: float) -> Stats:
    """Median, extremes, quartiles, IQR, CV and count of `values`; `seconds` is the wall time spent."""
    if not values:
        raise ValueError("no samples to summarise")
    ordered = sorted(float(v) for v in values)
    q1 = quantile(ordered, 0.25)
    q3 = quantile(ordered, 0.75)
    return Stats(
        median=quantile(ordered, 0.5),
        min=ordered[0],
        max=ordered[-1],
        q1=q1,
        q3=q3,
        iqr=q3 - q1,
        cv=cv(ordered),
        reps=len(ordered),
        seconds=float(seconds),
    )


def rates(work: float, times: Sequence[float]) -> list[float]:
    """Per-sample rates (work per second) from per-call times."""
    return [work / t for t in times if t > 0]


@dataclass
class Timing:
    """What the measuring loop saw: seconds per call for each sample, and how it ended."""

    times: list[float] = field(default_factory=list)
    seconds: float = 0.0  # wall time including warm-up
    inner: int = 1  # calls per timed sample (a burst between two syncs)
    first_call_s: float | None = None  # the discarded warm-up call
    cancelled: bool = False
    capped: bool = False  # stopped by the cap (or the sample limit) while the CV was still above target
    limit: str = "time cap"  # which limit stopped it when capped
    max_reps: int | None = None  # set when the limit was the number of samples
    pinned: bool = False  # stopped with the CV above target, its median pinned (MEDIAN_PRECISION)

    @property
    def cv(self) -> float:
        """Coefficient of variation of the samples."""
        return cv(self.times)

    def note(self) -> str | None:
        """A short remark for the result message when the loop ended early, else None."""
        if self.cancelled:
            return _note("stats.cancelled", samples=len(self.times))
        if self.pinned:
            error = f"{100 * median_error(self.times):.1f}"
            return _note("stats.pinned", cv=f"{100 * CV_TARGET:.1f}", error=error, samples=len(self.times))
        if self.capped:
            cv_target = f"{100 * CV_TARGET:.1f}"
            if self.max_reps is not None:
                return _note("stats.sample_limit", samples=self.max_reps, cv=cv_target)
            return _note("stats.time_cap", cv=cv_target)
        return None


def _noop() -> None:
    return None


def _timed_call(
    fn: Callable[..., Any],
    prepare: Callable[[], Any] | None,
    sync: Callable[[], Any],
    clock: Callable[[], float],
) -> float:
    """Seconds for one call of fn up to the device sync; with prepare, its value is made untimed first."""
    if prepare is not None:
        arg = prepare()
        sync()
        t0 = clock()
        fn(arg)
        sync()
        return clock() - t0
    t0 = clock()
    fn()
    sync()
    return clock() - t0


def _sample_rounds(
    timing: Timing,
    sample: Callable[[], float],
    per_sample: float,
    *,
    clock: Callable[[], float],
    cancelled: Callable[[], bool],
    target_s: float,
    deadline: float,
    min_reps: int,
    max_reps: int,
    cv_target: float,
) -> None:
    """Add samples to timing in rounds of target_s while the CV stays above cv_target, up to the deadline."""
    inner = timing.inner
    round_end = clock() + target_s
    while len(timing.times) < max_reps:
        if cancelled():
            timing.cancelled = True
            break
        now = clock()
        if len(timing.times) >= min_reps and now >= round_end:
            if cv(timing.times) <= cv_target:
                break
            if median_error(timing.times) <= MEDIAN_PRECISION:
                timing.pinned = True
                break
            if now + per_sample > deadline:
                timing.capped = True
                break
            round_end = now + target_s  # CV still high: another round
        if timing.times and now + per_sample > deadline:
            timing.capped = len(timing.times) < min_reps or cv(timing.times) > cv_target
            break
        t = sample()
        timing.times.append(t)
        per_sample = 0.5 * per_sample + 0.5 * t * inner  # follows drift without chasing one outlier
    else:
        if cv(timing.times) > cv_target:
            timing.capped, timing.limit, timing.max_reps = True, f"limit of {max_reps} samples", max_reps


def measure(
    fn: Callable[..., Any],
    *,
    sync: Callable[[], Any] | None = None,
    prepare: Callable[[], Any] | None = None,
    target_s: float = 0.25,
    cap_s: float = 10.0,
    cancelled: Callable[[], bool] | None = None,
    min_reps: int = 5,
    max_reps: int = 5000,
    min_sample_s: float = 1e-3,
    max_inner: int = 100_000,
    cv_target: float = CV_TARGET,
    warmup: int = 1,
    start: float | None = None,
    clock: Callable[[], float] = time.perf_counter,
) -> Timing:
    """Time `fn` after warm-up: time-based rounds of samples, extended while CV > cv_target, within cap_s.

    `sync` waits for the device (block_until_ready, cuda.synchronize); it runs after every burst.
    With `prepare`, each sample first calls prepare() untimed and passes its value to fn (one call
    per sample, no bursts): for work that must start fresh, such as compiling a new function.
    `start` is the clock value at which the point began (set-up counts against the cap); default now.
    Returns an empty Timing only when cancelled before the first sample.
    """
    sync = sync or _noop
    cancelled = cancelled or (lambda: False)
    begun = clock()
    start = begun if start is None else min(start, begun)
    deadline = start + CAP_MARGIN * cap_s
    timing = Timing()

    def run_once() -> float:
        return _timed_call(fn, prepare, sync, clock)

    # Warm-up: the first call carries one-off costs (allocation, autotuning, compilation).
    for _ in range(max(1, warmup)):
        if cancelled():
            timing.cancelled = True
            timing.seconds = clock() - begun
            return timing
        t_first = run_once()
        if timing.first_call_s is None:
            timing.first_call_s = t_first

    # Calibration: one timed call decides the burst length.
    if cancelled():
        timing.cancelled = True
        timing.seconds = clock() - start
        return timing
    t_one = run_once()
    inner = 1
    if prepare is None and t_one < min_sample_s:
        inner = min(max_inner, max(1, math.ceil(min_sample_s / max(t_one, 1e-9))))
    else:
        timing.times.append(t_one)
    timing.inner = inner

    def sample() -> float:
        if inner == 1:
            return run_once()
        t0 = clock()
        for _ in range(inner):
            fn()
        sync()
        return (clock() - t0) / inner

    _sample_rounds(
        timing,
        sample,
        t_one * inner,
        clock=clock,
        cancelled=cancelled,
        target_s=target_s,
        deadline=deadline,
        min_reps=min_reps,
        max_reps=max_reps,
        cv_target=cv_target,
    )
    timing.seconds = clock() - begun
    return timing
