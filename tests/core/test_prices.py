"""Prices: the shipped table, SkyPilot and gpuhunt catalogues (fixtures in their formats), hostile files,
and which price wins."""

from __future__ import annotations

import datetime as dt
import os
from pathlib import Path

import pytest

from gpu_tpu_app.core.catalog import load_catalog
from gpu_tpu_app.core.price_import import (
    MAX_PRICE_FILE_BYTES,
    default_skypilot_dir,
    load_book,
    read_gpuhunt,
    read_path,
    read_skypilot,
)
from gpu_tpu_app.core.prices import (
    STALE_DAYS,
    PriceBook,
    PriceTable,
    Quote,
    format_age,
    load_price_table,
    shipped_quotes,
    spreads,
)
from gpu_tpu_app.core.texts import area_texts, text
from gpu_tpu_app.errors import InputError

# SkyPilot's Google Cloud catalogue: host VM rows, accelerator rows without an instance type (their
# host is billed on top), TPU rows priced per slice, the 700.0 placeholder, zones within regions.
GCP_VMS = """\
InstanceType,vCPUs,MemoryGiB,AcceleratorName,AcceleratorCount,GpuInfo,Region,AvailabilityZone,Price,SpotPrice
a2-highgpu-8g,96.0,680.0,,,,us-central1,us-central1-a,5.9,2.9
a2-highgpu-8g,96.0,680.0,,,,europe-west4,europe-west4-a,6.5,2.5
,,,A100,8,{'Gpus': [{'MemoryInfo': {'SizeInMiB': 40960}}]},us-central1,us-central1-a,23.5,11.5
,,,A100,8,{'Gpus': [{'MemoryInfo': {'SizeInMiB': 40960}}]},europe-west4,europe-west4-a,24.1,
,,,T4,1,{'Gpus': [{'MemoryInfo': {'SizeInMiB': 16384}}]},us-central1,us-central1-b,0.35,0.175
,,,V100,1,{'Gpus': [{'MemoryInfo': {'SizeInMiB': 16384}}]},us-central1,us-central1-b,2.48,1.09
,,,tpu-v6e-8,1,tpu-v6e-8,us-central1,us-central1-a,21.6,4.35366
,,,tpu-v6e-8,1,tpu-v6e-8,us-central1,us-central1-b,21.6,4.35366
,,,tpu-v6e-1,1,tpu-v6e-1,asia-east1,asia-east1-c,700.0,700.0
,,,tpu-v6e-1,1,tpu-v6e-1,southamerica-west1,southamerica-west1-a,2.7,700.0
,,,tpu-v5p-8,1,tpu-v5p-8,us-east5,us-east5-a,16.8,6.72
,,,tpu-v4-8,1,tpu-v4-8,us-central2,us-central2-b,nan,-1
"""
# SkyPilot's AWS catalogue: other columns, another order; the instance price covers its GPUs.
AWS_VMS = """\
InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,GpuInfo,Price,SpotPrice,Region,AvailabilityZone,Arch
p5.48xlarge,H100,8.0,192.0,2048.0,"{'Gpus': [{'Name': 'H100', 'Manufacturer': 'NVIDIA', 'Count': 8}]}",55.04,21.5,us-east-1,use1-az1,x86_64
p5.48xlarge,H100,8.0,192.0,2048.0,"{'Gpus': [{'Name': 'H100', 'Manufacturer': 'NVIDIA', 'Count': 8}]}",63.0,,eu-west-2,euw2-az1,x86_64
g5.xlarge,A10G,1.0,4.0,16.0,"{'Gpus': [{'Name': 'A10G', 'Count': 1}]}",1.006,0.43,us-east-1,use1-az2,x86_64
m5.large,,,2.0,8.0,,0.096,0.04,us-east-1,use1-az1,x86_64
trn1.32xlarge,Trainium,16.0,128.0,512.0,,21.5,8.0,us-east-1,use1-az1,x86_64
"""
AZURE_VMS = """\
InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,GpuInfo,Region,Price,SpotPrice,Generation
Standard_ND96isr_H100_v5,H100,8,96,1900,H100,eastus,98.32,,V2
Standard_NC4as_T4_v3,T4,1,4,28,T4,eastus,0.526,0.0526,V2
Standard_NV6ads_A10_v5,A10,0.167,6,55,A10,eastus,0.454,0.09,V2
"""
# SkyPilot's Lambda catalogue: one more column order, no spot, and "H100" for both PCIe and SXM cards.
LAMBDA_VMS = """\
InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,Price,Region,GpuInfo,SpotPrice
gpu_1x_h100_pcie,H100,1.0,26.0,200.0,3.29,us-east-1,"{'Gpus': [{'Name': 'H100', 'Count': 1.0}]}",
gpu_8x_h100_sxm5,H100,8.0,208.0,1800.0,31.92,us-east-1,"{'Gpus': [{'Name': 'H100', 'Count': 8.0}]}",
gpu_1x_h100_sxm5,H100,1.0,26.0,225.0,4.29,us-east-1,"{'Gpus': [{'Name': 'H100', 'Count': 1.0}]}",
cpu_4x_general,,,4.0,16.0,0.2,us-east-1,,
"""
# dstack gpuhunt's v2 catalogue: one <provider>.csv per cloud, a price per offer, spot as a column.
GPUHUNT_GCP = """\
instance_name,location,price,cpu,memory,gpu_count,gpu_name,gpu_memory,spot,disk_size,gpu_vendor,flags
a2-ultragpu-1g,us-central1-a,5.07,12,170,1,A100,80.0,False,,nvidia,
a2-ultragpu-1g,us-central1-a,1.6,12,170,1,A100,80.0,True,,nvidia,
a2-highgpu-1g,us-central1-b,3.67,12,85,1,A100,40.0,False,,nvidia,
v5litepod-4,us-west4-a,4.8,112,192,1,v5litepod-4,64,False,,google,
v5p-8,us-east5-a,16.8,208,448,1,v5p-8,95,False,,google,
v5p-8,us-east5-a,6.72,208,448,1,v5p-8,95,True,,google,
n1-standard-4,us-central1-a,0.19,4,15,0,,,False,,,
"""
GPUHUNT_LAMBDA = """\
instance_name,location,price,cpu,memory,gpu_count,gpu_name,gpu_memory,spot,disk_size,gpu_vendor,flags
gpu_8x_h100_sxm5,us-east-1,23.92,208,1800,8,H100,80.0,False,,nvidia,
gpu_1x_gh200,us-east-1,1.49,64,432,1,GH200,96.0,False,,nvidia,
gpu_1x_h100_pcie,us-west-1,inf,30,200,1,H100,80.0,False,,nvidia,
"""


