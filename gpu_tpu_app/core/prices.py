"""Prices per chip-hour: the shipped table, quotes from local catalogues, and which one wins.

The shipped table (resources/prices/prices.toml) holds list prices with their source and the date
they were read. Local catalogues (SkyPilot, gpuhunt; read by core.price_import) add quotes dated by
their file's age. For each chip, cloud, region and kind (on-demand or spot) the newest source wins;
every price is shown with where it comes from and how old it is, and one older than
STALE_DAYS is marked stale. A price the user types wins over all of them (core.estimate).
"""

from __future__ import annotations

import datetime as dt
import functools
import math
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Annotated, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    field_validator,
    model_validator,
)
from pydantic_core import PydanticCustomError

from gpu_tpu_app import i18n
from gpu_tpu_app.core.decision.regions import CLOUD_NAMES as _CLOUD_NAMES
from gpu_tpu_app.core.texts import area_texts, placeholders, text
from gpu_tpu_app.errors import InputError, problem_error, shown, supported_version
from gpu_tpu_app.safe_read import read_toml_model
from gpu_tpu_app.shared.cliutil import one_line

SCHEMA_VERSION = 1
#: the file format version this app reads, checked on load.
SchemaVersion = Annotated[int, AfterValidator(supported_version(SCHEMA_VERSION))]
#: a price older than this is marked stale.
STALE_DAYS = 90
#: USD per chip-hour; the same bound as a typed price (core.estimate.MAX_PRICE).
MAX_CHIP_HOUR_USD = 1_000_000.0

Kind = Literal["on-demand", "spot"]
KINDS: tuple[Kind, ...] = ("on-demand", "spot")
#: cloud ids -> the name shown (kept in core.decision.regions, which `decide` reads without pydantic).
CLOUD_NAMES = _CLOUD_NAMES

#: words in an instance name that say which form factor of an accelerator it carries.
FORM_HINTS = {"PCIE": frozenset({"pcie"}), "NVL": frozenset({"nvl"}), "SXM": frozenset({"sxm", "sxm4", "sxm5"})}

_FROZEN = ConfigDict(extra="forbid", frozen=True)
_ID = r"^[a-z0-9][a-z0-9._-]*$"
#: the longest value a note's placeholder takes (an instance or slice name, a price as written).
NOTE_VALUE_CHARS = 200


class Said(BaseModel):
    """A note the app writes about a price or a catalogue it read: the id of its text in
    resources/text/prices.<language>.toml ("note.slice_over_chips") and its placeholders' values.

    The English words (`english`) are what JSON output and files keep; `words()` says it in the language in
    use, so a note is never translated from its English form, and a third language is a new text file."""

    model_config = _FROZEN

    id: str
    #: text, a note said inside this one, or a list of them (joined by the language's list separator)
    values: dict[str, str | Said | list[Said]] = Field(default_factory=dict)

    def words(self, language: str | None = None) -> str:
        def said(value: str | Said | list[Said]) -> str:
            if isinstance(value, str):
                return value
            if isinstance(value, Said):
                return value.words(language)
            return text("prices.read.drop_separator", language=language).join(v.words(language) for v in value)

        return text(f"prices.{self.id}", language=language, **{k: said(v) for k, v in self.values.items()})

    @property
    def english(self) -> str:
        return self.words(i18n.DEFAULT_LANGUAGE)


def refusal(problem: str, **values: str) -> PydanticCustomError:
    """A price table's problem, in the language in use (resources/text/prices.<lang>.toml [table]), as the
    pydantic error that `errors.from_validation` turns into '<file>: <field>: <problem>'."""
    return PydanticCustomError(
        f"price_table_{problem}", "{problem}", {"problem": text(f"prices.table.{problem}", **values)}
    )


def note_value(value: object) -> str:
    """A note placeholder's value as it is shown: whole numbers with thousands separators, text as given."""
    return f"{value:,}" if isinstance(value, int) and not isinstance(value, bool) else str(value)


