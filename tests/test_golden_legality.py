"""Every golden playthrough replayed for legality, independently of the engine.

``tests/golden_rules.py`` (which imports nothing from ``unospin_sim``) parses each file of
``tests/playthroughs/`` and replays it against the rules: every play legal against the top
card and the colour in play, every hand tracked card by card from the deal through draws,
plays, discards, swaps, trades and shuffles, every draw from the draw pile, whose turn it is,
the wheels and the house rules. Its docstring lists everything it checks and the limits of
what the text shows. The golden files are regression tests of the engine; this replay is
what makes them evidence that the recorded games follow the rules.

The replay itself is tested on doctored copies of the golden files (an illegal play, a card
that was never in the hand, a draw of a card that is not in the pile, a wrong turn order,
...): each must be refused, for the stated reason. Beyond the goldens, fresh games from the
engine under 25 more rule sets and bot mixes (every option and house rule, knobs that bluff,
challenge and forget, a turn cap) are replayed too.
"""

import re
from pathlib import Path

import pytest
from golden_rules import Illegal, card_info, colour_of, matches, replay

HERE = Path(__file__).parent / "playthroughs"
FILES = sorted(p for p in HERE.glob("*.txt") if not p.name.startswith("race-"))
#: whole matches (tests/test_playthroughs.py RACE_CASES): one round per "=== round" section
RACE_FILES = sorted(HERE.glob("race-*.txt"))


def test_there_are_goldens():
    assert len(FILES) >= 12


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_golden_playthrough_is_legal(path):
    r = replay(path.read_text(), path.name)
    assert r.turns > 0


@pytest.mark.parametrize("path", RACE_FILES, ids=[p.stem for p in RACE_FILES])
def test_golden_race_rounds_are_legal(path):
    sections = path.read_text().split("=== round ")[1:]
    assert len(sections) >= 2
    for sec in sections:
        body = sec.split("\n", 1)[1].split("\nscores after round ")[0]
        r = replay(body + "\n", f"{path.name} round {sec.split(':', 1)[0]}")
        assert r.turns > 0


# ------------------------------------------------------------------ the replay refuses
# Each case doctors one line of a golden file (found from the replay's own record of the
# position at every turn) and expects the replay to refuse the text for the stated reason.
def _games():
    for path in FILES:
        text = path.read_text()
        yield path, text.splitlines(), replay(text, path.name).trace


def _refused(lines, name, match, line=None):
    with pytest.raises(Illegal, match=match) as e:
        replay("\n".join(lines) + "\n", name)
    if line is not None:
        assert f"line {line}:" in str(e.value), str(e.value)
    return str(e.value)


def _first_play(lines, t):
    """0-based index of the line right after turn t's header if it is a play, else None."""
    k = t["line"]  # 1-based header line = 0-based index of the line after it
    m = lines[k].strip().startswith(f"seat {t['seat']} plays ")
    return k if m else None


def _find(pred):
    """The first (path, lines, turn record, play line index) with pred(...) true."""
    for path, lines, trace in _games():
        for t in trace:
            if t["pending"] or t["spin"]:
                continue
            k = _first_play(lines, t)
            if k is not None and pred(path, lines, t, k):
                return path, lines, t, k
    raise AssertionError("no golden file has such a turn")


def _played(lines, k):
    return lines[k].strip().split(" plays ", 1)[1]


def test_refuses_a_card_that_does_not_match():
    def pred(path, lines, t, k):
        return any(not matches(c, t["top"], t["colour"]) for c in t["hand"])

    path, lines, t, k = _find(pred)
    bad = next(c for c in sorted(t["hand"]) if not matches(c, t["top"], t["colour"]))
    lines[k] = f"  seat {t['seat']} plays {bad}"
    _refused(lines, path.name, f"plays {bad} on {t['top']}", k + 1)


def test_refuses_a_card_that_is_not_in_the_hand():
    def missing(t):
        colour = t["colour"]
        return [f"{colour} {n}" for n in range(1, 10) if t["hand"][f"{colour} {n}"] == 0]

    path, lines, t, k = _find(lambda path, lines, t, k: bool(missing(t)))
    card = missing(t)[0]
    lines[k] = f"  seat {t['seat']} plays {card}"
    _refused(lines, path.name, f"plays {card} which is not in its hand", k + 1)


def test_refuses_an_illegal_wild_draw_four():
    def pred(path, lines, t, k):
        h = t["hand"]
        return h["wild draw four"] > 0 and any(colour_of(c) == t["colour"] for c in h)

    path, lines, t, k = _find(pred)
    lines[k] = f"  seat {t['seat']} plays wild draw four"
    _refused(lines, path.name, "illegal Wild Draw Four", k + 1)


