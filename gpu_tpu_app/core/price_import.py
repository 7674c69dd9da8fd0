"""Price quotes from local catalogues: SkyPilot's vms.csv files and dstack gpuhunt's CSV files.

Only files already on disk are read; nothing is downloaded. Columns are found by their header
(SkyPilot's column order differs per cloud). Per chip-hour:

- SkyPilot, a row with an InstanceType and an accelerator: the instance price over its accelerator count.
- SkyPilot on Google Cloud, an accelerator row without an InstanceType: the GPUs' price plus the host VM
  that carries them (the price table's [gcp_hosts], same zone), over the count; without a host row the
  quote says it is the GPU only.
- SkyPilot TPU rows (tpu-v6e-8, no InstanceType): the slice price over its chips; v2, v3, v4 and v5p
  names count TensorCores, two per chip.
- gpuhunt: the offer's price over gpu_count; `spot` says the kind; the cloud is the `provider` column
  or the file's name (gpuhunt writes one `<provider>.csv` per cloud). A gpuhunt TPU offer is one
  "GPU" named like its slice (gpu_name v5litepod-8, gpu_count 1): the slice price over its chips.

Rows that cannot be a price are dropped and counted, never guessed: an empty price, a price that is
not a number, not finite or negative, SkyPilot's placeholder (700.0, written where a price is unknown),
an accelerator that is not a catalogue chip, a fraction of a GPU. A file that breaks a rule (too big,
not text, not CSV, a missing column, too many rows, an overlong field) or that yields no price at all
is refused with one line naming the file and the field. The quotes are dated by the file's
modification time (SkyPilot refreshes its catalogue every few hours).
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import math
import os
import re
from collections import Counter
from collections.abc import Callable, Iterable
from functools import partial
from pathlib import Path
from typing import Literal

from gpu_tpu_app.core.prices import (
    MAX_CHIP_HOUR_USD,
    Kind,
    PriceBook,
    PriceTable,
    Quote,
    Said,
    load_price_table,
    shipped_quotes,
)
from gpu_tpu_app.core.texts import text
from gpu_tpu_app.errors import InputError, shown
from gpu_tpu_app.safe_read import MIB, NAME_CHARS, read_text

#: SkyPilot's AWS catalogue, its largest, is about 3.7 MB; no price catalogue comes near this.
MAX_PRICE_FILE_BYTES = 256 * MIB
#: rows per file; SkyPilot's largest catalogue has about 45,000.
MAX_PRICE_ROWS = 2_000_000
#: files read from one folder.
MAX_PRICE_FILES = 200
#: SkyPilot writes this where it does not know a price (e.g. a new TPU in a region).
PLACEHOLDER_PRICES = frozenset({700.0})
#: TPU families whose slice names count TensorCores (two per chip) rather than chips.
TPU_CORE_NAMED = frozenset({"v2", "v3", "v4", "v5p"})

SKYPILOT_COLUMNS = ("InstanceType", "AcceleratorName", "AcceleratorCount", "Region", "Price", "SpotPrice")
GPUHUNT_COLUMNS = ("instance_name", "location", "price", "gpu_count", "gpu_name", "spot")

Format = Literal["skypilot", "gpuhunt"]
_TPU_NAME = re.compile(r"^(?:tpu-)?(v[0-9][a-z0-9]*)-([0-9]+)$", re.IGNORECASE)
_GCP_ZONE = re.compile(r"^([a-z]+-[a-z]+[0-9]+)-[a-z0-9]+$")
_REGION = re.compile(r"^[a-z0-9][a-z0-9._-]*$")


class Refused(InputError):
    """A catalogue file or folder refused: its line in the language in use, and in English (`english`) for
    what keeps English (the prices command's JSON)."""

    def __init__(self, message: str, english: str) -> None:
        super().__init__(message)
        self.english = InputError(english).args[0]


def refused(path: Path | str, problem: str, **values: str) -> Refused:
    """The one line that refuses a catalogue file or folder: '<path>: <field>: <problem>', the problem in the
    language in use (resources/text/prices.<lang>.toml [error])."""
    ident = "prices.error." + problem
    return Refused(f"{path}: {text(ident, **values)}", f"{path}: {text(ident, language='en', **values)}")


def default_skypilot_dir(home: Path | None = None) -> Path | None:
    """SkyPilot's catalogue folder for the newest catalogue version on disk (~/.sky/catalogs/v8), or None."""
    root = (home or Path.home()) / ".sky" / "catalogs"
    try:
        versions = [p for p in root.iterdir() if re.fullmatch(r"v[0-9]{1,4}", p.name) and p.is_dir()]
    except OSError:
        return None
    return max(versions, key=lambda p: int(p.name[1:])) if versions else None


def default_gpuhunt_dir() -> Path | None:
    """The folder gpuhunt reads its offline catalogue from ($GPUHUNT_CATALOG_DIR), when set."""
    value = os.environ.get("GPUHUNT_CATALOG_DIR")
    return Path(value).expanduser() if value else None


def default_places(home: Path | None = None) -> list[Path]:
    """The local catalogue folders that exist in their default places."""
    return [p for p in (default_skypilot_dir(home), default_gpuhunt_dir()) if p is not None and p.is_dir()]


class _Reader:
    """One file's rows, checked as they are read, and the counts of what was dropped."""

    def __init__(self, path: Path, what: str, text: str | None = None) -> None:
        self.path = path
        if text is None:
            text = read_text(path, what, MAX_PRICE_FILE_BYTES)
        nul = text.find("\x00")
        if nul >= 0:
            raise refused(path, "nul", at=f"{nul:,}")
        self.rows = csv.reader(io.StringIO(text, newline=""))
        try:
            header = next(self.rows, None)
        except csv.Error as exc:
            raise refused(path, "not_csv", line="1", detail=str(exc)) from None
        if header is None:
            raise refused(path, "empty")
        self.header = [h.strip() for h in header]
        #: rows that gave no price, by why: (the id of the reason in resources/text/prices.* [dropped], its value)
        self.dropped: Counter[tuple[str, str]] = Counter()
        self.read = 0

    def columns(self, names: Iterable[str], fmt: str) -> dict[str, int]:
        index = {name: i for i, name in enumerate(self.header)}
        for name in names:
            if name not in index:
                raise refused(self.path, "no_column", column=repr(name), format=fmt)
        return index

    def records(
        self, index: dict[str, int], wanted: Iterable[str], keep: Callable[[list[str]], bool] | None = None
    ) -> Iterable[dict[str, str]]:
        """The wanted fields of each row, checked; rows `keep` says no to are counted as read and skipped."""
        wanted = [w for w in wanted if w in index]
        line = 1
        while True:
            try:
                row = next(self.rows)
            except StopIteration:
                return
            except csv.Error as exc:
                raise refused(self.path, "not_csv", line=str(line + 1), detail=str(exc)) from None
            line += 1
            if line > MAX_PRICE_ROWS + 1:
                raise refused(self.path, "too_many_rows", limit=f"{MAX_PRICE_ROWS:,}")
            if not row or all(not c.strip() for c in row):
                continue
            if keep is not None and not keep(row):
                self.read += 1
                continue
            record = {}
            for name in wanted:
                i = index[name]
                value = row[i].strip() if i < len(row) else ""
                if len(value) > NAME_CHARS:
                    raise refused(self.path, "too_long", line=str(line), column=name, limit=f"{NAME_CHARS:,}")
                record[name] = value
            record["_line"] = str(line)
            self.read += 1
            yield record

    def price(self, text: str) -> float | None:
        """A price cell: the number, or None (counted) for empty, not a number, not finite, negative, placeholder."""
        if not text:
            return None
        try:
            value = float(text)
        except ValueError:
            self.dropped[("not_a_number", "")] += 1
            return None
        if not math.isfinite(value) or value < 0:
            self.dropped[("not_finite", "")] += 1
            return None
        if value in PLACEHOLDER_PRICES:
            self.dropped[("placeholder", f"{value:g}")] += 1
            return None
        return value

    def drops(self) -> list[Said]:
        """Why rows gave no price, with how many: '3 not a number', '1 placeholder 700' (in the order of
        their English words)."""
        reasons = [
            (Said(id="dropped." + why, values={"value": value} if value else {}), n)
            for (why, value), n in self.dropped.items()
        ]
        reasons.sort(key=lambda pair: pair[0].english)
        return [Said(id="read.drop", values={"n": f"{n:,}", "why": why}) for why, n in reasons]

    def note(self, fmt: str, quotes: int, field: str) -> Said:
        """One line on what the file gave; InputError when it gave no price and something was wrong."""
        drops = self.drops()
        if quotes == 0 and self.read and self.dropped:
            said = Said(id="error.no_price", values={"column": field, "rows": f"{self.read:,}", "drops": drops})
            raise Refused(f"{self.path}: {said.words()}", f"{self.path}: {said.english}")
        values: dict[str, str | Said | list[Said]] = {
            "path": str(self.path),
            "format": fmt,
            "quotes": f"{quotes:,}",
            "rows": f"{self.read:,}",
        }
        if not drops:
            return Said(id="read.file", values=values)
        return Said(id="read.file_dropped", values={**values, "drops": drops})


def _mtime(path: Path) -> dt.datetime:
    try:
        return dt.datetime.fromtimestamp(path.stat().st_mtime, dt.UTC)
    except (OSError, OverflowError, ValueError):
        return dt.datetime.now(dt.UTC)


def _keep_cheapest(
    found: dict[tuple[str, str, str, str], Quote],
    reader: _Reader,
    key: tuple[str, str, str, str],
    usd: float,
    make: Callable[[], Quote],
) -> None:
    """Keep the quote `make` builds for (chip, cloud, region, kind) `key` when `usd` is the cheapest so far (only then
    is it built); a price per chip-hour over the bound a price may have is dropped and counted."""
    if usd > MAX_CHIP_HOUR_USD:
        reader.dropped[("too_high", f"{MAX_CHIP_HOUR_USD:,.0f}")] += 1
        return
    held = found.get(key)
    if held is None or usd < held.usd:
        found[key] = make()


#: the same cloud under another catalogue's name (gpuhunt says lambdalabs where SkyPilot says lambda).
CLOUD_ALIASES = {"lambdalabs": "lambda", "google": "gcp", "amazon": "aws"}


def _cloud_id(name: str, path: Path, problem: str) -> str:
    cloud = CLOUD_ALIASES.get(name.strip().lower(), name.strip().lower())
    if not _REGION.match(cloud) or len(cloud) > 100:
        raise refused(path, problem, got=repr(shown(name)))
    return cloud


def read_skypilot(path: Path | str, table: PriceTable, cloud: str | None = None, text: str | None = None) -> PriceBook:
    """Quotes from one SkyPilot vms.csv; the cloud is the folder it sits in unless given."""
    path = Path(path)
    cloud = _cloud_id(cloud or path.parent.name, path, "not_a_cloud_folder")
    reader = _Reader(path, "a SkyPilot catalogue", text)
    index = reader.columns(SKYPILOT_COLUMNS, "SkyPilot")
    wanted = [*SKYPILOT_COLUMNS, "AvailabilityZone"]
    as_of = _mtime(path)
    hosts: dict[tuple[str, str], tuple[float | None, float | None]] = {}
    accelerator_rows: list[dict[str, str]] = []
    acc, inst = index["AcceleratorName"], index["InstanceType"]
    prefixes = tuple(p.split("{n}")[0] for p in table.gcp_hosts.values()) if cloud == "gcp" else ()

    def keep(row: list[str]) -> bool:  # an accelerator row, or a host VM one a GPU row may need
        return (acc < len(row) and bool(row[acc].strip())) or (inst < len(row) and row[inst].startswith(prefixes))

    for rec in reader.records(index, wanted, keep):
        if rec["AcceleratorName"]:
            accelerator_rows.append(rec)
        elif rec["InstanceType"]:
            place = rec.get("AvailabilityZone") or rec["Region"]
            prices = (reader.price(rec["Price"]), reader.price(rec["SpotPrice"]))
            hosts[(place, rec["InstanceType"])] = prices
    found: dict[tuple[str, str, str, str], Quote] = {}
    for rec in accelerator_rows:
        name, region = rec["AcceleratorName"], rec["Region"].lower()
        if not _REGION.match(region):
            reader.dropped[("bad_region", "")] += 1
            continue
        tpu = tpu_slice(name, table)
        host_note = None
        if tpu is not None:
            chip, chips = tpu
            host: tuple[float | None, float | None] = (0.0, 0.0)
            note = Said(id="note.slice_import", values={"slice": name, "chips": f"{chips:,}"})
        else:
            chip = table.chip_for(name, rec["InstanceType"])
            try:
                count = float(rec["AcceleratorCount"])
            except ValueError:
                count = math.nan
            if not math.isfinite(count) or count < 1 or count != int(count):
                reader.dropped[("not_whole", "")] += 1
                continue
            chips = int(count)
            host = (0.0, 0.0)
            note = Said(id="note.gpus_import", values={"n": f"{chips:,}", "gpu": name})
            if not rec["InstanceType"] and cloud == "gcp":
                pattern = table.gcp_hosts.get(name)
                place = rec.get("AvailabilityZone") or rec["Region"]
                if pattern is not None and (place, pattern.format(n=chips)) in hosts:
                    host = hosts[(place, pattern.format(n=chips))]
                    note = Said(id="note.gpus_import_host", values={**note.values, "host": pattern.format(n=chips)})
                else:
                    host_note = Said(id="note.gpu_only")
        if chip is None:
            reader.dropped[("not_a_chip", "")] += 1
            continue
        if chips < 1:
            reader.dropped[("not_whole", "")] += 1
            continue
        columns: tuple[tuple[Kind, str, float | None], ...] = (
            ("on-demand", "Price", host[0]),
            ("spot", "SpotPrice", host[1]),
        )
        for kind, column, extra in columns:
            usd = reader.price(rec[column])
            if usd is None:
                continue
            per_chip = round((usd + (extra or 0.0)) / chips, 6)
            _keep_cheapest(
                found,
                reader,
                (chip, cloud, region, kind),
                per_chip,
                partial(
                    Quote,
                    chip_id=chip,
                    cloud=cloud,
                    region=region,
                    kind=kind,
                    usd=per_chip,
                    origin="skypilot",
                    where=str(path),
                    as_of=as_of,
                    dated_by="file",
                    said=host_note or note,
                ),
            )
    quotes = sorted(found.values(), key=lambda q: (q.chip_id, q.region, q.kind))
    return PriceBook.of(quotes, [reader.note("SkyPilot", len(quotes), "Price")])


def tpu_slice(name: str, table: PriceTable) -> tuple[str | None, int] | None:
    """(chip id or None, chips) of a TPU slice name ('tpu-v6e-8', 'v5litepod-4', 'v5p-8'), else None."""
    found = _TPU_NAME.match(name.strip())
    if found is None:
        return None
    family, size = found.group(1).lower(), int(found.group(2))
    return table.chip_for(family), size // 2 if family in TPU_CORE_NAMED else size


def _truthy(text: str) -> bool | None:
    word = text.strip().lower()
    return True if word in ("true", "1", "yes") else False if word in ("false", "0", "no", "") else None


def read_gpuhunt(
    path: Path | str, table: PriceTable, provider: str | None = None, text: str | None = None
) -> PriceBook:
    """Quotes from one gpuhunt CSV; the cloud is its `provider` column, else the file's name."""
    path = Path(path)
    reader = _Reader(path, "a gpuhunt catalogue", text)
    index = reader.columns(GPUHUNT_COLUMNS, "gpuhunt")
    wanted = [*GPUHUNT_COLUMNS, "gpu_memory", "provider"]
    default_cloud = _cloud_id(provider or path.stem, path, "not_a_cloud_file")
    as_of = _mtime(path)
    found: dict[tuple[str, str, str, str], Quote] = {}
    for rec in reader.records(index, wanted):
        if not rec["gpu_name"]:
            continue  # a CPU-only offer
        cloud = rec.get("provider", "").lower() or default_cloud
        cloud = CLOUD_ALIASES.get(cloud, cloud)
        if not _REGION.match(cloud):
            reader.dropped[("bad_provider", "")] += 1
            continue
        chip = None
        tpu = tpu_slice(rec["gpu_name"], table)  # gpuhunt: one "GPU" named like the slice, priced per slice
        if tpu is not None:
            chip, chips = tpu
            count = float(chips)
        else:
            memory = rec.get("gpu_memory", "")
            try:
                gib = float(memory) if memory else None
            except ValueError:
                gib = None
            if gib is not None and math.isfinite(gib):
                chip = table.chip_for(f"{rec['gpu_name']}-{round(gib)}GB", rec["instance_name"])
            chip = chip or table.chip_for(rec["gpu_name"], rec["instance_name"])
            try:
                count = float(rec["gpu_count"])
            except ValueError:
                count = math.nan
        if chip is None:
            reader.dropped[("not_a_chip", "")] += 1
            continue
        if not math.isfinite(count) or count < 1 or count != int(count):
            reader.dropped[("not_whole", "")] += 1
            continue
        spot = _truthy(rec["spot"])
        if spot is None:
            reader.dropped[("spot_unclear", "")] += 1
            continue
        location = rec["location"].lower()
        zone = _GCP_ZONE.match(location) if cloud == "gcp" else None
        region = zone.group(1) if zone else location
        if not _REGION.match(region):
            reader.dropped[("bad_location", "")] += 1
            continue
        usd = reader.price(rec["price"])
        if usd is None:
            continue
        kind: Kind = "spot" if spot else "on-demand"
        instance, gpus = rec["instance_name"], {"n": str(int(count)), "gpu": rec["gpu_name"]}
        said = Said(id="note.offer", values={**gpus, "instance": instance}) if instance else None
        per_chip = round(usd / count, 6)
        _keep_cheapest(
            found,
            reader,
            (chip, cloud, region, kind),
            per_chip,
            partial(
                Quote,
                chip_id=chip,
                cloud=cloud,
                region=region,
                kind=kind,
                usd=per_chip,
                origin="gpuhunt",
                where=str(path),
                as_of=as_of,
                dated_by="file",
                said=said or Said(id="note.offer_unnamed", values=gpus),
            ),
        )
    quotes = sorted(found.values(), key=lambda q: (q.cloud, q.chip_id, q.region, q.kind))
    return PriceBook.of(quotes, [reader.note("gpuhunt", len(quotes), "price")])


def sniff(path: Path, text: str) -> Format:
    """Which catalogue a CSV file's text is, by its header; InputError otherwise."""
    first = text.split("\n", 1)[0]
    try:
        header = {h.strip() for h in next(csv.reader([first]), [])}
    except csv.Error:
        header = set()
    if {"InstanceType", "AcceleratorName", "Price"} <= header:
        return "skypilot"
    if {"instance_name", "gpu_name", "price"} <= header:
        return "gpuhunt"
    raise refused(path, "neither")


def _csv_files(folder: Path) -> list[Path]:
    """SkyPilot's <cloud>/vms.csv files under a catalogue folder, else the folder's own *.csv files."""
    try:
        nested = sorted(p for p in folder.glob("*/vms.csv") if p.is_file())
        own = sorted(p for p in folder.glob("*.csv") if p.is_file())
    except OSError as exc:
        raise refused(folder, "folder_unreadable", detail=str(exc.strerror or exc)) from None
    files = nested or own
    if not files:
        sky = default_skypilot_dir(folder.parent) if folder.name == ".sky" else None
        if sky is not None:
            return _csv_files(sky)
        raise refused(folder, "no_catalogue")
    if len(files) > MAX_PRICE_FILES:
        raise refused(folder, "too_many_files", n=f"{len(files):,}", limit=f"{MAX_PRICE_FILES:,}")
    return files


def not_used(exc: InputError) -> PriceBook:
    """The note on a catalogue in its default place that could not be read, and is left out: in English in
    the book's notes (JSON), in the language in use where it is shown."""
    english = Said(id="read.not_used", values={"problem": getattr(exc, "english", str(exc))}).english
    return PriceBook(notes=[english], said={english: Said(id="read.not_used", values={"problem": str(exc)})})


def read_path(path: Path | str, table: PriceTable | None = None) -> PriceBook:
    """Every quote in a catalogue file or folder; InputError on the first file that is refused."""
    table = table or load_price_table()
    path = Path(path).expanduser()
    try:
        is_dir = path.is_dir()
    except OSError:
        is_dir = False
    files = _csv_files(path) if is_dir else [path]
    book = PriceBook()
    for file in files:
        text = read_text(file, "a price catalogue", MAX_PRICE_FILE_BYTES)
        fmt = sniff(file, text)
        part = read_skypilot(file, table, text=text) if fmt == "skypilot" else read_gpuhunt(file, table, text=text)
        book = book.merged(part)
    return book


def load_book(
    extra: Iterable[Path | str] = (),
    defaults: bool = True,
    home: Path | None = None,
    table: PriceTable | None = None,
) -> PriceBook:
    """The shipped table plus local catalogues: those in their default places (a broken one becomes a
    note, not an error) and the `extra` paths given (a broken one is an InputError)."""
    table = table or load_price_table()
    book = PriceBook(quotes=shipped_quotes(table))
    if defaults:
        for place in default_places(home):
            try:
                book = book.merged(read_path(place, table))
            except InputError as exc:
                book = book.merged(not_used(exc))
    for path in extra:
        book = book.merged(read_path(path, table))
    return book
