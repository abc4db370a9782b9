"""The model's own words for its choices: what each decision is about and what each option does.

The app, the command line and the reports (the tabletop's situation manual, the play's
debrief) all read them here, so a choice is explained the same way everywhere. The names
themselves are the scenario's (:data:`~sim.scenario.spec.DECISION_OPTIONS`).
"""

from __future__ import annotations

import re

#: One line per decision option: what choosing it does in the model (sim/engine/training.py,
#: sim/engine/phases.py). Keys are the options of :data:`~sim.scenario.spec.DECISION_OPTIONS`,
#: the same names as in scenario playbooks.
OPTION_HELP: dict[str, str] = {
    "rollback_skip": "Roll back to the last good checkpoint and skip the batches that caused "
    "the spike: the standard response, a few hours lost.",
    "continue": "Train on and hope the loss recovers by itself; if it does not, a day more is "
    "wasted before a forced rollback.",
    "pause_investigate": "Pause the cluster for about a day and a half to find the cause, then "
    "roll back: the spike is half as likely to come straight back.",
    "overreact": "Change the recipe (learning rate, clipping, warmup) and restart a thousand "
    "steps back: cures a spike that keeps coming back, but on one a rollback would cure it "
    "only costs a day and some quality.",
    "fix_and_continue": "Fix the data and train on with clean data: the bad tokens already "
    "seen stay in the model.",
    "fix_and_restart": "Fix the data and restart the run from scratch: clean, but every token "
    "trained so far is lost.",
    "accept": "Leave the defect in and carry on: no delay, but its quality penalty stays.",
    "use_reserve": "Cover the gap from the budget reserve; the plan stays as it is.",
    "cut_ablations": "Cut the ablation experiments as far as the gap needs: saves compute and "
    "days, but fewer defects are caught before the run.",
    "reduce_tokens": "Train on fewer tokens, as many fewer as the gap needs: cheaper and "
    "shorter, but a higher final loss.",
    "fewer_post_training_rounds": "Plan less post-training, exactly the gap's worth (a shorter "
    "last round): saves annotation, compute and weeks of salaries, costs quality.",
    "smaller_eval_scope": "Halve the evaluation campaign and the eval sets: saves days, but "
    "the scores you ship on are noisier.",
    "fewer_hires": "Hire fewer of the planned people: saves their salaries; they would have "
    "added little late anyway.",
    "smaller_cluster": "Reserve a smaller cluster and train for longer: saves the idle days "
    "a reservation pays for, costs calendar time.",
    "accept_overrun": "Keep the plan and go over budget.",
    "extra_round": "Run one more post-training round, then measure again.",
    "fix_data_and_retune": "Fix the post-training data first, then run another round: slower, "
    "but it lifts the product evals too, not only the benchmarks.",
    "ship": "Ship now, with the missed targets missed.",
    "cut_post_training_rounds": "Cut post-training rounds to make the deadline: on time, lower "
    "quality.",
    "add_core_staff": "Add people to the core team: they need time to ramp up and add "
    "coordination overhead, so it often makes things later (Brooks).",
    "accept_slip": "Accept the later finish date and keep the plan.",
    "rework": "Redo the work the objective change spoiled (its share of the evals and of the "
    "post-training rounds done so far): later and dearer, and the model fits the new objective.",
    "keep_work": "Keep the work done against the old objective: no delay, but the rounds it "
    "spoiled no longer count and the old evals steer what is left.",
}

#: How each option is named to a player: the action it takes, in words, never its identifier
#: read aloud ("rollback skip") and never a judgement of it (``overreact`` gives the answer
#: away). The identifiers stay: saved plays, playbooks and ``--policy`` use them; only the
#: words shown change. ``ship``, ``cut_ablations``, ``fewer_hires`` and ``add_core_staff`` read
#: as they are (``ship`` and ``add_core_staff`` also name a decision and a lever).
OPTION_LABELS: dict[str, str] = {
    "rollback_skip": "roll back and skip the batches",
    "continue": "train on",
    "pause_investigate": "pause and investigate",
    "overreact": "change recipe and restart",
    "fix_and_continue": "fix the data and train on",
    "fix_and_restart": "fix the data and restart",
    "accept": "leave the defect in",
    "use_reserve": "use the reserve",
    "reduce_tokens": "fewer tokens",
    "fewer_post_training_rounds": "fewer post-training rounds",
    "smaller_eval_scope": "a smaller eval campaign",
    "smaller_cluster": "a smaller cluster",
    "accept_overrun": "go over budget",
    "extra_round": "one more post-training round",
    "fix_data_and_retune": "fix the data and retune",
    "cut_post_training_rounds": "cut post-training rounds",
    "accept_slip": "accept the later finish",
}


def option_words(option: str) -> str:
    """An option as a player reads it: what it does, never whether it is wise."""
    return OPTION_LABELS.get(option, option.replace("_", " "))


#: What each kind of decision is about, as a card title.
DECISION_TITLES: dict[str, str] = {
    "rollback": "The loss spiked: what now?",
    "data_fix": "A data defect was found: fix it?",
    "budget": "The budget was cut: how do you close the gap?",
    "ship": "Targets missed at evaluation: ship?",
    "schedule": "Scope, time or quality: what gives?",
}


def option_help(option: str) -> str:
    """What choosing ``option`` does in the model, in one line ("" for an unknown name)."""
    return OPTION_HELP.get(option, "")


def decision_title(kind: str) -> str:
    """What a decision of ``kind`` is about, as a card title (the kind's words if unknown)."""
    return DECISION_TITLES.get(kind, kind.replace("_", " ").capitalize())


#: Identifiers whose words are not their parts joined by spaces.
ID_WORDS: dict[str, str] = {
    "safety_legal": "safety and legal",
    "post_training": "post-training",
    "release_eval": "release evaluation",
}


def words(identifier: str) -> str:
    """A scenario identifier (a team, gate, phase, eval or workstream) as a person reads it.

    ``safety_legal`` is "safety and legal", ``ablation_gate`` "ablation gate"; an option
    reads as :func:`option_words` has it, so an identifier never judges the choice.
    """
    if identifier in OPTION_LABELS:
        return OPTION_LABELS[identifier]
    return ID_WORDS.get(identifier, identifier.replace("_", " "))


_IDENTIFIER = re.compile(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b")


def identifiers_in_words(label: str) -> str:
    """A label the tool made, with each identifier in it as a person reads it.

    "owner of data_quality" is "owner of data quality", "add_core_staff → accept_slip" is
    "add core staff → accept the later finish". Only for the tool's own labels: text a
    person typed is shown as typed.
    """
    return _IDENTIFIER.sub(lambda m: words(m.group()), label)


def work_words(key: str) -> str:
    """A piece of work's key in the trace as a person reads it.

    ``gate:ablation_gate/data`` is "the data team's ablation gate review",
    ``fix:contamination`` "the contamination fix", a workstream id its words.
    """
    kind, _, rest = key.partition(":")
    if kind == "gate" and rest:
        gate, _, team = rest.partition("/")
        return (
            f"the {words(team)} team's {review_words(gate)}"
            if team
            else f"the {review_words(gate)}"
        )
    if kind == "fix" and rest:
        return f"the {words(rest)} fix"
    return words(key)


def review_words(gate: str) -> str:
    """A gate's review in words: "ablation gate review", "data review" (never "review review")."""
    name = words(gate)
    return name if name.endswith("review") else f"{name} review"


def sentence(text: str) -> str:
    """``text`` with its first letter a capital (the rest as written)."""
    return text[:1].upper() + text[1:]
