"""The probe worker: one backend in its own process, streaming JSON lines on stdout.

Started as `gpu-tpu-app probe-worker --backend torch|jax ...` by the CLI or the window, or as
`python -m gpu_tpu_app.worker.main ...` in another interpreter (a user's environment), where only
the standard library and the frameworks are needed: messages are plain records (wire.py) that the
app validates when it reads them.
Stdout carries only Messages (one JSON object per line, flushed each); everything the
libraries print goes to stderr. SIGINT / SIGTERM stop it within a fraction of a second:
it finishes or abandons the running point and says done. A point's second try (when a result is
too noisy or stalled) is decided in worker/retry.py.
"""

from __future__ import annotations

import argparse
import dataclasses
import faulthandler
import functools
import json
import os
import platform
import signal
import sys
import threading
import time
import traceback
from typing import IO, Any

from gpu_tpu_app import __version__
from gpu_tpu_app.shared import trust
from gpu_tpu_app.shared.cliutil import EXIT_CANCELLED, OneLineParser
from gpu_tpu_app.shared.terms import BACKENDS, KERNELS, SUITE_BUDGET_S, SUITES, allowed_kernels, metric_for
from gpu_tpu_app.worker import detect, lifeline, nvml, testkernels
from gpu_tpu_app.worker.notes import join, note
from gpu_tpu_app.worker.pace import _slack, eta_s, load_scale, pace
from gpu_tpu_app.worker.retry import TEXT_CHARS as TEXT_CHARS  # where tests and callers look for them
from gpu_tpu_app.worker.retry import NoiseWatch, _stalled, remeasure_later_stalls, remeasure_noisy
from gpu_tpu_app.worker.retry import _retry_reason as _retry_reason
from gpu_tpu_app.worker.retry import _retry_reason_among as _retry_reason_among
from gpu_tpu_app.worker.retry import pick_try as pick_try
from gpu_tpu_app.worker.wire import (
    DeviceInfo,
    DeviceMsg,
    DeviceState,
    Done,
    ErrorMsg,
    Hello,
    ProbeResult,
    Progress,
    ResultMsg,
    dump_message,
)

#: After a stop signal, the running point gets this long before the worker says done and exits.
CANCEL_GRACE_S = 0.3


class Emitter:
    """Writes Messages to the real stdout, one line each, flushed; nothing after Done."""

    def __init__(self, fh: IO[str]) -> None:
        self.fh = fh
        self._lock = threading.Lock()
        self.done = False

    def emit(self, msg: Any) -> None:
        with self._lock:
            if self.done:
                return
            try:
                self.fh.write(dump_message(msg) + "\n")
                self.fh.flush()
            except (BrokenPipeError, ValueError):  # the parent is gone: nobody to report to
                os._exit(1)
            if isinstance(msg, Done):
                self.done = True


def claim_stdout() -> IO[str]:
    """Keep the real stdout for messages and point fd 1 and sys.stdout at stderr, so stray prints
    from torch, jax or C libraries cannot corrupt the stream."""
    sys.stdout.flush()
    fd = os.dup(1)
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    return os.fdopen(fd, "w", buffering=1, encoding="utf-8")


class StopWatch:
    """Turns SIGINT / SIGTERM into a stop request, and makes sure the worker ends soon after one.

    The signal's Python handler only runs when the main thread returns to the interpreter, which a
    long C call (a big matmul) may delay; so a thread woken by signal.set_wakeup_fd says done and
    exits the process when the running point does not give back within CANCEL_GRACE_S.
    """

    def __init__(self, emitter: Emitter, grace_s: float = CANCEL_GRACE_S) -> None:
        self.event = threading.Event()
        self._emitter = emitter
        self._grace = grace_s
        r, w = os.pipe()
        os.set_blocking(w, False)
        signal.set_wakeup_fd(w, warn_on_full_buffer=False)
        for sig in (signal.SIGINT, signal.SIGTERM):
            signal.signal(sig, self._handler)
        threading.Thread(target=self._watch, args=(r,), name="stop-watch", daemon=True).start()

    def _handler(self, signum: int, frame: object) -> None:
        self.event.set()

    def _watch(self, r: int) -> None:
        stops = {int(signal.SIGINT), int(signal.SIGTERM)}
        while True:
            data = os.read(r, 64)
            if not data:
                return
            if stops.intersection(data):
                self.event.set()
                time.sleep(self._grace)
                self._emitter.emit(Done(ok=False, message=note("main.cancelled")))
                os._exit(130)

    def is_set(self) -> bool:
        return self.event.is_set()


