"""Named random streams: one SeedSequence per replication, one stream per source and entity.

Replication *k* of any design sees the same hardware failures, loss spikes and
defects, so comparisons show the effect of the design, not noise (common random
numbers). A draw that belongs to one element of the scenario (a team, a workstream,
a handoff, a gate, a defect source, an eval, a post-training round) comes from that
element's own stream, :meth:`Streams.for_entity`, keyed by its id: adding, removing
or reordering one element leaves every other element's draws where they were (common
random numbers by identity). See docs/model.md, "Randomness".
"""

from __future__ import annotations

import hashlib
import math
import struct
import zlib
from collections.abc import Callable, Iterator, Sequence
from functools import partial
from statistics import NormalDist
from typing import Any, overload

import numpy as np

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
    "ablations",
    "signals",
    "noise",
    "judgement",
    "politics",
    "variants",
    "research",
    "reading",
)


#: Each stream's name as a number: the last word of its SeedSequence's spawn key.
STREAM_KEYS: dict[str, int] = {name: zlib.crc32(name.encode()) for name in STREAMS}


_TWO_TO_MINUS_53 = 2.0**-53
#: A BLAKE2b digest as eight little-endian 64-bit words; its first word.
_WORDS = struct.Struct("<8Q")
_WORD = struct.Struct("<Q")
#: Draws in one BLAKE2b block of :class:`EntityDraws`.
BLOCK_DRAWS = 8
_STANDARD_NORMAL = NormalDist()


def stream_key(name: str) -> int:
    """``STREAM_KEYS[name]``; a ``KeyError`` that says where to add an unknown name."""
    key = STREAM_KEYS.get(name)
    if key is None:
        raise KeyError(f"unknown random stream {name!r}; add it to sim.engine.rng.STREAMS")
    return key


def entity_key(entity_id: str) -> int:
    """An entity id as a number: the last word of its stream's spawn key."""
    return zlib.crc32(entity_id.encode())


# --- SeedSequence's arithmetic, in Python ---------------------------------------------------
# NumPy's SeedSequence (O'Neill's seed_seq alternative, numpy/random/bit_generator.pyx) mixes
# the run's entropy and the spawn key into a pool of four 32-bit words. A play builds a dozen
# generators from keys that share their beginning (the seed, the replication), so the pool
# is mixed here in Python, the shared part once, and only the stream's own words per
# generator: the same words, bit for bit (tests/test_speed_equivalence.py holds them to
# NumPy's), at about half the cost of a SeedSequence object and its NumPy arrays.

_MASK32 = 0xFFFFFFFF
_POOL_SIZE = 4
_INIT_A, _MULT_A = 0x43B0D7E5, 0x931E8875
_INIT_B, _MULT_B = 0x8B51F9DD, 0x58F38DED
_MIX_L, _MIX_R = 0xCA01F9DD, 0x4973F715
_XSHIFT = 16


def _uint32_words(n: int) -> list[int]:
    """A non-negative integer as 32-bit words, lowest first (``[0]`` for zero)."""
    if n < 0:
        raise ValueError("expected non-negative integer")
    words = [n & _MASK32]
    n >>= 32
    while n > 0:
        words.append(n & _MASK32)
        n >>= 32
    return words


def _hash_constants(start: int, mult: int, n: int) -> tuple[tuple[int, int], ...]:
    """The hash's ``(constant before, constant after)`` for each of its first ``n`` uses.

    SeedSequence's hash constant changes at every use, whatever the data, so its sequence
    can be worked out once.
    """
    out, h = [], start
    for _ in range(n):
        after = (h * mult) & _MASK32
        out.append((h, after))
        h = after
    return tuple(out)


#: ``generate_state``'s hash constants for its first 16 words (a PCG64 seed takes 8).
_STATE_HASH = _hash_constants(_INIT_B, _MULT_B, 16)


