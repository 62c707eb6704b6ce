#!/usr/bin/env python3
"""Writes an annotated single-device xla module: one training step (forward,
backward and SGD update) of a stack of transformer blocks.

Each block is pre-residual multi-head self-attention followed by an MLP:

    a  = softmax(q k^T / sqrt(dh)) v  with q, k, v = x wq, x wk, x wv (heads)
    x1 = x + a wo
    y  = x1 + gelu(x1 w1) w2

The backward pass is written out op by op (the dialect has no autodiff):
given dy, it computes every weight's gradient and dx (the next block's dy
going down the stack); the step returns the updated weights w - lr dw
(donated: each weight argument aliases its result) and dx. Norms and
biases are left out: they are elementwise work the timeline would show but
that changes little.

Shardings follow MaxText's FSDP x tensor parallelism (Megatron on "tensor",
ZeRO-3 on "fsdp"), over a mesh of axes data x fsdp x tensor, hybrid when
--dcn-data > 1 (data parallel across slices):

    x, dy           [batch: (data, fsdp), seq, d]
    wq, wk, wv, w1  [d: fsdp, out: tensor]          (column parallel)
    wo, w2          [in: tensor, d: fsdp]           (row parallel)

The partitioner derives the collectives: all-gathers of the weights over
fsdp, all-reduces over tensor after row-parallel matmuls, reduce-scatters
(or all-reduces) of the gradients.

Usage: gen_transformer.py --layers 2 --fsdp 4 --tensor 2 --batch 8 ... > m.mlir
"""

import argparse
import math
import sys


class Emitter:
    def __init__(self, dtype):
        self.dtype = dtype
        self.lines = []
        self.n = 0
        self.types = {}
        # Activation layouts for mark_sharding (None: no constraints).
        self.specs = None

    def t(self, shape, dtype=None):
        return "tensor<" + "".join(f"{d}x" for d in shape) + (dtype or self.dtype) + ">"

    def fresh(self, hint):
        self.n += 1
        return f"%{hint}{self.n}"

    def op(self, hint, text):
        name = self.fresh(hint)
        self.lines.append(f"  {name} = {text}")
        # Every op's result type ends its line.
        self.types[name] = text[text.rindex("tensor<"):]
        return name

    def wrap(self, start, name, used_after):
        """Wraps lines[start:] in `xla.trace name`, yielding the values it
        defines that `used_after` (a set of names) needs."""
        body = self.lines[start:]
        defined = [l.split(" = ", 1)[0].strip() for l in body if " = " in l]
        out = [d for d in defined if d in used_after]
        results = [self.fresh("t") for _ in out]
        head = f'  {", ".join(results)} = ' if out else "  "
        wrapped = [f'{head}xla.trace "{name}" {{']
        wrapped += ["  " + l for l in body]
        types = [self.types[d] for d in out]
        wrapped.append(f'    xla.yield {", ".join(out)} : {", ".join(types)}' if out else "    xla.yield")
        wrapped.append(f'  }} : {", ".join(types)}' if out else "  }")
        self.lines[start:] = wrapped
        renames = dict(zip(out, results))
        for r, d in zip(results, out):
            self.types[r] = self.types[d]
        return renames

    # --- ops -------------------------------------------------------------
    def einsum(self, eq, a, sa, b, sb, sr, hint="e"):
        return self.op(hint, f'xla.einsum "{eq}" {a}, {b} : ({self.t(sa)}, {self.t(sb)}) -> {self.t(sr)}')

    def binary(self, kind, a, b, shape, hint="v"):
        return self.op(hint, f"xla.{kind} {a}, {b} : {self.t(shape)}")

    def unary(self, kind, a, shape, hint="u"):
        return self.op(hint, f"xla.{kind} {a} : {self.t(shape)}")

    def reshape(self, a, sa, sr, hint="r"):
        return self.op(hint, f"xla.reshape {a} : ({self.t(sa)}) -> {self.t(sr)}")

    def softmax(self, a, shape, dim):
        return self.op("p", f"xla.softmax {a}, dim = {dim} : {self.t(shape)}")

    def reduce_sum(self, a, sa, dims, sr):
        return self.op("s", f"xla.reduce sum {a}, dims = {dims} : ({self.t(sa)}) -> {self.t(sr)}")

    def broadcast(self, a, sa, dims, sr):
        return self.op("b", f"xla.broadcast_in_dim {a}, dims = {dims} : ({self.t(sa)}) -> {self.t(sr)}")

    def mark(self, value, shape, spec):
        """xla.mark_sharding with `spec` (a list of dimension entries), or
        `value` itself when constraints are off."""
        if self.specs is None:
            return value
        entries = ", ".join(self.specs[spec])
        return self.op("ms", f"xla.mark_sharding {value} <@mesh, [{entries}]> : {self.t(shape)}")

    def splat(self, value, shape):
        """A scalar constant broadcast to `shape` (as torch_xla records
        scalars): the broadcast is partitioned like any op, so every device
        builds only its block."""
        c = self.op("c", f"xla.constant dense<{value}> : {self.t([])}")
        return self.op("c", f"xla.broadcast_in_dim {c}, dims = [] : ({self.t([])}) -> {self.t(shape)}")