class WorkerContext:
    """The state object a kernel sees: its device, catalogue peaks, and whether to stop."""

    def __init__(self, device: DeviceInfo, stop: threading.Event, best: dict[tuple[str, str | None], float]) -> None:
        self.device = device
        self.peak_flops, self.peak_bw = detect.catalog_peaks(device.catalog_id)
        #: best rate measured so far in this worker on this device, by (kernel, dtype)
        self.best_measured = best
        self._stop = stop

    def cancelled(self) -> bool:
        return self._stop.is_set()


def _parser() -> OneLineParser:
    p = OneLineParser(prog="gpu-tpu-app probe-worker", description="Run probe kernels for one backend (internal).")
    p.add_argument("--backend", required=True, choices=BACKENDS)
    p.add_argument("--suite", default="quick", choices=SUITES)
    p.add_argument("--kernel", action="extend", nargs="+", default=None, metavar="K")
    p.add_argument("--dtype", action="extend", nargs="+", default=None, metavar="D")
    p.add_argument("--budget-s", type=float, default=None, help="time budget the plan is made for")
    p.add_argument("--time-left-s", type=float, default=None, help="seconds this worker may spend (default: budget)")
    p.add_argument("--skip-points", type=int, default=0, help="start after this many planned points")
    p.add_argument("--point-cap-s", type=float, default=None, help="lower every point's time cap to this")
    p.add_argument("--list-devices", action="store_true", help="report devices and stop")
    p.add_argument(
        "--standby",
        action="store_true",
        help="load the backend now, then read the run's own arguments as one JSON line on stdin",
    )
    return p


#: Seconds of each device's first use, measured by a standby worker while it waited (device key -> s).
WARMED: dict[str, float] = {}


def _standby_warm(backend: str) -> None:
    """What a worker does before its first point that needs no argument of the run: the framework's
    import, device detection, the kernels' import and each measured device's first use (its seconds kept
    for the run's record). Never raises: the run meets any problem again and reports it."""
    try:
        status, devices = detect.detect(backend)
        if not status.available:
            return
        from gpu_tpu_app.worker import kernels

        for dev in kernels.targets(backend, devices):
            WARMED[dev.key] = kernels.warm_up(backend, dev)
    except Exception:
        WARMED.clear()


def standby(args: argparse.Namespace, em: Emitter, stop: StopWatch) -> argparse.Namespace:
    """A worker started ahead of its run (while the user reads the page): import the framework and find
    its devices now, the slow part of a start, and say what it found as `--list-devices` would (its own
    stream, ending in Done, so the window needs no second process to list them); then wait for the run's
    arguments, one JSON list of strings on stdin, and return them parsed. End of input (the window
    closed, or no run came) ends the worker."""
    if args.backend == "jax":
        os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")
    _standby_warm(args.backend)
    run(argparse.Namespace(**{**vars(args), "list_devices": True, "kernel": None}), Emitter(em.fh), stop)
    line = sys.stdin.readline()
    if not line.strip():
        sys.stderr.flush()
        os._exit(0)
    try:
        argv = json.loads(line)
    except ValueError:
        argv = None
    if not isinstance(argv, list) or not all(isinstance(a, str) for a in argv):
        _parser().error("--standby: the run's arguments must come as one JSON list of strings")
    real = _parser().parse_args(argv)
    if real.backend != args.backend or real.standby:
        _parser().error(f"--standby: this worker was started for {args.backend}, not {real.backend}")
    return real


def describe(exc: BaseException) -> str:
    """'MemoryError: out of memory' style one-liner for a kernel's exception."""
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
    if not text and isinstance(exc, MemoryError):
        text = "out of memory"
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def is_nvidia(dev: DeviceInfo) -> bool:
    """A device NVML can describe: torch's CUDA devices, and JAX GPUs on the NVIDIA driver."""
    return dev.platform == "cuda" or (
        dev.platform == "gpu" and ("nvidia_driver" in dev.versions or dev.name.upper().startswith("NVIDIA"))
    )


def device_sampler(backend: str, devices: list[DeviceInfo], telemetry: Any = None) -> Any:
    """A function device -> its state now (NVML clocks, temperature, power, throttle; the JAX runtime's
    memory in use on a TPU or GPU), or None where nothing is exposed. NVML is opened only when an
    NVIDIA device is present; `telemetry` replaces it in tests."""
    if telemetry is None and any(is_nvidia(d) for d in devices):
        telemetry = nvml.Nvml.open()
    runtime = None
    if backend == "jax" and any(d.platform in ("tpu", "gpu") for d in devices):
        from gpu_tpu_app.worker.kernels import jax_kernels

        runtime = jax_kernels.memory_state

    def sample(dev: DeviceInfo) -> dict[str, Any] | None:
        state: dict[str, Any] = {}
        if telemetry is not None and is_nvidia(dev):
            state.update(telemetry.sample(dev.index) or {})
        if runtime is not None and dev.platform in ("tpu", "gpu"):
            state.update(runtime(dev) or {})
        return state or None

    return sample


