"""Shrinks a failing case, first through its choices, then its IR.

1. Choices: candidates are built by deleting runs of choices (fewer ops,
   arguments, annotations) and by lowering single choices (smaller
   dimensions, simpler op kinds, meshes and shardings: the generator reads
   0 as the simplest option). A candidate replaces the current case when
   its choice list is smaller in shortlex order (so shrinking terminates).
2. IR: on the program itself, drop results, turn ops into function
   arguments of the same type (removing the ops that only fed them), and
   drop sharding annotations and unused arguments. Every step makes the
   program strictly smaller.

Either way a candidate is kept only if it still fails with the same
signature (same kind of failure, same first message up to numbers and
names).
"""

import copy
import re
import time

from . import gen


def shortlex(a, b):
    return (len(a), a) < (len(b), b)


class Shrinker:
    def __init__(self, tools, seed, choices, outcome, budget_s=300,
                 max_runs=600, log=None):
        self.tools = tools
        self.seed = seed
        self.best = list(choices)
        self.case, _ = gen.from_choices(self.best)
        self.target = outcome.signature()
        self.outcome = outcome
        self.deadline = time.time() + budget_s
        self.runs = 0
        self.max_runs = max_runs
        self.seen = set()
        self.log = log or (lambda msg: None)

    def fails_alike(self, case):
        """The outcome of a candidate not tried before when it fails the way
        the original did, else None."""
        text = case.text()
        if text in self.seen:
            return None
        self.seen.add(text)
        self.runs += 1
        outcome = self.tools.check(text, self.seed)
        if outcome.ok or outcome.signature() != self.target:
            return None
        return outcome

    def exhausted(self):
        return time.time() > self.deadline or self.runs >= self.max_runs

    def attempt(self, choices):
        case, record = gen.from_choices(choices)
        # Trailing zeros read the same as missing values.
        while record and record[-1] == 0:
            record.pop()
        if not shortlex(record, self.best):
            return False
        outcome = self.fails_alike(case)
        if outcome is None:
            return False
        self.best, self.case, self.outcome = record, case, outcome
        self.log(f"  shrunk to {case.num_ops} ops, {len(record)} choices")
        return True

    def delete_runs(self):
        improved = False
        for size in (16, 8, 4, 2, 1):
            i = len(self.best) - size
            while i >= 0 and not self.exhausted():
                cand = self.best[:i] + self.best[i + size:]
                if self.attempt(cand):
                    improved = True
                    i = min(i, len(self.best) - size)
                else:
                    i -= 1
        return improved

    def lower_values(self):
        improved = False
        i = 0
        while i < len(self.best) and not self.exhausted():
            v = self.best[i]
            for smaller in sorted({0, v // 2, v - 1}):
                if smaller >= v or smaller < 0:
                    continue
                cand = list(self.best)
                cand[i] = smaller
                if self.attempt(cand):
                    improved = True
                    break
            i += 1
        return improved

    def run(self):
        while not self.exhausted():
            changed = self.delete_runs()
            changed |= self.lower_values()
            if not changed:
                break
        while not self.exhausted() and self.shrink_ir():
            pass
        return self.case, self.outcome

    # ---- IR reductions ---------------------------------------------------
    def try_case(self, case):
        outcome = self.fails_alike(case)
        if outcome is None:
            return False
        self.case, self.outcome = case, outcome
        self.log(f"  shrunk to {case.num_ops} ops (IR)")
        return True

    def shrink_ir(self):
        for make in (self.ir_drop_result, self.ir_op_to_arg,
                     self.ir_drop_sharding):
            i = 0
            while not self.exhausted():
                cand = make(self.case, i)
                if cand is None:
                    break
                if not self.try_case(dead_code(cand)):
                    i += 1
                else:
                    return True
        return False

    @staticmethod
    def ir_drop_result(case, i):
        if i >= len(case.results) or len(case.results) == 1:
            return None
        c = copy.copy(case)
        c.results = case.results[:i] + case.results[i + 1:]
        return c

    @staticmethod
    def ir_op_to_arg(case, i):
        """The result of the i-th op from the end becomes an argument."""
        if i >= len(case.body):
            return None
        k = len(case.body) - 1 - i
        name = case.body[k].split(" = ", 1)[0].strip()
        val = case.vals.get(name)
        if val is None:
            return None
        c = copy.copy(case)
        c.body = case.body[:k] + case.body[k + 1:]
        c.args = list(case.args) + [(val, None, "")]
        return c

    @staticmethod
    def ir_drop_sharding(case, i):
        """Removes the i-th annotation: argument, result, op attribute or
        mark_sharding (whose uses then read its input)."""
        c = copy.copy(case)
        sharded = [j for j, a in enumerate(case.args) if a[1] is not None]
        if i < len(sharded):
            j = sharded[i]
            v, _, extra = case.args[j]
            c.args = list(case.args)
            c.args[j] = (v, None, extra)
            return c
        i -= len(sharded)
        sharded = [j for j, r in enumerate(case.results) if r[1] is not None]
        if i < len(sharded):
            j = sharded[i]
            c.results = list(case.results)
            c.results[j] = (case.results[j][0], None)
            return c
        i -= len(sharded)
        annotated = [k for k, line in enumerate(case.body)
                     if "xla.sharding = " in line or " xla.mark_sharding " in
                     line]
        if i >= len(annotated):
            return None
        k = annotated[i]
        line = case.body[k]
        c.body = list(case.body)
        if " xla.mark_sharding " in line:
            name, rest = line.split(" = ", 1)
            source = rest.split()[1]
            del c.body[k]
            c.body = [rename(l, name, source) for l in c.body]
            lookup = {v.name: v for v, _, _ in case.args}
            lookup.update(case.vals)
            c.results = [(lookup[source], s) if v.name == name else (v, s)
                         for v, s in case.results]
        else:
            c.body[k] = re.sub(r" \{xla\.sharding = #xla\.sharding<.*?>\}",
                               "", line, count=1)
        return c


def rename(line, old, new):
    return re.sub(re.escape(old) + r"(?![\w.])", new, line)


def dead_code(case):
    """Drops ops whose results are unused and arguments nothing reads."""
    body = list(case.body)
    live = {v.name for v, _ in case.results}
    kept = []
    for line in reversed(body):
        name, rest = line.split(" = ", 1)
        if name.strip() not in live:
            continue
        kept.append(line)
        live.update(re.findall(r"%[\w]+", rest))
    c = copy.copy(case)
    c.body = list(reversed(kept))
    c.args = [a for a in case.args if a[0].name in live]
    return c
