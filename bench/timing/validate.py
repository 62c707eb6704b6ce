#!/usr/bin/env python3
"""Simulator predictions against the published measurements of the research
notes (shared/research/tpu-and-collectives.md, section 5), each with its
error; writes bench/results/validation.csv and prints a Markdown table for
docs/simulator.md.

Collectives (notes 5.1): the scaling book's Pop Quiz 2 all-gathers on a v5e
8x4, run as one-collective SPMD programs.

Training steps (notes 5.2): hand-written SPMD programs (gen_spmd_transformer.py)
with the published model shapes and parallelism. Each is simulated with 1 and
2 layers; the difference is one layer in steady state (the first layer's
weight gathers are exposed, later ones are prefetched), and MFU = the
layer's model FLOPs per device (6 x parameters x tokens + 12 x seq x
attention width x tokens, PaLM's appendix B, no recompute) / (layer time x
the chip's bf16 peak). Embeddings, the loss, the optimizer (Adam in the
measured runs, SGD here) and the input pipeline are left out.

Usage: validate.py [--xla-run build/bin/xla-run] [--out bench/results/validation.csv]
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
PEAK = {"v4": 2.75e14, "v5e": 1.97e14, "v5p": 4.59e14}


def run(xla_run, module_text, flags, workdir, name):
    path = os.path.join(workdir, name + ".mlir")
    with open(path, "w") as f:
        f.write(module_text)
    proc = subprocess.run([xla_run, path, "--timing-only"] + flags,
                          capture_output=True, text=True)
    if proc.returncode != 0:
        sys.exit(f"{name}: {proc.stderr}")
    return proc.stdout


def seconds(text):
    value, unit = text.split()
    return float(value) * {"s": 1, "ms": 1e-3, "us": 1e-6, "ns": 1e-9}[unit]


def step_time(out):
    return seconds(re.search(r"TIMING step time: ([0-9.]+ \w+)", out).group(1))


def collective_time(out):
    m = re.search(r"^\s+\d+\s+all-gather\s+.*?\s([0-9.]+ [mun]?s)\s{2}", out, re.M)
    return seconds(m.group(1))


def all_gather_case(xla_run, workdir, rows, e, f, measured_us, note):
    # Mesh {X: 8, Y: 4} on a v5e 8x4: device x + 8 y is mesh (Y=y, X=x).
    shard = e // 4
    text = f"""xla.mesh @mesh = <["Y"=4, "X"=8]>
