#!/usr/bin/env python3
"""Checks that a collective-matmul program (gen_spmd_transformer.py
--collective-matmul) hides its ring: on each device, the collective_permute
steps run while the partial matmuls compute. Prints, for device 0, the
permute time, the part of it that overlaps compute, and the step time next
to the unoverlapped sum (compute busy time + permute time).

Usage: check_collective_matmul.py TRACE.json [--devices N] [--min-hidden F]
Fails when a device runs no collective_permute or hides less than F (default
0.5) of its permute time under compute.
"""

import argparse
import json
import sys


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("trace")
    ap.add_argument("--devices", type=int, default=1)
    ap.add_argument("--min-hidden", type=float, default=0.5)
    a = ap.parse_args()
    lines = {}
    for e in json.load(open(a.trace))["traceEvents"]:
        if e["ph"] == "X":
            lines.setdefault((e["pid"], e["tid"]), []).append(e)
    for pid in range(a.devices):
        # Compute line (tid 3): ops, not the stalls at a collective's done
        # or the waits for a group.
        compute = sorted((e["ts"], e["ts"] + e["dur"]) for e in lines.get((pid, 3), [])
                         if not e["name"].endswith("-done") and not e["name"].startswith("wait"))
        permutes = [e for e in lines.get((pid, 4), []) if e["name"] == "collective-permute"]
        if not permutes:
            sys.exit(f"check_collective_matmul: device {pid} runs no collective-permute")
        total = sum(e["dur"] for e in permutes)
        hidden = 0.0
        for e in permutes:
            lo, hi = e["ts"], e["ts"] + e["dur"]
            hidden += sum(max(0.0, min(hi, b) - max(lo, a_)) for a_, b in compute)
        if hidden < a.min_hidden * total:
            sys.exit(f"check_collective_matmul: device {pid} hides {hidden:.3f} of {total:.3f} us of permutes")
        if pid == 0:
            busy = sum(b - a_ for a_, b in compute)
            step = lines[(0, 1)][0]["dur"]
            print(f"collective matmul: {len(permutes)} permutes, {total:.3f} us, {hidden:.3f} us under compute; "
                  f"step {step:.3f} us, compute {busy:.3f} us + permutes {total:.3f} us = {busy + total:.3f} us")
            if step >= busy + total:
                sys.exit("check_collective_matmul: the step is not below compute + permutes")


if __name__ == "__main__":
    main()
