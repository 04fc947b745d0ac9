"""After the game, in the browser: the summary with its chart, play again (seat by seat), the
replay viewer, bot levels in the lobby and the turn alert. Screenshots go to
artifacts/screenshots/ (and the chosen ones to docs/img/)."""

from __future__ import annotations

import json
import re
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect
from websockets.sync.client import connect

from conftest import LiveServer, screenshot
from goldfields.server.ratings import bot_player_id

pytestmark = pytest.mark.browser

HUMAN = {"kind": "human"}


@pytest.fixture(scope="module")
def bot_delay() -> float:
    """Bots that move at once: these tests play whole games to reach what follows them (the other
    pages' 50 ms a bot move is a third of a game's time). The one page that watches a game as it is
    played paces its human player instead (see ``play_out``'s ``pause``)."""
    return 0.0


def bot(spec: str = "random", name: str = "Rex") -> dict[str, Any]:
    return {"kind": "bot", "bot": spec, "name": name}


def quick_move(view: dict[str, Any], seat: int) -> str:
    """A move that ends the game soon: close an own mine that holds chests, lay a chest on an own
    mine, open a mine in one's own display, else the first legal move. (A game of first legal
    moves draws the pile out hand after hand and scores nothing: some twenty hands.)"""
    legal = view["legal"]
    own = {m["name"]: m for m in view.get("mines") or [] if m["owner"] == seat and not m["closed"]}

    def target(move: str) -> str:
        return move.split()[-1]

    for wanted in (
        lambda m: m.startswith("play X ") and target(m) in own and own[target(m)]["chests"],
        lambda m: m.startswith("play ") and not m.startswith(("play X", "play B", "play M")) and target(m) in own,
        lambda m: m.startswith("play M") and target(m) == str(seat),
    ):
        for move in legal:
            if wanted(move):
                return move
    return legal[0]


def play_out(server: LiveServer, table_id: str, seat: int, token: str, pause: float = 0.0) -> None:
    """Play a seat to the end over the WebSocket, quickly rather than well (``pause``: seconds
    before each move, for a page that is to keep up with the game as it is played)."""
    with connect(f"ws://127.0.0.1:{server.port}/api/tables/{table_id}/ws", open_timeout=30, max_size=None) as ws:
        ws.send(json.dumps({"type": "hello", "seat": seat, "token": token}))
        while True:
            msg = json.loads(ws.recv(timeout=60))
            if msg["type"] != "update":
                continue
            if msg["table"]["status"] == "finished":
                return
            view = msg["view"]
            if view["to_move"] == seat and view["legal"]:
                time.sleep(pause)
                ws.send(json.dumps({"type": "move", "move": quick_move(view, seat), "seq": msg["seq"]}))


def finished_table(
    server: LiveServer, seats: list[dict[str, Any]], names: list[str], **config: Any
) -> tuple[str, list[str]]:
    """A game played to its end: (table id, each human seat's token)."""
    body = {"game": "digging", "seats": seats, "claim": 0, "player_name": names[0], **config}
    created = server.post("/api/tables", body)
    tid = created["table"]["id"]
    tokens = [created["you"]["token"]]
    for i, seat in enumerate(seats[1:], start=1):
        if seat["kind"] == "human":
            tokens.append(server.post(f"/api/tables/{tid}/seats/{i}/claim", {"name": names[len(tokens)]})["token"])
    humans = [i for i, s in enumerate(seats) if s["kind"] == "human"]
    threads = [
        threading.Thread(target=play_out, args=(server, tid, s, tok)) for s, tok in zip(humans, tokens, strict=True)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=600)
    deadline = time.monotonic() + 60
    while server.get(f"/api/tables/{tid}")["status"] != "finished":
        assert time.monotonic() < deadline, "the game did not finish"
        time.sleep(0.2)
    return tid, tokens


def seat_link(tid: str, seat: int, token: str) -> str:
    return f"/table.html?t={tid}&seat={seat}#token={token}"


def test_the_result_follows_the_last_hands_scoring_however_that_is_closed(new_page: Any, server: LiveServer) -> None:
    # Escape closes the scoring dialog as Continue does; the result must still follow the last one.
    created = server.post("/api/tables", {"game": "digging", "seats": [HUMAN, bot()], "claim": 0, "player_name": "Ann"})
    tid, token = created["table"]["id"], created["you"]["token"]
    page = new_page()
    page.goto(f"/table.html?t={tid}")  # watching from the start: the game waits for Ann's first move
    expect(page.locator("#conn")).to_have_attribute("data-status", "online")
    # Paced as the other pages' bots are: a spectator that falls too far behind is sent a fresh
    # start, and would see the result without the scoring dialog this test closes.
    player = threading.Thread(target=play_out, args=(server, tid, 0, token, 0.05))
    player.start()
    scoring, over = page.locator(".modal.scoring"), page.locator(".modal.game-over")
    closed = 0
    deadline = time.monotonic() + 300
    while not over.count():
        assert time.monotonic() < deadline, f"no result after {closed} scorings closed with Escape"
        if scoring.count():
            page.keyboard.press("Escape")
            closed += 1
        page.wait_for_timeout(100)  # polling for the next dialog, not waiting for a time
    player.join(timeout=60)
    assert closed >= 1 and scoring.count() == 0
    expect(over.get_by_role("link", name="Watch the replay")).to_be_visible()


