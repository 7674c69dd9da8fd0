"""Probe charts: data extraction, log axes computed by the app, coalesced redraws, PNG / SVG export, theme."""

from __future__ import annotations

import html
import math
import xml.etree.ElementTree as ET
from datetime import UTC, datetime

import numpy as np
import pyqtgraph as pg
import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QImage

from gpu_tpu_app.core.catalog import load_catalog
from gpu_tpu_app.core.runs import CollectiveInfo, DeviceInfo, ProbeResult, RunFile, Stats
from gpu_tpu_app.core.wording import FUNCTIONAL_CHECK, format_pct, format_value
from gpu_tpu_app.shared.trust import matmul_intensity
from gpu_tpu_app.ui.charts.data import (
    Ceiling,
    ChartData,
    ChartRun,
    PointInfo,
    bandwidth_bars,
    compile_rows,
    matmul_series,
    measured_ceilings,
    phase_order,
    point_readout,
    roofline_segments,
    waterfall_segments,
)
from gpu_tpu_app.ui.charts.view import ChartsView, LogAxis
from gpu_tpu_app.ui.shell.theme import DARK, LIGHT, theme_manager

DEV = DeviceInfo(backend="torch", platform="cpu", name="Test CPU")


def _r(kernel, value, metric, size=None, dtype=None, variant=None, status="ok", backend="torch", device=None):
    return ProbeResult(
        kernel=kernel,
        backend=backend,
        device=device or f"{backend}:cpu:0",
        dtype=dtype,
        size=size,
        variant=variant,
        metric=metric,
        value=value,
        status=status,
    )


def _run(results, host="testhost") -> RunFile:
    """Hand-made test input for drawing; these numbers are not measurements."""
    devs = [DEV, DeviceInfo(backend="jax", platform="cpu", name="Test CPU")]
    return RunFile(
        app_version="0",
        host=host,
        os="Linux",
        python="3.11",
        devices=devs,
        suite="smoke",
        started=datetime(2026, 1, 1, tzinfo=UTC),
        complete=True,
        results=results,
    )


RESULTS = [
    _r("matmul", 1e11, "flops", 512, "float32"),
    _r("matmul", 2e11, "flops", 1024, "float32"),
    _r("matmul", 9e11, "flops", 2048, "float32", status="suspect"),  # never drawn as a ceiling
    _r("matmul", 5e11, "flops", 1024, "bfloat16"),
    _r("copy", 2e10, "bytes_per_s", 1 << 24, "float32"),
    _r("triad", 3e10, "bytes_per_s", 1 << 24, "float32"),
    _r("triad", 1e10, "bytes_per_s", 1 << 22, "float32"),
    _r("transfer", None, "bytes_per_s", variant="h2d", status="skipped"),
    _r("compile", 0.01, "seconds", 256, variant="lower", backend="jax", device="jax:cpu:0"),
    _r("compile", 0.2, "seconds", 256, variant="compile", backend="jax", device="jax:cpu:0"),
    _r("compile", 0.25, "seconds", 256, variant="first_call", backend="jax", device="jax:cpu:0"),
    _r("compile", 0.001, "seconds", 256, variant="steady", backend="jax", device="jax:cpu:0"),
]


def _data(*runs: RunFile) -> ChartData:
    return ChartData([ChartRun(r, f"run {i}", i, imported=i > 0) for i, r in enumerate(runs)])


def test_matmul_series_groups_by_device_backend_dtype_and_drops_failed_points():
    series = matmul_series(_data(_run(RESULTS)))
    assert series == {
        (0, "torch:cpu:0", "torch", "float32"): [(512, 1e11), (1024, 2e11)],
        (0, "torch:cpu:0", "torch", "bfloat16"): [(1024, 5e11)],
    }


def test_bandwidth_bars_keep_the_best_of_each_kernel():
    cats, series = bandwidth_bars(_data(_run(RESULTS)))
    assert cats == ["copy", "triad"]  # the skipped transfer has no bar
    assert series == {(0, "torch:cpu:0", "torch"): {"copy": 2e10, "triad": 3e10}}


