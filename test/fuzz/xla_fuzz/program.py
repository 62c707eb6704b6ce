"""The programs the fuzzer builds: values with numeric bounds, meshes,
shardings and the printed test case."""

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
