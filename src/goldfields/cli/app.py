"""The ``goldfields`` command: one Typer app, with a module per sub-command."""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version
from typing import Annotated

import typer

from . import analyze, arena, demo, play, replay, serve, train

app = typer.Typer(
    name="goldfields",
    help="Digging and Digger: exact rules engines, game records, bots and play.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)



def _version() -> str:
    try:
        return version("goldfields")
    except PackageNotFoundError:  # run from a source tree that was never installed
        return "unknown (not installed)"


def _print_version(value: bool) -> None:
    if value:
        typer.echo(f"goldfields {_version()}")
        raise typer.Exit()


@app.callback()
def root(
    _version_flag: Annotated[bool, typer.Option("--version", callback=_print_version, is_eager=True,
                                                help="Print the version and exit.")] = False,
) -> None:
    """Digging and Digger: exact rules engines, game records, bots and play."""


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