def test_the_game_over_dialog_keeps_the_keyboard_and_its_ways_on_stay_once_it_is_closed(
    new_page: Any, server: LiveServer
) -> None:
    tid, (ann,) = finished_table(server, [HUMAN, bot(), bot("random", "Sal")], ["Ann"], partnership=False)
    page = new_page()
    page.goto(seat_link(tid, 0, ann))
    dialog = page.locator(".modal.game-over")
    dialog.wait_for()
    # It opens at its top (its buttons, focused, are at its foot), and Tab goes round inside it.
    assert page.evaluate("document.querySelector('.modal.game-over').scrollTop") == 0
    inside = "document.querySelector('.modal.game-over').contains(document.activeElement)"
    for _ in range(8):
        page.keyboard.press("Tab")
        assert page.evaluate(inside)
    page.keyboard.press("Shift+Tab")
    assert page.evaluate(inside)
    page.keyboard.press("Escape")
    dialog.wait_for(state="detached")
    # Closed, the dialog leaves its ways on in the notice: the result again, play again, replay, record.
    notice = page.locator(".notice.finished")
    replay = notice.get_by_role("link", name="Watch the replay")
    expect(replay).to_have_attribute("href", f"/replay.html?t={tid}&seat=0")
    expect(notice.get_by_role("link", name="Game record")).to_be_visible()
    expect(notice.get_by_role("button", name="Play again")).to_be_visible()
    notice.get_by_role("button", name="The game in figures").click()
    page.locator(".modal.game-over").wait_for()


def test_game_over_shows_every_hand_a_chart_and_play_again_is_accepted_seat_by_seat(
    new_page: Any, server: LiveServer
) -> None:
    tid, (ann, bob) = finished_table(server, [HUMAN, HUMAN, bot()], ["Ann", "Bob"], partnership=False)
    summary = server.get(f"/api/tables/{tid}/summary")

    a = new_page()
    a.goto(seat_link(tid, 0, ann))
    dialog = a.locator(".modal.game-over")
    dialog.wait_for()
    # Every hand's points per player, the totals, and a line per player over the hands.
    rows = dialog.locator(".hands-table tbody tr")
    assert rows.count() == len(summary["hands"]) + (1 if len(summary["hands"]) > 1 else 0)
    totals = dialog.locator(".hands-table tr.total td").all_inner_texts()
    assert [int(x) for x in totals] == summary["scores"]
    assert dialog.locator(".score-chart polyline").count() == 3
    assert dialog.locator(".hands-table th.winner").count() >= 1
    assert dialog.get_by_role("link", name="Watch the replay").get_attribute("href") == f"/replay.html?t={tid}&seat=0"
    assert dialog.get_by_role("link", name="Game record").get_attribute("download")
    screenshot(a, "game-over-summary")

    b = new_page()
    b.goto(seat_link(tid, 1, bob))
    b.locator(".modal.game-over").wait_for()
    b.keyboard.press("Escape")

    # Ann asks first: she sits at the new table, and Bob is offered the rematch on his page.
    dialog.get_by_role("button", name="Play again").click()
    a.wait_for_url(lambda url: "/table.html" in url and f"t={tid}" not in url and "#" not in url)
    new_id = a.evaluate("new URLSearchParams(location.search).get('t')")
    assert new_id != tid
    assert server.get(f"/api/tables/{new_id}")["status"] == "waiting"
    # Bob's seat is kept for him: a stranger is offered no way into it, at the table or in the lobby.
    eve = new_page()
    eve.goto(f"/table.html?t={new_id}")
    eve.locator(".seat-list .kept").wait_for()
    assert "kept for its player" in eve.locator(".seat-list").inner_text()
    assert eve.locator("button.claim").count() == 0
    eve.goto("/")
    listed = eve.locator("#table-list > li", has_text="seat 1 kept for its player")
    listed.first.wait_for()
    assert listed.locator("button.join").count() == 0
    offer = b.locator(".notice.rematch")
    offer.wait_for()
    assert "Ann wants to play again" in offer.inner_text()
    screenshot(b, "rematch-offer")
    offer.get_by_role("button", name="Play again").click()
    b.wait_for_url(re.compile(rf"/table\.html\?t={new_id}&seat=1$"))
    b.locator(".hand .card").first.wait_for()
    table = server.get(f"/api/tables/{new_id}")
    assert table["status"] == "playing"
    assert [(s["kind"], s["bot"], s["name"]) for s in table["seats"]] == [
        ("human", None, "Ann"), ("human", None, "Bob"), ("bot", "random", "Rex")]
    assert not table["config"]["partnership"]
    # Back at the old table (another tab, the Back button), Play again takes Ann to the seat she holds.
    a.goto(seat_link(tid, 0, ann))
    a.locator(".modal.game-over").get_by_role("button", name="Play again").click()
    a.wait_for_url(re.compile(rf"/table\.html\?t={new_id}&seat=0$"))
    a.locator(".hand .card").first.wait_for()


