"""The tabletop service against the attacks of issue 14, on SQLite (and on PostgreSQL in
test_tabletop_postgres.py, which reruns ``TestAttacks`` there).

Joining by a number, names that impersonate or look alike, removed players, kept keys
across a restart, the backoff on failed joins (with an injected clock: nothing sleeps),
the report matching injects and decisions by the day things happened, time order in the
feed, the hot wash and the improvement plan, and the exported Word and PDF documents.
"""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from docx import Document
from pypdf import PdfReader
from sqlalchemy import text
from typer.testing import CliRunner

from sim.cli import app
from sim.scenario.loading import load_text, scenario_yaml
from sim.scenario.vocabulary import option_words
from sim.storage import make_engine
from sim.tabletop.authoring import InjectSpec, Trigger, facilitator_guide, inject_list
from sim.tabletop.db import backoff
from sim.tabletop.db.identity import name_key
from sim.tabletop.errors import Forbidden, InputError, NotFound, Refused
from sim.tabletop.report.aar import SECTIONS, to_docx, to_markdown, to_pdf
from sim.tabletop.report.versus import FINDING_WORLDS
from sim.tabletop.service import TabletopService
from tests.test_tabletop_service import RATIONALE, ROOT, Table, db_url, quiet_yaml

__all__ = ["db_url"]  # the fixture, reused here (test_tabletop_postgres.py overrides it)

NUMBERS = ("1", "0001", "１", " 1 ", "１２３４５６７８９０１２", "123456789012", "1-2-3", "١")
SPIKE_NOTE = "the spike the interview asks about"
#: Names that pass for the staff, the model or a role; look-alikes; invisible or marked-up.
REFUSED_NAMES = (
    "Facilitator", "FACILITATOR", "Ｆacilitator", "the facilitator", "Facilitator Bob",
    "playbook", "System", "admin", "Leadership", "pretraining", "Pre-training",
    "Аda", "Grаce", "Fаcilitator", "\u200b", "Ada\u200d", "\u3164", "\u2800", "Ada\u202e",
    "Ada\u2066x", " ", "1", "Ada:material/home:", "<b>Ada</b>",
)  # fmt: skip


class Clock:
    """A clock the test moves by hand (seconds since the epoch)."""

    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


def spike_yaml() -> str:
    """The quiet follow-up with its scripted loss spike back (at half the run)."""
    path = ROOT / "scenarios" / "followup_loss_spike.yaml"
    overrides = (
        "incidents.loss_spikes.enabled=false",
        "incidents.defects=[]",
        "incidents.departures.enabled=false",
        "incidents.scripted=[{kind: loss_spike, run_progress: 0.5}]",
    )
    return scenario_yaml(load_text(path.read_text(encoding="utf-8"), path.name, overrides))