@pytest.fixture
def table() -> PriceTable:
    return load_price_table()


def _write(path: Path, text: str, age_hours: float | None = None) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    if age_hours is not None:
        stamp = dt.datetime.now(dt.UTC).timestamp() - age_hours * 3600
        os.utime(path, (stamp, stamp))
    return path


def _by(book: PriceBook) -> dict[tuple[str, str, str, str], Quote]:
    return {(q.chip_id, q.cloud, q.region, q.kind): q for q in book.quotes}


@pytest.fixture
def sky(tmp_path: Path) -> Path:
    root = tmp_path / "home" / ".sky" / "catalogs" / "v8"
    _write(root / "gcp" / "vms.csv", GCP_VMS, age_hours=3)
    _write(root / "aws" / "vms.csv", AWS_VMS, age_hours=3)
    _write(root / "azure" / "vms.csv", AZURE_VMS, age_hours=3)
    return root


# ------------------------------------------------------------------ the shipped table


def test_shipped_table_is_valid_sourced_and_dated(table: PriceTable) -> None:
    chips = {c.id for c in load_catalog().chips}
    assert table.prices, "the shipped table has rows"
    sources = {s.id: s for s in table.sources}
    for row in table.prices:
        assert row.chip in chips
        assert row.source in sources
        assert sources[row.source].url.startswith("https://")
        assert row.spot is None or row.spot > 0
    assert set(table.names.values()) <= chips
    # the chips the README says are priced: Google Cloud TPUs and GPUs
    assert {"tpu-v5e", "tpu-v5p", "tpu-v6e", "tpu-v4", "a100-40gb", "h100-sxm"} <= {r.chip for r in table.prices}


