"""Runs one generated case through the tools and classifies the outcome.

A case passes when

1. `xla-opt CASE --xla-spmd-pipeline` exits 0 (the verifier runs after every
   pass; when it fails, `xla-opt CASE` tells whether the input itself was
   invalid, i.e. the generator is at fault: status `invalid-input`);
2. `xla-run CASE --check --seed=S` partitions the function with the same
   pipeline, runs it on the mesh's devices, runs the program as written on
   one device with the same inputs and finds every result within the
   default tolerance of its type.

Anything else is a failure: `crash` (a signal, an assertion, a sanitizer
report), `pipeline-error`, `run-error`, `mismatch` or `timeout`.
"""

import os
import re
import subprocess
import tempfile

CRASH_MARKERS = ("Assertion", "LLVM ERROR", "Stack dump", "Sanitizer",
                 "runtime error:", "UNREACHABLE", "terminate called")


class Outcome:
    def __init__(self, status, detail="", log="", collectives=""):
        self.status = status
        self.detail = detail
        self.log = log
        self.collectives = collectives

    @property
    def ok(self):
        return self.status == "ok"

    def signature(self):
        """What must stay the same while a failure is shrunk."""
        text = re.sub(r"%[\w.]+", "%_", self.detail)
        text = re.sub(r"-?\d+(\.\d+)?(e[-+]?\d+)?", "N", text)
        text = re.sub(r"loc\(.*?\)", "", text)
        return (self.status, text[:160])


def first_error(text):
    for line in text.splitlines():
        if "error:" in line or "[FAILED]" in line or any(
                m in line for m in CRASH_MARKERS):
            return line.strip()
    lines = [l for l in text.splitlines() if l.strip()]
    return lines[-1].strip() if lines else ""


def crashed(proc):
    text = proc.stderr + proc.stdout
    return proc.returncode < 0 or any(m in text for m in CRASH_MARKERS)


class Tools:
    def __init__(self, bin_dir, timeout=60, roundtrip=False):
        self.xla_opt = os.path.join(bin_dir, "xla-opt")
        self.xla_run = os.path.join(bin_dir, "xla-run")
        self.timeout = timeout
        self.roundtrip = roundtrip

    def _run(self, argv):
        return subprocess.run(argv, capture_output=True, text=True,
                              timeout=self.timeout)

    def invalid(self, path):
        """Whether the input itself fails to parse or verify."""
        proc = self._run([self.xla_opt, path, "-o", os.devnull])
        return proc.returncode != 0 and not crashed(proc)

    def check(self, text, seed):
        with tempfile.TemporaryDirectory(prefix="xla-fuzz-") as tmp:
            path = os.path.join(tmp, "case.mlir")
            with open(path, "w") as f:
                f.write(text)
            steps = [
                ("pipeline-error",
                 [self.xla_opt, path, "--xla-spmd-pipeline", "-o",
                  os.devnull] + (["--verify-roundtrip"]
                                 if self.roundtrip else [])),
                ("run-error", [self.xla_run, path, "--check",
                               f"--seed={seed}",
                               "--output_max_element_count=8"]),
            ]
            for status, argv in steps:
                try:
                    proc = self._run(argv)
                except subprocess.TimeoutExpired:
                    return Outcome("timeout", " ".join(argv[:1] + argv[2:]))
                log = proc.stdout + proc.stderr
                if crashed(proc):
                    return Outcome("crash", first_error(log) or
                                   f"signal {-proc.returncode}", log)
                if status == "run-error" and ("[FAILED]" in proc.stdout or
                                              "MISMATCH" in proc.stdout):
                    return Outcome("mismatch", first_error(proc.stdout), log)
                if proc.returncode != 0:
                    if status == "pipeline-error" and self.invalid(path):
                        # The generator's fault, not the pipeline's.
                        status = "invalid-input"
                    return Outcome(status, first_error(log), log)
                if status == "run-error" and "[SUCCESS]" not in proc.stdout:
                    return Outcome("run-error", "no [SUCCESS] line", log)
            partitioned = re.search(r"^PARTITIONED .*: (.*)$", proc.stdout,
                                    re.M)
            return Outcome("ok", collectives=partitioned.group(1)
                           if partitioned else "")
