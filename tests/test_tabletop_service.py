"""The tabletop exercise service without the UI, against a real SQLite file.

Create, join, claim, decide; an unauthorised decision refused; crash and resume; concurrent
players from threads and processes; security (unguessable keys stored hashed, nothing from
the facilitator's side in a player's view, input limits, escaped HTML); the report and its
command. ``TestTabletopService`` is run again against PostgreSQL by test_tabletop_postgres.py,
which overrides the ``db_url`` fixture.
"""

from __future__ import annotations

import dataclasses
import html
import json
import re
import subprocess
import sys
import threading
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from multiprocessing import get_context
from pathlib import Path

import pytest
from sqlalchemy import text
from typer.testing import CliRunner

from sim.cli import app
from sim.engine.decisions import reference_decider
from sim.play.game import Game, counterfactual
from sim.scenario.loading import load_scenario, load_text, scenario_yaml
from sim.storage import database_url, make_engine
from sim.tabletop.authoring import (
    AuthoringError,
    InjectSpec,
    Trigger,
    facilitator_guide,
    inject_list,
    situation_manual,
)
from sim.tabletop.db.credentials import MAX_COMMENT, MAX_NAME, MAX_RATIONALE, key_hash
from sim.tabletop.db.models import Base
from sim.tabletop.errors import Forbidden, InputError, NotFound, Refused, Unavailable
from sim.tabletop.report.aar import to_html, to_markdown
from sim.tabletop.service import Created, Seat, TabletopService

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = sorted((ROOT / "scenarios").glob("*.yaml"))
SECRET = "FACILITATOR-ONLY"
RATIONALE = "Roll back and skip the bad batches; it is the cheapest safe call."

#: The loss-spike follow-up without random spikes, defects, departures or its scripted spike,
#: so the only rollback decision is the one the test's inject raises.
QUIET = (
    "incidents.loss_spikes.enabled=false",
    "incidents.defects=[]",
    "incidents.scripted=[]",
    "incidents.departures.enabled=false",
)


def quiet_yaml() -> str:
    path = ROOT / "scenarios" / "followup_loss_spike.yaml"
    return scenario_yaml(load_text(path.read_text(encoding="utf-8"), path.name, QUIET))


def sample_injects() -> list[InjectSpec]:
    return [
        InjectSpec("briefing", "Morning briefing", "The run is about to start.", Trigger(day=2.0),
                   expected_actions=(f"{SECRET} expected action",),
                   learning_points=(f"{SECRET} learning point",)),
        InjectSpec("spike", "The loss spikes", "The loss jumped.",
                   Trigger(metric="run_progress", op="above", threshold=0.05), "loss_spike", {},
                   "rollback", ("rollback_skip",), (f"{SECRET} roll back",), ("Spikes happen.",)),
        InjectSpec("burn", "Finance asks", "Half the budget is gone.",
                   Trigger(metric="spend_share", op="above", threshold=0.5)),
        InjectSpec("late", f"{SECRET} title never delivered", f"{SECRET} message",
                   Trigger(day=9_000.0)),
    ]  # fmt: skip


