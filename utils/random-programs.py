#!/usr/bin/env python3
"""Deterministic random `xla` programs for checking partitioning bytes.

Each program is one function over one mesh (2x2, 4x2, 2x4, 4x1 or a hybrid
mesh of ICI slices joined by DCN) built from a few ops drawn at random:
dot_general / einsum contractions, elementwise ops (two operands sharded
differently make a conflict), broadcast_in_dim, reshape, transpose, reduce,
slice, pad and concatenate, with random shardings on the arguments, the
result and sometimes a mark_sharding. Every tensor is f32 with small
dimensions, so a sample of 50 partitions and runs in seconds.

Modes:
  generate (default)  write the sample: one module holding `--count`
                      functions (`-o FILE`, stdout by default), or one file
                      per program with `--split DIR`.
  --measure           partition the sample with `--xla-opt` and print the
                      bytes per device the partitioner emits, per program
                      and in total (DCN bytes weighted by --dcn-weight, as
                      propagation's cost model does), e.g. to compare two
                      builds on the same seed.

The same seed always gives the same programs (Python's own `random.Random`,
no hashing of strings or dict order).

Usage:
  random-programs.py --seed 1 --count 50 -o sample.mlir
  random-programs.py --seed 1 --count 300 --split /tmp/progs
  random-programs.py --seed 1 --count 300 --measure --xla-opt build/bin/xla-opt
  random-programs.py --seed 1 --count 300 --measure --propagate global-trials=0
"""

import argparse
import os
import random
import re
import subprocess
import sys
import tempfile

# name, axes [(name, size)], hybrid (ici sizes, dcn sizes) or None
MESHES = [
    ("m2x2", [("x", 2), ("y", 2)], None),
    ("m4x2", [("x", 4), ("y", 2)], None),
    ("m2x4", [("x", 2), ("y", 4)], None),
    ("m4x1", [("x", 4), ("y", 1)], None),
    ("h2x2", [("x", 2), ("y", 2)], ([2, 1], [1, 2])),
    ("h2x4", [("data", 2), ("model", 4)], ([1, 4], [2, 1])),
    ("h4x2", [("dcn", 2), ("ici", 2), ("t", 2)], ([1, 2, 2], [2, 1, 1])),
]

DIMS = [2, 4, 4, 6, 8, 8, 12, 16]


def mesh_text(name, axes, hybrid):
    if hybrid is None:
        inner = ", ".join(f'"{a}"={s}' for a, s in axes)
        return f"xla.mesh @{name} = <[{inner}]>"
    ici = ", ".join(f'"{a}"={s}' for (a, _), s in zip(axes, hybrid[0]))
    dcn = ", ".join(f'"{a}"={s}' for (a, _), s in zip(axes, hybrid[1]))
    return f"xla.mesh @{name} = hybrid<ici=[{ici}], dcn=[{dcn}]>"


def ints(values):
    """An attribute's integer list: [1, 2] -> '1, 2'."""
    return ", ".join(map(str, values))


def ttype(shape):
    return "tensor<" + "".join(f"{d}x" for d in shape) + "f32>"


