"""What every report section shares: the :class:`Context` each section reads and writes
(the runs, where the report goes, the blocks, findings and headline candidates added so
far), the questions the report answers first and :func:`headline`, which picks one answer
per question, and the run labels' helpers. The sections: ``balance.py`` (the runs, balance
per round, seats), ``compare.py`` (side by side, 2005 against 2025), ``wheel.py``,
``race.py``, ``luck.py``, ``skill.py`` and ``profile.py``; each adds its blocks to ``ctx.body`` and its sentences to
``ctx.findings``, and writes its tables and charts beside the report.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from .doc import Doc

__all__ = [
    "QUESTIONS",
    "SUPPLEMENTS",
    "Answer",
    "Context",
    "bots_label",
    "headline",
    "mixed_unrotated",
]

#: the questions the report answers first, in order: key -> (question, what answers it when
#: this report cannot)
QUESTIONS = {
    "length": ("How long is a round?", ""),
    "seat": ("Does the seat matter?", "needs a run with equal (or rotated) bots"),
    "wheel": (
        "Which wheel space swings a round most?",
        "needs a run with a wheel and its spin table",
    ),
    "race": (
        "Is an early lead decisive in the race to the target?",
        "needs runs whose rounds make matches",
    ),
    "skill": (
        "How much of the game is skill?",
        "needs tournaments, skill profiles or worth tables (--skill DIR_OR_CSV ...)",
    ),
    "luck": (
        "How much is luck?",
        "needs a run with a wheel and its paired replays, or the drama of a run",
    ),
    "change": ("What changed against the first run?", "needs two runs or more"),
    "editions": ("2005 against 2025", "needs a spin2005 and a spin2025 run"),
}
#: answers that are no line of their own but follow another question's answer: key -> the
#: question whose line they complete (the drama of the runs completes the wheel's luck; the
#: skill profiles and the worth of each skill complete the tournaments' skill)
SUPPLEMENTS = {"drama": "luck", "skill_profile": "skill", "worth": "skill"}


@dataclass(frozen=True)
class Answer:
    """A candidate headline: ``size`` is the effect's magnitude in its question's unit
    (None: a level, not an effect, used only when the question has no effect), ``clear``
    whether its 95% interval excludes no effect, ``text`` the finding."""

    question: str
    size: float | None
    clear: bool
    text: str


@dataclass
class Context:
    """What every section reads and writes.

    ``runs``: label -> ``(rounds, spins, meta, directory)``; ``played``: label -> the match
    table of a run that played matches in the engine, else None; ``cmd``: the command that
    reproduces the report; ``body`` and ``findings``: what the sections add.
    """

    runs: dict
    played: dict
    out: Path
    cmd: str
    target: int
    log: Callable[[str], None]
    wheel_games: int
    threads: int | None
    body: Doc
    findings: list = field(default_factory=list)
    answers: list = field(default_factory=list)

    def answer(self, question: str, size: float | None, clear: bool, text: str) -> None:
        """Offer ``text`` as a headline answer to ``question`` (a key of QUESTIONS)."""
        assert question in QUESTIONS or question in SUPPLEMENTS, question
        self.answers.append(Answer(question, size, bool(clear), text))


def headline(answers) -> list[str]:
    """One line per question of QUESTIONS: the largest effect whose 95% interval excludes no
    effect; without one, that no effect is distinguishable (and the largest seen); a level
    (``size`` None) only where the question has no effect at all; then the first answer of
    each supplement of the question (:data:`SUPPLEMENTS`)."""
    lines = []
    for key, (question, missing) in QUESTIONS.items():
        cands = [a for a in answers if a.question == key]
        extra = [
            next(a.text for a in answers if a.question == sup)
            for sup, to in SUPPLEMENTS.items()
            if to == key and any(a.question == sup for a in answers)
        ]
        effects = [a for a in cands if a.size is not None]
        clear = [a for a in effects if a.clear]
        if clear:
            text = max(clear, key=lambda a: abs(a.size)).text
        elif effects:
            text = (
                "no effect distinguishable from none at 95%; the largest seen: "
                + max(effects, key=lambda a: abs(a.size)).text
            )
        elif cands:
            text = cands[0].text
        elif extra:
            text = extra.pop(0)
        else:
            text = f"not measured here ({missing})."
        lines.append(" ".join([f"**{question}** {text}", *extra]))
    return lines


def bots_label(meta) -> str:
    """The bots of a run in a label: one strategy, or the comma list."""
    bots = meta.get("bots", [])
    if len(set(bots)) == 1:
        return bots[0]
    return ",".join(bots)


def mixed_unrotated(meta) -> bool:
    """Whether a run seated different bots without rotating them (its seat figures would
    measure the bots, not the seats)."""
    return len(set(meta.get("bots", []))) > 1 and not meta.get("rotate_bots")
