"""Native-module interop for PyTorch: ``ivy.to_native_module`` / ``ivy.from_native_module``.

* :func:`to_native_module` gives an :class:`IvyTorchModule`, a ``torch.nn.Module`` whose
  ``nn.Parameter``\\ s ARE the Ivy module's variables (the Ivy module's ``v`` is set to them), so
  ``torch.optim`` updates both at once. Its forward pass is ``ivy_module(*args, v=<parameters>)``.
* :func:`from_native_module` gives a :class:`TorchModuleWrapper`, an ``ivy.Module`` whose ``v``
  is a Container of the torch module's parameters (``fc0.weight`` -> ``v.fc0.weight``) and whose
  forward pass is ``torch.func.functional_call(module, v, args)``.
"""

from __future__ import annotations

from typing import Any

import torch

from ivy import Container, Module
from ivy.plugin_kit import NativeModuleWrapper, call_with_variables, mirror_place, module_variables

__all__ = ["to_native_module", "from_native_module", "IvyTorchModule", "IvyLayer", "TorchModuleWrapper"]

_SEP = "/"


def _plain(t: torch.Tensor) -> torch.Tensor:
    """``t`` without torch.func wrappers and history: a buffer updated inside a transform
    (``ivy.execute_with_gradients``) must not keep a wrapper of a level that has ended."""
    F = torch._C._functorch
    t = t.detach()
    while F.is_gradtrackingtensor(t):  # grad levels only: a vmap level's batch stays
        t = F.get_unwrapped(t)
    return t.detach() if t.requires_grad else t


class IvyLayer(torch.nn.Module):
    """The parameters and buffers of one Ivy submodule inside an :class:`IvyTorchModule`
    (``model.fc0`` for the Ivy module's ``fc0``); it is not callable on its own."""

    def __init__(self, kind: str) -> None:
        super().__init__()
        self._ivy_kind = kind

    def forward(self, *args: Any, **kwargs: Any) -> Any:
        raise RuntimeError(f"{self._ivy_kind} is part of an IvyTorchModule: call the top-level module")

    def extra_repr(self) -> str:
        return self._ivy_kind


class IvyTorchModule(torch.nn.Module):
    """A ``torch.nn.Module`` running an ``ivy.Module``; its parameters are the Ivy variables.

    The submodule tree mirrors the Ivy module's: the variable ``fc0/w`` is the parameter ``w`` of
    the submodule ``fc0`` (an :class:`IvyLayer`), so ``state_dict()`` keys read ``fc0.w`` as in
    hand-written torch; :meth:`key_chain` maps a name back to its Ivy key chain. ``train()`` /
    ``eval()`` switch the Ivy module's mode too. Buffers (the Ivy module's ``state``, e.g.
    BatchNorm running statistics) are updated after each forward pass in training mode.
    """

    # declared: torch.nn.Module.__getattr__'s type (Tensor | Module) would stand for it otherwise
    ivy_module: Module

    def __init__(self, ivy_module: Module) -> None:
        super().__init__()
        variables, buffers = module_variables(ivy_module)
        #: Ivy key chain -> (the torch module holding it, its name there)
        self._ivy_params: dict[str, tuple[torch.nn.Module, str]] = {}
        self._ivy_buffers: dict[str, tuple[torch.nn.Module, str]] = {}
        shared = {}
        for chain, x in variables.items():
            owner, leaf = mirror_place(self, chain, ivy_module, IvyLayer, "_modules")
            p = x if isinstance(x, torch.nn.Parameter) else torch.nn.Parameter(x.detach(), requires_grad=True)
            owner.register_parameter(leaf, p)
            self._ivy_params[chain] = (owner, leaf)
            shared[chain] = p
        for chain, x in buffers.items():
            owner, leaf = mirror_place(self, chain, ivy_module, IvyLayer, "_modules")
            owner.register_buffer(leaf, x.detach())
            self._ivy_buffers[chain] = (owner, leaf)
        # the Ivy module's variables become these very parameters: torch.optim's in-place
        # updates are seen by both
        object.__setattr__(self, "ivy_module", ivy_module)
        ivy_module.v = Container.from_flat_dict(shared)
        self.train(ivy_module.training)

    def key_chain(self, name: str) -> str:
        """The Ivy key chain of a parameter or buffer name of this module (``"fc0.w"`` -> ``"fc0/w"``)."""
        chain = name.replace(".", _SEP)
        if chain not in self._ivy_params and chain not in self._ivy_buffers:
            raise KeyError(f"{name!r} is not a parameter or buffer of this module")
        return chain

    def forward(self, *args: Any, **kwargs: Any) -> Any:
        v = {chain: owner._parameters[leaf] for chain, (owner, leaf) in self._ivy_params.items()}
        bufs = {chain: owner._buffers[leaf] for chain, (owner, leaf) in self._ivy_buffers.items()}
        out, new = call_with_variables(self.ivy_module, v, bufs, *args, **kwargs)
        for chain, (owner, leaf) in self._ivy_buffers.items():
            x = new.get(chain)
            if x is not None and x is not bufs[chain]:
                owner._buffers[leaf] = _plain(x)
        return out

    def train(self, mode: bool = True) -> IvyTorchModule:
        super().train(mode)
        self.ivy_module.train(mode)
        return self

    def extra_repr(self) -> str:
        return f"ivy_module={type(self.ivy_module).__name__}"


