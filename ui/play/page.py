"""Play page: run an LLM-training project decision by decision, then read the debrief.

The stage follows from what ``st.session_state`` holds, under keys no widget owns
so that no rerun loses a game: no game yet → pick a scenario and set it up; a game
under way → the decision card; a finished game → the outcome and the debrief. The
game moves only in button callbacks, through ``sim.play.game.Game``; every number shown
comes from ``sim``; the figures are built in ``ui.play.charts``.
"""

from __future__ import annotations

import hashlib
import logging
from typing import Any

import pandas as pd
import streamlit as st

from sim.engine.compute import estimate_for_scenario
from sim.engine.decisions import first_available
from sim.engine.org import OrgGraph
from sim.format import count
from sim.glossary import term_help, term_link
from sim.metrics import OBJECTIVES
from sim.play.debrief import Debrief, DecisionReview, make_debrief
from sim.play.game import Game, PlayError, PlayLog
from sim.play.lessons.check import NEIGHBOUR_WORLDS
from sim.play.unavailable import pending_note
from sim.play.views import (
    loss_frame,
    phase_frame,
    quality_frame,
    snapshot,
    spend_frame,
    trace_frame,
)
from sim.runner import default_workers, run_replications
from sim.scenario.loading import ScenarioError, with_overrides
from sim.scenario.spec import PHASES, Scenario
from sim.scenario.vocabulary import (
    DECISION_TITLES,
    OPTION_HELP,
    option_words,
)
from sim.summary import summarize_runs
from ui.common import (
    pick_scenario,
    points,
    points_signed,
    setup_overrides,
    usd,
    words,
)
from ui.play import charts
from ui.play.lessons import show_lessons

logger = logging.getLogger(__name__)

#: The interview's loss-spike follow-up; selected first when it ships.
LOSS_SPIKE_SCENARIO = "followup_loss_spike.yaml"
#: Replications behind the set-up's "played by the playbook" preview.
PREVIEW_REPS = 30
MAX_PLAY_BYTES = 4 << 20
RECENT_EVENTS = 12

# Session-state keys no widget owns. MINE: indices of the decisions the person made here
# (None for a loaded play, where the file does not say who chose).
GAME, DEBRIEF, SOURCE, NOTICE, SINCE, MINE, LOAD_ERROR = (
    "play_game",
    "play_debrief",
    "play_source",
    "play_notice",
    "play_since",
    "play_mine",
    "play_load_error",
)
STATE_KEYS = (GAME, DEBRIEF, SOURCE, NOTICE, SINCE, MINE, LOAD_ERROR)
# Widget keys.
UPLOAD, STOP_AT, SEED = "play_log_upload", "play_stop_at", "play_seed"
PICK = "play_scenario"  # prefix of the scenario picker's widget keys
SETUP = "play_set_"  # prefix of the set-up widgets' keys
NEXT_DECISION, NEXT_PHASE = "the next decision", "the next phase change"
STAGES = ("Pick a scenario", "Set up levers and team", "Play", "Outcome and debrief")


# --- moving the game (button callbacks) ---


def _run_on(game: Game, until: str) -> None:
    """Advance to the next decision, the next phase change, or the end (playbook answers)."""
    st.session_state[SINCE] = game.day
    if until == "end":
        game.play_to_end("playbook")
    else:
        game.advance(stop_at_phase_change=until == "phase")


def start_game(scenario: Scenario, seed: int, source: str) -> None:
    new_play()
    game = Game(scenario, int(seed))
    st.session_state.update({GAME: game, SOURCE: source, MINE: []})
    st.session_state[NOTICE] = "The project has started; it ran until a decision needed you."
    _run_on(game, "decision")


def decide(key: str, option: str) -> None:
    game: Game | None = st.session_state.get(GAME)
    if game is None or game.pending is None or game.pending.key != key:
        return  # a stale click: a double click, or a decision already made
    point = game.pending
    game.decide(option)
    mine = st.session_state.get(MINE)
    if mine is not None:
        mine.append(point.index)
    st.session_state[NOTICE] = f"You chose **{option_words(option)}** on day {point.day:.0f}."
    stop_at = st.session_state.get(STOP_AT, NEXT_DECISION)
    _run_on(game, "phase" if stop_at == NEXT_PHASE else "decision")


