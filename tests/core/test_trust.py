"""Trust flags (core.trust): a noisy, in-cache or above-roof point is shown flagged and never becomes a
best value, an estimator row, a roofline ceiling, Learn evidence or a summary-card figure.

The runs here are hand-made test input shaped like the busy-machine run of issue 10 (a matmul at
CV 105 % far above its neighbours); the numbers are not measurements."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from gpu_tpu_app.core.catalog import load_catalog
from gpu_tpu_app.core.ceilings import with_ceilings
from gpu_tpu_app.core.estimate import EstimateRequest, estimate, measured_from_run
from gpu_tpu_app.core.report import collect
from gpu_tpu_app.core.runs import CpuInfo, DeviceInfo, ProbeResult, RunFile, Stats
from gpu_tpu_app.core.session import measured_devices, new_session
from gpu_tpu_app.core.wording import FUNCTIONAL_CHECK
from gpu_tpu_app.shared import trust

CPU = CpuInfo(model="Test CPU", cores=2, threads_used=2, caches={"L1d": 32 << 10, "L2": 1 << 20, "L3": 8 << 20})
DEV = DeviceInfo(backend="torch", platform="cpu", name="Test CPU", memory_bytes=8 << 30, cpu=CPU)


def stats(median: float, iqr_ratio: float = 0.02, cv: float = 0.02, reps: int = 9) -> Stats:
    iqr = iqr_ratio * median
    return Stats(
        median=median,
        min=median * 0.9,
        max=median * 1.1,
        q1=median - iqr / 2,
        q3=median + iqr / 2,
        iqr=iqr,
        cv=cv,
        reps=reps,
        seconds=0.3,
    )


def res(
    kernel: str,
    value: float,
    size: int,
    *,
    dtype: str = "float32",
    st: Stats | None = None,
    status: str = "ok",
    pct_spec: float | None = None,
    message: str | None = None,
) -> ProbeResult:
    metric = "flops" if kernel == "matmul" else "bytes_per_s"
    return ProbeResult(
        kernel=kernel,
        backend="torch",
        device=DEV.key,
        dtype=dtype,
        size=size,
        metric=metric,
        value=value,
        stats=st or stats(value),
        status=status,
        pct_spec=pct_spec,
        message=message,
    )


NOISY = res("matmul", 2.81e11, 1024, st=stats(2.81e11, iqr_ratio=0.9, cv=1.05))
CLEAN = [res("matmul", 3.0e10, 512), res("matmul", 3.36e10, 2048)]
DRAM_TRIAD = res("triad", 2.0e10, 32 << 20)  # 128 MiB per array: 16x the 8 MiB L3
CACHE_TRIAD = res("triad", 9.0e10, 1 << 20)  # 4 MiB per array: half the L3


def run_of(results: list[ProbeResult], suite: str = "quick") -> RunFile:
    return RunFile(
        app_version="0",
        host="box",
        os="Linux",
        python="3.11",
        cpu=CPU,
        devices=[DEV],
        suite=suite,
        started=datetime(2026, 1, 1, tzinfo=UTC),
        complete=True,
        results=with_ceilings(results, [DEV]),
    )


BUSY = run_of([CLEAN[0], NOISY, CLEAN[1], DRAM_TRIAD, CACHE_TRIAD])


def test_the_noise_rule() -> None:
    assert trust.noise(CLEAN[0]) is None
    assert "IQR 90 % of the median" in trust.noise(NOISY)  # type: ignore[operator]
    tails = res("matmul", 1e11, 512, st=stats(1e11, iqr_ratio=0.05, cv=0.4))  # middle half agrees, wild tails
    assert "CV 40 %" in trust.noise(tails)  # type: ignore[operator]
    few = res("matmul", 1e11, 512, st=stats(1e11, reps=2))
    assert "only 2 repetitions" in trust.noise(few)  # type: ignore[operator]
    edge = res("matmul", 1e11, 512, st=stats(1e11, iqr_ratio=trust.NOISE_IQR_RATIO, cv=trust.NOISE_CV))
    assert trust.noise(edge) is None  # at the limits is still trusted; above them is not
    assert "10 %" in trust.NOISE_RULE and "25 %" in trust.NOISE_RULE and "3 repetitions" in trust.NOISE_RULE


def test_collective_points_are_judged_by_the_spread_of_a_direct_gloo_loop() -> None:
    """An all-reduce whose samples spread like a direct gloo loop on a quiet machine (IQR 60 %, CV 40 %) is
    trusted; beyond that spread it is flagged, and the reason gives both its IQR and its CV."""

    def coll(iqr: float, cv: float) -> ProbeResult:
        return res("collective", 1.2e9, 4 << 20, st=stats(1.2e9, iqr_ratio=iqr, cv=cv)).model_copy(
            update={"variant": "all_reduce"}
        )

    quiet = coll(0.6, 0.4)
    assert trust.noise(res("matmul", 1e11, 512, st=stats(1e11, iqr_ratio=0.6, cv=0.4))) is not None
    assert trust.noise(quiet) is None
    assert trust.noise(coll(trust.COLLECTIVE_NOISE_IQR_RATIO, trust.COLLECTIVE_NOISE_CV)) is None
    wild = trust.noise(coll(2.0, 0.5))
    assert wild is not None and "IQR 200 % of the median" in wild and "CV 50 %" in wild
    tails = trust.noise(coll(0.3, 0.9))
    assert tails is not None and "CV 90 %" in tails and "IQR 30 %" in tails


def test_in_cache_bandwidth_is_flagged_by_the_last_level_cache() -> None:
    flags = trust.run_flags(BUSY)
    by = dict(zip((id(r) for r in BUSY.results), flags))
    cache = next(r for r in BUSY.results if r.kernel == "triad" and r.size == 1 << 20)
    dram = next(r for r in BUSY.results if r.kernel == "triad" and r.size == 32 << 20)
    assert by[id(cache)].in_cache and "0.5x the 8 MiB last-level cache" in by[id(cache)].in_cache
    assert not by[id(dram)].flagged
    # without cache sizes in the file, the kernel's own note still flags it
    bare = DEV.model_copy(update={"cpu": None})
    noted = res("copy", 5e10, 1 << 20, message="2 arrays × 4 MiB (0.5× LLC, partly in cache: not DRAM bandwidth)")
    assert trust.in_cache(noted, bare) and trust.in_cache(res("copy", 5e10, 1 << 20), bare) is None


def test_points_above_a_roof_are_flagged() -> None:
    spec = res("matmul", 9e11, 4096, pct_spec=130.0)
    assert "130 % of spec" in trust.point_flags(spec).above_roof  # type: ignore[operator]
    assert trust.point_flags(res("matmul", 9e11, 4096, status="suspect")).above_roof
    # the machine's own roof: 20 GB/s x (2 x 256 / 12 FLOP per byte) = 853 GFLOP/s for a float32 N=256 matmul
    over = res("matmul", 1.2e12, 256)
    run = run_of([over, res("matmul", 3e11, 1024), DRAM_TRIAD])
    flags = trust.run_flags(run)
    assert "above this machine's measured roof" in flags[0].above_roof  # type: ignore[operator]
    assert "853 GFLOP/s" in flags[0].above_roof  # type: ignore[operator]
    assert not flags[1].flagged and not flags[2].flagged
    # the in-cache triad is no roof: with only it, nothing is above the measured roof
    assert not trust.run_flags(run_of([over, CACHE_TRIAD]))[0].flagged


def test_a_noisy_point_never_becomes_the_best_value_anywhere() -> None:
    best_clean = max(r.value for r in CLEAN)  # type: ignore[type-var]
    # pct_ceiling: the ceiling is the best trusted point; the noisy one reads above 100 %
    ceilings = {r.size: r.pct_ceiling for r in BUSY.results if r.kernel == "matmul"}
    assert ceilings[2048] == pytest.approx(100.0) and ceilings[1024] > 100
    # the estimator's "measured" row
    [measured] = measured_from_run(BUSY)
    assert measured.flops == pytest.approx(best_clean)
    [device] = measured_devices([BUSY])
    assert device.flops == pytest.approx(best_clean)
    rows = [r for r in estimate(EstimateRequest(params=7e9), measured=[device]).rows if r.family == "measured"]
    assert [r.peak_flops for r in rows] == [pytest.approx(best_clean)]
    # the report's best matmul, with the flags counted
    report = collect(new_session().with_runs([BUSY]))
    assert "best trusted matmul 0.0336 TFLOP/s" in report.runs[0]
    assert "2 points flagged (noisy 1, in cache 1)" in report.runs[0]
    # the summary card
    best = trust.machine_best([BUSY])
    assert best["matmul"].value == pytest.approx(best_clean)
    assert best["bandwidth"].value == pytest.approx(DRAM_TRIAD.value)  # not the in-cache 90 GB/s


def test_a_run_with_only_flagged_points_gives_no_best_and_no_estimator_row() -> None:
    run = run_of([NOISY, CACHE_TRIAD])
    assert measured_from_run(run) == [] and measured_devices([run]) == []
    assert trust.machine_best([run]) == {}


def test_the_smoke_suite_is_labelled_a_functional_check() -> None:
    smoke = run_of(CLEAN, suite="smoke")
    assert trust.is_functional_check(smoke) and not trust.is_functional_check(BUSY)
    [device] = measured_devices([smoke])
    assert FUNCTIONAL_CHECK in device.name
    [row] = [r for r in estimate(EstimateRequest(params=7e9), measured=[device]).rows if r.family == "measured"]
    assert FUNCTIONAL_CHECK in row.chip_name
    assert FUNCTIONAL_CHECK in collect(new_session().with_runs([smoke])).runs[0]


def test_summary_card_ratios_against_catalogue_chips() -> None:
    catalog = load_catalog()
    h100 = catalog.chip("h100-sxm")
    best = trust.machine_best([BUSY])
    out = trust.ratios(best, [h100])
    by_kind = {r.kind: r for r in out}
    assert by_kind["matmul"].ratio == pytest.approx(3.36e10 / h100.peak_flops("float32"))
    assert by_kind["matmul"].basis.startswith("float32 peak")
    assert by_kind["bandwidth"].ratio == pytest.approx(2.0e10 / h100.mem_bw_bytes_per_s())
    assert trust.format_ratio(2.44) == "2.4x" and trust.format_ratio(0.31) == "0.31x"
    assert trust.format_ratio(1 / 240) == "1/240" and trust.format_ratio(None) == "–"


def test_the_results_table_colours_and_explains_a_flagged_row(qtbot) -> None:
    from PySide6.QtCore import Qt

    from gpu_tpu_app.ui.probe.results_model import COL, ResultsModel

    model = ResultsModel()
    model.set_runs([BUSY])
    rows = {(model.row(i).result.kernel, model.row(i).result.size): i for i in range(model.rowCount())}
    noisy, clean = rows[("matmul", 1024)], rows[("matmul", 2048)]
    status = model.index(noisy, COL["Status"])
    assert model.data(status) == "noisy"
    assert "IQR 90 % of the median" in model.data(status, Qt.ItemDataRole.ToolTipRole)
    assert model.data(status, Qt.ItemDataRole.BackgroundRole) is not None
    assert model.data(model.index(clean, COL["Status"])) == "ok"
    assert model.data(model.index(clean, COL["Status"]), Qt.ItemDataRole.BackgroundRole) is None
    cache = model.index(rows[("triad", 1 << 20)], COL["Status"])
    assert model.data(cache) == "in cache"


def test_the_summary_card_shows_best_trusted_figures_as_ratios_to_picked_chips(qtbot) -> None:
    from gpu_tpu_app.ui.result.summary_card import SummaryCard

    card = SummaryCard()
    qtbot.addWidget(card)
    card.set_runs([BUSY])
    assert "Matmul: 33.6 GFLOP/s float32" in card.figures.text()  # not the noisy 281 GFLOP/s
    assert "Memory bandwidth: 20 GB/s" in card.figures.text()  # not the in-cache 90 GB/s
    assert "Pick chips" in card.note.text() and card.cells() == [["", "Matmul", "Memory bandwidth"]]
    catalog = load_catalog()
    h100 = catalog.chip("h100-sxm")
    card.set_chips([h100])
    matmul = trust.format_ratio(3.36e10 / h100.peak_flops("float32"))
    bandwidth = trust.format_ratio(2.0e10 / h100.mem_bw_bytes_per_s())
    assert matmul.startswith("1/") and bandwidth.startswith("1/")
    assert card.cells()[1] == [h100.name, matmul, bandwidth]
    # the note explains the card with its own first figure, not a fixed example
    times = f"{h100.peak_flops('float32') / 3.36e10:,.0f}"
    assert (
        f"{matmul} means the {h100.name}'s float32 peak" in card.note.text() and f"is {times} times" in card.note.text()
    )
    assert "1/240" not in card.note.text() or matmul == "1/240"
    assert (
        "not used as best values" in card.figures.toolTip() and "noisy 1" in card.figures.toolTip()
    )  # why the headline is what it is
    card.set_runs([run_of(CLEAN, suite="smoke")])
    assert FUNCTIONAL_CHECK in card.note.text()
    card.set_runs([run_of([NOISY])])
    assert "No trusted matmul" in card.figures.text() and card.cells() == [[""]]


def test_the_estimate_command_labels_a_smoke_run(tmp_path) -> None:
    from gpu_tpu_app.core.runs import load_run, save_run

    path = tmp_path / "smoke.json"
    save_run(run_of(CLEAN, suite="smoke"), path)
    [device] = measured_from_run(load_run(path))
    assert device.name == f"Test CPU ({FUNCTIONAL_CHECK})" and device.flops == pytest.approx(3.36e10)


def test_charts_draw_flagged_points_hollow_and_spread_as_error_bars(qtbot) -> None:
    import pyqtgraph as pg
    from PySide6.QtCore import Qt

    from gpu_tpu_app.ui.charts.view import ChartData, ChartRun, ThroughputChart, matmul_series, matmul_spread

    data = ChartData([ChartRun(BUSY, "busy", 0)])
    key = (0, DEV.key, "torch", "float32")
    assert [size for size, _v in matmul_series(data)[key]] == [512, 2048]  # the noisy 1024 is no part of the line
    assert matmul_spread(data)[key] == [
        (512, CLEAN[0].stats.q1, CLEAN[0].stats.q3),  # type: ignore[union-attr]
        (2048, CLEAN[1].stats.q1, CLEAN[1].stats.q3),
    ]  # type: ignore[union-attr]
    chart = ThroughputChart()
    qtbot.addWidget(chart)
    chart.redraw(data)
    items = chart.item.items
    assert any(isinstance(it, pg.ErrorBarItem) for it in items)
    [key] = [it for it in items if isinstance(it, pg.ScatterPlotItem) and it.name()]
    assert "not trusted" in key.name() and not len(key.points())  # the legend says what hollow means
    [hollow] = [it for it in items if isinstance(it, pg.ScatterPlotItem) and len(it.points())]
    assert hollow.opts["brush"].style() == Qt.BrushStyle.NoBrush
    assert hollow in chart._series_items["Test CPU · torch · float32"]  # listed with its series, hidden with it
    assert [round(v) for v in hollow.getData()[1]] == [round(NOISY.value)]  # type: ignore[arg-type]
