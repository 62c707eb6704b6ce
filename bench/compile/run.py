#!/usr/bin/env python3
"""Compile time: xspmd's SPMD pipeline against MLIR's upstream shard passes.

For each model (mlp, transformer), strategy (dp, fsdp, megatron, 2d) and
size (default ~1k, ~10k and ~100k model ops), generate.py writes the same
training step as an `xla` module and as an upstream `shard`/linalg module.
Each repetition then runs, alternating which goes first,

    xla-opt IN.xla.mlir --xla-spmd-pipeline -o OUT
    mlir-opt-22 IN.shard.mlir -o OUT \\
        --pass-pipeline="builtin.module(func.func(sharding-propagation,shard-partition))"

as whole processes (parse, passes, print: end to end) and records the wall
time and the peak resident memory of each (wait4's ru_maxrss). The CSV gets
one row per (model, strategy, ops, tool): median and minimum wall time, peak
RSS, the collectives in the output, and how many runs failed - with the
exit status or signal and the first error line when a tool fails or
crashes. The ratio upstream / xspmd of the medians is printed per model.

    run.py -o bench/results/compile.csv                 # everything
    run.py --sizes 100000 --models transformer --reps 3

No threshold is checked: the numbers are for reading and comparing.
"""

import argparse
import csv
import os
import platform
import re
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import generate  # noqa: E402

UPSTREAM_PIPELINE = ("builtin.module(func.func(sharding-propagation,"
                     "shard-partition))")
XLA_COLLECTIVES = re.compile(
    r"\bxla\.(all_reduce|all_gather|reduce_scatter|all_to_all|"
    r"collective_permute|all_slice)\b")
SHARD_COLLECTIVES = re.compile(
    r"\bshard\.(all_reduce|all_gather|reduce_scatter|all_to_all|all_slice|"
    r"broadcast|gather|scatter|reduce|send|recv|shift|update_halo)\b")


def run_once(argv, timeout):
    """(wall seconds, peak RSS in MiB, status string, CPU seconds)."""
    start = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE)
    deadline = start + timeout
    while True:
        pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
        if pid:
            break
        if time.perf_counter() > deadline:
            proc.kill()
            _, status, usage = os.wait4(proc.pid, 0)
            wall = time.perf_counter() - start
            return wall, usage.ru_maxrss / 1024, "timeout", cpu(usage)
        time.sleep(0.002)
    wall = time.perf_counter() - start
    err = proc.stderr.read().decode(errors="replace")
    proc.stderr.close()
    rss = usage.ru_maxrss / 1024
    if os.WIFSIGNALED(status):
        return wall, rss, f"crash: signal {os.WTERMSIG(status)}", cpu(usage)
    code = os.WEXITSTATUS(status)
    if code != 0:
        first = next((l for l in err.splitlines() if "error" in l),
                     err.strip().splitlines()[0] if err.strip() else "")
        return (wall, rss, f"error: exit {code}: {first.strip()[:200]}",
                cpu(usage))
    return wall, rss, "ok", cpu(usage)


def cpu(usage):
    """User + system CPU seconds: what the run cost, whatever else the host
    was doing (wall time grows with the load, CPU time much less)."""
    return usage.ru_utime + usage.ru_stime


def count_collectives(path, pattern):
    if not os.path.exists(path):
        return ""
    counts = {}
    with open(path) as f:
        for line in f:
            for m in pattern.finditer(line):
                counts[m.group(1)] = counts.get(m.group(1), 0) + 1
    total = sum(counts.values())
    detail = " ".join(f"{k}={v}" for k, v in sorted(counts.items()))
    return f"{total} ({detail})" if total else "0"


