#!/usr/bin/env python3
"""Numeric overhead of the simulator (issue 14): a whole training step of a
2-layer MLP (forward, backward, SGD update; f32) run numerically on 8
simulated devices (mesh data=2 x model=4, Megatron-style: w1 column
parallel, w2 row parallel) against the unpartitioned step on one device,
side by side in the same conditions: xla-run with its default threading
(one thread per simulated device with BLAS single-threaded inside them; the
one-device run keeps OpenBLAS's own threads).

Per size: medians over --repeat steps of each process's SimulationTime
(host wall time of one step, numerics included; the median drops the first
step's warm-up), runs of the two sides interleaved, and each process's peak
RSS (compilation and the timing model included on both sides). Writes bench/results/numeric_overhead.csv.

Usage: bench_numeric.py [--xla-run build/bin/xla-run] [--reps 3] [--steps 4]
                        [--sizes 256x512x2048,512x1024x4096]
"""

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def mlp_step(B, D, H):
    t = lambda *s: "tensor<" + "x".join(map(str, s)) + "xf32>"
    sh = lambda spec: "{xla.sharding = #xla.sharding<@mesh, [" + spec + "]>}"
    return f'''xla.mesh @mesh = <["data"=2, "model"=4]>
func.func @step(%x: {t(B, D)} {sh('{"data"}, {}')}, %y: {t(B, D)} {sh('{"data"}, {}')},
    %w1: {t(D, H)} {sh('{}, {"model"}')}, %w2: {t(H, D)} {sh('{"model"}, {}')})
    -> ({t(D, H)} {sh('{}, {"model"}')}, {t(H, D)} {sh('{"model"}, {}')}) {{
  %h = xla.matmul %x, %w1 : ({t(B, D)}, {t(D, H)}) -> {t(B, H)}
  %a = xla.tanh %h : {t(B, H)}
  %o = xla.matmul %a, %w2 : ({t(B, H)}, {t(H, D)}) -> {t(B, D)}
  %d = xla.sub %o, %y : {t(B, D)}
  %dw2 = xla.einsum "bh,bd->hd" %a, %d : ({t(B, H)}, {t(B, D)}) -> {t(H, D)}
  %da = xla.einsum "bd,hd->bh" %d, %w2 : ({t(B, D)}, {t(H, D)}) -> {t(B, H)}
  %a2 = xla.mul %a, %a : {t(B, H)}
  %one = xla.constant dense<1.0> : tensor<f32>
  %oneb = xla.broadcast_in_dim %one, dims = [] : (tensor<f32>) -> {t(B, H)}
  %g = xla.sub %oneb, %a2 : {t(B, H)}
  %dh = xla.mul %da, %g : {t(B, H)}
  %dw1 = xla.einsum "bd,bh->dh" %x, %dh : ({t(B, D)}, {t(B, H)}) -> {t(D, H)}
  %lr = xla.constant dense<0.01> : tensor<f32>
  %lr1 = xla.broadcast_in_dim %lr, dims = [] : (tensor<f32>) -> {t(D, H)}
  %lr2 = xla.broadcast_in_dim %lr, dims = [] : (tensor<f32>) -> {t(H, D)}
  %s1 = xla.mul %lr1, %dw1 : {t(D, H)}
  %s2 = xla.mul %lr2, %dw2 : {t(H, D)}
  %n1 = xla.sub %w1, %s1 : {t(D, H)}
  %n2 = xla.sub %w2, %s2 : {t(H, D)}
  return %n1, %n2 : {t(D, H)}, {t(H, D)}
}}
'''


UNITS = {"us": 1e-6, "ms": 1e-3, "s": 1.0, "m": 60.0}


def torch_xla_seconds(text):
    # torch_xla's "01s147ms713.171us" form.
    return sum(float(v) * UNITS[u] for v, u in re.findall(r"([0-9.]+)(us|ms|s|m)", text))


def median_step_seconds(out):
    """The median of the run's SimulationTime samples (one per step)."""
    block = out[out.index("Metric: SimulationTime"):]
    percentiles = re.search(r"Percentiles: (.*)", block).group(1)
    return torch_xla_seconds(re.search(r"50%=(\S+?);", percentiles).group(1))


def run(xla_run, path, partition, steps):
    """(median step seconds, peak RSS in MB) of one xla-run process."""
    cmd = ["/usr/bin/time", "-f", "MAXRSS %M", xla_run, path, "--metrics", f"--repeat={steps}"]
    if not partition:
        cmd.append("--no-partition")
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        sys.exit(f"{' '.join(cmd)}: {proc.stderr}")
    rss_kb = int(re.search(r"MAXRSS (\d+)", proc.stderr).group(1))
    return median_step_seconds(proc.stdout), rss_kb / 1024


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--xla-run", default=os.path.join(ROOT, "build", "bin", "xla-run"))
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--steps", type=int, default=4)
    ap.add_argument("--sizes", default="256x512x2048,512x1024x4096")
    ap.add_argument("--out", default=os.path.join(ROOT, "bench", "results", "numeric_overhead.csv"))
    a = ap.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as work:
        for size in a.sizes.split(","):
            B, D, H = map(int, size.split("x"))
            path = os.path.join(work, f"mlp_{size}.mlir")
            with open(path, "w") as f:
                f.write(mlp_step(B, D, H))
            times = {True: [], False: []}
            rss = {True: 0.0, False: 0.0}
            for _ in range(a.reps):
                for partition in (False, True):
                    seconds, peak = run(a.xla_run, path, partition, a.steps)
                    times[partition].append(seconds)
                    rss[partition] = max(rss[partition], peak)
            ref, spmd = statistics.median(times[False]), statistics.median(times[True])
            rows.append(dict(size=size, reference_ms=ref * 1e3, spmd_ms=spmd * 1e3, ratio=spmd / ref,
                             reference_rss_mb=rss[False], spmd_rss_mb=rss[True],
                             rss_ratio=rss[True] / rss[False]))
            print(f"{size}: reference {ref * 1e3:.1f} ms, 8 devices {spmd * 1e3:.1f} ms, "
                  f"ratio {spmd / ref:.2f}; peak RSS {rss[False]:.0f} MB vs {rss[True]:.0f} MB", flush=True)
    load = os.getloadavg()[0]
    tmp = a.out + ".tmp"
    with open(tmp, "w") as f:
        f.write(f"# host: {os.cpu_count()} hardware threads, load average {load:.2f}; medians of "
                f"{a.reps} runs x {a.steps} steps (SimulationTime per step); peak RSS per process\n")
        keys = ["size", "reference_ms", "spmd_ms", "ratio", "reference_rss_mb", "spmd_rss_mb", "rss_ratio"]
        f.write(",".join(keys) + "\n")
        for r in rows:
            f.write(",".join(r[k] if isinstance(r[k], str) else f"{r[k]:.3f}" for k in keys) + "\n")
    os.replace(tmp, a.out)
    print(f"wrote {a.out}")


if __name__ == "__main__":
    main()
