#!/usr/bin/env python3
"""Times `xla-opt --xla-propagate-sharding` on generated modules.

For each model (mlp, transformer), strategy and size (default 1k, 10k and
100k ops) it generates a module with generate.py, runs xla-opt with
--mlir-timing a few times and records the median wall time of the pass
(and of parsing, for scale) in a CSV file:

    run.py --xla-opt build/bin/xla-opt -o bench/results/propagation.csv

No threshold is checked: the numbers are for reading and comparing.
"""

import argparse
import csv
import os
import re
import statistics
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import generate  # noqa: E402

TIMING = re.compile(r"^\s*([0-9.]+) \([ 0-9.]+%\)\s+(\S+)\s*$")


def time_once(xla_opt, path):
    proc = subprocess.run(
        [xla_opt, path, "--xla-propagate-sharding", "--mlir-timing",
         "-o", os.devnull],
        capture_output=True, text=True, check=True)
    times = {}
    for line in proc.stderr.splitlines():
        m = TIMING.match(line)
        if m:
            times[m.group(2)] = float(m.group(1))
    return times["XlaPropagateShardingPass"], times["Parser"]


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.dirname(os.path.dirname(here))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--xla-opt",
                        default=os.path.join(root, "build", "bin", "xla-opt"))
    parser.add_argument("--sizes", default="1000,10000,100000")
    parser.add_argument("--models", default="mlp,transformer")
    parser.add_argument("--strategies", default="dp,fsdp,megatron,2d")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("-o", "--output",
                        default=os.path.join(root, "bench", "results",
                                             "propagation.csv"))
    args = parser.parse_args()

    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for model in args.models.split(","):
            for strategy in args.strategies.split(","):
                for size in (int(s) for s in args.sizes.split(",")):
                    text, ops = generate.generate(model, strategy, size)
                    path = os.path.join(tmp, f"{model}-{strategy}-{size}.mlir")
                    with open(path, "w") as f:
                        f.write(text)
                    runs = [time_once(args.xla_opt, path)
                            for _ in range(args.repeat)]
                    prop = statistics.median(r[0] for r in runs)
                    parse = statistics.median(r[1] for r in runs)
                    rows.append({
                        "model": model, "strategy": strategy, "ops": ops,
                        "propagate_s": f"{prop:.4f}",
                        "parse_s": f"{parse:.4f}",
                        "us_per_op": f"{prop / ops * 1e6:.2f}",
                    })
                    print(f"{model:12} {strategy:9} {ops:7} ops  "
                          f"propagate {prop:8.4f} s  parse {parse:8.4f} s  "
                          f"{prop / ops * 1e6:6.2f} us/op", flush=True)
    os.makedirs(os.path.dirname(os.path.abspath(args.output)), exist_ok=True)
    with open(args.output, "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    print(f"wrote {args.output}")


if __name__ == "__main__":
    main()
