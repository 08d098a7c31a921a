"""Golden playthroughs: whole rounds recorded as text, replayed and compared line by line.

Regenerate after an intended rule change with ``UNOSPIN_REGEN=1 pytest tests/test_playthroughs.py``
and review the diff: every changed line is a changed game. A regenerating run writes the files
and FAILS (a file written from the engine cannot also be the check of it); run the tests again
without UNOSPIN_REGEN. ``.ci/run`` refuses to run with it set. ``tests/test_golden_legality.py``
replays every file against the rules, independently of the engine.
"""

import os
from pathlib import Path

import pytest

from unospin_sim.engine import layout as L
from unospin_sim.rules import EDITIONS
from unospin_sim.run import Execution
from unospin_sim.run.playthrough import play_text

HERE = Path(__file__).parent / "playthroughs"
PLAYER_COUNTS = (2, 4, 10)
KNOBS = "heuristic(forget=0.5,catch=1,bluff=0.5,challenge=0.5)"
# (edition, players, bots, seed, other rule options); the house-rule cases are seeds whose
# game shows the rule at work (docs/HOUSE_RULES.md)
CASES = [(ed, p, "random", 11, "") for ed in sorted(EDITIONS) for p in PLAYER_COUNTS] + [
    ("spin2025", 4, "heuristic", 11, ""),
    ("spin2005", 4, "heuristic", 11, ""),
    ("classic", 4, KNOBS, 12, ""),
    ("classic", 4, "random", 11, "stacking=true"),
    ("classic", 3, KNOBS, 12, "stacking=true"),
    # the same seed with a stacked Wild Draw Four judged (a bluff, caught) and not judged
    ("classic", 3, KNOBS, 35, "stacking=true"),
    ("classic", 3, KNOBS, 35, "stacking=true,stacked_wd4=free"),
    ("spin2025", 4, "random", 11, "stacking=true"),
    ("classic", 4, "random", 17, "draw_until_playable=true"),
    ("classic", 4, "random", 11, "seven_o=true"),
    ("spin2005", 3, "heuristic", 11, "seven_o=true"),
    ("spin2025", 4, "random", 13, "stacking=true,draw_until_playable=true,seven_o=true"),
    ("classic", 4, "random", 13, "special_wilds=swap_hands"),
    ("classic", 4, "random", 13, "special_wilds=shuffle_hands"),
    ("classic", 3, "heuristic", 11, "special_wilds=shuffle_hands"),
    ("classic", 4, "random", 11, "jump_in=true"),
    ("spin2025", 4, "heuristic", 11, "jump_in=true"),
    ("classic", 4, "random", 11, "partners=true,seven_o=true"),
    ("spiderman", 4, KNOBS, 12, "partners=true,jump_in=true"),
    # jump_in_wilds: a Wild Draw Four jumped on (classic), a Wild Web Swing (spiderman)
    ("classic", 4, "random", 13, "jump_in=true,jump_in_wilds=true"),
    ("spiderman", 4, "random", 12, "jump_in=true,jump_in_wilds=true"),
]


def _path(edition, players, bots, seed, options=""):
    tag = "random" if bots == "random" else "heuristic" if bots == "heuristic" else "knobs"
    extra = "".join(
        "-" + o.replace("=true", "").replace("=", "-").replace("_", "-")
        for o in options.split(",")
        if o
    )
    return HERE / f"{edition}-p{players}-{tag}-s{seed}{extra}.txt"


@pytest.mark.parametrize("edition,players,bots,seed,options", CASES)
def test_playthrough_replays(edition, players, bots, seed, options):
    rules = f"{edition}(players={players}{',' + options if options else ''})"
    text = play_text(rules, bots, seed=seed, game=0)
    _check_golden(_path(edition, players, bots, seed, options), text)


