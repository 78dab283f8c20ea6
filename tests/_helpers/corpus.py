"""An adversarial corpus generated from a real graph document: every field of the document
(each leaf, each key) replaced in turn by strings that would be code if pasted into Python (a
shell command that creates a marker file, line breaks, quotes, triple quotes, brackets) and by
bad numbers (negative, huge, floats, booleans, strings, out-of-range references).

Used by the reliability tests of stored graphs and of the transpile cache: whatever a mutant
does, the marker file must never appear; a mutant is either refused at load with an error naming
the file and the field, or (a field that never becomes code) gives the original's answer, or
fails with a clear error when run.
"""

from __future__ import annotations

import ast
import copy
from collections.abc import Iterator
from pathlib import Path
from typing import Any

__all__ = ["Mutant", "payloads", "mutants", "set_at", "fields_never_computed", "calls_nothing_foreign"]


def payloads(marker: Path) -> list[str]:
    """Strings that run ``touch <marker>`` if any part of Ivy pasted them into code it runs."""
    cmd = f"__import__('os').system('touch {marker}')"
    return [
        cmd,
        f"x) or {cmd} or (x",
        f"x]; {cmd}; [x",
        f"a\n{cmd}\n",
        f'"""\n{cmd}\n"""',
        f"'''\n{cmd}\n'''",
        f'""" + {cmd} + """',
        f"' + {cmd} + '",
        f"x={cmd}",
        f"\u2028{cmd}",
        "\\",
        "a" * 5000,
    ]


#: the objects of a graph document whose keys are names (not the document's own field names)
_FREE_MAPS = frozenset({"params", "param_values", "state_updates", "constants", "meta", "weight_map", "torch_ops"})

#: what replaces a number
BAD_NUMBERS: list[Any] = [-1, 2**64, 1.5, True, "3"]


class Mutant:
    """One mutated document: ``path`` (the JSON path of the field), what it became."""

    __slots__ = ("path", "doc", "what")

    def __init__(self, path: tuple[Any, ...], doc: Any, what: str):
        self.path = path
        self.doc = doc
        self.what = what

    def __repr__(self) -> str:
        return f"<Mutant {'/'.join(map(str, self.path))} := {self.what[:60]!r}>"


def _leaves(x: Any, path: tuple[Any, ...]) -> Iterator[tuple[tuple[Any, ...], Any, bool]]:
    """``(path, value, is_key)`` for each leaf and each object key of a JSON document."""
    if isinstance(x, dict):
        for k, v in x.items():
            yield (*path, k), k, True
            yield from _leaves(v, (*path, k))
    elif isinstance(x, list):
        for i, v in enumerate(x):
            yield from _leaves(v, (*path, i))
    else:
        yield path, x, False


def set_at(doc: Any, path: tuple[Any, ...], value: Any, *, key: bool = False) -> Any:
    """``doc`` with the field at ``path`` replaced (``key``: the object key renamed); the objects
    and lists along the path are copies, the rest is shared with ``doc`` (which is unchanged)."""
    out = copy.copy(doc)
    parent = out
    for p in path[:-1]:
        parent[p] = copy.copy(parent[p])
        parent = parent[p]
    last = path[-1]
    if key:
        parent[value] = parent.pop(last)
    else:
        parent[last] = value
    return out


def mutants(doc: dict[str, Any], marker: Path) -> Iterator[Mutant]:
    """Every mutant of ``doc``: each string leaf and key by each payload, each number by each
    bad number (references included), each boolean and null by a payload and a number."""
    strings = payloads(marker)
    for path, value, is_key in _leaves(doc, ()):
        if is_key:
            if isinstance(path[-1], str) and path[-1].startswith("$"):
                yield Mutant(path, set_at(doc, path, strings[0], key=True), f"tag {path[-1]} renamed")
                continue
            # a key of a free-form map (parameter names, constants, notes) by each payload; a
            # field name of the fixed layout by one (each is refused the same way)
            free = len(path) >= 2 and path[-2] in _FREE_MAPS
            for s in strings[:8] if free else strings[:1]:
                if s not in _parent(doc, path):
                    yield Mutant(path, set_at(doc, path, s, key=True), s)
            continue
        if isinstance(value, str):
            for s in strings:
                yield Mutant(path, set_at(doc, path, s), s)
        elif isinstance(value, (int, float)) and not isinstance(value, bool):
            for n in BAD_NUMBERS:
                yield Mutant(path, set_at(doc, path, n), repr(n))
            yield Mutant(path, set_at(doc, path, strings[0]), strings[0])
        else:  # booleans and nulls
            for n in (strings[0], 7):
                yield Mutant(path, set_at(doc, path, n), repr(n))


def _parent(doc: Any, path: tuple[Any, ...]) -> Any:
    for p in path[:-1]:
        doc = doc[p]
    return doc


def fields_never_computed(path: tuple[Any, ...]) -> bool:
    """Whether a field only names or annotates (a value's hint, a graph's name, a node's source
    line, a note in meta): changing it must leave the program's answer as it was."""
    last = [p for p in path if isinstance(p, str)]
    return bool(last) and last[-1] in ("hint", "name", "source", "meta") or "meta" in last


def calls_nothing_foreign(src: str) -> None:
    """Generated Python in which a payload is at most a string constant or a comment: no name
    ``__import__`` and no attribute ``system`` in its syntax tree."""
    for node in ast.walk(ast.parse(src)):
        assert not (isinstance(node, ast.Name) and node.id == "__import__"), src
        assert not (isinstance(node, ast.Attribute) and node.attr == "system"), src
