"""Capture of a paddle program (``paddle.jit.to_static`` to PIR) and its interpretation with
Ivy ops under :func:`ivy.plugin_kit.trace_program`.

The program is the ``ConcreteProgram`` paddle's own dynamic-to-static translator builds for the
function (or the Layer's ``forward``) on the example inputs' shapes and dtypes: a block of PIR
ops (``pd_op.conv2d``, ``pd_op.matmul``, ``pd_op.batch_norm_``...). ``builtin.parameter`` ops
read the Layer's parameters and buffers, which become the graph's parameters (trainable) and
buffers (the others: BatchNorm's running statistics) by key chain from the Layer's own names
(``fc.weight`` -> ``fc/weight``); tensors a function closes over become constants. Constants of
the program (``pd_op.full``, ``pd_op.full_int_array``, static ``shape`` ops) are known at
transpile time, so shapes and axes never enter the graph.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import paddle

import ivy
from ivy.errors import TranspileError, UnsupportedOpsError
from ivy.plugin_kit import trace_program

from ._table import TABLE, Ctx, dtype_name

__all__ = ["Program", "capture", "Interpreter", "to_graph", "BUILTIN"]

#: ops the interpreter handles itself
BUILTIN = {
    "builtin.parameter": "a parameter or buffer (lifted by key chain), or a closed-over constant",
    "pd_op.data": "an input",
    "pd_op.full": "a constant",
    "pd_op.full_int_array": "a constant",
    "pd_op.shape": "the static shape, a constant",
    "pd_op.shape64": "the static shape, a constant",
    "pd_op.numel": "the static size, a constant",
    "pd_op.arange": "a constant (its bounds must be constants)",
    "builtin.combine": "a list of values",
    "builtin.split": "the items of a list",
    "builtin.slice": "one item of a list",
}
_CONST_BUILTINS = {"pd_op.full", "pd_op.full_int_array", "pd_op.shape", "pd_op.shape64", "pd_op.numel"}
_FRAMEWORK_DIRS = tuple(os.path.dirname(os.path.dirname(m.__file__ or "")) + os.sep for m in (paddle, ivy)) + (
    os.path.dirname(os.path.dirname(__file__)) + os.sep,
)


@dataclass
class Program:
    """A captured paddle program.

    Attributes:
        name: the graph's name.
        block: the PIR block of ops.
        inputs: the value ids of the program's inputs, in order.
        outputs: the structure of the outputs, PIR values at the leaves.
        chains: parameter name (``linear_0.w_0``) -> key chain (``fc/weight``).
        params, buffers: key chain -> tensor (trainable / not).
        frozen: the key chains of buffers that are parameters with ``stop_gradient=True``.
        ties: a shared parameter's other names' key chains -> the key chain of its first name.
        consts: parameter name -> NumPy value of a tensor the program closes over.
        training: the Layer's mode.
    """

    name: str
    block: Any
    inputs: list[str]
    outputs: Any
    chains: dict[str, str] = field(default_factory=dict)
    params: dict[str, Any] = field(default_factory=dict)
    buffers: dict[str, Any] = field(default_factory=dict)
    frozen: list[str] = field(default_factory=list)
    ties: dict[str, str] = field(default_factory=dict)
    consts: dict[str, np.ndarray] = field(default_factory=dict)
    training: bool = False
    keep: Any = None  # the concrete program, kept alive while its block is read


def _vid(v: Any) -> str | None:
    """A PIR value's identity, or None for an optional operand left out."""
    try:
        return str(v.id)
    except ValueError:  # (paddle raises for a null value; there is no public is-null test)
        return None


def _is_vector(v: Any) -> bool:
    return str(v.type()).startswith("vec[")


def source_of(op: Any) -> str:
    """The user's source line that created ``op`` (``file:line``), or ``"?"``."""
    try:
        stack = op.attrs().get("op_callstack") or []
    except Exception:
        return "?"
    for line in reversed(stack):
        line = line.strip()
        if not line.startswith('File "'):
            continue
        path = line[6 : line.index('"', 6)]
        if path.startswith(_FRAMEWORK_DIRS):
            continue
        return f"{path}:{line.split('line ', 1)[-1].split(',')[0]}"
    return "?"


def _leaves(tree: Any) -> list[Any]:
    if isinstance(tree, Mapping):
        return [x for k in tree for x in _leaves(tree[k])]
    if isinstance(tree, (list, tuple)):
        return [x for t in tree for x in _leaves(t)]
    return [tree]


