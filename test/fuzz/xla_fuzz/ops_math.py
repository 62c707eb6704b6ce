"""The ops of XlaMathOps.td: rounding, sign, transcendental functions,
is_finite, remainder, shifts, clamp and bitcast_convert. A mixin of
`Generator`.

Bounds follow docs/testing.md: ops that are discontinuous (rounding, sign,
fmod, atan2's branch cut, is_finite, bitcasts of floats) run only on values
that cannot drift, so both runs see the same bits; the others propagate a
drift through their Lipschitz bound on the values at hand."""

import math

from .program import (FLOATS, IMAX, INTS, LIMIT, NUMERIC, Skip, is_float)

UNARY = ["floor", "ceil", "round_nearest_afz", "round_nearest_even", "sign",
         "erf", "cos", "sin", "tan", "log1p", "expm1", "cbrt", "is_finite"]
BINARY = ["atan2", "rem", "shift_left", "shift_right_arithmetic",
          "shift_right_logical"]
# Bitcast partners of equal width.
BITCASTS = {"f32": ["i32", "f32"], "i32": ["f32"], "f64": ["i64"],
            "i64": ["f64"], "f16": ["bf16"], "bf16": ["f16"], "i8": ["i8"],
            "i1": ["i1"]}


class MathOps:
    def op_math(self):
        kind = self.src.pick(["unary", "binary", "clamp", "bitcast"],
                             [6, 3, 2, 1])
        return getattr(self, "math_" + kind)()

    def math_unary(self):
        name = self.src.pick(UNARY)
        kinds = NUMERIC if name == "sign" else FLOATS
        v = self.operand(lambda u: u.dtype in kinds)
        if v is None:
            raise Skip()
        if name in ("floor", "ceil", "round_nearest_afz",
                    "round_nearest_even"):
            if not v.exact:
                raise Skip()  # a drift may cross an integer or a half
            b = dict(mag=v.mag + 1, typ=v.typ + 0.5)
        elif name == "sign":
            if not v.exact:
                raise Skip()  # a drift may cross zero
            b = dict(mag=1.0, typ=1.0)
        elif name == "is_finite":
            if not v.exact:
                raise Skip()
            return self.emit(f"$R = xla.is_finite {v.name} : {v.type}", "i1",
                             v.shape, mag=1.0, typ=0.7)
        elif name == "erf":
            b = dict(mag=1.0, typ=min(v.typ, 0.84), err=v.err * 1.13)
        elif name in ("cos", "sin"):
            b = dict(mag=1.0, typ=0.7, err=v.err)
        elif name == "tan":
            if not v.exact and v.mag > 1.0:
                raise Skip()  # steep near pi/2
            if v.mag <= 1.0:
                b = dict(mag=math.tan(v.mag), typ=math.tan(min(v.typ, 1.0)),
                         lo=v.lo, err=v.err / math.cos(v.mag) ** 2)
            else:
                b = dict(mag=math.inf, typ=1.0)
        elif name == "log1p":
            if not v.exact:
                # log1p(|x|): 1 + |x| >= 1 keeps it 1-Lipschitz.
                v = self.emit(f"$R = xla.abs {v.name} : $T", v.dtype, v.shape,
                              mag=v.mag, typ=v.typ, lo=v.lo, err=v.err)
                b = dict(mag=math.log1p(v.mag), typ=math.log1p(v.typ),
                         lo=math.log1p(v.lo), err=v.err)
            elif v.mag < 1.0:
                b = dict(mag=-math.log1p(-v.mag), typ=v.typ)
            else:
                b = dict(mag=math.inf, typ=1.0)  # -1 gives -inf, less NaN
        elif name == "expm1":
            if not v.exact and v.mag > LIMIT:
                v = self.squash(v)
            big = math.exp(min(v.mag, 700))
            b = dict(mag=big, typ=math.expm1(min(v.typ, 700)),
                     err=v.err * big)
        else:  # cbrt: steep near 0
            if not v.exact and v.lo <= 0:
                raise Skip()
            b = dict(mag=v.mag ** (1 / 3), typ=v.typ ** (1 / 3),
                     lo=v.lo ** (1 / 3),
                     err=v.err / (3 * v.lo ** (2 / 3)) if v.err else 0.0)
        b.setdefault("err", 0.0)
        if b["err"]:
            b["err"] += self.round_err(v.dtype, b["err"], b["typ"])
        return self.emit(f"$R = xla.{name} {v.name} : $T", v.dtype, v.shape,
                         **b)

    def math_binary(self):
        name = self.src.pick(BINARY, [2, 3, 1, 1, 1])
        kinds = {"atan2": FLOATS, "rem": NUMERIC}.get(name, INTS)
        a = self.operand(lambda u: u.dtype in kinds and u.exact)
        if a is None:
            raise Skip()
        # atan2's branch cut and fmod's jumps: exact operands only.
        b = self.same_type(a, lambda u: u.exact)
        if name == "atan2":
            bounds = dict(mag=math.pi, typ=1.5)
        elif name == "rem":
            bounds = dict(mag=a.mag, typ=a.typ)
        elif name == "shift_right_arithmetic":
            bounds = dict(mag=a.mag, typ=a.typ)
        else:
            bounds = dict(mag=IMAX[a.dtype], typ=IMAX[a.dtype])
        return self.emit(f"$R = xla.{name} {a.name}, {b.name} : $T", a.dtype,
                         a.shape, **bounds)

    def math_clamp(self):
        x = self.operand(lambda u: u.dtype in NUMERIC)
        if x is None:
            raise Skip()
        lo = self.same_type(x)
        hi = self.same_type(x)
        # clamp picks one of its operands: 1-Lipschitz in each, no rounding.
        return self.emit(
            f"$R = xla.clamp {lo.name}, {x.name}, {hi.name} : $T", x.dtype,
            x.shape, mag=max(lo.mag, x.mag, hi.mag),
            typ=max(lo.typ, x.typ, hi.typ), err=max(lo.err, x.err, hi.err))

    def math_bitcast(self):
        v = self.operand(lambda u: u.exact)
        if v is None:
            raise Skip()
        to = self.src.pick(BITCASTS[v.dtype])
        if to == v.dtype:
            b = self.keep(v)
        elif is_float(to):
            b = dict(mag=math.inf, typ=1.0)  # any bits: NaN, inf, huge
        else:
            b = dict(mag=IMAX[to], typ=IMAX[to])
        return self.emit(
            f"$R = xla.bitcast_convert {v.name} : {v.type} -> $T", to,
            v.shape, **b)
