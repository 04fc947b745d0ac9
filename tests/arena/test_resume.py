"""Runs saved game by game: an interrupted run keeps its games, and --resume completes it
with exactly the results of an uninterrupted run."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from goldfields.arena import GameSpec, Interrupted, ResumeError, Tournament, provenance, run_tournament
from goldfields.arena import runner as runner_module
from goldfields.cli import arena as arena_cli

SPEC = GameSpec.make("digging", 2)
LINEUP = ("heuristic", "random")


def _tournament(out: Path, **kwargs: object) -> Tournament:
    fields: dict = {"games": 8, "seed": 21, "jobs": 1, "out": out} | kwargs
    return Tournament(SPEC, LINEUP, **fields)


def _stop_after(monkeypatch: pytest.MonkeyPatch, games: int) -> None:
    """Make the in-process runner raise KeyboardInterrupt (as Ctrl-C would) when game ``games + 1`` starts."""
    real = runner_module.run_job
    started = 0

    def run_job(job):  # type: ignore[no-untyped-def]
        nonlocal started
        started += 1
        if started > games:
            raise KeyboardInterrupt
        return real(job)

    monkeypatch.setattr(runner_module, "run_job", run_job)


def _stopped_run(monkeypatch: pytest.MonkeyPatch, out: Path, games: int) -> None:
    """The 8-game run into ``out``, stopped by Ctrl-C after ``games`` games."""
    with monkeypatch.context() as patch:
        _stop_after(patch, games)
        with pytest.raises(Interrupted):
            run_tournament(_tournament(out), progress=False)


def _lines(path: Path) -> list[str]:
    return path.read_text().splitlines()


@pytest.fixture(scope="module")
def full_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("full")
    run_tournament(_tournament(out), progress=False)
    return out


def test_an_interrupted_run_keeps_every_finished_game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _stop_after(monkeypatch, 3)
    with pytest.raises(Interrupted) as stop:
        run_tournament(_tournament(tmp_path), progress=False)
    assert (stop.value.done, stop.value.total) == (3, 8)
    assert len(_lines(tmp_path / "results.jsonl")) == 3
    assert len(_lines(tmp_path / "games.csv")) == 1 + 3
    assert sorted(p.name for p in (tmp_path / "records").glob("*.json")) == [
        "game-00001.json", "game-00002.json", "game-00003.json"
    ]
    assert json.loads((tmp_path / "arena.json").read_text())["seed"] == 21
    assert not (tmp_path / "summary.csv").exists()  # no summary of a partial run passes for a final one


def test_resume_gives_the_results_of_an_uninterrupted_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, full_run: Path
) -> None:
    _stopped_run(monkeypatch, tmp_path, 5)
    result = run_tournament(_tournament(tmp_path, jobs=2), progress=False, resume=True)
    assert result.resumed == 5 and len(result.results) == 8
    for name in ("games.csv", "summary.csv"):
        assert (tmp_path / name).read_text() == (full_run / name).read_text(), name
    for path in (full_run / "records").glob("*.json"):
        assert (tmp_path / "records" / path.name).read_text() == path.read_text()
    # The resumed games come back with their records, as played ones do.
    assert all(r.record for r in result.results)


def test_a_line_cut_short_by_a_kill_is_played_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                   full_run: Path) -> None:  # fmt: skip
    _stopped_run(monkeypatch, tmp_path, 4)
    journal = tmp_path / "results.jsonl"
    lines = _lines(journal)
    journal.write_text("\n".join(lines[:3]) + "\n" + lines[3][:25])  # killed while writing game 4's line
    result = run_tournament(_tournament(tmp_path), progress=False, resume=True)
    assert result.resumed == 3
    assert (tmp_path / "summary.csv").read_text() == (full_run / "summary.csv").read_text()
    assert len(_lines(journal)) == 8


def test_resume_refuses_other_parameters(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _stop_after(monkeypatch, 2)
    with pytest.raises(Interrupted):
        run_tournament(_tournament(tmp_path), progress=False)
    with pytest.raises(ResumeError, match="seed: the run has 21, this command asks for 22"):
        run_tournament(_tournament(tmp_path, seed=22), progress=False, resume=True)
    with pytest.raises(ResumeError, match="holds no arena run"):
        run_tournament(_tournament(tmp_path / "empty"), progress=False, resume=True)
    # A fresh run does not wipe an unfinished one.
    with pytest.raises(ResumeError, match=r"unfinished run \(2 of 8 games played\)"):
        run_tournament(_tournament(tmp_path), progress=False)


def test_a_fresh_run_replaces_a_finished_one_only_when_asked(tmp_path: Path) -> None:
    run_tournament(_tournament(tmp_path, games=6), progress=False)
    before = (tmp_path / "summary.csv").read_text()
    with pytest.raises(ResumeError, match=r"holds a finished run \(6 games of digging: .*--force"):
        run_tournament(_tournament(tmp_path, games=2, seed=3), progress=False)
    assert (tmp_path / "summary.csv").read_text() == before and len(_lines(tmp_path / "results.jsonl")) == 6
    run_tournament(_tournament(tmp_path, games=2, seed=3), progress=False, replace=True)
    assert len(list((tmp_path / "records").glob("*.json"))) == 2
    assert len(_lines(tmp_path / "results.jsonl")) == 2
    run_tournament(_tournament(tmp_path, games=4), progress=False, replace=True)  # more games than it had
    assert len(_lines(tmp_path / "games.csv")) == 1 + 4


def test_a_resume_with_more_games_adds_deals_to_a_finished_run(tmp_path: Path) -> None:
    whole = tmp_path / "whole"
    run_tournament(_tournament(whole, games=8), progress=False)
    grown = tmp_path / "grown"
    run_tournament(_tournament(grown, games=4), progress=False)
    result = run_tournament(_tournament(grown, games=8), progress=False, resume=True)
    assert result.resumed == 4
    # The first games are the same games, and the new ones are those a run of 8 plays after them.
    assert (grown / "summary.csv").read_text() == (whole / "summary.csv").read_text()
    assert _lines(grown / "games.csv") == _lines(whole / "games.csv")
    assert json.loads((grown / "arena.json").read_text())["games"] == 8
    with pytest.raises(ResumeError, match="games: the run has 8, this command asks for 4; a resume may add games"):
        run_tournament(_tournament(grown, games=4), progress=False, resume=True)
    # Asking for 7 plays the same 8 (a deal is 2 games): nothing to add, nothing refused.
    assert run_tournament(_tournament(grown, games=7), progress=False, resume=True).resumed == 8


def test_a_run_growing_drops_the_reports_of_the_smaller_run_until_it_ends(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    run_tournament(_tournament(tmp_path, games=4), progress=False)
    assert (tmp_path / "summary.csv").is_file() and (tmp_path / "sides.csv").is_file()
    with monkeypatch.context() as patch:
        _stop_after(patch, 1)
        with pytest.raises(Interrupted):
            run_tournament(_tournament(tmp_path, games=8), progress=False, resume=True)
    assert not (tmp_path / "summary.csv").exists() and not (tmp_path / "sides.csv").exists()
    assert not (tmp_path / "chart.png").exists()
    run_tournament(_tournament(tmp_path, games=8), progress=False, resume=True)
    assert len(_lines(tmp_path / "summary.csv")) == 3


def test_a_resume_that_adds_no_game_leaves_the_finished_run_as_it_was(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Stopped, or failing, before its first new game, a resume that would add games has added
    none: the run stays finished, its reports and its count of games in place."""
    run_tournament(_tournament(tmp_path, games=4), progress=False)
    before = {name: (tmp_path / name).read_bytes() for name in ("arena.json", "summary.csv", "sides.csv")}
    with monkeypatch.context() as patch:
        _stop_after(patch, 0)
        with pytest.raises(Interrupted):
            run_tournament(_tournament(tmp_path, games=8), progress=False, resume=True)
    with pytest.raises(runner_module.ClusterError, match=r"nothing answers at 127\.0\.0\.1:1|needs the 'ray' package"):
        run_tournament(_tournament(tmp_path, games=8, ray_address="127.0.0.1:1"), progress=False, resume=True)
    with pytest.raises(runner_module.ClusterError):  # nor is a finished run replaced for a cluster not there
        run_tournament(_tournament(tmp_path, games=4, ray_address="127.0.0.1:1"), progress=False, replace=True)
    assert {name: (tmp_path / name).read_bytes() for name in before} == before
    assert run_tournament(_tournament(tmp_path, games=4), progress=False, resume=True).resumed == 4