def _pack(tree: Any, it: Any) -> Any:
    if isinstance(tree, Mapping):
        return {k: _pack(v, it) for k, v in tree.items()}
    if isinstance(tree, (list, tuple)):
        return type(tree)(_pack(t, it) for t in tree)
    return next(it)


def _chain(name: str) -> str:
    return name.replace(".", "/")


def capture(obj: Any, args: tuple[Any, ...], kwargs: Mapping[str, Any] | None) -> tuple[Program, list[Any]]:
    """Translate ``obj`` (a ``paddle.nn.Layer`` or a function of paddle tensors) to a static
    program on the example inputs; returns it and the inputs as paddle tensors."""
    if kwargs:
        raise TranspileError(
            "the paddle frontend takes the example inputs positionally (args=...), not as keyword arguments"
        )
    xs = [paddle.to_tensor(a) if isinstance(a, np.ndarray) else a for a in args]
    bad = [i for i, a in enumerate(xs) if not isinstance(a, paddle.Tensor)]
    if bad:
        raise TranspileError(
            f"the paddle frontend reads programs of tensors only; inputs {bad} are not paddle tensors or NumPy "
            "arrays (bind other arguments with functools.partial or a closure first)"
        )
    layer = obj if isinstance(obj, paddle.nn.Layer) else None
    fn = layer.forward if layer is not None else obj
    name = type(obj).__name__ if layer is not None else getattr(obj, "__name__", "program")
    specs = [paddle.static.InputSpec(list(a.shape), a.dtype, name=f"x{i}") for i, a in enumerate(xs)]
    try:
        static = paddle.jit.to_static(fn, input_spec=specs, full_graph=True)
        cp = static.concrete_program
    except Exception as e:
        raise TranspileError(
            f"paddle.jit.to_static could not translate {name} to a static program on the example inputs "
            f"({type(e).__name__}: {e}); the function's source must be available and its control flow static"
        ) from e
    inputs = [str(v.id) for v in _leaves(cp.inputs) if isinstance(v, paddle.pir.Value)]
    outputs = cp.outputs
    # paddle wraps the outputs in a list unless they are a tuple of several
    if isinstance(outputs, list) and len(outputs) == 1:
        outputs = outputs[0]
    # the values are views into the program: it must outlive them (reading a value of a freed
    # program crashes the interpreter)
    prog = Program(name, cp.main_program.global_block(), inputs, outputs, keep=(static, cp))
    if layer is not None:
        prog.training = bool(layer.training)
        parameters = {id(t) for _, t in layer.named_parameters()}
        # (named_parameters lists a parameter two sublayers share once: it is one parameter)
        for n, t in (*layer.named_parameters(), *layer.named_buffers()):
            chain = _chain(n)
            prog.chains[t.name] = chain
            trainable = not t.stop_gradient and getattr(t, "trainable", True)
            (prog.params if trainable else prog.buffers)[chain] = t
            if not trainable and id(t) in parameters:
                prog.frozen.append(chain)
        for prefix, sub in layer.named_sublayers(include_self=True):
            for k, t in sub._parameters.items():
                alias = _chain(f"{prefix}.{k}" if prefix else k)
                if t is not None and t.name in prog.chains and prog.chains[t.name] != alias:
                    prog.ties[alias] = prog.chains[t.name]
    for t in _leaves(cp.parameters):
        if isinstance(t, paddle.Tensor) and t.name not in prog.chains:
            prog.consts[t.name] = t.numpy()
    return prog, xs


class _Val:
    """A value during interpretation: an Ivy array (made on first use for a constant), its NumPy
    value when known at transpile time, or the items of a vector."""

    __slots__ = ("_array", "const", "items")

    def __init__(self, array: Any = None, const: np.ndarray | None = None, items: list[_Val] | None = None):
        self._array, self.const, self.items = array, const, items

    @property
    def array(self) -> Any:
        if self.items is not None:
            return [v.array for v in self.items]
        if self._array is None and self.const is not None:
            self._array = ivy.asarray(paddle.to_tensor(self.const))  # the trace computes on paddle
        return self._array