def _state(sample: dict[str, Any] | None) -> DeviceState | None:
    """A sample as a DeviceState; a driver's odd reading (negative power, say) is dropped, not fatal."""
    if not sample:
        return None
    try:
        return DeviceState(**sample)
    except ValueError:
        return None


def with_device_state(r: ProbeResult, before: dict[str, Any] | None, after: dict[str, Any] | None) -> ProbeResult:
    """`r` with the device's state around its point, and a note when the GPU was throttling."""
    if before is None and after is None:
        return r
    update: dict[str, Any] = {"before": _state(before), "after": _state(after)}
    if r.status in ("ok", "suspect") and (note := nvml.throttle_note(before, after)):
        update["message"] = join(r.message, note)
    return r.model_copy(update=update)


def _failed(point: Any, status: str, message: str) -> ProbeResult:
    return ProbeResult(
        kernel=point.kernel,
        backend=point.backend,
        device=point.device,
        dtype=point.dtype,
        size=point.size,
        variant=point.variant,
        metric=metric_for(point.kernel),
        status=status,
        message=message,
    )


def _plan(args: argparse.Namespace, devices: list[DeviceInfo], budget: float) -> list[Any]:
    requested = list(dict.fromkeys(args.kernel)) if args.kernel else None
    tests = [k for k in requested or [] if k in testkernels.TEST_KERNELS]
    real = None if requested is None else [k for k in requested if k not in testkernels.TEST_KERNELS]
    points: list[Any] = []
    if real is None or real:
        from gpu_tpu_app.worker import kernels

        # one small product per dtype first: the plan sizes and orders the sweep from measured rates
        try:
            rates = kernels.calibrate(args.backend, devices, args.suite, real, args.dtype)
        except Exception:  # no calibration: the plan uses its assumed rates, the points report any problem
            traceback.print_exc()
            rates = {}
        points += kernels.plan(args.backend, devices, args.suite, real, args.dtype, budget, rates)
    points += testkernels.plan(args.backend, devices, tests)
    return points


def _warm_up(args: argparse.Namespace, devices: list[DeviceInfo], em: Emitter) -> list[DeviceInfo]:
    """Warm each device the plan measures once, before point 1 and outside every cap; record the seconds."""
    if args.kernel and all(k in testkernels.TEST_KERNELS for k in args.kernel):
        return devices
    from gpu_tpu_app.worker import kernels

    targets = {d.key for d in kernels.targets(args.backend, devices)}
    out = []
    for dev in devices:
        if dev.key in targets:
            try:
                first_use = WARMED.pop(dev.key, None)  # measured in standby, before the run's arguments came
                if first_use is None:
                    first_use = kernels.warm_up(args.backend, dev)
                dev = dev.model_copy(update={"first_use_s": round(first_use, 3)})
            except Exception as exc:  # the points will meet the same problem and report it one by one
                traceback.print_exc()
                em.emit(
                    ErrorMsg(
                        backend=args.backend,
                        kernel=None,
                        message=note("main.warm_up_failed", device=dev.key, error=describe(exc)),
                    )
                )
        out.append(dev)
    return out


def _measure_point(point: Any, ctx: WorkerContext) -> list[ProbeResult]:
    """The point's results; a point the plan left out, or one that raises, gives one failed result."""
    try:
        if getattr(point, "skip", None):  # left out by the plan (budget, memory): said, never measured
            return [_failed(point, "skipped", point.skip)]
        if point.kernel in testkernels.TEST_KERNELS:
            return list(testkernels.run_point(point, ctx))
        from gpu_tpu_app.worker import kernels

        return list(kernels.run_point(point, ctx))
    except Exception as exc:
        traceback.print_exc()
        return [_failed(point, "error", describe(exc))]


