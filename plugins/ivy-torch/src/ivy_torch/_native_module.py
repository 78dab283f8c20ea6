"""The torch module a transpiled graph becomes (``BackendImpl.native_module``; what
``ivy.transpile(module, to="torch")`` returns).

:class:`TranspiledModule` is a ``torch.nn.Module`` whose submodule tree mirrors the graph's key
chains: the parameter ``encoder/layer/0/weight`` is the ``nn.Parameter`` ``weight`` of the
submodule ``encoder.layer.0``, so ``state_dict()`` keys are the source's own names where the
source was torch. Buffers (BatchNorm's running statistics) are registered buffers, updated in place
after each forward pass in training mode, as torch's own layers do. Parameters the source does not
train (``graph.meta["frozen"]``: Keras' ``trainable=False``, paddle's ``stop_gradient``) are
parameters with ``requires_grad=False``; a parameter the source holds under several names (tied
weights, ``graph.meta["ties"]``) is one ``nn.Parameter`` registered under each, as Hugging Face
ties them: ``parameters()`` lists it once, ``state_dict()`` under every name. ``forward`` runs the
program ``graph.to("torch")`` emits (plain torch calls, eager: ``torch.compile(module)`` compiles
it), so ``torch.optim`` trains the module and ``torch.func`` transforms it. Outputs the source
returned as a record class come back as :class:`ivy.transpile.Record` (a torch pytree node).
"""

from __future__ import annotations

from typing import Any

import torch
import torch.utils._pytree as pytree

from ivy.transpile import ModulePrograms, Record

__all__ = ["TranspiledModule", "native_module"]


def _flatten(r: Record) -> tuple[list[Any], Any]:
    return list(r.values()), (list(r), r.type_name, r._fields)


def _unflatten(values: Any, context: Any) -> Record:
    keys, type_name, fields = context
    return Record(zip(keys, values), type_name=type_name, fields=fields)


def _flatten_with_keys(r: Record) -> tuple[list[Any], Any]:
    return [(pytree.MappingKey(k), v) for k, v in r.items()], (list(r), r.type_name, r._fields)


if Record not in pytree.SUPPORTED_NODES:  # (torch.compile and torch.export return it as they would a dict)
    pytree.register_pytree_node(
        Record,
        _flatten,
        _unflatten,
        serialized_type_name="ivy.transpile.Record",
        flatten_with_keys_fn=_flatten_with_keys,
    )


class TranspiledLayer(torch.nn.Module):
    """A node of a :class:`TranspiledModule`'s tree (``model.encoder``): it holds parameters and
    submodules; only the top-level module runs."""

    def forward(self, *args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("this is part of a transpiled module: call the top-level module")


def _part(name: str) -> str:
    # torch forbids "." in names ("." joins them in state_dict keys), and empty names
    return name.replace(".", "_") or "_"


class TranspiledModule(torch.nn.Module):
    """A ``torch.nn.Module`` running a transpiled graph (see the module docstring).

    Args:
        graph: the graph of a module (``graph.params`` by key chain; initial values from
            ``graph.param_values``).
        retrace: reads the source again for inputs of another signature or the other mode
            (``ivy.transpile`` supplies it); without it such a call raises ``TranspileError``.

    Attributes:
        programs: the graphs and programs behind it (:class:`ivy.transpile.ModulePrograms`).
    """

    programs: ModulePrograms  # (set with object.__setattr__: no submodule of torch's)

    def __init__(self, graph: Any, *, retrace: Any = None) -> None:
        super().__init__()
        programs = ModulePrograms(graph, "torch", retrace=retrace, compile=False)
        object.__setattr__(self, "programs", programs)
        graph = self.programs.graph  # (in the dtypes the target has)
        #: key chain -> (the module holding it, its name there)
        self._ivy_places: dict[str, tuple[torch.nn.Module, str]] = {}
        held = set(programs.buffers)
        frozen = set(programs.frozen)
        for chain in graph.params:
            owner, leaf = self._place(chain)
            # a copy: the graph's constant keeps its own value while this one trains
            x = programs.initial_value(chain).detach().clone()
            if chain in held and chain not in frozen:
                owner.register_buffer(leaf, x)
            else:
                trainable = chain not in held and (x.is_floating_point() or x.is_complex())
                owner.register_parameter(leaf, torch.nn.Parameter(x, requires_grad=trainable))
            self._ivy_places[chain] = (owner, leaf)
        #: a tied parameter's other names: alias key chain -> (the module holding it, its name there)
        self._ivy_aliases: dict[str, tuple[torch.nn.Module, str]] = {}
        for alias, chain in programs.ties.items():
            owner, leaf = self._place(alias)
            first, name = self._ivy_places[chain]
            if name in first._parameters:
                owner.register_parameter(leaf, first._parameters[name])
            else:
                owner.register_buffer(
                    leaf, first._buffers[name], persistent=name not in first._non_persistent_buffers_set
                )
            self._ivy_aliases[alias] = (owner, leaf)
        training = programs.training
        self.train(True if training is None else bool(training))

    def _place(self, chain: str) -> tuple[torch.nn.Module, str]:
        parts = [_part(p) for p in chain.split("/")]
        owner: torch.nn.Module = self
        for p in parts[:-1]:
            child = owner._modules.get(p)
            if child is None:
                if p in owner._parameters or p in owner._buffers:
                    raise ValueError(f"the key chain {chain!r} passes through {p!r}, which is a parameter")
                child = TranspiledLayer()
                owner.add_module(p, child)
            owner = child
        leaf = parts[-1]
        if leaf in owner._modules or leaf in owner._parameters or leaf in owner._buffers:
            raise ValueError(f"the key chain {chain!r} names something the module holds already")
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
        raise KeyError(f"{name!r} is not a parameter or buffer of this module")

    def _values(self) -> dict[str, torch.Tensor]:
        out: dict[str, torch.Tensor] = {}
        for chain, (owner, leaf) in self._ivy_places.items():
            x = owner._parameters.get(leaf)
            held = x if x is not None else owner._buffers[leaf]
            assert held is not None  # (registered in __init__, never set to None)
            out[chain] = held
        return out

    def forward(self, *args: Any, **kwargs: Any) -> Any:
        out, updates = self.programs.run(self._values(), self.training, args, kwargs)
        if updates:
            with torch.no_grad():
                for chain, x in updates.items():
                    owner, leaf = self._ivy_places[chain]
                    buf = owner._buffers[leaf]
                    assert buf is not None  # (registered in __init__, never set to None)
                    buf.copy_(x.detach())
        return out

    def extra_repr(self) -> str:
        return f"graph={self.programs.graph.name!r}"


def native_module(graph: Any, *, retrace: Any = None) -> TranspiledModule:
    """The :class:`TranspiledModule` of ``graph`` (``BackendImpl.native_module``)."""
    return TranspiledModule(graph, retrace=retrace)
