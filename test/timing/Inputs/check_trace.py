#!/usr/bin/env python3
"""Checks the structure of a trace written by `xla-run --trace`.

Usage: check_trace.py TRACE.json --devices N [--sync] [--annotation NAME]...

Fails (exit 1, message on stderr) unless:
  * the file is JSON with a traceEvents list and displayTimeUnit;
  * there is one process per device 0..N-1, named "/device:TPU:<pid> (slice
    s, host h, coords x,y,z)", with lines Steps, XLA Modules, XLA Ops, Async
    Collectives, Trace Annotations (tids 1-5);
  * on every (process, line) the complete ("X") slices have non-decreasing
    timestamps in file order and nest perfectly (each slice lies inside the
    enclosing open one or starts after it ends);
  * every op slice lies inside a step;
  * with async collectives (the default), each collective of each step has
    one "<kind>-start" and one "<kind>" transfer on the Async Collectives
    line and one "<kind>-done" on the XLA Ops line, the done ending no
    earlier than the transfer; with --sync, collectives sit on the XLA Ops
    line and there are no -start / -done slices;
  * each --annotation NAME appears on every device's Trace Annotations line.

Prints a one-line summary for FileCheck.
"""

import argparse
import json
import re
import sys

EPS = 1e-6  # microseconds
LINES = {1: "Steps", 2: "XLA Modules", 3: "XLA Ops", 4: "Async Collectives",
         5: "Trace Annotations"}
KINDS = ("all-reduce", "all-gather", "reduce-scatter", "all-to-all",
         "collective-permute")


def fail(message):
    print(f"check_trace: {message}", file=sys.stderr)
    sys.exit(1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("trace")
    ap.add_argument("--devices", type=int, required=True,
                    help="the trace must show processes 0..N-1")
    ap.add_argument("--sync", nargs="?", const="all", default="",
                    help="collectives on the compute stream: all, or KIND,... (xla-run --sync-collectives)")
    ap.add_argument("--annotation", action="append", default=[])
    a = ap.parse_args()
    with open(a.trace) as f:
        trace = json.load(f)
    if not isinstance(trace, dict) or not isinstance(trace.get("traceEvents"), list):
        fail("no traceEvents list")
    if trace.get("displayTimeUnit") not in ("ns", "ms"):
        fail("no displayTimeUnit")
    events = trace["traceEvents"]
    sync_kinds = set(KINDS) if a.sync == "all" else set(filter(None, a.sync.split(",")))

    names, threads, slices = {}, {}, {}
    for e in events:
        ph = e.get("ph")
        if ph == "M":
            if e["name"] == "process_name":
                names[e["pid"]] = e["args"]["name"]
            elif e["name"] == "thread_name":
                threads[(e["pid"], e["tid"])] = e["args"]["name"]
        elif ph == "X":
            for key in ("pid", "tid", "name", "ts", "dur"):
                if key not in e:
                    fail(f"slice without {key}: {e}")
            if e["dur"] < 0:
                fail(f"negative duration: {e}")
            slices.setdefault((e["pid"], e["tid"]), []).append(e)
        else:
            fail(f"unexpected event phase {ph!r}")

    expected = list(range(a.devices))
    if sorted(names) != expected:
        fail(f"processes {sorted(names)}, expected {expected}")
    for pid, name in names.items():
        if not re.fullmatch(rf"/device:TPU:{pid} \(slice \d+, host \d+, coords \d+,\d+,\d+\)", name):
            fail(f"process {pid} is named {name!r}")
        for tid, line in LINES.items():
            if threads.get((pid, tid)) != line:
                fail(f"process {pid} thread {tid} is {threads.get((pid, tid))!r}, expected {line!r}")

    # Monotonic and perfectly nested, per line.
    for (pid, tid), line in slices.items():
        stack = []
        last = -1.0
        for e in line:
            ts, end = e["ts"], e["ts"] + e["dur"]
            if ts + EPS < last:
                fail(f"device {pid} line {tid}: {e['name']} at {ts} after a slice at {last}")
            last = ts
            while stack and ts >= stack[-1] - EPS:
                stack.pop()
            if stack and end > stack[-1] + EPS:
                fail(f"device {pid} line {tid}: {e['name']} [{ts}, {end}] overlaps an enclosing slice ending at {stack[-1]}")
            stack.append(end)

    collectives = synced = 0
    for pid in names:
        steps = slices.get((pid, 1), [])
        if not steps:
            fail(f"device {pid} has no step")
        for e in slices.get((pid, 3), []):
            if not any(s["ts"] - EPS <= e["ts"] and e["ts"] + e["dur"] <= s["ts"] + s["dur"] + EPS
                       for s in steps):
                fail(f"device {pid}: op {e['name']} at {e['ts']} is outside every step")
        starts, transfers, dones = {}, {}, {}

        def key(e):
            step = next(i for i, s in enumerate(steps)
                        if s["ts"] - EPS <= e["ts"] <= s["ts"] + s["dur"] + EPS)
            return (step, e["args"]["instruction"])
        for e in slices.get((pid, 4), []):
            kind = e["name"].removesuffix("-start")
            if kind in sync_kinds:
                fail(f"device {pid}: {e['name']} on the Async Collectives line, but {kind} is synchronous")
            if e["name"].endswith("-start"):
                starts[key(e)] = e
            elif e["name"] in KINDS:
                transfers[key(e)] = e
        for e in slices.get((pid, 3), []):
            if e["name"].endswith("-done"):
                if e["name"].removesuffix("-done") in sync_kinds:
                    fail(f"device {pid}: {e['name']} of a synchronous kind")
                dones[key(e)] = e
            elif e["name"] in KINDS:
                if e["name"] not in sync_kinds:
                    fail(f"device {pid}: collective {e['name']} on the XLA Ops line, but it is asynchronous")
                synced += 1
        if not (set(starts) == set(transfers) == set(dones)):
            fail(f"device {pid}: collectives without start/transfer/done: "
                 f"{sorted(set(starts) ^ set(dones))} {sorted(set(transfers) ^ set(dones))}")
        for k, t in transfers.items():
            s, d = starts[k], dones[k]
            if abs(s["ts"] + s["dur"] - t["ts"]) > EPS:
                fail(f"device {pid}: {s['name']} does not end where its transfer starts")
            if d["ts"] + d["dur"] + EPS < t["ts"] + t["dur"]:
                fail(f"device {pid}: {d['name']} ends before its transfer")
        collectives += len(transfers)

    for name in a.annotation:
        for pid in names:
            if not any(e["name"] == name for e in slices.get((pid, 5), [])):
                fail(f"device {pid} has no annotation {name!r}")
    total = sum(len(v) for v in slices.values())
    # The sync count when some kinds are synchronous, the async one unless all are.
    counts = ", ".join(([f"{synced} sync collectives"] if a.sync else [])
                       + ([f"{collectives} async collectives"] if a.sync != "all" else []))
    print(f"trace ok: {len(names)} devices, {total} slices, {counts}, annotations "
          f"{sorted(set(e['name'] for (p, t), v in slices.items() if t == 5 for e in v))}")


if __name__ == "__main__":
    main()