def test_shipped_quotes_say_shipped_table_and_read_date(table: PriceTable) -> None:
    quote = next(q for q in shipped_quotes(table) if q.chip_id == "tpu-v6e" and q.region == "us-central1")
    read = table.source(table.prices[0].source).read.isoformat()
    assert quote.describe_age(quote.as_of + dt.timedelta(days=2)) == f"shipped table, read {read}"
    later = quote.as_of + dt.timedelta(days=STALE_DAYS + 1)
    assert quote.stale(later)
    assert "stale" in quote.describe_age(later)


@pytest.mark.parametrize(
    ("edit", "field"),
    [
        (lambda s: s.replace("schema_version = 1", "schema_version = 9"), "schema_version"),
        (lambda s: s.replace('chip = "tpu-v6e"', 'chip = "tpu-v99"', 1), "prices.0.chip"),
        (lambda s: s.replace("on_demand = 2.70", "on_demand = -2.70", 1), "prices.0.on_demand"),
        (lambda s: s.replace("on_demand = 2.70", "on_demand = nan", 1), "prices.0.on_demand"),
        (lambda s: s.replace('source = "skypilot-gcp-006059e"', 'source = "nowhere"', 1), "prices.0.source"),
        (lambda s: s.replace('region = "us-east1"', 'region = "us-central1"', 1), "prices.1"),
        (lambda s: s.replace("read = 2026-12-01", 'read = "yesterday"'), "sources.0.read"),
    ],
)
def test_a_bad_price_table_is_refused_naming_the_field(tmp_path: Path, edit, field: str) -> None:
    from gpu_tpu_app.assets import resource_path

    text = resource_path("prices", "prices.toml").read_text(encoding="utf-8")
    bad = _write(tmp_path / "prices.toml", edit(text))
    with pytest.raises(InputError) as err:
        load_price_table(bad, {c.id for c in load_catalog().chips})
    message = str(err.value)
    assert message.startswith(f"{bad}: {field}")
    assert "\n" not in message


# ------------------------------------------------------------------ SkyPilot


def test_skypilot_gcp_gpu_is_its_accelerator_plus_its_host_vm(sky: Path, table: PriceTable) -> None:
    book = read_skypilot(sky / "gcp" / "vms.csv", table)
    got = _by(book)
    a100 = got[("a100-40gb", "gcp", "us-central1", "on-demand")]
    assert a100.usd == pytest.approx((23.5 + 5.9) / 8)
    assert "a2-highgpu-8g" in (a100.note or "")
    assert got[("a100-40gb", "gcp", "us-central1", "spot")].usd == pytest.approx((11.5 + 2.9) / 8)
    assert ("a100-40gb", "gcp", "europe-west4", "spot") not in got  # an empty SpotPrice is no spot price
    t4 = got[("t4", "gcp", "us-central1", "on-demand")]
    assert t4.usd == pytest.approx(0.35)
    assert "GPU only" in (t4.note or "")


def test_skypilot_tpu_rows_are_priced_per_chip(sky: Path, table: PriceTable) -> None:
    got = _by(read_skypilot(sky / "gcp" / "vms.csv", table))
    assert got[("tpu-v6e", "gcp", "us-central1", "on-demand")].usd == pytest.approx(2.7)  # 21.6 over 8 chips
    assert got[("tpu-v6e", "gcp", "us-central1", "spot")].usd == pytest.approx(4.35366 / 8)
    # v5p names count TensorCores: tpu-v5p-8 is 4 chips
    assert got[("tpu-v5p", "gcp", "us-east5", "on-demand")].usd == pytest.approx(4.2)


def test_skypilot_placeholders_nan_negative_and_unknown_chips_are_dropped_with_counts(
    sky: Path, table: PriceTable
) -> None:
    book = read_skypilot(sky / "gcp" / "vms.csv", table)
    got = _by(book)
    assert ("tpu-v6e", "gcp", "asia-east1", "on-demand") not in got  # 700.0 is SkyPilot's "unknown"
    assert got[("tpu-v6e", "gcp", "southamerica-west1", "on-demand")].usd == pytest.approx(2.7)
    assert ("tpu-v6e", "gcp", "southamerica-west1", "spot") not in got
    assert not any(q.chip_id == "tpu-v4" for q in book.quotes)  # nan and -1
    (note,) = book.notes
    assert "3 placeholder 700" in note
    assert "2 not finite or negative" in note
    assert "1 not a catalogue chip" in note  # V100
    assert "\n" not in note


