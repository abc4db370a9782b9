"""Interview page, Part 2: the plan builder, the org chart, and the design in the model.

Tabs hold the plan's parts (owners and early warnings; rights, team and roles; gates;
budget; levers and playbook; objective, strategy and trade-offs). Every tab is drawn on
every run, so no widget loses its value; the tabs' values become the new plan.
"""

from __future__ import annotations

from typing import Any

import streamlit as st

from sim.engine.org import OrgGraph
from sim.interview.plan import (
    CONSEQUENCES,
    PART_2,
    PART_2_TITLE,
    SECTIONS,
    BudgetPlan,
    GatePlan,
    InterviewPlan,
    LeverPlan,
    ObjectivePlan,
    RiskPlan,
    RolesPlan,
    TargetPlan,
    TradeOff,
    adapt_caps,
    effective_strategy,
    objectives_given,
    plan_json,
    plan_scenario,
    plan_world,
    strategy_fixed,
    world_plan,
)
from sim.interview.provenance import filled_sections
from sim.interview.risks import DESIGN_REPS
from sim.scenario.levers import INTERVIEW_LEVERS
from sim.scenario.spec import (
    DECISION_KINDS,
    DECISION_OPTIONS,
    DEFECT_KINDS,
    PHASES,
    RISK_KINDS,
    Scenario,
)
from sim.scenario.vocabulary import DECISION_TITLES
from ui.common import (
    LEVER_WIDGETS,
    NOBODY,
    lever_input,
    usd,
    words,
)
from ui.interview.common import (
    OUTCOME,
    plan_digest,
    plan_now,
    replace_plan,
    run_outcome,
    show_outcome,
    wkey,
)

NOT_NAMED = "(not named)"
AD_HOC = "(ad hoc)"
GATE_PHASES = tuple(p for p in PHASES if p not in ("training", "release"))
DEFECTS = DEFECT_KINDS
#: The levers tab's levers: the registry's interview levers but ablations (the budget tab's).
PLAN_LEVERS = tuple(name for name in INTERVIEW_LEVERS if name != "ablation_fraction")


def fill_from_world() -> None:
    plan = plan_now()
    replace_plan(
        world_plan(plan),
        "Filled owners, decision rights, gates, reserve and playbook from the scenario's own "
        "plan. They are the scenario's, not yours, and earn nothing until you change them or "
        "keep them with a reason (the box under each part). Early warnings, the budget, roles "
        "and trade-offs are still open.",
    )


def confirm_box(plan: InterviewPlan, section: str) -> dict[str, str]:
    """A reason to keep what the org-chart button filled, where it filled something."""
    if section not in plan.scenario_filled:
        return {}
    left = [s for s in filled_sections(plan) if s == section]
    st.caption(
        f":material/account_tree: {SECTIONS[section].capitalize()}: filled from the "
        "scenario's org chart. " + ("Unchanged values earn nothing until you keep them with a "
                                    "reason." if left else "Kept, with your reason.")
    )  # fmt: skip
    old = {str(k): v for k, v in plan.confirmed.items()}.get(section, "")
    reason = st.text_input(
        f"Keep the scenario's {SECTIONS[section]}? Why", value=old,
        key=wkey(f"confirm_{section}"), placeholder="why this is right for your project",
    )  # fmt: skip
    return {section: reason} if reason.strip() else {}


def risks_tab(plan: InterviewPlan, teams: list[str]) -> dict[str, RiskPlan]:
    st.caption("One owning team per risk, and the earliest, cheapest signal it watches.")
    out = {}
    mapped: dict[str, list[str]] = {}
    for c in plan.challenges:
        if c.risk:
            mapped.setdefault(c.risk, []).append(c.title)
    owners = [NOBODY, *teams]
    for risk in RISK_KINDS:
        name, owner_col, warn_col = st.columns([1.3, 1.6, 3])
        name.markdown(f"**{words(risk)}**")
        if risk in mapped:
            name.caption("Part 1: " + "; ".join(mapped[risk]))
        owner = plan.owner(risk)
        picked = owner_col.selectbox(
            "Owner", owners, index=owners.index(owner) if owner in owners else 0,
            key=wkey(f"owner_{risk}"), label_visibility="collapsed",
        )  # fmt: skip
        warning = warn_col.text_input(
            "Early warning", value=plan.early_warning(risk), key=wkey(f"warn_{risk}"),
            label_visibility="collapsed", placeholder="the earliest cheap signal it watches",
        )  # fmt: skip
        out[risk] = RiskPlan(owner=None if picked == NOBODY else picked, early_warning=warning)
    return out


