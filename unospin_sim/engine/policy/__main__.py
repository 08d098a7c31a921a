"""``python -m unospin_sim.engine.policy [--check]``: write (or check) the generated dispatch,
engine/policy/dispatch.py, from the strategy modules' exports (policy/decisions.py)."""

import sys

from .decisions import main

if __name__ == "__main__":
    sys.exit(main())
