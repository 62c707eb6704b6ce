#!/usr/bin/env python3
"""Prints a module with one reverse per (rows, sharding): rows 1..17 of a
[rows, 64] f32 tensor split over "x" (4), "y" (2), ["x", "y"] and
["y", "x"] (8) of a 4x2 mesh, so that every padding p = q*B + r of
passes/partition/Reverse.h occurs (r = 0 and r > 0, q = 0 and q > 0,
devices holding only padding, self pairs). reverse-sweep.test runs them."""

SPECS = ['{"x"}', '{"y"}', '{"x", "y"}', '{"y", "x"}']

print('xla.mesh @mesh = <["x"=4, "y"=2]>')
for rows in range(1, 18):
    for i, spec in enumerate(SPECS):
        sharding = f'#xla.sharding<@mesh, [{spec}, {{}}]>'
        t = f'tensor<{rows}x64xf32>'
        print(f'func.func @rows{rows}_spec{i}(%a: {t} {{xla.sharding = '
              f'{sharding}}}) -> ({t} {{xla.sharding = {sharding}}}) {{')
        print(f'  %r = xla.reverse %a, dims = [0] : {t}')
        print(f'  return %r : {t}')
        print('}')