def step(until: str) -> None:
    game: Game | None = st.session_state.get(GAME)
    if game is None or game.finished:
        return
    st.session_state[NOTICE] = (
        "The scenario's playbook answered the remaining decisions (ad hoc where it has no entry)."
        if until == "end"
        else None
    )
    _run_on(game, until)


def new_play() -> None:
    for key in STATE_KEYS:
        st.session_state.pop(key, None)


def load_play() -> None:
    """Replay an uploaded play file; any problem becomes a message, never an exception."""
    upload = st.session_state.get(UPLOAD)
    st.session_state.pop(LOAD_ERROR, None)
    if upload is None:
        return
    name = upload.name
    try:
        raw = upload.getvalue()
        if len(raw) > MAX_PLAY_BYTES:
            raise PlayError(f"{name}: file is larger than {MAX_PLAY_BYTES >> 20} MiB")
        log = PlayLog.from_json(raw.decode("utf-8"), name)
        game = Game.from_log(log)
        game.advance()  # logged decisions replay; the first unlogged one waits for the person
    except UnicodeDecodeError:
        st.session_state[LOAD_ERROR] = f"{name}: file is not UTF-8 text"
        return
    except PlayError as exc:
        message = str(exc)
        st.session_state[LOAD_ERROR] = message if message.startswith(name) else f"{name}: {message}"
        return
    except Exception as exc:  # a shared file is untrusted input: report it, never crash
        logger.warning("cannot replay %s", name, exc_info=True)
        st.session_state[LOAD_ERROR] = f"{name}: cannot replay this play: {exc}"
        return
    new_play()
    st.session_state.update({GAME: game, SOURCE: name, SINCE: 0.0, MINE: None})
    n = len(game.model.recording.decisions)
    st.session_state[NOTICE] = f"Loaded {name} and replayed its {n} decisions exactly." + (
        f" {older}" if (older := log.version_notice()) else ""
    )


# --- stages 1 and 2: pick a scenario and set it up ---


@st.cache_data(show_spinner=False, max_entries=64)
def preview(key: str, _scenario: Scenario) -> dict[str, Any]:
    """The scenario played by its playbook in PREVIEW_REPS worlds (``key``: its digest)."""
    return summarize_runs(run_replications(_scenario, PREVIEW_REPS, seed=0), _scenario, 0)


def digest(scenario: Scenario) -> str:
    return hashlib.sha256(scenario.model_dump_json().encode()).hexdigest()[:16]


def stage_bar(*current: int) -> None:
    parts = [
        f"**:blue[{i + 1}. {name}]**" if i in current else f":gray[{i + 1}. {name}]"
        for i, name in enumerate(STAGES)
    ]
    st.markdown("  →  ".join(parts))


def show_load_play() -> None:
    error = st.session_state.get(LOAD_ERROR)
    if error:
        st.error(error.replace("\n", "  \n"), icon=":material/error:")  # one problem a line
    with st.expander("Have a saved play? Load it and replay it exactly", expanded=bool(error)):
        st.file_uploader("Play file (JSON)", type=["json"], key=UPLOAD, on_change=load_play)
        st.caption(
            "A play file holds the scenario, the seed and every decision, so it replays to the "
            "same outcome. A play saved part-way continues from its first open decision."
        )


def show_scenario(scenario: Scenario) -> None:
    objective, budget = scenario.objective, scenario.objective.budget
    st.markdown(f"#### {scenario.name}")
    if scenario.teaches:
        st.markdown(scenario.teaches)
    kinds = {e.id: words(e.kind) for e in objective.evals}
    row = st.columns([1, 1, 1, 3])
    row[0].metric("Deadline", f"{objective.deadline_days:g} days")
    row[1].metric("Budget", usd(budget.total_usd))
    reserve = scenario.levers.reserve_fraction * budget.total_usd
    row[2].metric("Reserve", usd(reserve), help=term_help("reserve"))
    targets = "\n".join(
        f"- {words(t.capability)}: {words(t.eval)} at least {points(t.threshold)} "
        f"({kinds.get(t.eval, 'eval')})"
        for t in objective.targets
    )
    row[3].markdown(
        f"**For:** {objective.product_use}. **Targets** (quality in "
        f"{term_link('points', 'points out of 100')}):\n{targets}"
    )
    st.graphviz_chart(OrgGraph(scenario).to_dot(), width="stretch")
    st.caption(
        "The organisation: each box says what a team owns and what it decides. Blue arrows are "
        "handoffs, green dashes communication, grey dots reporting; labels are latencies in days."
    )


