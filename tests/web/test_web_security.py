"""The browser client works under the server's Content-Security-Policy: no inline script or
style, no eval, nothing from another origin. Any violation is a console error, which fails
the test (see ``new_page`` in conftest.py)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect
from webplay import wait_until

from conftest import LiveServer

pytestmark = pytest.mark.browser

HUMAN = {"kind": "human"}
BOT = {"kind": "bot", "bot": "random"}


def test_lobby_and_table_run_under_the_content_security_policy(new_page: Any, server: LiveServer) -> None:
    page = new_page(bypass_csp=False)
    csp: list[str] = []
    page.on("response", lambda r: csp.append(r.headers.get("content-security-policy", "")))
    page.goto("/")
    page.fill("#player-name", "Ann")
    page.click("#quick-digging")
    page.wait_for_url(re.compile(r"/table\.html\?t=[\w-]+&seat=0$"))
    page.locator(".hand .card").nth(5).wait_for()
    page.locator(".seat").nth(3).wait_for()
    page.locator("#log li").first.wait_for()
    page.locator("svg#gf-icons").wait_for(state="attached")
    assert csp and all("script-src 'self'" in header for header in csp if header)
    # The icon sprite is hidden by an attribute, not an inline style the policy would block.
    assert page.locator("svg#gf-icons").evaluate("e => getComputedStyle(e).display") == "none"


def test_the_replays_costly_marks_and_the_hourglass_are_drawn_under_the_policy(
    new_page: Any, server: LiveServer, tmp_path: Path
) -> None:
    # Both are placed by style properties, which the policy lets the page set through the CSSOM
    # only: a style attribute is refused (a console error, and every mark at the left end), and a
    # custom property such as the hourglass's --sand is set with setProperty alone.
    created = server.post("/api/tables", {"game": "digger", "seats": [BOT, BOT]})
    tid = created["table"]["id"]
    wait_until(lambda: server.get(f"/api/tables/{tid}")["status"] == "finished", timeout=300)
    steps = len(server.get(f"/api/tables/{tid}/replay?seat=0")["frames"]) - 1
    record_file, analysis_file = tmp_path / "game.json", tmp_path / "analysis.json"
    record_file.write_text(json.dumps(server.get(f"/api/tables/{tid}/record")))
    decisions = [{"step": s, "played": "roll", "best": "stop", "drop": 0.3} for s in range(1, steps + 1, 2)]
    analysis_file.write_text(json.dumps({"seat": 0, "decisions": decisions}))
    page = new_page(bypass_csp=False)

    def digger_analysed(route: Any) -> None:  # Digger offers no analysis; this one is made up
        games = route.fetch().json()
        route.fulfill(json=[{**g, "analysis": g.get("analysis") or "made up"} for g in games])

    page.route("**/api/games", digger_analysed)
    page.goto("/replay.html")
    page.set_input_files("#record-file", str(record_file))
    page.locator("#analysis-panel").wait_for()
    page.set_input_files("#an-file", str(analysis_file))
    marks = page.locator("#marks .mark")
    expect(marks).to_have_count(len(decisions))
    lefts = [float(x.rstrip("%")) for x in marks.evaluate_all("els => els.map((e) => e.style.left)")]
    assert lefts == sorted(lefts) and len(set(lefts)) == len(lefts) and lefts[-1] > 50, lefts

    # A seat that watches another dig sees the hourglass, drawn with how much sand is left.
    table = server.post("/api/tables", {"game": "digger", "seats": [BOT, HUMAN], "claim": 1})
    watcher = new_page(bypass_csp=False)
    watcher.goto(f"/table.html?t={table['table']['id']}&seat=1#token={table['you']['token']}")
    glass = watcher.locator(".glass")
    glass.wait_for()
    sand = glass.evaluate("(e) => e.style.getPropertyValue('--sand')")
    assert sand and 0.0 <= float(sand) <= 1.0, sand
