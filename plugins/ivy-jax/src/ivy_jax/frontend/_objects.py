"""What the JAX frontend reads, and how each kind's parameters are lifted by key chain.

* A Flax linen ``Module`` with its variables (``params_v``: ``{"params": ..., "batch_stats": ...}``
  or the ``params`` collection alone): ``module.apply(variables, *args, **kwargs)``. The
  ``params`` collection becomes the graph's parameters (``Dense_0/kernel``), every other
  collection its buffers, prefixed by the collection's name (``batch_stats/BatchNorm_0/mean``).
* A Flax nnx ``Module`` (or the ``(graphdef, state)`` of ``nnx.split``): it holds its own
  variables; ``nnx.Param``\\ s become parameters, ``nnx.BatchStat``\\ s and the other
  variables (``nnx.Variable``: what the module holds but does not train) buffers, by their state
  paths (``linear/kernel``); RNG streams stay constant.
* A Haiku ``Transformed`` / ``TransformedWithState`` with ``params_v`` = its params (and
  ``(params, state)`` for the latter): ``apply(params, [state,] None, *args, **kwargs)`` (no
  random key: use the model deterministically). Module names become key chains without Haiku's
  ``~`` scopes: ``mlp/~/linear_0`` + ``w`` -> ``mlp/linear_0/w``; state leaves are buffers
  under ``state/``.
* A pair ``(apply_fn, params)``, or a plain function with ``params_v``: ``fn(params_v, *args,
  **kwargs)``, a module whose parameters are ``params_v`` (a Flax variables dict is split into
  parameters and buffers as for linen).
* Any other callable, without ``params_v``: a function (``jax.jit``-wrapped ones included).

Key chains are ``/``-separated, each part made of letters, digits and ``_`` (other characters
become ``_``), so that target modules can mirror them as attribute names.
"""

from __future__ import annotations

import hashlib
import inspect
import re
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import jax
import numpy as np

from ivy.errors import TranspileError
from ivy.plugin_kit import code_fingerprint

__all__ = ["Program", "kind", "read_program", "fingerprint", "to_jax"]


@dataclass
class Program:
    """A JAX program with its lifted variables.

    Attributes:
        name: the graph's name.
        params: key chain -> trainable array.
        buffers: key chain -> non-trainable array.
        apply: ``(params, buffers, args, kwargs) -> outputs``: the program in JAX, taking the
            variables by key chain.
    """

    name: str
    params: dict[str, Any]
    buffers: dict[str, Any]
    apply: Callable[[dict[str, Any], dict[str, Any], tuple[Any, ...], dict[str, Any]], Any]


# ---------------------------------------------------------------------------- recognising


def _linen_module(obj: Any) -> bool:
    linen = sys.modules.get("flax.linen")
    return linen is not None and isinstance(obj, linen.Module)


def _nnx() -> Any:
    return sys.modules.get("flax.nnx")


def _nnx_module(obj: Any) -> bool:
    nnx = _nnx()
    return nnx is not None and isinstance(obj, nnx.Module)


def _nnx_split(obj: Any) -> bool:
    nnx = _nnx()
    return nnx is not None and isinstance(obj, tuple) and len(obj) >= 2 and isinstance(obj[0], nnx.GraphDef)


def _haiku(obj: Any) -> bool:
    hk = sys.modules.get("haiku")
    return hk is not None and isinstance(obj, (hk.Transformed, hk.TransformedWithState))


def _apply_pair(obj: Any) -> bool:
    return isinstance(obj, tuple) and len(obj) == 2 and callable(obj[0]) and not callable(obj[1])


def kind(obj: Any) -> str | None:
    """``"module"`` for Flax linen / nnx modules, Haiku transformed functions and
    ``(apply_fn, params)`` pairs; ``"function"`` for other callables (a function given
    ``params_v`` is read as a module whose parameters those are); None otherwise."""
    if _linen_module(obj) or _nnx_module(obj) or _nnx_split(obj) or _haiku(obj) or _apply_pair(obj):
        return "module"
    if callable(obj) and not inspect.isclass(obj):
        return "function"
    return None


# ---------------------------------------------------------------------------- key chains

_BAD = re.compile(r"[^0-9A-Za-z_]")


