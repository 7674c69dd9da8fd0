"""Price notes in every language: the shipped table's notes are text ids with values, a local catalogue's
quotes and what was read from it are said the same way, a table's own words are shown as written; JSON and
English keep their English words."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from gpu_tpu_app import i18n
from gpu_tpu_app.core.catalog import load_catalog
from gpu_tpu_app.core.price_import import read_gpuhunt, read_path, read_skypilot
from gpu_tpu_app.core.prices import PriceRow, PriceTable, Said, load_price_table, shipped_quotes
from gpu_tpu_app.core.texts import placeholders, read_text_file, text_folder
from gpu_tpu_app.errors import InputError
from tests.core.test_prices import GCP_VMS, GPUHUNT_GCP, GPUHUNT_LAMBDA, _write
from tools.i18n_allow import CJK, left_in_english

ZH = "zh-Hans"


@pytest.fixture
def table() -> PriceTable:
    return load_price_table()


def _values(said: Said) -> list[str]:
    out: list[str] = []
    for value in said.values.values():
        if isinstance(value, str):
            out.append(value)
        elif isinstance(value, Said):
            out += _values(value)
        else:
            for item in value:
                out += _values(item)
    return out


def test_every_note_of_the_shipped_table_is_a_text_id_said_in_chinese(table: PriceTable) -> None:
    noted = [q for q in shipped_quotes(table) if q.note is not None]
    assert len(noted) > 30
    for quote in noted:
        assert quote.said is not None, quote.note  # no English-only note ships
        assert quote.note == quote.said.english == quote.note_words("en")
        zh = quote.note_words(ZH)
        assert zh is not None and CJK.search(zh), zh
        assert zh != quote.note
        for value in _values(quote.said):  # instance names, counts and prices kept as they are
            assert value in zh, (value, zh)


@pytest.mark.parametrize(
    ("chip", "cloud", "region", "english", "chinese"),
    [
        ("tpu-v4", "gcp", "us-central2", "tpu-v4-8 (4 chips) over its chips", "tpu-v4-8（4 块芯片）的价格按芯片平摊"),
        (
            "h200",
            "nebius",
            "eu-north1",
            "gpu-h200-sxm 8 GPUs: 28.00 $/h (1 GPU: 3.50 $/h)",
            "gpu-h200-sxm，8 块 GPU：28.00 $/h（1 块 GPU：3.50 $/h）",
        ),
        ("tpu-v5p", "gcp", "us-central1", "tpu-v5p-11776 (5,888 chips) over its chips", "5,888 块芯片"),
        (
            "a100-80gb",
            "gcp",
            "us-east5",
            "8 x A100-80GB 35.39358 $/h plus a2-ultragpu-8g 8.79698 $/h, over 8 GPUs",
            "8 块 A100-80GB 35.39358 $/h，加上 a2-ultragpu-8g 8.79698 $/h，按 8 块 GPU 平摊",
        ),
    ],
)
def test_shipped_notes_read_as_before_in_english_and_in_chinese_words(
    table: PriceTable, chip: str, cloud: str, region: str, english: str, chinese: str
) -> None:
    (quote, *_) = [q for q in shipped_quotes(table) if (q.chip_id, q.cloud, q.region) == (chip, cloud, region)]
    assert quote.note == english
    assert quote.note_words("en") == english
    assert chinese in (quote.note_words(ZH) or "")


def test_every_note_text_has_its_chinese_twin_with_the_same_placeholders() -> None:
    en = read_text_file(text_folder() / "prices.en.toml")
    zh = read_text_file(text_folder() / "prices.zh-Hans.toml")
    for ident in [k for k in en if k.split(".")[0] in ("note", "read", "dropped", "own")]:
        assert ident in zh, ident
        assert placeholders(zh[ident]) == placeholders(en[ident]), ident
        assert CJK.search(zh[ident]) or ident in ("note.gpus_import", "read.drop_separator", "read.drop"), ident


def _row(note: object) -> dict[str, object]:
    return {"chip": "tpu-v4", "cloud": "gcp", "region": "us-central2", "on_demand": 3.0, "source": "s", "note": note}


def _table_file(tmp_path: Path, note: str) -> Path:
    path = tmp_path / "prices.toml"
    path.write_text(
        'schema_version = 1\n[[sources]]\nid = "s"\ntitle = "t"\nurl = "https://example.org/p"\nread = 2026-11-01\n'
        f'[[prices]]\nchip = "tpu-v4"\ncloud = "gcp"\nregion = "us-central2"\non_demand = 3.0\nsource = "s"\n{note}\n',
        encoding="utf-8",
    )
    return path


@pytest.mark.parametrize(
    ("note", "says"),
    [
        (
            'note = { id = "no_such_note", slice = "x" }',
            "prices.0.note: unknown note id 'no_such_note' (the ids are those of [note] in ",
        ),
        ('note = { slice = "x", chips = 4 }', "prices.0.note: unknown note id None"),
        ('note = { id = "slice_over_chips", slice = "tpu-v4-8" }', "note slice_over_chips: missing chips"),
        (
            'note = { id = "slice_over_chips", slice = "tpu-v4-8", chips = 4, size = 8 }',
            "note slice_over_chips: not in the text: size",
        ),
        ('note = { id = "slice_over_chips", slice = "a\\nb", chips = 4 }', "slice must be one line"),
        ('note = { id = "slice_over_chips", slice = "", chips = 4 }', "slice must be one line of 1 to 200"),
        (f'note = {{ id = "slice_over_chips", slice = "{"x" * 201}", chips = 4 }}', "1 to 200 characters"),
        ('note = { id = "slice_over_chips", slice = "s", chips = true }', "chips must be text or a whole number"),
        ('note = { id = "slice_over_chips", slice = "s", chips = 4.5 }', "chips must be text or a whole number"),
    ],
)
def test_a_bad_note_in_a_price_table_is_one_line_naming_the_row(tmp_path: Path, note: str, says: str) -> None:
    path = _table_file(tmp_path, note)
    with pytest.raises(InputError) as err:
        load_price_table(path)
    message = str(err.value)
    assert message.startswith(f"{path}: prices.0.note"), message
    assert says in message
    assert "\n" not in message


def test_a_tables_own_note_is_shown_as_written_and_marked_in_chinese(tmp_path: Path) -> None:
    path = _table_file(tmp_path, 'note = "our reserved price, ask Ana\\nbefore use"')
    (quote,) = shipped_quotes(load_price_table(path))
    assert quote.said is None
    assert quote.note == "our reserved price, ask Ana\nbefore use"  # the data as written (JSON)
    assert quote.note_words("en") == "our reserved price, ask Ana\\nbefore use"  # on one line
    assert quote.note_words(ZH) == "价格表原注：our reserved price, ask Ana\\nbefore use"


def test_a_note_given_by_id_in_ones_own_table_is_said_in_each_language(tmp_path: Path) -> None:
    path = _table_file(tmp_path, 'note = { id = "slice_over_chips", slice = "v4-32", chips = 16 }')
    (quote,) = shipped_quotes(load_price_table(path))
    assert quote.note == "v4-32 (16 chips) over its chips"
    assert quote.note_words(ZH) == "v4-32（16 块芯片）的价格按芯片平摊"
    assert PriceRow.model_validate(_row("plain")).said() is None


def test_skypilot_quotes_and_what_was_read_are_said_in_chinese(tmp_path: Path, table: PriceTable) -> None:
    book = read_skypilot(_write(tmp_path / "gcp" / "vms.csv", GCP_VMS), table)
    notes = {(q.chip_id, q.region): q for q in book.quotes}
    a100 = notes[("a100-40gb", "us-central1")]
    assert a100.note == "8 x A100 plus its host VM a2-highgpu-8g"
    assert a100.note_words(ZH) == "8 块 A100，加上宿主虚拟机 a2-highgpu-8g"
    assert notes[("t4", "us-central1")].note_words(ZH) == "只含 GPU；它所挂载的虚拟机另行计费"
    assert notes[("tpu-v6e", "us-central1")].note_words(ZH) == "tpu-v6e-8 的价格按其 8 块芯片平摊"
    (english,) = book.notes
    assert english.endswith(
        "SkyPilot catalogue, 10 chip prices from 12 rows; dropped 1 not a catalogue chip, "
        "2 not finite or negative, 3 placeholder 700"
    )
    (chinese,) = book.note_words(ZH)
    assert chinese.endswith(
        "SkyPilot 目录，从 12 行中得到 10 个芯片价格；丢弃的行：不是目录中的芯片：1 行，非有限值或为负数：2 行，"
        "占位价格 700：3 行"
    )
    assert book.note_words("en") == book.notes


def test_gpuhunt_offers_are_said_in_chinese(tmp_path: Path, table: PriceTable) -> None:
    book = read_gpuhunt(_write(tmp_path / "gcp.csv", GPUHUNT_GCP), table)
    quote = next(q for q in book.quotes if q.chip_id == "tpu-v5p")
    assert quote.note == "v5p-8: 4 x v5p-8"
    assert quote.note_words(ZH) == "v5p-8：4 块 v5p-8"
    lam = read_path(_write(tmp_path / "lambdalabs.csv", GPUHUNT_LAMBDA), table)
    (chinese,) = lam.note_words(ZH)
    assert "不是目录中的芯片：1 行" in chinese and "非有限值或为负数：1 行" in chinese


def test_prices_json_keeps_english_notes_in_chinese(tmp_path: Path, run_cli) -> None:
    sky = _write(tmp_path / "sky" / "gcp" / "vms.csv", GCP_VMS)
    argv = ["prices", "--all", "--no-local", "--from", str(sky.parent.parent), "--format", "json"]
    code_en, out_en, _ = run_cli("--lang", "en", *argv)
    code_zh, out_zh, _ = run_cli("--lang", "zh-Hans", *argv)
    assert code_en == code_zh == 0
    assert out_zh == out_en
    data = json.loads(out_en)
    assert any("over its chips" in (r["note"] or "") for c in data["chips"] for r in c["regions"])
    assert data["read"][0].endswith("2 not finite or negative, 3 placeholder 700")


def test_the_prices_table_in_chinese_has_no_english_note_and_the_same_figures(tmp_path: Path, run_cli) -> None:
    sky = _write(tmp_path / "sky" / "gcp" / "vms.csv", GCP_VMS)
    argv = ["prices", "--all", "--no-local", "--from", str(sky.parent.parent)]
    _, english, _ = run_cli("--lang", "en", *argv)
    _, chinese, _ = run_cli("--lang", "zh-Hans", *argv)
    for words in ("over its", "plus", "the same per chip", "GPUs:", "in every", "dropped", "catalogue,"):
        assert words in english
        assert words not in chinese, words
    figures = re.compile(r"\$[0-9][0-9,.]*|[0-9][0-9,.]* \$/h")
    assert sorted(figures.findall(chinese)) == sorted(figures.findall(english))
    assert "丢弃的行：" in chinese
    names = sorted((c.name for c in load_catalog().chips), key=len, reverse=True)  # the catalogue's own names
    for line in chinese.splitlines():
        for name in names:
            line = line.replace(name, " ")
        line = re.sub(r"https://\S+", " ", line)  # the sources' addresses
        assert not left_in_english(line), line


def test_a_gpuhunt_offer_name_with_a_line_break_stays_on_one_line(tmp_path: Path, table: PriceTable) -> None:
    offers = GPUHUNT_GCP.replace("a2-highgpu-1g,us-central1-b", '"a2-highgpu\n1g",us-central1-b')
    book = read_gpuhunt(_write(tmp_path / "gcp.csv", offers), table)
    quote = next(q for q in book.quotes if q.chip_id == "a100-40gb")
    assert quote.note == "a2-highgpu\n1g: 1 x A100"  # the data as read (JSON)
    for language in ("en", ZH):
        words = quote.note_words(language) or ""
        assert "\n" not in words and "a2-highgpu\\n1g" in words, words


@pytest.mark.parametrize(
    ("name", "content", "english", "chinese"),
    [
        (
            "nul.csv",
            "InstanceType,AcceleratorName,AcceleratorCount,Region,Price,SpotPrice\n\x00,x\n",
            "character 69: a NUL character",
            "第 69 个字符：NUL 字符",
        ),
        ("wrong.csv", "name,cost\nH100,2\n", "header: neither a SkyPilot catalogue", "表头：既不是 SkyPilot 目录"),
        (
            "gcp/vms.csv",
            "InstanceType,AcceleratorName,AcceleratorCount,Region,Price\np5,H100,8,us-east-1,3\n",
            "header: no column 'SpotPrice'; this is not a SkyPilot catalogue",
            "表头：没有 'SpotPrice' 列；这不是 SkyPilot 目录",
        ),
        (
            "gcp/vms.csv",
            "InstanceType,AcceleratorName,AcceleratorCount,Region,Price,SpotPrice\np5,H100,8,us-east-1,700.0,x\n",
            "Price: no usable price in 1 rows (1 not a number, 1 placeholder 700)",
            "Price：1 行中没有可用的价格（不是数字：1 行，占位价格 700：1 行）",
        ),
        (
            "bad cloud!/vms.csv",
            "InstanceType,AcceleratorName,AcceleratorCount,Region,Price,SpotPrice\n",
            "cloud (the folder name): 'bad cloud!' is not a cloud name",
            "云（文件夹名）：'bad cloud!' 不是云的名称",
        ),
    ],
)
def test_a_refused_catalogue_is_one_line_in_each_language(
    tmp_path: Path, run_cli, name: str, content: str, english: str, chinese: str
) -> None:
    path = _write(tmp_path / name, content)
    _, _, err_en = run_cli("--lang", "en", "prices", "--no-local", "--from", str(path))
    _, _, err_zh = run_cli("--lang", "zh-Hans", "prices", "--no-local", "--from", str(path))
    assert f"{path}: {english}" in err_en, err_en
    assert f"{path}: {chinese}" in err_zh, err_zh
    assert len(err_zh.strip().splitlines()) == 1


def test_an_empty_folder_is_refused_in_chinese(tmp_path: Path, run_cli) -> None:
    code, _, err = run_cli("--lang", "zh-Hans", "prices", "--no-local", "--from", str(tmp_path))
    assert code != 0
    assert f"{tmp_path}: 这里没有价格目录（没有 <cloud>/vms.csv，也没有 .csv 文件）" in err


@pytest.mark.parametrize(
    ("note", "chinese"),
    [
        ('note = { id = "no_such_note" }', "prices.0.note: 未知的说明 id 'no_such_note'（可用的 id 见"),
        ('note = { id = "slice_over_chips", slice = "s" }', "prices.0.note: 说明 slice_over_chips：缺少 chips"),
        (
            'note = { id = "slice_over_chips", slice = "s", chips = 4, size = 8 }',
            "prices.0.note: 说明 slice_over_chips：文字中没有 size",
        ),
        ('note = { id = "slice_over_chips", slice = "", chips = 4 }', "slice 必须是一行 1 到 200 个字符的文字"),
        (
            'note = "x"\nspot = 1.0\n[[prices]]\nchip = "tpu-v4"\ncloud = "gcp"\nregion = "us-central2"\n'
            'on_demand = 2.0\nsource = "s"',
            "prices.1: tpu-v4 在 gcp us-central2 的第二行",
        ),
    ],
)
def test_a_bad_price_table_is_named_in_chinese(tmp_path: Path, note: str, chinese: str) -> None:
    path = _table_file(tmp_path, note)
    i18n.set_language(ZH)
    try:
        with pytest.raises(InputError) as err:
            load_price_table(path)
    finally:
        i18n.set_language(None)
    message = str(err.value)
    assert message.startswith(f"{path}: "), message
    assert chinese in message, message


def test_a_price_over_the_bound_is_dropped_and_counted_not_a_traceback(tmp_path: Path, run_cli) -> None:
    path = _write(
        tmp_path / "gcp" / "vms.csv",
        "InstanceType,AcceleratorName,AcceleratorCount,Region,Price,SpotPrice\np5,H100,8,us-east-1,1e12,1\n"
        "p6,H100,8,us-west-1,1e300,1e300\n",
    )
    code, out, err = run_cli("--lang", "en", "prices", "--no-local", "--all", "--from", str(path))
    assert code == 0, err
    assert "1 chip prices from 2 rows; dropped 3 over 1,000,000 USD per chip-hour" in out
    _, out_zh, _ = run_cli("--lang", "zh-Hans", "prices", "--no-local", "--all", "--from", str(path))
    assert "丢弃的行：每芯片小时超过 1,000,000 美元：3 行" in out_zh
    only_high = _write(
        tmp_path / "aws" / "vms.csv",
        "InstanceType,AcceleratorName,AcceleratorCount,Region,Price,SpotPrice\np5,H100,8,us-east-1,1e12,\n",
    )
    code, _, err = run_cli("--lang", "en", "prices", "--no-local", "--from", str(only_high))
    assert code != 0 and "Traceback" not in err
    assert f"{only_high}: Price: no usable price in 1 rows (1 over 1,000,000 USD per chip-hour)" in err


def test_gpuhunt_offers_of_two_providers_in_one_region_are_both_kept(tmp_path: Path, table: PriceTable) -> None:
    offers = (
        "instance_name,location,price,cpu,memory,gpu_count,gpu_name,gpu_memory,spot,provider\n"
        "p5.48xlarge,us-east-1,55.04,192,2048,8,H100,80.0,False,aws\n"
        "gpu_8x_h100_sxm5,us-east-1,23.92,208,1800,8,H100,80.0,False,lambdalabs\n"
    )
    book = read_gpuhunt(_write(tmp_path / "offers.csv", offers), table)
    got = {(q.cloud, q.region): q.usd for q in book.quotes}
    assert got == {("aws", "us-east-1"): pytest.approx(6.88), ("lambda", "us-east-1"): pytest.approx(2.99)}


def test_a_catalogue_left_out_is_said_in_chinese_and_kept_in_english_in_json(
    tmp_path: Path, run_cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.delenv("GPUHUNT_CATALOG_DIR", raising=False)
    bad = _write(tmp_path / ".sky" / "catalogs" / "v8" / "gcp" / "vms.csv", "name,cost\nH100,2\n")
    _, out_zh, _ = run_cli("--lang", "zh-Hans", "prices")
    assert f"未使用：{bad}: 表头：既不是 SkyPilot 目录" in out_zh
    _, as_json_zh, _ = run_cli("--lang", "zh-Hans", "prices", "--format", "json")
    _, as_json_en, _ = run_cli("--lang", "en", "prices", "--format", "json")
    assert as_json_zh == as_json_en
    (note,) = json.loads(as_json_en)["read"]
    assert note.startswith(f"not used: {bad}: header: neither a SkyPilot catalogue")