def table_note(note: Mapping[str, object]) -> Said:
    """A price-table row's note given as a text id and values (`{ id = "slice_over_chips", slice = ..., chips =
    4 }`): checked against the English text of `prices.note.<id>` (its placeholders exactly); raises
    PydanticCustomError naming the problem."""
    ident = note.get("id")
    known = sorted(
        k.removeprefix("note.") for k in area_texts("prices", i18n.DEFAULT_LANGUAGE) if k.startswith("note.")
    )
    if not isinstance(ident, str) or ident not in known:
        raise refusal("note_id", got=shown(repr(ident)), example=known[0] if known else "-")
    values = {k: v for k, v in note.items() if k != "id"}
    wanted = placeholders(area_texts("prices", i18n.DEFAULT_LANGUAGE)[f"note.{ident}"])
    if set(values) != wanted:
        missing = ", ".join(sorted(wanted - set(values)))
        extra = ", ".join(shown(e) for e in sorted(set(values) - wanted))
        which = "note_missing_extra" if missing and extra else "note_missing" if missing else "note_extra"
        raise refusal(which, ident=ident, missing=missing, extra=extra)
    out = {}
    for key, value in values.items():
        if isinstance(value, bool) or not isinstance(value, str | int):
            raise refusal("note_value_kind", ident=ident, key=shown(key))
        shown_value = note_value(value)
        if not shown_value.strip() or len(shown_value) > NOTE_VALUE_CHARS or shown_value != one_line(shown_value):
            raise refusal("note_value_line", ident=ident, key=shown(key), limit=str(NOTE_VALUE_CHARS))
        out[key] = shown_value
    return Said(id=f"note.{ident}", values=out)


class PriceSource(BaseModel):
    """A page prices were read from, and the day they were read."""

    model_config = _FROZEN

    id: str = Field(pattern=_ID, max_length=100)
    title: str = Field(min_length=1, max_length=1_000)
    url: str = Field(pattern=r"^https://\S+$", max_length=1_000)
    read: dt.date


class PriceRow(BaseModel):
    """On-demand and (where published) spot USD per chip-hour for one chip in one cloud region."""

    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)

    chip: str = Field(pattern=r"^[a-z0-9][a-z0-9-]*$", max_length=100)
    cloud: str = Field(pattern=_ID, max_length=100)
    region: str = Field(pattern=_ID, max_length=100)
    on_demand: float | None = Field(default=None, gt=0, le=MAX_CHIP_HOUR_USD)
    spot: float | None = Field(default=None, gt=0, le=MAX_CHIP_HOUR_USD)
    source: str = Field(min_length=1, max_length=100)
    #: the row's own words (shown as written), or a text id and its values (`{ id = "...", ... }`, said in the
    #: language in use; the shipped table's notes are all of this kind)
    note: Annotated[str, Field(max_length=1_000)] | dict[str, object] | None = None

    @field_validator("note")
    @classmethod
    def _known_note(cls, note: str | dict[str, object] | None) -> str | dict[str, object] | None:
        if isinstance(note, dict):
            table_note(note)
        return note

    @model_validator(mode="after")
    def _a_price(self) -> PriceRow:
        if self.on_demand is None and self.spot is None:
            raise refusal("no_price")
        return self

    def said(self) -> Said | None:
        """The row's note as a text id and values; None for a row without one or with its own words."""
        return table_note(self.note) if isinstance(self.note, dict) else None