class _Pool:
    """A SeedSequence's entropy pool part-way through its mixing: the pool and the hash's state.

    :meth:`mixed` mixes more words in, as SeedSequence mixes each word of its entropy past
    the pool's size (a spawn key's); :meth:`state` gives the words ``generate_state`` does.
    """

    __slots__ = ("hash_const", "pool")

    def __init__(self, pool: tuple[int, ...], hash_const: int) -> None:
        self.pool = pool
        self.hash_const = hash_const

    @classmethod
    def start(cls, words: Sequence[int]) -> _Pool:
        """The pool after the first ``_POOL_SIZE`` words and the mixing of them all together."""
        h = _INIT_A
        pool = []
        for i in range(_POOL_SIZE):
            value = (words[i] if i < len(words) else 0) ^ h
            h = (h * _MULT_A) & _MASK32
            value = (value * h) & _MASK32
            pool.append(value ^ (value >> _XSHIFT))
        for src in range(_POOL_SIZE):
            for dst in range(_POOL_SIZE):
                if src != dst:
                    value = pool[src] ^ h
                    h = (h * _MULT_A) & _MASK32
                    value = (value * h) & _MASK32
                    value ^= value >> _XSHIFT
                    result = (_MIX_L * pool[dst] - _MIX_R * value) & _MASK32
                    pool[dst] = result ^ (result >> _XSHIFT)
        return cls(tuple(pool), h).mixed(words[_POOL_SIZE:])

    def mixed(self, words: Sequence[int]) -> _Pool:
        """This pool with ``words`` (32-bit) mixed in, each into every pool word in turn."""
        if not words:
            return self
        h = self.hash_const
        pool = list(self.pool)
        m, mult, left, right = _MASK32, _MULT_A, _MIX_L, _MIX_R
        for word in words:
            for dst in range(_POOL_SIZE):
                # mix(pool word, hashmix(word)), the hash taking its next constant each time
                v = word ^ h
                h = (h * mult) & m
                v = (v * h) & m
                r = (left * pool[dst] - right * (v ^ (v >> _XSHIFT))) & m
                pool[dst] = r ^ (r >> _XSHIFT)
        return _Pool(tuple(pool), h)

    def state(self, n_words: int) -> list[int]:
        """``SeedSequence.generate_state(n_words, np.uint32)`` of this pool, as integers."""
        pool = self.pool
        hashes = (
            _STATE_HASH
            if n_words <= len(_STATE_HASH)
            else _hash_constants(_INIT_B, _MULT_B, n_words)
        )
        out = []
        for i in range(n_words):
            before, after = hashes[i]
            value = ((pool[i % _POOL_SIZE] ^ before) * after) & _MASK32
            out.append(value ^ (value >> _XSHIFT))
        return out


class _PoolSeed(np.random.bit_generator.ISeedSequence):
    """A seed for a NumPy bit generator from a mixed :class:`_Pool` (what SeedSequence gives)."""

    __slots__ = ("_pool",)

    def __init__(self, pool: _Pool) -> None:
        self._pool = pool

    def generate_state(self, n_words: int, dtype: Any = np.uint32) -> Any:
        if dtype is np.uint64 or np.dtype(dtype) == np.dtype(np.uint64):
            w = self._pool.state(2 * n_words)
            return np.array([w[i] | (w[i + 1] << 32) for i in range(0, 2 * n_words, 2)], np.uint64)
        if np.dtype(dtype) != np.dtype(np.uint32):
            raise ValueError("only support uint32 or uint64")
        return np.array(self._pool.state(n_words), dtype=np.uint32)


#: The pool after a run's entropy, by entropy (a run has one seed; a few are kept).
_RUN_POOLS: dict[int, _Pool] = {}
_RUN_POOLS_KEPT = 64


def _run_pool(entropy: int) -> _Pool:
    """The pool of a spawned SeedSequence of ``entropy`` before its spawn key (kept)."""
    pool = _RUN_POOLS.get(entropy)
    if pool is None:
        words = _uint32_words(entropy)
        # A SeedSequence with a spawn key pads its run entropy to the pool's size.
        words += [0] * (_POOL_SIZE - len(words))
        if len(_RUN_POOLS) >= _RUN_POOLS_KEPT:
            _RUN_POOLS.clear()
        pool = _RUN_POOLS[entropy] = _Pool.start(words)
    return pool


def replication_seed(seed: int, replication: int) -> np.random.SeedSequence:
    """Seed sequence for replication ``replication`` of a run seeded with ``seed``."""
    return np.random.SeedSequence(entropy=int(seed), spawn_key=(int(replication),))


