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

FLOATS = ("f32", "f64", "bf16", "f16")
INTS = ("i32", "i64", "i8")
NUMERIC = FLOATS + INTS
ALL = NUMERIC + ("i1",)

# Unit roundoff and the default absolute tolerance of `xla-run --check`.
UNIT = {"f32": 2.0**-24, "f64": 2.0**-53, "bf16": 2.0**-9, "f16": 2.0**-11}
BUDGET = {"f32": 1e-5, "f64": 1e-12, "bf16": 1e-2, "f16": 1e-3}
FMAX = {"f32": 3.4e38, "f64": 1.7e308, "bf16": 3.38e38, "f16": 65504.0}
IMAX = {"i8": 127, "i32": 2**31 - 1, "i64": 2**63 - 1, "i1": 1}
# Inputs of order-sensitive ops stay below this magnitude.
LIMIT = 8.0
MAX_ELEMENTS = 2048
AXIS_NAMES = ("x", "y", "z", "data", "model", "fsdp")


def is_float(t):
    return t in FLOATS


def ttype(shape, dtype):
    if not shape:
        return f"tensor<{dtype}>"
    return "tensor<" + "x".join(str(d) for d in shape) + f"x{dtype}>"


def numel(shape):
    n = 1
    for d in shape:
        n *= d
    return n


class Val:
    def __init__(self, name, dtype, shape, mag=1.0, typ=0.5, lo=0.0,
                 err=0.0):
        self.name = name
        self.dtype = dtype
        self.shape = tuple(shape)
        self.mag = mag
        self.typ = typ
        self.lo = lo
        self.err = err
        self.uses = 0

    @property
    def type(self):
        return ttype(self.shape, self.dtype)

    @property
    def rank(self):
        return len(self.shape)

    @property
    def exact(self):
        return self.err == 0.0


class Mesh:
    def __init__(self, name, axes, devices=None, ici=None, dcn=None):
        self.name = name
        self.axes = axes  # [(name, size)]
        self.devices = devices
        self.ici = ici
        self.dcn = dcn

    @property
    def size(self):
        return numel([s for _, s in self.axes])

    def text(self):
        if self.ici is not None:
            ici = ", ".join(f'"{a}"={s}' for (a, _), s in
                            zip(self.axes, self.ici))
            dcn = ", ".join(f'"{a}"={s}' for (a, _), s in
                            zip(self.axes, self.dcn))
            return f"xla.mesh @{self.name} = hybrid<ici=[{ici}], dcn=[{dcn}]>"
        axes = ", ".join(f'"{a}"={s}' for a, s in self.axes)
        if self.devices is not None:
            devs = ", ".join(str(d) for d in self.devices)
            return f"xla.mesh @{self.name} = <[{axes}], devices=[{devs}]>"
        return f"xla.mesh @{self.name} = <[{axes}]>"


class Sharding:
    def __init__(self, mesh, dims, partial=None, kind="sum", index_axes=False):
        self.mesh = mesh
        self.dims = dims  # [(axes, open, priority)]
        self.partial = partial or []
        self.kind = kind
        self.index_axes = index_axes

    def body(self):
        names = [a for a, _ in self.mesh.axes]
        entries = []
        for axes, open_, prio in self.dims:
            if self.index_axes:
                items = [str(names.index(a)) for a in axes]
            else:
                items = [f'"{a}"' for a in axes]
            if open_:
                items.append("?")
            text = "{" + ", ".join(items) + "}"
            if prio is not None and (axes or open_):
                text += f"p{prio}"
            entries.append(text)
        text = f"@{self.mesh.name}, [" + ", ".join(entries) + "]"
        if self.partial:
            kind = "" if self.kind == "sum" else f"<{self.kind}>"
            text += f", partial{kind}={{" + ", ".join(
                f'"{a}"' for a in self.partial) + "}"
        return text

    def attr(self):
        return f"#xla.sharding<{self.body()}>"

    def short(self):
        return f"<{self.body()}>"


