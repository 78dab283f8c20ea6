"""State threaded through a traced function: the modules and optimizers it reaches by name or
gets as arguments (as ``ivy.compile`` finds them, see :mod:`ivy._tracking`). Their state
(variables, buffers, moments, step counts) becomes the graph's first argument ``state`` and its
new value a second output, so that the graph is a pure function; calling the graph through Ivy
reads the objects' state and writes the new state back, as the eager function would have."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .. import _tracking, nest
from ._errors import GraphTraceError

__all__ = ["members_of", "read_states", "structure", "write_states"]


def members_of(fn: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any]) -> list[Any]:
    """The stateful objects ``fn`` reaches (each module of a module tree on its own)."""
    found: dict[int, Any] = {id(o): o for o in _tracking.reachable_stateful(fn)}
    for a in (*args, *kwargs.values()):
        if _tracking.is_stateful(a):
            for m in a._ivy_members():
                found.setdefault(id(m), m)
    out = list(found.values())
    for m in out:
        if not m._ivy_ready():
            raise GraphTraceError(
                f"the traced function uses a {type(m).__name__} that has not built its variables yet: call "
                "the function (or the module) once on an input first, then trace it"
            )
    return out


def read_states(members: list[Any], asarray: Callable[[Any], Any]) -> list[Any]:
    """Each object's state, Python numbers as 0-d arrays (a step count must be an input, not a
    constant of the graph)."""

    def arr(x: Any) -> Any:
        return asarray(x) if isinstance(x, (int, float)) and not isinstance(x, bool) else x

    return [nest.map(arr, m._ivy_get_state()) for m in members]


def write_states(members: list[Any], states: list[Any], *, concrete: bool) -> None:
    for m, s in zip(members, states):
        m._ivy_set_state(s, concrete=concrete)


def structure(states: Any) -> Any:
    """What must stay the same between the traced state and a later one: the nest's structure
    (keys, lengths), with ``None`` where a leaf is ``None``."""
    t = type(states)
    if t is tuple or t is list:
        return (t.__name__, tuple(structure(x) for x in states))
    if isinstance(states, dict):
        return ("dict", tuple((k, structure(x)) for k, x in states.items()))
    return None if states is None else "leaf"
