"""Benchmark scripts: each runs with `python -m benchmarks.NAME` and writes benchmarks/results/NAME.json."""