class PriceTable(BaseModel):
    """The shipped price table: sources, rows, and the names local catalogues give the chips."""

    model_config = _FROZEN

    schema_version: SchemaVersion
    sources: list[PriceSource] = Field(min_length=1)
    names: dict[str, str] = Field(default_factory=dict)
    gcp_hosts: dict[str, str] = Field(default_factory=dict)
    prices: list[PriceRow] = Field(default_factory=list)

    @model_validator(mode="after")
    def _consistent(self) -> PriceTable:
        problems: list[tuple[str, str]] = []
        ids: set[str] = set()
        for i, source in enumerate(self.sources):
            if source.id in ids:
                problems.append((f"sources.{i}.id", text("prices.table.duplicate_source", id=repr(source.id))))
            ids.add(source.id)
        seen: set[tuple[str, str, str]] = set()
        for i, row in enumerate(self.prices):
            if row.source not in ids:
                problems.append((f"prices.{i}.source", text("prices.table.unknown_source", id=repr(row.source))))
            key = (row.chip, row.cloud, row.region)
            if key in seen:
                second = text("prices.table.second_row", chip=row.chip, cloud=row.cloud, region=row.region)
                problems.append((f"prices.{i}", second))
            seen.add(key)
        for host, pattern in self.gcp_hosts.items():
            if pattern.count("{n}") != 1:
                problems.append((f"gcp_hosts.{host}", text("prices.table.host_count")))
        if problems:
            raise problem_error(problems)
        return self

    def source(self, id: str) -> PriceSource:
        for source in self.sources:
            if source.id == id:
                return source
        raise KeyError(id)

    def chip_for(self, name: str, instance: str = "") -> str | None:
        """The catalogue chip id a local catalogue's accelerator name denotes (any case), or None.

        The instance name settles a form factor the accelerator name leaves open: Lambda and gpuhunt
        call both gpu_1x_h100_pcie and gpu_8x_h100_sxm5 "H100", so "pcie", "nvl" or "sxm" in the
        instance name is tried first ("H100-PCIE").
        """
        words = set(re.split(r"[^a-z0-9]+", instance.casefold()))
        forms = [form for form, hints in FORM_HINTS.items() if words & hints]
        for candidate in [f"{name}-{form}" for form in forms] + [name]:
            folded = candidate.strip().casefold()
            for key, chip in self.names.items():
                if key.casefold() == folded:
                    return chip
        return None


def check_chips(table: PriceTable, chip_ids: set[str], path: Path | str) -> None:
    """InputError naming the first row or name whose chip the catalogue lacks."""
    for i, row in enumerate(table.prices):
        if row.chip not in chip_ids:
            raise InputError(
                f"{path}: {text('prices.error.unknown_chip', field=f'prices.{i}.chip', chip=repr(row.chip))}"
            )
    for name, chip in table.names.items():
        if chip not in chip_ids:
            raise InputError(f"{path}: {text('prices.error.unknown_chip', field=f'names.{name}', chip=repr(chip))}")


@functools.lru_cache(maxsize=1)
def _packaged_table() -> PriceTable:
    from gpu_tpu_app.assets import resource_path
    from gpu_tpu_app.core.catalog import load_catalog

    path = resource_path("prices", "prices.toml")
    table = read_toml_model(path, PriceTable, "price table")
    check_chips(table, {chip.id for chip in load_catalog().chips}, path)
    return table


def load_price_table(path: Path | str | None = None, chip_ids: set[str] | None = None) -> PriceTable:
    """Read and validate a price table; the packaged one when path is None (cached).

    chip_ids, when given, are the catalogue ids every row must name. Raises InputError
    '<file>: <field.path>: <problem>' on any bad content.
    """
    if path is None:
        return _packaged_table()
    table = read_toml_model(Path(path), PriceTable, "price table")
    if chip_ids is not None:
        check_chips(table, chip_ids, path)
    return table


