"""The chart: parity for the table's size, and Elo only when it means something."""

from __future__ import annotations

import io
import warnings

import pytest

from goldfields.arena import EntrantSummary, GameSpec
from goldfields.arena.report import chart_figure

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def _entrant(bot: str, wins: float, games: int, elo: float | None) -> EntrantSummary:
    rate = wins / games
    return EntrantSummary(bot, games, wins, rate - 0.1, rate + 0.1, max(0, rate - 0.05), min(1, rate + 0.05),
                          10.0, 10.0, elo, bot)  # fmt: skip


def _parity_lines(ax) -> list[float]:  # type: ignore[no-untyped-def]
    return [line.get_xdata()[0] for line in ax.get_lines() if line.get_label() == "parity"]


def test_the_three_player_digger_chart_draws_parity_at_a_third() -> None:
    summary = [_entrant("search", 22, 30, 1600), _entrant("heuristic #1", 4, 30, 1450),
               _entrant("heuristic #2", 4, 30, 1450)]  # fmt: skip
    fig = chart_figure(GameSpec.make("digger", 3), summary, 30)
    try:
        rates_ax, elo_ax = fig.axes
        assert _parity_lines(rates_ax) == [pytest.approx(100 / 3)]
        assert any("parity 33%" in t.get_text() for t in rates_ax.texts)
        assert "Elo" in elo_ax.get_xlabel()
    finally:
        plt.close(fig)


def test_the_chart_lists_the_entrants_as_the_table_does_and_draws_elo_from_the_mean() -> None:
    summary = [_entrant("random", 2, 30, 1300), _entrant("search", 22, 30, 1700), _entrant("heuristic", 6, 30, 1500)]
    fig = chart_figure(GameSpec.make("digger", 3), summary, 30)
    try:
        rates_ax, elo_ax = fig.axes
        assert [t.get_text() for t in rates_ax.get_yticklabels()] == ["search", "heuristic", "random"]
        bars = elo_ax.patches
        assert [b.get_x() for b in bars] == [1500, 1500, 1500]  # every bar starts at the mean
        assert [round(b.get_x() + b.get_width()) for b in bars] == [1700, 1500, 1300]
    finally:
        plt.close(fig)


def test_two_entrants_get_parity_at_a_half_and_no_elo_panel() -> None:
    fig = chart_figure(GameSpec.make("digging", 4), [_entrant("a", 7, 10, None), _entrant("b", 3, 10, None)], 10)
    try:
        assert len(fig.axes) == 1
        assert _parity_lines(fig.axes[0]) == [pytest.approx(50)]
        assert "bootstrap" in fig.axes[0].get_xlabel()
    finally:
        plt.close(fig)


