"""The lines that name a missing extra (gpu_tpu_app/extras.py): which module, which extra, in both languages,
and where they show: the probe commands, the model check's error line and the Probe page's device list.
The real base install (no framework at all) is tests/test_install.py's; here a framework is made to look
missing to find_spec."""

from __future__ import annotations

import sys
import tomllib
from pathlib import Path

import pytest

from gpu_tpu_app import extras
from gpu_tpu_app.core.note_model import MessageNote
from gpu_tpu_app.core.runs import BackendStatus
from gpu_tpu_app.errors import CheckFailed, InputError

ROOT = Path(__file__).resolve().parents[1]


def test_every_module_named_has_its_extra_in_pyproject() -> None:
    declared = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    for module, extra in extras.EXTRA_FOR.items():
        requirement = {"pynvml": "nvidia-ml-py"}.get(module, module)
        assert any(r.startswith(requirement) for r in declared[extra]), (module, extra)
    assert declared["all"] == ["gpu-tpu-app[torch,jax,tpu,nvidia]"]


def test_the_hint_names_the_extra_and_this_python_in_both_languages(zh: None) -> None:
    english = extras.install_hint("libtpu", language="en")
    assert "pip install 'gpu-tpu-app[tpu]'" in english and sys.executable in english and "--python PATH" in english
    chinese = extras.install_hint("torch")
    assert "没有安装 torch" in chinese and "pip install 'gpu-tpu-app[torch]'" in chinese


def test_a_missing_framework_is_found_in_an_error_only_when_this_python_lacks_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    error = "m.py:3 in (module level): ModuleNotFoundError: No module named 'torch.nn'"
    assert extras.missing_in_error(error) is None  # the dev venv has torch
    real = extras.installed_here
    monkeypatch.setattr(extras, "installed_here", lambda m: m != "torch" and real(m))
    assert extras.missing_in_error(error) == "torch"
    assert extras.missing_in_error("No module named 'numpyy'") is None  # not one an extra installs
    assert extras.missing_here(["torch", "jax", "no_such_module_here"]) == ["torch", "no_such_module_here"]


def test_check_model_adds_the_hint_to_its_error_line_unless_another_python_was_named(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from gpu_tpu_app.commands import check_model

    monkeypatch.setattr(extras, "installed_here", lambda m: m != "jax")
    exc = CheckFailed("model.py:1 in (module level): ModuleNotFoundError: No module named 'jax'")
    hinted = check_model._with_install_hint(exc, None, "en")
    assert type(hinted) is CheckFailed and str(hinted).startswith(str(exc) + "; jax is not installed")
    assert "pip install 'gpu-tpu-app[jax]'" in str(hinted)
    assert check_model._with_install_hint(exc, "/opt/other/python", "en") is exc
    other = InputError("model.py: not found")
    assert check_model._with_install_hint(other, None, "en") is other


def test_probe_devices_names_the_missing_extra(monkeypatch: pytest.MonkeyPatch, capsys) -> None:
    from gpu_tpu_app.commands.probe import devices

    monkeypatch.setattr(extras, "installed_here", lambda m: m != "jax")
    monkeypatch.setattr(devices, "list_devices", lambda backends, python: ([], []))
    args = type("Args", (), {"backend": "all", "python": None, "format": "text"})()
    assert devices.run(args) == 1  # no device: the exit code stays
    err = capsys.readouterr().err
    assert "jax is not installed in the app's Python" in err and "gpu-tpu-app[jax]" in err and "torch" not in err


def test_the_device_list_adds_the_extra_under_a_framework_that_is_not_installed(qtbot) -> None:
    from gpu_tpu_app.ui.probe.devices_view import DevicesView

    view = DevicesView()
    qtbot.addWidget(view)
    missing = MessageNote(id=extras.NOT_INSTALLED_NOTE, params={"backend": "jax", "error": "No module named 'jax'"})
    view.set_backend(BackendStatus(backend="jax", available=False, reason="jax is not installed", notes=[missing]), [])
    view.set_backend(BackendStatus(backend="torch", available=False, reason="torch failed to initialise: x"), [])
    rows = {
        view.topLevelItem(i).text(0): [
            view.topLevelItem(i).child(j).text(0) for j in range(view.topLevelItem(i).childCount())
        ]
        for i in range(view.topLevelItemCount())
    }
    jax_rows = next(v for k, v in rows.items() if k.startswith("jax"))
    torch_rows = next(v for k, v in rows.items() if k.startswith("torch"))
    assert any("pip install 'gpu-tpu-app[jax]'" in r for r in jax_rows), jax_rows
    assert not any("gpu-tpu-app[" in r for r in torch_rows), torch_rows  # installed, failed for another reason


def test_in_a_bundle_the_hint_points_at_another_python_not_pip(monkeypatch: pytest.MonkeyPatch, zh: None) -> None:
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    line = extras.install_hint("torch", language="en")
    assert "not in this bundle" in line and "--python PATH" in line and "gpu-tpu-app[" not in line
    assert "gpu-tpu-app[" not in extras.page_hint("jax") and "此打包版不含" in extras.page_hint("jax")
    monkeypatch.delattr(sys, "frozen")
    assert "gpu-tpu-app[jax]" in extras.page_hint("jax")