def rights_tab(plan: InterviewPlan, world: Scenario) -> tuple[dict[str, str], RolesPlan, dict]:
    teams = world.team_ids
    st.markdown("**Who decides what while the run is going** (`org.decision_rights`)")
    rights = {}
    options = [NOT_NAMED, *teams]
    for kind in DECISION_KINDS:
        title_col, pick_col = st.columns([3, 2], vertical_alignment="center")
        title_col.markdown(f"`{kind}`: {DECISION_TITLES[kind]}")
        holder = plan.right(kind)
        picked = pick_col.selectbox(
            kind, options, index=options.index(holder) if holder in options else 0,
            key=wkey(f"right_{kind}"), label_visibility="collapsed",
        )  # fmt: skip
        if picked != NOT_NAMED:
            rights[kind] = picked
    sizes = {}
    box = st.expander("Headcount, if you would change it (★ core co-design teams)")
    grid = box.columns(4)
    core = set(world.co_design_team_ids)
    for i, team in enumerate(world.org.teams):
        tp = plan.teams.get(team.id)
        current = tp.headcount if tp and tp.headcount else team.headcount
        n = grid[i % 4].number_input(
            f"{'★ ' if team.id in core else ''}{team.name or team.id}", 1, 10_000, current,
            key=wkey(f"size_{team.id}"),
        )  # fmt: skip
        if n != team.headcount or (tp and tp.core is not None):
            sizes[team.id] = {"headcount": int(n), "core": tp.core if tp else None}
    st.markdown("**Roles: who owns what**")
    roles = {}
    cells = st.columns(2)
    for i, (field, label) in enumerate(
        (("product_manager", "Product manager (you)"), ("research", "Research"),
         ("engineering", "Engineering"), ("program_management", "Program management"))
    ):  # fmt: skip
        roles[field] = cells[i % 2].text_area(
            label, value=str(getattr(plan.roles, field)), key=wkey(f"role_{field}"), height=80
        )
    return rights, RolesPlan(**roles), sizes


def gates_tab(plan: InterviewPlan) -> tuple[list[GatePlan], float]:
    st.caption(
        "A gate looks for defects at the end of a phase. Gates before the main run, backed by "
        "small experiments, catch problems while they are cheap to fix."
    )
    ablation = st.slider(
        "Compute for ablations and scaling-law runs (share of the main run) · `ablation_fraction`",
        0.0, 0.5, float(plan.levers.ablation_fraction), 0.01, key=wkey("ablation"),
    )  # fmt: skip
    gates = []
    for phase in GATE_PHASES:
        old = next((g for g in plan.gates if g.after == phase), None)
        with st.container(border=True):
            on = st.toggle(f"A gate after **{words(phase)}**", bool(old), key=wkey(f"gate_{phase}"))
            if not on:
                continue
            catches = st.multiselect(
                "Looks for", DEFECTS, default=list(old.catches) if old else ["data_quality"],
                key=wkey(f"catch_{phase}"), format_func=words,
            )  # fmt: skip
            mid, right = st.columns([3, 1.2])
            experiment = mid.text_input(
                "The cheap experiment or review behind it", value=old.experiment if old else "",
                key=wkey(f"exp_{phase}"), placeholder="e.g. 1B proxy runs on the full mix",
            )  # fmt: skip
            strength = right.slider(
                "How thorough", 0.1, 1.0, float(old.strength if old else 0.6), 0.05,
                key=wkey(f"strength_{phase}"),
                help="The chance it catches a defect it looks for.",
            )  # fmt: skip
            if catches:
                gates.append(
                    GatePlan(
                        id=old.id if old else f"{phase}_gate",
                        after=phase,  # type: ignore[arg-type]
                        catches=catches,
                        experiment=experiment,
                        strength=strength,
                    )
                )
    return gates, ablation


