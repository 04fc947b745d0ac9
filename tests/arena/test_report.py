"""The chart: parity for the table's size, and Elo only when it means something."""

from __future__ import annotations

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


def test_two_entrants_get_parity_at_a_half_and_no_elo_panel() -> None:
    fig = chart_figure(GameSpec.make("digging", 4), [_entrant("a", 7, 10, None), _entrant("b", 3, 10, None)], 10)
    try:
        assert len(fig.axes) == 1
        assert _parity_lines(fig.axes[0]) == [pytest.approx(50)]
        assert "bootstrap" in fig.axes[0].get_xlabel()
    finally:
        plt.close(fig)


def test_the_chart_file_is_replaced_whole(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from goldfields.arena.report import write_chart

    path = tmp_path / "chart.png"
    path.write_bytes(b"the last run's chart")
    assert write_chart(path, GameSpec.make("digging", 2), [_entrant("a", 7, 10, None), _entrant("b", 3, 10, None)], 10)
    assert path.read_bytes().startswith(b"\x89PNG")
    assert [p.name for p in tmp_path.iterdir()] == ["chart.png"]  # no temporary file left beside it
