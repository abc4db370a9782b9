"""Named random streams: one SeedSequence per replication, one stream per source.

Replication *k* of any design sees the same hardware failures, loss spikes and
defects, so comparisons show the effect of the design, not noise (common random
numbers). See docs/model.md, "Randomness".
"""

from __future__ import annotations

import zlib
from collections.abc import Callable
from functools import partial

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
)


def replication_seed(seed: int, replication: int) -> np.random.SeedSequence:
    """Seed sequence for replication ``replication`` of a run seeded with ``seed``."""
    return np.random.SeedSequence(entropy=int(seed), spawn_key=(int(replication),))


class Streams:
    """A replication's named generators, created on first use."""

    def __init__(self, seed_sequence: np.random.SeedSequence) -> None:
        self._root = seed_sequence
        self._generators: dict[str, np.random.Generator] = {}

    def __getitem__(self, name: str) -> np.random.Generator:
        if name not in STREAMS:
            raise KeyError(f"unknown random stream {name!r}; add it to sim.rng.STREAMS")
        gen = self._generators.get(name)
        if gen is None:
            key = zlib.crc32(name.encode())
            child = np.random.SeedSequence(
                entropy=self._root.entropy,
                spawn_key=(*self._root.spawn_key, key),
            )
            gen = np.random.Generator(np.random.PCG64(child))
            self._generators[name] = gen
        return gen

    def lazy(self, name: str) -> Callable[[], np.random.Generator]:
        """``self[name]``, deferred: the stream is built only if the callable is called.

        Safe because a stream's seed comes from its name, not from when it is built.
        """
        if name not in STREAMS:
            raise KeyError(f"unknown random stream {name!r}; add it to sim.rng.STREAMS")
        return partial(self.__getitem__, name)

    @classmethod
    def for_replication(cls, seed: int, replication: int) -> Streams:
        return cls(replication_seed(seed, replication))
