"""What counts as English left in a zh-Hans text, for the leftover finder (tools/zh_leftovers.py), which
collects the texts (the window's widgets, the commands' output) and names their sources: a text with no Chinese
that still holds a Latin word which is not a name, unit or code (``english``), or a Chinese text with Latin words
that are neither allowed names nor the project's own ids (``mixed``). The project's ids, the session's own data
and the lesson's verbatim titles are read here too, because they decide what is not a leftover.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tools.i18n_allow import ALLOWED_WORDS, CJK, PLACEHOLDER, WORD, code_like, left_in_english, without_code  # noqa: E402


@dataclass
class Leftover:
    kind: str  # "english" or "mixed"
    where: str
    text: str
    words: list[str]
    source: list[str] = field(default_factory=list)


# ---------------------------------------------------------------- what counts as left in English


#: words the zh-Hans texts keep in Latin letters on purpose: the terms table's "token", units the
#: allow-list lacks, the recompute and layout ids the estimator shows as they are typed.
KEPT_IN_LATIN = frozenset(
    {"token", "tokens", "GFLOP", "MFLOP", "TFLOP", "PFLOP", "KV", "TP", "PP", "DP", "top-k", "auto", "none"}
    | {"cpu", "gpu", "tpu"}  # device platforms and chip families, as `--backend` and the catalogue name them
    | {"selective", "full", "prefill", "decode", "Mi", "Ki", "Gi", "Ti", "µs", "IQR", "CV", "ISA", "BLAS"}
    # terms Chinese ML writing keeps in Latin letters: a TPU pod, a process's rank, the gather and scatter
    # operations, JSON's null, an id; the standard streams
    | {"pod", "rank", "gather", "scatter", "null", "id", "stdout", "stderr", "stdin"}
    # the programs a model check compiles (worker/tpu_compile.py names them), a tensor's dtype
    | {"forward", "dtype", "if"}  # ... and Python's if statement
)
#: key names that a Chinese sentence writes as they are printed on the key ("按 Enter 键").
KEYS = frozenset({"Enter", "Return", "Esc", "Escape", "Tab", "Space", "Backspace", "Delete", "Home", "End"})

#: the run fields that are the machine's own words (names, versions, flags), not the app's.
DATA_FIELDS = ("name", "model", "vendor", "host", "os", "python", "machine", "versions", "isa", "flags", "key", "kind")


def data_words(session_file: Path) -> set[str]:
    """The words of a session's measured data (device and CPU names, versions, hosts): shown as measured."""
    words: set[str] = set()

    def walk(value: object, key: str = "") -> None:
        if isinstance(value, dict):
            for k, v in value.items():
                walk(v, k if k not in ("versions",) else "versions")
        elif isinstance(value, list):
            for v in value:
                walk(v, key)
        elif isinstance(value, str) and (key in DATA_FIELDS or key == "versions"):
            words.update(w.strip("./+-") for w in WORD.findall(value))

    try:
        walk(json.loads(session_file.read_text(encoding="utf-8")).get("runs", []))
    except (OSError, ValueError):
        pass
    return words


def machine_words() -> set[str]:
    """The words of this machine's own CPU name ("Intel(R) Xeon(R) Processor"), which a live probe command prints
    as measured: the machine's data, like a session's device names, not the app's English."""
    from gpu_tpu_app.shared.machine import cpu_model

    try:
        return {w.strip("./+-") for w in WORD.findall(cpu_model())}
    except Exception:
        return set()


