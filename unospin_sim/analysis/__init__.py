"""Pandas analyses of results tables, each estimate with a 95% confidence interval.

- :mod:`.summary` -- the end-of-run summary (seat win rates, mean turns)
- :mod:`.seats` -- seat win rates and the first player's advantage: seat order and the
  player who acts first (``first_player_table``)
- :mod:`.wheel` -- each wheel space observed, relative to the rest of the wheel (``space_effects``)
- :mod:`.wheel_effects` -- absolute space effects from paired replays (``wheel_effects``)
- :mod:`.luck` -- how much luck a wheel deals its spinner (``wheel_luck``)
- :mod:`.race` -- matches to 500 points assembled from rounds (``assemble_matches``)
- :mod:`.compare` -- balance of several editions / rule sets side by side (``balance_table``)
- :mod:`.verdict` -- every run against a base, measure by measure, paired where the runs
  dealt the same rounds (``compare_runs``; the ``compare`` command)
- :mod:`.skill` -- a tournament's skill figures and skill ladder (``skill_ladder``)
"""

from .compare import balance_table, difference_table, sensitivity_table
from .luck import wheel_luck
from .race import assemble_matches, player_win_rates, race_summary
from .seats import first_player_advantage, first_player_table, seat_win_rates
from .summary import format_summary, summarize
from .wheel import catch_up_table, space_effects
from .wheel_effects import format_wheel_effects, wheel_effects

__all__ = [
    "assemble_matches",
    "balance_table",
    "catch_up_table",
    "difference_table",
    "first_player_advantage",
    "first_player_table",
    "format_summary",
    "format_wheel_effects",
    "player_win_rates",
    "race_summary",
    "seat_win_rates",
    "sensitivity_table",
    "space_effects",
    "summarize",
    "wheel_effects",
    "wheel_luck",
]