def budget_tab(plan: InterviewPlan, world: Scenario) -> BudgetPlan:
    b, m, c = world.objective.budget, world.model, world.cluster
    st.markdown(
        f"The company's budget: **{usd(b.total_usd)}** (compute {usd(b.compute_usd)}, people "
        f"{usd(b.people_usd)}, data licensing {usd(b.data_licensing_usd)}, annotation "
        f"{usd(b.annotation_usd)}). Your estimate below is judged against the model's."
    )
    adapt = (
        f" (a {m.base_model.params_b:g}B base model and {m.adapt_tokens_b:g}B tokens if you adapt)"
        if m.base_model
        else ""
    )
    price = f"${c.usd_per_gpu_hour:g} per GPU-hour" if c.usd_per_gpu_hour else "list price"
    st.caption(
        f"For the compute estimate: {m.params_b:g}B parameters, {m.tokens_b:,.0f}B tokens{adapt}; "
        f"{c.gpus:,} {c.gpu.upper()} GPUs at {c.mfu:.0%} MFU, {price}; "
        f"{m.post_training_rounds} post-training rounds."
    )
    cells = st.columns(4)
    values = {}
    for i, (field, label) in enumerate(
        (("compute_usd", "Compute"), ("people_usd", "People"),
         ("data_licensing_usd", "Data licensing"), ("annotation_usd", "Annotation"))
    ):  # fmt: skip
        values[field] = cells[i].number_input(
            f"{label} (USD)", 0.0, 1e11, float(getattr(plan.budget, field)), 10_000.0,
            key=wkey(f"budget_{field}"), format="%.0f",
        )  # fmt: skip
    left, right = st.columns([1, 2])
    reserve = left.slider(
        "Reserve · `reserve_fraction`", 0.0, 0.5, float(plan.budget.reserve_fraction), 0.01,
        key=wkey("reserve"), help="Share of the budget held back for surprises.",
    )  # fmt: skip
    tracking = right.text_input(
        "How spend is tracked, and by whom", value=plan.budget.tracking, key=wkey("tracking"),
        placeholder="e.g. weekly burn against forecast, by category, owned by the TPM",
    )  # fmt: skip
    return BudgetPlan(reserve_fraction=reserve, tracking=tracking, **values)


def levers_tab(plan: InterviewPlan, ablation: float) -> LeverPlan:
    specs = {s.name: s for s in LEVER_WIDGETS}
    values: dict[str, Any] = {}
    cells = st.columns(2)
    for i, name in enumerate(PLAN_LEVERS):
        with cells[i % 2]:
            values[name] = lever_input(specs[name], getattr(plan.levers, name), wkey(f"lev_{name}"))
    st.markdown("**Playbook: responses agreed before anything slips**")
    st.caption(
        "In order of preference: the first choice, then what to do when it is not on offer. "
        "A kind of decision with agreed responses reaches its owner faster, with no "
        "deliberation; without them, whoever holds the right decides ad hoc."
    )
    playbook = {}
    for kind in DECISION_KINDS:
        chosen = ranked_responses(plan, kind)
        if chosen:
            playbook[kind] = chosen
    return LeverPlan(ablation_fraction=ablation, playbook=playbook, **values)  # type: ignore[arg-type]


#: Ranks the playbook asks for: the first choice and fall-backs (two for a budget cut,
#: which has five levers; one elsewhere).
RANKS = ("1st", "then", "then")
RANKS_FOR = {"budget": 3}
#: Two trade-offs can cover quality, time and cost between them.
TRADEOFF_ROWS = 2


def ranked_responses(plan: InterviewPlan, kind: str) -> list[str]:
    """One row per decision kind: a choice per rank, in order, so the order is the plan's."""
    options = list(DECISION_OPTIONS[kind])
    current = plan.responses(kind)
    label, *cells = st.columns([1.0, 2.8, 2.8, 2.8], vertical_alignment="center")
    label.markdown(f"**{words(kind)}**", help=DECISION_TITLES[kind])
    chosen: list[str] = []
    ranks = min(len(options), max(RANKS_FOR.get(kind, 2), len(current)))
    cells = [*cells, *(st.columns([1.0, 2.8, 2.8, 2.8])[1:] if ranks > len(cells) else [])]
    for rank, cell in enumerate(cells[:ranks]):
        choices = [AD_HOC, *options]
        value = current[rank] if rank < len(current) else AD_HOC
        pick = cell.selectbox(
            RANKS[min(rank, len(RANKS) - 1)], choices,
            index=choices.index(value) if value in choices else 0,
            key=wkey(f"pb_{kind}_{rank}"), format_func=lambda o: "—" if o == AD_HOC else words(o),
            label_visibility="visible" if kind == DECISION_KINDS[0] else "collapsed",
        )  # fmt: skip
        if pick != AD_HOC and pick not in chosen:
            chosen.append(pick)
    return chosen