def project_ids() -> set[str]:
    """Latin words a Chinese text may carry because they are the project's own ids and names."""
    ids: set[str] = set()

    def add(value: object) -> None:
        for w in WORD.findall(str(value)):
            ids.add(w.strip("./+-"))

    try:
        from gpu_tpu_app.core import catalog

        book = catalog.load_catalog()
        for chip in book.chips:
            add(chip.id)
            add(chip.name)
            add(chip.family)
        for source in book.sources:  # the ids the estimator and the catalogue cite
            add(source.id)
    except Exception:
        pass
    try:
        from gpu_tpu_app.core.decision.answers import CHOICES

        for factor, values in CHOICES.items():
            add(factor)
            for v in values:
                add(v)
    except Exception:
        pass
    try:
        from gpu_tpu_app.core.lesson import load_lesson

        lesson = load_lesson()
        for t in lesson.topics:
            add(t.id)
        for s in lesson.sources:
            add(s.id)
    except Exception:
        pass
    try:
        from gpu_tpu_app.shared import terms

        for k in (*terms.KERNELS, *terms.DTYPE_SPECS, *terms.BACKENDS, *terms.SUITES, *terms.COMPILE_PHASES):
            add(k)
    except Exception:
        pass
    try:  # the price book's providers and regions
        from gpu_tpu_app.core.prices import shipped_book

        for q in shipped_book().quotes:
            add(getattr(q, "cloud", ""))
            add(getattr(q, "region", ""))
        from gpu_tpu_app.core.prices import load_price_table

        for source in load_price_table().sources:
            add(source.id)
    except Exception:
        pass
    try:  # the explainer's extra topics (faq, glossary, ...), the clouds and the languages, as typed
        from gpu_tpu_app import i18n
        from gpu_tpu_app.commands.explain import EXTRAS
        from gpu_tpu_app.core.prices import CLOUD_NAMES

        for value in (*EXTRAS, *CLOUD_NAMES, *i18n.LANGUAGES, *i18n.LANGUAGE_NAMES.values()):
            add(value)  # a language's name is written in that language ("English" in the Chinese menu too)
    except Exception:
        pass
    ids.update(KEPT_IN_LATIN)
    ids.update(
        {"gpu-tpu-app", "gpu-tpu-probe", "explain", "catalog", "decide", "estimate", "prices", "check-model"}
        | {"probe", "devices", "run", "envs", "collective", "compare", "json", "text", "table", "csv", "md", "py"}
        | {"png"}
        | {"jit", "vmap", "pjit", "shard_map", "torch.compile", "nn.Module", "MaxText", "Ironwood", "Trillium"}
        | {"Spot", "flex-start", "HGX", "Instinct", "Gaudi", "Trainium2", "Trainium3", "Inferentia2", "Nebius"}
    )
    return ids


_URL = re.compile(
    r"\b(?:https?://\S+|[\w.-]+\.(?:com|org|io|dev|ai|net)\b(?:/\S*)?)"
)  # not torch.compile, jax.device_put
_PATH = re.compile(
    r"(?:~|\.{0,2})/[\w./-]+|\b(?:[\w.-]+/)*[\w-]+\.(?:json|py|toml|csv|md|png|pdf|html|qm|ts|txt)\b|\b(?:[\w.-]+/){2,}"
)
#: a term's English name (one to three words) glossed after its Chinese one, as the zh-Hans terms write it: 下降（lowering）, 屋顶线（roofline）.
_GLOSS = re.compile(r"（[A-Za-z][A-Za-z-]{0,24}(?: [A-Za-z-]{1,24}){0,2}）")
_CHOICES = re.compile(r"\{[\w.-]+(?:,[\w.-]+)+\}|\[-[^\]]*\]")
#: ``$NAME`` variables, and an exception quoted as the framework or the user's code raised it
#: (``NonConcreteBooleanIndexError: Array boolean indices must be concrete``): its words are not the app's.
_CODE = re.compile(r"\$\w+|\b[A-Z]\w*(?:Error|Exception|Warning): [^（(\n]*")


def _strip_markup(text: str) -> str:
    text = re.sub(r"<(style|script)[^>]*>.*?</\1>", " ", text, flags=re.S | re.I)
    text = re.sub(r"<[^>]*>", " ", text)
    return text.replace("&nbsp;", " ").replace("&amp;", "&").replace("&lt;", "<").replace("&gt;", ">")


