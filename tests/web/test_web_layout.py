"""The client's layout and small behaviours under awkward input: long names, hidden elements,
the lobby's extra pages. (This module has its own server, so it knows every table listed.)"""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect
from webplay import replay_with_made_up_analysis, wait_until
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from conftest import LiveServer, screenshot

pytestmark = pytest.mark.browser

HUMAN = {"kind": "human"}
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
DESKTOP = {"viewport": {"width": 1280, "height": 800}}
# Names as long as the server takes, without a place to break: an e-mail address, a wall of Ws.
LONG_PLAYER = "W" * 40
LONG_BOT = "rumpelstiltskin.the.miller@example.org"[:40]
LONG_TABLE = "Ｗ" * 40 + "M" * 40


def bot(name: str, spec: str = "random") -> dict[str, Any]:
    return {"kind": "bot", "bot": spec, "name": name}


def fits(page: Any, width: int, what: str) -> None:
    """Nothing sticks out sideways. On a phone (is_mobile) the window widens to the page, so
    the page is measured against the width of the screen, not innerWidth."""
    wide = page.evaluate("document.documentElement.scrollWidth")
    assert wide <= width, f"{what} scrolls sideways: {wide} px wide on a {width} px screen"


def test_long_names_wrap_or_are_cut_and_no_page_scrolls_sideways(new_page: Any, server: LiveServer) -> None:
    created = server.post("/api/tables", {
        "game": "digging", "name": LONG_TABLE, "claim": 0, "player_name": LONG_PLAYER,
        "seats": [HUMAN, bot("B" * 40), HUMAN, bot(LONG_BOT)],
    })
    tid = created["table"]["id"]
    waiting_link = created["you"]["link"]
    playing = server.post("/api/tables", {
        "game": "digging", "name": LONG_TABLE, "claim": 0, "player_name": LONG_PLAYER,
        "seats": [HUMAN, bot("B" * 40), bot("Q" * 40), bot(LONG_BOT)],
    })
    for kind, size in (("desktop", DESKTOP), ("phone", PHONE)):
        width = size["viewport"]["width"]
        page = new_page(**size)
        page.goto("/")
        page.locator(f'li[data-table="{tid}"]').wait_for()
        fits(page, width, f"the lobby ({kind})")
        page.goto(waiting_link)
        page.locator(".seat-list").first.wait_for()
        fits(page, width, f"a waiting table ({kind})")
        page.goto(playing["you"]["link"])
        page.locator(".hand .card").first.wait_for()
        fits(page, width, f"a table in play ({kind})")
        # A seat's head cuts a long name, and its title gives it whole.
        head = page.locator('.seat[data-seat="3"] .seat-name')
        expect(head).to_have_attribute("title", LONG_BOT)
        # So does the top bar, which keeps its buttons on the name's row on a desktop.
        expect(page.locator("#table-name .table-title")).to_have_attribute("title", LONG_TABLE)
        if kind == "desktop":
            rows = page.evaluate(
                "['#table-name', '#rules-btn', '#share-btn', '#lang'].map((s) =>"
                " Math.round(document.querySelector(s).getBoundingClientRect().bottom))"
            )
            assert max(rows) - min(rows) <= 12, f"the top bar wraps its long name onto two rows: {rows}"
        screenshot(page, f"long-names-{kind}", full_page=False)


@pytest.mark.parametrize("language", ["en", "fr", "de"])
def test_the_chat_placeholder_is_read_whole_in_every_language(
    new_page: Any, server: LiveServer, language: str
) -> None:
    created = server.post("/api/tables", {"game": "digging", "claim": 0, "seats": [HUMAN, bot("Ben"), bot("Cy")]})
    for kind, size in (("desktop", DESKTOP), ("phone", PHONE)):
        page = new_page(**size, locale=language)
        page.goto(created["you"]["link"])
        page.locator("#chat-input").wait_for()
        room, text, placeholder = page.evaluate(
            """() => {
            const input = document.querySelector('#chat-input');
            const style = getComputedStyle(input);
            const pen = document.createElement('canvas').getContext('2d');
            pen.font = style.font;
            const room = input.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
            return [room, pen.measureText(input.placeholder).width, input.placeholder];
        }"""
        )
        assert text <= room, f"{language} ({kind}): {placeholder!r} needs {text:.0f} px, the input has {room:.0f}"


