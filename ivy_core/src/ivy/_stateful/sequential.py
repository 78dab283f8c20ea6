""":class:`Sequential` and modules for the common activations."""

from __future__ import annotations

from typing import Any

from .. import _api as ivy
from .module import Module

__all__ = [
    "Sequential",
    "ReLU",
    "LeakyReLU",
    "GELU",
    "SiLU",
    "Sigmoid",
    "Tanh",
    "Softmax",
    "LogSoftmax",
    "Softplus",
    "ELU",
    "SELU",
    "Hardswish",
    "Mish",
]


class Sequential(Module):
    """Modules applied one after the other: ``Sequential(ivy.Linear(3, 8), ivy.ReLU(), ...)``.

    The modules are ``self.layers``; their variables are under ``v.layers["0"]``, ``["1"]``...
    (key chains ``"layers/0/w"``); modules without variables leave no key.

    Args:
        *modules: the modules, in order.
        **kwargs: see :class:`Module`.
    """

    _repr_strip_prefix = "layers/"

    def __init__(self, *modules: Module, **kwargs: Any) -> None:
        for i, m in enumerate(modules):
            if not isinstance(m, Module):
                raise TypeError(f"Sequential: argument {i} is a {type(m).__name__}, not an ivy.Module")
        self.layers = list(modules)
        Module.__init__(self, **kwargs)

    def _forward(self, x: Any) -> Any:
        for m in self.layers:
            x = m(x)
        return x

    def add(self, module: Module) -> Sequential:
        """Append ``module`` (before the first call, or with its variables built separately);
        returns this Sequential."""
        if not isinstance(module, Module):
            raise TypeError(f"Sequential.add: got a {type(module).__name__}, not an ivy.Module")
        self.layers.append(module)
        return self

    def __len__(self) -> int:
        return len(self.layers)

    def __getitem__(self, i: int) -> Module:
        return self.layers[i]


class _Activation(Module):
    _FN = "relu"

    def __init__(self, **fn_kwargs: Any) -> None:
        self._fn_kwargs = fn_kwargs
        Module.__init__(self)

    def _forward(self, x: Any) -> Any:
        return getattr(ivy, self._FN)(x, **self._fn_kwargs)

    def __repr__(self) -> str:
        args = ", ".join(f"{k}={v!r}" for k, v in self._fn_kwargs.items())
        return f"{type(self).__name__}({args})"


def _activation(name: str, fn: str, doc: str, params: tuple[str, ...] = ()) -> type:
    def __init__(self: Any, **kwargs: Any) -> None:
        unknown = set(kwargs) - set(params)
        if unknown:
            raise TypeError(f"{name} takes {params or 'no arguments'}, got {sorted(unknown)}")
        _Activation.__init__(self, **kwargs)

    return type(name, (_Activation,), {"_FN": fn, "__init__": __init__, "__doc__": doc, "__module__": __name__})


ReLU = _activation("ReLU", "relu", "Module of :func:`ivy.relu`.")
LeakyReLU = _activation("LeakyReLU", "leaky_relu", "Module of :func:`ivy.leaky_relu` (``alpha=0.2``).", ("alpha",))
GELU = _activation("GELU", "gelu", "Module of :func:`ivy.gelu` (``approximate=False``).", ("approximate",))
SiLU = _activation("SiLU", "silu", "Module of :func:`ivy.silu`.")
Sigmoid = _activation("Sigmoid", "sigmoid", "Module of :func:`ivy.sigmoid`.")
Tanh = _activation("Tanh", "tanh", "Module of :func:`ivy.tanh`.")
Softmax = _activation("Softmax", "softmax", "Module of :func:`ivy.softmax` (``axis=-1``).", ("axis",))
LogSoftmax = _activation("LogSoftmax", "log_softmax", "Module of :func:`ivy.log_softmax` (``axis=-1``).", ("axis",))
Softplus = _activation("Softplus", "softplus", "Module of :func:`ivy.softplus`.", ("beta", "threshold"))
ELU = _activation("ELU", "elu", "Module of :func:`ivy.elu` (``alpha=1.0``).", ("alpha",))
SELU = _activation("SELU", "selu", "Module of :func:`ivy.selu`.")
Hardswish = _activation("Hardswish", "hardswish", "Module of :func:`ivy.hardswish`.")
Mish = _activation("Mish", "mish", "Module of :func:`ivy.mish`.")