def test_measured_ceilings_and_roofline_geometry():
    ceil = measured_ceilings(_data(_run(RESULTS)), "float32")
    c = ceil[(0, "torch:cpu:0", "torch")]
    assert (c.peak_flops, c.mem_bw) == (2e11, 3e10)  # the suspect 9e11 is not a ceiling
    x, y = roofline_segments(Ceiling("t", 1e12, 1e11, True), 1 / 16, 4096)
    assert x[0] == pytest.approx(math.log10(1 / 16)) and x[-1] == pytest.approx(math.log10(4096))
    assert x[1] == pytest.approx(1.0)  # ridge at 1e12 / 1e11 = 10 FLOP/B
    assert y[1] == pytest.approx(12.0) and y[2] == pytest.approx(12.0)
    assert y[0] == pytest.approx(11 + math.log10(1 / 16))
    # bandwidth only: the slope stops at the highest peak drawn instead of rising for ever
    x, y = roofline_segments(Ceiling("t", None, 1e11, False), 1 / 16, 4096, y_cap=1e13)
    assert y[-1] == pytest.approx(13.0)
    assert matmul_intensity(1024, "float32") == pytest.approx(2 * 1024 / 12)


def test_compile_rows_and_waterfall_segments():
    rows = compile_rows(_data(_run(RESULTS)))
    assert len(rows) == 1
    label, times = rows[0]
    assert "jax" in label and "256" in label
    segs = waterfall_segments(times)
    assert [s[0] for s in segs] == ["lower", "compile", "run", "steady"]
    assert segs[2][1] == pytest.approx(0.21) and segs[2][2] == pytest.approx(0.04)  # rest of the first call
    assert segs[3][1] == pytest.approx(0.25)  # the steady call starts where the first call ended
    # the cold first call is its own figure: listed first in the row's text, never stacked
    assert waterfall_segments({**times, "first_call_cold": 1.5}) == segs
    assert phase_order({**times, "first_call_cold": 1.5})[0] == "first_call_cold"


def test_log_axis_labels_real_values(qapp):
    axis = LogAxis("bottom", pow2=True, fmt=lambda v: f"{v:.0f}")
    ticks = axis.tickValues(math.log10(200), math.log10(5000), 400)[0][1]
    assert axis.tickStrings(ticks, 1, 1) == ["256", "512", "1024", "2048", "4096"]
    dec = LogAxis("left")
    assert dec.tickStrings([9.0, 12.0], 1, 1) == ["1G", "1T"]


@pytest.fixture
def view(qtbot):
    theme_manager().apply("light")
    holder = {"data": ChartData()}
    v = ChartsView(lambda: holder["data"])
    qtbot.addWidget(v)
    v.resize(900, 500)
    v.show()
    qtbot.waitExposed(v)
    v.holder = holder  # type: ignore[attr-defined]
    return v


def test_redraws_are_coalesced(view, qtbot):
    view.holder["data"] = _data(_run(RESULTS))
    view.flush()
    before = view.redraws
    with qtbot.waitSignal(view.sig_redrawn, timeout=2000):
        for _ in range(200):
            view.schedule()
    qtbot.wait(100)  # more than one redraw interval: nothing else may be queued
    assert view.redraws == before + 1


def test_charts_draw_the_data_and_overlay_a_second_run(view):
    view.holder["data"] = _data(_run(RESULTS), _run(RESULTS[:2], host="tpu-vm"))
    view.flush_all()
    named = [it for it in view.throughput.item.listDataItems() if it.name()]
    curves = [it for it in named if isinstance(it, pg.PlotDataItem)]
    assert len(curves) == 3  # two series of the first run, one of the imported run
    hollow = [it for it in named if isinstance(it, pg.ScatterPlotItem)]
    assert len(hollow) == 1 and "not trusted" in hollow[0].name()  # the suspect point, drawn hollow
    assert hollow[0].opts["brush"].style() == Qt.BrushStyle.NoBrush
    xs = sorted(float(v) for v in curves[0].getData()[0])
    assert xs == pytest.approx(sorted(np.log10([512, 1024])))
    names = [c.name() for c in curves]
    assert any("[run 1]" in n for n in names)  # legend says which run a line belongs to
    assert view.bandwidth.has_data and view.compile.has_data and view.roofline.has_data


def test_roofline_draws_catalogue_chips_the_user_picks(view):
    view.holder["data"] = _data(_run(RESULTS))
    view.setCurrentWidget(view.roofline)
    chip_name = load_catalog().chip("h100-sxm").name
    menu = view.roofline.chip_button.menu()
    next(a for a in menu.actions() if a.text() == chip_name).trigger()  # the user ticks it in the menu
    view.flush_all()
    chip = load_catalog().chip("h100-sxm")
    lines = {it.name(): it for it in view.roofline.item.listDataItems() if it.name()}
    spec = [n for n in lines if n.startswith(f"spec: {chip.name}")]
    assert len(spec) == 1
    assert max(lines[spec[0]].getData()[1]) == pytest.approx(math.log10(chip.peak_flops("float32")))
    assert view.roofline.selected_chips() == ["h100-sxm"]


