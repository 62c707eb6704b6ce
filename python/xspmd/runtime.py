"""The process's simulated XLA device, as ``torch_xla.runtime`` (``xr``).

One runtime records every tensor op of the process. It is created on first
use with ``XSPMD_NUM_DEVICES`` devices (default 8), on ``XSPMD_TOPOLOGY``
(e.g. ``v5p:2x2x2``; default: chosen for the device count) and
``XSPMD_SLICES`` slices joined by DCN; ``configure()`` replaces it before
any tensor exists.
"""

import os

from . import _xspmd

_runtime = None


def configure(num_devices=None, topology=None, slices=None, check=False,
              timing=True):
    """Creates the runtime with these settings (before any tensor exists)."""
    global _runtime
    _runtime = _xspmd.Runtime(
        num_devices=int(num_devices if num_devices is not None
                        else os.environ.get("XSPMD_NUM_DEVICES", 8)),
        topology=topology if topology is not None
        else os.environ.get("XSPMD_TOPOLOGY", ""),
        slices=int(slices if slices is not None
                   else os.environ.get("XSPMD_SLICES", 0)),
        timing=timing, check=check)
    return _runtime


def get():
    """The runtime, created with the environment's settings if needed."""
    return _runtime if _runtime is not None else configure()


def global_runtime_device_count():
    return get().num_devices


def addressable_runtime_device_count():
    return get().num_devices


def use_spmd(auto=False):
    """Kept for torch_xla programs: the simulator always runs SPMD."""
    if auto:
        raise NotImplementedError(
            "auto-sharding is not available; mark shardings with "
            "xs.mark_sharding (propagation does the rest)")


def initialize_cache(path, readonly=False):
    """Persistent compilation cache in ``path`` (torch_xla's call)."""
    get().set_cache(os.fspath(path), bool(readonly))