def test_a_fresh_run_leaves_a_folder_that_is_not_a_run_alone(tmp_path: Path) -> None:
    mine = tmp_path / "mine"
    (mine / "records").mkdir(parents=True)
    (mine / "games.csv").write_text("my own table\n")
    (mine / "records" / "game-00042.json").write_text("{}")
    with pytest.raises(ResumeError, match=r"mine is not empty \(games.csv, records/...\) and holds no arena run"):
        run_tournament(_tournament(mine, games=2), progress=False)
    assert (mine / "games.csv").read_text() == "my own table\n"
    assert (mine / "records" / "game-00042.json").read_text() == "{}"
    (tmp_path / "a-file").write_text("x")
    with pytest.raises(ResumeError, match="a-file is a file; the run needs a folder"):
        run_tournament(_tournament(tmp_path / "a-file", games=2), progress=False)
    assert (tmp_path / "a-file").read_text() == "x"
    # An empty folder, or one a stopped run left with only its lock, is the run's to use.
    (tmp_path / "empty").mkdir()
    (tmp_path / "empty" / "arena.lock").write_text("")
    run_tournament(_tournament(tmp_path / "empty", games=2), progress=False)
    assert len(_lines(tmp_path / "empty" / "results.jsonl")) == 2


def test_cli_resume_takes_the_parameters_from_the_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                         full_run: Path) -> None:  # fmt: skip
    _stopped_run(monkeypatch, tmp_path, 2)
    cli = CliRunner(env={"COLUMNS": "200"})
    app = _app()
    refused = cli.invoke(app, ["arena", "--resume", str(tmp_path), "--seed", "5"])
    assert refused.exit_code == 2
    assert "cannot resume" in refused.output and "seed" in refused.output
    done = cli.invoke(app, ["arena", "--resume", str(tmp_path), "--jobs", "1", "--quiet"])
    assert done.exit_code == 0, done.output
    assert "resumed: 2 games were already played, 6 played now" in done.output
    assert (tmp_path / "summary.csv").read_text() == (full_run / "summary.csv").read_text()
    # Naming the same parameters again is fine too.
    again = cli.invoke(app, ["arena", *LINEUP, "--players", "2", "--games", "8", "--seed", "21", "--quiet",
                             "--resume", str(tmp_path)])  # fmt: skip
    assert again.exit_code == 0, again.output
    assert "resumed: 8 games" in again.output


