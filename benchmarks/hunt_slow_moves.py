"""Hunt for bot moves that take long: play seeded bot games and capture every slow position.

The solver benchmark's random positions never take a second, yet live games have seen a single
strong or master move take ninety. This plays seeded games between bots, every strength pairing,
2 to 6 seats, every tile set and opening the site offers (``games/modes.py``), and times each
bot's ``choose_action`` in CPU seconds (``time.process_time``). A move over ``--threshold``
(1 s) is saved as JSON in ``--out`` with everything needed to re-run it standalone: the seat's
view (table, rack, rules, who has opened), the rng seed the site would use, the game's seed and
turn, and every solver call the move made with its own CPU seconds.

Watchdogs, so one runaway move cannot eat a session: before each move and before each solver
call the position is written to ``<out>/.current-<game>.json``; a move over ``--move-cap`` CPU
seconds is stopped by a CPU-time signal (``ITIMER_PROF``) and saved as ``capped`` (that game
ends there); each game runs in its own subprocess, and one over ``--game-cap`` wall seconds is
killed and its ``.current`` file saved as ``killed``.

Usage (one process at a time, low priority; waits while ``/tmp/rummi-live-bench.lock`` exists)::

    nice -n 19 python -m benchmarks.hunt_slow_moves hunt --minutes 60
    python -m benchmarks.hunt_slow_moves replay /work/slow-positions/<file>.json [--call N]
    python -m benchmarks.hunt_slow_moves show /work/slow-positions/<file>.json

``replay`` re-runs the move (``choose_action`` with the same view and rng) or, with ``--call N``,
only the move's N-th solver call (``--call slowest`` for its slowest), printing CPU seconds.
"""

from __future__ import annotations

import argparse
import json
import random
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from types import FrameType
from typing import Any

from games.engine import bots
from games.engine.bots import choose_action
from games.engine.projection import view_for
from games.engine.rules import Rules, rules_named
from games.engine.scoring import MatchFormat
from games.engine.solver import solve_ids
from games.engine.state import Draw, GameConfig, Pass, PlayTurn, apply, new_game
from games.engine.tiles import Tile

OUT = Path("/work/slow-positions")
LOCK = Path("/tmp/rummi-live-bench.lock")
MAX_TURNS = 600
BENCH_TURNS = 400
THRESHOLD = 1.0  # CPU seconds: a move over this is saved
MOVE_CAP = 60.0  # CPU seconds: a move over this is stopped and saved as capped
GAME_CAP = 1800.0  # wall seconds: a game over this is killed, its current position saved

Melds = tuple[tuple[int, ...], ...]


@dataclass(frozen=True)
class Setting:
    """One kind of game: a rule set as the site builds it and the bot in each seat."""

    name: str
    tiles: str  # classic, large, rush
    strengths: tuple[str, ...]
    opening: int | None = None  # Sandbox's custom opening; None keeps the set's own
    penalty: int | None = None  # LAN rules: 1
    seed_base: int = 0  # added to every game's seed
    bench: bool = False  # bench_bots' games: one rng per seat all game, 400 turns at most

    def rules(self) -> Rules:
        rules = rules_named(self.tiles)
        if self.opening is not None:
            rules = rules.with_opening(self.opening)
        if self.penalty is not None:
            rules = rules.with_penalty(self.penalty)
        return rules