def test_the_replay_viewer_steps_through_a_finished_game_with_buttons_keys_and_slider(
    new_page: Any, server: LiveServer, tmp_path: Path
) -> None:
    tid, _ = finished_table(server, [HUMAN, bot(), bot("random", "Sal"), bot("random", "Tex")], ["Ann"])
    frames = len(server.get(f"/api/tables/{tid}/replay?seat=0")["frames"])
    page = new_page()
    page.goto(f"/replay.html?t={tid}&seat=0")
    page.wait_for_function(f"document.body.dataset.step === '{frames - 1}'")  # opens on the final position
    step = lambda: int(page.evaluate("document.body.dataset.step"))  # noqa: E731
    assert page.title() == "Replay: Digging table · goldfields"  # the tab says which game, in words

    page.click("#first")
    page.wait_for_function("document.body.dataset.step === '0'")
    assert "Step 1 of" in page.locator("#step").inner_text()
    page.locator(".hand .card").first.wait_for()  # seat 0's eyes: its hand
    # Through Ann's eyes, but not as Ann: her turns are hers, not the viewer's.
    assert page.locator(".badge.you").count() == 0
    for _ in range(4):
        assert "Your turn" not in page.locator(".turn-banner").inner_text()
        page.click("#next")
    page.click("#first")
    page.wait_for_function("document.body.dataset.step === '0'")
    page.click("#next")
    page.wait_for_function("document.body.dataset.step === '1'")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    page.wait_for_function("document.body.dataset.step === '3'")
    page.keyboard.press("ArrowLeft")
    page.wait_for_function("document.body.dataset.step === '2'")
    page.locator("#slider").fill(str(frames // 2))
    page.wait_for_function(f"document.body.dataset.step === '{frames // 2}'")
    assert f"step={frames // 2}" in page.url  # each position has its own link
    assert page.locator("#log li.current").count() >= 1
    screenshot(page, "replay-viewer")
    page.keyboard.press("End")
    page.wait_for_function(f"document.body.dataset.step === '{frames - 1}'")

    # Through every seat's eyes at once: all four hands are open.
    page.keyboard.press("Home")
    page.wait_for_function("document.body.dataset.step === '0'")
    page.locator("#eyes").select_option("all")
    page.wait_for_function("document.querySelectorAll('.open-hand').length === 4")
    assert step() == 0 and "seat=all" in page.url
    screenshot(page, "replay-all-hands")
    assert page.locator("#summary .score-chart polyline").count() == 2  # two teams

    # The lobby's finished tables lead to it.
    lobby = new_page()
    lobby.goto("/")
    lobby.locator("#lobby-status").select_option("finished")
    lobby.locator(f"[data-table='{tid}'] a.replay").click()
    lobby.wait_for_url(re.compile(rf"/replay\.html\?t={tid}"))

    # The same game from a record file opened in the browser.
    record = tmp_path / "game.json"
    record.write_text(json.dumps(server.get(f"/api/tables/{tid}/record")))
    other = new_page()
    other.goto("/replay.html")
    expect(other.locator("#notice")).to_contain_text("Open a game record")  # once the list of games is in
    other.set_input_files("#record-file", str(record))
    other.wait_for_function(f"document.body.dataset.step === '{frames - 1}'")
    other.keyboard.press("Home")
    other.wait_for_function("document.body.dataset.step === '0'")
    bad = tmp_path / "bad.json"
    bad.write_text("not json")
    other.set_input_files("#record-file", str(bad))
    other.locator(".toast").filter(has_text="not a game record").wait_for()
    other.evaluate("document.querySelectorAll('.toast').forEach((el) => el.remove())")
    listed = tmp_path / "list.json"
    listed.write_text("[1, 2]")  # JSON, but no record
    other.set_input_files("#record-file", str(listed))
    other.locator(".toast").filter(has_text="not a game record").wait_for()
    other.evaluate("document.querySelectorAll('.toast').forEach((el) => el.remove())")
    other.set_input_files("#record-file", str(listed))  # the same file again is read again
    other.locator(".toast").filter(has_text="not a game record").wait_for()
    # A record the server refuses: its reason, or the game it does not know, in the page's language.
    other.goto("/replay.html?lang=fr")
    expect(other.locator("#notice")).to_contain_text("feuille de partie")
    broken = json.loads(record.read_text())
    broken["hands"][0]["moves"][0] = "play XX m9"
    (tmp_path / "broken.json").write_text(json.dumps(broken))
    other.set_input_files("#record-file", str(tmp_path / "broken.json"))
    expect(other.locator("#notice .error")).to_contain_text("Cette feuille de partie ne peut pas être rejouée : ")
    expect(other.locator("#notice .error")).to_contain_text("XX")
    (tmp_path / "chess.json").write_text(json.dumps({"game": "chess", "moves": []}))
    other.set_input_files("#record-file", str(tmp_path / "chess.json"))
    expect(other.locator("#notice .error")).to_have_text(
        "Ce fichier est la feuille d'un jeu que ce serveur ne connaît pas ('chess')."
    )


def test_the_replay_viewer_waits_its_turn_when_the_servers_replay_line_is_full(
    new_page: Any, server: LiveServer
) -> None:
    # A second viewer at the same address (a household) is told 503 with Retry-After while the
    # first one's replay is computed: the viewer comes back when told, instead of showing an error.
    tid, _ = finished_table(server, [HUMAN, bot(), bot("random", "Sal"), bot("random", "Tex")], ["Ann"])
    page = new_page()
    asked: list[str] = []

    def busy_once(route: Any) -> None:
        asked.append(route.request.url)
        if len(asked) == 1:
            route.fulfill(status=503, headers={"Retry-After": "1", "Content-Type": "application/json"},
                          body=json.dumps({"code": "too_many_replays", "message": "a replay of yours is being "
                                           "computed or waits its turn; try again in a few seconds"}))  # fmt: skip
        else:
            route.continue_()

    page.route("**/api/tables/*/replay?*", busy_once)
    page.goto(f"/replay.html?t={tid}&seat=0")
    page.locator("#slider").wait_for()
    page.wait_for_function("Number(document.body.dataset.step) > 0")
    assert len(asked) == 2 and page.locator(".notice.error").count() == 0


def test_the_replay_viewer_marks_the_costly_moves_the_analysis_finds(
    new_page: Any, server: LiveServer, tmp_path: Path
) -> None:
    # Ann plays quickly rather than well (she closes her mines early): there is something to find.
    tid, _ = finished_table(server, [HUMAN, bot()], ["Ann"], partnership=False)
    page = new_page()
    page.goto(f"/replay.html?t={tid}&seat=0")
    panel = page.locator("#analysis-panel")
    panel.wait_for()
    assert page.locator("#an-seat").input_value() == "0"  # the eyes' seat
    page.click("#an-run")
    page.wait_for_function("document.body.dataset.analysis === 'done'", timeout=300_000)
    assert "the bot agrees with" in page.locator("#an-status").inner_text()
    analysis = server.get(f"/api/tables/{tid}/analysis?seat=0")
    costly = sorted((d for d in analysis["decisions"] if d["drop"] >= 0.05), key=lambda d: -d["drop"])
    items = page.locator("#an-list li")
    assert items.count() == len(costly) == page.locator("#marks .mark").count()
    if costly:  # the costliest first; a click goes to that move, which says what it cost
        items.first.locator("button").click()
        page.wait_for_function(f"document.body.dataset.step === '{costly[0]['step']}'")
        assert "chance of winning" in page.locator("#step").inner_text()
        # The move in words, its notation beside it for those who read it.
        assert page.locator("#step .move").get_attribute("title") == costly[0]["played"]
        assert costly[0]["played"] not in page.locator("#step").inner_text() or costly[0]["played"] == "draw"
    screenshot(page, "replay-analysis")

    # The same analysis from files: a record and what goldfields analyze --json writes.
    record, saved = tmp_path / "game.json", tmp_path / "analysis.json"
    record.write_text(json.dumps(server.get(f"/api/tables/{tid}/record")))
    saved.write_text(json.dumps({"seat": 0, "bot": analysis["judge"], "decisions": analysis["decisions"]}))
    other = new_page()
    other.goto("/replay.html")
    other.set_input_files("#record-file", str(record))
    other.locator("#analysis-panel").wait_for()
    assert other.locator("#an-run").is_hidden()  # a file has no server table to judge it
    other.set_input_files("#an-file", str(saved))
    other.wait_for_function("document.body.dataset.analysis === 'done'")
    assert other.locator("#an-list li").count() == len(costly)
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"hello": 1}))
    other.set_input_files("#an-file", str(bad))
    other.locator(".toast").filter(has_text="not an analysis").wait_for()
    # An analysis of another game (moves past this record's end) is refused, and the one shown stays.
    longer = tmp_path / "other-game.json"
    longer.write_text(json.dumps({"seat": 0, "decisions": [{**analysis["decisions"][0], "step": 10_000}]}))
    other.set_input_files("#an-file", str(longer))
    other.locator(".toast").filter(has_text="another game").wait_for()
    assert other.locator("#an-list li").count() == len(costly)


