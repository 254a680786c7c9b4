"""Tonight's standings: a tally of the evening across games, read from the engine's public events.

Why a separate, pure tally: a party plays many games in an evening and each ``Game`` forgets
the last one. The session feeds every batch of events it applies to ``Standings.record``; the
tally keeps only public facts (who won, who lost a life, who showed a King, the revealed cards
the whole table saw), so showing it to anyone can never leak a hidden card. It is saved with
the session (``to_dict``/``from_dict``) and survives ``new_game``, a kill -9 and a restart.

Predictions ("who will lose a life this round?") live here too: they are scored from the same
public events and feed the "best guesser" title. They are never game actions and never change
the game's ``step``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, fields
from typing import Any, cast

from host.names import reading_key
from host.rules.cards import RANKS
from host.rules.contract import LastGame, LastWinner, StandingsRow
from host.rules.events import Event, EventKind

#: Fun titles, in the order they are awarded; each goes to the single best at its figure.
TITLES: tuple[str, ...] = (
    "most_cuckoos",
    "closest_escape",
    "king_cutter",
    "best_guesser",
    "survivor",
)


@dataclass
class Line:
    """One guest's figures for the evening (a computer player's too, marked ``bot``)."""

    player: str
    name: str
    bot: bool = False
    games: int = 0
    """Games played to the end (dealt into their first round)."""
    wins: int = 0
    """Games won; a joint win counts for each joint winner."""
    shared_wins: int = 0
    """Of ``wins``, those shared with another joint winner (R14): the standings say so (round
    44's play-test: two guests each had "1 win" from the same game, and nothing told why)."""
    rounds: int = 0
    """Rounds dealt in."""
    survived: int = 0
    """Rounds dealt in without losing a life."""
    lives_lost: int = 0
    cuckoos: int = 0
    """Kings shown to block an exchange ("Cuckoo!" calls)."""
    king_cuts: int = 0
    """Cuts (as dealer) that found a King."""
    close_escapes: int = 0
    """Reveals survived holding a card one rank above the lowest."""
    guesses: int = 0
    """Predictions scored."""
    good_guesses: int = 0
    """Predictions that named someone who did lose a life."""

    def sort_key(self) -> tuple[int, int, int, int, str]:
        """Best first: wins, then rounds survived, then fewer lives lost, then good guesses,
        then name (which orders a tie, and does not break it: both get the same ``rank``)."""
        return (
            -self.wins,
            -self.survived,
            self.lives_lost,
            -self.good_guesses,
            self.name.casefold(),
        )


@dataclass
class Standings:
    """The evening's tally; ``record`` is called with every batch of applied events."""

    lines: dict[str, Line] = field(default_factory=dict)
    names: dict[str, tuple[str, bool]] = field(default_factory=dict)
    """Every seated player's name and bot flag (from ``player_joined``)."""
    lives: dict[str, int] = field(default_factory=dict)
    """Lives held now by players in the current game (to count H4's double losses)."""
    playing: list[str] = field(default_factory=list)
    """Who was dealt into the current game (they get a game played at its end)."""
    predictions: dict[str, str] = field(default_factory=dict)
    """This round's predictions: predictor id -> the player they think will lose a life."""
    last_winners: list[str] = field(default_factory=list)
    """Who won the last game played to its end (R14: every joint winner), until the next game
    starts: the next game's lobby tells it to a guest whose phone slept through the end (round
    42). A new evening keeps it: it is still the last game's."""
    ended: int = 0
    """Games ended at a game over since the party began, walkovers too (round 47): the next
    game's ``last_game.number``, by which a phone that was away across an end knows it missed
    one. A new evening keeps counting: only a phone compares two of them."""
    last_end: list[str] = field(default_factory=list)
    """The last game over's ``winners`` (a walkover's last one at the table), kept into the
    next game, unlike ``last_winners``: a phone offline across the end and back only in the
    next game was told nothing, even when its guest won (round 47's play-test)."""
    last_walkover: bool = False
    """Whether that game over was a walkover (nobody won it)."""
    _cache: list[StandingsRow] | None = field(default=None, repr=False, compare=False)

    # ------------------------------------------------------------------ reading

    def table(self) -> list[StandingsRow]:
        """The standings for a view: a list, best first, with each line's titles."""
        if self._cache is None:
            ranked = sorted(self.lines.values(), key=Line.sort_key)
            titles = self.titles()
            figures = [line.sort_key()[:-1] for line in ranked]  # the order without the name
            places: list[int] = []  # equal on every figure, equal place (round 43's play-test)
            for index, key in enumerate(figures):
                tied = index > 0 and key == figures[index - 1]
                places.append(places[-1] if tied else index + 1)
            self._cache = [
                cast(
                    StandingsRow,
                    {
                        **vars(line),  # plain str/bool/int fields: no deep copy needed
                        "rank": place,
                        "titles": [t for t in TITLES if titles.get(t) == line.player],
                    },
                )
                for place, line in zip(places, ranked, strict=True)
            ]
        return [{**row, "titles": list(row["titles"])} for row in self._cache]

    def titles(self) -> dict[str, str]:
        """Each fun title and who holds it: the only one best at its figure (ties: nobody)."""
        figures = {
            "most_cuckoos": "cuckoos",
            "closest_escape": "close_escapes",
            "king_cutter": "king_cuts",
            "best_guesser": "good_guesses",
            "survivor": "survived",
        }
        held: dict[str, str] = {}
        for title, name in figures.items():
            scores = [(getattr(line, name), line.player) for line in self.lines.values()]
            best = max((s for s, _ in scores), default=0)
            top = [pid for s, pid in scores if s == best]
            if best > 0 and len(top) == 1:
                held[title] = top[0]
        return held

    def last_game_winners(self) -> list[LastWinner]:
        """The last game's winners, with their names (public since that game ended)."""
        return self._named(self.last_winners)

    def last_game(self) -> LastGame:
        """The last game over for the next game's phones: its number and its end, public."""
        return {
            "number": self.ended,
            "winners": self._named(self.last_end),
            "walkover": self.last_walkover,
        }

    def _named(self, players: list[str]) -> list[LastWinner]:
        """``players`` with the names they had (they may have left the table since)."""
        return [{"player": pid, "name": self.names.get(pid, (pid, False))[0]} for pid in players]

    # ------------------------------------------------------------------ writing

    def reset(self) -> None:
        """A new evening: every figure back to nothing (seated names are kept)."""
        self.lines, self.lives, self.playing, self.predictions = {}, {}, [], {}
        self._cache = None

    def predict(self, player: str, target: str) -> None:
        """Note ``player``'s guess for this round (the session checks who may and when)."""
        self.predictions[player] = target

    def record(self, events: Iterable[Event], starting_lives: int) -> None:
        """Fold one batch of engine events into the tally (private events are ignored)."""
        for event in events:
            if event.audience is None:
                self._one(event.kind, event.data, starting_lives)

    def _line(self, player: str) -> Line:
        """``player``'s line, to change: every figure changes through here, so the ranked
        table is built again only after a change to it (issue 18: most events — a keep, an
        exchange — change no figure, and ranking every tap cost a quarter of a millisecond)."""
        self._cache = None
        line = self.lines.get(player)
        if line is None:
            name, bot = self.names.get(player, (player, False))
            line = self.lines[player] = Line(player, name, bot)
        return line

    def _one(self, kind: EventKind, data: Mapping[str, Any], starting_lives: int) -> None:
        if kind is EventKind.PLAYER_JOINED:
            self.names[data["player"]] = (str(data["name"]), bool(data.get("bot", False)))
            if not data.get("bot", False):
                self._welcome_back(data["player"], str(data["name"]))
        elif kind is EventKind.GAME_STARTED:
            self.playing, self.lives, self.last_winners = [], {}, []
        elif kind is EventKind.ROUND_DEALT:
            self.predictions = {}
            for pid in data["order"]:
                if pid not in self.lives:
                    self.lives[pid] = starting_lives
                    self.playing.append(pid)
                self._line(pid).rounds += 1
        elif kind is EventKind.BLOCKED:
            self._line(data["target"]).cuckoos += 1
        elif kind is EventKind.CUT_KING:
            self._line(data["dealer"]).king_cuts += 1
        elif kind is EventKind.REVEAL:
            self._reveal(data)
        elif kind is EventKind.LIFE_LOST:
            pid = data["player"]
            before = self.lives.get(pid, starting_lives)
            self._line(pid).lives_lost += max(0, before - int(data["lives"]))
            self.lives[pid] = int(data["lives"])
        elif kind is EventKind.GAME_OVER:
            self.ended += 1
            self.last_end = [str(pid) for pid in data["winners"]]
            self.last_walkover = bool(data.get("walkover", False))
            if not data.get("walkover", False):
                self._game_won(data["winners"])
            self.playing, self.lives, self.predictions = [], {}, {}
        elif kind is EventKind.PLAYER_REMOVED:
            self.predictions.pop(data["player"], None)

    def _game_won(self, winners: Iterable[str]) -> None:
        """A game played to its end: a game for each player dealt in, a win for each winner.

        Not called for a walkover (round 46): the others went home and the VIP cleared their
        seats, and nobody won anything, so its end changes no line and names no winner in
        the next lobby. Its rounds were played and stay counted, as they were at each reveal.
        """
        for pid in self.playing:
            self._line(pid).games += 1
        names = [str(pid) for pid in winners]
        joint = len(names) > 1
        for pid in names:
            self._line(pid).wins += 1
            self._line(pid).shared_wins += int(joint)
        self.last_winners = names

    def _welcome_back(self, player: str, name: str) -> None:
        """A guest removed tonight who sits down again under their name takes their line
        back: their new seat has a new id, and round 41's play-test saw four guests listed
        twice ("Games 1" and "Games 0"). A line whose name reads the same can only be a
        guest who left: seated names never read alike (``names.looks_like``)."""
        if player in self.lines:
            return
        key = reading_key(name)
        old = next(
            (
                pid
                for pid, line in self.lines.items()
                if not line.bot and reading_key(line.name) == key
            ),
            None,
        )
        if old is None:
            return
        self._cache = None
        line = self.lines.pop(old)
        line.player, line.name = player, name
        self.lines[player] = line
        self.playing = [player if pid == old else pid for pid in self.playing]
        if old in self.lives:
            self.lives[player] = self.lives.pop(old)
        if old in self.predictions:
            self.predictions[player] = self.predictions.pop(old)
        self.last_winners = [player if pid == old else pid for pid in self.last_winners]
        self.last_end = [player if pid == old else pid for pid in self.last_end]

    def _reveal(self, data: Mapping[str, Any]) -> None:
        """Rounds survived, close escapes, and this round's predictions scored."""
        losers = set(data["losers"])
        lowest = RANKS.index(str(data["lowest"]))
        for pid, code in data["cards"].items():
            if pid in losers:
                continue
            line = self._line(pid)
            line.survived += 1
            if RANKS.index(str(code)[:-1]) == lowest + 1:
                line.close_escapes += 1
        for predictor, target in self.predictions.items():
            line = self._line(predictor)
            line.guesses += 1
            line.good_guesses += target in losers
        self.predictions = {}

    # -------------------------------------------------------------- persistence

    def to_dict(self) -> dict[str, Any]:
        return {
            # Every field is a plain str/bool/int: a copy of the fields, not asdict's slow
            # deep copy (it was three quarters of the save's to_dict, issue 18 item 2).
            "lines": [dict(vars(line)) for line in self.lines.values()],
            "names": {pid: [name, bot] for pid, (name, bot) in self.names.items()},
            "lives": dict(self.lives),
            "playing": list(self.playing),
            "predictions": dict(self.predictions),
            "last_winners": list(self.last_winners),
            "ended": self.ended,
            "last_end": list(self.last_end),
            "last_walkover": self.last_walkover,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any] | None) -> Standings:
        """Rebuild a saved tally (``None``: a save from before standings existed)."""
        if not data:
            return cls()
        known = {f.name for f in fields(Line)}
        lines = [Line(**{k: v for k, v in row.items() if k in known}) for row in data["lines"]]
        for line in lines:  # a damaged save is refused at start, never met mid-party
            for spec in fields(Line):
                wanted = {"player": str, "name": str, "bot": bool}.get(spec.name, int)
                if type(getattr(line, spec.name)) is not wanted:
                    raise ValueError(
                        f"standings: {spec.name} of {line.player!r} is not a {wanted.__name__}"
                    )
        last_winners = _player_ids(data, "last_winners")  # a save from before round 42: none
        # a save from before round 47: no game over counted yet
        ended, last_end = data.get("ended", 0), _player_ids(data, "last_end")
        if type(ended) is not int or ended < 0:
            raise ValueError("standings: ended is not a count")
        return cls(
            lines={line.player: line for line in lines},
            names={str(pid): (str(v[0]), bool(v[1])) for pid, v in data["names"].items()},
            lives={str(pid): int(n) for pid, n in data.get("lives", {}).items()},
            playing=[str(pid) for pid in data.get("playing", [])],
            predictions={str(a): str(b) for a, b in data.get("predictions", {}).items()},
            last_winners=list(last_winners),
            ended=ended,
            last_end=list(last_end),
            last_walkover=bool(data.get("last_walkover", False)),
        )


def _player_ids(data: Mapping[str, Any], key: str) -> list[str]:
    """A saved list of player ids (none in a save from before it was kept)."""
    ids = data.get(key, [])
    if not isinstance(ids, list) or not all(isinstance(pid, str) for pid in ids):
        raise ValueError(f"standings: {key} is not a list of player ids")
    return list(ids)