def _capped(args: argparse.Namespace, point: Any, time_left: float, remaining_est: float | None = None) -> Any:
    """The point, its cap lowered to its share of the budget left (never below its own estimate) and to
    --point-cap-s. Its share: the time left split over the points still to come (this one included,
    `remaining_est` seconds of estimates) in proportion to their estimates, so that on a busy machine,
    where every point runs to its cap, the last points are measured too instead of finding the budget
    used up."""
    share = time_left
    if remaining_est and remaining_est > 0 and point.est_s > 0:  # a point answered without measuring keeps its cap
        share = time_left * point.est_s / remaining_est
    cap = min(point.cap_s, max(point.est_s, share))
    if args.point_cap_s is not None:
        cap = min(cap, args.point_cap_s)
    if cap < point.cap_s:
        point = dataclasses.replace(point, cap_s=round(cap, 3))
    return point


def _run_points(
    args: argparse.Namespace,
    em: Emitter,
    stop: StopWatch,
    devices: list[DeviceInfo],
    points: list[Any],
    budget: float,
    deadline: float,
) -> int:
    """Measure the points in order, each within its share of the budget; returns how many were skipped."""
    by_key = {d.key: d for d in devices}
    sample = device_sampler(args.backend, devices)
    best: dict[str, dict[tuple[str, str | None], float]] = {}
    measured: dict[str, list[ProbeResult]] = {}  # device key -> its results so far, for the stall rule
    point_of: dict[int, tuple[Any, WorkerContext]] = {}  # id of a result -> its point and context
    retried: set[str] = set()  # ids of the points measured twice already
    noise = NoiseWatch()  # whether a noisy point's second try can help now
    total = len(points)
    spent = estimated = 0.0
    skipped = 0
    for i, point in enumerate(points):
        if i < args.skip_points:
            continue
        if stop.is_set():
            return skipped
        now = time.monotonic()
        if now + point.est_s > deadline:
            for rest in points[i:]:
                em.emit(
                    ResultMsg(
                        result=_failed(
                            rest,
                            "skipped",
                            note(
                                "main.budget_used_up",
                                suite=args.suite,
                                seconds=f"{budget:.0f}",
                                backend=args.backend,
                            ),
                        )
                    )
                )
                skipped += 1
            return skipped
        remaining = sum(p.est_s for p in points[i:])
        point = _capped(args, point, deadline - now, remaining)
        # the parent's hang timer gets the point's set-up allowance (a JAX compile ahead) on top of its cap
        announced = round(point.cap_s + getattr(point, "setup_s", 0.0), 3)
        longest = sum(_capped(args, p, deadline - now, remaining).cap_s for p in points[i:] if p.est_s > 0)
        eta = eta_s(remaining, spent, estimated, deadline - now, load_scale(devices), longest)
        progress = Progress(
            done=i,
            total=total,
            kernel=point.kernel,
            eta_s=round(eta, 2),
            point=point.id,
            backend=args.backend,
            device=point.device,
            dtype=point.dtype,
            size=point.size,
            variant=point.variant,
            cap_s=announced,
        )
        em.emit(progress)
        device = by_key.get(point.device) or devices[0]
        ctx = WorkerContext(device, stop.event, best.setdefault(device.key, {}))
        started = time.monotonic()
        before = sample(device)
        tries = [0]

        def measure(point: Any = point, ctx: WorkerContext = ctx, tries: list[int] = tries) -> list[ProbeResult]:
            tries[0] += 1
            return _measure_point(point, ctx)

        results = measure()
        earlier = measured.setdefault(device.key, [])
        first_s = time.monotonic() - started
        # the points still to come, at the pace measured so far (a busy machine runs each to its cap)
        rest_est = sum(p.est_s for p in points[i + 1 :]) * pace(spent + first_s, estimated + point.est_s)
        if point.kernel not in testkernels.TEST_KERNELS and not stop.is_set():
            # a noisy or stalled point gets one more try when the budget holds it (a try as long as its first)
            # and a second try can help (noise.why); the points still to come keep their share of the budget
            slack = deadline - time.monotonic() - rest_est
            first = results
            results = remeasure_noisy(
                results,
                measure,
                slack,
                max(point.est_s, first_s),
                announce=functools.partial(em.emit, progress),
                why=functools.partial(noise.why, earlier, first),
            )
            noise.saw(first, results, tries[0] > 1)
        if tries[0] > 1:
            retried.add(point.id)
        spent += time.monotonic() - started
        estimated += point.est_s
        after = sample(device)
        results = [with_device_state(r, before, after) for r in results]
        stalled = {id(r) for r in results if _stalled([*earlier, *(x for x in results if x is not r)], r)}
        for r in results:
            if (
                r.status == "ok"
                and r.value
                and r.metric != "seconds"
                and id(r) not in stalled
                and not trust.point_flags(r, device).flagged
            ):
                mine = best.setdefault(r.device, {})
                mine[(r.kernel, r.dtype)] = max(mine.get((r.kernel, r.dtype), 0.0), r.value)
            earlier.append(r)
            point_of[id(r)] = (point, ctx)
            em.emit(ResultMsg(result=r))
        if point.kernel not in testkernels.TEST_KERNELS and not stop.is_set():
            again_started = time.monotonic()
            remeasure_later_stalls(
                earlier,
                point_of,
                retried,
                functools.partial(_slack, deadline, rest_est),
                _measure_point,
                em.emit,
                functools.partial(_announce_again, progress),
            )
            spent += time.monotonic() - again_started  # the pace counts second tries too
    return skipped