def test_skypilot_columns_are_found_by_header_in_any_order(sky: Path, table: PriceTable) -> None:
    aws = _by(read_skypilot(sky / "aws" / "vms.csv", table))
    assert aws[("h100-sxm", "aws", "us-east-1", "on-demand")].usd == pytest.approx(55.04 / 8)
    assert aws[("h100-sxm", "aws", "us-east-1", "spot")].usd == pytest.approx(21.5 / 8)
    assert aws[("a10g", "aws", "us-east-1", "on-demand")].usd == pytest.approx(1.006)
    azure_book = read_skypilot(sky / "azure" / "vms.csv", table)
    azure = _by(azure_book)
    assert azure[("h100-sxm", "azure", "eastus", "on-demand")].usd == pytest.approx(98.32 / 8)
    assert azure[("t4", "azure", "eastus", "spot")].usd == pytest.approx(0.0526)
    assert "not a whole number of accelerators" in azure_book.notes[0]  # a sixth of an A10


def test_the_skypilot_folder_reads_every_cloud_and_dates_by_file(sky: Path, table: PriceTable) -> None:
    book = read_path(sky, table)
    assert set(book.clouds()) == {"gcp", "aws", "azure"}
    quote = next(q for q in book.quotes if q.cloud == "aws")
    assert quote.describe_age() == "SkyPilot catalogue, 3 h old"
    assert default_skypilot_dir(sky.parents[2]) == sky
    assert read_path(sky.parents[1], table).clouds() == book.clouds()  # ~/.sky works too


def test_the_instance_name_tells_pcie_from_sxm(tmp_path: Path, table: PriceTable) -> None:
    got = _by(read_skypilot(_write(tmp_path / "lambda" / "vms.csv", LAMBDA_VMS), table))
    assert got[("h100-pcie", "lambda", "us-east-1", "on-demand")].usd == pytest.approx(3.29)
    assert got[("h100-sxm", "lambda", "us-east-1", "on-demand")].usd == pytest.approx(31.92 / 8)  # not the PCIe card
    assert not any(kind == "spot" for (_, _, _, kind) in got)


# ------------------------------------------------------------------ gpuhunt


def test_gpuhunt_offers_are_per_gpu_by_memory_and_spot_column(tmp_path: Path, table: PriceTable) -> None:
    book = read_gpuhunt(_write(tmp_path / "gcp.csv", GPUHUNT_GCP), table)
    got = _by(book)
    assert got[("a100-80gb", "gcp", "us-central1", "on-demand")].usd == pytest.approx(5.07)
    assert got[("a100-80gb", "gcp", "us-central1", "spot")].usd == pytest.approx(1.6)
    assert got[("a100-40gb", "gcp", "us-central1", "on-demand")].usd == pytest.approx(3.67)  # zone -> region
    # a TPU offer is one "GPU" named like its slice, priced per slice: over its chips (v5p-8 is 4 chips)
    assert got[("tpu-v5e", "gcp", "us-west4", "on-demand")].usd == pytest.approx(1.2)
    assert got[("tpu-v5p", "gcp", "us-east5", "on-demand")].usd == pytest.approx(4.2)
    assert got[("tpu-v5p", "gcp", "us-east5", "spot")].usd == pytest.approx(1.68)
    assert got[("a100-80gb", "gcp", "us-central1", "on-demand")].origin == "gpuhunt"


def test_gpuhunt_provider_comes_from_the_file_name(tmp_path: Path, table: PriceTable) -> None:
    book = read_path(_write(tmp_path / "lambdalabs.csv", GPUHUNT_LAMBDA), table)
    got = _by(book)
    # gpuhunt's "lambdalabs" is SkyPilot's and the shipped table's "lambda": one cloud, so the newest price wins
    assert got[("h100-sxm", "lambda", "us-east-1", "on-demand")].usd == pytest.approx(23.92 / 8)
    assert "1 not a catalogue chip" in book.notes[0]  # GH200
    assert "1 not finite or negative" in book.notes[0]


# ------------------------------------------------------------------ hostile files


