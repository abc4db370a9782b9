"""A tabletop exercise in Chromium: a facilitator and two players, each in a browser context of
their own, through one inject and the decision it raises, to the after-action report.

Players see each other's moves through the pages' polling. The facilitator opens the room
by typing the key back; a player keeps her seat in the page's address (a link bound to her
browser, never the seat key) and a reload keeps it; her address opened in another browser
opens nothing; her seat key typed in another browser is noticed, shown to the facilitator
and to her, and the facilitator keeps the seat with her; an intruder is removed and his
page loses the seat at once.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlparse

from playwright.sync_api import Browser, Locator, Page, expect

from sim.storage import make_engine
from sim.tabletop.service import TabletopService
from tests.browser.conftest import SHOWN, AppDriver

RATIONALE = "Cover the cut from the reserve and keep the run's token budget: quality first."
CUSTOM = "The cloud provider raises prices"
HOT_WASH = "Agree the order of budget levers with finance before the next cut."
STRENGTH = "The rationale was written before the call, every time."
BUSY = "Finance joined the call early"
AAR_HEADING = re.compile("^After-action report and improvement plan: ")
ROOM_CODE = re.compile(r"[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}")


def _driver(browser: Browser, args: dict[str, Any], url: str) -> AppDriver:
    return AppDriver(browser.new_context(**args).new_page(), url)


def _join(player: AppDriver, room: str, name: str, role: str | None) -> None:
    page = player.page
    player.open("tabletop-player")
    form = page.get_by_test_id("stForm").filter(has_text="Join an exercise")
    form.get_by_label("Room code").fill(room.lower().replace("-", " "))  # typed loosely
    form.get_by_label("Your name").fill(name)
    form.get_by_role("button", name="Join").click()
    expect(page.get_by_text(f"Welcome, {name}")).to_be_visible(timeout=SHOWN)
    expect(page.get_by_text("Keep your seat key")).to_be_visible(timeout=SHOWN)
    player.wait()
    if role is None:
        return
    page.locator(f".st-key-tt_claim_{role}").get_by_role("button").click()
    expect(page.locator(f".st-key-tt_release_{role}")).to_be_visible(timeout=SHOWN)
    player.wait()
    player.assert_no_exception()


def _click_once_settled(driver: AppDriver, target: Locator) -> None:
    """Click ``target`` once the page has settled (mid-rerun a button may show twice)."""
    driver.wait()
    expect(target).to_have_count(1, timeout=SHOWN)
    target.click()


def _try_join(player: AppDriver, room: str, name: str) -> None:
    """Fill and send the join form (the caller checks what the page says)."""
    form = player.page.get_by_test_id("stForm").filter(has_text="Join an exercise")
    form.get_by_label("Room code").fill(room)
    form.get_by_label("Your name").fill(name)
    form.get_by_role("button", name="Join").click()
    player.wait()


def test_facilitator_and_two_players_through_one_inject_to_the_report(
    browser: Browser, browser_context_args: dict[str, Any], app_url: str, app_data_dir: Path
) -> None:
    fac = _driver(browser, browser_context_args, app_url)
    ada = _driver(browser, browser_context_args, app_url)
    grace = _driver(browser, browser_context_args, app_url)
    page = fac.page

    # The facilitator creates the exercise from the loss-spike scenario and its inject list.
    fac.open("tabletop-facilitator")
    expect(page.get_by_role("button", name="Create the exercise")).to_be_visible(timeout=SHOWN)
    fac.assert_no_exception()
    fac.screenshot("tabletop-1-facilitator-setup")
    page.get_by_role("button", name="Create the exercise").click()
    expect(page.get_by_text("Exercise created")).to_be_visible(timeout=SHOWN)
    fac.wait()
    match = ROOM_CODE.search(page.get_by_test_id("stMain").inner_text())
    assert match, "the room code is on the page"
    room = match.group(0)
    key = page.locator(".st-key-tt_fac_new_key code").first.inner_text().strip()
    query = parse_qs(urlparse(page.url).query)
    assert "link" in query and "key" not in query and key not in page.url, page.url
    fac.screenshot("tabletop-2-facilitator-created")
    # A reload before the room opens keeps the exercise (a link bound to this browser is in
    # the address); the key itself is shown only once.
    page.reload()
    fac.wait()
    expect(page.get_by_text("The key was shown when the exercise was created")).to_be_visible(
        timeout=SHOWN
    )
    assert key not in page.get_by_test_id("stMain").inner_text()
    _facilitator_address_elsewhere(browser, browser_context_args, app_url, page.url, room, key)
    expect(page.get_by_text("Paste the facilitator key here")).to_be_visible(timeout=SHOWN)
    page.get_by_label("Paste the facilitator key here").fill(key)
    page.get_by_role("button", name="Open the room to players").click()
    expect(page.get_by_text("The room is open")).to_be_visible(timeout=SHOWN)
    fac.wait()

    # Two players join from their own browsers and take roles. Ada keeps her seat in the
    # page's address, and a reload brings her straight back to it.
    _join(ada, room, "Ada", "pretraining")
    seat_key = ada.page.locator(".st-key-tt_save_seat code").first.inner_text().strip()
    ada.page.locator(".st-key-tt_keep").get_by_role("button").click()
    expect(ada.page.get_by_text("keeps a link to your seat")).to_be_visible(timeout=SHOWN)
    ada.wait()
    query = parse_qs(urlparse(ada.page.url).query)
    assert "seat" in query and "key" not in query and seat_key not in ada.page.url
    ada.screenshot("tabletop-3a-player-save-link")
    ada.page.reload()
    ada.wait()
    expect(ada.page.get_by_text("Welcome back, Ada")).to_be_visible(timeout=SHOWN)
    expect(ada.page.locator(".st-key-tt_release_pretraining")).to_be_visible(timeout=SHOWN)
    ada.assert_no_exception()
    _second_browser(browser, browser_context_args, app_url, fac, ada, room, seat_key)
    _join(grace, room, "Grace", "leadership")
    expect(page.get_by_text("2 players")).to_be_visible(timeout=SHOWN)  # seen by polling
    fac.wait()

    # An intruder joins; the facilitator removes him, and his page loses the seat at once.
    mallory = _driver(browser, browser_context_args, app_url)
    _join(mallory, room, "Mallory", None)
    expect(page.get_by_text("3 players")).to_be_visible(timeout=SHOWN)
    fac.wait()
    page.get_by_test_id("stPopover").filter(has_text="Remove").last.click()
    page.get_by_role("button", name="Remove this player").click()
    expect(page.get_by_text("Mallory was removed.")).to_be_visible(timeout=SHOWN)
    fac.wait()
    expect(mallory.page.get_by_text("removed this seat")).to_be_visible(timeout=SHOWN)
    mallory.screenshot("tabletop-3b-removed-player")
    expect(page.get_by_text("2 players")).to_be_visible(timeout=SHOWN)

    # Removal means out: from a fresh page of the same browser, under another name, she is
    # refused, and the facilitator is shown the attempt with the seat it comes from.
    mallory.open("tabletop-player")
    _try_join(mallory, room, "Mal Ory")
    expect(mallory.page.get_by_text("a seat the facilitator removed")).to_be_visible(timeout=SHOWN)
    expect(page.get_by_text(re.compile(r"join as 'Mal Ory'.*\(Mallory\)"))).to_be_visible(
        timeout=SHOWN
    )  # seen by the page's poll of the audit log
    fac.wait()
    # The facilitator locks the room: a newcomer from another browser is refused; unlocked,
    # he may join.
    _click_once_settled(fac, page.get_by_role("button", name="Lock the room"))
    expect(page.get_by_text("The room is locked")).to_be_visible(timeout=SHOWN)
    fac.wait()
    linus = _driver(browser, browser_context_args, app_url)
    linus.open("tabletop-player")
    _try_join(linus, room, "Linus")
    expect(linus.page.get_by_text("locked the room")).to_be_visible(timeout=SHOWN)
    # Linus's refusal reaches the facilitator's log, and the page reruns to show it.
    _click_once_settled(fac, page.get_by_role("button", name="Unlock the room"))
    expect(page.get_by_text("The room is unlocked")).to_be_visible(timeout=SHOWN)
    fac.wait()
    # A new room code: the old one admits nobody new; seated players keep their seats.
    rekey = page.get_by_test_id("stPopover").filter(has_text="Change the room code")
    _click_once_settled(fac, rekey)
    _click_once_settled(fac, page.get_by_role("button", name="Change it now"))
    expect(page.get_by_text("The new room code is")).to_be_visible(timeout=SHOWN)
    fac.wait()
    new_room = ROOM_CODE.search(page.get_by_text("The new room code is").inner_text())
    assert new_room and new_room.group(0) != room
    _try_join(linus, room, "Linus")
    expect(linus.page.get_by_text("changed this room's code")).to_be_visible(timeout=SHOWN)
    ada.page.reload()
    ada.wait()
    expect(ada.page.get_by_text("Welcome back, Ada")).to_be_visible(timeout=SHOWN)
    room = new_room.group(0)

    # The facilitator moves the clock to the next inject: the board cuts the budget and
    # Leadership must close the gap. Another decision may come first; it is settled as it
    # would be in the room (by its holder, or by the playbook when nobody holds the role).
    card = page.locator(".st-key-tt_fac_pending")
    for _ in range(8):
        page.get_by_role("button", name="Advance to the next inject").click()
        try:  # a rerun renders the card piece by piece: wait for the line that names the holder
            expect(card).to_contain_text(re.compile(r"held by \w+"), timeout=SHOWN // 6)
        except AssertionError:
            continue  # an inject that raises no decision
        fac.wait()
        fac.assert_no_exception()
        holder = card.inner_text()
        if "held by Grace" in holder:
            break
        if "held by Ada" in holder:
            _decide(ada, "Roll back and skip: the standard response to a spike.")
        else:
            card.get_by_role("button", name="Settle with the playbook").click()
        expect(card).to_have_count(0, timeout=SHOWN)
        fac.wait()
    else:
        raise AssertionError("no decision for Leadership came up")
    expect(page.get_by_text("The board cuts the compute budget").first).to_be_visible()
    page.get_by_text("Expected actions").first.scroll_into_view_if_needed()
    fac.screenshot("tabletop-3-facilitator-inject-hidden-view")

    # Ada sees the decision but may not make it; she comments. Grace decides with a rationale.
    ada_page = ada.page
    expect(ada_page.get_by_text("Only the player holding Leadership (Grace)")).to_be_visible(
        timeout=SHOWN
    )
    expect(ada_page.get_by_text("The board cuts the compute budget")).to_be_visible()
    assert "Expected actions" not in ada_page.content(), "no facilitator material for players"
    ada.wait()
    ada_page.get_by_label("Add a comment").fill("Use the reserve, but keep ablations if we can.")
    ada_page.get_by_role("button", name="Post comment").click()
    expect(ada_page.get_by_text("keep ablations if we can").first).to_be_visible(timeout=SHOWN)
    ada.wait()
    ada.screenshot("tabletop-4-player-waiting-comments")

    grace_page = grace.page
    expect(grace_page.get_by_role("button", name="Decide")).to_be_visible(timeout=SHOWN)
    expect(grace_page.get_by_text("keep ablations if we can").first).to_be_visible(timeout=SHOWN)
    grace.wait()
    grace.screenshot("tabletop-5-player-decision")
    _decide(grace, RATIONALE)
    expect(grace_page.get_by_text("You chose")).to_be_visible(timeout=SHOWN)

    # The facilitator sees it, writes an inject of their own and delivers it at once: the
    # players read it. Then the clock runs on its own for a while, and stops.
    expect(page.get_by_text("The clock waits for the decision below.")).to_have_count(
        0, timeout=SHOWN
    )
    fac.wait()
    page.get_by_text("Write your own inject").click()
    fac.fill_committed(page.locator(".st-key-tt_w_title input"), CUSTOM)
    fac.fill_committed(
        page.locator(".st-key-tt_w_message textarea"), "Prices rise by a fifth next week."
    )
    # The button is enabled by the rerun that commits the message: wait for it, not a race.
    fac.click_when_enabled(page.locator(".st-key-tt_w_add button"))
    expect(page.get_by_text(f"Delivered: {CUSTOM}")).to_be_visible(timeout=SHOWN)
    fac.wait()
    expect(ada_page.get_by_text(CUSTOM).first).to_be_visible(timeout=SHOWN)
    day = page.get_by_test_id("stMetric").filter(has_text="Day").first
    before = day.inner_text()
    page.locator(".st-key-tt_fac_running").get_by_text("Run the clock").click()
    expect(page.get_by_text("The clock is running")).to_be_visible(timeout=SHOWN)
    expect(day).not_to_have_text(before, timeout=SHOWN)
    fac.screenshot("tabletop-6-facilitator-clock-running")
    toggle = page.locator(".st-key-tt_fac_running input")
    fac.wait()
    expect(toggle).to_have_count(1)  # mid-rerun the old switch may show beside the new one
    if toggle.is_checked():
        page.locator(".st-key-tt_fac_running").get_by_text("Run the clock").click()
    expect(page.get_by_text("The clock is running")).to_have_count(0, timeout=SHOWN)
    fac.wait()

    # The facilitator ends the exercise, and reads the report.
    page.get_by_role("button", name="End the exercise").click()
    expect(page.get_by_text("The exercise has ended.")).to_be_visible(timeout=SHOWN)
    fac.wait()
    hot_wash = page.get_by_test_id("stForm").filter(has_text="Add to the hot wash")
    hot_wash.get_by_text("improvement", exact=True).click()
    hot_wash.get_by_label("What went well, or what to improve").fill(HOT_WASH)
    hot_wash.get_by_role("button", name="Add to the hot wash").click()
    report = page.get_by_role("heading", name=AAR_HEADING)
    expect(report).to_be_visible(timeout=2 * SHOWN)
    expect(page.get_by_text(HOT_WASH).last).to_be_visible(timeout=2 * SHOWN)
    fac.wait()
    fac.assert_no_exception()
    expect(page.get_by_text(RATIONALE).first).to_be_attached()
    with _busy_room(app_data_dir, room, key):  # the page reruns under the clicks
        _every_download_gives_its_file(fac)
    _downloads_logged(fac)

    report.scroll_into_view_if_needed()
    fac.screenshot("tabletop-7-facilitator-report")

    # Players read it too, once the exercise has ended.
    expect(grace_page.get_by_role("heading", name=AAR_HEADING)).to_be_visible(timeout=2 * SHOWN)
    grace.wait()
    grace.assert_no_exception()


def _facilitator_address_elsewhere(
    browser: Browser, args: dict[str, Any], url: str, address: str, room: str, key: str
) -> None:
    """The facilitator's address in another browser opens nothing, and an address that
    carries the facilitator key is never used."""
    other = _driver(browser, args, url)
    other.page.goto(address)  # seen on a shared screen
    other.wait()
    expect(other.page.get_by_text("opens the exercise only in the browser it was made in")
           ).to_be_visible(timeout=SHOWN)  # fmt: skip
    expect(other.page.get_by_role("button", name="Create the exercise")).to_be_visible()
    other.page.goto(f"{url}/tabletop-facilitator?room={room}&key={key}")
    other.wait()
    expect(other.page.get_by_text("A facilitator key in a page's address is never used")
           ).to_be_visible(timeout=SHOWN)  # fmt: skip
    assert key not in other.page.url
    other.assert_no_exception()
    other.page.context.close()


def _second_browser(
    browser: Browser,
    args: dict[str, Any],
    url: str,
    fac: AppDriver,
    ada: AppDriver,
    room: str,
    seat_key: str,
) -> None:
    """Ada's address and Ada's seat key in another browser: the first opens nothing, the
    second is noticed (her page and the facilitator's are told) and the facilitator keeps
    the seat with her; a seat key put in a page's address is never used."""
    thief = _driver(browser, args, url)
    thief.page.goto(ada.page.url)  # her kept address, seen over her shoulder
    thief.wait()
    expect(thief.page.get_by_text("only in the browser that holds it")).to_be_visible(timeout=SHOWN)
    expect(thief.page.get_by_text("Join an exercise")).to_be_visible()
    thief.page.goto(f"{url}/tabletop-player?room={room}&key={seat_key}")
    thief.wait()
    expect(thief.page.get_by_text("A seat key in a page's address is never used")).to_be_visible(
        timeout=SHOWN
    )
    assert seat_key not in thief.page.url
    form = thief.page.get_by_test_id("stForm").filter(has_text="Rejoin")
    form.get_by_label("Room code").fill(room)
    form.get_by_label("Your seat key").fill(seat_key)
    form.get_by_role("button", name="Rejoin").click()
    expect(thief.page.get_by_text("held by another browser").first).to_be_visible(timeout=SHOWN)
    thief.screenshot("tabletop-3c-second-browser-waits")
    expect(fac.page.get_by_text("used from a second browser").first).to_be_visible(timeout=SHOWN)
    expect(ada.page.get_by_text("Your seat key was used from another browser")).to_be_visible(
        timeout=SHOWN
    )
    ada.screenshot("tabletop-3d-holder-told")
    fac.wait()
    fac.screenshot("tabletop-3e-facilitator-contest")
    _click_once_settled(fac, fac.page.get_by_role("button", name="Keep it with the first browser"))
    expect(fac.page.get_by_text("the other browser is denied")).to_be_visible(timeout=SHOWN)
    expect(thief.page.get_by_text("gave this seat to another browser")).to_be_visible(timeout=SHOWN)
    expect(ada.page.get_by_text("Your seat key was used from another browser")).to_have_count(
        0, timeout=SHOWN
    )
    ada.wait()
    expect(ada.page.locator(".st-key-tt_release_pretraining")).to_be_visible(timeout=SHOWN)
    thief.page.context.close()


#: What each download's file must start with (Word is a zip; its first entry says Word).
MAGIC = {"docx": b"PK", "pdf": b"%PDF", "html": b"<!doctype html", "md": b"# "}


@contextmanager
def _busy_room(data_dir: Path, room: str, key: str, notes: int = 8) -> Iterator[None]:
    """Someone else in the room writes hot-wash notes (one every 1.5 s, at most ``notes``,
    through the app's database), so the facilitator's page reruns again and again under the
    downloads. Bounded: each note lengthens the page, and on a busy machine an endless
    stream made every rerun slower than the last."""
    svc = TabletopService(make_engine(f"sqlite:///{data_dir / 'trainingroom.sqlite3'}"))
    stop = threading.Event()
    written: list[int] = []

    def write() -> None:
        while len(written) < notes and not stop.wait(1.5):
            n = len(written) + 1
            svc.add_hot_wash(room, key, "strength", f"{BUSY} ({n})")
            written.append(n)

    thread = threading.Thread(target=write, daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join(timeout=SHOWN / 1000)
    assert written, "the room was busy while the files were downloaded"


def _every_download_gives_its_file(fac: AppDriver) -> None:
    """Each download button on the facilitator's page gives its file, the first time, clicked
    one after another without waiting (as a person takes Word, then PDF)."""
    page = fac.page
    buttons = _shown_downloads(page)
    expect(buttons.filter(has_text="Download the report (PDF)")).to_have_count(1, timeout=SHOWN)
    fac.wait()
    labels = [b.inner_text().replace("download", "").strip() for b in buttons.all()]
    assert sum("Download the report" in t for t in labels) == 4, labels
    assert len(labels) >= 8, labels  # the report's four and the four manuals
    for label in labels:
        data, ext = _download(page, _shown_downloads(page).filter(has_text=label).first, label)
        if "report" in label and ext in ("html", "md"):
            assert b"After-action report" in data, label


def _downloads_logged(fac: AppDriver) -> None:
    """The report's downloads are in the audit log: a new hot-wash item makes a new report,
    and its Markdown lists them."""
    page = fac.page
    fac.wait()
    hot_wash = page.get_by_test_id("stForm").filter(has_text="Add to the hot wash")
    hot_wash.get_by_text("strength", exact=True).click()
    hot_wash.get_by_label("What went well, or what to improve").fill(STRENGTH)
    hot_wash.get_by_role("button", name="Add to the hot wash").click()
    expect(page.get_by_text(STRENGTH).last).to_be_visible(timeout=2 * SHOWN)
    fac.wait()
    markdown = _shown_downloads(page).filter(has_text="Download the report (Markdown)")
    data, _ = _download(page, markdown, "the report (Markdown), again")
    logged = data.decode("utf-8")
    for ext in ("docx", "pdf", "html", "md"):
        assert f"Facilitator downloaded the full report ({ext})" in logged, ext


def _shown_downloads(page: Page) -> Locator:
    """The download buttons a person sees (the page also keeps its files offered out of sight,
    ui.tabletop.common.keep_offered)."""
    return page.get_by_test_id("stDownloadButton").filter(visible=True)


def _download(page: Page, button: Locator, label: str) -> tuple[bytes, str]:
    """Click a download button; the file's bytes (checked against its type) and extension."""
    with page.expect_download(timeout=SHOWN) as info:
        button.get_by_role("button").click()
    download = info.value
    path = download.path()
    assert path is not None, f"{label}: no file"
    data = open(path, "rb").read()  # noqa: SIM115, PTH123
    ext = download.suggested_filename.rsplit(".", 1)[-1]
    assert len(data) > 200, f"{label}: {len(data)} bytes"
    start = data[:64].lstrip().lower()
    assert start.startswith(MAGIC[ext].lower()), f"{label}: {data[:40]!r}"
    return data, ext


def _decide(player: AppDriver, rationale: str) -> None:
    page = player.page
    expect(page.get_by_role("button", name="Decide")).to_be_visible(timeout=SHOWN)
    player.wait()
    options = page.get_by_test_id("stRadio").locator("label:has(input[type=radio])")
    options.first.click()  # nothing comes pre-selected
    page.get_by_label(re.compile("Your rationale")).fill(rationale)
    page.get_by_role("button", name="Decide").click()  # a form: its button is always enabled
    expect(page.get_by_text("You chose")).to_be_visible(timeout=SHOWN)
    player.wait()
