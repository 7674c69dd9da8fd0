"""One check as the parent sees it: the worker's stdout in, the result or its one-line error out.

Pure: no Qt, no torch, no jax; the CLI (probe.modelcheck_launch) and the window (ui.model_check) drive it.
"""

from __future__ import annotations

from gpu_tpu_app.core.modelcheck.contract import (
    Findings,
    ModelCheck,
    WorkerError,
    WorkerFindings,
    WorkerStage,
    clip,
    findings_problem,
    parse_worker_line,
)
from gpu_tpu_app.core.modelcheck.phases import phase_words
from gpu_tpu_app.core.modelcheck.rules import Words, check_from_findings
from gpu_tpu_app.core.modelcheck.text import error_line
from gpu_tpu_app.shared.procutil import GUARD_SIGNAL_LINE

# --------------------------------------------------------------------------- one check, as the parent sees it


class CheckSession:
    """The parent's side of one worker: feed its stdout, then `finish()` for the result or the error line.

    The CLI drives it with subprocess, the window with QProcess; both get the same messages and the
    same one-line errors (timeout, crash, bad file) naming the file and the function that was running.
    """

    def __init__(self, file: str, timeout_s: float, memory_limit_mb: int, language: str | None = None) -> None:
        self.file = file
        self.timeout_s = timeout_s
        self.memory_limit_mb = memory_limit_mb
        #: the language of the result's evidence and of the error lines (None: the interface language in use;
        #: "en" for `--format json`)
        self.language = language
        self._t = Words(language)
        #: how to check in another Python, said after a missing module (the window says its own way).
        self.choose_python = self._t("errors.choose_python")
        self.stage: WorkerStage | None = None
        self.findings: Findings | None = None
        self.error: WorkerError | None = None
        #: the first problem of a findings line that did not validate (a worker of another version, a bug)
        self.malformed: str | None = None
        self._buffer = b""

    def feed(self, data: bytes) -> list[WorkerStage | WorkerError | WorkerFindings]:
        """Messages in `data` (complete lines only; the rest waits for more)."""
        self._buffer += data
        *lines, self._buffer = self._buffer.split(b"\n")
        if len(self._buffer) > 4_000_000:  # no newline in 4 MB: not our worker talking
            self._buffer = b""
        out = []
        for raw in lines:
            msg = parse_worker_line(raw.decode("utf-8", "replace"))
            if isinstance(msg, WorkerStage):
                self.stage = msg
            elif isinstance(msg, WorkerFindings) and self.error is None:
                self.findings = msg.findings
            elif isinstance(msg, WorkerError):
                self.error = msg
            if msg is not None:
                out.append(msg)
            elif raw.lstrip().startswith(b'{"type": "findings"') and self.malformed is None:
                self.malformed = findings_problem(raw)
        return out

    def _function(self) -> str:
        if self.stage is None:
            return self._t("errors.starting")
        return self.stage.function or self._t("errors.module_level")

    def finish(
        self, returncode: int | None, seconds: float, *, timed_out: bool = False, stderr_tail: str = ""
    ) -> ModelCheck | str:
        """The result, or the one-line error: bad file, exception, timeout, memory, crash."""
        t = self._t
        self.feed(b"\n")
        if timed_out:
            during = (
                t("errors.during", stage=phase_words(self.stage.stage, self.stage.function, self.language))
                if self.stage is not None
                else ""
            )
            return t(
                "errors.timed_out",
                file=self.file,
                function=self._function(),
                timeout=f"{self.timeout_s:g}",
                during=during,
            )
        if self.error is not None:
            line = error_line(self.file, self.error, self.language)
            if self.error.kind == "internal":
                return t(
                    "errors.internal", file=self.file, failure=t("errors.internal_failure"), message=self.error.message
                )
            if self.error.kind == "memory":
                line += t("errors.memory", limit=self.memory_limit_mb)
            elif self.error.kind == "module":
                line += t("errors.module", choose=self.choose_python)
            return line
        if self.findings is not None:
            try:
                return check_from_findings(self.file, self.findings, seconds, self.language)
            except Exception as exc:
                return t(
                    "errors.internal",
                    file=self.file,
                    failure=t("errors.internal_failure"),
                    message=t("errors.rules_failed", problem=clip(f"{type(exc).__name__}: {exc}", 300)),
                )
        if self.malformed is not None:
            return t("errors.malformed_line", file=self.file, malformed=t("errors.malformed"), problem=self.malformed)
        # the guard says so on its last stderr line when the worker was ended by a signal; SIGKILL without
        # that line is the guard itself killed (by the file, which may kill its parent, or from outside)
        lines = stderr_tail.strip().splitlines()
        said = [ln for ln in lines if ln.startswith(GUARD_SIGNAL_LINE)]
        lines = [ln for ln in lines if not ln.startswith(GUARD_SIGNAL_LINE)]
        if returncode is not None and returncode < 0 and -returncode == 9:
            if said and said[-1].endswith(f"{GUARD_SIGNAL_LINE}9"):
                return t("errors.killed", file=self.file, function=self._function(), limit=self.memory_limit_mb)
            return t("errors.guard_killed", file=self.file, function=self._function())
        tail = lines[-1] if lines else ""
        how = (
            t("errors.signal", n=-returncode)
            if returncode is not None and returncode < 0
            else t("errors.exit_code", n=returncode)
        )
        if tail and len(tail) > 300:
            tail = tail[:299] + "…"
        return t("errors.ended", file=self.file, function=self._function(), how=how) + (f" ({tail})" if tail else "")
