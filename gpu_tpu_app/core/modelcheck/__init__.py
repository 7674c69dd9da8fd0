"""The framework check, measured: what the model-check worker found, and the wizard answers it supports.

The worker (gpu_tpu_app.worker.modelcheck) runs the user's model file in its own process and sends
plain JSON. A package of one job per module; every public name is importable from here:

- contract: the worker's JSON lines (`Findings` and its parts, `parse_worker_line`) and the check's
  result (`ModelCheck`, `Evidence`, `MeasuredAnswers`), validated
- rules: findings to answers, evidence and the evidence level by the rules in `MAPPING_RULES`
  (`check_from_findings`), and measured answers combined with stated ones (`combine`, `differing`)
- text: the check in words (`level_text`, `render_text`, `error_line`, `evidence_text`, `measured_note`)
- session: the parent's side of one worker (`CheckSession`), for the CLI and the window alike

Pure: no Qt, no torch, no jax.
"""

from __future__ import annotations

from gpu_tpu_app.core.modelcheck.contract import (
    ANSWER_FIELDS,
    HIGH_PRECISION_FP64,
    CustomOp,
    DataDependent,
    Evidence,
    Fallback,
    Findings,
    Float64Use,
    Flops,
    GraphBreak,
    GraphBreaks,
    HostCallback,
    Level,
    Located,
    Lowering,
    MeasuredAnswers,
    ModelCheck,
    Programs,
    Stage,
    WorkerError,
    WorkerFindings,
    WorkerStage,
    XlaRun,
    parse_worker_line,
)
from gpu_tpu_app.core.modelcheck.rules import (
    CONTRACT_LANGUAGE,
    HOST_SYNC_OPS,
    MAPPING_RULES,
    MATMUL_DOMINANT,
    MATMUL_LOW,
    PLAUSIBLE_FRACTION,
    SPARSE_PREFIX,
    Words,
    check_from_findings,
    combine,
    differing,
    mapping_rules,
)
from gpu_tpu_app.core.modelcheck.session import CheckSession
from gpu_tpu_app.core.modelcheck.text import (
    INTERNAL_FAILURE,
    LEVEL_TEXT,
    MALFORMED_FINDINGS,
    error_line,
    evidence_text,
    level_text,
    measured_note,
    own_failure,
    render_text,
)

__all__ = [
    "ANSWER_FIELDS",
    "CONTRACT_LANGUAGE",
    "HIGH_PRECISION_FP64",
    "HOST_SYNC_OPS",
    "INTERNAL_FAILURE",
    "LEVEL_TEXT",
    "MALFORMED_FINDINGS",
    "MAPPING_RULES",
    "MATMUL_DOMINANT",
    "MATMUL_LOW",
    "PLAUSIBLE_FRACTION",
    "SPARSE_PREFIX",
    "CheckSession",
    "CustomOp",
    "DataDependent",
    "Evidence",
    "Fallback",
    "Findings",
    "Float64Use",
    "Flops",
    "GraphBreak",
    "GraphBreaks",
    "HostCallback",
    "Level",
    "Located",
    "Lowering",
    "MeasuredAnswers",
    "ModelCheck",
    "Programs",
    "Stage",
    "Words",
    "WorkerError",
    "WorkerFindings",
    "WorkerStage",
    "XlaRun",
    "check_from_findings",
    "combine",
    "differing",
    "error_line",
    "evidence_text",
    "level_text",
    "mapping_rules",
    "measured_note",
    "own_failure",
    "parse_worker_line",
    "render_text",
]
