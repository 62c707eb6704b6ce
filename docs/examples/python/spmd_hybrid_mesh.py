"""A training step on a HybridMesh of two TPU slices.

HybridMesh(ici_mesh_shape=(1, 4), dcn_mesh_shape=(2, 1)): 2 slices of 4
chips joined by DCN. The batch is split over 'data' (across the slices) and
'fsdp' (within a slice); the weights over 'fsdp' (ZeRO-3 style). The step
is a 2-layer MLP forward, a mean-squared-error loss, the backward pass
written out and an SGD update, repeated: the first mark_step compiles, the
later ones hit the cache. Run it with PYTHONPATH=build/python.
"""

import numpy as np

import xspmd
import xspmd.core.xla_model as xm
import xspmd.debug.metrics as met
import xspmd.runtime as xr
import xspmd.spmd as xs

xr.configure(num_devices=8, slices=2)
mesh = xs.HybridMesh(ici_mesh_shape=(1, 4), dcn_mesh_shape=(2, 1),
                     axis_names=("data", "fsdp"))
print(mesh, mesh.shape())

batch, d_in, d_hidden, d_out, lr = 32, 64, 128, 16, 0.05
rng = np.random.default_rng(1)
x_host = rng.standard_normal((batch, d_in)).astype(np.float32)
t_host = rng.standard_normal((batch, d_out)).astype(np.float32)
w1_host = (rng.standard_normal((d_in, d_hidden)) * 0.1).astype(np.float32)
w2_host = (rng.standard_normal((d_hidden, d_out)) * 0.1).astype(np.float32)

x, t = xspmd.tensor(x_host), xspmd.tensor(t_host)
w1, w2 = xspmd.tensor(w1_host), xspmd.tensor(w2_host)
xs.mark_sharding(x, mesh, (("data", "fsdp"), None))
xs.mark_sharding(t, mesh, (("data", "fsdp"), None))
xs.mark_sharding(w1, mesh, ("fsdp", None))
xs.mark_sharding(w2, mesh, ("fsdp", None))


def train_step(w1, w2):
    h = (x @ w1).relu()
    y = h @ w2
    err = y - t
    loss = (err * err).mean()
    dy = err * (2.0 / (batch * d_out))
    dw2 = h.T @ dy
    dh = (dy @ w2.T) * (h > 0.0).to("float32")
    dw1 = x.T @ dh
    return w1 - dw1 * lr, w2 - dw2 * lr, loss


def numpy_step(w1, w2):
    h = np.maximum(x_host @ w1, 0)
    err = h @ w2 - t_host
    dy = err * (2.0 / (batch * d_out))
    dw2 = h.T @ dy
    dh = (dy @ w2.T) * (h > 0)
    return w1 - x_host.T @ dh * lr, w2 - dw2 * lr, (err * err).mean()


ref1, ref2 = w1_host, w2_host
for step in range(3):
    w1, w2, loss = train_step(w1, w2)
    xm.mark_step()
    report = xm.last_step_report()
    ref1, ref2, ref_loss = numpy_step(ref1, ref2)
    print(f"step {step}: loss {loss.numpy():.6f} (numpy {ref_loss:.6f}), "
          f"{'cached' if report['cached'] else 'compiled'}, "
          f"predicted {report['step_time_s'] * 1e6:.2f} us, "
          f"collectives: {report['collectives']}")
    assert abs(loss.numpy() - ref_loss) < 1e-4 * max(1.0, abs(ref_loss))

print(f"topology: {xm.last_step_report()['topology']}")
error = max(np.abs(w1.numpy() - ref1).max(), np.abs(w2.numpy() - ref2).max())
print(f"max |w - numpy| after 3 steps = {error:.2e}")
assert error < 1e-4, error
assert met.counter_value("CachedCompile") >= 1
print(met.short_metrics_report(), end="")
