"""Whether a measured point can be trusted, decided in one place for the CLI, the window and the report.

A point is flagged when it is
- too noisy: fewer than MIN_REPS repetitions, or the middle half of its repetitions spreads over
  more than NOISE_IQR_RATIO of the median (IQR / median), or its coefficient of variation is above
  NOISE_CV (a few wild repetitions even when the middle half agrees);
- in cache: a copy or triad point whose arrays are smaller than LLC_FACTOR times the last-level
  cache (STREAM's rule), so it measured the cache rather than memory;
- above a roof: faster than the catalogue's published peak of the chip, or a matmul point above this
  machine's own measured roof (trusted memory bandwidth x the matmul's arithmetic intensity);
- stalled: a matmul point far below its neighbours of the same dtype on the same device: under
  STALL_SHARE of the rate a smaller size reached, one call slower than a call of a larger size, or
  (on a CPU) under CPU_STALL_SHARE of the next larger size's rate; or a multi-threaded CPU point
  below the one-thread rate of the same product (the ONE_THREAD variant, where it was measured).
  Steadiness is not correctness: a busy machine can hold a product at a steady, wrong speed (issue 24 §2).

Flagged points are still shown (marked), but never become a "best measured" value, an estimator
row, a roofline ceiling, evidence in Learn or a summary-card figure. Standard library only: the probe
worker uses it too, in interpreters without pydantic.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from gpu_tpu_app.shared.notes import Note, parts_of
from gpu_tpu_app.shared.terms import DTYPE_BYTES, FUNCTIONAL_CHECK, MEMORY_KERNELS, ONE_THREAD
from gpu_tpu_app.shared.units import MISSING, format_pct, format_value

if TYPE_CHECKING:  # pragma: no cover
    from gpu_tpu_app.core.runs import DeviceInfo, ProbeResult, RunFile

#: Fewer repetitions than this cannot show their spread: such a point is not trusted.
MIN_REPS = 3
#: Too noisy above this interquartile range as a share of the median (10 %).
NOISE_IQR_RATIO = 0.10
#: ... or above this coefficient of variation (25 %).
NOISE_CV = 0.25
#: A collective point (all-reduce and the like) is too noisy above these instead: the spread of a direct
#: torch.distributed gloo all-reduce loop timed the probe's way (2 ms bursts, the slowest rank's time per
#: sample) on a quiet 2-core machine, 1-64 MiB, 5 rounds each: IQR 10-140 % of the median, CV 5-73 %
#: (benchmarks/bench_collective.py --spread). Under the matmul rule above every such point was flagged,
#: 42 of 42 at load 0.6: a flag that always fires says nothing.
COLLECTIVE_NOISE_IQR_RATIO = 1.5
COLLECTIVE_NOISE_CV = 0.75
#: STREAM's rule: each array at least 4x the last-level cache, or it measures the cache.
LLC_FACTOR = 4.0
#: A larger matmul at under this share of the FLOP/s a smaller one of the same dtype reached is stalled.
STALL_SHARE = 0.5
#: On a CPU a matmul under this share of the next larger size's FLOP/s is stalled (a CPU is not
#: launch-bound at these sizes; an accelerator may be, so there only "one call slower than a larger call" counts).
CPU_STALL_SHARE = 0.25
#: The largest product timed on one thread as a multi-threaded point's same-minute reference: a larger point
#: is held to the one-thread rate of this size, timed right after it and filed under the point's own size
#: (one thread's rate has levelled off by here; a larger product on one thread would take seconds of the cap).
ONE_THREAD_REF_N = 1024

NOISE_RULE = (
    f"A point is too noisy to trust when it has fewer than {MIN_REPS} repetitions, when the middle half of "
    f"its repetitions spreads over more than {format_pct(100 * NOISE_IQR_RATIO)} of the median (IQR / median), or when its "
    f"coefficient of variation is above {format_pct(100 * NOISE_CV)}."
)


def noise_rule_text(language: str | None = None) -> str:
    """NOISE_RULE in the language in use (the window's Status column)."""
    from gpu_tpu_app.core.texts import text

    return text(
        "probe_app.trust.noise_rule",
        language=language,
        reps=MIN_REPS,
        iqr=format_pct(100 * NOISE_IQR_RATIO),
        cv=format_pct(100 * NOISE_CV),
    )


TRUST_RULE = (
    NOISE_RULE + " Copy and triad points whose arrays are smaller than 4x the last-level cache measured the "
    "cache, not memory. Points above the chip's published peak, or matmul points above this machine's own "
    "measured roof (memory bandwidth x arithmetic intensity), are timing errors or cache effects. Matmul points "
    "far below their neighbours of the same dtype (under half a smaller size's rate, or slower per call than a "
    "larger size), and multi-threaded CPU products slower than the same product on one thread, are stalled: the "
    "machine held them back, however steady they look. Flagged "
    "points are shown but never used as a best value, an estimator row, a roofline ceiling or evidence."
)
__all__ = [
    "FUNCTIONAL_CHECK",
    "Best",
    "Flags",
    "Ratio",
    "format_ratio",
    "is_functional_check",
    "machine_best",
    "matmul_intensity",
    "point_flags",
    "ratios",
    "run_flags",
    "stalls",
    "trusted",
    "trusted_results",
]

#: How the noise flag of a point with fewer than MIN_REPS repetitions begins (its spread is unknown).
FEW_REPS = "too few repetitions to judge the noise: "

#: The English of each reason, by its id in resources/text/probe_app.<language>.toml [trust] (the English
#: file says the same: a test holds them equal). Each reason is a core.notes.Note: English text that keeps
#: its id and parameters, so the window, the report and a second try's note can say it in any language.
TEMPLATES = {
    "few_reps_one": FEW_REPS + "only {reps} repetition; {needed} needed",
    "few_reps": FEW_REPS + "only {reps} repetitions; {needed} needed",
    "noisy_iqr": "too noisy: IQR {iqr} of the median (over {limit})",
    "noisy_cv": "too noisy: CV {cv} (over {limit})",
    "noisy_collective": "too noisy: IQR {iqr} of the median, CV {cv} (a direct gloo loop on a quiet machine "
    "stays under IQR {iqr_limit}, CV {cv_limit})",
    "in_cache": "in cache: each array is {array}, {ratio}x the {llc} last-level cache (under {factor}x): not a "
    "memory bandwidth",
    "in_cache_note": "in cache: the arrays fit partly in the cache (see the note): not a memory bandwidth",
    "above_spec": "above the chip's published peak ({pct} of spec): a timing or catalogue error",
    "above_spec_suspect": "above the chip's published peak: a timing or catalogue error",
    "above_roof": "above this machine's measured roof: {bandwidth} x {intensity} FLOP/byte = {roof}",
    "stalled_one_thread": "stalled: {rate}, below the {other} of {n}×{n} on one thread: the machine held this "
    "point back, however steady it looks",
    "stalled_smaller": "stalled: {rate}, under {share} of the {other} of {n}×{n} (same dtype): the machine held "
    "this point back, however steady it looks",
    "stalled_per_call": "stalled: {rate}, each call slower than a larger product at the {other} of {n}×{n} (same "
    "dtype): the machine held this point back, however steady it looks",
    "stalled_next": "stalled: {rate}, under {share} of the {other} of {n}×{n} (same dtype): the machine held this "
    "point back, however steady it looks",
}


def _said(key: str, **params: object) -> Note:
    return Note(f"probe_app.trust.{key}", TEMPLATES[key], **params)


def few_reps_words(reps: int) -> str:
    """'only 1 repetition; 3 needed'."""
    return f"only {reps} repetition{'s' if reps != 1 else ''}; {MIN_REPS} needed"


#: Short words for each flag, for narrow cells (CLI column, chart legend).
FLAG_WORDS = {"noisy": "noisy", "in_cache": "in cache", "above_roof": "above roof", "stalled": "stalled"}


@dataclass(frozen=True)
class Flags:
    """Why one point is not trusted; every field is None for a trusted point (or one with no value)."""

    noisy: str | None = None
    in_cache: str | None = None
    above_roof: str | None = None
    stalled: str | None = None

    @property
    def flagged(self) -> bool:
        """True when any flag is set."""
        return bool(self.noisy or self.in_cache or self.above_roof or self.stalled)

    def words(self) -> list[str]:
        """Short words of the flags set: ['noisy', 'in cache']."""
        return [FLAG_WORDS[k] for k in FLAG_WORDS if getattr(self, k)]

    def short(self) -> str:
        """'noisy, in cache'; '' when trusted, in the language in use (the window, the report). A point
        flagged for too few repetitions says so: 'only 1 repetition; 3 needed' (its spread is unknown,
        not large)."""
        from gpu_tpu_app.core.texts import text

        words = [text(f"probe.flags.{k}") for k in FLAG_WORDS if getattr(self, k)]
        if self.noisy and self.noisy.startswith(FEW_REPS):
            reps = self.noisy[len(FEW_REPS) :].split(" ", 2)[1]
            key = "probe.few_reps_one" if reps == "1" else "probe.few_reps"
            words[0] = text(key, reps=reps, needed=MIN_REPS)
        return text("probe.flags.separator").join(words)

    def notes(self) -> list[str]:
        """The reasons, one sentence each."""
        return [t for t in (self.noisy, self.in_cache, self.above_roof, self.stalled) if t]

    def note(self) -> str:
        """All reasons in one line; '' when trusted."""
        return "; ".join(self.notes())

    def shown_notes(self) -> list[str]:
        """The reasons in the language in use (notes() keeps them in English, as run files and JSON do)."""
        from gpu_tpu_app.core.note_text import shown_message

        return [shown_message(n, parts_of(n)) or n for n in self.notes()]

    def shown_note(self) -> str:
        """All reasons in one line in the language in use; '' when trusted."""
        from gpu_tpu_app.core.texts import text

        return text("probe_app.trust.separator").join(self.shown_notes())


NO_FLAGS = Flags()


def _has_value(r: ProbeResult) -> bool:
    return r.value is not None and math.isfinite(r.value) and r.value > 0 and r.status in ("ok", "suspect")


def iqr_ratio(r: ProbeResult) -> float | None:
    """IQR over the median of a point's repetitions, or None without statistics."""
    s = r.stats
    if s is None:
        return None
    return s.iqr / s.median if s.median > 0 else math.inf


def noise(r: ProbeResult) -> str | None:
    """Why the point is too noisy to trust, or None (also None without a value or statistics)."""
    s = r.stats
    if s is None or not _has_value(r):
        return None
    if s.reps < MIN_REPS:
        return _said("few_reps_one" if s.reps == 1 else "few_reps", reps=s.reps, needed=MIN_REPS)
    ratio = iqr_ratio(r)
    if r.kernel == "collective":  # its own rule, calibrated on a direct gloo loop (COLLECTIVE_NOISE_*)
        if (ratio is not None and ratio > COLLECTIVE_NOISE_IQR_RATIO) or s.cv > COLLECTIVE_NOISE_CV:
            return _said(
                "noisy_collective",
                iqr=format_pct(100 * (ratio if ratio is not None else math.nan)),
                cv=format_pct(100 * s.cv),
                iqr_limit=format_pct(100 * COLLECTIVE_NOISE_IQR_RATIO),
                cv_limit=format_pct(100 * COLLECTIVE_NOISE_CV),
            )
        return None
    if ratio is not None and ratio > NOISE_IQR_RATIO:
        return _said("noisy_iqr", iqr=format_pct(100 * ratio), limit=format_pct(100 * NOISE_IQR_RATIO))
    if s.cv > NOISE_CV:
        return _said("noisy_cv", cv=format_pct(100 * s.cv), limit=format_pct(100 * NOISE_CV))
    return None


def device_llc(device: Any) -> int | None:
    """The last-level cache a DeviceInfo describes: its CPU's highest data cache, or the device's own."""
    cpu = getattr(device, "cpu", None)
    if cpu is not None and cpu.caches:
        levels = {k: v for k, v in cpu.caches.items() if not k.endswith("i")}
        if levels:
            return levels[max(levels, key=lambda name: int(name[1:].rstrip("d") or 0))]
    return getattr(device, "cache_bytes", None)


def _mib(nbytes: float) -> str:
    return f"{nbytes / 1024**2:.0f} MiB" if nbytes >= 1024**2 else f"{nbytes / 1024:.0f} KiB"


def in_cache(r: ProbeResult, device: DeviceInfo | None = None) -> str | None:
    """Why a copy / triad point measured the cache rather than memory, or None."""
    if r.kernel not in MEMORY_KERNELS or r.metric != "bytes_per_s" or not _has_value(r):
        return None
    llc = device_llc(device) if device is not None else None
    if llc and r.size:
        per_array = r.size * DTYPE_BYTES.get(r.dtype or "float32", 4)
        if per_array < LLC_FACTOR * llc:
            return _said(
                "in_cache",
                array=_mib(per_array),
                ratio=f"{per_array / llc:.1f}",
                llc=_mib(llc),
                factor=f"{LLC_FACTOR:.0f}",
            )
        return None
    if r.message and "in cache" in r.message:  # the kernel's own note, where the cache size is not in the file
        return _said("in_cache_note")
    return None


def above_catalogue(r: ProbeResult) -> str | None:
    """Why the point is above the chip's published peak, or None."""
    if not _has_value(r):
        return None
    if r.pct_spec is not None and r.pct_spec > 100:
        return _said("above_spec", pct=format_pct(r.pct_spec))
    if r.status == "suspect":
        return _said("above_spec_suspect")
    return None


def matmul_intensity(size: int, dtype: str | None) -> float:
    """Arithmetic intensity of an N x N matmul: 2N^3 FLOPs over 3N^2 elements read or written (FLOP per byte)."""
    itemsize = DTYPE_BYTES.get(dtype or "float32", 4)
    return 2.0 * size / (3.0 * itemsize)


def point_flags(r: ProbeResult, device: DeviceInfo | None = None) -> Flags:
    """The flags one point earns on its own (without the run's measured roof)."""
    return Flags(noisy=noise(r), in_cache=in_cache(r, device), above_roof=above_catalogue(r))


def run_flags(run: RunFile) -> list[Flags]:
    """Flags of every result of a run, in order; includes matmul points above the run's own measured roof."""
    return results_flags(run.results, run.device)


def results_flags(results: Sequence[ProbeResult], device: Callable[[str], DeviceInfo | None]) -> list[Flags]:
    """Flags of every result, in order, with `device(key)` giving each result's DeviceInfo (or None)."""
    flags = [point_flags(r, device(r.device)) for r in results]
    bandwidth: dict[str, float] = {}
    for r, f in zip(results, flags):
        if r.kernel in MEMORY_KERNELS and r.metric == "bytes_per_s" and _trusted(r, f):
            bandwidth[r.device] = max(bandwidth.get(r.device, 0.0), r.measured)
    for i, (r, f) in enumerate(zip(results, flags)):
        bw = bandwidth.get(r.device)
        if bw is None or f.flagged or r.kernel != "matmul" or r.metric != "flops" or not r.size or not _has_value(r):
            continue
        roof = bw * matmul_intensity(r.size, r.dtype)
        if r.measured > roof:
            flags[i] = Flags(
                above_roof=_said(
                    "above_roof",
                    bandwidth=format_value(bw, "bytes_per_s"),
                    intensity=f"{matmul_intensity(r.size, r.dtype):.3g}",
                    roof=format_value(roof, "flops"),
                )
            )
    for i, why in stalls(results, lambda j: not flags[j].flagged).items():
        flags[i] = dataclasses.replace(flags[i], stalled=why)
    return flags


def stalls(results: Sequence[Any], references: Callable[[int], bool] = lambda i: True) -> dict[int, str]:
    """Index -> why, for each matmul result far below its neighbours (same device, dtype and variant);
    only results for which `references(index)` holds (say, those no other flag marks) serve as neighbours.

    Against its one-thread reference (the ONE_THREAD variant of its size, timed right after the point: the
    same product, or above ONE_THREAD_REF_N the product of that size): a multi-threaded point below it by
    more than the reference's own noise (its IQR over its median), at any size. Against smaller sizes: under STALL_SHARE of the best rate a smaller product reached.
    Against larger sizes: one call took longer than a call of a larger product, or (CPU devices, whose
    keys read 'backend:cpu:N') the rate is under CPU_STALL_SHARE of the next larger size's.
    """
    groups: dict[tuple[str, str | None, str | None], list[int]] = {}
    one_thread: dict[tuple[str, str | None, int], Any] = {}
    for i, r in enumerate(results):
        if r.kernel == "matmul" and r.metric == "flops" and r.size and _has_value(r):
            groups.setdefault((r.device, r.dtype, r.variant), []).append(i)
            if r.variant == ONE_THREAD and references(i):
                key = (r.device, r.dtype, r.size)
                if key not in one_thread or float(r.value) > float(one_thread[key].value):
                    one_thread[key] = r
    out: dict[int, str] = {}
    for (device, dtype, variant), idx in groups.items():
        idx = sorted(idx, key=lambda i: (results[i].size or 0, i))
        cpu = device.split(":")[1:2] == ["cpu"]
        for pos, i in enumerate(idx):
            r = results[i]
            n, rate = r.size or 0, float(r.value)
            single = one_thread.get((device, dtype, n)) if variant is None else None
            if single is not None and rate < float(single.value) * (1.0 - _spread(single)):
                out[i] = _stall_words("stalled_one_thread", r, single)
                continue
            smaller = [results[j] for j in idx[:pos] if (results[j].size or 0) < n and references(j)]
            larger = [results[j] for j in idx[pos + 1 :] if (results[j].size or 0) > n and references(j)]
            best_small = max(smaller, key=lambda x: float(x.value), default=None)
            if best_small is not None and rate < STALL_SHARE * float(best_small.value):
                out[i] = _stall_words("stalled_smaller", r, best_small, share=format_pct(100 * STALL_SHARE))
                continue
            per_call = (n**3) / rate
            slower = next((x for x in larger if per_call > ((x.size or 0) ** 3) / float(x.value)), None)
            if slower is not None:
                out[i] = _stall_words("stalled_per_call", r, slower)
                continue
            nxt = min(larger, key=lambda x: x.size or 0, default=None)
            if cpu and nxt is not None and rate < CPU_STALL_SHARE * float(nxt.value):
                out[i] = _stall_words("stalled_next", r, nxt, share=format_pct(100 * CPU_STALL_SHARE))
    return out


def _spread(r: Any) -> float:
    """The noise of a reference point: its IQR over its median (0 without statistics)."""
    s = getattr(r, "stats", None)
    if s is None or not s.median or s.median <= 0:
        return 0.0
    return max(0.0, min(1.0, float(s.iqr) / float(s.median)))


def _stall_words(key: str, r: Any, other: Any, **more: str) -> Note:
    return _said(
        key,
        rate=format_value(float(r.value), "flops"),
        other=format_value(float(other.value), "flops"),
        n=other.size,
        **more,
    )


def _trusted(r: ProbeResult, f: Flags) -> bool:
    return r.status == "ok" and _has_value(r) and not f.flagged


def trusted(r: ProbeResult, flags: Flags = NO_FLAGS) -> bool:
    """True for an ok point with a value and no flag: one that may count as a best value or a ceiling."""
    return _trusted(r, flags)


def trusted_results(run: RunFile) -> list[ProbeResult]:
    """The run's results that may count as best values, ceilings and evidence."""
    return [r for r, f in zip(run.results, run_flags(run)) if _trusted(r, f)]


def flagged_counts(run: RunFile) -> dict[str, int]:
    """How many points of the run carry each flag ('noisy', 'in cache', 'above roof')."""
    counts: dict[str, int] = {}
    for f in run_flags(run):
        for w in f.words():
            counts[w] = counts.get(w, 0) + 1
    return counts


def flagged_summary(run: RunFile) -> str:
    """'2 points flagged (noisy 1, in cache 1): not used as best values'; '' when none is."""
    from gpu_tpu_app.core.texts import text

    flags = run_flags(run)
    n = sum(f.flagged for f in flags)
    if not n:
        return ""
    counts = {k: sum(bool(getattr(f, k)) for f in flags) for k in FLAG_WORDS}
    detail = text("probe.flags.separator").join(
        text("probe.flags.count", flag=text(f"probe.flags.{k}"), n=v) for k, v in counts.items() if v
    )
    return text("probe.flagged_one" if n == 1 else "probe.flagged_many", n=n, detail=detail)


def is_functional_check(run: RunFile) -> bool:
    """True for a smoke-suite run: it checks that the kernels run, its numbers are no benchmark."""
    return run.suite == "smoke"


# ---------------------------------------------------------------- this machine's best, against chips


@dataclass(frozen=True)
class Best:
    """This machine's best trusted figure of one kind ('matmul' FLOP/s or 'bandwidth' B/s)."""

    kind: str
    value: float
    metric: str
    dtype: str | None
    device_name: str
    backend: str
    suite: str


def machine_best(runs: Iterable[RunFile]) -> dict[str, Best]:
    """The best trusted matmul FLOP/s and copy / triad B/s over `runs`; a kind nothing trusted measured is absent."""
    best: dict[str, Best] = {}
    for run in runs:
        for r in trusted_results(run):
            if r.kernel == "matmul" and r.metric == "flops":
                kind = "matmul"
            elif r.kernel in MEMORY_KERNELS and r.metric == "bytes_per_s":
                kind = "bandwidth"
            else:
                continue
            if kind not in best or r.measured > best[kind].value:
                dev = run.device(r.device)
                best[kind] = Best(
                    kind,
                    r.measured,
                    r.metric,
                    r.dtype,
                    dev.name if dev else r.device,
                    r.backend,
                    run.suite,
                )
    return best


@dataclass(frozen=True)
class Ratio:
    """This machine's best figure over one catalogue chip's published one (None when the chip has none)."""

    chip_id: str
    chip_name: str
    kind: str
    chip_value: float | None
    ratio: float | None
    basis: str  # what the chip's figure is: 'bfloat16 peak 989 TFLOP/s', 'memory 3.35 TB/s'


def ratios(best: dict[str, Best], chips: Sequence[Any]) -> list[Ratio]:
    """One Ratio per chip and kind this machine measured: matmul against the chip's dense peak of the same
    dtype, bandwidth against its memory bandwidth."""
    out: list[Ratio] = []
    for chip in chips:
        for kind in ("matmul", "bandwidth"):
            b = best.get(kind)
            if b is None:
                continue
            if kind == "matmul":
                dtype = b.dtype or "float32"
                value = chip.peak_flops(dtype)
                basis = f"{dtype} peak {format_value(value, 'flops')}" if value else f"no published {dtype} peak"
            else:
                value = chip.mem_bw_bytes_per_s()
                basis = f"memory {format_value(value, 'bytes_per_s')}" if value else "no published memory bandwidth"
            ratio = b.value / value if value else None
            out.append(Ratio(chip.id, chip.name, kind, value, ratio, basis))
    return out


def format_ratio(ratio: float | None) -> str:
    """A ratio people read at a glance: '2.4x', '0.31x', '1/240'."""
    if ratio is None or not math.isfinite(ratio) or ratio <= 0:
        return MISSING
    if ratio >= 0.1:
        return f"{ratio:.2g}x" if ratio < 10 else f"{ratio:.0f}x"
    return f"1/{1 / ratio:,.0f}"
