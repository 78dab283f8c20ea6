"""The Keras layer a transpiled graph becomes (``BackendImpl.native_module``; what
``ivy.transpile(module, to="tensorflow")`` returns).

:class:`TranspiledLayer` is a Keras 3 layer (TensorFlow backend) holding the graph's parameters as
trainable ``keras.Variable``\\ s and its buffers (BatchNorm's running statistics) as non-trainable
ones, named by key chain with ``"."`` for ``"/"`` (Keras variable names cannot hold ``"/"``):
``encoder/layer/0/weight`` is ``encoder.layer.0.weight``. Parameters the source does not train
(torch's ``requires_grad=False``) are non-trainable variables too; a parameter the source holds
under several names (tied weights) is one variable, named by its first name. ``call`` runs the program
``graph.to("tensorflow")`` emits (compiled by ``tf.function``), so the layer trains under
``tf.GradientTape`` with Keras optimizers, and inside a ``keras.Model`` with ``model.fit``.

``call(*args, training=None)`` follows Keras: ``training=True`` (``fit`` passes it) runs the
training-mode program and assigns the buffers' new values; ``None`` or ``False`` runs inference.
Inputs whose batch size is unknown (Keras' symbolic inputs, the batches of ``fit``) are given the
traced size with ``tf.ensure_shape``: a program is specialised to its example's shapes, so the
batches must have that size (or be read again eagerly, which happens on a call with concrete
tensors of a new shape).
"""

from __future__ import annotations

from typing import Any

import keras
import tensorflow as tf

from ivy.transpile import ModulePrograms, Record

__all__ = ["TranspiledLayer", "native_module"]


def _register_record() -> None:
    """Keras walks a layer's outputs with optree (in its own namespace), where a dict subclass is
    a leaf unless registered: a :class:`Record` output of a symbolic call would not be tensors.
    (``tf.nest`` and dm-tree, Keras' other walker, take any mapping.)"""
    try:
        import optree
    except ImportError:
        return

    def flatten(r: Any) -> tuple[list[Any], Any, list[Any]]:  # (optree types it as any collection)
        return list(r.values()), (list(r), r.type_name, r._fields), list(r)

    def unflatten(aux: Any, children: Any) -> Record:
        keys, type_name, fields = aux
        return Record(zip(keys, children), type_name=type_name, fields=fields)

    try:
        optree.register_pytree_node(Record, flatten, unflatten, namespace="keras")
    except ValueError:  # registered already
        pass


_register_record()


def _check_keras_backend() -> None:
    if keras.backend.backend() != "tensorflow":
        raise RuntimeError(
            f"transpiling to tensorflow makes a Keras layer on Keras' TensorFlow backend, but Keras runs on "
            f"{keras.backend.backend()!r} (set KERAS_BACKEND=tensorflow before importing keras)"
        )


def _initializer(x: Any) -> Any:
    def init(shape: Any, dtype: Any = None) -> Any:
        return tf.identity(x)  # a copy: the variable is new storage, filled with x

    return init


class TranspiledLayer(keras.layers.Layer):
    """A Keras layer running a transpiled graph (see the module docstring).

    Args:
        graph: the graph of a module (``graph.params`` by key chain; initial values from
            ``graph.param_values``).
        retrace: reads the source again for inputs of another signature or the other mode
            (``ivy.transpile`` supplies it).
        name: the layer's name (default: Keras names it).

    Attributes:
        programs: the graphs and programs behind it (:class:`ivy.transpile.ModulePrograms`).
    """

    def __init__(self, graph: Any, *, retrace: Any = None, name: str | None = None, **kwargs: Any) -> None:
        _check_keras_backend()
        super().__init__(name=name, **kwargs)
        self.programs = ModulePrograms(graph, "tensorflow", retrace=retrace, compile=True)
        graph = self.programs.graph  # (in the dtypes the target has)
        held = set(self.programs.buffers)
        #: (key chain, keras variable), in the graph's order
        self._ivy_vars: list[tuple[str, Any]] = []
        for chain in graph.params:
            x = tf.convert_to_tensor(self.programs.initial_value(chain))
            trainable = chain not in held and (x.dtype.is_floating or x.dtype.is_complex)
            kv = self.add_weight(
                shape=tuple(x.shape),
                dtype=x.dtype.name,
                initializer=_initializer(x),
                trainable=trainable,
                name=chain.replace("/", "."),
            )
            self._ivy_vars.append((chain, kv))
        self._ivy_by_chain = dict(self._ivy_vars)
        self.built = True

    def key_chain(self, variable: Any) -> str:
        """The graph's key chain of one of this layer's variables (the variable or its name; a
        tied parameter's other key chains name its one variable too)."""
        for chain, kv in self._ivy_vars:
            if variable is kv or (isinstance(variable, str) and variable in (kv.name, kv.path)):
                return chain
        if isinstance(variable, str):
            for alias, chain in self.programs.ties.items():
                if variable in (alias, alias.replace("/", ".")):
                    return chain
        raise KeyError(f"{variable!r} is not a variable of this layer")

    @tf.autograph.experimental.do_not_convert  # plain Python around a compiled program: nothing to convert
    def call(self, *args: Any, training: Any = None, **kwargs: Any) -> Any:
        # kv.value: the tf.Variable (or its stand-in inside stateless_call)
        values = {chain: kv.value for chain, kv in self._ivy_vars}
        out, updates = self.programs.run(values, bool(training), args, kwargs, coerce=tf.ensure_shape)
        for chain, x in (updates or {}).items():
            self._ivy_by_chain[chain].assign(tf.stop_gradient(x))
        return out

    def get_config(self) -> dict[str, Any]:  # the program is not a config: save weights, not the layer
        config = super().get_config()
        config["graph"] = self.programs.graph.name
        return config


def native_module(graph: Any, *, retrace: Any = None) -> TranspiledLayer:
    """The :class:`TranspiledLayer` of ``graph`` (``BackendImpl.native_module``)."""
    return TranspiledLayer(graph, retrace=retrace)