@pytest.mark.parametrize(
    ("name", "content", "says"),
    [
        ("binary.csv", b"\x89PNG\r\n\x1a\n\x00\x00\xff\xfe", "not UTF-8"),
        (
            "nul.csv",
            b"InstanceType,AcceleratorName,AcceleratorCount,Region,Price,SpotPrice\n\x00,\x00\n",
            "a NUL character; binary data, not CSV",
        ),
        ("wrong.csv", b"name,cost\nH100,2\n", "header: neither a SkyPilot"),
        (
            "noprice.csv",
            b"InstanceType,AcceleratorName,AcceleratorCount,Region,Price\np5,H100,8,us-east-1,3\n",
            "header: no column 'SpotPrice'",
        ),
        (
            "nan.csv",
            b"instance_name,location,price,gpu_count,gpu_name,spot\na,us,nan,1,H100,False\nb,us,-3,1,H100,False\n",
            "price: no usable price in 2 rows (2 not finite or negative)",
        ),
        (
            "text.csv",
            b"InstanceType,AcceleratorName,AcceleratorCount,Region,Price,SpotPrice\np5,H100,8,us-east-1,free,\n",
            "Price: no usable price in 1 rows (1 not a number)",
        ),
        (
            "long.csv",
            b"instance_name,location,price,gpu_count,gpu_name,spot\na,us,1,1," + b"H" * 5000 + b",False\n",
            "line 2: gpu_name: longer than 1,000 characters",
        ),
    ],
)
def test_hostile_csv_is_refused_in_one_line_naming_file_and_field(
    tmp_path: Path, table: PriceTable, name: str, content: bytes, says: str
) -> None:
    path = tmp_path / "cat" / name
    path.parent.mkdir()
    path.write_bytes(content)
    with pytest.raises(InputError) as err:
        read_path(path, table)
    message = str(err.value)
    assert message.startswith(str(path))
    assert says in message
    assert "\n" not in message


def test_a_huge_csv_is_refused_before_it_is_read(tmp_path: Path, table: PriceTable) -> None:
    path = tmp_path / "huge.csv"
    with path.open("wb") as f:
        f.truncate(MAX_PRICE_FILE_BYTES + 1)  # sparse: no disk used
    with pytest.raises(InputError, match=r"huge\.csv: is .* over the 256 MiB limit"):
        read_path(path, table)


def test_a_fifo_or_folder_without_catalogues_is_refused(tmp_path: Path, table: PriceTable) -> None:
    fifo = tmp_path / "pipe.csv"
    os.mkfifo(fifo)
    with pytest.raises(InputError, match="named pipe"):
        read_path(fifo, table)
    with pytest.raises(InputError, match="no price catalogue here"):
        read_path(tmp_path / "empty", table) if (tmp_path / "empty").mkdir() is None else None


# ------------------------------------------------------------------ which price wins


def test_the_newest_source_wins_per_chip_cloud_region_and_kind(tmp_path: Path, sky: Path) -> None:
    home = sky.parents[2]
    # the local catalogue says tpu-v6e us-central1 costs 21.6 / 8 = 2.70; make it newer and different
    _write(sky / "gcp" / "vms.csv", GCP_VMS.replace("21.6,4.35366", "24.0,4.0"), age_hours=1)
    book = load_book(home=home)
    (winner,) = book.select("tpu-v6e", "on-demand", "gcp", "us-central1")
    assert winner.origin == "skypilot"
    assert winner.usd == pytest.approx(3.0)
    assert winner.describe_age() == "SkyPilot catalogue, 1 h old"
    # a region only the shipped table knows keeps the shipped price
    (shipped,) = book.select("tpu-v6e", "on-demand", "gcp", "europe-west4")
    assert shipped.origin == "shipped"
    # an old local file loses to the newer shipped table
    old = _write(tmp_path / "old" / "gcp" / "vms.csv", GCP_VMS.replace("21.6,4.35366", "80.0,40.0"), age_hours=24 * 400)
    (kept,) = load_book([old.parent.parent], defaults=False).select("tpu-v6e", "on-demand", "gcp", "us-central1")
    assert kept.origin == "shipped"