def _change(value: float, unit: str = "", scale: float = 1.0) -> str:
    """A signed change with an ASCII minus (``st.metric`` reads only that one as negative)."""
    if abs(value * scale) < 0.05:
        return "–"
    if unit == "$":
        return ("+" if value > 0 else "-") + usd(abs(value))
    return f"{value * scale:+.1f}{unit}"


def _against(value: float, text: str, within: float) -> dict[str, Any]:
    """``st.metric`` options for a figure against a limit where more is worse (days, cost).

    Over the limit: red, arrow up; under it: green, arrow down; at it (within ``within``):
    grey, no arrow.
    """
    if abs(value) < within:
        return {"delta": f"at the {text.split()[-1]}", "delta_color": "off", "delta_arrow": "off"}
    return {"delta": text, "delta_color": "inverse"}


def show_estimate(scenario: Scenario, planned: Scenario) -> None:
    """The run's compute estimate and the project played by the playbook, against the file's."""
    try:
        est, base = estimate_for_scenario(planned), estimate_for_scenario(scenario)
    except ValueError as exc:
        st.warning(f"No estimate for this set-up: {exc}")
        return
    with st.spinner(f"Playing the set-up in {PREVIEW_REPS} worlds…"):
        now, was = preview(digest(planned), planned), preview(digest(scenario), scenario)
    s, c = now["schedule_days"], now["cost_usd"]
    rows = [
        ("**Training run** (compute only)", "", ""),
        (
            "wall time",
            f"{est.expected_days:,.1f} days",
            _change(est.expected_days - base.expected_days, " d"),
        ),
        ("compute cost", usd(est.cost_usd), _change(est.cost_usd - base.cost_usd, "$")),
        (
            "effective training time",
            f"{est.effective_training_time:.1%}",
            _change(est.effective_training_time - base.effective_training_time, " pp", 100),
        ),
        (f"**Project** (playbook, {PREVIEW_REPS} worlds)", "", ""),
        (
            "finish, median",
            f"day {s['p50']:.0f}",
            _change(s["p50"] - was["schedule_days"]["p50"], " d"),
        ),
        ("finish, P10–P90", f"day {s['p10']:.0f}–{s['p90']:.0f}", ""),
        ("cost, median", usd(c["p50"]), _change(c["p50"] - was["cost_usd"]["p50"], "$")),
    ] + [
        (label, f"{now[key]:.0%}", _change(now[key] - was[key], " pp", 100))
        for label, key in (
            ("on time", "p_on_time"),
            ("on budget", "p_on_budget"),
            ("quality targets met", "p_quality_met"),
            ("**all objectives met**", "p_success"),
        )
    ]
    table = "\n".join(f"| {a} | {b} | {c} |" for a, b, c in rows)
    st.markdown(f"| Estimate | now | Δ |\n|:--|--:|--:|\n{table}")
    st.caption(
        f"Deadline day {planned.objective.deadline_days:g}, budget "
        f"{usd(planned.objective.budget.total_usd)}. Δ: against the scenario file's own set-up; "
        "change a lever and watch it move."
    )


