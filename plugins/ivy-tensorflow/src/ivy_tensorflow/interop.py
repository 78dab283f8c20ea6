"""Native-module interop for TensorFlow / Keras 3: ``ivy.to_native_module`` / ``ivy.from_native_module``.

* :func:`to_native_module` gives an :class:`IvyKerasLayer`, a ``keras.layers.Layer`` whose weights
  (``add_weight``) ARE the Ivy module's variables: the Ivy module's ``v`` is set to the
  ``tf.Variable``\\ s behind the Keras weights, so a Keras optimizer (``apply_gradients`` after a
  ``tf.GradientTape``, or ``model.fit``) updates both at once. Its ``call`` is
  ``ivy_module(*args, v=<the weights' values>)``; it also works inside ``stateless_call``.
* :func:`from_native_module` gives a :class:`KerasLayerWrapper`, an ``ivy.Module`` whose ``v`` is
  a Container of the Keras layer's trainable variables (by variable path: ``dense/kernel`` ->
  ``v.dense.kernel``, the layer's own name left out) and whose forward pass is
  ``layer.stateless_call(trainable, non_trainable, *args)``.

Keras 3 with the TensorFlow backend (``KERAS_BACKEND=tensorflow``, the default) is required.
"""

from __future__ import annotations

from typing import Any

import keras
import tensorflow as tf

from ivy import Container, Module
from ivy.plugin_kit import NativeModuleWrapper, call_with_variables, module_variables

__all__ = ["to_native_module", "from_native_module", "IvyKerasLayer", "KerasLayerWrapper"]

_SEP = "/"


def _check_keras_backend() -> None:
    if keras.backend.backend() != "tensorflow":
        raise RuntimeError(
            f"the tensorflow backend's Keras interop needs Keras on its TensorFlow backend, but "
            f"Keras runs on {keras.backend.backend()!r} (set KERAS_BACKEND=tensorflow before "
            "importing keras)"
        )


def _weight_name(chain: str) -> str:
    return chain.replace(_SEP, "__")  # Keras weight names may not contain "/"


def _const_init(x: Any) -> Any:
    def init(shape: Any, dtype: Any = None) -> Any:
        return tf.identity(x)  # a copy: the Keras variable is new storage, filled with x

    return init


