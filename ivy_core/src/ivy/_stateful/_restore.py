"""Checks shared by the loaders of weights, optimizer state and checkpoints: everything a file
brings is compared with what it replaces (key chains, shapes, dtypes) before anything is
assigned, so that a failed load changes nothing."""

from __future__ import annotations

import json
import operator
from collections.abc import Mapping
from typing import Any

from .. import _api, nest
from .._dtypes import dtype_name
from ..container import SEPARATOR, Container
from ..safetensors import DTYPES

#: what a file brings or a module holds: key chain -> (shape, Ivy dtype name)
Specs = Mapping[str, tuple[tuple[int, ...], str]]


def kind(name: str) -> str:
    """``"bool"``, ``"integer"``, ``"floating"`` or ``"complex"``: values of one kind convert
    into each other's dtypes (a float64 file into float32 weights); across kinds they do not."""
    if name == "bool":
        return "bool"
    if "complex" in name:
        return "complex"
    if "int" in name:
        return "integer"
    return "floating"


def spec(x: Any) -> tuple[tuple[int, ...], str]:
    """``(shape, dtype name)`` of a native array."""
    return tuple(int(d) for d in x.shape), dtype_name(x.dtype)


def specs(arrays: Mapping[str, Any]) -> dict[str, tuple[tuple[int, ...], str]]:
    return {k: spec(x) for k, x in arrays.items()}


def header_specs(header: Mapping[str, Any], prefix: str = "") -> dict[str, tuple[tuple[int, ...], str]]:
    """The specs of a safetensors header's tensors whose names start with ``prefix`` (removed)."""
    out = {}
    for name, e in header.items():
        if name.startswith(prefix):
            # (a code no Ivy backend has, F8_E4M3 say, is a float: load_file refuses it later)
            out[name[len(prefix) :]] = (tuple(e["shape"]), DTYPES[e["dtype"]][0] if e["dtype"] in DTYPES else "float8")
    return out


def check(
    found: Specs, want: Specs, where: str, what: str = "", here: str = "in the module", there: str = "in the file"
) -> None:
    """Raise unless ``found`` (from ``where``: what is ``there``) has exactly the key chains of
    ``want`` (what is ``here``), each of the same shape and of a dtype of the same kind; ``what``
    prefixes the messages.

    Raises:
        KeyError: key chains are missing or unknown (all are named).
        ValueError: a shape or a dtype kind differs (the key chain and both are named).
    """
    missing = sorted(set(want) - set(found))
    unknown = sorted(set(found) - set(want))
    if missing or unknown:
        raise KeyError(f"{where}: {what}missing key chains {missing}; unknown key chains {unknown}")
    for k, (shape, dtype) in found.items():
        want_shape, want_dtype = want[k]
        if shape != want_shape:
            raise ValueError(f"{where}: {what}{k!r} has shape {shape} {there}, {want_shape} {here}")
        if kind(dtype) != kind(want_dtype):
            raise ValueError(
                f"{where}: {what}{k!r} is {dtype} {there}, {want_dtype} {here} (a {kind(dtype)} array "
                f"cannot replace a {kind(want_dtype)} one)"
            )


def count(value: Any, name: str, where: str) -> int:
    """A step count from a state dict or a file's metadata: a non-negative integer."""
    if isinstance(value, str) and value.isascii() and value.isdigit():
        return int(value)
    if not isinstance(value, bool):
        try:
            n = operator.index(value)
        except TypeError:
            pass
        else:
            if n >= 0:
                return n
    raise ValueError(f"{where}: {name} must be a non-negative integer, got {value!r}")


def json_list(text: str, name: str, where: str) -> list[str]:
    """A list of key chains kept as JSON in a file's metadata."""
    try:
        out = json.loads(text)
    except ValueError:
        out = None
    if not isinstance(out, list) or not all(isinstance(k, str) for k in out):
        raise ValueError(f"{where}: the metadata {name!r} is not a JSON list of key chains: {text[:80]!r}")
    return out


# ------------------------------------------------------------------ nests by path


