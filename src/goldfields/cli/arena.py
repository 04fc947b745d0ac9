"""``goldfields arena``: tournaments between bots, with duplicate deals."""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from ..arena import (
    EntrantSummary,
    GameResult,
    GameSpec,
    Interrupted,
    ResumeError,
    Tournament,
    entrant_labels,
    run_tournament,
    sides_line,
    summary_table,
    time_line,
    time_per_move,
)
from ..arena.provenance import version_label, versions_of
from ..arena.report import summarise
from ..arena.runner import ClusterError, default_jobs
from ..arena.schedule import Seatings
from ..arena.store import check_same_run, read_journal, read_manifest, spec_of
from ..bots.registry import BotSpecError, known_bots, misnamed, naming_help, spec_or_level
from ..core import registry
from ..core.definition import LEVEL_SECONDS
from ..core.words import plural
from .options import (
    ERRORS,
    FIRST_GAME,
    IndividualOption,
    RuleOption,
    individual_problem,
    output_problem,
    parse_rules,
    players_param,
    print_error,
)

ArenaPlayersOption = Annotated[int | None, players_param("Without it, one player a bot when more bots are named than "
                                                       "the default table has sides.")]

HELP = "\n\n".join(
    [
        "Play a tournament between bots and report who is stronger.",
        "Name one bot per side: per team in the Digging partnership game (a bot plays both seats of its team), "
        "per seat otherwise. Each deal is played once per rotation of the bots around the table with the same "
        "decks and dice (duplicate deals), so the luck of the deal cancels out. With three or more sides, "
        "--seatings all plays every ordering instead, so that no bot always sits behind the same one; "
        "--seatings one plays each deal once, as named (the same bot on every side: a deterministic bot's "
        "rotations would replay one game).",
        "Bots take parameters: random, heuristic, ismcts:iterations=2000,c=0.7, ismcts:seconds=1, and for Digger "
        "search. A budget in seconds makes results depend on the machine; an iteration budget keeps them "
        "reproducible (same --seed, same results).",
        "Bots are entrants by position: 'heuristic heuristic' is self-play, shown as 'heuristic #1' and "
        "'heuristic #2'.",
        "Prints win rates with Wilson and deal-bootstrap 95% intervals, points per hand (in a game of hands, "
        "as Digging's) and per game, and Elo (for three or more entrants); writes games.csv, "
        "summary.csv, sides.csv (wins and points by side of the table, whoever sat there), lengths.csv (how "
        "long and how close the games were), hands.csv (each seat's points in every hand), chart.png, arena.json (the "
        "run's parameters), results.jsonl (its journal) and one JSON game record per game (records/, readable "
        "by 'goldfields replay') into --out.",
        "Every game is saved as it ends (a row of games.csv, its record, a line of results.jsonl), so a run "
        "stopped by Ctrl-C, SIGTERM or a crash keeps its games: 'goldfields arena --resume OUT' plays the rest, "
        "with the same results as an uninterrupted run.",
        "The game comes first, as in goldfields play and demo; without it the game is Digging.",
        "Examples:",
        "goldfields arena digging heuristic random --games 200",
        "goldfields arena digging ismcts:iterations=500 heuristic -n 2 -g 100",
        "goldfields arena digger heuristic random random",
        "goldfields arena digger search heuristic random --seatings all -g 60",
        "goldfields arena --resume arena-results",
        "goldfields arena --standing arena-results",
        "goldfields arena --standing rules --standing hand8 --chart variants.png",
    ]
)


DEFAULT_GAMES = 100
DEFAULT_OUT = Path("arena-results")


def free_folder(path: Path) -> Path:
    """The folder of a run given no --out: ``path``, or the next ``path-2``, ``path-3``… that is
    empty or absent, so that a second study never meets the first (nor is refused for it)."""
    n = 2
    candidate = path
    while candidate.exists() and (not candidate.is_dir() or any(candidate.iterdir())):
        candidate = path.with_name(f"{path.name}-{n}")
        n += 1
    return candidate

PIPE_WIDTH = 200
"""Columns when the output is not a terminal: wide enough for the table's longest rows."""


def register(app: typer.Typer) -> None:
    app.command("arena", help=HELP, no_args_is_help=True)(arena)


