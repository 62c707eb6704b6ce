#!/usr/bin/env python3
"""Checks that the partitioner emits, op by op, the bytes propagation planned.

For each input, runs
  xla-opt INPUT --xla-explain-sharding=halo=MODE \
      --xla-partition="report-bytes=true halo=MODE"
(with --split-input-file when the input has `// -----` chunks) and compares,
per function, the "planned bytes of @f" lines --xla-explain-sharding prints
(bytes per device the plan's reshards move around each op, unweighted) with
the "emitted bytes of @f" lines of the partitioner (bytes per device its
collectives send, charged to the op they were emitted for). Prints every
difference and exits 1 if there is one; prints one summary line per input.

With --halo MODE, both passes get halo=MODE (auto by default).

Usage: compare-bytes.py --xla-opt PATH [--halo MODE] INPUT...
"""

import argparse
import collections
import re
import subprocess
import sys

HEADER = re.compile(r"^(planned|emitted) bytes of @(\S+):$")
LINE = re.compile(r"^  (.*): (\d+) B per device$")


def sections(text):
    """Yields (kind, function, {op: bytes}) in output order."""
    current = None
    for line in text.splitlines():
        m = HEADER.match(line)
        if m:
            if current:
                yield current
            current = (m.group(1), m.group(2), {})
            continue
        m = LINE.match(line)
        if m and current:
            current[2][m.group(1)] = int(m.group(2))
            continue
        if current:
            yield current
            current = None
    if current:
        yield current


def compare(xla_opt, path, halo):
    args = [xla_opt, path, f"--xla-explain-sharding=halo={halo}",
            f"--xla-partition=report-bytes=true halo={halo}", "-o",
            "/dev/null"]
    with open(path) as f:
        if "// -----" in f.read():
            args.insert(2, "--split-input-file")
    run = subprocess.run(args, capture_output=True, text=True)
    if run.returncode != 0:
        print(f"{path}: xla-opt failed:\n{run.stderr}")
        return 1, 0
    # A function's planned section comes before its emitted one (chunk by
    # chunk); pair them in order.
    pending = collections.defaultdict(collections.deque)
    errors = ops = 0
    for kind, func, table in sections(run.stdout):
        if kind == "planned":
            pending[func].append(table)
            continue
        planned = pending[func].popleft() if pending[func] else {}
        for op in sorted(set(planned) | set(table)):
            ops += 1
            p, e = planned.get(op, 0), table.get(op, 0)
            if p != e:
                errors += 1
                print(f"{path}: @{func}: {op}: planned {p} B, emitted {e} B")
    # Functions the partitioner left alone (no mesh) must plan nothing.
    for func, tables in pending.items():
        for planned in tables:
            for op, p in planned.items():
                ops += 1
                errors += 1
                print(f"{path}: @{func}: {op}: planned {p} B, emitted 0 B")
    return errors, ops


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--xla-opt", required=True)
    parser.add_argument("--halo", choices=["auto", "always", "never"],
                        default="auto",
                        help="halo= mode of both the plan and the partitioner")
    parser.add_argument("inputs", nargs="+")
    args = parser.parse_args()
    failed = 0
    for path in args.inputs:
        errors, ops = compare(args.xla_opt, path, args.halo)
        name = path.rsplit("/", 1)[-1]
        print(f"{name}: {ops} ops with traffic, {errors} differ")
        failed += errors
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
