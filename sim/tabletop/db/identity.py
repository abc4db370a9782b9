"""Display names that say who someone is: normalised, never reserved, never look-alikes.

A name is kept as typed after Unicode NFKC (full-width letters become ordinary ones) and
with its whitespace collapsed. It is refused when it holds invisible, control or bidi
characters, characters other than letters, digits, spaces and ``. ' -``, letters of
different scripts that look alike (a Cyrillic ``А`` inside a Latin name, checked with
:mod:`confusable_homoglyphs`, which carries Unicode's confusables data), or a word
that would pass for the exercise's own voices (``Facilitator``, ``playbook``,
``system``, a role's name...).

Uniqueness in a room is decided by :func:`name_key`, a confusable skeleton: NFKC, case
folded, accents dropped, then Unicode UTS #39's skeleton (ICU's ``SpoofChecker``, through
PyICU: letters of other scripts become the Latin ones they look like, and ``m`` becomes
``rn``), case folded again, separators and punctuation left out, digits that pass for
letters folded (``0``/``o``, ``1``/``l``/``i``, ``5``/``s``, ``3``/``e``, ``4``/``a``), and the
multi-letter look-alikes TR39's data leaves out (``vv``/``w``, ``cl``/``d``) folded, until
nothing changes. The key is computed here, in Python, and stored with a unique
constraint, so SQLite and PostgreSQL apply the same rule. A reserved word or a role's
name (five letters or more) is refused anywhere in the skeleton of the whole name, so
``F a c i l i t a t o r``, ``Facil1tator`` and ``Facilitator Bob`` are refused alike.
"""

from __future__ import annotations

import functools
import unicodedata
from collections.abc import Iterable

import icu
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


#: Digits and letters that pass for one another once case is folded (UTS #39 keeps
#: ``0``/``o`` and ``i``/``l`` apart: it maps ``0`` to ``O`` and ``I`` to ``l``).
_FOLD = str.maketrans(
    {"0": "o", "1": "l", "i": "l", "|": "l", "!": "l", "5": "s", "3": "e", "4": "a", "ς": "c"}
)
#: Multi-letter look-alikes missing from UTS #39's data (it has ``m`` -> ``rn``), each
#: written as the letters it passes for.
_MULTI = (("w", "vv"), ("d", "cl"))
_SPOOF = icu.SpoofChecker()


def skeleton(text: str) -> str:
    """The confusable skeleton of ``text``: what two names share if one passes for the other."""
    # The skeleton before case folding too, and lower() not casefold(): U+03F2 (lunate
    # sigma, like c) case-folds to sigma (like o).
    shown = _SPOOF.getSkeleton(0, unicodedata.normalize("NFKC", text))
    folded = unicodedata.normalize("NFD", shown.lower())
    out = "".join(c for c in folded if not unicodedata.category(c).startswith("M"))
    for _ in range(4):  # to a fixed point (a fold can make a new look-alike)
        before = out
        out = _SPOOF.getSkeleton(0, out).lower()
        out = "".join(c for c in out if c.isalnum() or c in "|!").translate(_FOLD)
        out = "".join(c for c in out if c.isalnum())
        for letter, lookalike in _MULTI:
            out = out.replace(letter, lookalike)
        if out == before:
            break
    return out


def name_key(text: str) -> str:
    """The skeleton two names share when people could take one for the other."""
    return skeleton(text)


#: A reserved word or role name this long or longer is refused anywhere in a name's
#: skeleton; a shorter one only as the whole name (``"Li"`` holds no role called ``"li"``).
MIN_INSIDE = 5


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
    key = name_key(shown)
    if not key:
        raise InputError("a display name needs at least one letter")
    reserved = next((w for w in RESERVED_WORDS if _reserved_in(w, key)), None)
    if reserved:
        raise InputError(
            f"{shown!r} would pass for the exercise's staff or the model ({reserved!r}); "
            "please use your own name"
        )
    role = next((r for r in role_names if _reserved_in(r, key)), None)
    if key in _RESERVED_NAME_KEYS or role is not None:
        raise InputError(f"{shown!r} is a role or a label on the page; please use your own name")
    return shown, key


@functools.lru_cache(maxsize=1024)
def _word_key(word: str) -> str:
    return skeleton(word)


def _reserved_in(word: str, key: str) -> bool:
    """Whether the reserved ``word`` (or a role's name) is the name or, if long, inside it."""
    wanted = _word_key(word)
    if not wanted:
        return False
    return wanted == key or (len(word.replace(" ", "")) >= MIN_INSIDE and wanted in key)


_RESERVED_NAME_KEYS = frozenset(skeleton(n) for n in RESERVED_NAMES)
