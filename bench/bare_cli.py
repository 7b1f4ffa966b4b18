"""The reference for the CLI start benchmark: a bare click CLI with one command.

``python bench/bare_cli.py --help`` is what any click program pays to answer ``--help``;
``fuego --help`` is timed against it in the same run, with the same interpreter.
"""

import click


@click.group()
def cli() -> None:
    """A bare click CLI."""


@cli.command()
def hello() -> None:
    """Say hello."""
    click.echo("hello")


if __name__ == "__main__":
    cli()