class IvyKerasLayer(keras.layers.Layer):
    """A Keras 3 layer running an ``ivy.Module``; its weights are the Ivy variables.

    Weights are named by key chain with ``"/"`` replaced by ``"__"`` (``fc0/w`` -> ``fc0__w``);
    :meth:`key_chain` maps back. The Ivy module's state (BatchNorm running statistics) becomes
    non-trainable weights, assigned after each call in training mode. ``call(..., training=)``
    sets the Ivy module's mode for the call (``None``: keep its current mode).
    """

    def __init__(self, ivy_module: Module, *, name: str | None = None, **kwargs: Any) -> None:
        _check_keras_backend()
        super().__init__(name=name, **kwargs)  # None: Keras names it (ivy_keras_layer, _1, ...)
        variables, buffers = module_variables(ivy_module)
        self._ivy_module = ivy_module
        self._ivy_weights: list[tuple[str, Any]] = []  # (key chain, keras variable)
        self._ivy_buffers: list[tuple[str, Any]] = []
        seen: set[str] = set()
        for trainable, flat, out in ((True, variables, self._ivy_weights), (False, buffers, self._ivy_buffers)):
            for chain, x in flat.items():
                wname = _weight_name(chain)
                if wname in seen:
                    raise ValueError(f"two key chains map to the Keras weight name {wname!r}")
                seen.add(wname)
                x = tf.convert_to_tensor(x)
                kv = self.add_weight(
                    shape=tuple(x.shape),
                    dtype=x.dtype.name,
                    initializer=_const_init(x),
                    trainable=trainable,
                    name=wname,
                )
                out.append((chain, kv))
        # the Ivy module's variables become the tf.Variables behind these weights: the Keras
        # optimizers' in-place updates are seen by both
        ivy_module.v = Container.from_flat_dict({c: kv.value for c, kv in self._ivy_weights})
        self.built = True

    @property
    def ivy_module(self) -> Module:
        """The Ivy module this layer runs."""
        return self._ivy_module

    def key_chain(self, weight: Any) -> str:
        """The Ivy key chain of one of this layer's weights (a variable or its name)."""
        for chain, kv in self._ivy_weights + self._ivy_buffers:
            if weight is kv or weight is kv.value or (isinstance(weight, str) and weight in (kv.name, kv.path)):
                return chain
        raise KeyError(f"{weight!r} is not a weight of this layer")

    # a named first argument: Keras (Sequential, the Functional API) passes the input tensor there
    def call(self, inputs: Any, *args: Any, training: Any = None, **kwargs: Any) -> Any:
        out, new, bufs = self._run((inputs, *args), kwargs, training)
        for chain, kv in self._ivy_buffers:
            x = new.get(chain)
            if x is not None and x is not bufs[chain]:
                kv.assign(tf.stop_gradient(x))
        return out

    def _run(self, args: tuple[Any, ...], kwargs: dict[str, Any], training: Any) -> tuple[Any, Any, Any]:
        module = self._ivy_module
        # kv.value: the tf.Variable, or its stand-in inside stateless_call / a distribution scope
        v = {c: kv.value for c, kv in self._ivy_weights}
        bufs = {c: kv.value for c, kv in self._ivy_buffers}
        was = module.training
        if training is not None:
            module.train(bool(training))
        try:
            out, new = call_with_variables(module, v, bufs, *args, **kwargs)
        finally:
            if training is not None:
                module.train(was)
        return out, new, bufs

    def compute_output_spec(self, inputs: Any, *args: Any, training: Any = None, **kwargs: Any) -> Any:
        """The output's shape and dtype for symbolic inputs (``keras.Input``, a ``Sequential``
        being built): the Ivy forward pass run on zeros, twice, each unknown dimension (``None``)
        set to 2, then to 3; an output dimension that differs between the runs is ``None``.

        Keras' default traces ``call`` on placeholders of unknown sizes, which Ivy code that
        computes with shapes (``ivy.reshape(x, (x.shape[0], -1))``) cannot take."""

        def concrete(n: int) -> Any:
            def fill(t: Any) -> Any:
                if not isinstance(t, keras.KerasTensor):
                    return t
                return tf.zeros([n if d is None else d for d in t.shape], dtype=t.dtype)

            return keras.tree.map_structure(fill, (inputs, args, kwargs))

        outs = []
        with tf.init_scope():  # (eagerly, also while a model's training function is traced)
            for n in (2, 3):
                i, a, k = concrete(n)
                outs.append(self._run((i, *a), k, False)[0])  # eval mode: no buffer is updated

        def spec(o2: Any, o3: Any) -> Any:
            if not tf.is_tensor(o2):
                return o2
            shape = [d2 if d2 == d3 else None for d2, d3 in zip(o2.shape, o3.shape)]
            return keras.KerasTensor(shape, dtype=o2.dtype.name)

        return keras.tree.map_structure(spec, outs[0], outs[1])

    def get_config(self) -> dict[str, Any]:  # not serialisable as config: the Ivy module is code
        config = super().get_config()
        config["ivy_module"] = repr(self._ivy_module)
        return config


def _native_names(layer: Any, variables: list[Any]) -> list[str]:
    """Names for ``variables``: their Keras paths without the layer's own name, made unique."""
    prefix = f"{layer.name}/"
    names: list[str] = []
    for i, kv in enumerate(variables):
        path = getattr(kv, "path", None) or kv.name
        name = path[len(prefix) :] if path.startswith(prefix) else path
        name = name.replace(":", "_") or f"var_{i}"
        names.append(name)
    counts: dict[str, int] = {}
    for n in names:
        counts[n] = counts.get(n, 0) + 1
    taken = set(names)
    out = []
    for n in names:
        if counts[n] > 1:  # same path twice (layers built outside a model): number them
            k = 0
            while f"{n}_{k}" in taken:
                k += 1
            n = f"{n}_{k}"
            taken.add(n)
        out.append(n)
    return out