def _parts(key: Any) -> list[str]:
    for attr in ("key", "idx", "name"):
        if hasattr(key, attr):
            raw = str(getattr(key, attr))
            break
    else:
        raw = str(key)
    # Haiku scopes ("mlp/~/linear_0"): one part per name, without the "~" of inner modules
    return [_BAD.sub("_", p) for p in raw.split("/") if p and p != "~"]


def _chain(path: tuple[Any, ...]) -> str:
    if path and type(path[-1]).__name__ == "GetAttrKey" and path[-1].name == "value":
        path = path[:-1]  # an nnx Variable's array
    return "/".join(p for key in path for p in _parts(key))


def to_jax(tree: Any) -> Any:
    """NumPy arrays (and other frameworks' arrays) in ``tree`` as JAX arrays."""

    def convert(x: Any) -> Any:
        if isinstance(x, jax.Array):
            return x
        if isinstance(x, np.ndarray | np.generic):
            return jax.numpy.asarray(x)
        if hasattr(x, "__dlpack__") or type(x).__module__.split(".")[0] in ("torch", "tensorflow", "paddle"):
            import ivy

            return jax.numpy.asarray(ivy.to_numpy(x))
        return x

    return jax.tree_util.tree_map(convert, tree)


class _Lifted:
    """A pytree whose array leaves are lifted by key chain; :meth:`rebuild` puts arrays back."""

    def __init__(self, tree: Any, prefix: str = ""):
        flat, self.treedef = jax.tree_util.tree_flatten_with_path(to_jax(tree))
        self.leaves = [leaf for _, leaf in flat]
        self.chains: list[str | None] = []
        for path, leaf in flat:
            lifted = isinstance(leaf, jax.Array) and not jax.dtypes.issubdtype(leaf.dtype, jax.dtypes.prng_key)
            self.chains.append(prefix + _chain(path) if lifted else None)

    def arrays(self) -> dict[str, Any]:
        return {c: leaf for c, leaf in zip(self.chains, self.leaves) if c is not None}

    def rebuild(self, by_chain: Mapping[str, Any]) -> Any:
        leaves = [leaf if c is None else by_chain[c] for c, leaf in zip(self.chains, self.leaves)]
        return jax.tree_util.tree_unflatten(self.treedef, leaves)


def _unique(*groups: _Lifted) -> None:
    seen: dict[str, int] = {}
    for g in groups:
        for c in g.chains:
            if c is not None:
                seen[c] = seen.get(c, 0) + 1
    clashes = sorted(c for c, n in seen.items() if n > 1)
    if clashes:
        raise TranspileError(
            f"the variables' names give clashing key chains {clashes} once made '/'-separated names of letters, "
            "digits and '_': rename the modules or parameters"
        )


def _is_variables(tree: Any) -> bool:
    """A Flax variables dict: collections at the top, ``params`` among them."""
    return isinstance(tree, Mapping) and "params" in tree and all(isinstance(v, Mapping) for v in tree.values())


def _collections(variables: Mapping[str, Any]) -> tuple[_Lifted, dict[str, _Lifted]]:
    params = _Lifted(variables["params"])
    others = {col: _Lifted(v, prefix=f"{col}/") for col, v in variables.items() if col != "params"}
    _unique(params, *others.values())
    return params, others


