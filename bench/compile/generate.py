#!/usr/bin/env python3
"""N-layer training steps as `xla` modules and as upstream `shard` modules.

A model is a stack of blocks; every block is written out forward and
backward (the gradients by hand, as an autodiff would emit them), followed
by an SGD update of its parameters. `mlp` blocks are a residual MLP
(`x + tanh(x W1 + b1) W2`); `transformer` blocks put a single-layer
multi-head self-attention (softmax written out) in front of that MLP.

Every op is built once in a small graph language and printed twice:

* `xla`: the xspmd dialect (`xla.einsum`, `xla.add`, `xla.reduce`, ...),
  with `xla.sharding` on the arguments and results;
* `shard`: MLIR's upstream dialects - `linalg.generic` contractions,
  named elementwise ops (`linalg.add`, `linalg.tanh`, ...),
  `linalg.broadcast`, `linalg.reduce`, `arith.constant` - with one
  `shard.grid`, `shard.sharding` ops and `shard.shard ... annotate_for_users`
  on the arguments and `shard.shard` on the returned values.

The two modules compute the same function; the upstream one also has the
`tensor.empty`/`linalg.fill` destinations that linalg needs.

Strategies (annotations on inputs and parameters only; everything else
is left to propagation):

  dp        mesh data=8; activations split on the batch, parameters replicated
  fsdp      mesh fsdp=8; batch split, every parameter split on its dim 0
  megatron  mesh model=8; attention heads and the MLP's hidden dim split
            (column-parallel Wq/Wk/Wv/W1, row-parallel Wo/W2)
  2d        mesh data=2 x model=4; dp on data, megatron on model

    generate.py --model transformer --strategy 2d --ops 10000 \\
        --xla t.xla.mlir --shard t.shard.mlir
"""

import argparse
import sys

B, S, D, H, E, F = 8, 16, 64, 8, 8, 128

MESHES = {
    "dp": (["data"], [8]),
    "fsdp": (["fsdp"], [8]),
    "megatron": (["model"], [8]),
    "2d": (["data", "model"], [2, 4]),
}


def ttype(shape):
    return "tensor<" + "x".join(str(d) for d in shape) + "xf32>"


class Value:
    def __init__(self, name, shape):
        self.name = name
        self.shape = tuple(shape)

    @property
    def type(self):
        return ttype(self.shape)


