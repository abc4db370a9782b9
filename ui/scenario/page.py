"""Scenario page: pick or upload a scenario, check it, and show what it asks for.

Everything shown comes from ``sim``: loading and validation (``sim.scenario.loading``), the
organisation graph (``sim.engine.org``) and the compute estimate (``sim.engine.compute``).
"""

from __future__ import annotations

import streamlit as st

from sim.engine.compute import estimate_for_scenario
from sim.engine.org import OrgGraph
from sim.glossary import PAGE_URL, term_help, term_link
from sim.scenario.spec import Scenario
from ui.common import pick_scenario, points, scientific, usd, words


def show_objective(scenario: Scenario) -> None:
    objective, budget = scenario.objective, scenario.objective.budget
    st.subheader("Objective")
    st.caption(f"Product use: {objective.product_use}")
    reserve = scenario.levers.reserve_fraction
    top = st.columns(3)
    top[0].metric("Deadline", f"{objective.deadline_days:g} days", border=True)
    top[1].metric("Total budget", usd(budget.total_usd), border=True)
    top[2].metric(
        "Held in reserve",
        usd(reserve * budget.total_usd),
        help=f"{reserve:.0%} of the total budget. " + term_help("reserve"),
        border=True,
    )
    categories = (
        ("Compute", budget.compute_usd),
        ("People", budget.people_usd),
        ("Data licensing", budget.data_licensing_usd),
        ("Annotation", budget.annotation_usd),
    )
    for column, (label, value) in zip(st.columns(len(categories)), categories, strict=True):
        column.metric(f"Budget: {label}", usd(value))

    st.markdown("**Capability targets**")
    kinds = {e.id: words(e.kind) for e in objective.evals}
    for column, target in zip(st.columns(len(objective.targets)), objective.targets, strict=True):
        column.metric(
            words(target.capability),
            f"≥ {points(target.threshold)}",
            help=f"Measured by {words(target.eval)}, a {kinds.get(target.eval, 'eval')}. "
            + term_help("points"),
        )


def show_org(scenario: Scenario) -> None:
    graph = OrgGraph(scenario)
    st.subheader("Organisation")
    st.graphviz_chart(graph.to_dot(), width="stretch")
    st.caption(
        "Orange: core co-design teams; blue: other teams. Solid blue arrows are handoffs, dashed "
        "green lines communication, dotted grey lines reporting; labels give the latency in days."
    )
    unowned = ", ".join(words(r) for r in graph.unowned_risks()) or "none"
    spof = ", ".join(words(t) for t in graph.single_points_of_failure()) or "none"
    st.markdown(f"**Unowned risks:** {unowned}  \n**Single points of failure:** {spof}")


def show_compute(scenario: Scenario) -> None:
    model, cluster = scenario.model, scenario.cluster
    st.subheader("The training run alone")
    st.caption(
        f"{model.params_b:g}B parameters on {model.tokens_b:,.0f}B tokens, "
        f"{cluster.gpus:,} × {cluster.gpu.upper()} at {cluster.mfu:.0%} "
        f"{term_link('mfu', 'MFU')}: compute only, before any people, incidents or decisions."
    )
    est = estimate_for_scenario(scenario)
    row1 = st.columns(4)
    row1[0].metric("Training compute", f"{scientific(est.flops)} FLOP")
    row1[1].metric("Ideal wall time", f"{est.ideal_days:,.1f} days")
    row1[2].metric(
        "Expected wall time",
        f"{est.expected_days:,.1f} days",
        help="With interruptions, restarts and checkpointing.",
    )
    row1[3].metric(
        "Effective training time",
        f"{est.effective_training_time:.1%}",
        help=term_help("effective-training-time"),
    )
    row2 = st.columns(4)
    row2[0].metric("Ideal GPU-hours", f"{est.ideal_gpu_hours:,.0f}")
    row2[1].metric("Expected GPU-hours", f"{est.expected_gpu_hours:,.0f}")
    row2[2].metric(
        "Compute cost",
        usd(est.cost_usd),
        help=f"Against a compute budget of {usd(scenario.objective.budget.compute_usd)}.",
    )
    row2[3].metric("Predicted loss", f"{est.predicted_loss:.3f}")


def render() -> None:
    st.title("Scenario")
    st.markdown(
        "A scenario describes one training project: its objective, the model and the cluster, "
        "the organisation, the plan, the incidents it risks and the "
        f"{term_link('lever', 'levers')} it starts with. Words in blue are defined on the "
        f"[Glossary](/{PAGE_URL}) page."
    )
    picked = pick_scenario()
    if picked is None:
        return
    scenario, source = picked
    st.success(f"{source} is valid.", icon=":material/check_circle:")
    st.header(scenario.name)
    if scenario.teaches:
        st.markdown(scenario.teaches)
    show_objective(scenario)
    show_org(scenario)
    show_compute(scenario)


if __name__ == "__main__":
    render()
