"""Benchmarks and the test-only puzzle generators (not part of the shipped pysolver package).

``python3 build.py bench`` runs the suite through ``bench.harness``; ``bench.generators`` makes
seeded random puzzles for the tests and benchmarks.
"""
