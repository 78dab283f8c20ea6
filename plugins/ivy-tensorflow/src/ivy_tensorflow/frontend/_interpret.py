"""The interpreter of a concrete function's graph: each op becomes Ivy ops, through the table.

Run under the graph tracer (``ivy.plugin_kit.trace_program``), the Ivy ops it calls are what the
graph records. Only the ops the outputs depend on are read (training-only variable updates hang
off the graph by control edges and are never reached). Before anything runs,
:meth:`Interpreter.check` walks those ops and raises :class:`ivy.errors.UnsupportedOpsError`
listing every op the table cannot translate, with the user's source line that created it.

Values known at transpile time (``Const`` ops, shapes of tensors whose shape is static, captured
eager tensors, and whatever is computed from those alone) are computed concretely by TensorFlow
itself (``tf.raw_ops``), so shape arithmetic never enters the graph; an op the table lacks is
still fine when its inputs are all known. Random and stateful ops are never computed so.

Control flow follows its function graphs: ``If`` on a condition known at transpile time takes
its branch, and ``While`` with a trip count known at transpile time (a Keras RNN over a fixed
number of steps) is unrolled; a tensor list (``TensorList*``, TF's TensorArray) is a Python list
of arrays meanwhile. An ``If`` or ``While`` decided by the data becomes one ``ivy.cond`` or
``ivy.while_loop`` whose functions are the branches' or the condition's and body's graphs.
"""

from __future__ import annotations

import inspect
import os
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np
import tensorflow as tf

import ivy
from ivy.errors import TranspileError, UnsupportedOpsError

from ._table import TABLE, Ctx

__all__ = ["Interpreter", "source_of"]

#: ops that carry no computation of their own
_SKIP = frozenset({"NoOp"})
#: ops answered from static shapes
_SHAPE_OPS = frozenset({"Shape", "Size", "Rank", "ShapeN"})
_FRAMEWORK_DIRS = tuple(os.path.dirname(os.path.dirname(m.__file__ or "")) + os.sep for m in (tf, ivy)) + (
    os.path.dirname(os.path.dirname(__file__)) + os.sep,
)


#: control flow, interpreted with its function graphs
_IF = frozenset({"If", "StatelessIf"})
_CONTROL = _IF | {"While", "StatelessWhile"}
#: more than this many iterations of an unrolled loop is taken for a runaway loop
MAX_WHILE_ITERATIONS = 10_000


def _is_random(op: Any) -> bool:
    t = op.type
    return "Random" in t or t.startswith(("Multinomial", "Truncated")) or op.op_def.is_stateful


def _foldable(op: Any) -> bool:
    """Whether TensorFlow may compute ``op`` at transpile time when its inputs are known."""
    return not _is_random(op) and not any(t.dtype in (tf.variant, tf.resource) for t in op.outputs)


def _needed(graph: Any, outputs: list[Any]) -> list[Any]:
    """The ops ``outputs`` depend on through data edges, in the graph's (topological) order."""
    seen: set[str] = set()
    stack = [t.op for t in outputs]
    while stack:
        op = stack.pop()
        if op.name in seen:
            continue
        seen.add(op.name)
        stack.extend(t.op for t in op.inputs)
    return [op for op in graph.get_operations() if op.name in seen]


def _function_graph(op: Any, attr_name: str) -> Any:
    """The graph of the function a control-flow op names in ``attr_name`` (a loop's body, a
    branch), looked up in the op's graph and the graphs around it."""
    name = op.get_attr(attr_name).name
    graph = op.graph
    while graph is not None:
        fn = getattr(graph, "_functions", {}).get(name)  # (no public API for a graph's functions)
        if fn is not None and getattr(fn, "graph", None) is not None:
            return fn.graph
        graph = getattr(graph, "outer_graph", None)
    raise TranspileError(f"the function {name!r} of {op.type} ({op.name}) was not found in its graph")


def source_of(op: Any) -> str:
    """The user's source line that created ``op`` (``file:line in function``), or ``"?"``."""
    frames = list(getattr(op, "traceback", None) or [])
    for fr in reversed(frames):
        filename = getattr(fr, "filename", "")
        if "keras" in filename.split(os.sep) or filename.startswith(_FRAMEWORK_DIRS):
            continue
        return f"{filename}:{getattr(fr, 'lineno', '?')} in {getattr(fr, 'name', '?')}"
    if frames:
        fr = frames[-1]
        return f"{getattr(fr, 'filename', '?')}:{getattr(fr, 'lineno', '?')}"
    return "?"


def _static_shape(t: Any) -> tuple[int, ...] | None:
    shape = t.shape
    if shape.rank is None or not shape.is_fully_defined():
        return None
    return tuple(shape.as_list())


