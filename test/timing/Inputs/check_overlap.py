#!/usr/bin/env python3
"""Checks the timelines of test/timing/Inputs/overlap.mlir (see
overlap.test) against their closed forms, from the traces' own durations:

  async.json  @main, async collectives: the all-reduce overlaps the matmul,
              step = max(matmul, all-reduce) + add
  sync.json   @main, --sync-collectives: step = all-reduce + matmul + add
  slow.json   @slow on device 0, --sync-collectives: devices 1-3 wait for
              device 0's first matmul ("wait for group"), then all proceed
              together; step = matmul + all-reduce + matmul + add
"""

import json
import sys

EPS = 1e-6


def load(path):
    by_line = {}
    for e in json.load(open(path))["traceEvents"]:
        if e["ph"] == "X":
            by_line.setdefault((e["pid"], e["tid"]), []).append(e)
    return by_line


def named(slices, name):
    found = [e for e in slices if e["name"] == name]
    assert found, f"no slice {name}"
    return found


def close(a, b):
    return abs(a - b) <= EPS * max(1.0, abs(a), abs(b))


def fail(message):
    print(f"check_overlap: {message}", file=sys.stderr)
    sys.exit(1)


def step(t, pid):
    return t[(pid, 1)][0]["dur"]


def main():
    a, s, w = (load(p) for p in sys.argv[1:4])
    for pid in range(4):
        ops = a[(pid, 3)]
        mm = named(ops, "matmul")[0]
        add = named(ops, "add")[0]
        ar = named(a[(pid, 4)], "all-reduce")[0]
        if not (mm["ts"] < ar["ts"] + ar["dur"] and ar["ts"] < mm["ts"] + mm["dur"]):
            fail(f"async: device {pid}: the matmul does not overlap the all-reduce")
        if not close(step(a, pid), max(mm["dur"], ar["dur"]) + add["dur"]):
            fail(f"async: device {pid}: step {step(a, pid)} != max(matmul, all-reduce) + add")

        ops = s[(pid, 3)]
        mm, add, ar = (named(ops, n)[0] for n in ("matmul", "add", "all-reduce"))
        if ar["ts"] + ar["dur"] > mm["ts"] + EPS:
            fail(f"sync: device {pid}: the matmul starts before the all-reduce ends")
        if not close(step(s, pid), ar["dur"] + mm["dur"] + add["dur"]):
            fail(f"sync: device {pid}: step {step(s, pid)} != all-reduce + matmul + add")

    first = named(w[(0, 3)], "matmul")[0]["dur"]
    for pid in range(1, 4):
        wait = named(w[(pid, 3)], "wait for group")
        if len(wait) != 1 or not close(wait[0]["dur"], first):
            fail(f"slow: device {pid} does not wait {first} us for device 0")
    if any(e["name"] == "wait for group" for e in w[(0, 3)]):
        fail("slow: device 0 waits although it arrives last")
    ops = w[(0, 3)]
    mms = named(ops, "matmul")
    ar = named(ops, "all-reduce")[0]
    add = named(ops, "add")[0]
    expected = mms[0]["dur"] + ar["dur"] + mms[1]["dur"] + add["dur"]
    for pid in range(4):
        if not close(step(w, pid), expected):
            fail(f"slow: device {pid}: step {step(w, pid)} != {expected}")
    print(f"overlap ok: async step {step(a, 0):.3f} us, sync step "
          f"{step(s, 0):.3f} us, slow step {step(w, 0):.3f} us, devices 1-3 "
          f"wait {first:.3f} us")


if __name__ == "__main__":
    main()