class Case:
    def __init__(self, mesh, args, body, results, vals=None):
        self.mesh = mesh
        self.args = args  # [(Val, Sharding|None, extra attrs)]
        self.body = body  # [str], one op per line: "%vN = xla.op ..."
        self.results = results  # [(Val, Sharding|None)]
        self.vals = vals or {}  # name -> Val of every op result

    def text(self, header=""):
        def attrs(sharding, extra=""):
            items = []
            if sharding is not None:
                items.append(f"xla.sharding = {sharding.attr()}")
            if extra:
                items.append(extra)
            return " {" + ", ".join(items) + "}" if items else ""

        args = ", ".join(f"{v.name}: {v.type}{attrs(s, extra)}"
                         for v, s, extra in self.args)
        results = ", ".join(f"{v.type}{attrs(s)}" for v, s in self.results)
        lines = [header] if header else []
        lines.append(self.mesh.text())
        lines.append(f"func.func @main({args}) -> ({results}) {{")
        lines += ["  " + line for line in self.body]
        names = ", ".join(v.name for v, _ in self.results)
        types = ", ".join(v.type for v, _ in self.results)
        lines.append(f"  return {names} : {types}")
        lines.append("}")
        return "\n".join(lines) + "\n"

    @property
    def num_ops(self):
        return len(self.body)


class Skip(Exception):
    """The op drawn does not fit the values at hand."""


