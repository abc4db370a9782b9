"""Sizes on the command line: units read, what was read said, implausible counts refused."""

from __future__ import annotations

import json
import math
import subprocess

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sim.cli.common import UserError
from sim.cli.sizes import PARAMETERS, TOKENS, UNITS, parse_size, short, words
from tests.cli import run_sim


@pytest.mark.parametrize(
    "text, value",
    [("7e9", 7e9), ("14.8e12", 14.8e12), ("7B", 7e9), ("7b", 7e9), ("14.8T", 14.8e12),
     ("671b", 671e9), (" 500M ", 5e8), ("1.5T", 1.5e12), ("300B", 3e11), ("7 billion", 7e9),
     ("7,000,000,000", 7e9), ("7_000_000_000", 7e9), ("70G", 7e10)],
)  # fmt: skip
def test_sizes_read_their_units(text: str, value: float) -> None:
    assert parse_size(text, "params", PARAMETERS) == pytest.approx(value)


@pytest.mark.parametrize("text", ["abc", "7X", "", "B", "-7B", "0", "inf", "nan", "1e999", "7..1B"])
def test_what_is_not_a_size_is_refused_naming_the_flag(text: str) -> None:
    with pytest.raises(UserError, match="^--tokens"):
        parse_size(text, "tokens", TOKENS)


@pytest.mark.parametrize(
    "flag, kind, text, reading, meant",
    [
        ("params", PARAMETERS, "7", "7 parameters", "7B"),
        ("params", PARAMETERS, "405", "405 parameters", "405B"),
        ("params", PARAMETERS, "7000", "7 thousand parameters", "7000M"),
        ("params", PARAMETERS, "1.5k", "1.5 thousand parameters", "1.5B"),
        ("tokens", TOKENS, "4", "4 tokens", "4T"),
        ("tokens", TOKENS, "300", "300 tokens", "300B"),
    ],
)
def test_an_implausible_count_is_refused_with_its_reading(
    flag: str, kind: object, text: str, reading: str, meant: str
) -> None:
    with pytest.raises(UserError) as info:
        parse_size(text, flag, kind)  # type: ignore[arg-type]
    message = str(info.value)
    assert message.startswith(f"--{flag} {text} reads as {reading}; did you mean {meant}?")
    # What it suggests is itself accepted.
    assert parse_size(meant, flag, kind) > 0  # type: ignore[arg-type]


def test_a_count_beyond_any_run_is_refused() -> None:
    with pytest.raises(UserError, match="more than any training run"):
        parse_size("5000T", "params", PARAMETERS)


@given(
    value=st.floats(min_value=1e6, max_value=1e14, allow_nan=False),
    unit=st.sampled_from(["", "k", "M", "B", "T", "b", "t"]),
)
def test_a_size_written_with_any_unit_reads_back(value: float, unit: str) -> None:
    text = f"{value / UNITS[unit.lower()]!r}{unit}"
    assert parse_size(text, "params", PARAMETERS) == pytest.approx(value, rel=1e-12)


@given(st.text(max_size=20))
def test_any_text_is_a_size_or_a_user_error(text: str) -> None:
    try:
        value = parse_size(text, "tokens", TOKENS)
    except UserError as exc:
        assert str(exc).startswith("--tokens")
    else:
        assert math.isfinite(value) and TOKENS.low <= value <= TOKENS.high


@given(st.floats(min_value=1e6, max_value=1e14))
def test_the_words_and_the_short_form_read_back(value: float) -> None:
    assert parse_size(short(value), "params", PARAMETERS) == pytest.approx(value, rel=5e-4)
    number, scale = words(value).split(" ", 1) if " " in words(value) else (words(value), "")
    assert parse_size(f"{number.replace(',', '')} {scale}", "params", PARAMETERS) == (
        pytest.approx(value, rel=5e-4)
    )


def sim(*args: str) -> subprocess.CompletedProcess[str]:
    return run_sim(*args, columns=80)


def test_compute_refuses_seven_parameters_and_says_what_it_read() -> None:
    done = sim("compute", "--params", "7", "--tokens", "2T", "--gpus", "512")
    assert done.returncode == 2
    assert "--params 7 reads as 7 parameters; did you mean 7B?" in done.stderr
    assert "Traceback" not in done.stderr and done.stdout == ""


def test_compute_says_what_it_read_and_assumed_above_its_result() -> None:
    done = sim("compute", "--params", "7B", "--tokens", "1.5T", "--gpus", "512", "--mfu", "0.35")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "--params 7B as 7 billion parameters" in out
    assert "--tokens 1.5T as 1.5 trillion tokens" in out
    assert "H100 at 989 TFLOP/s peak" in out and "MFU 35%" in out and "$2.50 per GPU-hour" in out
    assert out.index("Assumed") < out.index("Training run estimate")
    assert max(len(line) for line in out.splitlines()) <= 80
    parsed = json.loads(
        sim("compute", "--params", "7B", "--tokens", "1.5T", "--gpus", "512", "--json").stdout
    )
    assert parsed["inputs"]["params"] == 7e9 and parsed["inputs"]["tokens"] == 1.5e12
