"""Device detection: real torch and JAX devices found in worker processes, CPU facts, catalogue match."""

from __future__ import annotations

import importlib.metadata
import os
from pathlib import Path

import pytest

from gpu_tpu_app.core.catalog import load_catalog
from gpu_tpu_app.probe.runner import list_devices
from gpu_tpu_app.worker import detect


@pytest.fixture(scope="module")
def found():
    return list_devices(("torch", "jax"))


def test_torch_and_jax_cpu_are_detected_with_real_names(found) -> None:
    devices, backends = found
    by_key = {d.key: d for d in devices}
    assert {"torch:cpu:0", "jax:cpu:0"} <= set(by_key)
    model = detect.cpu_model()
    proc = Path("/proc/cpuinfo")
    if proc.exists():
        names = {
            line.split(":", 1)[1].strip() for line in proc.read_text().splitlines() if line.startswith("model name")
        }
        assert model in names
    for key in ("torch:cpu:0", "jax:cpu:0"):
        dev = by_key[key]
        assert dev.name == model and dev.name not in ("cpu", "")
        assert dev.memory_bytes and dev.memory_bytes > 256 * 1024**2
        assert dev.cpu is not None and dev.cpu.threads_used and dev.cpu.threads_used >= 1
    assert by_key["torch:cpu:0"].versions["torch"] == importlib.metadata.version("torch")
    assert by_key["jax:cpu:0"].versions["jax"] == importlib.metadata.version("jax")
    assert all(b.available for b in backends)


def test_cpu_info_reports_isa_flags_and_caches_the_os_gives() -> None:
    info = detect.cpu_info()
    assert info.model and info.cores == os.cpu_count()
    proc = Path("/proc/cpuinfo")
    if proc.exists():
        line = next(x for x in proc.read_text().splitlines() if x.startswith(("flags", "Features")))
        present = set(line.split(":", 1)[1].split())
        assert set(info.flags) <= present
        assert set(info.flags) == present & set(detect.INTERESTING_FLAGS)
    sysfs = Path("/sys/devices/system/cpu/cpu0/cache")
    if sysfs.exists():
        assert info.caches and all(v >= 1024 for v in info.caches.values())
        levels = {(p / "level").read_text().strip() for p in sysfs.glob("index*")}
        assert {k[1] for k in info.caches} == levels


def test_a_disabled_backend_is_reported_not_raised() -> None:
    devices, backends = list_devices(("jax", "torch"), env={detect.DISABLE_ENV: "jax"})
    status = {b.backend: b for b in backends}
    assert status["jax"].available is False and "not installed" in (status["jax"].reason or "")
    assert status["torch"].available is True
    assert [d.backend for d in devices] == ["torch"]


def test_catalogue_match_uses_the_catalogue(monkeypatch: pytest.MonkeyPatch) -> None:
    from gpu_tpu_app.probe.envs import catalog_digest

    monkeypatch.setenv(detect.CATALOG_ENV, catalog_digest())  # what the app hands every worker
    chip = load_catalog().chip("h100-sxm")
    assert detect.catalog_match("NVIDIA H100 80GB HBM3") == chip.id
    peaks, bw = detect.catalog_peaks(chip.id)
    assert peaks["bfloat16"] == chip.peak_flops("bfloat16")
    assert bw == pytest.approx(chip.mem_bw.value * 1e9)
    assert detect.catalog_match("Imaginary Accelerator 9000") is None
    assert detect.catalog_peaks(None) == ({}, None)


def test_kernel_env_records_only_what_is_set() -> None:
    env = detect.kernel_env({"XLA_FLAGS": "--xla_force_host_platform_device_count=4", "HOME": "/root"})
    assert env == {"XLA_FLAGS": "--xla_force_host_platform_device_count=4"}