def arena(
    lineup: Annotated[list[str] | None, typer.Argument(
        metavar="[GAME] BOT...", show_default=False,
        help=f"The game ({', '.join(registry.names())}; default {FIRST_GAME}), then one bot spec per team or "
             "seat, e.g. digging heuristic random. A level (easy, medium, hard) is the lobby's bot of that level "
             f"for the table, a search thinking {LEVEL_SECONDS:g} s a move as on the server.")] = None,
    players: ArenaPlayersOption = None,
    individual: IndividualOption = False,
    rule: RuleOption = None,
    # The defaults are written out (None means "not given", for --resume), escaped: Typer reads help as Rich
    # markup, where a bare "[default: 0]" is a tag and vanishes.
    games: Annotated[int | None, typer.Option("--games", "-g", metavar="N", min=1, show_default=False,
                                              help="Games to play, rounded up to whole duplicate sets.  "
                                                   f"\\[default: {DEFAULT_GAMES}]")] = None,
    seed: Annotated[int | None, typer.Option("--seed", "-s", metavar="N", show_default=False,
                                             help="Tournament seed: same seed, same results.  \\[default: 0]")] = None,
    jobs: Annotated[int | None, typer.Option("--jobs", "-j", metavar="N", min=1,
                                             help="Worker processes (default: all local cores).")] = None,
    ray: Annotated[str | None, typer.Option("--ray", metavar="ADDRESS",
                                            help="Run on the Ray cluster at ADDRESS ('auto', 'ray://host:10001', "
                                                 "or 'local' to start one here).")] = None,
    out: Annotated[Path | None, typer.Option("--out", "-o", metavar="DIR", show_default=False,
                                             help="Folder for CSV, chart and records. A run there is kept: "
                                                  "--resume it (with a larger --games to add games), or --force to "
                                                  "replace a finished one. A folder of other files is refused.  "
                                                  "\\[default: arena-results, or the next arena-results-N not "
                                                  "in use]")
                   ] = None,
    force: Annotated[bool, typer.Option("--force", help="Replace a finished run in --out (or the file --chart "
                                                        "names).")] = False,
    resume: Annotated[Path | None, typer.Option("--resume", metavar="OUT",
                                                help="Continue the stopped run saved in OUT, playing only the games "
                                                     "not yet there; with a larger --games, add games to a run. Its "
                                                     "parameters come from OUT/arena.json; any other given here must "
                                                     "match.")] = None,
    records: Annotated[bool | None, typer.Option("--records/--no-records", show_default=False,
                                                 help="Save every game record.  \\[default: records]")] = None,
    seatings: Annotated[Seatings | None, typer.Option(
        "--seatings", show_default=False, case_sensitive=False,
        help="How each deal is seated: every rotation of the lineup (each bot on every side), every ordering "
             "of it (each bot also behind every other: 6 games a deal for 3 sides, 24 for 4), or one: the "
             "lineup as named, once a deal (for one bot on every side, to measure the seats).  "
             "\\[default: rotations]")] = None,
    standing: Annotated[list[Path] | None, typer.Option("--standing", metavar="OUT",
                                                        help="Print how the run saved in OUT stands, finished or "
                                                             "stopped part-way, without playing anything. Repeated "
                                                             "(--standing A --standing B), the runs side by side: a "
                                                             "variant against the rules, say.")] = None,
    chart: Annotated[Path | None, typer.Option("--chart", metavar="FILE", show_default=False,
                                               help="With two or more --standing: draw the runs side by side "
                                                    "into FILE (PNG).")] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar.")] = False,
) -> None:
    console = Console()
    if not console.is_terminal and "COLUMNS" not in os.environ:
        # Piped or redirected: Rich would assume 80 columns and clip the table; a file has no width.
        console = Console(width=PIPE_WIDTH)
    if chart is not None and len(standing or []) < 2:
        print_error(ValueError("--chart draws two or more runs side by side: give each with --standing OUT"))
        raise typer.Exit(2)
    if standing:
        given = {"--games": games, "--seed": seed, "--players": players, "--rule": rule, "--out": out,
                 "--records": records, "--seatings": seatings, "--ray": ray, "--jobs": jobs}  # fmt: skip
        extra = [name for name, value in given.items() if value is not None] + (
            ["--individual"] if individual else []) + (["--force"] if force and chart is None else [])  # fmt: skip
        if lineup or resume is not None or extra:
            also = f" (not {', '.join(extra)})" if extra else ""
            print_error(ValueError(f"--standing reads a saved run as it is: name no bots, no --resume and no "
                                   f"other option with it{also}"))
            raise typer.Exit(2)
        if len(standing) > 1:
            return compare_standings(console, standing, chart, force)
        return show_standing(console, standing[0])
    bots = list(lineup or [])
    game = bots.pop(0).lower() if bots and bots[0].lower() in registry.names() else None
    try:
        if resume is not None:
            if force:
                raise ResumeError("--force replaces a finished run, and --resume continues one: give one of them")
            if out is not None and out != resume:
                raise ResumeError(f"--resume {resume} writes into {resume}; drop --out {out} or make it the same")
            out = resume
            saved = read_manifest(resume)
            # What the command leaves out comes from the run; what it gives must agree with it.
            bots = bots or list(saved["lineup"])
            game = game or saved["game"]
            if players is None and game == saved["game"]:
                players = saved["players"]
            partnership: bool | None = False if individual else (
                saved["partnership"] if game == saved["game"] and players == saved["players"] else None)
            games = games or saved["games"]
            seed = saved["seed"] if seed is None else seed
            records = saved["records"] if records is None else records
            seatings = Seatings(saved["seatings"]) if seatings is None else seatings
        else:
            if not bots:
                raise ValueError("name the bots, one per team or seat (or --resume OUT to continue a run)")
            partnership = False if individual else None
        game = game or FIRST_GAME
        problem = individual_problem(game, individual, players)
        if problem is not None:
            raise ValueError(problem)
        rules = parse_rules(rule)
        if resume is not None and (game, players) == (saved["game"], saved["players"]) and (
                partnership in (None, saved["partnership"])):  # fmt: skip
            # The run's table with its rules; any given here must be the same (checked below).
            spec = spec_of(saved).with_rules(rules)
        else:
            spec = GameSpec.make(game, players, partnership)
            if players is None and len(bots) > spec.sides:
                # No --players: a lineup longer than the default table says how many sit down.
                spec = _one_a_bot(game, len(bots)) or spec
            if rules:
                spec = spec.with_rules(rules)  # on the table the lineup chose: a rule may fit that one alone
        levels = spec.definition.levels_for(spec.params)
        asked, bots = bots, [spec_or_level(b, levels, game) for b in bots]
        # A level whose bot searches plays for a time, not a number of iterations: said at the start.
        timed = {a.lower(): levels[a.lower()] for a, b in zip(asked, bots, strict=True)
                 if a.lower() in levels and b != levels[a.lower()]}  # fmt: skip
        t = Tournament(spec, tuple(bots), games=games or DEFAULT_GAMES, seed=seed or 0, jobs=jobs or default_jobs(),
                       ray_address=ray, out=out or (DEFAULT_OUT if force else free_folder(DEFAULT_OUT)),
                       records=True if records is None else records,
                       seatings=(seatings or Seatings.rotations).value)  # fmt: skip
        if resume is not None:
            # Before the lineup is checked against the table: a lineup or table other than the
            # run's is a resume of something else, whatever else would be wrong with it.
            check_same_run(resume, saved, t.manifest())
        t.validate()
        if len(bots) != spec.sides:
            what = "team" if spec.partnership else "seat"
            most = spec.definition.max_players
            beyond = (f"; more bots than that sit one a player, up to {spec.definition.title}'s {most}"
                      if players is None and resume is None and len(bots) > most else "")  # fmt: skip
            if players is None and resume is None and spec.definition.min_players <= len(bots) < spec.sides:
                beyond = f"; or -n {len(bots)} for a {len(bots)}-player table"
                if individual:  # a smaller table is individual already, and refuses the flag
                    beyond += f" without --individual (each of {len(bots)} players plays for themselves)"
            raise ValueError(f"{spec.label} needs {spec.sides} bots, one per {what}; got {len(bots)}: "
                             f"{' '.join(bots)}{beyond}")
    except ResumeError as err:
        print_error(err)
        raise typer.Exit(2) from None
    except (BotSpecError, ValueError) as err:
        named = game if game in registry.names() else FIRST_GAME
        level_names = list(registry.get(named).levels)
        words = (*registry.names(), *level_names)  # a game or a level: neither is a misnamed bot
        first = lineup[0].split(":", 1)[0] if lineup else ""
        if lineup and first == lineup[0] and first.lower() not in words \
                and first.lower() not in known_bots(game if game in registry.names() else None):
            # The first word is a game or a bot: a typo of either reads as an unknown bot of the default game.
            print_error(f"{first!r} is neither a game ({', '.join(registry.names())}) nor a bot of {named}")
            ERRORS.print(f"known bots: {naming_help(named, level_names)}", markup=False)
        elif isinstance(err, BotSpecError):
            # A bot named wrong: the right names, with what each is. A known bot with a wrong
            # parameter or file needs only its error.
            wrong = (misnamed(spec, named, level_names) for spec in lineup or [] if spec.lower() not in words)
            print_error(next(filter(None, wrong), err))
        else:
            print_error(err)
        raise typer.Exit(2) from None
    assert t.out is not None

    def announce() -> None:
        """The run and what it will cost, said once its folder is taken (not for a refused run)."""
        where = f"Ray cluster {ray}" if ray else f"{t.jobs} local process{'es' if t.jobs > 1 else ''}"
        console.print(f"{spec.label}: {' vs '.join(entrant_labels(bots))}; {plural(t.deals, 'deal')} x "
                      f"{plural(t.per_deal, t.seating_word)} on {where}")
        if out is None and resume is None and t.out != DEFAULT_OUT:
            console.print(f"[yellow]note:[/] {DEFAULT_OUT} is in use (a run, or other files), so this one is saved "
                          f"in {t.out} (--out names the folder; --resume {DEFAULT_OUT} continues a run there)")
        if resume is None and len(set(bots)) == 1 and t.per_deal > 1:
            console.print(f"[yellow]note:[/] every side plays {bots[0]}: if it is deterministic, the "
                          f"{plural(t.per_deal, t.seating_word)} of a deal replay one game; --seatings one plays "
                          "each deal once", markup=True)
        if timed:
            budgets = " or ".join(f"{s}{',' if ':' in s else ':'}iterations=N" for s in dict.fromkeys(timed.values()))
            console.print(f"[yellow]note:[/] {' and '.join(sorted(timed))} think{'s' if len(timed) == 1 else ''} "
                          f"{LEVEL_SECONDS:g} s a move, so the results depend on this machine and its load; for a "
                          f"reproducible run, give the search an iteration budget ({escape(budgets)})")
        if resume is None and t.total > t.games:
            # Every seating of a deal is played, or the deal's luck would not cancel; say what that costs.
            asked = f"{plural(t.games, 'game')} {'asked' if games else '(the default)'}"
            console.print(f"[yellow]note:[/] {asked}; a deal is {plural(t.per_deal, t.seating_word)}, so "
                          f"{t.total} games are played")

    chosen = out is None and resume is None and not force  # the folder is the arena's to pick
    while True:
        try:
            result = run_tournament(t, console, progress=not quiet, resume=resume is not None, replace=force,
                                    announce=announce)  # fmt: skip
            break
        except ResumeError as err:
            taken = t.out
            if chosen and (later := free_folder(DEFAULT_OUT)) != taken:
                # Another run given no --out picked the same free folder a moment before this one
                # and has taken it since: this run takes the next free one instead of failing.
                t = replace(t, out=later)
                console.print(f"[yellow]note:[/] another run took {taken} meanwhile, so this one is saved in {later}")
                continue
            print_error(err)
            raise typer.Exit(2) from None
        except ClusterError as err:
            print_error(err)
            raise typer.Exit(2) from None
        except Interrupted as stop:
            # A resume that grew the run and was stopped before a new game keeps the run's own count.
            grown = f" --games {t.games}" if resume is not None and t.games > saved["games"] else ""
            console.print(f"stopped after {stop.done} of {stop.total} games; every finished game is saved in "
                          f"{t.out}/. Continue with: goldfields arena --resume {t.out}{grown}")
            raise typer.Exit(128 + stop.signum) from None
    if result.resumed:
        now = len(result.results) - result.resumed
        console.print(f"resumed: {plural(result.resumed, 'game')} {'was' if result.resumed == 1 else 'were'} "
                      f"already played, {now} played now")
    print_summary(console, t, result.summary, result.results)
    o = t.out
    written = sum(1 for r in result.results if r.record) if t.records else 0
    console.print(f"wrote {o}/games.csv, {o}/summary.csv, {o}/sides.csv, {o}/lengths.csv, {o}/hands.csv"
                  + (f", {o}/chart.png" if result.chart else "")
                  + (f", {plural(written, 'record')} in {o}/records/" if written else ""))


