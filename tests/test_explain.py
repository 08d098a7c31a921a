"""``play --explain``: a search seat's decisions, each candidate's value and rollouts.

The explained game must be the same game (the explanation only adds lines), each decision
names exactly one chosen move, and that move is the one the seat then makes.
"""

import re

import pytest
from conftest import in_process_cli

from unospin_sim.engine import layout as L
from unospin_sim.engine.search import SEARCH_SCALE
from unospin_sim.rules.card_codes import WILD
from unospin_sim.rules.cards import kind_name
from unospin_sim.run.playthrough import _candidate_text, play_text

NUMBER = 5  # a number card's kind


def test_candidate_lines_exact():
    # a card, 4 rollouts won of 8 (every rollout played out)
    assert _candidate_text(L.SEARCH_VALUE_WIN, NUMBER, 16 * 8, 4) == (
        f"    play {kind_name(NUMBER)}: 0.500 over 8 rollouts"
    )
    # drawing, chosen, under a cut-off: the results are scaled by SEARCH_SCALE
    assert _candidate_text(L.SEARCH_VALUE_CUTOFF, -1, 8 + 16 * 4, SEARCH_SCALE) == (
        "    draw: 0.250 over 4 rollouts  <- chosen"
    )
    # a wild naming blue (colour 3, + 1), race points
    assert _candidate_text(L.SEARCH_VALUE_RACE, WILD, 4 + 16 * 2, 61) == (
        f"    play {kind_name(WILD)} naming blue: 30.5 over 2 rollouts"
    )
    # a wild with heuristic's colour, dropped before any rollout
    assert _candidate_text(L.SEARCH_VALUE_WIN, WILD, 0, 0) == (
        f"    play {kind_name(WILD)} (heuristic's colour): not rolled out"
    )


RULES, BOTS = "classic(players=2)", "search(rollouts=8),heuristic"
ROLLOUTS, EXTEND = 8, 2  # the knob and search's default extend


@pytest.fixture(scope="module")
def texts():
    return [
        (play_text(RULES, BOTS, seed, 0), play_text(RULES, BOTS, seed, 0, explain=True))
        for seed in (1, 2)
    ]


def _blocks(explained: str):
    """(candidate lines, the seat's next action line) of every decision."""
    lines = explained.splitlines()
    out = []
    for i, line in enumerate(lines):
        if "(search) weighs" in line:
            n = int(re.search(r"weighs (\d+) first moves", line).group(1))
            out.append((lines[i + 1 : i + 1 + n], lines[i + 1 + n]))
    return out


def test_explained_game_is_the_same_game(texts):
    for plain, explained in texts:
        kept = [
            line
            for line in explained.splitlines()
            if "(search) weighs" not in line and not line.startswith("    ")
        ]
        assert kept == plain.splitlines()
        assert len(explained) > len(plain)


def test_each_decision_names_the_move_made(texts):
    decisions = 0
    for _, explained in texts:
        for cands, action in _blocks(explained):
            decisions += 1
            chosen = [c for c in cands if c.endswith("<- chosen")]
            assert len(chosen) == 1, cands
            move = chosen[0].split(":")[0].strip()
            if move == "draw":
                assert action.startswith("  seat 0 draws"), (cands, action)
            else:
                card = move.removeprefix("play ").split(" naming ")[0]
                card = card.removesuffix(" (heuristic's colour)")
                assert action == f"  seat 0 plays {card}", (cands, action)
            for c in cands:
                m = re.search(r"over (\d+) rollouts?", c)
                if m:
                    assert 1 <= int(m.group(1)) <= ROLLOUTS * EXTEND, c
    assert decisions >= 3


def test_explain_needs_a_search_seat(monkeypatch, capsys):
    r = in_process_cli(monkeypatch, capsys)("play", "--edition", "classic", "--explain")
    assert r.returncode == 2
    assert r.stderr.count("\n") == 1 and "no seat plays search" in r.stderr
