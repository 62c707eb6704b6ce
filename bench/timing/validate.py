#!/usr/bin/env python3
"""Simulator predictions against the published measurements of the research
notes (shared/research/tpu-and-collectives.md, section 5), each with its
error; writes bench/results/validation.csv and prints a Markdown table for
docs/simulator.md.

Collectives (notes 5.1): the scaling book's Pop Quiz 2 all-gathers on a v5e
8x4, run as one-collective SPMD programs.

Training steps (notes 5.2): hand-written SPMD programs (gen_spmd_transformer.py)
with the published model shapes and parallelism, simulated at the published
depth L (every layer: the second of two layers is not yet in steady state,
and the gradients' DCN all-reduce over several slices queues after the
backward, so the step is not T(1) + (L - 1) (T(2) - T(1))). MFU = the step's model FLOPs
per device (6 x parameters x tokens + 12 x seq x attention width x tokens
per layer, PaLM's appendix B, no recompute) / (step time x the chip's bf16
peak). L is the published depth: MaxText's from global_parameter_scale or
the run script (maxtext_shape), 118 for PaLM 540B (parameters over
per-layer parameters). Embeddings, the loss, the optimizer (Adam in the
measured runs, SGD here) and the input pipeline are left out.

MaxText rows take their shapes and run settings (per_device_batch_size,
ici_tensor_parallelism, remat_policy, slices) from the public scripts under
AI-Hypercomputer/maxtext MaxText/configs/, named in each row's note.

GSPMD rows (notes 5.3): lingvo's DenseLm configs on TPU v3 (gspmd_rows
below), measured as the notes do: 6 x total parameters x tokens/s over the
chips' peak (6N MFU), the prediction from the simulated step the same way.

Measurements of the notes that the simulator cannot reproduce (no preset
for the chip, or model shapes the notes do not give) are listed with the
reason and no prediction, so the table covers every published number.

--baseline CSV adds the predictions of an earlier run (same case names) as
"before" columns: the before/after table of docs/simulator.md.

Usage: validate.py [--xla-run build/bin/xla-run] [--out bench/results/validation.csv]
                   [--baseline old.csv]
"""

import argparse
import csv
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
PEAK = {"v4": 2.75e14, "v5e": 1.97e14, "v5p": 4.59e14}


def run(xla_run, module_text, flags, workdir, name):
    path = os.path.join(workdir, name + ".mlir")
    with open(path, "w") as f:
        f.write(module_text)
    proc = subprocess.run([xla_run, path, "--timing-only"] + flags,
                          capture_output=True, text=True)
    if proc.returncode != 0:
        sys.exit(f"{name}: {proc.stderr}")
    return proc.stdout


def seconds(text):
    value, unit = text.split()
    return float(value) * {"s": 1, "ms": 1e-3, "us": 1e-6, "ns": 1e-9}[unit]


def step_time(out):
    return seconds(re.search(r"TIMING step time: ([0-9.]+ \w+)", out).group(1))


def collective_time(out):
    m = re.search(r"^\s+\d+\s+all-gather\s+.*?\s([0-9.]+ [mun]?s)\s{2}", out, re.M)
    return seconds(m.group(1))


def all_gather_case(xla_run, workdir, rows, e, f, measured_us, note):
    # Mesh {X: 8, Y: 4} on a v5e 8x4: device x + 8 y is mesh (Y=y, X=x).
    shard = e // 4
    text = f"""xla.mesh @mesh = <["Y"=4, "X"=8]>
func.func @main(%a: tensor<{shard}x{f}xbf16>) -> tensor<{e}x{f}xbf16> {{
  %g = xla.all_gather %a, dim = 0 mesh_axes = @mesh["Y"] : (tensor<{shard}x{f}xbf16>) -> tensor<{e}x{f}xbf16>
  return %g : tensor<{e}x{f}xbf16>
}}
"""
    out = run(xla_run, text, ["--topology=v5e:8x4"], workdir, f"ag_{e}x{f}")
    predicted = collective_time(out) * 1e6
    rows.append(dict(case=f"v5e 8x4, AllGather_Y of bf16[{e},{f}] ({2 * e * f / 1e6:.2f} MB), Y=4 without wraparound",
                     source="SB-shard Pop Quiz 2 (notes 5.1)", metric="time (us)",
                     measured=measured_us, predicted=predicted, note=note))