def render_setup() -> None:
    st.info(
        "**How to play.** Pick a scenario, change the levers and the team if you like (the "
        "estimate beside them updates as you go), then press **Start the project**. It runs "
        "until a decision needs you; the decision card shows what a person in that seat would "
        f"see. At the end, the debrief replays {term_link('world', 'the same world')} with "
        "every other option, so you see what each of your decisions cost, and states the "
        f"lessons whose {term_link('counterfactual')} moved this play beyond noise.",
        icon=":material/sports_esports:",
    )
    show_load_play()
    st.subheader("1. Pick a scenario")
    picked = pick_scenario(PICK, prefer=LOSS_SPIKE_SCENARIO)
    if picked is None:
        return
    scenario, source = picked
    show_scenario(scenario)
    st.subheader("2. Set up the levers and the team, then start")
    left, right = st.columns([3, 2], gap="large")
    with left:
        overrides = setup_overrides(scenario, f"{SETUP}{digest(scenario)}_")
    with right, st.container(border=True):
        planned: Scenario | None = scenario
        if overrides:
            try:
                planned = with_overrides(scenario, overrides)
            except ScenarioError as error:
                planned = None
                for problem in error.problems:
                    st.error(str(problem), icon=":material/error:")
        if planned is not None:
            show_estimate(scenario, planned)
        seed = st.number_input(
            "World (seed)",
            0,
            2**31 - 1,
            1,
            key=SEED,
            help="The same seed is the same world: incidents strike at the same moments, so "
            "two plays of one seed differ only by their decisions. " + term_help("world"),
        )
        st.button(
            "Start the project",
            type="primary",
            icon=":material/play_arrow:",
            key="play_start",
            on_click=start_game,
            args=(planned, seed, source),
            disabled=planned is None,
            width="stretch",
        )


# --- stage 3: play ---


def show_status(view: dict[str, Any]) -> None:
    run = view["run"]
    phases = [
        f"**:blue[{words(p)}]**" if p == view["phase"] else f":gray[{words(p)}]" for p in PHASES
    ]
    st.markdown("Phase: " + " → ".join(phases))
    row = st.columns([1.2, 0.9, 1, 1, 1.5])
    row[0].metric("Day", f"{view['day']:.0f} / {view['deadline_days']:g}")
    row[1].metric("Days left", f"{view['days_left']:.0f}")
    row[2].metric("Spent", usd(view["spent_usd"]), help=f"of a {usd(view['budget_usd'])} budget")
    row[3].metric("Reserve left", usd(view["reserve_left_usd"]))
    row[4].metric(
        "Effective training time",
        f"{run['effective_training_time']:.1%}" if run else "–",
        help="Share of the run's wall time spent training, not restarting or redoing lost work.",
    )
    if run:
        st.progress(
            run["progress"],
            text=f"{run['label']}: {run['tokens_b']:,.0f}B of {run['target_b']:,.0f}B tokens · "
            f"{count(run['interruptions'], 'interruption')} · {count(run['spikes'], 'loss spike')}",
        )


def show_decision(game: Game) -> None:
    point = game.pending
    assert point is not None
    playbook = game.scenario.levers.playbook
    path = game.model.org.signal_path(point.detected_by, point.owner)
    how = [" → ".join(path.teams) if path.hops else "no hand-off"]
    if point.kind not in playbook:
        how.append("deliberation: no playbook entry for this kind")
    suggestion = first_available(playbook.get(point.kind, ()), point.options)  # type: ignore[call-overload]
    with st.container(border=True):
        title = DECISION_TITLES.get(point.kind, words(point.kind))
        st.markdown(f"### :material/front_hand: Decision {point.index + 1}: {title}")
        st.markdown(
            f"**{point.summary}.**  \n**You decide as "
            f"{words(point.owner)}**, the team holding the {words(point.kind)} "
            f"{term_link('decision-right')}. {point.detected_by.capitalize()} spotted it; "
            "escalation took "
            f"**{point.latency_days:.2f} days** ({'; '.join(how)})."
        )
        for option in point.options:
            button, text = st.columns([1, 2], vertical_alignment="center")
            button.button(
                option_words(option),
                key=f"play_decide_{point.key}_{option}",
                on_click=decide,
                args=(point.key, option),
                width="stretch",
                wrap=True,
                type="primary" if option == suggestion else "secondary",
            )
            note = " *The playbook's choice.*" if option == suggestion else ""
            text.markdown(OPTION_HELP.get(option, "") + note)
        fewer = pending_note(game)
        if fewer:
            st.caption(fewer)
        st.radio(
            "After you decide, run on to", (NEXT_DECISION, NEXT_PHASE), horizontal=True, key=STOP_AT
        )