def count_ops(path):
    """Operations in a module: lines that define or are an op."""
    n = 0
    with open(path) as f:
        for line in f:
            s = line.strip()
            if (s.startswith("%") and " = " in s) or s.startswith(
                    ("return", "linalg.yield", "shard.grid", "xla.mesh")):
                n += 1
    return n


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.dirname(os.path.dirname(here))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--xla-opt",
                        default=os.path.join(root, "build", "bin", "xla-opt"))
    parser.add_argument("--mlir-opt", default="mlir-opt-22")
    parser.add_argument("--sizes", default="1000,10000,100000")
    parser.add_argument("--models", default="mlp,transformer")
    parser.add_argument("--strategies", default="dp,fsdp,megatron,2d")
    parser.add_argument("--reps", type=int, default=5,
                        help="runs per tool and model below 50k ops")
    parser.add_argument("--reps-large", type=int, default=3,
                        help="runs per tool and model from 50k ops")
    parser.add_argument("--timeout", type=int, default=600,
                        help="seconds per run")
    parser.add_argument("--keep", help="keep the generated modules here")
    parser.add_argument("-o", "--output",
                        default=os.path.join(root, "bench", "results",
                                             "compile.csv"))
    args = parser.parse_args()

    tools = {
        "xspmd": lambda i, o: [args.xla_opt, i, "--xla-spmd-pipeline",
                               "-o", o],
        "upstream": lambda i, o: [args.mlir_opt, i, "-o", o,
                                  f"--pass-pipeline={UPSTREAM_PIPELINE}"],
    }
    patterns = {"xspmd": XLA_COLLECTIVES, "upstream": SHARD_COLLECTIVES}
    rows = []
    ratios = []
    workdir = args.keep or tempfile.mkdtemp(prefix="bench-compile-")
    os.makedirs(workdir, exist_ok=True)
    print(f"host {platform.node()}, {os.cpu_count()} cpus, load "
          f"{os.getloadavg()[0]:.2f}", flush=True)
    for model in args.models.split(","):
        for strategy in args.strategies.split(","):
            for size in (int(s) for s in args.sizes.split(",")):
                base = os.path.join(workdir, f"{model}-{strategy}-{size}")
                inputs = {"xspmd": base + ".xla.mlir",
                          "upstream": base + ".shard.mlir"}
                # In a child process: Linux counts the RSS a process had when
                # it forked (or vforked) the tool into the tool's ru_maxrss,
                # so this process must stay small for the RSS column to be
                # the tool's own.
                subprocess.run([sys.executable, generate.__file__,
                                "--model", model, "--strategy", strategy,
                                "--ops", str(size), "--xla", inputs["xspmd"],
                                "--shard", inputs["upstream"]],
                               check=True, stdout=subprocess.DEVNULL)
                ops = model_ops(inputs["xspmd"])
                runs = {t: [] for t in tools}
                reps = args.reps if ops < 50000 else args.reps_large
                for rep in range(reps):
                    order = list(tools) if rep % 2 == 0 else \
                        list(reversed(tools))
                    for tool in order:
                        out = f"{base}.{tool}.out.mlir"
                        runs[tool].append(run_once(
                            tools[tool](inputs[tool], out), args.timeout))
                medians = {}
                for tool, rs in runs.items():
                    ok = [r for r in rs if r[2] == "ok"]
                    failed = [r for r in rs if r[2] != "ok"]
                    walls = [r[0] for r in ok]
                    cpus = [r[3] for r in ok]
                    out = f"{base}.{tool}.out.mlir"
                    row = {
                        "model": model, "strategy": strategy,
                        "ops": ops,
                        "tool": tool,
                        "input_ops": count_ops(inputs[tool]),
                        "wall_median_s": f"{statistics.median(walls):.3f}"
                        if walls else "",
                        "wall_min_s": f"{min(walls):.3f}" if walls else "",
                        "cpu_median_s": f"{statistics.median(cpus):.3f}"
                        if cpus else "",
                        "peak_rss_mib": f"{max(r[1] for r in rs):.0f}",
                        "collectives": count_collectives(out, patterns[tool])
                        if ok else "",
                        "failures": f"{len(failed)}/{len(rs)}",
                        "status": failed[0][2] if failed else "ok",
                    }
                    medians[tool] = statistics.median(walls) if walls else None
                    rows.append(row)
                    print(f"{model:11} {strategy:8} {row['ops']:>7} ops "
                          f"{tool:8} median {row['wall_median_s'] or '-':>8}"
                          f" s (cpu {row['cpu_median_s'] or '-':>8} s)  rss "
                          f"{row['peak_rss_mib']:>5} MiB  "
                          f"collectives {row['collectives'] or '-'}  "
                          f"{row['status']}", flush=True)
                    if os.path.exists(out):
                        os.remove(out)
                x, u = medians["xspmd"], medians["upstream"]
                ratio = (f"{u / x:.1f}x" if x and u else
                         "upstream failed" if x else "xspmd failed")
                ratios.append((model, strategy, ops, ratio))
                print(f"  ratio upstream/xspmd: {ratio}", flush=True)
                if not args.keep:
                    for p in inputs.values():
                        os.remove(p)
    os.makedirs(os.path.dirname(os.path.abspath(args.output)), exist_ok=True)
    # Written whole or not at all: a temporary file renamed over the old one.
    tmp = args.output + ".tmp"
    with open(tmp, "w", newline="") as f:
        f.write(f"# host {platform.node()}, {os.cpu_count()} cpus, "
                f"load average {os.getloadavg()[0]:.2f} at the end; "
                f"{args.reps} runs per tool ({args.reps_large} from 50k "
                "ops), alternating\n")
        writer = csv.DictWriter(f, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    os.replace(tmp, args.output)
    print(f"wrote {args.output}")
    print("ratios (upstream median / xspmd median):")
    for model, strategy, ops, ratio in ratios:
        print(f"  {model:11} {strategy:8} {ops:>7} ops: {ratio}")


def model_ops(xla_path):
    """Ops of the model: the xla module's ops (what both modules compute)."""
    n = 0
    with open(xla_path) as f:
        for line in f:
            if " = xla." in line:
                n += 1
    return n


if __name__ == "__main__":
    main()
