"""Random well-typed single-device xla programs with random shardings.

`generate(source)` returns a `Case`: a module with one mesh (plain, with a
permuted device order, or hybrid; 1-3 axes of size 1-4) and a function
`@main` whose body is a random DAG over the lazy-tensor vocabulary of the
dialect (every op of docs/dialect.md except the collectives, partition_id
and axis_index, which are device-level SPMD code that --xla-partition
rejects by design), on small shapes that often do not divide the mesh, in
every element type. Arguments, results and intermediates (mark_sharding
and `xla.sharding` on ops) carry random shardings: tuples of axes, open
dimensions, priorities, partial axes.

Numerics. `xla-run --check` compares the partitioned run with the
single-device run. A partitioned program may sum in another order (a split
contraction, reduction or convolution), so the generator tracks, per float
value, a bound on |x| (`mag`), a typical magnitude (`typ`), a positive
lower bound on |x| if one is known (`lo`) and an estimate of how far the
partitioned value may legitimately drift from the reference (`err`, 0 for
values computed by the same operations in the same order). It never builds
an ill-conditioned computation:

* values that may drift are never compared, converted to integers or used
  as a select predicate (a flipped comparison is not a bug);
* drifting values only go through ops whose error growth is bounded, and
  inputs of order-sensitive ops are squashed (tanh) when large, so sums
  never overflow in one order and not the other;
* division, rsqrt and pow take denominators / bases bounded away from zero
  (or run only on values that cannot drift);
* a value whose drift estimate exceeds the default tolerance of
  `xla-run --check` for its type is dropped.

The tolerances of --check are left at their defaults.
"""

import math

from .choices import Source
from .ops_compute import ComputeOps
from .ops_elementwise import ElementwiseOps
from .ops_math import MathOps
from .ops_shape import ShapeOps
from .program import (ALL, BUDGET, FMAX, LIMIT, MAX_ELEMENTS, UNIT, Case, Mesh,
                      Sharding, Skip, Val, is_float, numel)


