"""Shared helpers of Ivy's cross-backend reference tests (a package: pytest runs with
``--import-mode=importlib``)."""
