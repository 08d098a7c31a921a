"""A variant file as part of the rule set (docs/WHEEL_PROGRAMS.md, "The --variant flag"):
its content hash in the canonical rule string, its spaces at kernel ids after the published
ones and counted by name in the tables, its text in meta.json and run.json, and the flag on
every command that plays."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from conftest import in_process_cli

from unospin_sim.errors import RuleError
from unospin_sim.results import load_results, round_columns
from unospin_sim.rules import RuleSet, parse_rules
from unospin_sim.rules import variants as V
from unospin_sim.rules.spaces import N_PUBLISHED, SPACE_ID, SPACES_2025
from unospin_sim.run import Execution, RunSpec, simulate

EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "variants"
PLUS_TWO = EXAMPLES / "spin2025_plus_two.toml"
WHEEL_2025_PLUS_TWO = {**dict.fromkeys(SPACES_2025, 1), "everyone_draws_one": 1, "give_away": 1}


@pytest.fixture
def icli(monkeypatch, capsys):
    return in_process_cli(monkeypatch, capsys)


@pytest.fixture
def forget_variants(monkeypatch):
    """An empty registry of read variants, as in a fresh process."""
    monkeypatch.setattr(V, "_KNOWN", {})


def plus_two() -> RuleSet:
    v = V.load_variant(PLUS_TWO)
    return RuleSet.build("spin2025", players=4, variant=v, wheel=dict(v.wheels[0].weights))


def test_the_canonical_string_names_the_content_hash_and_parses_back():
    rs = plus_two()
    v = rs.variant
    assert v.key == v.content_hash[:16]
    text = str(rs)
    assert text.startswith(f"spin2025(players=4,variant={v.key},wheel={{color_draw_red:1,")
    assert text.endswith("two_x:1,everyone_draws_one:1,give_away:1})")
    assert parse_rules(text) == rs
    assert rs.replace(players=3).variant == v
    assert str(rs.replace(players=3)).startswith(f"spin2025(players=3,variant={v.key},")
    # published rule sets are spelt as before
    assert str(RuleSet.build("spin2025", players=4)) == "spin2025(players=4)"


def test_the_same_content_spelt_otherwise_is_the_same_rule_set(tmp_path):
    text = PLUS_TWO.read_text()
    other = tmp_path / "other.toml"
    other.write_text("# the same spaces, other comments\n\n" + text.replace("# ", "## "))
    a, b = V.load_variant(PLUS_TWO), V.load_variant(other)
    assert a == b and a.text != b.text
    assert RuleSet.build("spin2025", variant=a) == RuleSet.build("spin2025", variant=b)
    changed = tmp_path / "changed.toml"
    changed.write_text(text.replace("n = 1", "n = 2"))
    c = V.load_variant(changed)
    assert c != a and str(RuleSet.build("spin2025", variant=c)) != str(
        RuleSet.build("spin2025", variant=a)
    )


def test_variant_spaces_take_kernel_ids_after_the_published_ones():
    rs = plus_two()
    assert rs.space_id("color_draw_red") == SPACE_ID["color_draw_red"]
    assert rs.space_id("everyone_draws_one") == N_PUBLISHED
    assert rs.space_id("give_away") == N_PUBLISHED + 1
    w = rs.wheel_weights()
    assert w[N_PUBLISHED] == 1 and w[N_PUBLISHED + 1] == 1 and w[N_PUBLISHED + 2 :].sum() == 0
    assert sorted(rs.programs()) == [N_PUBLISHED, N_PUBLISHED + 1]
    assert rs.space_words("give_away").title == "Give Away"
    with pytest.raises(RuleError, match="unknown wheel space 'nope'"):
        rs.space_id("nope")


def test_a_rule_string_may_name_a_read_variants_wheel_or_spaces(forget_variants):
    v = V.load_variant(PLUS_TWO)
    by_name = parse_rules("spin2025(players=4,wheel=spin2025_plus_two)")
    assert by_name == plus_two()
    by_spaces = parse_rules("spin2025(wheel={give_away:2,two_x:1})")
    assert by_spaces.variant == v
    assert by_spaces.option("wheel")["give_away"] == 2
    # without weights the variant's spaces are off the wheel
    assert RuleSet.build("spin2025", variant=v).option("wheel")["give_away"] == 0


@pytest.mark.parametrize(
    "text, words",
    [
        ("spin2005(wheel=spin2025_plus_two)", "extends spin2025, not spin2005"),
        ("spin2025(wheel=no_such_wheel)", "unknown wheel 'no_such_wheel'"),
        ("classic(variant=KEY)", "cannot extend classic"),
        ("spin2025(variant=0123456789abcdef)", "variant '0123456789abcdef' is not loaded"),
    ],
)
def test_bad_variant_rule_strings_are_one_line(text, words, forget_variants):
    key = V.load_variant(PLUS_TWO).key
    with pytest.raises(RuleError, match=words) as e:
        parse_rules(text.replace("KEY", key))
    assert "\n" not in str(e.value)


def test_two_x_from_a_variant_space_is_refused_on_a_2005_wheel(tmp_path):
    f = tmp_path / "twice.toml"
    f.write_text(
        '[spaces.twice]\ntitle = "Twice"\ndescription = "2X and a draw"\n'
        'program = [{ step = "two_x" }, { step = "draw", n = 1 }]\n'
    )
    v = V.load_variant(f)
    RuleSet.build("spin2025", variant=v, wheel={"twice": 1})
    with pytest.raises(RuleError, match="twice.*two_x is a step of spin2025 wheels only"):
        RuleSet.build("spin2005", variant=v, wheel={"twice": 1, "war": 1})


def test_a_variant_holds_at_most_the_kernels_spare_ids(tmp_path):
    f = tmp_path / "many.toml"
    f.write_text(
        "".join(
            f'[spaces.s{i}]\ntitle = "S{i}"\ndescription = "draw"\n'
            'program = [{ step = "draw", n = 1 }]\n'
            for i in range(16)
        )
    )
    with pytest.raises(RuleError, match="holds 16 spaces; a variant holds at most 15"):
        V.load_variant(f)


def test_a_variant_run_counts_its_spaces_by_name_and_keeps_the_file(tmp_path, forget_variants):
    rs = plus_two()
    out = tmp_path / "r"
    res = simulate(
        RunSpec.build(rs, "random", games=600, seed=3),
        execution=Execution(threads=1, out=out, progress=False),
    )
    cols = [c for c in res.rounds.columns if c.startswith("spins_")]
    assert cols == [f"spins_{s}" for s in WHEEL_2025_PLUS_TWO]
    assert res.rounds["spins_everyone_draws_one"].sum() > 0
    assert res.rounds["spins_give_away"].sum() > 0
    assert res.rounds[cols].sum(axis=1).tolist() == res.rounds["spins"].tolist()
    counts = res.spins["space"].value_counts()
    for s in ("everyone_draws_one", "give_away"):
        assert counts[s] == res.rounds[f"spins_{s}"].sum()
    meta = json.loads((out / "meta.json").read_text())
    run = json.loads((out / "run.json").read_text())
    assert meta["results_format"] == 3
    for record in (meta["variant"], run["variant"]):
        assert record["text"] == PLUS_TWO.read_text()
        assert record["content_hash"] == rs.variant.content_hash
    assert meta["rules"] == str(rs)
    # a fresh process: the results directory alone says what was played
    V._KNOWN.clear()
    back = load_results(out)
    assert back.meta["rules"] == str(rs)
    pd.testing.assert_frame_equal(back.rounds, res.rounds, check_dtype=False)
    assert list(back.spins["space"].cat.categories) == list(WHEEL_2025_PLUS_TWO)


def test_a_published_rule_sets_tables_keep_their_columns():
    rs = RuleSet.build("spin2025", players=4)
    assert [c for c in round_columns(rs) if c.startswith("spins_")] == [
        f"spins_{s}" for s in SPACES_2025
    ]


def test_a_variant_run_resumes_from_its_run_json(tmp_path, forget_variants):
    rs = plus_two()
    spec = RunSpec.build(rs, "random", games=400, seed=9)
    params = json.loads(json.dumps(spec.params()))
    V._KNOWN.clear()
    assert RunSpec.from_params(params) == spec


def test_a_variant_wheel_plays_its_programs_reproducibly():
    rs = plus_two()
    a = simulate(rs, "random", 300, 5, execution=Execution(threads=1, progress=False))
    b = simulate(rs, "random", 300, 5, execution=Execution(threads=2, progress=False))
    pd.testing.assert_frame_equal(a.rounds, b.rounds)
    # the variant changes the game: the same seeds on the published wheel differ
    c = simulate(
        "spin2025(players=4)", "random", 300, 5, execution=Execution(threads=1, progress=False)
    )
    assert not np.array_equal(a.rounds["turns"], c.rounds["turns"])


@pytest.mark.parametrize("name", ["everyone_draws_one", "give_away", "spin2025_plus_two"])
def test_every_shipped_example_runs_from_the_command_line(icli, tmp_path, name):
    out = tmp_path / name
    proc = icli(
        "run",
        "--variant",
        str(EXAMPLES / f"{name}.toml"),
        "--games",
        "300",
        "--threads",
        "1",
        "--quiet",
        "--out",
        str(out),
    )
    assert proc.returncode == 0, proc.stderr
    meta = json.loads((out / "meta.json").read_text())
    rs = parse_rules(meta["rules"])
    own = [s.name for s in rs.variant.spaces]
    rounds = load_results(out).rounds
    for s in own:
        assert rounds[f"spins_{s}"].sum() > 0, s


def test_play_names_a_variant_space(icli):
    for game in range(6):
        proc = icli(
            "play",
            "--variant",
            str(EXAMPLES / "more_spaces.toml"),
            "--players",
            "3",
            "--game",
            str(game),
        )
        assert proc.returncode == 0, proc.stderr
        own = {"open_hands", "trade_back", "rob_the_leader", "wheel_draw_two", "u_turn"}
        own |= {"double_color_draw", "trim_the_previous", "card_shower", "charity"}
        if any(f"spins the wheel: {s}" in proc.stdout for s in own):
            return
    pytest.fail("no variant space named in six games")


@pytest.mark.parametrize(
    "args, words",
    [
        (["--variant", "EX/give_away.toml", "--edition", "spin2025"], "extends spin2005, not"),
        (["--variant", "EX/give_away.toml:zzz"], "no wheel 'zzz'; it holds spin2005_give_away"),
        (["--variant", "EX/none.toml"], "none.toml: cannot read the variant file"),
        (
            ["--variant", "EX/spin2025_plus_two.toml", "--rules", "spin2025(wheel={two_x:1})"],
            "contradicts the wheel of",
        ),
        (
            [
                "--variant",
                "EX/spin2025_plus_two.toml",
                "--rules",
                "spin2025(wheel={give_away:1,two_x:1})",
            ],
            "contradicts the wheel of",
        ),
    ],
)
def test_bad_variant_flags_are_one_line_and_write_nothing(icli, tmp_path, args, words):
    out = tmp_path / "never"
    args = [a.replace("EX", str(EXAMPLES)) for a in args]
    proc = icli("run", *args, "--games", "100", "--quiet", "--out", str(out))
    assert proc.returncode != 0
    assert words in proc.stderr and "Traceback" not in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1
    assert not out.exists()


def test_a_bad_variant_file_stops_the_run_before_anything_is_written(icli, tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text(
        '[spaces.give_away]\ntitle = "Give"\ndescription = "give"\n'
        'program = [{ step = "give", to = "poorest" }]\n'
    )
    out = tmp_path / "never"
    proc = icli("run", "--variant", str(bad), "--games", "100", "--quiet", "--out", str(out))
    assert proc.returncode != 0
    line = proc.stderr.strip()
    assert "\n" not in line and "bad.toml" in line and "'give_away'" in line
    assert "unknown player 'poorest'" in line
    assert not out.exists()


def test_design_tries_a_variants_spaces_and_keeps_the_file(icli, tmp_path, forget_variants):
    out = tmp_path / "d"
    proc = icli(
        "design",
        "--edition",
        "spin2025",
        "--variant",
        str(PLUS_TWO),
        "--goal",
        "mean_turns=60",
        "--vary",
        "wheel=two_x,everyone_draws_one,give_away",
        "--vary",
        "space:everyone_draws_one.draw=1:2",
        "--trials",
        "4",
        "--games",
        "500",
        "--stages",
        "2",
        "--threads",
        "1",
        "--quiet",
        "--json",
        "--out",
        str(out),
    )
    assert proc.returncode == 0, proc.stderr
    spec = json.loads((out / "design.json").read_text())
    assert spec["variant"]["text"] == PLUS_TWO.read_text()
    designs = pd.read_csv(out / "designs.csv")
    tried = [parse_rules(r) for r in designs["rules"]]
    assert all(r.variant is not None for r in tried)
    counts = {
        (r.option("wheel")["everyone_draws_one"], r.option("wheel")["give_away"]) for r in tried
    }
    assert (0, 0) in counts and len(counts) > 1  # the published wheel first, then others
    answer = json.loads(proc.stdout)
    best = parse_rules(answer["rules"])
    assert answer["steps"] == {
        "everyone_draws_one.draw": best.variant.space("everyone_draws_one").program[0].get("n")
    }
    # the study resumes in a fresh process from design.json alone
    V._KNOWN.clear()
    again = icli("design", "--resume", str(out), "--quiet", "--json")
    assert again.returncode == 0, again.stderr
    assert json.loads(again.stdout)["rules"] == json.loads(proc.stdout)["rules"]


def test_wheel_measures_a_variants_spaces(icli, tmp_path):
    out = tmp_path / "w"
    proc = icli(
        "wheel", "--variant", str(PLUS_TWO), "--games", "400", "--threads", "1", "--out", str(out)
    )
    assert proc.returncode == 0, proc.stderr
    effects = pd.read_csv(out / "space_effects.csv")
    assert {"everyone_draws_one", "give_away"} <= set(effects["space"])


def test_a_variant_written_back_as_toml_is_the_same_content():
    from unospin_sim.rules.variant_text import variant_toml

    for f in sorted(EXAMPLES.glob("*.toml")):
        v = V.load_variant(f)
        assert V.variant_from_text(variant_toml(v)).content_hash == v.content_hash, f.name


def test_a_step_number_changed_is_another_variant_with_only_that_number_changed():
    from unospin_sim.rules.variant_text import step_number, with_step_number

    v = V.load_variant(EXAMPLES / "more_spaces.toml")
    assert step_number(v, "card_shower", "draw") == (1, 1, 20)  # inside a repeat
    w = with_step_number(v, "card_shower", "draw", 3)
    assert w.key != v.key and step_number(w, "card_shower", "draw")[0] == 3
    (repeat,) = w.space("card_shower").program
    assert repeat.get("times") == 3 and repeat.get("steps")[0].get("who") == "others"
    for s in v.spaces:  # every other space as it was
        if s.name != "card_shower":
            assert w.space(s.name) == s
    assert with_step_number(v, "card_shower", "draw", 1) is v  # its own number
    # the drawn wheel's words say the number: a note after the description, one per step
    assert w.space("card_shower").description.endswith("three times round (draw n = 3)")
    w2 = with_step_number(w, "card_shower", "draw", 4)
    assert w2.space("card_shower").description.count("(draw") == 1
    assert V.load_variant(EXAMPLES / "more_spaces.toml") == v
    assert step_number(v, "trim_the_previous", "discard")[0] == 3  # keep, what = down_to
    assert with_step_number(v, "charity", "give", 5).space("charity").program[0].get("n") == 5
    with pytest.raises(RuleError, match="n must be 1..20, got 21"):
        with_step_number(v, "card_shower", "draw", 21)
    with pytest.raises(RuleError, match="space 'u_turn' has no draw step"):
        with_step_number(v, "u_turn", "draw", 2)


def test_the_designer_varies_a_step_number():
    from unospin_sim.studies.design.space import design_rules, knob_default, parse_vary

    base = RuleSet.build("spin2025", variant=V.load_variant(PLUS_TWO))
    (k,) = parse_vary(["space:give_away.give=1:3"], base)
    assert (k.name, k.low, k.high) == ("space:give_away.give", 1, 3)
    assert knob_default(base, k.name) == 1
    r = design_rules(base, 4, {"space:give_away.give": 3, "wheel.give_away": 2})
    assert r.variant.space("give_away").program[0].get("n") == 3
    assert r.option("wheel")["give_away"] == 2
    assert r.variant.space("everyone_draws_one") == base.variant.space("everyone_draws_one")


def test_a_2025_space_putting_cards_on_top_is_refused_under_jump_in(tmp_path):
    f = tmp_path / "tops.toml"
    f.write_text(
        '[spaces.dump]\ntitle = "Dump"\ndescription = "discard a colour on top"\n'
        'program = [{ step = "discard", what = "colour" }]\n'
        '[spaces.bury]\ntitle = "Bury"\ndescription = "discard a colour under"\n'
        'program = [{ step = "discard", what = "colour", place = "under" }]\n'
    )
    v = V.load_variant(f)
    with pytest.raises(RuleError, match="'dump' puts cards on top of the pile.*jump_in=true"):
        RuleSet.build("spin2025", variant=v, jump_in=True, wheel={"dump": 1, "two_x": 1})
    RuleSet.build("spin2025", variant=v, jump_in=True, wheel={"bury": 1, "two_x": 1})
    RuleSet.build("spin2025", variant=v, wheel={"dump": 1, "two_x": 1})
    RuleSet.build("spin2005", variant=v, jump_in=True, wheel={"dump": 1, "war": 1})


def test_a_variant_rule_set_pickles_to_a_fresh_worker(forget_variants):
    import pickle

    rs = plus_two()
    data = pickle.dumps(RunSpec.build(rs, "random", games=10, seed=1))
    V._KNOWN.clear()  # a Dask worker or a spawned process has read no variant file
    spec = pickle.loads(data)
    assert spec.rules == rs and str(spec.rules) == str(rs)
    assert parse_rules(str(rs)) == rs  # and its rule strings parse there from then on


def test_the_variant_flag_and_a_rule_string_naming_its_wheel_agree(icli):
    for rules in ("spin2025(players=3)", "spin2025(players=3,wheel=spin2025_plus_two)"):
        proc = icli("play", "--variant", str(PLUS_TWO), "--rules", rules, "--game", "1")
        assert proc.returncode == 0, proc.stderr
        assert proc.stdout.splitlines()[0] == f"rules: {plus_two().replace(players=3)}"
