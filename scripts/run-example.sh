#!/usr/bin/env bash
# The main job on the bundled example: parse and verify a sharded program,
# show its meshes (axes, link classes, device order) and print it back.
set -euo pipefail
build=${1:-build}
root=$(cd "$(dirname "$0")/.." && pwd)
example=$root/docs/examples/megatron_mlp.mlir
echo "== xla-opt: meshes of $(basename "$example")"
"$build/bin/xla-opt" "$example" --xla-dump-meshes -o /dev/null
echo "== xla-opt: parsed and verified"
"$build/bin/xla-opt" "$example"
