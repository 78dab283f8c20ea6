"""What ``repr(module)`` and ``module.summary()`` show: each layer's settings (as torch prints a
module tree) and a table of layers, output shapes and parameter counts (as Keras' summary)."""

from __future__ import annotations

import inspect
from typing import Any

from .. import _api
from ..errors import ModuleNotBuiltError

__all__ = ["settings_repr", "module_repr", "summary"]

#: while a summary runs its example forward pass: id(module) -> its first output (``Module``'s
#: ``__call__`` notes it)
_record: dict[int, Any] | None = None

#: constructor arguments every module takes (see Module.__init__): not layer settings
_COMMON = frozenset({"device", "backend", "dtype", "v", "training"})


def _plain_equal(a: Any, b: Any) -> bool:
    """``a == b`` for the plain values settings hold (numbers, strings, tuples); False otherwise."""
    plain = (type(None), bool, int, float, str, tuple, list)
    if not isinstance(a, plain) or not isinstance(b, plain):
        return False
    try:
        return bool(a == b)
    except Exception:  # arrays inside a tuple: not equal as settings go
        return False


def _is_module(value: Any) -> bool:
    return hasattr(value, "_submodules") and hasattr(value, "_forward")


def _is_module_value(value: Any) -> bool:
    if _is_module(value):
        return True
    if isinstance(value, (list, tuple)) and value and all(_is_module(v) for v in value):
        return True
    return isinstance(value, dict) and bool(value) and all(_is_module(v) for v in value.values())


def settings_repr(m: Any) -> str:
    """``name=value`` for each constructor argument ``m`` keeps as an attribute of the same name
    and that differs from its default; initializers and submodules are left out."""
    try:
        params = inspect.signature(type(m).__init__).parameters
    except (TypeError, ValueError):
        return ""
    out = []
    for name, p in params.items():
        if name == "self" or name in _COMMON or p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
            continue
        if name.endswith("initializer") or name not in vars(m):
            continue
        value = vars(m)[name]
        if _is_module_value(value):
            continue
        if p.default is not p.empty and _plain_equal(value, p.default):
            continue
        if name == "data_format" and p.default is None and isinstance(value, str) and value.endswith("C"):
            continue  # the channel-last default, spelled out by the constructor
        if callable(value) and hasattr(value, "__name__") and not isinstance(value, type):
            text = value.__name__
        else:
            text = repr(value)
        out.append(f"{name}={text}")
    return ", ".join(out)


def _label(m: Any, chain: str) -> str:
    prefix = getattr(m, "_repr_strip_prefix", None)
    return chain[len(prefix) :] if prefix and chain.startswith(prefix) else chain


def module_repr(m: Any) -> str:
    """torch's layout: ``Name(settings)``, and for a module with submodules one indented line
    ``(name): repr`` per submodule."""
    head = f"{type(m).__name__}({m.extra_repr()}"
    subs = m._submodules()
    if not subs:
        return head + ")"
    lines = [head]
    for chain, sub in subs:
        text = repr(sub).replace("\n", "\n  ")
        lines.append(f"  ({_label(m, chain)}): {text}")
    return "\n".join(lines) + "\n)"


def _shapes(out: Any) -> str:
    if _api.is_native_array(out):
        return str(tuple(int(d) for d in out.shape))
    if isinstance(out, (list, tuple)):
        return "[" + ", ".join(_shapes(o) for o in out) + "]"
    if isinstance(out, dict):
        return "{" + ", ".join(f"{k}: {_shapes(o)}" for k, o in out.items()) + "}"
    return type(out).__name__


def _count(tree: Any) -> int:
    n = 0
    for x in _api.nest.leaves(tree):
        size = 1
        for d in x.shape:
            size *= int(d)
        n += size
    return n


def _rows(
    m: Any, name: str, depth: int, limit: int | None, seen: dict[int, Any], out: list[tuple[str, str, str]]
) -> None:
    for chain, sub in m._submodules():
        label = _label(m, chain)
        try:
            params = f"{_count(sub.v):,}"
        except ModuleNotBuiltError:
            params = "?"
        shape = _shapes(seen[id(sub)]) if id(sub) in seen else "?"
        out.append((f"{'  ' * depth}{label} ({type(sub).__name__})", shape, params))
        if limit is None or depth + 1 < limit:
            _rows(sub, label, depth + 1, limit, seen, out)


def summary(m: Any, args: tuple[Any, ...], kwargs: dict[str, Any], depth: int | None) -> str:
    """The table of :meth:`Module.summary`."""
    global _record
    seen: dict[int, Any] = {}
    if args or kwargs:
        from .training import inputs_for  # (the training loop's conversion: fit takes such inputs too)

        args, kwargs = inputs_for(m, (args, kwargs))
        modes = [(sub, sub.training) for _, sub in m.modules()]
        m.eval()
        prev, _record = _record, seen
        try:
            m(*args, **kwargs)
        finally:
            _record = prev
            for sub, mode in modes:
                sub.training = mode
    rows: list[tuple[str, str, str]] = []
    _rows(m, "", 0, depth, seen, rows)
    if not rows:  # a single layer: its own row
        rows.append((f"{type(m).__name__}", _shapes(seen[id(m)]) if id(m) in seen else "?", "?"))
    trainable = _count(m.v)  # raises ModuleNotBuiltError for a module that needs its input
    buffers = _count(m.state)
    if rows[0][2] == "?" and len(rows) == 1:
        rows[0] = (rows[0][0], rows[0][1], f"{trainable:,}")
    header = ("Layer (type)", "Output shape", "Param #")
    widths = [max(len(r[i]) for r in (*rows, header)) + 2 for i in range(3)]
    total_width = sum(widths)

    def line(r: tuple[str, str, str]) -> str:
        return f"{r[0]:<{widths[0]}}{r[1]:<{widths[1]}}{r[2]:>{widths[2] - 2}}"

    out = [f'Model: "{type(m).__name__}"', "=" * total_width, line(header), "=" * total_width]
    out += [line(r) for r in rows]
    out += [
        "=" * total_width,
        f"Total params: {trainable + buffers:,}",
        f"Trainable params: {trainable:,}",
        f"Non-trainable params (buffers): {buffers:,}",
    ]
    if (args or kwargs) and id(m) in seen:
        out.append(f"Output shape: {_shapes(seen[id(m)])}")
    return "\n".join(out)
