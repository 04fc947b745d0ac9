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
from webplay import replay_with_made_up_analysis, wait_until

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
    replay_with_made_up_analysis(page, record_file, analysis_file)
    marks = page.locator("#marks .mark")
    expect(marks).to_have_count(len(decisions))
    lefts = [float(x.rstrip("%")) for x in marks.evaluate_all("els => els.map((e) => e.style.left)")]
    assert lefts == sorted(lefts) and len(set(lefts)) == len(lefts) and lefts[-1] > 50, lefts

    # A seat that watches another dig sees the hourglass, drawn with how much sand is left. (Drawn
    # from the seat's own first update, set at another's dig: a bot's turn is over too soon to catch.)
    table = server.post("/api/tables", {"game": "digger", "seats": [BOT, HUMAN], "claim": 1})
    watcher = new_page(bypass_csp=False)
    updates: list[dict[str, Any]] = []

    def keep(frame: Any) -> None:
        msg = json.loads(frame if isinstance(frame, str) else frame.decode())
        if msg.get("type") == "update" and msg.get("full"):
            updates.append(msg)

    watcher.on("websocket", lambda ws: ws.on("framereceived", keep))
    watcher.goto(f"/table.html?t={table['table']['id']}&seat=1#token={table['you']['token']}")
    watcher.locator(".dg-top").wait_for()
    wait_until(lambda: bool(updates), timeout=60)
    sand = watcher.evaluate(
        """async (msg) => {
        const { mount } = await import("/js/digger.js");
        const root = document.createElement("div");
        document.querySelector("#game").replaceWith(root);
        const view = mount(root, { seat: 1, send: () => false, name: (s) => `Seat ${s}`,
          side: document.createElement("div"), tableId: msg.table.id, gameOver: () => {} });
        view.update({ ...msg, events: [], view: { ...msg.view, digger: 0, started: true, remaining: 12,
          winners: null } });
        return root.querySelector(".glass:not(.hidden-glass)").style.getPropertyValue("--sand");
    }""",
        updates[-1],
    )
    assert sand and 0.0 <= float(sand) <= 1.0, sand