def _one_a_bot(game: str, bots: int) -> GameSpec | None:
    """The table that seats ``bots`` players, one bot each, or None if the game has none."""
    for partnership in (None, False):  # Digging's four: each for themselves, not two teams
        try:
            seated = GameSpec.make(game, bots, partnership)
        except ValueError:
            return None  # a count the game cannot seat: the caller's error says so
        if seated.sides == bots:
            return seated
    return None


def show_standing(console: Console, out: Path) -> None:
    """The summary of a saved run's games so far, as the end of a run prints it."""
    try:
        saved = read_manifest(out)
        spec = spec_of(saved)
        t = Tournament.from_manifest(saved, jobs=1, out=out)
    except (ResumeError, ValueError, KeyError) as err:
        print_error(err if not isinstance(err, KeyError) else ValueError(f"{out}: no {err} in its manifest"))
        raise typer.Exit(2) from None
    results = read_journal(out)
    total = t.total
    # It may be stopped, or still being played by another command.
    state = "finished" if len(results) >= total else f"not finished; goldfields arena --resume {out} plays the rest"
    console.print(f"{spec.label}: {' vs '.join(entrant_labels(t.lineup))}; {len(results)} of {total} games ({state})")
    made = versions_of(saved)
    if len(made) > 1:
        codes = ", ".join(version_label(v) for v in made)
        console.print(f"[yellow]note:[/] its games come from {len(made)} versions of the rules and bots: {codes}")
    if not results:
        return
    print_summary(console, t, summarise(spec, t.lineup, results, t.seed), results)