def _variables_program(name: str, call: Callable[..., Any], variables: Mapping[str, Any]) -> Program:
    """A program ``call(variables, *args, **kwargs)`` over a Flax variables dict."""
    params, others = _collections(variables)
    buffers = {c: a for t in others.values() for c, a in t.arrays().items()}

    def apply(p: dict[str, Any], b: dict[str, Any], args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        rebuilt = {"params": params.rebuild(p), **{col: t.rebuild(b) for col, t in others.items()}}
        return call(rebuilt, *args, **kwargs)

    return Program(name, params.arrays(), buffers, apply)


def _tree_program(name: str, call: Callable[..., Any], tree: Any) -> Program:
    """A program ``call(tree, *args, **kwargs)`` whose parameters are every array of ``tree``."""
    if _is_variables(tree):
        return _variables_program(name, call, tree)
    params = _Lifted(tree)
    _unique(params)

    def apply(p: dict[str, Any], b: dict[str, Any], args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        return call(params.rebuild(p), *args, **kwargs)

    return Program(name, params.arrays(), {}, apply)


# ---------------------------------------------------------------------------- reading


def _name(obj: Any) -> str:
    name = getattr(obj, "__name__", None) or type(obj).__name__
    return _BAD.sub("_", name) or "program"


def _need(params_v: Any, what: str, form: str) -> None:
    if params_v is None:
        raise TranspileError(f"{what} keeps its variables outside the object: pass them as params_v={form}")


def _linen(obj: Any, params_v: Any) -> Program:
    _need(params_v, f"the Flax linen module {type(obj).__name__}", "variables (what module.init returns)")
    variables = params_v if _is_variables(params_v) else {"params": params_v}
    return _variables_program(type(obj).__name__, obj.apply, variables)


def _nnx_program(obj: Any, params_v: Any) -> Program:
    nnx = _nnx()
    if params_v is not None:
        raise TranspileError(
            "a Flax nnx module holds its own variables: leave params_v out (update the module instead)"
        )
    if isinstance(obj, tuple):
        obj = nnx.merge(*obj)
    graphdef, params_state, stats_state, rng_state, held_state = nnx.split(
        obj, nnx.Param, nnx.BatchStat, nnx.RngState, ...
    )
    params, stats, held = _Lifted(params_state), _Lifted(stats_state), _Lifted(held_state)
    _unique(params, stats, held)

    def apply(p: dict[str, Any], b: dict[str, Any], args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        model = nnx.merge(graphdef, params.rebuild(p), stats.rebuild(b), rng_state, held.rebuild(b))
        return model(*args, **kwargs)

    return Program(type(obj).__name__, params.arrays(), {**stats.arrays(), **held.arrays()}, apply)


def _haiku_fn(obj: Any) -> Any:
    """The user's function a Haiku transform wraps (Haiku ties it to init as ``_original_fn``)."""
    return getattr(obj.init, "_original_fn", None) or obj.apply


def _haiku_program(obj: Any, params_v: Any) -> Program:
    hk = sys.modules["haiku"]
    with_state = isinstance(obj, hk.TransformedWithState)
    name = _name(_haiku_fn(obj))
    takes_rng = "rng" in inspect.signature(obj.apply).parameters
    if not with_state:
        _need(params_v, "a Haiku transformed function", "params (what init returns)")
        params = _Lifted(params_v)
        _unique(params)

        def apply(p: dict[str, Any], b: dict[str, Any], args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
            return obj.apply(params.rebuild(p), *((None,) if takes_rng else ()), *args, **kwargs)

        return Program(name, params.arrays(), {}, apply)
    _need(params_v, "a Haiku transformed function with state", "(params, state)")
    if isinstance(params_v, Mapping) and set(params_v) == {"params", "state"}:
        params_v = (params_v["params"], params_v["state"])
    if not (isinstance(params_v, tuple) and len(params_v) == 2):
        raise TranspileError("a Haiku transformed function with state takes params_v=(params, state)")
    params, state = _Lifted(params_v[0]), _Lifted(params_v[1], prefix="state/")
    _unique(params, state)

    def apply_state(p: dict[str, Any], b: dict[str, Any], args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        out, _ = obj.apply(params.rebuild(p), state.rebuild(b), *((None,) if takes_rng else ()), *args, **kwargs)
        return out

    return Program(name, params.arrays(), state.arrays(), apply_state)


def read_program(obj: Any, params_v: Any) -> Program:
    """The program ``obj`` runs, with its variables lifted (see the module docstring)."""
    if _linen_module(obj):
        return _linen(obj, params_v)
    if _nnx_module(obj) or _nnx_split(obj):
        return _nnx_program(obj, params_v)
    if _haiku(obj):
        return _haiku_program(obj, params_v)
    if _apply_pair(obj):
        if params_v is not None:
            raise TranspileError("an (apply_fn, params) pair carries its parameters: leave params_v out")
        return _tree_program(_name(obj[0]), obj[0], obj[1])
    if not callable(obj):
        raise TranspileError(f"the JAX frontend reads functions and Flax / Haiku modules, not {type(obj).__name__}")
    if params_v is not None:
        return _tree_program(_name(obj), obj, params_v)

    def apply_fn(p: dict[str, Any], b: dict[str, Any], args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        return obj(*args, **kwargs)

    return Program(_name(obj), {}, {}, apply_fn)


# ---------------------------------------------------------------------------- fingerprint


def _describe(x: Any, depth: int = 0) -> str:
    """What identifies a closed-over value's part in a program (not its weights)."""
    if isinstance(x, jax.Array | np.ndarray):
        return f"array{tuple(x.shape)}:{x.dtype}"
    if isinstance(x, bool | int | float | complex | str | bytes | type(None)):
        return repr(x)
    if isinstance(x, tuple | list) and depth < 3:
        return "(" + ",".join(_describe(v, depth + 1) for v in x) + ")"
    if inspect.isfunction(x) and depth < 3:
        return _code(x, depth + 1)
    if _linen_module(x):
        return f"{_source(type(x))}{x!r}"
    text = repr(x)
    return type(x).__qualname__ if " at 0x" in text else text


def _source(obj: Any) -> str:
    try:
        return inspect.getsource(obj)
    except (OSError, TypeError):
        code = getattr(obj, "__code__", None)
        return f"{getattr(obj, '__qualname__', '')}:{code.co_code.hex() if code else ''}"


def _code(fn: Any, depth: int = 0) -> str:
    fn = inspect.unwrap(fn)
    parts = [getattr(fn, "__module__", "") or "", getattr(fn, "__qualname__", ""), _source(fn)]
    for cell in getattr(fn, "__closure__", None) or ():
        try:
            parts.append(_describe(cell.cell_contents, depth))
        except ValueError:  # an empty cell
            parts.append("<empty>")
    return "|".join(parts)


def fingerprint(obj: Any) -> str | None:
    """A stable identity of the program ``obj`` runs (not of its weights) for the transpile
    cache: the source of the function or module classes and of the user's function a Haiku
    transform wraps, the module's hyperparameters (its repr), what closures hold, and what that
    code reads beyond its text (``code_fingerprint``: globals' values, closures, the user code it
    calls). None where that cannot be described (then it is not cached)."""
    roots = _code_roots(obj)
    reads = None if roots is None else code_fingerprint(*roots)
    if reads is None:
        return None
    text = _text(obj)
    return hashlib.sha256(f"{text}|{reads}".encode()).hexdigest()


def _code_roots(obj: Any) -> list[Any] | None:
    """The classes and functions whose code the program of ``obj`` runs (None: unknown)."""
    if _linen_module(obj):
        return [type(m) for m in _linen_tree(obj)]
    if _nnx_module(obj):
        nnx = _nnx()
        return list({type(m): None for _, m in nnx.iter_graph(obj) if isinstance(m, nnx.Module)})
    if _nnx_split(obj):
        return None  # (a split module's graphdef does not give its classes' code)
    if _haiku(obj):
        return [_haiku_fn(obj)]
    if _apply_pair(obj):
        return [obj[0]]
    return [obj]


def _linen_tree(m: Any) -> list[Any]:
    """A linen module and the modules among its attributes (its submodules as configured)."""
    out, todo, seen = [], [m], set()
    while todo:
        x = todo.pop()
        if id(x) in seen or not _linen_module(x):
            continue
        seen.add(id(x))
        out.append(x)
        for v in vars(x).values():
            todo.extend(v if isinstance(v, (list, tuple)) else v.values() if isinstance(v, dict) else [v])
    return out


def _text(obj: Any) -> str:
    if _linen_module(obj):
        text = f"linen|{_source(type(obj))}|{obj!r}"
    elif _nnx_module(obj) or _nnx_split(obj):
        nnx = _nnx()
        graphdef, state = nnx.split(obj) if not isinstance(obj, tuple) else obj[:2]
        shapes = jax.tree_util.tree_map(lambda a: f"{getattr(a, 'shape', '')}{getattr(a, 'dtype', '')}", state)
        classes = (
            {type(m) for _, m in nnx.iter_graph(obj) if isinstance(m, nnx.Module)}
            if not isinstance(obj, tuple)
            else set()
        )
        text = f"nnx|{graphdef!r}|{shapes!r}|" + "|".join(sorted(_source(c) for c in classes))
    elif _haiku(obj):
        text = f"haiku|{type(obj).__name__}|{_code(_haiku_fn(obj))}"
    elif _apply_pair(obj):
        shapes = jax.tree_util.tree_map(lambda a: f"{getattr(a, 'shape', '')}{getattr(a, 'dtype', '')}", obj[1])
        text = f"pair|{_code(obj[0])}|{shapes!r}"
    elif hasattr(obj, "func") and hasattr(obj, "args"):  # functools.partial
        text = f"partial|{_code(obj.func)}|{_describe(obj.args)}|{_describe(sorted(obj.keywords.items()))}"
    else:
        text = f"function|{_code(obj)}"
    return text
