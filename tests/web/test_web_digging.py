"""The browser client, end to end: lobby, a Digging table played through the UI, reloads,
languages and a phone-sized screen. Screenshots go to artifacts/screenshots/."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect
from webplay import close_modal, digging_step, hand_codes, my_turn, narrated, wait_until

from conftest import LiveServer, screenshot

pytestmark = pytest.mark.browser

PREFIXES = (
    "app|lang|nav|game|status|common|conn|err|lobby|rules|share|table|keys|metal|card|dig|colour|dg|ev|opt"
    "|sum|replay|rematch|notify|level|board|player|chat|tut"
)
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
    wait_until(lambda: my_turn(page), 90)
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
    on_table: set[str] = set()  # the mines the watcher last saw before the hand was scored

    def hand_over() -> bool:
        return all(p.locator(".modal.scoring").count() for p in (ann, bea))

    def play_some() -> bool:
        nonlocal reloaded, fights_seen, on_table
        if not watcher.locator(".modal.scoring").count():
            seen = set(watcher.locator("button.mine").evaluate_all("els => els.map(e => e.dataset.mine)"))
            if not watcher.locator(".modal.scoring").count():  # not scored while we looked
                on_table = seen
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

    wait_until(play_some, timeout=400, step=0.02)
    assert reloaded and moves["ann"] > 3 and moves["bea"] > 3
    scoring = ann.locator(".modal.scoring")
    assert "Hand 1" in scoring.locator("h2").inner_text()
    # The scoring lists the scored hand's table (the same update already deals the next hand):
    # every mine with its cards, open ones marked as scoring nothing.
    rows = scoring.locator(".scoring-table tbody tr")
    listed = set(rows.locator("th").all_inner_texts())
    assert on_table and on_table <= listed, (on_table, listed)
    for i in range(rows.count()):
        row = rows.nth(i)
        assert row.locator(".mini-cards .card").count() >= 1, row.inner_text()  # the mine card, then chests
        if "unscored" in (row.get_attribute("class") or ""):
            assert row.locator("td.num").inner_text() == "0"
    screenshot(ann, "digging-hand-scored")
    for page in (ann, bea):
        close_modal(page)
        page.locator(".scores tbody tr").filter(has_text="Hand 1").wait_for()
    # The watcher's page hears of the scoring on its own socket, maybe later.
    watcher.locator(".scores tbody tr").filter(has_text="Hand 1").wait_for()
    # Everyone saw the same scores.
    rows = [p.locator(".scores tbody tr").first.inner_text() for p in (ann, bea, watcher)]
    assert rows[0] == rows[1] == rows[2]
    screenshot(watcher, "digging-spectator")


def test_enter_on_a_hand_card_puts_the_keyboard_on_its_first_target(new_page: Any, server: LiveServer) -> None:
    page = new_page()
    page.goto("/")
    page.click("#quick-digging")
    page.locator(".hand .card").nth(5).wait_for()
    for _ in range(20):  # turns, until a card of the hand can be played
        wait_until(lambda: my_turn(page) or bool(page.locator(".modal-backdrop").count()), 60)
        if close_modal(page):
            continue
        card = page.locator(".hand .card.selectable")
        if card.count():
            card.last.focus()
            page.keyboard.press("Enter")
            page.locator("button.target").first.wait_for()
            # The focus is on a target button (not on the banner's "target" text), so Enter plays it.
            assert page.evaluate("document.activeElement.matches('button.target')")
            seq = page.evaluate("document.body.dataset.seq")
            page.keyboard.press("Enter")
            page.wait_for_function(f"document.body.dataset.seq !== {seq!r}")
            return
        assert digging_step(page) is not None or page.locator(".modal-backdrop").count()
    raise AssertionError("no card of the hand could be played in 20 turns")


def test_a_mine_that_is_not_lit_answers_with_the_rule_it_breaks(new_page: Any, server: LiveServer) -> None:
    page = new_page()
    page.goto("/")
    page.click("#quick-digging")
    page.locator(".hand .card").nth(5).wait_for()
    for _ in range(40):  # turns, until a card is in hand and a mine on the table it cannot go to
        wait_until(lambda: my_turn(page) or bool(page.locator(".modal-backdrop").count()), 60)
        if close_modal(page):
            continue
        codes = page.locator(".hand .card.selectable").evaluate_all("els => [...new Set(els.map(e => e.dataset.card))]")
        # Mine cards open new mines in a display: the page says so itself. Other cards go to the server.
        for code in [c for c in codes if not c.startswith("M")]:
            page.locator(f'.hand .card.selectable[data-card="{code}"]').last.click()
            unlit = page.locator('button.mine[aria-disabled="true"]')
            if unlit.count():
                seq = page.evaluate("document.body.dataset.seq")
                unlit.first.click(force=True)  # aria-disabled: Playwright would wait for it to be enabled
                refusal = page.locator(".toast-error").filter(has_text=re.compile(r"Not allowed: [A-Z]\d+: "))
                refusal.wait_for()
                assert page.evaluate("document.body.dataset.seq") == seq  # nothing changed
                return
            page.keyboard.press("Escape")
        assert digging_step(page) is not None or page.locator(".modal-backdrop").count()
    raise AssertionError("no mine that a card in hand could not go to, in 40 turns")


def test_a_seat_keeps_the_bot_level_chosen_for_it_and_the_level_names_its_bot(
    new_page: Any, server: LiveServer
) -> None:
    # "Easy bot" and "Bot: random" name one bot: the menu shows the one the player picked.
    page = new_page()
    page.goto("/")
    page.locator("#f-game").select_option("digger")
    seat = page.locator('select[data-seat="1"]')
    chosen = lambda: seat.evaluate("(s) => s.options[s.selectedIndex].text")  # noqa: E731
    assert chosen() == "Medium bot"  # a new form's bots are at the medium level
    seat.select_option(label="Easy bot")
    assert chosen() == "Easy bot"
    seat.select_option(label="Hard bot")
    assert chosen() == "Hard bot"
    seat.select_option(label="Bot: random")
    assert chosen() == "Bot: random"
    page.locator('select[data-seat="2"]').select_option(label="Hard bot")
    page.fill("#player-name", "Ann")
    page.click("#f-create")
    page.wait_for_url(re.compile(r"/table\.html\?t=[\w-]+&seat=0$"))
    table_id = page.evaluate("new URLSearchParams(location.search).get('t')")
    bots = [s["bot"] for s in server.get(f"/api/tables/{table_id}")["seats"]]
    assert bots[1:3] == ["random", "search"]


def test_a_table_of_bots_alone_is_shared_to_watch_and_one_with_a_free_seat_to_play(
    new_page: Any, server: LiveServer
) -> None:
    page = new_page()
    page.goto("/")
    page.locator("#f-game").select_option("digger")
    page.locator("#f-players").select_option("2")
    page.locator('select[data-seat="0"]').select_option(label="Easy bot")
    page.click("#f-create")
    share = page.locator("#share")
    expect(share).to_contain_text("whoever opens it watches the game")
    expect(share).not_to_contain_text("takes a free seat")
    page.locator('select[data-seat="0"]').select_option("human")
    page.locator('input[name="claim"][value="-1"]').check()  # just watch: seat 0 stays free
    page.click("#f-create")
    expect(share).to_contain_text("a friend opens it and takes a free seat")


def test_a_player_without_a_name_is_named_by_seat_in_the_pages_language(new_page: Any, server: LiveServer) -> None:
    page = new_page()
    page.goto("/?lang=fr")
    page.click("#quick-digging")  # no name given
    page.wait_for_url(re.compile(r"/table\.html\?t=[\w-]+&seat=0$"))
    expect(page.locator("body")).to_contain_text("Place 0")
    expect(page.locator("body")).not_to_contain_text("player 0")


def test_a_refused_move_is_told_in_the_players_language(new_page: Any, server: LiveServer) -> None:
    page = new_page()
    page.goto("/")
    page.locator("#quick-digging").wait_for()
    told = page.evaluate(
        """async () => {
        const i18n = await import("/js/i18n.js");
        const refusal = { code: "illegal", rule: "D4", reason: "chest_metal",
          message: "D4: play S m1: a silver chest cannot go on a gold mine",
          params: { move: "play S m1", chest: "silver", metal: "gold", mine: "m1" } };
        const unknown = { code: "illegal", rule: "D4", reason: "from_a_newer_server", message: "D4: words" };
        const out = [];
        for (const lang of ["en", "fr", "de"]) {
          i18n.setLang(lang);
          out.push(i18n.errorText(refusal));
        }
        i18n.setLang("en");
        out.push(i18n.errorText(unknown));
        return out;
    }"""
    )
    assert told == [
        "Not allowed: D4: a silver chest cannot go on a gold mine",
        "Interdit : D4: un coffre en argent ne va pas sur une mine d'or",
        "Nicht erlaubt: D4: eine Silbertruhe passt nicht auf eine Goldmine",
        "Not allowed: D4: words",  # a reason this page does not know: the server's words
    ]


def test_french_leaves_nothing_in_english_for_bots_options_teams_and_decimals(
    new_page: Any, server: LiveServer
) -> None:
    page = new_page()
    page.goto("/?lang=fr")
    page.locator("#f-create").wait_for()
    page.locator("#f-game").select_option("digging")
    page.locator("#f-players").select_option("4")
    page.locator('select[data-seat="1"]').select_option("bot:random")
    assert page.locator(".seat-row .field-hint").filter(has_text="joue au hasard un coup permis").count() == 1
    # Rule options read in French; their names are only a tooltip.
    options = page.locator("fieldset.options")
    assert options.locator("code").count() == 0
    assert options.filter(has_text="pas de coffre sur une mine attaquée").count() == 1
    told = page.evaluate(
        """async () => {
        const i18n = await import("/js/i18n.js");
        const { cardEl } = await import("/js/cards.js");
        const corner = (c) => cardEl(c).querySelector(".card-corner").textContent;
        const corners = ["MG", "GG", "S", "C", "X", "B7"].map(corner);
        return [i18n.t("dg.secondsLeft", { n: 0.5 }), i18n.seatLabel("team A"), i18n.num(12.25, 1, true), corners];
    }"""
    )
    # A card's corner takes the metal's French initial: or, argent, cuivre.
    assert told == ["encore 0,5 s", "Équipe A", "12,3", ["MO", "OO", "A", "C", "X", "7"]]


def test_a_rule_options_number_is_held_to_its_bounds_before_it_is_sent(new_page: Any, server: LiveServer) -> None:
    # The target's bounds come from the server (GET /api/games); a value past them is the
    # browser's to refuse, in its own words, and no table is made.
    limits = next(g for g in server.get("/api/games") if g["name"] == "digging")["option_limits"]
    assert limits == {"target": {"min": 0, "max": 120, "step": 1}, "hand_size": {"min": 0, "max": 12, "step": 1}}
    page = new_page()
    page.goto("/")
    page.fill("#player-name", "Ann")
    page.locator("#f-game").select_option("digging")
    target = page.locator('fieldset.options input[name="target"]')
    assert (target.get_attribute("min"), target.get_attribute("max"), target.get_attribute("step")) == ("0", "120", "1")
    hand = page.locator('fieldset.options input[name="hand_size"]')
    assert (hand.get_attribute("min"), hand.get_attribute("max"), hand.get_attribute("value")) == ("0", "12", "0")
    # Named, so that no table of the other tests on this server (which come and go) is counted.
    page.fill("#f-name", "Over the target's bounds")
    target.fill("150")
    page.click("#f-create")
    assert page.evaluate("document.querySelector('fieldset.options input[name=target]').validity.rangeOverflow")
    assert "table.html" not in page.url
    assert not [t for t in server.get("/api/tables?status=live") if t["name"] == "Over the target's bounds"]


def test_the_lobby_offers_only_the_rule_options_that_change_the_table_chosen(
    new_page: Any, server: LiveServer
) -> None:
    page = new_page()
    page.goto("/")
    page.fill("#player-name", "Ann")
    page.locator("#f-game").select_option("digging")
    shown = page.locator("fieldset.options input")

    def offered() -> set[str]:
        return {shown.nth(i).get_attribute("name") or "" for i in range(shown.count())}

    page.locator("#f-players").select_option("2")
    assert {"full_deck", "close_needs_chest"} <= offered() and "target_exceeded" not in offered()
    expect(page.locator("#create-form").get_by_text("team A")).to_have_count(0)  # no teams at two
    page.locator('input[name="full_deck"]').check()
    page.locator("#f-players").select_option("4")
    page.locator("#f-partnership").check()
    # 4 players play all 60 cards already: the box goes, and what it held is not sent.
    assert "full_deck" not in offered() and "target_exceeded" in offered()
    page.locator('select[data-seat="1"]').select_option("bot:random")
    page.click("#f-create")
    page.wait_for_url(re.compile(r"/table\.html\?t=[\w-]+&seat=0$"))
    table_id = page.evaluate("new URLSearchParams(location.search).get('t')")
    assert server.get(f"/api/tables/{table_id}")["config"]["options"] == {}


def test_a_language_given_in_the_address_is_kept_at_the_table(new_page: Any, server: LiveServer) -> None:
    page = new_page()
    page.goto("/?lang=fr")
    page.locator("#quick-digging").wait_for()
    assert page.locator("#quick-digging").inner_text().strip() == "Jouer à Digging contre des robots"
    page.click("#quick-digging")
    page.locator(".hand .card").first.wait_for()
    assert page.evaluate("document.documentElement.lang") == "fr"
    assert page.locator('[data-action="draw"]').inner_text().startswith("Piocher")


def test_closing_ones_own_mine_is_told_without_for_oneself(new_page: Any, server: LiveServer) -> None:
    told = narrated(new_page(), "digging", [
        {"kind": "close", "seat": 0, "owner": 0, "mine": "m2", "points": 9},
        {"kind": "close", "seat": 0, "owner": 1, "mine": "m3", "points": 4},
    ], ["Flint", "Opal"])  # fmt: skip
    assert told == ["Flint closes m2: 9 points.", "Flint closes m3 for Opal: 4 points."]


def test_the_log_names_cards_in_words_not_codes(new_page: Any, server: LiveServer) -> None:
    # The dealt hand, a fight's highest bandit and its discards read as the cards do, not MG G B9.
    told = narrated(new_page(), "digging", [
        {"kind": "deal", "hand": 0, "dealer": 1, "first": 0, "cards": ["MG", "GG", "B9", "X"]},
        {"kind": "fight_resolved", "mine": "m1", "owner": 1, "winner": "attack", "highest": "B9", "by": 0},
        {"kind": "fight_ended", "mine": "m1", "discarded": ["B5", "B4"]},
    ], ["Flint", "Opal"])  # fmt: skip
    assert told[0].endswith("You hold gold mine, double gold chest, bandit 9, closed-mine card."), told
    assert "highest bandit 9 by Flint" in told[1], told
    assert told[2].endswith("bandit 5, bandit 4 discarded."), told


def test_a_records_moves_read_in_words_in_the_replay(new_page: Any, server: LiveServer) -> None:
    page = new_page()
    page.goto("/")
    page.locator("#quick-digging").wait_for()
    told = page.evaluate("""async () => {
        const { moveText } = await import("/js/narrate.js");
        const i18n = await import("/js/i18n.js");
        const name = (seat) => ["Flint", "Opal", "Dee"][seat];
        const moves = [["digging", "draw"], ["digging", "skip"], ["digging", "pass GG"], ["digging", "play MG 1"],
                       ["digging", "play B7 m2"], ["digging", "play X m1"], ["digger", "roll @1.25"],
                       ["digger", "take Y @3.5"], ["digger", "steal W 2 knock"], ["digging", "no such move"]];
        const out = moves.map(([game, move]) => moveText(game, move, name));
        i18n.setLang("fr");
        out.push(moveText("digging", "play G m1", name), moveText("digger", "steal Y 0", name));
        i18n.setLang("en");
        return out;
    }""")
    assert told == ["Draw", "Skip", "double gold chest to partner", "gold mine in Opal's display", "bandit 7 on m2",
                    "closed-mine card on m1", "Roll (1.3 s)", "Take yellow (3.5 s)",
                    "Steal white from Dee (the pile fell)", "no such move",
                    told[-2], "Voler jaune à Flint"], told  # fmt: skip
    assert told[-2].endswith("sur m1") and "gold" not in told[-2]


def test_two_digit_bandits_keep_their_number_clear_of_the_corner(new_page: Any, server: LiveServer) -> None:
    page = new_page()
    page.goto("/")
    page.locator("#quick-digging").wait_for()
    overlaps = page.evaluate(
        """async () => {
        const { cardEl } = await import("/js/cards.js");
        const out = [];
        for (const size of ["lg", "md", "sm"]) {
          for (const value of [1, 9, 10, 12]) {
            const card = cardEl(`B${value}`, { size });
            document.body.append(card);
            const a = card.querySelector(".card-corner").getBoundingClientRect();
            const b = card.querySelector(".card-big").getBoundingClientRect();
            const box = card.getBoundingClientRect();
            const apart = a.right <= b.left || b.right <= a.left || a.bottom <= b.top || b.bottom <= a.top;
            const inside = b.left >= box.left && b.right <= box.right;
            if (!apart || !inside) out.push(`${size} B${value}`);
            card.remove();
          }
        }
        return out;
    }"""
    )
    assert overlaps == []


def test_a_player_without_a_name_is_asked_in_the_page(new_page: Any, server: LiveServer) -> None:
    created = server.post(
        "/api/tables",
        {"game": "digging", "players": 2, "seats": [{"kind": "human"}, {"kind": "human"}], "claim": 0},
    )
    table_id = created["table"]["id"]
    page = new_page()
    native: list[str] = []
    page.on("dialog", lambda d: (native.append(d.type), d.dismiss()))
    page.goto(f"/table.html?t={table_id}")
    page.locator('button.claim[data-seat="1"]').click()
    ask = page.locator(".modal.ask-name")
    ask.wait_for()
    ask.locator(".btn").filter(has_text="Cancel").click()  # cancelled: nothing is claimed
    assert server.get(f"/api/tables/{table_id}")["seats"][1]["name"] in (None, "")
    page.locator('button.claim[data-seat="1"]').click()
    # A tab pasted in (which the server, refusing control characters, would refuse) is a space.
    ask.locator("input").fill("Cid\tJo")
    ask.locator("input").press("Enter")
    page.wait_for_url(re.compile(rf"/table\.html\?t={table_id}&seat=1$"))
    assert server.get(f"/api/tables/{table_id}")["seats"][1]["name"] == "Cid Jo"
    assert native == []


def test_server_errors_are_shown_in_words(new_page: Any, server: LiveServer) -> None:
    created = server.post(
        "/api/tables",
        {"game": "digging", "players": 2, "seats": [{"kind": "human"}, {"kind": "human"}], "claim": 0},
    )
    table_id = created["table"]["id"]
    page = new_page()
    # Only the lobby's first list is answered: a refresh (every 5 s) after the claim below would
    # show the table full, with no button left for this visitor to press.
    answered: list[str] = []

    def first_list_only(route: Any) -> None:
        if not answered:
            answered.append(route.request.url)
            route.continue_()  # later ones are held, unanswered, until the page closes

    page.route(re.compile(r"/api/tables\?"), first_list_only)
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
    expect(page.locator("#quick-digging")).to_have_text("Jouer à Digging contre des robots")
    expect(page.locator("#rules-text").filter(has_text="Distribution")).to_have_count(1)
    page.locator("#lang").select_option("de")
    expect(page.locator("#quick-digging")).to_have_text("Digging gegen Bots spielen")
    assert page.evaluate("document.documentElement.lang") == "de"

    # The choice is remembered, and the table speaks it too. (The hand's first line, wherever it
    # is in the log: on a busy machine the bots may have moved before the page is drawn.)
    page.click("#quick-digging")
    page.locator(".hand .card").first.wait_for()
    expect(page.locator('[data-action="draw"]')).to_contain_text("Ziehen")
    expect(page.locator("#log li").filter(has_text=re.compile(r"^Runde 1:"))).to_have_count(1)
    page.locator("#lang").select_option("fr")
    expect(page.locator('[data-action="draw"]')).to_contain_text("Piocher")
    expect(page.locator("#log li").filter(has_text=re.compile(r"^Manche 1 :"))).to_have_count(1)
    page.click("#rules-btn")
    expect(page.locator(".modal h2")).to_contain_text("les règles en bref")
    screenshot(page, "digging-rules-fr")
    page.keyboard.press("Escape")
    page.locator("#lang").select_option("en")
    expect(page.locator('[data-action="draw"]')).to_contain_text("Draw")


def test_a_count_reads_in_the_singular_or_plural_of_each_language(new_page: Any, server: LiveServer) -> None:
    # No "player(s)": French uses the singular for 0 and 1, English and German for 1 alone.
    page = new_page()
    page.goto("/")
    page.locator("#quick-digging").wait_for()
    told = page.evaluate(
        """async () => {
        const i18n = await import("/js/i18n.js");
        const out = {};
        for (const code of ["en", "fr", "de"]) {
          i18n.setLang(code);
          out[code] = [0, 1, 2].map((n) => i18n.t("table.waitingFor", { n }));
        }
        i18n.setLang("en");
        return out;
    }"""
    )
    assert told == {
        "en": ["Waiting for 0 more players", "Waiting for 1 more player", "Waiting for 2 more players"],
        "fr": ["Encore 0 joueur attendu", "Encore 1 joueur attendu", "Encore 2 joueurs attendus"],
        "de": ["Es fehlen noch 0 Spieler", "Es fehlt noch 1 Spieler", "Es fehlen noch 2 Spieler"],
    }


def test_the_servers_refusals_read_in_the_players_language(new_page: Any, server: LiveServer) -> None:
    # A refusal with a code of its own is told in the page's language, never with the server's
    # English beside it; a rate limit says how long to wait where the server said.
    page = new_page()
    page.goto("/")
    told = page.evaluate("""async () => {
        const i18n = await import('/js/i18n.js');
        i18n.setLang("fr");
        const english = "the server has 9 live tables, as many as it takes";
        const codes = ["not_open", "not_live", "server_full", "too_many_tables", "too_many_bot_tables",
                       "too_many_replays", "too_many_analyses", "too_many_sockets", "too_large", "moved",
                       "expired", "abandoned", "stopped", "rate_limited"];
        const out = Object.fromEntries(codes.map((code) => [code, i18n.errorText({ code, message: english })]));
        out.wait = i18n.errorText({ code: "rate_limited", message: english, retry_after: 11.2 });
        out.expiredPage = i18n.t("table.expired");
        i18n.setLang("en");
        return out;
    }""")
    for code, text in told.items():
        assert "as many as it takes" not in text and not text.startswith("Erreur"), (code, text)
    assert told["wait"] == "Trop de demandes d'un coup : réessayez dans 12 s."
    assert told["expired"] == told["expiredPage"]


def test_an_unnamed_table_is_named_in_each_players_language(new_page: Any, server: LiveServer) -> None:
    # The server keeps no name for a table its creator left unnamed; each page names it.
    created = server.post("/api/tables", {"game": "digging", "seats": [{"kind": "human"}, {"kind": "human"}]})
    tid = created["table"]["id"]
    assert created["table"]["name"] == ""
    page = new_page()
    page.goto("/?lang=fr")
    item = page.locator(f'.table-item[data-table="{tid}"] strong')
    item.wait_for()
    assert item.inner_text() == "Table de Digging"
    page.goto(f"/table.html?t={tid}&lang=de")
    page.locator(".table-title").filter(has_text="Digging-Tisch").wait_for()
    page.wait_for_function("document.title.startsWith('Digging-Tisch')")
    # The replay's and the tutorial's tab titles are in the page's language too.
    page.goto("/tutorial.html?lang=fr")
    page.wait_for_function("document.title.startsWith('Votre première partie de Digging')")


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
    page.locator("#table-list li").first.wait_for()  # the list of tables comes after the form
    no_horizontal_scroll(page)
    screenshot(page, "phone-lobby")
    page.click("#quick-digging")
    page.locator(".hand .card").first.wait_for()
    wait_until(lambda: my_turn(page), 90)
    # Play a card to a target on the small screen, then look again.
    for _ in range(6):
        wait_until(lambda: my_turn(page), 90)
        digging_step(page, prefer_draw=False)
    no_horizontal_scroll(page)
    screenshot(page, "phone-digging-table")


IN_SIGHT = """(sel) => {
  const el = document.querySelector(sel);
  if (!el) return null;
  const r = el.getBoundingClientRect();
  const hand = document.querySelector(".hand-area").getBoundingClientRect();
  const inHand = document.querySelector(".hand-area").contains(el);
  const bottom = inHand ? window.innerHeight : Math.min(window.innerHeight, hand.top);
  return r.top >= 0 && r.bottom <= bottom + 0.5;
}"""


def test_on_a_phone_the_hand_is_in_reach_and_a_tapped_card_brings_its_target_into_sight(
    new_page: Any, server: LiveServer
) -> None:
    page = new_page(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page.goto("/")
    page.click("#quick-digging")
    page.locator(".hand .card").nth(5).wait_for()
    checked = 0
    for _ in range(30):
        wait_until(lambda: my_turn(page) or bool(page.locator(".modal-backdrop").count()), 60)
        if close_modal(page):
            continue
        # Wherever the page is scrolled (it is taller than the screen), the hand is on screen.
        assert page.evaluate("document.documentElement.scrollHeight") > 844
        for where in ("0", "document.body.scrollHeight"):
            page.evaluate(f"window.scrollTo(0, {where})")
            assert page.evaluate(IN_SIGHT, ".hand .card"), f"the hand is off screen (scrolled to {where})"
        page.evaluate("window.scrollTo(0, document.body.scrollHeight)")  # the mines are far above
        card = page.locator(".hand .card.selectable:not(.card-mine)")
        codes = [c for c in card.evaluate_all("els => els.map(e => e.dataset.card)") if not c.startswith("M")]
        if codes:
            page.locator(f'.hand .card.selectable[data-card="{codes[0]}"]').last.tap()
            page.locator("button.target").first.wait_for()
            # The first target is in sight above the hand, with no scrolling by the player.
            assert page.evaluate(IN_SIGHT, "button.target"), "the target is off screen or under the hand"
            checked += 1
            if checked >= 3:
                no_horizontal_scroll(page)
                screenshot(page, "phone-digging-target-in-sight", full_page=False)  # as the player sees it
                return
            page.keyboard.press("Escape")
        assert digging_step(page) is not None or page.locator(".modal-backdrop").count()
    assert checked, "no card with a target on the table in 30 turns"
