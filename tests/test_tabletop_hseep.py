"""The after-action report holds what HSEEP's AAR/IP template asks for (issue 27.8).

Mission areas, the threat or hazard, the scenario narrative, only the capabilities the
exercise exercised, dates from the room's opening, a reference for each area for
improvement, a capability element and a primary responsible organisation in every plan
row, and document properties naming the facilitator's organisation (never python-docx).
"""

from __future__ import annotations

import io
from collections.abc import Iterator

import pytest
from docx import Document
from pypdf import PdfReader

from sim.storage import make_engine
from sim.tabletop.report.aar import document, references, to_docx, to_pdf
from sim.tabletop.report.document import Para
from sim.tabletop.report.document import Table as DocTable
from sim.tabletop.report.hseep import CAPABILITIES, ELEMENTS, MISSION_AREAS, element_of
from sim.tabletop.report.report import AfterActionReport
from sim.tabletop.service import TabletopService
from tests.test_tabletop_service import RATIONALE, Table, db_url

__all__ = ["db_url"]


@pytest.fixture
def report(db_url: str) -> Iterator[AfterActionReport]:
    svc = TabletopService(make_engine(db_url))
    table = Table(svc)
    pending = table.to_spike_decision()
    svc.decide(table.room, table.ada.seat_key, pending["key"], "overreact", RATIONALE)
    svc.set_status(table.room, table.key, "ended")
    svc.update_overview(table.room, table.key, poc_organisation="Acme Labs", poc_name="Kim")
    yield svc.report(table.room, table.key, reps=4)
    svc.engine.dispose()


def overview(r: AfterActionReport) -> dict[str, str]:
    blocks = document(r)
    first = next(b for b in blocks if isinstance(b, DocTable) and b.header == ("item", "details"))
    return dict(first.rows)


def test_the_overview_names_mission_areas_hazards_and_the_story(report: AfterActionReport) -> None:
    r = report
    o = overview(r)
    areas = [a.strip() for a in o["Mission areas"].split(",")]
    assert areas and set(areas) <= set(MISSION_AREAS)
    assert "Response" in areas  # the loss spike's rollback call was exercised
    assert o["Threat or hazard"] and o["Threat or hazard"] != "no inject delivered yet"
    assert "GPUs" in o["Scenario narrative"] and "days" in o["Scenario narrative"]
    assert r.opened is not None and r.opened >= r.created
    assert o["Exercise dates"].startswith(r.opened.strftime("%Y-%m-%d %H:%M"))


def test_only_exercised_capabilities_are_listed_and_analysed(report: AfterActionReport) -> None:
    r = report
    assert r.exercised and len(r.exercised) < len(CAPABILITIES)
    listed = overview(r)["Capabilities"].split("; ")
    assert listed == [CAPABILITIES[c].name for c in r.exercised]
    headings = [b.text for b in document(r) if hasattr(b, "level")]
    for c in CAPABILITIES.values():
        assert (f"Capability: {c.name}" in headings) == (c.id in r.exercised), c.id
    idle = [b.text for b in document(r) if isinstance(b, Para) and b.text.startswith("Not ex")]
    assert idle, "the capabilities not exercised are named as such"


def test_every_plan_row_has_a_reference_an_element_and_an_organisation(
    report: AfterActionReport,
) -> None:
    r = report
    refs = references(r)
    assert refs and len(set(refs.values())) == len(refs), "one reference per area"
    plan = next(b for b in document(r) if isinstance(b, DocTable) and b.header[0] == "ref")
    proposed = [row for row in plan.rows if row[-1] == "proposed"]
    assert proposed
    for row in proposed:
        ref, element, organisation = row[0], row[5], row[6]
        assert ref in refs.values(), row
        assert element in ELEMENTS and organisation, row
    # The rollback call's owner is the Pretraining role, held by Ada.
    assert any("Pretraining" in row[6] for row in proposed)


def test_capability_elements_follow_the_kind_of_gap() -> None:
    assert element_of("slow rollback#1") == "Organization"
    assert element_of("unstaffed ship#2") == "Organization"
    assert element_of("decision rollback#1") == "Training"
    assert element_of("inject budget_cut") == "Planning"
    assert element_of("objective Budget") == "Planning"


def test_documents_carry_their_title_and_the_facilitators_organisation(
    report: AfterActionReport,
) -> None:
    r = report
    word = Document(io.BytesIO(to_docx(r)))
    assert word.core_properties.author == "Acme Labs"
    assert "python-docx" not in (word.core_properties.author, word.core_properties.last_modified_by)
    assert r.title in word.core_properties.title
    meta = PdfReader(io.BytesIO(to_pdf(r))).metadata
    assert meta is not None and meta.author == "Acme Labs" and r.title in (meta.title or "")


def test_the_timeline_keeps_the_order_things_happened_in_within_a_day(db_url: str) -> None:
    """A call made, then an inject delivered by hand on the same play day: the call first
    (issue 27: same-day injects were put before decisions that came first)."""
    svc = TabletopService(make_engine(db_url))
    table = Table(svc)
    pending = table.to_spike_decision()
    svc.decide(table.room, table.ada.seat_key, pending["key"], "rollback_skip", RATIONALE)
    svc.deliver_inject(table.room, table.key, "late")
    timeline = svc.report(table.room, table.key, reps=4).timeline
    svc.engine.dispose()
    call = next(i for i, e in enumerate(timeline) if e.kind == "decision")
    late = next(i for i, e in enumerate(timeline) if e.kind == "inject" and "never" in e.title)
    assert timeline[call].day == pytest.approx(timeline[late].day)
    assert call < late
    days = [e.day for e in timeline]
    assert days == sorted(days)
