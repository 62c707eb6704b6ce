"""The torch_xla-style API: meshes, partition specs, mark_step, metrics."""

import os
import subprocess
import sys

import numpy as np
import pytest

import xspmd
import xspmd.core.xla_model as xm
import xspmd.debug.metrics as met
import xspmd.runtime as xr
import xspmd.spmd as xs


def test_mesh_follows_torch_xla():
    mesh = xs.Mesh(np.arange(8), (4, 2), ("x", "y"))
    assert mesh.size() == 8
    assert mesh.shape() == {"x": 4, "y": 2}
    assert mesh.get_logical_mesh().tolist() == [[0, 1], [2, 3], [4, 5],
                                                [6, 7]]
    assert mesh.get_axis_name_idx("y") == 1
    hybrid = xs.HybridMesh(ici_mesh_shape=(1, 4, 1),
                           dcn_mesh_shape=(2, 1, 1),
                           axis_names=("data", "fsdp", "tensor"))
    assert hybrid.shape() == {"data": 2, "fsdp": 4, "tensor": 1}
    # Slice s holds devices 4s..4s+3; the DCN index is the major part.
    assert hybrid.get_logical_mesh()[:, :, 0].tolist() == [[0, 1, 2, 3],
                                                           [4, 5, 6, 7]]
    one = xs.get_1d_mesh("data")
    assert one.shape() == {"data": 8}


def test_bad_meshes_and_specs_raise():
    with pytest.raises(ValueError, match="permutation"):
        xs.Mesh([0, 1, 1, 3, 4, 5, 6, 7], (4, 2))
    mesh = xs.Mesh(np.arange(8), (4, 2), ("data", "model"))
    t = xspmd.zeros(8, 4)
    with pytest.raises(ValueError, match="no axis 'tensor'"):
        xs.mark_sharding(t, mesh, ("tensor", None))
    with pytest.raises(ValueError, match="rank 2"):
        xs.mark_sharding(t, mesh, ("data",))
    small = xs.Mesh(np.arange(4), (4,), ("data",))
    with pytest.raises(ValueError, match="spans 4 devices"):
        xs.mark_sharding(t, small, ("data", None))


def test_partition_specs_as_hlo_sharding():
    mesh = xs.Mesh(np.arange(8), (4, 2), ("data", "model"))
    t = xspmd.tensor(np.zeros((8, 4), np.float32))
    xs.mark_sharding(t, mesh, ("data", "model"))
    assert xspmd._get_xla_sharding_spec(t) == "{devices=[4,2]0,1,2,3,4,5,6,7}"
    t2 = xspmd.tensor(np.zeros(8, np.float32))
    xs.mark_sharding(t2, mesh, (("data", "model"),))
    assert xspmd._get_xla_sharding_spec(t2) == "{devices=[8]0,1,2,3,4,5,6,7}"
    # Unnamed axes are referred to by index.
    unnamed = xs.Mesh(np.arange(8), (2, 4))
    t3 = xspmd.tensor(np.zeros((8, 8), np.float32))
    xs.mark_sharding(t3, unnamed, (None, 1))
    assert xspmd._get_xla_sharding_spec(t3) == \
        "{devices=[1,4,2]0,4,1,5,2,6,3,7 last_tile_dim_replicate}"
    xs.clear_sharding(t3)
    assert xspmd._get_xla_sharding_spec(t3) == ""


def test_ops_are_lazy_until_mark_step():
    a = xspmd.tensor(np.arange(6, dtype=np.float32).reshape(2, 3))
    b = a * 2.0 + 1.0
    assert b.is_pending
    assert "xla.mul" in xr.get().pending_graph()
    xm.mark_step()
    assert not b.is_pending
    np.testing.assert_allclose(b.numpy(), np.arange(6).reshape(2, 3) * 2 + 1)


def test_numpy_round_trip_dtypes():
    for dtype in (np.float32, np.float64, np.float16, np.int32, np.int64,
                  np.int8, np.bool_):
        array = (np.arange(12) % 3).astype(dtype).reshape(3, 4)
        t = xspmd.tensor(array)
        out = t.numpy()
        assert out.dtype == array.dtype
        np.testing.assert_array_equal(out, array)
    with pytest.raises(TypeError, match="unsupported dtype"):
        xspmd.tensor(np.zeros(3, np.uint16))


