"""Interpreting a Core ATen program with Ivy ops: the frontend's ``to_graph``.

The exported program is checked first, whole (every op the table lacks, with the source lines
that use it, raised at once); then its FX graph is walked node by node under
:func:`ivy.plugin_kit.trace_program`, each ATen call replaced by its rule's Ivy ops, and the
graph tracer records those calls with real shapes and dtypes, computing on torch's own tensors.
"""

from __future__ import annotations

import operator
import os
import re
from collections.abc import Mapping
from typing import Any

import torch
from torch.export.graph_signature import InputKind, OutputKind

import ivy
from ivy.errors import TranspileError, UnsupportedOpsError
from ivy.plugin_kit import trace_program

from ._export import capture, decomposable, decompose
from ._outputs import unflatten
from ._rules import Out, cast
from ._table import TABLE, op_name

__all__ = ["to_graph", "unsupported_ops", "source_ops", "key_chain"]

_TOKEN = "<token>"  # marks the program's token outputs
_FRAME = re.compile(r'File "([^"]+)", line (\d+), in (\S+)')


def key_chain(name: str) -> str:
    """torch's dotted state-dict name as an Ivy key chain: ``encoder.layer.0.weight`` ->
    ``encoder/layer/0/weight``."""
    return name.replace(".", "/")


def where(node: Any) -> str:
    """``file:line in function`` of the innermost user frame that made this node."""
    frames = _FRAME.findall(node.meta.get("stack_trace") or "")
    if not frames:
        return ""
    path, line, fn = frames[-1]
    rel = os.path.relpath(path) if os.path.isabs(path) else path
    return f"{rel if not rel.startswith('..') else path}:{line} in {fn}"


def _identity(x: torch.Tensor) -> Any:
    """What makes two entries of a state dict one tensor (tied weights): the same object, or a
    view of the same memory with the same layout."""
    if x.numel() == 0 or x.is_meta or x.layout != torch.strided:
        return ("object", id(x))  # (empty tensors may all point at address 0)
    return (x.untyped_storage().data_ptr(), x.storage_offset(), tuple(x.shape), x.stride(), x.dtype, str(x.device))


def _op_label(target: Any) -> str:
    if isinstance(target, torch._ops.HigherOrderOperator):
        return f"torch.ops.higher_order.{target.name()}"
    if isinstance(target, torch._ops.OpOverload):
        return str(target)
    return f"{getattr(target, '__module__', '') or ''}.{getattr(target, '__name__', repr(target))}".lstrip(".")


def unsupported_ops(program: Any) -> dict[str, list[str]]:
    """Every op of ``program`` the table cannot translate (or this use of it, with the reason),
    with the source lines using it."""
    return _scan(program)[0]


#: effectful ops torch.export threads a token through (``with_effects``) that are checks the
#: exported example passed (a singular matrix's error), without a value the program reads
_EFFECT_CHECKS = frozenset({"_linalg_check_errors"})


def _effect(node: Any) -> Any:
    """The op a ``with_effects`` node runs, or None for other nodes."""
    if node.target is torch.ops.higher_order.with_effects:
        return node.args[1]
    return None


def _scan(program: Any) -> tuple[dict[str, list[str]], set[Any]]:
    """:func:`unsupported_ops`, and the mapped ops among them (rejected by their rule's check);
    the functions of control-flow ops (their subgraphs) are scanned too."""
    missing: dict[str, list[str]] = {}
    rejected: set[Any] = set()
    _scan_graph(program.graph, program.graph_module, missing, rejected)
    return missing, rejected


def _scan_graph(graph: Any, owner: Any, missing: dict[str, list[str]], rejected: set[Any]) -> None:
    for node in graph.nodes:
        if node.op != "call_function" or node.target is operator.getitem:
            continue
        target = _effect(node) or node.target
        if _effect(node) is not None and op_name(target) in _EFFECT_CHECKS:
            continue
        label = _op_label(target)
        if target in _CONTROL:
            reason = _control_check(node, owner)
            if reason is None:
                first, end = _CONTROL[target]
                for sub in node.args[first:end]:
                    gm = getattr(owner, sub.target)
                    _scan_graph(gm.graph, gm, missing, rejected)
                continue
            label = f"{label} ({reason})"
        elif isinstance(target, torch._ops.OpOverload) and target.namespace == "aten":
            rule = TABLE.get(op_name(target))
            if rule is not None:
                reason = rule.check(node) if rule.check else None
                if reason is None:
                    continue
                label = f"{label} ({reason})"
                rejected.add(target)
        missing.setdefault(label, [])
        line = where(node)
        if line and line not in missing[label]:
            missing[label].append(line)