def test_hidden_things_stay_hidden_and_more_tables_survive_the_lobby_refresh(
    new_page: Any, server: LiveServer
) -> None:
    page = new_page()
    # The replay viewer without a table: no stepping controls that would do nothing.
    page.goto("/replay.html")
    expect(page.locator("#controls")).to_be_hidden()
    # A lobby of one page offers no "More tables" (the server lists 50 a page).
    listed = len(server.get("/api/tables?status=live&limit=200"))
    for i in range(max(0, 50 - listed)):
        server.post("/api/tables", {"game": "digging", "name": f"T{i}", "seats": [HUMAN, bot("Rex")]})
    page.goto("/")
    expect(page.locator("#table-list > li.table-item")).to_have_count(50)
    expect(page.locator("#more-tables")).to_be_hidden()
    for i in range(5):
        server.post("/api/tables", {"game": "digging", "name": f"U{i}", "seats": [HUMAN, bot("Rex")]})
    page.click("#refresh")
    expect(page.locator("#more-tables")).to_be_visible()
    # A refresh (every 5 s, or the button) that starts while "More" waits for its answer replaces
    # that load: it must load the second page too, or the click is lost.
    held: list[Any] = []
    lists = re.compile(r"/api/tables\?")

    def hold_the_first_next_page(route: Any) -> None:
        if "before=" in route.request.url and not held:
            held.append(route)  # answered below, once the refresh has been drawn
        else:
            route.continue_()

    page.route(lists, hold_the_first_next_page)
    page.click("#more-tables")
    for _ in range(1800):  # the page's own wait, which lets Playwright hand the request over
        if held:
            break
        page.wait_for_timeout(50)
    assert held
    page.click("#refresh")
    expect(page.locator("#table-list > li.table-item")).to_have_count(55)
    held[0].continue_()
    page.unroute(lists)
    expect(page.locator("#table-list > li.table-item")).to_have_count(55)
    expect(page.locator("#more-tables")).to_be_hidden()
    # The next refreshes (every 5 s) reload both pages rather than fall back to the first.
    loads = int(page.evaluate("document.body.dataset.lobbyLoads"))
    page.wait_for_function(f"Number(document.body.dataset.lobbyLoads) >= {loads + 2}")
    expect(page.locator("#table-list > li.table-item")).to_have_count(55)


def test_keyboard_focus_in_the_lobby_list_survives_its_refresh(new_page: Any, server: LiveServer) -> None:
    seats = [HUMAN, HUMAN, bot("Rex")]
    tid = server.post("/api/tables", {"game": "digging", "name": "Focus", "seats": seats})["table"]["id"]
    page = new_page()
    page.goto("/")
    page.locator(f'li.table-item[data-table="{tid}"] [data-key="join 1"]').focus()
    server.post(f"/api/tables/{tid}/seats/0/claim", {"name": "Ann"})  # the button before it goes
    loads = int(page.evaluate("document.body.dataset.lobbyLoads"))
    page.wait_for_function(f"Number(document.body.dataset.lobbyLoads) >= {loads + 1}")  # every 5 s
    focused = page.evaluate("""() => {
      const a = document.activeElement;
      const item = a && a.closest('li.table-item');
      return item ? [item.dataset.table, a.dataset.key] : null;
    }""")
    assert focused == [tid, "join 1"]  # the same control, though it now stands first
    # Every table's copy-link button is named for its table, not just "Copy".
    share = page.locator(f'li.table-item[data-table="{tid}"] [data-key="share"]')
    assert share.evaluate("(b) => b.textContent.trim()").endswith(": Focus")


CHART = """async (summary) => {
  const { chart } = await import("/js/summary.js");
  const fig = chart(summary, [{ seats: [0], label: "Ann" }, { seats: [1], label: "Bob" }]);
  return {
    labels: [...fig.querySelectorAll("text.xlabel")].map((e) => e.textContent),
    points: fig.querySelector("polyline").getAttribute("points").split(" ").length,
    caption: fig.querySelector("figcaption").textContent,
  };
}"""