def test_a_digger_game_replays_and_charts_its_scores(new_page: Any, server: LiveServer, tmp_path: Path) -> None:
    created = server.post("/api/tables", {"game": "digger", "seats": [bot(), bot("random", "Sal")]})
    tid = created["table"]["id"]
    deadline = time.monotonic() + 300
    while server.get(f"/api/tables/{tid}")["status"] != "finished":
        assert time.monotonic() < deadline
        time.sleep(0.3)
    page = new_page()
    page.goto(f"/replay.html?t={tid}&seat=0&step=5")
    page.wait_for_function("document.body.dataset.step === '5'")
    assert page.locator(".die").count() >= 1 or page.locator("[data-game='digger']").count() == 1
    assert page.locator("#summary .score-chart polyline").count() == 2
    assert page.locator("#analysis-panel").is_hidden()  # Digger offers no analysis
    page.keyboard.press("End")
    screenshot(page, "replay-digger")
    # Nor does a Digger record opened from a file.
    record = tmp_path / "digger.json"
    record.write_text(json.dumps(server.get(f"/api/tables/{tid}/record")))
    from_file = new_page()
    from_file.goto("/replay.html")
    from_file.set_input_files("#record-file", str(record))
    from_file.wait_for_function("document.body.dataset.step !== undefined")
    from_file.locator("#analysis-panel").wait_for(state="hidden")