def _announce_again(progress: Progress, p: Any) -> Progress:
    """The Progress that announces a second try of an earlier point `p` (the parent's hang timer gets its cap)."""
    return dataclasses.replace(
        progress,
        kernel=p.kernel,
        point=p.id,
        dtype=p.dtype,
        size=p.size,
        variant=p.variant,
        cap_s=round(p.cap_s + getattr(p, "setup_s", 0.0), 3),
    )


def run(args: argparse.Namespace, em: Emitter, stop: StopWatch) -> int:
    """Detect, plan and measure; every outcome is a message. Returns the exit code."""
    t0 = time.monotonic()
    if args.backend == "jax":
        os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")
    if args.kernel == ["collective"] and not args.list_devices:
        from gpu_tpu_app.worker import collective

        if collective.requested(args.backend):  # one rank of a group that torchrun or jax.distributed joins
            return collective.worker_main(args, em.emit, stop.is_set, t0)
    status, devices = detect.detect(args.backend)
    versions = {"app": __version__, "python": platform.python_version(), **status.versions}
    em.emit(
        Hello(backend=args.backend, versions=versions, env=detect.kernel_env(), pid=os.getpid(), cpu=detect.cpu_info())
    )
    if not status.available:
        em.emit(ErrorMsg(backend=args.backend, kernel=None, message=status.reason or note("main.not_available")))
        em.emit(Done(ok=False, message=status.reason))
        return 1
    if not args.list_devices:
        devices = _warm_up(args, devices, em)
    for dev in devices:
        em.emit(DeviceMsg(device=dev))
    if status.reason:
        em.emit(ErrorMsg(backend=args.backend, kernel=None, message=status.reason))
    if args.list_devices:
        em.emit(Done(ok=True))
        return 0

    budget = args.budget_s if args.budget_s is not None else SUITE_BUDGET_S[args.suite]
    time_left = args.time_left_s if args.time_left_s is not None else budget
    deadline = t0 + time_left
    try:
        points = _plan(args, devices, budget)
    except Exception as exc:
        traceback.print_exc()
        message = note("main.could_not_plan", suite=args.suite, error=f"{type(exc).__name__}: {exc}")
        em.emit(ErrorMsg(backend=args.backend, kernel=None, message=message))
        em.emit(Done(ok=False, message=message))
        return 1

    skipped = _run_points(args, em, stop, devices, points, budget, deadline)
    if stop.is_set():
        em.emit(Done(ok=False, message=note("main.cancelled")))
        return EXIT_CANCELLED
    em.emit(Done(ok=True, message=note("main.skipped", n=skipped) if skipped else None))
    return 0


def main(argv: list[str] | None = None) -> int:
    """Entry point of `gpu-tpu-app probe-worker`."""
    lifeline.tie_to_parent()  # never outlive the CLI or window that started this worker
    args = _parser().parse_args(sys.argv[1:] if argv is None else argv)
    em = Emitter(claim_stdout())
    stop = StopWatch(em)
    faulthandler.enable(file=sys.stderr)
    if args.standby:
        args = standby(args, em, stop)
    allowed = allowed_kernels()
    for k in args.kernel or []:
        if k not in allowed:
            _parser().error(f"argument --kernel: unknown kernel {k!r} (choose from {', '.join(KERNELS)})")
    try:
        code = run(args, em, stop)
    except Exception as exc:  # a bug in the worker itself: still end the stream properly
        traceback.print_exc()
        em.emit(ErrorMsg(backend=args.backend, kernel=None, message=f"worker failed: {type(exc).__name__}: {exc}"))
        em.emit(Done(ok=False, message=str(exc)))
        code = 1
    # Everything is said; skip the interpreter's teardown of torch / jax (up to a second) so the
    # next worker, or the user after a cancel, does not wait for it.
    sys.stderr.flush()
    os._exit(code)


if __name__ == "__main__":
    sys.exit(main())
