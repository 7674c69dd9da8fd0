"""The English of every note the probe worker writes into a result, by text id (core.notes): the one source.

The worker runs in the user's interpreter (or a cloud VM) without the app's text files, so the English
sentences live here, in code that needs nothing but the standard library. `resources/text/worker.en.toml`
is generated from TEMPLATES (`python -m gpu_tpu_app.worker.notes > resources/text/worker.en.toml`; a test
holds the file equal to what english_toml() writes), and `worker.<language>.toml` holds the other languages,
which the app shows (core.note_text). Parameters are text: numbers are written as people read them before
they go in.
"""

from __future__ import annotations

from typing import Any

from gpu_tpu_app.shared.notes import Note, Notes, join, parts_of, verbatim

__all__ = ["TEMPLATES", "Note", "Notes", "join", "note", "parts_of", "verbatim"]

#: id (without the "worker." area) -> English template; resources/text/worker.en.toml is generated from it.
TEMPLATES: dict[str, str] = {
    # the measuring loop (kernels/stats.py)
    "stats.cancelled": "cancelled after {samples} samples",
    "stats.time_cap": "time cap reached before the CV fell to {cv}%",
    "stats.sample_limit": "limit of {samples} samples reached before the CV fell to {cv}%",
    "stats.pinned": "the CV stayed above {cv}%; stopped at {samples} samples, the median's standard error {error}%",
    # results of every kernel (kernels/common.py)
    "common.above_peak": "above the catalogue peak of {peak} ({pct}%): the timing or the catalogue entry is wrong, "
    "not a record",
    "common.matmul_memory": "needs {need}, more than {share} of the {free} free",
    "common.stream_memory": "needs {need} of the {free} free",
    "common.threads": "{threads} threads",
    "common.not_on_cpu": "not applicable on CPU",
    "common.arrays": "{arrays} arrays × {size}",
    "common.arrays_llc": "{arrays} arrays × {size} ({ratio}× LLC)",
    "common.arrays_in_cache_dram": "{arrays} arrays × {size} ({ratio}× LLC, partly in cache: not DRAM bandwidth)",
    "common.arrays_in_cache_device": "{arrays} arrays × {size} ({ratio}× LLC, partly in cache: not device memory "
    "bandwidth)",
    "common.step_flops": "{gflop} GFLOP per step (3 × forward matmul FLOPs)",
    "common.share_of_best": "{pct}% of the best {dtype} matmul measured in this run ({best})",
    "common.no_best": "no {dtype} matmul measured in this run to compare with",
    "common.one_device": "only one {platform} device: nothing to all-reduce across",
    # how a matmul multiplies, its math mode (kernels/common.py); the first word stays the mode's id
    "mode.bf16_emulated": "bf16 (emulated through fp32)",
    "mode.fp32_override_off": "fp32 (full: NVIDIA_TF32_OVERRIDE=0 keeps cuBLAS off TF32)",
    "mode.torch_precision": "float32 matmul precision '{precision}'",
    "mode.fp32_full": "fp32 (full)",
    "mode.fp32_tf32_needs_sm80": "fp32 (full: {why} asks for TF32, which needs compute capability 8.0)",
    "mode.tf32_tensor_cores": "tf32 tensor cores ({why})",
    "mode.bf16_before_sm80": "bf16 (no bf16 tensor cores before compute capability 8.0)",
    "mode.fp16_before_sm70": "fp16 (no tensor cores before compute capability 7.0)",
    "mode.tensor_cores": "{short} tensor cores (fp32 accumulate)",
    "mode.rocm_fp32": "fp32 (ROCm, no TF32)",
    "mode.matrix_cores": "{short} matrix cores (fp32 accumulate)",
    "mode.jax_precision": "precision '{setting}'",
    "mode.accumulate": "{short} (fp32 accumulate)",
    "mode.dot_algorithm": "{short} (dot algorithm {setting})",
    "mode.unmapped": "fp32? ({named} is not one this app maps)",
    "mode.tpu_one_pass": "bf16 (1 pass, {named})",
    "mode.tpu_three_passes": "bf16x3 (3 passes, {named})",
    "mode.tpu_six_passes": "bf16x6 (6 passes, {named})",
    "mode.gpu_tf32": "tf32 ({named})",
    "mode.gpu_fp32": "fp32 ({named})",
    # JAX kernels (kernels/jax_kernels.py)
    "jax.ahead": "set up and compiled ahead in {seconds} s, outside the point's time cap",
    "jax.ahead_reused": "set up and compiled ahead in {seconds} s, outside the point's time cap ({reused})",
    "jax.set_up_ahead": "set up ahead in {seconds} s, outside the point's time cap",
    "jax.set_up_ahead_reused": "set up ahead in {seconds} s, outside the point's time cap ({reused})",
    "jax.jit_default": "jit, default precision",
    "jax.first_call": "first call {seconds} s",
    "jax.donated": "output buffer donated",
    "jax.h2d": "{size} numpy array → device (jax.device_put)",
    "jax.d2h": "{size} device array → numpy (np.asarray) into a new host buffer each sample: its first-touch page "
    "faults are timed (JAX has no copy into an existing numpy array); torch's d2h figures reuse one faulted-in "
    "buffer, so compare engines on h2d",
    "jax.dispatch": "jitted x + 1 on 1 element (compiled ahead), bursts of {calls} calls, then block_until_ready",
    "jax.cost": "cost_analysis {cost} GFLOP vs 2·N³ = {analytic} GFLOP for the matmul (+ GELU)",
    "jax.no_cost": "cost_analysis gave no FLOP count",
    "jax.compile_cold": "matmul {n}×{n} + GELU, float32; the first call of the step in this worker, one sample: "
    "trace + compile (with GPU autotuning) + run; an earlier matmul of this shape in the run may already have filled "
    "the autotune cache",
    "jax.compile_lower": "matmul {n}×{n} + GELU, float32; trace + lower to StableHLO: jax.jit(f).lower(x, w)",
    "jax.compile_compile": "matmul {n}×{n} + GELU, float32; XLA compile of the lowered module: .compile(), warm "
    "(autotune results cached in this process)",
    "jax.compile_first_call": "matmul {n}×{n} + GELU, float32; first call of a new jitted function: trace + compile "
    "+ run, warm: XLA's process-wide autotune and kernel caches already hold this shape",
    "jax.compile_steady": "matmul {n}×{n} + GELU, float32; later calls of the compiled function",
    "jax.one_device_hint": "only one {platform} device: nothing to all-reduce across "
    "(XLA_FLAGS=--xla_force_host_platform_device_count=N makes N CPU devices)",
    "jax.psum": "all-reduce (psum in shard_map) of {size} per device across {ranks} {platform} devices; algorithm "
    "bandwidth; bus bandwidth {bus} = algbw × 2(n-1)/n",
    "jax.model_step": "jitted forward + backward (jax.grad)",
    # what a JAX point kept from an earlier try or point (kernels/jax_held.py)
    "held.kept": "{what} kept from an earlier try or point (same seed, shape and dtype)",
    "held.both": "{first} and {second}",
    "held.function": "the compiled function",
    "held.functions": "{n} compiled functions",
    "held.arrays": "its arrays",
    "held.some_arrays": "{n} of its {total} arrays",
    # torch kernels (kernels/torch_kernels.py)
    "torch.one_thread": "the same product on 1 of {threads} threads: a {threads}-thread rate below it is stalled",
    "torch.one_thread_for": "the {n}×{n} product on 1 of {threads} threads, timed right after this size's loop (one "
    "thread's rate has levelled off by {n}): a {threads}-thread rate below it is stalled",
    "torch.from_pinned": "{size} from pinned (page-locked) host memory",
    "torch.from_pageable": "{size} from pageable host memory",
    "torch.into_pinned": "{size} into pinned (page-locked) host memory",
    "torch.into_pageable": "{size} into pageable host memory",
    "torch.dispatch": "eager x + 1 on 1 element, bursts of {calls} calls between syncs",
    "torch.no_compile": "torch runs eagerly here: nothing is compiled ahead of the first call (torch.compile is not "
    "measured)",
    "torch.model_step": "eager forward + backward",
    "torch.no_nccl": "torch.distributed was built without NCCL",
    "torch.no_collective": "{count} {platform} devices, but all-reduce across them (oneCCL / xccl on XPU) is not "
    "measured by this app",
    "torch.no_distributed": "torch.distributed is not available in this build",
    "torch.allreduce_loopback": "all-reduce (sum) of {size} across {ranks} ranks ({backend} on loopback 127.0.0.1); "
    "algorithm bandwidth; bus bandwidth {bus} = algbw × 2(n-1)/n",
    "torch.allreduce_links": "all-reduce (sum) of {size} across {ranks} ranks ({backend} over the GPUs' links); "
    "algorithm bandwidth; bus bandwidth {bus} = algbw × 2(n-1)/n",
    # the plan (kernels/planner.py) and the worker's loop (main.py)
    "main.budget_used_up": "not run: the {suite} suite's time budget ({seconds} s for {backend}) was used up; a larger time budget includes it (Time on the Probe page, --budget-s for gpu-tpu-probe)",
    "plan.no_fp16_cpu": "no native fp16 matmul on CPUs: hundreds of times slower than fp32, so it is not planned",
    "plan.no_fp16_tpu": "TPUs multiply in bf16; fp16 is converted, not a native format, so it is not planned",
    "plan.torch_dtype_failed": "torch could not multiply {dtype} matrices on this {platform} device",
    "plan.not_in_suite": "no {dtype} matmul in the {suite} suite",
    "plan.matmul_memory": "needs {need} for three {n}×{n} matrices, more than {share} of the {memory} this device has",
    "plan.slow_left_out": "one {n}×{n} product takes about {product_s} s, so the point would take about {point_s} s, more than the {limit_s} s a slow dtype may use of the budget",
    "plan.below_fp32": "{times}x below fp32",
    "plan.below_expected": "{times}x below the {expected} expected",
    "plan.emulated_cpu": "{dtype} is emulated on this CPU: {rate}, {versus}",
    "plan.far_below_fp32_cpu": "{dtype} runs far below fp32 on this CPU: {rate}, {versus}",
    "plan.far_below_expected_cpu": "{dtype} runs far below its expected rate on this CPU: {rate}, {versus}",
    "plan.far_below_fp32_device": "{dtype} runs far below fp32 on this {platform} device: {rate}, {versus}",
    "plan.far_below_expected_device": "{dtype} runs far below its expected rate on this {platform} device: {rate}, {versus}",
    "plan.suite_budget": "the {suite} suite's time budget",
    "plan.memory_share": "{share} of the device's memory for all three arrays",
    "plan.both": "{first} and {second}",
    "plan.llc_times_4": "4× the {llc} last-level cache",
    "plan.working_set": "the planned working set",
    "plan.stream_capped": "arrays capped at {size} each to fit {because}; {cache} asks for {target}: part of the data may be served from cache",
    "plan.stream_memory": "needs {need}, more than 40% of the {memory} this device has",
    "plan.budget_suite": "left out to fit the time budget: this point takes about {point_s} s, and {backend} had {budget_s} s of the {suite} suite's budget for {need_s} s of points; a larger time budget includes it (Time on the Probe page, --budget-s for gpu-tpu-probe), or fewer kernels",
    "plan.budget_run": "left out to fit the time budget: this point takes about {point_s} s, and {backend} had {budget_s} s of the run's budget for {need_s} s of points; a larger time budget includes it (Time on the Probe page, --budget-s for gpu-tpu-probe), or fewer kernels",
    # device detection (detect.py) and the worker's messages (main.py)
    "detect.not_installed": "{backend} is not installed ({error})",
    "detect.switched_off": "{backend} is not installed (switched off by {variable})",
    "detect.failed_to_start": "{backend} failed to initialise: {error}",
    "detect.no_devices": "{backend} found no devices",
    "main.cancelled": "cancelled",
    "main.not_available": "not available",
    "main.skipped": "{n} points skipped: time budget used up",
    "main.warm_up_failed": "warm-up of {device}: {error}",
    "main.could_not_plan": "could not plan the {suite} suite: {error}",
    "main.throttled": "measured while the GPU reported {reasons} (NVML): clocks held below their target",
    "detect.metal_limit": "Metal's recommended working-set limit, not the unified memory total",
    "detect.runtime_limit": "bytes_limit of the {platform} runtime",
    "detect.platform_allocator": "XLA allocator limit (platform allocator)",
    "detect.allocator_fraction": "XLA allocator limit (XLA_PYTHON_CLIENT_MEM_FRACTION={fraction}), not the device's total memory",
    "detect.allocator_default": "XLA allocator limit (75% of the total by default), not the device's total memory",
    # the model check (modelcheck*.py, tpu_compile*.py)
    "check.torchax_then": "torchax.extract_jax, then {then}",
    "check.compile_route": "{route}.lower(<shapes with shardings>).compile()",
    "check.layout_one": "one device: nothing is split",
    "check.layout_split": "inputs split along their first axis over {n} devices (data parallel); weights replicated on each",
    "check.layout_kept": "replicated because the first axis does not divide by {n}: {inputs}",
    "check.per_chip": "{n} devices per chip, figures summed per chip",
    "check.no_libtpu": "libtpu is not installed in the checking interpreter, so the TPU compiler is not available here (pip install 'libtpu==<the version jax[tpu] names>'; see the README)",
    "check.no_torchax": "torchax is not installed; PyTorch models reach the TPU compiler through torchax.extract_jax",
    "check.not_compiled": (
        "not compiled: lowering for TPU failed or its route could not take this model, so the TPU compiler has no program"
    ),
    "check.not_installed": "{name}: not installed",
    "check.stablehlo_size": "StableHLO module of {kib} KiB",
    "check.host_callback": "host callback ({callbacks}) runs Python on the host CPU; it cannot be lowered ahead of time for {platform} ({error})",
    "check.value_dependent": "a shape or Python branch that depends on array values ({error})",
    "check.count_jaxpr": "counted from the traced jaxpr: dot_general and convolutions as 2 x multiply-adds; dense linear algebra (Cholesky, triangular solves, LU, eigh, SVD, QR) by the Golub-Van Loan operation counts, as matrix math; FFTs at 2.5 N log2 N, outside it; every other primitive 1 operation per output element (per input element for reductions); reshapes and copies 0; scan bodies x their length",
    "check.while_once": "while-loop bodies once (trip count unknown)",
    "check.count_torch": "one eager forward on the CPU under a dispatch mode (PyTorch's fused attention fast path off): matrix multiplies, convolutions and attention by torch's FLOP formulas; fused transformer, attention and oneDNN recurrent kernels as the matrix multiplies inside them; dense linear algebra (Cholesky, solves, LU, eigh, SVD, QR, cdist) by the Golub-Van Loan operation counts and counted as matrix math; FFTs at 2.5 N log2 N and sparse products at 2 x nnz x k, both outside it; every other operator 1 operation per output element (per input element for reductions); views 0",
    "check.programs_jax": "jax.jit compiles one program per distinct input shape and dtype",
    "check.programs_export": "torch.export captured one static graph without data-dependent operations; XLA compiles a static graph once per distinct input shape and dtype",
    "check.programs_compile": "torch.compile with static shapes (as XLA compiles), counting compiled frames",
    "check.torchax_no_rule": "torchax {version} cannot lower the higher-order operator {operators} (it has no rule for it): a limit of this route, not a verdict on the model ({error})",
    "check.created_tensors": "{n} tensor(s) the model creates inside forward without a device (torch.zeros(...), torch.eye(n), ...) were made on the TPU side, as with the default device set there; on a TPU create them with device=x.device or set the default device",
    "check.sparse_as_dense": "torchax lowered it only by treating the sparse argument(s) as dense arrays ({inputs}): the TPU program is a dense one, not the sparse model",
    "check.compiled_nothing": "torch.compile compiled no program for {n} distinct input shape(s): it skipped the model (it skips some modules, nn.LSTM and nn.GRU among them), so how many programs XLA would compile is not known",
    # collectives across processes (collective.py, collective_report.py)
    "collective.not_run": "not run: {why}",
    "collective.cancelled": "cancelled",
    "collective.budget_used_up": "the time budget was used up",
    "collective.stalled": "{n} of {total} operations stalled (up to {slowest_ms} ms, the fastest took {fastest_ms} ms)",
    "collective.stalled_jax_gloo": "{n} of {total} operations stalled (up to {slowest_ms} ms, the fastest took {fastest_ms} ms): JAX's own gloo transport stalls like this at some sizes, in a plain jax.distributed loop too, so this figure is JAX's, not the probe's",
    "collective.measured_one_host": "{op} of {size} across {ranks} ranks on {hosts} host ({backend} {transport}); {us} µs per operation; algorithm bandwidth {algbw} GB/s; bus bandwidth = algbw × {factor}",
    "collective.measured_hosts": "{op} of {size} across {ranks} ranks on {hosts} hosts ({backend} {transport}); {us} µs per operation; algorithm bandwidth {algbw} GB/s; bus bandwidth = algbw × {factor}",
    # second tries (retry.py); {reason} is the trust rule's reason (core.trust)
    "retry.both_noisy_faster_first": "measured {when}, too noisy both times; the faster (first) try is kept",
    "retry.both_noisy_faster_second": "measured {when}, too noisy both times; the faster (second) try is kept",
    "retry.both_noisy_steadier_first": "measured {when}, too noisy both times; the steadier (first) try is kept",
    "retry.both_noisy_steadier_second": "measured {when}, too noisy both times; the steadier (second) try is kept",
    "retry.faster_first": "measured {when}: the first try was {reason}; the faster (first) try is kept",
    "retry.faster_second": "measured {when}: the first try was {reason}; the faster (second) try is kept",
    "retry.steadier_first": "measured {when}: the first try was {reason}; the steadier (first) try is kept",
    "retry.steadier_second": "measured {when}: the first try was {reason}; the steadier (second) try is kept",
    "retry.twice": "twice",
    "retry.again_after_larger": "again after a larger size",
}