def test_cli_resume_of_another_lineup_says_the_run_differs_before_checking_the_lineup(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A lineup that would not fit the run's table is a resume of another run: said as such, not
    as what is wrong with that other run (once: 'needs 2 bots, one per seat')."""
    _stopped_run(monkeypatch, tmp_path, 2)
    refused = CliRunner(env={"COLUMNS": "400"}).invoke(
        _app(), ["arena", "--resume", str(tmp_path), "heuristic", "random", "random"])
    assert refused.exit_code == 2
    said = " ".join(refused.output.split())
    assert (f"cannot resume {tmp_path}: its run has other parameters (lineup: the run has heuristic random, "
            "this command asks for heuristic random random)") in said, said  # fmt: skip
    assert "needs" not in said


def test_cli_keeps_a_finished_run_unless_forced_and_grows_it_with_resume_games(tmp_path: Path) -> None:
    cli = CliRunner(env={"COLUMNS": "200"})
    app = _app()
    run = ["arena", *LINEUP, "--players", "2", "--games", "2", "--jobs", "1", "--quiet", "--out", str(tmp_path)]
    assert cli.invoke(app, run).exit_code == 0
    kept = cli.invoke(app, [*run, "--seed", "3"])
    assert kept.exit_code == 2
    assert "holds a finished run (2 games" in kept.output and "--force" in kept.output
    assert "Traceback" not in kept.output
    header = "digging 2p individual: heuristic vs random; 1 deal x 2 rotations"
    assert header not in kept.output  # no word of a run that does not start
    # --games 1 plays the same one deal (two games): accepted, and the run keeps asking for 2.
    same = cli.invoke(app, ["arena", "--resume", str(tmp_path), "--games", "1", "--jobs", "1", "--quiet"])
    assert same.exit_code == 0, same.output
    assert json.loads((tmp_path / "arena.json").read_text())["games"] == 2
    grown = cli.invoke(app, ["arena", "--resume", str(tmp_path), "--games", "4", "--jobs", "1", "--quiet"])
    assert grown.exit_code == 0, grown.output
    assert "the run grows from 2 to 4 games" in grown.output
    assert "resumed: 2 games were already played, 2 played now" in grown.output
    both = cli.invoke(app, ["arena", "--resume", str(tmp_path), "--force"])
    assert both.exit_code == 2 and "give one of them" in both.output
    replaced = cli.invoke(app, [*run, "--seed", "3", "--force"])
    assert replaced.exit_code == 0, replaced.output
    assert header in replaced.output
    assert len(_lines(tmp_path / "results.jsonl")) == 2


def test_cli_without_out_takes_the_next_free_folder_so_a_second_study_keeps_the_first(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    cli = CliRunner(env={"COLUMNS": "200"})
    run = ["arena", *LINEUP, "--players", "2", "--games", "2", "--jobs", "1", "--quiet"]
    assert cli.invoke(_app(), run).exit_code == 0
    second = cli.invoke(_app(), [*run, "--seed", "3"])
    assert second.exit_code == 0, second.output
    assert "arena-results is in use (a run, or other files), so this one is saved in arena-results-2" in " ".join(
        second.output.split())
    assert len(_lines(tmp_path / "arena-results" / "results.jsonl")) == 2
    assert json.loads((tmp_path / "arena-results-2" / "arena.json").read_text())["seed"] == 3


def test_cli_without_out_that_loses_its_folder_to_another_run_takes_the_next_free_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two runs started together may both find arena-results free; the one that finds it
    locked by the other goes on in the next free folder instead of failing."""
    import fcntl

    monkeypatch.chdir(tmp_path)
    (tmp_path / "arena-results").mkdir()
    held = (tmp_path / "arena-results" / "arena.lock").open("a")  # the other run, playing
    fcntl.flock(held, fcntl.LOCK_EX | fcntl.LOCK_NB)
    real = arena_cli.free_folder
    seen = iter([Path("arena-results")])  # as it looked before the other run took it
    monkeypatch.setattr(arena_cli, "free_folder", lambda path: next(seen, None) or real(path))
    try:
        run = CliRunner(env={"COLUMNS": "200"}).invoke(
            _app(), ["arena", *LINEUP, "--players", "2", "--games", "2", "--jobs", "1", "--quiet"])
    finally:
        held.close()
    assert run.exit_code == 0, run.output
    assert "another run took arena-results meanwhile, so this one is saved in arena-results-2" in " ".join(
        run.output.split())
    assert len(_lines(tmp_path / "arena-results-2" / "results.jsonl")) == 2
    assert sorted(p.name for p in (tmp_path / "arena-results").iterdir()) == ["arena.lock"]


def test_a_run_carried_to_another_folder_by_its_manifest_and_journal_resumes_there(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, full_run: Path
) -> None:
    first, second = tmp_path / "first", tmp_path / "second"
    _stopped_run(monkeypatch, first, 3)
    second.mkdir()
    for name in ("arena.json", "results.jsonl"):  # what a long match keeps in the repository
        (second / name).write_bytes((first / name).read_bytes())
    result = run_tournament(_tournament(second), progress=False, resume=True)
    assert result.resumed == 3 and len(result.results) == 8
    assert (second / "summary.csv").read_text() == (full_run / "summary.csv").read_text()


def test_standing_prints_a_stopped_run_without_playing_or_writing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                 full_run: Path) -> None:  # fmt: skip
    _stopped_run(monkeypatch, tmp_path, 3)
    before = {p.name: p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()}
    cli = CliRunner(env={"COLUMNS": "200"})
    shown = cli.invoke(_app(), ["arena", "--standing", str(tmp_path)])
    assert shown.exit_code == 0, shown.output
    assert "3 of 8 games (not finished; goldfields arena --resume" in shown.output
    assert "Wilson" in shown.output and "heuristic" in shown.output
    assert {p.name: p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()} == before
    # Three games with one seat each: the title counts the deals played and the one short of a rotation.
    title = " ".join(shown.output.split())  # Rich centres and wraps the title
    assert "3 games (2 deals, 1 of them not yet in every rotation; 2 rotations a deal)" in title
    # Read back without their records, different games stay different games on the sides' line.
    assert "distinct game" not in title and "wins by side, whoever sat there" in title
    finished = cli.invoke(_app(), ["arena", "--standing", str(full_run)])
    assert finished.exit_code == 0 and "8 of 8 games (finished)" in finished.output
    nothing = cli.invoke(_app(), ["arena", "--standing", str(tmp_path / "nowhere")])
    assert nothing.exit_code == 2 and "holds no arena run" in nothing.output
    mixed = cli.invoke(_app(), ["arena", *LINEUP, "--standing", str(tmp_path)])
    assert mixed.exit_code == 2 and "--standing reads a saved run" in mixed.output
    ignored = cli.invoke(_app(), ["arena", "--standing", str(full_run), "--games", "5"])
    assert ignored.exit_code == 2 and "no other option with it (not --games)" in ignored.output


