"""Glicko-2 (Mark Glickman, "Example of the Glicko-2 system", 2013), one rating period a game.

Each puzzle attempt is a game between the player and the puzzle: the player scores 1 for a
clean solve, less with hints, 0 for giving up, and the puzzle the rest.

>>> player = Rating(1500, 200, 0.06)
>>> games = [(Rating(1400, 30), 1.0), (Rating(1550, 100), 0.0), (Rating(1700, 300), 0.0)]
>>> after = update(player, games)
>>> round(after.rating, 1), round(after.rd, 2), round(after.vol, 6)
(1464.1, 151.52, 0.059996)

(The paper, rounding as it goes, prints 1464.06, 151.52 and 0.05999.)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

SCALE = 173.7178
TAU = 0.5
EPSILON = 0.000001
MIN_RD = 30.0
MAX_RD = 350.0


@dataclass(frozen=True, slots=True)
class Rating:
    rating: float = 1500.0
    rd: float = 350.0
    vol: float = 0.06

    @property
    def mu(self) -> float:
        return (self.rating - 1500.0) / SCALE

    @property
    def phi(self) -> float:
        return self.rd / SCALE


DEFAULT_PLAYER = Rating(1500.0, 350.0, 0.06)


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _expected(mu: float, mu_j: float, phi_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


def expected_score(player: Rating, opponent: Rating) -> float:
    """The score ``player`` is expected to make against ``opponent``."""
    return _expected(player.mu, opponent.mu, opponent.phi)


def update(player: Rating, games: Sequence[tuple[Rating, float]], tau: float = TAU) -> Rating:
    """The player's rating after one rating period with ``games`` (opponent, score 0..1).

    With no games only the deviation grows (step 6 of the paper). The deviation stays within
    ``MIN_RD``..``MAX_RD`` so that a rating never freezes nor forgets everything.
    """
    mu, phi, sigma = player.mu, player.phi, player.vol
    if not games:
        return _clamped(player.rating, math.sqrt(phi * phi + sigma * sigma) * SCALE, sigma)
    v_inverse = 0.0
    delta_sum = 0.0
    for opponent, score in games:
        g = _g(opponent.phi)
        e = _expected(mu, opponent.mu, opponent.phi)
        v_inverse += g * g * e * (1.0 - e)
        delta_sum += g * (score - e)
    v = 1.0 / v_inverse
    delta = v * delta_sum
    new_sigma = _volatility(delta, phi, v, sigma, tau)
    phi_star = math.sqrt(phi * phi + new_sigma * new_sigma)
    new_phi = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    new_mu = mu + new_phi * new_phi * delta_sum
    return _clamped(new_mu * SCALE + 1500.0, new_phi * SCALE, new_sigma)


def _volatility(delta: float, phi: float, v: float, sigma: float, tau: float) -> float:
    """Step 5: the new volatility, by the Illinois algorithm."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        top = ex * (delta * delta - phi * phi - v - ex)
        bottom = 2.0 * (phi * phi + v + ex) ** 2
        return top / bottom - (x - a) / (tau * tau)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2.0)


def _clamped(rating: float, rd: float, vol: float) -> Rating:
    return Rating(rating, min(MAX_RD, max(MIN_RD, rd)), vol)


def play(player: Rating, puzzle: Rating, score: float) -> tuple[Rating, Rating]:
    """Both sides of one attempt: the player scored ``score``, the puzzle ``1 - score``."""
    return update(player, [(puzzle, score)]), update(puzzle, [(player, 1.0 - score)])