def test_export_png_and_svg(view, tmp_path):
    view.holder["data"] = _data(_run(RESULTS))
    for chart in view.charts():
        png, svg = tmp_path / f"{chart.slug}.png", tmp_path / f"{chart.slug}.svg"
        view.export_chart(chart, png)
        view.export_chart(chart, svg)
        img = QImage(str(png))
        assert not img.isNull() and img.width() == 1600
        colours = {img.pixel(x, y) for x in range(0, img.width(), 37) for y in range(0, img.height(), 23)}
        assert len(colours) > 3  # not a blank image
        root = ET.parse(svg).getroot()
        assert root.tag.endswith("svg")
        assert chart.title in svg.read_text(encoding="utf-8")
    with pytest.raises(ValueError):
        view.export_chart(view.throughput, tmp_path / "chart.gif")


def test_theme_change_recolours_charts(view, qtbot):
    assert view.throughput.plot.backgroundBrush().color().name() == LIGHT["surface"]
    with qtbot.waitSignal(theme_manager().sig_theme_changed):
        theme_manager().apply("dark")
    try:
        assert view.throughput.plot.backgroundBrush().color().name() == DARK["surface"]
    finally:
        theme_manager().apply("light")


def test_empty_charts_say_why(view):
    view.flush_all()
    assert not any(c.has_data for c in view.charts())


def _with_stats(r: ProbeResult, cv: float, reps: int) -> ProbeResult:
    v = r.value or 0.0
    return r.model_copy(
        update={
            "stats": Stats(
                median=v, min=v * 0.9, max=v * 1.1, q1=v * 0.95, q3=v * 1.05, iqr=v * 0.1, cv=cv, reps=reps, seconds=0.5
            )
        }
    )


def _hover_items(view) -> list[pg.ScatterPlotItem]:
    """Every scatter of drawn points in the throughput, bandwidth and roofline charts (bar markers included)."""
    out = []
    for chart in (view.throughput, view.bandwidth, view.roofline):
        for it in chart._items:
            for sc in (it, getattr(it, "scatter", None), *it.childItems()):
                if isinstance(sc, pg.ScatterPlotItem) and len(sc.points()) and sc not in out:
                    out.append(sc)
    return out


def test_every_measured_point_reads_out_its_value_size_dtype_cv_and_reps_on_hover(view):
    stats = [_with_stats(r, cv=0.01 * (i + 1), reps=10 + i) if r.value else r for i, r in enumerate(RESULTS)]
    view.holder["data"] = _data(_run(stats))
    view.flush_all()
    scatters = _hover_items(view)
    drawn = 0
    for sc in scatters:
        assert sc.opts["hoverable"]
        for p in sc.points():
            info = p.data()
            assert isinstance(info, PointInfo), f"a point without hover data in {sc}"
            r = info.result
            assert r.stats is not None and r.value is not None
            text = point_readout(info)
            for part in (
                format_value(r.value, r.metric),
                f"Dtype: {r.dtype}",
                f"CV: {format_pct(100 * r.stats.cv)}",
                f"Reps: {r.stats.reps}",
                "Size: ",
                "Test CPU",
            ):
                assert part in text
            drawn += 1
        # hovering sets the plot's tooltip to the readout; leaving clears it
        sc.sigHovered.emit(sc, sc.points()[:1], None)
        assert point_readout(sc.points()[0].data()) in sc.getViewBox().toolTip()
        sc.sigHovered.emit(sc, [], None)
        assert sc.getViewBox().toolTip() == ""
    # throughput: 3 trusted matmul points and 1 hollow; bandwidth: copy and triad; roofline (float32): 2 and 1 hollow
    assert drawn == 4 + 2 + 3
    sizes = {p.data().result.size: point_readout(p.data()) for sc in scatters for p in sc.points()}
    assert "Size: 2048×2048" in sizes[2048] and "Not trusted" in sizes[2048]  # the suspect point, drawn hollow
    assert "Size: 16 Mi elements" in sizes[1 << 24]
    assert all(FUNCTIONAL_CHECK in t for t in sizes.values())  # a smoke run says what its numbers are


