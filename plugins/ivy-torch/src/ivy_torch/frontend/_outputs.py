"""The structure of a program's outputs, from torch.export's pytree spec of them.

Tuples, lists and dicts stay what they are. Classes with named fields become dicts by field
name, in order: a Hugging Face ``ModelOutput`` (``{"last_hidden_state": ..., "pooler_output":
...}``: the fields the model set, as ``ModelOutput.to_tuple()`` lists them; read them as
``out["last_hidden_state"]``, as on a ``ModelOutput``), a namedtuple, any class registered as a
pytree node with string keys. Other registered classes become tuples of their children.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

__all__ = ["unflatten"]


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
        return dict(zip(context, children))
    return tuple(children)


def unflatten(spec: Any, leaves: list[Any]) -> Any:
    """The outputs ``leaves`` (in torch.export's flat order) in the structure ``spec`` says."""
    return _build(spec, iter(leaves))
