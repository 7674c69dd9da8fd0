"""Help > About: what the app does, the versions in use and the interface language, in that language."""

from __future__ import annotations

import html
from importlib import metadata

from PySide6.QtCore import QCoreApplication, qVersion

from gpu_tpu_app import APP_NAME, __version__, i18n
from gpu_tpu_app.core.runs import RunFile


def _dist_version(name: str) -> str:
    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return QCoreApplication.translate("About", "not installed")


def component_versions(runs: list[RunFile]) -> list[tuple[str, str]]:
    """(component, version) for About: Qt, PySide6, pyqtgraph, pydantic here; torch and JAX as the
    newest probe run recorded them (the window itself never imports them)."""
    rows = [
        (APP_NAME, __version__),
        ("Qt", qVersion()),
        ("PySide6", _dist_version("PySide6-Essentials")),
        ("pyqtgraph", _dist_version("pyqtgraph")),
        ("pydantic", _dist_version("pydantic")),
    ]
    probed = sorted(runs, key=lambda r: r.started)
    for name, key in (("PyTorch", "torch"), ("JAX", "jax")):
        found = next((r for r in reversed(probed) if key in r.versions), None)
        if found is None:
            rows.append((name, QCoreApplication.translate("About", "no probe run yet")))
        else:
            rows.append(
                (
                    name,
                    QCoreApplication.translate("About", "{version} (probe run on {host}, {date})").format(
                        version=found.versions[key], host=found.host, date=f"{found.started:%Y-%m-%d}"
                    ),
                )
            )
    rows.append((QCoreApplication.translate("About", "Language"), i18n.LANGUAGE_NAMES[i18n.current_language()]))
    return rows


def about_html(runs: list[RunFile]) -> str:
    """The About box's text: what the app does, and the versions in use (all values escaped)."""
    items = "".join(
        f"<tr><td>{html.escape(k)}</td><td>&nbsp;&nbsp;{html.escape(v)}</td></tr>" for k, v in component_versions(runs)
    )
    return (
        f"<h3>{html.escape(APP_NAME)} {html.escape(__version__)}</h3>"
        "<p>"
        + html.escape(
            QCoreApplication.translate(
                "About",
                "Choose between GPUs (the workshop) and TPUs (the factory line) for your own ML work: "
                "an explained recommendation, measurements of this machine, and the lesson side by side.",
            )
        )
        + f"</p><table>{items}</table><p>"
        + html.escape(
            QCoreApplication.translate("About", "The app makes no network requests. Sources are listed in Learn.")
        )
        + "</p>"
    )
