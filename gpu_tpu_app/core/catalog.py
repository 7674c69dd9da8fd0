"""The accelerator catalogue: vendor figures per chip, each with its unit and source.

Loaded from resources/catalog/chips.toml. Compute figures are dense unless the field says
sparse; a figure the vendor does not publish is an explicit null with a reason, never a
guess. Memory keeps the vendor's own unit (GB or GiB) and is converted only on request.
The catalogue's words (links, notes, reasons, MFU evidence) are English here; other languages
sit in a file beside it, chips.<language>.toml (core.catalog_text), read by `Catalog.words`.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, PrivateAttr, field_validator, model_validator
from pydantic_core import PydanticCustomError

from gpu_tpu_app import i18n
from gpu_tpu_app.core import catalog_text
from gpu_tpu_app.errors import problem_error, supported_version
from gpu_tpu_app.safe_read import read_toml_model

SCHEMA_VERSION = 1
#: the file format version this app reads, checked on load.
SchemaVersion = Annotated[int, AfterValidator(supported_version(SCHEMA_VERSION))]

#: Strings that stand for a null figure in the TOML file (TOML has no null).
MISSING_WORDS = ("not published", "not supported")

#: Unit -> multiplier to SI (FLOP/s, OP/s, bytes, bytes/s, watts).
FLOPS_UNITS = {"TFLOP/s": 1e12, "PFLOP/s": 1e15}
OPS_UNITS = {"TOPS": 1e12, "POPS": 1e15}
MEMORY_UNITS = {"GB": 1e9, "GiB": float(2**30), "TB": 1e12, "TiB": float(2**40)}
BANDWIDTH_UNITS = {"GB/s": 1e9, "TB/s": 1e12, "GiB/s": float(2**30)}
POWER_UNITS = {"W": 1.0}
COUNT_UNITS = {"chips": 1.0}
CACHE_UNITS = {"MiB": float(2**20), "MB": 1e6}

#: Chip field -> allowed units.
FIELD_UNITS: dict[str, dict[str, float]] = {
    "memory": MEMORY_UNITS,
    "mem_bw": BANDWIDTH_UNITS,
    "bf16": FLOPS_UNITS,
    "bf16_sparse": FLOPS_UNITS,
    "bf16_achievable": FLOPS_UNITS,
    "fp16": FLOPS_UNITS,
    "fp32": FLOPS_UNITS,
    "tf32": FLOPS_UNITS,
    "fp8": FLOPS_UNITS,
    "fp64": FLOPS_UNITS,
    "fp64_matrix": FLOPS_UNITS,
    "int8": OPS_UNITS,
    "power": POWER_UNITS,
    "domain": COUNT_UNITS,
    "llc": CACHE_UNITS,
}

#: A chip's fields that hold words (shown to people, so translated beside the catalogue: core.catalog_text).
TEXT_FIELDS = frozenset(
    {"interconnect", "mfu.note"} | {f"{field}.{part}" for field in FIELD_UNITS for part in ("note", "reason")}
)

#: dtype names (as torch / jax / users write them) -> dense Chip field.
DTYPE_FIELDS: dict[str, str] = {
    "float32": "fp32",
    "fp32": "fp32",
    "f32": "fp32",
    "float": "fp32",
    "bfloat16": "bf16",
    "bf16": "bf16",
    "float16": "fp16",
    "fp16": "fp16",
    "f16": "fp16",
    "half": "fp16",
    "tf32": "tf32",
    "tensorfloat32": "tf32",
    "float8": "fp8",
    "fp8": "fp8",
    "float64": "fp64",
    "fp64": "fp64",
    "f64": "fp64",
    "double": "fp64",
}

_FROZEN = ConfigDict(extra="forbid", frozen=True)


class Figure(BaseModel):
    """One published figure: value in `unit`, from source id `source`.

    value None means the vendor gives no figure; `missing` says whether it is not published
    or not supported, and `reason` says why. `note` qualifies a present value.
    """

    model_config = _FROZEN

    value: float | None = Field(ge=0, allow_inf_nan=False)
    unit: str = Field(min_length=1)
    source: str = Field(min_length=1)
    reason: str | None = None
    missing: Literal["not published", "not supported"] | None = None
    note: str | None = None

    @model_validator(mode="before")
    @classmethod
    def _missing_word(cls, data: Any) -> Any:
        if isinstance(data, dict) and isinstance(data.get("value"), str):
            word = data["value"].strip().lower()
            if word not in MISSING_WORDS:
                raise PydanticCustomError(
                    "figure_value",
                    "value must be a number or one of: {words}",
                    {"words": ", ".join(repr(w) for w in MISSING_WORDS)},
                )
            data = {**data, "value": None, "missing": data.get("missing", word)}
        elif isinstance(data, dict) and isinstance(data.get("value"), bool):
            raise PydanticCustomError("figure_value", "value must be a number, not true or false")
        elif isinstance(data, dict) and "value" in data and data["value"] is None and "missing" not in data:
            data = {**data, "missing": "not published"}
        return data

    @model_validator(mode="after")
    def _reason_iff_null(self) -> Figure:
        if self.value is None and not (self.reason and self.reason.strip()):
            raise PydanticCustomError(
                "figure_reason", "a figure that is {missing} needs a reason", {"missing": self.missing}
            )
        if self.value is not None and self.reason is not None:
            raise PydanticCustomError("figure_reason", "reason is only for a null value (use note to qualify a value)")
        if self.value is not None and self.missing is not None:
            raise PydanticCustomError("figure_reason", "missing is only for a null value")
        return self

    def si(self, units: dict[str, float]) -> float | None:
        """The value in SI units (FLOP/s, bytes, B/s ...), using the given unit table."""
        if self.value is None:
            return None
        return self.value * units[self.unit]

    def display(self, short: bool = False) -> str:
        """'989 TFLOP/s', or 'not published' ('n/p' when short)."""
        if self.value is None:
            word = self.missing or "not published"
            return ("n/p" if word == "not published" else "n/s") if short else word
        return f"{_num(self.value)} {self.unit}"


def _num(value: float) -> str:
    """A figure as written by the vendor: no trailing .0, thousands separated."""
    if float(value).is_integer():
        return f"{int(value):,}"
    return f"{value:,.10g}"


class CatalogSource(BaseModel):
    """Where catalogue figures come from."""

    model_config = _FROZEN

    id: str = Field(pattern=r"^[a-z0-9][a-z0-9.-]*$")
    title: str = Field(min_length=1)
    url: str = Field(pattern=r"^https://\S+$")
    note: str | None = None


class MfuDefault(BaseModel):
    """Default model FLOPs utilisation for one chip family, with the runs it comes from.

    low and high bound the range the estimator shows; value is its midpoint, used to order rows.
    """

    model_config = _FROZEN

    value: float = Field(gt=0, le=1)
    range: str = Field(min_length=1)
    sources: list[str] = Field(min_length=1)
    low: float | None = Field(default=None, gt=0, le=1)
    high: float | None = Field(default=None, gt=0, le=1)

    def bounds(self) -> tuple[float, float]:
        """(low, high); a default without a range is one number."""
        return (self.low if self.low is not None else self.value, self.high if self.high is not None else self.value)

    def describe(self, family: str, language: str = i18n.DEFAULT_LANGUAGE, evidence: str | None = None) -> str:
        """One line for tables and reports: the default range, the reported evidence (`evidence`: the
        catalogue's words for it in `language`; None: the English), the sources."""
        low, high = self.bounds()
        shown = f"{low:.2f}-{high:.2f}" if low != high else f"{self.value:.2f}"
        return _line(
            "family",
            language,
            family=family.upper(),
            range=shown,
            evidence=evidence or self.range,
            sources=", ".join(self.sources),
        )


class RocmPart(BaseModel):
    """How an AMD chip is told apart when a ROCm stack names it generically: gfx target and compute units."""

    model_config = _FROZEN

    target: str = Field(pattern=r"^gfx[0-9a-f]+$")
    compute_units: int = Field(ge=1, le=100_000)
    sources: list[str] = Field(min_length=1)


class ChipMfu(BaseModel):
    """A chip's own MFU range, from runs on that chip or derived from its measured matmul share."""

    model_config = _FROZEN

    low: float = Field(gt=0, le=1)
    high: float = Field(gt=0, le=1)
    note: str = Field(min_length=1)
    sources: list[str] = Field(min_length=1)

    def describe(self, name: str, language: str = i18n.DEFAULT_LANGUAGE, note: str | None = None) -> str:
        """'<name> <range> (<note>; sources: ...)' in `language` (`note`: the catalogue's words in it)."""
        shown = f"{self.low:.2f}-{self.high:.2f}" if self.low != self.high else f"{self.low:.2f}"
        return _line("chip", language, name=name, range=shown, note=note or self.note, sources=", ".join(self.sources))


class CompileTarget(BaseModel):
    """How jax names a TPU generation in a topology ("v5e:2x2"), for compiling on a host without TPUs."""

    model_config = _FROZEN

    #: the generation's name in `jax.experimental.topologies.get_topology_desc(topology_name=...)`.
    topology: str = Field(pattern=r"^[A-Za-z0-9]{1,12}$")
    #: the slice's torus dimensions: 2 (v5e, v6e: AxB) or 3 (v4, v5p, TPU7x: AxBxC).
    dims: Literal[2, 3]


class DecodeShare(BaseModel):
    """The share of nominal memory bandwidth a decode step reaches, as a low-high range, with its evidence."""

    model_config = _FROZEN

    low: float = Field(gt=0, le=1)
    high: float = Field(gt=0, le=1)
    note: str = Field(min_length=1)
    sources: list[str] = Field(min_length=1)

    def describe(self, language: str = i18n.DEFAULT_LANGUAGE, note: str | None = None) -> str:
        """The decode share with its evidence, in `language` (`note`: the catalogue's words in it)."""
        shown = f"{self.low:.2f}-{self.high:.2f}" if self.low != self.high else f"{self.low:.2f}"
        return _line("decode", language, range=shown, note=note or self.note, sources=", ".join(self.sources))


def _line(kind: str, language: str, **values: str) -> str:
    """One of the catalogue's evidence lines ("family", "chip", "decode") in `language`
    (resources/text/catalog.<language>.toml)."""
    from gpu_tpu_app.core.texts import text

    return text(f"catalog.evidence.{kind}", language=language, **values)


class Chip(BaseModel):
    """One accelerator as its vendor specifies it."""

    model_config = _FROZEN

    id: str = Field(pattern=r"^[a-z0-9][a-z0-9-]*$")
    vendor: str = Field(min_length=1)
    name: str = Field(min_length=1)
    #: "other": accelerators that are neither (AWS Trainium and Inferentia, Intel Gaudi); they carry their own mfu.
    family: Literal["gpu", "tpu", "other"]
    year: int = Field(ge=1990, le=2100)
    memory: Figure
    memory_type: str = Field(min_length=1)
    mem_bw: Figure
    bf16: Figure
    bf16_sparse: Figure | None = None
    bf16_achievable: Figure | None = None
    fp16: Figure | None = None
    fp32: Figure
    tf32: Figure | None = None
    fp8: Figure | None = None
    fp64: Figure | None = None
    fp64_matrix: Figure | None = None
    int8: Figure | None = None
    power: Figure
    interconnect: str = Field(min_length=1)
    #: the largest group of chips joined by the fast scale-up link: an NVLink domain, a TPU slice or pod.
    domain: Figure | None = None
    mfu: ChipMfu | None = None
    #: the last-level cache the runtime does not report (see the file's header)
    llc: Figure | None = None
    rocm: RocmPart | None = None
    #: TPUs only: the target the model check compiles for with the TPU compiler (core.tpu_compile).
    compile_target: CompileTarget | None = None
    match: list[str] = Field(min_length=1)

    @field_validator("match")
    @classmethod
    def _patterns_compile(cls, patterns: list[str]) -> list[str]:
        for pattern in patterns:
            try:
                re.compile(pattern, re.IGNORECASE)
            except re.error as exc:
                raise PydanticCustomError(
                    "pattern", "bad pattern {pattern!r}: {error}", {"pattern": pattern, "error": str(exc)}
                ) from None
        return patterns

    def figures(self) -> dict[str, Figure]:
        """Every figure of this chip by field name (absent optional fields left out)."""
        return {name: fig for name in FIELD_UNITS if (fig := getattr(self, name)) is not None}

    def peak_flops(self, dtype: str) -> float | None:
        """Dense peak in FLOP/s (not TFLOP/s) for a dtype such as 'float32', 'bfloat16', 'float16', 'tf32'.

        None when the vendor publishes no figure or the dtype is not catalogued.
        """
        field = DTYPE_FIELDS.get(dtype.strip().lower())
        figure = getattr(self, field) if field else None
        return figure.si(FLOPS_UNITS) if figure is not None else None

    def memory_bytes(self) -> float | None:
        """Memory per chip in bytes (GB = 1e9, GiB = 2**30)."""
        return self.memory.si(MEMORY_UNITS)

    def llc_bytes(self) -> int | None:
        """The catalogued last-level cache in bytes, or None."""
        value = self.llc.si(CACHE_UNITS) if self.llc is not None else None
        return int(value) if value else None

    def mem_bw_bytes_per_s(self) -> float | None:
        """Memory bandwidth per chip in bytes per second."""
        return self.mem_bw.si(BANDWIDTH_UNITS)

    def domain_chips(self) -> int | None:
        """The largest NVLink domain, slice or pod in chips, when catalogued."""
        return int(self.domain.value) if self.domain is not None and self.domain.value is not None else None

    def sources(self) -> list[str]:
        """The source ids this chip's figures cite, in field order, without repeats."""
        ids = [fig.source for fig in self.figures().values()]
        if self.mfu is not None:
            ids += self.mfu.sources
        if self.rocm is not None:
            ids += self.rocm.sources
        return list(dict.fromkeys(ids))


class Catalog(BaseModel):
    """All chips, their sources and the estimator's default MFU per family."""

    model_config = _FROZEN

    schema_version: SchemaVersion
    mfu: dict[Literal["gpu", "tpu"], MfuDefault]
    sources: list[CatalogSource] = Field(min_length=1)
    chips: list[Chip] = Field(min_length=1)
    #: the share of nominal bandwidth decode reaches; None: the nominal figure (a best case).
    decode: DecodeShare | None = None
    #: the file this catalogue was read from (its translations lie beside it); None: built in memory.
    _origin: Path | None = PrivateAttr(default=None)
    #: language -> the catalogue's words in it (Catalog.words), read once.
    _words: dict[str, Mapping[str, str]] = PrivateAttr(default_factory=dict)

    def __eq__(self, other: object) -> bool:
        # the same content is the same catalogue, wherever it was read from and whichever words were looked up
        if not isinstance(other, Catalog):
            return NotImplemented
        return type(self) is type(other) and self.__dict__ == other.__dict__

    @model_validator(mode="after")
    def _consistent(self) -> Catalog:
        problems = catalog_problems(self)
        if problems:
            raise problem_error(problems)
        return self

    def mfu_for(self, chip: Chip, language: str = i18n.DEFAULT_LANGUAGE) -> tuple[float, float, str, list[str]]:
        """(low, high, one-line description, source ids) of the MFU range the estimator uses for `chip`;
        the description in `language` (English by default: the words an Estimate keeps)."""
        english = language == i18n.DEFAULT_LANGUAGE
        if chip.mfu is not None:
            note = None if english else self.say(f"chips.{chip.id}.mfu.note", language)
            return chip.mfu.low, chip.mfu.high, chip.mfu.describe(chip.name, language, note), list(chip.mfu.sources)
        family = "gpu" if chip.family == "other" else chip.family
        default = self.mfu[family]
        low, high = default.bounds()
        evidence = None if english else self.say(f"mfu.{family}.range", language)
        return low, high, default.describe(chip.family, language, evidence), list(default.sources)

    def decode_words(self, language: str | None = None) -> str | None:
        """The decode share and its evidence in `language` (None: the language in use); None when not catalogued."""
        if self.decode is None:
            return None
        lang = language or i18n.current_language()
        note = None if lang == i18n.DEFAULT_LANGUAGE else self.say("decode.note", lang)
        return self.decode.describe(lang, note)

    def english_texts(self) -> dict[str, str]:
        """Every text of the catalogue that people read, by key: "chips.<id>.interconnect",
        "chips.<id>.<figure>.note" / ".reason", "chips.<id>.mfu.note", "mfu.<family>.range", "decode.note"."""
        out = {f"mfu.{family}.range": default.range for family, default in self.mfu.items()}
        if self.decode is not None:
            out["decode.note"] = self.decode.note
        for chip in self.chips:
            out[f"chips.{chip.id}.interconnect"] = chip.interconnect
            for field, figure in chip.figures().items():
                for part in ("note", "reason"):
                    if (value := getattr(figure, part)) is not None:
                        out[f"chips.{chip.id}.{field}.{part}"] = value
            if chip.mfu is not None:
                out[f"chips.{chip.id}.mfu.note"] = chip.mfu.note
        return out

    def translations(self, language: str) -> dict[str, str]:
        """The texts `language`'s file beside the catalogue gives, by key, as written there ({} for English,
        for a catalogue built in memory, or without such a file). InputError naming the file and the key
        when the file is malformed or names a chip or field the catalogue lacks."""
        if language == i18n.DEFAULT_LANGUAGE or self._origin is None:
            return {}
        path = catalog_text.translation_path(self._origin, language)
        return catalog_text.read_translations(path, self.english_texts(), TEXT_FIELDS)

    def words(self, language: str | None = None) -> Mapping[str, str]:
        """Every text of the catalogue in `language` (None: the language in use), by key (english_texts' keys).

        A text the language's file lacks, or whose numbers and units differ from the English (a figure
        changed in chips.toml and not in the translation), is the English one."""
        lang = language or i18n.current_language()
        found = self._words.get(lang)
        if found is None:
            english = self.english_texts()
            translated = self.translations(lang)
            found = {
                key: translated[key] if key in translated and catalog_text.same_figures(said, translated[key]) else said
                for key, said in english.items()
            }
            self._words[lang] = found
        return found

    def say(self, key: str, language: str | None = None) -> str:
        """The catalogue's text at `key` (see english_texts) in `language` (None: the language in use)."""
        return self.words(language)[key]

    def interconnect(self, chip: Chip, language: str | None = None) -> str:
        """How `chip` links to its peers, in `language` (None: the language in use)."""
        return self.say(f"chips.{chip.id}.interconnect", language)

    def decode_share(self) -> tuple[float, float]:
        """(low, high) share of nominal memory bandwidth a decode step reaches; (1, 1) when not catalogued."""
        return (self.decode.low, self.decode.high) if self.decode is not None else (1.0, 1.0)

    def chip(self, id: str) -> Chip:
        """The chip with this id; KeyError names the known ids otherwise."""
        for chip in self.chips:
            if chip.id == id:
                return chip
        raise KeyError(f"unknown chip {id!r} (known: {', '.join(c.id for c in self.chips)})")

    def source(self, id: str) -> CatalogSource:
        """The source with this id; KeyError otherwise."""
        for source in self.sources:
            if source.id == id:
                return source
        raise KeyError(f"unknown source {id!r}")


def catalog_problems(catalog: Catalog) -> list[tuple[str, str]]:
    """Cross-field problems as (field path, what is wrong): ids, sources, units, sparse vs dense."""
    problems: list[tuple[str, str]] = []
    source_ids: set[str] = set()
    for i, source in enumerate(catalog.sources):
        if source.id in source_ids:
            problems.append((f"sources.{i}.id", f"duplicate source id {source.id!r}"))
        source_ids.add(source.id)
    for family in ("gpu", "tpu"):
        default = catalog.mfu.get(family)
        if default is None:
            problems.append((f"mfu.{family}", "field required"))
            continue
        for j, sid in enumerate(default.sources):
            if sid not in source_ids:
                problems.append((f"mfu.{family}.sources.{j}", f"unknown source id {sid!r}"))
        low, high = default.bounds()
        if not low <= default.value <= high:
            problems.append((f"mfu.{family}.value", "must lie between low and high"))
    if catalog.decode is not None:
        if catalog.decode.low > catalog.decode.high:
            problems.append(("decode.low", "must not exceed high"))
        for j, sid in enumerate(catalog.decode.sources):
            if sid not in source_ids:
                problems.append((f"decode.sources.{j}", f"unknown source id {sid!r}"))
    chip_ids: set[str] = set()
    for i, chip in enumerate(catalog.chips):
        if chip.id in chip_ids:
            problems.append((f"chips.{i}.id", f"duplicate chip id {chip.id!r}"))
        chip_ids.add(chip.id)
        for field, figure in chip.figures().items():
            allowed = FIELD_UNITS[field]
            if figure.unit not in allowed:
                problems.append(
                    (
                        f"chips.{i}.{field}.unit",
                        f"unit {figure.unit!r} not allowed here (allowed: {', '.join(allowed)})",
                    )
                )
            if figure.source not in source_ids:
                problems.append((f"chips.{i}.{field}.source", f"unknown source id {figure.source!r}"))
        for j, sid in enumerate(chip.rocm.sources if chip.rocm is not None else []):
            if sid not in source_ids:
                problems.append((f"chips.{i}.rocm.sources.{j}", f"unknown source id {sid!r}"))
        if chip.family == "other" and chip.mfu is None:
            problems.append((f"chips.{i}.mfu", "a chip of family 'other' needs its own mfu range"))
        if chip.mfu is not None:
            if chip.mfu.low > chip.mfu.high:
                problems.append((f"chips.{i}.mfu.low", "must not exceed high"))
            for j, sid in enumerate(chip.mfu.sources):
                if sid not in source_ids:
                    problems.append((f"chips.{i}.mfu.sources.{j}", f"unknown source id {sid!r}"))
        sparse, dense = chip.bf16_sparse, chip.bf16
        if sparse is not None and sparse.value is not None and dense.value is not None and sparse.value <= dense.value:
            problems.append(
                (
                    f"chips.{i}.bf16_sparse.value",
                    "sparse figure must exceed the dense bf16 figure (is a sparse figure in bf16?)",
                )
            )
    return problems


def _read_catalog(path: Path) -> Catalog:
    catalog = read_toml_model(path, Catalog, "catalogue")
    catalog._origin = path
    return catalog


@functools.lru_cache(maxsize=1)
def _packaged_catalog() -> Catalog:
    from gpu_tpu_app.assets import resource_path

    return _read_catalog(resource_path("catalog", "chips.toml"))


def load_catalog(path: Path | str | None = None) -> Catalog:
    """Read and validate a catalogue file; the packaged one when path is None (cached).

    Raises InputError('<file>: <field.path>: <problem>') on any bad content, and, when the app speaks
    another language, on a bad translation file beside it (core.catalog_text): it is read here, once.
    """
    catalog = _packaged_catalog() if path is None else _read_catalog(Path(path))
    if i18n.current_language() != i18n.DEFAULT_LANGUAGE:
        catalog.words()
    return catalog
