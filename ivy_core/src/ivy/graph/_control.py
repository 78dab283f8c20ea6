"""Structured control flow while tracing: ``while_loop`` and ``cond`` are recorded as one node
holding each of their functions' graphs (subgraphs), so that a loop whose number of steps depends
on the data, or a branch on the data, stays one loop or one conditional in the graph, and each
target emits it as its own (``lax.while_loop``, ``tf.while_loop``, a Python loop on eager
backends) instead of the trace unrolling the example's path.

The concrete backend runs the op with functions that trace the user's functions on each call
(values exist, as for any traced op); the first trace of each function is the subgraph. A branch
the example does not take (``cond``) is traced once on the operands. A function whose traced code
branches in Python on a value read from an array cannot be a subgraph (the tracer raises).
"""

from __future__ import annotations

from typing import Any

from .._spec import SPECS
from ._errors import GraphTraceError
from ._ir import GraphIR, InputRef, Subgraph, Value, map_tree, tree_leaves
from ._proxy import TracedArray, TracedFunction
from ._trace import Scope, State, Tracer, source_of

__all__ = ["CONTROL", "call_control", "subgraph_outputs"]

#: the control-flow ops, and the names of their function arguments (as subgraphs print)
CONTROL = {"while_loop": ("cond_fn", "body_fn"), "cond": ("true_fn", "false_fn")}


