#!/usr/bin/env python3
"""A numpy-free .npy reader/writer for the xla-run tests.

  npy_tool.py dump FILE            prints every array: dtype, shape, values
  npy_tool.py write FILE SPEC...   SPEC = dtype:shape:values, e.g.
                                   '<f4:2,3:1,2,3,4,5,6' or '|b1::1' (scalar);
                                   options after the values: ':v2' (version
                                   2.0 header), ':fortran', ':garbage'
  npy_tool.py raw FILE HEX         writes raw bytes
"""

import ast
import struct
import sys

CODES = {"f4": "f", "f8": "d", "f2": "e", "u2": "H", "b1": "?", "i1": "b",
         "i4": "i", "i8": "q", "c8": "ff"}


def dump(path):
    data = open(path, "rb").read()
    pos = 0
    while pos < len(data):
        assert data[pos:pos + 6] == b"\x93NUMPY", "bad magic"
        major = data[pos + 6]
        if major == 1:
            hlen = struct.unpack("<H", data[pos + 8:pos + 10])[0]
            start = pos + 10
        else:
            hlen = struct.unpack("<I", data[pos + 8:pos + 12])[0]
            start = pos + 12
        header = ast.literal_eval(data[start:start + hlen].decode("latin1"))
        aligned = (start + hlen - pos) % 64 == 0  # within the record
        descr, shape = header["descr"], header["shape"]
        count = 1
        for d in shape:
            count *= d
        code = CODES[descr[1:]]
        size = struct.calcsize("<" + code)
        body = data[start + hlen:start + hlen + count * size]
        values = struct.unpack("<" + code * count, body)
        if descr == "<u2":  # bf16 bit patterns
            values = [struct.unpack("<f", struct.pack("<I", v << 16))[0]
                      for v in values]
        print("v%d descr=%s fortran=%s shape=%s aligned=%s values=%s" % (
            major, descr, header["fortran_order"], shape, aligned,
            " ".join(repr(v) for v in values)))
        pos = start + hlen + count * size


def record(spec):
    parts = spec.split(":")
    descr, shape_text, values_text = parts[0], parts[1], parts[2]
    options = parts[3:]
    shape = tuple(int(d) for d in shape_text.split(",") if d)
    code = CODES[descr[1:]]
    values = [float(v) if code in ("f", "d", "e", "ff") else int(v)
              for v in values_text.split(",") if v]
    if code == "?":
        values = [bool(v) for v in values]
    header = "{'descr': '%s', 'fortran_order': %s, 'shape': %s, }" % (
        descr, "True" if "fortran" in options else "False", repr(shape))
    v2 = "v2" in options
    prefix = 12 if v2 else 10
    total = (prefix + len(header) + 1 + 63) // 64 * 64
    header = header + " " * (total - prefix - len(header) - 1) + "\n"
    out = b"\x93NUMPY" + bytes([2 if v2 else 1, 0])
    out += struct.pack("<I" if v2 else "<H", len(header)) + header.encode()
    out += struct.pack("<" + code[0] * len(values), *values)
    if "garbage" in options:
        out = out[:-2]
    return out


def main():
    if sys.argv[1] == "dump":
        dump(sys.argv[2])
    elif sys.argv[1] == "write":
        with open(sys.argv[2], "wb") as f:
            for spec in sys.argv[3:]:
                f.write(record(spec))
    elif sys.argv[1] == "raw":
        with open(sys.argv[2], "wb") as f:
            f.write(bytes.fromhex(sys.argv[3]))


if __name__ == "__main__":
    main()
