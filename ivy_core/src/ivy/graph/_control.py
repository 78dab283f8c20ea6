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

from collections.abc import Callable, Sequence
from typing import Any

from .._spec import SPECS
from ._errors import GraphTraceError
from ._ir import GraphIR, InputRef, Subgraph, Value, map_tree, tree_leaves
from ._proxy import TracedArray, TracedFunction
from ._trace import Scope, State, Tracer, source_of

__all__ = ["CONTROL", "call_control", "subgraph_outputs"]

#: the control-flow ops, and the names of their function arguments (as subgraphs print)
CONTROL = {"while_loop": ("cond_fn", "body_fn"), "cond": ("true_fn", "false_fn"), "scan": ("f",)}


def call_control(tracer: Tracer, name: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    if name == "scan":
        return _call_scan(tracer, args, kwargs)
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
    tracer: Tracer,
    scope: Scope,
    fn: Any,
    fn_name: str,
    cargs: Sequence[Any],
    op_shadows: Any,
    label: str,
    pack: Callable[[list[Any]], tuple[Any, ...]] | None = None,
    arg_names: list[str] | None = None,
) -> tuple[Subgraph, Any, Any]:
    """The graph of ``fn`` called on proxies of ``cargs`` (in a scope nested in ``scope``), its
    result's natives and second-example natives. ``pack`` makes the call's arguments of the list
    of proxies (each its own argument without it), named ``arg_names``."""

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
        result = fn(*(pack(proxies) if pack else proxies))
        if isinstance(result, list):
            result = tuple(result)
        enc_out, nat_out, sh_out = subgraph_outputs(tracer, inner, result, f"{label} ({fn_name})")
    finally:
        tracer.scopes.pop()
    for leaf in tree_leaves(enc_out):
        if not isinstance(leaf, Value) and not (leaf is None and pack is not None):  # (scan's y may hold None)
            raise GraphTraceError(
                f"{label}: {fn_name} must return arrays computed from its arguments or outer arrays, "
                f"got {type(leaf).__name__}"
            )
    refs = [InputRef(i) for i in range(len(proxies))]
    graph = GraphIR(
        name=fn_name,
        inputs=inner.inputs,
        in_tree=(pack(refs) if pack else tuple(refs), {}),
        captures=inner.captures,
        nodes=inner.nodes,
        outputs=enc_out,
        arg_names=arg_names or [f"x{i}" for i in range(len(proxies))],
    )
    return Subgraph(graph, list(inner.outer)), nat_out, sh_out


def _call_scan(tracer: Tracer, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    """``scan`` as one node: ``f`` traced once as a subgraph of ``(carry, x)``, its arguments'
    nests kept (the emitted subgraph takes and returns what ``f`` does)."""
    bound = SPECS["scan"].signature.bind(*args, **kwargs)
    bound.apply_defaults()
    f, init, xs = bound.args
    length, reverse = bound.kwargs["length"], bound.kwargs["reverse"]
    label = f"ivy.scan at {source_of(4)}"
    if not callable(f):
        raise TypeError(f"ivy.scan: f must be a function, got {type(f).__name__}")
    for what, tree in (("init", init), ("xs", xs if xs is not None else ())):
        if not all(isinstance(leaf, TracedArray) for leaf in tree_leaves(tree)):
            raise GraphTraceError(f"{label}: {what} must be a traced array or a nest of them")
    scope = tracer.scopes[-1]
    st = State()
    enc, nat, sh = tracer._encode((init, xs), scope, st)
    if st.foreign:
        raise GraphTraceError(f"{label} got objects the graph cannot hold")
    enc_init, enc_xs = enc
    n_carry = len(list(tree_leaves(enc_init)))
    # the second example of each argument of f: the carry's, and a slice of each of xs
    xs_shadows = [] if enc_xs is None else list(tree_leaves(sh[1]))
    op_shadows = list(tree_leaves(sh[0])) + [a[0] if a.shape[0] else a for a in xs_shadows]

    def pack(items: list[Any]) -> tuple[Any, Any]:
        carry = _fill(enc_init, iter(items[:n_carry]))
        return carry, (None if enc_xs is None else _fill(enc_xs, iter(items[n_carry:])))

    traced: list[tuple[Subgraph, Any]] = []

    def run(c: Any, x: Any) -> Any:
        cargs = _leaves_like(enc_init, c) + ([] if enc_xs is None else _leaves_like(enc_xs, x))
        sub, nat_out, sh_out = _trace_fn(tracer, scope, f, "f", cargs, op_shadows, label, pack, ["carry", "x"])
        if not traced:  # every call traces the same path (no guards inside): the first is kept
            traced.append((sub, sh_out))
        return nat_out

    kw = {} if length is None else {"length": length}
    if reverse:
        kw["reverse"] = reverse
    res = tracer.concrete.calls["scan"](run, nat[0], nat[1], **kw)
    if not traced:
        raise GraphTraceError(f"{label}: the backend's scan never called f")
    sub, f_shadow = traced[0]
    outs = sub.graph.outputs
    if not isinstance(outs, tuple) or len(outs) != 2:
        raise TypeError(f"{label}: f must return a pair (carry, y)")
    shadow_out = None
    if tracer.shadow:  # shaped as the results at the other size (only shapes matter)
        steps = xs_shadows[0].shape[0] if xs_shadows else length
        zeros = tracer.concrete.calls["zeros"]
        ys = map_tree(lambda y: None if y is None else zeros((steps, *tuple(y.shape)), dtype=y.dtype), f_shadow[1])
        shadow_out = (_like(res[0], sh[0]), ys)
    return tracer._record("scan", (sub, enc_init, enc_xs), kw, res, shadow_out, scope, known=False)


def _fill(tree: Any, items: Any) -> Any:
    """``tree`` with its leaves replaced, in order, by ``items``."""
    return map_tree(lambda _: next(items), tree)


def _like(result: Any, shadow: Any) -> Any:
    """``shadow`` (a tree of the same keys and lengths) in the order of ``result``'s dicts."""
    if isinstance(result, dict):
        return {k: _like(result[k], shadow[k]) for k in result}
    if isinstance(result, (tuple, list)):
        return [_like(r, x) for r, x in zip(result, shadow)]
    return shadow


def _leaves_like(tree: Any, native: Any) -> list[Any]:
    """The leaves of ``native`` in the order of ``tree``'s (a dict's by its keys: a framework may
    rebuild it in another order)."""
    if isinstance(tree, dict):
        return [leaf for k in tree for leaf in _leaves_like(tree[k], native[k])]
    if isinstance(tree, (tuple, list)):
        return [leaf for t, n in zip(tree, native) for leaf in _leaves_like(t, n)]
    return [native]


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