class Graph:
    """Ops recorded once, printed in both dialects."""

    def __init__(self, strategy):
        self.strategy = strategy
        self.args = []  # (Value, spec)
        self.ops = []  # (kind, result, operands, attrs)
        self.results = []  # (Value, spec)
        self.count = 0
        self.constants = {}

    def new(self, shape):
        self.count += 1
        return Value(f"%v{self.count}", shape)

    def arg(self, shape, spec):
        """spec: per dim, None or a mesh axis name."""
        v = Value(f"%arg{len(self.args)}", shape)
        self.args.append((v, spec))
        return v

    def op(self, opkind, shape, operands, **attrs):
        r = self.new(shape)
        self.ops.append((opkind, r, operands, attrs))
        return r

    # Building blocks --------------------------------------------------
    def einsum(self, eq, a, b):
        ins, out = eq.split("->")
        la, lb = ins.split(",")
        size = dict(zip(la, a.shape))
        size.update(zip(lb, b.shape))
        return self.op("einsum", [size[c] for c in out], [a, b], eq=eq)

    def add(self, a, b):
        return self.op("add", a.shape, [a, b])

    def sub(self, a, b):
        return self.op("sub", a.shape, [a, b])

    def mul(self, a, b):
        return self.op("mul", a.shape, [a, b])

    def div(self, a, b):
        return self.op("div", a.shape, [a, b])

    def tanh(self, a):
        return self.op("tanh", a.shape, [a])

    def exp(self, a):
        return self.op("exp", a.shape, [a])

    def broadcast(self, a, shape, dims):
        """dims: result dims that a's dims map to (xla broadcast_in_dim)."""
        return self.op("broadcast", shape, [a], dims=dims)

    def reduce(self, kind, a, dims):
        shape = [d for i, d in enumerate(a.shape) if i not in dims]
        return self.op("reduce", shape, [a], kind=kind, dims=dims)

    def constant(self, value, shape):
        key = (value, tuple(shape))
        if key not in self.constants:
            self.constants[key] = self.op("constant", shape, [], value=value)
        return self.constants[key]

    def sgd(self, w, dw, spec):
        lr = self.constant(0.01, w.shape)
        new = self.sub(w, self.mul(dw, lr))
        self.results.append((new, spec))

    # Blocks -------------------------------------------------------------
    def specs(self):
        s = self.strategy
        batch = {"dp": "data", "fsdp": "fsdp", "2d": "data"}.get(s)
        model = "model" if s in ("megatron", "2d") else None
        fsdp = "fsdp" if s == "fsdp" else None
        return batch, model, fsdp

    def act_spec(self):
        batch, _, _ = self.specs()
        return [batch, None, None]

    def mlp_forward(self, x):
        _, model, fsdp = self.specs()
        w1 = self.arg([D, F], [fsdp, model])
        b1 = self.arg([F], [fsdp or model])
        w2 = self.arg([F, D], [fsdp or model, None])
        h = self.einsum("bsd,df->bsf", x, w1)
        hb = self.add(h, self.broadcast(b1, [B, S, F], [2]))
        g = self.tanh(hb)
        y = self.einsum("bsf,fd->bsd", g, w2)
        out = self.add(x, y)
        return out, dict(x=x, w1=w1, b1=b1, w2=w2, g=g)

    def mlp_backward(self, dout, saved):
        _, model, fsdp = self.specs()
        x, w1, b1, w2, g = (saved[k] for k in ("x", "w1", "b1", "w2", "g"))
        dw2 = self.einsum("bsf,bsd->fd", g, dout)
        dg = self.einsum("bsd,fd->bsf", dout, w2)
        one = self.constant(1.0, g.shape)
        dhb = self.mul(dg, self.sub(one, self.mul(g, g)))
        db1 = self.reduce("sum", dhb, [0, 1])
        dw1 = self.einsum("bsd,bsf->df", x, dhb)
        dx = self.add(self.einsum("bsf,df->bsd", dhb, w1), dout)
        self.sgd(w1, dw1, [fsdp, model])
        self.sgd(b1, db1, [fsdp or model])
        self.sgd(w2, dw2, [fsdp or model, None])
        return dx

    def attention_forward(self, x):
        _, model, fsdp = self.specs()
        wq, wk, wv = (self.arg([D, H, E], [fsdp, model, None])
                      for _ in range(3))
        wo = self.arg([H, E, D], [fsdp or model, None, None])
        q = self.einsum("bsd,dhe->bshe", x, wq)
        k = self.einsum("bsd,dhe->bshe", x, wk)
        v = self.einsum("bsd,dhe->bshe", x, wv)
        s0 = self.einsum("bshe,bthe->bhst", q, k)
        scale = self.constant(E**-0.5, [B, H, S, S])
        s = self.mul(s0, scale)
        m = self.reduce("max", s, [3])
        ex = self.exp(self.sub(s, self.broadcast(m, [B, H, S, S], [0, 1, 2])))
        z = self.reduce("sum", ex, [3])
        p = self.div(ex, self.broadcast(z, [B, H, S, S], [0, 1, 2]))
        o = self.einsum("bhst,bthe->bshe", p, v)
        a = self.einsum("bshe,hed->bsd", o, wo)
        out = self.add(x, a)
        return out, dict(x=x, wq=wq, wk=wk, wv=wv, wo=wo, q=q, k=k, v=v, p=p,
                         o=o, scale=scale)

    def attention_backward(self, dout, sv):
        _, model, fsdp = self.specs()
        dwo = self.einsum("bshe,bsd->hed", sv["o"], dout)
        do = self.einsum("bsd,hed->bshe", dout, sv["wo"])
        dp = self.einsum("bshe,bthe->bhst", do, sv["v"])
        dv = self.einsum("bhst,bshe->bthe", sv["p"], do)
        pd = self.mul(sv["p"], dp)
        r = self.reduce("sum", pd, [3])
        ds = self.sub(pd, self.mul(sv["p"], self.broadcast(
            r, [B, H, S, S], [0, 1, 2])))
        ds = self.mul(ds, sv["scale"])
        dq = self.einsum("bhst,bthe->bshe", ds, sv["k"])
        dk = self.einsum("bhst,bshe->bthe", ds, sv["q"])
        dx = dout
        for w, dproj in (("wq", dq), ("wk", dk), ("wv", dv)):
            dw = self.einsum("bsd,bshe->dhe", sv["x"], dproj)
            dx = self.add(dx, self.einsum("bshe,dhe->bsd", dproj, sv[w]))
            self.sgd(sv[w], dw, [fsdp, model, None])
        self.sgd(sv["wo"], dwo, [fsdp or model, None, None])
        return dx

    def build(self, model, target_ops):
        x = self.arg([B, S, D], self.act_spec())
        target = self.arg([B, S, D], self.act_spec())
        saved = []
        blocks = 0
        while True:
            if model == "transformer":
                x, sa = self.attention_forward(x)
                saved.append(("attention", sa))
            x, sm = self.mlp_forward(x)
            saved.append(("mlp", sm))
            blocks += 1
            # Each block's backward and update is about twice its forward.
            if len(self.ops) * 3 >= target_ops:
                break
        dout = self.sub(x, target)
        for kind, sv in reversed(saved):
            if kind == "mlp":
                dout = self.mlp_backward(dout, sv)
            else:
                dout = self.attention_backward(dout, sv)
        self.results.insert(0, (dout, self.act_spec()))
        return blocks


