"""The live bench's lists of paces: an empty one means none, a bad one stops it with one line."""

from __future__ import annotations

import pytest

from benchmarks.bench_live import paces

NAME = "RUMMI_BENCH_LIVE_FASTER"


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
