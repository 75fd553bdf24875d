"""Command line: ``flask --app app replay FILE``."""

from __future__ import annotations

import json
import sys
from typing import NoReturn

import click
from flask import Flask

from .engine import InvalidRecord, load_record, replay_summary


@click.command("replay")
@click.argument("file")
def replay_command(file: str) -> None:
    """Replay the game record FILE (``-`` for standard input) and print its
    score as one JSON object (shared/spec/record-format.md).

    An unreadable or invalid record prints one line naming the problem on
    standard error, nothing on standard output, and exits with status 2.
    """
    try:
        if file == "-":
            text = sys.stdin.buffer.read()
        else:
            with open(file, "rb") as handle:
                text = handle.read()
        state = load_record(text)
    except OSError as exc:
        _fail(f"cannot read {file}: {exc.strerror or exc}")
    except InvalidRecord as exc:
        _fail(str(exc))
    click.echo(json.dumps(replay_summary(state)))


def _fail(message: str) -> NoReturn:
    click.echo(" ".join(message.split()), err=True)
    sys.exit(2)


def register_cli(app: Flask) -> None:
    """Add the project's commands to ``app.cli``."""
    app.cli.add_command(replay_command)