#: torch.export's control-flow ops the frontend does not read yet (the others are read, or are
#: wrappers the decomposition removes)
_UNREAD_CONTROL = frozenset({"associative_scan"})


def _unread_control(graph: Any, owner: Any, found: dict[str, list[str]]) -> dict[str, list[str]]:
    """The uses of :data:`_UNREAD_CONTROL` in a captured program (its subgraphs included)."""
    for node in graph.nodes:
        if node.op == "get_attr" and isinstance(getattr(owner, node.target, None), torch.fx.GraphModule):
            sub = getattr(owner, node.target)
            _unread_control(sub.graph, sub, found)
        elif node.op == "call_function" and isinstance(node.target, torch._ops.HigherOrderOperator):
            if node.target.name() in _UNREAD_CONTROL:
                lines = found.setdefault(_op_label(node.target), [])
                if where(node) and where(node) not in lines:
                    lines.append(where(node))
    return found


#: torch.export's control-flow ops the frontend reads (as ``ivy.while_loop``, ``ivy.cond`` and
#: ``ivy.scan``; ``map_impl`` is a scan without a carry), with the positions of their function
#: arguments (GraphModules) as a slice: the arguments after them are lists of operands
_CONTROL: dict[Any, tuple[int, int]] = {
    torch.ops.higher_order.while_loop: (0, 2),
    torch.ops.higher_order.cond: (1, 3),
    torch.ops.higher_order.scan: (0, 1),
    torch.ops.higher_order.map_impl: (0, 1),
}


def _control_check(node: Any, owner: Any) -> str | None:
    """Why this use of a control-flow op cannot be read, or None."""
    first, end = _CONTROL[node.target]
    for sub in node.args[first:end]:
        if not (isinstance(sub, torch.fx.Node) and sub.op == "get_attr"):
            return "a function that is not a subgraph of the program"
        if not isinstance(getattr(owner, str(sub.target), None), torch.fx.GraphModule):
            return "a function that is not a subgraph of the program"
    if node.target is torch.ops.higher_order.cond and not isinstance(node.args[0], torch.fx.Node):
        return "a predicate that is not a tensor"
    scanned = node.args[2 if node.target is torch.ops.higher_order.scan else 1]
    if node.target in (torch.ops.higher_order.scan, torch.ops.higher_order.map_impl) and not scanned:
        return "a loop over no tensor"
    operands = [o for group in node.args[end:] for o in group]
    for o in operands:
        val = o.meta.get("val") if isinstance(o, torch.fx.Node) else o
        if not isinstance(val, torch.Tensor):
            return f"an operand that is not a tensor ({type(val).__name__})"
    return None


def _used_outputs(node: Any) -> frozenset[int]:
    return frozenset(u.args[1] for u in node.users if u.target is operator.getitem)


def _conform(result: Any, val: Any, node: Any) -> Any:
    """The rule's result checked against what torch computed: same shape (else the rule is
    wrong: an error naming it), and cast to torch's dtype where Ivy's promotion differs."""
    if isinstance(val, torch.Tensor):
        if result is None or isinstance(result, (bool, int, float)):
            return result
        if tuple(result.shape) != tuple(val.shape):
            raise TranspileError(
                f"the torch frontend's translation of {node.target} ({where(node) or 'no source line'}) gave shape "
                f"{tuple(result.shape)} where torch computes {tuple(val.shape)}: a frontend defect, please report it"
            )
        return cast(result, val.dtype)
    if isinstance(val, (tuple, list)) and isinstance(result, (tuple, list)):
        return type(result)(_conform(r, v, node) for r, v in zip(result, val))
    return result


