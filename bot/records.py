"""Records for `/stats` (issue 25): games played, won and the average rank, per player and per
game, aggregated from finished games' rankings. Store-independent and pure: the caller passes
the finished games (from the store, for one chat or for one player's games anywhere).

A ranking is the games' own: groups of tied players, best first ([["bob"], ["al", "cy"]]).
Places follow competition ranking: tied players share a place and the next group's place
skips as many as were tied (1, 2, 2, 4). A shared first place counts as a win for each.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from engine.core.protocol import Ranking, Translator


@dataclass(frozen=True)
class Finished:
    """One finished game: which game and its final ranking (player keys in the groups)."""

    game_id: str
    ranking: Ranking


@dataclass
class Record:
    played: int = 0
    won: int = 0
    rank_sum: int = 0

    @property
    def average_rank(self) -> float:
        return self.rank_sum / self.played if self.played else 0.0

    def add(self, place: int) -> None:
        self.played += 1
        self.won += place == 1
        self.rank_sum += place


@dataclass
class PlayerStats:
    total: Record = field(default_factory=Record)
    per_game: dict[str, Record] = field(default_factory=dict)


def places(ranking: Ranking) -> dict[str, int]:
    """Player -> place (1 = best), ties sharing a place."""
    out: dict[str, int] = {}
    before = 0
    for group in ranking:
        for player in group:
            out[player] = before + 1
        before += len(group)
    return out


def aggregate(games: Iterable[Finished]) -> dict[str, PlayerStats]:
    """Every player's record over the finished games."""
    stats: dict[str, PlayerStats] = {}
    for game in games:
        for player, place in places(game.ranking).items():
            entry = stats.setdefault(player, PlayerStats())
            entry.total.add(place)
            entry.per_game.setdefault(game.game_id, Record()).add(place)
    return stats


def leaderboard(stats: Mapping[str, PlayerStats]) -> list[tuple[str, PlayerStats]]:
    """Most wins first, then the better average rank, then more games, then the name."""
    return sorted(
        stats.items(),
        key=lambda kv: (-kv[1].total.won, kv[1].total.average_rank, -kv[1].total.played, kv[0]),
    )


def _line(name: str, record: Record, t: Translator) -> str:
    played = t.ngettext("{n} game", "{n} games", record.played).format(n=record.played)
    won = t.ngettext("{n} win", "{n} wins", record.won).format(n=record.won)
    return t.gettext("{name}: {played}, {won}, average rank {rank}").format(
        name=name, played=played, won=won, rank=f"{record.average_rank:.1f}"
    )


def format_stats(
    stats: Mapping[str, PlayerStats],
    t: Translator,
    who: str | None = None,
    names: Mapping[str, str] | None = None,
    game_names: Mapping[str, str] | None = None,
) -> str:
    """The /stats text: the chat's leaderboard, or one player's record per game (`who`).
    `names` maps player keys to display names, `game_names` game ids to names (the games'
    English names, said here in the reader's language)."""
    shown = names or {}
    titles = game_names or {}
    if who is not None:
        entry = stats.get(who)
        if entry is None or entry.total.played == 0:
            return t.gettext("{name} has not finished a game here yet.").format(
                name=shown.get(who, who)
            )
        lines = [_line(shown.get(who, who), entry.total, t)]
        for game_id, record in sorted(entry.per_game.items()):
            title = t.gettext(titles[game_id]) if game_id in titles else game_id
            lines.append("  " + _line(title, record, t))
        return "\n".join(lines)
    if not stats:
        return t.gettext("No finished games yet.")
    return "\n".join(_line(shown.get(p, p), s.total, t) for p, s in leaderboard(stats))
