#!/usr/bin/env python3
"""Runs `xla-run --check` on every public function of a module.

Usage: run_checks.py XLA_RUN MODULE [extra xla-run flags...]

Prints one line per function ("ok @f" or "FAILED @f" followed by xla-run's
output) and a summary line "checked N functions, M failed"; exits non-zero
when any check fails. The functions run in parallel processes.
"""
import concurrent.futures
import os
import re
import subprocess
import sys


def functions(path):
    names = []
    with open(path) as f:
        for line in f:
            m = re.match(r'\s*func\.func\s+@([\w.$-]+)', line)
            if m:
                names.append(m.group(1))
    return names


def check(xla_run, module, name, extra):
    cmd = [xla_run, module, '--function=' + name, '--check'] + extra
    p = subprocess.run(cmd, capture_output=True, text=True)
    ok = p.returncode == 0 and '[SUCCESS]' in p.stdout
    return name, ok, p.stdout + p.stderr


def main():
    xla_run, module, extra = sys.argv[1], sys.argv[2], sys.argv[3:]
    names = functions(module)
    workers = max(1, min(4, os.cpu_count() or 1))
    failed = 0
    with concurrent.futures.ThreadPoolExecutor(workers) as pool:
        for name, ok, out in pool.map(lambda n: check(xla_run, module, n, extra),
                                      names):
            if ok:
                print(f'ok @{name}')
            else:
                failed += 1
                print(f'FAILED @{name}\n{out}')
    print(f'checked {len(names)} functions, {failed} failed')
    return 1 if failed or not names else 0


if __name__ == '__main__':
    sys.exit(main())