class Quote(BaseModel):
    """One price: USD per chip-hour of one chip, in one cloud region, of one kind, with its origin and date."""

    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)

    chip_id: str
    cloud: str
    region: str
    kind: Kind
    usd: float = Field(ge=0, le=MAX_CHIP_HOUR_USD)
    origin: Literal["shipped", "skypilot", "gpuhunt", "user"]
    where: str  # the source page's URL, or the file a local catalogue was read from
    as_of: dt.datetime  # aware: when the price was read (shipped) or the file was written (local)
    dated_by: Literal["read", "file"] = "read"
    note: str | None = None  # in English (the JSON form); filled from `said` when that is given
    #: the note as a text id and values, said in the language in use; None for a table's own words
    said: Said | None = Field(default=None, exclude=True)

    @model_validator(mode="before")
    @classmethod
    def _note_from_said(cls, data: object) -> object:
        if isinstance(data, dict) and data.get("said") is not None and data.get("note") is None:
            said = data["said"]
            said = said if isinstance(said, Said) else Said.model_validate(said)
            data = {**data, "said": said, "note": said.english}
        return data

    def note_words(self, language: str | None = None) -> str | None:
        """The note in `language` (None: the language in use): the app's own note said in it, a price
        table's own words as they were written (on one line) and, outside English, marked as the table's."""
        if self.said is not None:  # its values come from a catalogue's cells: kept on one line too
            return one_line(self.said.words(language))
        if self.note is None or not self.note.strip():
            return None
        return text("prices.own.note", language=language, note=one_line(self.note))

    def age(self, now: dt.datetime | None = None) -> dt.timedelta:
        now = now or dt.datetime.now(dt.UTC)
        return max(dt.timedelta(0), now - self.as_of)

    def stale(self, now: dt.datetime | None = None) -> bool:
        return self.origin != "user" and self.age(now) > dt.timedelta(days=STALE_DAYS)

    def describe_age(self, now: dt.datetime | None = None, language: str | None = None) -> str:
        """'shipped table, read 2026-11-20', 'SkyPilot catalogue, 3 h old', '... (stale: over 90 days)', in
        `language` (None: the language in use; JSON output asks for English)."""
        if self.origin == "user":
            return text("prices.age.yours", language=language)
        label = text(f"prices.origin.{self.origin}", language=language)
        if self.dated_by == "read":
            source = text("prices.age.read", language=language, label=label, date=self.as_of.date().isoformat())
        else:
            source = text("prices.age.old", language=language, label=label, age=format_age(self.age(now), language))
        if self.stale(now):
            source = text("prices.age.stale", language=language, source=source, days=STALE_DAYS)
        return source

    def place(self) -> str:
        """'Google Cloud us-central1'; '' for a price the user typed."""
        if self.origin == "user":
            return ""
        return f"{CLOUD_NAMES.get(self.cloud, self.cloud)} {self.region}"

    def describe(self, now: dt.datetime | None = None, language: str | None = None) -> str:
        """'$2.70/chip-hour, Google Cloud us-central1 (shipped table, read 2026-12-01)', in `language`
        (None: the language in use)."""
        source = self.describe_age(now, language)
        if self.place():
            return text(
                "prices.quote.describe",
                language=language,
                rate=format_rate(self.usd),
                place=self.place(),
                source=source,
            )
        return text("prices.quote.describe_yours", language=language, rate=format_rate(self.usd), source=source)


def format_rate(usd: float) -> str:
    """USD per chip-hour: '$2.70', '$0.363', '$12.45'."""
    return f"${usd:,.2f}" if usd >= 1 else f"${usd:.3g}"


def format_age(age: dt.timedelta, language: str | None = None) -> str:
    """'40 min', '3 h', '12 days' (in `language`; None: the language in use)."""
    seconds = age.total_seconds()
    if seconds < 3600:
        return text("prices.age.minutes", language=language, n=max(1, round(seconds / 60)))
    if seconds < 2 * 86400:
        return text("prices.age.hours", language=language, n=round(seconds / 3600))
    return text("prices.age.days", language=language, n=round(seconds / 86400))


