"""A game's rule options, sent in a table request or a record, are an object or nothing."""

from __future__ import annotations

import pytest
from live import BOTS, HUMAN, LiveServer, receive, send

from goldfields.core import registry
from goldfields.core.definition import ParamError

NOT_OPTIONS = [[["full_deck", True]], 0, "", [], "full_deck", 1, True, [[]]]


@pytest.mark.parametrize("game", ["digging", "digger"])
@pytest.mark.parametrize("options", NOT_OPTIONS)
def test_options_that_are_not_an_object_are_a_param_error_naming_options(game: str, options: object) -> None:
    with pytest.raises(ParamError) as refused:
        registry.get(game).params(players=2, options=options)
    assert refused.value.param == "options"


def test_no_options_are_the_defaults() -> None:
    digging = registry.get("digging")
    assert digging.params(players=2, options=None) == digging.params(players=2)


def test_a_table_or_a_record_whose_options_are_not_an_object_is_refused_with_422(server: LiveServer) -> None:
    record = {"game": "digging", "players": 2, "partnership": False, "hands": []}
    for options in NOT_OPTIONS:
        body = {"game": "digging", "seats": [HUMAN, BOTS], "options": options}
        r = server.post("/api/tables", body)
        assert r.status_code == 422 and r.json()["code"] == "bad_config", (options, r.text)
        assert "options" in r.json()["message"]
        r = server.post("/api/replay", {"record": {**record, "options": options}})
        assert r.status_code == 422 and r.json()["code"] == "bad_record", (options, r.text)
        assert "options" in r.json()["message"]
    assert server.get("/api/health").json()["status"] == "ok"


def test_a_tables_hand_size_deals_that_many_cards_and_the_games_list_bounds_it(server: LiveServer) -> None:
    digging = next(g for g in server.get("/api/games").json() if g["name"] == "digging")
    assert digging["option_limits"]["hand_size"] == {"min": 0, "max": 12, "step": 1}
    created = server.create([HUMAN, BOTS], claim=0, options={"hand_size": 9})
    with server.ws(created["table"]["id"]) as ws:
        send(ws, {"type": "hello", "seat": 0, "token": created["you"]["token"]})
        view = next(m for m in iter(lambda: receive(ws), None) if m["type"] == "update")["view"]
    assert len(view["hand"]) == 9 and view["hand_sizes"] == [9, 9]
    r = server.post("/api/tables", {"game": "digging", "seats": [HUMAN, BOTS], "options": {"hand_size": 13}})
    assert r.status_code == 422 and "hand_size must be a whole number of cards from 1 to 12" in r.json()["message"]
