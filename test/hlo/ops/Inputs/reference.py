"""Runs one HLO module of this folder with xla-run on generated inputs and
compares its outputs with a NumPy reference of XLA's definition of the op.

usage: reference.py XLA_RUN CASE MODULE.hlo WORKDIR
"""
import os
import subprocess
import sys

import numpy as np


def conv_nhwc(lhs, rhs, stride, pad, feature_groups=1, batch_groups=1,
              reversal=None):
    """XLA's convolution (evaluator semantics) on b01f / 01io / b01f."""
    spatial = lhs.ndim - 2
    if reversal:
        rhs = np.flip(rhs, axis=tuple(d for d, r in enumerate(reversal) if r))
    lhs = np.pad(lhs, [(0, 0)] + [tuple(p) for p in pad] + [(0, 0)])
    n, c = lhs.shape[0], lhs.shape[-1]
    k, o = rhs.shape[:spatial], rhs.shape[-1]
    out_sp = [(lhs.shape[1 + i] - k[i]) // stride[i] + 1 for i in range(spatial)]
    nb = n // batch_groups
    out = np.zeros([nb] + out_sp + [o], dtype=np.float64)
    cg = c // feature_groups
    og = o // feature_groups
    obg = o // batch_groups
    for oo in range(o):
        fg = oo // og
        bg = oo // obg
        x = lhs[bg * nb:(bg + 1) * nb, ..., fg * cg:(fg + 1) * cg]
        for pos in np.ndindex(*k):
            sl = tuple(slice(pos[i], pos[i] + stride[i] * (out_sp[i] - 1) + 1,
                             stride[i]) for i in range(spatial))
            patch = x[(slice(None),) + sl]
            out[..., oo] += patch @ rhs[pos + (slice(None), oo)]
    return out


def bn_axes(x, f):
    return tuple(d for d in range(x.ndim) if d != f)


def expand(v, x, f):
    shape = [1] * x.ndim
    shape[f] = -1
    return v.reshape(shape)


def case_bn_training(rng):
    x = rng.standard_normal((8, 4, 6, 6)).astype(np.float32)
    scale = rng.standard_normal(4).astype(np.float32)
    offset = rng.standard_normal(4).astype(np.float32)
    xd = x.astype(np.float64)
    mean = xd.mean(axis=bn_axes(x, 1))
    var = ((xd - expand(mean, x, 1)) ** 2).mean(axis=bn_axes(x, 1))
    y = (xd - expand(mean, x, 1)) / np.sqrt(expand(var, x, 1) + 1e-3) \
        * expand(scale, x, 1) + expand(offset, x, 1)
    return [x, scale, offset], [y, mean, var]


def case_bn_inference(rng):
    x = rng.standard_normal((2, 5, 5, 3)).astype(np.float32)
    scale, offset, mean = (rng.standard_normal(3).astype(np.float32)
                           for _ in range(3))
    var = rng.uniform(0.5, 2.0, 3).astype(np.float32)
    y = (x - mean) / np.sqrt(var.astype(np.float64) + 1e-5) * scale + offset
    return [x, scale, offset, mean, var], [y]


def case_bn_grad(rng):
    x = rng.standard_normal((4, 3, 5)).astype(np.float32)
    scale = rng.standard_normal(3).astype(np.float32)
    xd = x.astype(np.float64)
    mean = xd.mean(axis=(0, 2))
    var = ((xd - mean[None, :, None]) ** 2).mean(axis=(0, 2))
    dy = rng.standard_normal(x.shape).astype(np.float32)
    eps = 1e-3
    n = x.size / x.shape[1]
    xc = xd - mean[None, :, None]
    inv = 1.0 / np.sqrt(var + eps)
    sum_dy = dy.sum(axis=(0, 2))
    sum_dy_xc = (dy * xc).sum(axis=(0, 2))
    grad_x = (scale * inv)[None, :, None] * (
        dy - sum_dy[None, :, None] / n
        - xc * (sum_dy_xc / n / (var + eps))[None, :, None])
    return ([x, scale, mean.astype(np.float32), var.astype(np.float32), dy],
            [grad_x, sum_dy_xc * inv, sum_dy])


def case_conv_batch_group(rng):
    # A grouped convolution's kernel gradient: batch_group_count = 2.
    lhs = rng.standard_normal((4, 6, 6, 2)).astype(np.float32)
    rhs = rng.standard_normal((3, 3, 2, 4)).astype(np.float32)
    out = conv_nhwc(lhs, rhs, (1, 1), ((0, 0), (0, 0)), batch_groups=2)
    return [lhs, rhs], [out]


def case_conv_reversal(rng):
    lhs = rng.standard_normal((2, 5, 5, 3)).astype(np.float32)
    rhs = rng.standard_normal((3, 3, 3, 4)).astype(np.float32)
    out = conv_nhwc(lhs, rhs, (1, 1), ((2, 2), (2, 2)), reversal=(1, 1))
    return [lhs, rhs], [out]


def case_conv_no_spatial(rng):
    lhs = rng.standard_normal((8, 6)).astype(np.float32)
    rhs = rng.standard_normal((6, 5)).astype(np.float32)
    return [lhs, rhs], [lhs.astype(np.float64) @ rhs]


def case_conv_no_spatial_groups(rng):
    lhs = rng.standard_normal((4, 6)).astype(np.float32)
    rhs = rng.standard_normal((4, 3)).astype(np.float32)   # oi
    out = conv_nhwc(lhs[:, None, :], rhs.T[None], (1,), ((0, 0),),
                    feature_groups=2)
    return [lhs, rhs], [out[:, 0, :]]


def case_pad_dynamic(rng):
    x = rng.standard_normal((4, 6)).astype(np.float32)
    v = np.float32(rng.standard_normal())
    out = np.full((4 + 1 + 2 + 3, 6 - 1 + 2), v, dtype=np.float64)
    # low 1 high 2 interior 1 on dim 0; low -1 high 2 on dim 1.
    inner = np.full((7, 6), v, dtype=np.float64)
    inner[::2, :] = x
    out = np.full((1 + 7 + 2, 6 - 1 + 2), v, dtype=np.float64)
    out[1:8, :5] = inner[:, 1:]
    return [x, np.array(v, dtype=np.float32)], [out]


CASES = {name[5:]: fn for name, fn in globals().items()
         if name.startswith("case_")}


def main():
    xla_run, case, module, work = sys.argv[1:5]
    os.makedirs(work, exist_ok=True)
    inputs, expected = CASES[case](np.random.default_rng(7))
    args = [xla_run, module, "--no-partition"]
    for i, x in enumerate(inputs):
        path = os.path.join(work, f"in{i}.npy")
        np.save(path, x)
        args += ["--input", "@" + path]
    outs = [os.path.join(work, f"out{i}.npy") for i in range(len(expected))]
    for path in outs:
        args += ["--output", "@" + path]
    subprocess.run(args, check=True, stdout=subprocess.DEVNULL)
    ok = True
    for i, (path, want) in enumerate(zip(outs, expected)):
        got = np.load(path)
        err = float(np.max(np.abs(got.astype(np.float64) - want))) \
            if want.size else 0.0
        scale = max(1.0, float(np.max(np.abs(want)))) if want.size else 1.0
        good = got.shape == want.shape and err <= 1e-4 * scale
        ok &= good
        print(f"{case} result[{i}] {list(got.shape)} max abs error {err:.2e}: "
              f"{'ok' if good else 'MISMATCH'}")
    print(f"{case}: {'NUMPY-OK' if ok else 'NUMPY-MISMATCH'}")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