def gelu_grad(e, x, shape):
    """d gelu / dx with the sigmoid approximation gelu(x) ~ x s(1.702 x):
    s + 1.702 x s (1 - s)."""
    k = e.splat("1.702", shape)
    kx = e.binary("mul", k, x, shape)
    s = e.unary("sigmoid", kx, shape)
    one = e.splat("1.0", shape)
    oms = e.binary("sub", one, s, shape)
    t = e.binary("mul", kx, s, shape)
    t = e.binary("mul", t, oms, shape)
    return e.binary("add", s, t, shape)


def block(e, a, x, w, trace_unused):
    """Forward of one block; returns (y, saved activations)."""
    B, S, D, H, Dh, F = a.batch, a.seq, a.d_model, a.heads, a.d_model // a.heads, a.ffn
    xs, hs = [B, S, D], [B, S, H, Dh]
    ps = [B, H, S, S]
    sv = {}
    q = e.mark(e.einsum("bsd,de->bse", x, xs, w["wq"], [D, D], xs, "q"), xs, "proj")
    k = e.mark(e.einsum("bsd,de->bse", x, xs, w["wk"], [D, D], xs, "k"), xs, "proj")
    v = e.mark(e.einsum("bsd,de->bse", x, xs, w["wv"], [D, D], xs, "v"), xs, "proj")
    q4, k4, v4 = (e.mark(e.reshape(t, xs, hs), hs, "heads") for t in (q, k, v))
    s = e.mark(e.einsum("bqhd,bkhd->bhqk", q4, hs, k4, hs, ps, "sc"), ps, "scores")
    s = e.binary("mul", s, e.splat(f"{1.0 / math.sqrt(Dh):.6e}", ps), ps)
    p = e.mark(e.softmax(s, ps, 3), ps, "scores")
    c4 = e.mark(e.einsum("bhqk,bkhd->bqhd", p, ps, v4, hs, hs, "ctx"), hs, "heads")
    c = e.mark(e.reshape(c4, hs, xs), xs, "proj")
    o = e.mark(e.einsum("bsd,de->bse", c, xs, w["wo"], [D, D], xs, "o"), xs, "act")
    x1 = e.binary("add", x, o, xs, "x")
    h0 = e.mark(e.einsum("bsd,df->bsf", x1, xs, w["w1"], [D, F], [B, S, F], "h"), [B, S, F], "hidden")
    h = e.unary("gelu", h0, [B, S, F])
    m = e.mark(e.einsum("bsf,fd->bsd", h, [B, S, F], w["w2"], [F, D], xs, "m"), xs, "act")
    y = e.binary("add", x1, m, xs, "y")
    sv.update(x=x, q4=q4, k4=k4, v4=v4, p=p, c=c, x1=x1, h0=h0, h=h)
    return y, sv