def test_the_lobby_offers_easy_medium_and_hard_bots(new_page: Any, server: LiveServer) -> None:
    games = {g["name"]: g for g in server.get("/api/games")}
    assert set(games["digging"]["levels"]) == set(games["digger"]["levels"]) == {"easy", "medium", "hard"}
    page = new_page()
    page.goto("/")
    page.fill("#player-name", "Ann")
    assert page.locator(".level-pick input[value='medium']").is_checked()
    page.locator(".level-pick label", has_text="Hard").click()
    assert "strongest" in page.locator(".level-pick .field-hint").inner_text()
    screenshot(page, "lobby-levels", full_page=False)
    page.locator("#f-create").wait_for()  # the list of games is in: it names each level's bot
    page.click("#quick-digging")
    page.wait_for_url(re.compile(r"/table\.html\?t=[\w-]+&seat=0$"))
    tid = page.evaluate("new URLSearchParams(location.search).get('t')")
    seats = server.get(f"/api/tables/{tid}")["seats"]
    # The quick game is the partnership game: its Hard is the bot measured strongest there.
    assert [s["bot"] for s in seats[1:]] == [games["digging"]["table_levels"]["partnership"]["hard"]] * 3
    # The choice is remembered.
    page.goto("/")
    assert page.locator(".level-pick input[value='hard']").is_checked()
    # In the form, a seat given a level says what the level plays like, and a bot chosen by its
    # spec is described by its kind (ismcts:iterations=300 is an ismcts).
    page.locator("#f-game").select_option("digging")
    page.locator('select[data-seat="1"]').select_option("level:hard")
    expect(page.locator(".seat-row").nth(1).locator(".field-hint")).to_contain_text("strongest")
    described = page.evaluate("""async () => (await import('/js/i18n.js')).botText('ismcts:iterations=300', '')""")
    assert described.startswith("searches the possible hidden cards")