class Streams:
    """A replication's named generators, created on first use.

    Stream ``name`` is seeded by ``SeedSequence(entropy, spawn_key=(*spawn_key, key))``
    where ``entropy`` and ``spawn_key`` are the replication's and ``key`` is
    ``STREAM_KEYS[name]``.
    """

    def __init__(
        self,
        seed_sequence: np.random.SeedSequence | None,
        seed_and_key: tuple[int, tuple[int, ...]] | None = None,
    ) -> None:
        """``seed_sequence``'s streams, or (None, (entropy, spawn key)) without building one."""
        if seed_sequence is not None:
            self._start(seed_sequence.entropy, tuple(seed_sequence.spawn_key))
        elif seed_and_key is not None:
            self._start(*seed_and_key)
        else:
            raise ValueError("Streams needs a SeedSequence or an entropy and spawn key")

    def _start(self, entropy: int | Sequence[int] | None, spawn_key: tuple[int, ...]) -> None:
        self._entropy = entropy
        self._spawn_key = spawn_key
        #: The seed pool mixed up to the streams' own keys (None: entropy that is no int).
        self._pool: _Pool | None = None
        if isinstance(entropy, int) and not isinstance(entropy, bool) and entropy >= 0:
            words = [w for k in spawn_key for w in _uint32_words(int(k))]
            self._pool = _run_pool(entropy).mixed(words)
        self._generators: dict[str, np.random.Generator] = {}
        self._entities: dict[tuple[str, str], np.random.Generator] = {}
        self._exponentials: dict[str, Callable[[], float]] = {}
        self._uniform_prefix = hashlib.blake2b(f"{entropy}/{spawn_key}/".encode(), digest_size=64)

    def __getitem__(self, name: str) -> np.random.Generator:
        gen = self._generators.get(name)
        if gen is None:
            gen = self._generators[name] = self._generator(stream_key(name))
        return gen

    def _generator(self, *keys: int) -> np.random.Generator:
        """The generator seeded by ``SeedSequence(entropy, spawn_key=(*spawn_key, *keys))``."""
        if self._pool is None:
            seed: Any = np.random.SeedSequence(
                entropy=self._entropy, spawn_key=(*self._spawn_key, *keys)
            )
        else:
            seed = _PoolSeed(self._pool.mixed(keys))  # 32-bit keys: one word each
        return np.random.Generator(np.random.PCG64(seed))

    def exponentials(self, name: str) -> Callable[[], float]:
        """The standard exponentials of stream ``name``, one a call, drawn in blocks.

        The same numbers, in the same order, as ``self[name].standard_exponential()``
        called once each time (NumPy fills a block with the draws it makes one by one),
        at a fraction of the cost. The generator is then ahead of what was read, so a
        stream read through this must be read only through it (the run's interruptions).
        """
        draw = self._exponentials.get(name)
        if draw is None:
            draw = self._exponentials[name] = _blocks(self[name])
        return draw

    def for_entity(self, source: str, entity_id: str) -> np.random.Generator:
        """The stream of ``source`` that belongs to one element of the scenario.

        Seeded by ``SeedSequence(entropy, spawn_key=(*spawn_key, STREAM_KEYS[source],
        crc32(entity_id)))``: it depends on the source and the element's id only, never on
        where the element stands in a list or on which other elements exist.
        """
        gen = self._entities.get((source, entity_id))
        if gen is None:
            gen = self._generator(stream_key(source), entity_key(entity_id))
            self._entities[(source, entity_id)] = gen
        return gen

    def _entity_hash(self, source: str, entity_id: str) -> hashlib.blake2b:
        stream_key(source)
        h = self._uniform_prefix.copy()  # BLAKE2b of ``entropy/spawn_key/`` so far
        h.update(f"{source}/{entity_id}#".encode())
        return h

    def entity_uniform(self, source: str, entity_id: str) -> float:
        """The first of :meth:`entity_uniforms` (one draw), without building a list."""
        stream_key(source)
        h = self._uniform_prefix.copy()
        h.update(f"{source}/{entity_id}#0".encode())  # the same bytes: block 0
        return ((_WORD.unpack_from(h.digest())[0] >> 11) + 0.5) * _TWO_TO_MINUS_53

    def entity_uniforms(self, source: str, entity_id: str, n: int = 1) -> list[float]:
        """``n`` uniforms in (0, 1) that belong to one element of the scenario.

        A counter-based generator: BLAKE2b of the replication's seed, the source and the
        element's id, and the block's number, 8 bytes a draw and eight draws a block.
        Like :meth:`for_entity` it depends on the id only, and it costs about a
        microsecond a draw instead of building a generator (a play reads some fifty of
        these at set-up).
        """
        return list(EntityDraws(self._entity_hash(source, entity_id), n))

    def entity_draws(
        self,
        source: str,
        entity_id: str,
        n: int,
        transform: Callable[[float], float] | None = None,
    ) -> EntityDraws:
        """:meth:`entity_uniforms` as a sequence worked out eight at a time as it is read.

        ``transform`` turns each uniform into the draw wanted (a normal, a multiplier):
        a play that reads only the first few of ``n`` pays for those only.
        """
        return EntityDraws(self._entity_hash(source, entity_id), n, transform)

    def entity_normals(self, source: str, entity_id: str, n: int = 1) -> list[float]:
        """``n`` standard normals of one element (inverse CDF of :meth:`entity_uniforms`)."""
        return [_STANDARD_NORMAL.inv_cdf(u) for u in self.entity_uniforms(source, entity_id, n)]

    def entity_exponentials(self, source: str, entity_id: str, n: int = 1) -> list[float]:
        """``n`` standard exponentials of one element."""
        return [-math.log1p(-u) for u in self.entity_uniforms(source, entity_id, n)]

    def lazy(self, name: str) -> Callable[[], np.random.Generator]:
        """``self[name]``, deferred: the stream is built only if the callable is called.

        Safe because a stream's seed comes from its name, not from when it is built.
        """
        stream_key(name)
        return partial(self.__getitem__, name)

    @classmethod
    def for_replication(cls, seed: int, replication: int) -> Streams:
        """The streams of replication ``replication`` of a run seeded with ``seed``.

        The same seeds as ``cls(replication_seed(seed, replication))``; the replication's
        own SeedSequence is not built, as only its entropy and spawn key are read.
        """
        return cls(None, (int(seed), (int(replication),)))