class Generator:
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
            # An `xla.sharding` on the op pins its result's layout.
            s = self.sharding(v, allow_partial=False)
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

    def round_err(self, dtype, inputs_err, typ):
        """Rounding of a result whose inputs may already differ."""
        if not inputs_err:
            return 0.0
        return UNIT[dtype] * typ * 2

    # ---- ops -----------------------------------------------------------
    def op_unary(self):
        name = self.src.pick(
            ["neg", "abs", "exp", "log", "tanh", "sqrt", "rsqrt", "sigmoid",
             "relu", "gelu", "not"])
        kinds = {"not": INTS + ("i1",)}.get(name)
        if kinds is None:
            kinds = NUMERIC if name in ("neg", "abs", "relu") else FLOATS
        v = self.operand(lambda u: u.dtype in kinds)
        if v is None:
            raise Skip()
        f = is_float(v.dtype)
        b = dict(mag=v.mag, typ=v.typ, lo=0.0, err=v.err)
        if name in ("neg", "abs"):
            b["lo"] = v.lo
        elif name == "exp":
            if not v.exact and v.mag > LIMIT:
                v = self.squash(v)
            b = dict(mag=math.exp(min(v.mag, 700)),
                     typ=math.exp(min(v.typ, 700)),
                     lo=math.exp(-v.mag) if v.mag < 700 else 0.0,
                     err=v.err * math.exp(min(v.mag, 700)))
        elif name in ("log", "sqrt"):
            if not v.exact and v.lo <= 0:
                raise Skip()
            if name == "log":
                m = (max(abs(math.log(v.lo)), abs(math.log(v.mag)))
                     if v.lo > 0 and math.isfinite(v.mag) else math.inf)
                b = dict(mag=m, typ=min(m, 1.0), err=v.err / v.lo
                         if v.err else 0.0)
            else:
                b = dict(mag=math.sqrt(v.mag), typ=math.sqrt(v.typ),
                         lo=math.sqrt(v.lo), err=v.err / (2 * math.sqrt(v.lo))
                         if v.err else 0.0)
        elif name == "rsqrt":
            if v.lo <= 0:
                raise Skip()
            b = dict(mag=1 / math.sqrt(v.lo), typ=1 / math.sqrt(v.typ),
                     lo=1 / math.sqrt(v.mag) if math.isfinite(v.mag) else 0.0,
                     err=v.err / (2 * v.lo**1.5))
        elif name == "tanh":
            b = dict(mag=min(v.mag, 1.0), typ=min(v.typ, 0.76), err=v.err,
                     lo=math.tanh(v.lo))
        elif name == "sigmoid":
            b = dict(mag=1.0, typ=0.5, err=v.err * 0.25,
                     lo=1 / (1 + math.exp(min(v.mag, 700))))
        elif name == "gelu":
            b["err"] = v.err * 1.13
        elif name == "not":
            b = dict(mag=IMAX[v.dtype] if v.dtype != "i1" else 1, typ=v.typ)
        if f:
            b["err"] += self.round_err(v.dtype, v.err, b["typ"])
        return self.emit(f"$R = xla.{name} {v.name} : $T", v.dtype, v.shape,
                         **b)

    def op_binary(self):
        name = self.src.pick(["add", "sub", "mul", "div", "max", "min", "pow",
                              "and", "or", "xor"],
                             [5, 4, 4, 3, 2, 2, 1, 1, 1, 1])
        if name in ("and", "or", "xor"):
            kinds = INTS + ("i1",)
        elif name == "pow":
            kinds = FLOATS
        else:
            kinds = NUMERIC
        a = self.operand(lambda u: u.dtype in kinds)
        if a is None:
            raise Skip()
        f = is_float(a.dtype)
        if name == "div" and f:
            b = self.operand(lambda u: u.type == a.type and u.lo > 0)
            if b is None:
                b = self.positive(a.dtype, a.shape)
        elif name == "pow":
            if not a.exact:
                raise Skip()
            b = self.same_type(a, lambda u: u.exact)
        else:
            b = self.same_type(a)
        if not f:
            bounds = self.int_bounds(name, a, b)
        else:
            bounds = self.float_bounds(name, a, b)
        return self.emit(f"$R = xla.{name} {a.name}, {b.name} : $T", a.dtype,
                         a.shape, **bounds)

    def int_bounds(self, name, a, b):
        top = IMAX[a.dtype]
        if name in ("add", "sub"):
            m = a.mag + b.mag
        elif name == "mul":
            m = a.mag * b.mag
        elif name in ("and", "or", "xor"):
            m = top if a.dtype != "i1" else 1
        else:
            m = max(a.mag, b.mag)
        return dict(mag=min(m, top), typ=min(m, top))

    def float_bounds(self, name, a, b):
        err = a.err or b.err
        if name in ("add", "sub"):
            d = dict(mag=a.mag + b.mag, typ=math.hypot(a.typ, b.typ),
                     err=a.err + b.err)
        elif name == "mul":
            d = dict(mag=a.mag * b.mag, typ=a.typ * b.typ,
                     lo=a.lo * b.lo, err=a.err * b.mag + b.err * a.mag)
        elif name == "div":
            d = dict(mag=a.mag / b.lo, typ=a.typ / max(b.typ, b.lo),
                     lo=a.lo / b.mag if math.isfinite(b.mag) else 0.0,
                     err=a.err / b.lo + a.mag * b.err / b.lo**2)
        elif name in ("max", "min"):
            d = dict(mag=max(a.mag, b.mag), typ=max(a.typ, b.typ),
                     err=max(a.err, b.err))
        else:  # pow of exact values
            d = dict(mag=math.inf, typ=1.0)
        d["err"] = d.get("err", 0.0)
        if err:
            d["err"] += self.round_err(a.dtype, err, d["typ"])
        if not math.isfinite(d["mag"]) and not (a.exact and b.exact):
            raise Skip()
        return d

    def op_compare(self):
        a = self.operand(lambda u: u.exact)
        if a is None:
            raise Skip()
        b = self.same_type(a, lambda u: u.exact)
        direction = self.src.pick(["lt", "eq", "ne", "le", "gt", "ge"])
        return self.emit(
            f"$R = xla.compare {direction}, {a.name}, {b.name} : {a.type}",
            "i1", a.shape, mag=1.0, typ=0.7)

    def op_select(self):
        p = self.operand(lambda u: u.dtype == "i1")
        if p is None:
            raise Skip()
        dtype = self.dtype()
        t = self.operand(lambda u: u.shape == p.shape and u.dtype == dtype)
        if t is None:
            t = self.arg(dtype, p.shape)
        e = self.same_type(t)
        return self.emit(f"$R = xla.select {p.name}, {t.name}, {e.name} : $T",
                         t.dtype, t.shape, mag=max(t.mag, e.mag),
                         typ=max(t.typ, e.typ), lo=min(t.lo, e.lo),
                         err=max(t.err, e.err))

    def op_convert(self):
        v = self.operand()
        if v is None:
            raise Skip()
        to = self.dtype()
        if to == v.dtype:
            to = self.dtype()
        if not is_float(to) and not v.exact:
            raise Skip()
        if is_float(to):
            mag = v.mag if v.dtype != "i1" else 1.0
            err = v.err + (UNIT[to] * v.typ if v.err else 0.0)
            b = dict(mag=mag, typ=v.typ, lo=v.lo, err=err)
        else:
            m = min(v.mag, IMAX[to]) if math.isfinite(v.mag) else IMAX[to]
            b = dict(mag=m, typ=min(v.typ, m))
        return self.emit(
            f"$R = xla.convert {v.name} : {v.type} -> $T", to, v.shape, **b)

    def keep(self, v):
        return dict(mag=v.mag, typ=v.typ, lo=v.lo, err=v.err)

    def op_broadcast(self):
        v = self.operand(lambda u: u.rank < 4)
        if v is None:
            raise Skip()
        rank = v.rank + self.src.draw(5 - v.rank)
        rank = max(rank, v.rank)
        slots = sorted(self.src.shuffle(range(rank))[:v.rank])
        shape = [self.dim() for _ in range(rank)]
        for i, d in enumerate(slots):
            if v.shape[i] != 1 or self.src.flag(50):
                shape[d] = v.shape[i]
        dims = ", ".join(str(d) for d in slots)
        return self.emit(
            f"$R = xla.broadcast_in_dim {v.name}, dims = [{dims}] : "
            f"({v.type}) -> $T", v.dtype, shape, **self.keep(v))

    def op_reshape(self):
        v = self.operand()
        if v is None:
            raise Skip()
        n = numel(v.shape)
        factors = []
        m, p = n, 2
        while m > 1 and p * p <= m:
            while m % p == 0:
                factors.append(p)
                m //= p
            p += 1
        if m > 1:
            factors.append(m)
        if n == 0:
            raise Skip()
        rank = self.src.pick([2, 1, 3, 0, 4])
        if rank == 0 and n != 1:
            rank = 1
        shape = [1] * rank
        for f in self.src.shuffle(factors):
            shape[self.src.draw(rank)] *= f
        return self.emit(f"$R = xla.reshape {v.name} : ({v.type}) -> $T",
                         v.dtype, shape, **self.keep(v))

    def op_transpose(self):
        v = self.operand(lambda u: u.rank >= 1)
        if v is None:
            raise Skip()
        perm = self.src.shuffle(range(v.rank))
        shape = [v.shape[p] for p in perm]
        return self.emit(
            f"$R = xla.transpose {v.name}, permutation = "
            f"[{', '.join(map(str, perm))}] : ({v.type}) -> $T", v.dtype,
            shape, **self.keep(v))

    def op_slice(self):
        v = self.operand(lambda u: u.rank >= 1)
        if v is None:
            raise Skip()
        start, limit, strides, shape = [], [], [], []
        for d in v.shape:
            s = self.src.draw(d) if d else 0
            lim = s + (self.src.draw(d - s) + 1 if d > s else 0)
            if self.src.flag(2):
                lim = s
            lim = d - self.src.draw(d - s + 1) if self.src.flag(30) else lim
            lim = max(lim, s)
            st = 1 + self.src.draw(3)
            start.append(s)
            limit.append(lim)
            strides.append(st)
            shape.append((lim - s + st - 1) // st)
        j = lambda xs: ", ".join(map(str, xs))
        return self.emit(
            f"$R = xla.slice {v.name}, start = [{j(start)}], limit = "
            f"[{j(limit)}], strides = [{j(strides)}] : ({v.type}) -> $T",
            v.dtype, shape, **self.keep(v))

    def op_dynamic_slice(self):
        v = self.operand(lambda u: u.rank >= 1)
        if v is None:
            raise Skip()
        sizes = [self.src.draw(d) + 1 if d else 0 for d in v.shape]
        offsets = [self.index_scalar() for _ in v.shape]
        names = ", ".join(o.name for o in offsets)
        types = ", ".join([v.type] + [o.type for o in offsets])
        return self.emit(
            f"$R = xla.dynamic_slice {v.name}[{names}], sizes = "
            f"[{', '.join(map(str, sizes))}] : ({types}) -> $T", v.dtype,
            sizes, **self.keep(v))

    def op_dynamic_update_slice(self):
        v = self.operand(lambda u: u.rank >= 1)
        if v is None:
            raise Skip()
        shape = [self.src.draw(d) + 1 if d else 0 for d in v.shape]
        u = self.operand(lambda w: w.dtype == v.dtype and w.shape ==
                         tuple(shape))
        if u is None:
            u = self.arg(v.dtype, shape)
        offsets = [self.index_scalar() for _ in v.shape]
        names = ", ".join(o.name for o in offsets)
        types = ", ".join([v.type, u.type] + [o.type for o in offsets])
        return self.emit(
            f"$R = xla.dynamic_update_slice {v.name}, {u.name}[{names}] : "
            f"({types}) -> $T", v.dtype, v.shape, mag=max(v.mag, u.mag),
            typ=max(v.typ, u.typ), lo=min(v.lo, u.lo), err=max(v.err, u.err))

    def op_concatenate(self):
        v = self.operand(lambda u: u.rank >= 1)
        if v is None:
            raise Skip()
        dim = self.src.draw(v.rank)
        parts = [v]
        for _ in range(self.src.draw(3)):
            def fits(u):
                return (u.dtype == v.dtype and u.rank == v.rank and all(
                    a == b for i, (a, b) in enumerate(zip(u.shape, v.shape))
                    if i != dim))
            u = self.operand(fits) if self.src.flag(40) else None
            if u is None:
                shape = list(v.shape)
                shape[dim] = self.dim()
                u = self.arg(v.dtype, shape)
            parts.append(u)
        shape = list(v.shape)
        shape[dim] = sum(p.shape[dim] for p in parts)
        names = ", ".join(p.name for p in parts)
        types = ", ".join(p.type for p in parts)
        return self.emit(
            f"$R = xla.concatenate {names}, dim = {dim} : ({types}) -> $T",
            v.dtype, shape, mag=max(p.mag for p in parts),
            typ=max(p.typ for p in parts), lo=min(p.lo for p in parts),
            err=max(p.err for p in parts))

    def op_pad(self):
        v = self.operand(lambda u: u.rank >= 1)
        if v is None:
            raise Skip()
        low, high, interior, shape = [], [], [], []
        for d in v.shape:
            lo = self.src.draw(4) - self.src.draw(2) * min(d, 2)
            hi = self.src.draw(4) - self.src.draw(2) * min(d, 2)
            it = self.src.draw(3) if self.src.flag(25) else 0
            grown = d + (d - 1) * it if d else 0
            if grown + lo + hi < 0:
                lo, hi = 0, 0
            low.append(lo)
            high.append(hi)
            interior.append(it)
            shape.append(grown + lo + hi)
        if is_float(v.dtype):
            value = self.src.pick(["0.0", "1.5", "-2.0", "0.25"])
        elif v.dtype == "i1":
            value = self.src.pick(["0.0", "1.0"])
        else:
            value = self.src.pick(["0.0", "3.0", "-1.0"])
        pv = abs(float(value))
        j = lambda xs: ", ".join(map(str, xs))
        return self.emit(
            f"$R = xla.pad {v.name}, low = [{j(low)}], high = [{j(high)}], "
            f"interior = [{j(interior)}], value = {value} : ({v.type}) -> $T",
            v.dtype, shape, mag=max(v.mag, pv), typ=max(v.typ, pv),
            err=v.err)

    def op_gather(self):
        t = self.operand(lambda u: u.rank >= 1 and u.shape[0] > 0)
        if t is None:
            raise Skip()
        idx = self.operand(lambda u: u.dtype in ("i32", "i64") and u.rank <= 2)
        if idx is None or self.src.flag(40):
            idx = self.arg(self.src.pick(["i32", "i64"]),
                           self.shape(self.src.draw(3)))
        shape = list(idx.shape) + list(t.shape[1:])
        return self.emit(
            f"$R = xla.gather {t.name}, {idx.name} : ({t.type}, {idx.type}) "
            f"-> $T", t.dtype, shape, **self.keep(t))

    def contraction_bounds(self, a, b, k, shards=1):
        if not is_float(a.dtype):
            m = min(k * a.mag * b.mag, IMAX[a.dtype])
            return dict(mag=m, typ=m)
        tm = k * a.typ * b.typ
        if a.dtype in ("bf16", "f16"):
            rounding = 3 * UNIT[a.dtype] * tm
        else:
            rounding = (2 + math.sqrt(k)) * UNIT[a.dtype] * tm
        err = k * (a.err * b.mag + b.err * a.mag) + rounding
        return dict(mag=k * a.mag * b.mag, typ=math.sqrt(max(k, 1)) * a.typ *
                    b.typ, err=err)

    def contraction_operand(self):
        a = self.operand(lambda u: u.dtype in NUMERIC and u.rank >= 1)
        if a is None:
            raise Skip()
        return self.squash(a)

    def rhs_for(self, a, shape):
        b = self.operand(lambda u: u.dtype == a.dtype and u.shape ==
                         tuple(shape)) if self.src.flag(30) else None
        if b is None:
            b = self.arg(a.dtype, shape)
        return self.squash(b)

    def op_dot_general(self):
        a = self.contraction_operand()
        roles = [self.src.pick(["free", "contract", "batch"]) for _ in a.shape]
        batch = [i for i, r in enumerate(roles) if r == "batch"]
        contract = [i for i, r in enumerate(roles) if r == "contract"]
        rfree = [self.dim() for _ in range(self.src.draw(3))]
        # rhs dims: batch, contract, free, then permuted.
        logical = ([("b", i) for i in range(len(batch))] +
                   [("c", i) for i in range(len(contract))] +
                   [("f", i) for i in range(len(rfree))])
        order = self.src.shuffle(range(len(logical)))
        if len(logical) > 4:
            raise Skip()
        rshape, rb, rc = [], [None] * len(batch), [None] * len(contract)
        for pos, li in enumerate(order):
            kind, i = logical[li]
            if kind == "b":
                rshape.append(a.shape[batch[i]])
                rb[i] = pos
            elif kind == "c":
                rshape.append(a.shape[contract[i]])
                rc[i] = pos
            else:
                rshape.append(rfree[i])
        b = self.rhs_for(a, rshape)
        lfree = [d for i, d in enumerate(a.shape) if roles[i] == "free"]
        # rhs free dimensions come in the order they have in the rhs.
        rfree_ordered = [rshape[pos] for pos, li in enumerate(order)
                         if logical[li][0] == "f"]
        shape = [a.shape[i] for i in batch] + lfree + rfree_ordered
        k = numel([a.shape[i] for i in contract])
        j = lambda xs: "[" + ", ".join(map(str, xs)) + "]"
        return self.emit(
            f"$R = xla.dot_general {a.name}, {b.name}, batch = {j(batch)} x "
            f"{j(rb)}, contract = {j(contract)} x {j(rc)} : ({a.type}, "
            f"{b.type}) -> $T", a.dtype, shape,
            **self.contraction_bounds(a, b, k))

    def op_matmul(self):
        a = self.operand(lambda u: u.dtype in NUMERIC and u.rank >= 2)
        if a is None:
            raise Skip()
        a = self.squash(a)
        n = self.dim()
        if self.src.flag(50):
            rshape = [a.shape[-1], n]
        else:
            rshape = list(a.shape[:-1])
            rshape[-1] = a.shape[-1]
            rshape = list(a.shape[:-2]) + [a.shape[-1], n]
        b = self.rhs_for(a, rshape)
        shape = list(a.shape[:-1]) + [n]
        return self.emit(
            f"$R = xla.matmul {a.name}, {b.name} : ({a.type}, {b.type}) -> $T",
            a.dtype, shape, **self.contraction_bounds(a, b, a.shape[-1]))

    def op_einsum(self):
        a = self.contraction_operand()
        letters = "abcdefgh"
        la = letters[:a.rank]
        sizes = dict(zip(la, a.shape))
        shared = [c for c in la if self.src.flag(50)]
        extra = letters[a.rank:a.rank + self.src.draw(3)]
        for c in extra:
            sizes[c] = self.dim()
        lb = self.src.shuffle(shared + list(extra))
        if len(lb) == 0:
            lb = [la[0]]
        if len(lb) > 4:
            raise Skip()
        out = [c for c in self.src.shuffle(list(la) + list(extra))
               if self.src.flag(60)]
        b = self.rhs_for(a, [sizes[c] for c in lb])
        k = numel([sizes[c] for c in set(la) | set(lb) if c not in out])
        eq = f'"{la},{"".join(lb)}->{"".join(out)}"'
        return self.emit(
            f"$R = xla.einsum {eq} {a.name}, {b.name} : ({a.type}, {b.type}) "
            f"-> $T", a.dtype, [sizes[c] for c in out],
            **self.contraction_bounds(a, b, k))

    def op_reduce(self):
        v = self.operand(lambda u: u.rank >= 1)
        if v is None:
            raise Skip()
        if v.dtype == "i1":
            kind = self.src.pick(["or", "and", "max", "min"])
        elif is_float(v.dtype):
            kind = self.src.pick(["sum", "max", "min", "mean", "prod"],
                                 [4, 2, 2, 3, 1])
        else:
            kind = self.src.pick(["sum", "max", "min", "prod", "and", "or"],
                                 [4, 2, 2, 1, 1, 1])
        dims = sorted(self.src.subset(range(v.rank), 50))
        if not dims and self.src.flag(80):
            dims = [self.src.draw(v.rank)]
        dims = self.src.shuffle(dims) if self.src.flag(20) else dims
        n = numel([v.shape[d] for d in dims])
        shape = [d for i, d in enumerate(v.shape) if i not in dims]
        if not is_float(v.dtype):
            m = v.mag * n if kind == "sum" else v.mag**max(n, 1) \
                if kind == "prod" else v.mag
            b = dict(mag=min(m, IMAX[v.dtype]), typ=min(m, IMAX[v.dtype]))
        elif kind in ("max", "min"):
            b = self.keep(v)
            if n == 0:
                b = dict(mag=math.inf, typ=1.0, err=v.err)
        else:
            if v.mag > LIMIT:
                v = self.squash(v)
            u = UNIT[v.dtype]
            if kind == "prod":
                if v.mag > 1.0:
                    raise Skip()
                b = dict(mag=1.0, typ=v.typ, err=n * v.err + 2 * n * u)
            elif kind == "sum":
                c = 3 if v.dtype in ("bf16", "f16") else 2 + math.sqrt(n)
                b = dict(mag=n * v.mag, typ=math.sqrt(max(n, 1)) * v.typ,
                         err=n * v.err + c * u * n * v.typ)
            else:
                c = 3 if v.dtype in ("bf16", "f16") else 2 + math.sqrt(n)
                b = dict(mag=v.mag if n else math.inf, typ=v.typ,
                         err=v.err + c * u * v.typ)
                if n == 0:
                    b["err"] = 0.0 if v.exact else b["err"]
        return self.emit(
            f"$R = xla.reduce {kind} {v.name}, dims = "
            f"[{', '.join(map(str, dims))}] : ({v.type}) -> $T", v.dtype,
            shape, **b)

    def op_softmax(self):
        v = self.operand(lambda u: u.dtype in FLOATS and u.rank >= 1)
        if v is None:
            raise Skip()
        if not v.exact and v.mag > LIMIT:
            v = self.squash(v)
        dim = self.src.draw(v.rank)
        err = 2 * v.err + (UNIT[v.dtype] * 2 if v.err else 0.0)
        return self.emit(f"$R = xla.softmax {v.name}, dim = {dim} : $T",
                         v.dtype, v.shape, mag=1.0, typ=0.5, err=err)

    def op_convolution(self):
        spatial = self.src.pick([1, 2])
        v = self.operand(lambda u: u.dtype in NUMERIC and u.rank == spatial + 2
                         and all(d > 0 for d in u.shape))
        if v is None:
            dtype = self.dtype(NUMERIC)
            v = self.arg(dtype, [self.dim() for _ in range(spatial + 2)])
        v = self.squash(v)
        c = v.shape[-1]
        groups = self.src.pick([g for g in (1, 2, 3, 4) if c % g == 0])
        o = groups * (1 + self.src.draw(3))
        ks = [1 + self.src.draw(3) for _ in range(spatial)]
        strides = [1 + self.src.draw(2) for _ in range(spatial)]
        lhs_dil = [1 + self.src.draw(2) if self.src.flag(20) else 1
                   for _ in range(spatial)]
        rhs_dil = [1 + self.src.draw(2) if self.src.flag(20) else 1
                   for _ in range(spatial)]
        pads, out = [], [v.shape[0]]
        for i in range(spatial):
            lo = self.src.draw(3) - (1 if self.src.flag(10) else 0)
            hi = self.src.draw(3) - (1 if self.src.flag(10) else 0)
            s = (v.shape[1 + i] - 1) * lhs_dil[i] + 1
            kk = (ks[i] - 1) * rhs_dil[i] + 1
            size = s + lo + hi - kk
            if size < 0:
                raise Skip()
            pads.append((lo, hi))
            out.append(size // strides[i] + 1)
        out.append(o)
        kernel = self.rhs_for(v, ks + [c // groups, o])
        j = lambda xs: "[" + ", ".join(map(str, xs)) + "]"
        pad = "[" + ", ".join(f"[{lo}, {hi}]" for lo, hi in pads) + "]"
        k = numel(ks) * (c // groups)
        groups_text = f", feature_groups = {groups}" if groups > 1 else ""
        return self.emit(
            f"$R = xla.convolution {v.name}, {kernel.name}, strides = "
            f"{j(strides)}, padding = {pad}, lhs_dilation = {j(lhs_dil)}, "
            f"rhs_dilation = {j(rhs_dil)}{groups_text} : ({v.type}, "
            f"{kernel.type}) -> $T", v.dtype, out,
            **self.contraction_bounds(v, kernel, k))

    def op_iota(self):
        dtype = self.dtype(NUMERIC)
        shape = self.shape(1 + self.src.draw(3))
        dim = self.src.draw(len(shape))
        m = max(shape[dim] - 1, 0)
        return self.emit(f"$R = xla.iota dim = {dim} : $T", dtype, shape,
                         mag=m, typ=m / 2 + 0.5)

    def op_constant(self):
        dtype = self.dtype()
        shape = self.shape()
        if dtype == "i1":
            pool = ["true", "false"]
        elif is_float(dtype):
            pool = ["1.5", "-0.5", "2.0", "0.25", "-3.0", "0.0", "1.0e-3"]
        else:
            pool = ["1", "-2", "3", "0", "7", "-5"]
        if self.src.flag(50) or numel(shape) > 64 or not shape:
            vals = [self.src.pick(pool)]
            text = vals[0]
        else:
            vals = [self.src.pick(pool) for _ in range(numel(shape))]

            def nest(level, flat):
                if level == len(shape):
                    return flat.pop(0)
                return "[" + ", ".join(nest(level + 1, flat)
                                       for _ in range(shape[level])) + "]"
            text = nest(0, list(vals))
        nums = [1.0 if x == "true" else 0.0 if x == "false" else
                abs(float(x)) for x in vals]
        lo = min(nums) if nums else 0.0
        if is_float(dtype) and dtype in ("bf16", "f16"):
            lo = lo * 0.99
        m = max(nums) if nums else 0.0
        return self.emit(f"$R = xla.constant dense<{text}> : $T", dtype, shape,
                         mag=m, typ=max(m, 0.1), lo=lo)

    def op_rng(self):
        dtype = self.dtype(FLOATS)
        shape = self.shape()
        seed = self.src.draw(100)
        if self.src.flag(50):
            a = self.src.pick([-1.0, 0.0, 0.5, -2.0])
            b = a + self.src.pick([1.0, 2.0, 0.5])
            dist = "uniform"
            mag, lo = max(abs(a), abs(b)), a if a > 0 else 0.0
        else:
            a = self.src.pick([0.0, 1.0, -0.5])
            b = self.src.pick([1.0, 0.5, 0.0])
            dist = "normal"
            mag, lo = abs(a) + 9 * b, 0.0
        return self.emit(
            f"$R = xla.rng {dist} seed = {seed}, a = {a}, b = {b} : $T",
            dtype, shape, mag=mag, typ=max(abs(a), b) or 0.1, lo=lo)

    def op_mark_sharding(self):
        v = self.operand()
        if v is None:
            raise Skip()
        s = self.sharding(v, allow_partial=self.src.flag(10))
        return self.emit(f"$R = xla.mark_sharding {v.name} {s.short()} : $T",
                         v.dtype, v.shape, **self.keep(v))

    OPS = [
        ("binary", 14), ("unary", 12), ("mark_sharding", 8), ("dot_general", 5),
        ("matmul", 4), ("einsum", 4), ("reduce", 7), ("broadcast", 5),
        ("reshape", 5), ("transpose", 4), ("slice", 4), ("concatenate", 3),
        ("pad", 3), ("convert", 4), ("compare", 3), ("select", 3),
        ("gather", 2), ("dynamic_slice", 2), ("dynamic_update_slice", 2),
        ("softmax", 2), ("convolution", 3), ("iota", 1), ("constant", 2),
        ("rng", 1),
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