def tpu7x_all_gather_case(xla_run, workdir, rows, shape, n, measured_gbps, note):
    # amb's f32[n,8,128] per JAX device; a simulated TPU7x device is a chip
    # (two JAX devices), so each chip contributes f32[2n,8,128]. amb's bus
    # bandwidth counts S x P bytes, S = the device's shard, P = the devices
    # on other chips (notes 5.1: 1.57 MB moved at n = 64 on 2x2x1 = 6 S).
    chips = {"2x2x1": 4, "2x2x2": 8}[shape]
    peers = 2 * chips - 2
    text = f"""xla.mesh @mesh = <["c"={chips}]>
func.func @main(%a: tensor<{2 * n}x8x128xf32>) -> tensor<{2 * n * chips}x8x128xf32> {{
  %g = xla.all_gather %a, dim = 0 mesh_axes = @mesh["c"] : (tensor<{2 * n}x8x128xf32>) -> tensor<{2 * n * chips}x8x128xf32>
  return %g : tensor<{2 * n * chips}x8x128xf32>
}}
"""
    out = run(xla_run, text, [f"--topology=tpu7x:{shape}"], workdir, f"ag7_{shape}_{n}")
    shard = n * 8 * 128 * 4
    rows.append(dict(case=f"TPU7x {shape}, AllGather f32[{n},8,128] per device",
                     source="amb Ironwood all_gather.md (notes 5.1)", metric="bus bandwidth (GB/s)",
                     measured=measured_gbps, predicted=shard * peers / collective_time(out) / 1e9,
                     note=note))


def tpu7x_gemm_case(xla_run, workdir, rows, m, measured_tflops):
    text = f"""func.func @main(%a: tensor<{m}x{m}xbf16>, %b: tensor<{m}x{m}xbf16>) -> tensor<{m}x{m}xbf16> {{
  %c = xla.matmul %a, %b : (tensor<{m}x{m}xbf16>, tensor<{m}x{m}xbf16>) -> tensor<{m}x{m}xbf16>
  return %c : tensor<{m}x{m}xbf16>
}}
"""
    out = run(xla_run, text, ["--topology=tpu7x:2x2x1"], workdir, f"gemm7_{m}")
    # A chip is two JAX devices: per device, half the chip's throughput.
    per_device = 2 * m ** 3 / step_time(out) / 2 / 1e12
    rows.append(dict(case=f"TPU7x GEMM bf16 m=n=k={m}", source="amb Ironwood GEMM (notes 5.1)",
                     metric="TFLOP/s per device", measured=measured_tflops, predicted=per_device,
                     note="in-sample: the curve is the simulator's matmul efficiency (docs/topology.md 3.2)"))


def layer_case(xla_run, workdir, rows, name, source, gen, topology, slices, chip,
               devices, tokens, layer_params, attn_width, seq, measured_mfu, note, depth,
               count_attention=True, kind="prediction", run_flags=()):
    # kind: "prediction" of the measured run, or a "bound" that brackets it
    # (a schedule or remat policy the run did not use); bounds are listed but
    # not counted against the 15% goal.
    # All `depth` layers are simulated: the step is not linear in the layer
    # count (the second of two layers is not yet in steady state, DCN
    # all-reduces queue after the backward). The memory limit is waived: the
    # memory analysis keeps every value, a kernel's scores too (memory
    # follows program order, section 13).
    text = subprocess.run([sys.executable, os.path.join(HERE, "gen_spmd_transformer.py"),
                           "--layers", str(depth)] + gen, capture_output=True, text=True,
                          check=True).stdout
    flags = [f"--topology={topology}", f"--slices={slices}", "--ignore-memory-limit"] + list(run_flags)
    step = step_time(run(xla_run, text, flags, workdir, f"case_{len(rows)}"))
    # Model FLOPs as the measurement counts them: 6 N per token for the
    # layers' N parameters and the attention's 12 x seq x width per token and
    # layer, unless the source leaves it out.
    flops = depth * (6 * layer_params * tokens + (12 * seq * attn_width * tokens if count_attention else 0)) / devices
    rows.append(dict(case=name, source=source, metric="MFU (%)", kind=kind, measured=measured_mfu,
                     predicted=flops / (step * PEAK[chip]) * 100,
                     note=note + f"; {depth} layers simulated; step {step:.3f} s ({step / depth * 1e3:.1f} ms per "
                     "layer)"))


def unreproduced(case, source, metric, measured, note):
    return dict(case=case, source=source, metric=metric, measured=measured, predicted=None, note=note)


def maxtext_shape(scale, emb=2048, heads=16, mlp=7168, layers=16, head_dim=128):
    """Model dims of MaxText's global_parameter_scale (pyconfig.py,
    get_individual_scales): with log2(scale) = 3 b + r, heads and mlp_dim
    double b + (r > 0) times, emb_dim b + (r > 1) times, layers b times. The
    defaults are base.yml's base_* values (emb 2048, 16 heads x 128, mlp
    7168, 16 layers; gated silu MLP)."""
    k = scale.bit_length() - 1
    if 1 << k != scale:
        raise ValueError("global_parameter_scale must be a power of two")
    b, r = divmod(k, 3)
    return dict(d=emb << (b + (r > 1)), heads=heads << (b + (r > 0)), head_dim=head_dim,
                ffn=mlp << (b + (r > 0)), layers=layers << b)


# MaxText remat_policy -> the generator's recompute: "minimal" keeps the
# layer's matmul outputs (nothing recomputed that the generator models);
# "minimal_offloaded" keeps them in host memory instead (the PCIe copies are
# not modelled); "full" recomputes the layer's forward.
MAXTEXT_REMAT = {"minimal": "none", "minimal_offloaded": "none", "full": "full"}