def call_control(tracer: Tracer, name: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    bound = SPECS[name].signature.bind(*args, **kwargs)
    source = source_of(3)
    label = f"ivy.{name} at {source}"
    if name == "while_loop":
        fns, operands, pred = bound.args[:2], bound.args[2], None
    else:
        pred, fns, operands = bound.args[0], bound.args[1:3], bound.args[3]
    for fn_name, fn in zip(CONTROL[name], fns):
        if not callable(fn):
            raise TypeError(f"ivy.{name}: {fn_name} must be a function, got {type(fn).__name__}")
    if not isinstance(operands, (tuple, list)) or not all(isinstance(o, TracedArray) for o in operands):
        got = type(operands).__name__ if not isinstance(operands, (tuple, list)) else "other objects"
        raise GraphTraceError(f"{label}: the operands must be a list of traced arrays, got {got}")
    if name == "while_loop" and not operands:
        raise ValueError("while_loop: loop_vars must hold at least one array")
    scope = tracer.scopes[-1]
    st = State()
    enc, nat, sh = tracer._encode((pred, list(operands)), scope, st)
    if st.foreign:
        raise GraphTraceError(f"{label} got objects the graph cannot hold")
    enc_pred, enc_ops = enc
    op_shadows = sh[1]
    traced: dict[int, tuple[Subgraph, Any]] = {}

    def shim(k: int) -> Any:
        fn_name, fn = CONTROL[name][k], fns[k]

        def run(*cargs: Any) -> Any:
            sub, nat_out, sh_out = _trace_fn(tracer, scope, fn, fn_name, cargs, op_shadows, label)
            if k not in traced:  # every call traces the same path (no guards inside): the first is kept
                traced[k] = (sub, sh_out)
            return nat_out

        return run

    shims = [shim(0), shim(1)]
    if name == "while_loop":
        res = tracer.concrete.calls[name](shims[0], shims[1], list(nat[1]))
    else:
        res = tracer.concrete.calls[name](nat[0], shims[0], shims[1], list(nat[1]))
    for k in (0, 1):  # a function the example never called (a branch not taken, a loop of no step)
        if k not in traced:
            shims[k](*nat[1])
    subs = [traced[k][0] for k in (0, 1)]
    if name == "while_loop":
        _check_body(subs[1], list(operands), label)
        record_args: tuple[Any, ...] = (subs[0], subs[1], list(enc_ops))
        shadow_out = tuple(op_shadows) if tracer.shadow else None
        res = tuple(res)
    else:
        _check_branches(subs[0], subs[1], label)
        record_args = (enc_pred, subs[0], subs[1], list(enc_ops))
        shadow_out = traced[0][1] if tracer.shadow else None
    result = tracer._record(name, record_args, {}, res, shadow_out, scope, known=False)
    return result


def _trace_fn(
    tracer: Tracer, scope: Scope, fn: Any, fn_name: str, cargs: tuple[Any, ...], op_shadows: Any, label: str
) -> tuple[Subgraph, Any, Any]:
    """The graph of ``fn`` called on proxies of ``cargs`` (in a scope nested in ``scope``), its
    result's natives and second-example natives."""

    inner = Scope(tracer, scope, label)
    tracer.scopes.append(inner)
    try:
        proxies = []
        for i, n in enumerate(cargs):
            p = tracer.add_input(n, f"x{i}", scope=inner)
            if tracer.shadow:  # the operand's second example: shapes at the other size
                shadow = op_shadows[i] if i < len(op_shadows) else n
                p._sh = shadow
                p._v.shape = tracer.new_value(n, "input", p._v.hint, shadow).shape
            proxies.append(p)
        result = fn(*proxies)
        if isinstance(result, list):
            result = tuple(result)
        enc_out, nat_out, sh_out = subgraph_outputs(tracer, inner, result, f"{label} ({fn_name})")
    finally:
        tracer.scopes.pop()
    for leaf in tree_leaves(enc_out):
        if not isinstance(leaf, Value):
            raise GraphTraceError(
                f"{label}: {fn_name} must return arrays computed from its arguments or outer arrays, "
                f"got {type(leaf).__name__}"
            )
    graph = GraphIR(
        name=fn_name,
        inputs=inner.inputs,
        in_tree=(tuple(InputRef(i) for i in range(len(proxies))), {}),
        captures=inner.captures,
        nodes=inner.nodes,
        outputs=enc_out,
        arg_names=[f"x{i}" for i in range(len(proxies))],
    )
    return Subgraph(graph, list(inner.outer)), nat_out, sh_out


def _same(a: Value, b: Value) -> bool:
    return a.dtype == b.dtype and a.shape == b.shape


def _check_body(body: Subgraph, operands: list[TracedArray], label: str) -> None:
    outs = body.graph.outputs
    outs = list(outs) if isinstance(outs, tuple) else [outs]
    if len(outs) != len(operands) or not all(_same(o, p._v) for o, p in zip(outs, operands)):
        want = ", ".join(p._v.type_str for p in operands)
        got = ", ".join(o.type_str for o in outs)
        raise ValueError(f"{label}: body_fn returned ({got}) for the loop variables ({want}): each step must keep them")


def _check_branches(a: Subgraph, b: Subgraph, label: str) -> None:
    la, lb = list(tree_leaves(a.graph.outputs)), list(tree_leaves(b.graph.outputs))
    if len(la) != len(lb) or not all(_same(x, y) for x, y in zip(la, lb)):
        raise ValueError(
            f"{label}: true_fn returns ({', '.join(v.type_str for v in la)}) and false_fn "
            f"({', '.join(v.type_str for v in lb)}): both branches must return the same arrays"
        )


def subgraph_outputs(tracer: Tracer, inner: Scope, result: Any, label: str) -> tuple[Any, Any, Any]:
    """The function's result as (IR tree, natives for the transform, second-example natives)."""
    array_types = tracer.concrete.array_types

    def enc(x: Any) -> Any:
        if isinstance(x, TracedArray):
            return inner.value_of(x)
        if isinstance(x, TracedFunction):
            raise GraphTraceError(f"{label}: the function returns a function, which the graph cannot hold")
        if isinstance(x, array_types):
            return tracer._const(x)
        return x

    def nat(x: Any) -> Any:
        return x._n if isinstance(x, TracedArray) else x

    def sh(x: Any) -> Any:
        return (x._sh if x._sh is not None else x._n) if isinstance(x, TracedArray) else x

    e = map_tree(enc, result)
    return e, tracer._rebuild(result, nat), tracer._rebuild(result, sh)
