"""Percent of the measured ceiling: each rate against the best trusted one of its kind.

A ceiling is shared by results of the same metric, kernel, device and dtype. Results that
core.trust flags (too noisy, in cache, above the published peak) never set it. Kept apart
from the run-file models (core.runs), which trust reads.
"""

from __future__ import annotations

from gpu_tpu_app.core.runs import DeviceInfo, ProbeResult
from gpu_tpu_app.shared.trust import point_flags, results_flags


def ceiling_key(r: ProbeResult) -> tuple[str, str, str, str | None]:
    """Results that share a ceiling: same metric, kernel, device and dtype."""
    return (r.metric, r.kernel, r.device, r.dtype)


def _counts(r: ProbeResult, device: DeviceInfo | None = None) -> bool:
    """A result that may set a ceiling: an ok rate that core.trust does not flag on its own (too noisy, in
    cache, above the published peak)."""
    return _rated(r) and not point_flags(r, device).flagged


def _rated(r: ProbeResult) -> bool:
    return r.status == "ok" and r.value is not None and r.value > 0 and r.metric != "seconds"


class CeilingTracker:
    """Keeps the best rate per ceiling_key and fills ProbeResult.pct_ceiling as results stream in.

    Only rates (FLOP/s, B/s) have a ceiling; times and failed or suspect results get None. A point too
    noisy to trust never sets the ceiling; it gets its percentage of the best trusted one (which may
    be above 100).
    """

    def __init__(self, devices: dict[str, DeviceInfo] | None = None) -> None:
        self.best: dict[tuple[str, str, str, str | None], float] = {}
        #: the devices by key, as they are found (their caches decide which bandwidth points measured memory)
        self.devices = devices if devices is not None else {}

    def add(self, r: ProbeResult) -> ProbeResult:
        """Record `r` and return it with pct_ceiling against the best so far."""
        if not _counts(r, self.devices.get(r.device)):
            top = self.best.get(ceiling_key(r)) if _rated(r) else None
            pct = 100.0 * r.measured / top if top else None
            return r if r.pct_ceiling == pct else r.model_copy(update={"pct_ceiling": pct})
        key = ceiling_key(r)
        best = max(self.best.get(key, 0.0), r.measured)
        self.best[key] = best
        return r.model_copy(update={"pct_ceiling": 100.0 * r.measured / best})


def with_ceilings(results: list[ProbeResult], devices: list[DeviceInfo] | None = None) -> list[ProbeResult]:
    """Every result's pct_ceiling against the best trusted one of the whole list (the best one is 100);
    `devices` tell which bandwidth points measured the cache (core.trust)."""
    by_key = {d.key: d for d in devices or []}
    flags = results_flags(results, by_key.get)
    best: dict[tuple[str, str, str, str | None], float] = {}
    for r, f in zip(results, flags):
        if _rated(r) and not f.flagged:
            best[ceiling_key(r)] = max(best.get(ceiling_key(r), 0.0), r.measured)
    out = []
    for r in results:
        top = best.get(ceiling_key(r)) if _rated(r) else None
        pct = 100.0 * r.measured / top if top else None
        out.append(r if r.pct_ceiling == pct else r.model_copy(update={"pct_ceiling": pct}))
    return out
