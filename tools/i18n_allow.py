"""What a zh-Hans text may keep in Latin letters: names, units and formats that Chinese text writes as is.

Shared by the tests that check every content id (tests/core/test_texts.py) and every interface
string (the .ts files) has a zh-Hans text: a translation counts as missing when it has no CJK
character and still holds a Latin word that is not on this list.
"""

from __future__ import annotations

import re

#: names of products, frameworks, formats and units, written the same in Chinese text.
ALLOWED_WORDS = frozenset(
    [
        "gpu-tpu-app",  # the app's own name
        "CUDA",
        "ROCm",
        "XLA",
        "JAX",
        "TPU",
        "TPUs",
        "GPU",
        "GPUs",
        "CPU",
        "CPUs",
        "NPU",
        "HBM",
        "SRAM",
        "DRAM",
        "PCIe",
        "NVLink",
        "ICI",
        # names the accelerator catalogue's texts keep (resources/catalog/chips.zh-Hans.toml): links, parts,
        # instance types, the runs its MFU evidence cites
        "NVSwitch",
        "Switch",  # NVLink Switch
        "Infinity",  # AMD Infinity Fabric, Infinity Cache
        "Fabric",
        "Cache",
        "XCD",
        "NeuronLink",
        "NeuronLink-v2",
        "NeuronLink-v3",
        "NeuronLink-v4",
        "Neuron",
        "UltraServer",
        "Trn2",
        "Trn3",
        "Inf2",
        "trn2.48xlarge",
        "inf2.48xlarge",
        "G5",
        "Gen1",
        "Gen2",
        "Gen3",
        "Gen4",
        "Gen5",
        "x16",
        "GbE",
        "RoCE",
        "OAM",
        "MME",
        "ECC",
        "HGX",
        "DGX",
        "GB10",
        "Turing",
        "Ultra",  # Blackwell Ultra
        "Max-Q",
        "FP4",
        "MXFP8",
        "MXFP4",
        "cFP8",
        "TOPS",
        "GBps",
        "Gbps",
        "L2",
        "pod",
        "Megatron-LM",
        "Llama",
        "Llama2-70B",
        "Mixtral",
        "PaLM",
        "MaxText",
        "v6e-256",
        "SparseCore",
        "MXU",
        "PyTorch",
        "TensorFlow",
        "Keras",
        "torch",
        "jax",
        "jaxlib",
        "libtpu",
        "torchax",
        "torch_xla",
        "Pallas",
        "Triton",
        "HLO",
        "StableHLO",
        "MLIR",
        "FSDP",
        "LoRA",
        "QLoRA",  # and the estimate's --finetune choices, as typed
        "lora",
        "qlora",
        "NormalFloat",  # QLoRA's 4-bit number format
        "MoE",
        "NVIDIA",
        "AMD",
        "Google",
        "Cloud",
        "AWS",
        "Azure",
        "GCP",
        "Lambda",
        "Nebius",
        "Intel",
        "Trainium",
        "Inferentia",
        "Gaudi",
        "MI300X",
        "MI325X",
        "MI355X",
        "A100",
        "H100",
        "H200",
        "B200",
        "B300",
        "GB200",
        "GB300",
        "L4",
        "L40S",
        "T4",
        "A10G",
        "RTX",
        "PRO",
        "Blackwell",
        "SXM",
        "NVL",
        "PCIe",
        "v4",
        "v5e",
        "v5p",
        "v6e",
        "TPU7x",
        "fp64",
        "fp32",
        "fp16",
        "bf16",
        "fp8",
        "int8",
        "int4",
        "tf32",
        "float64",
        "float32",
        "float16",
        "bfloat16",
        "FP64",
        "FP32",
        "FP16",
        "BF16",
        "FP8",
        "INT8",
        "TF32",
        "FLOP",
        "FLOPs",
        "FLOP/s",
        "TFLOP/s",
        "PFLOP/s",
        "GFLOP/s",
        "GB",
        "GiB",
        "MB",
        "MiB",
        "KB",
        "KiB",
        "TB",
        "TiB",
        "GB/s",
        "TB/s",
        "GiB/s",
        "MB/s",
        "ms",
        "s",
        "us",
        "ns",
        "W",
        "h",
        "MFU",
        "CV",
        "IQR",
        "ETA",
        "CSV",
        "JSON",
        "HTML",
        "PDF",
        "Markdown",
        "TOML",
        "URL",
        "API",
        "CLI",
        "SkyPilot",
        "gpuhunt",
        "Qt",
        "PySide6",
        "pyqtgraph",
        "Python",
        "venv",
        "conda",
        "pip",
        "gloo",
        "NCCL",
        "MPI",
        "STREAM",
        "GEMM",
        "matmul",
        "sdpa",
        "all-reduce",
        "LLM",
        "AI",
        "Lena",
        "x",
        # tools and libraries named as they are
        "pyenv",
        "pydantic",
        "nccl-tests",
        "torchrun",
        # collective operations, named as the libraries name them (like all-reduce)
        "all-gather",
        "reduce-scatter",
        # models the texts cite by name
        "Llama",
        "Mixtral",
        "PaLM",
        "Gemma",
        # an optimizer, an SDK and an author the estimator's notes cite by name
        "Adam",
        "Neuron",
        "Korthikanti",
        "Dao",  # FlashAttention's first author, cited in the estimate's memory rule
        "Dettmers",  # QLoRA's first author
        # JAX's libraries and the model architecture, by name
        "Flax",
        "Equinox",
        "Transformer",
        # the math libraries torch reports it was built with
        "MKL",
        "mkl",
        "oneDNN",
        "onednn",
        "blas",
    ]
)
CJK = re.compile(r"[\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uff00-\uffef]")
PLACEHOLDER = re.compile(r"\{[A-Za-z_][A-Za-z0-9_]*(?::[^}]*)?\}|%\d+|%[sdfn]|%L\d+")
WORD = re.compile(r"[A-Za-z][A-Za-z0-9_./+-]*")