def objective_tab(plan: InterviewPlan, world: Scenario) -> dict[str, Any]:
    use = st.text_input(
        "The objective in one line: the product use", value=plan.objective.product_use,
        key=wkey("product_use"), placeholder=f"e.g. {world.objective.product_use}",
    )  # fmt: skip
    targets = [TargetPlan(**t.model_dump()) for t in world.objective.targets]
    if objectives_given(plan):
        given = "; ".join(
            f"{words(t.capability)} by `{t.eval}` ≥ {t.threshold:.2f}" for t in targets
        )
        st.caption(f"The targets are set (your clarifying answer): {given}")
    else:
        mine = {t.eval: t for t in plan.objective.targets}
        chosen = []
        for t in targets:
            value = mine[t.eval].threshold if t.eval in mine else t.threshold
            threshold = st.slider(
                f"{words(t.capability)} measured by `{t.eval}`", 0.3, 0.95, float(value), 0.01,
                key=wkey(f"target_{t.eval}"),
            )  # fmt: skip
            chosen.append(t.model_copy(update={"threshold": threshold}))
        targets = chosen
    st.markdown("**Build or adapt?**")
    left, right = st.columns([1, 3])
    options = ["pretrain", "adapt"]
    strategy = left.radio(
        "Strategy · `strategy`", options, index=options.index(plan.strategy),
        key=wkey("strategy"), disabled=strategy_fixed(plan),
        help="Fixed by your clarifying answer." if strategy_fixed(plan) else None,
    )  # fmt: skip
    reason = right.text_area(
        "Why (is pretraining from scratch needed?)", value=plan.strategy_reason,
        key=wkey("strategy_reason"), height=80,
    )  # fmt: skip
    st.markdown("**Trade-offs among quality, time and cost**")
    tradeoffs = []
    dims = ["—", *CONSEQUENCES]
    for k in range(TRADEOFF_ROWS):
        old = plan.tradeoffs[k] if k < len(plan.tradeoffs) else None
        a, b, text_col = st.columns([1.4, 1.4, 4])
        protect = a.selectbox("Protect", dims, index=dims.index(old.protect) if old else 0,
                              key=wkey(f"to_protect_{k}"))  # fmt: skip
        give = b.selectbox("Give up", dims, index=dims.index(old.give_up) if old else 0,
                           key=wkey(f"to_give_{k}"))  # fmt: skip
        text = text_col.text_input("Where the line is", value=old.text if old else "",
                                   key=wkey(f"to_text_{k}"))  # fmt: skip
        if protect != "—" and give != "—":
            tradeoffs.append(TradeOff(protect=protect, give_up=give, text=text))  # type: ignore[arg-type]
    return {
        "objective": ObjectivePlan(product_use=use, targets=targets),
        "strategy": strategy,
        "strategy_reason": reason,
        "tradeoffs": tradeoffs,
    }


