"""The window's estimator says the catalogue's words in the language in use: each row's MFU evidence (the
MFU cell's tooltip) and the fast-link group notes in its warnings come from resources/catalog/chips.zh-Hans.toml
in zh-Hans, while the estimate the card holds keeps the catalogue's English."""

from __future__ import annotations

import pytest

from gpu_tpu_app.core.catalog import load_catalog

MFU_COLUMN = 3
TIME_COLUMN = 4


def _card(qtbot, chips: int):
    from gpu_tpu_app.ui.probe.estimator_card import EstimatorCard

    card = EstimatorCard(load_catalog())
    qtbot.addWidget(card)
    card.params_edit.setText("7B")
    card.tokens_edit.setText("1T")
    card.chips_spin.setValue(chips)
    card._inputs_changed()
    return card


def _tips(card, column: int) -> dict[str, str]:
    """Chip name (first cell) -> the tooltip of `column`, for every row of the table."""
    out = {}
    for r in range(card.table.rowCount()):
        name, cell = card.table.item(r, 0), card.table.item(r, column)
        if name is not None and cell is not None:
            out[name.text()] = cell.toolTip()
    return out


@pytest.mark.usefixtures("zh")
def test_the_mfu_tooltips_and_link_notes_are_chinese(qtbot) -> None:
    card = _card(qtbot, 64)
    mfu = _tips(card, MFU_COLUMN)
    h100 = next(tip for name, tip in mfu.items() if name.startswith("NVIDIA H100 SXM"))
    assert "（H100 上已报告的运行：Megatron-LM 41-48%，Llama 3 405B 38-43%；来源：megatron-lm, llama3-2024）" in h100
    v5e = next(tip for name, tip in mfu.items() if name.startswith("Google TPU v5e"))
    assert v5e.startswith("TPU 默认 0.39-0.50（TPU 上的运行：") and "runs on" not in v5e
    assert all("run range" not in tip and "reported runs" not in tip for tip in mfu.values()), mfu
    warned = [tip for tip in _tips(card, TIME_COLUMN).values() if tip]
    assert any("（一块 HGX H100 主板，8 块 GPU 经 NVSwitch 相连）" in tip for tip in warned), warned
    assert all("joined by" not in tip and "traffic goes" not in tip for tip in warned), warned


def test_in_english_the_card_shows_the_catalogues_english(qtbot) -> None:
    card = _card(qtbot, 64)
    mfu = _tips(card, MFU_COLUMN)
    h100 = next(tip for name, tip in mfu.items() if name.startswith("NVIDIA H100 SXM"))
    assert "(reported runs on H100: Megatron-LM 41-48%, Llama 3 405B 38-43%; sources: megatron-lm, llama3-2024)" in h100
    warned = [tip for tip in _tips(card, TIME_COLUMN).values() if tip]
    assert any("(one HGX H100 board of 8 GPUs joined by NVSwitch)" in tip for tip in warned), warned
