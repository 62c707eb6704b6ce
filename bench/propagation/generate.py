#!/usr/bin/env python3
"""Generates N-layer MLP or transformer modules for the propagation benchmark.

Each layer has its own weights (function arguments); the input and the
weights are annotated for one strategy, every other value is left for
`xla-opt --xla-propagate-sharding` to fill in.

    generate.py --model transformer --strategy 2d --ops 10000 -o t.mlir

Strategies: dp (batch on "data"), fsdp (batch and weights on "fsdp"),
megatron (weights column/row-sharded on "model"), 2d (data x model on a
hybrid mesh: data across slices, model inside).
"""

import argparse
import sys

MESHES = {
    "dp": 'xla.mesh @mesh = <["data"=8]>',
    "fsdp": 'xla.mesh @mesh = <["fsdp"=8]>',
    "megatron": 'xla.mesh @mesh = <["model"=8]>',
    "2d": 'xla.mesh @mesh = hybrid<ici=["data"=1, "model"=4], '
          'dcn=["data"=2, "model"=1]>',
}

# Partition specs per strategy: input [B, S, D], column weight [D, F],
# row weight [F, D]. None = unannotated.
SPECS = {
    "dp": ('[{"data"}, {}, {}]', None, None),
    "fsdp": ('[{"fsdp"}, {}, {}]', '[{"fsdp"}, {}]', '[{"fsdp"}, {}]'),
    "megatron": (None, '[{}, {"model"}]', '[{"model"}, {}]'),
    "2d": ('[{"data"}, {}, {}]', '[{}, {"model"}]', '[{"model"}, {}]'),
}

B, S, D, H = 8, 128, 512, 8
F = 4 * D
DH = D // H


def tensor(*shape):
    return "tensor<" + "x".join(str(s) for s in shape) + "xf32>"


class Module:
    def __init__(self, strategy):
        self.strategy = strategy
        self.args = []
        self.body = []
        self.next = 0
        self.ops = 0

    def arg(self, ty, spec):
        name = f"%a{len(self.args)}"
        attr = (f" {{xla.sharding = #xla.sharding<@mesh, {spec}>}}"
                if spec else "")
        self.args.append(f"{name}: {ty}{attr}")
        return name

    def op(self, text, result_type):
        name = f"%v{self.next}"
        self.next += 1
        self.ops += 1
        self.body.append(f"  {name} = {text} : {result_type}")
        return name

    def matmul(self, x, w, xt, wt, rt):
        return self.op(f"xla.matmul {x}, {w}", f"({xt}, {wt}) -> {rt}")

    def mlp(self, x):
        _, col, row = SPECS[self.strategy]
        act, hid = tensor(B, S, D), tensor(B, S, F)
        w1 = self.arg(tensor(D, F), col)
        w2 = self.arg(tensor(F, D), row)
        h = self.matmul(x, w1, act, tensor(D, F), hid)
        g = self.op(f"xla.gelu {h}", hid)
        o = self.matmul(g, w2, hid, tensor(F, D), act)
        return self.op(f"xla.add {x}, {o}", act)

    def attention(self, x):
        _, col, row = SPECS[self.strategy]
        act = tensor(B, S, D)
        heads = tensor(B, S, H, DH)
        qkv = []
        for _ in range(3):
            w = self.arg(tensor(D, D), col)
            p = self.matmul(x, w, act, tensor(D, D), act)
            qkv.append(self.op(f"xla.reshape {p}", f"({act}) -> {heads}"))
        q, k, v = qkv
        scores = tensor(B, H, S, S)
        s = self.op(f'xla.einsum "bshd,bthd->bhst" {q}, {k}',
                    f"({heads}, {heads}) -> {scores}")
        p = self.op(f"xla.softmax {s}, dim = 3", scores)
        c = self.op(f'xla.einsum "bhst,bthd->bshd" {p}, {v}',
                    f"({scores}, {heads}) -> {heads}")
        c3 = self.op(f"xla.reshape {c}", f"({heads}) -> {act}")
        wo = self.arg(tensor(D, D), row)
        a = self.matmul(c3, wo, act, tensor(D, D), act)
        return self.op(f"xla.add {x}, {a}", act)

    def text(self, result):
        lines = [MESHES[self.strategy]]
        lines.append("func.func @main(" + ", ".join(self.args) +
                     f") -> {tensor(B, S, D)} {{")
        lines += self.body
        lines.append(f"  return {result} : {tensor(B, S, D)}")
        lines.append("}")
        return "\n".join(lines) + "\n"


def generate(model, strategy, target_ops):
    m = Module(strategy)
    x = m.arg(tensor(B, S, D), SPECS[strategy][0])
    while m.ops < target_ops:
        if model == "transformer":
            x = m.attention(x)
        x = m.mlp(x)
    return m.text(x), m.ops


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", choices=["mlp", "transformer"],
                        default="transformer")
    parser.add_argument("--strategy", choices=sorted(SPECS), default="2d")
    parser.add_argument("--ops", type=int, default=1000,
                        help="approximate number of ops (rounded up to "
                             "whole layers)")
    parser.add_argument("-o", "--output", default="-")
    args = parser.parse_args()
    text, ops = generate(args.model, args.strategy, args.ops)
    out = sys.stdout if args.output == "-" else open(args.output, "w")
    out.write(text)
    if out is not sys.stdout:
        out.close()
    print(f"{ops} ops", file=sys.stderr)


if __name__ == "__main__":
    main()
