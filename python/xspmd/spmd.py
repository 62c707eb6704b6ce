"""torch_xla.distributed.spmd (``xs``): meshes and partition specs."""

import numpy as _np

from . import _xspmd
from . import runtime as _rt

_global_mesh = None


class Mesh:
    """``Mesh(device_ids, mesh_shape, axis_names=None)``: the device ids
    laid out row-major over ``mesh_shape``; a partition spec names the axes
    (or, without names, gives their indices)."""

    def __init__(self, device_ids, mesh_shape, axis_names=None):
        ids = [int(i) for i in _np.asarray(device_ids).reshape(-1)]
        self.device_ids = _np.asarray(ids)
        self.mesh_shape = tuple(int(s) for s in mesh_shape)
        self.axis_names = tuple(axis_names) if axis_names is not None else None
        self._native = _xspmd.Mesh(ids, list(self.mesh_shape),
                                   list(self.axis_names or ()))

    def size(self):
        return int(_np.prod(self.mesh_shape))

    def shape(self):
        names = self.axis_names or tuple(range(len(self.mesh_shape)))
        return dict(zip(names, self.mesh_shape))

    def get_logical_mesh(self):
        return self.device_ids.reshape(self.mesh_shape)

    def get_axis_name_idx(self, name):
        if self.axis_names is None or name not in self.axis_names:
            return None
        return self.axis_names.index(name)

    def __repr__(self):
        return repr(self._native)


class HybridMesh(Mesh):
    """``HybridMesh(ici_mesh_shape, dcn_mesh_shape, axis_names=None)``: one
    ICI mesh per slice, the slices laid out by the DCN shape (the DCN index
    is the major part of each axis)."""

    def __init__(self, *, ici_mesh_shape, dcn_mesh_shape, axis_names=None):
        self.ici_mesh_shape = tuple(int(s) for s in ici_mesh_shape)
        self.dcn_mesh_shape = tuple(int(s) for s in dcn_mesh_shape)
        self.axis_names = tuple(axis_names) if axis_names is not None else None
        self._native = _xspmd.Mesh.hybrid(list(self.ici_mesh_shape),
                                          list(self.dcn_mesh_shape),
                                          list(self.axis_names or ()))
        self.mesh_shape = tuple(self._native.mesh_shape)
        self.device_ids = _np.asarray(self._native.device_ids)


def get_1d_mesh(axis_name=None):
    """All devices on one axis."""
    n = _rt.global_runtime_device_count()
    return Mesh(_np.arange(n), (n,), (axis_name,) if axis_name else None)


def set_global_mesh(mesh):
    global _global_mesh
    _global_mesh = mesh


def get_global_mesh():
    return _global_mesh


def mark_sharding(t, mesh, partition_spec):
    """Shards ``t`` over ``mesh`` by ``partition_spec`` (one entry per
    dimension: None, an axis name or index, or a tuple of them). Device
    data is laid out so; a pending tensor is constrained in the graph."""
    if mesh is None:
        mesh = _global_mesh
    if mesh is None:
        raise ValueError("mark_sharding needs a mesh (or set_global_mesh)")
    return _rt.get().mark_sharding(t, mesh._native, tuple(partition_spec))


def clear_sharding(t):
    _rt.get().clear_sharding(t)
    return t


def _mesh_or_global(mesh, what):
    if mesh is None:
        mesh = _global_mesh
    if mesh is None:
        raise ValueError(what + " needs a mesh (or set_global_mesh)")
    return mesh


def enable_manual_sharding(t, partition_spec, *, mesh=None):
    """Each device's shard of ``t`` split by ``partition_spec``: ops on the
    result are per-device code (collectives with groups allowed) until
    ``disable_manual_sharding``, as torch_xla's SPMDFullToShardShape."""
    mesh = _mesh_or_global(mesh, "enable_manual_sharding")
    return _rt.get().enable_manual_sharding(t, mesh._native,
                                            tuple(partition_spec))


def disable_manual_sharding(t, partition_spec, full_shape, *, mesh=None):
    """The global tensor of ``full_shape`` whose shards (split by
    ``partition_spec``) the devices hold in ``t``: SPMDShardToFullShape."""
    mesh = _mesh_or_global(mesh, "disable_manual_sharding")
    return _rt.get().disable_manual_sharding(t, mesh._native,
                                             tuple(partition_spec),
                                             list(full_shape))