def note(key: str, **params: Any) -> Note:
    """The note with id "worker.<key>", its English from TEMPLATES, its parameters as given (text or notes)."""
    return Note(f"worker.{key}", TEMPLATES[key], **params)


#: The two entries of the English file that are no note: how notes join, and a note that is plain text.
FILE_ENTRIES = {"separator": "; ", "verbatim": "{text}"}


def english_toml() -> str:
    """resources/text/worker.en.toml as generated from TEMPLATES: one table per area, in TEMPLATES' order."""
    import json

    lines = [
        "# Notes the probe worker writes into results: GENERATED from gpu_tpu_app/worker/notes.py (the one",
        "# source; the worker runs without the app's files) by `python -m gpu_tpu_app.worker.notes`. Edit that",
        "# file, not this one. Run files keep the English and these ids; the app shows them from here.",
    ]
    lines += [f"{k} = {json.dumps(v, ensure_ascii=False)}" for k, v in FILE_ENTRIES.items()]
    areas: dict[str, list[str]] = {}  # each area's entries, areas in the order TEMPLATES first names them
    for key, template in TEMPLATES.items():
        head, name = key.split(".", 1)
        areas.setdefault(head, []).append(f"{name} = {json.dumps(template, ensure_ascii=False)}")
    for head, entries in areas.items():
        lines += ["", f"[{head}]", *entries]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":  # pragma: no cover - writes the English file
    import sys

    sys.stdout.write(english_toml())
