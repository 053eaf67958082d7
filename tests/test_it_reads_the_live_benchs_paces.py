"""The live bench's settings: an empty list of paces means none, a bad pace or count of rounds
stops it with one line; paired rounds pool as the ratio of the sums."""

from __future__ import annotations

import pytest

from benchmarks.bench_live import paces, pooled, rounds

NAME = "RUMMI_BENCH_LIVE_FASTER"
ROUNDS = "RUMMI_BENCH_LIVE_R45_ROUNDS"


def test_unset_is_the_default_and_empty_is_none(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(NAME, raising=False)
    assert paces(NAME, "300,400") == [300.0, 400.0]
    monkeypatch.setenv(NAME, "")
    assert paces(NAME, "300,400") == []
    monkeypatch.setenv(NAME, " 150, 75 ,")
    assert paces(NAME, "300,400") == [150.0, 75.0]


@pytest.mark.parametrize(
    ("value", "says"), [("fast", "give paces in moves/s"), ("100,-5", "above 0"), ("0", "above 0")]
)
def test_a_bad_pace_stops_the_bench_with_one_line(
    monkeypatch: pytest.MonkeyPatch, value: str, says: str
) -> None:
    monkeypatch.setenv(NAME, value)
    with pytest.raises(SystemExit) as stopped:
        paces(NAME, "300")
    message = str(stopped.value)
    assert message.startswith(f"{NAME}={value!r}: ") and says in message and "\n" not in message


@pytest.mark.parametrize(("value", "count"), [(None, 0), ("", 0), (" 2 ", 2), ("20", 20)])
def test_the_paired_rounds_are_a_whole_number(
    monkeypatch: pytest.MonkeyPatch, value: str | None, count: int
) -> None:
    if value is None:
        monkeypatch.delenv(ROUNDS, raising=False)
    else:
        monkeypatch.setenv(ROUNDS, value)
    assert rounds(ROUNDS) == count


@pytest.mark.parametrize("value", ["two", "-1", "1.5", "21"])
def test_a_bad_count_of_rounds_stops_the_bench_with_one_line(
    monkeypatch: pytest.MonkeyPatch, value: str
) -> None:
    monkeypatch.setenv(ROUNDS, value)
    with pytest.raises(SystemExit) as stopped:
        rounds(ROUNDS)
    message = str(stopped.value)
    assert message.startswith(f"{ROUNDS}={value.strip()!r}: ") and "\n" not in message


def test_paired_figures_pool_as_the_ratio_of_the_sums() -> None:
    pairs = [
        {"150": {"a": 3.0, "b": 2.0, "ratio": 1.5}},
        {"150": {"a": 1.0, "b": 2.0, "ratio": 0.5}, "300": {"a": 2.0, "b": 4.0, "ratio": 0.5}},
    ]
    by_pace = pooled(pairs, "a", "b")
    assert by_pace["150"] == {"pairs": 2, "a_mean": 2.0, "b_mean": 2.0, "ratio": 1.0,
                              "ratios": [1.5, 0.5]}  # fmt: skip
    assert by_pace["300"]["ratio"] == 0.5 and by_pace["300"]["pairs"] == 1
    assert list(by_pace) == ["150", "300"]
