"""Playing through the page, as a person would: click a card, then a highlighted target."""

from __future__ import annotations

import time
from typing import Any

from playwright.sync_api import TimeoutError as PlaywrightTimeout


def close_modal(page: Any) -> bool:
    button = page.locator(".modal-backdrop .modal .btn.primary")
    if button.count():
        button.first.click()
        return True
    return False


def my_turn(page: Any) -> bool:
    return page.locator(".turn-banner.mine-turn").count() > 0


def _click_unless_a_dialog(page: Any, click: Any) -> bool:
    """Click; False if a dialog (a hand's scoring) came up over the table meanwhile,
    which a player would read first. Waits as long as the click needs otherwise."""
    try:
        click(timeout=10_000)
    except PlaywrightTimeout:
        if page.locator(".modal-backdrop").count():
            return False
        click(timeout=90_000)
    return True


def digging_step(page: Any, prefer_draw: bool = True) -> str | None:
    """One simple legal move if it is this page's turn: draw when possible, else the first
    selectable card on its first highlighted target. Returns the move, or None (not this
    page's turn, or a dialog came up over the table first: the caller deals with it)."""
    if page.evaluate("document.body.dataset.status") != "playing" or not my_turn(page):
        return None
    if page.locator(".modal-backdrop").count():
        return None
    seq = page.evaluate("document.body.dataset.seq")
    draw = page.locator('[data-action="draw"]:not([disabled])')
    skip = page.locator('[data-action="skip"]')
    move = None
    if prefer_draw and draw.count():
        draw.click()
        move = "draw"
    elif skip.count():
        skip.click()
        move = "skip"
    else:
        card = page.locator(".hand .card.selectable")
        if not card.count():
            if draw.count():
                draw.click()
                move = "draw"
            else:
                return None
        else:
            code = card.first.get_attribute("data-card")
            # Cards of one kind are drawn as an overlapping stack: click the top one, as a player would.
            top = page.locator(f'.hand .card.selectable[data-card="{code}"]').last
            if not _click_unless_a_dialog(page, top.click):
                return None
            target = page.locator(".target[data-move]:not([disabled])").first
            target.wait_for(state="visible")
            move = target.get_attribute("data-move")
            assert move is not None and move.split()[:2] in (["play", code], ["pass", code]), (code, move)
            if not _click_unless_a_dialog(page, target.click):
                return None
    # The move is answered by an update: the page then shows a later step.
    page.wait_for_function(f"document.body.dataset.seq !== {seq!r}", timeout=90_000)
    return move


def wait_until(predicate: Any, timeout: float = 60, step: float = 0.05) -> None:
    deadline = time.time() + timeout
    while time.time() < deadline:
        if predicate():
            return
        time.sleep(step)
    raise AssertionError("timed out")


def hand_codes(page: Any) -> list[str]:
    return page.locator(".hand .card").evaluate_all("els => els.map(e => e.dataset.card)")


def digger_step(page: Any, max_rolls: int = 4) -> str | None:
    """One Digger decision if this page digs: take blue first, then any token shown once;
    stop once something is in the haul and nothing more is offered; else roll (up to
    ``max_rolls`` a turn). Returns the move, or None."""
    if page.evaluate("document.body.dataset.status") != "playing" or not my_turn(page):
        return None
    seq = page.evaluate("document.body.dataset.seq")
    takes = page.locator(".dg-controls .take[data-move]:not([disabled])")
    blue = page.locator('.dg-controls .take[data-move="take B"]:not([disabled])')
    roll = page.locator('[data-action="roll"]:not([disabled])')
    stop = page.locator('[data-action="stop"]:not([disabled])')
    dg = page.locator(".dg")
    haul = int(dg.get_attribute("data-haul") or 0)
    rolls = int(dg.get_attribute("data-rolls") or 0)
    if blue.count():
        button = blue.first
    elif takes.count():
        button = takes.first
    elif stop.count() and (haul > 0 or rolls >= max_rolls):
        button = stop.first
    elif roll.count():
        button = roll.first
    else:
        return None
    move = button.get_attribute("data-move")
    button.click()
    page.wait_for_function(f"document.body.dataset.seq !== {seq!r}", timeout=90_000)
    return move


def replay_with_made_up_analysis(page: Any, record_file: Any, analysis_file: Any) -> None:
    """Open a Digger record, and an analysis of it, in the replay viewer. Digger offers no
    analysis (a Digger game is the quickest to play to its end), so the server's list of games
    is answered as if it did, and the analysis is made up."""

    def analysed(route: Any) -> None:
        games = route.fetch().json()
        route.fulfill(json=[{**g, "analysis": g.get("analysis") or "made up"} for g in games])

    page.route("**/api/games", analysed)
    page.goto("/replay.html")
    page.set_input_files("#record-file", str(record_file))
    page.locator("#analysis-panel").wait_for()
    page.set_input_files("#an-file", str(analysis_file))


def narrated(page: Any, game: str, events: list[dict[str, Any]], names: list[str]) -> list[str]:
    """The client's log lines for ``events`` of ``game``, seats named by ``names`` (loads the lobby)."""
    page.goto("/")
    page.locator(f"#quick-{game}").wait_for()
    return page.evaluate(
        """async ([game, events, names]) => {
        const { narrate } = await import("/js/narrate.js");
        return events.map((ev) => narrate(game, ev, (seat) => names[seat]));
    }""",
        [game, events, names],
    )