def settings() -> list[Setting]:
    """Every pairing and seat count the site offers, solver bots first (they are the slow ones).

    Parlor/Blitz/LAN: classic for 2-4 seats, large for 5-6. Rummy Rush: rush, 2 seats. Sandbox:
    any set for any seats it fits (rush up to 5) and any opening 0-60. The LAN rules differ only
    in the timeout penalty, which bots never incur, so they play like Parlor.
    """
    pairs = [
        ("beginner", "casual"),
        ("casual", "strong"),
        ("strong", "master"),
        ("strong", "strong"),
        ("master", "master"),
    ]
    # bench_bots' own games (its seeds and seats), where moves of 90 s were first seen.
    out = [
        Setting(
            f"bench-{'-'.join(seats)}", "classic", seats, seed_base=10_000 * (n + 1), bench=True
        )
        for n, (a, b) in enumerate(pairs[:3])
        for seats in ((a, b), (b, a))
    ]
    out += [Setting(f"classic-2-{a}-{b}", "classic", (a, b)) for a, b in pairs]
    out += [
        Setting("classic-3-casual-strong-master", "classic", ("casual", "strong", "master")),
        Setting("classic-3-master", "classic", ("master",) * 3),
        Setting("classic-4-strong-master", "classic", ("strong", "master") * 2),
        Setting("classic-4-beginner-casual-strong-master", "classic", bots.BOT_STRENGTHS),
        Setting(
            "large-5-strong-master", "large", ("strong", "master", "strong", "master", "casual")
        ),
        Setting("large-5-master", "large", ("master",) * 5),
        Setting("large-6-strong", "large", ("strong",) * 6),
        Setting(
            "large-6-mixed", "large", ("beginner", "casual", "strong", "master") + ("master",) * 2
        ),
        Setting("large-2-strong-master", "large", ("strong", "master")),  # Sandbox
        Setting("large-3-master", "large", ("master",) * 3),  # Sandbox
        Setting("rush-2-casual-strong", "rush", ("casual", "strong")),
        Setting("rush-2-strong-master", "rush", ("strong", "master")),
        Setting("rush-2-master-master", "rush", ("master", "master")),
        Setting("rush-4-strong-master", "rush", ("strong", "master") * 2),  # Sandbox
        Setting("rush-5-master", "rush", ("master",) * 5),  # Sandbox
        Setting("classic-2-open60-strong-master", "classic", ("strong", "master"), opening=60),
        Setting("classic-2-open0-strong-master", "classic", ("strong", "master"), opening=0),
        Setting("large-6-open60-master", "large", ("master", "strong") * 3, opening=60),
        Setting("classic-2-lan-strong-master", "classic", ("strong", "master"), penalty=1),
    ]
    return out


# ---------------------------------------------------------------------------------------------
# Describing a position


def describe(view: dict[str, Any]) -> dict[str, Any]:
    """What makes a position big: table size, jokers, rack size, set, opening mode."""
    rules = Rules.from_dict(view["rules"])
    kinds = rules.tile_set.tiles
    table = view["table"]
    rack = view["rack"]
    return {
        "tiles": rules.name,
        "opening": rules.opening,
        "opened": bool(view["initial_meld_done"][view["seat"]]),
        "table_melds": len(table),
        "table_tiles": sum(len(m) for m in table),
        "table_jokers": sum(kinds[i].is_joker for m in table for i in m),
        "melds_with_jokers": sum(any(kinds[i].is_joker for i in m) for m in table),
        "longest_meld": max((len(m) for m in table), default=0),
        "rack_tiles": len(rack),
        "rack_jokers": sum(kinds[i].is_joker for i in rack),
        "pool": view["pool"],
        "rack_counts": view["rack_counts"],
        "players": view["players"],
    }


def codes(kinds: Sequence[Tile], ids: Sequence[int]) -> str:
    return " ".join(str(kinds[i]) for i in ids)


# ---------------------------------------------------------------------------------------------
# Timing the solver calls a move makes


class _Capped(BaseException):
    """The move ran over its CPU cap (a BaseException: nothing in the engine catches it)."""


class Recorder:
    """Wraps ``bots.solve_ids``: writes each call before it runs and times it in CPU seconds."""

    def __init__(self, current: Path | None) -> None:
        self.current = current
        self.calls: list[dict[str, Any]] = []
        self.move: dict[str, Any] = {}

    def start_move(self, move: dict[str, Any]) -> None:
        self.move = move
        self.calls = []
        self._write(None)

    def _write(self, running: dict[str, Any] | None) -> None:
        if self.current is None:
            return
        record = dict(self.move, solver_calls=self.calls, running_call=running)
        tmp = self.current.with_suffix(".tmp")
        tmp.write_text(json.dumps(record))
        tmp.replace(self.current)

    def __call__(
        self,
        rules: Rules,
        kinds: Sequence[Tile],
        table: Sequence[Sequence[int]],
        rack: Sequence[int],
        initial_meld_done: bool,
        *,
        prefer: Any = "tiles",
        budget: int | None = None,
    ) -> Melds | None:
        call = {
            "table": [list(m) for m in table],
            "rack": list(rack),
            "initial_meld_done": initial_meld_done,
            "prefer": prefer,
            "budget": budget,
            "table_tiles": sum(len(m) for m in table),
            "table_jokers": sum(kinds[i].is_joker for m in table for i in m),
            "rack_tiles": len(rack),
        }
        self._write(call)
        started = time.process_time()
        try:
            return solve_ids(
                rules, kinds, table, rack, initial_meld_done, prefer=prefer, budget=budget
            )
        finally:
            call["cpu_seconds"] = round(time.process_time() - started, 4)
            self.calls.append(call)


