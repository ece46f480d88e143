"""A cheap seeded random source for the simulator's many small decisions.

``random.Random(seed)`` fills a 624-word Mersenne Twister state from the seed (about 5 µs), and
the simulator gives every seat its own source each phase and every slot of a deal its own (common
random numbers, docs/simulate.md "Comparing boards"): thousands a game. ``Draws`` keeps one
64-bit word, taken from a BLAKE2b hash of the key and stepped by SplitMix64 (Steele, Lea and
Flood, "Fast splittable pseudorandom number generators", OOPSLA 2014), and offers the methods of
``random.Random`` a policy uses: ``random``, ``randrange``, ``randint``, ``choice``, ``sample``,
``shuffle``, ``uniform``. A whole number below n is ``(x * n) >> 64`` of a 64-bit draw x (off from
uniform by less than n / 2**64). Its draws depend on the key alone, in every process.
"""

from __future__ import annotations

import hashlib

_M = (1 << 64) - 1


class Draws:
    __slots__ = ("_s",)

    def __init__(self, key: str = ""):
        self._s = int.from_bytes(hashlib.blake2b(key.encode(), digest_size=8).digest(), "big")

    def _next(self) -> int:
        s = self._s = (self._s + 0x9E3779B97F4A7C15) & _M
        z = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & _M
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _M
        return z ^ (z >> 31)

    def random(self) -> float:
        return (self._next() >> 11) * (1.0 / 9007199254740992.0)

    def below(self, n: int) -> int:
        return (self._next() * n) >> 64

    def randrange(self, start: int, stop: int | None = None) -> int:
        if stop is None:
            start, stop = 0, start
        if stop <= start:
            raise ValueError("empty range for randrange()")
        return start + self.below(stop - start)

    def randint(self, a: int, b: int) -> int:
        return self.randrange(a, b + 1)

    def uniform(self, a: float, b: float) -> float:
        return a + (b - a) * self.random()

    def choice(self, seq):
        if not seq:
            raise IndexError("cannot choose from an empty sequence")
        return seq[self.below(len(seq))]

    def shuffle(self, x: list) -> None:
        for i in range(len(x) - 1, 0, -1):
            j = self.below(i + 1)
            x[i], x[j] = x[j], x[i]

    def order(self, population):
        """The items of ``population`` in a uniformly random order, drawn one at a time (a
        Fisher–Yates shuffle made lazily): taking the first few costs a draw each."""
        pool = list(population)
        for i in range(len(pool)):
            j = i + self.below(len(pool) - i)
            pool[i], pool[j] = pool[j], pool[i]
            yield pool[i]

    def sample(self, population, k: int) -> list:
        pool = list(population)
        n = len(pool)
        if not 0 <= k <= n:
            raise ValueError("sample larger than population or is negative")
        for i in range(k):  # a partial Fisher–Yates shuffle: the first k of a uniform order
            j = i + self.below(n - i)
            pool[i], pool[j] = pool[j], pool[i]
        return pool[:k]
