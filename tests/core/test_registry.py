"""The registry and the game definitions: each game defined once, read by every layer."""

from __future__ import annotations

import ast
import json
import random
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from goldfields.bots import make_bot
from goldfields.clocks import stamp_time
from goldfields.core import registry
from goldfields.core.definition import ParamError
from goldfields.core.game import RuleError
from goldfields.play import play_game
from goldfields.records import replay

ROOT = Path(__file__).resolve().parents[2]
SRC = ROOT / "src" / "goldfields"


@pytest.fixture
def toy() -> Iterator[object]:
    from toy import register_toy, unregister_toy

    game = register_toy()
    yield game
    unregister_toy()


def test_the_shipped_games_are_found_by_name() -> None:
    assert registry.names()[:2] == ["digging", "digger"]
    assert registry.get("digging").title == "Digging"
    with pytest.raises(registry.UnknownGame, match="unknown game 'chess'; games: digging, digger"):
        registry.get("chess")


@pytest.mark.parametrize(
    ("game", "values", "param", "message"),
    [
        ("digging", {"players": 5}, "players", "Digging is for 2, 3 or 4 players, not 5"),
        ("digging", {"players": 3, "partnership": True}, "partnership", "exactly 4 players"),
        ("digging", {"options": {"bogus": True}}, "options", "unknown Digging rule option"),
        ("digging", {"colour": "red"}, "colour", "Digging has no parameter 'colour'"),
        ("digger", {"players": 6}, "players", "Digger is for 2 to 5 players, not 6"),
        ("digger", {"players": True}, "players", "not True"),
        ("digger", {"crates": "purple"}, "crates", "crates is white, black (cards A, B, C... in seat order) or"),
        ("digger", {"options": {"time_limit": -1}}, "options", "time_limit"),
        ("digging", {"options": {"full_deck": True}}, "options",
         "full_deck changes nothing at a digging 4p partnership table: all 60 cards are in play there already"),
        ("digging", {"players": 4, "partnership": False, "options": {"full_deck": True}}, "options",
         "full_deck changes nothing at a digging 4p individual table"),
        ("digging", {"players": 3, "options": {"target_exceeded": True}}, "options",
         "target_exceeded changes nothing at a digging 3p individual table: it is a rule of the partnership game only"),
    ],
)
def test_bad_parameters_raise_one_error_naming_the_parameter(game: str, values: dict, param: str, message: str) -> None:
    with pytest.raises(ParamError, match=re.escape(message)) as err:
        registry.get(game).params(**values)
    assert err.value.param == param


@pytest.mark.parametrize("name", ["digging", "digger"])
def test_parameters_have_defaults_and_round_trip_through_json(name: str) -> None:
    game = registry.get(name)
    params = game.params()
    assert params.players == game.default_players
    assert game.params_from_json(json.loads(json.dumps(params.to_json()))) == params


def test_a_stored_table_keeps_an_idle_rule_option_that_a_new_table_refuses() -> None:
    """A record written with ``full_deck`` at 4 players (before such options were refused)
    still reads and replays: refusing it would lose the game."""
    game = registry.get("digging")
    state = game.new_state(game.params(), random.Random(5))
    record = state.record()
    record["options"] = {"full_deck": True}
    params = game.params_from_json({"players": 4, "partnership": True, "options": {"full_deck": True}})
    assert params.options.full_deck and game.idle_options(params) == {
        "full_deck": "all 60 cards are in play there already (docs/digging.md, Rule options)"}
    assert game.replay(record)[1] == 0
    assert game.idle_options(game.params(players=2, options={"full_deck": True})) == {}
    # An arena run saved with one resumes (--resume reads the run's table through with_rules):
    # the option it had stays, and only an option set anew must change the table.
    from goldfields.arena import GameSpec

    saved = GameSpec.from_json("digging", {"players": 4, "partnership": True, "options": {"full_deck": True}})
    assert saved.with_rules({}).params.options.full_deck
    assert saved.with_rules({"close_needs_chest": True}).params.options.close_needs_chest
    with pytest.raises(ValueError, match="full_deck changes nothing at a digging 4p partnership table"):
        GameSpec.make("digging").with_rules({"full_deck": True})
    assert game.idle_options(game.params(options={"target_exceeded": True})) == {}


def test_digging_defaults_to_the_partnership_game_only_with_four() -> None:
    game = registry.get("digging")
    assert game.params().partnership and game.sides(game.params()) == ((0, 2), (1, 3))
    two = game.params(players=2)
    assert not two.partnership and game.sides(two) == ((0,), (1,))
    assert game.label(game.params(players=4, partnership=False)) == "digging 4p individual"


