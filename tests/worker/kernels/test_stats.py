"""Repetition statistics and the measuring loop, on known samples and a scripted clock."""

from __future__ import annotations

import math
import random
import statistics
from collections.abc import Iterator

import pytest

from gpu_tpu_app.worker.kernels import stats
from gpu_tpu_app.worker.kernels.stats import CV_TARGET, measure, quantile, rates, summarize


class FakeClock:
    """A clock that only moves when the measured function says how long it took."""

    def __init__(self) -> None:
        self.t = 100.0

    def __call__(self) -> float:
        return self.t

    def advance(self, dt: float) -> None:
        self.t += dt


def test_quantile_matches_linear_interpolation() -> None:
    xs = [1.0, 2.0, 3.0, 4.0]
    assert quantile(xs, 0.0) == 1.0
    assert quantile(xs, 1.0) == 4.0
    assert quantile(xs, 0.25) == pytest.approx(1.75)  # numpy.quantile([1,2,3,4], .25) == 1.75
    assert quantile(xs, 0.5) == pytest.approx(2.5)
    assert quantile(xs, 0.75) == pytest.approx(3.25)
    assert quantile([7.0], 0.3) == 7.0
    with pytest.raises(ValueError):
        quantile([], 0.5)
    with pytest.raises(ValueError):
        quantile(xs, 1.5)


def test_summarize_known_sample() -> None:
    s = summarize([5.0, 1.0, 4.0, 2.0, 3.0], seconds=1.25)
    assert (s.median, s.min, s.max) == (3.0, 1.0, 5.0)
    assert (s.q1, s.q3, s.iqr) == (2.0, 4.0, 2.0)
    assert s.cv == pytest.approx(statistics.stdev([1, 2, 3, 4, 5]) / 3.0)  # 0.527
    assert s.reps == 5
    assert s.seconds == 1.25


def test_summarize_single_and_constant_samples() -> None:
    one = summarize([2.5], seconds=0.1)
    assert (one.median, one.q1, one.q3, one.iqr, one.cv, one.reps) == (2.5, 2.5, 2.5, 0.0, 0.0, 1)
    flat = summarize([3.0] * 6, seconds=0.1)
    assert flat.cv == 0.0 and flat.iqr == 0.0
    with pytest.raises(ValueError):
        summarize([], seconds=0.0)


def test_rates_turn_times_into_throughput() -> None:
    assert rates(10.0, [2.0, 5.0]) == [5.0, 2.0]
    assert rates(10.0, [0.0, 1.0]) == [10.0]  # a zero time is dropped, never infinite


def test_measure_stops_after_target_when_stable() -> None:
    clock = FakeClock()
    calls = []

    def fn() -> None:
        calls.append(1)
        clock.advance(0.01)

    t = measure(fn, target_s=0.1, cap_s=10.0, clock=clock, min_sample_s=0.001)
    assert t.inner == 1
    assert all(x == pytest.approx(0.01) for x in t.times)
    # warm-up (discarded) + calibration (kept) + samples until the 0.1 s round is over
    assert 10 <= len(t.times) <= 12
    assert len(calls) == len(t.times) + 1
    assert t.first_call_s == pytest.approx(0.01)
    assert not t.capped and not t.cancelled and t.note() is None
    assert t.seconds == pytest.approx(0.01 * len(calls))


def test_measure_extends_while_cv_is_high_until_the_cap() -> None:
    clock = FakeClock()
    durations = iter([0.01, 0.03] * 10_000)

    def fn() -> None:
        clock.advance(next(durations))

    t = measure(fn, target_s=0.1, cap_s=2.0, clock=clock, min_sample_s=0.001)
    assert t.cv > CV_TARGET
    assert t.capped
    assert "time cap" in (t.note() or "")
    assert t.seconds <= 2.0 * stats.CAP_MARGIN + 1e-9  # stops before the cap, with margin
    assert t.seconds > 0.5 * 2.0  # and kept measuring well past one 0.1 s round


def test_measure_extends_then_stops_once_cv_settles() -> None:
    clock = FakeClock()
    # a noisy first round (CV about 10%), then steady within 0.1%: with too few samples to pin the
    # median, more rounds dilute the noise under the CV target
    durations = iter([0.009, 0.011] * 4 + [0.01, 0.01001] * 10_000)

    def fn() -> None:
        clock.advance(next(durations))

    t = measure(fn, target_s=0.05, cap_s=100.0, clock=clock, min_sample_s=0.001)
    assert not t.capped
    assert len(t.times) > 10  # more than the first round of five
    assert t.seconds < 2.0
    # whichever rule ended it, CV or pinned median, it says which, and the median is the steady one
    assert t.cv <= CV_TARGET or (t.pinned and "standard error" in (t.note() or ""))
    assert statistics.median(t.times) == pytest.approx(0.01, rel=1e-3)


def _noisy_durations(seed: int, center: float, spread: float) -> Iterator[float]:
    rng = random.Random(seed)
    while True:
        yield max(1e-6, rng.gauss(center, spread * center))


