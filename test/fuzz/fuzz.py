#!/usr/bin/env python3
"""Differential fuzzing of the SPMD pipeline against the single-device run.

Each case (one seed) is a random single-device xla program with random
shardings on a random mesh (xla_fuzz/gen.py). It runs through
`xla-opt --xla-spmd-pipeline` and `xla-run --check`, which partitions it,
runs it on the mesh's devices and compares every result with the program
run as written on one device (xla_fuzz/runner.py). Failing cases are
shrunk (xla_fuzz/shrink.py) and, with --save-dir, written as lit tests
named after their seed.

    fuzz.py --bin-dir build/bin --start 0 --count 300          # CI batch
    fuzz.py --bin-dir build/bin --start 1000 --count 100000 --jobs 2 \\
        --save-dir test/fuzz/regressions                          # long run
    fuzz.py --bin-dir build/bin --start 123 --count 1 --print    # one case

Exit status: 0 when every case passed, 1 otherwise.
"""

import argparse
import collections
import multiprocessing
import os
import re
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from xla_fuzz import gen  # noqa: E402
from xla_fuzz.runner import Tools  # noqa: E402
from xla_fuzz.shrink import Shrinker  # noqa: E402

TOOLS = None


def init_worker(bin_dir, timeout, roundtrip):
    global TOOLS
    TOOLS = Tools(bin_dir, timeout, roundtrip)


def run_case(seed):
    try:
        case, choices = gen.from_seed(seed)
    except Exception as e:  # A bug of the generator: report it, go on.
        detail = f"{type(e).__name__}: {e}".splitlines()[0]
        return (seed, [], "generator-error", detail, collections.Counter(),
                collections.Counter(), 0)
    text = case.text()
    outcome = TOOLS.check(text, seed)
    ops = collections.Counter(re.findall(r"= xla\.(\w+)", text))
    features = collections.Counter()
    features["mesh:" + ("hybrid" if case.mesh.ici else "permuted"
                        if case.mesh.devices else "plain")] += 1
    features[f"mesh-axes:{len(case.mesh.axes)}"] += 1
    for m in re.finditer(r"x(f32|f64|bf16|f16|i1|i8|i32|i64)>", text):
        features["dtype:" + m.group(1)] += 1
    features["sharded-args"] += sum(1 for _, s, _ in case.args if s)
    features["sharded-results"] += sum(1 for _, s in case.results if s)
    features["partial-annotations"] += text.count("partial")
    features["open-dims"] += text.count("?}")
    for m in re.finditer(r"(\d+) (\w+)", outcome.collectives):
        features["emitted:" + m.group(2)] += int(m.group(1))
    return seed, choices, outcome.status, outcome.detail, ops, features, \
        case.num_ops


def lit_test(seed, case, outcome, original_ops):
    status = outcome.status
    detail = outcome.detail.replace("\n", " ")
    header = (
        f"// Differential fuzzing (test/fuzz/fuzz.py), seed {seed}: {status}\n"
        f"// before the fix: {detail}\n"
        f"// Shrunk from {original_ops} to {case.num_ops} ops; "
        f"`fuzz.py --start {seed} --count 1` regenerates the original.\n"
        "// RUN: xla-opt %s --xla-spmd-pipeline -o /dev/null\n"
        f"// RUN: xla-run %s --check --seed={seed} | FileCheck %s\n"
        "// CHECK: [SUCCESS]\n")
    return case.text(header)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.dirname(os.path.dirname(here))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin-dir", default=os.path.join(root, "build",
                                                          "bin"))
    parser.add_argument("--start", type=int, default=0)
    parser.add_argument("--count", type=int, default=300)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--timeout", type=int, default=120,
                        help="seconds per tool invocation")
    parser.add_argument("--roundtrip", action="store_true",
                        help="also run xla-opt with --verify-roundtrip")
    parser.add_argument("--no-shrink", action="store_true")
    parser.add_argument("--shrink-seconds", type=int, default=300)
    parser.add_argument("--save-dir",
                        help="write each shrunk failure as a lit test here")
    parser.add_argument("--print", action="store_true",
                        help="print each generated program")
    parser.add_argument("--stats", action="store_true",
                        help="print op and feature counts")
    parser.add_argument("--progress", type=int, default=0,
                        help="print a progress line every N cases")
    args = parser.parse_args()

    if args.print:
        for seed in range(args.start, args.start + args.count):
            print(gen.from_seed(seed)[0].text(f"// seed {seed}"))
        return 0

    seeds = range(args.start, args.start + args.count)
    ops, features, statuses = (collections.Counter(), collections.Counter(),
                               collections.Counter())
    failures = []
    start = time.time()
    total_ops = 0
    with multiprocessing.Pool(args.jobs, init_worker,
                              (args.bin_dir, args.timeout,
                               args.roundtrip)) as pool:
        for n, (seed, choices, status, detail, o, f, num_ops) in enumerate(
                pool.imap_unordered(run_case, seeds, chunksize=4), 1):
            ops.update(o)
            features.update(f)
            statuses[status] += 1
            total_ops += num_ops
            if status != "ok":
                failures.append((seed, choices, status, detail, num_ops))
                print(f"FAIL seed {seed}: {status}: {detail}", flush=True)
            if args.progress and n % args.progress == 0:
                print(f"[{n}/{len(seeds)}] {time.time() - start:.0f} s, "
                      f"{len(failures)} failures", flush=True)
    elapsed = time.time() - start
    print(f"{len(seeds)} cases (seeds {args.start}..{seeds[-1]}), "
          f"{total_ops} ops, {len(failures)} failures, {elapsed:.1f} s")
    if args.stats:
        print("ops: " + ", ".join(f"{k} {v}" for k, v in sorted(ops.items())))
        print("features: " + ", ".join(f"{k} {v}" for k, v in
                                        sorted(features.items())))
        print("outcomes: " + ", ".join(f"{k} {v}" for k, v in
                                        sorted(statuses.items())))

    if failures and not args.no_shrink:
        tools = Tools(args.bin_dir, args.timeout, args.roundtrip)
        from xla_fuzz.runner import Outcome
        for seed, choices, status, detail, num_ops in sorted(failures):
            if status == "generator-error":
                continue  # no program to shrink
            print(f"shrinking seed {seed} ({num_ops} ops)", flush=True)
            shrinker = Shrinker(tools, seed, choices, Outcome(status, detail),
                                budget_s=args.shrink_seconds,
                                log=lambda m: print(m, flush=True))
            case, outcome = shrinker.run()
            text = lit_test(seed, case, outcome, num_ops)
            if args.save_dir:
                os.makedirs(args.save_dir, exist_ok=True)
                path = os.path.join(args.save_dir, f"seed-{seed}.mlir")
                with open(path, "w") as f:
                    f.write(text)
                print(f"wrote {path}")
            else:
                print(text)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
