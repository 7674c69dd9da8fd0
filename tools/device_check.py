"""Check a probe run measured on a GPU or TPU for the accelerator paths that only a device can confirm.

Reads the run files tools/device_check.sh wrote and says, per item, ok / problem / not
applicable, with the figures it looked at. Writes summary.json and prints the same as text.
It judges only what a run file records; it never edits one.

    python tools/device_check.py OUT_DIR
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from gpu_tpu_app.core.runs import RunFile, load_run
from gpu_tpu_app.worker.kernels.common import MODE_PEAKS


def _accelerators(run: RunFile) -> list:
    return [d for d in run.devices if d.platform != "cpu"]


def checks(run: RunFile, tf32_run: RunFile | None = None) -> list[dict]:
    """One entry per item: name, verdict ('ok', 'problem', 'n/a') and what was seen."""
    out: list[dict] = []

    def add(name: str, verdict: str, seen: str) -> None:
        out.append({"check": name, "verdict": verdict, "seen": seen})

    accel = _accelerators(run)
    measured = {d.key for d in accel if any(r.device == d.key for r in run.results)}
    if not accel:
        add("accelerator found", "problem", "no GPU or TPU in this run: nothing below can be confirmed")
        return out
    add("accelerator found", "ok", ", ".join(f"{d.key} {d.name} ({d.catalog_id or 'no catalogue row'})" for d in accel))
    timeouts = [r for r in run.results if r.status == "timeout"]
    add(
        "no point timed out (compile and warm-up outside the caps)",
        "problem" if timeouts else "ok",
        "; ".join(f"{r.device} {r.label()}: {r.message}" for r in timeouts) or f"{len(run.results)} results",
    )
    warm = [(d.key, d.first_use_s) for d in accel if d.key in measured]
    add(
        "device warm-up recorded before point 1",
        "ok" if warm and all(s is not None for _, s in warm) else "problem",
        ", ".join(f"{k}: {s} s" for k, s in warm) or "no measured accelerator",
    )
    jax = [
        r
        for r in run.results
        if r.backend == "jax" and r.device in measured and r.kernel == "matmul" and r.status in ("ok", "suspect")
    ]
    if jax:
        ahead = [r for r in jax if "compiled ahead" in (r.message or "")]
        add(
            "JAX compiles ahead of the point's clock",
            "ok" if len(ahead) == len(jax) else "problem",
            f"{len(ahead)} of {len(jax)} JAX matmul results say so",
        )
        cold = [
            r for r in run.results if r.kernel == "compile" and r.variant == "first_call_cold" and r.device in measured
        ]
        warm_first = [
            r for r in run.results if r.kernel == "compile" and r.variant == "first_call" and r.device in measured
        ]
        if cold and warm_first and cold[0].value is not None and warm_first[0].value is not None:
            add(
                "cold first call is its own figure",
                "ok",
                f"cold {cold[0].value:.3f} s vs warm first call {warm_first[0].value:.3f} s",
            )
        else:
            add(
                "cold first call is its own figure",
                "problem" if cold or warm_first else "n/a",
                "compile waterfall not measured on an accelerator"
                if not (cold or warm_first)
                else "a variant is missing",
            )
    streams = [r for r in run.results if r.kernel in ("copy", "triad") and r.device in measured and r.size]
    for r in streams:
        dev = run.device(r.device)
        llc = dev.cache_bytes if dev else None
        per_array = (r.size or 0) * 4
        ok = llc is None or per_array >= 4 * llc or "capped" in (r.message or "")
        add(
            f"{r.device} {r.kernel} working set past the device cache",
            "ok" if ok else "problem",
            f"{per_array / 2**20:.0f} MiB per array, device LLC "
            f"{'unknown' if llc is None else f'{llc / 2**20:.0f} MiB'}; {r.status}; {r.message}",
        )
    modes = [r for r in run.results if r.math_mode and r.device in measured]
    unknown = sorted({r.math_mode for r in modes if r.math_mode.split(" ", 1)[0].lower() not in MODE_PEAKS})  # type: ignore[union-attr]
    add(
        "math modes name what ran",
        "problem" if unknown else "ok",
        "; ".join(unknown) or ", ".join(sorted({r.math_mode for r in modes})),
    )  # type: ignore[arg-type]
    suspect = [r for r in run.results if r.status == "suspect"]
    add(
        "nothing above the catalogue peak",
        "problem" if suspect else "ok",
        "; ".join(f"{r.device} {r.label()}: {r.message}" for r in suspect) or "none",
    )
    nvidia = [d for d in accel if d.platform == "cuda" and d.key in measured]
    if nvidia:
        with_state = [r for r in run.results if r.device in {d.key for d in nvidia} and r.before is not None]
        add(
            "NVML state around points (needs nvidia-ml-py)",
            "ok" if with_state else "problem",
            f"{len(with_state)} results carry clocks/temperature/power"
            + (
                "; throttled: " + "; ".join(r.label() for r in with_state if "throttl" in (r.message or ""))
                if any("throttl" in (r.message or "") for r in with_state)
                else ""
            ),
        )
    if tf32_run is not None:
        fp32 = [
            r
            for r in tf32_run.results
            if r.kernel == "matmul"
            and r.dtype == "float32"
            and r.backend == "torch"
            and r.device.startswith("torch:cuda")
        ]
        caps = [run.device(r.device) for r in fp32]
        ampere = any(d and int(d.versions.get("compute_capability", "0").split(".")[0] or 0) >= 8 for d in caps)
        want = "tf32" if ampere else "fp32"
        got = sorted({(r.math_mode or "").split(" ", 1)[0] for r in fp32})
        add(
            "TORCH_ALLOW_TF32_CUBLAS_OVERRIDE=1 is labelled",
            "ok" if fp32 and got == [want] else ("n/a" if not fp32 else "problem"),
            f"fp32 matmul labelled {got}, expected {want}",
        )
    return out


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: python tools/device_check.py OUT_DIR", file=sys.stderr)
        return 2
    folder = Path(args[0])
    quick = folder / "quick.json"
    if not quick.is_file():
        print(f"{quick}: no such file (did the quick run finish?)", file=sys.stderr)
        return 2
    run = load_run(quick)
    tf32_path = folder / "tf32-override.json"
    tf32 = load_run(tf32_path) if tf32_path.is_file() else None
    result = checks(run, tf32)
    (folder / "summary.json").write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    for c in result:
        print(f"{c['verdict']:8} {c['check']}: {c['seen']}")
    return 1 if any(c["verdict"] == "problem" for c in result) else 0


if __name__ == "__main__":
    sys.exit(main())