def show_steps(game: Game) -> None:
    with st.container(border=True):
        if game.pending is not None:
            text, button = st.columns([3, 2], vertical_alignment="center")
            text.markdown(
                "Short of time? The scenario's playbook answers this decision and every later "
                "one (ad hoc where it has no entry), straight to the outcome."
            )
            play_to_end_button(button, "Play to the end")
            return
        st.markdown(f"**Nothing needs you on day {game.day:.0f}.** Run the project on to:")
        row = st.columns(3)
        row[0].button(
            "the next decision",
            type="primary",
            key="play_next_decision",
            on_click=step,
            args=("decision",),
            width="stretch",
        )
        row[1].button(
            "the next phase", key="play_next_phase", on_click=step, args=("phase",), width="stretch"
        )
        play_to_end_button(row[2], "the end (playbook)")


def play_to_end_button(where: Any, label: str) -> None:
    where.button(
        label,
        key="play_to_end",
        on_click=step,
        args=("end",),
        width="stretch",
        icon=":material/skip_next:",
    )


def show_since(game: Game) -> None:
    since = float(st.session_state.get(SINCE, 0.0))
    trace = trace_frame(game)
    recent = trace[trace["day"] >= since - 1e-9]
    st.markdown(f"**What happened since day {since:.0f}**")
    if recent.empty:
        st.caption("Nothing yet.")
        return
    lines = [f"- day {r.day:.0f} · {r.summary}" for r in recent.tail(RECENT_EVENTS).itertuples()]
    more = len(recent) - RECENT_EVENTS
    st.markdown(("\n".join(lines)) + (f"\n\n…after {more} earlier events" if more > 0 else ""))


def render_play(game: Game) -> None:
    view = snapshot(game)
    st.markdown(f"#### {game.scenario.name} · world {game.log.seed}")
    show_status(view)
    notice = st.session_state.get(NOTICE)
    if notice:
        st.success(notice, icon=":material/check:")
    card, seen = st.columns([1, 1], gap="large")
    with card:
        if game.pending is not None:
            show_decision(game)
        show_steps(game)
    with seen:
        loss = loss_frame(game)
        if loss.empty:
            st.info("No training run yet: the loss curve starts with the main run.")
        else:
            target = view["run"]["target_b"] if view["run"] else None
            st.plotly_chart(charts.loss_figure(loss, target), key="play_loss")
        spend = charts.spend_figure(
            spend_frame(game),
            view["budget_usd"],
            view["reserve_usd"],
            view["deadline_days"],
            view["day"],
        )
        st.plotly_chart(spend, key="play_spend")
        show_since(game)
    with card:
        quality = quality_frame(game)
        if quality.empty:
            st.info("No evals measured yet: the first come after post-training.")
        else:
            st.plotly_chart(charts.evals_figure(quality), key="play_evals")
    show_footer(game, finished=False)


def show_footer(game: Game, finished: bool) -> None:
    left, right = st.columns([1, 1])
    label = "Download the play (JSON)" if finished else "Save the play so far (JSON)"
    left.download_button(
        label,
        game.save(),
        file_name=play_file_name(game),
        mime="application/json",
        key="play_download",
        on_click="ignore",
        icon=":material/download:",
        type="primary" if finished else "secondary",
    )
    right.button(
        "Start a new play", key="play_new", on_click=new_play, icon=":material/restart_alt:"
    )


def play_file_name(game: Game) -> str:
    slug = "".join(c if c.isalnum() else "-" for c in game.scenario.name.lower())
    slug = "-".join(part for part in slug.split("-") if part)
    return f"play-{slug[:40]}-seed{game.log.seed}.json"


# --- stage 4: outcome and debrief ---


def show_verdict(out: dict[str, Any]) -> None:
    if out["success"]:
        st.success(
            "**All objectives met**: on time, on budget, every quality target reached.",
            icon=":material/emoji_events:",
        )
        return
    missed = ", ".join(m.missed for m in OBJECTIVES if m.key != "success" and not out[m.key])
    st.error(f"**Objectives missed:** {missed}.", icon=":material/flag:")


def show_scope_cuts(cuts: list[str]) -> None:
    """What the plan gave up to fit its budget: never silent."""
    if cuts:
        st.warning(
            f"**The plan was cut to fit its budget** ({term_link('scope-cut', 'a scope cut')}"
            ").  \n" + "  \n".join(f"- {c}" for c in cuts),
            icon=":material/content_cut:",
        )


