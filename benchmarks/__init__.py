"""Benchmarks: ``python -m benchmarks`` prints a table (speed lives here, never in tests)."""