class Interpreter:
    """Runs an exported program's graph with Ivy ops: ``run(values, *args, **kwargs)`` as
    :func:`ivy.plugin_kit.trace_program` calls it."""

    def __init__(self, program: Any, params_v: Mapping[str, Any] | None = None):
        self.program = program
        self.graph = program.graph
        sig = program.graph_signature
        state, constants = program.state_dict, program.constants
        self.params: dict[str, Any] = {}
        self.buffers: dict[str, Any] = {}
        #: parameters the module does not train (requires_grad=False): lifted as buffers
        self.frozen: list[str] = []
        #: a second name of a parameter or buffer (tied weights) -> the key chain of the first
        self.ties: dict[str, str] = {}
        self.inputs: dict[str, tuple[str, Any]] = {}  # placeholder name -> (kind, key or index)
        self.constants: dict[str, torch.Tensor] = {}
        first: dict[Any, str] = {}  # (kind, the tensor's identity) -> its first key chain
        user = 0
        for spec in sig.input_specs:
            name = spec.arg.name
            if spec.kind in (InputKind.PARAMETER, InputKind.BUFFER):
                value = state[spec.target] if spec.target in state else constants[spec.target]
                chain = key_chain(spec.target)
                same = first.setdefault((spec.kind, _identity(value)), chain)
                self.inputs[name] = ("value", same)
                if same != chain:  # torch.export lists a tied weight under each of its names
                    self.ties[chain] = same
                elif spec.kind == InputKind.BUFFER:
                    self.buffers[chain] = value.detach()
                elif value.requires_grad:
                    self.params[chain] = value.detach()
                else:
                    self.buffers[chain] = value.detach()
                    self.frozen.append(chain)
            elif spec.kind == InputKind.CONSTANT_TENSOR:
                self.constants[name] = constants[spec.target].detach()
                self.inputs[name] = ("constant", name)
            elif spec.kind == InputKind.USER_INPUT:
                self.inputs[name] = ("user", user)
                user += 1
            elif spec.kind == InputKind.TOKEN:  # orders effectful ops; no value in the graph
                self.inputs[name] = ("token", None)
            else:
                raise TranspileError(f"the torch frontend cannot read a program input of kind {spec.kind.name}")
        self.outputs: list[str | None] = []  # per flat output: the buffer key chain it updates, or None
        for out in sig.output_specs:
            if out.kind == OutputKind.BUFFER_MUTATION:
                self.outputs.append(key_chain(out.target))
            elif out.kind == OutputKind.USER_OUTPUT:
                self.outputs.append(None)
            elif out.kind == OutputKind.TOKEN:
                self.outputs.append(_TOKEN)
            elif out.kind == OutputKind.USER_INPUT_MUTATION:
                raise TranspileError(
                    f"the program writes into its input {out.target!r} in place; the transpiled program is "
                    "functional: return the new value instead"
                )
            else:
                raise TranspileError(f"the torch frontend cannot read a program output of kind {out.kind.name}")
        if params_v:
            self._override(params_v)

    def _override(self, params_v: Mapping[str, Any]) -> None:
        flat = (
            ivy.Container(dict(params_v)).to_flat_dict()
            if any(isinstance(v, Mapping) for v in params_v.values())
            else dict(params_v)
        )
        for key, value in flat.items():
            k = key_chain(key)
            k = self.ties.get(k, k)
            if k in self.params:
                self.params[k] = value
            elif k in self.buffers:
                self.buffers[k] = value
            else:
                raise KeyError(
                    f"params_v has {key!r}, which the module has no parameter or buffer of "
                    f"(it has {sorted(self.params) + sorted(self.buffers)})"
                )

    def _flat_inputs(self, args: tuple[Any, ...], kwargs: dict[str, Any]) -> list[Any]:
        from torch.fx._pytree import tree_flatten_spec

        return list(tree_flatten_spec((args, kwargs), self.program.call_spec.in_spec))

    def run(self, values: Mapping[str, Any], *args: Any, **kwargs: Any) -> Any:
        arrays = [v for v in (*values.values(), *self._flat_inputs(args, kwargs)) if ivy.is_native_array(v)]
        if not arrays:
            return self._run(values, args, kwargs)
        # the rules' creation ops (ivy.arange, ivy.full) take no array: they must make arrays of
        # the inputs' backend (the recording one while tracing), whatever the current one is
        with ivy.use_backend(ivy.namespace(arrays[0])):
            return self._run(values, args, kwargs)

    def _run(self, values: Mapping[str, Any], args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        flat = self._flat_inputs(args, kwargs)
        env: dict[Any, Any] = {}
        for node in self.graph.nodes:
            if node.op == "placeholder":
                kind, ref = self.inputs[node.name]
                if kind == "value":
                    env[node] = values[ref]
                elif kind == "constant":
                    env[node] = ivy.asarray(self.constants[ref])
                else:
                    env[node] = flat[ref] if kind == "user" else None
            elif node.op == "get_attr":
                env[node] = getattr(self.program.graph_module, node.target)
            elif node.op == "call_function":
                env[node] = self._call(node, env, self.program.graph_module)
            elif node.op == "output":
                results = [env[a] if isinstance(a, torch.fx.Node) else a for a in node.args[0]]
                leaves = [r for r, key in zip(results, self.outputs) if key is None]
                outputs = unflatten(self.program.call_spec.out_spec, leaves)
                if self.buffers:
                    return outputs, {key: r for r, key in zip(results, self.outputs) if key not in (None, _TOKEN)}
                return outputs
        raise TranspileError("the exported program has no output")

    def _call(self, node: Any, env: dict[Any, Any], owner: Any) -> Any:
        if node.target is operator.getitem:
            source, i = node.args
            return env[source][i]
        if _effect(node) is not None:  # a check (see _EFFECT_CHECKS): the token, and no value
            return (None, None)
        if node.target in _CONTROL:
            return _conform(self._control(node, env, owner), node.meta.get("val"), node)
        rule = TABLE[op_name(node.target)]
        args = torch.fx.node.map_arg(node.args, lambda n: env[n])
        kwargs = torch.fx.node.map_arg(node.kwargs, lambda n: env[n])
        val = node.meta.get("val")
        if rule.out:
            result = rule.fn(Out(val, _used_outputs(node)), *args, **kwargs)
        else:
            result = rule.fn(*args, **kwargs)
        return _conform(result, val, node)

    def _control(self, node: Any, env: dict[Any, Any], owner: Any) -> Any:
        """``while_loop(cond, body, carried, additional)`` and ``cond(pred, true, false,
        operands)`` of torch.export as ``ivy.while_loop`` / ``ivy.cond``, their subgraphs run by
        this interpreter (the additional inputs are outer arrays the functions capture)."""
        args = torch.fx.node.map_arg(node.args, lambda n: env[n])
        if node.target is torch.ops.higher_order.while_loop:
            cond_gm, body_gm, carried = args[0], args[1], list(args[2])
            extra = tuple(args[3]) if len(args) > 3 else ()

            def cond_fn(*vs: Any) -> Any:
                return self._subgraph(cond_gm, (*vs, *extra))

            def body_fn(*vs: Any) -> Any:
                out = self._subgraph(body_gm, (*vs, *extra))
                return tuple(out) if isinstance(out, (tuple, list)) else (out,)

            return ivy.while_loop(cond_fn, body_fn, carried)
        if node.target in (torch.ops.higher_order.scan, torch.ops.higher_order.map_impl):
            return self._scan(node, args)
        pred, true_gm, false_gm, operands = args[0], args[1], args[2], tuple(args[3])

        def branch(gm: Any) -> Any:
            return lambda *vs: self._subgraph(gm, vs)

        return ivy.cond(pred, branch(true_gm), branch(false_gm), list(operands))

    def _scan(self, node: Any, args: Any) -> list[Any]:
        """``scan(combine, init, xs, additional)`` and ``map_impl(body, xs, additional)`` of
        torch.export as one ``ivy.scan`` (a map carries nothing): flat lists of tensors, the
        function returning the new carry then the outputs of the step (torch.export makes a
        reversed scan by flipping ``xs`` and ``ys`` around it, so the loop always runs forward)."""
        if node.target is torch.ops.higher_order.scan:
            gm, init, xs = args[0], tuple(args[1]), tuple(args[2])
            extra = tuple(args[3]) if len(args) > 3 else ()
        else:
            gm, init, xs, extra = args[0], (), tuple(args[1]), tuple(args[2]) if len(args) > 2 else ()
        n_carry = len(init)

        def f(carry: tuple[Any, ...], x: tuple[Any, ...]) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
            out = self._subgraph(gm, (*carry, *x, *extra))
            out = tuple(out) if isinstance(out, (tuple, list)) else (out,)
            return out[:n_carry], out[n_carry:]

        carry, ys = ivy.scan(f, init, xs)
        return [*carry, *ys]

    def _subgraph(self, gm: Any, inputs: tuple[Any, ...]) -> Any:
        """A control-flow op's function (a GraphModule of the program) run on ``inputs``."""
        env: dict[Any, Any] = {}
        it = iter(inputs)
        for node in gm.graph.nodes:
            if node.op == "placeholder":
                env[node] = next(it)
            elif node.op == "get_attr":
                env[node] = getattr(gm, node.target)
            elif node.op == "call_function":
                env[node] = self._call(node, env, gm)
            elif node.op == "output":
                out = torch.fx.node.map_arg(node.args[0], lambda n: env[n])
                return tuple(out) if isinstance(out, list) else out
        raise TranspileError("a subgraph of the exported program has no output")


def to_graph(
    obj: Any,
    args: tuple[Any, ...] = (),
    kwargs: Mapping[str, Any] | None = None,
    params_v: Mapping[str, Any] | None = None,
) -> Any:
    """The :class:`ivy.Graph` of a torch ``nn.Module`` or function on example inputs.

    Args:
        obj: a ``torch.nn.Module`` (exported in its current mode, ``train()`` or ``eval()``)
            or a function of tensors.
        args, kwargs: example inputs (torch tensors; other values are fixed in the graph).
        params_v: optional replacement values for some of the module's parameters and buffers,
            by key chain (``"encoder/layer/0/weight"``) or torch name.

    Returns:
        The graph. A module's parameters and buffers are lifted by key chain (``graph.params``,
        values in ``graph.param_values``; it is called ``graph(params, *args)``); buffers a
        training-mode pass updates are ``graph.state_updates``. Parameters with
        ``requires_grad=False`` are lifted as buffers (``graph.meta["frozen"]``); a tensor the
        module holds under several names (tied weights) is one parameter, named by its first
        name, the others in ``graph.meta["ties"]``. A function's graph is called
        ``graph(*args)``; tensors it closes over are constants. Outputs keep the program's
        structure (see :mod:`._outputs`: a Hugging Face ``ModelOutput`` is a dict in the graph,
        and an :class:`ivy.transpile.Record` out of a transpiled module).
        ``graph.meta["torch_ops"]`` counts the ATen ops of the program it was read from.

    Raises:
        UnsupportedOpsError: the program uses ops the frontend cannot translate (all listed).
        TranspileError: torch.export cannot capture the program (data-dependent control flow:
            the source line is named).
    """
    kwargs = dict(kwargs or {})
    captured, module, what = capture(obj, tuple(args), kwargs)
    early = _unread_control(captured.graph, captured.graph_module, {})
    if early:  # said before the decomposition (seconds on a large program), which cannot change it
        raise UnsupportedOpsError("torch", early, what=what)
    program = decompose(captured, what)
    missing, rejected = _scan(program)
    retry = frozenset(op for op in rejected if op in decomposable())
    if retry:  # uses of mapped ops their rules cannot translate: torch's decomposition may be
        program = decompose(captured, what, also=retry)
        missing, _ = _scan(program)
    if missing:
        raise UnsupportedOpsError("torch", missing, what=what)
    interpreter = Interpreter(program, params_v)
    name = type(obj).__name__ if isinstance(obj, torch.nn.Module) else getattr(obj, "__name__", "function")
    graph = trace_program(
        interpreter.run,
        params=interpreter.params,
        buffers=interpreter.buffers,
        args=tuple(args),
        kwargs=kwargs,
        name=name,
        training=module.training if isinstance(obj, torch.nn.Module) else False,
        frozen=interpreter.frozen,
        ties=interpreter.ties,
    )
    graph.meta["torch_ops"] = source_ops(program)
    return graph


def source_ops(program: Any) -> dict[str, int]:
    """How many nodes of the exported program call each ATen op (``"aten.convolution.default"``)."""
    counts: dict[str, int] = {}
    for node in program.graph.nodes:
        if node.op == "call_function" and node.target is not operator.getitem:
            label = _op_label(node.target)
            counts[label] = counts.get(label, 0) + 1
    return dict(sorted(counts.items()))