def test_the_score_chart_labels_each_point_with_its_hand_number_0_0_hands_too(new_page: Any) -> None:
    page = new_page()
    page.goto("/")
    page.locator("#table-list").wait_for()
    hands = [[3, 0], [0, 0], [0, 5], [0, 0], [2, 2]]
    # What the server sends: the totals each time they change (so not after a 0-0 hand).
    progress = [{"step": s, "scores": sc} for s, sc in ((1, [0, 0]), (9, [3, 0]), (30, [3, 5]), (51, [5, 7]))]
    summary = {"game": "digging", "players": 2, "sides": [[0], [1]], "hands": hands, "scores": [5, 7],
               "winners": [1], "progress": progress}
    got = page.evaluate(CHART, summary)
    assert got["labels"] == ["1", "2", "3", "4", "5"]  # hand 5's total drawn at "5", not at "3"
    assert got["points"] == 6  # the start and every hand
    assert "Totals after each hand" in got["caption"]
    # A summary whose hands do not add up to its scores: the score changes, each at its hand.
    got = page.evaluate(CHART, {**summary, "scores": [6, 7]})
    assert got["labels"] == ["1", "3", "5"] and got["points"] == 4
    # Each change names its hand (the server's summary does): said even where no hand's totals match.
    named = [{"step": s, "hand": k, "scores": sc}
             for s, k, sc in ((1, 1, [0, 0]), (9, 1, [4, 0]), (30, 3, [4, 5]), (51, 5, [6, 7]))]  # fmt: skip
    got = page.evaluate(CHART, {**summary, "scores": [6, 7], "progress": named})
    assert got["labels"] == ["1", "3", "5"] and got["points"] == 4
    # A long game labels every few hands, and always the last.
    many = {**summary, "hands": [[1, 0]] * 41, "scores": [41, 0], "progress": []}
    labels = page.evaluate(CHART, many)["labels"]
    assert labels[-1] == "41" and len(labels) <= 21 and labels[:2] == ["3", "6"]


def test_an_old_link_to_a_finished_table_shows_its_result_replay_and_record(
    new_page: Any, tmp_path: Path
) -> None:
    # A server that archives a finished table at once (--keep-finished 0).
    archive = LiveServer(tmp_path / "archive.db", bot_delay=0.0, keep_finished=0.0, sweep_every=0.2).start()
    try:
        created = archive.post("/api/tables", {"game": "digger", "name": "Old game",
                                               "seats": [bot("Rex"), bot("Sal")]})
        tid = created["table"]["id"]
        wait_until(lambda: archive.get(f"/api/tables/{tid}")["status"] == "finished", timeout=120)
        wait_until(lambda: not_live(archive, tid), timeout=120)
        page = new_page()
        page.goto(f"{archive.base}/table.html?t={tid}")
        result = page.locator("#notice .notice.archived")
        expect(result).to_be_visible()
        expect(result.locator("h2")).to_contain_text("Game over")
        expect(result.locator(".hands-table tr.total")).to_be_visible()
        expect(result.get_by_role("link", name="Watch the replay")).to_have_attribute("href", f"/replay.html?t={tid}")
        expect(result.get_by_role("link", name="Game record")).to_have_attribute("href", f"/api/tables/{tid}/record")
        expect(page.locator("#table-name")).to_contain_text("Old game")
        assert "does not exist" not in page.locator("#notice").inner_text()
        screenshot(page, "archived-table-link", full_page=False)
        # A table that never was is still said not to exist.
        page.goto(f"{archive.base}/table.html?t=NoSuchTb")
        expect(page.locator("#notice")).to_contain_text("This table does not exist")
    finally:
        archive.stop()


SAW_WAITING = """new MutationObserver(() => {
  if (document.querySelector("#notice .notice.waiting")) window.sawWaiting = true;
}).observe(document, {subtree: true, childList: true});"""
"""Notes, in the page, that it was ever open on the table while it waited."""


def test_a_table_that_expires_while_open_says_so_and_takes_no_roll(new_page: Any, tmp_path: Path) -> None:
    # The page must be open on the table, seated, before the table expires: a table that expired
    # first is gone, and the page says it does not exist. However long a loaded machine
    # takes to open the page, then: waiting tables expire after 4 s at first, and after twice as
    # long on a new server each time the page was late.
    expiry = 4.0
    while True:
        short = LiveServer(tmp_path / f"short-{expiry:g}.db", waiting_expiry=expiry, sweep_every=0.2).start()
        page = None
        try:
            created = short.post("/api/tables", {"game": "digger", "seats": [{"kind": "human"}, {"kind": "human"}],
                                                 "claim": 0})  # fmt: skip
            tid, token = created["table"]["id"], created["you"]["token"]
            page = new_page()
            page.add_init_script(SAW_WAITING)
            sent: list[str] = []
            page.on("websocket", lambda ws, sent=sent: ws.on("framesent", lambda frame: sent.append(str(frame))))
            page.goto(f"{short.base}/table.html?t={tid}&seat=0#token={token}")
            notice = page.locator("#notice .notice.warn")
            expect(notice.or_(page.get_by_text("This table does not exist"))).to_be_visible(timeout=120_000)
            if page.evaluate("window.sawWaiting === true"):
                break
            assert expiry < 60, "the page never opened on the table before it expired"
            page.close()
        except BaseException:
            if page is not None:
                page.close()  # before the server goes, as below
            short.stop()
            raise
        short.stop()
        expiry *= 2
    try:
        expect(notice).to_be_visible()  # closed while open, not gone from a socket that reconnected
        expect(notice).to_contain_text("This table was closed: its seats waited too long for players")
        expect(notice.get_by_role("link", name="Back to the lobby")).to_have_attribute("href", "/")
        expect(page.locator(".turn-banner")).to_contain_text("expired: nobody joined in time")
        page.keyboard.press("r")  # the roll key does nothing at a closed table
        page.keyboard.press("s")
        page.wait_for_timeout(500)  # for a frame that must not come: a loaded machine can only hide it
        assert not [frame for frame in sent if '"move"' in frame]
        expect(page.locator(".toast-error")).to_have_count(0)
        assert short.get(f"/api/tables/{tid}")["seq"] == 0
        screenshot(page, "expired-table", full_page=False)
        page.close()  # before the server goes: its socket would try to reconnect, and log the refusal
    finally:
        short.stop()


