#!/usr/bin/env python3
"""Timing-only simulation speed: a transformer training step (forward,
backward, SGD update; bench/timing/gen_transformer.py) partitioned by the SPMD
pipeline and simulated without numerics on v5p topologies of 64 to 8192
devices, with 1 to 8 layers (devices x ops).

For each case: the generated module goes through `xla-run --timing-only
--metrics`; the CSV records the host wall time of compilation (the SPMD
pipeline and the program build: torch_xla's CompileTime), of costing the
programs on the topology (CostModelTime: rooflines, and one collective
estimate per distinct collective), of the timing-only
simulation (SimulationTime: every device's clock over every instruction),
of the whole process, and the process's peak RSS.

Usage: bench_timing.py [--xla-run build/bin/xla-run] [--out bench/results/timing_scaling.csv]
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

# devices: (dcn slices, fsdp, tensor, slice shape)
CONFIGS = [
    (64, 1, 16, 4, "4x4x4"),
    (512, 1, 64, 8, "8x8x8"),
    (2048, 1, 128, 16, "8x16x16"),
    (4096, 1, 256, 16, "16x16x16"),
    (8192, 2, 256, 16, "16x16x16"),
]
LAYERS = [1, 2, 4, 8]


def metric_seconds(report, name):
    """The Accumulator of a time metric, in seconds."""
    m = re.search(rf"Metric: {name}\n  TotalSamples: \d+\n  Accumulator: (\S+)", report)
    if not m:
        sys.exit(f"no {name} in the report")
    total = 0.0
    for value, unit in re.findall(r"([0-9.]+)(d|h|ms|us|m|s)", m.group(1)):
        total += float(value) * {"d": 86400, "h": 3600, "m": 60, "s": 1, "ms": 1e-3, "us": 1e-6}[unit]
    return total


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--xla-run", default=os.path.join(ROOT, "build", "bin", "xla-run"))
    ap.add_argument("--out", default=os.path.join(ROOT, "bench", "results", "timing_scaling.csv"))
    ap.add_argument("--quick", action="store_true", help="8192 devices, 1 layer only")
    a = ap.parse_args()
    rows = []
    load = os.getloadavg()[0]
    with tempfile.TemporaryDirectory() as workdir:
        for devices, dcn, fsdp, tensor, shape in CONFIGS:
            for layers in LAYERS:
                if a.quick and (devices != 8192 or layers != 1):
                    continue
                out, wall, rss = measure(a.xla_run, devices, dcn, fsdp, tensor, shape, layers, workdir)
                ops = int(re.search(r"compute: (\d+) ops", out).group(1))
                collectives = int(re.search(r"collectives per step: (\d+)", out).group(1))
                step = re.search(r"TIMING step time: ([0-9.]+ \w+)", out).group(1)
                row = dict(devices=devices, topology=f"v5p:{shape} x{dcn}", layers=layers,
                           compute_ops=ops, collectives=collectives,
                           device_instructions=devices * (ops + collectives),
                           compile_s=metric_seconds(out, "CompileTime"),
                           cost_model_s=metric_seconds(out, "CostModelTime"),
                           simulate_s=metric_seconds(out, "SimulationTime"),
                           total_wall_s=wall, max_rss_mb=rss / 1024.0, predicted_step=step)
                rows.append(row)
                print(", ".join(f"{k}={v:.3f}" if isinstance(v, float) else f"{k}={v}"
                                for k, v in row.items()), flush=True)
    os.makedirs(os.path.dirname(a.out), exist_ok=True)
    with open(a.out, "w") as f:
        f.write(f"# host: {os.uname().nodename} {os.cpu_count()} cpus, load average {load:.2f} at start\n")
        f.write(",".join(rows[0].keys()) + "\n")
        for row in rows:
            f.write(",".join(f"{v:.4f}" if isinstance(v, float) else str(v) for v in row.values()) + "\n")
    print(f"wrote {a.out}")


def measure(xla_run, devices, dcn, fsdp, tensor, shape, layers, workdir):
    """Runs one case; returns (stdout, wall seconds, peak RSS in KiB)."""
    module = os.path.join(workdir, f"t{devices}_{layers}.mlir")
    with open(module, "w") as f:
        subprocess.run([sys.executable, os.path.join(HERE, "gen_transformer.py"),
                        "--layers", str(layers), "--dcn-data", str(dcn), "--fsdp", str(fsdp),
                        "--tensor", str(tensor), "--batch", str(dcn * fsdp), "--seq", "2048",
                        "--d-model", "8192", "--heads", "64", "--ffn", "32768"],
                       stdout=f, check=True)
    cmd = [xla_run, module, "--timing-only", "--metrics", f"--topology=v5p:{shape}",
           f"--slices={dcn}"]
    out_path = os.path.join(workdir, "out.txt")
    start = time.monotonic()
    with open(out_path, "w") as out_file:
        proc = subprocess.Popen(cmd, stdout=out_file, stderr=subprocess.PIPE)
        _, status, usage = os.wait4(proc.pid, 0)
    wall = time.monotonic() - start
    err = proc.stderr.read().decode()
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"{' '.join(cmd)} failed:\n{err}")
    with open(out_path) as f:
        return f.read(), wall, usage.ru_maxrss


if __name__ == "__main__":
    main()