def shipped_quotes(table: PriceTable) -> list[Quote]:
    """The shipped table's rows as quotes (spot only where the row has one)."""
    quotes = []
    for row in table.prices:
        source = table.source(row.source)
        as_of = dt.datetime.combine(source.read, dt.time(0, 0), tzinfo=dt.UTC)
        pairs: tuple[tuple[Kind, float | None], ...] = (("on-demand", row.on_demand), ("spot", row.spot))
        said = row.said()
        note = said.english if said is not None else row.note if isinstance(row.note, str) else None
        for kind, usd in pairs:
            if usd is None:
                continue
            quotes.append(
                Quote(
                    chip_id=row.chip,
                    cloud=row.cloud,
                    region=row.region,
                    kind=kind,
                    usd=usd,
                    origin="shipped",
                    where=source.url,
                    as_of=as_of,
                    note=note,
                    said=said,
                )
            )
    return quotes


class PriceBook(BaseModel):
    """Every quote the app knows, with the notes of what was read (files, dropped rows)."""

    model_config = _FROZEN

    quotes: list[Quote] = Field(default_factory=list)
    notes: list[str] = Field(default_factory=list)  # in English (the JSON form)
    #: the notes the app wrote, by their English words, as text ids to say them in the language in use
    said: dict[str, Said] = Field(default_factory=dict, exclude=True)

    @classmethod
    def of(cls, quotes: Sequence[Quote] = (), notes: Sequence[Said] = ()) -> PriceBook:
        """A book of `quotes` with notes the app wrote."""
        return cls(quotes=list(quotes), notes=[n.english for n in notes], said={n.english: n for n in notes})

    def note_words(self, language: str | None = None) -> list[str]:
        """The notes in `language` (None: the language in use); one the app did not write as it is."""
        return [self.said[n].words(language) if n in self.said else n for n in self.notes]

    def winners(self) -> list[Quote]:
        """One quote per chip, cloud, region and kind: the newest (a tie keeps the cheaper)."""
        return list(self._winners)

    @functools.cached_property
    def _winners(self) -> tuple[Quote, ...]:
        best: dict[tuple[str, str, str, str], Quote] = {}
        for quote in self.quotes:
            key = (quote.chip_id, quote.cloud, quote.region, quote.kind)
            held = best.get(key)
            if held is None or (quote.as_of, -quote.usd) > (held.as_of, -held.usd):
                best[key] = quote
        return tuple(sorted(best.values(), key=lambda q: (q.chip_id, q.kind, q.usd, q.cloud, q.region)))

    def select(
        self,
        chip: str | None = None,
        kind: Kind | None = None,
        cloud: str | None = None,
        region: str | None = None,
    ) -> list[Quote]:
        """The winning quotes that match, cheapest first."""
        return [
            q
            for q in self._winners
            if (chip is None or q.chip_id == chip)
            and (kind is None or q.kind == kind)
            and (cloud is None or q.cloud == cloud.lower())
            and (region is None or q.region == region.lower())
        ]

    def cheapest(
        self, chip: str, kind: Kind = "on-demand", cloud: str | None = None, region: str | None = None
    ) -> Quote | None:
        """The cheapest winning quote for a chip (optionally in one cloud / region), or None."""
        found = self.select(chip, kind, cloud, region)
        return min(found, key=lambda q: q.usd) if found else None

    def chips(self) -> list[str]:
        return sorted({q.chip_id for q in self.quotes})

    def clouds(self) -> list[str]:
        return sorted({q.cloud for q in self.quotes})

    def merged(self, other: PriceBook) -> PriceBook:
        return PriceBook(
            quotes=[*self.quotes, *other.quotes], notes=[*self.notes, *other.notes], said={**self.said, **other.said}
        )


class Spread(BaseModel):
    """The range of one chip's winning prices of one kind across regions."""

    model_config = _FROZEN

    chip_id: str
    kind: Kind
    cheapest: Quote
    dearest: Quote
    places: int

    @property
    def ratio(self) -> float:
        return self.dearest.usd / self.cheapest.usd if self.cheapest.usd > 0 else math.inf


