"""Gradient ops while tracing: ``value_and_grad_flat``, ``vjp``, ``jvp`` and ``jacobian`` are
recorded as one node holding their function's graph (a subgraph, traced when the concrete
backend's transform calls the function), so that emission hands the target's own transform the
emitted subgraph and the emitted program differentiates natively.
"""

from __future__ import annotations

from typing import Any

from .._spec import SPECS
from ._control import CONTROL, call_control, subgraph_outputs
from ._errors import GraphTraceError
from ._ir import GraphIR, InputRef, Subgraph, tree_leaves
from ._proxy import TracedArray
from ._trace import Scope, State, Tracer, source_of

__all__ = ["call_hop"]


def call_hop(tracer: Tracer, name: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    if name in CONTROL:
        return call_control(tracer, name, args, kwargs)
    bound = SPECS[name].signature.bind(*args, **kwargs)
    func = bound.args[0]
    if not callable(func):
        raise TypeError(f"ivy.{name}: the first argument must be a function, got {type(func).__name__}")
    rest, kw = bound.args[1:], bound.kwargs
    scope = tracer.scopes[-1]
    st = State()
    enc, nat, sh = tracer._encode((rest, kw), scope, st)
    if st.foreign:
        raise GraphTraceError(f"ivy.{name} at {source_of(2)} got objects the graph cannot hold")
    source = source_of(2)
    label = f"ivy.{name} at {source}"
    # operand proxies, in the order the function receives them
    if name == "value_and_grad_flat":
        operands = list(rest[0])
    elif name == "jvp":
        operands = list(rest[0])
    else:
        operands = list(rest)
    op_shadows = [(o._sh if o._sh is not None else o._n) if isinstance(o, TracedArray) else o for o in operands]
    first: dict[str, Any] = {}

    def shim(*cargs: Any) -> Any:
        inner = Scope(tracer, scope, label)
        tracer.scopes.append(inner)
        try:
            listed = name == "value_and_grad_flat"
            leaves = list(cargs[0]) if listed else list(cargs)
            proxies = []
            for i, n in enumerate(leaves):
                p = tracer.add_input(n, f"{'x' if listed else 'primal'}{i}", scope=inner)
                if tracer.shadow:  # the operand's second example: shapes at the other size
                    shadow = op_shadows[i] if i < len(op_shadows) else n
                    p._sh = shadow
                    p._v.shape = tracer.new_value(n, "input", p._v.hint, shadow).shape
                proxies.append(p)
            result = func(proxies) if listed else func(*proxies)
            enc_out, nat_out, sh_out = subgraph_outputs(tracer, inner, result, label)
        finally:
            tracer.scopes.pop()
        if "graph" not in first:  # a transform that calls the function again traces the same path
            in_tree = (
                ([InputRef(i) for i in range(len(proxies))],)
                if listed
                else tuple(InputRef(i) for i in range(len(proxies)))
            )
            first["graph"] = GraphIR(
                name=f"{name}_fn",
                inputs=inner.inputs,
                in_tree=(in_tree, {}),
                captures=inner.captures,
                nodes=inner.nodes,
                outputs=enc_out,
                arg_names=["xs"] if listed else [f"primal{i}" for i in range(len(proxies))],
            )
            first["outer"] = list(inner.outer)
            first["shadow"] = sh_out
        return nat_out

    res = tracer.concrete.calls[name](shim, *nat[0], **nat[1])
    if "graph" not in first:
        raise GraphTraceError(f"{label}: the backend's {name} never called the function")
    sub = Subgraph(first["graph"], first["outer"])
    shadow_out = fn_shadow = None
    if tracer.shadow:
        shadow_out, fn_shadow = _shadow_result(tracer, name, res, first["shadow"], op_shadows, kw)
    result = tracer._record(name, (sub, *enc[0]), enc[1], res, shadow_out, scope, known=False, fn_shadow=fn_shadow)
    _name_outputs(scope.nodes[-1].outputs, name)
    return result


#: names of each gradient op's results, as they print
_HINTS = {
    "value_and_grad_flat": ("value", "grad", "aux"),
    "vjp": ("out", "pullback"),
    "jvp": ("out", "tangent"),
    "jacobian": ("jacobian",),
}


def _name_outputs(outputs: Any, name: str) -> None:
    hints = _HINTS[name]
    if name == "jacobian" or not isinstance(outputs, tuple):
        parts: Any = [outputs]
    else:
        parts = outputs
    for part, hint in zip(parts, hints + hints[-1:] * len(parts)):
        for v in tree_leaves(part):
            if hasattr(v, "hint"):
                v.hint = hint


def _shadow_result(
    tracer: Tracer, name: str, res: Any, inner_shadow: Any, op_shadows: list[Any], kw: dict[str, Any]
) -> tuple[Any, Any]:
    """Arrays shaped like the op's results at the other size of the dynamic dimensions (only
    their shapes matter), and for ``vjp`` those of its pullback's results."""
    if name == "value_and_grad_flat":
        value = res[0]
        grads = list(op_shadows)
        aux = inner_shadow[1] if kw.get("has_aux") else None
        return (value, grads, aux), None
    if name == "vjp":
        return (inner_shadow, None), tuple(op_shadows)
    if name == "jvp":
        return (inner_shadow, inner_shadow), None
    calls = tracer.concrete.calls  # jacobian: output shape + primal shape
    argnums = kw.get("argnums", 0)
    out_shape = tuple(inner_shadow.shape)

    def jac(i: int, like: Any) -> Any:
        return calls["zeros"](out_shape + tuple(op_shadows[i].shape), dtype=like.dtype)

    if isinstance(argnums, int):
        return jac(argnums, res), None
    return tuple(jac(i, r) for i, r in zip(argnums, res)), None
