"""Display names that say who someone is: normalised, never reserved, never look-alikes.

A name is kept as typed after Unicode NFKC (full-width letters become ordinary ones) and
with its whitespace collapsed. It is refused when it holds invisible, control or bidi
characters, characters other than letters, digits, spaces and ``. ' -``, letters of
different scripts that look alike (a Cyrillic ``А`` inside a Latin name, checked with
:mod:`confusable_homoglyphs`, which carries Unicode's confusables data), or a word
that would pass for the exercise's own voices (``Facilitator``, ``playbook``,
``system``, a role's name...).

Uniqueness in a room is decided by :func:`name_key`, a skeleton in the spirit of
Unicode UTS #39: NFKC, case folded, accents dropped, letters of other scripts replaced
by the Latin letters they look like, digits that pass for letters (``0``/``o``,
``1``/``l``) folded, and separators left out. The key is computed here, in Python, and
stored with a unique constraint, so SQLite and PostgreSQL apply the same rule.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Iterable

from confusable_homoglyphs import categories, confusables

from sim.tabletop.errors import InputError

MAX_NAME = 40
#: Punctuation a name may hold besides letters, digits, marks and spaces.
NAME_PUNCTUATION = frozenset(".'-’")
#: Default-ignorable characters that are not in a C* category (fillers, variation
#: selectors, the combining grapheme joiner): they show as nothing.
INVISIBLE = frozenset(
    [0x034F, 0x115F, 0x1160, 0x17B4, 0x17B5, 0x3164, 0xFFA0, 0x2800]
    + list(range(0x180B, 0x1810))
    + list(range(0xFE00, 0xFE10))
    + list(range(0xE0100, 0xE01F0))
)
#: Combining marks allowed on one letter (more is "Zalgo" text that hides the name).
MAX_MARKS = 2
#: A word of one of these in a name makes it pass for the exercise's own voices.
RESERVED_WORDS = frozenset(
    {
        "facilitator", "facilitators", "playbook", "system", "admin", "administrator",
        "moderator", "organiser", "organizer", "controller", "evaluator", "trainingroom",
        "nobody", "everyone", "anyone", "unknown",
    }
)  # fmt: skip
#: Whole names that read as labels on the pages and in the report.
RESERVED_NAMES = frozenset({"free", "noplayer", "norole", "player", "you", "me", "room", "model"})


def check_unicode(text: object, what: str) -> str:
    """``text`` as a str that can be stored: lone surrogates are an :class:`InputError`."""
    if not isinstance(text, str):
        raise InputError(f"{what} must be text")
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise InputError(f"{what} holds invalid Unicode (a lone surrogate)") from None
    return text


@functools.lru_cache(maxsize=4096)
def _latin_lookalike(char: str) -> str:
    """The Latin letter ``char`` passes for, or ``char`` itself."""
    if categories.alias(char) == "LATIN":
        return char
    found = confusables.is_confusable(char, preferred_aliases=["latin"])
    for hit in found or ():
        for glyph in hit["homoglyphs"]:
            c = glyph["c"]
            if len(c) == 1 and categories.alias(c) == "LATIN":
                return c.casefold()
    return char


def _words(text: str) -> list[str]:
    """The skeleton's words: folded, accents dropped, look-alikes replaced."""
    folded = unicodedata.normalize("NFD", unicodedata.normalize("NFKC", text).casefold())
    kept = "".join(
        _latin_lookalike(c) if c.isalnum() else c
        for c in folded
        if not unicodedata.category(c).startswith("M")
    )
    return [w for w in re.split(r"[^\w]+|_", kept) if w]


def name_key(text: str) -> str:
    """The skeleton two names share when people could take one for the other."""
    return "".join(_words(text))


def _refuse_characters(name: str) -> None:
    marks = 0
    for c in name:
        cat = unicodedata.category(c)
        if cat.startswith("C") or ord(c) in INVISIBLE or (cat.startswith("Z") and c != " "):
            raise InputError(
                "a display name may not hold invisible, control or bidi characters "
                f"(found U+{ord(c):04X})"
            )
        marks = marks + 1 if cat.startswith("M") else 0
        if marks > MAX_MARKS:
            raise InputError("a display name may carry at most two accents on a letter")
        if not (cat[0] in "LMN" or c == " " or c in NAME_PUNCTUATION):
            raise InputError(
                f"a display name holds letters, digits, spaces and . ' - only (not {c!r})"
            )
    if not any(unicodedata.category(c).startswith("L") for c in name):
        raise InputError("a display name needs at least one letter")


def _lookalike_elsewhere(char: str, scripts: set[str]) -> str | None:
    """A letter of another of ``scripts`` that ``char`` passes for, if there is one."""
    own = categories.alias(char)
    for hit in confusables.is_confusable(char) or ():
        for glyph in hit["homoglyphs"]:
            c = glyph["c"]
            if len(c) == 1 and c.isalpha() and categories.alias(c) in scripts - {own}:
                return c
    return None


def _refuse_mixed_scripts(name: str) -> None:
    """Refuse a word whose letters of two scripts look alike (words may differ in script)."""
    for word in name.split():
        _refuse_mixed_word(word)


def _refuse_mixed_word(word: str) -> None:
    scripts = categories.unique_aliases(word) - {"COMMON", "INHERITED"}
    if len(scripts) < 2:
        return
    for char in dict.fromkeys(c for c in word if c.isalpha()):
        other = _lookalike_elsewhere(char, scripts)
        if other is not None:
            raise InputError(
                "a display name mixes scripts with letters that look alike: "
                f"{unicodedata.name(char, repr(char))} passes for "
                f"{unicodedata.name(other, repr(other))}"
            )


def clean_display_name(name: object, role_names: Iterable[str] = ()) -> tuple[str, str]:
    """The name to show and its key, or an :class:`InputError` saying what is wrong."""
    text = check_unicode(name, "a display name")
    shown = " ".join(unicodedata.normalize("NFKC", text).split())
    if not shown:
        raise InputError("a display name is empty")
    if len(shown) > MAX_NAME:
        raise InputError(f"a display name is limited to {MAX_NAME} characters (got {len(shown)})")
    _refuse_characters(shown)
    _refuse_mixed_scripts(shown)
    words = _words(shown)
    key = "".join(words)
    reserved = next((w for w in words if w in RESERVED_WORDS), None)
    if reserved:
        raise InputError(
            f"{shown!r} would pass for the exercise's staff or the model ({reserved!r}); "
            "please use your own name"
        )
    roles = {name_key(r) for r in role_names}
    if key in RESERVED_NAMES or key in roles:
        raise InputError(f"{shown!r} is a role or a label on the page; please use your own name")
    return shown, key