def test_hover_readout_is_plain_text(view):
    odd = DeviceInfo(backend="torch", platform="cpu", name="<b>Odd</b> & CPU")
    run = _run([_with_stats(RESULTS[0], 0.02, 7)]).model_copy(update={"devices": [odd]})
    view.holder["data"] = _data(run)
    view.flush_all()
    [sc] = [sc for sc in _hover_items(view) if sc.getViewBox() is view.throughput.item.getViewBox()]
    sc.sigHovered.emit(sc, sc.points(), None)
    tip = sc.getViewBox().toolTip()
    assert "<b>" not in tip and "&lt;b&gt;Odd&lt;/b&gt; &amp; CPU" in tip


def test_collective_points_read_out_their_bus_bandwidth_and_stats(view):
    results = []
    for size in (4096, 1 << 20):
        busbw = size / 1e-4
        info = CollectiveInfo(
            op="all_reduce", ranks=2, hosts=1, transport="gloo", time_s=1e-4, algbw=busbw, busbw=busbw
        )
        results.append(
            _with_stats(
                ProbeResult(
                    kernel="collective",
                    backend="torch",
                    device="torch:cpu:0",
                    dtype="float32",
                    size=size,
                    variant="all_reduce",
                    metric="bytes_per_s",
                    value=busbw,
                    collective=info,
                ),
                0.03,
                9,
            )
        )
    view.holder["data"] = _data(_run(results))
    view.flush_all()
    [curve] = [it for it in view.collective._items if isinstance(it, pg.PlotDataItem)]
    texts = [point_readout(p.data()) for p in curve.scatter.points()]
    assert len(texts) == 2 and curve.scatter.opts["hoverable"]
    assert "Size: 4 KiB" in texts[0] and "Size: 1 MiB" in texts[1]
    assert all(
        "Bus bandwidth: " in t and "2 ranks on 1 host" in t and "CV: 3.0 %" in t and "Reps: 9" in t for t in texts
    )


def _collective(size: int, busbw: float, backend: str = "torch") -> ProbeResult:
    info = CollectiveInfo(op="all_reduce", ranks=2, hosts=1, transport="gloo", time_s=1e-4, algbw=busbw, busbw=busbw)
    return ProbeResult(
        kernel="collective",
        backend=backend,
        device=f"{backend}:cpu:0",
        dtype="float32",
        size=size,
        variant="all_reduce",
        metric="bytes_per_s",
        value=busbw,
        collective=info,
    )


def _owner(chart, sc) -> str | None:
    """The series entry (legend or side list) that shows and hides `sc`, or None."""
    for name, items in chart._series_items.items():
        for it in items:
            if sc is it or sc is getattr(it, "scatter", None) or sc.parentItem() is it:
                return name
    return None


