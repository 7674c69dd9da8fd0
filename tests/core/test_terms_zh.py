"""The probe's vocabulary in Simplified Chinese (resources/text/terms.*, session.*, probe_app.*): a point's size and
name, the smoke-suite label, the measured devices' names, an environment's summary, progress; run files keep their
messages in English."""

from __future__ import annotations

import io

from gpu_tpu_app import i18n
from gpu_tpu_app.core.environments import FrameworkDevices, PythonEnv
from gpu_tpu_app.core.runs import Progress
from gpu_tpu_app.core.session import measured_devices
from gpu_tpu_app.probe.cli_output import ProgressPrinter
from gpu_tpu_app.probe.protocol import RunAssembler, point_label
from gpu_tpu_app.shared import terms
from tests.core.test_session import make_run, matmul


def test_english_words_are_unchanged() -> None:
    assert terms.size_words("copy", 1 << 29) == "512 Mi elements"
    assert terms.size_words("dispatch", 1) == "1 element"
    assert terms.point_words("matmul", terms.ONE_THREAD, "float32", 512) == "matmul 1 thread float32 512×512"
    assert terms.functional_check() == terms.FUNCTIONAL_CHECK


def test_sizes_and_points_in_chinese(zh: None) -> None:
    assert terms.size_words("copy", 1 << 29) == "512 Mi 个元素"
    assert terms.size_words("dispatch", 1) == "1 个元素"
    assert terms.size_words("transfer", 256 << 20) == "256 MiB"  # units stay
    assert terms.size_words("matmul", 4096) == "4096×4096"
    assert terms.point_words("copy", None, "float32", 1 << 29) == "复制（copy） float32 512 Mi 个元素"
    assert terms.point_words("matmul", terms.ONE_THREAD, "bfloat16", 512) == "矩阵乘法 单线程 bfloat16 512×512"
    # a variant that is an id, and a kernel the text files do not name, stay as they are
    assert terms.point_words("transfer", "h2d-pinned", None, 256 << 20) == "传输 h2d-pinned 256 MiB"
    assert terms.point_words("test_sleep", None, None, None) == "test_sleep"
    # asked for in English (what run files keep), whatever the language in use
    assert terms.point_words("copy", None, "float32", 1 << 29, language="en") == "copy float32 512 Mi elements"


def test_the_smoke_label_in_chinese(zh: None) -> None:
    assert terms.functional_check() == "冒烟套件：只是功能检查，不是基准测试"
    assert terms.functional_check("en") == terms.FUNCTIONAL_CHECK


def test_progress_speaks_chinese_but_the_run_file_keeps_english(zh: None) -> None:
    point = Progress(
        done=0, total=3, kernel="copy", backend="torch", device="torch:cpu:0", dtype="float32", size=1 << 29
    )
    assert point_label(point) == "复制（copy） float32 512 Mi 个元素"
    run = RunAssembler("quick")
    run.start_worker("torch")
    run.add(point)
    messages, _restart = run.worker_exited(-9)
    result = messages[0].result  # type: ignore[attr-defined]
    assert result.message.startswith("worker crashed (SIGKILL)")
    assert result.message.endswith("during copy float32 512 Mi elements")


def test_measured_devices_are_named_in_chinese(zh: None) -> None:
    devices = {d.key: d.name for d in measured_devices([make_run()])}
    assert devices["box/torch:cpu:0"] == "Example CPU（torch，float32；冒烟套件：只是功能检查，不是基准测试）"
    runs = [make_run("laptop"), make_run("tpu-vm", [matmul("jax:cpu:0", 3e11)])]
    names = [d.name for d in measured_devices(runs)]
    assert any(n.endswith("，位于 tpu-vm") for n in names) and any(n.endswith("，位于 laptop") for n in names)


def test_measured_devices_in_english_keep_their_words() -> None:
    devices = {d.key: d.name for d in measured_devices([make_run()])}
    assert (
        devices["box/torch:cpu:0"] == "Example CPU (torch, float32; smoke suite: a functional check, not a benchmark)"
    )


def _env(**kw: object) -> PythonEnv:
    return PythonEnv(interpreter="/opt/venv/bin/python", name="venv", kind="venv", **kw)  # type: ignore[arg-type]


def test_an_environments_summary_in_both_languages(zh: None) -> None:
    env = _env(
        usable=True,
        versions={"torch": "2.13.0", "jax": "0.10.2"},
        frameworks=[FrameworkDevices(framework="torch", devices=["cpu"]), FrameworkDevices(framework="jax")],
    )
    assert env.summary() == "torch 2.13.0（cpu）；jax 0.10.2（无设备）"
    assert _env().summary() == "不可用"
    i18n.set_language("en")
    assert env.summary() == "torch 2.13.0 (cpu); jax 0.10.2 (no devices)"
    assert _env().summary() == "not usable"
    assert _env(problem="/opt/venv/bin/python: no such file").summary() == "/opt/venv/bin/python: no such file"


def test_a_point_measured_again_says_so_in_chinese(zh: None) -> None:
    out = io.StringIO()
    printer = ProgressPrinter(out, tty=False, backends=["torch"])
    point = Progress(done=0, total=2, kernel="matmul", backend="torch", dtype="float32", size=256)
    printer(point)
    printer(point)
    lines = out.getvalue().splitlines()
    assert lines == [
        "torch 1/2: 矩阵乘法 float32 256×256",
        "torch 1/2: 矩阵乘法 float32 256×256 再测一次（第一次噪声太大）",
    ]


def test_an_environments_problem_is_kept_in_english_and_shown_in_chinese(zh: None, tmp_path) -> None:
    from gpu_tpu_app.core.environments import problem_words
    from gpu_tpu_app.probe.envs import query_env

    missing = str(tmp_path / "no-python")
    env = query_env(missing, "added", "mine")
    assert env.problem == f"{missing}: no such file"  # the cache and JSON keep English
    assert env.summary() == f"{missing}：文件不存在"
    folder = query_env(str(tmp_path), "added", "mine")
    assert folder.summary() == f"{tmp_path}：是文件夹，不是 Python 解释器"
    old = "/opt/py36/bin/python: Python 3.6.15 is too old (the probe needs 3.10 or newer)"
    assert problem_words(old) == "/opt/py36/bin/python：Python 3.6.15 太旧（探测需要 3.10 或更新的版本）"
    assert problem_words(old, language="en") == old
    # a problem the app does not word itself (an OS error) is shown as it is
    odd = "/x: cannot run it (Permission denied), not a Python interpreter"
    assert problem_words(odd) == odd


def test_how_an_environment_was_found_in_both_languages(zh: None) -> None:
    from gpu_tpu_app.core.environments import kind_words

    assert [kind_words(k) for k in ("app", "added", "venv")] == ["本应用", "手动添加", "venv 环境"]
    assert kind_words("something-new") == "something-new"
    assert [kind_words(k, language="en") for k in ("app", "added", "venv")] == ["app", "added", "venv"]
