"""The probe results table's kernel cell in zh-Hans: the one-thread matmul's variant is worded, not its id."""

from __future__ import annotations

from gpu_tpu_app.core.runs import ProbeResult

ZH = "zh-Hans"


def _result() -> ProbeResult:
    return ProbeResult(kernel="matmul", backend="torch", device="torch:cpu:0", metric="flops")


def test_the_one_thread_variant_reads_in_zh_hans_in_the_results_table() -> None:
    from gpu_tpu_app import i18n
    from gpu_tpu_app.shared.terms import ONE_THREAD
    from gpu_tpu_app.ui.probe.results_model import kernel_label

    r = _result().model_copy(update={"variant": ONE_THREAD})
    old = i18n.current_language()
    try:
        i18n.set_language(ZH)
        assert kernel_label(r).endswith(" 单线程")
        i18n.set_language("en")
        assert kernel_label(r).endswith(" 1 thread")
    finally:
        i18n.set_language(old)
