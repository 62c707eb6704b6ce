#!/usr/bin/env bash
# The main job on the bundled example: parse and verify a sharded program,
# show its meshes (axes, link classes, device order) and print it back; then
# partition it, run it on the simulator, check it against the program as
# written, and predict its step time, duty cycle, collective traffic per
# link class and peak memory on the default topology (a v5p 2x2x2 slice),
# writing a Chrome/Perfetto trace (docs/simulator.md: open it at
# https://ui.perfetto.dev, "Open trace file").
set -euo pipefail
build=${1:-build}
root=$(cd "$(dirname "$0")/.." && pwd)
example=$root/docs/examples/megatron_mlp.mlir
trace=$build/megatron_mlp.trace.json
echo "== xla-opt: meshes of $(basename "$example")"
"$build/bin/xla-opt" "$example" --xla-dump-meshes -o /dev/null
echo "== xla-opt: parsed and verified"
"$build/bin/xla-opt" "$example"
echo "== xla-run: partitioned, checked and timed on the default topology"
"$build/bin/xla-run" "$example" --check --timing --trace="$trace" \
  --output_max_element_count=8
