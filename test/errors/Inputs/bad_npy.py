#!/usr/bin/env python3
"""Writes malformed .npy files into a directory, one per way of being wrong.

    bad_npy.py DIR

Each file is named after what is wrong with it; test/errors/xla-run-npy.test
feeds them to xla-run. No numpy needed: the bytes are written by hand.
"""

import os
import struct
import sys

MAGIC = b"\x93NUMPY"


def v1(header, data=b""):
    """A version 1.0 file with `header` (a str), padded as numpy pads it."""
    text = header.encode("latin1")
    pad = (64 - (10 + len(text) + 1) % 64) % 64
    text += b" " * pad + b"\n"
    return MAGIC + b"\x01\x00" + struct.pack("<H", len(text)) + text + data


def floats(*values):
    return struct.pack("<%df" % len(values), *values)


FILES = {
    "empty": b"",
    "magic-only": MAGIC,
    "version-9": MAGIC + b"\x09\x00" + struct.pack("<H", 10) + b"{}" +
    b" " * 8,
    "header-length-beyond-file": MAGIC + b"\x01\x00" + struct.pack("<H", 5000)
    + b"{'descr': '<f4'",
    "header-not-a-dict": v1("[1, 2, 3]", floats(1, 2, 3, 4)),
    "header-unterminated": v1("{'descr': '<f4', 'fortran_order': False, "
                              "'shape': (4,)", floats(1, 2, 3, 4)),
    "header-no-shape": v1("{'descr': '<f4', 'fortran_order': False, }",
                          floats(1, 2, 3, 4)),
    "descr-not-a-string": v1("{'descr': 5, 'fortran_order': False, "
                             "'shape': (4,), }", floats(1, 2, 3, 4)),
    "shape-negative": v1("{'descr': '<f4', 'fortran_order': False, "
                         "'shape': (-4,), }", floats(1, 2, 3, 4)),
    "shape-not-a-tuple": v1("{'descr': '<f4', 'fortran_order': False, "
                            "'shape': 4, }", floats(1, 2, 3, 4)),
    "big-endian": v1("{'descr': '>f4', 'fortran_order': False, "
                     "'shape': (4,), }", struct.pack(">4f", 1, 2, 3, 4)),
    "data-truncated": v1("{'descr': '<f4', 'fortran_order': False, "
                         "'shape': (4,), }", floats(1, 2)),
    "bool-for-f32": v1("{'descr': '|b1', 'fortran_order': False, "
                       "'shape': (4,), }", b"\x01\x00\x01\x00"),
    "shape-mismatch": v1("{'descr': '<f4', 'fortran_order': False, "
                         "'shape': (2, 2), }", floats(1, 2, 3, 4)),
}


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    for name, data in FILES.items():
        with open(os.path.join(out, name + ".npy"), "wb") as f:
            f.write(data)


if __name__ == "__main__":
    main()