def test_a_game_closed_as_abandoned_says_so_to_whoever_watches(new_page: Any, tmp_path: Path) -> None:
    # Ann claimed her seat and went without a move: her game against a bot pauses, and is closed
    # after --abandoned-expiry (4 s here). A spectator's page says why.
    short = LiveServer(tmp_path / "short.db", abandoned_expiry=4.0, sweep_every=0.2).start()
    try:
        created = short.post("/api/tables", {"game": "digging", "seats": [{"kind": "human"},
                                             {"kind": "bot", "bot": "random"}], "claim": 0, "partnership": False})
        tid = created["table"]["id"]
        page = new_page()
        # Ann is at the table until the spectator's page is open, so the 4 s of absence start once
        # it is, however long a busy machine takes to load the page.
        with connect(f"ws://127.0.0.1:{short.port}/api/tables/{tid}/ws", open_timeout=30) as ann:
            ann.send(json.dumps({"type": "hello", "seat": 0, "token": created["you"]["token"]}))
            while json.loads(ann.recv(timeout=60)).get("type") != "update":
                pass
            page.goto(f"{short.base}/table.html?t={tid}")
            expect(page.locator("#conn")).to_have_attribute("data-status", "online")
        notice = page.locator("#notice .notice.warn")
        expect(notice).to_contain_text("This game was closed: nobody was at the table", timeout=90_000)
        expect(notice.get_by_role("link", name="Back to the lobby")).to_have_attribute("href", "/")
        expect(page.locator(".turn-banner")).to_contain_text("abandoned: nobody came back to it")
        # What was played is kept: the replay opens on the deal, and the record downloads.
        with page.expect_download() as download:
            notice.get_by_role("link", name="Game record").click()
        assert json.loads(Path(download.value.path()).read_text())["game"] == "digging"
        notice.get_by_role("link", name="Watch the replay").click()
        # Until the replay has loaded, the page may have no body to read the step from.
        page.wait_for_url(re.compile(r"/replay\.html\?t="))
        page.wait_for_function("document.body.dataset.step === '0'")  # the deal: Ann never moved
        expect(page.locator("#step")).to_contain_text("Step 1 of 1")
        expect(page.locator(".turn-banner")).to_contain_text("abandoned: nobody came back to it")
        page.close()
    finally:
        short.stop()


def test_a_game_stopped_at_the_length_cap_says_so_and_keeps_its_replay(new_page: Any, tmp_path: Path) -> None:
    # Four random bots reach --max-game-steps (60 here) long before a game of them would end.
    short = LiveServer(tmp_path / "short.db", max_game_steps=60).start()
    try:
        created = short.post("/api/tables", {"game": "digging", "seats": [{"kind": "bot", "bot": "random"}] * 4})
        tid = created["table"]["id"]
        deadline = time.monotonic() + 120
        while short.get(f"/api/tables/{tid}")["status"] != "stopped":
            assert time.monotonic() < deadline, "the game was never stopped"
            time.sleep(0.2)
        page = new_page()
        # Opened afterwards, from a link: the game is no longer live, and its page says why.
        page.goto(f"{short.base}/table.html?t={tid}")
        notice = page.locator("#notice .notice")
        expect(notice).to_contain_text("This game was stopped: it reached the server's limit on a game's length")
        with page.expect_download() as download:
            notice.get_by_role("link", name="Game record").click()
        assert json.loads(Path(download.value.path()).read_text())["game"] == "digging"
        notice.get_by_role("link", name="Watch the replay").click()
        page.wait_for_url(re.compile(r"/replay\.html\?t="))
        # It opens on the last step, which ends on the closing status; the deal was still in play.
        expect(page.locator(".turn-banner")).to_contain_text("stopped: too long")
        page.locator("#first").click()
        page.wait_for_function("document.body.dataset.step === '0'")
        expect(page.locator(".turn-banner")).not_to_contain_text("stopped")
        page.close()
    finally:
        short.stop()