def test_an_opted_in_player_gets_a_sound_and_a_notification_when_their_turn_comes_in_a_hidden_tab(
    new_page: Any, server: LiveServer
) -> None:
    created = server.post("/api/tables", {"game": "digging", "seats": [HUMAN, bot()], "claim": 0, "player_name": "Ann",
                                          "partnership": False})
    page = new_page()
    # The tab is hidden (another tab in front), and notifications are recorded instead of shown.
    page.add_init_script("""
        Object.defineProperty(document, 'hidden', { get: () => true });
        window.__notes = [];
        window.Notification = class { constructor(title, o) { window.__notes.push([title, o.body]); } };
        window.Notification.permission = 'granted';
        window.Notification.requestPermission = async () => 'granted';
    """)
    page.goto("/")
    page.evaluate("localStorage.setItem('goldfields.notify', '0')")
    page.goto(seat_link(created["table"]["id"], 0, created["you"]["token"]))
    button = page.locator("#notify-btn")
    assert button.get_attribute("aria-pressed") == "false"
    button.click()
    assert button.get_attribute("aria-pressed") == "true"
    page.reload()  # opted in: the next time the turn comes, the alert goes off
    page.wait_for_function("Number(document.body.dataset.notified || 0) >= 1", timeout=60_000)
    notes = page.evaluate("window.__notes")
    assert notes and notes[0][0] == "Your turn" and "It is your turn at" in notes[0][1]
    button.click()
    assert button.get_attribute("aria-pressed") == "false"


def test_a_rated_game_changes_the_players_rating_and_the_recovery_link_takes_the_profile_along(
    new_page: Any, server: LiveServer
) -> None:
    page = new_page()
    # The games list held back until after the click: a quick game asked for before it came
    # must still seat the level chosen.
    held: list[Any] = []
    page.route(re.compile(r"/api/games$"), lambda route: held.append(route))
    page.goto("/")
    page.fill("#player-name", "Ann")
    page.locator(".level-pick label", has_text="Easy").click()
    page.click("#quick-digging")  # the first named game makes this browser's profile
    assert held and "table.html" not in page.url
    held[0].continue_()
    page.unroute(re.compile(r"/api/games$"))
    page.wait_for_url(re.compile(r"/table\.html\?t=[\w-]+&seat=0$"))
    tid = page.evaluate("new URLSearchParams(location.search).get('t')")
    token = page.evaluate(f"localStorage.getItem('goldfields.seat.{tid}.0')")
    player = page.evaluate("JSON.parse(localStorage.getItem('goldfields.player'))")
    assert player["name"] == "Ann" and player["key"]
    seats = server.get(f"/api/tables/{tid}")["seats"]
    assert seats[0]["player"] == player["id"]
    # The level chosen, though the click came before the lobby had the games list.
    easy = next(g for g in server.get("/api/games") if g["name"] == "digging")["levels"]["easy"]
    assert [s["bot"] for s in seats[1:]] == [easy] * 3
    before = server.get(f"/api/players/{player['id']}")
    assert before["ratings"] == []

    page.goto("/")  # leave the table; the game is played out over the socket
    play_out(server, tid, 0, token)
    after = server.get(f"/api/players/{player['id']}")
    (rating,) = after["ratings"]
    assert rating["mode"] == "partnership" and rating["games"] == 1 and rating["rating"] != 0

    page.locator("#profile-link a").click()
    page.wait_for_url(re.compile(r"/player\.html\?id="))
    page.locator(".ratings tbody tr").first.wait_for()
    assert page.locator(".ratings tbody tr").count() == 1
    assert "rating 0.0 →" in page.locator(".history li").first.inner_text()
    screenshot(page, "player-profile")
    link = page.locator(".recovery input").input_value()
    assert player["key"] in link and "#key=" in link

    page.goto("/leaderboard.html?game=digging&mode=partnership")
    page.locator(".board tr.me").wait_for()
    assert "Ann" in page.locator(".board tr.me").inner_text()
    assert page.locator(".board tbody tr").count() >= 1
    screenshot(page, "leaderboard")
    # A bot that is one of the lobby's levels is named as the level, its spec beside it; another
    # bot by its spec. (Three copies of one bot at a table keep their rating, so the rows are made.)
    digging = next(g for g in server.get("/api/games") if g["name"] == "digging")
    hard, partnership_hard = digging["levels"]["hard"], digging["table_levels"]["partnership"]["hard"]
    rows = [{"rank": i + 1, "player": f"bot:{b}", "name": b, "bot": b, "rating": 1.0, "games": 3, "wins": 1}
            for i, b in enumerate([hard, "ismcts:iterations=9", partnership_hard])]  # fmt: skip
    page.route(re.compile(r"/api/leaderboard\?"), lambda route: route.fulfill(json={"players": rows}))
    page.reload()
    named = page.locator(".board tbody tr th")
    # On the partnership ladder Hard is the partnership game's own; the Hard of other tables is
    # named by its spec there.
    expect(named.nth(2)).to_contain_text("Hard bot")
    assert named.nth(2).locator(".muted").inner_text() == partnership_hard
    assert named.first.inner_text().strip() == hard
    assert named.nth(1).inner_text().strip() == "ismcts:iterations=9"
    page.goto("/leaderboard.html?game=digging&mode=2p")
    expect(named.first).to_contain_text("Hard bot")
    assert named.first.locator(".muted").inner_text() == hard
    assert named.nth(2).inner_text().strip() == partnership_hard
    page.unroute(re.compile(r"/api/leaderboard\?"))
    # So is its own page: the Easy bots Ann played have a profile, named as the lobby names them.
    page.goto(f"/player.html?id={bot_player_id(easy)}")
    title = page.locator("main h1")
    expect(title).to_contain_text("Easy bot")
    assert title.locator(".muted").inner_text() == easy
    assert page.title().startswith("Easy bot")
    screenshot(page, "bot-profile")
    # Opened without a ladder, the board shows the one this player has played most on.
    page.goto("/leaderboard.html")
    expect(page.locator("#board-mode")).to_have_value("partnership")
    profile = server.get(f"/api/players/{player['id']}")
    more = {"game": "digger", "mode": "3p", "rating": 3.0, "games": 5, "wins": 2}
    page.route(re.compile(r"/api/players/[^/?]+$"),
               lambda route: route.fulfill(json={**profile, "ratings": [*profile["ratings"], more]}))
    page.goto("/leaderboard.html")
    expect(page.locator("#board-game")).to_have_value("digger")
    expect(page.locator("#board-mode")).to_have_value("3p")
    page.unroute(re.compile(r"/api/players/[^/?]+$"))

    # Another device: the recovery link signs it in as Ann, and its address forgets the key.
    other = new_page()
    other.goto(link.replace(server.base, ""))
    other.locator(".ratings").wait_for()
    assert player["key"] not in other.url
    assert other.evaluate("JSON.parse(localStorage.getItem('goldfields.player')).id") == player["id"]
    other.goto("/")
    assert other.locator("#player-name").input_value() == "Ann"
    assert "Ann" in other.locator("#profile-link").inner_text()