def render_part2(plan: InterviewPlan) -> InterviewPlan:
    st.markdown(f"#### {PART_2_TITLE}")
    st.markdown(PART_2)
    world = plan_world(plan)
    st.button(
        "Start from the scenario's own org chart",
        key="iv_fill",
        on_click=fill_from_world,
        icon=":material/account_tree:",
        help="Fills owners, decision rights, gates, reserve and playbook; the rest stays yours.",
    )
    left, right = st.columns([5, 2], gap="large")
    with left:
        tabs = st.tabs(
            ["Owners", "Rights and roles", "Gates", "Budget", "Levers", "Objective"],
            key="iv_plan_tabs",
        )
        confirmed: dict[str, str] = {}
        with tabs[0]:
            risks = risks_tab(plan, world.team_ids)
            confirmed |= confirm_box(plan, "owners")
        with tabs[1]:
            rights, roles, sizes = rights_tab(plan, world)
            confirmed |= confirm_box(plan, "rights")
        with tabs[2]:
            gates, ablation = gates_tab(plan)
            confirmed |= confirm_box(plan, "gates") | confirm_box(plan, "ablation")
        with tabs[3]:
            budget = budget_tab(plan, world)
            confirmed |= confirm_box(plan, "reserve")
        with tabs[4]:
            levers = levers_tab(plan, ablation)
            confirmed |= confirm_box(plan, "playbook") | confirm_box(plan, "levers")
        with tabs[5]:
            rest = objective_tab(plan, world)
    new = plan.model_copy(
        update={
            "risks": risks,
            "decision_rights": rights,
            "roles": roles,
            "teams": sizes,
            "gates": gates,
            "budget": budget,
            "levers": levers,
            "confirmed": confirmed,
            **rest,
        }
    )
    new = InterviewPlan.model_validate(new.model_dump())
    with right:
        show_glance(new)
    show_org(new)
    show_design_run(new)
    return new


def show_glance(plan: InterviewPlan) -> None:
    """The plan's shape at a glance, in counts the candidate can check against the question."""
    owned = [r for r in RISK_KINDS if plan.owner(r)]
    warned = [r for r in owned if plan.early_warning(r).strip()]
    rights = [k for k in DECISION_KINDS if plan.right(k)]
    pre_run = [g.id for g in plan.gates if g.after in ("prepare", "ablations")]
    agreed = [k for k in DECISION_KINDS if plan.responses(k)]
    n, k = len(RISK_KINDS), len(DECISION_KINDS)
    with st.container(border=True):
        st.markdown("**Your plan at a glance**")
        st.markdown(
            f"- risks with an owner: **{len(owned)} of {n}**; with an early warning: "
            f"**{len(warned)}**\n"
            f"- decision rights named: **{len(rights)} of {k}**\n"
            f"- gates before the main run: **{len(pre_run)}**; ablations "
            f"**{plan.levers.ablation_fraction:.0%}** of the run's compute\n"
            f"- reserve: **{plan.budget.reserve_fraction:.0%}**; compute estimate "
            f"**{usd(plan.budget.compute_usd)}**\n"
            f"- responses agreed in advance for: **{', '.join(agreed) or 'nothing yet'}**\n"
            f"- strategy: **{effective_strategy(plan)}**"
        )
        for cap, value, bar in adapt_caps(plan):
            if effective_strategy(plan) == "adapt":
                st.warning(
                    f"Adapting caps {words(cap)} at {value:.2f}, below its {bar:.2f} target.",
                    icon=":material/warning:",
                )


def show_org(plan: InterviewPlan) -> None:
    design = plan_scenario(plan)
    org = OrgGraph(design)
    st.markdown("**Your organisation**")
    st.graphviz_chart(org.to_dot(), width="stretch")
    unowned = org.unowned_risks()
    st.caption(
        "Each box says what a team owns and decides; orange boxes are the core co-design "
        "teams; the red note lists risks nobody owns. Blue arrows are handoffs, green dashes "
        "communication, grey dots reporting; labels are latencies in days. "
        + (f"**{len(unowned)} of {len(RISK_KINDS)} risks unowned.**" if unowned else "")
    )


def show_design_run(plan: InterviewPlan) -> None:
    st.markdown("#### Your design in the model")
    digest = plan_digest(plan)
    stored = st.session_state.get(OUTCOME)
    fresh = stored is not None and stored[0] == digest
    label = "Run my design again" if stored and not fresh else "Run my design"
    if st.button(
        f"{label} beside the references ({DESIGN_REPS} worlds each)",
        key="iv_run_design",
        type="primary",
        icon=":material/play_arrow:",
    ):
        run_outcome(plan)
        fresh = True
    elif stored and not fresh:
        st.caption("Your plan changed since the last run; run it again to update the numbers.")
    if st.session_state.get(OUTCOME):
        show_outcome(plan, st.session_state[OUTCOME][1])
    st.download_button(
        "Save the plan so far (PLAN.json)", plan_json(plan), file_name="PLAN.json",
        mime="application/json", key="iv_save_plan", on_click="ignore",
        icon=":material/download:",
        help="Load it on the first step to carry on, or judge it with `python -m sim rubric`.",
    )  # fmt: skip