class Program:
    """One function: values with shapes, the op lines, the arguments."""

    def __init__(self, rng, index, mesh):
        self.rng = rng
        self.name = f"p{index}"
        self.mesh = mesh
        self.args = []  # (name, shape, sharding text)
        self.lines = []
        self.values = []  # (name, shape)
        self.counter = 0

    def fresh(self):
        self.counter += 1
        return f"%v{self.counter}"

    def spec(self, shape):
        """A random partition spec: per dimension none, one or two axes,
        each axis at most once (sizes need not divide the dimension)."""
        rng = self.rng
        axes = [a for a, s in self.mesh[1] if s > 1]
        rng.shuffle(axes)
        dims = []
        for _ in shape:
            entry = []
            r = rng.random()
            if axes and r < 0.45:
                entry.append(axes.pop())
                if axes and rng.random() < 0.2:
                    entry.append(axes.pop())
            dims.append(entry)
        inner = ", ".join("{" + ", ".join(f'"{a}"' for a in e) + "}"
                          for e in dims)
        return f"#xla.sharding<@{self.mesh[0]}, [{inner}]>"

    def arg(self, shape):
        name = f"%a{len(self.args)}"
        self.args.append((name, tuple(shape), self.spec(shape)))
        self.values.append((name, tuple(shape)))
        return name, tuple(shape)

    def emit(self, line, shape):
        name = self.fresh()
        self.lines.append(f"  {name} = {line}")
        self.values.append((name, tuple(shape)))
        return name, tuple(shape)

    def pick(self, rank=None):
        pool = [v for v in self.values if rank is None or len(v[1]) == rank]
        if not pool:
            return None
        # Prefer recent values so that ops chain.
        return pool[-1] if self.rng.random() < 0.6 else self.rng.choice(pool)

    # Ops -----------------------------------------------------------------

    def op_contract(self):
        rng = self.rng
        lhs = self.pick(2)
        if lhs is None or rng.random() < 0.3:
            lhs = self.arg((rng.choice(DIMS), rng.choice(DIMS)))
        m, k = lhs[1]
        n = rng.choice(DIMS)
        rhs = self.arg((k, n))
        form = rng.randrange(3)
        if form == 0:
            return self.emit(
                f"xla.matmul {lhs[0]}, {rhs[0]} : ({ttype(lhs[1])}, "
                f"{ttype(rhs[1])}) -> {ttype((m, n))}", (m, n))
        if form == 1:
            return self.emit(
                f"xla.dot_general {lhs[0]}, {rhs[0]}, batch = [] x [], "
                f"contract = [1] x [0] : ({ttype(lhs[1])}, {ttype(rhs[1])}) "
                f"-> {ttype((m, n))}", (m, n))
        # einsum with the result transposed half of the time
        if rng.random() < 0.5:
            return self.emit(
                f'xla.einsum "ij,jk->ki" {lhs[0]}, {rhs[0]} : '
                f"({ttype(lhs[1])}, {ttype(rhs[1])}) -> {ttype((n, m))}",
                (n, m))
        return self.emit(
            f'xla.einsum "ij,jk->ik" {lhs[0]}, {rhs[0]} : '
            f"({ttype(lhs[1])}, {ttype(rhs[1])}) -> {ttype((m, n))}", (m, n))

    def op_batch_contract(self):
        rng = self.rng
        b, m, k, n = (rng.choice([2, 4, 8]), rng.choice(DIMS), rng.choice(DIMS),
                      rng.choice(DIMS))
        lhs = self.arg((b, m, k))
        rhs = self.arg((b, k, n))
        return self.emit(
            f"xla.dot_general {lhs[0]}, {rhs[0]}, batch = [0] x [0], "
            f"contract = [2] x [1] : ({ttype(lhs[1])}, {ttype(rhs[1])}) -> "
            f"{ttype((b, m, n))}", (b, m, n))

    def op_elementwise(self):
        rng = self.rng
        a = self.pick()
        if a is None:
            a = self.arg((rng.choice(DIMS), rng.choice(DIMS)))
        same = [v for v in self.values if v[1] == a[1] and v[0] != a[0]]
        b = rng.choice(same) if same and rng.random() < 0.5 else self.arg(a[1])
        op = rng.choice(["add", "mul", "sub", "max"])
        return self.emit(f"xla.{op} {a[0]}, {b[0]} : {ttype(a[1])}", a[1])

    def op_unary(self):
        a = self.pick()
        if a is None:
            a = self.arg((self.rng.choice(DIMS),))
        op = self.rng.choice(["tanh", "neg", "abs"])
        return self.emit(f"xla.{op} {a[0]} : {ttype(a[1])}", a[1])

    def op_broadcast(self):
        rng = self.rng
        a = self.pick()
        if a is None or len(a[1]) >= 3:
            a = self.arg((rng.choice(DIMS),))
        rank = len(a[1]) + 1
        new = rng.randrange(rank)
        dims = [d for d in range(rank) if d != new]
        shape = list(a[1])
        shape.insert(new, rng.choice(DIMS))
        return self.emit(
            f"xla.broadcast_in_dim {a[0]}, dims = [{ints(dims)}]"
            f" : ({ttype(a[1])}) -> {ttype(shape)}", shape)

    def op_reshape(self):
        rng = self.rng
        a = self.pick()
        if a is None:
            a = self.arg((rng.choice(DIMS), rng.choice(DIMS)))
        shape = list(a[1])
        if len(shape) >= 2 and (len(shape) == 3 or rng.random() < 0.5):
            i = rng.randrange(len(shape) - 1)  # merge i, i+1
            shape[i:i + 2] = [shape[i] * shape[i + 1]]
        else:
            i = rng.randrange(len(shape))
            d = shape[i]
            splits = [f for f in (2, 3, 4) if d % f == 0 and d > f]
            if not splits:
                return None
            f = rng.choice(splits)
            shape[i:i + 1] = [f, d // f]
        return self.emit(f"xla.reshape {a[0]} : ({ttype(a[1])}) -> "
                         f"{ttype(shape)}", shape)

    def op_transpose(self):
        a = self.pick()
        if a is None or len(a[1]) < 2:
            return None
        perm = list(range(len(a[1])))
        while perm == sorted(perm):
            self.rng.shuffle(perm)
        shape = [a[1][p] for p in perm]
        return self.emit(
            f"xla.transpose {a[0]}, permutation = [{ints(perm)}]"
            f" : ({ttype(a[1])}) -> {ttype(shape)}", shape)

    def op_reduce(self):
        a = self.pick()
        if a is None or len(a[1]) < 2:
            return None
        d = self.rng.randrange(len(a[1]))
        kind = self.rng.choice(["sum", "sum", "max"])
        shape = [s for i, s in enumerate(a[1]) if i != d]
        return self.emit(f"xla.reduce {kind} {a[0]}, dims = [{d}] : "
                         f"({ttype(a[1])}) -> {ttype(shape)}", shape)

    def op_slice(self):
        rng = self.rng
        a = self.pick()
        if a is None:
            return None
        d = rng.randrange(len(a[1]))
        if a[1][d] < 3:
            return None
        start = [0] * len(a[1])
        limit = list(a[1])
        start[d] = rng.randrange(1, a[1][d] // 2 + 1)
        limit[d] = rng.randrange(start[d] + 1, a[1][d] + 1)
        shape = [hi - lo for lo, hi in zip(start, limit)]
        return self.emit(
            f"xla.slice {a[0]}, start = [{ints(start)}], limit = [{ints(limit)}], "
            f"strides = [{ints([1] * len(a[1]))}] : ({ttype(a[1])}) -> "
            f"{ttype(shape)}", shape)

    def op_pad(self):
        rng = self.rng
        a = self.pick()
        if a is None:
            return None
        d = rng.randrange(len(a[1]))
        low = [0] * len(a[1])
        high = [0] * len(a[1])
        low[d] = rng.choice([-1, 0, 1, 2])
        high[d] = rng.choice([-1, 0, 1, 2])
        shape = list(a[1])
        shape[d] += low[d] + high[d]
        if shape[d] < 1:
            return None
        return self.emit(
            f"xla.pad {a[0]}, low = [{ints(low)}], high = [{ints(high)}], "
            f"interior = [{ints([0] * len(a[1]))}], value = 0.0 : "
            f"({ttype(a[1])}) -> {ttype(shape)}", shape)

    def op_concatenate(self):
        rng = self.rng
        a = self.pick()
        if a is None:
            return None
        d = rng.randrange(len(a[1]))
        other = list(a[1])
        other[d] = rng.choice([1, 2, 4, a[1][d]])
        b = self.arg(other)
        shape = list(a[1])
        shape[d] += other[d]
        first, second = (a, b) if rng.random() < 0.5 else (b, a)
        return self.emit(
            f"xla.concatenate {first[0]}, {second[0]}, dim = {d} : "
            f"({ttype(first[1])}, {ttype(second[1])}) -> {ttype(shape)}",
            shape)

    def op_mark(self):
        a = self.pick()
        if a is None:
            return None
        spec = self.spec(a[1])[len("#xla.sharding"):]
        return self.emit(f"xla.mark_sharding {a[0]} {spec} : {ttype(a[1])}",
                         a[1])

    def build(self):
        rng = self.rng
        ops = [(self.op_contract, 6), (self.op_batch_contract, 1),
               (self.op_elementwise, 4), (self.op_unary, 1),
               (self.op_broadcast, 2), (self.op_reshape, 2),
               (self.op_transpose, 2), (self.op_reduce, 2),
               (self.op_slice, 1), (self.op_pad, 1), (self.op_concatenate, 1),
               (self.op_mark, 1)]
        funcs = [f for f, w in ops for _ in range(w)]
        count = rng.randint(1, 4)
        made = 0
        while made < count:
            if rng.choice(funcs)() is not None:
                made += 1
        result = self.values[-1]
        args = ",\n    ".join(f"{n}: {ttype(s)} {{xla.sharding = {sh}}}"
                              for n, s, sh in self.args)
        out = (f"{ttype(result[1])} {{xla.sharding = "
               f"{self.spec(result[1])}}}")
        body = "\n".join(self.lines)
        return (f"func.func @{self.name}(\n    {args})\n    -> ({out}) {{\n"
                f"{body}\n  return {result[0]} : {ttype(result[1])}\n}}\n")


def devices(mesh):
    n = 1
    for _, s in mesh[1]:
        n *= s
    return n


def generate(seed, count, num_devices=None):
    """Yields (mesh text, function text) per program, over meshes of
    `num_devices` devices when given (a module's meshes must all span the
    same devices)."""
    rng = random.Random(seed)
    meshes = [m for m in MESHES if num_devices in (None, devices(m))]
    for i in range(count):
        mesh = meshes[rng.randrange(len(meshes))]
        yield mesh_text(*mesh), Program(rng, i, mesh).build()


def module_text(programs, header):
    meshes = []
    for mesh, _ in programs:
        if mesh not in meshes:
            meshes.append(mesh)
    return (header + "\n".join(meshes) + "\n\n" +
            "\n".join(f for _, f in programs))


SUMMARY = re.compile(r"^@\S+: \d+ collectives?, sends (\d+) B per device"
                     r"(?: \(ici (\d+) B, dcn or mixed (\d+) B\))?")


def measure(args, programs):
    """Partitions each program alone (--xla-spmd-pipeline, after
    --xla-propagate-sharding=OPTIONS when given) and sums the bytes per
    device its collectives send, and those bytes weighted (DCN times
    --dcn-weight)."""
    total = weighted = 0
    with tempfile.TemporaryDirectory() as tmp:
        for i, (mesh, func) in enumerate(programs):
            path = os.path.join(tmp, f"p{i}.mlir")
            with open(path, "w") as f:
                f.write(module_text([(mesh, func)], ""))
            cmd = [args.xla_opt, path]
            if args.propagate is not None:
                cmd.append(f"--xla-propagate-sharding={args.propagate}")
            cmd += ["--xla-spmd-pipeline=lower=false",
                    "--xla-report-collectives", "-o", "/dev/null"]
            run = subprocess.run(cmd, capture_output=True, text=True)
            if run.returncode != 0:
                print(f"p{i}: xla-opt failed:\n{run.stderr}")
                continue
            plain = w = 0
            for line in run.stdout.splitlines():
                m = SUMMARY.match(line)
                if not m:
                    continue
                plain += int(m.group(1))
                if m.group(2) is None:
                    w += int(m.group(1))
                else:
                    w += int(m.group(2)) + args.dcn_weight * int(m.group(3))
            if args.verbose:
                print(f"p{i}: {plain} B per device, weighted {w}")
            total += plain
            weighted += w
    print(f"{len(programs)} programs: {total} B per device, weighted {weighted}")


def main():
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--count", type=int, default=50)
    parser.add_argument("--devices", type=int, choices=[4, 8],
                        help="only meshes of this many devices (required "
                        "for one module: its meshes span the same devices)")
    parser.add_argument("-o", "--output", default="-")
    parser.add_argument("--split", metavar="DIR",
                        help="one file per program in DIR")
    parser.add_argument("--measure", action="store_true")
    parser.add_argument("--xla-opt", default="xla-opt")
    parser.add_argument("--dcn-weight", type=int, default=16)
    parser.add_argument("--verbose", action="store_true")
    parser.add_argument("--propagate", metavar="OPTIONS",
                        help="--measure: run --xla-propagate-sharding="
                        "OPTIONS first (e.g. 'tie-tolerance=0.2')")
    args = parser.parse_args()
    programs = list(generate(args.seed, args.count, args.devices))
    if not args.split and not args.measure and args.devices is None:
        parser.error("one module needs --devices 4 or 8 (or use --split)")
    if args.measure:
        measure(args, programs)
        return 0
    header = (f"// Generated by utils/random-programs.py --seed {args.seed} "
              f"--count {args.count}"
              + (f" --devices {args.devices}" if args.devices else "")
              + "\n\n")
    if args.split:
        os.makedirs(args.split, exist_ok=True)
        for i, program in enumerate(programs):
            with open(os.path.join(args.split, f"p{i}.mlir"), "w") as f:
                f.write(module_text([program], header))
        return 0
    text = module_text(programs, header)
    if args.output == "-":
        sys.stdout.write(text)
    else:
        with open(args.output, "w") as f:
            f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