# ---- printing: xla ----------------------------------------------------


def xla_sharding(spec):
    return "#xla.sharding<@mesh, [" + ", ".join(
        "{}" if a is None else f'{{"{a}"}}' for a in spec) + "]>"


def print_xla(g):
    names, sizes = MESHES[g.strategy]
    out = ["xla.mesh @mesh = <[" + ", ".join(
        f'"{n}"={s}' for n, s in zip(names, sizes)) + "]>"]
    args = ", ".join(f"{v.name}: {v.type} {{xla.sharding = "
                     f"{xla_sharding(s)}}}" for v, s in g.args)
    res = ", ".join(f"{v.type} {{xla.sharding = {xla_sharding(s)}}}"
                    for v, s in g.results)
    out.append(f"func.func @main({args}) -> ({res}) {{")
    for kind, r, ops, at in g.ops:
        o = [v.name for v in ops]
        if kind == "einsum":
            line = (f'{r.name} = xla.einsum "{at["eq"]}" {o[0]}, {o[1]} : '
                    f"({ops[0].type}, {ops[1].type}) -> {r.type}")
        elif kind in ("add", "sub", "mul", "div"):
            line = f"{r.name} = xla.{kind} {o[0]}, {o[1]} : {r.type}"
        elif kind in ("tanh", "exp"):
            line = f"{r.name} = xla.{kind} {o[0]} : {r.type}"
        elif kind == "broadcast":
            line = (f"{r.name} = xla.broadcast_in_dim {o[0]}, dims = "
                    f"[{', '.join(map(str, at['dims']))}] : "
                    f"({ops[0].type}) -> {r.type}")
        elif kind == "reduce":
            line = (f"{r.name} = xla.reduce {at['kind']} {o[0]}, dims = "
                    f"[{', '.join(map(str, at['dims']))}] : "
                    f"({ops[0].type}) -> {r.type}")
        elif kind == "constant":
            line = f"{r.name} = xla.constant dense<{at['value']!r}> : {r.type}"
        else:
            raise ValueError(kind)
        out.append("  " + line)
    out.append("  return " + ", ".join(v.name for v, _ in g.results) +
               " : " + ", ".join(v.type for v, _ in g.results))
    out.append("}")
    return "\n".join(out) + "\n"


# ---- printing: upstream shard + linalg -----------------------------------


def affine(letters, dims):
    return ("affine_map<(" + ", ".join(letters) + ") -> (" +
            ", ".join(dims) + ")>")