@dataclass
class MoveStats:
    moves: int = 0
    cpu: float = 0.0
    most: float = 0.0
    slow: int = 0
    solver_calls: int = 0
    most_calls: int = 0

    def add(self, cpu: float, calls: int, threshold: float) -> None:
        self.moves += 1
        self.cpu += cpu
        self.most = max(self.most, cpu)
        self.slow += cpu > threshold
        self.solver_calls += calls
        self.most_calls = max(self.most_calls, calls)


def _on_cap(signum: int, frame: FrameType | None) -> None:
    raise _Capped


def play_game(
    setting: Setting, seed: int, out: Path, threshold: float, move_cap: float
) -> dict[str, Any]:
    """One single-round game; every move over ``threshold`` CPU seconds is saved in ``out``."""
    game_id = f"{setting.name}-s{seed}"
    recorder = Recorder(out / f".current-{game_id}.json")
    bots.solve_ids = recorder  # type: ignore[attr-defined]  # bots call it by this name
    signal.signal(signal.SIGPROF, _on_cap)
    secret = seed.to_bytes(8, "big") * 4
    players = len(setting.strengths)
    state, _ = new_game(GameConfig(setting.rules(), players, MatchFormat("single")), secret)
    stats: dict[str, MoveStats] = {name: MoveStats() for name in setting.strengths}
    saved: list[str] = []
    turns = 0
    ended = "finished"
    bench_rngs = [random.Random(f"{seed}-{s}") for s in range(players)]
    while not state.finished and turns < (BENCH_TURNS if setting.bench else MAX_TURNS):
        seat = state.turn
        strength = setting.strengths[seat]
        view = view_for(state, seat)
        rng_seed = f"{seed}:{state.turn_number}"  # what games.services seeds a bot turn with
        rng = bench_rngs[seat] if setting.bench else random.Random(rng_seed)
        move = {
            "game": game_id,
            "setting": asdict(setting),
            "seed": seed,
            "turn_number": state.turn_number,
            "seat": seat,
            "strength": strength,
            "rng_seed": rng_seed,
            "summary": describe(view),
            "view": view,
            "started_at": time.time(),
        }
        if setting.bench:
            move["rng_state"] = rng.getstate()
        recorder.start_move(move)
        started, wall = time.process_time(), time.perf_counter()
        signal.setitimer(signal.ITIMER_PROF, move_cap)
        try:
            action = choose_action(view, rng, strength)
        except _Capped:
            signal.setitimer(signal.ITIMER_PROF, 0)
            cpu = time.process_time() - started
            saved.append(save(out, move, "capped", cpu, time.perf_counter() - wall, recorder))
            stats[strength].add(cpu, len(recorder.calls), threshold)
            ended = "capped"
            break
        signal.setitimer(signal.ITIMER_PROF, 0)
        cpu = time.process_time() - started
        stats[strength].add(cpu, len(recorder.calls), threshold)
        if cpu > threshold:
            move["action"] = _action(action)
            saved.append(save(out, move, "slow", cpu, time.perf_counter() - wall, recorder))
        state, _ = apply(state, action, secret)
        turns += 1
    if not state.finished and ended == "finished":
        ended = "turn limit"
    if recorder.current is not None:
        recorder.current.unlink(missing_ok=True)
    return {
        "game": game_id,
        "setting": setting.name,
        "seed": seed,
        "turns": turns,
        "ended": ended,
        "saved": saved,
        "stats": {name: asdict(s) for name, s in stats.items()},
    }


def _action(action: PlayTurn | Draw | Pass) -> dict[str, Any]:
    if isinstance(action, PlayTurn):
        return {"play": [list(m) for m in action.table]}
    return {"draw" if isinstance(action, Draw) else "pass": True}


def save(
    out: Path, move: dict[str, Any], kind: str, cpu: float, wall: float, recorder: Recorder
) -> str:
    record = dict(
        move,
        kind=kind,
        cpu_seconds=round(cpu, 3),
        wall_seconds=round(wall, 3),
        solver_calls=recorder.calls,
    )
    return _write_new(
        out, f"{kind}-{move['game']}-t{move['turn_number']}-{move['strength']}", record
    )


def _write_new(out: Path, stem: str, record: dict[str, Any]) -> str:
    """Write ``record`` as ``stem.json`` in ``out``, never over another capture."""
    name, n = f"{stem}.json", 1
    while (out / name).exists():
        n += 1
        name = f"{stem}-{n}.json"
    (out / name).write_text(json.dumps(record, indent=1) + "\n")
    return name


# ---------------------------------------------------------------------------------------------
# The hunt: games in subprocesses, round robin over the settings


def wait_for_lock() -> None:
    while LOCK.exists():
        time.sleep(10)


