"""``python -m unospin_sim``: the command line (see :mod:`unospin_sim.cli`)."""

from unospin_sim.cli import main

raise SystemExit(main())