def test_shape_errors_name_the_op():
    a = xspmd.zeros(2, 3)
    with pytest.raises(ValueError, match="xla.matmul"):
        a @ a
    with pytest.raises(ValueError, match="do not broadcast"):
        a + xspmd.zeros(4)


def test_sharded_step_matches_numpy_and_is_cached():
    mesh = xs.Mesh(np.arange(8), (4, 2), ("data", "model"))
    rng = np.random.default_rng(0)
    w_host = rng.standard_normal((16, 8)).astype(np.float32)
    w = xspmd.tensor(w_host)
    xs.mark_sharding(w, mesh, (None, "model"))
    for step in range(3):
        x_host = rng.standard_normal((32, 16)).astype(np.float32)
        x = xs.mark_sharding(xspmd.tensor(x_host), mesh, ("data", None))
        y = (x @ w).relu().sum(1)
        xm.mark_step()
        report = xm.last_step_report()
        assert report["partitioned"]
        assert report["num_devices"] == 8
        assert report["step_time_s"] > 0
        assert report["cached"] == (step > 0)
        np.testing.assert_allclose(
            y.numpy(), np.maximum(x_host @ w_host, 0).sum(1), rtol=1e-5,
            atol=1e-5)
    assert met.counter_value("UncachedCompile") == 1
    assert met.counter_value("CachedCompile") == 2
    assert "CompileTime" in met.metrics_report()
    assert "Counter: CachedCompile" in met.short_metrics_report()


def test_new_shape_recompiles_and_says_why():
    x = xspmd.tensor(np.ones((4, 4), np.float32))
    y = x + 1.0
    xm.mark_step()
    x = xspmd.tensor(np.ones((8, 4), np.float32))
    y = x + 1.0
    xm.mark_step()
    reason = xm.last_step_report()["recompile_reason"]
    assert "tensor<4x4xf32>" in reason and "tensor<8x4xf32>" in reason
    assert met.counter_value("UncachedCompile") == 2
    del y


def test_collectives_with_groups():
    x = xspmd.full((4,), 2.0)
    r = xm.all_reduce(xm.REDUCE_SUM, x, scale=0.5,
                      groups=[[0, 1, 2, 3], [4, 5, 6, 7]])
    g = xm.all_gather(x, dim=0, groups=[[0, 1], [2, 3], [4, 5], [6, 7]])
    xm.mark_step()
    np.testing.assert_allclose(r.numpy(), np.full(4, 4.0))
    assert g.shape == (8,)
    assert "all_reduce" in xm.last_step_report()["collectives"]


def test_collectives_do_not_mix_with_shardings():
    mesh = xs.get_1d_mesh("data")
    x = xs.mark_sharding(xspmd.tensor(np.ones((8, 4), np.float32)), mesh,
                         ("data", None))
    y = xm.all_reduce(xm.REDUCE_SUM, x)
    with pytest.raises(RuntimeError, match="explicit collective"):
        xm.mark_step()
    z = x + 1.0  # the runtime goes on with the next graph
    xm.mark_step()
    np.testing.assert_allclose(z.numpy(), np.full((8, 4), 2.0))
    del y


def test_manual_sharding_region():
    # A per-shard computation with a hand-written all_reduce inside a sharded
    # program (torch_xla's enable/disable_manual_sharding).
    mesh = xs.Mesh(np.arange(8), (4, 2), ("data", "model"))
    data = np.arange(64, dtype=np.float32).reshape(8, 8) / 64
    x = xs.mark_sharding(xspmd.tensor(data), mesh, (None, "model"))
    local = xs.enable_manual_sharding(x * 2.0, ("data", "model"), mesh=mesh)
    assert local.shape == (2, 4)
    row_sums = xm.all_reduce(xm.REDUCE_SUM, local.sum(dim=1),
                             groups=[[0, 1], [2, 3], [4, 5], [6, 7]])
    full = xs.disable_manual_sharding(row_sums, ("data",), (8,), mesh=mesh)
    y = full + 1.0
    xm.mark_step()
    np.testing.assert_allclose(y.numpy(), (data * 2).sum(axis=1) + 1,
                               rtol=1e-6)
    assert "all_reduce" in xm.last_step_report()["collectives"]


