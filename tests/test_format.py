"""One presentation layer: every figure reads the same in the CLI and the app."""

from __future__ import annotations

import json
import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sim import format as fmt
from sim.cli import tables
from sim.cli.runs_run import compare_result
from sim.compare import analysis
from sim.compare.inference import compare_designs
from sim.designs import apply_delta
from sim.runner import run_designs
from sim.scenario.loading import load_scenario
from ui import common
from ui.compare.page import summary_json
from ui.play import charts


@pytest.mark.parametrize(
    ("value", "short", "exact"),
    [
        (149_821.0, "$150k", "$149,821"),
        (6_183_000.0, "$6.18M", "$6,183,000"),
        (-24_294.0, "-$24k", "-$24,294"),
        (1.2e9, "$1.20B", "$1,200,000,000"),
        (950.0, "$950", "$950"),
        (2.5, "$2.50", "$2.50"),
        (0.0, "$0", "$0"),
        (math.nan, "—", "—"),
    ],
)
def test_money_short_and_exact(value: float, short: str, exact: str) -> None:
    assert fmt.usd(value) == short
    assert fmt.usd_exact(value) == exact


def test_the_cli_and_the_app_write_money_alike() -> None:
    for value in (149_821.0, 6.18e6, -24_294.0, 2.5, 950.0):
        assert tables.money(value) == common.usd(value) == fmt.usd(value)
    assert charts._usd(-1.19e6) == "-$1.19M"  # an ASCII minus: st.metric reads it


@given(st.floats(-1e10, 1e10, allow_nan=False))
def test_signed_forms_carry_the_sign_of_the_value(value: float) -> None:
    for text in (fmt.usd_signed(value), fmt.days_signed(value), fmt.points_signed(value)):
        assert text[0] == ("-" if value < 0 else "+"), text
        assert "−" not in text


def test_days_points_and_shares() -> None:
    assert fmt.days(154.23) == "154.2 days" and fmt.days(60) == "60 days"
    assert fmt.days(1) == "1 day" and fmt.days_signed(15.7) == "+15.7 days"
    assert fmt.points(0.713) == "71.3 pts" and fmt.points_signed(-0.0073) == "-0.7 pts"
    assert fmt.percent(0.555, 1) == "55.5%" and fmt.pp_signed(0.03) == "+3.0 pp"
    assert fmt.no_change(4_999.0, "USD") and not fmt.no_change(5_000.0, "USD")
    assert fmt.no_change(0.001, "score") and not fmt.no_change(0.6, "days")


def test_one_comparison_json_for_the_cli_and_the_page() -> None:
    base = load_scenario("assistant_7b")
    designs = {"base": base, "reserve": apply_delta(base, {"levers.reserve_fraction": 0.2})}
    frames = run_designs(designs, reps=24, seed=3, workers=1)
    comparison = compare_designs(frames, base, seed=3)

    class State:
        def frames(self) -> dict[str, object]:
            return frames

    cli = compare_result(designs, frames, comparison, 3)
    page = summary_json(State(), designs, 3, comparison)  # type: ignore[arg-type]
    assert json.dumps(cli, sort_keys=True, default=str) == json.dumps(
        page, sort_keys=True, default=str
    )
    assert list(cli)[:6] == ["reps", "seed", "baseline", "designs", "paired", "verdict"]
    assert cli["changes"] == {"reserve": {"levers.reserve_fraction": 0.2}}
    assert cli == analysis.comparison_json(designs, frames, comparison, 3)


def test_counts_agree_with_their_number() -> None:
    from sim.format import count

    assert count(1, "loss spike") == "1 loss spike"
    assert count(0, "interruption") == "0 interruptions"
    assert count(2, "person", "people") == "2 people"
    assert count(2.5, "round") == "2.5 rounds"


@pytest.mark.parametrize(
    ("n", "text"),
    [(4e12, "4.00T"), (3.55e12, "3.55T"), (15.6e12, "15.60T"), (5e9, "5B"), (2.5e9, "2.5B"),
     (123.4e9, "123B"), (0.0, "0B")],
)  # fmt: skip
def test_tokens_as_people_write_them(n: float, text: str) -> None:
    # An adaptation's 5B read "0.01T to 0.00T tokens" in a scope cut.
    assert fmt.tokens(n) == text
