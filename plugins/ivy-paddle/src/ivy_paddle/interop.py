"""Native-module interop for PaddlePaddle: ``ivy.to_native_module`` / ``ivy.from_native_module``.

* :func:`to_native_module` gives an :class:`IvyPaddleLayer`, a ``paddle.nn.Layer`` with one
  parameter (``create_parameter``) per Ivy variable; the Ivy module's ``v`` is set to these very
  parameters, so ``paddle.optimizer`` updates both at once. Its forward pass is
  ``ivy_module(*args, v=<parameters>)``.
* :func:`from_native_module` gives a :class:`PaddleLayerWrapper`, an ``ivy.Module`` whose ``v``
  is a Container of the layer's trainable parameters (``0.weight`` -> ``v["0"].weight``); paddle
  has no functional call, so the forward pass swaps the given tensors into the layer's
  parameter slots for the duration of the call.
"""

from __future__ import annotations

from typing import Any

import paddle

from ivy import Container, Module
from ivy.plugin_kit import NativeModuleWrapper, call_with_variables, mirror_place, module_variables

__all__ = ["to_native_module", "from_native_module", "IvyPaddleLayer", "IvyLayer", "PaddleLayerWrapper"]

_SEP = "/"


def _stopped(t: paddle.Tensor) -> paddle.Tensor:
    t = t.detach()
    t.stop_gradient = True
    return t


class IvyLayer(paddle.nn.Layer):
    """The parameters and buffers of one Ivy submodule inside an :class:`IvyPaddleLayer`
    (``layer.fc0`` for the Ivy module's ``fc0``); it is not callable on its own."""

    def __init__(self, kind: str) -> None:
        super().__init__()
        self._ivy_kind = kind

    def forward(self, *args: Any, **kwargs: Any) -> Any:
        raise RuntimeError(f"{self._ivy_kind} is part of an IvyPaddleLayer: call the top-level layer")

    def extra_repr(self) -> str:
        return self._ivy_kind


class IvyPaddleLayer(paddle.nn.Layer):
    """A ``paddle.nn.Layer`` running an ``ivy.Module``; its parameters are the Ivy variables.

    The sublayer tree mirrors the Ivy module's: the variable ``fc0/w`` is the parameter ``w`` of
    the sublayer ``fc0`` (an :class:`IvyLayer`), so ``state_dict()`` keys read ``fc0.w`` as in
    hand-written paddle; :meth:`key_chain` maps a name back to its Ivy key chain. ``train()`` /
    ``eval()`` switch the Ivy module's mode too. Buffers (the Ivy module's ``state``) are
    updated after each forward pass in training mode.
    """

    def __init__(self, ivy_module: Module) -> None:
        super().__init__()
        variables, buffers = module_variables(ivy_module)
        #: Ivy key chain -> (the paddle layer holding it, its name there)
        self._ivy_params: dict[str, tuple[Any, str]] = {}
        self._ivy_buffers: dict[str, tuple[Any, str]] = {}
        shared = {}
        for chain, x in variables.items():
            owner, leaf = mirror_place(self, chain, ivy_module, IvyLayer, "_sub_layers")
            p = owner.create_parameter(
                shape=list(x.shape),
                dtype=x.dtype,
                default_initializer=paddle.nn.initializer.Assign(x.detach()),
            )
            p.stop_gradient = False
            owner.add_parameter(leaf, p)
            self._ivy_params[chain] = (owner, leaf)
            shared[chain] = p
        for chain, x in buffers.items():
            owner, leaf = mirror_place(self, chain, ivy_module, IvyLayer, "_sub_layers")
            owner.register_buffer(leaf, _stopped(x), persistable=True)
            self._ivy_buffers[chain] = (owner, leaf)
        # the Ivy module's variables become these very parameters: paddle.optimizer's in-place
        # updates are seen by both
        self.__dict__["ivy_module"] = ivy_module
        ivy_module.v = Container.from_flat_dict(shared)
        self.train() if ivy_module.training else self.eval()

    def key_chain(self, name: str) -> str:
        """The Ivy key chain of a parameter or buffer name of this layer (``"fc0.w"`` -> ``"fc0/w"``)."""
        chain = name.replace(".", _SEP)
        if chain not in self._ivy_params and chain not in self._ivy_buffers:
            raise KeyError(f"{name!r} is not a parameter or buffer of this layer")
        return chain

    def forward(self, *args: Any, **kwargs: Any) -> Any:
        v = {chain: owner._parameters[leaf] for chain, (owner, leaf) in self._ivy_params.items()}
        bufs = {chain: owner._buffers[leaf] for chain, (owner, leaf) in self._ivy_buffers.items()}
        out, new = call_with_variables(self.ivy_module, v, bufs, *args, **kwargs)
        for chain, (owner, leaf) in self._ivy_buffers.items():
            x = new.get(chain)
            if x is not None and x is not bufs[chain]:
                owner._buffers[leaf] = _stopped(x)
        return out

    def train(self) -> IvyPaddleLayer:  # type: ignore[override]
        super().train()
        self.ivy_module.train(True)
        return self

    def eval(self) -> IvyPaddleLayer:
        super().eval()
        self.ivy_module.train(False)
        return self

    def extra_repr(self) -> str:
        return f"ivy_module={type(self.ivy_module).__name__}"


