"""The JAX module a transpiled graph becomes (``BackendImpl.native_module``; what
``ivy.transpile(module, to="jax")`` returns).

JAX keeps parameters outside the computation, so :class:`TranspiledModule` is a small object in
the style of Flax's ``apply``:

* ``.params``: the trainable parameters, a nested dict (a pytree) following the key chains
  (``encoder/layer/0/weight`` -> ``params["encoder"]["layer"]["0"]["weight"]``);
* ``.state``: the buffers (BatchNorm's running statistics), a nested dict of the same kind
  (empty where the module has none);
* ``.apply(params, *args, state=None, training=None, **kwargs)``: pure and jittable. It returns
  the outputs, or ``(outputs, new_state)`` when the module has state (in inference mode
  ``new_state`` is the state given). ``training`` (default: the module's mode) picks the
  program; keep it a Python bool (static under ``jax.jit``);
* ``__call__(*args, **kwargs)``: ``apply`` with the module's own params and state, updating
  ``.state`` in training mode;
* ``train()`` / ``eval()`` / ``.training``, as in torch.

Training: ``jax.grad`` of a loss of ``module.apply(params, x)`` w.r.t. ``params``, and optax on
``module.params`` (assign the new params back to ``module.params`` to keep them).

Parameters the source does not train (torch's ``requires_grad=False``, Keras' ``trainable=False``)
are in ``.state``, not ``.params``; a parameter the source holds under several names (tied
weights) is one leaf of ``.params``, under its first name. Outputs the source returned as a record
class (a Hugging Face ``ModelOutput``) come back as :class:`ivy.transpile.Record`, a pytree node.
The first call's program is built outside any ``jax.jit`` trace it is made in, so a module first
used under ``jit`` runs eagerly and under another ``jit`` afterwards.

``ivy.from_native_module(module)`` gives a :class:`TranspiledModuleWrapper`, an ``ivy.Module``
whose ``v`` is ``.params`` and whose ``state`` is ``.state``, trained by Ivy's optimizers.
"""

from __future__ import annotations

from typing import Any

import jax
import numpy as np

from ivy.plugin_kit import NativeModuleWrapper
from ivy.transpile import ModulePrograms, Record

__all__ = ["TranspiledModule", "TranspiledModuleWrapper", "native_module"]


def _record_children(r: Record) -> tuple[list[tuple[Any, Any]], Any]:
    return [(jax.tree_util.DictKey(k), v) for k, v in r.items()], (tuple(r), r.type_name, r._fields)


def _record_unflatten(aux: Any, children: Any) -> Record:
    keys, type_name, fields = aux
    return Record(zip(keys, children), type_name=type_name, fields=fields)


try:  # (a Record returned from jax.jit, or differentiated through, as a dict would be)
    jax.tree_util.register_pytree_with_keys(Record, _record_children, _record_unflatten)
except ValueError:  # registered already (this module loaded again)
    pass