def objectives_table(game: Game, out: dict[str, Any]) -> pd.DataFrame:
    obj = game.scenario.objective
    kinds = {e.id: words(e.kind) for e in obj.evals}
    rows = [
        (f"finish by day {obj.deadline_days:g}", f"day {out['schedule_days']:.0f}", out["on_time"]),
        (f"spend at most {usd(out['budget_usd'])}", usd(out["cost_usd"]), out["on_budget"]),
    ] + [
        (
            f"{words(t.eval)} ({kinds.get(t.eval, 'eval')}) ≥ {points(t.threshold, 0)}",
            points(out.get(f"score:{t.eval}", float("nan"))),
            bool(out.get(f"met:{t.eval}")),
        )
        for t in obj.targets
    ]
    return pd.DataFrame(
        [(o, r, "✓ met" if m else "✗ missed") for o, r, m in rows],
        columns=["objective", "result", "verdict"],
    )


def show_outcome_metrics(game: Game, out: dict[str, Any], view: dict[str, Any]) -> None:
    obj = game.scenario.objective
    row = st.columns(5)
    late = out["schedule_days"] - obj.deadline_days
    row[0].metric(
        "Finished",
        f"day {out['schedule_days']:.0f}",
        **_against(late, f"{late:+.0f} d vs deadline", 0.5),
    )
    over = out["cost_usd"] - out["budget_usd"]
    row[1].metric(
        "Cost", usd(out["cost_usd"]), **_against(over, f"{_change(over, '$')} vs budget", 500)
    )
    met = sum(bool(out.get(f"met:{t.eval}")) for t in obj.targets)
    row[2].metric("Quality targets met", f"{met} of {len(obj.targets)}")
    row[3].metric("Effective training time", f"{out['run_effective_training_time']:.1%}")
    mine = st.session_state.get(MINE)
    by = "" if mine is None else f"{len(mine)} made by you"
    row[4].metric("Decisions", f"{len(view['decisions'])}", help=by or None)


def render_outcome(game: Game) -> None:
    out, view = game.outcome(), snapshot(game)
    obj = game.scenario.objective
    st.markdown(f"#### {game.scenario.name} · world {game.log.seed}: the outcome")
    if st.session_state.get(NOTICE):
        st.caption(st.session_state[NOTICE])
    show_verdict(out)
    show_scope_cuts(view["scope_cuts"])
    show_footer(game, finished=True)
    show_outcome_metrics(game, out, view)
    timeline = charts.timeline_figure(
        phase_frame(game), trace_frame(game), obj.deadline_days, out["schedule_days"]
    )
    st.plotly_chart(timeline, key="outcome_timeline")
    spend_col, quality_col = st.columns(2, gap="large")
    spend = charts.spend_figure(
        spend_frame(game),
        view["budget_usd"],
        view["reserve_usd"],
        obj.deadline_days,
        out["schedule_days"],
    )
    spend_col.plotly_chart(spend, key="outcome_spend")
    quality_col.plotly_chart(charts.evals_figure(quality_frame(game)), key="outcome_evals")
    money_col, table_col = st.columns(2, gap="large")
    b = obj.budget
    planned = {
        "compute": b.compute_usd,
        "people": b.people_usd,
        "data_licensing": b.data_licensing_usd,
        "annotation": b.annotation_usd,
    }
    money_col.plotly_chart(
        charts.money_figure(view["spent_by_category"], planned), key="outcome_money"
    )
    with table_col:
        st.markdown("**Objectives**")
        st.dataframe(objectives_table(game, out), hide_index=True, width="stretch")
    show_debrief(game)


def compute_debrief(game: Game) -> Debrief:
    label = (
        "Replaying the same world with every other option, then each lesson's counterfactual "
        f"on this world and {NEIGHBOUR_WORLDS} neighbouring worlds…"
    )
    with st.status(label, expanded=True) as status:
        bar = st.progress(0.0, text="Starting the counterfactual replays")

        def progress(done: int, total: int) -> None:
            bar.progress(min(done / max(total, 1), 1.0), text=f"{done} of {total} replays")

        # Two processes at most, as the Compare page, to leave the server responsive.
        workers = min(2, default_workers())
        debrief = make_debrief(game.current_log(), progress=progress, workers=workers)
        status.update(label="Debrief ready", state="complete", expanded=False)
    return debrief


