"""The browser client, end to end: lobby, a Digging table played through the UI, reloads,
languages and a phone-sized screen. Screenshots go to artifacts/screenshots/."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from webplay import close_modal, digging_step, hand_codes, my_turn, wait_until

from conftest import LiveServer, screenshot

pytestmark = pytest.mark.browser

PREFIXES = "app|lang|nav|game|status|common|conn|err|lobby|rules|share|table|keys|metal|card|dig|colour|dg|ev|opt"
STATIC = Path(__file__).resolve().parents[2] / "src" / "goldfields" / "web" / "static"


def no_horizontal_scroll(page: Any) -> None:
    widths = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert widths[0] <= widths[1], f"the page scrolls sideways: {widths[0]} px wide in a {widths[1]} px window"


def test_the_lobby_creates_a_bot_table_in_one_click(new_page: Any, server: LiveServer) -> None:
    page = new_page()
    page.goto("/")
    page.fill("#player-name", "Ann")
    page.click("#quick-digging")
    page.wait_for_url(re.compile(r"/table\.html\?t=[\w-]+&seat=0$"))
    assert "#token" not in page.url  # the seat's token is kept, then taken out of the address bar
    page.locator(".hand .card").nth(5).wait_for()
    assert len(hand_codes(page)) == 6
    table_id = page.evaluate("new URLSearchParams(location.search).get('t')")
    assert page.evaluate(f"localStorage.getItem('goldfields.seat.{table_id}.0')")
    assert page.locator(".seat").count() == 4
    assert page.locator(".seat.partner .badge.partner").count() == 1
    summary = server.get(f"/api/tables/{table_id}")
    assert summary["status"] == "playing" and summary["config"]["partnership"]
    assert [s["kind"] for s in summary["seats"]] == ["human", "bot", "bot", "bot"]
    assert summary["seats"][0]["name"] == "Ann" and summary["seats"][0]["connected"]

    # Keyboard: D draws on my turn.
    wait_until(lambda: my_turn(page), 20)
    before = page.evaluate("document.body.dataset.seq")
    page.keyboard.press("d")
    page.wait_for_function(f"document.body.dataset.seq !== {before!r}")
    assert page.locator("#log li").filter(has_text="Ann draws a card").count() >= 1
    screenshot(page, "digging-table-desktop")


def test_two_players_and_two_bots_play_a_full_hand(new_page: Any, server: LiveServer) -> None:
    ann = new_page()
    ann.goto("/")
    ann.fill("#player-name", "Ann")
    ann.locator("#f-game").select_option("digging")
    ann.locator("#f-players").select_option("4")
    assert ann.locator("#f-partnership").is_checked()
    ann.locator('select[data-seat="2"]').select_option("human")
    ann.click("#f-create")
    ann.wait_for_url(re.compile(r"/table\.html\?t=[\w-]+&seat=0$"))
    table_id = ann.evaluate("new URLSearchParams(location.search).get('t')")
    ann.locator(".notice.waiting").wait_for()
    assert ann.locator(".share-url").input_value().endswith(f"/table.html?t={table_id}")
    screenshot(ann, "digging-waiting-for-players")

    # Bea finds the table in the lobby and joins seat 2.
    bea = new_page()
    bea.goto("/")
    bea.fill("#player-name", "Bea")
    bea.locator(f'.table-item[data-table="{table_id}"] .join[data-seat="2"]').click()
    bea.wait_for_url(re.compile(rf"/table\.html\?t={table_id}&seat=2$"))
    for page in (ann, bea):
        page.locator(".hand .card").nth(5).wait_for()
        page.wait_for_function("document.body.dataset.status === 'playing'")
    assert bea.locator(".seat.partner .seat-name").inner_text().strip().endswith("Ann")

    # A spectator watches the same table.
    watcher = new_page()
    watcher.goto(f"/table.html?t={table_id}")
    watcher.locator(".notice").filter(has_text="You are watching").wait_for()
    assert watcher.locator(".hand-area").is_hidden()

    moves = {"ann": 0, "bea": 0}
    reloaded = False
    fights_seen = False

    def hand_over() -> bool:
        return all(p.locator(".modal.scoring").count() for p in (ann, bea))

    def play_some() -> bool:
        nonlocal reloaded, fights_seen
        for who, page in (("ann", ann), ("bea", bea)):
            if page.locator(".modal.scoring").count():
                continue
            if not fights_seen and page.locator(".fight").count():
                fights_seen = True
                screenshot(page, "digging-fight")
            if who == "bea" and not reloaded and moves["bea"] >= 6 and my_turn(bea):
                # A reload mid-game resumes the table: same seat, same hand.
                hand = hand_codes(bea)
                bea.reload()
                bea.locator(".hand .card").first.wait_for()
                bea.wait_for_function("document.body.dataset.seat === '2'")
                assert hand_codes(bea) == hand
                assert my_turn(bea)
                assert "#token" not in bea.url
                reloaded = True
            # Bea plays cards when she can, so that mines, chests and fights appear; Ann draws.
            if digging_step(page, prefer_draw=(who == "ann" or moves[who] % 3 == 0)):
                moves[who] += 1
                if moves["ann"] == 12 and who == "ann":
                    screenshot(ann, "digging-table-midgame")
        return hand_over()

    wait_until(play_some, timeout=120, step=0.02)
    assert reloaded and moves["ann"] > 3 and moves["bea"] > 3
    scoring = ann.locator(".modal.scoring")
    assert "Hand 1" in scoring.locator("h2").inner_text()
    screenshot(ann, "digging-hand-scored")
    for page in (ann, bea):
        close_modal(page)
        page.locator(".scores tbody tr").filter(has_text="Hand 1").wait_for()
    # Everyone saw the same scores.
    rows = [p.locator(".scores tbody tr").first.inner_text() for p in (ann, bea, watcher)]
    assert rows[0] == rows[1] == rows[2]
    screenshot(watcher, "digging-spectator")


def test_server_errors_are_shown_in_words(new_page: Any, server: LiveServer) -> None:
    created = server.post(
        "/api/tables",
        {"game": "digging", "players": 2, "seats": [{"kind": "human"}, {"kind": "human"}], "claim": 0},
    )
    table_id = created["table"]["id"]
    page = new_page()
    page.goto("/")
    join = page.locator(f'.table-item[data-table="{table_id}"] .join[data-seat="1"]')
    join.wait_for()
    server.post(f"/api/tables/{table_id}/seats/1/claim", {"name": "Cid"})  # someone is quicker
    join.click()
    page.locator(".toast-error").filter(has_text="That seat is already taken.").wait_for()


def test_the_language_switch_changes_the_texts(new_page: Any, server: LiveServer) -> None:
    page = new_page()
    page.goto("/")
    page.locator("#quick-digging").wait_for()
    page.locator("#lang").select_option("fr")
    assert page.locator("#quick-digging").inner_text().strip() == "Jouer à Digging contre des robots"
    assert page.locator("#rules-text").filter(has_text="Distribution").count() == 1
    page.locator("#lang").select_option("de")
    assert page.locator("#quick-digging").inner_text().strip() == "Digging gegen Bots spielen"
    assert page.evaluate("document.documentElement.lang") == "de"

    # The choice is remembered, and the table speaks it too.
    page.click("#quick-digging")
    page.locator(".hand .card").first.wait_for()
    assert page.locator('[data-action="draw"]').inner_text().startswith("Ziehen")
    assert page.locator("#log li").last.inner_text().startswith("Runde 1:")
    page.locator("#lang").select_option("fr")
    assert page.locator('[data-action="draw"]').inner_text().startswith("Piocher")
    assert page.locator("#log li").last.inner_text().startswith("Manche 1 :")
    page.click("#rules-btn")
    assert "les règles en bref" in page.locator(".modal h2").inner_text()
    screenshot(page, "digging-rules-fr")
    page.keyboard.press("Escape")
    page.locator("#lang").select_option("en")
    assert page.locator('[data-action="draw"]').inner_text().startswith("Draw")


def test_every_text_exists_in_every_language(new_page: Any, server: LiveServer) -> None:
    page = new_page()
    page.goto("/")
    keys = page.evaluate(
        """async () => {
            const m = await import('/js/i18n.js');
            return Object.fromEntries(Object.entries(m.STRINGS).map(([l, s]) => [l, Object.keys(s)]));
        }"""
    )
    assert set(keys["en"]) == set(keys["fr"]) == set(keys["de"])
    used = set()
    for path in (p for p in (STATIC / "js").glob("*.js") if p.name != "i18n.js"):
        text = path.read_text()
        used |= set(re.findall(r"""\bt\(\s*["']([\w.]+)["']""", text))
        # Keys chosen in a t(cond ? "a" : "b") call are plain string literals of a key's shape.
        used |= {
            k
            for k in re.findall(rf"""["']((?:{PREFIXES})\.[A-Za-z]+(?:\.[A-Za-z]+)?)["']""", text)
            if not k.endswith((".html", ".js"))
        }
    for path in STATIC.glob("*.html"):
        used |= set(re.findall(r'data-i18n="([\w.]+)"', path.read_text()))
        used |= {
            k
            for pair in re.findall(r'data-i18n-attr="([^"]+)"', path.read_text())
            for k in [p.split(":")[1] for p in pair.split(";")]
        }
    missing = sorted(used - set(keys["en"]))
    assert not missing, f"texts used but not defined: {missing}"


def test_a_phone_sized_screen_has_no_sideways_scrolling(new_page: Any, server: LiveServer) -> None:
    page = new_page(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page.goto("/")
    page.locator("#f-create").wait_for()
    no_horizontal_scroll(page)
    screenshot(page, "phone-lobby")
    page.click("#quick-digging")
    page.locator(".hand .card").first.wait_for()
    wait_until(lambda: my_turn(page), 20)
    # Play a card to a target on the small screen, then look again.
    for _ in range(6):
        wait_until(lambda: my_turn(page), 20)
        digging_step(page, prefer_draw=False)
    no_horizontal_scroll(page)
    screenshot(page, "phone-digging-table")
