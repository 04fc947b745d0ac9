"""A game's rule options, sent in a table request or a record, are an object or nothing."""

from __future__ import annotations

import pytest
from live import BOTS, HUMAN, LiveServer

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
