"""Named random streams: one SeedSequence per replication, one stream per source.

Replication *k* of any design sees the same hardware failures, loss spikes and
defects, so comparisons show the effect of the design, not noise (common random
numbers). See docs/model.md, "Randomness".
"""

from __future__ import annotations

import functools
import zlib
from typing import Any

import numpy as np
from numpy.random.bit_generator import ISeedSequence

#: Every source of randomness in the model. Adding a name never shifts the others,
#: because each stream's seed is derived from its name, not its position.
STREAMS: tuple[str, ...] = (
    "hardware",
    "planned_maintenance",
    "loss_spikes",
    "spike_outcomes",
    "defects",
    "detection",
    "effort",
    "handoffs",
    "staffing",
    "budget",
    "quality",
    "eval_noise",
    "safety",
    "decisions",
)
#: Each stream's key: the last word of its seed sequence's spawn key.
STREAM_KEYS: dict[str, int] = {name: zlib.crc32(name.encode()) for name in STREAMS}


def replication_seed(seed: int, replication: int) -> np.random.SeedSequence:
    """Seed sequence for replication ``replication`` of a run seeded with ``seed``."""
    return np.random.SeedSequence(entropy=int(seed), spawn_key=(int(replication),))


class Streams:
    """A replication's named generators, created on first use.

    Stream ``name`` is ``PCG64(SeedSequence(entropy, spawn_key=(*spawn_key, key)))``,
    ``key`` being the CRC-32 of the name. :class:`_ChildSeeds` derives the same
    states without building a SeedSequence per stream.
    """

    def __init__(self, seed_sequence: np.random.SeedSequence) -> None:
        self._root: np.random.SeedSequence | None = seed_sequence
        self._entropy = seed_sequence.entropy
        self._spawn_key: tuple[int, ...] = seed_sequence.spawn_key
        self._generators: dict[str, np.random.Generator] = {}
        self._children = _ChildSeeds.of(self._entropy, self._spawn_key, seed_sequence.pool_size)

    def __getitem__(self, name: str) -> np.random.Generator:
        gen = self._generators.get(name)
        if gen is None:
            key = STREAM_KEYS.get(name)
            if key is None:
                raise KeyError(f"unknown random stream {name!r}; add it to sim.rng.STREAMS")
            if self._children is not None:
                seed: Any = _State(self._children.state(key))
            else:
                seed = np.random.SeedSequence(
                    entropy=self._entropy, spawn_key=(*self._spawn_key, key)
                )
            gen = np.random.Generator(np.random.PCG64(seed))
            self._generators[name] = gen
        return gen

    @classmethod
    def for_replication(cls, seed: int, replication: int) -> Streams:
        """The streams of ``replication_seed(seed, replication)``."""
        seed, replication = int(seed), int(replication)
        children = _ChildSeeds.of(seed, (replication,), _POOL)
        if children is None:
            return cls(replication_seed(seed, replication))
        streams = cls.__new__(cls)
        streams._root = None
        streams._entropy, streams._spawn_key = seed, (replication,)
        streams._generators = {}
        streams._children = children
        return streams


# --- NumPy's SeedSequence for one-word child keys, in plain integers ---------------------------
#
# SeedSequence (numpy/random/bit_generator.pyx, after O'Neill's seed_seq) hashes its entropy
# words into a pool of four 32-bit words, then hashes the pool into the requested state. A
# stream's entropy is the replication's words followed by one word for the stream's key, so
# the pool before that last word is the same for every stream of a replication: it is mixed
# once here, and each stream only mixes in its key and reads out PCG64's four 64-bit words.
# ``_ChildSeeds.of`` checks the result against NumPy once per process and falls back to
# NumPy's own SeedSequence if they ever differ.

_MASK = 0xFFFFFFFF
_INIT_A, _MULT_A = 0x43B0D7E5, 0x931E8875
_INIT_B, _MULT_B = 0x8B51F9DD, 0x58F38DED
_MIX_L, _MIX_R = 0xCA01F9DD, 0x4973F715
_POOL = 4


def _constants(start: int, mult: int, n: int) -> list[int]:
    out = [start]
    for _ in range(n):
        out.append(out[-1] * mult & _MASK)
    return out


#: The read-out's hash constants: word i uses _READ[i] and _READ[i + 1].
_READ = _constants(_INIT_B, _MULT_B, 2 * _POOL)


def _words(n: int) -> list[int]:
    """An integer as 32-bit words, least significant first (NumPy's coercion)."""
    if n < 0:
        raise ValueError("expected a non-negative integer")
    out = []
    while n:
        out.append(n & _MASK)
        n >>= 32
    return out or [0]


def _mix(x: int, y: int) -> int:
    r = (_MIX_L * x - _MIX_R * y) & _MASK
    return r ^ (r >> 16)