def test_manual_sharding_errors():
    mesh = xs.get_1d_mesh("data")
    x = xspmd.tensor(np.ones((8, 4), np.float32))
    local = xs.enable_manual_sharding(x, ("data", None), mesh=mesh)
    with pytest.raises(ValueError, match="local block"):
        xs.disable_manual_sharding(local, ("data", None), (16, 4), mesh=mesh)
    y = xs.disable_manual_sharding(local * 2.0, ("data", None), (8, 4),
                                   mesh=mesh)
    xm.mark_step()  # `local` is alive but per-device: not kept
    np.testing.assert_allclose(y.numpy(), np.full((8, 4), 2.0))
    with pytest.raises((ValueError, RuntimeError),
                       match="per-device value of a manual region"):
        local + 1.0


def test_reduce_scatter_and_all_to_all():
    x = xspmd.full((8, 2), 1.0)
    rs = xm.reduce_scatter(xm.REDUCE_SUM, x, 1.0, 0, 4,
                           groups=[[0, 1, 2, 3], [4, 5, 6, 7]])
    a2a = xm.all_to_all(xspmd.full((4, 8), 3.0), 0, 1, 2,
                        groups=[[0, 1], [2, 3], [4, 5], [6, 7]])
    xm.mark_step()
    assert rs.shape == (2, 2)
    np.testing.assert_allclose(rs.numpy(), np.full((2, 2), 4.0))
    assert a2a.shape == (2, 16)
    np.testing.assert_allclose(a2a.numpy(), np.full((2, 16), 3.0))
    with pytest.raises(ValueError, match="does not split into 3 blocks"):
        xr.get().reduce_scatter("sum", x, 0, 1.0, [[0, 1, 2], [3, 4, 5]])
    with pytest.raises(ValueError, match="shard_count"):
        xm.reduce_scatter(xm.REDUCE_SUM, x, 1.0, 0, 2)


def test_persistent_cache_across_processes(tmp_path):
    program = f"""
import numpy as np, xspmd, xspmd.runtime as xr, xspmd.spmd as xs
import xspmd.core.xla_model as xm, xspmd.debug.metrics as met
xr.configure(num_devices=8)
xr.initialize_cache({str(tmp_path)!r}, readonly={{readonly}})
mesh = xs.get_1d_mesh("data")
x = xs.mark_sharding(xspmd.tensor(np.arange(32, dtype=np.float32)
                                  .reshape(8, 4)), mesh, ("data", None))
s = x.sum(0)
xm.mark_step()
print(s.numpy().tolist(), met.counter_value("PersistentCacheHit"),
      met.counter_value("UncachedCompile"))
"""
    env = dict(os.environ)

    def run(readonly):
        out = subprocess.run(
            [sys.executable, "-c", program.replace("{readonly}",
                                                   str(readonly))],
            env=env, capture_output=True, text=True, check=True)
        return out.stdout.strip()

    assert run(False) == "[112.0, 120.0, 128.0, 136.0] None 1"
    assert len(list(tmp_path.iterdir())) == 1
    assert run(True) == "[112.0, 120.0, 128.0, 136.0] 1 None"


def test_tensor_outlives_its_runtime():
    t = xspmd.tensor(np.ones(3, np.float32))
    pending = t + 1.0
    xr.configure(num_devices=8)  # the old runtime goes away
    np.testing.assert_array_equal(t.numpy(), np.ones(3))
    with pytest.raises(ValueError, match="runtime was destroyed"):
        pending.numpy()
    assert pending.shape == (3,) and pending.dtype == "float32"
    with pytest.raises(ValueError, match="another runtime"):
        t + 1.0
    with pytest.raises(ValueError, match="another runtime"):
        xspmd._get_xla_sharding_spec(t)
