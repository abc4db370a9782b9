"""The lever registry: one entry per lever, read by every surface that shows or varies one.

A lever's *field* (its type, bounds and default) is the :class:`~sim.scenario.spec.Levers`
model's; what the engine does with it is the engine's. Everything else about it lives
here, once: its label and help in words, its unit, the widget and step the app shows, its
realistic range for sensitivity and optimize, the values a sweep suggests, and whether the
interview form asks for it (and starting where). The app's widgets, the sensitivity
ranges, the sweep catalog, the interview's plan and the summary table of docs/levers.md
derive from it; tests/test_registries.py fails when a lever is missing from any of them.

Adding a lever: its field on ``Levers``, its mechanic in the engine, its entry below.

The module is light (pydantic only, no numpy), so the command line's ``--help`` can read it.
"""

from __future__ import annotations

import typing
from dataclasses import dataclass
from typing import Any, Literal

from annotated_types import Ge, Gt, Le, Lt
from pydantic.fields import FieldInfo

from sim.scenario.spec import Levers

Widget = Literal["radio", "slider", "number", "checkbox"]


@dataclass(frozen=True)
class Lever:
    """How one lever is named, shown and varied (its bounds are the ``Levers`` field's)."""

    name: str
    label: str
    #: A sentence or two for a tooltip: what it is, and what it trades.
    help: str
    #: The summary line of docs/levers.md.
    line: str
    unit: str
    widget: Widget
    #: Sensitivity's low and high settings, and what that range means in words.
    low: Any
    high: Any
    why: str
    #: A sweep's suggested values, as typed in the sweep page.
    sweep: str
    step: float | None = None
    #: A ceiling for the app's widget where the field has none.
    widget_max: float | None = None
    #: The interview form asks for this lever, starting at this value (None: it does not).
    interview: Any = None
    #: Another lever this one acts through: while it is 0 (or off), this one cannot matter.
    needs: str | None = None
    #: It spends the budget: more of it leaves fewer dollars for the planned scope, never
    #: more (``sim audit`` reads planned tokens and rounds that grow with it as a reversal).
    spends: bool = False

    @property
    def path(self) -> str:
        return f"levers.{self.name}"

    @property
    def field(self) -> FieldInfo:
        return Levers.model_fields[self.name]

    @property
    def default(self) -> Any:
        return self.field.default

    @property
    def bounds(self) -> tuple[float | None, float | None]:
        """The field's lowest and highest allowed value (None where it has none)."""
        low = high = None
        for rule in self.field.metadata:
            if isinstance(rule, Ge | Gt):
                low = rule.ge if isinstance(rule, Ge) else rule.gt
            if isinstance(rule, Le | Lt):
                high = rule.le if isinstance(rule, Le) else rule.lt
        return low, high  # type: ignore[return-value]

    @property
    def options(self) -> tuple[Any, ...]:
        """The values of a choice lever (a ``Literal``); empty for any other."""
        annotation = self.field.annotation
        if typing.get_origin(annotation) is Literal:
            return typing.get_args(annotation)
        return ()

    @property
    def widget_args(self) -> dict[str, Any]:
        """The keyword arguments of the app's widget: options, or limits and step."""
        if self.widget == "radio":
            return {"options": self.options}
        if self.widget == "checkbox":
            return {}
        low, high = self.bounds
        top = self.widget_max if high is None else high
        cast = int if self.field.annotation is int else float
        args: dict[str, Any] = {"min_value": cast(low or 0), "max_value": cast(top or 0)}
        if self.step is not None:
            args["step"] = cast(self.step)
        return args