@pytest.fixture
def db_url(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """A real SQLite file in a temporary data directory."""
    monkeypatch.setenv("TRAININGROOM_DATA_DIR", str(tmp_path))
    monkeypatch.delenv("DATABASE_URL", raising=False)
    return database_url("tabletop-test.sqlite3")


class Table:
    """One exercise with a facilitator and two players: Ada (Pretraining), Grace (Leadership)."""

    def __init__(self, svc: TabletopService) -> None:
        self.svc = svc
        self.created: Created = svc.create_exercise(quiet_yaml(), seed=3, injects=sample_injects())
        self.room = self.created.room_code
        self.key = self.created.facilitator_key
        svc.open_room(self.room, self.key, self.key)
        self.ada: Seat = svc.join(self.room, "Ada")
        self.grace: Seat = svc.join(self.room, "Grace")
        svc.claim_role(self.room, self.ada.seat_key, "pretraining")
        svc.claim_role(self.room, self.grace.seat_key, "leadership")

    def view(self) -> dict:
        return self.svc.facilitator_view(self.room, self.key)

    def to_decision(self, limit: int = 30) -> dict:
        """Advance inject by inject until a decision waits."""
        for _ in range(limit):
            pending = self.view()["pending"]
            if pending is not None:
                return pending
            self.svc.advance(self.room, self.key)
        raise AssertionError("no decision came up")

    def to_spike_decision(self) -> dict:
        while True:
            pending = self.to_decision()
            if pending["kind"] == "rollback":
                return pending
            self.svc.resolve_with_playbook(self.room, self.key)  # Product: nobody plays it


def all_rows_text(svc: TabletopService) -> str:
    """Every row of every tabletop table, as text."""
    out = []
    with svc.engine.connect() as conn:
        for name in Base.metadata.tables:
            out += [repr(tuple(r)) for r in conn.execute(text(f"SELECT * FROM {name}"))]
    return "\n".join(out)


# --- authoring (no database) ----------------------------------------------------------------


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_every_shipped_scenario_gets_a_valid_inject_list_and_manuals(path: Path) -> None:
    scenario = load_scenario(path)
    injects = inject_list(scenario)
    kinds = {i.trigger.day is None for i in injects}
    assert kinds == {True, False}, "both timed and state-triggered injects"
    assert any(i.trigger.metric == "effective_training_time" for i in injects)
    assert any(i.trigger.metric == "spend_share" for i in injects)
    names = {t.id: t.name or t.id for t in scenario.org.teams}
    for fmt in ("markdown", "html"):
        manual = _plain(situation_manual(scenario, {"rollback_skip": "Roll back and skip."},
                                         fmt=fmt), fmt)  # fmt: skip
        guide = _plain(facilitator_guide(scenario, injects, fmt=fmt), fmt)
        for team in scenario.org.teams:
            assert (team.name or team.id) in manual
        for kind, holder in scenario.org.decision_rights.items():
            assert f"{kind}: decided by {names[holder]}" in manual
        assert "Roll back and skip." in manual
        for inject in injects:
            assert " ".join(inject.message.split()) in guide
            for point in (*inject.expected_actions, *inject.learning_points):
                assert " ".join(point.split()) in guide
                assert point not in manual, "the situation manual holds no facilitator material"
            assert inject.message not in manual


def _plain(doc: str, fmt: str) -> str:
    """What a reader sees: Markdown escapes or HTML tags and entities taken out."""
    if fmt == "html":
        assert doc.startswith("<!DOCTYPE html>") and "<script" not in doc
        return html.unescape(re.sub(r"<[^>]+>", " ", doc))
    return doc.replace("\\", "")


def test_authoring_refuses_what_the_clock_cannot_run() -> None:
    good = sample_injects()[0]
    bad = [
        InjectSpec("x", "t", "m", Trigger()),
        InjectSpec("x", "t", "m", Trigger(metric="mood", threshold=0.5)),
        InjectSpec("x", "t", "m", Trigger(metric="spend_share", threshold=1.5)),
        InjectSpec("x", "t", "m", Trigger(day=1), engine="meteor"),
        InjectSpec("x", "t", "m", Trigger(day=1), engine="budget_cut", params={"team": "a"}),
        InjectSpec("x", "t", "m", Trigger(day=1), decision_kind="rollback",
                   expected_options=("ship",)),
        InjectSpec("x", "", "m", Trigger(day=1)),
        InjectSpec("x", "t" * 500, "m", Trigger(day=1)),
    ]  # fmt: skip
    for spec in bad:
        with pytest.raises(AuthoringError):
            spec.check()
    assert InjectSpec.from_dict(good.to_dict()) == good
    with pytest.raises(AuthoringError):
        InjectSpec.from_dict({"id": "x"})


class TestTabletopService:
    """The service's rules; run on SQLite here and on PostgreSQL in test_tabletop_postgres.py.

    Its fixtures live in the class so that a subclass elsewhere gets them too, and only
    ``db_url`` (module level) decides the database.
    """

    @pytest.fixture
    def service(self, db_url: str) -> Iterator[TabletopService]:
        svc = TabletopService(make_engine(db_url))
        yield svc
        svc.engine.dispose()

    @pytest.fixture
    def table(self, service: TabletopService) -> Table:
        return Table(service)

    def test_create_join_claim(self, table: Table) -> None:
        svc, room = table.svc, table.room
        assert re.fullmatch(r"[0-9A-HJKMNP-TV-Z]{4}(-[0-9A-HJKMNP-TV-Z]{4}){2}", room)
        view = table.view()
        roles = {r["team"]: r for r in view["roles"]}
        assert roles["pretraining"]["holder"] == "Ada"
        assert roles["leadership"]["holder"] == "Grace"
        assert set(roles["pretraining"]["rights"]) == {"rollback", "data_fix"}
        assert view["roles"][0]["rights"], "roles with decision rights come first"
        assert view["exercise"]["status"] == "running"
        # Room codes are forgiving to type; rejoining with the seat key finds the same player.
        sloppy = room.lower().replace("-", " ")
        assert svc.rejoin(sloppy, table.ada.seat_key).participant_id == table.ada.participant_id
        assert svc.open_as_facilitator(sloppy, table.key) == table.created.exercise_id
        with pytest.raises(Refused, match="already held by Ada"):
            svc.claim_role(room, table.grace.seat_key, "pretraining")
        with pytest.raises(InputError, match="already called"):
            svc.join(room, "ada")
        with pytest.raises(NotFound):
            svc.claim_role(room, table.grace.seat_key, "no_such_team")
        with pytest.raises(NotFound):
            svc.join("ZZZZ-ZZZZ-ZZZZ", "Linus")
        # A player may release only their own role; the facilitator may release any.
        with pytest.raises(Forbidden):
            svc.release_role(room, table.grace.seat_key, "pretraining")
        svc.release_role(room, table.key, "pretraining")
        svc.claim_role(room, table.grace.seat_key, "pretraining")
        assert table.view()["roles"][2]["holder"] == "Grace"

    def test_only_the_role_holder_decides_with_a_rationale(self, table: Table) -> None:
        svc, room = table.svc, table.room
        pending = table.to_spike_decision()
        assert pending["team"] == "pretraining" and pending["holder"] == "Ada"
        key = pending["key"]
        ada_view = svc.player_view(room, table.ada.seat_key)
        grace_view = svc.player_view(room, table.grace.seat_key)
        assert ada_view["pending"]["can_decide"] and not grace_view["pending"]["can_decide"]
        # Refused in the service, whatever a page shows or hides.
        with pytest.raises(Forbidden, match="only the player holding Pretraining"):
            svc.decide(room, table.grace.seat_key, key, "rollback_skip", RATIONALE)
        with pytest.raises(Forbidden):
            svc.decide(room, "a guessed key", key, "rollback_skip", RATIONALE)
        with pytest.raises(Forbidden):  # the facilitator's key is not a seat
            svc.decide(room, table.key, key, "rollback_skip", RATIONALE)
        with pytest.raises(Forbidden, match="has a player"):
            svc.resolve_with_playbook(room, table.key)
        with pytest.raises(InputError, match="at least"):
            svc.decide(room, table.ada.seat_key, key, "rollback_skip", "ok")
        with pytest.raises(InputError, match="not an option"):
            svc.decide(room, table.ada.seat_key, key, "ship", RATIONALE)
        with pytest.raises(Refused):
            svc.advance(room, table.key)  # the clock waits for the decision
        svc.decide(room, table.ada.seat_key, key, "pause_investigate", RATIONALE)
        with pytest.raises(Refused, match="no longer waiting"):
            svc.decide(room, table.ada.seat_key, key, "rollback_skip", RATIONALE)
        made = table.view()["decisions"][-1]
        assert (made["key"], made["choice"], made["by"]) == (key, "pause_investigate", "Ada")
        assert made["rationale"] == RATIONALE and made["role"] == "Pretraining"
        assert (
            svc.player_view(room, table.grace.seat_key)["decisions"][-1]["rationale"] == RATIONALE
        )

    def test_injects_fire_on_their_day_and_on_the_model_state(self, table: Table) -> None:
        svc, room, key = table.svc, table.room, table.key
        run = svc.advance(room, key)
        assert [f.inject_id for f in run.fired] == ["briefing"] and run.clock_day == 2.0
        assert run.reason == "inject"
        run = svc.advance(room, key, until_day=4.0)
        assert run.fired == [] and run.clock_day == pytest.approx(4.0)
        pending = table.to_spike_decision()
        msel = {i["id"]: i for i in table.view()["msel"]}
        spike = msel["spike"]
        assert spike["status"] == "delivered" and spike["delivered_day"] > 4.0
        assert table.view()["hidden"]["metrics"]["run_progress"] > 0.05
        svc.decide(room, table.ada.seat_key, pending["key"], "rollback_skip", RATIONALE)
        for _ in range(40):
            view = table.view()
            if msel_status(view, "burn") == "delivered" or view["situation"]["finished"]:
                break
            if view["pending"]:
                settle(table, view["pending"])
            else:
                svc.advance(room, key)
        view = table.view()
        assert msel_status(view, "burn") == "delivered"
        assert view["hidden"]["metrics"]["spend_share"] > 0.5
        assert msel_status(view, "late") == "pending"
        # Delivering by hand ignores the trigger; twice is refused.
        if not view["pending"] and not view["situation"]["finished"]:
            svc.deliver_inject(room, key, "late")
            assert msel_status(table.view(), "late") == "delivered"
            with pytest.raises(Refused):
                svc.deliver_inject(room, key, "late")

    def test_the_facilitator_writes_an_inject_during_the_exercise(self, table: Table) -> None:
        svc, room, key = table.svc, table.room, table.key
        svc.advance(room, key)  # day 2: the briefing
        budget = table.view()["situation"]["budget_usd"]
        spec = InjectSpec(
            "custom", "  Cloud prices rise  ", "The provider raises prices.\nPlan for it.",
            Trigger(day=1.0), "budget_cut", {"fraction": 0.25}, "budget", ("cut_ablations",),
            (f"{SECRET} cut ablations before tokens", "  "), ("The reserve exists for this.",),
        )  # fmt: skip
        with pytest.raises(Forbidden):
            svc.add_inject(room, table.ada.seat_key, spec)
        assert svc.add_inject(room, key, spec) == "custom"
        later = dataclasses.replace(spec, trigger=Trigger(day=9_000.0))
        assert svc.add_inject(room, key, later) == "custom-2", "ids are made unique"
        row = {i["id"]: i for i in table.view()["msel"]}["custom"]
        assert (row["status"], row["title"]) == ("pending", "Cloud prices rise")
        assert row["expected_actions"] == [f"{SECRET} cut ablations before tokens"]
        seen = json.dumps(svc.player_view(room, table.grace.seat_key))
        assert SECRET not in seen and "Cloud prices rise" not in seen, "not delivered yet"
        # Its day has passed, so the next clock move delivers it and the engine cuts the budget.
        run = svc.advance(room, key)
        assert [f.inject_id for f in run.fired] == ["custom"]
        grace = svc.player_view(room, table.grace.seat_key)
        assert any(i["title"] == "Cloud prices rise" for i in grace["injects"])
        assert SECRET not in json.dumps(grace)
        view = table.view()
        assert view["situation"]["budget_usd"] < budget  # a quarter of the compute left
        assert any(e["kind"] == "budget_cut" for e in view["hidden"]["trace"])
        for bad, match in (
            (dataclasses.replace(spec, message="x" * 2_000), "limited to"),
            (dataclasses.replace(spec, engine="meteor"), "unknown incident"),
            (dataclasses.replace(spec, title=" "), "empty"),
            (dataclasses.replace(spec, trigger=Trigger(metric="mood", threshold=0.5)), "metric"),
        ):
            with pytest.raises(InputError, match=match):
                svc.add_inject(room, key, bad)
        assert len(table.view()["msel"]) == len(sample_injects()) + 2, "a refusal adds nothing"
        svc.set_status(room, key, "ended")
        with pytest.raises(Refused):
            svc.add_inject(room, key, later)

    def test_a_running_clock_ticks_and_stops_at_each_inject(self, table: Table) -> None:
        """``by_days`` is the running clock's tick: it stops at the first inject it meets."""
        svc, room, key = table.svc, table.room, table.key
        run = svc.advance(room, key, by_days=0.5)
        assert (run.reason, run.clock_day, run.fired) == ("day", 0.5, [])
        run = svc.advance(room, key, by_days=0.5)
        assert run.clock_day == pytest.approx(1.0) and run.reason == "day"
        run = svc.advance(room, key, by_days=7.0)  # the briefing is due on day 2
        assert run.reason == "inject" and [f.inject_id for f in run.fired] == ["briefing"]
        assert run.clock_day == pytest.approx(2.0)
        with pytest.raises(InputError):
            svc.advance(room, key, by_days=0.0)
        with pytest.raises(InputError, match="not both"):
            svc.advance(room, key, until_day=9.0, by_days=1.0)
        with pytest.raises(Forbidden):
            svc.advance(room, table.ada.seat_key, by_days=1.0)
        svc.set_status(room, key, "paused")
        with pytest.raises(Refused, match="paused"):
            svc.advance(room, key, by_days=1.0)
        svc.set_status(room, key, "running")
        # Ticking on until the spike's decision: the clock then refuses to move.
        for _ in range(400):
            view = table.view()
            if view["pending"] is not None:
                break
            svc.advance(room, key, by_days=1.0)
        assert table.view()["pending"] is not None
        with pytest.raises(Refused, match="decision is waiting"):
            svc.advance(room, key, by_days=1.0)

    def test_players_never_get_facilitator_material(self, table: Table) -> None:
        svc, room = table.svc, table.room
        table.to_spike_decision()
        player = json.dumps(svc.player_view(room, table.grace.seat_key))
        assert SECRET not in player
        assert "msel" not in player and "hidden" not in player and "true_score" not in player
        assert "Morning briefing" in player, "delivered injects are shown"
        assert "Finance asks" not in player, "an inject is not shown before it fires"
        facilitator = json.dumps(table.view())
        assert SECRET in facilitator and "Finance asks" in facilitator
        with pytest.raises(Forbidden):
            svc.facilitator_view(room, table.ada.seat_key)
        with pytest.raises(Forbidden):
            svc.player_view(room, table.key)

    def test_keys_are_unguessable_and_stored_only_as_hashes(self, table: Table) -> None:
        svc = table.svc
        other = svc.create_exercise(quiet_yaml(), seed=3, injects=sample_injects())
        assert other.room_code != table.room and other.facilitator_key != table.key
        for k in (table.key, table.ada.seat_key, other.facilitator_key):
            assert len(k) >= 32
        stored = all_rows_text(svc)
        for k in (table.key, table.ada.seat_key, table.grace.seat_key, other.facilitator_key):
            assert k not in stored
            assert key_hash(k) in stored
        # A key of one exercise opens nothing in another.
        with pytest.raises(Forbidden):
            svc.open_as_facilitator(other.room_code, table.key)
        with pytest.raises(Forbidden):
            svc.claim_role(other.room_code, table.ada.seat_key, "pretraining")
        if svc.engine.url.get_backend_name() == "sqlite":
            raw = Path(svc.engine.url.database or "").read_bytes()
            raw += Path(f"{svc.engine.url.database}-wal").read_bytes()
            assert table.key.encode() not in raw and table.ada.seat_key.encode() not in raw

    def test_input_limits(self, table: Table) -> None:
        svc, room = table.svc, table.room
        with pytest.raises(InputError):
            svc.join(room, "x" * (MAX_NAME + 1))
        with pytest.raises(InputError):
            svc.join(room, " \t\x00 ")
        with pytest.raises(InputError, match="invisible, control or bidi"):
            svc.join(room, "Li\x00nus\u202e\x07")
        seat = svc.join(room, "Linus")
        with pytest.raises(InputError):
            svc.comment(room, seat.seat_key, "y" * (MAX_COMMENT + 1))
        with pytest.raises(InputError):
            svc.comment(room, seat.seat_key, "   ")
        pending = table.to_spike_decision()
        with pytest.raises(InputError, match=str(MAX_RATIONALE)):
            svc.decide(room, table.ada.seat_key, pending["key"], "rollback_skip", "z" * 1_001)
        with pytest.raises(InputError):
            svc.create_exercise(quiet_yaml(), title="t" * 200)
        with pytest.raises(InputError):
            svc.create_exercise("name: [broken")
        with pytest.raises(InputError):
            svc.add_hot_wash(room, table.key, "praise", "Good.")
        with pytest.raises(InputError):
            svc.advance(room, table.key, until_day=-1)

    def test_pause_end_hot_wash_and_report(self, table: Table) -> None:
        svc, room, key = table.svc, table.room, table.key
        pending = table.to_spike_decision()
        svc.set_status(room, key, "paused")
        with pytest.raises(Refused, match="paused"):
            svc.decide(room, table.ada.seat_key, pending["key"], "rollback_skip", RATIONALE)
        with pytest.raises(Refused, match="paused"):
            svc.resolve_with_playbook(room, key)
        svc.comment(room, table.grace.seat_key, "Why not pause and investigate?", pending["key"])
        svc.set_status(room, key, "running")
        evil = "<script>alert('x')</script> & [link](javascript:alert(1)) | $x$"
        svc.decide(room, table.ada.seat_key, pending["key"], "overreact", evil)
        svc.set_status(room, key, "ended")
        with pytest.raises(Refused, match="ended"):
            svc.advance(room, key)
        with pytest.raises(Refused):
            svc.join(room, "Late")
        svc.add_hot_wash(room, table.grace.seat_key, "improvement", "Agree the rollback call.")
        svc.add_hot_wash(room, key, "strength", "Fast escalation.", owner="Pretraining lead")

        report = svc.report(room, key)
        assert report.status == "ended" and report.ended is not None
        assert [d.key for d in report.decisions] == [d["key"] for d in table.view()["decisions"]]
        spike = next(d for d in report.decisions if d.key == pending["key"])
        assert spike.choice == "overreact" and spike.rationale == evil
        assert {a.option for a in spike.alternatives} == {"rollback_skip", "continue",
                                                           "pause_investigate"}  # fmt: skip
        assert report.scenario == load_text(quiet_yaml()).name
        objectives = {o.name for o in report.objectives}
        assert {"Deadline", "Budget"} <= objectives
        for item in (*report.strengths, *report.improvements):
            assert item.owner and item.due
        assert any(i.source.startswith("hot wash") for i in report.improvements)
        assert any("rollback" in i.text for i in report.improvements), "overreacting was worse"
        kinds = [e.kind for e in report.timeline]
        assert {"inject", "decision", "comment"} <= set(kinds)

        page = to_html(report)
        assert "<script>" not in page and "&lt;script&gt;" in page
        assert "<a " not in page and "href" not in page
        md = to_markdown(report)
        assert "<script>" not in md and r"\<script\>" in md and r"\$x\$" in md

    def test_report_effects_match_counterfactual_replays(self, table: Table) -> None:
        svc, room = table.svc, table.room
        pending = table.to_spike_decision()
        svc.decide(room, table.ada.seat_key, pending["key"], "continue", RATIONALE)
        report = svc.report(room, table.key)
        effect = next(d for d in report.decisions if d.key == pending["key"])
        # The same numbers from sim.play.game directly: play out with the playbook, change one call.
        state = svc.room(room)
        record = state.play_record()
        scenario = load_text(quiet_yaml())
        game = Game(scenario, 3, choices=dict(record.decisions),
                    injections=list(record.injections))  # fmt: skip
        base = game.play_to_end(reference_decider(scenario.levers.playbook))
        log = game.current_log()
        index = next(i for i, d in enumerate(log.decisions) if d["key"] == pending["key"])
        alt = counterfactual(log, index, "rollback_skip")
        ours = next(a for a in effect.alternatives if a.option == "rollback_skip")
        assert ours.delta_schedule_days == pytest.approx(
            alt["schedule_days"] - base["schedule_days"]
        )
        assert ours.delta_cost_usd == pytest.approx(alt["cost_usd"] - base["cost_usd"])

    def test_a_failed_action_commits_nothing(
        self, table: Table, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        svc, room, key = table.svc, table.room, table.key
        before = table.view()

        def boom(*args: object, **kwargs: object) -> None:
            raise RuntimeError("the server died mid-action")

        monkeypatch.setattr(TabletopService, "_delivered", boom)
        with pytest.raises(RuntimeError):
            svc.advance(room, key)
        monkeypatch.undo()
        after = table.view()
        assert after["exercise"]["version"] == before["exercise"]["version"]
        assert after["msel"] == before["msel"] and after["exercise"]["clock_day"] == 0.0
        svc.advance(room, key)
        assert msel_status(table.view(), "briefing") == "delivered"

    def test_crash_and_resume(self, db_url: str, tmp_path: Path) -> None:
        """A process drives an exercise and dies without closing anything; another resumes."""
        script = tmp_path / "drive.py"
        script.write_text(DRIVER, encoding="utf-8")
        out = subprocess.run(
            [sys.executable, str(script), db_url, quiet_yaml()],
            cwd=ROOT, capture_output=True, text=True, timeout=120,
            env={**_env(), "PYTHONPATH": str(ROOT)},
        )  # fmt: skip
        assert out.returncode == 9, out.stderr  # os._exit(9): no clean shutdown at all
        room, key, ada_key, grace_key, before = json.loads(out.stdout)
        svc = TabletopService(make_engine(db_url))
        try:
            after = svc.facilitator_view(room, key)
            for part in ("situation", "pending", "decisions", "comments", "msel", "roles"):
                assert after[part] == before[part], part
            assert after["exercise"]["version"] == before["exercise"]["version"]
            # The same seats work after the restart, and the exercise goes on from there.
            resumed = Table.__new__(Table)
            resumed.svc, resumed.room, resumed.key = svc, room, key
            resumed.ada, resumed.grace = svc.rejoin(room, ada_key), svc.rejoin(room, grace_key)
            svc.comment(room, ada_key, "Back after the crash.")
            settle(resumed, resumed.to_decision())
            view = svc.facilitator_view(room, key)
            assert len(view["decisions"]) == len(before["decisions"]) + 1
            assert view["comments"][-1]["body"] == "Back after the crash."
        finally:
            svc.engine.dispose()

    def test_an_action_built_on_a_stale_state_is_retried_not_lost(
        self, table: Table, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """Someone commits between an action's read and its write: the action starts over."""
        from sim.tabletop import service as service_module

        svc, room = table.svc, table.room
        pending = table.to_spike_decision()
        real, calls = service_module.derive, []

        def derive_then_interrupt(record):  # type: ignore[no-untyped-def]
            calls.append(record.clock_day)
            if len(calls) == 1:  # another player commits while this decision is being made
                svc.comment(room, table.grace.seat_key, "Interrupting!")
            return real(record)

        monkeypatch.setattr(service_module, "derive", derive_then_interrupt)
        svc.decide(room, table.ada.seat_key, pending["key"], "rollback_skip", RATIONALE)
        assert len(calls) == 2, "the first attempt was refused by the version check"
        view = table.view()
        assert view["comments"][-1]["body"] == "Interrupting!"
        assert view["decisions"][-1]["key"] == pending["key"]

    def test_concurrent_decisions_from_threads(self, table: Table) -> None:
        svc, room = table.svc, table.room
        pending = table.to_spike_decision()
        options = ["rollback_skip", "continue", "pause_investigate", "overreact"]
        barrier = threading.Barrier(8)

        def attempt(n: int) -> str:
            seat = table.ada if n % 2 == 0 else table.grace
            barrier.wait()
            try:
                svc.decide(room, seat.seat_key, pending["key"], options[n % 4], f"{RATIONALE} {n}")
                return "decided"
            except (Refused, Forbidden) as exc:
                return type(exc).__name__

        with ThreadPoolExecutor(8) as pool:
            results = list(pool.map(attempt, range(8)))
        assert results.count("decided") == 1, results
        assert results.index("decided") % 2 == 0, "only Ada, who holds Pretraining"
        assert set(results[1::2]) <= {"Forbidden", "Refused"}
        made = [d for d in table.view()["decisions"] if d["key"] == pending["key"]]
        assert len(made) == 1

    def test_concurrent_players_never_overwrite_each_other(self, table: Table) -> None:
        svc, room, key = table.svc, table.room, table.key
        seats = [table.ada, table.grace] + [svc.join(room, f"P{n}") for n in range(4)]
        start = table.view()["exercise"]["version"]
        barrier = threading.Barrier(len(seats) + 1)

        def chat(seat: Seat) -> int:
            barrier.wait()
            for n in range(5):
                svc.comment(room, seat.seat_key, f"{seat.name} says {n}")
            return 5

        def facilitate() -> int:
            barrier.wait()
            svc.advance(room, key)  # the briefing, while everyone talks
            return 1

        with ThreadPoolExecutor(len(seats) + 1) as pool:
            futures = [pool.submit(chat, s) for s in seats] + [pool.submit(facilitate)]
            actions = sum(f.result() for f in futures)
        view = table.view()
        assert len(view["comments"]) == 5 * len(seats)
        for seat in seats:
            said = [c["body"] for c in view["comments"] if c["author"] == seat.name]
            assert said == [f"{seat.name} says {n}" for n in range(5)], "in order, none lost"
        assert msel_status(view, "briefing") == "delivered"
        assert view["exercise"]["version"] == start + actions

    def test_concurrent_players_in_separate_processes(self, table: Table, db_url: str) -> None:
        ctx = get_context("spawn")
        with ProcessPoolExecutor(2, mp_context=ctx) as pool:
            names = list(pool.map(_join_and_comment, [(db_url, table.room, n) for n in range(2)]))
        view = table.view()
        for name in names:
            assert [c["body"] for c in view["comments"] if c["author"] == name] == [
                f"{name}: {n}" for n in range(4)
            ]
        assert {"Ada", "Grace", *names} == set(p["name"] for p in view["participants"])

    def test_report_command(self, table: Table, db_url: str) -> None:
        pending = table.to_spike_decision()
        table.svc.decide(table.room, table.ada.seat_key, pending["key"], "rollback_skip", RATIONALE)
        runner = CliRunner()
        result = runner.invoke(app, ["report", table.room, "--db", db_url])
        assert result.exit_code == 0, result.output
        assert result.stdout.startswith("# After-action report")
        assert "Roll back and skip the bad batches" in result.stdout
        by_id = runner.invoke(app, ["report", str(table.created.exercise_id), "--db", db_url,
                                    "--format", "html", "--json"])  # fmt: skip
        assert by_id.exit_code == 0, by_id.output
        data = json.loads(by_id.stdout)
        assert data["format"] == "html" and data["text"].startswith("<!DOCTYPE html>")
        assert data["decisions"][0]["rationale"] == RATIONALE
        assert {"objectives", "timeline", "strengths", "improvements"} <= set(data)
        missing = runner.invoke(app, ["report", "NOPE-NOPE-NOPE", "--db", db_url])
        assert missing.exit_code == 2 and "no exercise" in missing.stderr
        wrong = runner.invoke(app, ["report", table.room, "--db", db_url, "--format", "xls"])
        assert wrong.exit_code == 2
        binary = runner.invoke(app, ["report", table.room, "--db", db_url, "--format", "pdf"])
        assert binary.exit_code == 2 and "--output" in binary.stderr


def test_report_command_on_a_database_without_exercises(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'empty.sqlite3'}"
    result = CliRunner().invoke(app, ["report", "ABCD-EFGH-JKMN", "--db", url])
    assert result.exit_code == 2
    assert "no tabletop exercise has been saved in" in result.stderr
    assert "Traceback" not in result.output


def test_a_database_that_does_not_answer_is_reported_not_retried_as_a_conflict() -> None:
    """A refused connection is :class:`Unavailable` at once, with no password in the message."""
    url = "postgresql+psycopg://trainer:s3cret@127.0.0.1:1/nowhere"
    with pytest.raises(Unavailable, match="did not answer") as made:
        TabletopService(make_engine(url))
    assert "s3cret" not in str(made.value)
    svc = TabletopService(make_engine(url), create_tables=False)
    for call in (
        lambda: svc.join("ABCD-EFGH-JKMN", "Ada"),
        lambda: svc.version("ABCD-EFGH-JKMN"),
        lambda: svc.create_exercise(quiet_yaml(), injects=sample_injects()),
    ):
        with pytest.raises(Unavailable) as exc:
            call()
        assert "s3cret" not in str(exc.value)


def msel_status(view: dict, inject_id: str) -> str:
    return next(i["status"] for i in view["msel"] if i["id"] == inject_id)


def settle(table: Table, pending: dict) -> None:
    """Answer a waiting decision as whoever holds it would (or by the playbook)."""
    seat = {"pretraining": table.ada, "leadership": table.grace}.get(pending["team"])
    if seat is None:
        table.svc.resolve_with_playbook(table.room, table.key)
    else:
        choice = pending["options"][0]
        table.svc.decide(table.room, seat.seat_key, pending["key"], choice, RATIONALE)


def _env() -> dict[str, str]:
    import os

    return {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}


def _join_and_comment(args: tuple[str, str, int]) -> str:
    """In another process: join the room and comment four times."""
    url, room, n = args
    svc = TabletopService(make_engine(url))
    seat = svc.join(room, f"Remote {n}")
    for k in range(4):
        svc.comment(room, seat.seat_key, f"{seat.name}: {k}")
    svc.engine.dispose()
    return seat.name


DRIVER = r"""
import json, os, sys
from sim.storage import make_engine
from sim.tabletop.service import TabletopService
from tests.test_tabletop_service import Table, sample_injects

url, yaml_text = sys.argv[1], sys.argv[2]
svc = TabletopService(make_engine(url))
t = Table.__new__(Table)
t.svc = svc
t.created = svc.create_exercise(yaml_text, seed=3, injects=sample_injects())
t.room, t.key = t.created.room_code, t.created.facilitator_key
svc.open_room(t.room, t.key, t.key)
t.ada, t.grace = svc.join(t.room, "Ada"), svc.join(t.room, "Grace")
svc.claim_role(t.room, t.ada.seat_key, "pretraining")
svc.claim_role(t.room, t.grace.seat_key, "leadership")
pending = t.to_spike_decision()
svc.decide(t.room, t.ada.seat_key, pending["key"], "pause_investigate", "Pause, find the cause.")
svc.comment(t.room, t.grace.seat_key, "Agreed.")
svc.advance(t.room, t.key)
view = svc.facilitator_view(t.room, t.key)
sys.stdout.write(json.dumps([t.room, t.key, t.ada.seat_key, t.grace.seat_key, view]))
sys.stdout.flush()
os._exit(9)
"""