def test_long_specs_and_network_paths_leave_the_bars_their_room(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """A training run's arena names its network by a long path; the label used to squeeze the axes to nothing."""
    from goldfields.arena.report import chart_label

    long = f"net:net={tmp_path / 'a' / 'much' / 'longer' / 'folder' / 'round-01.npz'},temperature=1"
    assert chart_label(long) == "net:net=round-01.npz,\ntemperature=1"
    assert chart_label("ismcts:iterations=2950,net=selfplay,deals=4") == "ismcts:iterations=2950,\nnet=selfplay,deals=4"
    assert chart_label("external:/opt/bots/x") == "external:/opt/bots/x"  # no "=": not a path option
    twins = [_entrant(f"net:net={tmp_path / run / 'round-01.npz'}", 5, 10, None) for run in ("a", "b")]
    fig = chart_figure(GameSpec.make("digging", 2), twins, 10)
    try:
        labels = [t.get_text() for t in fig.axes[0].get_yticklabels()]
        assert len(set(labels)) == 2 and all(str(tmp_path) in label.replace("\n", "") for label in labels)
    finally:
        plt.close(fig)
    guided = "ismcts:iterations=2950,net=selfplay,deals=4,leaf=net"
    summary = [_entrant(long, 7, 10, None), _entrant(guided, 3, 10, None)]
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # matplotlib warns when constrained layout collapses the axes
        fig = chart_figure(GameSpec.make("digging", 2), summary, 10)
        try:
            fig.savefig(io.BytesIO(), dpi=110, format="png")
            bar_box = fig.axes[0].get_window_extent()
            assert bar_box.width > 0.4 * fig.bbox.width
        finally:
            plt.close(fig)


def test_the_chart_file_is_replaced_whole(tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from matplotlib.figure import Figure

    from goldfields.arena.report import write_chart

    path = tmp_path / "chart.png"
    path.write_bytes(b"the last run's chart")
    summary = [_entrant("a", 7, 10, None), _entrant("b", 3, 10, None)]
    assert write_chart(path, GameSpec.make("digging", 2), summary, 10)
    assert path.read_bytes().startswith(b"\x89PNG")
    assert [p.name for p in tmp_path.iterdir()] == ["chart.png"]  # no temporary file left beside it
    drawn = path.read_bytes()

    def killed_halfway(self, fname, **kwargs):  # type: ignore[no-untyped-def]
        if hasattr(fname, "write"):
            fname.write(drawn[:100])
        else:
            with open(fname, "wb") as f:
                f.write(drawn[:100])
        raise KeyboardInterrupt

    monkeypatch.setattr(Figure, "savefig", killed_halfway)
    with pytest.raises(KeyboardInterrupt):
        write_chart(path, GameSpec.make("digging", 2), summary, 10)
    assert path.read_bytes() == drawn  # the whole chart, not half of one
    assert [p.name for p in tmp_path.iterdir()] == ["chart.png"]


def _three_way_digger():  # type: ignore[no-untyped-def]
    """Four deals at a three-seat table: a always wins, b always comes second on points, c last."""
    from goldfields.arena.report import summarise
    from goldfields.arena.worker import GameResult

    spec = GameSpec.make("digger", 3)
    lineup = ("a", "b", "c")
    results = []
    for deal in range(4):
        for rotation in range(3):
            entrants = tuple((s - rotation) % 3 for s in range(3))  # seat -> entrant
            points = {0: 30, 1: 20, 2: 10}
            scores = tuple(points[e] for e in entrants)
            returns = tuple(1.0 if e == 0 else 0.0 for e in entrants)
            results.append(GameResult(len(results), deal, rotation, tuple(lineup[e] for e in entrants), entrants,
                                      scores, returns, (entrants.index(0),), (scores,), 30, {}, 1.0))  # fmt: skip
    return summarise(spec, lineup, results, 0)


def test_elo_ranks_two_losers_by_their_points() -> None:
    """Counting the two losers as drawn would give b and c the same rating."""
    elo = {e.bot: e.elo for e in _three_way_digger()}
    assert elo["a"] is not None and elo["b"] is not None and elo["c"] is not None
    assert elo["a"] > elo["b"] > elo["c"] + 100


def test_a_one_hand_game_has_as_many_points_a_hand_as_a_game() -> None:
    """summary.csv keeps the same columns for every game (docs/bots.md)."""
    summary = _three_way_digger()
    assert [(e.points_per_hand, e.points_per_game) for e in summary] == [(30.0, 30.0), (20.0, 20.0), (10.0, 10.0)]


def test_the_median_game_length_of_an_even_number_of_games_is_the_mean_of_the_middle_two() -> None:
    from goldfields.arena.tournament import sides_line
    from goldfields.arena.worker import GameResult

    spec = GameSpec.make("digger", 2)
    results = [GameResult(i, i, 0, ("a", "b"), (0, 1), (10, 5), (1.0, 0.0), (0,), ((10, 5),), length, {}, 1.0)
               for i, length in enumerate((207, 296))]  # fmt: skip
    line = sides_line(spec, results)
    assert line is not None and "decisions a game: median 251.5, 207 to 296" in line


def test_a_sides_interval_under_rotations_resamples_deals_since_a_deal_favours_its_side_in_every_rotation() -> None:
    from goldfields.arena.tournament import side_rows, sides_line
    from goldfields.arena.worker import GameResult

    # Twenty deals, each played in both rotations; the deal decides which seat wins, whoever sits
    # there. Forty games at 50% give a Wilson interval fit for forty independent games, but the
    # evidence is twenty deals: the deal bootstrap is the wider, honest one.
    spec = GameSpec.make("digger", 2)
    results = []
    for deal in range(20):
        seat = 0 if deal % 2 else 1
        for rotation, bots in enumerate((("a", "b"), ("b", "a"))):
            scores = (10, 5) if seat == 0 else (5, 10)
            returns = (1.0, 0.0) if seat == 0 else (0.0, 1.0)
            results.append(GameResult(len(results), deal, rotation, bots, (0, 1) if rotation == 0 else (1, 0),
                                      scores, returns, (seat,), (scores,), 100 + len(results), {}, 1.0))
    rows = side_rows(spec, results, seed=3)
    assert [row["win_rate"] for row in rows] == [0.5, 0.5]
    for row in rows:
        assert row["deal_ci95_low"] < row["ci95_low"] - 0.03 and row["deal_ci95_high"] > row["ci95_high"] + 0.03
    assert side_rows(spec, results, seed=3) == rows  # the run's seed fixes the resamples
    line = sides_line(spec, results, seed=3)
    assert line is not None
    low, high = round(100 * rows[0]["deal_ci95_low"]), round(100 * rows[0]["deal_ci95_high"])
    assert f"seat 0 50.0% (35–65; deal {low}–{high})" in line


def test_a_side_at_black_crates_is_named_with_the_card_it_holds_and_at_white_with_nothing() -> None:
    from goldfields.arena.tournament import side_rows, sides_line
    from goldfields.arena.worker import GameResult

    results = [GameResult(0, 0, 0, ("a", "b"), (0, 1), (10, 5), (1.0, 0.0), (0,), ((10, 5),), 100, {}, 1.0)]
    black = GameSpec.make("digger", 2, None, {"crates": {"black": ["C", "A"]}})
    assert [row["holds"] for row in side_rows(black, results)] == ["card C", "card A"]
    assert "seat 0 (card C) 100.0%" in (sides_line(black, results) or "")
    white = GameSpec.make("digger", 2)
    assert [row["holds"] for row in side_rows(white, results)] == ["", ""]


def test_hands_csv_has_every_hand_of_every_game_and_they_add_up_to_the_game(tmp_path) -> None:  # type: ignore[no-untyped-def]
    import csv

    from goldfields.arena import Tournament, run_tournament

    t = Tournament(GameSpec.make("digging", 4), ("heuristic", "random"), games=2, seed=3, jobs=1, out=tmp_path / "run")
    result = run_tournament(t, progress=False)
    hands = list(csv.DictReader((tmp_path / "run" / "hands.csv").open()))
    for r in result.results:
        mine = [h for h in hands if int(h["game"]) == r.index + 1]
        assert [int(h["hand"]) for h in mine] == list(range(1, len(r.hand_points) + 1)) and len(mine) == r.rounds
        for seat in range(4):
            assert sum(int(h[f"points{seat}"]) for h in mine) == r.scores[seat]
            assert {h[f"seat{seat}"] for h in mine} == {r.seat_bots[seat]}


def test_a_designer_reads_length_margin_points_and_rules_from_the_files(tmp_path) -> None:  # type: ignore[no-untyped-def]
    import csv

    from goldfields.arena import Tournament, run_tournament
    from goldfields.arena.report import rounds_of
    from goldfields.arena.worker import GameResult

    spec = GameSpec.make("digger", 3, None, {"time_limit": 20.0})
    t = Tournament(spec, ("heuristic", "heuristic", "heuristic"), games=3, seed=4, jobs=1, out=tmp_path / "run",
                   seatings="one")  # fmt: skip
    result = run_tournament(t, progress=False)
    games = list(csv.DictReader((tmp_path / "run" / "games.csv").open()))
    # Digger's rounds are its turns, counted as players count them: one per turn's first roll.
    for row, r in zip(games, sorted(result.results, key=lambda r: r.index), strict=True):
        first_rolls = sum(1 for m in r.record["moves"] if m.startswith("roll") and m.endswith("@0"))
        assert int(row["turns"]) == first_rolls == r.rounds
        assert row["rules"] == "time_limit=20.0" and "hands" not in row
    sides = list(csv.DictReader((tmp_path / "run" / "sides.csv").open()))
    for seat, row in enumerate(sides):
        points = [r.scores[seat] for r in result.results]
        assert float(row["points_mean"]) == pytest.approx(sum(points) / 3, abs=1e-3)
    lengths = {row["measure"]: row for row in csv.DictReader((tmp_path / "run" / "lengths.csv").open())}
    assert set(lengths) == {"decisions", "turns", "margin"}
    margins = sorted(sorted(r.scores)[-1] - sorted(r.scores)[-2] for r in result.results)
    assert float(lengths["margin"]["median"]) == margins[1] and float(lengths["margin"]["min"]) == margins[0]
    # hands.csv: a game of Digger is one hand, its points the game's.
    hands = list(csv.DictReader((tmp_path / "run" / "hands.csv").open()))
    assert [(int(h["game"]), int(h["hand"])) for h in hands] == [(1, 1), (2, 1), (3, 1)]
    for h, r in zip(hands, sorted(result.results, key=lambda r: r.index), strict=True):
        assert [int(h[f"points{s}"]) for s in range(3)] == list(r.scores)
    # A game journaled before rounds were kept: Digging's hands are counted from its points a hand;
    # Digger's turns are not known, and left blank rather than guessed.
    old = GameResult(0, 0, 0, ("a", "b"), (0, 1), (10, 5), (1.0, 0.0), (0,), ((4, 1), (6, 4)), 90, {}, 1.0)
    assert rounds_of(GameSpec.make("digging", 2), old) == 2 and rounds_of(GameSpec.make("digger", 2), old) is None