def compare_standings(console: Console, folders: Sequence[Path], chart: Path | None, force: bool) -> None:
    """Saved runs side by side: each entrant's win rate, each side's, and the games' length and margin."""
    from ..arena.compare import comparison_rows, standings_of, write_comparison_chart

    if chart is not None:
        inside = next((out for out in folders if chart.resolve().is_relative_to(out.resolve())), None)
        problem = (f"{chart} is inside the run {inside}, which a comparison reads and never writes"
                   if inside is not None else output_problem(chart, force=force))  # fmt: skip
        if problem is not None:
            print_error(f"--chart: {problem}")
            raise typer.Exit(2)
    try:
        runs = standings_of(folders)
    except (ResumeError, ValueError, KeyError) as err:
        print_error(err if not isinstance(err, KeyError) else ValueError(f"a manifest has no {err}"))
        raise typer.Exit(2) from None
    columns, rows = comparison_rows(runs)
    table = Table(title="runs side by side", title_justify="left")
    for name in columns:
        table.add_column(name, justify="left" if name in ("run", "table") else "right")
    for row in rows:
        table.add_row(*row)
    console.print(table)
    console.print("win %: games won, with the deal-bootstrap 95% interval; by side: each side of the table in seat "
                  "order, whoever sat there; decisions and rounds: medians over the distinct games; margin: the "
                  "mean of the best side's points less the next side's", markup=False)  # fmt: skip
    for run in runs:
        if run.versions > 1:
            console.print(f"[yellow]note:[/] {run.out}'s games come from {run.versions} versions of the rules and "
                          f"bots (goldfields arena --standing {run.out} names them)")  # fmt: skip
    if chart is not None:
        if write_comparison_chart(chart, runs):
            console.print(f"wrote {chart}")
        else:
            console.print("no chart: it needs matplotlib (pip install 'goldfields[arena]')", markup=False)


def print_summary(console: Console, t: Tournament, summary: Sequence[EntrantSummary],
                  results: Sequence[GameResult]) -> None:  # fmt: skip
    """The table of win rates and the line of time a decision, as a run ends and as --standing shows them."""
    console.print(summary_table(t, summary, results))
    timing = time_line(t.lineup, time_per_move(t.lineup, results))
    if timing:
        console.print(timing)
    sides = sides_line(t.spec, results, t.seed)
    if sides:
        console.print(sides, markup=False)