#: titles that stay verbatim in every language (the web sources the lesson, catalogue and price table cite).
VERBATIM: list[str] = []


def verbatim_titles() -> list[str]:
    """The cited web sources' titles, longest first: shown as their publishers wrote them."""
    titles: set[str] = set()
    try:
        from gpu_tpu_app.core.lesson import load_lesson

        lesson = load_lesson(language="en")
        titles |= {s.title for s in lesson.sources if s.kind == "web"}
        # the episode's own title and its chapters' names, which the Chinese pack keeps as the episode says them
        # ("节目第 2 章：From Pixels to Pathways")
        titles |= {s.title.partition(": ")[2] for s in lesson.sources if s.kind == "episode"} | {lesson.episode.title}
    except Exception:
        pass
    try:
        from gpu_tpu_app.core import catalog

        titles |= {s.title for s in catalog.load_catalog().sources}
    except Exception:
        pass
    try:
        from gpu_tpu_app.core.prices import load_price_table

        titles |= {s.title for s in load_price_table().sources}
    except Exception:
        pass
    return sorted((t for t in titles if len(t) > 8), key=len, reverse=True)


def user_texts(session_file: Path) -> list[str]:
    """The session's own words, shown as they are in every language: its notes (the user's), and the messages
    of results saved before run files kept their notes' text ids (a result without `notes`: the worker's English,
    which an old file keeps)."""
    try:
        session = json.loads(session_file.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []
    if not isinstance(session, dict):
        return []
    texts: list[str] = []
    notes = session.get("notes")
    if isinstance(notes, str):
        texts += [line.strip() for line in notes.splitlines()]
    for run in session.get("runs") or []:
        for result in (run.get("results") or []) if isinstance(run, dict) else []:
            message = result.get("message") if isinstance(result, dict) and not result.get("notes") else None
            if isinstance(message, str):
                texts += [message, *message.split("; ")]
    return [t.strip() for t in texts if len(t.strip()) > 8]


def _not_words(text: str) -> str:
    """`text` without what is never prose: URLs, paths and file names, code, flags, argparse choice lists, and
    the titles of cited sources."""
    for title in VERBATIM:
        if title in text:
            text = text.replace(title, " ")
    text = _CHOICES.sub(" ", _URL.sub(" ", text))
    return without_code(_CODE.sub(" ", _PATH.sub(" ", text)))


def mixed_words(text: str, ids: set[str]) -> list[str]:
    """The Latin words of a Chinese `text` that are neither allowed names nor project ids."""
    if not CJK.search(text):
        return []
    stripped = _not_words(_GLOSS.sub(" ", PLACEHOLDER.sub(" ", text)))
    return [w for w in WORD.findall(stripped) if not _is_name(w, ids) and w.strip("./+-") not in KEYS]


def _is_name(word: str, ids: set[str]) -> bool:
    """True for a word that stays as it is in Chinese text: an allowed name, a project id, code or an id
    (``code_like``: 7B, v5e-8, gpu-b200-sxm, jax.jit, torch_xla, LC_ALL, TOPIC)."""
    core = word.strip("./+-")
    return len(core) < 2 or core in ALLOWED_WORDS or core in ids or core.lower() in ids or code_like(core)


def classify(where: str, raw: str, ids: set[str]) -> Iterator[Leftover]:
    """The leftovers in one visible text (checked line by line)."""
    for line in _strip_markup(raw).splitlines():
        line = line.strip()
        if not line or len(line) < 2:
            continue
        words = left_in_english(_not_words(line))
        # a lone id or file name in a cell is the data, not an untranslated word
        words = [w for w in words if not _is_name(w, ids) and not _PATH.fullmatch(w)]
        if words:
            yield Leftover("english", where, line, words)
            continue
        words = mixed_words(line, ids)
        if words:
            yield Leftover("mixed", where, line, words)
