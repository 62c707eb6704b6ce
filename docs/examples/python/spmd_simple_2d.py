"""The SPMD user guide's first example, then a 2D-sharded linear layer.

A (4, 2) mesh of 8 simulated TPU chips named ('data', 'model'): the input is
split over 'data' (4-way data parallel), the layer's weight over 'model'
(2-way model parallel). Run it with PYTHONPATH=build/python.
"""

import numpy as np

import xspmd
import xspmd.core.xla_model as xm
import xspmd.debug.metrics as met
import xspmd.runtime as xr
import xspmd.spmd as xs

xr.use_spmd()

num_devices = xr.global_runtime_device_count()
mesh_shape = (num_devices // 2, 2)
device_ids = np.array(range(num_devices))
mesh = xs.Mesh(device_ids, mesh_shape, ("data", "model"))
print(mesh, mesh.shape())

rng = np.random.default_rng(0)
x_host = rng.standard_normal((8, 32)).astype(np.float32)
w_host = rng.standard_normal((32, 10)).astype(np.float32)
b_host = rng.standard_normal((10,)).astype(np.float32)

x = xspmd.tensor(x_host)
w = xspmd.tensor(w_host)
b = xspmd.tensor(b_host)
xs.mark_sharding(x, mesh, ("data", None))   # 4-way data parallel
xs.mark_sharding(w, mesh, (None, "model"))  # 2-way model parallel
print("x sharding:", xspmd._get_xla_sharding_spec(x))
print("w sharding:", xspmd._get_xla_sharding_spec(w))

y = (x @ w + b).relu()
loss = y.mean()
xm.mark_step()

step = xm.last_step_report()
print(f"collectives: {step['collectives']}")
print(f"predicted step time: {step['step_time_s'] * 1e6:.2f} us "
      f"on {step['topology']}")

expected = np.maximum(x_host @ w_host + b_host, 0)
error = np.abs(y.numpy() - expected).max()
print(f"max |y - numpy| = {error:.2e}, loss = {loss.numpy():.6f}")
assert error < 1e-4, error
assert abs(loss.numpy() - expected.mean()) < 1e-5
print(met.short_metrics_report(), end="")
