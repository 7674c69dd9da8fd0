"""The decision package gives every public name from the module that defines it, on first use."""

from __future__ import annotations

import importlib
import subprocess
import sys

import gpu_tpu_app.core.decision as decision


def test_every_public_name_comes_from_the_module_its_table_names() -> None:
    assert set(decision.__all__) | {"_SMALL_SERVING"} == set(decision._HOMES)
    for name, home in decision._HOMES.items():
        module = importlib.import_module(f"gpu_tpu_app.core.decision.{home}")
        assert getattr(decision, name) is getattr(module, name.lstrip("_")), name


def test_importing_the_package_imports_none_of_its_modules() -> None:
    code = (
        "import sys, gpu_tpu_app.core.decision as d\n"
        "print(sorted(m for m in sys.modules if m.startswith('gpu_tpu_app.core.decision.') or m == 'pydantic'))\n"
        "d.FACTORS\n"
        "print(sorted(m for m in sys.modules if m.startswith('gpu_tpu_app.core.decision.') or m == 'pydantic'))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60).stdout
    before, after = out.splitlines()
    assert before == "[]"
    assert after == "['gpu_tpu_app.core.decision.fields']"  # FACTORS: its own module, and no pydantic