def games(first_seed: int, only: Sequence[str], most: int) -> Iterator[tuple[Setting, int]]:
    """Round robin over the settings chosen, ``most`` games each."""
    chosen = [s for s in settings() if not only or any(o in s.name for o in only)]
    for n in range(most):
        for setting in chosen:
            yield setting, setting.seed_base + first_seed + n


def hunt(args: argparse.Namespace) -> None:
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    log = out / "hunt-log.jsonl"
    deadline = time.time() + 60 * args.minutes
    for setting, seed in games(args.first_seed, args.only, args.games):
        if time.time() >= deadline:
            break
        wait_for_lock()
        job = {"setting": asdict(setting), "seed": seed}
        command = [
            sys.executable,
            "-m",
            "benchmarks.hunt_slow_moves",
            "game",
            json.dumps(job),
            "--out",
            str(out),
            "--threshold",
            str(args.threshold),
            "--move-cap",
            str(args.move_cap),
        ]
        started = time.perf_counter()
        try:
            done = subprocess.run(
                command, capture_output=True, text=True, timeout=args.game_cap, check=False
            )
            lines = done.stdout.strip().splitlines()
            result = json.loads(lines[-1]) if done.returncode == 0 and lines else None
            if result is None:
                result = {"game": f"{setting.name}-s{seed}", "ended": "error"}
                result["stderr"] = done.stderr[-2000:]
        except subprocess.TimeoutExpired:
            result = {"game": f"{setting.name}-s{seed}", "ended": "killed"}
            result["saved"] = [killed(out, result["game"], args.game_cap)]
        result["wall_seconds"] = round(time.perf_counter() - started, 1)
        with log.open("a") as handle:
            handle.write(json.dumps(result) + "\n")
        slow = result.get("saved") or []
        print(
            f"{result['game']:<48} {result.get('ended', ''):<10}"
            f" turns {result.get('turns', '-')!s:>4}"
            f" {result['wall_seconds']:>7}s slow {len(slow)}",
            flush=True,
        )


def killed(out: Path, game_id: str, cap: float) -> str:
    """Save the position a killed game was solving (its ``.current`` file)."""
    current = out / f".current-{game_id}.json"
    if not current.exists():
        return ""
    move = json.loads(current.read_text())
    current.unlink()
    running = round(time.time() - move.pop("started_at", time.time()), 1)
    move.update(kind="killed", cpu_seconds=None, wall_seconds=running, game_cap=cap)
    return _write_new(out, f"killed-{game_id}-t{move['turn_number']}-{move['strength']}", move)


def game(args: argparse.Namespace) -> None:
    job = json.loads(args.job)
    setting = Setting(**{**job["setting"], "strengths": tuple(job["setting"]["strengths"])})
    result = play_game(setting, int(job["seed"]), Path(args.out), args.threshold, args.move_cap)
    print(json.dumps(result))


# ---------------------------------------------------------------------------------------------
# Replaying a captured position


def load(path: str) -> dict[str, Any]:
    record: dict[str, Any] = json.loads(Path(path).read_text())
    return record


def replay_call(record: dict[str, Any], which: str) -> tuple[float, Melds | None, dict[str, Any]]:
    """Re-run one solver call of a captured move (``slowest``, ``running`` or an index)."""
    calls = record.get("solver_calls") or []
    if which == "running":
        call = record["running_call"]
    elif which == "slowest":
        call = max(calls, key=lambda c: c.get("cpu_seconds", 0))
    else:
        call = calls[int(which)]
    rules = Rules.from_dict(record["view"]["rules"])
    started = time.process_time()
    found = solve_ids(
        rules,
        rules.tile_set.tiles,
        call["table"],
        call["rack"],
        call["initial_meld_done"],
        prefer=call["prefer"],
        budget=call.get("budget"),
    )
    return time.process_time() - started, found, call


def replay_move(record: dict[str, Any]) -> tuple[float, PlayTurn | Draw | Pass]:
    """Re-run the whole move: ``choose_action`` with the same view, rng and strength."""
    started = time.process_time()
    rng = random.Random(record["rng_seed"])
    if "rng_state" in record:  # a bench game's rng, mid-game
        version, internal, gauss = record["rng_state"]
        rng.setstate((version, tuple(internal), gauss))
    action = choose_action(record["view"], rng, record["strength"])
    return time.process_time() - started, action


