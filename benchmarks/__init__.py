"""Benchmarks, run by `python -m benchmarks` (or `make bench`).

Each module `benchmarks/bench_<name>.py` defines `main()`, which measures something and returns a
JSON-serialisable dict of results. The runner writes them to var/bench/<name>.json.
"""
