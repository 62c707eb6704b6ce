"""A replayable stream of random choices (Hypothesis-style).

The generator draws every decision from a `Source`. In generation mode the
values come from a seeded `random.Random`; every value drawn is recorded.
Replaying a recorded (or edited) list reproduces the program, and values
past the end of the list read as 0. Because the generator is written so
that smaller values mean simpler programs (fewer ops, smaller dimensions,
no annotation), shrinking a failing case is shrinking its list of choices:
deleting runs of values and lowering single values, each candidate being
a well-typed program by construction.
"""

import random


class Source:
    def __init__(self, prefix=None, seed=None):
        self.prefix = list(prefix) if prefix is not None else []
        self.rng = random.Random(seed) if seed is not None else None
        self.record = []

    def draw(self, n):
        """An integer in [0, n)."""
        if n <= 1:
            return 0
        i = len(self.record)
        if i < len(self.prefix):
            v = min(max(self.prefix[i], 0), n - 1)
        elif self.rng is not None:
            v = self.rng.randrange(n)
        else:
            v = 0
        self.record.append(v)
        return v

    def flag(self, percent):
        """True with probability percent/100; the value 0 reads False."""
        return self.draw(100) >= 100 - percent

    def pick(self, options, weights=None):
        """One of `options`; 0 reads the first (the simplest)."""
        if weights is None:
            return options[self.draw(len(options))]
        r = self.draw(sum(weights))
        for option, w in zip(options, weights):
            if r < w:
                return option
            r -= w
        return options[-1]

    def shuffle(self, items):
        """A permutation of `items`; all zeros keep the order."""
        items = list(items)
        for i in range(len(items) - 1, 0, -1):
            j = i - self.draw(i + 1)
            items[i], items[j] = items[j], items[i]
        return items

    def subset(self, items, percent):
        return [x for x in items if self.flag(percent)]