def replay(args: argparse.Namespace) -> None:
    for path in args.files:
        record = load(path)
        if args.call is not None:
            cpu, found, call = replay_call(record, args.call)
            played = len(call["rack"]) - _left(call, found)
            print(
                f"{Path(path).name}: solver call {args.call} ({call['table_tiles']} table tiles,"
                f" {call['table_jokers']} table jokers, rack {call['rack_tiles']},"
                f" opened {call['initial_meld_done']}, prefer {call['prefer']}):"
                f" {cpu:.2f} CPU s, plays {played}"
                f" (captured {call.get('cpu_seconds', '?')} s)"
            )
        else:
            cpu, action = replay_move(record)
            print(
                f"{Path(path).name}: {record['strength']} move {cpu:.2f} CPU s"
                f" (captured {record.get('cpu_seconds')} s): {type(action).__name__}"
            )


def _left(call: dict[str, Any], found: Melds | None) -> int:
    if found is None:
        return len(call["rack"])
    placed = {i for m in found for i in m}
    return sum(i not in placed for i in call["rack"])


def show(args: argparse.Namespace) -> None:
    for path in args.files:
        record = load(path)
        view = record["view"]
        kinds = Rules.from_dict(view["rules"]).tile_set.tiles
        print(f"== {Path(path).name}: {record['kind']} {record.get('cpu_seconds')} CPU s")
        print(json.dumps(record["summary"]))
        for meld in view["table"]:
            print("  table:", codes(kinds, meld))
        print("  rack: ", codes(kinds, view["rack"]))
        for n, call in enumerate(record.get("solver_calls") or []):
            print(
                f"  call {n}: {call.get('cpu_seconds')} s table {call['table_tiles']}"
                f" jokers {call['table_jokers']} rack {call['rack_tiles']}"
                f" opened {call['initial_meld_done']} prefer {call['prefer']}"
            )
        if record.get("running_call"):
            call = record["running_call"]
            print(f"  running when killed: table {call['table_tiles']} rack {call['rack_tiles']}")


def report(args: argparse.Namespace) -> None:
    """Per setting and strength: games, moves, mean and most CPU seconds a move, slow moves."""
    rows: dict[tuple[str, str], MoveStats] = {}
    played: dict[str, list[int]] = {}
    for line in Path(args.log).read_text().splitlines():
        result = json.loads(line)
        setting = result.get("setting") or result["game"].rsplit("-s", 1)[0]
        counts = played.setdefault(setting, [0, 0])
        counts[0] += 1
        counts[1] += result.get("ended") not in ("finished", "turn limit")
        for strength, stats in (result.get("stats") or {}).items():
            row = rows.setdefault((setting, strength), MoveStats())
            row.moves += stats["moves"]
            row.cpu += stats["cpu"]
            row.most = max(row.most, stats["most"])
            row.slow += stats["slow"]
            row.solver_calls += stats["solver_calls"]
            row.most_calls = max(row.most_calls, stats["most_calls"])
    print(
        f"{'setting':<34}{'games':>6}{'cut':>4} {'strength':<9}{'moves':>7}{'mean s':>8}"
        f"{'max s':>7}{'>1 s':>5}{'calls/move':>11}{'max calls':>10}"
    )
    for (setting, strength), row in sorted(rows.items()):
        games, cut = played[setting]
        print(
            f"{setting:<34}{games:>6}{cut:>4} {strength:<9}{row.moves:>7}"
            f"{row.cpu / max(1, row.moves):>8.3f}{row.most:>7.2f}{row.slow:>5}"
            f"{row.solver_calls / max(1, row.moves):>11.1f}{row.most_calls:>10}"
        )


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.hunt_slow_moves")
    sub = parser.add_subparsers(dest="command", required=True)
    commands: dict[str, Callable[[argparse.Namespace], None]] = {
        "hunt": hunt,
        "game": game,
        "replay": replay,
        "show": show,
        "report": report,
    }
    for name in ("hunt", "game"):
        p = sub.add_parser(name)
        if name == "game":
            p.add_argument("job")
        else:
            p.add_argument("--minutes", type=float, default=60)
            p.add_argument("--first-seed", type=int, default=0)
            p.add_argument("--games", type=int, default=1_000_000, help="per setting, at most")
            p.add_argument("--game-cap", type=float, default=GAME_CAP)
            p.add_argument("--only", nargs="*", default=[], help="settings whose name has this")
        p.add_argument("--out", default=str(OUT))
        p.add_argument("--threshold", type=float, default=THRESHOLD)
        p.add_argument("--move-cap", type=float, default=MOVE_CAP)
    for name in ("replay", "show"):
        p = sub.add_parser(name)
        p.add_argument("files", nargs="+")
        if name == "replay":
            p.add_argument("--call", help="only this solver call: an index, slowest or running")
    p = sub.add_parser("report")
    p.add_argument("log", nargs="?", default=str(OUT / "hunt-log.jsonl"))
    args = parser.parse_args(argv)
    commands[args.command](args)


if __name__ == "__main__":
    main()
