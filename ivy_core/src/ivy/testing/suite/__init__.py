"""Ivy's conformance suite: the cross-backend tests every backend passes, run against one backend
per process with Ivy's pytest plugin::

    python -m pytest -p ivy.testing --ivy-backend NAME --pyargs ivy.testing.suite

Arrays are converted through the backend itself where it is not one of the in-tree frameworks
(``ivy.testing.convert``), so a new backend needs no registration here.
"""