def block_backward(e, a, dy, w, sv):
    """Gradients of one block: returns (dx, {weight: gradient})."""
    B, S, D, H, Dh, F = a.batch, a.seq, a.d_model, a.heads, a.d_model // a.heads, a.ffn
    xs, hs, fs = [B, S, D], [B, S, H, Dh], [B, S, F]
    ps = [B, H, S, S]
    g = {}
    # MLP.
    g["w2"] = e.mark(e.einsum("bsf,bsd->fd", sv["h"], fs, dy, xs, [F, D], "dw"), [F, D], "row")
    dh = e.mark(e.einsum("bsd,fd->bsf", dy, xs, w["w2"], [F, D], fs, "dh"), fs, "hidden")
    dh0 = e.binary("mul", dh, gelu_grad(e, sv["h0"], fs), fs, "dh")
    g["w1"] = e.mark(e.einsum("bsd,bsf->df", sv["x1"], xs, dh0, fs, [D, F], "dw"), [D, F], "col")
    dx1m = e.mark(e.einsum("bsf,df->bsd", dh0, fs, w["w1"], [D, F], xs, "dx"), xs, "act")
    dx1 = e.binary("add", dy, dx1m, xs, "dx")
    # Attention output projection.
    g["wo"] = e.mark(e.einsum("bsd,bse->de", sv["c"], xs, dx1, xs, [D, D], "dw"), [D, D], "row")
    dc = e.mark(e.einsum("bse,de->bsd", dx1, xs, w["wo"], [D, D], xs, "dc"), xs, "proj")
    dc4 = e.mark(e.reshape(dc, xs, hs), hs, "heads")
    dp = e.mark(e.einsum("bqhd,bkhd->bhqk", dc4, hs, sv["v4"], hs, ps, "dp"), ps, "scores")
    dv4 = e.mark(e.einsum("bhqk,bqhd->bkhd", sv["p"], ps, dc4, hs, hs, "dv"), hs, "heads")
    # Softmax backward: ds = p (dp - sum_k dp p).
    pdp = e.binary("mul", sv["p"], dp, ps)
    r = e.reduce_sum(pdp, ps, "[3]", [B, H, S])
    rb = e.broadcast(r, [B, H, S], "[0, 1, 2]", ps)
    ds = e.binary("sub", dp, rb, ps)
    ds = e.binary("mul", sv["p"], ds, ps)
    ds = e.binary("mul", ds, e.splat(f"{1.0 / math.sqrt(Dh):.6e}", ps), ps, "ds")
    dq4 = e.mark(e.einsum("bhqk,bkhd->bqhd", ds, ps, sv["k4"], hs, hs, "dq"), hs, "heads")
    dk4 = e.mark(e.einsum("bhqk,bqhd->bkhd", ds, ps, sv["q4"], hs, hs, "dk"), hs, "heads")
    dq, dk, dv = (e.mark(e.reshape(t, hs, xs), xs, "proj") for t in (dq4, dk4, dv4))
    dx = dx1
    for name, d in (("wq", dq), ("wk", dk), ("wv", dv)):
        g[name] = e.mark(e.einsum("bsd,bse->de", sv["x"], xs, d, xs, [D, D], "dw"), [D, D], "col")
        back = e.mark(e.einsum("bse,de->bsd", d, xs, w[name], [D, D], xs, "dx"), xs, "act")
        dx = e.binary("add", dx, back, xs, "dx")
    return dx, g