#: How the debrief says who made a choice (see ``chooser``).
CHOSE = {
    "you": "you chose",
    "the playbook": "the playbook chose",
    "ad hoc": "with no playbook entry, it was decided ad hoc:",
    "the play file": "the play file chose",
}


def chooser(game: Game, index: int, kind: str) -> str:
    """Who made decision ``index``: you, the playbook, ad hoc, or (loaded) the play file."""
    mine = st.session_state.get(MINE)
    if mine is None:
        return "the play file"
    if index in mine:
        return "you"
    return "the playbook" if kind in game.scenario.levers.playbook else "ad hoc"


def show_debrief(game: Game) -> None:
    st.header("Debrief: what each decision cost")
    debrief: Debrief | None = st.session_state.get(DEBRIEF)
    if debrief is None:
        debrief = st.session_state[DEBRIEF] = compute_debrief(game)
    if not debrief.decisions:
        st.info("No decision came up in this play, so there is nothing to compare against.")
    else:
        most = debrief.most_mattered
        if most is not None and most.alternatives:
            show_most_mattered(most, chooser(game, most.index, most.kind))
        st.plotly_chart(charts.counterfactual_figure(debrief.decisions), key="debrief_chart")
        st.caption(
            "Each bar is one other option, replayed in the same world (same seed, same "
            "incidents), with your later decisions kept where they recur."
        )
        with st.expander("Every decision in detail"):
            table = decision_table(game, debrief.decisions)
            st.dataframe(table, hide_index=True, width="stretch")
    show_lessons(debrief.lesson_report)


def show_most_mattered(review: DecisionReview, who: str) -> None:
    best = max(review.alternatives, key=lambda a: abs(a.impact))
    verdict = "better" if best.impact > 0 else "worse"
    summary = review.summary.partition(": ")[2] or review.key
    st.info(
        f"**The decision that mattered most:** #{review.index + 1}, {words(review.kind)} on "
        f"day {review.day:.0f} ({summary}). {review.owner.capitalize()} held the right; "
        f"{CHOSE[who]} **{option_words(review.choice)}**. "
        f"**{option_words(best.choice).capitalize()}** would "
        f"have done {verdict}: schedule {best.delta_schedule_days:+.1f} days, cost "
        f"{_change(best.delta_cost_usd, '$')}, quality {points_signed(best.delta_quality)}; "
        "objectives "
        f"{'all met' if best.success else 'not all met'}.",
        icon=":material/star:",
    )


def decision_table(game: Game, reviews: tuple[DecisionReview, ...]) -> pd.DataFrame:
    frame = charts.counterfactual_frame(reviews)
    rows = {r.index: r for r in reviews}
    by_row = [rows[i] for i in frame["index"]]
    return pd.DataFrame(
        {
            "decision": frame["decision"],
            "who held the right": [r.owner for r in by_row],
            "escalation (days)": [round(r.latency_days, 2) for r in by_row],
            "chosen": [
                f"{option_words(r.choice)} ({chooser(game, r.index, r.kind)})" for r in by_row
            ],
            "instead": frame["alternative"].map(option_words),
            "Δ schedule (days)": frame["delta_schedule_days"].round(1),
            "Δ cost": [_change(v, "$") for v in frame["delta_cost_usd"]],
            "Δ quality (pts of 100)": (100 * frame["delta_quality"]).round(1),
            "objectives met": frame["success"].map({True: "yes", False: "no"}),
        }
    )


# --- the page ---


def keep_set_up() -> None:
    """Keep the set-up's choices while a game is on (the set-up is not drawn), for the next play.

    Streamlit forgets a widget's value after a run that does not draw it; writing the value
    back keeps it (never for buttons or file uploaders, which refuse that).
    """
    kept = (SETUP, SEED, STOP_AT, f"{PICK}_mode", f"{PICK}_file")
    for key in list(st.session_state):
        if str(key).startswith(kept):
            st.session_state[key] = st.session_state[key]


def render() -> None:
    st.title("Play")
    game: Game | None = st.session_state.get(GAME)
    if game is not None:
        keep_set_up()
    if game is None:
        stage_bar(0, 1)
        render_setup()
    elif not game.finished:
        stage_bar(2)
        render_play(game)
    else:
        stage_bar(3)
        render_outcome(game)


if __name__ == "__main__":
    render()
