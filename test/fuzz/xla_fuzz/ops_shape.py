"""Data movement: broadcast, reshape, transpose, reverse, slices,
concatenate, pad, gather. A mixin of `Generator`."""

from .program import Skip, is_float, numel


class ShapeOps:
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

    def op_reverse(self):
        v = self.operand(lambda u: u.rank >= 1)
        if v is None:
            raise Skip()
        dims = self.src.shuffle(self.src.subset(range(v.rank), 60))
        return self.emit(
            f"$R = xla.reverse {v.name}, dims = "
            f"[{', '.join(map(str, dims))}] : $T", v.dtype, v.shape,
            **self.keep(v))

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