def print_shard(g):
    names, sizes = MESHES[g.strategy]
    out = ["shard.grid @grid(shape = " + "x".join(map(str, sizes)) + ")"]
    args = ", ".join(f"{v.name}: {v.type}" for v, _ in g.args)
    res = ", ".join(v.type for v, _ in g.results)
    out.append(f"func.func @main({args}) -> ({res}) {{")
    body = []
    shardings = {}
    counter = [0]

    def tmp(prefix):
        counter[0] += 1
        return f"%{prefix}{counter[0]}"

    def sharding(spec):
        axes = tuple(tuple([names.index(a)] if a else []) for a in spec)
        if axes not in shardings:
            name = f"%sharding{len(shardings)}"
            text = ", ".join("[" + ", ".join(map(str, a)) + "]" for a in axes)
            body.append(f"{name} = shard.sharding @grid split_axes = "
                        f"[{text}] : !shard.sharding")
            shardings[axes] = name
        return shardings[axes]

    aliases = {}

    def alias(text):
        # Affine maps are printed once at the top, as mlir-opt prints them.
        if text not in aliases:
            aliases[text] = f"#map{len(aliases)}"
        return aliases[text]

    rename = {}
    for v, spec in g.args:
        s = sharding(spec)
        n = tmp("in")
        body.append(f"{n} = shard.shard {v.name} to {s} annotate_for_users :"
                    f" {v.type}")
        rename[v.name] = n

    def nm(v):
        return rename.get(v.name, v.name)

    zero = "%zero"
    body.append(f"{zero} = arith.constant 0.0 : f32")

    def init(shape, fill):
        e = tmp("empty")
        body.append(f"{e} = tensor.empty() : {ttype(shape)}")
        if not fill:
            return e
        z = tmp("init")
        body.append(f"{z} = linalg.fill ins({zero} : f32) outs({e} : "
                    f"{ttype(shape)}) -> {ttype(shape)}")
        return z

    named = {"add": "add", "sub": "sub", "mul": "mul", "div": "div",
             "tanh": "tanh", "exp": "exp"}
    for kind, r, ops, at in g.ops:
        o = [nm(v) for v in ops]
        t = r.type
        if kind == "einsum":
            ins, res_letters = at["eq"].split("->")
            la, lb = ins.split(",")
            loops = list(res_letters) + sorted(set(la + lb) - set(res_letters))
            maps = ", ".join(alias(affine(loops, d))
                             for d in (la, lb, res_letters))
            iters = ", ".join('"parallel"' if c in res_letters else
                              '"reduction"' for c in loops)
            acc = init(r.shape, True)
            body.append(
                f"{r.name} = linalg.generic {{indexing_maps = [{maps}], "
                f"iterator_types = [{iters}]}} ins({o[0]}, {o[1]} : "
                f"{ops[0].type}, {ops[1].type}) outs({acc} : {t}) {{\n"
                "  ^bb0(%a: f32, %b: f32, %c: f32):\n"
                "    %p = arith.mulf %a, %b : f32\n"
                "    %s = arith.addf %c, %p : f32\n"
                "    linalg.yield %s : f32\n"
                f"  }} -> {t}")
        elif kind in named:
            e = init(r.shape, False)
            types = ", ".join(v.type for v in ops)
            body.append(f"{r.name} = linalg.{named[kind]} ins({', '.join(o)} :"
                        f" {types}) outs({e} : {t}) -> {t}")
        elif kind == "broadcast":
            e = init(r.shape, False)
            added = [d for d in range(len(r.shape)) if d not in at["dims"]]
            body.append(f"{r.name} = linalg.broadcast ins({o[0]} : "
                        f"{ops[0].type}) outs({e} : {t}) dimensions = "
                        f"[{', '.join(map(str, added))}]")
        elif kind == "reduce":
            if at["kind"] == "sum":
                acc, comb = init(r.shape, True), "arith.addf"
            else:
                e = init(r.shape, False)
                acc = tmp("init")
                body.append(f"%ninf{counter[0]} = arith.constant "
                            "-3.40282347e+38 : f32")
                body.append(f"{acc} = linalg.fill ins(%ninf{counter[0]} : "
                            f"f32) outs({e} : {t}) -> {t}")
                comb = "arith.maximumf"
            body.append(
                f"{r.name} = linalg.reduce ins({o[0]} : {ops[0].type}) "
                f"outs({acc} : {t}) dimensions = "
                f"[{', '.join(map(str, at['dims']))}]\n"
                "  (%in: f32, %acc: f32) {\n"
                f"    %r = {comb} %in, %acc : f32\n"
                "    linalg.yield %r : f32\n"
                "  }")
        elif kind == "constant":
            body.append(f"{r.name} = arith.constant dense<{at['value']!r}> : "
                        f"{t}")
        else:
            raise ValueError(kind)
    results = []
    for v, spec in g.results:
        s = sharding(spec)
        n = tmp("out")
        body.append(f"{n} = shard.shard {nm(v)} to {s} : {v.type}")
        results.append(n)
    body.append("return " + ", ".join(results) + " : " +
                ", ".join(v.type for v, _ in g.results))
    for line in body:
        out.append("  " + line.replace("\n", "\n  "))
    out.append("}")
    maps = [f"{name} = {text}" for text, name in aliases.items()]
    return "\n".join(maps + out) + "\n"


def generate(model, strategy, target_ops):
    g = Graph(strategy)
    blocks = g.build(model, target_ops)
    return g, blocks


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", choices=["mlp", "transformer"],
                        default="mlp")
    parser.add_argument("--strategy", choices=sorted(MESHES), default="dp")
    parser.add_argument("--ops", type=int, default=1000,
                        help="approximate number of model ops (whole blocks)")
    parser.add_argument("--xla", help="write the xla module here")
    parser.add_argument("--shard", help="write the upstream module here")
    args = parser.parse_args()
    g, blocks = generate(args.model, args.strategy, args.ops)
    for path, text in ((args.xla, print_xla), (args.shard, print_shard)):
        if path:
            with open(path, "w") as f:
                f.write(text(g))
    if not args.xla and not args.shard:
        sys.stdout.write(print_xla(g))
    print(f"{blocks} blocks, {len(g.ops)} ops", file=sys.stderr)


if __name__ == "__main__":
    main()
