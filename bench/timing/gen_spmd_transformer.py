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
            With --collective-matmul (XLA's async collective fusion on
            TPU) each of those all-reduces is a ring over tensor: a
            reduce-scatter of sequence chunks, one collective_permute per
            step overlapping the next chunk's partial matmul, then an
            all-gather ring whose steps overlap the consumer's matmuls on
            the chunk in hand (w1 and w1g after wo; the next layer's wq wk
            wv after w2); the residual stream between them stays split
  attention the 1/sqrt(head_dim) scaling multiplies the queries (MaxText,
            T5X); scores and probabilities go through HBM, or with
            --flash-attention stay inside the flash kernels (xla.trace
            kernel regions)
  backward  re-gather the weights (FSDP frees them), weight gradients
            reduce-scattered over fsdp (then all-reduced over data across
            slices, as soon as the layer's gradient is ready, or with
            --dcn-after-backward all after the backward pass), input
            gradients all-reduced over tensor, each issued before the
            weight-gradient matmuls that do not depend on it (without
            tensor parallelism the weight gradients come first); --remat recomputes each
            layer's forward, up to what the backward reads (not w2 and its
            all-reduce), before its backward (--remat partial: all but the
            output projections wo, w2 and their all-reduces)
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

    def kernel(self, name, body, result_shapes):
        """Emits `xla.trace name kernel { body }`: body() emits the ops and
        returns the values to yield; returns the kernel's results."""
        self.n += 1
        res = f"%{name}{self.n}"
        self.lines.append(f'  {res}:{len(result_shapes)} = xla.trace "{name}" kernel {{'
                          if len(result_shapes) > 1 else f'  {res} = xla.trace "{name}" kernel {{')
        values = body()
        types = ", ".join(self.t(sh) for sh in result_shapes)
        self.lines.append(f"    xla.yield {', '.join(values)} : {types}")
        self.lines.append(f"  }} : {types}")
        return [f"{res}#{i}" for i in range(len(result_shapes))] if len(result_shapes) > 1 else [res]

    def reduce(self, kind, a, sa, dims, sr, hint="s"):
        return self.op(hint, f"xla.reduce {kind} {a}, dims = {dims} : ({self.t(sa)}) -> {self.t(sr)}")

    def bcast(self, a, sa, dims, sr):
        return self.op("b", f"xla.broadcast_in_dim {a}, dims = {dims} : ({self.t(sa)}) -> {self.t(sr)}")

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
    ap.add_argument("--flash-attention", action="store_true",
                    help="attention as the Pallas flash (splash) kernels run it: one kernel for the forward "
                         "(scores and probabilities stay in VMEM; it writes the output and the softmax's "
                         "log-sum-exp), and in the backward a dq kernel and a dk/dv kernel that each recompute "
                         "the probabilities from q, k and the log-sum-exp (jax splash_attention_kernel.py, "
                         "use_fused_bwd_kernel=False as MaxText sets its block sizes)")
    ap.add_argument("--collective-matmul", action="store_true",
                    help="decompose the forward's tensor all-reduces into rings of collective_permutes "
                         "overlapped with partial matmuls (XLA's collective matmul, enabled by the MaxText "
                         "scripts' xla_tpu_enable_async_collective_fusion flags); needs --tensor > 1 dividing --seq")
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
    cm = a.collective_matmul and tp > 1
    if cm and S % tp:
        sys.exit("--collective-matmul needs --seq divisible by --tensor")
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

    sc_q, sc_k = ("bqhd,bkd->bhqk", "bhqk,bkd->bqhd") if mqa else ("bqhd,bkhd->bhqk", "bhqk,bkhd->bqhd")
    lse_shape = [b, h, S]

    def probabilities(q, k, lse):
        # Recomputed inside a backward kernel: p = exp(q k - lse).
        s = e.einsum(sc_q, q, hs, k, kvs, ps, "sc")
        return e.unary("exp", e.binary("sub", s, e.bcast(lse, lse_shape, [0, 1, 2], ps), ps), ps)

    def flash_forward(q, k, v):
        def body():
            s = e.einsum(sc_q, q, hs, k, kvs, ps, "sc")
            m = e.reduce("max", s, ps, [3], lse_shape)
            ex = e.unary("exp", e.binary("sub", s, e.bcast(m, lse_shape, [0, 1, 2], ps), ps), ps)
            l = e.reduce("sum", ex, ps, [3], lse_shape)
            p = e.binary("div", ex, e.bcast(l, lse_shape, [0, 1, 2], ps), ps)
            c4 = e.einsum(sc_k, p, ps, v, kvs, hs, "ctx")
            return [c4, e.binary("add", m, e.unary("log", l, lse_shape), lse_shape)]
        return e.kernel("flash_attention", body, [hs, lse_shape])

    # Collective matmul: sequence chunks of the tensor group's rows.
    Sc = S // tp
    i32 = "tensor<i32>"

    def const_i32(v):
        return e.op("c", f"xla.constant dense<{v}> : {i32}")

    def chunk_offset(shift):
        # Row offset of chunk (r + shift) mod tp, r this device's tensor index.
        r = e.op("r", f'xla.axis_index @mesh["tensor"] : {i32}')
        t = e.op("c", f"xla.add {r}, {const_i32(shift % tp)} : {i32}")
        t = e.op("c", f"xla.rem {t}, {const_i32(tp)} : {i32}")
        return e.op("c", f"xla.mul {t}, {const_i32(Sc)} : {i32}")

    def chunk(x, width, off):
        z = const_i32(0)
        return e.op("x", f"xla.dynamic_slice {x}[{z}, {off}, {z}], sizes = [{b}, {Sc}, {width}] : "
                         f"({e.t([b, S, width])}, {i32}, {i32}, {i32}) -> {e.t([b, Sc, width])}")

    def put(buf, u, width, off):
        z = const_i32(0)
        return e.op("u", f"xla.dynamic_update_slice {buf}, {u}[{z}, {off}, {z}] : ({e.t([b, S, width])}, "
                         f"{e.t([b, Sc, width])}, {i32}, {i32}, {i32}) -> {e.t([b, S, width])}")

    def permute(x, shape, step):
        pairs = ", ".join(f"[{k}, {(k + step) % tp}]" for k in range(tp))
        return e.op("cp", f'xla.collective_permute {x}, pairs = [{pairs}] mesh_axes = @mesh["tensor"] : {e.t(shape)}')

    def matmul_reduce_scatter(x, width, w, hint):
        """x [b, S, width] @ w [width, D] summed over tensor, as a ring: step
        i computes chunk (r + i + 1)'s partial product while the running sum
        of the previous chunk goes one device down; after tp steps this
        device holds its own chunk r, summed."""
        acc = None
        for i in range(tp):
            recv = permute(acc, [b, Sc, D], -1) if i else None
            part = e.einsum("bse,ed->bsd", chunk(x, width, chunk_offset(i + 1)), [b, Sc, width], w, [width, D],
                            [b, Sc, D], hint)
            acc = part if recv is None else e.binary("add", recv, part, [b, Sc, D], hint)
        return acc

    def all_gather_matmul(xr, consumers):
        """All-gathers this device's chunk xr [b, Sc, D] over tensor as a
        ring (the chunk in hand goes one device up while the consumers'
        matmuls run on it); returns the gathered [b, S, D] and, per consumer
        (weight, width), the gathered product [b, S, width]."""
        bufs = [e.splat("0.0", [b, S, D])] + [e.splat("0.0", [b, S, wd]) for _, wd in consumers]
        cur = xr
        for i in range(tp):
            nxt = permute(cur, [b, Sc, D], 1) if i + 1 < tp else None
            off = chunk_offset(-i)
            bufs[0] = put(bufs[0], cur, D, off)
            for j, (w, wd) in enumerate(consumers):
                prod = e.einsum("bsd,de->bse", cur, [b, Sc, D], w, [D, wd], [b, Sc, wd], "p")
                bufs[j + 1] = put(bufs[j + 1], prod, wd, off)
            cur = nxt
        return bufs

    def forward(x, g, x1=None, recompute=False):
        # x: the layer input, or ("split", chunk) when the previous layer
        # left it split over tensor (collective matmul).
        xr = None
        if isinstance(x, tuple):
            xr = x[1]
            x, q, k, v = all_gather_matmul(xr, [(g["wq"], A), (g["wk"], KV), (g["wv"], KV)])
        else:
            q = e.einsum("bsd,de->bse", x, xs, g["wq"], [D, A], [b, S, A], "q")
        # The 1/sqrt(head_dim) scaling is applied to the queries (as MaxText
        # and T5X do), not to the much larger score matrix.
        q = e.reshape(e.binary("mul", q, e.splat(f"{1.0 / math.sqrt(Dh):.6e}", [b, S, A]), [b, S, A], "q"),
                      [b, S, A], hs)
        if xr is not None:
            if not mqa:
                k, v = e.reshape(k, [b, S, A], hs), e.reshape(v, [b, S, A], hs)
        elif mqa:
            k = e.einsum("bsd,de->bse", x, xs, g["wk"], [D, Dh], kvs, "k")
            v = e.einsum("bsd,de->bse", x, xs, g["wv"], [D, Dh], kvs, "v")
        else:
            k = e.reshape(e.einsum("bsd,de->bse", x, xs, g["wk"], [D, A], [b, S, A], "k"), [b, S, A], hs)
            v = e.reshape(e.einsum("bsd,de->bse", x, xs, g["wv"], [D, A], [b, S, A], "v"), [b, S, A], hs)
        if a.flash_attention:
            p = None
            c4, lse = flash_forward(q, k, v)
        else:
            lse = None
            s = e.einsum(sc_q, q, hs, k, kvs, ps, "sc")
            p = e.op("p", f"xla.softmax {s}, dim = 3 : {e.t(ps)}")
            c4 = e.einsum(sc_k, p, ps, v, kvs, hs, "ctx")
        c = e.reshape(c4, hs, [b, S, A])
        # Partial recompute passes the saved x1: the output projection and
        # its all-reduce are not repeated.
        recomputing = x1 is not None
        x1r = None
        if not recomputing and cm:
            # The residual stream stays split: x1's chunk is x's chunk plus
            # the reduce-scattered output projection.
            o = matmul_reduce_scatter(c, A, g["wo"], "o")
            x1r = e.binary("add", xr if xr is not None else chunk(x, D, chunk_offset(0)), o, [b, Sc, D], "x")
            mlp_in = [(g["w1"], f)] + ([(g["w1g"], f)] if a.gated else [])
            x1, h0, *rest = all_gather_matmul(x1r, mlp_in)
        else:
            if not recomputing:
                o = e.einsum("bse,ed->bsd", c, [b, S, A], g["wo"], [A, D], xs, "o")
                if tp > 1:
                    o = e.all_reduce(o, xs, TENSOR)
                x1 = e.binary("add", x, o, xs, "x")
            h0 = e.einsum("bsd,df->bsf", x1, xs, g["w1"], [D, f], fsz, "h")
        if a.gated:
            sg = e.unary("sigmoid", h0, fsz)
            act = e.binary("mul", h0, sg, fsz)
            gate = rest[0] if x1r is not None else e.einsum("bsd,df->bsf", x1, xs, g["w1g"], [D, f], fsz, "g")
            hh = e.binary("mul", act, gate, fsz)
        else:
            sg = act = gate = None
            hh = e.unary("gelu", h0, fsz)
        # A recomputed forward stops before w2: the backward needs hh, not
        # the layer's output (JAX's remat recomputes only what the backward
        # reads; XLA removes the rest).
        y = None
        if not recomputing and not recompute and x1r is not None:
            y = ("split", e.binary("add", x1r, matmul_reduce_scatter(hh, f, g["w2"], "m"), [b, Sc, D], "y"))
        elif not recomputing and not recompute:
            m = e.einsum("bsf,fd->bsd", hh, fsz, g["w2"], [f, D], xs, "m")
            if tp > 1:
                m = e.all_reduce(m, xs, TENSOR)
            y = e.binary("add", x1, m, xs, "y")
        return y, dict(x=x, q=q, k=k, v=v, p=p, lse=lse, c4=c4, c=c, x1=x1, h0=h0, sg=sg, act=act, gate=gate,
                       hh=hh)

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
        dp_eq, dv_eq, dk_eq = (("bqhd,bkd->bhqk", "bhqk,bqhd->bkd", "bhqk,bqhd->bkd") if mqa else
                               ("bqhd,bkhd->bhqk", "bhqk,bqhd->bkhd", "bhqk,bqhd->bkhd"))
        if a.flash_attention:
            # The flash backward: di = rowsum(do * o) outside the kernels,
            # then a dq kernel and a dk/dv kernel, each recomputing p.
            di = e.reduce("sum", e.binary("mul", dc, sv["c4"], hs), hs, [3], [b, S, h])
            di = e.op("t", f"xla.transpose {di}, permutation = [0, 2, 1] : ({e.t([b, S, h])}) -> {e.t(lse_shape)}")

            def grad_scores(p):
                dp = e.einsum(dp_eq, dc, hs, sv["v"], kvs, ps, "dp")
                return e.binary("mul", p, e.binary("sub", dp, e.bcast(di, lse_shape, [0, 1, 2], ps), ps), ps, "ds")

            def dq_body():
                ds = grad_scores(probabilities(sv["q"], sv["k"], sv["lse"]))
                return [e.einsum(sc_k, ds, ps, sv["k"], kvs, hs, "dq")]

            def dkv_body():
                p = probabilities(sv["q"], sv["k"], sv["lse"])
                dv = e.einsum(dv_eq, p, ps, dc, hs, kvs, "dv")
                return [e.einsum(dk_eq, grad_scores(p), ps, sv["q"], hs, kvs, "dk"), dv]
            dq4 = e.kernel("flash_attention_dq", dq_body, [hs])[0]
            dk, dv = e.kernel("flash_attention_dkv", dkv_body, [kvs, kvs])
        else:
            dp = e.einsum(dp_eq, dc, hs, sv["v"], kvs, ps, "dp")
            dv = e.einsum(dv_eq, sv["p"], ps, dc, hs, kvs, "dv")
            pdp = e.binary("mul", sv["p"], dp, ps)
            r = e.op("s", f"xla.reduce sum {pdp}, dims = [3] : ({e.t(ps)}) -> {e.t([b, h, S])}")
            rb = e.op("b", f"xla.broadcast_in_dim {r}, dims = [0, 1, 2] : ({e.t([b, h, S])}) -> {e.t(ps)}")
            ds = e.binary("mul", sv["p"], e.binary("sub", dp, rb, ps), ps, "ds")
            dq4 = e.einsum(sc_k, ds, ps, sv["k"], kvs, hs, "dq")
        # q was scaled: dq picks up the scale, dk sees the scaled q.
        dq = e.reshape(dq4, hs, [b, S, A])
        dq = e.binary("mul", dq, e.splat(f"{1.0 / math.sqrt(Dh):.6e}", [b, S, A]), [b, S, A], "dq")
        if not a.flash_attention:
            dk = e.einsum(dk_eq, ds, ps, sv["q"], hs, kvs, "dk")
        if not mqa:
            dk = e.reshape(dk, hs, [b, S, A])
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
            _, sv = forward(sv["x"], again[l], recompute=True)
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
