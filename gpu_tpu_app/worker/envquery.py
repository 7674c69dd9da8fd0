"""What a Python environment can measure: run by path in that interpreter, standard library only.

`python envquery.py` prints JSON lines: first {"part": "meta", ...} (Python version, prefix, the
frameworks' versions from their package metadata, without importing them), then one line per
framework it could import ({"part": "torch", "devices": [...]} or an "error"). The app reads them
with a timeout, so an import that hangs or crashes still leaves the lines printed before it.
Kept to syntax that old interpreters parse, so a too-old Python is told as such.
"""

import json
import os
import platform
import sys

MIN_PYTHON = (3, 10)
DISTRIBUTIONS = {
    "torch": "torch",
    "jax": "jax",
    "jaxlib": "jaxlib",
    "torch_xla": "torch_xla",
    "jax_cuda12_plugin": "jax-cuda12-plugin",
    "jax_cuda13_plugin": "jax-cuda13-plugin",
    "jax_rocm_plugin": "jax-rocm60-plugin",
    "libtpu": "libtpu",
}


def say(obj):
    sys.stdout.write(json.dumps(obj, allow_nan=False) + "\n")
    sys.stdout.flush()


def versions():
    out: dict[str, str] = {}
    try:
        from importlib import metadata
    except ImportError:
        return out
    for key, dist in sorted(DISTRIBUTIONS.items()):
        try:
            out[key] = metadata.version(dist)
        except Exception:
            pass
    if "jax_cuda13_plugin" in out or "jax_cuda12_plugin" in out:
        out["jax_cuda_plugin"] = out.pop("jax_cuda13_plugin", "") or out.pop("jax_cuda12_plugin", "")
        out.pop("jax_cuda12_plugin", None)
    return out


def first_line(exc):
    text = str(exc).strip().splitlines()
    return "%s: %s" % (type(exc).__name__, text[0][:300]) if text else type(exc).__name__


def torch_part():
    import torch

    devices = ["cpu"]
    extra = {"torch": str(torch.__version__)}
    if getattr(torch.version, "cuda", None):
        extra["torch_cuda"] = str(torch.version.cuda)
    if getattr(torch.version, "hip", None):
        extra["torch_hip"] = str(torch.version.hip)
    try:
        if torch.cuda.is_available():
            for i in range(torch.cuda.device_count()):
                devices.append("cuda:%d %s" % (i, torch.cuda.get_device_name(i)))
    except Exception as exc:
        return {"part": "torch", "devices": devices, "versions": extra, "error": first_line(exc)}
    try:
        mps = getattr(torch.backends, "mps", None)
        if mps is not None and mps.is_available():
            devices.append("mps")
    except Exception:
        pass
    try:
        xpu = getattr(torch, "xpu", None)
        if xpu is not None and xpu.is_available():
            for i in range(xpu.device_count()):
                devices.append("xpu:%d %s" % (i, xpu.get_device_name(i)))
    except Exception:
        pass
    return {"part": "torch", "devices": devices, "versions": extra}


def jax_part():
    os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")
    import jax

    extra = {"jax": str(jax.__version__)}
    devices = ["%s:%d %s" % (d.platform, d.id, d.device_kind) for d in jax.devices()]
    try:
        cpus = jax.devices("cpu")
        if cpus and not any(x.startswith("cpu:") for x in devices):
            devices += ["cpu:%d %s" % (d.id, d.device_kind) for d in cpus]
    except Exception:
        pass
    return {"part": "jax", "devices": devices, "versions": extra}


def main():
    meta = {
        "part": "meta",
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "executable": sys.executable,
        "prefix": sys.prefix,
        "base_prefix": getattr(sys, "base_prefix", sys.prefix),
        "too_old": tuple(sys.version_info[:2]) < MIN_PYTHON,
    }
    if meta["too_old"]:
        say(meta)
        return 0
    found = versions()
    meta["versions"] = found
    say(meta)
    wanted = [a for a in sys.argv[1:] if a in ("torch", "jax")] or ["torch", "jax"]
    for name in wanted:
        if name == "torch" and "torch" not in found:
            continue
        if name == "jax" and "jax" not in found:
            continue
        say({"part": "start", "framework": name})
        try:
            say(torch_part() if name == "torch" else jax_part())
        except BaseException as exc:
            say({"part": name, "devices": [], "error": first_line(exc)})
    say({"part": "end"})
    return 0


if __name__ == "__main__":
    sys.exit(main())
