"""``goldfields train``: self-play training of Digging's policy and value network."""

from __future__ import annotations

import math
import shlex
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeElapsedColumn

from ..arena import Interrupted
from ..arena.runner import ClusterError, default_jobs, sigterm_as_interrupt
from ..progress import LoggedProgress, RateColumn, RemainingColumn
from .options import print_error

HELP = "\n\n".join(
    [
        "Train the network of the 'net' bot and of 'ismcts:net=...' by self-play (expert iteration).",
        "Each round plays --games games of ISMCTS (guided by the last round's network), fits the network on "
        "the recent rounds' decisions (the search's visit shares and each game's result), and measures the "
        "'net' bot against --opponent on duplicate deals. Writes round-NN.npz networks, curve.csv, curve.png "
        "and train.json into --out. Needs PyTorch: pip install 'goldfields[learn]'.",
        "Stopped (Ctrl-C, SIGTERM), it keeps the games finished so far; the same command with "
        "--examples-from OUT reads them and plays only the rest.",
        "Use a network with: goldfields arena net:net=OUT/round-08.npz heuristic",
    ]
)


def register(app: typer.Typer) -> None:
    # Typer reads help as Rich markup, where "[learn]" would be a tag and vanish.
    app.command("train", help=escape(HELP))(train)


def train(
    rounds: Annotated[int, typer.Option("--rounds", min=1, help="Self-play rounds.")] = 8,
    games: Annotated[int, typer.Option("--games", "-g", min=1, help="Self-play games per round.")] = 24,
    search: Annotated[int, typer.Option("--search", min=1, help="ISMCTS iterations per self-play move.")] = 150,
    hidden: Annotated[str, typer.Option("--hidden", help="Hidden layer sizes, comma-separated.")] = "256,256",
    eval_games: Annotated[int, typer.Option("--eval-games", min=2, help="Games per round against --opponent.")] = 40,
    opponent: Annotated[str, typer.Option("--opponent", help="Bot spec the network is measured against.")] = (
        "heuristic"
    ),
    tables: Annotated[str, typer.Option("--tables", help="Self-play tables, played in turn and each measured: "
                                        "2p, 3p, 4p, 4p-partnership, comma-separated.")] = "4p-partnership,2p",
    window: Annotated[int, typer.Option("--window", min=1, help="Rounds of self-play examples the network is "
                                        "fitted on.")] = 3,
    guide: Annotated[bool, typer.Option("--guide/--no-guide", help="From round 2, guide the self-play search "
                                        "with the last round's network.")] = True,
    jobs: Annotated[int | None, typer.Option("--jobs", "-j", metavar="N", min=1, show_default=False,
                                             help="Self-play processes (default: all local cores, as the arena's; "
                                                  "the games do not depend on it).")] = None,
    ray: Annotated[str | None, typer.Option("--ray", help="Play on a Ray cluster at this address ('local' starts "
                                            "one here) instead of --jobs processes.", show_default=False)] = None,
    warmup: Annotated[int, typer.Option("--warmup", min=0, help="Games of --warmup-teacher (a quick bot, "
                                        "labelling every decision) fitted on before the self-play rounds.")] = 0,
    warmup_teacher: Annotated[str, typer.Option("--warmup-teacher", help="The quick bot that labels the "
                                                "warm-up games.")] = "heuristic",
    dagger: Annotated[int, typer.Option("--dagger", min=0, help="Games per round, after the round's fit, of "
                                        "its 'net' bot against --dagger-opponent, every decision labelled by "
                                        "the search; the round is then fitted again on both (DAgger).")] = 0,
    dagger_opponent: Annotated[list[str] | None, typer.Option("--dagger-opponent", help="Bot spec the --dagger "
                                                              "games are played against; repeat it for several, "
                                                              "taken in turn.  \\[default: heuristic]",
                                                              show_default=False)] = None,
    dagger_search: Annotated[int | None, typer.Option("--dagger-search", min=1, help="ISMCTS iterations of the "
                                                      "search that labels the --dagger games (it plays none of "
                                                      "their moves).  \\[default: --search]",
                                                      show_default=False)] = None,
    dagger_passes: Annotated[int, typer.Option("--dagger-passes", min=1, help="Times per round that the "
                                               "newest network plays the --dagger games and the round is "
                                               "fitted again on all of them.")] = 1,
    lr_schedule: Annotated[str, typer.Option("--lr-schedule", help="How each fit's learning rate moves: "
                                             "'constant', or 'cosine' (down to zero at the end of the fit).")] = (
        "constant"
    ),
    fits: Annotated[int, typer.Option("--fits", min=1, help="Fit each round's network this many times with "
                                      "other seeds and keep the one whose 'net' bot wins most against "
                                      "--opponent, on --eval-games deals of their own.")] = 1,
    examples_from: Annotated[Path | None, typer.Option("--examples-from", help="An earlier run's --out with the "
                                                       "same seed, tables and search: the games it saved are "
                                                       "read instead of played again (those a network played "
                                                       "or guided, only if the networks recorded beside them "
                                                       "are this run's), and only the rest are played.",
                                                       show_default=False,
                                                       exists=True, file_okay=False)] = None,
    init: Annotated[Path | None, typer.Option("--init", help="Start from this network (.npz) instead of random "
                                              "weights.", show_default=False, exists=True, dir_okay=False)] = None,
    seed: Annotated[int, typer.Option("--seed", "-s", help="Same seed, same games and weights.")] = 0,
    out: Annotated[Path, typer.Option("--out", "-o", help="Folder for networks and the curve.")] = Path(
        "train-results"
    ),
    players: Annotated[str | None, typer.Option("-n", "--players", hidden=True)] = None,
) -> None:
    console = Console()
    if players is not None:
        # -n is the number of players in the commands that play a game, and was once train's games.
        print_error("train plays the tables of --tables (2p, 4p...), so it takes no -n/--players; "
                    "the games of a round are --games/-g")  # fmt: skip
        raise typer.Exit(2)
    try:
        sizes = tuple(int(h) for h in hidden.split(","))
        if not sizes or min(sizes) < 1:
            raise ValueError
    except ValueError:
        print_error(f"--hidden takes layer sizes like 256,256, not {hidden!r}")
        raise typer.Exit(2) from None
    if dagger_opponent and not dagger:
        print_error("--dagger-opponent names the opponents of the --dagger games; give --dagger N too")
        raise typer.Exit(2)
    if dagger_search is not None and not dagger:
        print_error("--dagger-search sets the search that labels the --dagger games; give --dagger N too")
        raise typer.Exit(2)
    if dagger_passes > 1 and not dagger:
        print_error("--dagger-passes repeats the --dagger games; give --dagger N too")
        raise typer.Exit(2)
    try:
        from ..learn.loop import Plan, Round, check, parse_tables, run
        from ..learn.trainer import SCHEDULES, Fit
    except ImportError as err:
        print_error(err)
        raise typer.Exit(2) from None
    if lr_schedule not in SCHEDULES:
        print_error(f"--lr-schedule is one of {', '.join(SCHEDULES)}, not {lr_schedule!r}")
        raise typer.Exit(2)
    try:
        table_list = parse_tables(tables)
    except ValueError as err:
        print_error(f"--tables: {err}")
        raise typer.Exit(2) from None
    plan = Plan(rounds=rounds, games=games, search=search, hidden=sizes, window=window, eval_games=eval_games,
                opponent=opponent, tables=table_list, guide=guide, jobs=jobs or default_jobs(), ray=ray, seed=seed,
                init=None if init is None else str(init), warmup=warmup, warmup_teacher=warmup_teacher,
                dagger=dagger, dagger_opponents=tuple(dagger_opponent or ("heuristic",)), dagger_passes=dagger_passes,
                dagger_search=dagger_search,
                fits=fits,
                examples_from=None if examples_from is None else str(examples_from),
                fit=Fit(schedule=lr_schedule))  # fmt: skip
    try:
        check(plan, out)  # what is wrong is said before the progress bar is drawn
    except ValueError as err:
        print_error(err)
        raise typer.Exit(2) from None
    # The bar carries the last round's loss and win rate, so a glance at it tells how training goes.
    with LoggedProgress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), RateColumn("games"),
                        TimeElapsedColumn(), RemainingColumn(), TextColumn("{task.fields[standing]}"),
                        console=console) as progress:  # fmt: skip
        task = progress.add_task("games", total=warmup + rounds * (games + dagger * dagger_passes), standing="")

        def on_round(r: Round) -> None:
            wins = ", ".join(f"{100 * w:.0f}% ({t})" for t, w in r.win_rates.items())
            stage = {"untrained": "untrained", "warm-up": "warm-up"}.get(r.stage, f"round {r.round}")
            loss = "" if math.isnan(r.policy_loss) else f", loss {r.policy_loss:.3f}/{r.value_loss:.3f}"
            progress.update(task, standing=escape(f"{stage}{loss}, vs {opponent} {wins}"))
            if r.stage == "untrained":
                progress.console.print(f"round 0 (untrained): net vs {opponent} {wins}")
                return
            if r.stage == "warm-up":
                progress.console.print(f"warm-up: {r.examples} examples from {warmup} {warmup_teacher} games, "
                                       f"loss {r.policy_loss:.3f} (policy) {r.value_loss:.3f} (value), "
                                       f"net vs {opponent} {wins}, {r.seconds / 60:.1f} min")  # fmt: skip
                return
            if r.fits:
                tried = "; ".join(", ".join(f"{100 * w:.0f}%" for w in f.values()) for f in r.fits)
                progress.console.print(f"round {r.round}: kept fit {r.fit} of {len(r.fits)} (their wins on "
                                       f"other deals: {tried})")  # fmt: skip
            # A round whose games were all read with --examples-from played none here, and one of
            # a few games may hold none out: words, not nan.
            rate = "games read" if math.isnan(r.games_per_second) else f"{r.games_per_second:.2f} games/s"
            held = (
                "no games held out"
                if math.isnan(r.val_policy_loss)
                else f"held out {r.val_policy_loss:.3f} {r.val_value_loss:.3f}"
            )
            progress.console.print(
                f"round {r.round}: {r.examples} examples, loss {r.policy_loss:.3f} (policy) "
                f"{r.value_loss:.3f} (value), {held}, {rate}, net vs {opponent} {wins}, "
                f"{r.seconds / 60:.1f} min"
            )

        # Every option spelled out, defaults too: the command still makes this network when they change.
        table_words = ",".join(w.strip() for w in tables.split(","))
        spelled = [f"--rounds {rounds}", f"--games {games}", f"--search {search}",
                   f"--hidden {','.join(map(str, sizes))}", f"--window {window}", f"--eval-games {eval_games}",
                   f"--opponent {shlex.quote(opponent)}", f"--tables {table_words}",
                   "--guide" if guide else "--no-guide", f"--jobs {plan.jobs}", f"--seed {seed}"]
        if ray is not None:
            spelled.append(f"--ray {shlex.quote(ray)}")
        if init is not None:
            spelled.append(f"--init {shlex.quote(str(init))}")
        if warmup:
            spelled.append(f"--warmup {warmup} --warmup-teacher {shlex.quote(warmup_teacher)}")
        if dagger:
            spelled.append(f"--dagger {dagger}")
            spelled += [f"--dagger-opponent {shlex.quote(o)}" for o in plan.dagger_opponents]
            if dagger_search is not None:
                spelled.append(f"--dagger-search {dagger_search}")
            if dagger_passes > 1:  # one pass is how the networks made before this option were trained
                spelled.append(f"--dagger-passes {dagger_passes}")
        if fits > 1:
            spelled.append(f"--fits {fits}")
        if lr_schedule != "constant":  # the networks made before this option were fitted at a constant rate
            spelled.append(f"--lr-schedule {lr_schedule}")
        command = "goldfields train " + " ".join(spelled)
        with sigterm_as_interrupt() as caught:
            try:
                run(plan, out, on_round=on_round, on_game=lambda: progress.advance(task), command=command)
            except (ValueError, ClusterError) as err:
                progress.stop()
                print_error(err)
                raise typer.Exit(2) from None
            except OSError as err:
                if not (err.filename and Path(err.filename).resolve().is_relative_to(out.resolve())):
                    raise  # not the run's own files: a cluster's connection, the system's limits
                # --out a file, or in a folder that takes no new files.
                progress.stop()
                print_error(f"cannot write the run's files {err.filename}: {err.strerror or err}")
                raise typer.Exit(2) from None
            except (KeyboardInterrupt, Interrupted) as stop:
                # Interrupted: the signal came while a round's measuring games were played.
                signum = stop.signum if isinstance(stop, Interrupted) else caught.signum
                progress.stop()
                console.print(escape(f"stopped: the games finished so far, in order, are kept in {out}; to go on, "
                                     f"run the same command with --examples-from {shlex.quote(str(out))}"))  # fmt: skip
                raise typer.Exit(128 + signum) from None
    last = out / f"round-{rounds:02d}.npz"
    # The files by name, as written: warmup.npz only with --warmup, curve.png only with matplotlib.
    made = [f"round-00.npz to {last.name}", *(n for n in ("warmup.npz", "curve.csv", "curve.png", "train.json")
                                               if (out / n).is_file())]
    console.print(escape(f"wrote into {out}: {', '.join(made)}"))
    # Unwrapped, so that the command copies whole.
    console.print(escape(f"play the last network with: goldfields arena net:net={shlex.quote(str(last))} heuristic"),
                  soft_wrap=True)
