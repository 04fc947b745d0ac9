"""The ``goldfields`` command line (Typer). Each sub-command lives in its own module."""