def test_every_series_of_every_kind_is_listed_and_hoverable(view):
    """torch and JAX lines, a series whose points are all untrusted, bars of both backends (one only untrusted),
    roofline points and collectives with a noisy point: each drawn point has a legend entry and a readout."""
    good, one_rep, wild = (0.01, 9), (0.0, 1), (0.78, 9)  # (CV, reps): trusted, too few reps, CV 78 %
    results = [
        _with_stats(_r("matmul", 1e11, "flops", 512, "float32"), *good),
        _with_stats(_r("matmul", 2e11, "flops", 1024, "float32"), *good),
        _with_stats(_r("matmul", 1.5e11, "flops", 512, "float32", backend="jax"), *good),
        _with_stats(_r("matmul", 1.7e11, "flops", 1024, "float32", backend="jax"), *one_rep),
        _with_stats(_r("matmul", 3e11, "flops", 512, "bfloat16", backend="jax"), *one_rep),  # all untrusted
        _with_stats(_r("matmul", 4e11, "flops", 1024, "bfloat16", backend="jax"), *wild),
        _with_stats(_r("copy", 2e10, "bytes_per_s", 1 << 24, "float32"), *good),
        _with_stats(_r("copy", 3e10, "bytes_per_s", 1 << 24, "float32", backend="jax"), *one_rep),
        _with_stats(_collective(4096, 1e8), *good),
        _with_stats(_collective(1 << 20, 2e9), *wild),
        _with_stats(_collective(4096, 3e8, backend="jax"), *one_rep),  # a JAX series with no trusted point
    ]
    view.holder["data"] = _data(_run(results))
    view.flush_all()
    view.roofline.dtype.setCurrentText("bfloat16")  # the dtype whose JAX points are all untrusted
    view.flush_all()
    expected = {
        view.throughput: {
            "Test CPU · torch · float32",
            "Test CPU · jax · float32",
            "Test CPU · jax · bfloat16 (not trusted)",
        },
        view.bandwidth: {"Test CPU · torch", "Test CPU · jax (not trusted)"},
        view.roofline: {"measured: Test CPU · jax, no roof (not trusted)"},
        view.collective: {
            "torch gloo · 2 ranks on 1 host · float32",
            "jax gloo · 2 ranks on 1 host · float32 (not trusted)",
        },
    }
    for chart, names in expected.items():
        listed = set(chart._series_items)
        assert names <= listed, (chart.slug, listed)
        legend_or_list = (
            [lab.text for _, lab in chart.legend.items]
            if chart.legend.isVisible()
            else [chart.series_list.item(i).text() for i in range(chart.series_list.count())]
        )
        assert names <= {html.unescape(t) for t in legend_or_list}, chart.slug
        drawn = 0
        for it in chart._items:
            for sc in (it, getattr(it, "scatter", None), *it.childItems()):
                if not isinstance(sc, pg.ScatterPlotItem) or not len(sc.points()):
                    continue
                assert sc.opts["hoverable"], chart.slug
                assert _owner(chart, sc) is not None, f"{chart.slug}: points with no legend entry"
                for p in sc.points():
                    assert isinstance(p.data(), PointInfo), chart.slug
                    drawn += 1
        assert drawn, chart.slug
    # unticking a series in the side list hides its untrusted points too
    chart = view.throughput
    assert chart.series_list.isVisible()
    entry = next(
        chart.series_list.item(i)
        for i in range(chart.series_list.count())
        if chart.series_list.item(i).text() == "Test CPU · jax · float32"
    )
    entry.setCheckState(Qt.CheckState.Unchecked)
    assert all(not it.isVisible() for it in chart._series_items["Test CPU · jax · float32"])
    assert len(chart._series_items["Test CPU · jax · float32"]) == 2  # the line and its hollow point


def test_too_few_repetitions_says_so_in_the_readout_and_the_table():
    from gpu_tpu_app.shared.trust import point_flags
    from gpu_tpu_app.ui.charts.data import point_info
    from gpu_tpu_app.ui.probe.results_model import status_text, status_tooltip

    r = _with_stats(_r("matmul", 1e11, "flops", 512, "float32"), 0.0, 1)
    flags = point_flags(r)
    assert status_text(r, flags) == "only 1 repetition; 3 needed"
    assert "only 1 repetition; 3 needed" in status_tooltip(r, flags)
    text = point_readout(point_info(ChartRun(_run([r]), "run 0", 0), r, flags))
    assert "Not trusted: too few repetitions to judge the noise: only 1 repetition; 3 needed" in text
    assert "CV: 0.0 %" not in text and "one repetition has no spread" in text
    r2 = _with_stats(r, 0.0, 2)
    assert status_text(r2, point_flags(r2)) == "only 2 repetitions; 3 needed"


def test_an_empty_chart_gives_the_reason_the_runs_record():
    from gpu_tpu_app.core.runs import BackendStatus
    from gpu_tpu_app.ui.charts.data import empty_reason

    assert empty_reason(ChartData(), ("compile",), "JAX compile results", "hint", "jax").startswith(
        "No JAX compile results yet"
    )
    skipped = _r("compile", None, "seconds", 256, variant="compile", status="skipped", backend="jax")
    skipped = skipped.model_copy(update={"message": "left out to stay within the time budget"})
    ran = _run([skipped]).model_copy(
        update={
            "backends": [BackendStatus(backend="jax", available=True), BackendStatus(backend="torch", available=True)]
        }
    )
    text = empty_reason(_data(ran), ("compile",), "JAX compile results", "hint", "jax").replace("\n", " ")
    assert "jax skipped: left out to stay within the time budget" in text and "need the jax" not in text
    absent = _run([]).model_copy(
        update={"backends": [BackendStatus(backend="jax", available=False, reason="jax is not installed")]}
    )
    text = empty_reason(_data(absent), ("compile",), "JAX compile results", "hint", "jax").replace("\n", " ")
    assert text == "No JAX compile results: they need the jax backend, which was not available (jax is not installed)"
    assert all(len(line) <= 72 for line in empty_reason(_data(ran), ("compile",), "x", "y", "jax").splitlines())
