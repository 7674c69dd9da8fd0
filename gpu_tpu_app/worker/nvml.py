"""NVIDIA clocks, temperature, power and throttle reasons around each point, through nvidia-ml-py.

nvidia-ml-py (module `pynvml`) is the NVML binding mamf-finder and nvbandwidth users read these
figures with. It is optional: imported only inside a worker, only when installed, and only when
the run has an NVIDIA device. Without it, results simply carry no device state.
"""

from __future__ import annotations

import os
from typing import Any

from gpu_tpu_app.worker.notes import note

#: nvmlClocksEventReasons bits (nvml.h; called ClocksThrottleReasons before driver 535).
REASONS = {
    0x1: "gpu_idle",
    0x2: "applications_clocks_setting",
    0x4: "sw_power_cap",
    0x8: "hw_slowdown",
    0x10: "sync_boost",
    0x20: "sw_thermal_slowdown",
    0x40: "hw_thermal_slowdown",
    0x80: "hw_power_brake_slowdown",
    0x100: "display_clock_setting",
}
#: The reasons that mean the clocks were held below what the workload asked for.
SLOWDOWN = ("sw_power_cap", "hw_slowdown", "sw_thermal_slowdown", "hw_thermal_slowdown", "hw_power_brake_slowdown")


def reasons(mask: int) -> list[str]:
    """The names of the bits set in an NVML clocks-event mask."""
    return [name for bit, name in REASONS.items() if mask & bit]


class Nvml:
    """An initialised NVML; `sample(index)` reads one CUDA device's state as a plain dict."""

    def __init__(self, api: Any, environ: dict[str, str] | None = None) -> None:
        self.api = api
        self._visible = (os.environ if environ is None else environ).get("CUDA_VISIBLE_DEVICES")

    @classmethod
    def open(cls, api: Any = None, environ: dict[str, str] | None = None) -> Nvml | None:
        """NVML if nvidia-ml-py is installed and the driver answers, else None (never raises)."""
        try:
            if api is None:
                import pynvml as api  # type: ignore[import-not-found, no-redef]  # optional: nvidia-ml-py, present on GPU machines only
            api.nvmlInit()
        except Exception:
            return None
        return cls(api, environ)

    def _handle(self, index: int) -> Any:
        """NVML's handle for CUDA device `index`, following CUDA_VISIBLE_DEVICES (indices or UUIDs)."""
        if self._visible:
            entries = [e.strip() for e in self._visible.split(",") if e.strip()]
            if index < len(entries):
                entry = entries[index]
                if entry.isdigit():
                    return self.api.nvmlDeviceGetHandleByIndex(int(entry))
                return self.api.nvmlDeviceGetHandleByUUID(entry)
        return self.api.nvmlDeviceGetHandleByIndex(index)

    def sample(self, index: int) -> dict[str, Any] | None:
        """{sm_clock_mhz, mem_clock_mhz, temperature_c, power_w, throttle}; what NVML cannot give is left out."""
        api = self.api
        try:
            h = self._handle(index)
        except Exception:
            return None
        out: dict[str, Any] = {}
        reads = (
            ("sm_clock_mhz", lambda: api.nvmlDeviceGetClockInfo(h, api.NVML_CLOCK_SM)),
            ("mem_clock_mhz", lambda: api.nvmlDeviceGetClockInfo(h, api.NVML_CLOCK_MEM)),
            ("temperature_c", lambda: api.nvmlDeviceGetTemperature(h, api.NVML_TEMPERATURE_GPU)),
            ("power_w", lambda: api.nvmlDeviceGetPowerUsage(h) / 1000.0),
        )
        for key, read in reads:
            try:
                out[key] = float(read())
            except Exception:
                continue
        events = getattr(api, "nvmlDeviceGetCurrentClocksEventReasons", None) or getattr(
            api, "nvmlDeviceGetCurrentClocksThrottleReasons", None
        )
        if events is not None:
            try:
                out["throttle"] = reasons(int(events(h)))
            except Exception:
                pass
        return out or None


def throttle_note(before: dict[str, Any] | None, after: dict[str, Any] | None) -> str | None:
    """'measured while the GPU reported hw_thermal_slowdown' when either sample shows a slowdown, else None."""
    seen = [r for s in (before, after) if s for r in s.get("throttle", []) if r in SLOWDOWN]
    if not seen:
        return None
    return note("main.throttled", reasons=", ".join(dict.fromkeys(seen)))
