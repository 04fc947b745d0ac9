"""A whole Digger game through the browser: two players and a bot, dice, takes, stops,
the hourglass shown to the seated players but the digger, a reload, and the end of the game.
Skipped, saying so, if the server does not host Digger tables (GET /api/games)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from webplay import digger_step, my_turn, narrated, wait_until

from conftest import LiveServer, screenshot

pytestmark = pytest.mark.browser


def server_hosts_digger(server: LiveServer) -> bool:
    return any(g["name"] == "digger" for g in server.get("/api/games"))


def play_a_digger_game(make_page: Any, prefix: str) -> None:
    ann = make_page()
    ann.goto("/")
    ann.fill("#player-name", "Ann")
    ann.locator("#quick-digger").wait_for()
    ann.locator("#f-game").select_option("digger")
    ann.locator("#f-players").select_option("3")
    ann.locator('select[data-seat="1"]').select_option("human")
    ann.locator('select[data-seat="2"]').select_option("bot:heuristic")
    ann.click("#f-create")
    ann.wait_for_url(re.compile(r"/table\.html\?t=[\w-]+&seat=0$"))
    table_id = ann.evaluate("new URLSearchParams(location.search).get('t')")

    bea = make_page()
    bea.goto("/")
    bea.fill("#player-name", "Bea")
    bea.locator(f'.table-item[data-table="{table_id}"] .join[data-seat="1"]').click()
    bea.wait_for_url(re.compile(rf"/table\.html\?t={table_id}&seat=1$"))
    for page in (ann, bea):
        page.wait_for_function("document.body.dataset.status === 'playing'")
        page.locator(".dice .die").nth(4).wait_for()

    # A spectator on a phone-sized screen.
    phone = make_page(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    phone.goto(f"/table.html?t={table_id}")
    phone.locator(".crate").nth(2).wait_for()

    seen = {"glass": False, "dice": False, "reload": False}
    turns = {"ann": 0, "bea": 0}

    def play_some() -> bool:
        for who, page, other in (("ann", ann, bea), ("bea", bea, ann)):
            if page.evaluate("document.body.dataset.status") == "finished":
                continue
            if my_turn(page) and page.locator(".dg").get_attribute("data-rolls") not in (None, "0"):
                if not seen["glass"]:
                    # The hourglass: hidden from the digger, running for the others.
                    assert page.locator(".hourglass.hidden-from-me").count() == 1
                    other.locator(".hourglass .glass-time").filter(has_text=re.compile(r"\d")).wait_for()
                    # A spectator sees no hourglass (the digger could be watching), and is told why.
                    assert phone.locator(".hourglass.hidden-from-me").count() == 1
                    assert "Spectators" in phone.locator(".hourglass").inner_text()
                    screenshot(page, f"{prefix}-table")
                    screenshot(other, f"{prefix}-watching-the-hourglass")
                    seen["glass"] = True
                if not seen["dice"] and page.locator(".die.unique").count():
                    seen["dice"] = True
            move = digger_step(page)
            if move == "stop":
                turns[who] += 1
            if who == "bea" and turns["bea"] == 2 and not seen["reload"] and not my_turn(bea):
                bea.reload()
                bea.wait_for_function("document.body.dataset.seat === '1'")
                bea.locator(".dice .die").nth(4).wait_for()
                seen["reload"] = True
        return all(p.evaluate("document.body.dataset.status") == "finished" for p in (ann, bea))

    wait_until(play_some, timeout=400, step=0.02)
    assert seen["glass"] and seen["dice"] and seen["reload"]
    assert turns["ann"] >= 1 and turns["bea"] >= 1
    for page in (ann, bea):
        page.locator(".modal.game-over").wait_for()
    assert ann.locator(".modal.game-over h2").inner_text().startswith("Game over")
    screenshot(ann, f"{prefix}-game-over")
    phone.wait_for_function("document.body.dataset.status === 'finished'")
    widths = phone.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert widths[0] <= widths[1]
    phone.locator(".modal.game-over").wait_for()  # after its fetch of the summary: then closed, for the picture
    phone.keyboard.press("Escape")
    screenshot(phone, f"phone-{prefix}-table")


def test_a_full_digger_game_through_the_ui(new_page: Any, server: LiveServer) -> None:
    if not server_hosts_digger(server):
        pytest.skip("the server does not host Digger tables (GET /api/games has no 'digger')")
    play_a_digger_game(new_page, "digger")


def test_the_sand_running_out_is_announced_not_only_logged(new_page: Any, server: LiveServer) -> None:
    created = server.post(
        "/api/tables",
        {
            "game": "digger",
            "seats": [{"kind": "human"}, {"kind": "bot", "bot": "random"}],
            "claim": 0,
            "options": {"time_limit": 2.0},
        },
    )
    table_id, token = created["table"]["id"], created["you"]["token"]
    page = new_page()
    page.goto(f"/table.html?t={table_id}&seat=0#token={token}")
    page.locator(".dice .die").nth(4).wait_for()
    # Roll once, then wait: the hourglass (2 s) runs out before the digger stops.
    page.locator('[data-action="roll"]:not([disabled])').click(timeout=60_000)
    sand = page.locator(".toast-sand")
    sand.wait_for(timeout=60_000)
    assert "The sand ran out on" in sand.inner_text()


def test_a_colour_showing_once_with_an_empty_supply_says_why_it_cannot_be_taken(
    new_page: Any, server: LiveServer
) -> None:
    page = new_page()
    page.goto("/")
    page.locator("#quick-digger").wait_for()
    shown = page.evaluate(
        """async () => {
        const { mount, readLegal } = await import("/js/digger.js");
        const root = document.createElement("div");
        const side = document.createElement("div");
        document.body.append(root, side);
        const view = mount(root, { side, seat: 0, name: (s) => `P${s}`, send: () => true });
        const dice = { unique: ["R", "Y"], black_unique: false, started: true,
                       centre: { B: 3, Y: 2, R: 0, G: 1, W: 4 } };
        view.renderControls(dice, readLegal(["roll", "stop", "take Y"]), true, true);
        const none = [...root.querySelectorAll("button.none-left")];
        const out = none.map((b) => [b.dataset.colour, b.disabled, b.textContent]);
        view.destroy();
        return out;
    }"""
    )
    assert len(shown) == 1
    colour, disabled, text = shown[0]
    assert colour == "R" and disabled and "No red gem left" in text


def test_the_create_form_sets_the_crate_values_and_the_table_plays_by_them(new_page: Any, server: LiveServer) -> None:
    if not server_hosts_digger(server):
        pytest.skip("the server does not host Digger tables (GET /api/games has no 'digger')")
    page = new_page()
    page.goto("/")
    page.fill("#player-name", "Ann")
    page.locator("#quick-digger").wait_for()
    page.locator("#f-game").select_option("digger")
    page.locator("#f-players").select_option("3")
    # The white side: one card, offered with the other rule options.
    options = page.locator("fieldset.options")
    assert options.locator(".crate-row").count() == 1
    assert options.locator('.crate-row[data-card="white"] input[type="number"]').count() == 4
    # The black side: a card per seat, A, B and C. Card B is changed, A and C keep their values.
    page.locator("#f-crates").select_option("black")
    assert [options.locator(".crate-row").nth(i).get_attribute("data-card") for i in range(3)] == ["A", "B", "C"]
    card_b = options.locator('.crate-row[data-card="B"] input')
    card_b.nth(0).fill("7")
    page.click("#f-create")
    # A card half filled is named, and nothing is created.
    page.locator(".toast", has_text="card B").wait_for()
    assert page.evaluate("document.activeElement.name") == "crate_values.B.R"
    assert page.url.endswith("/")
    for box, value in zip(card_b.all()[1:], ("0", "8", "9"), strict=True):
        box.fill(value)
    page.click("#f-create")
    page.wait_for_url(re.compile(r"/table\.html\?t=[\w-]+&seat=0$"))
    table_id = page.evaluate("new URLSearchParams(location.search).get('t')")
    config = server.get(f"/api/tables/{table_id}")["config"]
    assert config["options"]["crate_values"] == {"black": {"B": {"Y": 7, "R": 0, "G": 8, "W": 9}}}
    # Seat 1 holds card B, and its crate shows the values chosen.
    crate = page.locator(".crate").nth(1)
    crate.locator(".crate-card", has_text="card B").wait_for()  # the card named, not a bare letter
    assert [v.inner_text() for v in crate.locator(".value").all()] == ["×7", "×0", "×8", "×9"]


def test_a_keyboard_player_keeps_their_place_among_the_digger_controls(new_page: Any, server: LiveServer) -> None:
    # The controls are drawn again after every move; focus must not fall back to the page.
    seats = [{"kind": "human"}, {"kind": "bot", "bot": "random"}]
    created = server.post("/api/tables", {"game": "digger", "seats": seats, "claim": 0})
    tid, token = created["table"]["id"], created["you"]["token"]
    page = new_page()
    page.goto(f"/table.html?t={tid}&seat=0#token={token}")
    roll = page.locator('[data-key="roll"]:not([disabled])')
    roll.focus()
    page.keyboard.press("Enter")  # a keyboard player's click
    page.wait_for_function("document.querySelector('.dg').dataset.rolls === '1'")
    page.wait_for_function("document.activeElement && document.activeElement.dataset.key === 'roll'")
    # The take and steal buttons read their words, not "null Yellow" from the token inside them.
    for button in page.locator(".dg-controls .target").all():
        assert "null" not in (button.get_attribute("aria-label") or "") + button.inner_text()
        assert button.locator(".token[aria-hidden='true']").count() == 1


def test_a_stop_is_logged_with_what_it_banked_and_boxed_then_the_score(new_page: Any, server: LiveServer) -> None:
    # The score after a stop is the digger's total (steals included), not what the haul was worth:
    # the line says so, and names the blue put in the box, as the terminal's log does.
    told = narrated(new_page(), "digger", [
        {"kind": "stop", "seat": 0, "banked": {"Y": 2, "R": 1, "W": 2}, "boxed": 2, "score": 27},
        {"kind": "stop", "seat": 1, "banked": {}, "boxed": 0, "score": 4},
    ], ["Dee", "Opal"])  # fmt: skip
    assert told == ["Dee stops and banks 2 yellow, 1 red, 2 white, boxes 2 blue; score 27.",
                    "Opal stops and banks nothing; score 4."]  # fmt: skip


def test_the_french_log_makes_colours_agree_and_says_nothing_banked_in_a_sentence(new_page: Any) -> None:
    page = new_page()
    page.goto("/")
    page.locator("#quick-digger").wait_for()
    told = page.evaluate(
        """async (events) => {
        const { narrate } = await import("/js/narrate.js");
        const i18n = await import("/js/i18n.js");
        i18n.setLang("fr");
        const out = events.map((ev) => narrate("digger", ev, (seat) => ["Dee", "Opal"][seat]));
        i18n.setLang("en");
        return out;
    }""",
        [
            {"kind": "steal", "seat": 0, "colour": "G", "from": 1},
            {"kind": "stop", "seat": 0, "banked": {"Y": 3, "W": 1}, "boxed": 1, "score": 12},
            {"kind": "stop", "seat": 1, "banked": {}, "boxed": 0, "score": 4},
            {"kind": "timeout", "seat": 1, "cause": "hourglass", "returned": {}},
        ],
    )
    assert told == [
        "Dee vole une gemme verte à Opal.",
        "Dee s'arrête et met à l'abri 3 jaunes, 1 blanc, range 1 bleu dans la boîte ; score 12.",
        "Opal s'arrête sans rien mettre à l'abri ; score 4.",
        "Le sablier s'est écoulé pour Opal, qui n'avait rien en jeu.",
    ], told


def colour_of(element: Any, prefix: str) -> str:
    """The colour a die (``face-Y``) or gem (``tok-Y``) is drawn in, from its class."""
    return next(c.removeprefix(prefix) for c in (element.get_attribute("class") or "").split() if c.startswith(prefix))


def test_the_letters_on_dice_and_gems_are_the_players_language_and_tell_every_colour_apart(
    new_page: Any, server: LiveServer
) -> None:
    # The letter beside a colour is for a player who cannot tell the colours apart: in French a
    # yellow die reads J (jaune), and no two colours share a letter in any language.
    page = new_page()
    page.goto("/")
    faces = page.evaluate("""async () => {
        const { STRINGS } = await import('/js/i18n.js');
        const letters = (s) => [..."BYRGWK"].map((c) => s[`face.${c}`]);
        return Object.fromEntries(Object.entries(STRINGS).map(([l, s]) => [l, letters(s)]));
    }""")
    for lang, letters in faces.items():
        assert len(set(letters)) == 6, (lang, letters)
    seats = [{"kind": "human"}, {"kind": "bot", "bot": "random"}]
    created = server.post("/api/tables", {"game": "digger", "seats": seats, "claim": 0})
    tid, token = created["table"]["id"], created["you"]["token"]
    page.evaluate("localStorage.setItem('goldfields.lang', 'fr')")
    page.goto(f"/table.html?t={tid}&seat=0#token={token}")
    page.locator('[data-key="roll"]:not([disabled])').click()
    page.wait_for_function("document.querySelector('.dg').dataset.rolls === '1'")
    french = dict(zip("BYRGWK", faces["fr"], strict=True))
    for die in page.locator(".dice .die:not(.blank)").all():
        assert die.locator(".die-letter").inner_text() == french[colour_of(die, "face-")]
    for gem in page.locator(".dg-controls .target .token").all():
        assert gem.locator(".tok-letter").inner_text() == french[colour_of(gem, "tok-")]
    page.evaluate("localStorage.removeItem('goldfields.lang')")


def test_a_single_black_is_logged_as_a_steal_only_when_one_can_be_made(new_page: Any, server: LiveServer) -> None:
    # G2: the roll's event says whether a gem that shows once sits in an opponent's crate.
    roll = {"kind": "roll", "seat": 0, "roll": 2, "faces": "RRYBK", "unique": ["B", "Y"], "black": True}
    told = narrated(new_page(), "digger", [{**roll, "steal": True}, {**roll, "steal": False}], ["Dee", "Opal"])
    assert told[0].endswith("roll 2: R R Y B K; once: blue, yellow. Black once: stealing is open.")
    assert told[1].endswith("once: blue, yellow. Black once, but there is nothing to steal.")