def test_refuses_a_draw_while_holding_a_playable_card():
    path, lines, t, k = _find(lambda path, lines, t, k: not t["two_x"])
    lines[k] = f"  seat {t['seat']} draws {_played(lines, k)}"
    _refused(lines, path.name, "draws although it can play", k + 1)


def test_refuses_a_turn_out_of_order():
    path, lines, trace = next(_games())
    t = trace[5]
    other = (t["seat"] + 1) % 2 if "p2" in path.name else (t["seat"] + 2) % 3
    lines[t["line"] - 1] = lines[t["line"] - 1].replace(
        f"seat {t['seat']} holds", f"seat {other} holds"
    )
    _refused(lines, path.name, f"seat {other} takes turn {t['turn']}", t["line"])


def test_refuses_a_wrong_printed_hand():
    path, lines, trace = next(_games())
    t = trace[8]
    h = sorted(t["hand"].elements())
    header = lines[t["line"] - 1]
    lines[t["line"] - 1] = header[: header.index("[")] + "[" + ", ".join(h[1:]) + "]"
    _refused(lines, path.name, "printed hand", t["line"])


def _first_line(pred, names=None):
    for path in FILES:
        if names and not any(n in path.name for n in names):
            continue
        lines = path.read_text().splitlines()
        for k, line in enumerate(lines):
            if pred(line.strip()):
                return path, lines, k
    raise AssertionError("no golden file has such a line")


def test_refuses_a_draw_of_a_card_not_in_the_pile():
    """A card kind that enters the game only by draws is renamed, everywhere, to a card the
    classic deck has not: the hands stay consistent, the first draw of it is refused."""
    for path in FILES:
        if not path.name.startswith("classic"):
            continue
        text = path.read_text()
        r = replay(text, path.name)
        dealt = set().union(*(set(h) for h in r.bases.values()))
        first = [
            line.split(": ", 1)[1] for line in text.splitlines() if line.startswith("first card")
        ]
        drawn = [
            line.strip().split(" draws ")[1]
            for line in text.splitlines()
            if re.fullmatch(r"\s*seat \d+ draws (red|yellow|green|blue) \d", line)
        ]
        only_drawn = [c for c in drawn if c not in dealt and c not in first]
        if only_drawn:
            break
    else:
        raise AssertionError("no classic golden file draws a number kind never dealt")
    card = only_drawn[0]
    doctored = re.sub(rf"\b{card}\b", "red spin 3", text)
    k = doctored.splitlines().index(
        next(line for line in doctored.splitlines() if line.endswith("draws red spin 3"))
    )
    _refused(doctored.splitlines(), path.name, "red spin 3, which is not in the draw pile", k + 1)


def test_refuses_a_missing_uno_call():
    path, lines, k = _first_line(lambda s: s.endswith("calls UNO"))
    del lines[k]
    _refused(lines, path.name, "did not call UNO")


def test_refuses_an_uno_call_out_of_place():
    path, lines, t, k = _find(lambda path, lines, t, k: sum(t["hand"].values()) > 3)
    lines.insert(k + 1, f"  seat {t['seat']} calls UNO")
    _refused(lines, path.name, "without having just dropped", k + 2)


def test_refuses_a_skip_that_is_not_taken():
    path, lines, k = _first_line(lambda s: s.endswith("is skipped"))
    del lines[k]
    _refused(lines, path.name, "passed over|takes turn")


def test_refuses_a_wrong_reshuffle():
    path, lines, k = _first_line(lambda s: s.startswith("the discard pile ("))
    n = int(lines[k].split("(")[1].split()[0])
    lines[k] = lines[k].replace(f"({n} cards", f"({n + 1} cards")
    _refused(lines, path.name, f"reshuffle of {n + 1} cards", k + 1)


def test_refuses_a_colour_draw_that_stops_early():
    path, lines, k = _first_line(lambda s: "spins the wheel: color_draw_" in s)
    colour = lines[k].strip().rsplit("_", 1)[1]
    j = k + 1
    while (
        not lines[j]
        .strip()
        .endswith(
            tuple(
                f"draws {colour} {x}"
                for x in [str(n) for n in range(10)]
                + ["skip", "reverse", "draw two"]
                + [f"spin {n}" for n in range(1, 6)]
            )
        )
    ):
        j += 1
    assert colour_of(lines[j].strip().split(" draws ")[1]) == colour
    del lines[j]  # the card that stopped the draw: the draw now stops on a wrong card
    _refused(lines, path.name, "draws a card|expected")


