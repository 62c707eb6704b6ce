#!/usr/bin/env python3
"""Generates test/e2e/ops-*.mlir: every op of the dialect under representative
shardings over a 2x2 mesh (including dimensions that do not divide), each
partitioned by --xla-spmd-pipeline and checked against the single-device run.

Run from this directory: python3 gen_ops.py (the outputs are committed).
"""
import math

MESH = 'xla.mesh @mesh = <["x"=2, "y"=2]>'
SIZES = {'x': 2, 'y': 2}


def sh(spec, rank):
    """'x,y|' -> #xla.sharding<@mesh, [{"x", "y"}, {}]>"""
    dims = []
    for d in (spec.split('|') if rank else []):
        axes = [a for a in d.split(',') if a]
        dims.append('{' + ', '.join(f'"{a}"' for a in axes) + '}')
    return f'#xla.sharding<@mesh, [{", ".join(dims)}]>'


def local_type(ty, spec):
    shape, elem = ty
    if spec is None:
        return tensor(shape, elem)
    out = []
    for size, d in zip(shape, spec.split('|') if shape else []):
        n = math.prod(SIZES[a] for a in d.split(',') if a)
        out.append(-(-size // n))
    return tensor(out, elem)


def tensor(shape, elem):
    return 'tensor<' + ''.join(f'{s}x' for s in shape) + elem + '>'


class Case:
    def __init__(self, name, args, body, results):
        """args: [(name, (shape, elem), spec or None)]; results: [(value,
        (shape, elem), spec or None)]."""
        self.name, self.args, self.body, self.results = name, args, body, results

    def emit(self):
        lines = []
        lines.append(f'// CHECK-LABEL: func.func @{self.name}(')
        for _, ty, spec in self.args:
            lines.append(f'// CHECK-SAME: {local_type(ty, spec)}')
        lines.append('// CHECK-SAME: attributes {xla.partitioned}')
        params = []
        for name, ty, spec in self.args:
            attr = f' {{xla.sharding = {sh(spec, len(ty[0]))}}}' if spec is not None else ''
            params.append(f'%{name}: {tensor(*ty)}{attr}')
        rets = []
        for _, ty, spec in self.results:
            attr = f' {{xla.sharding = {sh(spec, len(ty[0]))}}}' if spec is not None else ''
            rets.append(f'{tensor(*ty)}{attr}')
        lines.append(f'func.func @{self.name}({", ".join(params)}) -> ({", ".join(rets)}) {{')
        lines += ['  ' + l for l in self.body]
        values = ', '.join(v for v, _, _ in self.results)
        types = ', '.join(tensor(*t) for _, t, _ in self.results)
        lines.append(f'  return {values} : {types}')
        lines.append('}')
        return '\n'.join(lines)


def positive(src, ty, dst):
    """dst = abs(src) + 1 (for log, sqrt, rsqrt, pow bases)."""
    t = tensor(*ty)
    return [f'%{dst}_abs = xla.abs %{src} : {t}',
            f'%{dst}_one = xla.constant dense<1.0> : {t}',
            f'%{dst} = xla.add %{dst}_abs, %{dst}_one : {t}']


def elementwise():
    cases = []
    f = ((6, 5), 'f32')
    specs = [('both', 'x|y', 'x|y'), ('mixed', 'x|', '|y'), ('nondiv', 'x,y|', 'y|x')]
    for op in ['add', 'sub', 'mul', 'div', 'max', 'min']:
        for tag, sa, sb in specs:
            cases.append(Case(f'{op}_{tag}', [('a', f, sa), ('b', f, sb)],
                              [f'%r = xla.{op} %a, %b : {tensor(*f)}'],
                              [('%r', f, sa)]))
    cases.append(Case('pow', [('a', f, 'x|y'), ('b', f, 'y|')],
                      positive('a', f, 'p') + [f'%r = xla.pow %p, %b : {tensor(*f)}'],
                      [('%r', f, 'x|y')]))
    for elem in ['i32', 'i1']:
        t = ((6, 5), elem)
        for op in ['and', 'or', 'xor']:
            cases.append(Case(f'{op}_{elem}', [('a', t, 'x|y'), ('b', t, '|x')],
                              [f'%r = xla.{op} %a, %b : {tensor(*t)}'],
                              [('%r', t, 'x|')]))
        cases.append(Case(f'not_{elem}', [('a', t, 'x,y|')],
                          [f'%r = xla.not %a : {tensor(*t)}'], [('%r', t, '|y')]))
    g = ((7, 3), 'f32')
    for op in ['neg', 'abs', 'exp', 'tanh', 'sigmoid', 'relu', 'gelu']:
        cases.append(Case(f'{op}', [('a', g, 'x|y')],
                          [f'%r = xla.{op} %a : {tensor(*g)}'], [('%r', g, 'x|y')]))
    for op in ['log', 'sqrt', 'rsqrt']:
        cases.append(Case(f'{op}', [('a', g, 'y|x')],
                          positive('a', g, 'p') + [f'%r = xla.{op} %p : {tensor(*g)}'],
                          [('%r', g, '|x')]))
    for elem in ['i32', 'bf16', 'f16', 'f64']:
        t = ((7, 3), elem)
        cases.append(Case(f'neg_abs_{elem}', [('a', t, 'x|y')],
                          [f'%n = xla.neg %a : {tensor(*t)}',
                           f'%r = xla.abs %n : {tensor(*t)}'], [('%r', t, 'y|')]))
    for d in ['eq', 'ne', 'lt', 'le', 'gt', 'ge']:
        cases.append(Case(f'compare_{d}', [('a', ((6, 5), 'i32'), 'x|'), ('b', ((6, 5), 'i32'), '|y')],
                          [f'%r = xla.compare {d}, %a, %b : tensor<6x5xi32>'],
                          [('%r', ((6, 5), 'i1'), 'x|y')]))
    cases.append(Case('select', [('p', ((6, 5), 'i1'), 'x|'), ('a', f, '|y'), ('b', f, 'y|x')],
                      ['%r = xla.select %p, %a, %b : tensor<6x5xf32>'], [('%r', f, 'x|y')]))
    for src, dst in [('f32', 'bf16'), ('f32', 'i32'), ('i32', 'f32'), ('f32', 'i1'), ('i1', 'f16')]:
        cases.append(Case(f'convert_{src}_{dst}', [('a', ((6, 5), src), 'x|y')],
                          [f'%r = xla.convert %a : tensor<6x5x{src}> -> tensor<6x5x{dst}>'],
                          [('%r', ((6, 5), dst), 'x,y|')]))
    return cases


def shape_ops():
    c = []
    c.append(Case('broadcast', [('a', ((5,), 'f32'), 'x')],
                  ['%r = xla.broadcast_in_dim %a, dims = [1] : (tensor<5xf32>) -> tensor<4x5xf32>'],
                  [('%r', ((4, 5), 'f32'), 'y|x')]))
    c.append(Case('broadcast_size1', [('a', ((1, 6), 'f32'), '|y')],
                  ['%r = xla.broadcast_in_dim %a, dims = [0, 1] : (tensor<1x6xf32>) -> tensor<8x6xf32>'],
                  [('%r', ((8, 6), 'f32'), 'x|y')]))
    for tag, src, ssp, dst, dsp in [('merge', (8, 6), 'x|', (48,), 'x'),
                                    ('split', (48,), 'x,y', (4, 12), 'x,y|'),
                                    ('regroup', (6, 4), 'x|y', (4, 6), 'y|x'),
                                    ('nondiv', (7, 4), 'x|', (28,), 'y')]:
        c.append(Case(f'reshape_{tag}', [('a', (src, 'f32'), ssp)],
                      [f'%r = xla.reshape %a : ({tensor(src, "f32")}) -> {tensor(dst, "f32")}'],
                      [('%r', (dst, 'f32'), dsp)]))
    c.append(Case('transpose', [('a', ((6, 5, 4), 'f32'), 'x|y|')],
                  ['%r = xla.transpose %a, permutation = [2, 0, 1] : (tensor<6x5x4xf32>) -> tensor<4x6x5xf32>'],
                  [('%r', ((4, 6, 5), 'f32'), 'x|y|')]))
    for tag, start, limit, strides, out, spec in [
            ('offset', [1, 0], [9, 6], [1, 1], (8, 6), 'x|'),
            ('stride', [0, 1], [10, 6], [2, 2], (5, 3), 'x|y'),
            ('inner', [2, 0], [8, 6], [1, 1], (6, 6), 'x,y|')]:
        c.append(Case(f'slice_{tag}', [('a', ((10, 6), 'f32'), spec)],
                      [f'%r = xla.slice %a, start = {start}, limit = {limit}, strides = {strides} : (tensor<10x6xf32>) -> {tensor(out, "f32")}'],
                      [('%r', (out, 'f32'), spec)]))
    c.append(Case('dynamic_slice', [('a', ((8, 6), 'f32'), 'x|y')],
                  ['%i = xla.constant dense<3> : tensor<i32>',
                   '%j = xla.constant dense<9> : tensor<i32>',
                   '%r = xla.dynamic_slice %a[%i, %j], sizes = [4, 3] : (tensor<8x6xf32>, tensor<i32>, tensor<i32>) -> tensor<4x3xf32>'],
                  [('%r', ((4, 3), 'f32'), 'x|')]))
    c.append(Case('dynamic_update_slice', [('a', ((8, 6), 'f32'), 'x|y'), ('u', ((2, 6), 'f32'), '|')],
                  ['%i = xla.constant dense<3> : tensor<i64>',
                   '%j = xla.constant dense<0> : tensor<i64>',
                   '%r = xla.dynamic_update_slice %a, %u[%i, %j] : (tensor<8x6xf32>, tensor<2x6xf32>, tensor<i64>, tensor<i64>) -> tensor<8x6xf32>'],
                  [('%r', ((8, 6), 'f32'), 'x|y')]))
    for tag, i, j, upd, usp in [('clamped', 7, -3, (2, 3), '|'), ('straddle', 3, 2, (3, 3), '|'),
                                ('full_width', 5, 0, (3, 6), '|y')]:
        c.append(Case(f'dynamic_update_slice_{tag}',
                      [('a', ((9, 6), 'f32'), 'x,y|' if tag != 'full_width' else 'x|y'),
                       ('u', (upd, 'f32'), usp)],
                      [f'%i = xla.constant dense<{i}> : tensor<i32>',
                       f'%j = xla.constant dense<{j}> : tensor<i32>',
                       f'%r = xla.dynamic_update_slice %a, %u[%i, %j] : (tensor<9x6xf32>, {tensor(upd, "f32")}, tensor<i32>, tensor<i32>) -> tensor<9x6xf32>'],
                      [('%r', ((9, 6), 'f32'), 'x|y')]))
    for dim, out in [(0, (8, 6)), (1, (4, 12))]:
        c.append(Case(f'concatenate_{dim}', [('a', ((4, 6), 'f32'), 'x|y'), ('b', ((4, 6), 'f32'), 'y|')],
                      [f'%r = xla.concatenate %a, %b, dim = {dim} : (tensor<4x6xf32>, tensor<4x6xf32>) -> {tensor(out, "f32")}'],
                      [('%r', (out, 'f32'), 'x|y')]))
    for tag, low, high, interior, out, spec in [
            ('edge', [2, 0], [1, 0], [0, 0], (13, 6), 'x|'),
            ('interior', [0, 1], [0, 1], [0, 1], (10, 13), 'x|y'),
            ('negative', [-1, 1], [2, -1], [0, 0], (11, 6), 'x,y|')]:
        c.append(Case(f'pad_{tag}', [('a', ((10, 6), 'f32'), spec)],
                      [f'%r = xla.pad %a, low = {low}, high = {high}, interior = {interior}, value = 0.5 : (tensor<10x6xf32>) -> {tensor(out, "f32")}'],
                      [('%r', (out, 'f32'), spec)]))
    for tag, tsp, isp, rsp in [('vocab', 'x,y|', 'x|', 'x||'), ('columns', '|y', '|x', '||y'),
                               ('indices', '|', 'x|y', 'x|y|')]:
        c.append(Case(f'gather_{tag}', [('t', ((10, 4), 'f32'), tsp)],
                      [f'%i = xla.constant dense<[[0, 9, 3, -2, 11], [4, 4, 7, 1, 2], [8, 0, 5, 6, 12]]> : tensor<3x5xi32>',
                       f'%is = xla.mark_sharding %i <@mesh, [{", ".join("{" + ", ".join(chr(34)+a+chr(34) for a in d.split(",") if a) + "}" for d in isp.split("|"))}]> : tensor<3x5xi32>',
                       '%r = xla.gather %t, %is : (tensor<10x4xf32>, tensor<3x5xi32>) -> tensor<3x5x4xf32>'],
                      [('%r', ((3, 5, 4), 'f32'), rsp)]))
    c.append(Case('mark_sharding_chain', [('a', ((6, 8), 'f32'), 'x|y')],
                  ['%m1 = xla.mark_sharding %a <@mesh, [{"y"}, {"x"}]> : tensor<6x8xf32>',
                   '%m2 = xla.mark_sharding %m1 <@mesh, [{}, {"x", "y"}]> : tensor<6x8xf32>',
                   '%m3 = xla.mark_sharding %m2 <@mesh, [{"x", "y"}, {}]> : tensor<6x8xf32>'],
                  [('%m3', ((6, 8), 'f32'), '|')]))
    return c


def contractions():
    c = []
    for tag, lsp, rsp, osp in [('batch', 'x||', 'x||', 'x||'), ('contract', '||y', '|y|', '||'),
                               ('free', '|x|', '||y', '|x|y'), ('all', 'x|y|', 'x||y', 'x|y|')]:
        c.append(Case(f'dot_general_{tag}', [('a', ((2, 6, 8), 'f32'), lsp), ('b', ((2, 8, 4), 'f32'), rsp)],
                      ['%r = xla.dot_general %a, %b, batch = [0] x [0], contract = [2] x [1] : (tensor<2x6x8xf32>, tensor<2x8x4xf32>) -> tensor<2x6x4xf32>'],
                      [('%r', ((2, 6, 4), 'f32'), osp)]))
    c.append(Case('dot_general_nondiv_contract', [('a', ((6, 7), 'f32'), '|x,y'), ('b', ((7, 5), 'f32'), 'x,y|')],
                  ['%r = xla.dot_general %a, %b, batch = [] x [], contract = [1] x [0] : (tensor<6x7xf32>, tensor<7x5xf32>) -> tensor<6x5xf32>'],
                  [('%r', ((6, 5), 'f32'), 'x|')]))
    c.append(Case('matmul_linear', [('a', ((2, 6, 8), 'f32'), 'x||y'), ('w', ((8, 4), 'f32'), 'y|x')],
                  ['%r = xla.matmul %a, %w : (tensor<2x6x8xf32>, tensor<8x4xf32>) -> tensor<2x6x4xf32>'],
                  [('%r', ((2, 6, 4), 'f32'), 'x||')]))
    c.append(Case('matmul_bf16', [('a', ((6, 8), 'bf16'), 'x|y'), ('w', ((8, 4), 'bf16'), 'y|')],
                  ['%r = xla.matmul %a, %w : (tensor<6x8xbf16>, tensor<8x4xbf16>) -> tensor<6x4xbf16>'],
                  [('%r', ((6, 4), 'bf16'), 'x|')]))
    c.append(Case('matmul_i32', [('a', ((6, 8), 'i32'), 'x|y'), ('w', ((8, 4), 'i32'), 'y|')],
                  ['%r = xla.matmul %a, %w : (tensor<6x8xi32>, tensor<8x4xi32>) -> tensor<6x4xi32>'],
                  [('%r', ((6, 4), 'i32'), '|x')]))
    c.append(Case('einsum_transposed', [('a', ((4, 6), 'f32'), 'x|y'), ('b', ((5, 6), 'f32'), '|y')],
                  ['%r = xla.einsum "ij,kj->ki" %a, %b : (tensor<4x6xf32>, tensor<5x6xf32>) -> tensor<5x4xf32>'],
                  [('%r', ((5, 4), 'f32'), '|x')]))
    c.append(Case('einsum_sum_only', [('a', ((4, 6), 'f32'), 'x|y'), ('b', ((6, 3), 'f32'), '|x')],
                  ['%r = xla.einsum "ij,jk->j" %a, %b : (tensor<4x6xf32>, tensor<6x3xf32>) -> tensor<6xf32>'],
                  [('%r', ((6,), 'f32'), 'y')]))
    return c


def reductions():
    c = []
    for kind in ['sum', 'prod', 'max', 'min', 'mean']:
        c.append(Case(f'reduce_{kind}', [('a', ((7, 6), 'f32'), 'x,y|')],
                      [f'%r = xla.reduce {kind} %a, dims = [0] : (tensor<7x6xf32>) -> tensor<6xf32>'],
                      [('%r', ((6,), 'f32'), 'y')]))
        c.append(Case(f'reduce_{kind}_all', [('a', ((5, 6), 'f32'), 'x|y')],
                      [f'%r = xla.reduce {kind} %a, dims = [0, 1] : (tensor<5x6xf32>) -> tensor<f32>'],
                      [('%r', ((), 'f32'), '')]))
    for kind in ['and', 'or', 'max', 'min']:
        c.append(Case(f'reduce_{kind}_i1', [('a', ((5, 6), 'i1'), 'x|y')],
                      [f'%r = xla.reduce {kind} %a, dims = [1] : (tensor<5x6xi1>) -> tensor<5xi1>'],
                      [('%r', ((5,), 'i1'), 'x')]))
    c.append(Case('reduce_sum_i32', [('a', ((5, 6), 'i32'), 'x|y')],
                  ['%r = xla.reduce sum %a, dims = [1] : (tensor<5x6xi32>) -> tensor<5xi32>'],
                  [('%r', ((5,), 'i32'), '')]))
    for tag, spec in [('split_dim', '|x,y'), ('other_dims', 'x|y|')]:
        shape = (6, 5) if tag == 'split_dim' else (4, 6, 5)
        dim = 1 if tag == 'split_dim' else 2
        t = tensor(shape, 'f32')
        c.append(Case(f'softmax_{tag}', [('a', (shape, 'f32'), spec)],
                      [f'%r = xla.softmax %a, dim = {dim} : {t}'], [('%r', (shape, 'f32'), spec)]))
    return c


def windows():
    c = []
    for tag, isp, ksp, osp, strides, padding, groups, kshape, out in [
            ('spatial', '|x||', '|||', '|x||', [1, 1], [[1, 1], [1, 1]], 1, (3, 3, 3, 4), (2, 8, 8, 4)),
            ('batch_features', 'x|||', '|||y', 'x|||y', [1, 1], [[0, 0], [0, 0]], 1, (3, 3, 3, 4), (2, 6, 6, 4)),
            ('channels', '|||x', '||x|', '|||', [2, 2], [[1, 1], [1, 1]], 1, (3, 3, 3, 4), (2, 4, 4, 4)),
            ('strided_spatial', '||y|', '|||', '||y|', [2, 2], [[1, 0], [1, 0]], 1, (3, 3, 3, 4), (2, 4, 4, 4)),
            ('grouped', '|||x', '|||x', '|||x', [1, 1], [[1, 1], [1, 1]], 3, (3, 3, 1, 6), (2, 8, 8, 6))]:
        ishape = (2, 8, 8, 3)
        c.append(Case(f'conv_{tag}', [('i', (ishape, 'f32'), isp), ('k', (kshape, 'f32'), ksp)],
                      [f'%r = xla.convolution %i, %k, strides = {strides}, padding = {padding}, lhs_dilation = [1, 1], rhs_dilation = [1, 1], feature_groups = {groups} : ({tensor(ishape, "f32")}, {tensor(kshape, "f32")}) -> {tensor(out, "f32")}'],
                      [('%r', (out, 'f32'), osp)]))
    c.append(Case('conv_dilated', [('i', ((2, 9, 3), 'f32'), '|x|'), ('k', ((3, 3, 2), 'f32'), '||')],
                  ['%r = xla.convolution %i, %k, strides = [1], padding = [[1, 1]], lhs_dilation = [2], rhs_dilation = [2] : (tensor<2x9x3xf32>, tensor<3x3x2xf32>) -> tensor<2x15x2xf32>'],
                  [('%r', ((2, 15, 2), 'f32'), '|x|')]))
    return c


def sources():
    c = []
    c.append(Case('iota_rng_constant', [('a', ((6, 5), 'f32'), 'x|y')],
                  ['%i = xla.iota dim = 0 {xla.sharding = #xla.sharding<@mesh, [{"x"}, {"y"}]>} : tensor<6x5xf32>',
                   '%n = xla.rng normal seed = 7, a = 0.0, b = 1.0 {xla.sharding = #xla.sharding<@mesh, [{"x", "y"}, {}]>} : tensor<6x5xf32>',
                   '%u = xla.rng uniform seed = 3, a = -2.0, b = 2.0 {xla.sharding = #xla.sharding<@mesh, [{}, {"y"}]>} : tensor<6x5xf32>',
                   '%k = xla.constant dense<[[1.0, 2.0, 3.0, 4.0, 5.0]]> : tensor<1x5xf32>',
                   '%kb = xla.broadcast_in_dim %k, dims = [0, 1] : (tensor<1x5xf32>) -> tensor<6x5xf32>',
                   '%s1 = xla.add %i, %n : tensor<6x5xf32>',
                   '%s2 = xla.add %s1, %u : tensor<6x5xf32>',
                   '%s3 = xla.mul %s2, %kb : tensor<6x5xf32>',
                   '%r = xla.add %s3, %a : tensor<6x5xf32>'],
                  [('%r', ((6, 5), 'f32'), 'x|y')]))
    return c


def math_ops():
    """XlaMathOps.td: the elementwise ops on split and padded dimensions, and
    reverse, whose split reversed dimensions exchange mirror blocks
    (reverse-4x2.mlir has the cases that gather instead)."""
    c = []
    g = ((7, 3), 'f32')
    for op in ['floor', 'ceil', 'round_nearest_afz', 'round_nearest_even', 'sign',
               'erf', 'cos', 'sin', 'tan', 'expm1', 'cbrt']:
        c.append(Case(op, [('a', g, 'x|y')],
                      [f'%r = xla.{op} %a : {tensor(*g)}'], [('%r', g, 'x|y')]))
    c.append(Case('log1p', [('a', g, 'y|x')],
                  positive('a', g, 'p') + [f'%r = xla.log1p %p : {tensor(*g)}'],
                  [('%r', g, '|x')]))
    c.append(Case('is_finite', [('a', g, 'x,y|')],
                  [f'%l = xla.log %a : {tensor(*g)}',
                   f'%r = xla.is_finite %l : {tensor(*g)}'],
                  [('%r', ((7, 3), 'i1'), 'x,y|')]))
    f = ((6, 5), 'f32')
    for op in ['atan2', 'rem']:
        c.append(Case(f'{op}_f32', [('a', f, 'x|y'), ('b', f, 'y|')],
                      [f'%r = xla.{op} %a, %b : {tensor(*f)}'], [('%r', f, 'x|y')]))
    for elem in ['i8', 'i32', 'i64']:
        t = ((6, 5), elem)
        for op in ['rem', 'shift_left', 'shift_right_arithmetic', 'shift_right_logical']:
            c.append(Case(f'{op}_{elem}', [('a', t, 'x,y|'), ('b', t, '|x')],
                          [f'%r = xla.{op} %a, %b : {tensor(*t)}'], [('%r', t, 'x|y')]))
        c.append(Case(f'sign_{elem}', [('a', t, 'x|y')],
                      [f'%r = xla.sign %a : {tensor(*t)}'], [('%r', t, 'y|')]))
    for elem in ['f32', 'bf16', 'i32']:
        t = ((6, 5), elem)
        c.append(Case(f'clamp_{elem}', [('lo', t, 'x|'), ('a', t, 'x|y'), ('hi', t, '|y')],
                      [f'%r = xla.clamp %lo, %a, %hi : {tensor(*t)}'], [('%r', t, 'x,y|')]))
    for src, dst in [('f32', 'i32'), ('i64', 'f64'), ('f16', 'bf16')]:
        c.append(Case(f'bitcast_convert_{src}_{dst}', [('a', ((7, 4), src), 'x,y|')],
                      [f'%r = xla.bitcast_convert %a : tensor<7x4x{src}> -> tensor<7x4x{dst}>'],
                      [('%r', ((7, 4), dst), 'x|y')]))
    # reverse: (shape, elem, dims, operand spec, result spec)
    for tag, shape, elem, dims, ssp, rsp in [
            ('divisible', (8, 64), 'f32', [0], 'x,y|', 'x,y|'),
            ('padded', (10, 64), 'f32', [0], 'x,y|', 'x,y|'),
            ('padded_block', (5, 64), 'f32', [0], 'x,y|', 'x,y|'),
            ('fewer_rows', (3, 128), 'f32', [0], 'x,y|', 'x,y|'),
            ('two_shards', (7, 64), 'i32', [0], 'x|y', 'x|y'),
            ('both_dims', (9, 70), 'bf16', [1, 0], 'x|y', 'x|y'),
            ('kept_dim', (6, 5), 'f32', [1], 'x|y', 'x|y'),
            ('resharded', (12, 40), 'f64', [1], '|x,y', 'y|x'),
            ('rank3', (4, 6, 33), 'f32', [2, 0], 'x||y', 'x||y'),
            ('pred', (6, 130), 'i1', [1], '|x,y', '|x,y'),
            ('tiny', (10, 6), 'f32', [0], 'x,y|', 'x,y|')]:
        t = (shape, elem)
        c.append(Case(f'reverse_{tag}', [('a', t, ssp)],
                      [f'%r = xla.reverse %a, dims = {dims} : {tensor(*t)}'],
                      [('%r', t, rsp)]))
    # A pending sum through reverse (linear): the contraction's partial
    # result reaches the reverse before it is reduced.
    c.append(Case('reverse_partial', [('a', ((8, 6), 'f32'), '|x'), ('b', ((6, 64), 'f32'), 'x|')],
                  ['%m = xla.dot_general %a, %b, batch = [] x [], contract = [1] x [0] : (tensor<8x6xf32>, tensor<6x64xf32>) -> tensor<8x64xf32>',
                   '%r = xla.reverse %m, dims = [0] : tensor<8x64xf32>'],
                  [('%r', ((8, 64), 'f32'), 'y|')]))
    return c


FILES = {
    'ops-elementwise': elementwise,
    'ops-shape': shape_ops,
    'ops-contraction': contractions,
    'ops-reduction': reductions,
    'ops-windowed': windows,
    'ops-sources': sources,
    'ops-math': math_ops,
}

if __name__ == '__main__':
    for name, make in FILES.items():
        cases = make()
        with open(f'{name}.mlir', 'w') as f:
            f.write(f'// Generated by gen_ops.py: every case is partitioned over a 2x2 mesh\n'
                    f'// (--xla-spmd-pipeline; CHECK lines: the local signature) and run on the\n'
                    f'// 4 simulated devices against the single-device program (run_checks.py).\n'
                    f'//\n'
                    f'// RUN: %python %S/run_checks.py xla-run %s | FileCheck %s --check-prefix=RUN-CHECKS\n'
                    f'// RUN: xla-opt %s --xla-spmd-pipeline | FileCheck %s\n'
                    f'// RUN-CHECKS: checked {len(cases)} functions, 0 failed\n\n'
                    f'{MESH}\n\n')
            f.write('\n\n'.join(c.emit() for c in cases) + '\n')
        print(name, len(cases))
