"""An optional second opinion from a language model, beside the offline verdict.

Off by default and never part of the score. It runs only where the user names an
OpenAI-compatible endpoint in the environment and asks for it:

- ``TRAININGROOM_LLM_BASE_URL``: the endpoint, e.g. ``http://127.0.0.1:8000/v1``;
- ``TRAININGROOM_LLM_MODEL``: the model name the endpoint serves;
- ``TRAININGROOM_LLM_API_KEY``: the key, if the endpoint wants one.

The request goes through the maintained ``openai`` client. The model gets the question,
each rubric item with the offline verdict and the candidate's own words, and is asked for
one short note per item as JSON. Whatever goes wrong (no endpoint, a time-out, a reply
that is not JSON) becomes :attr:`LlmNotes.error`, never an exception.
"""

from __future__ import annotations

import json
import logging
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field

import openai

from sim.interview.content import slots
from sim.interview.plan import QUESTION, InterviewPlan
from sim.interview.rubric import STATUS_LABEL, RubricReport

log = logging.getLogger(__name__)

ENV_BASE_URL = "TRAININGROOM_LLM_BASE_URL"
ENV_MODEL = "TRAININGROOM_LLM_MODEL"
ENV_API_KEY = "TRAININGROOM_LLM_API_KEY"
TIMEOUT_S = 60.0
#: Characters of the candidate's texts sent, at most.
MAX_ANSWER_CHARS = 12_000
SYSTEM = (
    "You are a senior interviewer for product managers of large-language-model training "
    "projects. For each rubric item you receive the automatic verdict and the candidate's "
    "words. Write one or two sentences per item: what is sound, what is missing or wrong. "
    'Answer with JSON only: {"notes": {"<item id>": "<note>", ...}}.'
)


@dataclass(frozen=True)
class LlmConfig:
    """Where the language model is: endpoint, model, key."""

    base_url: str
    model: str
    api_key: str = ""
    timeout_s: float = TIMEOUT_S


@dataclass(frozen=True)
class LlmNotes:
    """The model's note per rubric item, or why there are none."""

    model: str
    notes: dict[str, str] = field(default_factory=dict)
    error: str = ""


def llm_config(env: Mapping[str, str] | None = None) -> LlmConfig | None:
    """The endpoint named in the environment, or None when none is."""
    env = os.environ if env is None else env
    url, model = env.get(ENV_BASE_URL, "").strip(), env.get(ENV_MODEL, "").strip()
    if not url or not model:
        return None
    return LlmConfig(url, model, env.get(ENV_API_KEY, ""))


def prompt(plan: InterviewPlan, report: RubricReport) -> str:
    """The user message: the question, the candidate's words, and each offline verdict."""
    words = [f"- {s.label}: {s.text}" for s in slots(plan) if s.text.strip()]
    if plan.prose:
        words.insert(0, f"- The spoken answer: {plan.prose}")
    answer = "\n".join(words)[:MAX_ANSWER_CHARS]
    items = "\n".join(
        f"- {i.id} ({i.title}): {STATUS_LABEL[i.status]}. " + " | ".join(i.evidence)
        for i in report.items
    )
    return f"Question: {QUESTION}\n\nThe candidate's words:\n{answer}\n\nRubric items:\n{items}"


def _parse(text: str) -> dict[str, str]:
    m = re.search(r"\{.*\}", text, re.DOTALL)
    if m is None:
        raise ValueError("the reply has no JSON object")
    data = json.loads(m.group(0))
    notes = data.get("notes", data) if isinstance(data, dict) else None
    if not isinstance(notes, dict):
        raise ValueError("the reply's JSON has no notes")
    return {str(k): str(v) for k, v in notes.items()}


def llm_notes(plan: InterviewPlan, report: RubricReport, config: LlmConfig) -> LlmNotes:
    """Ask the model for a note per rubric item; errors come back in ``error``."""
    client = openai.OpenAI(
        base_url=config.base_url,
        api_key=config.api_key or "not-needed",
        timeout=config.timeout_s,
        max_retries=0,
    )
    try:
        reply = client.chat.completions.create(
            model=config.model,
            messages=[
                {"role": "system", "content": SYSTEM},
                {"role": "user", "content": prompt(plan, report)},
            ],
            temperature=0.0,
        )
        content = reply.choices[0].message.content or ""
        known = {i.id for i in report.items}
        notes = {k: v for k, v in _parse(content).items() if k in known}
    except openai.OpenAIError as exc:
        log.warning("LLM judge at %s failed: %s", config.base_url, exc)
        return LlmNotes(config.model, error=f"the model could not be reached: {exc}")
    except (ValueError, IndexError, AttributeError) as exc:
        return LlmNotes(config.model, error=f"the model's reply could not be read: {exc}")
    return LlmNotes(config.model, notes)