# DCN_SCHEDULE: over several slices the gradients' data-parallel all-reduce
# runs after the backward pass, not under it. In MaxText the layers are a
# scan: each layer's weight gradients come out of the backward loop's body,
# and XLA reduces the data-parallel copies after the loop (the v5e scripts
# also set xla_tpu_enable_data_parallel_all_reduce_opt). The measured slice
# curves say the same: an all-reduce hidden under the backward costs nothing
# until it outgrows a layer (then a cliff), while the v5e MFU falls steadily
# with the slice count; after the backward, its 2 (S - 1) ring steps each
# pay the DCN latency (docs/topology.md 4.7), which reproduces that fall.
# The overlapped schedule is kept as a bound (an earlier run could not be
# slower than it).

# What the model leaves out, per kind of row (docs/simulator.md 12).
V5E_128B = ("not modelled: the host offload of remat minimal_offloaded (PCIe copies, shared with the DCN traffic; "
            "about 49 ms each way per layer at 1.5e10 B/s, hidden under a ~200 ms layer)")
V4_52B = ("over-predicted: the step the model builds (full remat without the recompute of w2, which the backward "
          "does not read; the TPU7x matmul efficiency curve) is faster than the 2023 run; not modelled: the rest of "
          "that run's XLA, v4's own matmul efficiency")
V4_52B_SLICES = ("the older README marks this row 'low because we don't have async all gather enabled' (modelled: "
                 "synchronous all-gathers); its drop from 1 to 2 slices is not a stable property: configs/v4/README.md "
                 "reports 56.0% -> 58.9% for 1 -> 2 slices, higher 'because of choices made by the compiler'")

# Slice shapes (docs/topology.md 1): chips -> torus.
V5P_SHAPE = {64: "4x4x4", 128: "4x4x8", 256: "4x8x8", 512: "8x8x8", 1024: "8x8x16", 2048: "8x16x16"}


# What the run scripts enable (MODEL.flash, MODEL.collective_matmul: on
# unless validate.py is told otherwise): attention='flash' (the Pallas
# splash kernels) and the XLA flags of async collective fusion
# (xla_tpu_enable_async_collective_fusion, _fuse_all_gather,
# _multiple_steps: collective matmul), set by every v5p and v5e script;
# the 2023 v4 scripts set neither (their base.yml has no attention option).
MODEL = argparse.Namespace(flash=True, collective_matmul=True)


