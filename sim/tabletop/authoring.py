"""Authoring a tabletop exercise from a scenario: roles, the inject list, the manuals.

The inject list is the exercise's master scenario events list (MSEL): each inject has a
trigger (a day, or a state of the model such as effective training time falling below
85%), an optional incident it sets off in the engine (:data:`sim.play.game.INJECTIONS`), the
message players read, and, for the facilitator only, the actions expected of the room
and the learning points it carries. The situation manual is what players read before
the exercise; it holds nothing from the facilitator's side.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any, Literal

from sim.engine.org import OrgGraph
from sim.format import usd
from sim.play.game import INJECTIONS
from sim.scenario.spec import DECISION_KINDS, DECISION_OPTIONS, INJECTS, Scenario
from sim.scenario.vocabulary import OPTION_HELP, words
from sim.tabletop.report.document import Block, Bullets, Heading, Para, Table, to_html, to_markdown

#: Model state a trigger can watch: name → words. All are shares of 1.
STATE_METRICS: dict[str, str] = {
    "effective_training_time": "effective training time",
    "spend_share": "spend as a share of the budget",
    "run_progress": "share of the main run trained",
}
#: Which engine incident raises which decision kind (None: no decision of its own).
RAISES: dict[str, str | None] = {kind: i.raises for kind, i in INJECTS.items()}
MAX_TITLE = 120
MAX_MESSAGE = 1_500
MAX_POINT = 400
MAX_POINTS = 8
MAX_INJECTS = 40


class AuthoringError(ValueError):
    """An inject list that cannot be run."""


@dataclass(frozen=True)
class Trigger:
    """When an inject fires: on ``day``, or when ``metric`` goes ``op`` ``threshold``."""

    day: float | None = None
    metric: str | None = None
    op: Literal["below", "above"] = "above"
    threshold: float = 0.0

    def describe(self) -> str:
        if self.day is not None:
            return f"day {self.day:g}"
        return f"{STATE_METRICS.get(self.metric or '', self.metric)} {self.op} {self.threshold:.0%}"

    def check(self) -> None:
        if (self.day is None) == (self.metric is None):
            raise AuthoringError("a trigger needs exactly one of a day or a metric")
        if self.day is not None and not 0.0 <= self.day <= 10_000.0:
            raise AuthoringError(f"trigger day {self.day} is out of range (0 to 10,000)")
        if self.metric is not None and self.metric not in STATE_METRICS:
            raise AuthoringError(
                f"unknown metric {self.metric!r}; one of {', '.join(STATE_METRICS)}"
            )
        if self.op not in ("below", "above"):
            raise AuthoringError(f"a trigger's op is 'below' or 'above', not {self.op!r}")
        if self.metric is not None and not 0.0 <= self.threshold <= 1.0:
            raise AuthoringError(f"threshold {self.threshold} is not a share between 0 and 1")


@dataclass(frozen=True)
class InjectSpec:
    """One line of the MSEL. ``expected_*`` and ``learning_points`` are the facilitator's."""

    id: str
    title: str
    message: str
    trigger: Trigger
    engine: str | None = None
    params: dict[str, Any] = field(default_factory=dict)
    decision_kind: str | None = None
    expected_options: tuple[str, ...] = ()
    expected_actions: tuple[str, ...] = ()
    learning_points: tuple[str, ...] = ()
    #: The incident the scenario itself scripts and the engine fires (this inject only
    #: tells the room); the report matches its decision by the day the engine fired it.
    scripted: str | None = None

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["expected_options"] = list(self.expected_options)
        d["expected_actions"] = list(self.expected_actions)
        d["learning_points"] = list(self.learning_points)
        return d

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> InjectSpec:
        try:
            spec = cls(
                id=str(data["id"]),
                title=str(data["title"]),
                message=str(data["message"]),
                trigger=Trigger(**dict(data["trigger"])),
                engine=None if data.get("engine") is None else str(data["engine"]),
                params=dict(data.get("params") or {}),
                decision_kind=data.get("decision_kind"),
                expected_options=tuple(map(str, data.get("expected_options", ()))),
                expected_actions=tuple(map(str, data.get("expected_actions", ()))),
                learning_points=tuple(map(str, data.get("learning_points", ()))),
                scripted=None if data.get("scripted") is None else str(data["scripted"]),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise AuthoringError(f"malformed inject: {exc}") from None
        spec.check()
        return spec

    def check(self) -> None:
        """Refuse what the clock could not run or the pages should not show."""
        self.trigger.check()
        if not self.id or len(self.id) > 64:
            raise AuthoringError("an inject id is 1 to 64 characters")
        if not self.title.strip() or len(self.title) > MAX_TITLE:
            raise AuthoringError(f"inject {self.id}: a title is 1 to {MAX_TITLE} characters")
        if len(self.message) > MAX_MESSAGE:
            raise AuthoringError(f"inject {self.id}: the message exceeds {MAX_MESSAGE} characters")
        if self.engine is not None:
            if self.engine not in INJECTIONS:
                raise AuthoringError(f"inject {self.id}: unknown incident {self.engine!r}")
            unknown = set(self.params) - set(INJECTIONS[self.engine])
            if unknown:
                raise AuthoringError(f"inject {self.id}: {self.engine} takes no {sorted(unknown)}")
        if self.scripted is not None and self.scripted not in INJECTIONS:
            raise AuthoringError(f"inject {self.id}: unknown scripted incident {self.scripted!r}")
        if self.decision_kind is not None and self.decision_kind not in DECISION_KINDS:
            raise AuthoringError(f"inject {self.id}: unknown decision kind {self.decision_kind!r}")
        allowed = DECISION_OPTIONS.get(self.decision_kind or "", ())
        if any(o not in allowed for o in self.expected_options):
            raise AuthoringError(f"inject {self.id}: expected options must be options of its kind")
        for points in (self.expected_actions, self.learning_points):
            if len(points) > MAX_POINTS or any(len(p) > MAX_POINT for p in points):
                raise AuthoringError(
                    f"inject {self.id}: at most {MAX_POINTS} points of {MAX_POINT} characters"
                )


def check_injects(injects: Sequence[InjectSpec]) -> None:
    if len(injects) > MAX_INJECTS:
        raise AuthoringError(f"at most {MAX_INJECTS} injects")
    ids = [i.id for i in injects]
    if len(set(ids)) != len(ids):
        raise AuthoringError("inject ids must be unique")
    for inject in injects:
        inject.check()


# --- roles ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class RoleSpec:
    """A seat at the table: a team of the org graph, its decision rights and its risks."""

    team: str
    name: str
    headcount: int
    core: bool
    rights: tuple[str, ...]
    risks: tuple[str, ...]


def roles(scenario: Scenario) -> list[RoleSpec]:
    """Every team as a role; teams holding decision rights first."""
    org = OrgGraph(scenario)
    out = [
        RoleSpec(
            t.id,
            t.name or t.id,
            t.headcount,
            t.id in org.core,
            tuple(org.rights_of(t.id)),
            tuple(org.risks_owned_by(t.id)),
        )
        for t in scenario.org.teams
    ]
    return sorted(out, key=lambda r: (not r.rights, scenario.team_ids.index(r.team)))


# --- the default inject list --------------------------------------------------------------


#: The default MSEL, in the order it tends to play out. In the texts, ``{budget}``,
#: ``{training}``, ``{infra}`` and ``{data_fix}`` become the names of the teams holding the
#: budget right, the rollback right (the team running training), the hardware risk and the
#: data-fix right. ``day_share`` times the deadline is a timed inject's day.
TEMPLATES: tuple[dict[str, Any], ...] = (
    {
        "id": "budget-cut",
        "title": "The board cuts the compute budget",
        "message": "The board has cut 40% of the compute budget not yet spent, effective today. "
        "The plan as it stands no longer fits. Whoever holds the budget right must say how "
        "the gap is closed.",
        "day_share": 0.1,
        "engine": "budget_cut",
        "params": {"fraction": 0.4},
        "decision_kind": "budget",
        "expected_options": ("use_reserve", "cut_ablations"),
        "expected_actions": (
            "{budget} closes the gap with the levers agreed in advance: reserve first, then "
            "ablations or post-training rounds; tokens last.",
            "The training team hears what changed and why the same day.",
            "Schedule and quality are re-forecast against the new budget.",
        ),
        "learning_points": (
            "A reserve and a pre-agreed order of levers make a cut a routine call.",
            "Cutting tokens saves money now and costs model quality later; the report prices it.",
        ),
    },
    {
        "id": "departure",
        "title": "A senior member of {training} resigns",
        "message": "A senior engineer in {training} has resigned and leaves this week. Nobody "
        "else has run this part of the work end to end.",
        "day_share": 0.25,
        "engine": "departure",
        "params": {"team": "{training_id}"},
        "expected_actions": (
            "Name who takes over each of the leaver's duties; check for single points of failure.",
            "Backfill, but do not add several people to the core team late (Brooks's law).",
        ),
        "learning_points": (
            "Small core teams are fragile: every person owns something.",
            "Adding people late to the core makes it later; ramp-up and coordination cost time.",
        ),
    },
    {
        "id": "loss-spike",
        "title": "The training loss spikes",
        "message": "The loss curve has jumped and not come back down; checkpoint evals have "
        "stalled. The cluster is still billing by the hour.",
        "metric": ("run_progress", "above", 0.3),
        "engine": "loss_spike",
        "decision_kind": "rollback",
        "expected_options": ("rollback_skip",),
        "expected_actions": (
            "{training} rolls back to the last good checkpoint and skips the offending batches.",
            "Infrastructure confirms the checkpoints are healthy; nobody restarts from scratch.",
        ),
        "learning_points": (
            "Spikes are expected at scale; a fast, owned response limits wasted compute.",
            "Every hop between whoever sees the spike and whoever may decide costs cluster time.",
        ),
    },
    {
        "id": "reliability",
        "title": "The cluster spends too long not training",
        "message": "Interruptions and restarts are eating into the run: the share of wall time "
        "spent actually training has fallen below 85%.",
        "metric": ("effective_training_time", "below", 0.85),
        "expected_actions": (
            "{infra} checks the checkpoint interval against the failure rate (Young/Daly).",
            "Spare nodes, automatic restarts and health checks are on the table, with owners.",
        ),
        "learning_points": (
            "Hardware fails at scale; checkpointing trades overhead for lost work.",
            "Meta reported about 90% effective training time on 16k GPUs (Llama 3).",
        ),
    },
    {
        "id": "data-defect",
        "title": "A data problem turns up mid-run",
        "message": "The data team reports that part of the pretraining mix was badly filtered: "
        "duplicated and low-quality documents are in the data the run is training on.",
        "metric": ("run_progress", "above", 0.6),
        "engine": "data_defect",
        "params": {"kind": "data_quality"},
        "decision_kind": "data_fix",
        "expected_options": ("fix_and_continue",),
        "expected_actions": (
            "{data_fix} weighs a fix-and-continue against a restart with the cost of each.",
            "The data owner finds how it got past the gates and fixes the pipeline.",
        ),
        "learning_points": (
            "Late discovery is expensive: the same defect caught at an ablation gate costs little.",
            "Data work is unglamorous and high-impact.",
        ),
    },
    {
        "id": "burn-rate",
        "title": "Finance flags the burn rate",
        "message": "Finance reports that 80% of the budget has been spent and asks for a "
        "forecast to the end of the project and a plan if it does not fit.",
        "metric": ("spend_share", "above", 0.8),
        "expected_actions": (
            "{budget} re-forecasts cost to completion and says what is left in the reserve.",
            "The levers still open (post-training rounds, scope) are named with their owners.",
        ),
        "learning_points": (
            "Every risk needs an owner and an early warning; spend is one of the earliest.",
        ),
    },
)


def _from_template(t: Mapping[str, Any], names: Mapping[str, str], deadline: float) -> InjectSpec:
    def fill(text: str) -> str:
        return text.format(**names)

    if "day_share" in t:
        trigger = Trigger(day=round(t["day_share"] * deadline))
    else:
        metric, op, threshold = t["metric"]
        trigger = Trigger(metric=metric, op=op, threshold=threshold)
    return InjectSpec(
        t["id"],
        fill(t["title"]),
        fill(t["message"]),
        trigger,
        t.get("engine"),
        {k: fill(v) if isinstance(v, str) else v for k, v in t.get("params", {}).items()},
        t.get("decision_kind"),
        tuple(t.get("expected_options", ())),
        tuple(fill(a) for a in t.get("expected_actions", ())),
        tuple(t.get("learning_points", ())),
    )


def _scripted(s: Scenario) -> list[InjectSpec]:
    """The scenario's own scripted incidents, as injects the engine fires by itself."""
    out = []
    for n, inc in enumerate(s.incidents.scripted):
        trigger = (
            Trigger(day=inc.day)
            if inc.day is not None
            else Trigger(metric="run_progress", op="above", threshold=inc.run_progress or 0.0)
        )
        kind = RAISES[inc.kind]
        holder = s.org.decision_rights.get(kind) if kind else None  # type: ignore[call-overload]
        out.append(
            InjectSpec(
                f"scripted-{n + 1}",
                f"Scenario event: {words(inc.kind)}",
                INJECTS[inc.kind].message,
                trigger,
                None,
                {},
                kind,
                ("rollback_skip",) if inc.kind == "loss_spike" else (),
                (f"{holder} makes the {kind} call quickly and writes down why.",) if holder else (),
                ("The scenario scripts this event; the engine fires it by itself.",)
                + ((f"Scenario author's note: {inc.note}",) if inc.note else ()),
                scripted=inc.kind,
            )
        )
    return out


def inject_list(scenario: Scenario) -> list[InjectSpec]:
    """A default MSEL for ``scenario``: timed and state-triggered injects (:data:`TEMPLATES`).

    Incidents the scenario already scripts are listed as they are (the engine fires them);
    when it scripts a loss spike, the template's own loss spike is left out.
    """
    org = scenario.org
    rights = org.decision_rights
    team_names = {t.id: t.name or t.id for t in org.teams}
    training = rights["rollback"]
    infra = org.risk_owners.get("hardware") or training  # type: ignore[call-overload]
    names = {
        "budget": team_names[rights["budget"]],
        "training": team_names[training],
        "training_id": training,
        "infra": team_names[infra],
        "data_fix": team_names[rights["data_fix"]],
    }
    scripted_spike = any(i.kind == "loss_spike" for i in scenario.incidents.scripted)
    deadline = scenario.objective.deadline_days
    made = [
        _from_template(t, names, deadline)
        for t in TEMPLATES
        if not (scripted_spike and t.get("engine") == "loss_spike")
    ]
    at = next(n for n, i in enumerate(made) if i.trigger.day is None)
    injects = made[:at] + _scripted(scenario) + made[at:]
    check_injects(injects)
    return injects


# --- the manuals ----------------------------------------------------------------------------


def _money(value: float) -> str:
    return usd(value)


def _objective_blocks(s: Scenario) -> list[Block]:
    obj = s.objective
    budget = obj.budget.total_usd
    reserve = s.levers.reserve_fraction * budget
    return [
        Bullets(
            (
                f"Product: {obj.product_use}",
                f"Deadline: day {obj.deadline_days:g}",
                f"Budget: {_money(budget)}, of which a reserve of {_money(reserve)} "
                f"({s.levers.reserve_fraction:.0%}) is held back",
                f"Model: {s.model.params_b:g}B parameters, {s.model.tokens_b:,.0f}B tokens "
                f"({s.levers.strategy}), on {s.cluster.gpus:,} {s.cluster.gpu.upper()} GPUs",
            )
        ),
        Table(
            ("target eval", "at least", "capability"),
            tuple((t.eval, f"{t.threshold:.2f}", words(t.capability)) for t in obj.targets),
        ),
    ]


Format = Literal["markdown", "html"]


def _render(blocks: Sequence[Block], title: str, fmt: Format) -> str:
    if fmt == "html":
        return to_html(blocks, title)
    if fmt == "markdown":
        return to_markdown(blocks)
    raise ValueError(f"unknown format {fmt!r}")


def situation_manual_blocks(
    scenario: Scenario,
    option_help: Mapping[str, str] | None = None,
    title: str | None = None,
) -> list[Block]:
    """The players' situation manual: the project, the roles, the decisions, the rules.

    Each decision option carries its line of ``option_help`` (by default the model's own,
    :data:`~sim.scenario.vocabulary.OPTION_HELP`; ``{}`` for none). Nothing the facilitator
    keeps to themself (injects, expected actions, learning points) is here.
    """
    s = scenario
    help_ = OPTION_HELP if option_help is None else option_help
    team_names = {t.id: t.name or t.id for t in s.org.teams}
    out: list[Block] = [
        Heading(1, f"Situation manual: {title or s.name}"),
        Para(
            "You are the leadership of an LLM-training project. Injects (news from the "
            "project) arrive as the facilitator moves the clock. When a decision is raised, "
            "only the player holding the role with that decision right may make it, with a "
            "written rationale; everyone else may comment. The model plays the rest of the "
            "project forward with your decisions, and the after-action report prices each one "
            "against the same world."
        ),
        Heading(2, "The project"),
        *_objective_blocks(s),
        Heading(2, "Roles"),
        Table(
            ("role", "people", "decides", "owns the risks"),
            tuple(
                (
                    r.name + (" (core)" if r.core else ""),
                    str(r.headcount),
                    ", ".join(r.rights) or "—",
                    ", ".join(words(k) for k in r.risks) or "—",
                )
                for r in roles(s)
            ),
        ),
        Heading(2, "Decisions and their options"),
    ]
    for kind in DECISION_KINDS:
        agreed = s.levers.playbook.get(kind)  # type: ignore[call-overload]
        holder = s.org.decision_rights[kind]  # type: ignore[index]
        note = f"agreed order: {', '.join(agreed)}" if agreed else "no agreed order (ad hoc)"
        out.append(Heading(3, f"{kind}: decided by {team_names.get(holder, holder)}"))
        out.append(Para(f"Playbook: {note}.", quiet=True))
        out.append(
            Bullets(
                tuple(
                    option + (f": {help_[option]}" if help_.get(option) else "")
                    for option in DECISION_OPTIONS[kind]
                )
            )
        )
    out += [
        Heading(2, "Rules of play"),
        Bullets(
            (
                "Join with the room code and a display name, then claim a role.",
                "The facilitator moves the clock; it stops when a decision is waiting.",
                "Decide only for a role you hold, and say why in a sentence or two.",
                "Comment freely; comments are part of the record and the report.",
                "After the end: the hot wash, then the after-action report and improvement plan.",
            )
        ),
    ]
    return out


def situation_manual(
    scenario: Scenario,
    option_help: Mapping[str, str] | None = None,
    title: str | None = None,
    fmt: Format = "markdown",
) -> str:
    """The players' situation manual as Markdown or as a printable HTML page."""
    blocks = situation_manual_blocks(scenario, option_help, title)
    return _render(blocks, f"Situation manual: {title or scenario.name}", fmt)


def facilitator_guide(
    scenario: Scenario, injects: Sequence[InjectSpec], fmt: Format = "markdown"
) -> str:
    """The facilitator's MSEL: triggers, messages, expected actions, learning points."""
    out: list[Block] = [Heading(1, f"Facilitator guide: {scenario.name}")]
    if scenario.teaches:
        out.append(Para(scenario.teaches.strip()))
    out.append(Heading(2, "Master scenario events list"))
    for n, i in enumerate(injects, 1):
        effect = f"sets off {words(i.engine)}" if i.engine else "message only"
        raises = f"; raises a {i.decision_kind} decision" if i.decision_kind else ""
        out += [
            Heading(3, f"{n}. {i.title}"),
            Para(f"When: {i.trigger.describe()}; {effect}{raises}.", quiet=True),
            Para(f"Players read: {i.message}"),
        ]
        if i.expected_options:
            out.append(Para(f"Expected choice: {', '.join(i.expected_options)}"))
        out += [Para("Expected actions:"), Bullets(i.expected_actions)]
        out += [Para("Learning points:"), Bullets(i.learning_points)]
    return _render(out, f"Facilitator guide: {scenario.name}", fmt)
