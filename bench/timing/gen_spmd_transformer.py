#!/usr/bin/env python3
"""Writes a hand-written SPMD program (per-device shapes, explicit
collectives): one training step of a stack of transformer blocks under FSDP
x tensor parallelism, scheduled as XLA schedules MaxText's and PaLM's steps.

Where bench/timing/gen_transformer.py writes the annotated single-device
program for the SPMD pipeline, this one writes the partitioned program a
well-tuned compiler produces, so the simulator's prediction can be compared
with published measurements (docs/simulator.md, "Validation"):

  mesh      data (DCN slices) x fsdp x tensor; batch over (data, fsdp)
  weights   column-parallel wq wk wv w1 (w1g): [d / fsdp, out / tensor];
            row-parallel wo w2: [in / tensor, d / fsdp]; with --kv-heads 1
            (multi-query, PaLM) wk wv are [d / fsdp, head_dim], replicated
            over tensor
  forward   per layer: all-gather the layer's weights over fsdp, attention
            on the device's heads, all-reduce over tensor after wo and w2
            (Megatron)
  attention the 1/sqrt(head_dim) scaling multiplies the queries (MaxText,
            T5X), scores and probabilities go through HBM (no flash attention)
  backward  re-gather the weights (FSDP frees them), weight gradients
            reduce-scattered over fsdp (then all-reduced over data across
            slices, as soon as the layer's gradient is ready, or with
            --dcn-after-backward all after the backward pass), input
            gradients all-reduced over tensor, each issued before the
            weight-gradient matmuls that do not depend on it (without
            tensor parallelism the weight gradients come first); --remat recomputes each
            layer's forward before its backward (--remat partial: all but
            the output projections wo, w2 and their all-reduces)
  update    SGD on the local weight shards (donated)
  schedule  the program order is the schedule: each layer's weight gathers
            are issued one layer ahead (prefetch), as XLA's latency-hiding
            scheduler places them; collectives start when their operand is
            ready and are awaited at first use

Usage: gen_spmd_transformer.py --layers 2 --fsdp 16 --tensor 4 --batch 28 \\
           --seq 2048 --d-model 8192 --heads 64 --head-dim 128 --ffn 28672 --gated
(--batch is the sequences of one data x fsdp shard.)
"""

import argparse
import math
import sys


class Emitter:
    def __init__(self, dtype):
        self.dtype = dtype
        self.lines = []
        self.n = 0

    def t(self, shape):
        return "tensor<" + "".join(f"{d}x" for d in shape) + self.dtype + ">"

    def op(self, hint, text):
        self.n += 1
        name = f"%{hint}{self.n}"
        self.lines.append(f"  {name} = {text}")
        return name

    def einsum(self, eq, a, sa, b, sb, sr, hint="e"):
        return self.op(hint, f'xla.einsum "{eq}" {a}, {b} : ({self.t(sa)}, {self.t(sb)}) -> {self.t(sr)}')

    def binary(self, kind, a, b, shape, hint="v"):
        return self.op(hint, f"xla.{kind} {a}, {b} : {self.t(shape)}")

    def unary(self, kind, a, shape, hint="u"):
        return self.op(hint, f"xla.{kind} {a} : {self.t(shape)}")

    def reshape(self, a, sa, sr):
        return self.op("r", f"xla.reshape {a} : ({self.t(sa)}) -> {self.t(sr)}")

    def splat(self, value, shape):
        c = self.op("c", f"xla.constant dense<{value}> : {self.t([])}")
        return self.op("c", f"xla.broadcast_in_dim {c}, dims = [] : ({self.t([])}) -> {self.t(shape)}")

    def all_gather(self, a, sa, dim, axes, sr):
        return self.op("ag", f"xla.all_gather {a}, dim = {dim} mesh_axes = @mesh[{axes}] : ({self.t(sa)}) -> {self.t(sr)}")

    def reduce_scatter(self, a, sa, dim, axes, sr):
        return self.op("rs", f"xla.reduce_scatter sum {a}, dim = {dim} mesh_axes = @mesh[{axes}] : ({self.t(sa)}) -> {self.t(sr)}")

    def all_reduce(self, a, shape, axes):
        return self.op("ar", f"xla.all_reduce sum {a} mesh_axes = @mesh[{axes}] : {self.t(shape)}")


