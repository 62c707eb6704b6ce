"""xspmd: PyTorch/XLA-style lazy tensors on a simulator of TPU slices.

    import numpy as np
    import xspmd
    import xspmd.spmd as xs
    import xspmd.core.xla_model as xm
    import xspmd.debug.metrics as met

    mesh = xs.Mesh(np.arange(8), (2, 4), ("data", "model"))
    x = xspmd.tensor(np.ones((16, 32), np.float32))
    xs.mark_sharding(x, mesh, ("data", None))
    y = (x @ w).relu()
    xm.mark_step()            # compile once, run on 8 simulated chips
    print(y.numpy(), xm.last_step_report()["step_time_s"])

Ops record ``xla`` dialect ops; ``xm.mark_step()`` cuts the graph, compiles
it through the SPMD pipeline (once per distinct graph) and runs it.
"""

import numpy as _np

from . import _xspmd
from . import runtime as _rt

Tensor = _xspmd.Tensor


def _rt_get():
    return _rt.get()


def tensor(data, dtype=None):
    """Device data from a NumPy array (or anything np.asarray takes)."""
    array = _np.asarray(data, dtype=dtype)
    if array.dtype == _np.float64 and dtype is None and \
            not isinstance(data, _np.ndarray):
        array = array.astype(_np.float32)  # torch's default dtype
    return _rt_get().tensor(array)


def full(shape, value, dtype="float32"):
    return _rt_get().full(list(shape), float(value), dtype)


def zeros(*shape, dtype="float32"):
    return full(_shape(shape), 0.0, dtype)


def ones(*shape, dtype="float32"):
    return full(_shape(shape), 1.0, dtype)


def randn(*shape, seed=0, dtype="float32"):
    """Normal(0, 1) numbers that depend on (seed, index) only, so a sharded
    tensor holds exactly the slices of the unsharded one."""
    return _rt_get().rand(_shape(shape), seed, "normal", 0.0, 1.0, dtype)


def rand(*shape, seed=0, dtype="float32"):
    return _rt_get().rand(_shape(shape), seed, "uniform", 0.0, 1.0, dtype)


def arange_like(shape, dim=0, dtype="int32"):
    return _rt_get().iota(list(shape), dim, dtype)


def _shape(shape):
    if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
        return list(shape[0])
    return list(shape)


def matmul(a, b):
    return _rt_get().matmul(a, b)


def einsum(equation, a, b):
    return _rt_get().einsum(equation, a, b)


def where(pred, a, b):
    return _rt_get().where(pred, a, b)


def softmax(x, dim=-1):
    return _rt_get().softmax(x, dim)


def cat(tensors, dim=0):
    return _rt_get().concatenate(list(tensors), dim)


def _unary(name):
    def op(x):
        return _rt_get().unary(name, x)
    op.__name__ = name
    return op


_UNARY = ("relu", "gelu", "tanh", "exp", "log", "sqrt", "rsqrt", "sigmoid",
          "abs", "neg", "floor", "ceil", "round", "sign", "erf", "cos", "sin",
          "tan", "log1p", "expm1")
for _name in _UNARY:
    globals()[_name] = _unary(_name)


def fmod(a, b):
    """torch.fmod: C's fmod, the sign of the dividend."""
    return _rt_get().binary("fmod", a, _as_tensor(b, a))


def remainder(a, b):
    """torch.remainder (Python's %): the sign of the divisor."""
    return _rt_get().remainder(a, _as_tensor(b, a))


def atan2(a, b):
    return _rt_get().binary("atan2", a, _as_tensor(b, a))


def isfinite(x):
    return _rt_get().isfinite(x)


def clamp(x, min=None, max=None):
    """torch.clamp: min(max(x, min), max); either bound may be omitted."""
    if min is None and max is None:
        raise ValueError("clamp needs min or max")
    lo = None if min is None else _as_tensor(min, x)
    hi = None if max is None else _as_tensor(max, x)
    return _rt_get().clamp(x, lo, hi)


