#!/usr/bin/env bash
# The main job on a bundled example: a 2D (data x model) training step on a
# HybridMesh of two TPU slices. It shows the mesh, partitions the program
# (propagate -> partition -> optimize collectives), lists the collectives
# inserted with their bytes and links, lowers it to per-device programs,
# runs them on the 8 simulated devices and compares every output with the
# single-device run. The same run predicts the step time, duty cycle,
# collectives, bytes per link class (ICI, DCN) and peak memory on the
# default topology (two TPU v5p 2x2x1 slices joined by DCN) and writes a
# Chrome/Perfetto trace (docs/simulator.md: open https://ui.perfetto.dev,
# "Open trace file").
set -euo pipefail
build=${1:-build}
root=$(cd "$(dirname "$0")/.." && pwd)
example=$root/docs/examples/hybrid_2d_step.mlir
trace=$build/hybrid_2d_step.trace.json
echo "== mesh of $(basename "$example")"
"$build/bin/xla-opt" "$example" --xla-dump-meshes -o /dev/null
echo
echo "== collectives inserted by --xla-spmd-pipeline"
"$build/bin/xla-opt" "$example" --xla-spmd-pipeline=lower=false --xla-report-collectives -o /dev/null
echo
echo "== xla-run --check --timing: the partitioned program vs. the single-device program, timed"
"$build/bin/xla-run" "$example" --check --timing --trace="$trace" \
  --output_max_element_count=8
echo
echo "== an HLO dump from torch_xla: $(basename "$root/docs/examples/mlp_train_step.hlo") (docs/hlo.md)"
"$build/bin/xla-run" "$root/docs/examples/mlp_train_step.hlo" --check --timing \
  --output_max_element_count=8
