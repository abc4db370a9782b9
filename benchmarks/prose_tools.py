"""The field's tools measured against the prose reader's own matching, on the labelled corpus.

Variants, each scored on the held-out and the tuning halves (tests/prose_corpus.py):

- ``reader``: the reader as shipped (Snowball stems, clause rules in sim/interview/clauses.py);
- ``spacy-lemmas``: spaCy's blank English pipeline with its lookup lemmatizer
  (spacy-lookups-data) in place of the Snowball stemmer, for the vocabulary and the rules;
- ``wordllama-risk``: the risk a sentence is about chosen by WordLlama's bundled embedding
  (nearest risk description, cosine similarity at least ``--threshold``) instead of the
  vocabulary's topic words;
- ``wordllama-fallback``: the vocabulary first, WordLlama only where it finds no risk.

It also prints each tool's import-and-load time and peak memory. Neither tool is a
dependency of the project: install them where you like and pass ``--site DIR``.

Usage: ``PYTHONPATH=. python benchmarks/prose_tools.py --site DIR [--threshold 0.5]``
"""

from __future__ import annotations

import resource
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import sim.interview.prose as prose
import sim.interview.vocabulary as vocabulary
from sim.interview.content import SIGNALS, topic
from sim.scenario.spec import RISK_KINDS
from tests.prose_corpus import load, score, split_of


def _clear_caches() -> None:
    for f in (vocabulary._text, vocabulary._pattern, vocabulary._matches,
              vocabulary._vocabulary_stems):  # fmt: skip
        f.cache_clear()


def _rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _run(name: str, answers: list[dict[str, Any]]) -> None:
    for half in ("held-out", "tuning"):
        part = [a for a in answers if split_of(a["id"]) == half]
        start = time.perf_counter()
        t = score(part)
        took = time.perf_counter() - start
        unsure = sum(t.unsure_right.values()) + sum(t.unsure_wrong.values())
        print(f"{name:<20}{half:<10}precision {t.precision():.3f}  recall {t.recall():.3f}  "
              f"wrong {sum(t.wrong.values()):>3}  unsure {unsure:>3}  {took:5.2f} s")  # fmt: skip


def spacy_lemmas() -> Callable[[str], str]:
    start, rss = time.perf_counter(), _rss_mb()
    import spacy

    nlp = spacy.blank("en")
    nlp.add_pipe("lemmatizer", config={"mode": "lookup"})
    nlp.initialize()
    lookup = nlp.get_pipe("lemmatizer").lookups.get_table("lemma_lookup")
    print(f"spaCy blank en + lookup lemmas: load {time.perf_counter() - start:.2f} s, "
          f"+{_rss_mb() - rss:.0f} MB peak")  # fmt: skip
    return lambda w: str(lookup.get(w, w))


def wordllama_risk(
    threshold: float, fallback: bool, lexical: Callable[[Any], str | None]
) -> Callable[[Any], str | None]:
    start, rss = time.perf_counter(), _rss_mb()
    import wordllama
    from wordllama import WordLlama

    # The package ships its weights and tokenizer; point its cache at them, never the hub.
    wl = WordLlama.load(cache_dir=Path(wordllama.__file__).parent, disable_download=True)
    print(f"WordLlama (bundled l2_supercat 256-d): load {time.perf_counter() - start:.2f} s, "
          f"+{_rss_mb() - rss:.0f} MB peak")  # fmt: skip
    descriptions = {
        r: " ".join(
            vocabulary.CONCEPTS[c].label + " " + " ".join(vocabulary.CONCEPTS[c].phrases)
            for c in (*topic(r), *SIGNALS.get(r, ()))
        )  # fmt: skip
        for r in RISK_KINDS
    }
    risks = list(descriptions)
    matrix = wl.embed([descriptions[r] for r in risks], norm=True)

    def risk_of(t: Any) -> str | None:
        if fallback:
            found = lexical(t)
            if found is not None:
                return found
        text = " ".join(t.raw)
        if not text:
            return None
        v = wl.embed([text], norm=True)[0]
        sims = matrix @ v
        best = int(sims.argmax())
        return risks[best] if float(sims[best]) >= threshold else None

    return risk_of


def main(argv: list[str]) -> int:
    if "--site" in argv:
        sys.path.append(argv[argv.index("--site") + 1])
    threshold = float(argv[argv.index("--threshold") + 1]) if "--threshold" in argv else 0.5
    answers = load()
    _run("reader", answers)
    original_stem, original_risk = vocabulary.stem, prose._risk_of
    try:
        lemma = spacy_lemmas()
        vocabulary.stem = lemma  # type: ignore[assignment]
        _clear_caches()
        _run("spacy-lemmas", answers)
    except ImportError as e:
        print(f"spacy-lemmas: not installed ({e})")
    finally:
        vocabulary.stem = original_stem
        _clear_caches()
    try:
        for fallback in (False, True):
            prose._risk_of = wordllama_risk(threshold, fallback, original_risk)
            _run("wordllama-" + ("fallback" if fallback else "risk"), answers)
    except ImportError as e:
        print(f"wordllama: not installed ({e})")
    finally:
        prose._risk_of = original_risk
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
