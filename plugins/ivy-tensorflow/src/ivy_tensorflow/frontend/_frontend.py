"""``to_graph``: a TF program, traced by ``tf.function`` to a concrete function on the example
inputs, interpreted into an :class:`ivy.Graph`."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import tensorflow as tf

from ivy.errors import TranspileError
from ivy.plugin_kit import trace_program

from ._interpret import Interpreter
from ._objects import Program, needs_build, read_program

__all__ = ["to_graph", "concrete_function"]


def _to_tf(tree: Any) -> Any:
    """NumPy arrays in the inputs as TF tensors (other leaves are static arguments)."""
    return tf.nest.map_structure(lambda x: tf.convert_to_tensor(x) if isinstance(x, np.ndarray) else x, tree)


def _plain(tree: Any) -> Any:
    if isinstance(tree, Mapping):
        return {k: _plain(v) for k, v in tree.items()}
    if isinstance(tree, tuple):
        return tuple(_plain(v) for v in tree)
    if isinstance(tree, list):
        return [_plain(v) for v in tree]
    return tree


def concrete_function(obj: Any, args: tuple[Any, ...] = (), kwargs: Mapping[str, Any] | None = None) -> Any:
    """The concrete function the frontend interprets for ``obj`` on the example inputs (its
    inputs: the array leaves of ``(args, kwargs)``)."""
    return _prepare(obj, tuple(args), dict(kwargs or {}))[1]


def _prepare(obj: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[Program, Any, list[bool], Any, Any]:
    args, kwargs = _to_tf(args), _to_tf(kwargs)
    if needs_build(obj):
        obj(*args, **kwargs)  # a Keras layer makes its variables on its first call, eagerly
    prog = read_program(obj)
    leaves = tf.nest.flatten((args, kwargs))
    is_array = [tf.is_tensor(x) for x in leaves]

    def flat(*xs: Any) -> Any:
        given = iter(xs)
        a, k = tf.nest.pack_sequence_as((args, kwargs), [next(given) if arr else x for x, arr in zip(leaves, is_array)])
        return prog.call(*a, **k)

    specs = [tf.TensorSpec(x.shape, x.dtype) for x, arr in zip(leaves, is_array) if arr]
    try:
        cf = tf.function(flat).get_concrete_function(*specs)
    except Exception as e:
        raise TranspileError(
            f"TensorFlow could not trace {prog.name} into a graph on the example inputs: {type(e).__name__}: {e}"
        ) from e
    return prog, cf, is_array, args, kwargs


def _bind_captures(prog: Program, cf: Any) -> tuple[dict[str, str], dict[str, np.ndarray]]:
    """Resource placeholders -> the key chains of the program's variables; other captures (closed
    over tensors, variables that are not the program's) -> their values as constants."""
    by_handle = {id(v.handle): chain for chain, v in prog.variables.items()}
    others = {id(v.handle): v for v in cf.variables}
    variables: dict[str, str] = {}
    captured: dict[str, np.ndarray] = {}
    for external, internal in cf.graph.captures:
        if external.dtype == tf.resource:
            if id(external) in by_handle:
                variables[internal.name] = by_handle[id(external)]
            elif id(external) in others:
                captured[internal.name] = others[id(external)].numpy()
        else:
            captured[internal.name] = np.asarray(external)
    return variables, captured


def to_graph(obj: Any, args: tuple[Any, ...], kwargs: Mapping[str, Any] | None, params_v: Any) -> Any:
    """The :class:`ivy.Graph` of ``obj`` on the example inputs (see :mod:`ivy_tensorflow.frontend`)."""
    if params_v is not None:
        read_program(obj, params_v)  # raises the error saying why
    prog, cf, is_array, args, kwargs = _prepare(obj, tuple(args), dict(kwargs or {}))
    variables, captured = _bind_captures(prog, cf)
    internal_inputs = set(variables) | set(captured)
    inputs = [t for t in cf.inputs if t.name not in internal_inputs and t.dtype != tf.resource]
    out_leaves = tf.nest.flatten(cf.structured_outputs)
    outputs = [t for t in out_leaves if tf.is_tensor(t)]
    interp = Interpreter(cf.graph, inputs, outputs, variables, captured, what=prog.name)
    interp.check()
    used = set(variables.values())
    params = {c: prog.variables[c].value() for c in prog.variables if c in used and c in prog.trainable}
    buffers = {c: prog.variables[c].value() for c in prog.variables if c in used and c not in prog.trainable}
    n_leaves = len(is_array)

    def run(values: Mapping[str, Any], *a: Any, **k: Any) -> Any:
        leaves = tf.nest.flatten((a, k))
        if len(leaves) != n_leaves:
            raise TranspileError(f"{prog.name} was traced with {n_leaves} input leaves and called with {len(leaves)}")
        arrays = [x for x, arr in zip(leaves, is_array) if arr]
        results = iter(interp.run(arrays, values))
        out = _plain(
            tf.nest.pack_sequence_as(
                cf.structured_outputs, [next(results) if tf.is_tensor(t) else t for t in out_leaves]
            )
        )
        return (out, {}) if buffers else out

    return trace_program(
        run,
        params=params,
        buffers=buffers,
        args=args,
        kwargs=kwargs,
        name=prog.name,
        backend="tensorflow",
        frozen=[c for c in buffers if c in prog.frozen],
    )
