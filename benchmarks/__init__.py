"""Reporting benchmarks: each module prints a small table; ``python -m benchmarks`` runs all."""