def test_refuses_a_wrong_war():
    path, lines, k = _first_line(lambda s: s.startswith("war: seat") and " shows a " in s)
    v = int(lines[k].strip()[-1])
    lines[k] = lines[k][:-1] + str((v + 1) % 10 if v != 9 else 0)
    _refused(lines, path.name, "war: seat", k + 1)


def test_refuses_a_wrong_colour_discard():
    path, lines, k = _first_line(lambda s: "spins the wheel: color_discard" in s)
    j = next(j for j in range(k, len(lines)) if " discards " in lines[j])
    del lines[j]
    _refused(lines, path.name, "discards .* cards, the wheel says")


def test_refuses_a_wrong_penalty():
    path, lines, k = _first_line(lambda s: "faces a penalty of 4 cards" in s)
    lines[k] = lines[k].replace("of 4 cards", "of 2 cards")
    _refused(lines, path.name, "faces a penalty of 4 cards", k + 1)


def test_refuses_a_wrong_score_and_final_hand():
    path = FILES[0]
    lines = path.read_text().splitlines()
    k = next(k for k, s in enumerate(lines) if " wins the round and scores " in s)
    n = int(lines[k].split()[-2])
    doctored = lines.copy()
    doctored[k] = doctored[k].replace(f"scores {n} points", f"scores {n + 1} points")
    _refused(doctored, path.name, "the winner scores", k + 1)
    doctored = lines.copy()
    doctored[-1] = doctored[-1].replace("[", "[wild, ", 1).replace(", (empty)", "")
    _refused(doctored, path.name, "final hand")


def test_refuses_a_deal_the_deck_cannot_give():
    path, lines, trace = next(_games())
    t = trace[0]
    h = sorted(t["hand"].elements())
    header = lines[t["line"] - 1]
    lines[t["line"] - 1] = (
        header[: header.index("[")] + "[" + ", ".join(["red spin 3"] + h[1:]) + "]"
    )
    _refused(lines, path.name, "deck has not")


def test_refuses_a_wild_without_a_colour():
    path, lines, k = _first_line(lambda s: s.endswith(" plays wild"))
    assert " names " in lines[k + 1]
    del lines[k + 1]
    _refused(lines, path.name, "names a colour")


def test_refuses_the_wrong_spinner_in_2005():
    """2005: the NEXT player spins, instead of their turn; the player of the Spin card may
    not spin itself."""
    path, lines, k = _first_line(lambda s: " plays " in s and " spin " in s, names=["spin2005"])
    seat = lines[k].strip().split()[1]
    j = next(j for j in range(k + 1, len(lines)) if "spins the wheel" in lines[j])
    space = lines[j].split(": ")[-1]
    lines.insert(k + 1, f"  seat {seat} spins the wheel: {space}")
    _refused(lines, path.name, f"found 'seat {seat} spins the wheel", k + 2)


def test_every_card_kind_is_known():
    for name in ("red 0", "blue spin 5", "green draw two", "wild web swing", "wild shuffle hands"):
        card_info(name)
    with pytest.raises(Illegal):
        card_info("purple 3")


