#!/usr/bin/env python3
"""Compares pairs of float32 .npy files elementwise (no numpy needed):
|a - b| <= atol + rtol |a| for every element. Usage: compare_npy.py --rtol R --atol A A1.npy B1.npy [A2 B2 ...]
"""

import argparse
import ast
import struct
import sys


def load(path):
    data = open(path, "rb").read()
    header_len = struct.unpack("<H", data[8:10])[0]
    header = ast.literal_eval(data[10:10 + header_len].decode())
    if header["descr"] != "<f4":
        sys.exit(f"compare_npy: {path}: {header['descr']} is not float32")
    body = data[10 + header_len:]
    return header["shape"], struct.unpack(f"<{len(body) // 4}f", body)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rtol", type=float, required=True)
    ap.add_argument("--atol", type=float, required=True)
    ap.add_argument("files", nargs="+")
    a = ap.parse_args()
    if len(a.files) % 2:
        sys.exit("compare_npy: files come in pairs")
    for x_path, y_path in zip(a.files[::2], a.files[1::2]):
        (sx, x), (sy, y) = load(x_path), load(y_path)
        if sx != sy:
            sys.exit(f"compare_npy: shapes differ: {x_path} {sx}, {y_path} {sy}")
        for i, (u, v) in enumerate(zip(x, y)):
            if abs(u - v) > a.atol + a.rtol * abs(u):
                sys.exit(f"compare_npy: {x_path}[{i}] = {u} vs {y_path}[{i}] = {v}")
    print(f"compare_npy: {len(a.files) // 2} pairs equal within rtol {a.rtol}, atol {a.atol}")


if __name__ == "__main__":
    main()
