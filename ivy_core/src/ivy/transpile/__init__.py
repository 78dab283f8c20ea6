"""``ivy.transpile``: code written in one framework, converted into a program native to another.

A **frontend** (one per source framework, contributed by that framework's plugin through the
``ivy_register_frontends`` hook) reads the source program at the level of the framework's small,
stable op set (torch.export's Core ATen graph, a jaxpr, a TF graph) and interprets it with Ivy's
spec ops under the graph tracer: the result is an :class:`ivy.Graph`. The graph is then emitted
for the target (``graph.to(target)``: a program of the target's own calls), and a module's
parameters become the target's trainable variables (``BackendImpl.native_module``).

:func:`transpile` does it (the package itself is callable: ``ivy.transpile(obj, to=...)``) for functions, trainable
modules and whole libraries; :func:`frontends` lists the installed frontends;
:func:`cache_dir` / :func:`clear_cache` manage the disk cache of transpiled graphs;
:class:`ModulePrograms` is what target plugins build native modules on; :class:`Record` is
what a transpiled module returns where its source returned a record class (a Hugging Face
``ModelOutput``). See
``docs/transpiling.md``.
"""

from __future__ import annotations

import inspect as _inspect
import sys as _sys
import types as _types

from ..graph._record import Record
from ._api import transpile
from ._cache import cache_dir
from ._cache import clear as clear_cache
from ._frontends import frontends
from ._lazy import LazyClass, LazyFunction, LazyLibrary, LazyModule
from ._programs import ModulePrograms

__all__ = [
    "transpile",
    "frontends",
    "cache_dir",
    "clear_cache",
    "ModulePrograms",
    "Record",
    "LazyFunction",
    "LazyModule",
    "LazyClass",
    "LazyLibrary",
]


class _CallableModule(_types.ModuleType):
    """``ivy.transpile`` is this package, and calling it transpiles: ``ivy.transpile(obj,
    to=...)``, while ``ivy.transpile.frontends()`` and the rest are its functions."""

    __call__ = staticmethod(transpile)


_sys.modules[__name__].__class__ = _CallableModule
#: what inspect.signature and help() show for ivy.transpile(...)
__signature__ = _inspect.signature(transpile)
