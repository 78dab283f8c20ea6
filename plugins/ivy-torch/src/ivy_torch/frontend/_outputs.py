"""The structure of a program's outputs, from torch.export's pytree spec of them.

Tuples, lists and dicts stay what they are; a namedtuple becomes a dict by field name. Other
classes registered as pytree nodes with string keys, a Hugging Face ``ModelOutput`` first among
them, become :class:`ivy.transpile.Record`\\ s: the fields the model set, in order (as
``ModelOutput.to_tuple()`` lists them), read as ``out.last_hidden_state``,
``out["last_hidden_state"]`` or ``out[0]``, and a declared field left unset reads ``None``. Other
registered classes become tuples of their children.
"""

from __future__ import annotations

import collections
import dataclasses
from collections.abc import Iterator
from typing import Any

from ivy.transpile import Record

__all__ = ["unflatten"]

#: mappings that stay dicts
_PLAIN = (dict, collections.OrderedDict, collections.defaultdict)


def _fields(kind: type, keys: list[str]) -> list[str]:
    """Every field the class declares (a ``ModelOutput`` is a dataclass), else the keys."""
    if dataclasses.is_dataclass(kind):
        return [f.name for f in dataclasses.fields(kind)]
    return keys


def _build(spec: Any, leaves: Iterator[Any]) -> Any:
    if spec.is_leaf():
        return next(leaves)
    children = [_build(child, leaves) for child in spec.children()]
    kind, context = spec.type, spec.context
    if kind is tuple or kind is list:
        return kind(children)
    if issubclass(kind, tuple) and hasattr(kind, "_fields"):
        return dict(zip(kind._fields, children))
    if isinstance(context, (list, tuple)) and all(isinstance(k, str) for k in context):
        if kind in _PLAIN:
            return dict(zip(context, children))
        return Record(zip(context, children), type_name=kind.__name__, fields=_fields(kind, list(context)))
    return tuple(children)


def unflatten(spec: Any, leaves: list[Any]) -> Any:
    """The outputs ``leaves`` (in torch.export's flat order) in the structure ``spec`` says."""
    return _build(spec, iter(leaves))
