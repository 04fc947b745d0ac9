from __future__ import annotations

import pytest

from goldfields.bots import BotSpec, BotSpecError, make_bot
from goldfields.bots.digging_heuristic import DiggingHeuristic
from goldfields.bots.ismcts import ISMCTSBot
from goldfields.bots.random_bot import RandomBot


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
        ("ismcts:iterations=0", "at least 1 iteration"),
        ("ismcts:c=1,c=2", "given twice"),
        ("search", "does not play digging"),
        ("", "empty bot spec"),
    ],
)
def test_bad_specs_explain_themselves(spec: str, message: str) -> None:
    with pytest.raises(BotSpecError, match=message.replace("(", r"\(").replace(")", r"\)")):
        make_bot(spec, "digging")


def test_clock_cannot_be_set_from_a_spec() -> None:
    with pytest.raises(BotSpecError, match="no parameter 'clock'"):
        make_bot("ismcts:clock=1", "digging")
