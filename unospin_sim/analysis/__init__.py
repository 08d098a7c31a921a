"""Pandas analyses of results tables, with confidence intervals."""
