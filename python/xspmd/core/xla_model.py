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
    groups = _groups(groups)
    if isinstance(inputs, (list, tuple)):
        return [rt.all_reduce(reduce_type, x, scale, groups) for x in inputs]
    return rt.all_reduce(reduce_type, inputs, scale, groups)


def _groups(groups):
    return [list(g) for g in (groups or [])]


def all_gather(value, dim=0, groups=None):
    """Concatenates each group's values along ``dim``."""
    return _rt.get().all_gather(value, dim, _groups(groups))


def reduce_scatter(reduce_type, input, scale, scatter_dim, shard_count,
                   groups=None):
    """Reduces across each group; member i keeps block i of ``scatter_dim``
    (``shard_count`` must be the group size)."""
    groups = _groups(groups)
    size = len(groups[0]) if groups else _rt.global_runtime_device_count()
    if shard_count != size:
        raise ValueError("shard_count %d is not the group size %d"
                         % (shard_count, size))
    return _rt.get().reduce_scatter(reduce_type, input, scatter_dim, scale,
                                    groups)


def all_to_all(value, split_dimension, concat_dimension, split_count,
               groups=None):
    """Splits ``split_dimension`` into ``split_count`` blocks, sends block i
    to the group's member i and concatenates what arrives along
    ``concat_dimension``."""
    return _rt.get().all_to_all(value, split_dimension, concat_dimension,
                                split_count, _groups(groups))


def get_xla_supported_devices():
    return [xla_device(i) for i in range(_rt.global_runtime_device_count())]
