"""``ivy.compile`` for the torch backend: ``torch.compile`` with the caller's options.

Kept framework-free at import: torch is imported only when a function is compiled.

Dynamo traces Ivy's dispatch (the public op, its dispatch table, the plugin function) down to the
torch ops, and by default it guards every Python object it read on the way: the ``ivy`` module's
attributes, the dispatch tables and their keys, the plugin modules' globals. Those guards run on
every call of the compiled function (some as Python lambdas) and made it several microseconds
slower per call than the same function written with torch ops. ``ivy.compile`` therefore drops the
guards on Ivy's own objects, which makes Ivy's dispatch a trace-time decision, as it is under
``jax.jit`` and ``tf.function``: every guard on the function's inputs, on the user's own globals
and on torch's global state stays, so new shapes, dtypes, devices or user constants still
recompile.
"""

from __future__ import annotations

import re
import types
from collections.abc import Callable, Mapping
from typing import Any

from ivy.plugin import hookimpl

__all__ = ["ivy_compile"]

# Source names dynamo gives Ivy's modules and the Python functions behind the C dispatchers. Not
# ``ivy.testing``'s: its test modules hold state of their own (optimizers, counters) that a
# compiled step reads and changes, like any user module: their guards stay, or a counter the step
# changes would be replayed from the first compile.
_IVY_SOURCE = re.compile(r"__import_ivy(_torch)?(?!_dot_testing(_dot_|'))(_dot_\w+)?'\]|\.__ivy_python__\b")
_IVY_MODULE = re.compile(r"(?!ivy\.testing(\.|$))ivy(_torch)?(\.|$)")


def _is_ivy_object(value: Any) -> bool:
    if getattr(value, "__ivy_spec__", None) is not None:  # a public op (C dispatcher or function)
        return True
    return isinstance(value, types.ModuleType) and _IVY_MODULE.match(value.__name__) is not None


def _generated_scopes() -> tuple[str, ...]:
    """Dynamo's names for the globals of Ivy's generated dispatch functions (one dict for all)."""
    import ivy

    ids = set()
    for name in ("add", "linear", "zeros"):
        op = getattr(ivy, name, None)
        g = getattr(getattr(op, "__ivy_python__", op), "__globals__", None)
        if g is not None:
            ids.add(id(g))
    return tuple(f"___unnamed_scope_{i}_" for i in ids)


def _word_char(text: str, i: int) -> bool:
    return 0 <= i < len(text) and (text[i].isalnum() or text[i] == "_")


def _mentions(text: str, roots: list[str]) -> bool:
    for root in roots:
        i = text.find(root)
        while i >= 0:
            end = i + len(root)
            # whole names only: `ivy` must not match `ivy_config` or `privy`
            if not (_word_char(text, end) or _word_char(text, i - 1)):
                return True
            i = text.find(root, i + 1)
    return False


def _other_sources(entry: Any) -> list[str]:
    """The second source of a relational guard (``a is b``: DUPLICATE_INPUT and the like)."""
    out = []
    for v in (getattr(entry.orig_guard.create_fn, "keywords", None) or {}).values():
        try:
            name = getattr(v, "name", None)  # a property in recent torch, a method before
            name = name() if callable(name) else name
        except Exception:  # a source that cannot name itself: judge by the first
            continue
        if isinstance(name, str):
            out.append(name)
    return out


def drop_ivy_guards(entries: list[Any]) -> list[bool]:
    """A ``guard_filter_fn`` for ``torch.compile``: keep every guard but those on Ivy's objects."""
    scopes = _generated_scopes()
    # The sources of Ivy objects (``L['ivy']``, ``G['f'].__closure__[0].cell_contents.gelu``):
    # guards on anything reached through them go too.
    roots = [e.name for e in entries if e.has_value and e.name and _is_ivy_object(e.value)]
    keep = []
    for e in entries:
        text = " ".join([e.name, *_other_sources(e)])
        ivy_internal = _IVY_SOURCE.search(text) is not None or any(s in text for s in scopes) or _mentions(text, roots)
        keep.append(not ivy_internal)
    return keep


def _supports_guard_filter() -> bool:
    try:
        from torch._dynamo.types import GuardFilterEntry  # noqa: F401 - torch >= 2.8
    except ImportError:
        return False
    return True


@hookimpl
def ivy_compile(backend: str, fn: Callable[..., Any], options: Mapping[str, Any]) -> Callable[..., Any] | None:
    if backend != "torch":
        return None
    import torch

    kwargs = dict(options)
    # torch.compile takes either `mode` or `options`, not both: with a mode, the guards stay.
    if kwargs.get("mode") is None and _supports_guard_filter():
        inner = dict(kwargs.get("options") or {})  # a copy: torch.compile pops from it
        user_filter = inner.get("guard_filter_fn")
        if user_filter is None:
            inner["guard_filter_fn"] = drop_ivy_guards
        else:

            def both(entries: list[Any]) -> list[bool]:
                return [a and b for a, b in zip(user_filter(entries), drop_ivy_guards(entries))]

            inner["guard_filter_fn"] = both
        kwargs["options"] = inner
    return torch.compile(fn, **kwargs)