def flip(x, dims):
    """torch.flip: reverses the order of elements along ``dims``."""
    if isinstance(dims, int):
        dims = [dims]
    return _rt_get().flip(x, list(dims))


def _binary(name, reflected=False):
    def op(a, b):
        rt = _rt_get()
        if reflected:
            if isinstance(b, Tensor):
                return rt.binary(name, b, a)
            return rt.binary(name, rt.full([], float(b), a.dtype), a)
        return rt.binary(name, a, b if isinstance(b, Tensor) else float(b))
    return op


def _reduce(name):
    def op(self, dim=None, keepdim=False):
        return _rt_get().reduce(name, self, dim, keepdim)
    return op


def _transpose(self, dim0=-2, dim1=-1):
    rank = len(self.shape)
    perm = list(range(rank))
    perm[dim0 % rank], perm[dim1 % rank] = perm[dim1 % rank], perm[dim0 % rank]
    return _rt_get().transpose(self, perm)


def _reshape(self, *shape):
    shape = _shape(shape)
    if -1 in shape:
        known = 1
        for s in shape:
            if s != -1:
                known *= s
        total = 1
        for s in self.shape:
            total *= s
        shape = [total // known if s == -1 else s for s in shape]
    return _rt_get().reshape(self, shape)


Tensor.__add__ = _binary("add")
Tensor.__radd__ = _binary("add", reflected=True)
Tensor.__sub__ = _binary("sub")
Tensor.__rsub__ = _binary("sub", reflected=True)
Tensor.__mul__ = _binary("mul")
Tensor.__rmul__ = _binary("mul", reflected=True)
Tensor.__truediv__ = _binary("div")
Tensor.__rtruediv__ = _binary("div", reflected=True)
Tensor.__pow__ = _binary("pow")
Tensor.__matmul__ = lambda a, b: _rt_get().matmul(a, b)
Tensor.__neg__ = lambda a: _rt_get().unary("neg", a)
Tensor.__lt__ = lambda a, b: _rt_get().compare("lt", a, _as_tensor(b, a))
Tensor.__le__ = lambda a, b: _rt_get().compare("le", a, _as_tensor(b, a))
Tensor.__gt__ = lambda a, b: _rt_get().compare("gt", a, _as_tensor(b, a))
Tensor.__ge__ = lambda a, b: _rt_get().compare("ge", a, _as_tensor(b, a))
Tensor.maximum = _binary("max")
Tensor.minimum = _binary("min")
Tensor.sum = _reduce("sum")
Tensor.mean = _reduce("mean")
Tensor.amax = _reduce("max")
Tensor.amin = _reduce("min")
Tensor.transpose = _transpose
Tensor.T = property(lambda self: _transpose(self, 0, 1))
Tensor.permute = lambda self, *dims: _rt_get().transpose(self, _shape(dims))
Tensor.reshape = _reshape
Tensor.view = _reshape
Tensor.softmax = lambda self, dim=-1: _rt_get().softmax(self, dim)
Tensor.to = lambda self, dtype: _rt_get().convert(self, str(_np.dtype(dtype))
                                                  if dtype != "bfloat16"
                                                  else dtype)
Tensor.expand = lambda self, *shape: _rt_get().broadcast_to(self,
                                                            _shape(shape))
Tensor.cpu = lambda self: self.numpy()
for _name in _UNARY + ("fmod", "remainder", "atan2", "isfinite", "clamp"):
    if _name != "neg":
        setattr(Tensor, _name, globals()[_name])
Tensor.__mod__ = remainder
Tensor.flip = lambda self, *dims: flip(self, _shape(dims))


def _as_tensor(value, like):
    if isinstance(value, Tensor):
        return value
    return _rt_get().full([], float(value), like.dtype)


def _get_xla_sharding_spec(t):
    """The HloSharding text of ``t`` (torch_xla._XLAC's function)."""
    return _rt_get().sharding_spec(t)
