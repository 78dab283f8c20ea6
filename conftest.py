"""The repository's test processes: how they collect garbage (every test tree: core, the kit, plugins,
libraries, tests/).

A backend's test process holds its framework, often two or three more (transpiler sources and
references), hypothesis and the tests' modules: millions of objects, which every full garbage
collection walks. Some frameworks collect in full on their own on a hot path (paddle's SOT
translator runs ``gc.collect()`` after each function it translates: up to half a second each in a
late test process, which made paddle's compiled tests several times slower than alone). So after
each test that imported modules (a framework, a library), the objects alive then are collected
once and moved out of the collector's sight (``gc.freeze()``): modules, their functions and
classes, session fixtures. What a test makes later is collected as usual.
"""

from __future__ import annotations

import gc
import sys
from collections.abc import Iterator

import pytest

#: freeze again once this many more modules are loaded than at the last freeze
NEW_MODULES = 20

_modules_at_freeze = [0]


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
    yield  # (after the test's own fixtures are torn down: only what outlives the test is frozen)
    loaded = len(sys.modules)
    if loaded >= _modules_at_freeze[0] + NEW_MODULES:
        gc.collect()  # what is garbage now is freed, not frozen
        gc.freeze()
        _modules_at_freeze[0] = loaded