class TestAttacks:
    @pytest.fixture
    def clock(self) -> Clock:
        return Clock()

    @pytest.fixture
    def service(self, db_url: str, clock: Clock) -> Iterator[TabletopService]:
        svc = TabletopService(make_engine(db_url), clock=clock)
        yield svc
        svc.engine.dispose()

    @pytest.fixture
    def table(self, service: TabletopService) -> Table:
        return Table(service)

    # --- seats only by key ------------------------------------------------------------------

    def test_a_number_never_finds_a_room(self, table: Table) -> None:
        svc = table.svc
        number = str(table.created.exercise_id)
        for typed in (*NUMBERS, number, f"000{number}", 1):
            with pytest.raises(NotFound):
                svc.join(typed, "Mallory")  # type: ignore[arg-type]
            with pytest.raises(NotFound):
                svc.rejoin(typed, table.ada.seat_key)  # type: ignore[arg-type]
            with pytest.raises(NotFound):
                svc.open_as_facilitator(typed, table.key)  # type: ignore[arg-type]
            with pytest.raises(NotFound):
                svc.player_view(typed, table.ada.seat_key)  # type: ignore[arg-type]
        assert "Mallory" not in json.dumps(table.view()["participants"])
        # The code itself, typed loosely and in full-width letters, still works.
        wide = table.room.translate({c: c + 0xFEE0 for c in range(0x21, 0x7F)})
        assert svc.rejoin(wide, table.ada.seat_key).name == "Ada"

    def test_invalid_unicode_is_an_input_error(self, table: Table) -> None:
        svc, room, bad = table.svc, table.room, "ab\ud800cd"
        for call in (
            lambda: svc.join(room, f"Eve{bad}"),
            lambda: svc.rejoin(room, bad),
            lambda: svc.facilitator_view(room, bad),
            lambda: svc.comment(room, table.ada.seat_key, bad),
            lambda: svc.create_exercise(quiet_yaml() + f"\n# {bad}\n"),
            lambda: svc.open_room(room, table.key, bad),
        ):
            with pytest.raises(InputError, match="invalid Unicode"):
                call()
        with pytest.raises(NotFound):
            svc.join(f"ABCD{bad}", "Eve")

    def test_a_room_opens_only_once_the_key_is_typed_back(self, service: TabletopService) -> None:
        created = service.create_exercise(quiet_yaml(), seed=3)
        room, key = created.room_code, created.facilitator_key
        with pytest.raises(Refused, match="not opened"):
            service.join(room, "Ada")
        with pytest.raises(Refused, match="not opened"):
            service.advance(room, key)
        with pytest.raises(InputError, match="not the facilitator key"):
            service.open_room(room, key, key[:-1])
        service.open_room(room, key, f"  {key}\n")
        assert service.join(room, "Ada").name == "Ada"

    def test_removed_players_keys_stop_working_at_once(self, table: Table) -> None:
        svc, room, key = table.svc, table.room, table.key
        ada = table.ada
        with pytest.raises(Forbidden):
            svc.remove_player(room, table.grace.seat_key, ada.participant_id)
        svc.remove_player(room, key, ada.participant_id, reason="an intruder")
        for call in (
            lambda: svc.player_view(room, ada.seat_key),
            lambda: svc.rejoin(room, ada.seat_key),
            lambda: svc.comment(room, ada.seat_key, "still here?"),
            lambda: svc.claim_role(room, ada.seat_key, "product"),
        ):
            with pytest.raises(Forbidden, match="removed"):
                call()
        view = table.view()
        roles = {r["team"]: r["holder"] for r in view["roles"]}
        assert roles["pretraining"] is None, "a removed player's roles are freed"
        svc.assign_role(room, key, "pretraining", table.grace.participant_id)
        with pytest.raises(Refused, match="removed"):
            svc.assign_role(room, key, "product", ada.participant_id)
        assert {r["team"]: r["holder"] for r in table.view()["roles"]}["pretraining"] == "Grace"
        svc.release_role(room, key, "leadership")
        kinds = [e["kind"] for e in table.view()["events"]]
        assert {"removed", "reassigned", "released"} <= set(kinds)
        summaries = " ".join(e["summary"] for e in table.view()["events"])
        assert "Ada removed from the exercise (an intruder); freed Pretraining" in summaries
        assert "Pretraining reassigned to Grace" in summaries
        # The name stays taken: an impostor cannot come back as "Ada".
        with pytest.raises(InputError, match="already called"):
            svc.join(room, "ada")
        report = svc.report(room, key, reps=4)
        assert any(p.name == "Ada" and "removed" in p.status for p in report.participants)
        assert any(e.kind == "roster" and "removed" in e.detail for e in report.timeline)

    def test_a_kept_key_survives_a_restart(self, table: Table, db_url: str) -> None:
        restarted = TabletopService(make_engine(db_url))
        try:
            seat = restarted.rejoin(table.room.lower(), f" {table.ada.seat_key} ")
            assert (seat.participant_id, seat.name) == (table.ada.participant_id, "Ada")
            assert restarted.open_as_facilitator(table.room, table.key) > 0
            restarted.comment(table.room, seat.seat_key, "Back after the restart.")
            assert restarted.player_view(table.room, seat.seat_key)["me"]["name"] == "Ada"
        finally:
            restarted.engine.dispose()

    def test_failed_joins_back_off(self, table: Table, clock: Clock) -> None:
        svc, me, other = table.svc, ("session:attacker",), ("session:someone-else",)
        free = backoff.FREE_FAILURES["session"]
        for n in range(free + 1):
            with pytest.raises(NotFound):
                svc.join(f"ZZZZ-ZZZZ-ZZ{n:02d}", "Mallory", clients=me)
        # Blocked now, even with the right code; another client is not.
        with pytest.raises(backoff.Throttled) as blocked:
            svc.join(table.room, "Mallory", clients=me)
        assert blocked.value.retry_after == pytest.approx(backoff.FIRST_BLOCK_SECONDS)
        assert svc.join(table.room, "Linus", clients=other).name == "Linus"
        clock.now += backoff.FIRST_BLOCK_SECONDS + 0.1
        with pytest.raises(Forbidden):  # a wrong seat key counts too
            svc.rejoin(table.room, "guessed-key", clients=me)
        with pytest.raises(backoff.Throttled) as again:
            svc.rejoin(table.room, table.ada.seat_key, clients=me)
        assert again.value.retry_after == pytest.approx(2 * backoff.FIRST_BLOCK_SECONDS)
        clock.now += backoff.FORGET_SECONDS + 1  # an hour without failures: forgiven
        with pytest.raises(NotFound):
            svc.join("ZZZZ-ZZZZ-ZZZZ", "Mallory", clients=me)
        assert svc.rejoin(table.room, table.ada.seat_key, clients=me).name == "Ada"
        assert [backoff.block_seconds(n, 5) for n in (5, 6, 7, 8)] == [0.0, 2.0, 4.0, 8.0]
        assert backoff.block_seconds(100, 5) == backoff.MAX_BLOCK_SECONDS

    # --- names that say who someone is ------------------------------------------------------

    def test_names_that_impersonate_or_hide_are_refused(self, table: Table) -> None:
        for name in REFUSED_NAMES:
            with pytest.raises(InputError):
                table.svc.join(table.room, name)
        names = [p["name"] for p in table.view()["participants"]]
        assert names == ["Ada", "Grace"], "nothing was let in"

    def test_names_that_differ_only_by_case_accent_or_lookalike_collide(self, table: Table) -> None:
        svc, room = table.svc, table.room
        assert svc.join(room, "José").name == "José"
        for twin in ("Jose", "JOSÉ", "Jose\u0301", "jose", "Ｊｏｓｅ", "Jo-se"):
            with pytest.raises(InputError, match="already called 'José'"):
                svc.join(room, twin)
        assert svc.join(room, "Capa").name == "Capa"
        with pytest.raises(InputError, match="already called 'Capa'"):
            svc.join(room, "Сара")  # all Cyrillic, looks like Capa
        assert svc.join(room, "Ｍａｒｇａｒｅｔ").name == "Margaret", "NFKC: full-width letters"
        assert svc.join(room, "Ana 李").name == "Ana 李", "scripts may differ between words"
        keys = [p["name"] for p in table.view()["participants"]]
        assert keys.count("José") == 1

    def test_an_older_database_is_upgraded_without_losing_anything(
        self, table: Table, db_url: str
    ) -> None:
        """Columns added by this version are added to an older database and filled in."""
        with table.svc.engine.begin() as conn:
            conn.execute(text("DROP INDEX ix_tabletop_exercises_room_code_hash"))
            conn.execute(text("DROP INDEX ix_tabletop_participants_name_key"))
            conn.execute(text("ALTER TABLE tabletop_exercises DROP COLUMN room_code_hash"))
            conn.execute(text("ALTER TABLE tabletop_participants DROP COLUMN name_key"))
        upgraded = TabletopService(make_engine(db_url))
        try:
            assert upgraded.rejoin(table.room, table.ada.seat_key).name == "Ada"
            with pytest.raises(InputError, match="already called 'Grace'"):
                upgraded.join(table.room, "grace")
            assert len(upgraded.facilitator_view(table.room, table.key)["comments"]) == 0
        finally:
            upgraded.engine.dispose()

    def test_an_upgrade_recomputes_name_keys_of_an_older_skeleton(
        self, table: Table, db_url: str
    ) -> None:
        """Keys written by the older skeleton (one-letter look-alikes only) are recomputed."""
        svc, room = table.svc, table.room
        ana = svc.join(room, "Ana Lima")
        svc.join(room, "Chen Wei")
        # What the older skeleton stored: case and accents folded, nothing multi-letter.
        old = {"Ada": "ada", "Grace": "grace", "Ana Lima": "analima", "Chen Wei": "chenwei"}
        with svc.engine.begin() as conn:
            for name, key in old.items():
                conn.execute(text("UPDATE tabletop_participants SET name_key = :k "
                                  "WHERE name = :n"), {"k": key, "n": name})  # fmt: skip
        # The old database lets a look-alike in: its stored key does not match the new one.
        stale = TabletopService(make_engine(db_url), create_tables=False)
        try:
            assert stale.join(room, "Ana Lirna").name == "Ana Lirna"
        finally:
            stale.engine.dispose()
        upgraded = TabletopService(make_engine(db_url))
        try:
            for lookalike, twin in (("Chen VVei", "Chen Wei"), ("Ana L1rna", "Ana Lima"),
                                    ("Gr4ce", "Grace"), ("ADA", "Ada")):  # fmt: skip
                with pytest.raises(InputError, match=f"already called '{twin}'"):
                    upgraded.join(room, lookalike)
            state = upgraded.room(room)
            keys = {p.name: p.name_key for p in state.participants}
            assert keys["Ana Lima"] == name_key("Ana Lima"), "the first to join keeps the key"
            lirna = next(p for p in state.participants if p.name == "Ana Lirna")
            assert keys["Ana Lirna"] == f"{name_key('Ana Lima')}#{lirna.id}"
            assert keys["Chen Wei"] == name_key("Chen Wei") and keys["Ada"] == name_key("Ada")
            # Both look-alikes keep their seats, and the facilitator is told.
            assert upgraded.rejoin(room, ana.seat_key).name == "Ana Lima"
            checks = [e for e in state.events if e.kind == "name_check"]
            assert len(checks) == 1 and "'Ana Lirna' would pass for 'Ana Lima'" in checks[0].summary
        finally:
            upgraded.engine.dispose()
        again = TabletopService(make_engine(db_url))  # a second upgrade changes nothing
        try:
            state2 = again.room(room)
            assert {p.name: p.name_key for p in state2.participants} == keys
            assert sum(e.kind == "name_check" for e in state2.events) == 1
        finally:
            again.engine.dispose()