def test_a_broken_catalogue_in_the_default_place_is_a_note_but_given_with_from_an_error(sky: Path) -> None:
    _write(sky / "gcp" / "vms.csv", "nothing,useful\n1,2\n")
    book = load_book(home=sky.parents[2])
    assert any(note.startswith("not used: ") and "gcp" in note for note in book.notes)
    assert book.select("tpu-v6e", "on-demand", "gcp", "us-central1")[0].origin == "shipped"
    with pytest.raises(InputError):
        load_book([sky / "gcp" / "vms.csv"], defaults=False)


def test_spreads_give_cheapest_and_dearest_place_per_chip(sky: Path) -> None:
    book = load_book([sky], defaults=False)
    h100 = next(s for s in spreads(book) if s.chip_id == "h100-sxm")
    assert h100.cheapest.usd <= h100.dearest.usd
    assert h100.places == len(book.select("h100-sxm", "on-demand"))
    assert h100.dearest.cloud == "gcp" or h100.dearest.usd >= 98.32 / 8


def test_format_age() -> None:
    assert format_age(dt.timedelta(minutes=5)) == "5 min"
    assert format_age(dt.timedelta(hours=3, minutes=10)) == "3 h"
    assert format_age(dt.timedelta(days=12)) == "12 days"


def test_cheapest_step_names_the_verdicts_chips_at_their_cheapest_place() -> None:
    from gpu_tpu_app.core.prices import cheapest_step, shipped_book

    chips = [(c.id, c.name, c.family) for c in load_catalog().chips]
    book = shipped_book()
    tpu = cheapest_step(book, chips, "tpu")
    assert tpu is not None and tpu.startswith("Cheapest places to rent TPUs now: ")
    v5e = book.cheapest("tpu-v5e", "on-demand")
    assert v5e is not None
    assert f"Google TPU v5e $1.20/chip-hour in {v5e.place()}" in tpu  # the cheapest TPU comes first
    assert "NVIDIA" not in tpu and "shipped table, read 20" in tpu
    gpu = cheapest_step(book, chips, "gpu")
    assert gpu is not None and "NVIDIA" in gpu and "Google TPU" not in gpu
    assert cheapest_step(PriceBook(), chips, "tpu") is None


def test_a_spot_only_row_prices_spot_and_leaves_on_demand_open(tmp_path: Path) -> None:
    from gpu_tpu_app.core.prices import shipped_book

    book = shipped_book()
    assert book.cheapest("trainium2", "on-demand") is None
    spot = book.cheapest("trainium2", "spot")
    assert spot is not None and spot.usd == pytest.approx(23.0631 / 16, abs=1e-5)
    from gpu_tpu_app.assets import resource_path

    text = resource_path("prices", "prices.toml").read_text(encoding="utf-8")
    bad = _write(tmp_path / "prices.toml", text.replace("spot = 1.44144\n", ""))
    with pytest.raises(InputError, match="a row needs on_demand, spot or both"):
        load_price_table(bad)


def test_a_local_catalogue_older_than_90_days_is_marked_stale(tmp_path: Path, table: PriceTable) -> None:
    old = _write(tmp_path / "aws" / "vms.csv", AWS_VMS, age_hours=24 * 120)
    quote = next(q for q in read_path(old, table).quotes if q.chip_id == "h100-sxm")
    assert quote.stale()
    assert quote.describe_age() == "SkyPilot catalogue, 120 days old (stale: over 90 days)"
    fresh = _write(tmp_path / "new" / "aws" / "vms.csv", AWS_VMS, age_hours=24 * 89)
    assert not next(q for q in read_path(fresh, table).quotes if q.chip_id == "h100-sxm").stale()


# --------------------------------------------------------------------------- issue 33: the chips people rent most


def test_the_shipped_table_covers_the_chips_people_rent_most() -> None:
    rows = load_price_table().prices
    places = {(row.chip, row.cloud) for row in rows}
    assert {("l4", "gcp"), ("l4", "aws"), ("a10g", "aws")} <= places  # GCP G2, AWS G6 and G5
    assert {cloud for chip, cloud in places if chip == "h200"} & {"gcp", "aws", "azure"}  # H200 on a hyperscaler
    sources = {source.id: source for source in load_price_table().sources}
    for row in rows:
        assert row.source in sources and sources[row.source].read is not None  # each row with its source and date
        if row.on_demand is not None and row.spot is not None:
            assert row.spot < row.on_demand, (row.chip, row.cloud, row.region)  # Spot is the cheaper kind


