"""The accelerator catalogue's words in zh-Hans (resources/catalog/chips.zh-Hans.toml, core.catalog_text):
every text of the shipped catalogue translated with its numbers and units, the file checked against the
catalogue it sits beside, a catalogue without translations shown in English, and the places that show
the words (the catalog command, the estimate's MFU evidence, fast-link notes and decode share) in Chinese
while JSON and the English output stay as they were."""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from gpu_tpu_app import i18n
from gpu_tpu_app.assets import resource_path
from gpu_tpu_app.commands import catalog as catalog_command
from gpu_tpu_app.commands.estimate import format_table
from gpu_tpu_app.core import catalog_text
from gpu_tpu_app.core.catalog import TEXT_FIELDS, Catalog, load_catalog
from gpu_tpu_app.core.estimate import EstimateRequest, estimate
from gpu_tpu_app.core.estimate.text import estimate_warnings, mfu_source_words, note_lines
from gpu_tpu_app.errors import InputError
from tools.i18n_allow import CJK, left_in_english

SHIPPED = resource_path("catalog", "chips.toml")
ZH = resource_path("catalog", "chips.zh-Hans.toml")


@pytest.fixture
def en(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv(i18n.LANG_ENV, "en")
    i18n.set_language(None)
    yield
    monkeypatch.undo()
    i18n.set_language(None)


def _names(catalog: Catalog) -> set[str]:
    """The catalogue's own ids and names, which Chinese text writes as they are."""
    names = {s.id for s in catalog.sources}
    for chip in catalog.chips:
        names |= {chip.id, chip.memory_type, *re.findall(r"[\w.-]+", chip.name)}
    return names


def _english_words(text: str, names: set[str]) -> list[str]:
    """The Latin words of a zh-Hans text that are neither allowed names nor the catalogue's own ones: every
    word is checked, also in a line that has Chinese in it (left_in_english alone passes any such line)."""
    text = re.sub(r"（[A-Za-z][A-Za-z -]{0,30}）", " ", text)  # a term glossed as the terms table does: 切片（slice）
    latin = re.sub(r"(?<![\w.-])\d[\w.]*", " ", CJK.sub(" ", text))  # a number with its suffix: 405B, 16K, 3D
    return [w for w in left_in_english(latin) if w not in names]


# ------------------------------------------------------------------ the shipped translations


def test_every_text_of_the_shipped_catalogue_has_a_zh_text() -> None:
    catalog = load_catalog()
    english = catalog.english_texts()
    translated = catalog.translations("zh-Hans")
    assert len(english) > 150  # links, notes, reasons, MFU evidence of 27 chips
    assert sorted(set(english) - set(translated)) == []
    assert set(translated) == set(english)
    # every chip's link and, for each figure that carries words, its note or reason
    for chip in catalog.chips:
        assert f"chips.{chip.id}.interconnect" in translated
        for field, figure in chip.figures().items():
            for part in ("note", "reason"):
                if getattr(figure, part) is not None:
                    assert f"chips.{chip.id}.{field}.{part}" in translated


def test_each_zh_text_keeps_the_numbers_and_units_of_its_english() -> None:
    catalog = load_catalog()
    english = catalog.english_texts()
    for key, said in catalog.translations("zh-Hans").items():
        assert catalog_text.figures_of(said) == catalog_text.figures_of(english[key]), key


def test_each_zh_text_is_chinese_with_no_english_left() -> None:
    catalog = load_catalog()
    names = _names(catalog)
    for key, said in catalog.translations("zh-Hans").items():
        assert CJK.search(said), (key, said)
        assert _english_words(said, names) == [], (key, said)
        assert said != catalog.english_texts()[key]


def test_the_figures_check_tells_a_changed_number_or_unit() -> None:
    assert catalog_text.same_figures("NVLink 4, 900 GB/s both ways", "NVLink 4，双向 900 GB/s")
    assert catalog_text.same_figures("a pod of 4,096 chips (3D mesh)", "一个 pod 有 4,096 块芯片（3D 网格）")
    assert not catalog_text.same_figures("900 GB/s both ways", "双向 950 GB/s")
    assert not catalog_text.same_figures("900 GB/s both ways", "双向 900 TB/s")
    assert not catalog_text.same_figures("41-48%", "41-48")
    assert not catalog_text.same_figures("8 GPUs", "8 块 GPU，共 2 组")


# ------------------------------------------------------------------ the file checked at load


def _copy(tmp_path: Path, zh_text: str | None) -> Path:
    """The shipped catalogue copied to tmp_path, with `zh_text` as its zh-Hans file (None: none beside it)."""
    target = tmp_path / "chips.toml"
    shutil.copy(SHIPPED, target)
    if zh_text is not None:
        (tmp_path / "chips.zh-Hans.toml").write_text(zh_text, encoding="utf-8")
    return target


@pytest.mark.parametrize(
    ("entry", "problem"),
    [
        ('[chips.h999]\ninterconnect = "无"', "chips.h999.interconnect: unknown chip id 'h999'"),
        ('[chips.t4]\ninterconect = "无"', "chips.t4.interconect: unknown field 'interconect'"),
        ('[chips.t4]\nbf16.colour = "无"', "chips.t4.bf16.colour: unknown field 'bf16.colour'"),
        ('[chips.t4]\nllc.note = "L2 缓存"', "chips.t4.llc.note: the catalogue has no llc.note for chip 't4'"),
        ("[chips.t4]\ninterconnect = 3", "chips.t4.interconnect: must be a string"),
        ('[chips.t4]\ninterconnect = " "', "chips.t4.interconnect: must be one line"),
        ('[chips.t4]\ninterconnect = "一\\n二"', "chips.t4.interconnect: must be one line"),
        ('[mfu.cpu]\nrange = "无"', "mfu.cpu.range: unknown key"),
        ('[sources]\ntitle = "无"', "sources.title: unknown key"),
    ],
)
def test_a_bad_translation_is_one_line_naming_the_file_and_the_key(
    tmp_path: Path, en: None, entry: str, problem: str
) -> None:
    catalog = load_catalog(_copy(tmp_path, f"schema_version = 1\n{entry}\n"))  # English: the file is not read
    with pytest.raises(InputError) as caught:
        catalog.translations("zh-Hans")
    message = str(caught.value)
    assert message.startswith(f"{tmp_path / 'chips.zh-Hans.toml'}: {problem}"), message
    assert "\n" not in message


def test_in_zh_the_catalogue_loader_refuses_a_bad_translation_in_chinese(tmp_path: Path, zh: None) -> None:
    path = _copy(tmp_path, 'schema_version = 1\n[chips.h999]\ninterconnect = "无"\n')
    with pytest.raises(InputError) as caught:
        load_catalog(path)
    assert (
        str(caught.value)
        == f"{tmp_path / 'chips.zh-Hans.toml'}: chips.h999.interconnect: 未知的芯片 id 'h999'（目录中没有）"
    )
    path.with_name("chips.zh-Hans.toml").write_text('schema_version = 1\n[chips.t4]\ncolour = "红"\n', encoding="utf-8")
    with pytest.raises(
        InputError, match=r"chips\.t4\.colour: 未知的字段 'colour'（芯片可翻译的字段：interconnect、mfu\.note"
    ):
        load_catalog(path)


def test_a_translation_file_of_another_version_or_not_toml_is_refused(tmp_path: Path, en: None) -> None:
    with pytest.raises(InputError, match=r"chips\.zh-Hans\.toml: schema_version: 2 \(this app reads 1\)"):
        load_catalog(_copy(tmp_path, 'schema_version = 2\n[chips.t4]\ninterconnect = "无"\n')).translations("zh-Hans")
    with pytest.raises(InputError, match=r"chips\.zh-Hans\.toml: schema_version: missing \(this app reads 1\)"):
        load_catalog(_copy(tmp_path, '[chips.t4]\ninterconnect = "无"\n')).translations("zh-Hans")
    with pytest.raises(InputError, match=r"chips\.zh-Hans\.toml: not valid TOML"):
        load_catalog(_copy(tmp_path, "schema_version = \n")).translations("zh-Hans")


def test_in_english_the_translation_file_is_not_read(tmp_path: Path, en: None) -> None:
    path = _copy(tmp_path, "not toml at all = = =\n")
    catalog = load_catalog(path)
    assert catalog.interconnect(catalog.chip("t4")) == "PCIe Gen3 x16, no NVLink"


def test_a_user_catalogue_without_translations_loads_and_shows_english(tmp_path: Path, zh: None) -> None:
    catalog = load_catalog(_copy(tmp_path, None))
    assert catalog.translations("zh-Hans") == {}
    assert catalog.words() == catalog.english_texts()
    table = catalog_command.format_table(catalog)
    assert "  l4: PCIe Gen4 x16 (64 GB/s both ways, 32 GB/s each way), no NVLink" in table
    assert "芯片之间的互联" in table  # the command's own words are still Chinese
    h100 = catalog.chip("h100-sxm")
    assert catalog.mfu_for(h100, "zh-Hans")[2].startswith("NVIDIA H100 SXM 0.38-0.48（reported runs on H100:")


def test_a_catalogue_built_in_memory_shows_english(zh: None) -> None:
    shipped = load_catalog()
    built = Catalog.model_validate(shipped.model_dump())
    assert built.words() == built.english_texts()
    assert built.words() != shipped.words()


def test_a_missing_or_outdated_zh_text_falls_back_to_english(tmp_path: Path, zh: None) -> None:
    shipped = ZH.read_text(encoding="utf-8")
    # t4's link left out; l4's link translated with a figure the English no longer has
    assert 'interconnect = "PCIe Gen3 x16，无 NVLink"\n' in shipped
    edited = shipped.replace('interconnect = "PCIe Gen3 x16，无 NVLink"\n', "")
    edited = edited.replace("（双向 64 GB/s，每个方向 32 GB/s）", "（双向 60 GB/s，每个方向 30 GB/s）")
    catalog = load_catalog(_copy(tmp_path, edited))
    assert catalog.interconnect(catalog.chip("t4")) == "PCIe Gen3 x16, no NVLink"
    assert catalog.interconnect(catalog.chip("l4")) == "PCIe Gen4 x16 (64 GB/s both ways, 32 GB/s each way), no NVLink"
    assert catalog.interconnect(catalog.chip("l40s")).endswith("（每个方向 32 GB/s），无 NVLink")


def test_a_changed_english_figure_shows_the_english_not_the_old_translation(tmp_path: Path, zh: None) -> None:
    path = _copy(tmp_path, ZH.read_text(encoding="utf-8"))
    text = path.read_text(encoding="utf-8")
    path.write_text(
        text.replace(
            "NVLink 4, 900 GB/s both ways (450 GB/s each way);", "NVLink 4, 950 GB/s both ways (475 GB/s each way);"
        ),
        encoding="utf-8",
    )
    catalog = load_catalog(path)
    assert catalog.interconnect(catalog.chip("h200")).startswith("NVLink 4, 950 GB/s both ways")
    assert catalog.interconnect(catalog.chip("h100-sxm")).startswith("NVLink 4，经 NVSwitch")


def test_text_fields_are_every_figure_note_and_reason() -> None:
    assert {"interconnect", "mfu.note", "bf16.reason", "domain.note", "llc.note", "memory.note"} <= TEXT_FIELDS
    assert "name" not in TEXT_FIELDS and "match" not in TEXT_FIELDS


# ------------------------------------------------------------------ where the words show


def test_the_catalog_command_in_zh_has_no_english_left(zh: None) -> None:
    catalog = load_catalog()
    names = _names(catalog) | {"n/p", "n/s", "json"}  # the legend explains n/p and n/s; --format json is a flag
    table = catalog_command.format_table(catalog)
    links = table.split("\n\n")[1].splitlines()
    assert links[0] == "芯片之间的互联："
    assert "  l4: PCIe Gen4 x16（双向 64 GB/s，每个方向 32 GB/s），无 NVLink" in links
    assert len(links) == 1 + len(catalog.chips)
    for line in table.splitlines()[2:]:
        words = [w for w in _english_words(line.replace("--format", " "), names) if w.strip("/") not in names]
        assert words == [], line
    rows = catalog_command.rows(catalog)
    assert {row[2] for row in rows[1:]} == {"GPU", "TPU", "其他"}


def test_the_catalog_command_in_english_is_unchanged(en: None) -> None:
    catalog = load_catalog()
    table = catalog_command.format_table(catalog)
    for chip in catalog.chips:
        assert f"  {chip.id}: {chip.interconnect}" in table.splitlines()
    assert {row[2] for row in catalog_command.rows(catalog)[1:]} == {"gpu", "tpu", "other"}


def test_json_keeps_the_english_in_zh(zh: None, capsys: pytest.CaptureFixture[str]) -> None:
    class Args:
        format = "json"
        chip = None

    assert catalog_command.run(Args()) == 0  # type: ignore[arg-type]
    data = json.loads(capsys.readouterr().out)
    l4 = next(c for c in data["chips"] if c["id"] == "l4")
    assert l4["interconnect"] == "PCIe Gen4 x16 (64 GB/s both ways, 32 GB/s each way), no NVLink"
    assert data["mfu"]["gpu"]["range"].startswith("runs on H100:")


def test_the_estimate_says_the_mfu_evidence_and_fast_link_notes_in_chinese(zh: None) -> None:
    catalog = load_catalog()
    result = estimate(EstimateRequest(params=7e9, chips=64), catalog)
    b200 = next(r for r in result.rows if r.chip_id == "b200")
    assert b200.mfu_source.startswith("NVIDIA B200 (HGX) 0.37-0.47 (H100's run range")  # the Estimate keeps English
    said = mfu_source_words(b200, catalog=catalog)
    assert said.startswith("NVIDIA B200 (HGX) 0.37-0.47（H100 的运行范围，按 B200 实测最好的矩阵乘法占比（78%）")
    assert said.endswith("；来源：megatron-lm, llama3-2024, ml-engineering-mamf）")
    v5e = next(r for r in result.rows if r.chip_id == "tpu-v5e")
    assert mfu_source_words(v5e, catalog=catalog).startswith(
        "TPU 默认 0.39-0.50（TPU 上的运行：MaxText 在 v6e-256 上 39-50%"
    )
    table = format_table(result)
    assert "（H100 的运行范围，按 A100 实测最好的矩阵乘法占比（87%）" in table
    assert "reported runs" not in table and "run range" not in table
    warnings = "\n".join(estimate_warnings(result))
    assert "（一块 HGX H100 主板，8 块 GPU 经 NVSwitch 相连）" in warnings
    assert "joined by" not in warnings and "traffic goes" not in warnings
    assert any("joined by NVSwitch" in w for r in result.rows for w in r.warnings)  # the Estimate keeps English


def test_the_decode_share_is_said_in_chinese(zh: None) -> None:
    result = estimate(EstimateRequest(mode="inference", params=8e9, tokens=1e9, batch=8), load_catalog())
    assert result.bw_share_source is not None and result.bw_share_source.startswith("decode at 0.65-0.80")
    (line,) = note_lines(result)
    assert line.startswith("带宽：解码达到标称内存带宽的 0.65-0.80（实测：RTX 3090 上解码为标称带宽的 64-66%")


def test_words_the_catalogue_does_not_hold_stay_as_the_row_has_them(zh: None) -> None:
    catalog = load_catalog()
    result = estimate(EstimateRequest(params=7e9, chips=8, mfu=0.4), catalog)
    row = result.rows[0]
    assert row.mfu_source == "set by the user"  # the app's words (estimate.row), not the catalogue's
    assert "（" not in mfu_source_words(row, catalog=catalog)
    other = estimate(EstimateRequest(params=7e9, chips=8), catalog).rows[0]
    moved = other.model_copy(update={"mfu_source": "some other catalogue's words"})
    assert mfu_source_words(moved, catalog=catalog) == "some other catalogue's words"


def test_the_estimate_in_english_keeps_its_words(en: None) -> None:
    catalog = load_catalog()
    result = estimate(EstimateRequest(params=7e9, chips=64), catalog)
    for row in result.rows:
        assert mfu_source_words(row, catalog=catalog) == row.mfu_source
    h100 = catalog.chip("h100-sxm")
    assert catalog.mfu_for(h100)[2] == (
        "NVIDIA H100 SXM 0.38-0.48 (reported runs on H100: Megatron-LM 41-48%, Llama 3 405B 38-43%; "
        "sources: megatron-lm, llama3-2024)"
    )
    warnings = "\n".join(estimate_warnings(result))
    assert "(one HGX H100 board of 8 GPUs joined by NVSwitch)" in warnings


# ------------------------------------------------------------------ one chip: catalog --chip ID


def test_one_chip_in_zh_says_every_note_and_reason_in_chinese(zh: None) -> None:
    catalog = load_catalog()
    names = _names(catalog) | {"n/p", "n/s"}
    titles = {s.title for s in catalog.sources}
    for chip in catalog.chips:
        shown = catalog_command.format_chip(catalog, chip)
        for key, said in catalog.words("zh-Hans").items():
            if key.startswith(f"chips.{chip.id}.") and not key.endswith((".mfu.note", ".interconnect")):
                assert said in shown, (chip.id, key)
        for line in shown.splitlines():
            if line.startswith("  ") and any(t in line for t in titles):
                continue  # a cited source: its id, title and address as published
            assert _english_words(line, names) == [], (chip.id, line)
    a10g = catalog_command.format_chip(catalog, catalog.chip("a10g"))
    assert (
        "\n内存带宽    厂商未公布  aws-g5  A10G 是 AWS 独有的型号：NVIDIA 没有为它发布数据手册，AWS 只给出内存大小\n"
        in a10g
    )
    assert "\n互联：PCIe，无 NVLink（每个 G5 实例最多 8 块）\n" in a10g


def test_one_chip_in_english_has_the_catalogues_own_words(en: None) -> None:
    catalog = load_catalog()
    h100 = catalog.chip("h100-sxm")
    shown = catalog_command.format_chip(catalog, h100)
    assert shown.splitlines()[0] == "NVIDIA H100 SXM (h100-sxm): gpu, 2022"
    assert "BF16                989 TFLOP/s    nvidia-h100          half the 1,979 TFLOP/s sparsity figure" in shown
    assert f"\nLinks: {h100.interconnect}\n" in shown
    assert f"\nMFU: {catalog.mfu_for(h100)[2]}\n" in shown
    assert (
        "  megatron-lm: NVIDIA Megatron-LM (README: model FLOPs utilisation on H100) <https://github.com/NVIDIA/Megatron-LM>"
        in shown
    )
    t4 = catalog_command.format_chip(catalog, catalog.chip("t4"))
    assert re.search(r"\nBF16 +not supported +gce-gpus +T4 \(Turing\) has no BF16 arithmetic", t4), t4


def test_the_chip_option_of_the_command(run_cli) -> None:
    code, out, _err = run_cli("catalog", "--chip", "TPU-V5E", "--lang", "zh-Hans")
    assert code == 0
    assert out.startswith("Google TPU v5e（tpu-v5e）：TPU，2023 年\n")
    assert "\n互联：ICI，双向 400 GB/s，2D 环面，256 块芯片的 pod\n" in out
    code, out, _err = run_cli("catalog", "--chip", "tpu-v5e", "--format", "json", "--lang", "zh-Hans")
    assert code == 0 and json.loads(out)["interconnect"] == "ICI, 400 GB/s both ways, 2D torus, 256-chip pod"
    code, out, err = run_cli("catalog", "--chip", "h999", "--lang", "en")
    assert code == 2 and out == ""
    assert "--chip: unknown chip 'h999' (choose from a100-40gb, a100-80gb, a10g," in err


def test_the_report_says_the_fast_link_notes_and_decode_share_in_chinese(zh: None) -> None:
    from gpu_tpu_app.core.lesson import load_lesson
    from gpu_tpu_app.core.report import build_html, build_markdown, session_estimate
    from tests.core.test_report import session

    catalog, lesson = load_catalog(), load_lesson()
    training = session(estimate=EstimateRequest(params=7e9, chips=64))
    md = build_markdown(training, lesson, catalog, session_estimate(training, catalog), name="zh")
    assert "（一块 HGX H100 主板，8 块 GPU 经 NVSwitch 相连）" in md
    assert "joined by NVSwitch" not in md and "traffic goes over" not in md
    serving = session(estimate=EstimateRequest(mode="inference", params=8e9, tokens=1e9, batch=8))
    page = build_html(serving, lesson, catalog, session_estimate(serving, catalog), name="zh")
    assert "解码达到标称内存带宽的 0.65-0.80（实测：RTX 3090 上解码为标称带宽的 64-66%" in page
    assert "of nominal memory bandwidth" not in page
