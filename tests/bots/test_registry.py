from __future__ import annotations

from pathlib import Path

import pytest

from goldfields.bots import BotSpec, BotSpecError, make_bot
from goldfields.bots.base import bounds_of, parameters
from goldfields.bots.digging_heuristic import DiggingHeuristic
from goldfields.bots.ismcts import ISMCTSBot
from goldfields.bots.random_bot import RandomBot
from goldfields.bots.registry import BotParameterError, bot_class, known_bots


def test_parse_plain_and_with_parameters() -> None:
    assert BotSpec.parse("random") == BotSpec("random")
    spec = BotSpec.parse(" ISMCTS:iterations=2000, c=0.7 ")
    assert spec.name == "ismcts"
    assert spec.params == (("iterations", "2000"), ("c", "0.7"))
    assert str(spec) == "ismcts:iterations=2000,c=0.7"


def test_make_bot_per_game_and_typed_parameters() -> None:
    assert isinstance(make_bot("random", "digging"), RandomBot)
    assert isinstance(make_bot("heuristic", "digging"), DiggingHeuristic)
    bot = make_bot("ismcts:iterations=2000,c=0.5", "digging")
    assert isinstance(bot, ISMCTSBot)
    assert bot.iterations == 2000 and bot.c == pytest.approx(0.5) and bot.seconds is None
    timed = make_bot("ismcts:seconds=1", "digging")
    assert isinstance(timed, ISMCTSBot) and timed.seconds == 1.0
    assert bot.spec() == "ismcts:iterations=2000,c=0.5"
    assert make_bot("heuristic", "digging").spec() == "heuristic"


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("alphazero", "unknown bot 'alphazero'; known bots for digging: random, heuristic, net, ismcts"),
        ("ismcts:iters=5", "bot 'ismcts' has no parameter 'iters'; its parameters: iterations"),
        ("ismcts:iterations=lots", "must be int"),
        ("ismcts:iterations", "write key=value"),
        ("ismcts:iterations=0", "iterations=0 is not allowed; iterations must be from 1 to 10_000_000"),
        ("ismcts:c=1,c=2", "given twice"),
        ("search", "does not play digging"),
        ("Hard", "unknown bot 'hard' (hard is a level, not a bot spec: its bot is 'ismcts:net=default', at a "
                 "partnership table 'ismcts:net=selfplay,others=observer'); known bots for digging"),
        ("", "empty bot spec"),
        ("heuristic:", "'heuristic:' ends with ':' and no parameter: write 'heuristic'"),
    ],
)
def test_bad_specs_explain_themselves(spec: str, message: str) -> None:
    with pytest.raises(BotSpecError, match=message.replace("(", r"\(").replace(")", r"\)")):
        make_bot(spec, "digging")


def test_clock_cannot_be_set_from_a_spec() -> None:
    with pytest.raises(BotSpecError, match="no parameter 'clock'"):
        make_bot("ismcts:clock=1", "digging")


@pytest.mark.parametrize(
    ("spec", "parameter"),
    [
        ("heuristic:samples=3000000", "samples"),
        ("heuristic:bandit_cost=nan", "bandit_cost"),
        ("ismcts:c=inf", "c"),
        ("ismcts:reuse=0", "reuse"),
        ("ismcts:policy=clever", "policy"),
        ("ismcts:seconds=1e9", "seconds"),
        ("net:temperature=-1", "temperature"),
    ],
)
def test_every_bot_parameter_has_bounds_and_a_value_outside_them_is_named(spec: str, parameter: str) -> None:
    with pytest.raises(BotParameterError) as caught:
        make_bot(spec, "digging")
    assert caught.value.parameter == parameter
    assert f"{parameter} must be " in str(caught.value)


def test_every_numeric_parameter_of_every_bot_is_bounded() -> None:
    # A parameter without bounds is one a stranger could set to a billion on the server.
    for game in ("digging", "digger"):
        for name in known_bots(game):
            cls = bot_class(name, game)
            bounds = bounds_of(cls)
            for key, (tp, _) in parameters(cls).items():
                if tp is not bool:
                    assert key in bounds, f"{name} ({game}): parameter {key} has no bounds"


def test_a_network_file_is_accepted_from_the_command_line_but_not_from_strangers(tmp_path: Path) -> None:
    path = str(tmp_path / "mine.npz")
    with pytest.raises(BotSpecError, match="no network file"):  # trusted: the path is tried
        make_bot(f"net:net={path}", "digging")
    with pytest.raises(BotParameterError, match="file paths are not accepted here"):
        make_bot(f"net:net={path}", "digging", trusted=False)


@pytest.mark.parametrize(("spec", "game", "shown"), [("ismcts", "digging", "1000"), ("search", "digger", "200")])
def test_an_unknown_parameter_lists_the_iterations_a_search_really_makes(spec: str, game: str, shown: str) -> None:
    # iterations defaults to None, but None means the bot's own count unless seconds is given.
    with pytest.raises(BotSpecError) as caught:
        make_bot(f"{spec}:iters=5", game)
    message = str(caught.value)
    assert f"iterations (int, default {shown} unless seconds), seconds (float, default None)" in message
    assert "default None unless" not in message and "iterations (int, default None)" not in message
    assert make_bot(spec, game).spec() == spec  # how the bot reads its default is unchanged


def test_the_bot_table_in_the_docs_names_every_bot_and_parameter() -> None:
    doc = (Path(__file__).parents[2] / "docs" / "bots.md").read_text(encoding="utf-8")
    rows = [line.split(" | ") for line in doc.splitlines() if line.startswith("| `")]
    for game in ("digging", "digger"):
        for name in known_bots(game):
            row = next((r for r in rows if r[0] == f"| `{name}`" and r[1] in (game.title(), "both")), None)
            assert row is not None, f"docs/bots.md has no row for {name} ({game})"
            for key in parameters(bot_class(name, game)):
                assert f"`{key}`" in row[3] or f"`{key}=" in row[3], f"{name} ({game}): {key} is not in its row"
