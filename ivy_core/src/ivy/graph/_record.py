"""Outputs with named fields (a Hugging Face ``ModelOutput``) as a transpiled model returns them.

A graph holds plain dicts; where the source returned a record class, the frontend builds a
:class:`Record` and :func:`ivy.plugin_kit.trace_program` notes where it was in the outputs
(``graph.meta["records"]``: its path, the source class's name and declared fields, plain JSON, so
it survives the disk cache). The target puts the records back around the program's outputs
(:func:`restore_records`): ``out.last_hidden_state``, ``out["last_hidden_state"]`` and ``out[0]``
read the same array, as on the source's ``ModelOutput``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

__all__ = ["Record", "strip_records", "restore_records"]


class Record(dict[Any, Any]):
    """A dict of outputs whose keys are also attributes and positions, in the source's order.

    It stands for the record class the source returned (``type_name``, shown by ``repr``): a
    Hugging Face ``ModelOutput`` comes back as a ``Record`` with the fields the model set, read as
    ``out.logits``, ``out["logits"]`` or ``out[0]`` (``out.to_tuple()``: the values in order). A
    field the class declares but the model left unset reads ``None`` as an attribute, as on the
    ``ModelOutput``; other missing names raise ``AttributeError``/``KeyError``. JAX and torch
    treat it as a pytree node (it can be returned from ``jax.jit``/``torch.compile``),
    ``tf.nest`` as a mapping.

    Args:
        items: the fields and values, as ``dict(items)`` takes them.
        type_name: the source class's name.
        fields: every field the source class declares (default: the keys).
    """

    __slots__ = ("_type_name", "_fields")

    def __init__(self, items: Any = (), /, *, type_name: str = "Record", fields: Iterable[str] | None = None):
        super().__init__(items)
        object.__setattr__(self, "_type_name", str(type_name))
        object.__setattr__(self, "_fields", tuple(fields) if fields is not None else tuple(self))

    @property
    def type_name(self) -> str:
        """The name of the class the source returned (``"BaseModelOutput"``)."""
        return self._type_name

    def to_tuple(self) -> tuple[Any, ...]:
        """The values, in order (as ``ModelOutput.to_tuple()``)."""
        return tuple(self.values())

    def __getitem__(self, key: Any) -> Any:
        if isinstance(key, (int, slice)) and not isinstance(key, bool):
            return self.to_tuple()[key]
        return dict.__getitem__(self, key)

    def __getattr__(self, name: str) -> Any:
        try:
            return dict.__getitem__(self, name)
        except KeyError:
            pass
        if not name.startswith("__") and name in object.__getattribute__(self, "_fields"):
            return None  # declared by the source class, not set by this call
        raise AttributeError(f"{self._type_name} has no field {name!r} (it has {list(self)})")

    def __setattr__(self, name: str, value: Any) -> None:
        if name in Record.__slots__:
            raise AttributeError(f"{name} is read-only")
        self[name] = value

    def __dir__(self) -> list[str]:
        return sorted({*super().__dir__(), *(k for k in self if isinstance(k, str))})

    def __repr__(self) -> str:
        return f"{self._type_name}({', '.join(f'{k}={v!r}' for k, v in self.items())})"

    def __reduce__(self) -> Any:
        return (_make, (self._type_name, self._fields, list(self.items())))

    def __copy__(self) -> Record:
        return _make(self._type_name, self._fields, list(self.items()))


def _make(type_name: str, fields: tuple[str, ...], items: list[tuple[Any, Any]]) -> Record:
    return Record(items, type_name=type_name, fields=fields)


def strip_records(tree: Any, path: tuple[Any, ...] = ()) -> tuple[Any, list[dict[str, Any]]]:
    """``tree`` with each :class:`Record` made a plain dict, and where they were: a list of
    ``{"path": [key or index...], "type_name": ..., "fields": [...], "keys": [...]}``, outermost
    first (``keys``: the order the source set them in, which a target's dicts may not keep: JAX
    sorts them)."""
    found: list[dict[str, Any]] = []

    def walk(x: Any, at: tuple[Any, ...]) -> Any:
        t = type(x)
        if isinstance(x, Record):
            found.append({"path": list(at), "type_name": x.type_name, "fields": list(x._fields), "keys": list(x)})
            return {k: walk(v, (*at, k)) for k, v in x.items()}
        if t is dict:
            return {k: walk(v, (*at, k)) for k, v in x.items()}
        if t is tuple or t is list:
            return t(walk(v, (*at, i)) for i, v in enumerate(x))
        return x

    return walk(tree, path), found


def restore_records(tree: Any, records: Any) -> Any:
    """``tree`` (a program's outputs) with the dicts ``records`` (:func:`strip_records`'
    list, from ``graph.meta["records"]``) made :class:`Record`\\ s again."""
    if not records:
        return tree
    # innermost first: an outer record is rebuilt around inner ones already made
    for rec in sorted(records, key=lambda r: -len(r["path"])):
        tree = _at(tree, list(rec["path"]), lambda d, r=rec: _record(d, r))
    return tree


def _record(d: dict[Any, Any], rec: dict[str, Any]) -> Record:
    order = [k for k in rec.get("keys") or () if k in d]
    order += [k for k in d if k not in set(order)]
    return Record(((k, d[k]) for k in order), type_name=rec["type_name"], fields=rec["fields"])


def _at(tree: Any, path: list[Any], fn: Any) -> Any:
    """``tree`` with the node at ``path`` replaced by ``fn(node)`` (containers on the way copied)."""
    if not path:
        return fn(tree) if isinstance(tree, dict) else tree
    key, rest = path[0], path[1:]
    if isinstance(tree, dict) and key in tree:
        new = Record(tree, type_name=tree.type_name, fields=tree._fields) if isinstance(tree, Record) else dict(tree)
        new[key] = _at(tree[key], rest, fn)
        return new
    if type(tree) in (tuple, list) and isinstance(key, int) and 0 <= key < len(tree):
        items = list(tree)
        items[key] = _at(items[key], rest, fn)
        return type(tree)(items)
    return tree  # (the outputs do not have the structure the graph noted: left as they are)