def maxtext_case(xla_run, workdir, rows, name, source, measured, chip, shape, chips, slices, model,
                 per_device_batch, tensor, remat, config, gated=True, note="",
                 flash=True, collective_matmul=True, seq=2048, count_attention=True, kind="prediction",
                 dcn_overlap=False, sync=""):
    """One MaxText run: `chips` chips per slice (fsdp = chips / tensor, as
    ici_fsdp_parallelism=-1 fills), data parallel over `slices` slices,
    per_device_batch_size sequences of 2048 per chip. `config` names the
    public run script the shapes come from; `flash` and `collective_matmul`
    say whether it enables flash attention and XLA's async collective
    fusion. `seq` is max_target_length; `count_attention` follows how the
    source counts model FLOPs. `sync` lists the collective kinds the run
    kept synchronous (xla-run --sync-collectives). Over several slices the gradients' DCN
    all-reduce runs after the backward (DCN_SCHEDULE);
    `dcn_overlap` overlaps it with the backward instead (a
    bound)."""
    S = seq
    D, H, Dh, F, L = model["d"], model["heads"], model["head_dim"], model["ffn"], model["layers"]
    A = H * Dh
    gen = ["--batch", str(per_device_batch * tensor), "--seq", str(S), "--d-model", str(D),
           "--heads", str(H), "--head-dim", str(Dh), "--ffn", str(F), "--fsdp", str(chips // tensor),
           "--tensor", str(tensor), "--remat", MAXTEXT_REMAT[remat]] + (["--gated"] if gated else [])
    if slices > 1:
        gen += ["--dcn", str(slices)]
    flash = flash and MODEL.flash
    collective_matmul = collective_matmul and MODEL.collective_matmul and tensor > 1
    gen += (["--flash-attention"] if flash else []) + (["--collective-matmul"] if collective_matmul else [])
    if slices > 1 and not dcn_overlap:
        gen.append("--dcn-after-backward")
    layer_params = 4 * D * A + (3 if gated else 2) * D * F
    parallel = f"fsdp {chips // tensor}" + (f" x tensor {tensor}" if tensor > 1 else "")
    desc = (f"{config}: d {D}, {H} heads x {Dh}, {'gated ' if gated else ''}MLP {F}, {L} layers, "
            f"{per_device_batch} seq/chip, {parallel}, remat {remat}"
            + (f", data {slices} over DCN" if slices > 1 else "")
            + (", DCN all-reduce overlapped with the backward" if slices > 1 and dcn_overlap else
               ", DCN all-reduce after the backward" if slices > 1 else "")
            + (", flash attention" if flash else "") + (", collective matmul" if collective_matmul else "")
            + (f", seq {S}" if S != 2048 else "")
            + (f", synchronous {sync}" if sync else "")
            + ("" if count_attention else ", MFU of 6 x parameters (no attention term)"))
    layer_case(xla_run, workdir, rows, name, source, gen, f"{chip}:{shape}", slices, chip, chips * slices,
               per_device_batch * chips * slices * S, layer_params, A, S, measured,
               desc + (f"; {note}" if note else ""), L, count_attention=count_attention,
               kind=kind, run_flags=[f"--sync-collectives={sync}"] if sync else [])


NO_V2 = ("no TPU v2 preset: neither the notes nor the Google Cloud pages searched give v2 chip figures (peak, HBM, "
         "topology); SB-prof's 1.2e11 B/s per link is the only one")
NO_1160B = ("no public config: the only v5p script at these sizes, configs/v5p/v5p-12288.sh (global_parameter_scale "
            "512, base_emb_dim 6144, tensor 16), describes a ~1.5T-parameter model, not 1160B; none for v5p-7680")
NOT_SIMULATED = (
    [unreproduced("TPU v2 4x2, ReduceScatter of a 134 MB shard over 1 hop", "SB-prof (notes 5.1)", "time (ms)", 1.13, NO_V2),
     unreproduced("TPU v2 8 cores, FFW matmul", "SB-prof (notes 5.1)", "time (ms)", 96.0, NO_V2)]
    + [unreproduced(f"MaxText 1160B {typ}", "MaxText v5p README (notes 5.2)", "MFU (%)", mfu, NO_1160B)
       for typ, mfu in (("v5p-7680", 64.27), ("v5p-12288", 66.23))]
    + [unreproduced("PaLM 540B HFU", "Chowdhery et al. 2022 (notes 5.2)", "HFU (%)", 57.8,
                    "HFU counts the recompute: see the PaLM partial remat row"),
       unreproduced("MLPerf v1.1 480B on 2048 v4 chips", "analyticsindiamag summary (notes 5.2)", "efficiency (%)", 63.0,
                    "shapes not public: Google's blog and its summaries give only a 480B dense encoder-only "
                    "(BERT-like) Lingvo model on 2048 v4 chips, not its layers, widths, batch or sharding; the 63% "
                    "counts compiler rematerialization")]
)


# --- GSPMD paper rows (Xu et al. 2021; notes 5.3) ---------------------------
#
# lingvo's DenseLm configs (tensorflow/lingvo
# lingvo/tasks/lm/params/synthetic_packed_input.py): global batch =
# BATCH_DIM_PER_DEVICE x NUM_DEVICES_PER_SPLIT sequences, a 2D device mesh of
# TensorCores with the batch on mesh axis 0 and the model dimension on axis 1
# (blm_split [0, -1, 1]), weights split over both. A simulated v3 device is a
# chip (two TensorCores), so the mesh of cores [a, 2b] or [2a, b] is the chip
# mesh [a, b] = the generator's fsdp x tensor: weights [d / fsdp, out /
# tensor] all-gathered over the batch axis, heads and the MLP hidden dim over
# the model axis. GSPMD keeps the activations' model dim split over axis 1
# and all-gathers / reduce-scatters them around each einsum; the generator
# all-reduces the replicated activations after wo and w2 instead (the same
# ring bytes: an all-reduce is a reduce-scatter plus an all-gather).
# Remat: full (each layer's forward recomputed): the paper's "50% to 62%
# compute utilization" matches the notes' 8N (recompute-counting) figures,
# not the 6N ones (docs/simulator.md 12). The optimizer is left out, as in the other rows:
# Adafactor (factored, beta1 0) keeps row and column statistics only, and
# the 41B row's Adam update streams ~28 B per local parameter (~5 ms per
# chip at 900 GB/s, under 0.1% of its step).
GSPMD_SRC = "lingvo synthetic_packed_input.py (notes 5.3)"
GSPMD_NOT_MODELLED = ("not modelled: embedding, softmax and loss (vocab 32000), relative-position biases, the "
                      "optimizer, and the two TensorCores' on-chip exchange (a device is a chip)")


def gspmd_params(layers, d, heads, head_dim, ffn, gated, seq, positional):
    """Total parameters of a DenseLm config: per layer 4 d A (attention) +
    (3 if gated else 2) d ffn, 2 layer norms and, without a positional
    embedding, the relative-attention bias (32 buckets x heads); the shared
    32000-word embedding, a final layer norm and the positional embedding
    (seq x d) when the config has one. Gives
    the file's 137,702,416,384 (DenseLm128B8x8), 174,366,928,896 (175B) and
    1,100,041,175,040 (1T) exactly."""
    A = heads * head_dim
    per_layer = 4 * d * A + (3 if gated else 2) * d * ffn + 2 * d + (0 if positional else 32 * heads)
    return layers * per_layer + 32000 * d + d + (seq * d if positional else 0)


def gspmd_case(xla_run, workdir, rows, name, topology, chips, mesh, batch, seq, layers, d, heads, ffn,
               gated, positional, tokens_per_s, extra_note=""):
    """One DenseLm row: the chip mesh (batch axis, model axis) as fsdp x
    tensor, full remat, simulated with 1 and 2 layers (as layer_case); the
    metric is 6N MFU, N the config's total parameters (notes 5.3)."""
    fsdp, tensor = mesh
    gen = ["--batch", str(batch // fsdp), "--seq", str(seq), "--d-model", str(d), "--heads", str(heads),
           "--head-dim", "128", "--ffn", str(ffn), "--fsdp", str(fsdp), "--tensor", str(tensor),
           "--remat", "full"] + (["--gated"] if gated else [])
    times = []
    for n in (1, 2):
        text = subprocess.run([sys.executable, os.path.join(HERE, "gen_spmd_transformer.py"), "--layers", str(n)]
                              + gen, capture_output=True, text=True, check=True).stdout
        out = run(xla_run, text, [f"--topology={topology}"], workdir, f"gspmd_{len(rows)}_{n}")
        times.append(step_time(out))
    layer = times[1] - times[0]
    step = times[0] + (layers - 1) * layer
    N = gspmd_params(layers, d, heads, 128, ffn, gated, seq, positional)
    mfu = lambda tok_s: tok_s * 6 * N / (chips * PEAK_V3) * 100
    predicted_tok_s = batch * seq / step
    rows.append(dict(
        case=f"GSPMD {name}", source=GSPMD_SRC, metric="MFU 6N (%)", measured=mfu(tokens_per_s),
        predicted=mfu(predicted_tok_s),
        note=(f"{topology} ({chips} chips): d {d}, {heads} heads x 128, {'gated ' if gated else ''}MLP {ffn}, "
              f"{layers} layers, {batch} seq x {seq}, chip mesh batch {fsdp} x model {tensor} (fsdp x tensor), "
              f"remat full; {N / 1e9:.1f}B params; measured {tokens_per_s / 1e3:.2f}k tok/s, predicted "
              f"{predicted_tok_s / 1e3:.2f}k; one layer {layer * 1e3:.1f} ms, step {step:.3f} s; "
              + GSPMD_NOT_MODELLED + (f"; {extra_note}" if extra_note else ""))))


PEAK_V3 = 1.23e14  # GC-v3 (notes 1.1), per chip

# Rows outside 15%, and a measured value that differs from the notes': why.
GSPMD_NOTES = {
    "DenseLm128B32x32, v3-2048": (
        "outside 15%: the model gives this row the per-layer time of DenseLm128B16x16 (same FLOPs per chip, "
        "101.7 vs 99.9 ms; the pod's wrapped rings carry the doubled tensor all-reduce bytes in the time of 16x16's "
        "lines), while the measured MFU falls from 47.2% to 40.7%. Not modelled: how the 2021 pod ran its "
        "collectives (with the pod's rings unwrapped, as lines, this row would be +16.7% and DenseLm175B32x32 "
        "-6.4%; lingvo orders the pod's devices plainly, the device order of a v3 pod is not public). Ruled out: "
        "per-TensorCore matmuls half as wide (2 heads, MLP 1024 per core) lose under 1% on the matmul efficiency "
        "curve"),
    "DenseLm175B32x32, v3-2048": (
        "outside 15% since the recompute stops before w2 (+2.7% with the dead w2 recomputed): the same pod as "
        "DenseLm128B32x32 and the same unknown (how the pod ran its collectives), not modelled"),
    "DenseLm1T16x16, v3-512": (
        "slower than measured: 512 tokens per data shard make the step weight-traffic bound; the "
        "generator all-gathers each layer's 1.07 GB of weights over the 16-chip batch line in the forward and "
        "again in the backward and reduce-scatters their gradients (most of the 52 ms per layer), "
        "while the measured 45.7 ms per layer needs less weight traffic: XLA's partitioner may move the 64x smaller "
        "activations instead, or keep the forward's gathered weights for the recompute (not modelled)"),
    "DenseLm12kWide41BAdam16x16, v3-512": (
        "measured MFU from the file's 53.8k tok/s and 43.9B parameters (24 layers of 12 x 12288^2 = 1.6875 x 2^30, "
        "the file's 'each layer has 1.6875B'); the notes' 41.5% counts 40.5B (1.6875e9 x 24); Adam, not modelled"),
}


def gspmd_rows(xla_run, workdir, rows):
    # name, topology (v3-N = N/2 chips), chips, chip mesh, global batch, seq,
    # layers, d_model, heads (x 128), ffn, gated GELU, positional embedding,
    # the file's expected tokens/s.
    for (name, topology, chips, mesh, batch, seq, layers, d, heads, ffn, gated, positional, tok_s) in (
            ("DenseLm128B8x8, v3-128", "v3:8x8", 64, (8, 8), 16, 1024, 64, 8192, 128, 65536, True, False, 3.7e3),
            ("DenseLm128B16x16, v3-512", "v3:16x16", 256, (16, 16), 128, 1024, 64, 8192, 128, 65536, True, False,
             18e3),
            ("DenseLm128B32x32, v3-2048", "v3:32x32", 1024, (32, 32), 512, 1024, 64, 8192, 128, 65536, True, False,
             62e3),
            ("DenseLm175B32x32, v3-2048", "v3:32x32", 1024, (32, 32), 1024, 2048, 96, 12288, 96, 49152, False,
             True, 51.53e3),
            ("DenseLm1T16x16, v3-512", "v3:16x16", 256, (16, 16), 16, 512, 128, 16384, 256, 131072, True, False,
             1.4e3),
            ("DenseLm12kWide41BAdam16x16, v3-512", "v3:16x16", 256, (16, 16), 256, 2048, 24, 12288, 96, 49152,
             False, True, 53.8e3)):
        gspmd_case(xla_run, workdir, rows, name, topology, chips, mesh, batch, seq, layers, d, heads, ffn, gated,
                   positional, tok_s, GSPMD_NOTES.get(name, ""))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--xla-run", default=os.path.join(ROOT, "build", "bin", "xla-run"))
    ap.add_argument("--out", default=os.path.join(ROOT, "bench", "results", "validation.csv"))
    ap.add_argument("--baseline", help="CSV of an earlier run: its predictions become the 'before' columns")
    ap.add_argument("--no-flash-attention", action="store_true",
                    help="attention through HBM in the MaxText rows (the scripts' flash kernels not modelled)")
    ap.add_argument("--no-collective-matmul", action="store_true",
                    help="the forward's tensor all-reduces as plain all-reduces in the MaxText rows")
    a = ap.parse_args()
    MODEL.flash, MODEL.collective_matmul = not a.no_flash_attention, not a.no_collective_matmul
    rows = []
    with tempfile.TemporaryDirectory() as workdir:
        all_gather_case(a.xla_run, workdir, rows, 2048, 8192, 680.0,
                        "bandwidth bound; SB's own model says 560 us")
        all_gather_case(a.xla_run, workdir, rows, 256, 256, 8.0,
                        "latency bound (32 kB shards); SB's model says ~3 us")

        # TPU7x all-gather curves: both run as one bidirectional ring; they fit
        # the preset's step cost and ICI efficiency (docs/topology.md 4.6).
        for shape, curve in (("2x2x1", (71.8, 129.2, 161.9, 174.8, 178.8)),
                             ("2x2x2", (69.5, 127.4, 162.1, 174.7, 178.8))):
            for n, gbps in zip((64, 256, 1024, 4096, 16384), curve):
                tpu7x_all_gather_case(a.xla_run, workdir, rows, shape, n, gbps,
                                      "in-sample (fits TPU7x's step cost and efficiency; one ring of 4)"
                                      if shape == "2x2x1" else
                                      "one ring of 8 (docs/topology.md 4.1); step cost fitted on both curves")
        for m, tflops in ((128, 2.6), (256, 18.3), (512, 105), (1024, 350), (2048, 679), (4096, 893),
                          (16384, 950), (32768, 956)):
            tpu7x_gemm_case(a.xla_run, workdir, rows, m, tflops)

        # MaxText (AI-Hypercomputer/maxtext): shapes from global_parameter_scale
        # or the script's base_* overrides, run settings from the scripts under
        # MaxText/configs/ (docs/simulator.md 12, "where the shapes come from").
        v5p_src, v5e_src, v4_src = ("MaxText v5p README (notes 5.2)", "MaxText v5e multislice table (notes 5.2)",
                                    "MaxText v4 README (notes 5.2)")
        m32, m64, m128, m256, m512, m1024 = (maxtext_shape(s) for s in (32, 64, 128, 256, 512, 1024))

        # v5p (configs/v5p/*.sh: ici_fsdp_parallelism=-1, flash attention).
        for name, measured in (("MaxText 32B, 1x v5p-128 (64 chips)", 71.47),
                               ("MaxText 32B 1x v5p-128 (top-level README)", 67.76)):
            maxtext_case(a.xla_run, workdir, rows, name, v5p_src, measured, "v5p", "4x4x4", 64, 1, m32, 7, 4,
                         "minimal", "configs/v5p/32b.sh")
        maxtext_case(a.xla_run, workdir, rows, "MaxText 32B, 2x v5p-128 (128 chips, DCN)", v5p_src, 69.43, "v5p",
                     "4x4x4", 64, 2, m32, 7, 4, "minimal", "configs/v5p/32b.sh")
        maxtext_case(a.xla_run, workdir, rows, "MaxText 32B, 2x v5p-128, DCN all-reduce under the backward", v5p_src,
                     69.43, "v5p", "4x4x4", 64, 2, m32, 7, 4, "minimal", "configs/v5p/32b.sh", dcn_overlap=True,
                     note="bound: each layer's DCN all-reduce overlapped with the backward", kind="bound")
        for name, measured, chips, model, batch, remat, script in (
                ("MaxText 64B v5p-128", 70.31, 64, m64, 3, "minimal", "64b"),
                ("MaxText 128B v5p-256", 68.68, 128, m128, 1, "minimal", "128b"),
                ("MaxText 128B v5p-512", 68.53, 256, m128, 1, "minimal", "128b"),
                ("MaxText 256B v5p-1024", 68.82, 512, m256, 1, "minimal", "256b"),
                ("MaxText 512B v5p-1024", 63.99, 512, m512, 2, "full", "512b"),
                ("MaxText 1024B v5p-2048", 64.05, 1024, m1024, 2, "full", "1024b"),
                ("MaxText 1024B v5p-4096", 64.80, 2048, m1024, 2, "full", "1024b")):
            maxtext_case(a.xla_run, workdir, rows, name, v5p_src, measured, "v5p", V5P_SHAPE[chips], chips, 1,
                         model, batch, 4 if model is m64 else 8, remat, f"configs/v5p/{script}.sh")

        # v5e-256 slices, data parallel over N slices (configs/v5e/*.sh).
        m16 = maxtext_shape(16)
        curves = (("16B", m16, 6, 1, "full", (61.10, 59.37, 59.14, 58.27, 56.56, 54.65)),
                  ("32B", m32, 4, 1, "full", (66.86, 64.81, 64.10, 63.67, 62.26, 60.40)),
                  ("64B", m64, 2, 1, "full", (59.90, 56.66, 55.85, 54.96, 53.29, 50.18)),
                  ("128B", m128, 1, 16, "minimal_offloaded", (56.06, 55.82, 54.93, 52.93, 50.86, 46.25)))
        for size, model, batch, tensor, remat, curve in curves:
            for slices, measured in zip((1, 2, 4, 8, 16, 32), curve):
                name = (f"MaxText 16B, {slices}x v5e-256 ({256 * slices} chips)" if size == "16B"
                        else f"MaxText {size}, {slices}x v5e-256")
                maxtext_case(a.xla_run, workdir, rows, name, v5e_src, measured, "v5e", "16x16", 256, slices, model,
                             batch, tensor, remat, f"configs/v5e/{size.lower()}.sh",
                             note=V5E_128B if size == "128B" else "")
        for slices, measured in ((2, 59.37), (32, 54.65)):
            maxtext_case(a.xla_run, workdir, rows, f"MaxText 16B, {slices}x v5e-256, DCN all-reduce under the backward",
                         v5e_src, measured, "v5e", "16x16", 256, slices, m16, 6, 1, "full", "configs/v5e/16b.sh",
                         dcn_overlap=True, note="bound: each layer's DCN all-reduce overlapped with the backward",
                         kind="bound")

        # v4 (older README, 2023 scripts configs/{1,2,4}xv4-128.sh, {1,2}xv4-384.sh:
        # `scale` multiplied the 2023 base.yml's dims). The widths and depths
        # are those of today's configs/v4/22b.sh and 52b.sh; head_dim 256 and
        # a plain (ungated) MLP are what make the named 22B and 52B (today's
        # head_dim 128 with a gated MLP would give 25B and 64B), as the 2023
        # base.yml (246f0f9) has them: head_dim 256, mlp_activations relu,
        # max_target_length 1024. Its train.py counts per_device_tflops = 6 x
        # parameters x max_target_length x batch: no attention term (and the
        # embedding, about 1% here, which the simulated step leaves out).
        # Collectives: the scripts make only the all-gathers async
        # (LIBTPU_INIT_ARGS="--xla_enable_async_all_gather=true"); the
        # reduce-scatters stay on the compute stream [inferred: the later v5e
        # scripts need xla_enable_async_reduce_scatter_fusion for that, and
        # v4's plain reduce-scatter HLO is synchronous]. The older README
        # marks the 52B two-slice row "low because we don't have async all
        # gather enabled": its all-gathers are synchronous too.
        m22 = dict(d=6144, heads=24, head_dim=256, ffn=24576, layers=48)
        m52 = dict(d=12288, heads=32, head_dim=256, ffn=49152, layers=32)
        for name, measured, shape, chips, slices, model, batch, script, sync in (
                ("MaxText 22B, 1x v4-128 (older README)", 60.0, "4x4x4", 64, 1, m22, 16, "1xv4-128", "reduce-scatter"),
                ("MaxText 22B, 2x v4-128 (older README)", 57.4, "4x4x4", 64, 2, m22, 16, "2xv4-128", "reduce-scatter"),
                ("MaxText 22B, 4x v4-128 (older README)", 56.3, "4x4x4", 64, 4, m22, 16, "4xv4-128", "reduce-scatter"),
                ("MaxText 52B, 1x v4-384 (older README)", 55.2, "4x4x12", 192, 1, m52, 10, "1xv4-384", "reduce-scatter"),
                ("MaxText 52B, 2x v4-384 (older README)", 51.6, "4x4x12", 192, 2, m52, 10, "2xv4-384",
                 "all-gather,reduce-scatter")):
            maxtext_case(a.xla_run, workdir, rows, name, v4_src, measured, "v4", shape, chips, slices, model, batch, 1,
                         "full", f"configs/{script}.sh", gated=False, flash=False, collective_matmul=False,
                         seq=1024, count_attention=False, sync=sync,
                         note=(V4_52B + "; " + V4_52B_SLICES if slices > 1 else V4_52B) if model is m52 else "")

        # PaLM 540B: 2 pods of 3072 v4 chips, 12-way tensor x 256-way FSDP in
        # a pod, 2-way data parallel over DCN; d 18432, 48 heads x 256,
        # multi-query, SwiGLU 73728, batch 2048 x 2048 tokens.
        D, A, F, S = 18432, 48 * 256, 73728, 2048
        palm = D * A + 2 * D * 256 + A * D + 3 * D * F
        # The gradients cross the pods after the backward, as in the MaxText
        # rows (DCN_SCHEDULE; PaLM's ~81 Tbps DCN "burst", notes 5.2).
        # PaLM recomputed part of the forward: HFU 57.8% over MFU 46.2% is
        # 25% extra FLOPs, between none and a full forward (33%). The
        # partial policy recomputes all but the output projections wo and
        # w2, whose results follow the tensor all-reduces (22% extra).
        for remat, label, kind, note in (
                ("none", "no remat", "bound", "lower bound on time: no recompute"),
                ("full", "full remat", "bound", "upper bound: the whole forward recomputed (33% extra FLOPs)"),
                ("partial", "partial remat", "prediction",
                 "recompute all but wo and w2 and their all-reduces (22% extra FLOPs; PaLM's HFU/MFU: 25%)")):
            gen = ["--batch", "4", "--seq", str(S), "--d-model", str(D), "--heads", "48",
                   "--head-dim", "256", "--kv-heads", "1", "--ffn", str(F), "--gated",
                   "--fsdp", "256", "--tensor", "12", "--dcn", "2", "--remat", remat, "--dcn-after-backward"]
            layer_case(a.xla_run, workdir, rows, f"PaLM 540B, 2 x 3072 v4 chips ({label})",
                       "Chowdhery et al. 2022 (notes 5.2)", gen, "v4:12x16x16", 2, "v4", 6144,
                       2048 * S, palm, A, S, 46.2,
                       "tensor 12 on x (ring of 12), FSDP 256 on y x z, DCN 2 (all-reduce after the backward); " + note,
                       118, kind=kind)

        gspmd_rows(a.xla_run, workdir, rows)

    rows.extend(NOT_SIMULATED)
    before = {}
    if a.baseline:
        with open(a.baseline) as f:
            for r in csv.DictReader(f):
                if r.get("predicted"):
                    before[r["case"]] = float(r["predicted"])

    def error(predicted, measured):
        return None if predicted is None else (predicted - measured) / measured * 100

    for r in rows:
        r.setdefault("kind", "prediction")
        r["error_pct"] = error(r["predicted"], r["measured"])
        r["predicted_before"] = before.get(r["case"])
        r["error_before_pct"] = error(r["predicted_before"], r["measured"])
    os.makedirs(os.path.dirname(a.out), exist_ok=True)
    keys = ["case", "source", "metric", "kind", "measured", "predicted", "error_pct",
            "predicted_before", "error_before_pct", "note"]

    def cell(v):
        return "" if v is None else f'"{v}"' if isinstance(v, str) else f"{v:.2f}"
    tmp = a.out + ".tmp"
    with open(tmp, "w") as f:
        f.write(",".join(keys) + "\n")
        for r in rows:
            f.write(",".join(cell(r[k]) for k in keys) + "\n")
    os.replace(tmp, a.out)

    def num(v, fmt):
        return "-" if v is None else format(v, fmt)
    print("| case | source | metric | kind | measured | before | error before | after | error after |")
    print("|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        print(f"| {r['case']} | {r['source']} | {r['metric']} | {r['kind']} | {r['measured']:.2f} | "
              f"{num(r['predicted_before'], '.2f')} | {num(r['error_before_pct'], '+.1f')}% | "
              f"{num(r['predicted'], '.2f')} | {num(r['error_pct'], '+.1f')}% |".replace("| -% |", "| - |"))
    simulated = [r for r in rows if r["error_pct"] is not None]
    predictions = [r for r in simulated if r["kind"] == "prediction"]
    errs = [abs(r["error_pct"]) for r in predictions]
    within = sum(e <= 15 for e in errs)
    before_errs = [abs(r["error_before_pct"]) for r in predictions if r["error_before_pct"] is not None]
    print(f"\n{len(predictions)} predictions: mean |error| {sum(errs) / len(errs):.1f}%, max {max(errs):.1f}%, "
          f"{within} within 15%"
          + (f" (baseline, same rows: {sum(e <= 15 for e in before_errs)} of {len(before_errs)})"
             if before_errs else "")
          + f"; {len(simulated) - len(predictions)} bounds (not counted); "
          f"{len(rows) - len(simulated)} not simulated")
    print(f"wrote {a.out}")


if __name__ == "__main__":
    main()