def _nest(flat: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for chain, x in flat.items():
        parts = chain.split("/")
        d = out
        for p in parts[:-1]:
            nxt = d.setdefault(p, {})
            if not isinstance(nxt, dict):
                raise ValueError(f"the key chain {chain!r} passes through {p!r}, which is a parameter")
            d = nxt
        if parts[-1] in d:
            raise ValueError(f"the key chain {chain!r} names something the module holds already")
        d[parts[-1]] = x
    return out


def _flat(tree: Any, prefix: str, out: dict[str, Any]) -> dict[str, Any]:
    if isinstance(tree, dict):
        for k, v in tree.items():
            _flat(v, f"{prefix}/{k}" if prefix else str(k), out)
    else:
        out[prefix] = tree
    return out


class TranspiledModule:
    """A transpiled module for JAX (see the module docstring).

    Args:
        graph: the graph of a module (``graph.params`` by key chain; initial values from
            ``graph.param_values``).
        retrace: reads the source again for inputs of another signature or the other mode
            (``ivy.transpile`` supplies it). Under ``jax.jit`` a new signature is read with zeros
            of the traced shapes as example inputs.

    Attributes:
        params: the trainable parameters (nested dict of ``jax.Array``).
        state: the buffers (nested dict of ``jax.Array``).
        training: the mode ``__call__`` and ``apply`` (by default) run in.
        programs: the graphs and programs behind it (:class:`ivy.transpile.ModulePrograms`).
    """

    def __init__(self, graph: Any, *, retrace: Any = None) -> None:
        self.programs = ModulePrograms(graph, "jax", retrace=retrace, compile=True)
        graph = self.programs.graph  # (in the dtypes the target has)
        values = {k: _initial(self.programs, k) for k in graph.params}
        self.params = _nest({k: values[k] for k in self.programs.trainable})
        self.state = _nest({k: values[k] for k in self.programs.buffers})
        self.training = bool(self.programs.training) if self.programs.training is not None else False

    def apply(self, params: Any, *args: Any, state: Any = None, training: bool | None = None, **kwargs: Any) -> Any:
        """The outputs for ``params`` (and ``state``; default: the module's), pure: see the
        module docstring for what it returns."""
        mode = self.training if training is None else bool(training)
        st = self.state if state is None else state
        values = _flat(params, "", {})
        values.update(_flat(st, "", {}))
        out, updates = self.programs.run(values, mode, args, kwargs)
        if not self.programs.buffers:
            return out
        new = _flat(st, "", {})
        new.update(jax.lax.stop_gradient(updates) if updates else {})
        return out, _nest(new)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        res = self.apply(self.params, *args, **kwargs)
        if not self.programs.buffers:
            return res
        out, self.state = res
        return out

    def train(self, mode: bool = True) -> TranspiledModule:
        self.training = bool(mode)
        return self

    def eval(self) -> TranspiledModule:
        return self.train(False)

    def __repr__(self) -> str:
        n = sum(int(x.size) for x in jax.tree_util.tree_leaves(self.params))
        return f"<TranspiledModule {self.programs.graph.name!r} for jax: {n} parameters, training={self.training}>"


def _initial(programs: ModulePrograms, chain: str) -> Any:
    """A parameter's initial value on the device: put there from the host (``jnp.asarray`` would
    compile a conversion per shape and dtype, a quarter of a second for a ResNet-18)."""
    c = programs.graph.param_values[chain]
    try:
        a = np.frombuffer(c.data, dtype=np.dtype(c.dtype).newbyteorder("<")).reshape(c.shape)
        return jax.device_put(a.astype(c.dtype))
    except TypeError:  # (a dtype NumPy does not name, bfloat16 without ml_dtypes)
        return programs.initial_value(chain)


class TranspiledModuleWrapper(NativeModuleWrapper):
    """An ``ivy.Module`` running a :class:`TranspiledModule` (``ivy.from_native_module``): ``v``
    holds its ``params`` and ``state`` its ``state``, by key chain; the forward pass is
    ``module.apply`` in the wrapper's mode, so Ivy's optimizers train it and ``ivy.compile``
    compiles it. :meth:`to_native` writes ``v`` and ``state`` back into the module."""

    def __init__(self, module: TranspiledModule) -> None:
        params = _flat(module.params, "", {})
        state = _flat(module.state, "", {})
        device = next((next(iter(x.devices())) for x in params.values()), None)
        super().__init__(
            module, backend="jax", params=params, buffers=state, separator="/", device=device, training=module.training
        )

    def _native_call(
        self, params: dict[str, Any], buffers: dict[str, Any], args: tuple[Any, ...], kwargs: dict[str, Any]
    ) -> tuple[Any, dict[str, Any] | None]:
        module = self._native
        res = module.apply(_nest(params), *args, state=_nest(buffers), training=self.training, **kwargs)
        if not module.programs.buffers:
            return res, None
        out, new = res
        if self.training:
            # (as a layer updates its buffers: inside jax.grad the new values are the transform's
            # tracers, which ivy.execute_with_gradients stores again from its outputs)
            self._update_state(**_flat(new, "", {}))
        return out, None

    def _write_native(self, params: dict[str, Any], buffers: dict[str, Any]) -> None:
        self._native.params = _nest(params)
        self._native.state = _nest(buffers)


def native_module(graph: Any, *, retrace: Any = None) -> TranspiledModule:
    """The :class:`TranspiledModule` of ``graph`` (``BackendImpl.native_module``)."""
    return TranspiledModule(graph, retrace=retrace)