def test_updates_that_arrive_while_the_board_loads_mount_one_board(new_page: Any, server: LiveServer) -> None:
    # The game's module is held back while the bots' updates keep coming: they wait their turn.
    created = server.post("/api/tables", {"game": "digger", "seats": [{"kind": "bot", "bot": "random"}] * 2})
    page = new_page()
    held: list[str] = []

    def slow(route: Any) -> None:
        held.append(route.request.url)
        time.sleep(1.5)  # the updates queue up behind the module meanwhile
        route.continue_()

    page.route("**/js/digger.js", slow)
    page.goto(f"/table.html?t={created['table']['id']}")
    page.locator("#side .scores").first.wait_for()
    wait_until(lambda: int(page.evaluate("document.body.dataset.seq || 0")) > 0)
    assert held and page.locator("#side .scores").count() == 1 and page.locator("#game .dice-row").count() <= 1


def not_live(server: LiveServer, tid: str) -> bool:
    """The server has archived the table: its socket closes with 4404 (no such live table)."""
    try:
        with connect(f"ws://127.0.0.1:{server.port}/api/tables/{tid}/ws", open_timeout=30) as ws:
            ws.send(json.dumps({"type": "hello"}))
            while json.loads(ws.recv(timeout=30)).get("type") != "update":
                pass
            return False
    except ConnectionClosed as closed:
        return closed.rcvd is not None and closed.rcvd.code == 4404


def test_a_mistyped_address_gets_a_page_in_the_visitors_language_and_a_missing_table_one_message(
    new_page: Any,
) -> None:
    page = new_page(locale="de-DE")
    page.goto("/nothing.html")
    expect(page.locator("h1")).to_have_text("Hier ist nichts")
    expect(page.get_by_role("link", name="Zurück zur Lobby")).to_have_attribute("href", "/")
    # A table that does not exist says so alone: not also that this browser holds no key for the seat.
    page.goto("/table.html?t=NoSuchTbl&seat=2")
    expect(page.locator("#notice")).to_contain_text("Diesen Tisch gibt es nicht")
    page.wait_for_timeout(500)  # for a toast that must not come: a loaded machine can only hide it
    expect(page.locator(".toast-error")).to_have_count(0)
    # Its replay says so too, without the empty panels of a game.
    page.goto("/replay.html?t=NoSuchTbl")
    expect(page.locator("#notice .notice.error")).to_be_visible()
    expect(page.locator("#side")).to_be_hidden()


def test_an_address_that_cannot_name_a_table_is_refused_at_once(new_page: Any) -> None:
    page = new_page()
    for bad in ("a%2Fb", "a%20b", "x" * 40):
        page.goto(f"/table.html?t={bad}")
        expect(page.locator("#notice")).to_contain_text("This table does not exist")
        expect(page.locator("#conn")).to_have_attribute("data-status", "gone")


def test_a_toast_fading_out_comes_back_when_its_message_is_told_again(new_page: Any) -> None:
    # A refusal repeated as the first one's toast fades out: one toast, shown again, never two.
    # The page's own timers order it (fading at 50 ms, gone at 450 ms, told again at 100 ms), so a
    # page that stalls past all three still runs them in that order.
    page = new_page()
    page.goto("/")
    seen = page.evaluate("""async () => {
        const { toast } = await import("/js/dom.js");
        const shown = () => [...document.querySelectorAll(".toast-error")]
            .filter((el) => el.textContent === "Slow down");
        toast("Slow down", "error", 50);
        await new Promise((done) => setTimeout(done, 100));
        const fading = shown().map((el) => el.classList.contains("leaving"));
        toast("Slow down", "error", 8000);
        const again = shown().map((el) => el.classList.contains("leaving"));
        // A refusal whose wording moved on ("try again in 59 s", then 58): one toast, the new words.
        toast("Wait 59 s", "error", 8000, "rate_limited");
        toast("Wait 58 s", "error", 8000, "rate_limited");
        const keyed = [...document.querySelectorAll(".toast-error")].filter((el) => el.dataset.key === "rate_limited");
        return [fading, again, keyed.map((el) => el.textContent)];
    }""")
    assert seen == [[True], [False], ["Wait 58 s"]]


