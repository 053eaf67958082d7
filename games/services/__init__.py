"""The game services: the one place that writes games, for every game family
(docs/design.md "Game families", "The move path").

Split by concern: :mod:`.lobby` (create, join, deal, rematch), :mod:`.moves` (a player's
action, an operator's end), :mod:`.record` (the one event writer and its lock-held
bookkeeping), :mod:`.clocks` (timeouts and their sweeps), :mod:`.bots` (bot turns, stand-ins,
away seats), :mod:`.reading` (views, events, the end of a game, replays) and :mod:`.reviews`.
A service never asks which family a game is: it asks the family
(:mod:`games.engine.families`).

Services take an :class:`~games.identity.Identity` and raise domain errors
(games/errors.py); they import no task module, no adapter and no other app
(docs/design.md "Layers and the import rule").
"""

from ..identity import Identity
from .bots import (
    AWAY_AFTER,
    BOT_TURN_GRACE,
    MAX_BOT_ACTIONS,
    STAND_IN_AFTER,
    STAND_IN_STRENGTH,
    away_seats,
    due_bot_turns,
    due_stand_ins,
    play_bot_turn,
    play_stand_in_turn,
    seen,
    settle_away_seat,
)
from .clocks import (
    TIMEOUT_GRACE,
    due_timeouts,
    grant_restart_grace,
    live_clocks,
    moved_deadline,
    timeout,
    upcoming_timeouts,
)
from .fairness import ABSENT_AFTER, judge, stand_in_seqs
from .fairness import refresh_all as refresh_fair_play
from .lobby import (
    adopt_guest_seats,
    create_game,
    create_seated_game,
    delete_unstarted,
    expire_rematches,
    forget_player,
    join_game,
    lapsed_rematch,
    live_game_of,
    offer_rematch,
    play_started,
    rated_check,
    refuse_a_second_live_game,
    rematch_expires,
    rematch_open_for,
    rematch_state,
    rename_player,
    results_of,
    seat_of,
    setup_from,
    start_if_full,
    unseal,
)
from .moves import act, can_end, end_game, leave_all_games
from .reading import (
    answer,
    end_of_game,
    events_after,
    game_summary,
    get_game,
    my_turn,
    replay_steps,
    scorecard,
    seed_check,
    tile_codes,
    way_back,
    without_seed,
)
from .record import (
    RECORDED_FIELDS,
    apply_action,
    family_of,
    load_state,
    setup_of,
    write_results,
)
from .reviews import REVIEW_RETRY_AFTER, lost_reviews, request_review

__all__ = [
    "AWAY_AFTER",
    "Identity",
    "BOT_TURN_GRACE",
    "MAX_BOT_ACTIONS",
    "RECORDED_FIELDS",
    "REVIEW_RETRY_AFTER",
    "STAND_IN_AFTER",
    "ABSENT_AFTER",
    "judge",
    "refresh_fair_play",
    "stand_in_seqs",
    "STAND_IN_STRENGTH",
    "TIMEOUT_GRACE",
    "act",
    "adopt_guest_seats",
    "answer",
    "apply_action",
    "away_seats",
    "can_end",
    "create_game",
    "create_seated_game",
    "delete_unstarted",
    "due_bot_turns",
    "due_stand_ins",
    "due_timeouts",
    "end_game",
    "leave_all_games",
    "end_of_game",
    "events_after",
    "family_of",
    "expire_rematches",
    "forget_player",
    "game_summary",
    "get_game",
    "grant_restart_grace",
    "join_game",
    "lapsed_rematch",
    "live_clocks",
    "live_game_of",
    "load_state",
    "lost_reviews",
    "moved_deadline",
    "my_turn",
    "offer_rematch",
    "play_bot_turn",
    "play_stand_in_turn",
    "play_started",
    "rated_check",
    "refuse_a_second_live_game",
    "rematch_expires",
    "rematch_open_for",
    "rematch_state",
    "rename_player",
    "replay_steps",
    "results_of",
    "request_review",
    "scorecard",
    "seat_of",
    "seed_check",
    "seen",
    "settle_away_seat",
    "setup_from",
    "setup_of",
    "start_if_full",
    "tile_codes",
    "timeout",
    "unseal",
    "upcoming_timeouts",
    "way_back",
    "without_seed",
    "write_results",
]
