"""Studies built on runs: which strategy plays better and how much of the game is skill
(:mod:`.tournament`), strategy ``tuned``'s weights (:mod:`.tune`), which rules reach a
designer's goals (:mod:`.design`), and how well ``search`` infers the hands it cannot see
(:mod:`.inference_quality`).
"""
