"""Parses, verifies and round-trips every example in docs/examples/.

usage: check_examples.py XLA_OPT [XLA_OPT_ARGS...] EXAMPLES_DIR

For each *.mlir file: xla-opt must accept it, and printing must be a
fixpoint in the custom and in the generic form. Prints one line per file.
"""

import pathlib
import subprocess
import sys


def run(cmd, stdin=None):
    result = subprocess.run(cmd, input=stdin, capture_output=True, text=True)
    if result.returncode != 0:
        sys.stderr.write(result.stderr)
        raise SystemExit(f"failed: {' '.join(map(str, cmd))}")
    return result.stdout


def main():
    # lit may substitute xla-opt with extra options (XSPMD_CHECK_ROUNDTRIP).
    xla_opt, examples = sys.argv[1:-1], pathlib.Path(sys.argv[-1])
    files = sorted(examples.glob("*.mlir"))
    if not files:
        raise SystemExit(f"no examples in {examples}")
    for path in files:
        custom = run([*xla_opt, path])
        if run([*xla_opt, "-"], custom) != custom:
            raise SystemExit(f"{path.name}: custom form is not a fixpoint")
        generic = run([*xla_opt, path, "--mlir-print-op-generic"])
        again = run([*xla_opt, "-", "--mlir-print-op-generic"], generic)
        if again != generic:
            raise SystemExit(f"{path.name}: generic form is not a fixpoint")
        print(f"ok {path.name}")


if __name__ == "__main__":
    main()