def _hashed(value: int, h: int, h_next: int) -> int:
    v = (value ^ h) * h_next & _MASK
    return v ^ (v >> 16)


@functools.lru_cache(maxsize=64)
def _mixed_pool(entropy: tuple[int, ...]) -> tuple[tuple[int, ...], int]:
    """The pool after mixing in ``entropy`` (at least four words), and hash constants used."""
    hs = _constants(_INIT_A, _MULT_A, _POOL * (len(entropy) + _POOL))
    k = 0
    pool = []
    for i in range(_POOL):
        pool.append(_hashed(entropy[i], hs[k], hs[k + 1]))
        k += 1
    for src in range(_POOL):
        for dst in range(_POOL):
            if src != dst:
                pool[dst] = _mix(pool[dst], _hashed(pool[src], hs[k], hs[k + 1]))
                k += 1
    for word in entropy[_POOL:]:
        for dst in range(_POOL):
            pool[dst] = _mix(pool[dst], _hashed(word, hs[k], hs[k + 1]))
            k += 1
    return tuple(pool), k


class _ChildSeeds:
    """The pool of a replication's seed sequence, before each stream's key is mixed in."""

    verified: bool | None = None

    def __init__(self, run: list[int], spawn: list[int]) -> None:
        # The run's own words mix the same for every replication: that part is cached.
        pool, k = _mixed_pool(tuple(run))
        a, b, c, d = pool
        h = _constants(_INIT_A, _MULT_A, k + _POOL * (len(spawn) + 1))[k:]
        j = 0
        for word in spawn:
            a = _mix(a, _hashed(word, h[j], h[j + 1]))
            b = _mix(b, _hashed(word, h[j + 1], h[j + 2]))
            c = _mix(c, _hashed(word, h[j + 2], h[j + 3]))
            d = _mix(d, _hashed(word, h[j + 3], h[j + 4]))
            j += _POOL
        self.pool = (a, b, c, d)
        #: Hash constants for mixing in the key word: _POOL + 1 of them.
        self.key_constants = h[j : j + _POOL + 1]

    @classmethod
    def of(cls, entropy: Any, spawn_key: tuple[Any, ...], pool_size: int) -> _ChildSeeds | None:
        """The fast path for a root seed sequence, or None where NumPy's own is used."""
        if (
            cls.verified is False
            or pool_size != _POOL
            or not isinstance(entropy, int)
            or entropy < 0
            or not all(isinstance(k, int) and k >= 0 for k in spawn_key)
        ):
            return None
        run = _words(entropy)
        run += [0] * (_POOL - len(run))  # NumPy pads short entropy when there is a spawn key
        children = cls(run, [w for k in spawn_key for w in _words(k)])
        if cls.verified is None:
            cls.verified = cls._agrees_with_numpy(entropy, spawn_key, children)
            if not cls.verified:
                return None
        return children

    @staticmethod
    def _agrees_with_numpy(entropy: int, spawn_key: tuple[int, ...], children: _ChildSeeds) -> bool:
        key = STREAM_KEYS[STREAMS[0]]
        child = np.random.SeedSequence(entropy=entropy, spawn_key=(*spawn_key, key))
        return [int(x) for x in child.generate_state(_POOL, np.uint64)] == children.state(key)

    def state(self, key: int) -> list[int]:
        """PCG64's four seed words for the stream whose key is ``key`` (one 32-bit word)."""
        a, b, c, d = self.pool
        h = self.key_constants
        a = _mix(a, _hashed(key, h[0], h[1]))
        b = _mix(b, _hashed(key, h[1], h[2]))
        c = _mix(c, _hashed(key, h[2], h[3]))
        d = _mix(d, _hashed(key, h[3], h[4]))
        r = _READ
        return [
            _hashed(a, r[0], r[1]) | _hashed(b, r[1], r[2]) << 32,
            _hashed(c, r[2], r[3]) | _hashed(d, r[3], r[4]) << 32,
            _hashed(a, r[4], r[5]) | _hashed(b, r[5], r[6]) << 32,
            _hashed(c, r[6], r[7]) | _hashed(d, r[7], r[8]) << 32,
        ]


class _State(ISeedSequence):
    """A seed sequence that hands PCG64 a state already derived (see :class:`_ChildSeeds`)."""

    __slots__ = ("words",)

    def __init__(self, words: list[int]) -> None:
        self.words = words

    def generate_state(self, n_words: int, dtype: Any = np.uint32) -> np.ndarray[Any, Any]:
        if n_words != _POOL or np.dtype(dtype) != np.uint64:
            raise ValueError("this seed only gives PCG64's four 64-bit words")
        return np.array(self.words, dtype=np.uint64)