def paths(s: nest.Structure, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """The path (keys and indices) of each leaf of a nest structure, in leaf order."""
    if s.kind == "leaf":
        return [prefix]
    keys = s.meta[1] if s.kind == "dict" else range(len(s.children))
    return [p for k, c in zip(keys, s.children) for p in paths(c, (*prefix, k))]


def reorder(old: nest.Structure, new: nest.Structure) -> list[int] | None:
    """For each leaf of ``new``, the index of the leaf at the same path in ``old``; None when
    the two hold different paths."""
    where = {p: i for i, p in enumerate(paths(old))}
    wanted = paths(new)
    if len(wanted) != len(where) or any(p not in where for p in wanted):
        return None
    return [where[p] for p in wanted]


def chain(path: tuple[Any, ...]) -> str:
    return SEPARATOR.join(str(p) for p in path)


def by_chain(tree: Any) -> dict[str, Any]:
    """The leaves of a nest by key chain (list items by index)."""
    leaves, structure = nest.tree_flatten(tree)
    return {chain(p): x for p, x in zip(paths(structure), leaves)}


# ------------------------------------------------------------------ optimizer state


def load_optimizer_state(opt: Any, state: Mapping[str, Any], where: str) -> None:
    """``opt.load_state_dict(state)``: everything checked first; a failure changes nothing."""
    for key in ("step_count", "state"):
        if key not in state:
            raise KeyError(f"{where}: no {key!r} in the state (it holds {sorted(state)})")
    step_count = count(state["step_count"], "step_count", where)
    micro_step = count(state.get("micro_step", 0), "micro_step", where)
    if micro_step >= opt.accumulate_steps:
        raise ValueError(
            f"{where}: micro_step {micro_step} is not below this optimizer's accumulate_steps ({opt.accumulate_steps})"
        )
    tree = state["state"]
    tree = tree if isinstance(tree, Container) else Container(tree)
    check_optimizer_state(opt, tree, where)
    undo = dict(opt.__dict__)
    try:
        opt.state = tree  # (checks the nests' structures, then assigns)
        opt.step_count, opt.micro_step = step_count, micro_step
        opt._step_array = opt._micro_array = None
        opt._check_loaded = True
    except BaseException:
        opt.__dict__.clear()
        opt.__dict__.update(undo)
        raise


def check_optimizer_state(opt: Any, tree: Mapping[str, Any], where: str) -> None:
    """Check a state about to be loaded into the optimizer ``opt``: its names, the key chains of
    its nests, and (where ``opt`` holds state) key chains, shapes and dtype kinds against that."""
    names = opt._state_names()
    name_of = type(opt).__name__
    if names is not None and not set(tree) <= names:
        raise ValueError(
            f"{where}: the state holds {sorted(set(tree) - names)}, which {name_of} does not keep "
            f"(it keeps {sorted(names)}): the state of another kind of optimizer, or of other settings"
        )
    flats = {name: by_chain(sub) for name, sub in tree.items()}
    if names is not None:
        for name, found in flats.items():
            bad = [k for k, x in found.items() if not _api.is_native_array(x)]
            if bad:
                raise ValueError(f"{where}: the state {name}/{bad[0]} is not an array ({type(found[bad[0]]).__name__})")
    first = next(iter(flats), None)
    for name, found in flats.items():
        if first is not None and set(found) != set(flats[first]):
            raise KeyError(
                f"{where}: the state {name!r} and {first!r} differ in key chains: "
                f"{sorted(set(found) ^ set(flats[first]))}"
            )
    if names is None:
        return  # (a subclass's own state: its leaves need not be arrays)
    held: dict[str, dict[str, Any]] = {}
    if opt._flat is not None:
        structure, named = opt._flat
        held = {n: by_chain(nest.tree_unflatten(structure, leaves)) for n, leaves in named.items()}
    held.update({n: by_chain(t) for n, t in opt._state.items()})
    for name, found in flats.items():
        if name in held:  # (accumulated sums come and go: compared only with those held)
            check(specs(found), specs(held[name]), where, f"optimizer state {name}: ", "held", "loaded")


def fit_loaded_state(opt: Any, leaves: list[Any], structure: Any) -> None:
    """The first step of ``opt`` after a load: the loaded state must have the key chains and the
    shapes of the variables ``leaves``; its arrays take their dtypes. Raises (changing nothing)
    otherwise."""
    name_of = type(opt).__name__
    want_paths = paths(structure)
    want = [spec(x) for x in leaves]

    def fitted(name: str, old: Any, old_leaves: list[Any]) -> list[Any]:
        order = reorder(old, structure)
        if order is None:
            have, need = set(paths(old)), set(want_paths)
            raise KeyError(
                f"{name_of}: the loaded state {name!r} is for other variables: key chains "
                f"{sorted(chain(p) for p in have - need)} are not among the variables', and "
                f"{sorted(chain(p) for p in need - have)} have no state"
            )
        out = []
        for i, j in enumerate(order):
            x = old_leaves[j]
            shape, dtype = spec(x)
            at = f"{name}/{chain(want_paths[i])}"
            if shape != want[i][0]:
                raise ValueError(
                    f"{name_of}: the loaded state {at} has shape {shape}, the variable {want[i][0]}: "
                    "the state of another model"
                )
            if kind(dtype) != kind(want[i][1]):
                raise ValueError(f"{name_of}: the loaded state {at} is {dtype}, the variable {want[i][1]}")
            out.append(x if dtype == want[i][1] else _api.astype(x, leaves[i].dtype))
        return out

    flat = None
    if opt._flat is not None:
        old, named = opt._flat
        flat = (structure, {n: fitted(n, old, ls) for n, ls in named.items()})
    state = dict(opt._state)
    if "accum" in state:
        acc_leaves, acc_structure = nest.tree_flatten(state["accum"])
        state["accum"] = nest.tree_unflatten(structure, fitted("accum", acc_structure, acc_leaves))
    opt._flat, opt._state, opt._check_loaded = flat, state, False