WEIGHTS = ("wq", "wk", "wv", "wo", "w1", "w2")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--layers", type=int, default=1)
    ap.add_argument("--batch", type=int, default=8, help="global batch (sequences)")
    ap.add_argument("--seq", type=int, default=128)
    ap.add_argument("--d-model", type=int, default=256)
    ap.add_argument("--heads", type=int, default=4)
    ap.add_argument("--ffn", type=int, default=1024)
    ap.add_argument("--dtype", default="bf16")
    ap.add_argument("--data", type=int, default=1, help="ICI data-parallel axis")
    ap.add_argument("--dcn-data", type=int, default=1, help="slices (data parallel over DCN)")
    ap.add_argument("--fsdp", type=int, default=1)
    ap.add_argument("--tensor", type=int, default=1)
    ap.add_argument("--trace", action="store_true", help="wrap phases in xla.trace")
    ap.add_argument("--no-constraints", action="store_true",
                    help="no mark_sharding on activations and gradients (leave "
                    "every intermediate layout to propagation)")
    ap.add_argument("--forward-only", action="store_true",
                    help="only the forward pass (returns the last block's output)")
    a = ap.parse_args()
    B, S, D, F = a.batch, a.seq, a.d_model, a.ffn
    if D % a.heads:
        sys.exit("d-model must be a multiple of heads")
    e = Emitter(a.dtype)
    batch = '{"data", "fsdp"}'
    if not a.no_constraints:
        # MaxText's logical axis rules: batch over (data, fsdp), heads, the
        # MLP width and attention projections over tensor.
        e.specs = {
            "act": [batch, "{}", "{}"],
            "proj": [batch, "{}", '{"tensor"}'],
            "heads": [batch, "{}", '{"tensor"}', "{}"],
            "scores": [batch, '{"tensor"}', "{}", "{}"],
            "hidden": [batch, "{}", '{"tensor"}'],
            "col": ['{"fsdp"}', '{"tensor"}'],
            "row": ['{"tensor"}', '{"fsdp"}'],
        }
    out = []
    devices = a.data * a.dcn_data * a.fsdp * a.tensor
    out.append(f"// {a.layers}-layer transformer training step: batch {B} x seq {S}, "
               f"d_model {D}, {a.heads} heads, ffn {F}, {a.dtype}; "
               f"mesh data={a.data * a.dcn_data} (dcn {a.dcn_data}) x fsdp={a.fsdp} x tensor={a.tensor} "
               f"= {devices} devices.")
    out.append(f"// Generated by bench/timing/gen_transformer.py {' '.join(sys.argv[1:])}")
    if a.dcn_data > 1:
        out.append(f'xla.mesh @mesh = hybrid<ici=["data"={a.data}, "fsdp"={a.fsdp}, "tensor"={a.tensor}], '
                   f'dcn=["data"={a.dcn_data}, "fsdp"=1, "tensor"=1]>')
    else:
        out.append(f'xla.mesh @mesh = <["data"={a.data}, "fsdp"={a.fsdp}, "tensor"={a.tensor}]>')

    def sh(spec):
        return f'#xla.sharding<@mesh, [{", ".join(spec)}]>'

    act = sh(['{"data", "fsdp"}', "{}", "{}"])
    col = sh(['{"fsdp"}', '{"tensor"}'])
    row = sh(['{"tensor"}', '{"fsdp"}'])
    wshape = {"wq": [D, D], "wk": [D, D], "wv": [D, D], "wo": [D, D], "w1": [D, F], "w2": [F, D]}
    wsharding = {"wq": col, "wk": col, "wv": col, "wo": row, "w1": col, "w2": row}
    # Arguments as (name, type, attributes); weights are donated to their
    # updated values.
    args, results, weights = [], [], []
    args.append(("%x", e.t([B, S, D]), f"xla.sharding = {act}"))
    args.append(("%dy", e.t([B, S, D]), f"xla.sharding = {act}"))
    for l in range(a.layers):
        w = {}
        for name in WEIGHTS:
            arg = f"%l{l}_{name}"
            index = len(results)
            args.append((arg, e.t(wshape[name]),
                         f"xla.donate, xla.aliases = {index}, xla.sharding = {wsharding[name]}"))
            results.append(f"{e.t(wshape[name])} {{xla.sharding = {wsharding[name]}}}")
            w[name] = arg
        weights.append(w)
    results.append(f"{e.t([B, S, D])} {{xla.sharding = {act}}}")

    def phase(name, build, needed):
        """Runs build(); with --trace, wraps what it emitted in an xla.trace
        yielding the values `needed()` names after it."""
        start = len(e.lines)
        result = build()
        if not a.trace:
            return result, {}
        return result, e.wrap(start, name, needed(result))

    def rename(value, renames):
        if isinstance(value, dict):
            return {k: rename(v, renames) for k, v in value.items()}
        if isinstance(value, (list, tuple)):
            return type(value)(rename(v, renames) for v in value)
        return renames.get(value, value)

    x = "%x"
    saved = []
    for l in range(a.layers):
        (x, sv), renames = phase(
            f"layer{l}.forward", lambda: block(e, a, x, weights[l], False),
            lambda r: {r[0], *r[1].values()})
        x, sv = rename(x, renames), rename(sv, renames)
        saved = [rename(s, renames) for s in saved]
        saved.append(sv)
    def signature(name, arguments, result_types):
        return (f"func.func @{name}(" + ",\n    ".join(f"{n}: {t} {{{attrs}}}" for n, t, attrs in arguments)
                + ")\n    -> (" + ",\n        ".join(result_types) + ") {")

    if a.forward_only:
        fwd_args = [(n, t, attrs.split("xla.sharding", 1)[0] and "xla.sharding" + attrs.split("xla.sharding", 1)[1])
                    for n, t, attrs in args if n != "%dy"]
        out.append(signature("forward", fwd_args, [f"{e.t([B, S, D])} {{xla.sharding = {act}}}"]))
        out.extend(e.lines)
        out.append(f"  return {x} : {e.t([B, S, D])}")
        out.append("}")
        print("\n".join(out))
        return
    dy = "%dy"
    grads = [None] * a.layers
    for l in reversed(range(a.layers)):
        (dy, g), renames = phase(
            f"layer{l}.backward",
            lambda: block_backward(e, a, dy, weights[l], saved[l]),
            lambda r: {r[0], *r[1].values()})
        dy, grads[l] = rename(dy, renames), rename(g, renames)
    # SGD update.
    def update():
        new = []
        for l in range(a.layers):
            for name in WEIGHTS:
                shape = wshape[name]
                lr = e.splat("1.000000e-02", shape)
                step = e.binary("mul", lr, grads[l][name], shape)
                new.append((e.binary("sub", weights[l][name], step, shape, "nw"), shape))
        return new
    new, renames = phase("sgd_update", update, lambda r: {v for v, _ in r})
    new = [(renames.get(v, v), s) for v, s in new]
    ret_vals = [v for v, _ in new] + [dy]
    ret_types = [e.t(s) for _, s in new] + [e.t([B, S, D])]
    body = e.lines
    out.append(signature("train_step", args, results))
    out.extend(body)
    out.append(f"  return {', '.join(ret_vals)} : {', '.join(ret_types)}")
    out.append("}")
    print("\n".join(out))


if __name__ == "__main__":
    main()
