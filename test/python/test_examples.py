"""The SPMD user guide's programs (docs/examples/python) run and check
their numbers against NumPy themselves; here their output is checked."""

import os
import subprocess
import sys

import pytest


def run_example(source_dir, name):
    path = os.path.join(source_dir, "docs", "examples", "python", name)
    result = subprocess.run([sys.executable, path], capture_output=True,
                            text=True, env=dict(os.environ))
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout


def test_simple_2d(source_dir):
    out = run_example(source_dir, "spmd_simple_2d.py")
    assert "x sharding: {devices=[4,1,2]0,1,2,3,4,5,6,7 " \
           "last_tile_dim_replicate}" in out
    assert "collectives: " in out
    assert "predicted step time: " in out


@pytest.mark.parametrize("name", ["spmd_hybrid_mesh.py", "spmd_fsdp.py"])
def test_training_steps(source_dir, name):
    out = run_example(source_dir, name)
    lines = [l for l in out.splitlines() if l.startswith("step ")]
    assert len(lines) == 3
    assert "compiled" in lines[0] and "cached" in lines[2]
    assert all("predicted" in l and "collectives:" in l for l in lines)
    if name == "spmd_hybrid_mesh.py":
        assert "2 slices over DCN" in out
    if name == "spmd_fsdp.py":
        # ZeRO-3: weights all-gathered, gradients reduce-scattered, nothing
        # else but the loss's all-reduce.
        assert lines[0].endswith("collectives: 5 all_gather, "
                                 "3 reduce_scatter, 1 all_reduce"), lines[0]