def _full(op: Any) -> np.ndarray:
    a = op.attrs()
    dt = dtype_name(a.get("dtype")) or "float32"
    if op.name() == "pd_op.full_int_array":
        return np.asarray(a["value"], dtype=dt)
    return np.full([int(s) for s in a.get("shape", [])], a["value"], dtype=dt)


class Interpreter:
    """Interprets a captured program's block with Ivy ops (see the module docstring)."""

    def __init__(self, prog: Program):
        self.prog = prog
        self.ops = list(prog.block.ops)

    def check(self) -> None:
        """Raise :class:`UnsupportedOpsError` naming every op that cannot be translated."""
        problems: dict[str, list[str]] = {}
        known: dict[str, bool] = {}
        for op in self.ops:
            name = op.name()
            ins = [(_vid(v), v) for v in op.operands_source()]
            k = False
            if name == "builtin.parameter":
                pname = op.attrs().get("parameter_name")
                if pname not in self.prog.chains and pname not in self.prog.consts:
                    problems.setdefault(name, []).append(f"{pname}: a tensor the frontend cannot bind")
                k = pname in self.prog.consts
            elif name in _CONST_BUILTINS:
                k = True
                if name in ("pd_op.shape", "pd_op.shape64", "pd_op.numel") and any(d < 0 for d in ins[0][1].shape):
                    problems.setdefault(name, []).append(
                        f"{source_of(op)}: a dynamic shape (transpile with static shapes)"
                    )
            elif name == "pd_op.arange":
                k = all(known.get(i or "", False) for i, _ in ins)
                if not k:
                    problems.setdefault(name, []).append(
                        f"{source_of(op)}: bounds computed from the inputs (they must be constants)"
                    )
            elif name in ("builtin.combine", "builtin.split", "builtin.slice"):
                k = all(known.get(i, False) for i, _ in ins if i is not None)
            elif name == "pd_op.data":
                pass
            else:
                rule = TABLE.get(name)
                if rule is None:
                    problems.setdefault(name, []).append(source_of(op))
                else:
                    bad = [i for i in rule.const_inputs if i < len(ins) and not known.get(ins[i][0] or "", False)]
                    if bad:
                        problems.setdefault(name, []).append(
                            f"{source_of(op)}: operand {bad[0]} is computed from the inputs; it must be a constant"
                        )
            for r in op.results():
                known[str(r.id)] = k
        if problems:
            raise UnsupportedOpsError("paddle", problems, what=self.prog.name)

    def written(self) -> set[str]:
        """The key chains of the tensors the program writes in place (BatchNorm's running
        statistics, which paddle holds as parameters with ``stop_gradient=True``): state, in
        either mode, not frozen parameters."""
        chain_of: dict[str, str] = {}
        out: set[str] = set()
        for op in self.ops:
            if op.name() == "builtin.parameter":
                pname = op.attrs().get("parameter_name")
                if pname in self.prog.chains:
                    chain_of[str(op.results()[0].id)] = self.prog.chains[pname]
                continue
            rule = TABLE.get(op.name())
            ins = [_vid(v) for v in op.operands_source()]
            for _, o_i in rule.inplace if rule is not None else ():
                if o_i < len(ins) and (ins[o_i] or "") in chain_of:
                    out.add(chain_of[ins[o_i] or ""])
        return out

    def run(self, arrays: list[Any], values: Mapping[str, Any]) -> tuple[list[Any], dict[str, Any]]:
        """The output leaves on ``arrays`` (the inputs) and ``values`` (key chain -> array), and
        the buffers the program updates (key chain -> new value)."""
        prog = self.prog
        env: dict[str, _Val] = dict(zip(prog.inputs, (_Val(a) for a in arrays)))
        chain_of: dict[str, str] = {}
        updates: dict[str, Any] = {}
        for op in self.ops:
            name = op.name()
            results = op.results()
            ins = [_vid(v) for v in op.operands_source()]
            vals = [env[i] if i is not None else _Val() for i in ins]
            if name == "pd_op.data":
                continue
            if name == "builtin.parameter":
                pname = op.attrs()["parameter_name"]
                if pname in prog.chains:
                    chain = prog.chains[pname]
                    chain_of[str(results[0].id)] = chain
                    outs = [_Val(values[chain])]
                else:
                    outs = [_Val(const=prog.consts[pname])]
            elif name in ("pd_op.full", "pd_op.full_int_array"):
                outs = [_Val(const=_full(op))]
            elif name in ("pd_op.shape", "pd_op.shape64"):
                dt = "int64" if name == "pd_op.shape64" else "int32"
                outs = [_Val(const=np.asarray([int(d) for d in op.operand_source(0).shape], dtype=dt))]
            elif name == "pd_op.numel":
                outs = [_Val(const=np.asarray(int(np.prod([int(d) for d in op.operand_source(0).shape])), "int64"))]
            elif name == "pd_op.arange":
                start, end, step = (np.ravel(np.asarray(v.const))[0] for v in vals)
                dt = dtype_name(op.attrs().get("dtype")) or dtype_name(results[0].dtype) or "int64"
                outs = [_Val(const=np.arange(start, end, step).astype(dt))]
            elif name == "builtin.combine":
                outs = [_Val(items=vals)]
            elif name == "builtin.split":
                outs = list(vals[0].items or [])
            elif name == "builtin.slice":
                outs = [(vals[0].items or [])[int(op.attrs()["index"])]]
            else:
                outs = self._op(op, vals)
                rule = TABLE[name]
                for r_i, o_i in rule.inplace:
                    target = chain_of.get(ins[o_i] or "")
                    new = outs[r_i]._array if r_i < len(outs) else None
                    if target in prog.buffers and new is not None and new is not vals[o_i]._array:
                        updates[target] = new
            for r, v in zip(results, outs):
                env[str(r.id)] = v
        leaves = [env[str(v.id)].array for v in _leaves(prog.outputs)]
        return leaves, updates

    def _op(self, op: Any, vals: list[_Val]) -> list[_Val]:
        rule = TABLE.get(op.name())
        if rule is None:  # check() has reported it
            raise UnsupportedOpsError("paddle", {op.name(): [source_of(op)]}, what=self.prog.name)
        attrs = {k: v for k, v in op.attrs().items() if k != "op_callstack"}
        ctx = Ctx(op, attrs, [v.const for v in vals])
        args = [None if i in rule.const_inputs else v.array for i, v in enumerate(vals)]
        out = rule.fn(ctx, *args)
        outs = list(out) if isinstance(out, (tuple, list)) else [out]
        results = op.results()
        if len(outs) != len(results):
            raise TranspileError(
                f"the translation of {op.name()} gave {len(outs)} results, paddle has {len(results)}: a frontend bug"
            )
        return [self._exact(o, r, op) for o, r in zip(outs, results)]

    @staticmethod
    def _exact(x: Any, r: Any, op: Any) -> _Val:
        """``x`` as result ``r``: its static shape checked, its dtype made exactly paddle's."""
        if x is None:
            return _Val()
        if _is_vector(r):
            return _Val(items=[_Val(a) for a in x])
        shape = tuple(int(d) for d in r.shape)
        if all(d >= 0 for d in shape) and tuple(x.shape) != shape:
            raise TranspileError(
                f"the paddle frontend's translation of {op.name()} (at {source_of(op)}) gave shape {tuple(x.shape)}, "
                f"paddle gives {shape}: a frontend bug, please report it"
            )
        dt = dtype_name(r.dtype)
        if dt is not None and ivy.dtype_name(x.dtype) != dt:
            x = ivy.astype(x, dt)
        return _Val(x)


def to_graph(obj: Any, args: tuple[Any, ...], kwargs: Mapping[str, Any] | None, params_v: Any) -> Any:
    """The :class:`ivy.Graph` of ``obj`` (a ``paddle.nn.Layer`` or a function of paddle tensors)
    on the example inputs ``args``."""
    if params_v is not None:
        raise TranspileError("params_v is not used by the paddle frontend: a Layer carries its own parameters")
    prog, xs = capture(obj, tuple(args), kwargs)
    interp = Interpreter(prog)
    interp.check()
    buffers = dict(prog.buffers)
    n = len(xs)

    def run(values: Mapping[str, Any], *a: Any) -> Any:
        if len(a) != n:
            raise TranspileError(f"{prog.name} was traced with {n} inputs and called with {len(a)}")
        leaves, updates = interp.run(list(a), values)
        out = _pack(prog.outputs, iter(leaves))
        return (out, updates) if buffers else out

    return trace_program(
        run,
        params=dict(prog.params),
        buffers=buffers,
        args=tuple(xs),
        name=prog.name,
        training=prog.training,
        backend="paddle",
        frozen=[c for c in prog.frozen if c not in interp.written()],
        ties=prog.ties,
    )
