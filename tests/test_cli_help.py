"""Every command's ``--help`` at 40, 60 and 80 columns, and ``--version`` on every command.

A help that fits its terminal keeps each option's long name whole, writes each help
text whole (lines broken only between words, so the text comes back once the
whitespace is normalised), never shows rich's ``…`` and has no line wider than the
terminal. Commands run in-process through typer's CliRunner with ``COLUMNS`` set, and
a few through a pipe in a subprocess, as the audit found them.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st
from typer.testing import CliRunner

import sim
from sim.cli import COMMANDS, app, load_command
from sim.cli.helptext import wrap
from tests.cli import run_sim

WIDTHS = (40, 60, 80)
VERSION = f"trainingroom {sim.__version__}\n"
runner = CliRunner()


def flat(text: str) -> str:
    """``text`` with every run of whitespace made one space."""
    return " ".join(text.split())


def helped(args: list[str], columns: int) -> str:
    """The output of ``ARGS --help`` at ``columns``, checked to fit and to cut nothing."""
    result = runner.invoke(app, [*args, "--help"], env={"COLUMNS": str(columns)})
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "…" not in out, out
    too_wide = [line for line in out.splitlines() if len(line) > columns]
    assert not too_wide, too_wide
    return out


def long_names(name: str) -> list[str]:
    """Every ``--long`` option name of command ``name``, as its module declares them."""
    params = load_command(name).params
    return [opt for p in params for opt in [*p.opts, *p.secondary_opts] if opt.startswith("--")]


@pytest.mark.parametrize("columns", WIDTHS)
@pytest.mark.parametrize("name", list(COMMANDS))
def test_a_command_help_keeps_every_option_name_and_help_text_whole(
    name: str, columns: int
) -> None:
    out = helped([name], columns)
    words = set(out.split())
    names = [*long_names(name), "--version", "--help"]
    missing = [opt for opt in names if opt not in words]
    assert not missing, f"{name} --help at {columns} columns lacks {missing}:\n{out}"
    for param in load_command(name).params:
        if getattr(param, "help", None):
            assert flat(param.help) in flat(out), (param.name, columns, out)


@pytest.mark.parametrize("columns", WIDTHS)
def test_the_top_level_help_lists_every_command_with_its_whole_summary(columns: int) -> None:
    out = helped([], columns)
    for name, (_, short) in COMMANDS.items():
        assert re.search(rf"^\s+{name}\b", out, re.MULTILINE), (name, out)
        assert flat(short) in flat(out), (name, columns, out)
    assert {"--version", "--help"} <= set(out.split())


def test_the_choices_and_examples_the_audit_found_cut_are_whole_at_40_columns() -> None:
    from sim.engine.compute import GPUS

    compute = helped(["compute"], 40).split()
    assert all(any(word.startswith(gpu) for word in compute) for gpu in GPUS), compute
    assert "levers.reserve_fraction=0,0.1,0.2" in helped(["sweep"], 40).split()


@pytest.mark.parametrize("columns", [60, None])
def test_help_through_a_pipe_keeps_the_long_option_names(columns: int | None) -> None:
    """As the audit ran it: a subprocess whose stdout is a pipe, COLUMNS=60 or unset (80)."""
    done = run_sim("cluster", "--help", columns=columns, timeout=120)
    assert done.returncode == 0, done.stderr
    words = done.stdout.split()
    for opt in ("--checkpoint-minutes", "--checkpoint-write-minutes", "--planned-per-day"):
        assert opt in words, done.stdout
    assert "…" not in done.stdout and max(map(len, done.stdout.splitlines())) <= (columns or 80)


@pytest.mark.parametrize("name", list(COMMANDS))
def test_every_command_takes_version(name: str) -> None:
    top = runner.invoke(app, ["--version"])
    result = runner.invoke(app, [name, "--version"])
    assert (result.exit_code, result.stdout) == (0, VERSION) == (top.exit_code, top.stdout)


def test_version_on_a_command_through_a_pipe_matches_the_top_level() -> None:
    sub = run_sim("compute", "--version", timeout=120)
    top = run_sim("--version", timeout=120)
    assert (sub.returncode, sub.stdout) == (0, VERSION) == (top.returncode, top.stdout), sub


@given(
    words=st.lists(st.text("abcdefghij-_.,=|", min_size=1, max_size=30), min_size=1),
    width=st.integers(1, 80),
    indent=st.sampled_from(["", "  ", "      "]),
)
def test_wrapping_breaks_lines_only_between_words(
    words: list[str], width: int, indent: str
) -> None:
    text = " ".join(words)
    lines = wrap(text, width, indent)
    assert [word for line in lines for word in line.split()] == words
    for line in lines:
        body = line.removeprefix(indent)
        assert line.startswith(indent) and body == body.strip()
        assert len(body) <= width or " " not in body, (line, width)  # only a lone word overflows


def test_wrapping_keeps_a_bracketed_note_on_one_line() -> None:
    lines = wrap("Downtime per restart.  [default: 4.0; 1<=x<=5000]", 24)
    assert lines == ["Downtime per restart.", "[default: 4.0; 1<=x<=5000]"]
    assert wrap("a\n\n\b\nkept  as\n  is", 3) == ["a", "", "kept  as", "  is"]
