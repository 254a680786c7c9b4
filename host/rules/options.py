"""House rules H1–H8 (RULES.md), all off by default, as one frozen options object."""

from __future__ import annotations

from dataclasses import dataclass, fields, replace

from host.rules.contract import Call

#: Rule id ↔ field name, in rulebook order. CLI and saves accept either spelling.
RULE_FIELDS: dict[str, str] = {
    "H1": "five_lives",
    "H2": "no_blocking",
    "H3": "double_cut",
    "H4": "rapid",
    "H5": "sudden_death",
    "H6": "fixed_dealer",
    "H7": "big_table",
    "H8": "chase_call",
}


#: R1: a game starts with at least 3 players (fewer may remain later through eliminations).
MIN_PLAYERS = 3


class UnknownHouseRule(ValueError):
    """A house-rule name that is neither an id (H1…H8) nor a field name."""


@dataclass(frozen=True, slots=True)
class HouseRules:
    """Which variants are in force for a game. Frozen: a game's rules never change mid-game."""

    five_lives: bool = False
    """H1: every player starts with 5 lives instead of 3."""
    no_blocking: bool = False
    """H2: Kings never block exchanges or cuts."""
    double_cut: bool = False
    """H3: after a first cut the dealer may cut once more."""
    rapid: bool = False
    """H4: a player out of time keeps their card and loses 1 life at the reveal."""
    sudden_death: bool = False
    """H5: a one-card deal decides among players eliminated together, instead of joint winners."""
    fixed_dealer: bool = False
    """H6: the dealer does not rotate (unless eliminated)."""
    big_table: bool = False
    """H7: up to 20 players instead of 10."""
    chase_call: bool = False
    """H8: the host calls "Chase!" instead of "Cuckoo!" when a King blocks."""
    rapid_seconds: int = 10
    """H4's time limit per decision, in seconds."""

    @property
    def starting_lives(self) -> int:
        return 5 if self.five_lives else 3

    @property
    def max_players(self) -> int:
        return 20 if self.big_table else 10

    @property
    def kings_block(self) -> bool:
        return not self.no_blocking

    @property
    def max_cuts(self) -> int:
        return 2 if self.double_cut else 1

    @property
    def call(self) -> Call:
        """The word the host calls when a King blocks: ``cuckoo`` or ``chase`` (H8)."""
        return Call.CHASE if self.chase_call else Call.CUCKOO

    def ids(self) -> list[str]:
        """The ids in force, e.g. ``["H1", "H8"]``."""
        return [rule for rule, name in RULE_FIELDS.items() if getattr(self, name)]

    @classmethod
    def parse(cls, text: str | None, *, rapid_seconds: int = 10) -> HouseRules:
        """Read a comma list such as ``"H1,double_cut"``; empty means the default game."""
        flags: dict[str, bool] = {}
        by_name = {name: name for name in RULE_FIELDS.values()}
        by_name.update({"chase_the_ace": "chase_call", "chase": "chase_call"})
        for raw in (text or "").split(","):
            word = raw.strip()
            if not word:
                continue
            name = RULE_FIELDS.get(word.upper()) or by_name.get(word.lower().replace("-", "_"))
            if name is None:
                known = ", ".join(f"{rule} ({field})" for rule, field in RULE_FIELDS.items())
                raise UnknownHouseRule(f"unknown house rule {word!r}; known: {known}")
            flags[name] = True
        if rapid_seconds < 1:
            raise UnknownHouseRule("the rapid time limit must be at least 1 second")
        return cls(**flags, rapid_seconds=rapid_seconds)

    def to_dict(self) -> dict[str, object]:
        return {f.name: getattr(self, f.name) for f in fields(self)}

    @classmethod
    def from_dict(cls, data: dict[str, object]) -> HouseRules:
        known = {f.name for f in fields(cls)}
        return replace(cls(), **{k: v for k, v in data.items() if k in known})  # type: ignore[arg-type]