@pytest.mark.parametrize("name", ["digging", "digger"])
def test_every_level_of_every_kind_of_table_names_a_bot_of_its_game(name: str) -> None:
    game = registry.get(name)
    kinds = {"partnership", *(f"{n}p" for n in range(game.min_players, game.max_players + 1))}
    assert set(game.table_levels) <= kinds, "a kind of table the game has no table of"
    for own in game.table_levels.values():
        assert set(own) <= set(game.levels), "a level the lobby does not offer"
    tables = [game.params(players=n) for n in range(game.min_players, game.max_players + 1)]
    if name == "digging":
        tables.append(game.params(players=4, partnership=False))
    for params in tables:
        levels = game.levels_for(params)
        assert set(levels) == {"easy", "medium", "hard"}
        for spec in levels.values():
            make_bot(spec, name, trusted=False).check_game(name)


def test_the_hard_level_of_the_partnership_game_is_the_search_measured_there() -> None:
    # docs/network.md, "Strength": the observer network's search won 125 of 200 partnership games
    # at equal time against plain ISMCTS; the shipped network alone guides the 2-player search (146 of 200).
    game = registry.get("digging")
    assert game.levels_for(game.params())["hard"] == "ismcts:net=selfplay,others=observer"
    assert game.levels_for(game.params(players=2))["hard"] == "ismcts:net=default"
    assert game.levels_for(game.params(players=4, partnership=False))["hard"] == "ismcts:net=default"
    # A record or config is read as parameters, defaults and all: 4 players are a partnership.
    assert game.levels_for({"game": "digging", "players": 4, "hands": []}) == game.levels_for(game.params())
    assert game.levels_for({"players": 4, "partnership": False})["hard"] == "ismcts:net=default"


def test_digger_writes_timed_moves_in_both_directions() -> None:
    game = registry.get("digger")
    state = game.new_state(game.params())
    assert game.move_text(state, 0, 4.25, (5, 2, 3, 0, 1)) == "roll KRGBY @4.25"
    assert game.read_move(state, "roll KRGBY @4.25") == (0, 4.25, (5, 2, 3, 0, 1))
    assert game.move_text(state, 1, 12.0) == "stop @12"


def test_a_players_move_is_the_decision_alone_for_every_front_end() -> None:
    # The terminal and the server read a player's move with read_decision (the research tables take
    # action numbers, and refuse the timeout with clock_refusal): what only the game decides
    # (Digger's dice G2, its clock G4, its timeout G3) is refused by name, never read as the
    # plain move; a state stays as it was.
    game = registry.get("digger")
    state = game.new_state(game.params())
    before = state.to_json()
    assert game.read_decision(state, " roll ") == 0
    for text, rule in (("roll KRGBY", "G2"), ("roll @0.5", "G4"), ("roll KRGBY @0.5", "G2"), ("timeout", "G3")):
        with pytest.raises(RuleError) as err:
            game.read_decision(state, text)
        assert err.value.rule == rule, (text, err.value)
    assert state.to_json() == before
    digging = registry.get("digging")
    deal = digging.new_state(digging.params())
    while deal.is_chance_node():
        deal.apply_chance(deal.sample_chance(random.Random(1)))
    first = deal.legal_actions()[0]
    assert digging.read_decision(deal, deal.action_to_string(first)) == first


def test_one_rounding_rule_keeps_time_forward_and_never_crosses_the_limit() -> None:
    assert stamp_time(2.34567) == 2.346
    assert stamp_time(1.0, floor=1.5) == 1.5
    assert stamp_time(30.0004, limit=30.0) == 30.001  # late stays late
    assert stamp_time(29.9996, limit=29.9996) == 29.999  # in time stays in time