def test_a_profile_the_server_no_longer_knows_neither_blocks_play_nor_sticks(new_page: Any, server: LiveServer) -> None:
    # As after `goldfields serve` on a new database: this browser's saved key belongs to no player.
    stale = {"id": "gone-player", "name": "Ann", "key": "stale-key-from-an-old-database"}
    page = new_page()
    page.goto("/")
    page.evaluate(f"localStorage.setItem('goldfields.player', JSON.stringify({json.dumps(stale)}))")
    page.goto("/player.html")
    forget = page.locator("#main button", has_text="Forget this profile")
    forget.wait_for()
    forget.click()
    page.locator("#main .notice a", has_text="lobby").wait_for()
    assert page.evaluate("localStorage.getItem('goldfields.player')") is None

    # A new name for it (the profile may have been deleted, never having taken a seat): set aside
    # without an error, and the profile's link goes.
    page.evaluate(f"localStorage.setItem('goldfields.player', JSON.stringify({json.dumps(stale)}))")
    page.goto("/")
    page.locator("#profile-link a").wait_for()
    page.fill("#player-name", "Annie")
    page.locator("#player-name").blur()
    page.wait_for_function("localStorage.getItem('goldfields.player') === null")
    assert page.locator("#profile-link a").count() == 0 and page.locator(".toast-error").count() == 0

    page.evaluate(f"localStorage.setItem('goldfields.player', JSON.stringify({json.dumps(stale)}))")
    page.goto("/")
    page.fill("#player-name", "Ann")
    page.locator(".level-pick label", has_text="Easy").click()
    page.click("#quick-digging")  # refused with the stale key, then sent again with a new profile
    page.wait_for_url(re.compile(r"/table\.html\?t=[\w-]+&seat=0$"))
    tid = page.evaluate("new URLSearchParams(location.search).get('t')")
    player = page.evaluate("JSON.parse(localStorage.getItem('goldfields.player'))")
    assert player["key"] != stale["key"] and player["name"] == "Ann"
    assert page.evaluate("JSON.parse(localStorage.getItem('goldfields.player.previous'))") == stale  # kept aside
    assert server.get(f"/api/tables/{tid}")["seats"][0]["player"] == player["id"]


