#!/bin/sh
# A stand-in for xla-run with a planted bug: any program that computes a tanh
# "mismatches". The real xla-run ($XLA_RUN) does the rest, so everything else
# passes as it would. Drives shrink.test.
case_file=$1
if grep -q "xla.tanh" "$case_file"; then
  echo "[FAILED] result[0]: element at index 0 (1.5) does not match the expected (2.5) (1 mismatching)"
  exit 1
fi
exec "$XLA_RUN" "$@"
