"""``to_graph``: a JAX program, traced to a closed jaxpr, interpreted into an :class:`ivy.Graph`."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import jax
import jax.extend.core
import numpy as np

import ivy
from ivy.errors import TranspileError
from ivy.plugin_kit import trace_program

from ._interpret import Interpreter
from ._objects import read_program, to_jax

__all__ = ["to_graph", "to_jaxpr"]


def _plain(tree: Any) -> Any:
    """Outputs as the nests a graph holds: Mappings (FrozenDict) as dicts, named tuples as
    tuples."""
    if isinstance(tree, Mapping):
        return {k: _plain(v) for k, v in tree.items()}
    if isinstance(tree, tuple):
        return tuple(_plain(v) for v in tree)
    if isinstance(tree, list):
        return [_plain(v) for v in tree]
    if tree is None or hasattr(tree, "shape"):
        return tree
    raise TranspileError(
        f"the program returns a {type(tree).__name__}: return arrays, or tuples, lists and dicts of them"
    )


def to_jaxpr(
    obj: Any, args: tuple[Any, ...] = (), kwargs: Mapping[str, Any] | None = None, params_v: Any = None
) -> Any:
    """The closed jaxpr the frontend interprets for ``obj`` on the example inputs: its inputs are
    the parameters, the buffers, then the array leaves of ``(args, kwargs)``."""
    return _prepare(obj, tuple(args), dict(kwargs or {}), params_v)[1]


def _prepare(obj: Any, args: tuple[Any, ...], kwargs: dict[str, Any], params_v: Any) -> tuple[Any, ...]:
    prog = read_program(obj, params_v)
    args, kwargs = to_jax(args), to_jax(kwargs)
    leaves, treedef = jax.tree_util.tree_flatten((args, kwargs))
    is_array = [isinstance(x, jax.Array) for x in leaves]
    n_p, n_b = len(prog.params), len(prog.buffers)
    out_tree: list[Any] = []

    def flat(*xs: Any) -> list[Any]:
        p = dict(zip(prog.params, xs[:n_p]))
        b = dict(zip(prog.buffers, xs[n_p : n_p + n_b]))
        given = iter(xs[n_p + n_b :])
        a, k = jax.tree_util.tree_unflatten(treedef, [next(given) if arr else x for x, arr in zip(leaves, is_array)])
        outs, tree = jax.tree_util.tree_flatten(prog.apply(p, b, a, k))
        out_tree[:] = [tree]
        return outs

    arrays = [x for x, arr in zip(leaves, is_array) if arr]
    closed = jax.make_jaxpr(flat)(*prog.params.values(), *prog.buffers.values(), *arrays)
    return prog, closed, out_tree[0], is_array, args, kwargs


def to_graph(obj: Any, args: tuple[Any, ...], kwargs: Mapping[str, Any] | None, params_v: Any) -> Any:
    """The :class:`ivy.Graph` of ``obj`` on the example inputs (see :mod:`ivy_jax.frontend`)."""
    prog, closed, out_tree, is_array, args, kwargs = _prepare(obj, tuple(args), dict(kwargs or {}), params_v)
    interp = Interpreter(closed, what=prog.name)
    interp.check()
    n_leaves = len(is_array)
    run_jax = jax.jit(jax.extend.core.jaxpr_as_fun(closed))
    on = _trace_backend(prog, args, kwargs)

    def run(values: Mapping[str, Any], *a: Any, **k: Any) -> Any:
        leaves = jax.tree_util.tree_leaves((a, k))
        if len(leaves) != n_leaves:
            raise TranspileError(f"{prog.name} was traced with {n_leaves} input leaves and called with {len(leaves)}")
        inputs = [values[c] for c in prog.params] + [values[c] for c in prog.buffers]
        inputs += [x for x, arr in zip(leaves, is_array) if arr]
        if not any(isinstance(x, (jax.Array, np.ndarray)) for x in inputs):
            outs = interp.run(inputs)  # traced
        elif on == "numpy":
            # the graph tracer's eager call that builds the module (its outputs are dropped);
            # arrays made from Python scalars alone must be NumPy's too
            with ivy.use_backend("numpy"):
                outs = interp.run(inputs)
        else:  # the same call, where JAX would compile each op alone: the program compiled once
            outs = run_jax(*inputs)
        out = _plain(jax.tree_util.tree_unflatten(out_tree, outs))
        return (out, {}) if prog.buffers else out

    if on == "numpy":
        params, buffers, args, kwargs = jax.tree_util.tree_map(_to_numpy, (prog.params, prog.buffers, args, kwargs))
    else:
        params, buffers = prog.params, prog.buffers
    return trace_program(run, params=params, buffers=buffers, args=args, kwargs=kwargs, name=prog.name, backend=on)


def _to_numpy(x: Any) -> Any:
    return np.asarray(x) if isinstance(x, jax.Array) else x


def _trace_backend(prog: Any, args: Any, kwargs: Any) -> str:
    """The backend the graph tracer computes on while it records: NumPy where it holds every
    dtype of the program's inputs. The recorded ops are the same; JAX would compile each
    distinct op on first use (about 0.1 s each on a CPU, seconds for a model), NumPy runs them
    at once."""
    leaves = jax.tree_util.tree_leaves((prog.params, prog.buffers, args, kwargs))
    native = all(np.dtype(x.dtype).kind in "biufc" for x in leaves if isinstance(x, jax.Array))
    return "numpy" if native else "jax"
