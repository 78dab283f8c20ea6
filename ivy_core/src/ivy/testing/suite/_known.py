"""Known defects of the in-tree backends, recorded where the test that finds them lives.

A test marked with :func:`defect` is expected to fail on that backend alone, strictly: once the
backend is fixed the test passes, the run fails, and the mark must go. An outside backend lists
its deviations in its own ``conformance-xfails.txt`` instead (see :mod:`ivy.testing`).
"""

from __future__ import annotations

import pytest

__all__ = ["defect"]


def defect(backend: str, reason: str) -> pytest.MarkDecorator:
    """``xfail(strict=True)`` when the suite runs against ``backend``; ``reason`` says what is wrong."""
    return pytest.mark.xfail(
        f"config.getoption('ivy_backend') == {backend!r}", strict=True, reason=f"ivy-{backend}: {reason}"
    )