def test_a_flex_start_price_is_not_shipped_as_on_demand() -> None:
    """The GCP catalogue's H100 "on-demand" price in us-central1 is a flex-start price (less than half of the
    other regions'); the row keeps its Spot price only."""
    gcp_h100 = {row.region: row for row in load_price_table().prices if (row.chip, row.cloud) == ("h100-sxm", "gcp")}
    assert gcp_h100["us-central1"].on_demand is None and gcp_h100["us-central1"].spot is not None
    on_demand = [row.on_demand for row in gcp_h100.values() if row.on_demand is not None]
    assert max(on_demand) < 2 * min(on_demand)


def test_an_on_demand_price_far_below_its_own_cloud_is_not_shipped() -> None:
    """A flex-start or Spot price filed as on-demand shows as an outlier: under 60% of the same chip's dearest
    on-demand price in the same cloud (the GCP H100 us-central1 and A100-80GB us-central1/us-east4 figures were
    43-50%; real regional spreads in the table are 77% or more)."""
    rows = load_price_table().prices
    dearest: dict[tuple[str, str], float] = {}
    for row in rows:
        if row.on_demand is not None:
            key = (row.chip, row.cloud)
            dearest[key] = max(dearest.get(key, 0.0), row.on_demand)
    for row in rows:
        if row.on_demand is not None:
            assert row.on_demand >= 0.6 * dearest[(row.chip, row.cloud)], (row.chip, row.cloud, row.region)
    gcp_a100_80 = {row.region: row for row in rows if (row.chip, row.cloud) == ("a100-80gb", "gcp")}
    assert gcp_a100_80["us-central1"].on_demand is None and gcp_a100_80["us-central1"].spot is not None
    assert gcp_a100_80["us-east4"].on_demand is None and gcp_a100_80["us-east4"].spot is not None


def test_every_gcp_gpu_row_says_whether_its_host_vm_is_in_the_price() -> None:
    """On Google Cloud a GPU is billed with the VM it is attached to; a row that leaves the host out (so it looks
    cheap: T4, L4, H200, B200) must say so in its note, in every language."""
    included = {"gpus_host_usd", "gpus_host", "gpu_host_usd", "gpu_host"}
    excluded = {"gpus_host_not_included", "gpu_only_host_named", "gpu_only"}
    rows = [row for row in load_price_table().prices if row.cloud == "gcp" and not row.chip.startswith("tpu-")]
    assert rows
    for row in rows:
        assert isinstance(row.note, dict) and row.note.get("id") in included | excluded, (row.chip, row.region)
    gcp_b200 = next(row for row in rows if row.chip == "b200")
    assert isinstance(gcp_b200.note, dict) and gcp_b200.note["id"] in excluded
    for row in rows:
        assert isinstance(row.note, dict)
        if row.note["id"] in excluded:
            values = {key: value for key, value in row.note.items() if key != "id"}
            english = text(f"prices.note.{row.note['id']}", language="en", **values)
            assert "not included" in english or "billed on top" in english, english
            assert f"note.{row.note['id']}" in area_texts("prices", "zh-Hans")


def test_azure_has_h100_and_a100_rows_from_a_cited_source() -> None:
    """`deployment = azure` prices GPUs from Azure's own rows (H100, A100 40 GB and 80 GB, pay-as-you-go); a
    "Spot" figure equal to the on-demand one is no Spot price and is not shipped."""
    table = load_price_table()
    azure = {row.chip: row for row in table.prices if row.cloud == "azure"}
    assert {"h100-sxm", "a100-40gb", "a100-80gb"} <= set(azure)
    sources = {source.id: source for source in table.sources}
    for row in azure.values():
        assert row.on_demand is not None and row.source in sources and sources[row.source].read is not None
        assert row.spot is None or row.spot < row.on_demand
    assert azure["h100-sxm"].spot is None  # the catalogue's Spot column repeats the pay-as-you-go price
    book = PriceBook(quotes=shipped_quotes(table))
    cheapest = book.cheapest("h100-sxm", "on-demand", "azure")
    assert cheapest is not None and cheapest.cloud == "azure"
