"""Elementwise ops: unary and binary arithmetic, compare, select, convert.

A mixin of `Generator`; each `op_*` adds one op (and whatever operands it
needs) or raises `Skip`."""

import math

from .program import (FLOATS, IMAX, INTS, LIMIT, NUMERIC, UNIT, Skip,
                      is_float)


class ElementwiseOps:
    def round_err(self, dtype, inputs_err, typ):
        """Rounding of a result whose inputs may already differ."""
        if not inputs_err:
            return 0.0
        return UNIT[dtype] * typ * 2

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
                     # Not v.lo**1.5: it underflows to 0 for tiny v.lo
                     # (seed 56180).
                     err=v.err / (2 * v.lo) / math.sqrt(v.lo))
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
                     # Divide twice: b.lo**2 underflows to 0 for tiny b.lo.
                     err=a.err / b.lo + (a.mag * b.err / b.lo / b.lo
                                         if b.err else 0.0))
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