def test_the_run_keeps_its_rules_and_a_resume_plays_on_under_them(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                  ) -> None:  # fmt: skip
    # Digger with black crates: a resume that rebuilt the default (white) rules would finish the run
    # under other rules and report the two as one.
    black = GameSpec.from_json("digger", {"players": 2, "crates": "black"})
    whole = run_tournament(Tournament(black, LINEUP, games=4, seed=3, jobs=1, out=tmp_path / "whole"), progress=False)
    stopped = tmp_path / "stopped"
    _stop_after(monkeypatch, 2)
    with pytest.raises(Interrupted):
        run_tournament(Tournament(black, LINEUP, games=4, seed=3, jobs=1, out=stopped), progress=False)
    monkeypatch.undo()
    assert json.loads((stopped / "arena.json").read_text())["params"]["crates"] == "black"
    white = Tournament(GameSpec.make("digger", 2), LINEUP, games=4, seed=3, jobs=1, out=stopped)
    with pytest.raises(ResumeError, match="params"):
        run_tournament(white, progress=False, resume=True)
    done = CliRunner(env={"COLUMNS": "200"}).invoke(_app(), ["arena", "--resume", str(stopped), "--quiet"])
    assert done.exit_code == 0, done.output
    assert (stopped / "summary.csv").read_text() == (tmp_path / "whole" / "summary.csv").read_text()
    assert [r.scores for r in whole.results] == [
        tuple(json.loads(line)["scores"]) for line in sorted(_lines(stopped / "results.jsonl"),
                                                            key=lambda line: json.loads(line)["index"])]


