"""Contractions, reductions, softmax, convolution, sources and
mark_sharding. A mixin of `Generator`."""

import math

from .program import (FLOATS, IMAX, LIMIT, NUMERIC, UNIT, Skip, is_float,
                      numel)


def pow_or_inf(x, n):
    """x**n, or inf where Python's float power raises OverflowError."""
    try:
        return x**n
    except OverflowError:
        return math.inf


class ComputeOps:
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
            m = v.mag * n if kind == "sum" else pow_or_inf(v.mag, max(n, 1)) \
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