LEVERS: tuple[Lever, ...] = (
    Lever("strategy", "Strategy",
          "pretrain: train the model from scratch. adapt: continue from an open base model: "
          "cheaper and faster, capped where its size and corpus fall short.",
          "Train from scratch, or adapt `model.base_model`.", "", "radio",
          "pretrain", "adapt", "from scratch or from a base model", "pretrain, adapt"),
    Lever("reserve_fraction", "Budget reserve",
          "Share of the total budget held back for surprises.",
          "Share of the budget held back from the plan.", "share of the budget", "slider",
          0.0, 0.25, "no reserve to a quarter of the budget", "0, 0.1, 0.2", step=0.01,
          spends=True),
    Lever("ablation_fraction", "Ablation budget",
          "Compute for small experiments before the main run, as a share of the run: catches "
          "defects early and narrows the loss estimate.",
          "Ablation and scaling-law compute, as a share of the main run's.",
          "share of the run", "slider",
          0.0, 0.2, "no ablations to a fifth of the run", "0, 0.05, 0.15", step=0.01,
          interview=0.0, spends=True),
    Lever("checkpoint_minutes", "Checkpoint every (minutes)",
          "Too often wastes time writing checkpoints; too rarely loses work at every "
          "interruption.", "Training between checkpoints.", "minutes", "number",
          5.0, 180.0, "every 5 minutes to every 3 hours", "10, 30, 60, 120", step=5.0,
          interview=30.0),
    Lever("product_evals_early", "Product evals built early",
          "Build the product evals before training, so post-training aims at what the product "
          "needs.", "Build the product's evals before training, or at evaluation.", "",
          "checkbox", False, True, "built late or early", "true, false", interview=False),
    Lever("decontaminate", "Decontaminate benchmarks",
          "Remove benchmark items from the training data, so public scores stay honest.",
          "Remove public-benchmark items from the training data.", "", "checkbox",
          False, True, "off or on", "true, false", interview=False),
    Lever("eval_focus", "Eval focus",
          "balanced: tune for every eval. single: over-index on one public benchmark.",
          "Spread post-training effort, or chase one public benchmark.", "", "radio",
          "single", "balanced", "one eval or all of them", "balanced, single",
          interview="balanced"),
    Lever("safety_from_start", "Safety, legal and privacy from the start",
          "Involve them from day one rather than at release.",
          "Engage safety, legal and privacy from the start, or at release.", "", "checkbox",
          False, True, "late or from the start", "true, false", interview=False),
    Lever("engineering_embedded", "Engineering embedded with training",
          "Infrastructure engineers sit with the training team instead of in a silo.",
          "Infrastructure engineers sit with the training team, or apart.", "", "checkbox",
          False, True, "a silo or embedded", "true, false", interview=False),
    Lever("add_core_staff", "People added to the core",
          "People who join the core teams on a set day; they ramp up slowly.",
          "People joining the critical core team ...", "people", "number",
          0, 6, "nobody to six people added to the core", "0, 2, 4"),
    Lever("add_core_staff_day", "…on day", "The day those people join.",
          "... on this day.", "days", "number",
          30.0, 120.0, "when added people join", "30, 60, 90", step=5.0, widget_max=10_000.0,
          needs="levers.add_core_staff"),
    Lever("data_investment_usd", "Extra data work (USD)",
          "Extra spend on cleaning, filtering and deduplicating data.",
          "Extra spending on data filtering and curation.", "USD", "number",
          0.0, 500_000.0, "none to half a million dollars", "0, 250000, 500000",
          step=50_000.0, widget_max=1e10, interview=0.0, spends=True),
    Lever("parallel_variants", "Model variants in parallel",
          "Variants trained side by side split compute and attention.",
          "Model variants trained side by side.", "variants", "number",
          1, 3, "one model or three at once", "1, 2, 3"),
)  # fmt: skip

BY_NAME: dict[str, Lever] = {lever.name: lever for lever in LEVERS}
#: The interview form's levers, in the registry's order.
INTERVIEW_LEVERS: tuple[str, ...] = tuple(lv.name for lv in LEVERS if lv.interview is not None)
#: ``Levers`` fields that are not one value, so no widget, range or sweep applies.
STRUCTURED = ("playbook",)


def label(path: str) -> str:
    """A lever's label from its dotted path or name; any other path unchanged."""
    lever = BY_NAME.get(path.removeprefix("levers."))
    return lever.label if lever else path


def interview_fields() -> dict[str, Any]:
    """The interview plan's lever fields: the ``Levers`` type and bounds, the form's start."""
    out: dict[str, Any] = {}
    for name in INTERVIEW_LEVERS:
        lever = BY_NAME[name]
        field = FieldInfo.merge_field_infos(lever.field, default=lever.interview)
        out[name] = (lever.field.annotation, field)
    return out


def _range_text(lever: Lever) -> str:
    if lever.options:
        return " \\| ".join(f"`{o}`" for o in lever.options)
    if lever.field.annotation is bool:
        return "bool"
    low, high = lever.bounds
    unit = {"USD": " USD", "people": " people", "days": " days"}.get(lever.unit, "")
    if high is None:
        return f"≥ {low:g}{unit}"
    return f"{low:,g} – {high:,g}{unit}"


def _default_text(lever: Lever) -> str:
    value = lever.default
    if isinstance(value, bool):
        return f"`{str(value).lower()}`"
    if isinstance(value, str):
        return f"`{value}`"
    return f"{value:.2f}" if isinstance(value, float) and 0 < value < 1 else f"{value:g}"


def docs_rows() -> list[str]:
    """The summary table of docs/levers.md, one row per lever (tests keep the two equal)."""
    rows = []
    for lever in LEVERS:
        anchor = lever.name
        if lever.name.startswith("add_core_staff"):
            anchor = "add_core_staff-and-add_core_staff_day"
        rows.append(
            f"| [`{lever.name}`](#{anchor}) | {_range_text(lever)} | {_default_text(lever)} "
            f"| {lever.line} |"
        )
    return rows
