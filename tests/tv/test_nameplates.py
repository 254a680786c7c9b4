"""Round 37: a name too long for its plate is shown at the readable size, in two lines or
shortened with "…", and never so that it reads like another seat's name."""

from __future__ import annotations

from itertools import permutations

import pygame
import pytest

from host.names import graphemes
from host.tv.layout import READABLE_SIZE, WIDE_PLATE, seat_spots
from host.tv.nameplates import NameLabel, NamePlates, could_be, name_labels, name_width
from host.tv.theme import ELLIPSIS, Theme


@pytest.fixture(scope="module")
def th() -> Theme:
    pygame.font.init()
    return Theme()


def test_round37_names_of_16_w_fit_whole_in_two_lines_on_wide_plates(th: Theme) -> None:
    """Five seats: wide plates for two lines, where 16 "W" show whole at the readable size."""
    plan = NamePlates().plan(th, ["W" * 16, *("W" * 15 + c for c in "MOQD")])
    assert {(spot.name_lines, spot.plate_width) for spot in plan.spots} == {(2, WIDE_PLATE)}
    assert plan.labels[0] == NameLabel(("W" * 8, "W" * 8), READABLE_SIZE)
    assert all(label.whole and label.size >= READABLE_SIZE for label in plan.labels)


def test_round37_ten_names_of_16_w_are_shortened_at_the_readable_size_and_told_apart(
    th: Theme,
) -> None:
    """Ten seats: no room for wide plates beside the piles' names, so the names are shortened
    in two lines, at the readable size, each showing the letter that tells it apart."""
    names = ["W" * 16, *("W" * 15 + c for c in "MOQDGHNUV")]
    plan = NamePlates().plan(th, names)
    assert {spot.name_lines for spot in plan.spots} == {2}
    assert all(label.size >= READABLE_SIZE for label in plan.labels)
    for label, name in zip(plan.labels, names):
        assert len(label.lines) == 2 and label.lines[1].endswith(name[-1])
        assert not any(could_be(label, other) for other in names if other != name)


def test_round37_short_names_keep_one_line_plates(th: Theme) -> None:
    plan = NamePlates().plan(th, ["Ana", "Chloé", "Niccolò", "François", "Zoë"])
    assert tuple(plan.spots) == tuple(seat_spots(5))
    assert [label.lines for label in plan.labels] == [
        ("Ana",),
        ("Chloé",),
        ("Niccolò",),
        ("François",),
        ("Zoë",),
    ]


def test_round37_shortened_names_never_read_like_another_seats(th: Theme) -> None:
    """Twelve seats (H7): the plates are narrow, names 16 columns wide alike but for one letter
    are shortened — each label fits its own name only (else its name is shown whole, smaller)."""
    names = [
        *("W" * k + "M" + "W" * (15 - k) for k in range(10)),
        "Anne-Charlotte M",
        "Anne-Charlotte B",
    ]
    spots = seat_spots(len(names), 2)
    labels = name_labels(th, names, spots)
    for (i, label), (j, other) in permutations(enumerate(labels), 2):
        assert not could_be(label, names[j]), (label, names[j])
    texts = ["".join(label.lines) for label in labels]
    assert len(set(texts)) == len(texts)
    assert labels[-2].lines[-1].endswith("M") and labels[-1].lines[-1].endswith("B")
    assert any(not label.whole and label.size == READABLE_SIZE for label in labels)


def test_round37_a_name_is_cut_between_graphemes_only(th: Theme) -> None:
    family = "\U0001f469\u200d\U0001f469\u200d\U0001f467"
    name = family * 4 + "e\u0301" * 8
    spots = seat_spots(16, 2)
    label = name_labels(th, [name], spots[:1])[0]
    shown = "".join(label.lines).replace(ELLIPSIS, "")
    assert all(piece in graphemes(name) for piece in graphemes(shown))


def test_could_be_reads_the_hidden_part_as_unknown() -> None:
    label = NameLabel(("Anne-Ch", ELLIPSIS + "lotte M"), READABLE_SIZE, whole=False)
    assert could_be(label, "Anne-Charlotte M")
    assert not could_be(label, "Anne-Charlotte B")
    assert could_be(label, "ANNE-CHARLOTTE M")  # as read: case does not tell names apart


def test_round37_a_name_in_two_lines_is_cut_evenly_at_a_hyphen_not_before_its_last_letter(
    th: Theme,
) -> None:
    """Seen on the TV: "Jean-Christophe" read "Jean-Christoph" over a lone "e" (the first line
    filled as far as it went). Two lines are cut as evenly as they go, at a hyphen or a space
    where both halves fit, else between letters."""
    names = ["Jean-Christophe", "Marie-Éléonore", "Anne-Charlotte", "WWWWWWWWWWWWW"]
    plan = NamePlates().plan(th, names)
    labels = dict(zip(names, plan.labels))
    assert labels["Jean-Christophe"].lines in {("Jean-", "Christophe"), ("Jean-Christophe",)}
    assert labels["Marie-Éléonore"].lines in {("Marie-", "Éléonore"), ("Marie-Éléonore",)}
    ten = NamePlates().plan(th, ["Guillaume-Henri", *(f"Player {n}" for n in range(9))])
    assert ten.labels[0].lines in {("Guillaume-", "Henri"), ("Guillaume", "-Henri")}, ten.labels[0]
    w = labels["WWWWWWWWWWWWW"]
    assert len(w.lines) == 2 and abs(len(w.lines[0]) - len(w.lines[1])) <= 1, w  # no cut to hang on


TEN_SEATS = [
    "Alexandrine",
    "Maximilien",
    "Bartholomew",
    "Jacqueline",
    "Christopher",
    "Przemysław",
    "Jean-Christophe",
    "王小明王小明王小明王",
    "Bob",
    "Zoé",
]


def test_round40_a_word_cut_in_two_lines_is_cut_before_a_syllable_with_a_hyphen(
    th: Theme,
) -> None:
    """Seen on a 10-seat table: "Alexa" over "ndrine", "Maxi" over "milien" read as two names.
    A word is now cut as print cuts it: before a syllable's first consonants, never inside
    "chr" or "dr", with a hyphen ending the first line; nothing of the name is lost."""
    plan = NamePlates().plan(th, TEN_SEATS)
    labels = dict(zip(TEN_SEATS, plan.labels))
    assert labels["Alexandrine"].lines == ("Alexan-", "drine")
    assert labels["Maximilien"].lines == ("Maxi-", "milien")
    assert labels["Bartholomew"].lines == ("Bartho-", "lomew")
    assert labels["Christopher"].lines == ("Chris-", "topher")
    assert labels["Przemysław"].lines == ("Prze-", "mysław")
    for name, spot, label in zip(TEN_SEATS, plan.spots, plan.labels):
        assert label.whole and label.size >= READABLE_SIZE
        assert label.text == name and could_be(label, name)  # the hyphen is the plate's
        assert all(th.measure(line, label.size, True) <= name_width(spot) for line in label.lines)
        assert label.hyphenated == (label.lines[0].endswith("-") and "-" not in name)


def test_round40_no_hyphen_is_added_to_a_hyphenated_name_nor_to_chinese(th: Theme) -> None:
    """ "Jean-Ch-" over "ristophe" read as a third name; Chinese is cut anywhere, unmarked."""
    labels = dict(zip(TEN_SEATS, NamePlates().plan(th, TEN_SEATS).labels))
    for name in ("Jean-Christophe", "王小明王小明王小明王"):
        assert len(labels[name].lines) == 2 and "".join(labels[name].lines) == name
        assert not labels[name].hyphenated
