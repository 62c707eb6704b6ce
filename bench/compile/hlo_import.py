#!/usr/bin/env python3
"""HLO import speed: `xla-translate --import-hlo` on a generated dump.

Writes an HloModule of N instructions (default 100,000) in the form a JAX
dump takes: layouts on every shape, metadata with op names and source lines
on every instruction, and a data-parallel sharding on the parameters. The
body is a chain of MLP layers (dot, broadcast bias, add, tanh, reduce for a
loss term) so every importer family that real programs exercise most is
timed. `--new-syntax` adds what newer dumps print (stack-frame tables with
`stack_frame_id=`, shape-less elementwise instructions, index comments);
parsers older than that syntax cannot read it, so compare the default form
across versions.

    hlo_import.py --xla-translate build/bin/xla-translate \\
        -o bench/results/hlo_import.csv [--ops 100000] [--reps 5]

Each repetition is a whole process (read, parse, import, print to
/dev/null); the CSV has the median and minimum wall time and the peak RSS.
No threshold is checked.
"""

import argparse
import csv
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time


def generate(ops, new_syntax):
    width = 64
    lines = ["HloModule jit_train_step, num_partitions=8, "
             "entry_computation_layout={(f32[64,64]{1,0}, f32[64]{0}, "
             "f32[32,64]{1,0})->f32[]}", ""]
    if new_syntax:
        lines += ["FileNames", '1 "/work/model/train.py"',
                  '2 "/work/model/layers.py"', "",
                  "FunctionNames", '1 "train_step"', '2 "dense"', "",
                  "FileLocations",
                  "1 {file_name_id=1 function_name_id=1 line=40 end_line=40 "
                  "column=4 end_column=30}",
                  "2 {file_name_id=2 function_name_id=2 line=12 end_line=12 "
                  "column=8 end_column=20}", "",
                  "StackFrames", "1 {file_location_id=1 parent_frame_id=0}",
                  "2 {file_location_id=2 parent_frame_id=1}", ""]
    lines += ["%add_f32 (a: f32[], b: f32[]) -> f32[] {",
              "  %a = f32[] parameter(0)", "  %b = f32[] parameter(1)",
              "  ROOT %s = f32[] add(%a, %b)", "}", "", "ENTRY %main {"]
    shard = "sharding={devices=[8,1]<=[8]}"
    lines.append(f"  %w = f32[{width},{width}]{{1,0}} parameter(0), "
                 "sharding={replicated}")
    lines.append(f"  %bias = f32[{width}]{{0}} parameter(1), "
                 "sharding={replicated}")
    lines.append(f"  %x0 = f32[32,{width}]{{1,0}} parameter(2), {shard}")
    lines.append("  %zero = f32[] constant(0)")
    lines.append("  %loss0 = f32[] constant(0)")
    count = 5
    layer = 0
    x, loss = "%x0", "%loss0"

    def md(op, line):
        if new_syntax:
            return (f', metadata={{op_name="jit(train_step)/{op}" '
                    f'stack_frame_id=2}}')
        return (f', metadata={{op_type="{op}" op_name="jit(train_step)/{op}" '
                f'source_file="/work/model/layers.py" source_line={line}}}')

    while count + 6 <= ops:
        i = layer
        shape = f"f32[32,{width}]"
        lines.append(f"  %dot.{i} = {shape}{{1,0}} dot({x}, %w), "
                     "lhs_contracting_dims={1}, rhs_contracting_dims={0}"
                     + md("dot_general", 12))
        lines.append(f"  %bb.{i} = {shape}{{1,0}} broadcast(%bias), "
                     "dimensions={1}" + md("broadcast_in_dim", 13))
        if new_syntax:
            lines.append(f"  %pre.{i} = add(%dot.{i}, /*index=1*/%bb.{i})"
                         + md("add", 13))
            lines.append(f"  %act.{i} = tanh(%pre.{i})" + md("tanh", 14))
        else:
            lines.append(f"  %pre.{i} = {shape}{{1,0}} add(%dot.{i}, %bb.{i})"
                         + md("add", 13))
            lines.append(f"  %act.{i} = {shape}{{1,0}} tanh(%pre.{i})"
                         + md("tanh", 14))
        lines.append(f"  %red.{i} = f32[] reduce(%act.{i}, %zero), "
                     "dimensions={0,1}, to_apply=%add_f32" + md("reduce_sum", 15))
        lines.append(f"  %loss.{i} = f32[] add({loss}, %red.{i})"
                     + md("add", 16))
        x, loss = f"%act.{i}", f"%loss.{i}"
        count += 6
        layer += 1
    lines.append(f"  ROOT %out = f32[] copy({loss})")
    lines.append("}")
    return "\n".join(lines) + "\n", count + 1


def run_once(tool, path):
    start = time.perf_counter()
    proc = subprocess.Popen([tool, "--import-hlo", path, "-o", os.devnull],
                            stderr=subprocess.PIPE)
    _, err = proc.communicate()
    wall = time.perf_counter() - start
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        sys.exit(f"{tool} failed on {path}: {err.decode()[:400]}")
    return wall, usage.ru_maxrss / 1024.0


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--xla-translate", required=True)
    parser.add_argument("--ops", type=int, default=100000)
    parser.add_argument("--reps", type=int, default=5)
    parser.add_argument("--new-syntax", action="store_true",
                        help="also time the stack-frame/shape-less form")
    parser.add_argument("--label", default="", help="a column to tell runs apart")
    parser.add_argument("-o", "--output", required=True)
    args = parser.parse_args()

    forms = [False] + ([True] if args.new_syntax else [])
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for new_syntax in forms:
            text, count = generate(args.ops, new_syntax)
            path = os.path.join(tmp, f"module{int(new_syntax)}.hlo")
            with open(path, "w") as f:
                f.write(text)
            walls, rss = [], 0.0
            for _ in range(args.reps):
                wall, peak = run_once(args.xla_translate, path)
                walls.append(wall)
                rss = max(rss, peak)
            row = {"label": args.label,
                   "form": "new-syntax" if new_syntax else "classic",
                   "instructions": count, "bytes": len(text),
                   "median_s": round(statistics.median(walls), 3),
                   "min_s": round(min(walls), 3), "peak_rss_mib": round(rss)}
            rows.append(row)
            print(row)
    new_file = not os.path.exists(args.output)
    with open(args.output, "a", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0]))
        if new_file:
            writer.writeheader()
        writer.writerows(rows)


if __name__ == "__main__":
    main()
