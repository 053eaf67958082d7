"""A toy third game family, registered only by the tests (docs/design.md "Adding a game family"):
proof that a family is one engine module and nothing in the services, the push path,
tournaments or matchmaking has to change for it.

Thirty tiles (three colours of 0-9), three each. On your turn draw one, then discard one, or go
out when your four tiles share a colour. An empty stock ends the game with no winner. The clock
rule draws and discards the tile drawn; the bot goes out when it can, else discards a tile of
its rarest colour.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, replace
from typing import Any

from games.engine.errors import IllegalMove, InvalidInput
from games.engine.family import LIVE_CLOCKS, ModeInfo, Setup, Turn, clocks

CODES = [f"{'KBR'[t // 10]}{t % 10}" for t in range(30)]
MODE = ModeInfo(
    "toy",
    "Toy",
    "Draw, discard, go out with one colour.",
    ("players", "clock"),
    "Thirty tiles, 2-4 players.",
    (2, 3, 4),
    pool="toy",
)


@dataclass(frozen=True)
class State:
    players: int
    commitment: str
    racks: tuple[tuple[int, ...], ...] = ()
    stock: tuple[int, ...] = ()
    pile: tuple[int, ...] = ()
    turn: int = 0
    turn_number: int = 0
    drawn: bool = False
    winner: int = -1
    over: bool = False
    seed: str | None = None


@dataclass(frozen=True)
class Move:
    seat: int
    what: str  # draw, discard, out
    tile: int = -1


def _event(kind: str, **fields: Any) -> dict[str, Any]:
    return {"kind": kind, "version": 1, **fields}


def _colour_out(rack: Sequence[int]) -> bool:
    return len(rack) == 4 and len({t // 10 for t in rack}) == 1


class Toy:
    name, label = "toy", "Toy"
    modes: Mapping[str, ModeInfo] = {"toy": MODE}
    action_fields: Mapping[str, tuple[str, ...]] = {"toy": ("move",)}
    reviewed = adjudicable = False
    # Its own result counts: tiles drawn. Nothing of Rummikub's (docs/design.md "Results").
    result_details: tuple[str, ...] = ("draws",)

    def setup(self, mode: str, options: Mapping[str, Any]) -> Setup:
        players = int(options.get("players", 2))
        if players not in MODE.players:
            raise InvalidInput("The toy is for 2-4 players")
        clock, days = clocks(options, LIVE_CLOCKS, 30)
        return Setup(self.name, mode, players, {}, clock, days)

    def new_game(self, setup: Setup, seed: bytes) -> tuple[State, list[Any]]:
        tiles = list(range(30))
        random.Random(seed).shuffle(tiles)
        n = setup.players
        racks = [sorted(tiles[3 * s : 3 * s + 3]) for s in range(n)]
        events = [
            _event("ToyStarted", players=n, commitment=hashlib.sha256(seed).hexdigest()),
            _event("ToyDealt", racks=racks, stock=tiles[3 * n :]),
        ]
        return self.replay(events), events

    def apply(self, state: State, action: Move, seed: bytes | None) -> tuple[State, list[Any]]:
        if state.over:
            raise IllegalMove("game_over", "The game is over.")
        if action.seat != state.turn:
            raise IllegalMove("not_your_turn", "It is not your turn.")
        rack = state.racks[action.seat]
        if action.what == "draw" and not state.drawn:
            if not state.stock:
                events = [_event("ToyEnded", winner=-1, seed=(seed or b"").hex())]
            else:
                events = [_event("ToyDrew", seat=action.seat, tile=state.stock[0])]
        elif action.what == "discard" and state.drawn and action.tile in rack:
            events = [_event("ToyDiscarded", seat=action.seat, tile=action.tile)]
        elif action.what == "out" and state.drawn and _colour_out(rack):
            events = [_event("ToyEnded", winner=action.seat, seed=(seed or b"").hex())]
        else:
            raise IllegalMove("not_now", f"You cannot {action.what} now.")
        return self.replay_onto(state, events), events

    def parse_action(self, name: str, body: Mapping[str, Any], seat: int) -> Move:
        move = body.get("move")
        if not isinstance(move, dict) or move.get("what") not in ("draw", "discard", "out"):
            raise InvalidInput("move is {'what': draw|discard|out, 'tile': id}")
        tile = move.get("tile", -1)
        if not isinstance(tile, int) or isinstance(tile, bool):
            raise InvalidInput("tile is a tile id")
        return Move(seat, move["what"], tile)

    def turn(self, state: State) -> Turn:
        return (
            Turn((), (), True, state.turn_number)
            if state.over
            else Turn((state.turn,), (state.turn_number,), False, state.turn_number, state.turn)
        )

    def time_out(self, state: State, seed: bytes) -> tuple[State, list[Any]]:
        events: list[Any] = []
        if not state.drawn:
            state, events = self.apply(state, Move(state.turn, "draw"), seed)
        if not state.over:
            drawn = events[-1]["tile"] if events else max(state.racks[state.turn])
            state, more = self.apply(state, Move(state.turn, "discard", drawn), seed)
            events += more
        return state, events

    def bot_action(self, view: Mapping[str, Any], rng: random.Random, strength: str) -> Move:
        seat, rack = view["seat"], view["rack"]
        if not view["drawn"]:
            return Move(seat, "draw")
        if _colour_out(rack):
            return Move(seat, "out")
        counts = {c: sum(t // 10 == c for t in rack) for c in range(3)}
        return Move(seat, "discard", min(rack, key=lambda t: (counts[t // 10], rng.random())))

    def fallback_action(self, state: State, seat: int) -> Move:
        if not state.drawn:
            return Move(seat, "draw")
        return Move(seat, "discard", max(state.racks[seat]))

    def resign(self, seat: int) -> Move:
        raise IllegalMove("no_resign", "The toy has no resignation.")

    def adjudicate(self, state: State, note: str, seed: bytes) -> tuple[State, list[Any]]:
        raise IllegalMove("not_adjudicated", "The toy cannot be ended by an operator.")

    def engine_strength(self, strength: str) -> str:
        return strength

    def view_for(self, state: State, seat: int | None) -> dict[str, Any]:
        mine = seat is not None and 0 <= seat < state.players
        return {
            "seat": seat if mine else None,
            "rack": list(state.racks[seat]) if mine and seat is not None else None,
            "counts": [len(r) for r in state.racks],
            "stock": len(state.stock),
            "pile": list(state.pile[-1:]),
            "turn": state.turn,
            "drawn": state.drawn,
            "winner": state.winner,
            "over": state.over,
            "seed": state.seed,
        }

    def event_for(self, event: dict[str, Any], seat: int | None) -> dict[str, Any]:
        if event["kind"] == "ToyDealt":
            mine = event["racks"][seat] if seat is not None and seat < len(event["racks"]) else None
            return {"kind": "ToyDealt", "rack": mine, "stock": len(event["stock"])}
        if event["kind"] == "ToyDrew" and event["seat"] != seat:
            return {"kind": "ToyDrew", "seat": event["seat"]}
        return dict(event)

    def event_from_dict(self, data: object) -> dict[str, Any]:
        if not isinstance(data, dict) or not str(data.get("kind", "")).startswith("Toy"):
            raise InvalidInput("not a toy event")
        return dict(data)

    def event_to_dict(self, event: dict[str, Any]) -> dict[str, Any]:
        return dict(event)

    def event_kind(self, event: dict[str, Any]) -> str:
        return str(event["kind"])

    def state_to_record(self, state: State) -> dict[str, Any]:
        return asdict(state)

    def state_from_record(self, record: Mapping[str, Any]) -> State:
        data = dict(record)
        for name in ("racks",):
            data[name] = tuple(tuple(r) for r in data[name])
        data["stock"], data["pile"] = tuple(data["stock"]), tuple(data["pile"])
        return State(**data)

    def replay(self, events: Sequence[Any]) -> State:
        first = self.event_from_dict(events[0])
        state = State(first["players"], first["commitment"])
        return self.replay_onto(state, list(events[1:]))

    def replay_onto(self, state: State, events: Sequence[Any]) -> State:
        for event in events:
            state = self.evolve(state, self.event_from_dict(event))
        return state

    def evolve(self, state: State, event: dict[str, Any]) -> State:
        kind = event["kind"]
        if kind == "ToyDealt":
            racks = tuple(tuple(r) for r in event["racks"])
            return replace(state, racks=racks, stock=tuple(event["stock"]))
        if kind == "ToyDrew":
            racks = list(state.racks)
            racks[event["seat"]] = tuple(sorted((*racks[event["seat"]], event["tile"])))
            return replace(state, racks=tuple(racks), stock=state.stock[1:], drawn=True)
        if kind == "ToyDiscarded":
            racks = list(state.racks)
            racks[event["seat"]] = tuple(t for t in racks[event["seat"]] if t != event["tile"])
            nxt = (state.turn + 1) % state.players
            return replace(
                state,
                racks=tuple(racks),
                pile=(*state.pile, event["tile"]),
                turn=nxt,
                turn_number=state.turn_number + 1,
                drawn=False,
            )
        if kind == "ToyEnded":
            return replace(state, over=True, winner=event["winner"], seed=event["seed"])
        return state

    def audit(self, record: object) -> tuple[State, dict[str, Any]]:
        events = record["events"] if isinstance(record, dict) else record
        state = self.replay(events)
        seed = bytes.fromhex(record["seed"]) if isinstance(record, dict) else b""
        matches = hashlib.sha256(seed).hexdigest() == state.commitment
        return state, {
            "commitment": state.commitment,
            "checked": True,
            "commitment_matches": matches,
            "deals_match": matches,
        }

    def results(
        self, payloads: Sequence[Mapping[str, Any]], times: Sequence[float] | None, final: State
    ) -> list[dict[str, Any]]:
        def count(kind: str, s: int) -> int:
            return sum(p.get("kind") == kind and p.get("seat") == s for p in payloads)

        return [
            {
                "seat": s,
                "place": 1 if s == final.winner or final.winner < 0 else 2,
                "total": int(s == final.winner),
                "went_out": s == final.winner,
                "tiles_left": len(final.racks[s]),
                "resigned": False,
                "turns": count("ToyDiscarded", s),
                "average_turn_seconds": None,
                "details": {"draws": count("ToyDrew", s)},
            }
            for s in range(final.players)
        ]

    def activity(self, payload: Mapping[str, Any]) -> tuple[int, str] | None:
        return (payload["seat"], "moved") if payload.get("kind") == "ToyDiscarded" else None

    def own_moves(self, payloads: Sequence[Mapping[str, Any]]) -> list[int | None]:
        # The toy's clock draws and discards the tile drawn, as a player may: a discard of
        # another tile is the seat's own.
        found: list[int | None] = []
        drawn: dict[int, Any] = {}
        for p in payloads:
            if p.get("kind") == "ToyDrew":
                drawn[p["seat"]] = p.get("tile")
                found.append(None)
            elif p.get("kind") == "ToyDiscarded":
                found.append(p["seat"] if drawn.pop(p["seat"], None) != p.get("tile") else None)
            else:
                found.append(None)
        return found

    def describe(self, payload: Mapping[str, Any], names: Sequence[str]) -> str:
        who = names[payload["seat"]] if "seat" in payload else ""
        return {
            "ToyDrew": f"{who} drew",
            "ToyDiscarded": f"{who} discarded",
            "ToyEnded": "Game over",
        }.get(str(payload["kind"]), str(payload["kind"]))

    def replay_step(self, state: State, show_racks: bool) -> dict[str, Any]:
        return {
            "table": [[CODES[t] for t in state.pile[-1:]]] if state.pile else [],
            "racks": [
                {"count": len(r), "tiles": [CODES[t] for t in r] if show_racks else []}
                for r in state.racks
            ],
            "pool": len(state.stock),
            "totals": [int(s == state.winner) for s in range(state.players)],
        }

    def tile_codes(self, setup: Setup) -> list[str]:
        return list(CODES)

    def round_scores(self, state: State) -> list[list[int]]:
        return []

    def round_end(self, event: Any) -> dict[str, Any] | None:
        return None

    def players_of(self, state: State) -> int:
        return state.players

    def commitment(self, state: State) -> str:
        return state.commitment


TOY = Toy()