#: spans that are code or keys, not prose, in any language: inline code, a call (``model()``,
#: ``jax.jit(f)``), a keyboard shortcut (``Ctrl+,``, ``Alt+左方向``, ``Ctrl+Shift+S``), a file suffix
#: (``.html``), a choice list (``en|zh-Hans``), ``key=value`` (``platforms=["tpu"]``), an option with its
#: metavar (``--size WxH``).
CODE_SPAN = re.compile(
    r"`[^`]*`"
    r"|(?<![\w-])[A-Za-z_][\w.]*\([^()]{0,60}\)"
    r"|\b(?:(?:Ctrl|Alt|Shift|Meta|Cmd)\+)+(?:F\d{1,2}\b|[A-Z][a-z]+|[A-Za-z0-9]\b|[\u4e00-\u9fff]+|[^\sA-Za-z0-9])"
    r"|(?<![\w/.)])\.[a-z]{2,5}\b(?!\()"
    r"|[\w.-]+(?:\|[\w.-]+)+"
    r"|\b\w+=\S+"
    r"|(?<![\w-])--[A-Za-z][\w-]*(?:[ =][A-Z][A-Za-z]*[A-Z]\b)?"
)
#: a word that is a code name or an id rather than English: it holds a digit (HBM3e, gpu-b200-sxm,
#: file_gpu001:c0000), an underscore (torch_xla, LC_ALL), a dot inside (jax.jit, lax.cond), a capital
#: after a small letter (oneDNN, PyTorch) or a capitalised word after capitals (TPUEmbedding), or only capitals
#: (an acronym, metavar or variable: TOPIC, LANG).
_CODE_WORD = re.compile(
    r".*\d.*|.*_.*|[A-Za-z]\w+(?:\.\w+)+|.*[a-z][A-Z].*|.*[A-Z]{2}[a-z].*|[A-Z][A-Z0-9]+(?:-[A-Z0-9]+)*"
)


def code_like(word: str) -> bool:
    """True for a Latin word that is a code name, id, key or acronym, not a word to translate."""
    return bool(_CODE_WORD.fullmatch(word.strip("./+-:")))


def without_code(text: str) -> str:
    """`text` with its code spans (CODE_SPAN) blanked out."""
    return CODE_SPAN.sub(" ", text)


def left_in_english(text: str) -> list[str]:
    """The Latin words of a would-be zh-Hans `text` that are not allowed to stay (empty: fine): neither an
    allowed name nor code (``code_like``, ``CODE_SPAN``)."""
    if CJK.search(text):
        return []
    stripped = PLACEHOLDER.sub(" ", text)
    stripped = without_code(re.sub(r"<[^>]*>", " ", stripped))  # markup tags, code
    return [w for w in WORD.findall(stripped) if w.strip("./+-") not in ALLOWED_WORDS and not code_like(w)]
