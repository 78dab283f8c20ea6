"""Layers without variables that reshape or perturb their input: :class:`Identity`,
:class:`Lambda`, :class:`Flatten`, :class:`Reshape`, and the dropout family (active in training
mode only, the identity in evaluation mode)."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

from .. import _api as ivy
from ._layout import canonical_format, channel_axis, check_input
from .module import Module

__all__ = [
    "Identity",
    "Lambda",
    "Flatten",
    "Reshape",
    "Dropout",
    "Dropout1D",
    "Dropout2D",
    "Dropout3D",
    "AlphaDropout",
    "GaussianDropout",
    "GaussianNoise",
]


def _check_prob(name: str, p: float) -> None:
    if not 0.0 <= p < 1.0:
        raise ValueError(f"{name}: the drop probability must be in [0, 1), got {p}")


def _placed(x: Any) -> dict[str, Any]:
    return {"dtype": x.dtype, "device": ivy.dev(x), "backend": ivy.namespace(x)}


class Identity(Module):
    """Returns its (first) input unchanged; further arguments are ignored (as torch's)."""

    def __init__(self, **kwargs: Any) -> None:
        Module.__init__(self, **kwargs)

    def _forward(self, x: Any, *args: Any, **kwargs: Any) -> Any:
        return x


class Lambda(Module):
    """A module of the function ``fn``: ``Lambda(lambda x: x * 2)(x)`` is ``fn(x)``. Handy in a
    :class:`Sequential`; ``fn`` must use ``ivy`` ops (or the input's own framework).

    Args:
        fn: the function called with the module's arguments.
        **kwargs: see :class:`Module`.
    """

    def __init__(self, fn: Callable[..., Any], **kwargs: Any) -> None:
        if not callable(fn):
            raise TypeError(f"Lambda needs a callable, got {type(fn).__name__}")
        self.fn = fn
        Module.__init__(self, **kwargs)

    def _forward(self, *args: Any, **kwargs: Any) -> Any:
        return self.fn(*args, **kwargs)


class Flatten(Module):
    """Merge the axes ``start_dim..end_dim`` into one (:func:`ivy.flatten`); the default keeps
    the batch axis and flattens the rest (torch's ``nn.Flatten``, Keras' ``Flatten``).

    Args:
        start_dim: first axis merged.
        end_dim: last axis merged (inclusive).
        **kwargs: see :class:`Module`.
    """

    def __init__(self, start_dim: int = 1, end_dim: int = -1, **kwargs: Any) -> None:
        self.start_dim, self.end_dim = start_dim, end_dim
        Module.__init__(self, **kwargs)

    def _forward(self, x: Any) -> Any:
        return ivy.flatten(x, start_dim=self.start_dim, end_dim=self.end_dim)


class Reshape(Module):
    """Reshape every sample to ``target_shape`` (the batch axis kept; one entry may be ``-1``),
    as Keras' ``Reshape``.

    Args:
        target_shape: the shape of one sample.
        **kwargs: see :class:`Module`.
    """

    def __init__(self, target_shape: Sequence[int], **kwargs: Any) -> None:
        self.target_shape = tuple(int(d) for d in target_shape)
        Module.__init__(self, **kwargs)

    def _forward(self, x: Any) -> Any:
        # plain loops: torch.compile (dynamo) breaks its graph on a generator passed to math.prod,
        # and a graph break inside a differentiated step (torch.func.grad) fails to compile
        size = 1
        for d in x.shape[1:]:
            size *= int(d)
        known = 1
        for d in self.target_shape:
            known *= d if d != -1 else 1
        if (-1 not in self.target_shape and known != size) or (-1 in self.target_shape and size % max(known, 1)):
            raise ValueError(
                f"Reshape: a sample of shape {tuple(x.shape[1:])} ({size} elements) cannot take the "
                f"shape {self.target_shape}"
            )
        return ivy.reshape(x, (x.shape[0], *self.target_shape))


class Dropout(Module):
    """Zero each element with probability ``prob`` in training mode (:func:`ivy.dropout`), the
    kept ones divided by ``1 - prob`` if ``scale``; the identity in evaluation mode.

    Args:
        prob: drop probability, in ``[0, 1)``.
        scale: divide the kept elements by ``1 - prob`` (inverted dropout, as torch and Keras).
        **kwargs: see :class:`Module`.
    """

    def __init__(self, prob: float, *, scale: bool = True, **kwargs: Any) -> None:
        _check_prob("Dropout", prob)
        self.prob, self.scale = prob, scale
        Module.__init__(self, **kwargs)

    def _forward(self, x: Any) -> Any:
        return ivy.dropout(x, self.prob, scale=self.scale, training=self.training)


class _ChannelDropout(Module):
    _NDIM = 2

    def __init__(self, prob: float, *, data_format: str | None = None, **kwargs: Any) -> None:
        _check_prob(type(self).__name__, prob)
        self.prob = prob
        self.data_format = canonical_format(data_format, self._NDIM)
        Module.__init__(self, **kwargs)

    def _forward(self, x: Any) -> Any:
        if not self.training or self.prob == 0.0:
            return x
        check_input(self, x, self.data_format)
        ax = channel_axis(self.data_format) % len(x.shape)
        shape = tuple(int(d) if i in (0, ax) else 1 for i, d in enumerate(x.shape))
        keep = ivy.bernoulli(1.0 - self.prob, shape=shape, **_placed(x))
        return x * keep / (1.0 - self.prob)


_CHANNEL_DOC = """Channel dropout (torch's ``Dropout{nd}d``, Keras' ``SpatialDropout{nd}D``): in training
    mode each channel of each sample is zeroed with probability ``prob`` (all its {what} at once),
    the kept ones divided by ``1 - prob``; the identity in evaluation mode.

    Args:
        prob: drop probability, in ``[0, 1)``.
        data_format: {formats}; also ``"channels_last"`` / ``"channels_first"``.
        **kwargs: see :class:`Module`.
    """
_FORMATS = {
    1: '``"NWC"`` (default) or ``"NCW"``',
    2: '``"NHWC"`` (default) or ``"NCHW"``',
    3: '``"NDHWC"`` (default) or ``"NCDHW"``',
}


def _channel_class(name: str, nd: int) -> type:
    what = {1: "time steps", 2: "pixels", 3: "voxels"}[nd]
    doc = _CHANNEL_DOC.format(nd=nd, what=what, formats=_FORMATS[nd])
    return type(name, (_ChannelDropout,), {"_NDIM": nd, "__doc__": doc, "__module__": __name__})


Dropout1D = _channel_class("Dropout1D", 1)
Dropout2D = _channel_class("Dropout2D", 2)
Dropout3D = _channel_class("Dropout3D", 3)

#: SELU's constants (Klambauer et al., 2017): the value a dropped unit takes is -scale * alpha
_SELU_ALPHA = 1.6732632423543772848170429916717
_SELU_SCALE = 1.0507009873554804934193349852946


class AlphaDropout(Module):
    """Alpha dropout (Klambauer et al., 2017; torch's and Keras' ``AlphaDropout``), for SELU
    networks: in training mode each element is set with probability ``prob`` to SELU's negative
    saturation ``α' = -1.7581``, then ``a x + b`` is applied with ``a = ((1 - p)(1 + p α'²))^-½``
    and ``b = -a α' p``, which keep zero mean and unit variance; the identity in evaluation mode.

    Args:
        prob: drop probability, in ``[0, 1)``.
        **kwargs: see :class:`Module`.
    """

    def __init__(self, prob: float, **kwargs: Any) -> None:
        _check_prob("AlphaDropout", prob)
        self.prob = prob
        Module.__init__(self, **kwargs)

    def _forward(self, x: Any) -> Any:
        if not self.training or self.prob == 0.0:
            return x
        p = self.prob
        alpha = -_SELU_SCALE * _SELU_ALPHA
        a = ((1.0 - p) * (1.0 + p * alpha * alpha)) ** -0.5
        b = -a * alpha * p
        keep = ivy.bernoulli(1.0 - p, shape=tuple(int(d) for d in x.shape), **_placed(x))
        return a * (x * keep + alpha * (1.0 - keep)) + b


class GaussianDropout(Module):
    """Multiplicative Gaussian noise (Keras' ``GaussianDropout``): in training mode ``x`` times
    ``N(1, prob / (1 - prob))`` per element (the variance of inverted dropout with drop
    probability ``prob``); the identity in evaluation mode.

    Args:
        prob: the equivalent drop probability, in ``[0, 1)``.
        **kwargs: see :class:`Module`.
    """

    def __init__(self, prob: float, **kwargs: Any) -> None:
        _check_prob("GaussianDropout", prob)
        self.prob = prob
        Module.__init__(self, **kwargs)

    def _forward(self, x: Any) -> Any:
        if not self.training or self.prob == 0.0:
            return x
        std = math.sqrt(self.prob / (1.0 - self.prob))
        return x * ivy.random_normal(mean=1.0, std=std, shape=tuple(int(d) for d in x.shape), **_placed(x))


class GaussianNoise(Module):
    """Additive Gaussian noise (Keras' ``GaussianNoise``): in training mode ``x + N(0, stddev²)``
    per element; the identity in evaluation mode.

    Args:
        stddev: standard deviation of the noise.
        **kwargs: see :class:`Module`.
    """

    def __init__(self, stddev: float, **kwargs: Any) -> None:
        if stddev < 0:
            raise ValueError(f"GaussianNoise: stddev must be >= 0, got {stddev}")
        self.stddev = stddev
        Module.__init__(self, **kwargs)

    def _forward(self, x: Any) -> Any:
        if not self.training or self.stddev == 0.0:
            return x
        return x + ivy.random_normal(mean=0.0, std=self.stddev, shape=tuple(int(d) for d in x.shape), **_placed(x))