class PaddleLayerWrapper(NativeModuleWrapper):
    """An ``ivy.Module`` running a ``paddle.nn.Layer``.

    ``v``: the parameters with ``stop_gradient=False``; ``state``: the frozen parameters (such as
    BatchNorm's ``_mean`` / ``_variance``) and the buffers. The forward pass puts the arrays of
    ``v`` / ``state`` in the layer's slots during the call (restoring the layer's own after), in
    the wrapper's training mode. :meth:`to_native` copies ``v`` and ``state`` into the layer.
    """

    def __init__(self, native: paddle.nn.Layer) -> None:
        params: dict[str, paddle.Tensor] = {}
        buffers: dict[str, paddle.Tensor] = {}
        for n, p in native.named_parameters():
            (buffers if p.stop_gradient else params)[n] = p
        for n, b in native.named_buffers():
            buffers[n] = b
        self._slots: dict[str, tuple[Any, str, str]] = {}
        layers = dict(native.named_sublayers(include_self=True))
        for n in list(params) + list(buffers):
            path, _, attr = n.rpartition(".")
            layer = layers[path]
            kind = "_parameters" if attr in layer._parameters else "_buffers"
            self._slots[n] = (layer, kind, attr)
        super().__init__(
            native,
            backend="paddle",
            params=params,
            buffers=buffers,
            separator=".",
            training=native.training,
        )

    def _native_call(
        self, params: dict[str, Any], buffers: dict[str, Any], args: tuple[Any, ...], kwargs: dict[str, Any]
    ) -> tuple[Any, dict[str, Any] | None]:
        native = self._native
        if native.training != self.training:
            native.train() if self.training else native.eval()
        # layers in training mode update buffers in place: give them copies
        bufs = {k: b.clone() for k, b in buffers.items()} if self.training else dict(buffers)
        saved = {}
        try:
            for n, x in {**params, **bufs}.items():
                layer, kind, attr = self._slots[n]
                slots = getattr(layer, kind)
                saved[n] = slots[attr]
                slots[attr] = x
            out = native(*args, **kwargs)
        finally:
            for n, old in saved.items():
                layer, kind, attr = self._slots[n]
                getattr(layer, kind)[attr] = old
        return out, ({k: _stopped(b) for k, b in bufs.items()} if self.training and bufs else None)

    def _write_native(self, params: dict[str, Any], buffers: dict[str, Any]) -> None:
        with paddle.no_grad():
            for n, x in {**params, **buffers}.items():
                layer, kind, attr = self._slots[n]
                getattr(layer, kind)[attr].set_value(x.detach())


def to_native_module(module: Module, /) -> IvyPaddleLayer:
    """A ``paddle.nn.Layer`` whose parameters are ``module``'s variables (see :class:`IvyPaddleLayer`)."""
    return IvyPaddleLayer(module)


def from_native_module(native: paddle.nn.Layer, /) -> PaddleLayerWrapper:
    """An ``ivy.Module`` running the ``paddle.nn.Layer`` ``native`` (see :class:`PaddleLayerWrapper`)."""
    if not isinstance(native, paddle.nn.Layer):
        raise TypeError(f"from_native_module (paddle) takes a paddle.nn.Layer, got {type(native).__name__}")
    return PaddleLayerWrapper(native)