class TorchModuleWrapper(NativeModuleWrapper):
    """An ``ivy.Module`` running a ``torch.nn.Module`` by ``torch.func.functional_call``.

    ``v``: the parameters that require grad; ``state``: the buffers and frozen parameters. The
    wrapped module's mode follows the wrapper's (``train()`` / ``eval()``). :meth:`to_native`
    copies ``v`` and ``state`` into the torch module.
    """

    def __init__(self, native: torch.nn.Module) -> None:
        params: dict[str, torch.Tensor] = {}
        buffers: dict[str, torch.Tensor] = {}
        for n, p in native.named_parameters():
            (params if p.requires_grad else buffers)[n] = p
        for n, b in native.named_buffers():
            buffers[n] = b
        device = next((p.device for p in params.values()), None)
        super().__init__(
            native,
            backend="torch",
            params=params,
            buffers=buffers,
            separator=".",
            device=device,
            training=native.training,
        )

    def _native_call(
        self, params: dict[str, Any], buffers: dict[str, Any], args: tuple[Any, ...], kwargs: dict[str, Any]
    ) -> tuple[Any, dict[str, Any] | None]:
        native = self._native
        if native.training != self.training:
            native.train(self.training)
        # buffers are updated in place by layers in training mode: give them copies
        bufs = {k: b.clone() for k, b in buffers.items()} if self.training else dict(buffers)
        out = torch.func.functional_call(native, {**params, **bufs}, args, kwargs, strict=False)
        return out, ({k: _plain(b) for k, b in bufs.items()} if self.training and bufs else None)

    def _write_native(self, params: dict[str, Any], buffers: dict[str, Any]) -> None:
        own = dict(self._native.named_parameters())
        own.update(dict(self._native.named_buffers()))
        with torch.no_grad():
            for n, x in {**params, **buffers}.items():
                own[n].copy_(x)


def to_native_module(module: Module, /) -> IvyTorchModule:
    """A ``torch.nn.Module`` whose parameters are ``module``'s variables (see :class:`IvyTorchModule`)."""
    return IvyTorchModule(module)


def from_native_module(native: torch.nn.Module, /) -> TorchModuleWrapper:
    """An ``ivy.Module`` running the ``torch.nn.Module`` ``native`` (see :class:`TorchModuleWrapper`)."""
    if not isinstance(native, torch.nn.Module):
        raise TypeError(f"from_native_module (torch) takes a torch.nn.Module, got {type(native).__name__}")
    return TorchModuleWrapper(native)