def test_a_run_being_played_cannot_be_resumed_by_another_process_at_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fcntl = pytest.importorskip("fcntl")
    _stopped_run(monkeypatch, tmp_path, 2)
    monkeypatch.undo()
    with (tmp_path / "arena.lock").open("a") as held:  # as the process playing the run holds it
        fcntl.flock(held, fcntl.LOCK_EX | fcntl.LOCK_NB)
        journal = (tmp_path / "results.jsonl").read_bytes()
        with pytest.raises(ResumeError, match="another arena is playing into"):
            run_tournament(_tournament(tmp_path), progress=False, resume=True)
        assert (tmp_path / "results.jsonl").read_bytes() == journal  # untouched
    assert len(run_tournament(_tournament(tmp_path), progress=False, resume=True).results) == 8


def test_a_resume_by_other_code_is_said_and_kept_in_the_manifest(tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    _stopped_run(monkeypatch, tmp_path, 2)
    first = json.loads((tmp_path / "arena.json").read_text())["made_with"]
    assert first == [provenance.code_version("digging")]
    cli = CliRunner(env={"COLUMNS": "200"})
    _stopped_run(monkeypatch, tmp_path / "same", 2)
    same = cli.invoke(_app(), ["arena", "--resume", str(tmp_path / "same"), "--quiet"])
    assert same.exit_code == 0 and "note:" not in same.output
    assert json.loads((tmp_path / "same" / "arena.json").read_text())["made_with"] == first

    newer = {"goldfields": "9.9", "code": "0123456789ab"}
    monkeypatch.setattr(provenance, "code_version", lambda *_: newer)
    mixed = cli.invoke(_app(), ["arena", "--resume", str(tmp_path), "--quiet"])
    assert mixed.exit_code == 0, mixed.output
    said = " ".join(mixed.output.split())
    assert f"code {first[0]['code']}" in said and "code 0123456789ab" in said and "mix two programs" in said
    assert json.loads((tmp_path / "arena.json").read_text())["made_with"] == [*first, newer]
    shown = cli.invoke(_app(), ["arena", "--standing", str(tmp_path)])
    assert "its games come from 2 versions" in " ".join(shown.output.split())
    # A resume that plays no game (the run is finished) adds no version.
    monkeypatch.setattr(provenance, "code_version", lambda *_: {"goldfields": "10", "code": "c"})
    assert cli.invoke(_app(), ["arena", "--resume", str(tmp_path), "--quiet"]).exit_code == 0
    assert json.loads((tmp_path / "arena.json").read_text())["made_with"] == [*first, newer]


def test_a_resume_refused_by_the_lock_says_nothing_of_versions(tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    """The note on other code belongs to a resume that goes on; one refused at the lock plays nothing."""
    fcntl = pytest.importorskip("fcntl")
    _stopped_run(monkeypatch, tmp_path, 2)
    monkeypatch.setattr(provenance, "code_version", lambda *_: {"goldfields": "9.9", "code": "0123456789ab"})
    with (tmp_path / "arena.lock").open("a") as held:
        fcntl.flock(held, fcntl.LOCK_EX | fcntl.LOCK_NB)
        refused = CliRunner(env={"COLUMNS": "200"}).invoke(_app(), ["arena", "--resume", str(tmp_path), "--quiet"])
    said = " ".join(refused.output.split())
    assert refused.exit_code == 2 and "another arena is playing into" in said
    assert "note:" not in said and "mix two programs" not in said


def test_a_run_saved_before_manifests_kept_the_version_says_its_first_games_are_unknown(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _stopped_run(monkeypatch, tmp_path, 2)
    manifest = json.loads((tmp_path / "arena.json").read_text())
    del manifest["made_with"]
    (tmp_path / "arena.json").write_text(json.dumps(manifest))
    resumed = CliRunner(env={"COLUMNS": "200"}).invoke(_app(), ["arena", "--resume", str(tmp_path), "--quiet"])
    assert "did not record itself" in " ".join(resumed.output.split())
    made = json.loads((tmp_path / "arena.json").read_text())["made_with"]
    assert made == [provenance.UNKNOWN, provenance.code_version("digging")]
    shown = CliRunner(env={"COLUMNS": "200"}).invoke(_app(), ["arena", "--standing", str(tmp_path)])
    assert "2 versions of the rules and bots: a version that did not record itself, goldfields" in " ".join(
        shown.output.split())


def test_a_run_of_every_seating_resumes_as_one_and_refuses_rotations(tmp_path: Path) -> None:
    spec = GameSpec.make("digger", 3)
    lineup = ("heuristic", "random", "random")
    whole = run_tournament(Tournament(spec, lineup, games=6, seed=3, jobs=1, out=tmp_path / "whole",
                                      seatings="all"), progress=False)  # fmt: skip
    assert len(whole.results) == 6 and {r.deal for r in whole.results} == {0}
    part = tmp_path / "part"
    (part / "records").mkdir(parents=True)
    (part / "arena.json").write_text((tmp_path / "whole" / "arena.json").read_text())
    (part / "results.jsonl").write_text("".join(_lines(tmp_path / "whole" / "results.jsonl")[i] + "\n"
                                                for i in (0, 4)))  # fmt: skip
    cli = CliRunner(env={"COLUMNS": "200"})
    shown = cli.invoke(_app(), ["arena", "--standing", str(part)])
    assert "2 of 6 games" in shown.output and "6 seatings a deal" in " ".join(shown.output.split())
    refused = cli.invoke(_app(), ["arena", "--resume", str(part), "--seatings", "rotations"])
    assert refused.exit_code == 2 and "seatings" in refused.output
    done = cli.invoke(_app(), ["arena", "--resume", str(part), "--jobs", "1", "--quiet"])
    assert done.exit_code == 0, done.output
    assert (part / "summary.csv").read_text() == (tmp_path / "whole" / "summary.csv").read_text()


def test_a_journal_replaced_while_the_run_plays_is_written_again_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, full_run: Path
) -> None:
    """As ``git checkout`` of a tracked journal does mid-run: the path gets a new, older file."""
    real = runner_module.run_job
    started = 0

    def run_job(job):  # type: ignore[no-untyped-def]
        nonlocal started
        started += 1
        if started == 4:  # three games written: put back the journal as it was after one
            for name in ("results.jsonl", "games.csv"):
                path = tmp_path / name
                older = tmp_path / f"{name}.old"
                older.write_text("\n".join(_lines(path)[:1 if name == "results.jsonl" else 2]) + "\n")
                older.replace(path)
        return real(job)

    monkeypatch.setattr(runner_module, "run_job", run_job)
    run_tournament(_tournament(tmp_path), progress=False)
    assert len(_lines(tmp_path / "results.jsonl")) == 8
    for name in ("games.csv", "summary.csv"):
        assert (tmp_path / name).read_text() == (full_run / name).read_text(), name


@pytest.mark.parametrize("how", ["in place", "then stopped"])
def test_a_journal_rewritten_in_place_or_before_a_stop_is_written_again_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, how: str
) -> None:
    """``cp`` or ``git show X:f > f`` keep the file and change its contents; and a run stopped
    right after the journal was replaced has no next game to notice it."""
    real = runner_module.run_job
    started = 0

    def run_job(job):  # type: ignore[no-untyped-def]
        nonlocal started
        started += 1
        if started == 4:  # three games written: the journal goes back to its first line
            journal = tmp_path / "results.jsonl"
            first = _lines(journal)[0] + "\n"
            if how == "in place":
                with journal.open("r+") as f:  # the same file, other contents
                    f.truncate(0)
                    f.write(first)
            else:
                (tmp_path / "old").write_text(first)
                (tmp_path / "old").replace(journal)
                raise KeyboardInterrupt
        return real(job)

    monkeypatch.setattr(runner_module, "run_job", run_job)
    if how == "in place":
        run_tournament(_tournament(tmp_path), progress=False)
        assert len(_lines(tmp_path / "results.jsonl")) == 8
    else:
        with pytest.raises(Interrupted) as stop:
            run_tournament(_tournament(tmp_path), progress=False)
        assert stop.value.done == 3
        assert [json.loads(line)["index"] for line in _lines(tmp_path / "results.jsonl")] == [0, 1, 2]


def test_a_manifest_written_before_it_held_the_rules_resumes_with_the_defaults(tmp_path: Path) -> None:
    for game, players, partnership in (("digger", 3, False), ("digging", 4, False), ("digging", 2, False)):
        folder = tmp_path / f"{game}-{players}"
        folder.mkdir()
        manifest = {"format": 1, "game": game, "players": players, "partnership": partnership,
                    "lineup": ["random"] * (players if not partnership else 2), "games": 4, "seed": 1,
                    "records": False}  # fmt: skip
        (folder / "arena.json").write_text(json.dumps(manifest))
        shown = CliRunner(env={"COLUMNS": "200"}).invoke(_app(), ["arena", "--standing", str(folder)])
        assert shown.exit_code == 0, shown.output
        assert "0 of" in shown.output


def test_a_damaged_manifest_is_refused_with_a_message(tmp_path: Path) -> None:
    (tmp_path / "arena.json").write_text('{"format": 1, "game": "digging"}')
    result = CliRunner(env={"COLUMNS": "200"}).invoke(_app(), ["arena", "--resume", str(tmp_path)])
    assert result.exit_code == 2 and "damaged: it lacks players" in result.output
    assert "Traceback" not in result.output


def test_games_csv_names_only_records_that_were_written(tmp_path: Path) -> None:
    run_tournament(_tournament(tmp_path, games=2, records=False), progress=False)
    assert not (tmp_path / "records").exists()
    rows = _lines(tmp_path / "games.csv")[1:]
    assert rows and all(row.endswith(",") for row in rows)  # the record column is empty


def _app():  # type: ignore[no-untyped-def]
    import typer

    app = typer.Typer(add_completion=False)
    arena_cli.register(app)

    @app.command("other")
    def other() -> None:
        pass

    return app


def test_a_resume_into_a_run_of_two_versions_names_both_and_counts_three(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A run already resumed once by other code mixes more than two programs: the note says so."""
    _stopped_run(monkeypatch, tmp_path, 2)
    manifest = json.loads((tmp_path / "arena.json").read_text())
    first = manifest["made_with"][0]
    older = {"goldfields": "0.0.9", "code": "aaaaaaaaaaaa"}
    (tmp_path / "arena.json").write_text(json.dumps(manifest | {"made_with": [older, first]}))
    monkeypatch.setattr(provenance, "code_version", lambda *_: {"goldfields": "9.9", "code": "0123456789ab"})
    resumed = CliRunner(env={"COLUMNS": "200"}).invoke(_app(), ["arena", "--resume", str(tmp_path), "--quiet"])
    said = " ".join(resumed.output.split())
    assert resumed.exit_code == 0, resumed.output
    assert "2 versions: goldfields 0.0.9 (code aaaaaaaaaaaa), goldfields" in said
    assert f"(code {first['code']}); this is 9.9 (code 0123456789ab)" in said
    assert "mix 3 programs" in said


def test_a_network_named_by_its_path_counts_in_the_version_by_its_contents(tmp_path: Path) -> None:
    """Retraining a network the lineup names by path changes the games as a code change would;
    the observation encoding the networks read is part of the code."""
    assert "research/encoding.py" in provenance.SHARED
    net = tmp_path / "round-01.npz"
    net.write_bytes(b"weights one")
    lineup = (f"net:net={net}", "heuristic")
    first = provenance.code_version("digging", lineup)
    assert first != provenance.code_version("digging", ("heuristic", "heuristic"))
    net.write_bytes(b"weights two")
    second = provenance.code_version("digging", lineup)  # in the same process: the bots read it again too
    assert second != first
    net.write_bytes(b"weights one")
    assert provenance.code_version("digging", lineup) == first


def test_a_grown_resume_stopped_before_its_first_game_says_to_resume_with_its_games(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    run_tournament(_tournament(tmp_path, games=4), progress=False)
    _stop_after(monkeypatch, 0)
    args = ["arena", "--resume", str(tmp_path), "--games", "8", "--jobs", "1"]
    stopped = CliRunner(env={"COLUMNS": "300"}).invoke(_app(), args)
    assert stopped.exit_code == 130, stopped.output
    assert f"Continue with: goldfields arena --resume {tmp_path} --games 8" in " ".join(stopped.output.split())
    assert json.loads((tmp_path / "arena.json").read_text())["games"] == 4  # the run is as it was
