""" "How to play": the host teaches the game by playing the rules' worked example on the TV.

Why a real engine game: the table, the cards and every animation are drawn by the TV's own
``TableScene`` from a real ``Game`` (through ``Rehearsal``, public views only), so what guests
learn is exactly what they will see. The only trick is the deck: ``RiggedDeck`` is the game's
random source and makes the engine's own shuffle deal RULES.md's worked example (A, B, C and
dealer D holding 2♣, 9♥, K♠, 7♦). The tutorial owns its game and its stage; it never touches
the party's session, so the real table is exactly as it was when the tutorial ends or is
skipped (any key).

The worked example ends with the dealer keeping; here the dealer cuts (an 8♠) so the cut is
shown too — the outcome is the same: B's 2♣ is lowest and B loses a life. A short second round
(the deal passes left, R13) shows a card received in a forced swap passed on (R8).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import pygame

from host.names import reading_key
from host.rules import PACK, HouseRules
from host.rules.cards import Card
from host.tv import theme
from host.tv.rehearsal import Rehearsal
from host.tv.scene import Props
from host.tv.stage import Stage
from host.tv.table import TableScene

#: The worked example's players in turn order, the dealer last, each with stand-ins of the same
#: gender (the captions say "he" and "she") for a table where a guest has the name: round 41's
#: play-test heard "Ana swaps with Bruno" with a real Ana at the table. The captions name them
#: ``{a}`` to ``{d}``; the stand-ins of the last two start with a consonant, as French "à
#: Chloé" needs. Proper names.
CAST: tuple[tuple[str, ...], ...] = (
    ("Ana", "Elsa", "Mia", "Rosa"),
    ("Bruno", "Hugo", "Marco", "Tom"),
    ("Chloé", "Nora", "Lina", "Sofia"),
    ("Dario", "Leo", "Paolo", "Sam"),
)
#: Their cards in dealing order (from the dealer's left), then the card the dealer cuts.
DEALT: tuple[str, ...] = ("2C", "9H", "KS", "7D")
CUT: str = "8S"
#: Round 2, dealt by Ana: Bruno, Chloé, Dario, then Ana. Nobody cuts.
DEALT_2: tuple[str, ...] = ("3H", "JD", "6C", "QS")


@dataclass(frozen=True)
class Step:
    """One moment of the lesson: a caption (and its spoken line), a move, how long it lasts.

    ``moves``: (player index, action) pairs played as the step begins. ``hold_before``: the next step begins when the
    stage reaches a beat of this kind, and that beat waits until ``seconds`` have passed.
    """

    name: str
    moves: tuple[tuple[int, str], ...]
    seconds: float
    hold_before: str | None = None


SCRIPT: tuple[Step, ...] = (
    Step("intro", (), 5.0),
    Step("deal", ((0, "start"),), 6.5),
    Step("exchange", ((0, "exchange"),), 7.0),
    Step("forced", (), 6.0),
    Step("block", ((1, "exchange"),), 6.0),
    Step("keep", ((2, "keep"),), 2.5),
    Step("cut", ((3, "cut"),), 6.5, hold_before="reveal"),
    Step("reveal", (), 4.0, hold_before="life_lost"),
    Step("life_lost", (), 5.0),
    Step("deal2", ((0, "deal"),), 4.5),
    Step("pass", ((1, "exchange"),), 5.0),
    Step("pass_on", ((2, "exchange"),), 6.0),
    Step("keep2", ((3, "keep"), (0, "keep")), 4.0, hold_before="life_lost"),
    Step("life_lost2", (), 5.0),
    Step("outro", (), 5.0),
)


#: Seconds into a step when its picture is taken (the telling moment of its animation).
SHOT_AT: dict[str, float] = {"block": 1.0, "cut": 1.2}


class RiggedDeck(random.Random):
    """A random source that makes the engine deal each round's cards (in dealing order) and
    cut ``cut`` in the first round.

    It answers the engine's draws with the fractions that pick the wanted card from the
    engine's own partial shuffle (``Game._deal_round``) and cut (``Game._cut``); the first
    dealer is drawn by lot with ``choice``, answered with ``dealer``. ``Tutorial`` checks the
    dealt cards and refuses to run if the engine ever draws differently.
    """

    def __init__(self, rounds: Sequence[tuple[Sequence[str], str | None]], dealer: str) -> None:
        super().__init__(0)
        draws: list[float] = []
        for dealt, cut in rounds:
            pool, size = list(PACK), len(PACK)
            for code in dealt:
                pick = pool.index(Card.parse(code), 0, size)
                draws.append((pick + 0.5) / size)
                size -= 1
                pool[pick] = pool[size]
            if cut is not None:
                stock = pool[:size]
                draws.append((stock.index(Card.parse(cut)) + 0.5) / len(stock))
        self._draws = draws
        self._dealer = dealer

    def random(self) -> float:
        return self._draws.pop(0) if self._draws else super().random()

    def choice(self, seq: Any) -> Any:
        return next((item for item in seq if item == self._dealer), seq[0])


def lesson_names(guests: Iterable[str] = ()) -> tuple[str, ...]:
    """The lesson's four players: for each, the first of its ``CAST`` that reads like none of
    ``guests`` (the names at the table), or its own name if every stand-in is taken."""
    taken = {reading_key(name) for name in guests}
    return tuple(
        next((name for name in names if reading_key(name) not in taken), names[0]) for names in CAST
    )


class Tutorial:
    """The lesson: its own rigged game, stage and table scene; ``done`` once over or skipped."""

    def __init__(
        self,
        props: Props,
        speak: Callable[[str], None] | None = None,
        guests: Iterable[str] = (),
    ) -> None:
        self.props = props
        self.speak = speak
        self.names = lesson_names(guests)
        dealer = f"p{len(CAST)}"  # the session numbers seats p1, p2, … in joining order
        self.rehearsal = Rehearsal(
            HouseRules(),
            seed=0,
            room="HOWTO",
            rng=RiggedDeck([(DEALT, CUT), (DEALT_2, None)], dealer),
        )
        self.ids = [self.rehearsal.join(name) for name in self.names]
        assert self.ids[3] == dealer
        self.stage = Stage()
        self.scene = TableScene(self.stage, props, trail=False)  # the badge's corner
        self.subscription = self.rehearsal.session.subscribe(None, presence=False)
        self.index = -1
        self.elapsed = 0.0
        self.done = False
        self._receive()
        self.stage.fast_forward()
        self._begin(0)

    @property
    def step(self) -> Step:
        return SCRIPT[self.index]

    @property
    def caption(self) -> str:
        a, b, c, d = self.names
        return self.props.catalog.t(
            self.props.lang, f"evening.tutorial_{self.step.name}", a=a, b=b, c=c, d=d
        )

    def _receive(self) -> None:
        while (update := self.subscription.get(timeout=0)) is not None:
            self.stage.receive(update.view, list(update.events))

    def _begin(self, index: int) -> None:
        self.index, self.elapsed = index, 0.0
        for who, action in self.step.moves:
            self.rehearsal.act(self.ids[who], action)
            if action in ("start", "deal"):
                self._check_deal()
        self._receive()
        if self.speak is not None:
            self.speak(self.caption)

    def _check_deal(self) -> None:
        session = self.rehearsal.session
        table = session.view(None)
        dealt = tuple(
            str(me["card"] if (me := session.view(pid)["me"]) else None) for pid in table["order"]
        )
        a, b, c, d = self.ids
        wanted = ([a, b, c, d], DEALT) if table["round"] == 1 else ([b, c, d, a], DEALT_2)
        if (table["order"], dealt) != wanted:
            raise RuntimeError("the rigged deck no longer matches the engine's deal")

    def skip(self) -> None:
        self.done = True

    def update(self, dt: float) -> None:
        """Move the lesson on: the stage plays, held at the step's boundary beat if needed."""
        if self.done:
            return
        self.elapsed += dt
        step, stage = self.step, self.stage
        waiting = (
            step.hold_before is not None
            and stage.beat is not None
            and stage.queue
            and stage.queue[0].kind == step.hold_before
        )
        if waiting and self.elapsed < step.seconds:
            assert stage.beat is not None
            stage.update(max(0.0, min(dt, stage.beat.length - stage.beat.elapsed - 1e-3)))
            return
        stage.update(dt)
        reached = (
            step.hold_before is not None
            and stage.beat is not None
            and stage.beat.kind == step.hold_before
        )
        if reached or (
            step.hold_before is None and self.elapsed >= step.seconds and not stage.animating
        ):
            if self.index + 1 >= len(SCRIPT):
                self.done = True
            else:
                self._begin(self.index + 1)

    def handle(self, event: pygame.event.Event) -> bool:
        """Any key skips the lesson (the TV is back to the party at once)."""
        if event.type == pygame.KEYDOWN:
            self.skip()
            return True
        return False

    def draw(self, surface: pygame.Surface) -> None:
        self.scene.draw(surface)
        th = self.props.theme
        title = th.text(
            self.props.catalog.t(self.props.lang, "evening.tutorial_title"),
            40,
            theme.DARK_INK,
            True,
        )
        skip = th.text(
            self.props.catalog.t(self.props.lang, "evening.tutorial_skip"), 24, theme.DARK_INK
        )
        box = pygame.Rect(30, 130, max(title.get_width(), skip.get_width()) + 60, 96)
        pygame.draw.rect(surface, theme.GOLD, box, border_radius=20)
        surface.blit(title, title.get_rect(midtop=(box.centerx, box.top + 10)))
        surface.blit(skip, skip.get_rect(midtop=(box.centerx, box.top + 60)))


def play_through(
    tutorial: Tutorial,
    frame: float,
    shoot: Callable[[Tutorial], Any] | None = None,
    limit: int = 20_000,
) -> float:
    """Run a lesson to its end with ``frame``-second steps; ``shoot`` sees each step once, at
    its most telling moment. Returns the lesson's length in seconds (for tests)."""
    seen: set[int] = set()
    total = 0.0
    for _ in range(limit):
        if tutorial.done:
            return total
        moment = min(SHOT_AT.get(tutorial.step.name, 3.0), tutorial.step.seconds - 0.5)
        if shoot is not None and tutorial.index not in seen and tutorial.elapsed >= moment:
            seen.add(tutorial.index)
            shoot(tutorial)
        tutorial.update(frame)
        total += frame
    raise RuntimeError("the tutorial did not end")