func.func @main(%a: tensor<{shard}x{f}xbf16>) -> tensor<{e}x{f}xbf16> {{
  %g = xla.all_gather %a, dim = 0 mesh_axes = @mesh["Y"] : (tensor<{shard}x{f}xbf16>) -> tensor<{e}x{f}xbf16>
  return %g : tensor<{e}x{f}xbf16>
}}
"""
    out = run(xla_run, text, ["--topology=v5e:8x4"], workdir, f"ag_{e}x{f}")
    predicted = collective_time(out) * 1e6
    rows.append(dict(case=f"v5e 8x4, AllGather_Y of bf16[{e},{f}] ({2 * e * f / 1e6:.2f} MB), Y=4 without wraparound",
                     source="SB-shard Pop Quiz 2 (notes 5.1)", metric="time (us)",
                     measured=measured_us, predicted=predicted, note=note))


def layer_case(xla_run, workdir, rows, name, source, gen, topology, slices, chip,
               devices, tokens, layer_params, attn_width, seq, measured_mfu, note):
    times = []
    for layers in (1, 2):
        text = subprocess.run([sys.executable, os.path.join(HERE, "gen_spmd_transformer.py"),
                               "--layers", str(layers)] + gen, capture_output=True, text=True,
                              check=True).stdout
        out = run(xla_run, text, [f"--topology={topology}", f"--slices={slices}"], workdir,
                  f"{name}_{layers}")
        times.append(step_time(out))
    layer = times[1] - times[0]
    flops = (6 * layer_params * tokens + 12 * seq * attn_width * tokens) / devices
    mfu = flops / (layer * PEAK[chip]) * 100
    rows.append(dict(case=name, source=source, metric="MFU (%)", measured=measured_mfu,
                     predicted=mfu, note=note + f"; one layer {layer * 1e3:.1f} ms"))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--xla-run", default=os.path.join(ROOT, "build", "bin", "xla-run"))
    ap.add_argument("--out", default=os.path.join(ROOT, "bench", "results", "validation.csv"))
    a = ap.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as workdir:
        all_gather_case(a.xla_run, workdir, rows, 2048, 8192, 680.0,
                        "bandwidth bound; SB's own model says 560 us")
        all_gather_case(a.xla_run, workdir, rows, 256, 256, 8.0,
                        "latency bound (32 kB shards); SB's model says ~3 us")

        # MaxText 32B (global_parameter_scale=32: d 8192, 64 heads x 128,
        # gated MLP 28672), v5p-128 = 64 chips, fsdp 16 x tensor 4,
        # per_device_batch_size 7 (448 sequences of 2048), remat minimal.
        D, A, F, S = 8192, 8192, 28672, 2048
        p32 = 4 * D * A + 3 * D * F
        common = ["--batch", "28", "--seq", str(S), "--d-model", str(D), "--heads", "64",
                  "--head-dim", "128", "--ffn", str(F), "--gated", "--fsdp", "16", "--tensor", "4"]
        layer_case(a.xla_run, workdir, rows, "MaxText 32B, 1x v5p-128 (64 chips)",
                   "MaxText v5p README (notes 5.2)", common, "v5p:4x4x4", 1, "v5p", 64,
                   448 * S, p32, A, S, 71.47,
                   "fsdp 16 x tensor 4, no remat simulated (MaxText: remat minimal); 67.76% in the top-level README")
        layer_case(a.xla_run, workdir, rows, "MaxText 32B, 2x v5p-128 (128 chips, DCN)",
                   "MaxText v5p README (notes 5.2)", common + ["--dcn", "2"], "v5p:4x4x4", 2,
                   "v5p", 128, 2 * 448 * S, p32, A, S, 69.43,
                   "data parallel over 2 slices")

        # MaxText 16B on v5e-256 slices (global_parameter_scale=16: d 4096,
        # 64 heads x 128, gated MLP 28672), fsdp 256, per_device_batch_size
        # 6, remat full; data parallel over N slices.
        D, A, F = 4096, 8192, 28672
        p16 = 2 * D * A + 2 * A * D + 3 * D * F
        for slices, measured in ((1, 61.10), (2, 59.37), (4, 59.14), (8, 58.27), (16, 56.56), (32, 54.65)):
            gen = ["--batch", "6", "--seq", str(S), "--d-model", str(D), "--heads", "64",
                   "--head-dim", "128", "--ffn", str(F), "--gated", "--remat", "--fsdp", "256",
                   "--dcn", str(slices)]
            layer_case(a.xla_run, workdir, rows, f"MaxText 16B, {slices}x v5e-256 ({256 * slices} chips)",
                       "MaxText v5e multislice table (notes 5.2)", gen, "v5e:16x16", slices, "v5e",
                       256 * slices, 6 * 256 * slices * S, p16, A, S, measured,
                       "fsdp 256 in each slice, data parallel over DCN, full remat")

        # PaLM 540B: 2 pods of 3072 v4 chips, 12-way tensor x 256-way FSDP in
        # a pod, 2-way data parallel over DCN; d 18432, 48 heads x 256,
        # multi-query, SwiGLU 73728, batch 2048 x 2048 tokens.
        D, A, F = 18432, 48 * 256, 73728
        palm = D * A + 2 * D * 256 + A * D + 3 * D * F
        for remat in (False, True):
            gen = ["--batch", "4", "--seq", str(S), "--d-model", str(D), "--heads", "48",
                   "--head-dim", "256", "--kv-heads", "1", "--ffn", str(F), "--gated",
                   "--fsdp", "256", "--tensor", "12", "--dcn", "2"] + (["--remat"] if remat else [])
            layer_case(a.xla_run, workdir, rows,
                       f"PaLM 540B, 2 x 3072 v4 chips{' (full remat)' if remat else ' (no remat)'}",
                       "Chowdhery et al. 2022 (notes 5.2)", gen, "v4:12x16x16", 2, "v4", 6144,
                       2048 * S, palm, A, S, 46.2,
                       "tensor 12 on x (ring of 12), FSDP 256 on y x z, DCN 2; "
                       + ("recompute as PaLM did (HFU 57.8%)" if remat else "lower bound on time: no recompute"))

    for r in rows:
        r["error_pct"] = (r["predicted"] - r["measured"]) / r["measured"] * 100
    os.makedirs(os.path.dirname(a.out), exist_ok=True)
    keys = ["case", "source", "metric", "measured", "predicted", "error_pct", "note"]
    with open(a.out, "w") as f:
        f.write(",".join(keys) + "\n")
        for r in rows:
            f.write(",".join(f'"{r[k]}"' if isinstance(r[k], str) else f"{r[k]:.2f}" for k in keys) + "\n")
    print("| case | source | metric | measured | predicted | error |")
    print("|---|---|---|---|---|---|")
    for r in rows:
        print(f"| {r['case']} | {r['source']} | {r['metric']} | {r['measured']:.2f} | "
              f"{r['predicted']:.2f} | {r['error_pct']:+.1f}% |")
    print(f"\nwrote {a.out}")


if __name__ == "__main__":
    main()
