"""The ``goldfields`` command: one Typer app, with a module per sub-command."""

from __future__ import annotations

import typer

from . import analyze, arena, demo, play, replay, serve, train

app = typer.Typer(
    name="goldfields",
    help="Digging and Digger: exact rules engines, game records, bots and play.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

replay.register(app)
arena.register(app)
demo.register(app)
serve.register(app)
play.register(app)
train.register(app)
analyze.register(app)


def main() -> None:
    app()


if __name__ == "__main__":
    main()