def test_two_players_chat_in_text_with_translated_phrases_and_a_mute(new_page: Any, server: LiveServer) -> None:
    created = server.post("/api/tables", {"game": "digging", "seats": [HUMAN, HUMAN, bot()], "claim": 0,
                                          "player_name": "Ann", "partnership": False})
    tid = created["table"]["id"]
    bob = server.post(f"/api/tables/{tid}/seats/1/claim", {"name": "Bob"})["token"]
    a, b = new_page(), new_page()
    a.goto(seat_link(tid, 0, created["you"]["token"]))
    b.goto(seat_link(tid, 1, bob))
    for page in (a, b):
        page.locator("#chat-form").wait_for()

    a.fill("#chat-input", "<b>good luck</b>")
    a.press("#chat-input", "Enter")
    line = b.locator("#chat-list li").filter(has_text="good luck")
    line.wait_for()
    assert line.inner_text() == "Ann: <b>good luck</b>"  # shown as text, never as markup
    assert b.locator("#chat-list b").count() == 0
    assert a.locator("#chat-input").input_value() == ""

    b.locator('#chat-phrases [data-phrase="gg"]').click()
    a.locator("#chat-list li").filter(has_text="Good game!").wait_for()
    a.locator("#lang").select_option("fr")
    a.locator("#chat-list li").filter(has_text="Bien joué à tous !").wait_for()  # each reader's language
    a.locator("#lang").select_option("en")
    screenshot(a, "table-chat", full_page=False)

    # Ann mutes Bob: his messages leave her page (and his next ones never show).
    a.locator('#chat-mutes input[data-seat="1"]').check()
    assert a.locator("#chat-list li").filter(has_text="Good game!").count() == 0
    b.locator('#chat-phrases [data-phrase="thanks"]').click()
    b.locator("#chat-list li").filter(has_text="Thanks!").wait_for()
    a.fill("#chat-input", "still here")
    a.press("#chat-input", "Enter")
    a.locator("#chat-list li").filter(has_text="still here").wait_for()
    assert a.locator("#chat-list li").filter(has_text="Thanks!").count() == 0

    # A spectator reads the chat but has no box to write in.
    watcher = new_page()
    watcher.goto(f"/table.html?t={tid}")
    watcher.locator("#chat-list li").filter(has_text="still here").wait_for()
    assert watcher.locator("#chat-form").is_hidden()
    # At a table with no message yet, the spectator's empty panel says why it has no box.
    quiet = server.post("/api/tables", {"game": "digging", "seats": [HUMAN, HUMAN], "claim": 0})["table"]["id"]
    watcher.goto(f"/table.html?t={quiet}")
    expect(watcher.locator("#chat-list li.chat-empty")).to_have_text("Only the players at the table write here.")


def test_the_guided_first_game_teaches_one_step_at_a_time_to_its_end(new_page: Any, server: LiveServer) -> None:
    page = new_page()
    page.goto("/")
    page.click("#learn-digging")
    page.wait_for_url(re.compile(r"/tutorial\.html"))
    page.click("#tut-start")
    prompts = []
    while True:
        page.wait_for_function("document.body.dataset.coach !== ''")
        coach = page.evaluate("document.body.dataset.coach")
        if coach == "done":
            break
        prompts.append(coach)
        move = page.evaluate("document.body.dataset.waiting")
        code = move.split()[1]
        # Only the card the prompt asks for can be selected.
        selectable = page.locator(".hand .card.selectable").evaluate_all("els => els.map((e) => e.dataset.card)")
        assert set(selectable) == {code}
        if coach == "open":
            screenshot(page, "tutorial-first-step", full_page=False)
        frame = page.evaluate("document.body.dataset.frame")
        page.locator(f'.hand .card.selectable[data-card="{code}"]').last.click()
        page.locator(f'[data-move="{move}"]').first.click()
        page.wait_for_function(f"document.body.dataset.frame !== {frame!r}")
    assert prompts == ["open", "chest", "defend", "pass", "close"]
    assert "closed your mine for 3 points" in page.locator("#coach").inner_text()
    screenshot(page, "tutorial-done", full_page=False)
    assert page.locator("#tut-real").get_attribute("href") == "/"


def test_the_new_pages_fit_a_phone_without_sideways_scrolling(new_page: Any, server: LiveServer) -> None:
    tid, _ = finished_table(server, [HUMAN, bot()], ["Ann"], partnership=False)
    page = new_page(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    # Each page is measured once all of it is drawn: the replay's position too (data-step, set after
    # the summary), and the leaderboard's rows (or "No rated game yet"), not its "…" while they load.
    for path, ready in (
        (f"/replay.html?t={tid}&seat=all", "body[data-step] #summary .score-chart"),
        ("/tutorial.html", "#tut-start"),
        ("/leaderboard.html", ".board-pick + :is(table.board, p.muted:not(:text-is('…')))"),
    ):
        page.goto(path)
        page.locator(ready).wait_for()
        widths = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
        assert widths[0] <= widths[1], f"{path} scrolls sideways: {widths[0]} px in {widths[1]}"
    page.goto(f"/replay.html?t={tid}&seat=0")
    page.locator("body[data-step] #summary .score-chart").wait_for()
    screenshot(page, "phone-replay")
