"""Estimator rows from the user's own model as the TPU compiler compiled it (a model check's TPU step).

Beside the rows from the parameter count, each TPU generation the model check compiled for gets a
row of its own: whether the compiled program fits the chip's HBM (the compiler's own per-chip
memory), the roofline step time its own FLOPs and bytes imply at the catalogue's peaks
(core.tpu_compile.roofline, a best case), and that step time times the steps the user means to
run. Each such row says it is the compiled model's ("your model, compiled"); the chip count is
the one the check compiled for.
"""

from __future__ import annotations

from gpu_tpu_app.core.catalog import Catalog
from gpu_tpu_app.core.estimate.models import ChipEstimate, EstimateRequest
from gpu_tpu_app.core.texts import text
from gpu_tpu_app.core.tpu_compile import CompiledProgram, GenerationCompile, TpuCompile, roofline
from gpu_tpu_app.shared.units import SECONDS_PER_DAY

#: how a compiled row is named and what it rests on (resources/text/estimate.<lang>.toml [row], [compiled])
COMPILED_FAMILY = "compiled"
COMPILED_NAME = "estimate.row.compiled_name"


def _program(gen: GenerationCompile, training: bool) -> CompiledProgram | None:
    """The training step when training and the check compiled one, else the forward pass."""
    if training:
        step = gen.program("train_step")
        if step is not None:
            return step
    return gen.program("forward")


def _kind(program: CompiledProgram) -> str:
    """The id part that names the program: the training step or the forward pass."""
    return "train" if program.program == "train_step" else "forward"


def _english(ident: str, values: dict[str, str]) -> str:
    return text(ident, language="en", **values)


def compiled_rows(tc: TpuCompile | None, catalog: Catalog, req: EstimateRequest) -> list[ChipEstimate]:
    """One row per TPU generation the check compiled for that the catalogue knows; none without a compile."""
    if tc is None or tc.status != "ok":
        return []
    rows = []
    for gen in tc.generations:
        chip = next((c for c in catalog.chips if c.id == gen.chip), None)
        program = _program(gen, req.mode == "training")
        if chip is None or program is None:
            continue
        hbm = program.hbm_bytes()
        memory = chip.memory_bytes()
        if program.status == "does_not_fit":
            fits: bool | None = False
        elif program.status == "compiled" and hbm is not None and memory is not None:
            fits = hbm <= memory
        else:
            fits = None
        line = roofline(program, chip)
        step = line.seconds if line is not None else None
        days = step * req.steps / SECONDS_PER_DAY if (step is not None and req.steps) else None
        warnings: list[tuple[str, dict[str, str]]] = []
        if program.status != "compiled":
            reason = gen.reason().rstrip(". ")
            warnings.append((f"estimate.compiled.not_compiled_{_kind(program)}", {"reason": reason}))
        if req.steps is None and step is not None:
            warnings.append(("estimate.compiled.give_steps", {}))
        # why the compiled figures are not exact (core.tpu_compile.caveats): said with the row they feed
        if program.status == "compiled" and program.dynamic_loops:
            warnings.append(("estimate.compiled.lower_bound", {}))
        if program.status == "compiled" and program.compiled_dtype:
            warnings.append(("estimate.compiled.narrowed", {"dtype": program.compiled_dtype}))
        if program.status == "compiled" and program.pallas == "emulated":
            warnings.append(("estimate.compiled.emulated", {}))
        name = (COMPILED_NAME, {"chip": chip.name})
        many = "one" if gen.chips == 1 else "many"
        source = (f"estimate.compiled.mfu_{_kind(program)}_{many}", {"chips": f"{gen.chips:,}"})
        rows.append(
            ChipEstimate(
                chip_id=f"compiled:{chip.id}",
                chip_name=_english(*name),
                chip_name_text=name,
                family=COMPILED_FAMILY,
                peak_flops=line.peak_flops if line is not None else chip.peak_flops("bfloat16"),
                peak_dtype="bfloat16",
                mfu=1.0,
                mfu_low=1.0,
                mfu_high=1.0,
                mfu_source=_english(*source),
                mfu_source_text=source,
                days=days,
                days_low=days,
                days_high=days,
                bound=line.bound if line is not None else None,
                fits=fits,
                memory_needed_bytes=float(hbm * gen.chips) if hbm is not None else None,
                memory_available_bytes=memory * gen.chips if memory is not None else None,
                chip_memory_bytes=memory,
                chip_memory_stated=f"{chip.memory.value:g} {chip.memory.unit}" if chip.memory.value else None,
                chips_per_copy=gen.chips,
                copies=1,
                mem_bw=chip.mem_bw_bytes_per_s(),
                step_seconds=step,
                per_chip_bytes=float(hbm) if hbm is not None else None,
                warnings=[_english(*w) for w in warnings],
                warning_texts=warnings,
                cost_usd=None,
            )
        )
    return rows
