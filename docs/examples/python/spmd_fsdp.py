"""FSDP via SPMD (FSDPv2's sharding, written out): weights and activations
sharded on an 'fsdp' axis of a (num_devices, 1) mesh.

Each layer's weight is sharded on its first dimension over 'fsdp' and the
activations on the batch; the forward and backward passes are written out
with an SGD update. With more tokens per device than weight rows (a batch
of 1024 over 8 devices, width 128) the partitioner finds FSDP's pattern by
cost: each weight is all-gathered for its matmuls and each gradient
reduce-scattered back to its shard. (With a small batch it moves the
activations instead, which is then cheaper.) Run it with
PYTHONPATH=build/python.
"""

import numpy as np

import xspmd
import xspmd.core.xla_model as xm
import xspmd.debug.metrics as met
import xspmd.runtime as xr
import xspmd.spmd as xs

num_devices = xr.global_runtime_device_count()
mesh_shape = (num_devices, 1)
device_ids = np.array(range(num_devices))
mesh = xs.Mesh(device_ids, mesh_shape, ("fsdp", "model"))

batch, width, layers, lr = 1024, 128, 3, 0.01
rng = np.random.default_rng(2)
x_host = rng.standard_normal((batch, width)).astype(np.float32)
ws_host = [(rng.standard_normal((width, width)) / np.sqrt(width))
           .astype(np.float32) for _ in range(layers)]

x = xs.mark_sharding(xspmd.tensor(x_host), mesh, ("fsdp", None))
ws = [xs.mark_sharding(xspmd.tensor(w), mesh, ("fsdp", None))
      for w in ws_host]


def step(ws):
    acts = [x]
    for w in ws:
        acts.append(xspmd.tanh(acts[-1] @ w))
        xs.mark_sharding(acts[-1], mesh, ("fsdp", None))
    out = acts[-1]
    loss = (out * out).mean()
    grad = out * (2.0 / (batch * width))
    new_ws = []
    for w, a_in, a_out in reversed(list(zip(ws, acts[:-1], acts[1:]))):
        grad = grad * (1.0 - a_out * a_out)   # through tanh
        dw = a_in.T @ grad
        grad = grad @ w.T
        new_ws.append(w - dw * lr)
    return list(reversed(new_ws)), loss


def numpy_step(ws):
    acts = [x_host]
    for w in ws:
        acts.append(np.tanh(acts[-1] @ w))
    out = acts[-1]
    grad = out * (2.0 / (batch * width))
    new_ws = []
    for w, a_in, a_out in reversed(list(zip(ws, acts[:-1], acts[1:]))):
        grad = grad * (1.0 - a_out * a_out)
        new_ws.append(w - (a_in.T @ grad) * lr)
        grad = grad @ w.T
    return list(reversed(new_ws)), (out * out).mean()


ref = ws_host
for i in range(3):
    ws, loss = step(ws)
    xm.mark_step()
    ref, ref_loss = numpy_step(ref)
    report = xm.last_step_report()
    print(f"step {i}: loss {loss.numpy():.6f} (numpy {ref_loss:.6f}), "
          f"{'cached' if report['cached'] else 'compiled'}, "
          f"predicted {report['step_time_s'] * 1e6:.2f} us, "
          f"collectives: {report['collectives']}")
    assert abs(loss.numpy() - ref_loss) < 1e-4 * max(1.0, abs(ref_loss))
for i, (w, r) in enumerate(zip(ws, ref)):
    print(f"w{i} sharding {xspmd._get_xla_sharding_spec(w)}, "
          f"max |w - numpy| = {np.abs(w.numpy() - r).max():.2e}")
    assert np.abs(w.numpy() - r).max() < 1e-4
print(met.short_metrics_report(), end="")
