"""`gpu-tpu-app prices`: cheapest place per chip, filters, local catalogues, JSON, refusals."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.core.test_prices import AWS_VMS, GCP_VMS, _write

Run = Callable[..., tuple[int, str, str]]


@pytest.fixture(autouse=True)
def _no_local_catalogues(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.delenv("GPUHUNT_CATALOG_DIR", raising=False)
    return home


def test_prices_on_a_fresh_machine_shows_the_shipped_table(run_cli: Run) -> None:
    code, out, err = run_cli("prices")
    assert code == 0, err
    assert "Google TPU v6e (Trillium)" in out
    assert "shipped table, read 20" in out
    assert "No on-demand price for:" in out
    assert "https://github.com/skypilot-org/skypilot-catalog/" in out


def test_prices_json_filters_by_chip_kind_and_cloud(run_cli: Run) -> None:
    code, out, _ = run_cli("prices", "--chip", "tpu-v6e", "--spot", "--cloud", "gcp", "--format", "json")
    assert code == 0
    data = json.loads(out)
    assert data["kind"] == "spot"
    (chip,) = data["chips"]
    assert chip["chip"] == "tpu-v6e"
    usds = [r["usd_per_chip_hour"] for r in chip["regions"]]
    assert usds == sorted(usds)
    assert chip["cheapest"]["usd_per_chip_hour"] == usds[0]
    assert chip["places"] == len(usds)
    assert all(r["kind"] == "spot" and r["cloud"] == "gcp" for r in chip["regions"])


def test_prices_reads_the_default_skypilot_folder_and_from_path(run_cli: Run, _no_local_catalogues: Path) -> None:
    sky = _no_local_catalogues / ".sky" / "catalogs" / "v8"
    _write(sky / "aws" / "vms.csv", AWS_VMS, age_hours=3)
    code, out, _ = run_cli("prices", "--chip", "h100-sxm", "--cloud", "aws")
    assert code == 0
    assert "$6.88" in out  # 55.04 / 8
    assert "SkyPilot catalogue, 3 h old" in out
    other = _write(_no_local_catalogues / "elsewhere" / "gcp" / "vms.csv", GCP_VMS, age_hours=1)
    code, out, _ = run_cli("prices", "--no-local", "--from", str(other.parent.parent), "--format", "json")
    assert code == 0
    regions = [r for c in json.loads(out)["chips"] for r in c["regions"]]
    assert not any(r["cloud"] == "aws" and r["origin"] == "skypilot" for r in regions)  # --no-local: not read
    assert any(r["cloud"] == "gcp" and r["origin"] == "skypilot" and r["where"] == str(other) for r in regions)


def test_prices_refuses_bad_flags_and_files_in_one_line(run_cli: Run, tmp_path: Path) -> None:
    code, _, err = run_cli("prices", "--chip", "h900")
    assert code == 2 and "--chip: unknown chip 'h900'" in err
    code, _, err = run_cli("prices", "--cloud", "nocloud")
    assert code == 2 and "--cloud: no prices for 'nocloud'" in err
    bad = tmp_path / "bad.csv"
    bad.write_bytes(b"\xff\xfe\x00binary")
    code, _, err = run_cli("prices", "--from", str(bad))
    assert code == 2
    assert err.strip().count("\n") == 0
    assert str(bad) in err and "not UTF-8" in err