def test_the_engine_doc_example_runs_unchanged_for_every_game(toy: object, capsys: pytest.CaptureFixture[str]) -> None:
    text = (ROOT / "docs" / "engine.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    for block in blocks[:2]:
        exec(compile(block, "docs/engine.md", "exec"), {"__name__": "docs"})
    printed = capsys.readouterr().out
    for name in ("digging", "digger", "toy"):
        assert re.search(rf"^{name} \[", printed, re.M), printed


def test_a_toy_game_registered_from_the_tests_plays_through_the_driver_and_replay(toy: object, tmp_path: Path) -> None:
    game = registry.get("toy")
    final = play_game(lambda: game.new_state(game.params()), [make_bot("random", "toy")] * 2, random.Random(3))
    assert final.is_terminal() and sum(final.returns()) == 1.0
    report, status = replay(final.record())
    assert status == 0 and report["ok"] and report["game_over"]
    bad = {**final.record(), "moves": [*final.record()["moves"][:1], "fold"]}
    report, status = replay(bad)
    assert status == 1 and report["error"]["move"] == 1 and "notation" in report["error"]["message"]


def test_goldfields_replay_checks_a_toy_record_without_a_line_about_it(tmp_path: Path) -> None:
    record = {"game": "toy", "players": 2, "moves": ["deal 3 1", "keep", "swap"]}
    path = tmp_path / "toy.json"
    path.write_text(json.dumps(record))
    # A fresh process knows only the games that register: the toy registers in a plug-in line.
    code = (
        f"import sys; sys.path.insert(0, {str(ROOT / 'tests' / 'support')!r}); "
        "import toy; toy.register_toy(); "
        "from goldfields.cli.app import main; sys.argv = ['goldfields', 'replay', sys.argv[1]]; main()"
    )
    out = subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["winner"] == [1]


def test_a_two_game_arena_tournament_of_the_toy_game(toy: object, tmp_path: Path) -> None:
    from goldfields.arena import GameSpec, Tournament, run_tournament

    t = Tournament(GameSpec.make("toy"), ("ismcts:iterations=30", "random"), games=2, seed=1, jobs=1, out=tmp_path)
    result = run_tournament(t, progress=False)
    assert len(result.results) == 2
    assert sum(e.games for e in result.summary) == 4  # two games, two entrants in each
    for path in (tmp_path / "records").glob("*.json"):
        assert replay(json.loads(path.read_text()))[1] == 0


def _literal_names(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [
        f"{path.relative_to(SRC)}:{node.lineno}"
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and node.value in ("digging", "digger")
    ]


def test_game_names_are_written_almost_only_in_the_game_packages_and_the_registry() -> None:
    exempt = {SRC / "digging", SRC / "digger", SRC / "core" / "registry.py"}
    found = [
        hit
        for path in sorted(SRC.rglob("*.py"))
        if not any(path == e or e in path.parents for e in exempt)
        for hit in _literal_names(path)
    ]
    assert len(found) < 10, found


def _imports(path: Path) -> set[str]:
    """The goldfields modules a module imports at its top level (not inside functions)."""
    module = ".".join(path.relative_to(SRC.parent).with_suffix("").parts).removesuffix(".__init__")
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    out: set[str] = set()
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            names = [f"{target}.{a.name}" for a in node.names]
            out.update(n if (SRC.parent / n.replace(".", "/")).with_suffix(".py").exists()
                       or (SRC.parent / n.replace(".", "/")).is_dir() else target for n in names)
        elif isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.If) and "TYPE_CHECKING" in ast.dump(node.test):
            continue
    return {m for m in out if m.startswith("goldfields")}


def test_no_import_cycles_in_src() -> None:
    modules = {}
    for path in SRC.rglob("*.py"):
        name = ".".join(path.relative_to(SRC.parent).with_suffix("").parts).removesuffix(".__init__")
        modules[name] = path
    graph = {name: {m for m in _imports(path) if m in modules and m != name} for name, path in modules.items()}
    # A package's __init__ re-exporting its own modules is not a cycle between layers.
    for name in graph:
        graph[name] = {m for m in graph[name] if not (name.startswith(m + ".") and m in modules)}
    seen: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> None:
        seen[node] = 1
        stack.append(node)
        for nxt in sorted(graph[node]):
            if seen.get(nxt) == 1:
                cycle = [*stack[stack.index(nxt):], nxt]
                raise AssertionError("import cycle: " + " -> ".join(cycle))
            if nxt not in seen:
                visit(nxt)
        stack.pop()
        seen[node] = 2

    for node in sorted(graph):
        if node not in seen:
            visit(node)


def test_crate_values_that_name_no_card_in_play_are_refused_as_changing_nothing() -> None:
    from goldfields.arena import GameSpec

    card = {"Y": 1, "R": 2, "G": 3, "W": 9}
    game = registry.get("digger")
    with pytest.raises(ValueError, match=r"crate_values changes nothing .* sets black A, and this table plays the"):
        GameSpec.make("digger", 3).with_rules({"crate_values": {"black": {"A": card}}})
    with pytest.raises(ValueError, match=r"sets black E, and this table plays black cards A, B, C \(G1"):
        GameSpec.make("digger", 3).with_rules({"crates": "black", "crate_values": {"black": {"E": card}}})
    with pytest.raises(ValueError, match="sets white, and this table plays black cards"):
        GameSpec.make("digger", 3).with_rules({"crates": "black", "crate_values": {"white": card}})
    # A card in play, even beside one that is not, changes the game: accepted.
    assert game.idle_options(game.params(crates="black", options={"crate_values": {"black": {"A": card}}})) == {}
    both = {"white": card, "black": {"E": card}}
    assert game.idle_options(game.params(options={"crate_values": both})) == {}


def test_crate_values_may_be_written_short_wherever_the_option_is_read() -> None:
    # The short form the OpenSpiel parameter needs (no comma) is read by --rule and the API too.
    from goldfields.arena import GameSpec
    from goldfields.cli.options import parse_rules

    short = GameSpec.make("digger", 3).with_rules(parse_rules(["crate_values=white:Y1R1G1W10"]))
    long = GameSpec.make("digger", 3).with_rules({"crate_values": {"white": {"Y": 1, "R": 1, "G": 1, "W": 10}}})
    assert short.params == long.params and short.rules_text() == long.rules_text()
    with pytest.raises(ValueError, match="crate card white must give exactly Y, R, G and W: missing G, W"):
        GameSpec.make("digger", 3).with_rules({"crate_values": "white:Y1R1"})