class Generator(ElementwiseOps, MathOps, ShapeOps, ComputeOps):
    def __init__(self, src):
        self.src = src
        self.pool = []
        self.args = []
        self.body = []
        self.counter = 0
        self.mesh = None
        self.vals = {}
    # ---- helpers -------------------------------------------------------
    def fresh(self):
        self.counter += 1
        return f"%v{self.counter}"

    def dim(self, allow_zero=False):
        d = 1 + self.src.draw(8)
        if allow_zero and self.src.flag(3):
            return 0
        return d

    def shape(self, rank=None):
        if rank is None:
            rank = self.src.pick([1, 2, 3, 0, 4], [30, 35, 20, 8, 7])
        shape = [self.dim() for _ in range(rank)]
        while numel(shape) > MAX_ELEMENTS:
            shape[shape.index(max(shape))] //= 2
        return shape

    def dtype(self, kinds=ALL):
        weights = {"f32": 40, "f64": 8, "bf16": 10, "f16": 8, "i32": 12,
                   "i64": 6, "i8": 6, "i1": 10}
        kinds = list(kinds)
        return self.src.pick(kinds, [weights[k] for k in kinds])

    def input_bounds(self, dtype):
        if is_float(dtype):
            return dict(mag=1.0, typ=0.58, lo=0.0)
        if dtype == "i1":
            return dict(mag=1.0, typ=0.7, lo=0.0)
        return dict(mag=4.0, typ=2.6, lo=0.0)

    def arg(self, dtype, shape, allow_partial=True):
        v = Val(f"%arg{len(self.args)}", dtype, shape,
                **self.input_bounds(dtype))
        sharding = None
        if self.src.flag(65):
            sharding = self.sharding(
                v, allow_partial=allow_partial and self.src.flag(30))
        self.args.append([v, sharding, ""])
        self.pool.append(v)
        return v

    def sharding(self, v, allow_partial=True, allow_open=True):
        mesh = self.mesh
        rank = v.rank
        dims = [[] for _ in range(rank)]
        partial = []
        slots = rank + (1 if allow_partial else 0)
        for axis, _ in self.src.shuffle(mesh.axes):
            if self.src.flag(40):
                continue
            slot = self.src.draw(slots)
            if slot < rank:
                dims[slot].append(axis)
            else:
                partial.append(axis)
        entries = []
        for axes in dims:
            open_ = allow_open and self.src.flag(15)
            prio = self.src.draw(3) if self.src.flag(15) else None
            entries.append((axes, open_, prio))
        kind = "sum"
        if partial:
            if v.dtype == "i1":
                kind = self.src.pick(["or", "and", "max", "min"])
            elif is_float(v.dtype):
                kind = self.src.pick(["sum", "max", "min", "mul"],
                                     [6, 1, 1, 1])
            else:
                kind = self.src.pick(["sum", "max", "min", "mul", "and", "or"],
                                     [5, 1, 1, 1, 1, 1])
        return Sharding(mesh, entries, partial, kind,
                        index_axes=self.src.flag(5))

    def emit(self, text, dtype, shape, **bounds):
        name = self.fresh()
        v = Val(name, dtype, shape, **bounds)
        if numel(shape) > MAX_ELEMENTS:
            raise Skip()
        if is_float(dtype):
            if v.err > BUDGET[dtype] * max(1.0, v.typ):
                raise Skip()
            if not math.isfinite(v.mag) or v.mag > FMAX[dtype]:
                v.mag = math.inf
        self.body.append(text.replace("$R", name).replace("$T", v.type))
        self.vals[name] = v
        if self.src.flag(6):
            # An `xla.sharding` on the op pins its result's layout (now and
            # then a pending reduction).
            s = self.sharding(v, allow_partial=self.src.flag(15))
            line = self.body[-1]
            self.body[-1] = self.with_attr(line, f"xla.sharding = {s.attr()}")
        self.pool.append(v)
        return v

    @staticmethod
    def with_attr(line, attr):
        # Every op's attr-dict comes right before ` : ` except constant's,
        # which precedes its value.
        if " xla.constant " in line:
            return line.replace(" xla.constant ", f" xla.constant {{{attr}}} ",
                                1)
        head, sep, tail = line.rpartition(" : ")
        return f"{head} {{{attr}}}{sep}{tail}"

    def operand(self, pred=lambda v: True, reuse=True):
        cands = [v for v in reversed(self.pool) if pred(v)]
        if not cands:
            return None
        v = cands[self.src.draw(len(cands))]
        if reuse:
            v.uses += 1
        return v

    def same_type(self, v, pred=lambda v: True):
        """A value of v's type: an existing one or a new argument."""
        if self.src.flag(50):
            w = self.operand(lambda u: u.type == v.type and pred(u))
            if w is not None:
                return w
        return self.arg(v.dtype, v.shape)

    def squash(self, v):
        """tanh(v) for floats that are too large for order-sensitive ops."""
        if not is_float(v.dtype) or v.mag <= LIMIT:
            return v
        return self.emit(f"$R = xla.tanh {v.name} : $T", v.dtype, v.shape,
                         mag=1.0, typ=min(v.typ, 0.76), err=v.err)

    def positive(self, dtype, shape):
        """A float value bounded away from zero: exp(tanh(x))."""
        x = self.operand(lambda u: u.dtype == dtype and u.shape == tuple(shape)
                         and u.lo > 0)
        if x is not None:
            return x
        x = self.operand(lambda u: u.dtype == dtype and u.shape ==
                         tuple(shape))
        if x is None:
            x = self.arg(dtype, shape)
        t = self.emit(f"$R = xla.tanh {x.name} : $T", dtype, shape, mag=1.0,
                      typ=min(x.typ, 0.76), err=x.err)
        return self.emit(f"$R = xla.exp {t.name} : $T", dtype, shape,
                         mag=2.72, typ=1.3, lo=0.367, err=t.err * 2.72 +
                         (UNIT[dtype] * 2 if t.err else 0))

    def index_scalar(self):
        """A scalar i32/i64 offset (exact: offsets are integers)."""
        choice = self.src.draw(3)
        if choice == 0:
            v = self.operand(lambda u: u.rank == 0 and u.dtype in
                             ("i32", "i64"))
            if v is not None:
                return v
        dtype = self.src.pick(["i32", "i64"])
        if choice == 1:
            k = self.src.draw(10) - 2
            return self.emit(f"$R = xla.constant dense<{k}> : $T", dtype, [],
                             mag=abs(k), typ=abs(k), lo=abs(k))
        return self.arg(dtype, [], allow_partial=False)

    OPS = [
        ("binary", 14), ("unary", 12), ("mark_sharding", 8),
        ("dot_general", 5),
        ("matmul", 4), ("einsum", 4), ("reduce", 7), ("broadcast", 5),
        ("reshape", 5), ("transpose", 4), ("slice", 4), ("concatenate", 3),
        ("pad", 3), ("convert", 4), ("compare", 3), ("select", 3),
        ("gather", 2), ("dynamic_slice", 2), ("dynamic_update_slice", 2),
        ("softmax", 2), ("convolution", 3), ("iota", 1), ("constant", 2),
        ("rng", 1),
        # Appended, within the same power of two of the total weight, so
        # that most earlier seeds draw the same programs.
        ("math", 10), ("reverse", 3),
    ]

    def mesh_of(self):
        src = self.src
        kind = src.pick(["plain", "permuted", "hybrid"], [5, 2, 2])
        n = 1 + src.draw(3)
        names = src.pick([("x", "y", "z"), ("data", "model", "fsdp"),
                          ("a", "b", "c")])[:n]
        if kind == "hybrid":
            ici = [1 + src.draw(2) for _ in range(n)]
            dcn = [1 + src.draw(2) for _ in range(n)]
            axes = [(a, i * d) for a, i, d in zip(names, ici, dcn)]
            return Mesh("mesh", axes, ici=ici, dcn=dcn)
        axes = [(a, 1 + src.draw(4)) for a in names]
        while numel([s for _, s in axes]) > 32:
            axes[-1] = (axes[-1][0], axes[-1][1] // 2)
        devices = None
        if kind == "permuted":
            devices = src.shuffle(range(numel([s for _, s in axes])))
        return Mesh("mesh", axes, devices=devices)

    def generate(self):
        self.mesh = self.mesh_of()
        for _ in range(1 + self.src.draw(3)):
            self.arg(self.dtype(), self.shape())
        n_ops = 1 + self.src.draw(20)
        names = [n for n, _ in self.OPS]
        weights = [w for _, w in self.OPS]
        for _ in range(n_ops):
            op = self.src.pick(names, weights)
            mark_body, mark_pool = len(self.body), len(self.pool)
            mark_args, counter = len(self.args), self.counter
            try:
                getattr(self, "op_" + op)()
            except Skip:
                # Undo what a half-built op added.
                del self.body[mark_body:]
                del self.pool[mark_pool:]
                del self.args[mark_args:]
                self.counter = counter
        return self.finish()

    def finish(self):
        def returnable(v):
            if not is_float(v.dtype):
                return True
            return v.err <= BUDGET[v.dtype] * max(1.0, v.typ)

        vals = [v for v in self.pool if v.name.startswith("%v")]
        sinks = [v for v in vals if v.uses == 0 and returnable(v)]
        chosen = sinks[-4:]
        for v in vals:
            if v not in chosen and returnable(v) and self.src.flag(10):
                chosen.append(v)
        if not chosen:
            chosen = [self.pool[-1] if self.pool else self.arg("f32", [4])]
        results = []
        for v in chosen:
            s = None
            if self.src.flag(45):
                s = self.sharding(v, allow_partial=self.src.flag(25),
                                  allow_open=False)
            results.append((v, s))
        annotated = (any(s for _, s, _ in self.args) or
                     any(s for _, s in results) or
                     any("xla.sharding" in l or "mark_sharding" in l
                         for l in self.body))
        if not annotated:
            # xla-run partitions (and checks) annotated programs only.
            v = results[0][0]
            results[0] = (v, self.sharding(v, allow_partial=False,
                                           allow_open=False))
        # Donate an argument into a result of the same type now and then.
        for i, (v, _) in enumerate(results):
            for a in self.args:
                if a[0].type == v.type and not a[2] and self.src.flag(10):
                    a[2] = f"xla.aliases = {i}"
                    break
            else:
                continue
            break
        return Case(self.mesh, [tuple(a) for a in self.args], self.body,
                    results, self.vals)


def generate(src):
    return Generator(src).generate()


def from_seed(seed):
    src = Source(seed=seed)
    case = generate(src)
    return case, src.record


def from_choices(choices):
    src = Source(prefix=choices)
    case = generate(src)
    return case, src.record