#: Standard exponentials drawn at a time by :meth:`Streams.exponentials`.
EXPONENTIAL_BLOCK = 64


def _blocks(gen: np.random.Generator) -> Callable[[], float]:
    """One standard exponential of ``gen`` a call, from blocks of :data:`EXPONENTIAL_BLOCK`."""
    block: list[float] = []

    def draw() -> float:
        if not block:
            block.extend(reversed(gen.standard_exponential(EXPONENTIAL_BLOCK).tolist()))
        return block.pop()

    return draw


def standard_normal(u: float) -> float:
    """The standard normal at uniform ``u`` (its inverse CDF)."""
    return _STANDARD_NORMAL.inv_cdf(u)


def standard_exponential(u: float) -> float:
    """The standard exponential at uniform ``u``."""
    return -math.log1p(-u)


class EntityDraws(Sequence[float]):
    """``n`` draws of one element's counter-based stream, worked out a block at a time.

    Block ``b`` is BLAKE2b of the element's key and ``b`` (as :meth:`Streams.entity_uniforms`
    makes them), so draw ``k`` is the same number however many are asked for or read.
    """

    __slots__ = ("_hash", "_n", "_transform", "_blocks")

    def __init__(
        self, h: hashlib.blake2b, n: int, transform: Callable[[float], float] | None = None
    ) -> None:
        self._hash = h
        self._n = max(0, int(n))
        self._transform = transform
        self._blocks: dict[int, list[float]] = {}

    def __len__(self) -> int:
        return self._n

    def _block(self, b: int) -> list[float]:
        block = self._blocks.get(b)
        if block is None:
            h = self._hash.copy()
            h.update(b"%d" % b)
            us = [((w >> 11) + 0.5) * _TWO_TO_MINUS_53 for w in _WORDS.unpack(h.digest())]
            f = self._transform
            block = self._blocks[b] = us if f is None else [f(u) for u in us]
        return block

    @overload
    def __getitem__(self, i: int) -> float: ...

    @overload
    def __getitem__(self, i: slice) -> list[float]: ...

    def __getitem__(self, i: int | slice) -> float | list[float]:
        if isinstance(i, slice):
            return [self[k] for k in range(*i.indices(self._n))]
        if i < 0:
            i += self._n
        if not 0 <= i < self._n:
            raise IndexError("entity draw index out of range")
        b, k = divmod(i, BLOCK_DRAWS)
        return self._block(b)[k]

    def __iter__(self) -> Iterator[float]:
        for b in range(0, self._n, BLOCK_DRAWS):
            yield from self._block(b // BLOCK_DRAWS)[: self._n - b]

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Sequence):
            return len(self) == len(other) and list(self) == list(other)
        return NotImplemented

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __repr__(self) -> str:
        return f"EntityDraws({list(self)!r})"
