#!/usr/bin/env python3
"""Bytes moved per device by the partitioned recipes against the analytic
minimum of each (issue 13).

Each recipe is a single-device program in docs/examples/ with a few
sharding annotations; --xla-spmd-pipeline=lower=false partitions and
optimizes it and --xla-report-collectives states what each device sends
(ring algorithms: all-gather (g-1)B, reduce-scatter and all-to-all
(g-1)/g B, all-reduce 2(g-1)/g B, B the collective's input block). The
minimum of each recipe is derived below from its shapes; docs/recipes.md
explains each derivation. Writes bench/results/bytes.csv and prints the
table docs/recipes.md shows.

Usage: run.py [--xla-opt build/bin/xla-opt] [-o bench/results/bytes.csv]
"""

import argparse
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
F32 = 4


def all_reduce(nbytes, g):
    return 2 * (g - 1) * nbytes // g


def all_gather(block, g):
    return (g - 1) * block


def reduce_scatter(nbytes, g):
    return (g - 1) * nbytes // g


# name, example, recipe, minimum bytes per device (total, dcn), derivation.
RECIPES = [
    ("data parallel", "dp_mlp.mlir",
     # Every parameter's gradient (W1 256x1024, b1 1024, W2 1024x256, b2 256)
     # and the loss are partial sums over "data"=8: one all-reduce of all.
     (all_reduce((256 * 1024 + 1024 + 1024 * 256 + 256) * F32 + F32, 8), 0),
     "all-reduce of gradients + loss over data=8"),
    ("FSDP (ZeRO-3)", "fsdp_mlp_step.mlir",
     # Two 128x512 f32 weights split over "fsdp"=8: each all-gathered once
     # (the backward reuses it), each gradient reduce-scattered; the loss.
     (2 * all_gather(128 * 512 * F32 // 8, 8) +
      2 * reduce_scatter(128 * 512 * F32, 8) + all_reduce(F32, 8), 0),
     "2 weight all-gathers + 2 gradient reduce-scatters + loss, fsdp=8"),
    ("Megatron (attention + MLP)", "megatron_transformer.mlir",
     # Two row-parallel projections' partial sums over "model"=4, each over
     # the block's activations (2x16x64 f32 per data replica).
     (2 * all_reduce(2 * 16 * 64 * F32, 4), 0),
     "2 all-reduces of the block's activations over model=4"),
    ("Megatron MLP (bf16)", "megatron_mlp.mlir",
     (all_reduce(4 * 128 * 512 * 2, 4), 0),
     "1 all-reduce of the MLP output over model=4"),
    ("2D data x model, 2 slices (multislice)", "hybrid_2d_step.mlir",
     # ICI: the MLP output's all-reduce over "model"=2 (8x128 f32), then the
     # gradients G (2 x 128x256 f32 + loss, padded to 262,152 B) reduce-
     # scattered and all-gathered over the 2 chips of "data" in a slice;
     # DCN: the two halves all-reduced across the 2 slices.
     (all_reduce(8 * 128 * F32, 2) + 2 * reduce_scatter(262152, 2) +
      all_reduce(262152 // 2, 2), all_reduce(262152 // 2, 2)),
     "model all-reduce; gradients: ICI reduce-scatter, DCN all-reduce, "
     "ICI all-gather"),
    ("sequence parallel (Megatron-SP MLP)", "seq_parallel_mlp.mlir",
     # Tokens 512 x width 256 f32 split over "model"=4 outside the matmuls:
     # all-gather the input before W1, reduce-scatter W2's partial sum.
     (all_gather(512 * 256 * F32 // 4, 4) + reduce_scatter(512 * 256 * F32, 4),
      0),
     "all-gather of the tokens + reduce-scatter of the output, model=4"),
]

REPORT = re.compile(r"^@\S+: (\d+) collectives?, sends (\d+) B per device "
                    r"\(ici (\d+) B, dcn or mixed (\d+) B\)")


def measure(xla_opt, example):
    path = os.path.join(ROOT, "docs", "examples", example)
    proc = subprocess.run(
        [xla_opt, path, "--xla-spmd-pipeline=lower=false",
         "--xla-report-collectives", "-o", os.devnull],
        capture_output=True, text=True)
    if proc.returncode != 0:
        sys.exit(f"{example}: {proc.stderr}")
    totals = [0, 0, 0, 0]
    kinds = []
    for line in proc.stdout.splitlines():
        m = REPORT.match(line)
        if m:
            totals = [a + int(b) for a, b in zip(totals, m.groups())]
            continue
        kind = line.split()[0] if line.startswith("  ") else None
        if kind and kind != "all_slice":
            kinds.append(kind)
    return totals, kinds


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--xla-opt", default=os.path.join(ROOT, "build", "bin", "xla-opt"))
    ap.add_argument("-o", "--out", default=os.path.join(ROOT, "bench", "results", "bytes.csv"))
    a = ap.parse_args()
    rows = []
    for name, example, (minimum, minimum_dcn), how in RECIPES:
        (_, sent, ici, dcn), kinds = measure(a.xla_opt, example)
        rows.append((name, example, minimum, sent, minimum_dcn, dcn,
                     sent / minimum, ", ".join(kinds), how))
    tmp = a.out + ".tmp"
    with open(tmp, "w") as f:
        f.write("recipe,example,minimum_bytes,partitioned_bytes,minimum_dcn_bytes,"
                "partitioned_dcn_bytes,ratio,collectives\n")
        for r in rows:
            f.write(f'"{r[0]}",{r[1]},{r[2]},{r[3]},{r[4]},{r[5]},{r[6]:.3f},"{r[7]}"\n')
    os.replace(tmp, a.out)
    print("| recipe | analytic minimum (B/device) | partitioned | ratio | DCN min / partitioned |")
    print("|---|---|---|---|---|")
    for r in rows:
        print(f"| {r[0]} (`{r[1]}`) | {r[2]:,} | {r[3]:,} | {r[6]:.2f} | {r[4]:,} / {r[5]:,} |")
    print(f"wrote {a.out}")


if __name__ == "__main__":
    main()