MOST_ERROR_TOASTS = """window.mostRefusalToasts = 0;
window.errorToasts = [];
new MutationObserver(() => {
  const shown = [...document.querySelectorAll(".toast-error")].map((el) => el.textContent);
  for (const text of shown) if (!window.errorToasts.includes(text)) window.errorToasts.push(text);
  const refusals = shown.filter((text) => text.includes("Too many at once")).length;
  window.mostRefusalToasts = Math.max(window.mostRefusalToasts, refusals);
}).observe(document, {subtree: true, childList: true});"""
"""Counts, in the page, the most rate-limit refusals it ever showed at once, and keeps every
error toast's text."""


def test_a_refused_chat_message_stays_in_the_input_and_is_told_once(new_page: Any, tmp_path: Path) -> None:
    # A server with its rate limits on, two chat messages an hour (a minute could pass between them).
    strict = LiveServer(tmp_path / "strict.db", bot_delay=0.05, rate_limits=True, chat_rate="2/hour").start()
    try:
        created = strict.post("/api/tables", {"game": "digging", "seats": [HUMAN, bot("Rex")], "claim": 0,
                                              "player_name": "Ann"})
        page = new_page()
        page.add_init_script(MOST_ERROR_TOASTS)
        refusals: list[str] = []
        page.on("websocket", lambda ws: ws.on(
            "framereceived", lambda frame: refusals.append(frame) if '"rate_limited"' in str(frame) else None))
        page.goto(f"{strict.base}{created['you']['link']}")
        chat = page.locator("#chat-input")
        for text in ("one", "two"):
            chat.fill(text)
            chat.press("Enter")
            expect(page.locator("#chat-list li", has_text=text)).to_have_count(1)
            expect(chat).to_have_value("")
        chat.fill("three")
        chat.press("Enter")
        notice = page.locator(".toast-error")
        expect(notice).to_have_count(1)
        expect(chat).to_have_value("three")  # refused: the text is kept to send later
        text = notice.inner_text()
        # Said once, with the wait in words the player reads (the limit is 2 an hour).
        assert text.count("Too many at once") == 1 and "60 min" in text, text
        for _ in range(4):
            chat.press("Enter")
            expect(chat).to_have_value("three")
        # (Playwright hands over the frames while it runs, so the wait is the page's own.)
        for _ in range(1800):
            if len(refusals) >= 5:
                break
            page.wait_for_timeout(50)
        assert len(refusals) >= 5, refusals
        page.evaluate("new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")
        # The same refusal, never stacked: counted all along, since on a loaded machine the toast
        # may have timed out by now (8 s after the last refusal reached the page).
        assert page.evaluate("window.mostRefusalToasts") == 1, page.evaluate("window.errorToasts")
        expect(page.locator("#chat-list li", has_text="three")).to_have_count(0)
        page.close()  # before the server goes: its socket would try to reconnect, and log the refusal
    finally:
        strict.stop()


def test_a_player_page_with_ratings_fits_a_phone(new_page: Any) -> None:
    # A profile as the server gives it, with ratings on every ladder and a game or two.
    ratings = [{"game": g, "mode": m, "rating": 1234.5, "games": 1234, "wins": 987}
               for g, m in (("digging", "partnership"), ("digging", "3p"), ("digger", "4p"))]
    history = [{"won": i % 2 == 0, "game": "digging", "mode": "partnership", "score": 61, "rating_before": 10.25,
                "rating_after": 12.5, "finished_at": 1_790_000_000, "table": "AbCdEfGh", "seat": 0} for i in range(3)]
    profile = {"id": "p1", "name": LONG_PLAYER, "bot": None, "ratings": ratings, "history": history}
    page = new_page(**PHONE)
    page.route("**/api/players/p1", lambda route: route.fulfill(json=profile))
    page.goto("/player.html?id=p1")
    page.locator("table.ratings").wait_for()
    fits(page, 390, "the player page")
    # Figures and words are kept whole (the table scrolls in its box if it must).
    one_line = "(e) => e.scrollHeight < 2.2 * parseFloat(getComputedStyle(e).lineHeight)"
    for cell in page.locator("table.ratings :is(td, th)").all():
        assert cell.evaluate(one_line), f"{cell.inner_text()!r} is broken over lines"
    screenshot(page, "phone-player")


def test_on_a_phone_a_rule_options_box_stays_beside_its_text(new_page: Any) -> None:
    page = new_page(**PHONE)
    page.goto("/")
    options = page.locator("#create-form .options .check")
    expect(options.first).to_be_attached()
    for option in options.all():
        box = option.locator("input").bounding_box()
        text = option.locator("span").bounding_box()
        assert box and text and box["x"] + box["width"] <= text["x"] and box["y"] < text["y"] + text["height"], \
            option.inner_text()
    fits(page, 390, "the lobby's form")