def _check_golden(path, text):
    """``text`` equals the golden file ``path`` line by line (UNOSPIN_REGEN: write it, fail)."""
    if os.environ.get("UNOSPIN_REGEN"):
        path.write_text(text)
        pytest.fail(
            f"UNOSPIN_REGEN is set: wrote {path.name} from the engine instead of checking "
            f"it; review the diff (git diff tests/playthroughs), then run the tests "
            f"again without UNOSPIN_REGEN (which also replays it for legality)",
            pytrace=False,
        )
    assert path.exists(), f"no golden playthrough {path.name}: run with UNOSPIN_REGEN=1"
    expected = path.read_text().splitlines()
    got = text.splitlines()
    for i, (e, g) in enumerate(zip(expected, got)):
        assert e == g, f"{path.name} line {i + 1}: expected {e!r}, got {g!r}"
    assert len(expected) == len(got)


def test_every_edition_and_player_count_has_a_playthrough():
    files = {p.name for p in HERE.glob("*.txt")}
    for edition in EDITIONS:
        for players in PLAYER_COUNTS:
            name = _path(edition, players, "random", 11).name
            assert name in files, f"edition {edition} with {players} players has no playthrough"


def test_playthrough_game_matches_simulate_row():
    """`play --seed S --game g` shows the same game as row g of a run seeded S."""
    from unospin_sim.run import simulate, trace

    res = simulate(
        "spin2025(players=4)", "random", games=5, seed=11, execution=Execution(threads=1)
    )
    for g in range(5):
        events, state, rules, _ = trace("spin2025(players=4)", "random", seed=11, game=g)
        row = res.rounds.iloc[g]
        assert int(state.s[L.S_TURNS]) == row.turns
        assert int(state.s[L.S_WINNER]) == row.winner


# ------------------------------------------------------------------------------------------
# whole matches (match=race): every round as above, then the running scores
RACE_CASES = [
    ("classic", 4, "random", 11, 0, ""),
    ("spin2005", 3, "random,heuristic,random", 11, 1, ""),
    ("classic", 4, "random", 11, 0, "partners=true"),
]


def _race_path(edition, players, bots, seed, match, options=""):
    tag = "random" if bots == "random" else "mixed"
    extra = "".join("-" + o.split("=")[0].replace("_", "-") for o in options.split(",") if o)
    return HERE / f"race-{edition}-p{players}-{tag}-s{seed}-m{match}{extra}.txt"


@pytest.mark.parametrize("edition,players,bots,seed,match,options", RACE_CASES)
def test_race_playthrough_replays_and_agrees_with_the_match_table(
    edition, players, bots, seed, match, options
):
    import re

    from unospin_sim.run import simulate
    from unospin_sim.run.playthrough import match_text

    rules = f"{edition}(players={players},match=race{',' + options if options else ''})"
    text = match_text(rules, bots, seed=seed, match=match)
    _check_golden(_race_path(edition, players, bots, seed, match, options), text)
    # the text, traced round by round, tells the same match as the engine's match table
    res = simulate(rules, bots, games=match + 1, seed=seed, execution=Execution(threads=1))
    row = res.matches.iloc[match]
    finals = re.findall(r"^scores after round (\d+): (.*)$", text, re.M)
    assert len(finals) == row["rounds"] >= 2
    last = [int(x) for x in re.findall(r"player \d+ (\d+)", finals[-1][1])]
    assert last == [int(row[f"score_{i}"]) for i in range(players)]
    won = re.search(r"^(?:player|team) (\d+) .*wins the match", text, re.M)
    assert int(won.group(1)) == row["winner"] and max(last) >= 500
    rounds = res.rounds[res.rounds["match"] == match]
    for (j, scores), (_, r) in zip(finals, rounds.iterrows()):
        assert [int(x) for x in re.findall(r"player \d+ (\d+)", scores)] == [
            int(r[f"score_{i}"]) for i in range(players)
        ], f"round {j}"


def test_text_says_the_rule_options_numbers():
    """The UNO penalty and the challenge's draws are the rule options', not 2, 4 and 6."""
    text = play_text(
        "classic(players=2,uno_penalty=3,wd4_draws=5)", "heuristic(forget=1,catch=1,challenge=1)"
    )
    assert "draws 3 for not calling UNO" in text
    assert "draws 2 for not calling UNO" not in text
    default = play_text("classic(players=2)", "heuristic(forget=1,catch=1,challenge=1)")
    assert "draws 2 for not calling UNO" in default
