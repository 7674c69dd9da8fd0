"""Which of the four failures a TPU compile's exception is (worker.tpu_compile.failure_of): the model is blamed
only when the compiler rejected its program or its own file raised; a route or placement the check cannot do is
the check's limit."""

from __future__ import annotations

from pathlib import Path

import pytest

from gpu_tpu_app.worker.tpu_compile import failure_of


def _raised_in(path: Path, source: str) -> BaseException:
    path.write_text(source)
    try:
        exec(compile(path.read_text(), str(path), "exec"), {})
    except Exception as exc:
        return exc
    raise AssertionError("the file did not raise")


def test_an_error_raised_in_the_users_file_is_the_models(tmp_path: Path) -> None:
    model = tmp_path / "model.py"
    exc = _raised_in(model, "def f(x):\n    return x @ 'nope'\nf(3)\n")
    assert failure_of(exc, str(model)) == "model_failed"
    assert failure_of(exc, str(tmp_path / "other.py")) == "check_limit"  # raised elsewhere: not shown to be it
    assert failure_of(exc, None) == "check_limit"


def test_what_the_route_cannot_take_is_the_checks_limit_even_from_the_users_file(tmp_path: Path) -> None:
    model = tmp_path / "model.py"
    assert failure_of(_raised_in(model, "raise NotImplementedError('no rule')\n"), str(model)) == "check_limit"
    mesh = _raised_in(model, "raise ValueError('Received incompatible devices for jitted computation')\n")
    assert failure_of(mesh, str(model)) == "check_limit"


def test_the_tpu_compilers_own_error_is_the_models() -> None:
    errors = pytest.importorskip("jax.errors")
    runtime = getattr(errors, "JaxRuntimeError", None)
    if runtime is None:  # pragma: no cover - older jax names it XlaRuntimeError only in jaxlib
        pytest.skip("this jax has no jax.errors.JaxRuntimeError")
    assert failure_of(runtime("INVALID_ARGUMENT: Mosaic failed to compile TPU kernel"), None) == "model_failed"


def test_an_exception_that_cannot_be_printed_is_classified_without_raising() -> None:
    class Unprintable(Exception):
        def __str__(self) -> str:
            raise AttributeError("no message")

    assert failure_of(Unprintable(), None) == "check_limit"
