"""The paddle layer a transpiled graph becomes (``BackendImpl.native_module``; what
``ivy.transpile(module, to="paddle")`` returns).

:class:`TranspiledModule` is a ``paddle.nn.Layer`` whose sublayer tree mirrors the graph's key
chains: the parameter ``encoder/layer/0/weight`` is the parameter ``weight`` (made with
``create_parameter``) of the sublayer ``encoder.layer.0``, so ``state_dict()`` keys read as the
source's names. Buffers (BatchNorm's running statistics) are persistable buffers, updated in place after
each forward pass in training mode. Parameters the source does not train (``graph.meta
["frozen"]``: torch's ``requires_grad=False``) are parameters with ``stop_gradient=True``; a
parameter the source holds under several names (tied weights, ``graph.meta["ties"]``) is one
parameter added to each sublayer that names it (``parameters()`` lists it once). ``forward`` runs
the program ``graph.to("paddle")`` emits (plain paddle calls, eager), so ``paddle.optimizer``
trains the layer.
"""

from __future__ import annotations

import inspect
import keyword
import types
from typing import Any

from ivy.errors import TranspileError
from ivy.transpile import ModulePrograms

from ._framework import paddle

__all__ = ["TranspiledModule", "native_module"]


class TranspiledLayer(paddle.nn.Layer):
    """A node of a :class:`TranspiledModule`'s tree: it holds parameters and sublayers; only the
    top-level layer runs."""

    def forward(self, *args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("this is part of a transpiled module: call the top-level layer")


def _forward_signature(graph: Any) -> inspect.Signature:
    """``forward``'s signature as paddle's ``to_static`` reads it (by name; it rejects calls of a
    ``forward(*args)``): one parameter per positional input of the example call, the example's
    keyword inputs as keyword parameters, and ``**kwargs`` for the rest."""
    P = inspect.Parameter
    args, kwargs = graph.in_tree
    n = len(args)
    params = [P("self", P.POSITIONAL_OR_KEYWORD)]
    params += [P("x" if n == 1 else f"x{i}", P.POSITIONAL_OR_KEYWORD) for i in range(n)]
    taken = {p.name for p in params}
    for k in kwargs:  # (names of the example call's keywords: identifiers only)
        if isinstance(k, str) and k.isidentifier() and not keyword.iskeyword(k) and k not in taken:
            params.append(P(k, P.KEYWORD_ONLY, default=None))
    params.append(P("kwargs", P.VAR_KEYWORD))
    return inspect.Signature(params)


def _part(name: str) -> str:
    return name.replace(".", "_") or "_"  # "." joins the names of state_dict keys


class TranspiledModule(paddle.nn.Layer):
    """A ``paddle.nn.Layer`` running a transpiled graph (see the module docstring).

    Args:
        graph: the graph of a module (``graph.params`` by key chain; initial values from
            ``graph.param_values``).
        retrace: reads the source again for inputs of another signature or the other mode
            (``ivy.transpile`` supplies it).

    Attributes:
        programs: the graphs and programs behind it (:class:`ivy.transpile.ModulePrograms`).
    """

    def __init__(self, graph: Any, *, retrace: Any = None) -> None:
        super().__init__()
        self.__dict__["programs"] = ModulePrograms(graph, "paddle", retrace=retrace, compile=False)
        graph = self.programs.graph  # (in the dtypes the target has)
        #: key chain -> (the layer holding it, its name there)
        self.__dict__["_ivy_places"] = {}
        held = set(self.programs.buffers)
        frozen = set(self.programs.frozen)
        for chain in graph.params:
            owner, leaf = self._place(chain)
            x = self.programs.initial_value(chain)
            floating = x.is_floating_point() or x.is_complex()
            if (chain in held and chain not in frozen) or not floating:
                owner.register_buffer(leaf, x.detach().clone(), persistable=True)
            else:
                # created empty and then filled: paddle's Assign initializer copies a value through
                # a Python list of its elements (seconds for a ResNet-18's weights)
                p = owner.create_parameter(
                    shape=list(x.shape),
                    dtype=x.dtype,
                    default_initializer=paddle.nn.initializer.Constant(0.0),
                )
                p.set_value(x.detach())
                p.stop_gradient = chain in held
                owner.add_parameter(leaf, p)
            self._ivy_places[chain] = (owner, leaf)
        #: each key chain's other places (a tied parameter's other names)
        self.__dict__["_ivy_aliases"] = {}
        for alias, chain in self.programs.ties.items():
            owner, leaf = self._place(alias)
            first, name = self._ivy_places[chain]
            if name in first._parameters:
                owner.add_parameter(leaf, first._parameters[name])
            else:
                owner.register_buffer(leaf, first._buffers[name], persistable=True)
            self._ivy_aliases[alias] = (owner, leaf)
        training = self.programs.training
        self.train() if training is None or training else self.eval()
        self.programs.emit()  # now, not on a first call that paddle's SOT may be simulating
        # forward as an attribute of this layer with its graph's signature (see _forward_signature)
        # (named as its source is: paddle's AST conversion finds the function by name)
        run = types.FunctionType(_run.__code__, _run.__globals__, "_run", _run.__defaults__, _run.__closure__)
        run.__qualname__ = "TranspiledModule.forward"
        run.__signature__ = _forward_signature(graph)  # type: ignore[attr-defined]
        run.__doc__ = TranspiledModule.forward.__doc__
        self.__dict__["forward"] = types.MethodType(run, self)

    def _place(self, chain: str) -> tuple[Any, str]:
        parts = [_part(p) for p in chain.split("/")]
        owner: Any = self
        for p in parts[:-1]:
            child = owner._sub_layers.get(p)
            if child is None:
                if p in owner._parameters or p in owner._buffers:
                    raise ValueError(f"the key chain {chain!r} passes through {p!r}, which is a parameter")
                child = TranspiledLayer()
                owner.add_sublayer(p, child)
            owner = child
        leaf = parts[-1]
        if leaf in owner._sub_layers or leaf in owner._parameters or leaf in owner._buffers:
            raise ValueError(f"the key chain {chain!r} names something the layer holds already")
        return owner, leaf

    def key_chain(self, name: str) -> str:
        """The graph's key chain of a parameter or buffer name (``"encoder.layer.0.weight"``);
        for a tied one's other names, the key chain of the one parameter."""
        for chain in self._ivy_places:
            if name in (chain, chain.replace("/", ".")):
                return chain
        for alias in self._ivy_aliases:
            if name in (alias, alias.replace("/", ".")):
                return self.programs.ties[alias]
        raise KeyError(f"{name!r} is not a parameter or buffer of this layer")

    def forward(self, *args: Any, **kwargs: Any) -> Any:
        """Run the transpiled program on the inputs (the source module's own arguments)."""
        return _run(self, *args, **kwargs)

    def extra_repr(self) -> str:
        return f"graph={self.programs.graph.name!r}"


def _no_sot() -> bool:
    return False


def _no_fallback(recursive: bool = False) -> None:
    pass


try:  # paddle's SOT: True while it simulates a call; fallback() makes it run the call natively
    from paddle.jit.sot.psdb import fallback as _fallback
    from paddle.jit.sot.psdb import in_sot as _in_sot_now
except ImportError:  # a paddle without SOT
    _in_sot: Any = _no_sot
    _sot_fallback: Any = _no_fallback
else:
    _in_sot, _sot_fallback = _in_sot_now, _fallback


#: the inputs of a static program being built (paddle.jit.save, to_static(full_graph=True))
_VALUE = getattr(getattr(paddle, "pir", None), "Value", None)


def _run(self: TranspiledModule, *args: Any, **kwargs: Any) -> Any:
    if _VALUE is not None and any(isinstance(a, _VALUE) for a in (*args, *kwargs.values())):
        raise TranspileError(
            "a transpiled paddle layer runs its program on paddle tensors and cannot be converted to a static "
            "program (what paddle.jit.save and paddle.jit.to_static(..., full_graph=True) build): "
            "paddle.jit.to_static(layer) (paddle's default, SOT) compiles it, and "
            "paddle.save(layer.state_dict(), path) with set_state_dict saves and restores its weights"
        )
    if _in_sot() and not self.programs.ready(self.training, args, kwargs):
        # a call that reads the source again or emits a program: SOT cannot simulate Ivy's
        # transpiler, so this call runs natively (SOT translates the next one)
        _sot_fallback(recursive=True)
    values = {}
    for chain, (owner, leaf) in self._ivy_places.items():
        x = owner._parameters.get(leaf)
        values[chain] = x if x is not None else owner._buffers[leaf]
    out, updates = self.programs.run(values, self.training, args, kwargs)
    for chain, x in (updates or {}).items():
        # in place, as paddle's own layers update theirs (BatchNorm's running statistics): a
        # tied buffer's other names hold this tensor too, and a caller that handed the layer
        # its own buffers for the call (ivy.from_native_module's wrapper) reads them back
        owner, leaf = self._ivy_places[chain]
        paddle.assign(x.detach(), owner._buffers[leaf])
    return out


def native_module(graph: Any, *, retrace: Any = None) -> TranspiledModule:
    """The :class:`TranspiledModule` of ``graph`` (``BackendImpl.native_module``)."""
    return TranspiledModule(graph, retrace=retrace)