def spreads(book: PriceBook, kind: Kind = "on-demand", cloud: str | None = None, region: str | None = None):
    """Per chip: the cheapest place, the dearest, and how many places are priced."""
    out: list[Spread] = []
    for chip in book.chips():
        found = book.select(chip, kind, cloud, region)
        if found:
            out.append(
                Spread(
                    chip_id=chip,
                    kind=kind,
                    cheapest=min(found, key=lambda q: q.usd),
                    dearest=max(found, key=lambda q: q.usd),
                    places=len(found),
                )
            )
    return sorted(out, key=lambda s: (s.cheapest.usd, s.chip_id))


def user_quote(chip_id: str, usd: float) -> Quote:
    """The price a user typed for a chip: it wins over every table and says so."""
    return Quote(
        chip_id=chip_id,
        cloud="",
        region="",
        kind="on-demand",
        usd=usd,
        origin="user",
        where="typed by you",
        as_of=dt.datetime.now(dt.UTC),
    )


def chip_quotes(
    book: PriceBook | None, chip_id: str, user_usd: float | None, cloud: str | None = None, region: str | None = None
) -> tuple[Quote | None, Quote | None]:
    """(on-demand, spot) for one chip: the user's price else the cheapest known, and the cheapest spot."""
    on_demand = user_quote(chip_id, user_usd) if user_usd is not None else None
    if book is None:
        return on_demand, None
    if on_demand is None:
        on_demand = book.cheapest(chip_id, "on-demand", cloud, region)
    return on_demand, book.cheapest(chip_id, "spot", cloud, region)


def shipped_book() -> PriceBook:
    """A book with the shipped table only."""
    return PriceBook(quotes=shipped_quotes(load_price_table()))


def cheapest_step(
    book: PriceBook,
    chips: Sequence[tuple[str, str, str]],
    verdict: str,
    limit: int = 3,
    clouds: Sequence[str] | None = None,
    area: str | None = None,
) -> str | None:
    """A next step naming the cheapest places to rent the verdict's chips, or None without prices.

    chips: (id, name, family) of the catalogue's chips that may be suggested (the caller leaves out those
    that cannot hold the run); a GPU verdict names GPUs, a TPU verdict TPUs, "either" both. Each chip is
    named at its cheapest on-demand place in `clouds` (None: any) and `area` (an answered region: "us",
    "europe", ...; None or "anywhere": any), cheapest first, with its source.
    """
    from gpu_tpu_app.core.decision.regions import area_of

    families = verdict_families(verdict)
    found = []
    for chip_id, name, family in chips:
        if family not in families:
            continue
        quotes = [
            q
            for q in book.select(chip_id, "on-demand")
            if (clouds is None or q.cloud in clouds) and (area in (None, "anywhere") or area_of(q.region) == area)
        ]
        if quotes:
            found.append((name, min(quotes, key=lambda q: q.usd)))
    return cheapest_text(found, verdict, limit)


def verdict_families(verdict: str) -> set[str]:
    """The chip families a verdict is about: GPUs, TPUs, or both for "either"."""
    return {"gpu": {"gpu"}, "tpu": {"tpu"}}.get(verdict, {"gpu", "tpu"})


def cheapest_text(found: Sequence[tuple[str, Quote]], verdict: str, limit: int = 3) -> str | None:
    """'Cheapest places to rent TPUs now: Google TPU v5e $1.20/chip-hour in Google Cloud us-central1; ...'
    from (chip name, its cheapest on-demand quote) pairs; None when there are none."""
    ranked = sorted((q for q in found if q[1].origin != "user"), key=lambda f: f[1].usd)[:limit]
    if not ranked:
        return None
    separator = text("prices.cheapest.separator")
    places = separator.join(
        text("prices.cheapest.place", name=name, rate=format_rate(q.usd), place=q.place()) for name, q in ranked
    )
    sources = separator.join(dict.fromkeys(q.describe_age() for _, q in ranked))
    key = verdict if verdict in ("gpu", "tpu") else "either"
    return text(f"prices.cheapest.{key}", places=places, sources=sources)