# ------------------------------------------------------------------ beyond the goldens
KNOBS = "heuristic(forget=0.5,catch=1,bluff=0.5,challenge=0.5)"
RKNOBS = "random(forget=0.3,catch=0.7,bluff=1,challenge=1)"
GENERATED = [
    ("classic(players=2)", "random"),
    ("classic(players=3)", KNOBS),
    ("classic(players=5)", RKNOBS),
    ("classic(players=7,wild_matches_colour=true)", "random"),
    ("classic(players=4,turn_cap=40)", "random"),
    ("spin2005(players=2)", "random"),
    ("spin2005(players=3,wheel={discard_number:2,war:2,uno_spin:1,almost_uno:1})", "random"),
    ("spin2005(players=5,wild_stops_colour_draw=false,wheel={draw_red:1,draw_blue:1})", KNOBS),
    ("spin2005(players=10)", "heuristic"),
    ("spin2025(players=2,wheel={two_x:3,swap_hands:1})", "random"),
    ("spin2025(players=3,wild_spin_cards=0,wild_matches_colour=false)", RKNOBS),
    ("spin2005(players=4,spin_cards=2)", "random"),
    ("spin2025(players=3,spin_cards=0)", KNOBS),
    ("spin2005(players=3,spin_cards=9,wheel={discard_number:2,war:2,almost_uno:1})", "random"),
    ("spin2025(players=4,spin_cards=7)", KNOBS),
    ("spin2025(players=5,wild_stops_colour_draw=true)", KNOBS),
    ("spin2025(players=6,wheel={two_x:1,color_discard:1,wild_color_draw:1})", "heuristic"),
    ("spiderman(players=3)", "random"),
    ("spiderman(players=6)", KNOBS),
    ("classic(players=3,stacking=true)", RKNOBS),
    ("classic(players=4,stacking=true)", KNOBS),
    ("spin2025(players=3,stacking=true,wheel={two_x:1})", "random"),
    ("classic(players=3,draw_until_playable=true)", "random"),
    ("spin2005(players=4,draw_until_playable=true,seven_o=true)", RKNOBS),
    ("spin2025(players=4,seven_o=true,wheel={two_x:1,swap_hands:1})", KNOBS),
    ("classic(players=5,seven_o=true,stacking=true)", "random"),
    ("classic(players=4,special_wilds=swap_hands)", KNOBS),
    ("classic(players=3,special_wilds=shuffle_hands,stacking=true)", RKNOBS),
    ("spiderman(players=4,stacking=true,seven_o=true,draw_until_playable=true)", "random"),
    ("classic(players=4,jump_in=true)", KNOBS),
    ("classic(players=3,jump_in=true)", "random(jump=0.5)"),
    ("spin2025(players=4,jump_in=true,seven_o=true,wheel={two_x:1,swap_hands:1})", "random"),
    ("spin2005(players=4,jump_in=true,stacking=true)", RKNOBS),
    ("spiderman(players=4,partners=true,jump_in=true)", "heuristic"),
    ("classic(players=6,partners=true,seven_o=true)", RKNOBS),
    ("spin2025(players=4,partners=true,jump_in=true,wheel={swap_hands:1,two_x:1})", KNOBS),
]
GAMES_EACH = 6


@pytest.mark.parametrize("rules,bots", GENERATED, ids=[g[0] for g in GENERATED])
def test_engine_playthroughs_are_legal(rules, bots):
    """Fresh games from the engine (``play`` text, not stored) under many more rule sets,
    player counts and bot knobs than the golden files: every one is legal. (The engine is
    used only to produce the text; the replay stays independent of it.)"""
    from unospin_sim.run.playthrough import play_text

    players = int(re.search(r"players=(\d+)", rules)[1])
    spec = ",".join([bots] * players)
    for game in range(GAMES_EACH):
        text = play_text(rules, spec, seed=7, game=game)
        replay(text, f"{rules} seed 7 game {game}")


def test_the_replay_is_independent_of_the_package():
    """golden_rules.py imports nothing from unospin_sim: it is a second reading of the
    rules, not the engine's code run twice."""
    import ast

    tree = ast.parse((Path(__file__).parent / "golden_rules.py").read_text())
    imported = [
        alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.Import)
        for alias in node.names
    ]
    imported += [node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)]
    assert imported and not [m for m in imported if m.split(".")[0] == "unospin_sim"]
    assert set(m.split(".")[0] for m in imported) <= {"__future__", "re", "collections"}


# ------------------------------------------------------------------ jump_in, partners
def _jump_file():
    path = next(p for p in FILES if "jump-in" in p.name)
    return path, path.read_text().splitlines()


def test_refuses_a_jump_in_with_another_card():
    path, lines = _jump_file()
    k = next(i for i, t in enumerate(lines) if t.startswith("jump-in: seat"))
    m = re.fullmatch(r"jump-in: seat (\d+) holds \[(.*)\] and plays (.+) out of turn", lines[k])
    other = next(c for c in m[2].split(", ") if c != m[3])
    doctored = list(lines)
    doctored[k] = lines[k].replace(f"plays {m[3]} out of turn", f"plays {other} out of turn")
    _refused(doctored, path.name, "jumps in with")


def test_refuses_a_missed_jump_in():
    """A seat with jump=1 holding the identical card must jump in: dropping the jump-in
    (and its play) breaks the replay."""
    path, lines = _jump_file()
    k = next(i for i, t in enumerate(lines) if t.startswith("jump-in: seat"))
    seat = re.match(r"jump-in: seat (\d+)", lines[k])[1]
    assert lines[k + 1].strip().startswith(f"seat {seat} plays ")
    doctored = lines[:k] + lines[k + 2 :]
    _refused(doctored, path.name, "jump=1, and does not jump in")