def test_measure_stops_once_the_median_is_pinned_though_the_cv_stays_high() -> None:
    """Steady noise (CV 10%, as short CPU samples on a shared machine show): the CV never falls to 3.5%,
    but after a few rounds the median is known to 1%: the loop stops there, long before its cap,
    and says so; the median is within a few standard errors of the true centre."""
    clock = FakeClock()
    durations = _noisy_durations(7, 0.002, 0.10)

    def fn() -> None:
        clock.advance(next(durations))

    t = measure(fn, target_s=0.1, cap_s=10.0, clock=clock, min_sample_s=0.001)
    assert t.cv > CV_TARGET and t.pinned and not t.capped
    assert stats.median_error(t.times) <= stats.MEDIAN_PRECISION
    assert t.seconds < 1.0  # the cap would have allowed 8.5 s
    assert statistics.median(t.times) == pytest.approx(0.002, rel=3 * stats.MEDIAN_PRECISION)
    said = t.note() or ""
    assert "CV stayed above 3.5%" in said and f"{len(t.times)} samples" in said and "standard error" in said


def test_a_stalled_half_never_pins_the_median() -> None:
    """Half the samples at twice the time (one of two threads held back): the quartiles straddle both
    modes, so the median is not pinned and the loop runs to its cap as before (and says the cap)."""
    clock = FakeClock()
    durations = iter([0.001, 0.002] * 100_000)

    def fn() -> None:
        clock.advance(next(durations))

    t = measure(fn, target_s=0.1, cap_s=2.0, clock=clock, min_sample_s=0.0)
    assert t.capped and not t.pinned and "time cap" in (t.note() or "")


def test_median_error_of_known_samples() -> None:
    assert stats.PINNED_MIN_SAMPLES == 50
    assert stats.median_error([1.0] * 49) == math.inf  # too few samples to trust quartiles
    assert stats.median_error([1.0] * 50) == 0.0
    values = [1.0, 2.0, 3.0, 4.0, 5.0] * 20  # n 100, quartiles 2 and 4, median 3
    assert stats.median_error(values) == pytest.approx(1.2533 * (2.0 / 1.349) / 10.0 / 3.0)


def test_measure_bursts_fast_calls_between_syncs() -> None:
    clock = FakeClock()
    syncs = []

    def fn() -> None:
        clock.advance(1e-5)

    def sync() -> None:
        syncs.append(clock.t)

    t = measure(fn, sync=sync, target_s=0.05, cap_s=10.0, clock=clock, min_sample_s=1e-3)
    assert t.inner == 100  # 1 ms / 10 µs
    assert all(x == pytest.approx(1e-5) for x in t.times)  # per call, not per burst
    # one sync per burst (plus warm-up and calibration), not one per call
    assert len(syncs) == len(t.times) + 2


def test_measure_prepare_is_not_timed() -> None:
    clock = FakeClock()
    seen = []

    def prepare() -> int:
        clock.advance(1.0)  # expensive set-up, e.g. building a fresh function
        return len(seen)

    def fn(arg: int) -> None:
        seen.append(arg)
        clock.advance(0.02)

    t = measure(fn, prepare=prepare, target_s=0.1, cap_s=100.0, clock=clock)
    assert t.inner == 1
    assert all(x == pytest.approx(0.02) for x in t.times)
    assert seen == list(range(len(seen)))  # each call got its own freshly prepared value


def test_measure_respects_cancel_between_reps() -> None:
    clock = FakeClock()
    calls = []

    def fn() -> None:
        calls.append(1)
        clock.advance(0.01)

    t = measure(fn, target_s=10.0, cap_s=100.0, clock=clock, cancelled=lambda: len(calls) >= 4)
    assert t.cancelled
    assert len(calls) == 4
    assert "cancelled" in (t.note() or "")

    clock2 = FakeClock()
    t2 = measure(lambda: clock2.advance(1.0), clock=clock2, cancelled=lambda: True)
    assert t2.cancelled and t2.times == []


def test_measure_counts_setup_time_against_the_cap() -> None:
    clock = FakeClock()
    start = clock.t
    clock.advance(1.5)  # the point's set-up already took 1.5 of its 2 s

    def fn() -> None:
        clock.advance(0.05)

    t = measure(fn, target_s=1.0, cap_s=2.0, start=start, clock=clock)
    assert clock.t - start <= 2.0 * stats.CAP_MARGIN + 0.05 + 1e-9
    assert len(t.times) >= 1


def test_measure_sample_limit_is_reported() -> None:
    clock = FakeClock()
    durations = iter([0.001, 0.003] * 10_000)

    def fn() -> None:
        clock.advance(next(durations))

    t = measure(fn, target_s=100.0, cap_s=1000.0, clock=clock, max_reps=50, min_sample_s=0.0)
    assert len(t.times) == 50
    assert t.capped and "limit of 50 samples" in (t.note() or "")