class KerasLayerWrapper(NativeModuleWrapper):
    """An ``ivy.Module`` running a Keras layer (or model) by ``layer.stateless_call``.

    ``v``: the trainable variables (the ``tf.Variable``\\ s behind them at first, so ``v`` starts
    out sharing storage with the layer); ``state``: the non-trainable ones (BatchNorm moving
    statistics, RNG seeds). The layer's ``call`` gets ``training=`` from the wrapper's mode when it
    takes one. :meth:`to_native` assigns ``v`` and ``state`` to the Keras variables.
    """

    def __init__(self, native: Any) -> None:
        _check_keras_backend()
        if not native.built:
            raise ValueError(
                f"from_native_module: the Keras layer {native.name!r} is not built: call it on an "
                "example input (or layer.build(input_shape)) first, so that its variables exist"
            )
        self._trainable_vars = list(native.trainable_variables)
        self._non_trainable_vars = list(native.non_trainable_variables)
        names = _native_names(native, self._trainable_vars + self._non_trainable_vars)
        n = len(self._trainable_vars)
        self._trainable_names, self._non_trainable_names = names[:n], names[n:]
        params = {nm: kv.value for nm, kv in zip(self._trainable_names, self._trainable_vars)}
        buffers = {nm: kv.value for nm, kv in zip(self._non_trainable_names, self._non_trainable_vars)}
        super().__init__(native, backend="tensorflow", params=params, buffers=buffers, separator=_SEP, training=True)

    def _native_call(
        self, params: dict[str, Any], buffers: dict[str, Any], args: tuple[Any, ...], kwargs: dict[str, Any]
    ) -> tuple[Any, dict[str, Any] | None]:
        native = self._native
        tv = [params[n] for n in self._trainable_names]
        ntv = [buffers[n] for n in self._non_trainable_names]
        if getattr(native, "_call_has_training_arg", False) and "training" not in kwargs:
            kwargs = {**kwargs, "training": self.training}
        args = tuple(tf.convert_to_tensor(a) if _is_numpy(a) else a for a in args)
        out, new_ntv = native.stateless_call(tv, ntv, *args, **kwargs)
        new = {n: x for n, x, old in zip(self._non_trainable_names, new_ntv, ntv) if x is not old}
        return out, (new if self.training and new else None)

    def _write_native(self, params: dict[str, Any], buffers: dict[str, Any]) -> None:
        for names, kvs, src in (
            (self._trainable_names, self._trainable_vars, params),
            (self._non_trainable_names, self._non_trainable_vars, buffers),
        ):
            for n, kv in zip(names, kvs):
                if n in src and src[n] is not kv.value:
                    kv.assign(src[n])


def _is_numpy(x: Any) -> bool:
    return type(x).__module__ == "numpy"


def to_native_module(module: Module, /, **kwargs: Any) -> IvyKerasLayer:
    """A Keras layer whose weights are ``module``'s variables (see :class:`IvyKerasLayer`);
    ``kwargs`` go to ``keras.layers.Layer`` (``name=``...)."""
    return IvyKerasLayer(module, **kwargs)


def from_native_module(native: Any, /) -> KerasLayerWrapper:
    """An ``ivy.Module`` running the built Keras layer ``native`` (see :class:`KerasLayerWrapper`)."""
    if not isinstance(native, keras.layers.Layer):
        raise TypeError(
            f"from_native_module (tensorflow) takes a Keras 3 layer or model, got {type(native).__module__}."
            f"{type(native).__qualname__}"
        )
    return KerasLayerWrapper(native)