class TestAfterPlay:
    """Time, the feed, the report, the hot wash and the exports (SQLite only: nothing here
    depends on the database beyond what TestAttacks checks on both)."""

    clock = TestAttacks.clock
    service = TestAttacks.service
    table = TestAttacks.table

    # --- time, the feed and the report ------------------------------------------------------

    def test_the_feed_is_in_time_order(self, service: TabletopService) -> None:
        injects = [
            InjectSpec("b", "Second by time", "b", Trigger(day=3.0)),
            InjectSpec("a", "First by time", "a", Trigger(day=1.0)),
            InjectSpec("c", "By hand", "c", Trigger(day=9_000.0)),
        ]
        created = service.create_exercise(quiet_yaml(), seed=3, injects=injects)
        room, key = created.room_code, created.facilitator_key
        service.open_room(room, key, key)
        seat = service.join(room, "Ada")
        service.advance(room, key, until_day=4.0)
        service.deliver_inject(room, key, "c")
        feed = service.player_view(room, seat.seat_key)["injects"]
        assert [i["id"] for i in feed] == ["a", "b", "c"]
        assert [i["day"] for i in feed] == sorted(i["day"] for i in feed)

    def test_the_report_matches_an_inject_to_the_decision_of_its_day(
        self, service: TabletopService
    ) -> None:
        """A scripted spike's inject delivered days late is matched to the spike's own call."""
        scripted = InjectSpec(
            "scripted-1",
            "Scenario event: loss spike",
            "The loss spiked.",
            Trigger(day=9_000.0),
            decision_kind="rollback",
            expected_options=("rollback_skip",),
            scripted="loss_spike",
        )
        later = InjectSpec("second-spike", "Another spike", "It spiked again.",
                           Trigger(metric="run_progress", op="above", threshold=0.8),
                           "loss_spike", decision_kind="rollback",
                           expected_options=("rollback_skip",))  # fmt: skip
        created = service.create_exercise(spike_yaml(), seed=3, injects=[scripted, later])
        room, key = created.room_code, created.facilitator_key
        service.open_room(room, key, key)
        ada = service.join(room, "Ada")
        service.claim_role(room, ada.seat_key, "pretraining")
        answers = ["overreact", "rollback_skip"]
        delivered_late = None
        for _ in range(400):
            view = service.facilitator_view(room, key)
            if view["situation"]["finished"] or not answers and delivered_late:
                break
            pending = view["pending"]
            if pending is None:
                service.advance(room, key, by_days=2.0)
            elif pending["kind"] == "rollback" and pending["holder"] == "Ada":
                service.decide(room, ada.seat_key, pending["key"], answers.pop(0), RATIONALE)
                if delivered_late is None:  # the news reaches the room 6.5 days later
                    service.advance(room, key, by_days=6.5)
                    service.deliver_inject(room, key, "scripted-1")
                    delivered_late = service.facilitator_view(room, key)["exercise"]["clock_day"]
            else:
                service.resolve_with_playbook(room, key)
        assert not answers and delivered_late is not None
        service.set_status(room, key, "ended")
        report = service.report(room, key, reps=6)
        rows = {e.inject_id: e for a in report.analysis for c in a.capabilities
                for e in c.expected if e.choice}  # fmt: skip
        spike = rows["scripted-1"]
        assert spike.incident_day is not None and spike.incident_day < delivered_late - 6.0
        assert (spike.answered_by, spike.answered_choice) == ("rollback#0", "overreact")
        assert rows["second-spike"].answered_choice == "rollback_skip"
        texts = [(f.kind, f.text) for f in (*report.strengths, *report.improvements)
                 if f.source == "inject scripted-1"]  # fmt: skip
        assert [k for k, _ in texts] == ["improvement"], texts
        assert option_words("overreact") in texts[0][1]
        effect = report.montecarlo.effect("rollback")
        assert effect is not None and "overreact" in effect.room_choices
        # The inject's finding carries the many-world figure of the room's rollback calls.
        spike_finding = next(f for f in report.improvements if f.source == "inject scripted-1")
        assert "simulated worlds (common random numbers)" in spike_finding.quantified

    def test_an_authoring_note_never_reaches_players(self, service: TabletopService) -> None:
        text_ = (ROOT / "scenarios" / "followup_loss_spike.yaml").read_text(encoding="utf-8")
        scenario = load_text(text_)
        injects = inject_list(scenario)
        scripted = next(i for i in injects if i.scripted == "loss_spike")
        assert SPIKE_NOTE not in scripted.message and SPIKE_NOTE not in scripted.title
        assert SPIKE_NOTE in facilitator_guide(scenario, injects)
        created = service.create_exercise(text_, seed=0)
        room, key = created.room_code, created.facilitator_key
        service.open_room(room, key, key)
        seat = service.join(room, "Ada")
        service.deliver_inject(room, key, scripted.id)
        seen = json.dumps(service.player_view(room, seat.seat_key))
        assert scripted.message in seen and SPIKE_NOTE not in seen

    # --- after play: hot wash, plan, ratings, overview, exports ----------------------------

    def test_the_hot_wash_and_the_plan(self, table: Table) -> None:
        svc, room, key = table.svc, table.room, table.key
        with pytest.raises(Refused, match="once the facilitator has ended"):
            svc.add_hot_wash(room, table.ada.seat_key, "improvement", "Too early.")
        pending = table.to_spike_decision()
        svc.decide(room, table.ada.seat_key, pending["key"], "overreact", RATIONALE)
        svc.rate_action(room, key, "spike", 0, "M", "Took an hour to agree.")
        with pytest.raises(Forbidden):
            svc.rate_action(room, table.ada.seat_key, "spike", 0, "P")
        with pytest.raises(InputError):
            svc.rate_action(room, key, "spike", 0, "X")
        with pytest.raises(NotFound):
            svc.rate_action(room, key, "spike", 7, "P")
        svc.set_status(room, key, "ended")
        item = svc.add_hot_wash(
            room,
            table.ada.seat_key,
            "improvement",
            "Agree the rollback.",
            capability="incident_response",
            organisation="Acme Labs",
        )
        other = svc.add_hot_wash(room, table.grace.seat_key, "strength", "Fast escalation.")
        with pytest.raises(Forbidden):
            svc.update_hot_wash(room, table.grace.seat_key, item, text="Not mine to change")
        svc.update_hot_wash(room, table.ada.seat_key, item, corrective_action="Write it down.")
        svc.update_hot_wash(room, key, item, organisation="Acme Research")
        with pytest.raises(InputError):
            svc.update_hot_wash(room, key, item, capability="telepathy")
        svc.delete_hot_wash(room, key, other)
        with pytest.raises(NotFound):
            svc.delete_hot_wash(room, key, other)
        hot = table.view()["hot_wash"]
        assert [h["id"] for h in hot] == [item]
        assert (hot[0]["corrective_action"], hot[0]["organisation"]) == (
            "Write it down.", "Acme Research")  # fmt: skip
        svc.update_overview(
            room,
            key,
            scope="Rollback drill",
            poc_name="Sam Lee",
            poc_organisation="Acme",
            sponsor="Research leadership",
        )
        report = svc.report(room, key, reps=4)
        stored = [p for p in report.plan if p.item_id == item]
        assert stored and stored[0].corrective_action == "Write it down."
        assert any(p.item_id is None for p in report.plan), "the report proposes rows too"
        cap = next(c for a in report.analysis for c in a.capabilities
                   if c.id == "incident_response")  # fmt: skip
        assert cap.rating == "M"
        assert any("Rated M" in f.text for f in cap.improvements)
        # Adopting takes the rows of the report at its full worlds (the app's), which can
        # propose a row more than the 4-world report above (engine 17: 5 against 4).
        full = svc.report(room, key, reps=FINDING_WORLDS)
        added = svc.adopt_findings(room, key)
        assert added == sum(p.item_id is None for p in full.plan) > 0
        assert svc.adopt_findings(room, key) == 0, "adopted once"
        assert report.overview["scope"] == "Rollback drill"

    def test_word_and_pdf_open_and_hold_every_section(self, table: Table, tmp_path: Path) -> None:
        svc, room, key = table.svc, table.room, table.key
        pending = table.to_spike_decision()
        svc.decide(room, table.ada.seat_key, pending["key"], "rollback_skip", RATIONALE)
        svc.comment(room, table.grace.seat_key, "Visit www.example.com :material/home:")
        svc.set_status(room, key, "ended")
        svc.add_hot_wash(room, key, "improvement", "Staff Product next time.")
        svc.update_overview(room, key, scope="A rollback drill for the training team.")
        report = svc.report(room, key, reps=4)
        word = Document(io.BytesIO(to_docx(report)))
        headings = [p.text for p in word.paragraphs if p.style.name.startswith("Heading")]
        body = "\n".join(p.text for p in word.paragraphs) + "\n".join(
            c.text for t in word.tables for row in t.rows for c in row.cells
        )
        pdf = PdfReader(io.BytesIO(to_pdf(report)))
        pdf_text = " ".join(" ".join((page.extract_text() or "").split()) for page in pdf.pages)
        md = to_markdown(report)
        for section in SECTIONS:
            assert section in headings, section
            assert section in pdf_text, section
            assert f"## {section}" in md.replace("\\", "")
        for needle in (
            "A rollback drill for the training team.",
            "Staff Product next time.",
            "Ada",
            "Objective 1: Finish by the deadline",
            "Capability:",
        ):
            assert needle in body, needle
            assert " ".join(needle.split()) in pdf_text, needle
        assert RATIONALE in body and "www.example.com :material/home:" in body
        # The command line writes both.
        runner = CliRunner()
        for fmt in ("docx", "pdf"):
            out = tmp_path / f"aar.{fmt}"
            result = runner.invoke(app, ["report", room, "--db", svc.engine.url.render_as_string(
                hide_password=False), "--format", fmt, "-o", str(out), "--reps", "3"])  # fmt: skip
            assert result.exit_code == 0, result.output
            assert out.read_bytes()[:4] == (b"PK\x03\x04" if fmt == "docx" else b"%PDF")