FSDP, TENSOR, DATA = '"fsdp"', '"tensor"', '"data"'


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--layers", type=int, default=1)
    ap.add_argument("--batch", type=int, default=1, help="sequences per data x fsdp shard")
    ap.add_argument("--seq", type=int, default=2048)
    ap.add_argument("--d-model", type=int, default=1024)
    ap.add_argument("--heads", type=int, default=8)
    ap.add_argument("--head-dim", type=int, default=128)
    ap.add_argument("--kv-heads", type=int, choices=[0, 1], default=0,
                    help="1: multi-query attention (one K/V head); 0: as many as --heads")
    ap.add_argument("--ffn", type=int, default=4096)
    ap.add_argument("--gated", action="store_true", help="gated MLP: silu(x w1) * (x w1g)")
    ap.add_argument("--remat", choices=["none", "full", "partial"], nargs="?", const="full", default="none",
                    help="recompute in the backward each layer's whole forward (full, the default of a bare "
                         "--remat) or all of it but the output projections wo and w2 (partial: their results, "
                         "which follow the tensor all-reduces, are saved)")
    ap.add_argument("--dcn", type=int, default=1)
    ap.add_argument("--dcn-after-backward", action="store_true",
                    help="all-reduce the gradients over DCN after the whole backward pass (no overlap with "
                         "it) instead of as soon as each layer's gradient is reduce-scattered")
    ap.add_argument("--fsdp", type=int, default=1)
    ap.add_argument("--tensor", type=int, default=1)
    ap.add_argument("--dtype", default="bf16")
    a = ap.parse_args()
    L, b, S, D, H, Dh, F = a.layers, a.batch, a.seq, a.d_model, a.heads, a.head_dim, a.ffn
    fs, tp = a.fsdp, a.tensor
    if D % fs or H % tp or F % tp:
        sys.exit("d-model must divide by fsdp, heads and ffn by tensor")
    h, f, Dl, A = H // tp, F // tp, D // fs, (H // tp) * Dh
    mqa = a.kv_heads == 1
    KV = Dh if mqa else A  # local K/V projection width
    e = Emitter(a.dtype)
    xs, hs, ps, fsz = [b, S, D], [b, S, h, Dh], [b, h, S, S], [b, S, f]
    kvs = [b, S, Dh] if mqa else hs

    # Weights: (local shape, gathered shape, gather dim, gradient reduction).
    def weights():
        w = {"wq": ([Dl, A], [D, A], 0), "wk": ([Dl, KV], [D, KV], 0), "wv": ([Dl, KV], [D, KV], 0),
             "wo": ([A, Dl], [A, D], 1), "w1": ([Dl, f], [D, f], 0), "w2": ([f, Dl], [f, D], 1)}
        if a.gated:
            w["w1g"] = ([Dl, f], [D, f], 0)
        return w
    W = weights()
    names = list(W)

    # Shardings of the arguments and results (what each local block is of
    # the global value), so xla-run can assemble global results.
    def sharding(dims):
        return "xla.sharding = #xla.sharding<@mesh, [" + ", ".join(dims) + "]>"
    act = sharding(['{"data", "fsdp"}', "{}", "{}"])
    wsh = {n: sharding(['{"fsdp"}', "{}"] if mqa and n in ("wk", "wv") else
                       ['{"fsdp"}', '{"tensor"}'] if W[n][2] == 0 else ['{"tensor"}', '{"fsdp"}'])
           for n in names}
    args, results = [("%x", xs, act), ("%dy", xs, act)], []
    for l in range(L):
        for n in names:
            args.append((f"%l{l}_{n}", W[n][0], f"xla.donate, xla.aliases = {len(results)}, {wsh[n]}"))
            results.append((W[n][0], wsh[n]))
    results.append((xs, act))

    def gather(l):
        return {n: e.all_gather(f"%l{l}_{n}", W[n][0], W[n][2], FSDP, W[n][1]) if fs > 1 else f"%l{l}_{n}"
                for n in names}

    def forward(x, g, x1=None):
        # The 1/sqrt(head_dim) scaling is applied to the queries (as MaxText
        # and T5X do), not to the much larger score matrix.
        q = e.einsum("bsd,de->bse", x, xs, g["wq"], [D, A], [b, S, A], "q")
        q = e.reshape(e.binary("mul", q, e.splat(f"{1.0 / math.sqrt(Dh):.6e}", [b, S, A]), [b, S, A], "q"),
                      [b, S, A], hs)
        if mqa:
            k = e.einsum("bsd,de->bse", x, xs, g["wk"], [D, Dh], kvs, "k")
            v = e.einsum("bsd,de->bse", x, xs, g["wv"], [D, Dh], kvs, "v")
            s = e.einsum("bqhd,bkd->bhqk", q, hs, k, kvs, ps, "sc")
        else:
            k = e.reshape(e.einsum("bsd,de->bse", x, xs, g["wk"], [D, A], [b, S, A], "k"), [b, S, A], hs)
            v = e.reshape(e.einsum("bsd,de->bse", x, xs, g["wv"], [D, A], [b, S, A], "v"), [b, S, A], hs)
            s = e.einsum("bqhd,bkhd->bhqk", q, hs, k, hs, ps, "sc")
        p = e.op("p", f"xla.softmax {s}, dim = 3 : {e.t(ps)}")
        c4 = e.einsum("bhqk,bkd->bqhd" if mqa else "bhqk,bkhd->bqhd", p, ps, v, kvs, hs, "ctx")
        c = e.reshape(c4, hs, [b, S, A])
        # Partial recompute passes the saved x1: the output projection and
        # its all-reduce are not repeated.
        recomputing = x1 is not None
        if not recomputing:
            o = e.einsum("bse,ed->bsd", c, [b, S, A], g["wo"], [A, D], xs, "o")
            if tp > 1:
                o = e.all_reduce(o, xs, TENSOR)
            x1 = e.binary("add", x, o, xs, "x")
        h0 = e.einsum("bsd,df->bsf", x1, xs, g["w1"], [D, f], fsz, "h")
        if a.gated:
            sg = e.unary("sigmoid", h0, fsz)
            act = e.binary("mul", h0, sg, fsz)
            gate = e.einsum("bsd,df->bsf", x1, xs, g["w1g"], [D, f], fsz, "g")
            hh = e.binary("mul", act, gate, fsz)
        else:
            sg = act = gate = None
            hh = e.unary("gelu", h0, fsz)
        y = None
        if not recomputing:
            m = e.einsum("bsf,fd->bsd", hh, fsz, g["w2"], [f, D], xs, "m")
            if tp > 1:
                m = e.all_reduce(m, xs, TENSOR)
            y = e.binary("add", x1, m, xs, "y")
        return y, dict(x=x, q=q, k=k, v=v, p=p, c=c, x1=x1, h0=h0, sg=sg, act=act, gate=gate, hh=hh)

    def reduce_grad(dw, n):
        local, full, dim = W[n]
        if fs > 1:
            dw = e.reduce_scatter(dw, full, dim, FSDP, local)
        # MQA's K/V weights are replicated over tensor: sum their gradients.
        if mqa and n in ("wk", "wv") and tp > 1:
            dw = e.all_reduce(dw, local, TENSOR)
        if a.dcn > 1 and not a.dcn_after_backward:
            dw = e.all_reduce(dw, local, DATA)
        return dw

    def backward(dy, g, sv):
        gr = {}
        gr["w2"] = reduce_grad(e.einsum("bsf,bsd->fd", sv["hh"], fsz, dy, xs, [f, D], "dw"), "w2")
        dhh = e.einsum("bsd,fd->bsf", dy, xs, g["w2"], [f, D], fsz, "dh")
        if a.gated:
            # d silu(h0) = s (1 + h0 (1 - s)).
            dgate = e.binary("mul", dhh, sv["act"], fsz)
            dact = e.binary("mul", dhh, sv["gate"], fsz)
            one = e.splat("1.0", fsz)
            t = e.binary("sub", one, sv["sg"], fsz)
            t = e.binary("mul", sv["h0"], t, fsz)
            t = e.binary("add", one, t, fsz)
            t = e.binary("mul", sv["sg"], t, fsz)
            dh0 = e.binary("mul", dact, t, fsz)
        else:
            k = e.splat("1.702", fsz)
            s = e.unary("sigmoid", e.binary("mul", k, sv["h0"], fsz), fsz)
            dh0 = e.binary("mul", dhh, s, fsz)
        def mlp_weight_grads():
            if a.gated:
                gr["w1g"] = reduce_grad(e.einsum("bsd,bsf->df", sv["x1"], xs, dgate, fsz, [D, f], "dw"), "w1g")
            gr["w1"] = reduce_grad(e.einsum("bsd,bsf->df", sv["x1"], xs, dh0, fsz, [D, f], "dw"), "w1")

        # With tensor parallelism the input gradient comes first: its
        # all-reduce then runs under the weight-gradient matmuls, which do
        # not depend on it (where XLA's latency-hiding scheduler puts them).
        # Without, the weight gradients come first, so that their
        # reduce-scatters start early.
        if tp == 1:
            mlp_weight_grads()
        dxm = e.einsum("bsf,df->bsd", dh0, fsz, g["w1"], [D, f], xs, "dx")
        if a.gated:
            dxm = e.binary("add", dxm, e.einsum("bsf,df->bsd", dgate, fsz, g["w1g"], [D, f], xs, "dx"), xs)
        if tp > 1:
            dxm = e.all_reduce(dxm, xs, TENSOR)
            mlp_weight_grads()
        dx1 = e.binary("add", dy, dxm, xs, "dx")
        gr["wo"] = reduce_grad(e.einsum("bse,bsd->ed", sv["c"], [b, S, A], dx1, xs, [A, D], "dw"), "wo")
        dc = e.reshape(e.einsum("bsd,ed->bse", dx1, xs, g["wo"], [A, D], [b, S, A], "dc"), [b, S, A], hs)
        if mqa:
            dp = e.einsum("bqhd,bkd->bhqk", dc, hs, sv["v"], kvs, ps, "dp")
            dv = e.einsum("bhqk,bqhd->bkd", sv["p"], ps, dc, hs, kvs, "dv")
        else:
            dp = e.einsum("bqhd,bkhd->bhqk", dc, hs, sv["v"], hs, ps, "dp")
            dv = e.einsum("bhqk,bqhd->bkhd", sv["p"], ps, dc, hs, hs, "dv")
        pdp = e.binary("mul", sv["p"], dp, ps)
        r = e.op("s", f"xla.reduce sum {pdp}, dims = [3] : ({e.t(ps)}) -> {e.t([b, h, S])}")
        rb = e.op("b", f"xla.broadcast_in_dim {r}, dims = [0, 1, 2] : ({e.t([b, h, S])}) -> {e.t(ps)}")
        ds = e.binary("mul", sv["p"], e.binary("sub", dp, rb, ps), ps, "ds")
        # q was scaled: dq picks up the scale, dk sees the scaled q.
        dq = e.reshape(e.einsum("bhqk,bkd->bqhd" if mqa else "bhqk,bkhd->bqhd", ds, ps, sv["k"], kvs, hs, "dq"), hs, [b, S, A])
        dq = e.binary("mul", dq, e.splat(f"{1.0 / math.sqrt(Dh):.6e}", [b, S, A]), [b, S, A], "dq")
        if mqa:
            dk = e.einsum("bhqk,bqhd->bkd", ds, ps, sv["q"], hs, kvs, "dk")
        else:
            dk = e.reshape(e.einsum("bhqk,bqhd->bkhd", ds, ps, sv["q"], hs, hs, "dk"), hs, [b, S, A])
            dv = e.reshape(dv, hs, [b, S, A])
        back = None
        for n, d in (("wq", dq), ("wk", dk), ("wv", dv)):
            ds_shape = [b, S, A if n == "wq" else KV]
            if tp == 1:
                gr[n] = reduce_grad(e.einsum("bsd,bse->de", sv["x"], xs, d, ds_shape, [D, ds_shape[2]], "dw"), n)
            t = e.einsum("bse,de->bsd", d, ds_shape, g[n], [D, ds_shape[2]], xs, "dx")
            back = t if back is None else e.binary("add", back, t, xs)
        if tp > 1:
            back = e.all_reduce(back, xs, TENSOR)
            # As above: the weight gradients run under the all-reduce.
            for n, d in (("wq", dq), ("wk", dk), ("wv", dv)):
                ds_shape = [b, S, A if n == "wq" else KV]
                gr[n] = reduce_grad(e.einsum("bsd,bse->de", sv["x"], xs, d, ds_shape, [D, ds_shape[2]], "dw"), n)
        return e.binary("add", dx1, back, xs, "dx"), gr

    # Forward, gathering one layer ahead.
    x, saved, gathered = "%x", [], {0: gather(0)}
    for l in range(L):
        if l + 1 < L:
            gathered[l + 1] = gather(l + 1)
        x, sv = forward(x, gathered[l])
        saved.append(sv)
    # Backward, re-gathering one layer ahead.
    dy, grads = "%dy", [None] * L
    again = {L - 1: gather(L - 1)}
    for l in reversed(range(L)):
        if l > 0:
            again[l - 1] = gather(l - 1)
        sv = saved[l]
        if a.remat == "full":
            _, sv = forward(sv["x"], again[l])
        elif a.remat == "partial":
            _, sv = forward(sv["x"], again[l], x1=sv["x1"])
        dy, grads[l] = backward(dy, again[l], sv)
    if a.dcn > 1 and a.dcn_after_backward:
        # Issued in backward order, after the last layer's backward.
        for l in reversed(range(L)):
            for n in grads[l]:
                grads[l][n] = e.all_reduce(grads[l][n], W[n][0], DATA)
    new = []
    for l in range(L):
        for n in names:
            shape = W[n][0]
            step = e.binary("mul", e.splat("1.000000e-02", shape), grads[l][n], shape)
            new.append((e.binary("sub", f"%l{l}_{n}", step, shape, "nw"), shape))

    out = [f"// Hand-written SPMD training step: {L} layer(s), per shard batch {b} x seq {S}, d_model {D}, "
           f"{H} heads x {Dh}{' (multi-query)' if mqa else ''}, ffn {F}{' gated' if a.gated else ''}"
           f"{', remat ' + a.remat if a.remat != 'none' else ''}; mesh data={a.dcn} (dcn) x fsdp={fs} x tensor={tp}.",
           f"// Generated by bench/timing/gen_spmd_transformer.py {' '.join(sys.argv[1:])}"]
    if a.dcn > 1:
        out.append(f'xla.mesh @mesh = hybrid<ici=["data"=1, "fsdp"={fs}, "tensor"={tp}], '
                   f'dcn=["data"={a.dcn}, "fsdp"=1, "tensor"=1]>')
    else:
        out.append(f'xla.mesh @mesh = <["data"=1, "fsdp"={fs}, "tensor"={tp}]>')
    sig = ",\n    ".join(f"{n}: {e.t(s)}" + (f" {{{at}}}" if at else "") for n, s, at in args)
    rets = ",\n        ".join(f"{e.t(s)} {{{at}}}" for s, at in results)
    out.append(f"func.func @train_step({sig})\n    -> ({rets}) {{")
    out.extend(e.lines)
    vals = [v for v, _ in new] + [dy]
    out.append(f"  return {', '.join(vals)} : {', '.join(e.t(s) for s, _ in results)}")
    out.append("}")
    print("\n".join(out))


if __name__ == "__main__":
    main()
