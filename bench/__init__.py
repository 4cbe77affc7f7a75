"""Benchmarks of webferret against its peers on a simulated internet (`python -m bench`)."""
