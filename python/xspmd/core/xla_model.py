"""torch_xla.core.xla_model (``xm``): steps, devices and collectives."""

from .. import runtime as _rt

REDUCE_SUM = "sum"
REDUCE_MUL = "mul"
REDUCE_MAX = "max"
REDUCE_MIN = "min"


def xla_device(n=None):
    """The simulated device ("xla:0"); tensors live on it already."""
    return "xla:0" if n is None else "xla:%d" % n


def mark_step():
    """Cuts the pending graph, compiles it (once per distinct graph) and
    runs it on the simulated devices; live tensors become device data."""
    _rt.get().mark_step()


def last_step_report():
    """What the last mark_step did: its graph hash, whether it was cached,
    the collectives, the predicted step time (s) and the topology."""
    return _rt.get().last_step()


def all_reduce(reduce_type, inputs, scale=1.0, groups=None):
    """Reduces across each group of devices (all devices without groups)."""
    rt = _rt.get()
    groups = [list(g) for g in (groups or [])]
    if isinstance(inputs, (list, tuple)):
        return [rt.all_reduce(reduce_type, x, scale, groups) for x in inputs]
    return rt.all_reduce(reduce_type, inputs, scale, groups)


def all_gather(value, dim=0, groups=None):
    return _rt.get().all_gather(value, dim, [list(g) for g in (groups or [])])


def get_xla_supported_devices():
    return [xla_device(i) for i in range(_rt.global_runtime_device_count())]
