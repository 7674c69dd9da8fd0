"""Compiled for TPU generations: what the TPU compiler said about the user's model, per generation.

The model-check worker compiles the forward pass (and `train_step`, when the model file defines one)
with the real TPU compiler (`libtpu`, through `jax.experimental.topologies`) on this CPU host, for
each TPU generation of the catalogue that names a compile target, at the chip count the user picked.
This module validates what it sends (`TpuCompile`), works out the roofline step time each compiled
program implies on its chip (`roofline`, from the catalogue's bf16 peak and memory bandwidth) and
words the per-generation table (`table_rows`, `render_table`). Pure: no Qt, no torch, no jax.

Field names are the contract with the estimator: every byte and flop figure is **per chip** (the
worker adds up the devices of one chip; TPU7x lists two devices per chip), taken from the compiled
program's `memory_analysis()` and `cost_analysis()`.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from gpu_tpu_app import i18n
from gpu_tpu_app.core.catalog import Catalog, Chip
from gpu_tpu_app.core.check_limits import MAX_CHIPS
from gpu_tpu_app.core.note_model import Said, said
from gpu_tpu_app.core.texts import text
from gpu_tpu_app.safe_read import NAME_CHARS
from gpu_tpu_app.shared.cliutil import display_width, pad
from gpu_tpu_app.shared.units import compact, plain_number

__all__ = [
    "FAILURES",
    "FLOAT64_NOTE",
    "MAX_CHIPS",
    "REPORT_HEADER",
    "TABLE_HEADERS",
    "CompiledProgram",
    "Failure",
    "GenerationCompile",
    "Roofline",
    "TableRow",
    "TpuCompile",
    "caveat_lines",
    "caveats",
    "compiled_generations",
    "failure_words",
    "generation_name",
    "headline",
    "next_step",
    "render_table",
    "report_section",
    "roofline",
    "table_rows",
    "targets",
]


_Text = Field(default="", max_length=2000)
_Bytes = Field(default=None, ge=0, le=2**63 - 1)
_Count = Field(default=None, ge=0, allow_inf_nan=False)


class _Model(BaseModel):
    # the README's limits on what the app reads: a text without its own limit is a name (NAME_CHARS),
    # numbers are finite
    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False, str_max_length=NAME_CHARS)


ProgramStatus = Literal["compiled", "does_not_fit", "failed"]
#: why something did not compile, one of four (text, JSON and the window say the same): the check's time ran
#: out; the check's own limit (a route or placement it cannot do: not the model's fault); the TPU compiler
#: rejected the model's program (its first error line is the detail); the compiler was never run (why).
Failure = Literal["timed_out", "check_limit", "model_failed", "not_run"]
FAILURES: tuple[str, ...] = ("timed_out", "check_limit", "model_failed", "not_run")


class CompiledProgram(_Model):
    """One program (the forward pass or the training step) compiled for one generation, per chip."""

    program: Literal["forward", "train_step"]
    #: compiled; does_not_fit: the compiler's RESOURCE_EXHAUSTED (HBM); failed: any other compiler error.
    status: ProgramStatus
    #: the compiler's own message when it did not compile (first lines, bounded).
    detail: str = _Text
    #: which of the four failures it was (FAILURES), when status is failed.
    failure: Failure | None = None
    compile_seconds: float | None = _Count
    #: memory_analysis(), per chip: the program's arguments, outputs, temporaries, argument buffers the
    #: outputs reuse (aliases) and the generated code.
    argument_bytes: int | None = _Bytes
    output_bytes: int | None = _Bytes
    temp_bytes: int | None = _Bytes
    alias_bytes: int | None = _Bytes
    code_bytes: int | None = _Bytes
    #: cost_analysis(), per chip: floating-point operations, bytes moved to and from memory, transcendentals.
    flops: float | None = _Count
    bytes_accessed: float | None = _Count
    transcendentals: float | None = _Count
    #: cost_analysis()'s own FLOPs when `flops` is the jaxpr's count instead (loops, Mosaic kernels).
    xla_flops: float | None = _Count
    #: trip counts of the static loops (scan, fori_loop) whose bodies `flops` multiplies in.
    loop_trips: list[int] = Field(default_factory=list, max_length=20)
    #: a loop whose trip count is known only at run time: its body is counted once (figures are a lower bound).
    dynamic_loops: bool = False
    #: Pallas kernels: compiled by Mosaic for the TPU, or compiled as their interpreter's emulation.
    pallas: Literal["mosaic", "emulated"] | None = None
    #: Mosaic's error when it refused the kernel and the emulation was compiled instead.
    pallas_error: str = Field(default="", max_length=300)
    #: the floating-point type the program computes in when it differs from the model's (float64 as float32).
    compiled_dtype: str | None = Field(default=None, max_length=20)

    def hbm_bytes(self) -> int | None:
        """HBM the program needs per chip: arguments + outputs + temporaries + code, less the aliased buffers."""
        parts = (self.argument_bytes, self.output_bytes, self.temp_bytes)
        if any(p is None for p in parts):
            return None
        total = sum(p for p in parts if p is not None) + (self.code_bytes or 0) - (self.alias_bytes or 0)
        return max(0, total)


class GenerationCompile(_Model):
    """Everything compiled for one TPU generation at the chosen chip count."""

    #: the catalogue chip id (resources/catalog/chips.toml), e.g. "tpu-v5e".
    chip: str = Field(max_length=60)
    #: the topology compiled for, as jax names it, e.g. "v5e:2x2".
    topology: str = Field(max_length=60)
    chips: int = Field(ge=1, le=MAX_CHIPS)
    #: the TPU devices the topology lists (TPU7x: two per chip).
    devices: int = Field(default=0, ge=0, le=4 * MAX_CHIPS)
    device_kind: str = Field(default="", max_length=100)
    #: how the inputs were laid out over the devices (batch axis sharded, or replicated and why).
    sharding: str = _Text
    #: compiled: every program compiled; does_not_fit: one ran out of HBM; failed: the topology or a program
    #: failed for another reason (detail says which).
    status: ProgramStatus
    detail: str = _Text
    #: which of the four failures it was (FAILURES), when status is failed.
    failure: Failure | None = None
    #: the file placed its program on the devices it found when loaded (a Mesh of CPU devices): loaded again with
    #: this topology's TPU devices as jax.devices() (given_tpu_devices), or it still could not be placed.
    mesh: Literal["given_tpu_devices", "cannot_place"] | None = None
    programs: list[CompiledProgram] = Field(default_factory=list, max_length=4)
    #: the notes of its text fields, so they show in the language in use (core.note_model.said)
    said: Said = Field(default_factory=dict)

    def reason(self) -> str:
        """Why it did not compile: the generation's detail, else the first failed program's, else the status."""
        return self.detail or next(
            (p.detail for p in self.programs if p.status != "compiled" and p.detail), self.status
        )

    def failure_kind(self) -> Failure | None:
        """Which of the four failures stopped it (None when every program compiled or one did not fit): its
        own, else its first failed program's; a result saved before the four were told apart says the
        check's limit, since nothing in it shows the model's code to be the cause."""
        if self.status != "failed":
            return None
        if self.failure is not None:
            return self.failure
        first = next((p for p in self.programs if p.status == "failed"), None)
        return (first.failure if first is not None else None) or "check_limit"

    def program(self, name: str) -> CompiledProgram | None:
        """The forward or train_step program, when it was compiled or tried."""
        return next((p for p in self.programs if p.program == name), None)


class TpuCompile(_Model):
    """The TPU compile step of one model check."""

    #: ok: the TPU compiler ran (each generation has its own outcome); unavailable: libtpu is not
    #: installed or does not import in the checking interpreter; failed: the compiler's process failed.
    status: Literal["ok", "unavailable", "failed"]
    detail: str = _Text
    #: which of the four failures it was (FAILURES) when status is not ok.
    failure: Failure | None = None
    #: how the program reached the compiler, e.g. "jax.jit(forward).lower(...).compile()".
    route: str = Field(default="", max_length=300)
    libtpu: str | None = Field(default=None, max_length=60)
    #: the TPU compiler's one-off start-up in the child process (a trivial program), not in any generation's time.
    startup_seconds: float | None = _Count
    chips: int = Field(default=1, ge=1, le=MAX_CHIPS)
    generations: list[GenerationCompile] = Field(default_factory=list, max_length=20)
    #: the notes of its text fields, so they show in the language in use (core.note_model.said)
    said: Said = Field(default_factory=dict)

    def generation(self, chip_id: str) -> GenerationCompile | None:
        """The outcome for one catalogue chip id."""
        return next((g for g in self.generations if g.chip == chip_id), None)

    def failure_kind(self) -> Failure | None:
        """Which of the four failures stopped the whole step (None when it ran): unavailable is not run."""
        if self.status == "ok":
            return None
        return self.failure or ("not_run" if self.status == "unavailable" else "check_limit")


def failure_words(failure: str, language: str | None = None) -> str:
    """One of the four failures in words ("timed out", "the check's limit", ...)."""
    return text(f"modelcheck.table.failure.{failure}", language=language)


def next_step(failure: str, language: str | None = None) -> str:
    """What the user can do after one of the four failures."""
    return text(f"modelcheck.table.next.{failure}", language=language)


def _program_failure(p: CompiledProgram, g: GenerationCompile) -> str:
    return p.failure or g.failure or "check_limit"


def compiled_generations(tc: TpuCompile | None) -> list[GenerationCompile]:
    """The generations whose forward pass compiled (whether or not it fits in HBM is the compiler's other answer)."""
    if tc is None or tc.status != "ok":
        return []
    out = []
    for g in tc.generations:
        fwd = g.program("forward")
        if fwd is not None and fwd.status == "compiled":
            out.append(g)
    return out


# --------------------------------------------------------------------------- the catalogue's compile targets


def targets(catalog: Catalog) -> list[dict[str, object]]:
    """The TPU generations to compile for, as the worker takes them: id, topology name and torus dimensions."""
    out: list[dict[str, object]] = []
    for chip in catalog.chips:
        if chip.family == "tpu" and chip.compile_target is not None:
            out.append({"id": chip.id, "topology": chip.compile_target.topology, "dims": chip.compile_target.dims})
    return out


# --------------------------------------------------------------------------- roofline


class Roofline(_Model):
    """The step time a compiled program's flops and bytes imply on one chip at its catalogue peaks."""

    seconds: float = Field(ge=0)
    compute_seconds: float = Field(ge=0)
    memory_seconds: float = Field(ge=0)
    bound: Literal["compute", "memory"]
    peak_flops: float = Field(gt=0)
    mem_bw: float = Field(gt=0)
    #: the catalogue's sources for the two peaks.
    sources: list[str] = Field(default_factory=list, max_length=4)


def roofline(program: CompiledProgram, chip: Chip) -> Roofline | None:
    """max(flops / bf16 peak, bytes accessed / memory bandwidth) per chip; None without the figures.

    The bf16 peak is the TPU's matrix-unit rate: the catalogue has no FP32 peak for any TPU (float32
    matmuls at JAX's default precision run as bf16 passes), so float32 work is timed at it too.
    """
    peak = chip.peak_flops("bfloat16")
    bw = chip.mem_bw_bytes_per_s()
    if program.status != "compiled" or program.flops is None or program.bytes_accessed is None or not peak or not bw:
        return None
    compute = program.flops / peak
    memory = program.bytes_accessed / bw
    return Roofline(
        seconds=max(compute, memory),
        compute_seconds=compute,
        memory_seconds=memory,
        bound="compute" if compute >= memory else "memory",
        peak_flops=peak,
        mem_bw=bw,
        sources=list(dict.fromkeys([chip.bf16.source, chip.mem_bw.source])),
    )


# --------------------------------------------------------------------------- the table


def _bytes(n: float | None) -> str:
    if n is None:
        return "—"
    for unit, size in (("GiB", 2**30), ("MiB", 2**20), ("KiB", 2**10)):
        if n >= size:
            return f"{plain_number(n / size)} {unit}"
    return f"{int(n)} B"


def _seconds(s: float | None) -> str:
    if s is None:
        return "—"
    if s >= 1:
        return f"{plain_number(s)} s"
    if s >= 1e-3:
        return f"{s * 1e3:.3g} ms"
    return f"{s * 1e6:.3g} µs"


class TableRow(_Model):
    """One row of the per-generation table, already worded (the result page, the report and the CLI)."""

    generation: str
    topology: str
    program: str
    outcome: str  # in words ("compiled", "已编译"); `status` is the id
    compile_time: str
    arguments: str
    outputs: str
    temporaries: str
    fits: str
    flops: str
    bytes_accessed: str
    step_time: str
    #: the compiler's reason or the roofline's working, for a tooltip or a footnote.
    note: str = ""
    #: the program's status id: compiled, does_not_fit or failed.
    status: str = "failed"
    #: why a compiled row's figures are not simply the compiler's (loops multiplied in, a lower bound, a Pallas
    #: kernel, another precision), worded; the table shows each once with the generations it applies to.
    caveats: list[str] = Field(default_factory=list)


def caveats(p: CompiledProgram, language: str | None = None) -> list[str]:
    """Why a compiled program's figures differ from cost_analysis()'s, or are not exact, in words."""

    def t(key: str, **values: object) -> str:
        return text(f"modelcheck.table.caveat.{key}", language=language, **values)

    out = []
    if p.loop_trips and p.flops is not None and p.xla_flops != p.flops:
        trips = ", ".join(str(n) for n in p.loop_trips[:8])
        out.append(t("loops", trips=trips, xla=compact(p.xla_flops) if p.xla_flops is not None else "—"))
    elif p.loop_trips:
        out.append(t("loops_kept", trips=", ".join(str(n) for n in p.loop_trips[:8])))
    if p.dynamic_loops:
        out.append(t("dynamic"))
    if p.pallas == "mosaic":
        out.append(t("pallas_mosaic"))
    elif p.pallas == "emulated":
        out.append(t("pallas_emulated", error=p.pallas_error or "—"))
    if p.compiled_dtype:
        out.append(t("precision", dtype=p.compiled_dtype))
    return out


def _grouped(rows: list[TableRow]) -> list[tuple[str, list[str]]]:
    """Each caveat once, with the generations (and programs) it applies to, in the order met."""
    seen: dict[str, list[str]] = {}
    for r in rows:
        for c in r.caveats:
            names = seen.setdefault(c, [])
            name = f"{r.generation} {r.program}"
            if name not in names:
                names.append(name)
    return list(seen.items())


def caveat_lines(rows: list[TableRow]) -> list[str]:
    """The rows' caveats as lines, each once: "TPU v5e forward, TPU v6e forward: <caveat>"."""
    return [f"{', '.join(names)}: {c}" for c, names in _grouped(rows)]


TABLE_HEADERS: tuple[str, ...] = (
    "Generation",
    "Topology",
    "Program",
    "Outcome",
    "Compile",
    "Arguments / chip",
    "Outputs / chip",
    "Temporaries / chip",
    "Fits in HBM",
    "FLOPs / chip",
    "Bytes accessed / chip",
    "Roofline step",
)


#: TABLE_HEADERS' ids in resources/text/modelcheck.<language>.toml ([table.column]), in the same order.
COLUMN_IDS: tuple[str, ...] = (
    "generation", "topology", "program", "outcome", "compile", "arguments", "outputs", "temporaries", "fits",
    "flops", "bytes", "step",
)  # fmt: skip


def column_words(language: str | None = None) -> list[str]:
    """The window's compile-table columns in the language in use (TABLE_HEADERS in English)."""
    return [text(f"modelcheck.table.column.{c}", language=language) for c in COLUMN_IDS]


def generation_name(catalog: Catalog | None, chip_id: str) -> tuple[str, Chip | None]:
    """The generation's short name ("TPU v5e", "TPU7x") and its catalogue entry (None when not catalogued)."""
    chip = next((c for c in catalog.chips if c.id == chip_id), None) if catalog is not None else None
    if chip is None:
        return chip_id, None
    return chip.name.removeprefix("Google ").split(" (")[0], chip


def _close(language: str | None) -> str:
    return "）" if (language or i18n.current_language()) == "zh-Hans" else ")"


def table_rows(
    tc: TpuCompile, catalog: Catalog | None, float64: bool = False, language: str | None = None
) -> list[TableRow]:
    """One row per generation and program: the compiler's outcome and figures, and the roofline step time
    (marked with * for a float64 model: see FLOAT64_NOTE); its words in `language` (None: the one in use)."""

    def cell(key: str, **values: object) -> str:
        return text(f"modelcheck.table.cell.{key}", language=language, **values)

    rows: list[TableRow] = []
    for g in tc.generations:
        name, chip = generation_name(catalog, g.chip)
        topology = cell("topology_one" if g.chips == 1 else "topology_other", topology=g.topology, chips=g.chips)
        topology += (
            cell("topology_devices", devices=g.devices) if g.devices and g.devices != g.chips else _close(language)
        )
        programs: list[CompiledProgram | None] = list(g.programs) or [None]
        for p in programs:
            if p is None:
                rows.append(
                    TableRow(
                        generation=name,
                        topology=topology,
                        program="—",
                        outcome=failure_words(g.failure_kind() or "check_limit", language),
                        compile_time="—",
                        arguments="—",
                        outputs="—",
                        temporaries="—",
                        fits="—",
                        flops="—",
                        bytes_accessed="—",
                        step_time="—",
                        note=_with_next(g.detail, g.failure_kind() or "check_limit", language),
                    )
                )
                continue
            roof = roofline(p, chip) if chip is not None else None
            hbm = chip.memory_bytes() if chip is not None else None
            need = p.hbm_bytes()
            if p.status == "does_not_fit":
                fits = cell("fits_no")
            elif p.status == "compiled" and need is not None and hbm:
                fits = cell("fits_of", need=_bytes(need), hbm=_bytes(hbm))
            elif p.status == "compiled":
                fits = cell("fits_yes")
            else:
                fits = "—"
            note = p.detail
            if p.status == "failed":
                note = _with_next(p.detail, _program_failure(p, g), language)
            if roof is not None:
                note = (
                    f"{roof.bound}-bound: {plain_number(p.flops)} FLOPs / {roof.peak_flops / 1e12:g} TFLOP/s (bf16 peak) = "
                    f"{_seconds(roof.compute_seconds)}; {_bytes(p.bytes_accessed)} / {roof.mem_bw / 1e9:g} GB/s = "
                    f"{_seconds(roof.memory_seconds)} (catalogue: {', '.join(roof.sources)})"
                )
            mesh = [text(f"modelcheck.table.mesh.{g.mesh}", language=language)] if g.mesh else []
            if p.status == "failed" and g.mesh == "cannot_place":
                note = f"{mesh[0]} ({p.detail})"
            rows.append(
                TableRow(
                    generation=name,
                    topology=topology,
                    program=p.program,
                    outcome=cell(p.status) if p.status != "failed" else failure_words(_program_failure(p, g), language),
                    status=p.status,
                    compile_time=_seconds(p.compile_seconds),
                    arguments=_bytes(p.argument_bytes),
                    outputs=_bytes(p.output_bytes),
                    temporaries=_bytes(p.temp_bytes),
                    fits=fits,
                    flops=(("≥" if p.dynamic_loops else "") + compact(p.flops)) if p.flops is not None else "—",
                    bytes_accessed=_bytes(p.bytes_accessed),
                    # float64's emulation mark only on a program compiled in float64 (not one narrowed to float32)
                    step_time=(
                        ("≥" if p.dynamic_loops else "")
                        + _seconds(roof.seconds)
                        + ("*" if float64 and not p.compiled_dtype else "")
                    )
                    if roof is not None
                    else "—",
                    note=note,
                    caveats=(mesh + caveats(p, language)) if p.status == "compiled" else [],
                )
            )
    return rows


def _with_next(detail: str, failure: str, language: str | None) -> str:
    step = next_step(failure, language)
    return f"{detail} ({step})" if detail else step


def headline(tc: TpuCompile | None) -> str:
    """One line: what the TPU compiler did, for the check's summary."""
    if tc is None:
        return "not tried"
    if tc.status != "ok":
        return tc.detail or tc.status
    done = [g.topology for g in compiled_generations(tc)]
    return (
        f"compiled for {', '.join(done)} of {len(tc.generations)} generation(s)"
        if done
        else f"compiled for none of {len(tc.generations)} generation(s)"
    )


FLOAT64_NOTE = text("modelcheck.table.float64", language="en")


def render_table(
    tc: TpuCompile, catalog: Catalog | None, float64: bool = False, language: str | None = None
) -> list[str]:
    """The per-generation table as plain-text lines (the CLI's text output); its own words from
    resources/text/modelcheck.<language>.toml (None: the interface language), the compiler's as they are."""

    def t(key: str, **values: object) -> str:
        return text(f"modelcheck.table.{key}", language=language, **values)

    if tc.status != "ok":
        failure = tc.failure_kind() or "not_run"
        return [
            t("not_ok", status=failure_words(failure, language)),
            f"  {said(tc, 'detail', language)}",
            f"  {next_step(failure, language)}",
        ]
    startup = t("startup", seconds=_seconds(tc.startup_seconds)) if tc.startup_seconds else ""
    chips = t("chips_one" if tc.chips == 1 else "chips_other", n=tc.chips)
    lines = [t("title", route=said(tc, "route", language), libtpu=tc.libtpu or "?", chips=chips, startup=startup)]
    rows = table_rows(tc, catalog, float64, language)
    cols = [
        ("generation", "generation"),
        ("program", "program"),
        ("outcome", "outcome"),
        ("compile_time", "compile"),
        ("arguments", "arguments"),
        ("outputs", "outputs"),
        ("temporaries", "temporaries"),
        ("fits", "fits"),
        ("flops", "flops"),
        ("bytes_accessed", "bytes"),
        ("step_time", "step"),
    ]
    cells = [[t(f"head.{h}") for _, h in cols]] + [[getattr(r, k) for k, _ in cols] for r in rows]
    widths = [max(display_width(c[i]) for c in cells) for i in range(len(cols))]  # Chinese takes two columns
    for c in cells:
        lines.append("  " + "  ".join(pad(v, w) for v, w in zip(c, widths)).rstrip())
    layouts: dict[str, list[str]] = {}
    for g in tc.generations:
        if g.sharding:
            layouts.setdefault(said(g, "sharding", language), []).append(generation_name(catalog, g.chip)[0])
    for layout, names in layouts.items():
        lines.append("  " + t("layout", names=", ".join(names), layout=layout))
    for r in rows:
        if r.status != "compiled" and r.note:
            lines.append(f"  {r.generation} {r.program}: {r.note}")
    lines += [f"  {line}" for line in caveat_lines(rows)]
    if float64 and any(r.step_time.endswith("*") for r in rows):
        lines.append(f"  * {t('float64')}")
    lines.append("  " + t("figures"))
    return lines


#: the report's columns (fewer than the CLI's, so the table fits a PDF page).
REPORT_HEADER: tuple[str, ...] = (
    "Generation",
    "Program",
    "Outcome",
    "Compile",
    "Per chip: arguments / outputs / temporaries",
    "Fits in HBM",
    "FLOPs / chip",
    "Bytes / chip",
    "Roofline step",
)


def route_words(tc: TpuCompile, language: str | None = None) -> str:
    """How the programs were compiled, in the user's words (the worker's call chain, "torchax.extract_jax, then
    jax.jit(...).lower(<shapes with shardings>).compile()", is for the CLI's detail, not for reasons or a report)."""
    key = "route_torchax" if "torchax" in tc.route else "route_jax"
    return text(f"modelcheck.compiled.{key}", language=language)


def report_section(
    tc: TpuCompile, catalog: Catalog | None, float64: bool = False
) -> tuple[str, list[list[str]], list[str]]:
    """The report's section: (intro, rows under REPORT_HEADER, notes: layouts, reasons, how it was computed)."""
    if tc.status != "ok":
        return f"Not compiled for TPU generations: {tc.detail}", [], []
    intro = (
        f"Compiled by the TPU compiler (libtpu {tc.libtpu or '?'}) on this computer, without a TPU, for "
        f"{tc.chips} chip{'s' if tc.chips != 1 else ''} of each generation; {route_words(tc, 'en')}."
    )
    rows = [
        [
            f"{r.generation} ({r.topology})",
            r.program,
            r.outcome,
            r.compile_time,
            f"{r.arguments} / {r.outputs} / {r.temporaries}",
            r.fits,
            r.flops,
            r.bytes_accessed,
            r.step_time,
        ]
        for r in table_rows(tc, catalog, float64)
    ]
    notes = [line.strip().removeprefix("* ") for line in render_table(tc, catalog, float64)[len(rows) + 2 :]]
    return intro, rows, notes