def test_on_a_phone_the_form_for_a_digger_table_fits_with_every_crate_card(new_page: Any) -> None:
    page = new_page(**PHONE)
    page.goto("/")
    page.locator("#f-create").wait_for()
    page.locator("#f-game").select_option("digger")
    fits(page, 390, "the Digger form (its crate side's long choices)")
    page.locator("#f-crates").select_option("black")
    page.locator("#f-players").select_option("5")
    rows = page.locator("fieldset.options .crate-row")
    expect(rows).to_have_count(5)
    fits(page, 390, "the Digger form with five crate cards")
    # A card's four values on one line, under its name.
    tops = {round(box["y"]) for box in (i.bounding_box() for i in rows.first.locator("input").all()) if box}
    assert len(tops) == 1, tops
    screenshot(page, "phone-digger-form")


def test_a_costly_move_clicked_in_the_replay_brings_the_board_into_sight(
    new_page: Any, server: LiveServer, tmp_path: Path
) -> None:
    created = server.post("/api/tables", {"game": "digger", "seats": [bot("Rex"), bot("Sal")]})
    tid = created["table"]["id"]
    wait_until(lambda: server.get(f"/api/tables/{tid}")["status"] == "finished", timeout=300)
    record = server.get(f"/api/tables/{tid}/record")
    steps = len(server.get(f"/api/tables/{tid}/replay?seat=0")["frames"]) - 1
    record_file, analysis_file = tmp_path / "game.json", tmp_path / "analysis.json"
    record_file.write_text(json.dumps(record))
    decisions = [{"step": s, "played": "roll", "best": "stop", "drop": 0.3 + s / (10 * steps)}
                 for s in range(1, steps + 1, max(1, steps // 12))]
    analysis_file.write_text(json.dumps({"seat": 0, "decisions": decisions}))
    page = new_page(viewport={"width": 1280, "height": 640})
    replay_with_made_up_analysis(page, record_file, analysis_file)
    page.wait_for_function("document.body.dataset.analysis === 'done'")
    last = page.locator("#an-list li button").last
    last.click()  # Playwright scrolls the list item into sight first, the board out of it
    page.wait_for_function(f"document.body.dataset.step === '{decisions[0]['step']}'")
    expect(page.locator("#controls")).to_be_in_viewport()
    expect(page.locator("#game")).to_be_in_viewport()


def test_hand_numbers_keep_to_one_line_in_a_narrow_game_summary(new_page: Any) -> None:
    page = new_page(**PHONE)
    page.goto("/")
    page.locator("#table-list").wait_for()
    lines = page.evaluate("""async (long) => {
      const { summaryView } = await import("/js/summary.js");
      const box = document.createElement("div");
      box.className = "modal";
      box.style.width = "340px";
      const names = [long, "Bob", long + "2", "Dan"];
      const summary = { game: "digging", players: 4, sides: [[0, 2], [1, 3]],
        hands: [[10, 5, 10, 5], [3, 30, 3, 30]], scores: [13, 35, 13, 35], winners: [1, 3], progress: [] };
      box.append(summaryView(summary, (s) => names[s]));
      document.body.append(box);
      return [...box.querySelectorAll(".hands-table tbody th")].map((th) =>
        [th.textContent, Math.round(th.getBoundingClientRect().height / parseFloat(getComputedStyle(th).lineHeight))]);
    }""", LONG_PLAYER)
    assert lines[0][0] == "Hand 1" and all(n <= 1 for _, n in lines), lines


def test_a_connection_that_falls_silent_is_opened_again(new_page: Any, server: LiveServer) -> None:
    # A half-open socket: the browser thinks it is connected, but nothing comes back, pongs included.
    tid = server.post("/api/tables", {"game": "digging", "name": "Silent", "seats": [HUMAN, bot("Rex")]})["table"]["id"]
    page = new_page()
    page.add_init_script("globalThis.GOLDFIELDS_PING_MS = 2000")  # a ping every 2 s, not a minute apart
    opened: list[Any] = []
    silent = {"on": False}  # the first connection only: the one opened again is heard

    def route(ws: Any) -> None:
        first = not opened
        upstream = ws.connect_to_server()
        upstream.on_message(lambda message: None if first and silent["on"] else ws.send(message))
        opened.append(ws)

    page.route_web_socket(re.compile(r".*/api/tables/.*/ws$"), route)
    page.goto(f"/table.html?t={tid}")
    expect(page.locator("#conn")).to_have_attribute("data-status", "online")
    assert len(opened) == 1
    silent["on"] = True
    for _ in range(1200):  # Playwright's own wait, so that the route above is served meanwhile
        if len(opened) == 2:
            break
        page.wait_for_timeout(100)
    assert len(opened) == 2
    expect(page.locator("#conn")).to_have_attribute("data-status", "online")


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_a_crowded_hand_keeps_every_card_inside_it_where_a_row_wraps(new_page: Any, viewport: dict[str, Any]) -> None:
    # Copies of a card overlap their twin; a copy that started a row hung out of the hand.
    page = new_page(**viewport)
    updates: list[dict[str, Any]] = []

    def keep(frame: Any) -> None:
        msg = json.loads(frame if isinstance(frame, str) else frame.decode())
        if msg.get("type") == "update" and msg.get("full"):
            updates.append(msg)

    page.on("websocket", lambda ws: ws.on("framereceived", keep))
    page.goto("/")
    page.click("#quick-digging")
    page.locator(".hand .card").first.wait_for()
    wait_until(lambda: bool(updates), timeout=60)
    big = ["MG"] * 3 + ["MS"] * 2 + ["G"] * 6 + ["GG"] + ["S"] * 5 + ["C"] * 4 + ["B3", "B11"]
    outside = page.evaluate(
        """async ([msg, hand]) => {
        const { mount } = await import("/js/digging.js");
        const root = document.createElement("div");
        document.querySelector("#game").replaceWith(root);
        const view = mount(root, { seat: 0, send: () => false, name: (s) => `Seat ${s}`,
          side: document.createElement("div"), tableId: msg.table.id, gameOver: () => {} });
        view.update({ ...msg, events: [], view: { ...msg.view, hand, legal: ["draw"] } });
        const box = root.querySelector(".hand").getBoundingClientRect();
        return [...root.querySelectorAll(".hand .card")]
          .filter((c) => {
            const r = c.getBoundingClientRect();
            return r.left < box.left - 1 || r.right > box.right + 1;
          })
          .map((c) => c.dataset.card);
    }""",
        [updates[-1], big],
    )
    assert outside == []
    assert page.locator(".hand .card").count() == len(big)
    fits(page, viewport["viewport"]["width"], "a hand of 23 cards")
    # On a phone the hand is pinned to the foot of the screen and scrolls inside itself: the
    # moves stay in sight there, not below the cards.
    expect(page.locator('[data-action="draw"]')).to_be_in_viewport()
    if viewport is PHONE:
        screenshot(page, "phone-crowded-hand", full_page=False)


def test_a_join_refused_for_the_join_rate_waits_as_long_as_the_server_says(new_page: Any, tmp_path: Path) -> None:
    # Each hello costs the server the seat's whole game; a refused one is told when to come back
    # (retry_after) and its socket closed with 1013. The page must wait that long, not fall back
    # on its half-second backoff and spend the address's joins as fast as they come back.
    strict = LiveServer(tmp_path / "join.db", rate_limits=True, join_rate="2/minute").start()
    try:
        tid = strict.post("/api/tables", {"game": "digger", "seats": [HUMAN, HUMAN]})["table"]["id"]
        for _ in range(2):  # the address's two joins of the minute: two watchers
            page = new_page()
            page.goto(f"{strict.base}/table.html?t={tid}")
            expect(page.locator("#table-name")).not_to_be_empty()
        late = new_page()
        opened: list[Any] = []
        told: list[dict[str, Any]] = []

        def watch(ws: Any) -> None:  # on the socket's creation, before any frame of it is handed on
            opened.append(ws)
            ws.on("framereceived", lambda payload: told.append(json.loads(payload)))

        late.on("websocket", watch)
        late.goto(f"{strict.base}/table.html?t={tid}")
        deadline = time.monotonic() + 60
        while not opened:
            assert time.monotonic() < deadline, "the page opened no socket"
            late.wait_for_timeout(100)  # Playwright hands on its events while it is called
        if not opened[0].is_closed():
            opened[0].wait_for_event("close")
        refusal = next(m for m in told if m.get("type") == "error")
        assert refusal["code"] == "rate_limited" and refusal["retry_after"] >= 10, refusal
        # Several backoff tries would have come in these seconds; the page waits for the minute instead.
        late.wait_for_timeout(5000)
        assert len(opened) == 1, f"{len(opened)} sockets opened before the {refusal['retry_after']} s it was told"
    finally:
        strict.stop()
