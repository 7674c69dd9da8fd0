"""What each device brings to an estimate: its peak FLOP/s, memory, bandwidth, fast-link group, MFU range
and prices.

A catalogue chip's peak is its bf16 dense figure (fp16 where it has no bf16); with strict fp32, its fp32
figure, or on a TPU the bf16 peak over 3 to 6 passes. Its MFU range comes from the catalogue unless the
user sets one; its prices from core.prices (the user's own price wins). A device measured by a probe run
(core.runs) brings its best trusted matmul FLOP/s and memory bandwidth, at an efficiency of 1.0.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from gpu_tpu_app.core.catalog import Catalog, Chip
from gpu_tpu_app.core.estimate.models import EstimateRequest, MeasuredDevice
from gpu_tpu_app.core.prices import PriceBook, Quote, chip_quotes
from gpu_tpu_app.core.texts import text
from gpu_tpu_app.shared.terms import FUNCTIONAL_CHECK, MEMORY_KERNELS, functional_check
from gpu_tpu_app.shared.trust import is_functional_check, trusted_results

#: strict fp32 on a TPU: the matrix units multiply in bf16, so an fp32 product takes 3 (bf16_3x,
#: precision=HIGH) to 6 (precision=HIGHEST) bf16 passes (JAX matmul precision docs).
TPU_FP32_PASSES = (3, 6)
FP32_SOURCES = ["jax-matmul-precision"]

#: a text id of resources/text/estimate.<lang>.toml and its values: words the Estimate keeps in English and
#: the window and the commands say in the language in use
Words = tuple[str, dict[str, str]]


class Device(NamedTuple):
    """One device as a row sees it: peaks at the middle and both ends of the range, memory, bandwidth,
    the largest fast-link group and the share of nominal bandwidth decode reaches."""

    chip_id: str
    name: str
    family: str
    peak: float | None  # at the middle of the range
    peak_low: float | None
    peak_high: float | None
    peak_dtype: str | None
    mem_bw: float | None
    memory: float | None
    domain: int | None
    domain_note: str | None
    share_low: float
    share_high: float
    name_text: Words | None = None  # the name as a text id, for a device the app names (a measured one)
    #: with --dtype float8, why the bf16 peak is used: "same" (its FP8 rate is its bf16 rate) or "none" (no FP8
    #: rate catalogued); None when the FP8 peak is used or FP8 was not asked for
    fp8: str | None = None


Quotes = tuple[Quote | None, Quote | None]
#: one device with its MFU range (low, high), where the range comes from (the catalogue's English words, or a
#: text id with values), and its (price, spot) quotes
DeviceEntry = tuple[Device, float, float, str | Words, Quotes]


def measured_from_run(run: Any) -> list[MeasuredDevice]:
    """One MeasuredDevice per device of a probe run (core.runs.RunFile) with an ok matmul result.

    Its flops is the best median matmul FLOP/s over sizes and dtypes, its bandwidth the best
    bytes-per-second result of the run's memory kernels; suspect, failed, skipped and flagged points
    (core.trust: too noisy, in cache, above a roof) are left out.
    """
    best: dict[str, float] = {}
    bandwidth: dict[str, float] = {}
    for result in trusted_results(run):
        if result.status != "ok" or not result.value or result.value <= 0:
            continue
        if result.kernel == "matmul" and result.metric == "flops":
            best[result.device] = max(best.get(result.device, 0.0), float(result.value))
        elif result.metric == "bytes_per_s" and result.kernel in MEMORY_KERNELS:
            bandwidth[result.device] = max(bandwidth.get(result.device, 0.0), float(result.value))
    devices = []
    for key, flops in best.items():
        info = run.device(key)
        name = shown = info.name if info is not None else key
        if is_functional_check(run):
            shown = text("estimate.row.checked_name", name=name, check=functional_check())
            name += f" ({FUNCTIONAL_CHECK})"
        devices.append(
            MeasuredDevice(
                name=name,
                shown_name=shown if shown != name else None,
                flops=flops,
                memory_bytes=getattr(info, "memory_bytes", None),
                key=key,
                host=getattr(run, "host", None),
                bandwidth=bandwidth.get(key),
            )
        )
    return devices


def _peaks(chip: Chip, req: EstimateRequest) -> tuple[float | None, float | None, float | None, str | None]:
    """(middle, low, high) peak FLOP/s the time uses, and which peak it is.

    bf16 dense (fp16 where a chip has no bf16); with strict fp32, the chip's fp32 figure, or on a
    TPU the bf16 peak over 3 to 6 passes."""
    if req.strict_fp32:
        if chip.family == "tpu":
            bf16 = chip.peak_flops("bfloat16")
            if bf16 is None:
                return None, None, None, None
            few, many = TPU_FP32_PASSES
            return bf16 / ((few + many) / 2), bf16 / many, bf16 / few, f"float32 as {few}-{many} bf16 passes"
        fp32 = chip.peak_flops("float32")
        return fp32, fp32, fp32, "float32" if fp32 is not None else None
    peak, dtype = chip.peak_flops("bfloat16"), "bfloat16"
    if peak is None and chip.peak_flops("float16") is not None:
        peak, dtype = chip.peak_flops("float16"), "float16"
    fp8 = chip.peak_flops("float8") if req.dtype == "float8" else None
    if fp8 is not None and (peak is None or fp8 > peak * 1.01):
        return fp8, fp8, fp8, "float8"
    return peak, peak, peak, dtype if peak is not None else None


def fp8_note(chip: Chip, req: EstimateRequest) -> str | None:
    """With --dtype float8: None when the chip's FP8 peak is used, "same" when its FP8 rate is no faster than
    its bf16 rate (TPU v5p, v6e, Gaudi 3), "none" when the catalogue has no FP8 rate for it."""
    if req.dtype != "float8" or req.strict_fp32:
        return None
    fp8 = chip.peak_flops("float8")
    if fp8 is None:
        return "none"
    bf16 = chip.peak_flops("bfloat16") or chip.peak_flops("float16")
    return "same" if bf16 is not None and fp8 <= bf16 * 1.01 else None


#: a mixture of experts reaches less of the peak than a dense model (all-to-all dispatch, grouped GEMMs of small
#: experts): Megatron-Core on H100 reached 49.3 % MFU on Mixtral 8x22B (8 experts) and 39.0 % on Qwen2-57B-A14B
#: (64 fine-grained experts), Liu et al. 2025, arXiv:2504.14960: the dense range is scaled by 39.0 / 49.3 = 0.79
#: at its low end and kept at its high end.
MOE_DERATE = (39.0 / 49.3, 1.0)
MOE_SOURCES = ["liu-2025-moe-folding"]
#: FP8 training runs end to end 1.25x faster than bf16 on 8 H100 at 8B (torchao float8 with torchtitan, Llama 3 8B:
#: 6,150 -> 7,689.5 tokens/s) and up to 1.5x at 405B on 512 H100, not the 2x of the FP8 peak (scaling, casts and
#: the non-matmul work stay as they were). Where the FP8 peak is used, the bf16 MFU range is scaled by
#: gain x bf16 peak / FP8 peak: on an H100, 1.25 x 989 / 1,979 = 0.62 at the low end, 1.5 x 989 / 1,979 = 0.75 at
#: the high end, so the time is the bf16 time over 1.25-1.5.
FP8_GAIN = (1.25, 1.5)
FP8_SOURCES = ["torchao-float8-2025"]


def fp8_derate(chip: Chip, peak: float | None) -> tuple[float, float] | None:
    """(low, high) MFU factors when `peak` is the chip's FP8 peak: FP8_GAIN x bf16 peak / FP8 peak; None when
    the chip has no bf16 (or fp16) peak to compare with."""
    bf16 = chip.peak_flops("bfloat16") or chip.peak_flops("float16")
    if bf16 is None or not peak:
        return None
    return FP8_GAIN[0] * bf16 / peak, FP8_GAIN[1] * bf16 / peak


def catalog_devices(
    req: EstimateRequest, catalog: Catalog, used_sources: list[str], book: PriceBook | None
) -> list[DeviceEntry]:
    """One entry per catalogue chip; the sources its MFU ranges and the decode share rest on are added to
    `used_sources`."""
    share_low, share_high = (req.bw_share, req.bw_share) if req.bw_share else catalog.decode_share()
    if req.mode == "inference" and req.bw_share is None and catalog.decode is not None:
        used_sources.extend(catalog.decode.sources)
    devices = []
    for chip in catalog.chips:
        peak, peak_low, peak_high, dtype = _peaks(chip, req)
        mfu_source: str | Words
        if req.mfu is not None:
            low = high = req.mfu
            mfu_source = ("estimate.row.mfu_user", {})
        else:
            low, high, mfu_source, mfu_sources = catalog.mfu_for(chip)
            used_sources.extend(mfu_sources)
            if req.active_params is not None and req.active_params < req.params:
                low, high = low * MOE_DERATE[0], high * MOE_DERATE[1]
                mfu_source = (
                    "estimate.row.mfu_moe",
                    {"dense": mfu_source, "derate": f"{MOE_DERATE[0]:.2f}", "sources": ", ".join(MOE_SOURCES)},
                )
                used_sources.extend(MOE_SOURCES)
            derate = fp8_derate(chip, peak) if dtype == "float8" else None
            if derate is not None:
                low, high = low * derate[0], high * derate[1]
                mfu_source = (
                    "estimate.row.mfu_fp8",
                    {
                        "dense": mfu_source if isinstance(mfu_source, str) else text(mfu_source[0], **mfu_source[1]),
                        "low": f"{derate[0]:.3f}",
                        "high": f"{derate[1]:.3f}",
                        "gain_low": f"{FP8_GAIN[0]:g}",
                        "gain_high": f"{FP8_GAIN[1]:g}",
                        "sources": ", ".join(FP8_SOURCES),
                    },
                )
                used_sources.extend(FP8_SOURCES)
        if dtype == "float8":
            fig = chip.fp8
            if fig is not None:
                used_sources.append(fig.source)
        dev = Device(
            chip.id,
            chip.name,
            chip.family,
            peak,
            peak_low,
            peak_high,
            dtype,
            chip.mem_bw_bytes_per_s(),
            chip.memory_bytes(),
            chip.domain_chips(),
            chip.domain.note if chip.domain is not None else None,
            share_low,
            share_high,
            fp8=fp8_note(chip, req),
        )
        quotes = chip_quotes(book, chip.id, req.prices.get(chip.id), req.price_cloud, req.price_region)
        devices.append((dev, low, high, mfu_source, quotes))
    return devices


def measured_devices(measured: list[MeasuredDevice] | None) -> list[DeviceEntry]:
    """One entry per measured device: its measured FLOP/s as every peak, at an efficiency of 1.0, unpriced."""
    devices: list[DeviceEntry] = []
    for device in measured or []:
        dev = Device(
            f"measured:{device.key or device.name}",
            text("estimate.row.measured_name", language="en", name=device.name),
            "measured",
            device.flops,
            device.flops,
            device.flops,
            "measured",
            device.bandwidth,
            device.memory_bytes,
            None,
            None,
            1.0,
            1.0,
            ("estimate.row.measured_name", {"name": device.shown_name or device.name}),
        )
        where: Words = (
            ("estimate.row.mfu_measured_on", {"host": device.host})
            if device.host
            else ("estimate.row.mfu_measured_here", {})
        )
        devices.append((dev, 1.0, 1.0, where, (None, None)))
    return devices