class _Val:
    """A tensor's value during interpretation: the Ivy array (made on first use for a constant)
    and, when known at transpile time, its NumPy value."""

    __slots__ = ("_array", "const")

    def __init__(self, array: Any = None, const: np.ndarray | None = None):
        self._array, self.const = array, const

    @property
    def array(self) -> Any:
        if self._array is None:
            self._array = ivy.asarray(tf.constant(self.const))  # a TF constant: the trace computes on TF
        return self._array


class Interpreter:
    """Interprets one concrete function's graph with Ivy ops (see the module docstring).

    Args:
        graph: the ``FuncGraph``.
        inputs: the placeholders of the program's array inputs, in order.
        outputs: the graph tensors of the program's outputs.
        variables: resource placeholder name -> the key chain of the variable it stands for.
        captured: placeholder name -> the NumPy value of a captured (closed-over) tensor.
        what: the program's name, for messages.
    """

    def __init__(
        self,
        graph: Any,
        inputs: list[Any],
        outputs: list[Any],
        variables: Mapping[str, str],
        captured: Mapping[str, np.ndarray],
        what: str = "the program",
    ):
        self.graph, self.inputs, self.outputs = graph, inputs, outputs
        self.variables, self.captured, self.what = dict(variables), dict(captured), what
        self.ops = _needed(graph, outputs)
        self._sub_ops: dict[int, list[Any]] = {}

    # ------------------------------------------------------------------ checking

    def check(self) -> None:
        """Raise :class:`UnsupportedOpsError` naming every op that cannot be translated."""
        problems: dict[str, list[str]] = {}
        known = {name: True for name in self.captured}
        bound = {t.name for t in self.inputs} | set(self.variables) | set(self.captured)
        self._check(self.ops, known, bound, problems)
        if problems:
            raise UnsupportedOpsError("tensorflow", problems, what=self.what)

    def _check(self, ops: list[Any], known: dict[str, bool], bound: set[str], problems: dict[str, list[str]]) -> None:
        for op in ops:
            outs_known: Any = False
            if op.type == "Placeholder":
                name = op.outputs[0].name
                if name not in bound:
                    problems.setdefault("Placeholder", []).append(f"{op.name}: an input the frontend cannot bind")
                outs_known = known.get(name, False)
            elif op.type == "Const":
                outs_known = True
            elif op.type in _SHAPE_OPS:
                outs_known = all(_static_shape(t) is not None for t in op.inputs)
                if not outs_known:
                    problems.setdefault(op.type, []).append(
                        f"{source_of(op)}: a dynamic shape (transpile with static shapes)"
                    )
            elif op.type in _CONTROL:
                outs_known = self._check_control(op, [known.get(t.name, False) for t in op.inputs], problems)
            elif op.type in _SKIP:
                pass
            else:
                ins = [known.get(t.name, False) for t in op.inputs]
                folds = bool(ins) and all(ins) and _foldable(op)
                rule = TABLE.get(op.type)
                why = None
                if rule is None:
                    why = "" if not folds else None
                else:
                    why = rule.supports(op) if rule.supports is not None else None
                    bad = [i for i in rule.const_inputs if i < len(ins) and not ins[i]]
                    if why is None and bad:
                        name = op.inputs[bad[0]].name
                        why = f"input {bad[0]} ({name}) is computed from the inputs; it must be a constant"
                    if folds:
                        why = None
                if why is not None:
                    where = source_of(op)
                    problems.setdefault(op.type, []).append(f"{where}: {why}" if why else where)
                outs_known = folds
            for i, t in enumerate(op.outputs):
                known[t.name] = outs_known[i] if isinstance(outs_known, list) else outs_known

    def _check_control(self, op: Any, ins: list[bool], problems: dict[str, list[str]]) -> list[bool]:
        """Check the branches or the loop body of a control-flow op; whether each output is known
        at transpile time (loop variables known on entry stay known through the body, as
        counters do)."""
        if op.type in _IF:
            if not ins[0]:  # a branch on the data: one ivy.cond, whose results are not known
                self._check_arrays(op, op.inputs[1:], problems)
            outs = [True] * len(op.outputs)
            for branch in ("then_branch", "else_branch"):
                sub = _function_graph(op, branch)
                outs = [a and b for a, b in zip(outs, self._check_sub(sub, ins[1:], problems))]
            return outs if ins[0] else [False] * len(op.outputs)
        cond, body = _function_graph(op, "cond"), _function_graph(op, "body")
        if not self._check_sub(cond, ins, problems)[0]:  # a trip count of the data: one ivy.while_loop
            inv = _invariants(body)
            self._check_arrays(op, [t for i, t in enumerate(op.inputs) if not (inv[i] and ins[i])], problems)
            ins = [k and inv[i] for i, k in enumerate(ins)]
            self._check_sub(body, ins, problems)
            return ins
        return [a and b for a, b in zip(ins, self._check_sub(body, ins, problems))]

    @staticmethod
    def _check_arrays(op: Any, tensors: Any, problems: dict[str, list[str]]) -> None:
        """A data-dependent loop or branch carries arrays only (no tensor list or variable)."""
        for t in tensors:
            if t.dtype in (tf.variant, tf.resource):
                problems.setdefault(op.type, []).append(
                    f"{source_of(op)}: a loop or branch on the data carrying a {t.dtype.name} tensor (only arrays)"
                )

    def _check_sub(self, sub: Any, ins: list[bool], problems: dict[str, list[str]]) -> list[bool]:
        known = {t.name: k for t, k in zip(sub.inputs, ins)}
        self._check(self._ops_of(sub), known, {t.name for t in sub.inputs}, problems)
        return [known.get(t.name, False) for t in sub.outputs]

    def _ops_of(self, sub: Any) -> list[Any]:
        if id(sub) not in self._sub_ops:
            self._sub_ops[id(sub)] = _needed(sub, list(sub.outputs))
        return self._sub_ops[id(sub)]

    # ------------------------------------------------------------------ running

    def run(self, arrays: list[Any], params: Mapping[str, Any]) -> list[Any]:
        """The outputs on ``arrays`` (the inputs) and ``params`` (key chain -> array)."""
        env: dict[str, _Val] = {}
        for t, a in zip(self.inputs, arrays):
            env[t.name] = _Val(a)
        for name, chain in self.variables.items():
            env[name] = _Val(params[chain])
        for name, value in self.captured.items():
            env[name] = _Val(const=value)
        self._eval(self.ops, env)
        return [env[t.name].array for t in self.outputs]

    def _eval(self, ops: list[Any], env: dict[str, _Val]) -> None:
        for op in ops:
            if op.type in ("Placeholder", *_SKIP):
                continue
            outs = self._control(op, env) if op.type in _CONTROL else self._op(op, env)
            for t, v in zip(op.outputs, outs):
                env[t.name] = v

    def _call(self, sub: Any, vals: list[_Val]) -> list[_Val]:
        env = {t.name: v for t, v in zip(sub.inputs, vals)}
        self._eval(self._ops_of(sub), env)
        return [env[t.name] for t in sub.outputs]

    def _control(self, op: Any, env: dict[str, _Val]) -> list[_Val]:
        """``If`` with a known condition: the branch taken; ``While`` with a known trip count:
        unrolled; otherwise one ``ivy.cond`` or ``ivy.while_loop``."""
        ins = [env[t.name] for t in op.inputs]
        if op.type in _IF:
            cond = ins[0].const
            if cond is None:
                return self._graph_cond(op, ins)
            return self._call(_function_graph(op, "then_branch" if bool(cond) else "else_branch"), ins[1:])
        cond, body = _function_graph(op, "cond"), _function_graph(op, "body")
        for _ in range(MAX_WHILE_ITERATIONS):
            go = self._call(cond, ins)[0].const
            if go is None:
                return self._graph_while(op, cond, body, ins)
            if not bool(go):
                return ins
            ins = self._call(body, ins)
        raise TranspileError(
            f"the loop at {source_of(op)} ran {MAX_WHILE_ITERATIONS} iterations while being unrolled: a runaway loop?"
        )

    def _graph_cond(self, op: Any, ins: list[_Val]) -> list[_Val]:
        """``If`` on the data as one ``ivy.cond``: the operands known at transpile time stay
        constants of the branches, the others are its operands."""
        moving = [i for i, v in enumerate(ins[1:]) if v.const is None]
        arrays = [ins[1 + i].array for i in moving]

        def branch(name: str) -> Any:
            sub = _function_graph(op, name)

            def run(*vs: Any) -> Any:
                vals = list(ins[1:])
                for i, v in zip(moving, vs):
                    vals[i] = _Val(v)
                return tuple(self._exact(o.array, t, op) for o, t in zip(self._call(sub, vals), op.outputs))

            return run

        res = ivy.cond(ins[0].array, branch("then_branch"), branch("else_branch"), arrays)
        return [_Val(r) for r in res]

    def _graph_while(self, op: Any, cond: Any, body: Any, ins: list[_Val]) -> list[_Val]:
        """``While`` whose trip count depends on the data as one ``ivy.while_loop``: the loop
        variables the body passes through unchanged and that are known stay constants."""
        inv = _invariants(body)
        moving = [i for i, v in enumerate(ins) if not (inv[i] and v.const is not None)]

        def full(vs: tuple[Any, ...]) -> list[_Val]:
            vals = list(ins)
            for i, v in zip(moving, vs):
                vals[i] = _Val(v)
            return vals

        def cond_fn(*vs: Any) -> Any:
            return self._call(cond, full(vs))[0].array

        def body_fn(*vs: Any) -> Any:
            out = self._call(body, full(vs))
            return tuple(self._exact(out[i].array, op.outputs[i], op) for i in moving)

        res = ivy.while_loop(cond_fn, body_fn, [self._exact(ins[i].array, op.outputs[i], op) for i in moving])
        out = list(ins)
        for i, r in zip(moving, res):
            out[i] = _Val(r)
        return out

    def _op(self, op: Any, env: dict[str, _Val]) -> list[_Val]:
        if op.type == "Const":
            return [_Val(const=tf.make_ndarray(op.get_attr("value")))]
        if op.type in _SHAPE_OPS:
            return [_Val(const=c) for c in _shape_op(op)]
        ins = [env[t.name] for t in op.inputs]
        rule = TABLE.get(op.type)
        known = [v.const for v in ins if v.const is not None]
        if ins and len(known) == len(ins) and _foldable(op):
            try:
                return [_Val(const=c) for c in _fold(op, known)]
            except Exception:
                if rule is None:
                    raise
        if rule is None:  # check() has reported it
            raise UnsupportedOpsError("tensorflow", {op.type: [source_of(op)]}, what=self.what)
        consts: list[Callable[[], np.ndarray] | None] = [None if v.const is None else _returns(v.const) for v in ins]
        args = [None if i in rule.const_inputs else v.array for i, v in enumerate(ins)]
        out = rule.fn(Ctx(op, consts), *args)
        outs = list(out) if isinstance(out, (tuple, list)) else [out]
        if len(outs) != len(op.outputs):
            raise TranspileError(
                f"the translation of {op.type} ({op.name}) gave {len(outs)} outputs, TensorFlow has {len(op.outputs)}"
            )
        return [_Val(self._exact(o, t, op)) for o, t in zip(outs, op.outputs)]

    @staticmethod
    def _exact(x: Any, t: Any, op: Any) -> Any:
        """``x`` with exactly the graph tensor's dtype; its static shape is checked."""
        if t.dtype in (tf.variant, tf.resource):  # a tensor list, a variable: not an array
            return x
        shape = _static_shape(t)
        if shape is not None and tuple(x.shape) != shape:
            raise TranspileError(
                f"the TensorFlow frontend's translation of {op.type} ({op.name}, at {source_of(op)}) gave shape "
                f"{tuple(x.shape)}, TensorFlow gives {shape}: a frontend bug, please report it"
            )
        dtype = t.dtype.name
        if ivy.dtype_name(x.dtype) != dtype:
            x = ivy.astype(x, dtype)
        return x


