"""Display names that cannot pass for someone else (issue 27.1), through the service.

Every seated name and every reserved word is attacked with generated look-alikes (case,
spacing, punctuation, digits used as letters, other scripts, full-width forms, and the
multi-letter look-alikes rn/m, vv/w, cl/d); each must be refused. Ordinary distinct
first names must still be accepted: the false-refusal rate on 200 common first names
is measured and bounded.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator

import pytest

from sim.storage import make_engine
from sim.tabletop.db.identity import RESERVED_WORDS, clean_display_name, name_key
from sim.tabletop.errors import InputError
from sim.tabletop.service import TabletopService
from tests.test_tabletop_service import db_url, quiet_yaml

__all__ = ["db_url"]


@pytest.fixture
def service(db_url: str) -> Iterator[TabletopService]:
    svc = TabletopService(make_engine(db_url))
    yield svc
    svc.engine.dispose()


#: 200 common first names from many languages (written in Latin letters).
FIRST_NAMES = """
Aaron Abdul Ada Adam Adrian Ahmed Aisha Akira Alan Albert Alejandro Alex Alice Amir Amy
Ana Andrea Andrew Angela Ann Anna Anton Arjun Astrid Ben Bianca Bjorn Boris Brian Bruno
Carla Carlos Carmen Chen Chloe Chris Clara Claire Daniel David Deepa Diana Diego Dmitri
Elena Eli Elif Emma Eric Erik Eva Fatima Felix Fiona Frank Freya Gabriel Grace Hana
Hannah Hans Harry Helen Hiro Hugo Ian Ibrahim Ines Ingrid Isaac Ivan Jack James Jan Jane
Javier Jin John Jonas Jorge Jose Julia Kai Karen Karim Kate Kenji Kevin Kim Lara Laura
Lea Leo Li Liam Lin Lisa Lu Lucas Lucia Luis Luka Maria Mark Marta Mateo Max Maya Mei
Mia Michael Miguel Mina Mohamed Nadia Naomi Nathan Nina Noah Nora Olga Oliver Omar Oscar
Paolo Paul Pedro Peter Priya Rachel Rafael Rahul Ravi Rosa Ruth Ryan Sam Samir Sara
Sean Sergei Simon Sofia Sophie Stefan Sunil Tara Teresa Thomas Tim Tom Tomas Uma Vera
Victor Vikram Wei Yara Yuki Yusuf Zara Zoe Ali Amara Beatriz Chiara Dara Emil Farid
Goran Hamid Ilse Ivo Jasmin Kofi Lars Leila Marco Nikhil Olu Pia Quentin Rania Sven
Tariq Ugo Valentina Wanda Xavier Yosef Zeynep Abebe Bongani Chidi Dimitra Emeka Femi
""".split()
FIRST_NAMES = list(dict.fromkeys(FIRST_NAMES))

#: Letters that pass for others: what the generator swaps in.
SWAPS = {
    "a": ("а", "ɑ", "4"), "c": ("с", "ϲ"), "e": ("е", "3"), "i": ("1", "l", "і", "!"),
    "l": ("1", "I", "|"), "o": ("0", "о", "ο"), "p": ("р",), "s": ("5", "ѕ"),
    "x": ("х",), "y": ("у",), "m": ("rn",), "w": ("vv",), "d": ("cl",),
}  # fmt: skip


def lookalikes(name: str, rng: random.Random, n: int = 12) -> set[str]:
    """Variants of ``name`` a reader could take for it (none equal to it)."""
    out = {name.upper(), name.lower(), " ".join(name), f"{name}.", f"-{name}-",
           name.translate({c: c + 0xFEE0 for c in range(0x21, 0x7F)}),
           "'".join(name[i:i + 2] for i in range(0, len(name), 2))}  # fmt: skip
    positions = [i for i, c in enumerate(name) if c.lower() in SWAPS]
    for i in positions:  # every single swap
        for swap in SWAPS[name[i].lower()]:
            out.add(name[:i] + swap + name[i + 1 :])
    for _ in range(n):  # and random combinations of several
        chars = list(name)
        for i in rng.sample(positions, k=min(len(positions), rng.randint(1, 3))):
            chars[i] = rng.choice(SWAPS[name[i].lower()])
        out.add("".join(chars))
    return {v for v in out if v != name and v.strip()}


def test_the_skeleton_folds_what_the_issue_names() -> None:
    pairs = [("Ana Lima", "Ana Lirna"), ("Chen Wei", "Chen VVei"), ("Daniel", "Clan1el"),
             ("Facilitator", "F a c i l i t a t o r"), ("Facilitator", "Fac1litator"),
             ("Facilitator", "Facil1tator"), ("Sofia", "S0f1a"), ("Esme", "3sme"),
             ("Sara", "5ara"), ("Capa", "Сара")]  # fmt: skip
    for a, b in pairs:
        assert name_key(a) == name_key(b), (a, b)
    for a, b in [("Ann", "Anna"), ("Li", "Lu"), ("Ada", "Ida"), ("Mia", "Nia")]:
        assert name_key(a) != name_key(b), (a, b)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_lookalikes_of_reserved_words_are_refused(seed: int) -> None:
    rng = random.Random(seed)
    roles = ["Leadership", "Pretraining", "Product", "Infrastructure"]
    for word in (*sorted(RESERVED_WORDS), *roles):
        for variant in lookalikes(word.capitalize(), rng):
            for name in (variant, f"{variant} Bob", f"Dr {variant}"):
                with pytest.raises(InputError):
                    clean_display_name(name, roles)


def test_lookalikes_of_every_seated_name_are_refused(service: TabletopService) -> None:
    """Through the service: a room of ten, and generated look-alikes of each."""
    created = service.create_exercise(quiet_yaml(), seed=3)
    room, key = created.room_code, created.facilitator_key
    service.open_room(room, key, key)
    seated = ["Ana Lima", "Chen Wei", "Daniel", "Sofia", "Elias", "Mallory", "Wanda",
              "Priya", "Olu", "Camille"]  # fmt: skip
    for name in seated:
        assert service.join(room, name).name == name
    rng = random.Random(7)
    tried = 0
    for name in seated:
        for variant in lookalikes(name, rng):
            with pytest.raises(InputError):
                service.join(room, variant)
            tried += 1
    assert tried > 250
    names = [p.name for p in service.room(room).participants]
    assert names == seated, "no look-alike got a seat"


def test_false_refusals_on_common_first_names() -> None:
    """Of 200 common first names, how many the rule refuses or calls the same as another.

    The figure is printed (run with -s) and bounded at 3%.
    """
    assert len(FIRST_NAMES) >= 195
    refused = []
    for name in FIRST_NAMES:
        try:
            clean_display_name(name)
        except InputError:
            refused.append(name)
    keys: dict[str, list[str]] = {}
    for name in FIRST_NAMES:
        keys.setdefault(name_key(name), []).append(name)
    clashes = [group for group in keys.values() if len(group) > 1]
    pairs = sum(len(list(itertools.combinations(g, 2))) for g in clashes)
    total_pairs = len(FIRST_NAMES) * (len(FIRST_NAMES) - 1) // 2
    print(f"refused alone: {refused}; clashing groups: {clashes}; "
          f"{pairs} of {total_pairs} pairs")  # fmt: skip
    assert not refused, refused
    # A name is falsely refused when another in the list shares its skeleton.
    second = sum(len(g) - 1 for g in clashes)
    assert second / len(FIRST_NAMES) <= 0.03, clashes
