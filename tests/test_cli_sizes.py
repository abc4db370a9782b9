"""Sizes on the command line: units read, what was read said, implausible counts refused."""

from __future__ import annotations

import json
import math
import subprocess

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sim.cli.common import UserError
from sim.cli.sizes import PARAMETERS, TOKENS, parse_size, short, words
from sim.scenario.counts import UNITS
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


# --- found in the audit: sizes a user types that were misread or refused ---------------------


@pytest.mark.parametrize(
    "text, value",
    [("１２B", 12e9), ("１２Ｂ", 12e9), ("١٢B", 12e9), ("٣٫٥B", 3.5e9), ("7bn", 7e9),
     ("1.5tn", 1.5e12), ("+7B", 7e9), ("4,000B", 4e12)],
)  # fmt: skip
def test_full_width_and_other_scripts_digits_read_as_digits(text: str, value: float) -> None:
    assert parse_size(text, "params", PARAMETERS) == pytest.approx(value)


@pytest.mark.parametrize("text", ["7,5B", "1,5", "1,0000B", "12,5T"])
def test_a_decimal_comma_is_refused_not_read_as_thousands(text: str) -> None:
    # "7,5B" once read as 75 billion: a comma only separates groups of three digits.
    with pytest.raises(UserError, match="a comma separates thousands.*a decimal takes a point"):
        parse_size(text, "params", PARAMETERS)


@pytest.mark.parametrize("text", ["-3B", "\u22123B", "-7e9"])
def test_a_negative_size_is_called_negative(text: str) -> None:
    with pytest.raises(UserError, match="must be a positive number of parameters"):
        parse_size(text, "params", PARAMETERS)


def test_the_largest_size_is_written_without_an_exponent() -> None:
    assert short(TOKENS.high) == "10,000T"
    with pytest.raises(UserError, match=r"1M to 10,000T tokens"):
        parse_size("4", "tokens", TOKENS)
    with pytest.raises(UserError, match="more than any training run"):
        parse_size("1e400", "tokens", TOKENS)


@pytest.mark.parametrize(
    "args, message",
    [
        (["--gpu", "h10"], "--gpu 'h10': did you mean 'h100'?"),
        (["--mfu", "40"], "--mfu 40: MFU is a fraction of peak in (0, 1]; did you mean --mfu 0.4"),
        (["--gpus", "0"], "--gpus must be at least 1, got 0"),
    ],
)
def test_compute_names_the_flag_and_suggests_what_was_meant(args: list[str], message: str) -> None:
    base = {"--params": "7B", "--tokens": "2T", "--gpus": "8"}
    base.update(dict(zip(args[::2], args[1::2], strict=True)))
    done = sim("compute", *(x for kv in base.items() for x in kv))
    assert done.returncode == 2 and message in done.stderr, done.stderr
    assert "Traceback" not in done.stderr


def test_compute_reads_a_gpu_name_in_capitals() -> None:
    done = sim("compute", "--params", "7B", "--tokens", "2T", "--gpus", "8", "--gpu", "H800")
    assert done.returncode == 0, done.stderr
    assert "8 × H800" in done.stdout