def _returns(value: np.ndarray) -> Callable[[], np.ndarray]:
    return lambda: value


def _shape_op(op: Any) -> list[np.ndarray]:
    dtype = op.get_attr("out_type").as_numpy_dtype if "out_type" in op.node_def.attr else np.int32
    shapes = [_static_shape(t) or () for t in op.inputs]  # (check() made sure they are static)
    if op.type == "Size":
        return [np.asarray(int(np.prod(shapes[0])), dtype)]
    if op.type == "Rank":
        return [np.asarray(len(shapes[0]), np.int32)]
    return [np.asarray(s, dtype) for s in shapes]


def _fold(op: Any, values: list[np.ndarray]) -> list[np.ndarray]:
    """The op's outputs computed by TensorFlow from its inputs' known values."""
    fn = getattr(tf.raw_ops, op.type)
    params = list(inspect.signature(fn).parameters)
    # tf.raw_ops takes the op's inputs first, in the op's order, under names of its own
    # (``Max(input, axis)`` for ``reduction_indices``), then the attributes it does not infer
    kwargs: dict[str, Any] = {}
    it = iter(values)
    for arg, param in zip(op.op_def.input_arg, params):
        if arg.number_attr:
            kwargs[param] = [next(it) for _ in range(op.get_attr(arg.number_attr))]
        elif arg.type_list_attr:
            kwargs[param] = [next(it) for _ in op.get_attr(arg.type_list_attr)]
        else:
            kwargs[param] = next(it)
    for a in op.op_def.attr:
        if a.name in params[len(op.op_def.input_arg) :] and a.name not in kwargs:
            kwargs[a.name] = op.get_attr(a.name)
    with tf.device("CPU:0"):
        res = fn(**kwargs)
    res = list(res) if isinstance(res, (tuple, list)) else [res]
    return [np.asarray(r) for r in res]


def _invariants(body: Any) -> list[bool]:
    """Per loop variable, whether the loop body returns it unchanged (through ``Identity`` ops)."""
    out = []
    for t_in, t_out in zip(body.inputs, body.outputs):
        t = t_out
        while t.op.type == "Identity":
            t = t.op.inputs[0]
        out.append(t.name == t_in.name)
    return out
