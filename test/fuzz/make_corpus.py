#!/usr/bin/env python3
"""Seed corpus for xla-ir-fuzzer: every .mlir file under the given
directories, split at `// -----` (as -split-input-file does), without its
comment lines (RUN and CHECK lines, prose), one file per chunk, named by a
hash of its contents so that re-running adds nothing twice.

    make_corpus.py test docs/examples -o build/test/fuzz/corpus
"""

import argparse
import hashlib
import os


def chunks(text):
    for chunk in text.split("// -----"):
        lines = [l for l in chunk.splitlines()
                 if not l.lstrip().startswith("//")]
        body = "\n".join(lines).strip()
        if body:
            yield body + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dirs", nargs="+")
    parser.add_argument("-o", "--output", required=True)
    args = parser.parse_args()
    os.makedirs(args.output, exist_ok=True)
    written = 0
    for d in args.dirs:
        for dirpath, _, files in os.walk(d):
            for name in sorted(files):
                if not name.endswith(".mlir"):
                    continue
                with open(os.path.join(dirpath, name), errors="replace") as f:
                    text = f.read()
                for chunk in chunks(text):
                    digest = hashlib.sha1(chunk.encode()).hexdigest()
                    path = os.path.join(args.output, digest)
                    if not os.path.exists(path):
                        with open(path, "w") as f:
                            f.write(chunk)
                        written += 1
    print(f"{written} new seed inputs in {args.output}")


if __name__ == "__main__":
    main()
