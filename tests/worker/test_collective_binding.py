"""Where the collective rendezvous listens, read from the kernel's socket tables during real runs.

The torch store and the JAX coordinator are unauthenticated: they must listen on the address the ranks
were given (127.0.0.1 for `collective --processes N`), never on every interface. A port someone else
holds is one line naming it, for both engines.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from gpu_tpu_app.probe.group import GroupRequest, free_port, run_group

LOOPBACK = {"127.0.0.1", "::1", "::ffff:127.0.0.1"}


def _addr(hex_addr: str) -> tuple[str, int]:
    host, port = hex_addr.split(":")
    raw = bytes.fromhex(host)
    if len(raw) == 4:
        return socket.inet_ntop(socket.AF_INET, raw[::-1]), int(port, 16)
    # /proc/net/tcp6 prints four 32-bit words, each in host (little-endian) order
    words = b"".join(raw[i : i + 4][::-1] for i in range(0, 16, 4))
    return socket.inet_ntop(socket.AF_INET6, words), int(port, 16)


def listening() -> dict[int, tuple[str, int]]:
    """socket inode -> (address, port) of every TCP socket in LISTEN state (IPv4 and IPv6)."""
    out: dict[int, tuple[str, int]] = {}
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for line in Path(table).read_text().splitlines()[1:]:
            f = line.split()
            if f[3] == "0A":  # TCP_LISTEN
                out[int(f[9])] = _addr(f[1])
    return out


def descendants(root: int) -> set[int]:
    children: dict[int, list[int]] = {}
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                stat = Path(f"/proc/{d}/stat").read_text()
            except OSError:
                continue
            ppid = int(stat.rsplit(")", 1)[1].split()[1])
            children.setdefault(ppid, []).append(int(d))
    found, todo = set(), [root]
    while todo:
        for c in children.get(todo.pop(), []):
            found.add(c)
            todo.append(c)
    return found


def sockets_of(pids: set[int]) -> set[int]:
    inodes = set()
    for pid in pids:
        try:
            for fd in os.listdir(f"/proc/{pid}/fd"):
                link = os.readlink(f"/proc/{pid}/fd/{fd}")
                if link.startswith("socket:["):
                    inodes.add(int(link[8:-1]))
        except OSError:
            continue
    return inodes


@pytest.mark.slow
@pytest.mark.parametrize("backend", ["torch", "jax"])
def test_a_local_group_listens_on_loopback_only(backend: str) -> None:
    seen: dict[int, tuple[str, int]] = {}
    result = []
    worker = threading.Thread(
        target=lambda: result.append(
            run_group(GroupRequest(processes=2, backends=(backend,), max_bytes=4096, budget_s=30, timeout_s=60))
        )
    )
    worker.start()
    while worker.is_alive():
        mine = sockets_of(descendants(os.getpid()))
        seen.update({inode: a for inode, a in listening().items() if inode in mine})
        time.sleep(0.05)
    worker.join()
    assert [r for r in result[0].results if r.status == "ok"], result[0].errors
    assert seen, "no listening socket of the ranks was seen during the run"
    wide = {a for a in seen.values() if a[0] not in LOOPBACK}
    assert not wide, f"{backend} ranks listen beyond this machine: {sorted(wide)}"


def _rank0(backend: str, port: int, timeout_s: str = "5") -> subprocess.CompletedProcess:
    env = {**os.environ, "GPU_TPU_APP_COLLECTIVE_TIMEOUT_S": timeout_s, "GPU_TPU_APP_COLLECTIVE_CPU": "1"}
    if backend == "torch":
        env.update(RANK="0", WORLD_SIZE="2", MASTER_ADDR="127.0.0.1", MASTER_PORT=str(port))
    else:
        env.update(JAX_PROCESS_ID="0", JAX_NUM_PROCESSES="2", JAX_COORDINATOR_ADDRESS=f"127.0.0.1:{port}")
        env.update(JAX_PLATFORMS="cpu")
    cmd = [sys.executable, "-m", "gpu_tpu_app", "probe", "run", "--kernel", "collective", "--backend", backend]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=120, env=env)


@pytest.mark.parametrize("backend", ["torch", "jax"])
def test_a_taken_port_is_one_line_naming_it(backend: str) -> None:
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        port = holder.getsockname()[1]
        proc = _rank0(backend, port)
    assert proc.returncode == 1
    lines = [x for x in proc.stderr.splitlines() if x.startswith(f"{backend}: ")]
    assert len(lines) == 1, proc.stderr[-2000:]
    assert f"port {port} on 127.0.0.1 is taken" in lines[0]
    assert "Traceback" not in proc.stderr and "Failed to start RPC server" not in proc.stderr


@pytest.mark.slow
def test_an_address_of_another_machine_is_refused_in_one_line() -> None:
    proc = _rank0_at("torch", "192.0.2.1")  # TEST-NET-1: never an address of this machine
    lines = [x for x in proc.stderr.splitlines() if x.startswith("torch: ")]
    assert len(lines) == 1 and "192.0.2.1 is not an address of this machine" in lines[0], proc.stderr[-2000:]


def _rank0_at(backend: str, host: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "GPU_TPU_APP_COLLECTIVE_TIMEOUT_S": "5", "GPU_TPU_APP_COLLECTIVE_CPU": "1"}
    env.update(RANK="0", WORLD_SIZE="2", MASTER_ADDR=host, MASTER_PORT=str(free_port()))
    cmd = [sys.executable, "-m", "gpu_tpu_app", "probe", "run", "--kernel", "collective", "--backend", backend]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=120, env=env)
