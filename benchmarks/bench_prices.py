"""How long does reading a price catalogue take? SkyPilot-format catalogues of real size, and the estimate.

Writes SkyPilot-format vms.csv files into a temporary ~/.sky/catalogs/v8: one the size of SkyPilot's
AWS catalogue (its largest, about 45,000 rows and 3.7 MB; default --rows 45000) and a Google Cloud one
with accelerator rows, host VM rows and TPU slices. Times `read_path` of the folder (all clouds),
`load_book` (shipped table plus that folder) and one `estimate` priced from the book, each the median
of --repeat runs. Goal: the window's start-up and File > Import Prices… stay under a second for
SkyPilot's real catalogues.

Run: .venv/bin/python benchmarks/bench_prices.py [--rows 45000] [--repeat 5]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import tempfile
import time
from pathlib import Path

from gpu_tpu_app.core.estimate import EstimateRequest, estimate
from gpu_tpu_app.core.price_import import load_book, read_path

AWS_HEADER = (
    "InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,GpuInfo,Price,SpotPrice,Region,AvailabilityZone,Arch"
)
GCP_HEADER = (
    "InstanceType,vCPUs,MemoryGiB,AcceleratorName,AcceleratorCount,GpuInfo,Region,AvailabilityZone,Price,SpotPrice"
)
REGIONS = [f"{a}-{b}{n}" for a in ("us", "eu", "ap", "ca", "sa") for b in ("east", "west", "central") for n in (1, 2)]


def _aws(rows: int, rng: random.Random) -> str:
    lines = [AWS_HEADER]
    gpus = [("p5.48xlarge", "H100", 8, 55.04), ("p4d.24xlarge", "A100", 8, 21.96), ("g5.xlarge", "A10G", 1, 1.006)]
    for i in range(rows):
        region = REGIONS[i % len(REGIONS)]
        zone = f"{region}-az{i % 4}"
        if i % 20 == 0:
            name, acc, count, price = gpus[i % 3]
            info = f"\"{{'Gpus': [{{'Name': '{acc}', 'Count': {count}}}]}}\""
            spot = round(price * rng.uniform(0.2, 1.0), 4)
            lines.append(f"{name},{acc},{count}.0,192.0,2048.0,{info},{price},{spot},{region},{zone},x86_64")
        else:
            price = round(rng.uniform(0.01, 20), 5)
            lines.append(f"m{i % 9}.{i % 7}xlarge,,,8.0,32.0,,{price},{round(price * 0.4, 6)},{region},{zone},x86_64")
    return "\n".join(lines) + "\n"


def _gcp(rng: random.Random) -> str:
    lines = [GCP_HEADER]
    for region in REGIONS:
        zone = f"{region}-a"
        lines.append(f"a2-highgpu-8g,96.0,680.0,,,,{region},{zone},5.9,2.9")
        lines.append(f",,,A100,8,{{'Gpus': []}},{region},{zone},23.47,11.47")
        for size in (1, 4, 8, 16, 32, 64, 128, 256):
            lines.append(f",,,tpu-v6e-{size},1,tpu-v6e-{size},{region},{zone},{2.7 * size},{0.54 * size}")
        lines.append(f",,,tpu-v6e-1,1,tpu-v6e-1,{region},{zone}-x,700.0,700.0")
        for n in range(200):
            lines.append(f"n2-standard-{n},{n}.0,{4 * n}.0,,,,{region},{zone},{rng.uniform(0.05, 5):.5f},0.01")
    return "\n".join(lines) + "\n"


def _median(fn, repeat: int) -> tuple[float, object]:
    times, out = [], None
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times), out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=45_000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    rng = random.Random(0)
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp)
        root = home / ".sky" / "catalogs" / "v8"
        (root / "aws").mkdir(parents=True)
        (root / "gcp").mkdir()
        (root / "aws" / "vms.csv").write_text(_aws(args.rows, rng))
        (root / "gcp" / "vms.csv").write_text(_gcp(rng))
        size = sum(p.stat().st_size for p in root.glob("*/vms.csv"))
        read_s, book = _median(lambda: read_path(root), args.repeat)
        load_s, full = _median(lambda: load_book(home=home), args.repeat)
        req = EstimateRequest(params=7e9, chips=64)
        est_s, _ = _median(lambda: estimate(req, book=full), args.repeat)  # type: ignore[arg-type]  (a PriceBook)
        print(f"catalogue: {args.rows:,} AWS rows + GCP rows, {size / 1e6:.2f} MB on disk")
        print(f"read_path(~/.sky/catalogs/v8): median {read_s * 1000:.0f} ms ({len(book.quotes):,} quotes)")  # type: ignore[attr-defined]
        print(f"load_book (shipped table + that folder): median {load_s * 1000:.0f} ms")
        print(f"estimate priced from the book: median {est_s * 1000:.1f} ms")
        print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
