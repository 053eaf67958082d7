"""Glicko-2 as in Glickman's paper, and what an attempt does to both sides."""

from __future__ import annotations

import pytest

from puzzles.glicko import Rating, play, update


def test_it_matches_the_worked_example_in_glickmans_paper() -> None:
    player = Rating(1500, 200, 0.06)
    games = [(Rating(1400, 30), 1.0), (Rating(1550, 100), 0.0), (Rating(1700, 300), 0.0)]
    after = update(player, games, tau=0.5)
    assert after.rating == pytest.approx(1464.06, abs=0.02)
    assert after.rd == pytest.approx(151.52, abs=0.01)
    assert after.vol == pytest.approx(0.05999, abs=0.00001)


def test_a_rating_period_without_games_only_widens_the_deviation() -> None:
    after = update(Rating(1600, 100, 0.06), [])
    assert after.rating == 1600
    assert after.rd == pytest.approx((100**2 + (0.06 * 173.7178) ** 2) ** 0.5, abs=0.01)


def test_a_solve_moves_player_up_and_puzzle_down_and_a_loss_the_other_way() -> None:
    player, puzzle = Rating(1500, 200), Rating(1500, 200)
    won, beaten = play(player, puzzle, 1.0)
    lost, held = play(player, puzzle, 0.0)
    assert won.rating > 1500 > beaten.rating
    assert lost.rating < 1500 < held.rating
    half, _ = play(player, puzzle, 0.5)
    assert half.rating == pytest.approx(1500, abs=0.01)


def test_beating_an_easy_puzzle_earns_little() -> None:
    player = Rating(1500, 80)
    easy, _ = play(player, Rating(800, 100), 1.0)
    hard, _ = play(player, Rating(2000, 100), 1.0)
    assert 0 < easy.rating - 1500 < 2 < hard.rating - 1500
