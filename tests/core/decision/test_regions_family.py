"""The verdict's GPU side lists GPUs only: a chip of another family (Trainium) is neither side of the verdict."""

from __future__ import annotations

from gpu_tpu_app.core.decision import regions


def test_the_gpu_side_lists_no_chip_of_another_family() -> None:
    families = regions.chip_families()
    others = {chip for chip, family in families.items() if family == "other"}
    assert others, "the catalogue has chips of another family (Trainium, Gaudi) to leave out"
    gpu_rows = regions.offered(None, tpu=False)
    assert gpu_rows and all(families.get(row.chip) == "gpu" for row in gpu_rows)
    assert not {row.chip for row in gpu_rows} & others
    names = regions.family_offers(None, None, tpu=False).chips
    assert not any("Trainium" in name for name in names)
    assert all(regions.is_tpu(row.chip) for row in regions.offered(None, tpu=True))
