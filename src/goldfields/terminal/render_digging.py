"""Digging on screen, drawn from one seat's observation (``DiggingState.observation``).

Every function here takes an observation, never a state: the only hand it
can show is the one the observation holds, the viewer's own.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich import box
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from ..core.words import agree, plural
from ..digging.cards import CODE_OF, METALS
from ..digging.state import mine_points
from .front import Names

Obs = Mapping[str, Any]

METAL_STYLE = {"gold": "yellow", "silver": "bright_white", "copper": "dark_orange"}


def sides(obs: Obs) -> list[tuple[str, list[int]]]:
    """(name, seats) per side: the two teams, or each seat alone."""
    n = obs["players"]
    if obs["partnership"]:
        return [("team A", [0, 2]), ("team B", [1, 3])]
    return [(f"seat {s}", [s]) for s in range(n)]


def side_name(obs: Obs, names: Names, seats: Sequence[int]) -> str:
    if obs["partnership"]:
        return f"team {'AB'[seats[0] % 2]} (seats {seats[0]}+{seats[1]})"
    return names(seats[0])


def header(obs: Obs) -> Text:
    mode = "partnership" if obs["partnership"] else "individual"
    parts = [f"Digging, {obs['players']} players, {mode}, {obs['target']} points to win"]
    if obs["hand_no"] >= 0:
        parts.append(f"hand {obs['hand_no'] + 1}, dealt by seat {obs['dealer']}")
    return Text(" | ".join(parts), style="bold")


def scores(obs: Obs, names: Names) -> Table:
    """Game totals per side, with each finished hand and the closed mines of this one."""
    table = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False, title=None)
    table.add_column("scores")
    groups = sides(obs)
    for label, seats in groups:
        table.add_column(label if obs["partnership"] else names(seats[0]), justify="right")

    def per_side(points: Sequence[int]) -> list[str]:
        return [str(sum(points[s] for s in seats)) for _, seats in groups]

    for i, hand in enumerate(obs["history"]):
        table.add_row(f"hand {i + 1}", *per_side(hand))
    if not obs.get("winners") and obs["hand_no"] >= len(obs["history"]):
        table.add_row("this hand so far", *per_side(obs["points"]), style="dim")
    table.add_row("game total", *per_side(obs["totals"]), style="bold")
    return table


def mine_line(mine: Mapping[str, Any], fight: Mapping[str, Any] | None, scoring: bool = False) -> Text:
    """One mine: its metal, chests and state; ``scoring``: at the end of a hand, where an open mine scores nothing."""
    metal = mine["metal"]
    chests = mine["chests"]
    line = Text()
    line.append(f"{mine['name']} ", style="bold")
    line.append(f"{metal} mine", style=METAL_STYLE.get(metal, ""))
    line.append(": " + (" ".join(chests) if chests else "no chest"))
    if mine["closed"]:
        points = mine_points(METALS.index(metal), [CODE_OF[c] for c in chests])
        line.append(f"  closed, {plural(points, 'point')}", style="green")
    elif scoring:
        line.append("  open: scores nothing", style="dim")
    else:
        line.append("  open", style="dim")
    if fight is not None and fight["mine"] == mine["name"]:
        line.append("  UNDER ATTACK", style="bold red")
    return line


def displays(obs: Obs, names: Names) -> Table:
    table = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False)
    table.add_column("seat")
    table.add_column("cards", justify="right")
    table.add_column("display (mines in front of the seat)")
    fight = obs["fight"]
    to_move = obs["to_move"]
    for seat in range(obs["players"]):
        mines = [m for m in obs["mines"] if m["owner"] == seat]
        cell = Group(*(mine_line(m, fight) for m in mines)) if mines else Text("-", style="dim")
        who = Text(names.long(seat), style="bold" if seat == to_move else "")
        if seat == to_move:
            who.append(" <", style="bold")
        table.add_row(who, str(obs["hand_sizes"][seat]), cell)
    return table


def fight_lines(obs: Obs, names: Names) -> list[Text]:
    fight = obs["fight"]
    if fight is None:
        return []
    owner = fight["owner"]
    mine = next(m for m in obs["mines"] if m["name"] == fight["mine"])
    bandits = ", ".join(f"{card} ({names(seat)})" for seat, card in fight["bandits"])
    line = Text(f"Fight over {fight['mine']}, the {mine['metal']} mine of {names(owner)}, started by "
                f"{names(fight['attacker'])}: {bandits}.", style="red")
    if "attack" in fight:
        line.append(f" Attack {fight['attack']} against defence {fight['defence']} (a tie goes to the defence).")
    else:
        best = max(fight["bandits"], key=lambda b: int(b[1][1:]))
        line.append(f" Highest so far: {best[1]} ({names(best[0])}).")
    waiting = fight["chances"]
    if waiting:
        line.append(f" Still to choose whether to join: {', '.join(names(s) for s in waiting)}.")
    else:
        line.append(f" It is decided when play returns to {names(fight['attacker'])}.")
    return [line]


def table_lines(obs: Obs, names: Names) -> list[Text]:
    pile = Text(f"Pile: {obs['pile']} card{'s' if obs['pile'] != 1 else ''}.")
    if obs.get("last_round") is not None:
        pile.append(f" Last round: {obs['last_round']} turn{'s' if obs['last_round'] != 1 else ''} left.",
                    style="bold")
    lines = [pile]
    if obs["discard"]:
        lines.append(Text(f"Discarded: {' '.join(obs['discard'])}.", style="dim"))
    for seat, codes in enumerate(obs.get("cannot_hold") or []):
        if codes:
            lines.append(Text(f"{names(seat)} showed by skipping that it holds no {' '.join(codes)}.", style="dim"))
    return lines


def hand_lines(obs: Obs, names: Names) -> list[Text]:
    """The viewer's own hand, and what they know of their partner's."""
    seat = obs["seat"]
    if seat is None or obs["hand"] is None:
        return []
    hand = obs["hand"]
    line = Text(f"Hand of {names(seat)}: ", style="bold")
    line.append(" ".join(hand) if hand else "(empty)", style="bold cyan")
    lines = [line]
    if obs.get("partnership"):
        partner = (seat + 2) % 4
        if obs.get("partner_holds"):
            lines.append(Text(f"{names(partner)} (your partner) holds, as far as you know: "
                              f"{' '.join(obs['partner_holds'])}."))
        if obs.get("passed"):
            lines.append(Text(f"You passed this hand: {' '.join(p['card'] for p in obs['passed'])}.", style="dim"))
    return lines


LEGEND = "< marks the seat to move. game total: the points of the hands already scored."


def board(obs: Obs, names: Names) -> RenderableType:
    parts: list[RenderableType] = [header(obs), scores(obs, names), displays(obs, names),
                                   Text(LEGEND, style="dim")]
    parts += fight_lines(obs, names)
    parts += table_lines(obs, names)
    parts += hand_lines(obs, names)
    return Group(*parts)


def compact_board(obs: Obs, names: Names) -> RenderableType:
    """The table in about a third of the lines, for an 80x24 terminal: one line of scores, one per seat."""
    mode = "partnership" if obs["partnership"] else "individual"
    top = Text(f"Digging {obs['players']}p {mode}, to {obs['target']}", style="bold")
    if obs["hand_no"] >= 0:
        top.append(f" | hand {obs['hand_no'] + 1} | pile {obs['pile']}")
    if obs.get("last_round") is not None:
        top.append(f" | last round: {plural(obs['last_round'], 'turn')} left", style="bold")
    groups = sides(obs)
    score = Text("Game total ")
    for i, (label, seats) in enumerate(groups):
        name = label if obs["partnership"] else names(seats[0])
        done = sum(obs["totals"][s] for s in seats)
        now = sum(obs["points"][s] for s in seats) if obs["hand_no"] >= len(obs["history"]) else 0
        score.append(("; " if i else "") + f"{name} {done}" + (f" (+{now} this hand)" if now else ""))
    score.append("   (< to move)", style="dim")
    table = Table(box=None, show_header=False, show_edge=False, pad_edge=False, padding=(0, 1))
    table.add_column(no_wrap=True)
    table.add_column(justify="right", no_wrap=True)
    table.add_column()
    fight = obs["fight"]
    for seat in range(obs["players"]):
        mines = [m for m in obs["mines"] if m["owner"] == seat]
        cell = Text("; ").join(_short_mine(m, fight) for m in mines) if mines else Text("-", style="dim")
        who = Text(("< " if seat == obs["to_move"] else "  ") + names.long(seat),
                   style="bold" if seat == obs["to_move"] else "")
        table.add_row(who, f"{obs['hand_sizes'][seat]}c", cell)
    parts: list[RenderableType] = [top, score, table]
    parts += fight_lines(obs, names)
    if obs["discard"]:
        parts.append(Text(f"Discarded: {' '.join(obs['discard'])}.", style="dim"))
    parts += hand_lines(obs, names)
    return Group(*parts)


def _short_mine(mine: Mapping[str, Any], fight: Mapping[str, Any] | None) -> Text:
    metal = mine["metal"]
    text = Text(f"{mine['name']} ")
    text.append(metal, style=METAL_STYLE.get(metal, ""))
    text.append(" " + (" ".join(mine["chests"]) if mine["chests"] else "-"))
    if mine["closed"]:
        points = mine_points(METALS.index(metal), [CODE_OF[c] for c in mine["chests"]])
        text.append(f" closed {points}", style="green")
    if fight is not None and fight["mine"] == mine["name"]:
        text.append(" ATTACKED", style="bold red")
    return text


def hand_scoring(scored: Mapping[str, Any], obs: Obs, names: Names) -> RenderableType:
    """The end of a hand: every mine of the hand with its cards (open ones score nothing), and the points."""
    title = Text(f"Hand {scored['hand'] + 1} is over.", style="bold")
    mines = Table(box=None, show_header=False, show_edge=False, pad_edge=False, padding=(0, 1))
    mines.add_column(no_wrap=True)
    mines.add_column()
    for seat in range(obs["players"]):
        own = [m for m in obs["mines"] if m["owner"] == seat]
        cell = Group(*(mine_line(m, None, scoring=True) for m in own)) if own else Text("no mine", style="dim")
        mines.add_row(names(seat), cell)
    points = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False)
    points.add_column("")
    points.add_column("this hand", justify="right")
    points.add_column("game total", justify="right")
    for _, seats in sides(obs):
        name = side_name(obs, names, seats)
        points.add_row(name, str(sum(scored["points"][s] for s in seats)),
                       str(sum(scored["totals"][s] for s in seats)))
    target = Text(f"The game goes on: {obs['target']} points to win.", style="dim")
    return Group(title, mines, points, target)


def summary(obs: Obs, names: Names) -> RenderableType:
    winners = obs.get("winners") or []
    groups = sides(obs)
    won = [side_name(obs, names, seats) for _, seats in groups if seats[0] in winners]
    title = Text(f"Game over: {' and '.join(won)} {agree(len(won), 'win')}.", style="bold green")
    return Group(title, scores(obs, names))
