"""Normalisation layers: :class:`LayerNorm`, :class:`RMSNorm`, :class:`GroupNorm` and
``BatchNorm1D/2D/3D`` (running statistics in ``module.state``, updated in training mode)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .. import _api as ivy
from ._layout import canonical_format, channel_axis, check_input
from .initializers import Ones, Zeros
from .module import Module

__all__ = ["LayerNorm", "RMSNorm", "GroupNorm", "BatchNorm1D", "BatchNorm2D", "BatchNorm3D"]


def _axes(axis: int | Sequence[int]) -> tuple[int, ...]:
    return (int(axis),) if isinstance(axis, int) else tuple(int(a) for a in axis)


class _AxesNorm(Module):
    """Shared by LayerNorm and RMSNorm: the normalised axes, and ``w`` (and ``b``) of their shape."""

    _HAS_OFFSET = True

    def __init__(
        self,
        normalized_shape: int | Sequence[int] | None = None,
        *,
        axis: int | Sequence[int] | None = None,
        eps: float = 1e-5,
        elementwise_affine: bool = True,
        **kwargs: Any,
    ) -> None:
        if normalized_shape is None and axis is None:
            raise ValueError(
                f"{type(self).__name__}: give normalized_shape (the trailing shape normalised over) "
                "or axis (the axes normalised over)"
            )
        self.normalized_shape = None if normalized_shape is None else _axes(normalized_shape)
        if axis is None:
            axis = tuple(range(-len(self.normalized_shape), 0))  # type: ignore[arg-type]
        self.axis = _axes(axis)
        if self.normalized_shape is not None and len(self.normalized_shape) != len(self.axis):
            raise ValueError(
                f"{type(self).__name__}: normalized_shape {self.normalized_shape} does not match axis {self.axis}"
            )
        self.eps, self.elementwise_affine = eps, elementwise_affine
        Module.__init__(self, **kwargs)

    def _needs_input(self) -> bool:
        return self.elementwise_affine and self.normalized_shape is None

    def _infer_from_input(self, x: Any, *args: Any, **kwargs: Any) -> None:
        if self.normalized_shape is None:
            self.normalized_shape = tuple(int(x.shape[a]) for a in self.axis)

    def _param_shape(self, ndim: int) -> tuple[int, ...]:
        """The shape ``w`` broadcasts with against an input of rank ``ndim``."""
        axes = sorted(a % ndim for a in self.axis)
        shape = [1] * ndim
        for a, n in zip(axes, self._sorted_shape(ndim)):
            shape[a] = n
        return tuple(shape[min(axes) :])

    def _sorted_shape(self, ndim: int) -> list[int]:
        pairs = sorted(zip((a % ndim for a in self.axis), self.normalized_shape))  # type: ignore[arg-type]
        return [n for _, n in pairs]

    def _create_variables(self, *, backend: str, device: Any, dtype: Any) -> dict[str, Any]:
        if not self.elementwise_affine:
            return {}
        kw = {"dtype": dtype, "device": device, "backend": backend}
        v = {"w": Ones().create(self.normalized_shape, **kw)}  # type: ignore[arg-type]
        if self._HAS_OFFSET:
            v["b"] = Zeros().create(self.normalized_shape, **kw)  # type: ignore[arg-type]
        return v

    def _check(self, x: Any) -> None:
        if self.normalized_shape is None:  # variables given before any input: sizes from this one
            self._infer_from_input(x)
        got = (
            tuple(int(x.shape[a]) for a in self.axis)
            if all(-len(x.shape) <= a < len(x.shape) for a in self.axis)
            else None
        )
        if got != tuple(self.normalized_shape or ()):
            raise ValueError(
                f"{type(self).__name__} normalises axes {self.axis} of size {self.normalized_shape}, "
                f"got an input of shape {tuple(x.shape)}"
            )

    def _affine(self, p: Any, x: Any) -> Any:
        """``p`` (a variable of the normalised axes' shape) shaped to broadcast against ``x``."""
        if all(a < 0 for a in self.axis) and sorted(self.axis) == list(range(-len(self.axis), 0)):
            return p  # trailing axes: broadcasts as it is
        order = sorted(range(len(self.axis)), key=lambda i: self.axis[i] % len(x.shape))
        if order != list(range(len(order))):
            p = ivy.permute_dims(p, tuple(order))
        return ivy.reshape(p, self._param_shape(len(x.shape)))


class LayerNorm(_AxesNorm):
    """Layer normalisation (:func:`ivy.layer_norm`): standardise over ``axis`` (mean and biased
    variance per sample), then scale by ``w`` (ones) and shift by ``b`` (zeros), both of the
    normalised axes' shape (in the order of ``axis``).

    ``LayerNorm(64)`` normalises the last axis (torch's ``LayerNorm(64)``);
    ``LayerNorm(axis=(1, 2, 3))`` normalises axes 1-3 with their sizes taken from the first input
    (Keras' ``LayerNormalization(axis=[1, 2, 3])``).

    Args:
        normalized_shape: the trailing shape normalised over (an int: the last axis); ``None``
            with ``axis``: from the first input.
        axis: the axes normalised over; default the last ``len(normalized_shape)`` axes.
        eps: added to the variance (torch's default; Keras' is ``1e-3``).
        elementwise_affine: whether to have ``w`` and ``b``.
        **kwargs: see :class:`Module`.
    """

    def _forward(self, x: Any) -> Any:
        self._check(x)
        v = self._vars
        if self.elementwise_affine:
            return ivy.layer_norm(x, self.axis, scale=self._affine(v.w, x), offset=self._affine(v.b, x), eps=self.eps)
        return ivy.layer_norm(x, self.axis, eps=self.eps)


class RMSNorm(_AxesNorm):
    """Root-mean-square normalisation (Zhang & Sennrich, 2019; torch's ``RMSNorm``, Keras'
    ``RMSNormalization``): ``x / sqrt(mean(x², axis) + eps) * w``, ``w`` (ones) of the normalised
    axes' shape; no offset, no centring.

    Args:
        normalized_shape: the trailing shape normalised over; ``None`` with ``axis``: from the input.
        axis: the axes normalised over; default the last ``len(normalized_shape)`` axes.
        eps: added to the mean square (Keras' default ``1e-6``; torch's is the dtype's epsilon).
        elementwise_affine: whether to have ``w``.
        **kwargs: see :class:`Module`.
    """

    _HAS_OFFSET = False

    def __init__(
        self,
        normalized_shape: int | Sequence[int] | None = None,
        *,
        axis: int | Sequence[int] | None = None,
        eps: float = 1e-6,
        elementwise_affine: bool = True,
        **kwargs: Any,
    ) -> None:
        super().__init__(normalized_shape, axis=axis, eps=eps, elementwise_affine=elementwise_affine, **kwargs)

    def _forward(self, x: Any) -> Any:
        self._check(x)
        v = self._vars
        y = x / ivy.sqrt(ivy.mean(x * x, axis=self.axis, keepdims=True) + self.eps)
        return y * self._affine(v.w, x) if self.elementwise_affine else y


class GroupNorm(Module):
    """Group normalisation (Wu & He, 2018; :func:`ivy.group_norm`): the channels split into
    ``num_groups`` groups, each standardised per sample over its channels and every spatial axis,
    then per-channel ``w`` (ones) and ``b`` (zeros). Any rank ``>= 2``; ``data_format``
    ``"channels_last"`` (default, Keras' ``GroupNormalization``) or ``"channels_first"`` (torch's
    ``GroupNorm``).

    Args:
        num_groups: number of groups; must divide ``num_channels``.
        num_channels: number of channels.
        eps: added to the variance.
        affine: whether to have ``w`` and ``b``.
        data_format: ``"channels_last"`` or ``"channels_first"`` (or ``"NHWC"``-style names).
        **kwargs: see :class:`Module`.
    """

    def __init__(
        self,
        num_groups: int,
        num_channels: int,
        *,
        eps: float = 1e-5,
        affine: bool = True,
        data_format: str = "channels_last",
        **kwargs: Any,
    ) -> None:
        if num_channels % num_groups:
            raise ValueError(f"GroupNorm: {num_groups} groups do not divide {num_channels} channels")
        self.num_groups, self.num_channels, self.eps, self.affine = num_groups, num_channels, eps, affine
        self.data_format = data_format
        Module.__init__(self, **kwargs)

    def _create_variables(self, *, backend: str, device: Any, dtype: Any) -> dict[str, Any]:
        if not self.affine:
            return {}
        kw = {"dtype": dtype, "device": device, "backend": backend}
        return {"w": Ones().create((self.num_channels,), **kw), "b": Zeros().create((self.num_channels,), **kw)}

    def _forward(self, x: Any) -> Any:
        first = channel_axis(_format(self.data_format, len(x.shape))) == 1
        fmt = "NC" + "X" * (len(x.shape) - 2) if first else "N" + "X" * (len(x.shape) - 2) + "C"
        if len(x.shape) < 2 or int(x.shape[1 if first else -1]) != self.num_channels:
            raise ValueError(
                f"GroupNorm expects {self.num_channels} channels on axis {1 if first else -1} "
                f"(data_format={self.data_format!r}), got shape {tuple(x.shape)}"
            )
        v = self._vars
        kw = {"scale": v.w, "offset": v.b} if self.affine else {}
        return ivy.group_norm(x, self.num_groups, eps=self.eps, data_format=fmt, **kw)


def _format(data_format: str, ndim: int) -> str:
    if ndim - 2 in (1, 2, 3):
        return canonical_format(data_format, ndim - 2)
    return "NC" if str(data_format).lower().endswith("first") or str(data_format).upper().startswith("NC") else "NX"


class _BatchNorm(Module):
    _NDIM = 2

    def __init__(
        self,
        num_features: int,
        *,
        eps: float = 1e-5,
        momentum: float = 0.1,
        data_format: str | None = None,
        affine: bool = True,
        track_running_stats: bool = True,
        **kwargs: Any,
    ) -> None:
        self.num_features, self.eps, self.momentum = num_features, eps, momentum
        self.data_format = canonical_format(data_format, self._NDIM)
        self.affine, self.track_running_stats = affine, track_running_stats
        Module.__init__(self, **kwargs)

    def _create_variables(self, *, backend: str, device: Any, dtype: Any) -> dict[str, Any]:
        if not self.affine:
            return {}
        kw = {"dtype": dtype, "device": device, "backend": backend}
        return {"w": Ones().create((self.num_features,), **kw), "b": Zeros().create((self.num_features,), **kw)}

    def _create_state(self, *, backend: str, device: Any, dtype: Any) -> dict[str, Any]:
        if not self.track_running_stats:
            return {}
        kw = {"dtype": dtype, "device": device, "backend": backend}
        return {
            "running_mean": Zeros().create((self.num_features,), **kw),
            "running_var": Ones().create((self.num_features,), **kw),
        }

    def _layout(self, x: Any) -> str:
        if len(x.shape) == 2:  # [batch, features] (torch's BatchNorm1d, Keras' BatchNormalization on dense outputs)
            if int(x.shape[1]) != self.num_features:
                raise ValueError(
                    f"{type(self).__name__} expects [batch, {self.num_features}] or a rank-"
                    f"{self._NDIM + 2} input (data_format={self.data_format!r}), got shape "
                    f"{tuple(x.shape)}"
                )
            return "NC"
        check_input(self, x, self.data_format, self.num_features)
        return self.data_format

    def _forward(self, x: Any) -> Any:
        fmt = self._layout(x)
        v = self._vars
        kw: dict[str, Any] = {"eps": self.eps, "momentum": self.momentum, "data_format": fmt}
        if self.affine:
            kw.update(scale=v.w, offset=v.b)
        st = self._own_state
        if not self.track_running_stats:
            c = ivy.zeros((self.num_features,), dtype=x.dtype, device=ivy.dev(x), backend=ivy.namespace(x))
            return ivy.batch_norm(x, c, c + 1.0, training=True, **kw)[0]
        training = self.training
        y, mean, var = ivy.batch_norm(x, st["running_mean"], st["running_var"], training=training, **kw)  # type: ignore[index]
        if training:
            self._update_state(running_mean=mean, running_var=var)
        return y


_BN_DOC = """Batch normalisation of {rank} inputs (and ``[batch, features]``; :func:`ivy.batch_norm`),
    per channel.

    Variables ``w`` (scale, ones) and ``b`` (offset, zeros); buffers in ``state``:
    ``running_mean`` (zeros) and ``running_var`` (ones). In training mode the batch statistics
    normalise, and the running ones are updated (``momentum``: weight of the batch, unbiased
    variance, as in torch; Keras' ``momentum`` is ``1 -`` this one) and stored back in ``state``;
    in evaluation mode (``model.eval()``) the running ones normalise.

    Args:
        num_features: number of channels.
        eps: added to the variance (torch's default; Keras' is ``1e-3``).
        momentum: weight of the batch statistics in the running-statistics update.
        data_format: {formats}; also ``"channels_last"`` / ``"channels_first"``.
        affine: whether to have ``w`` and ``b``.
        track_running_stats: without them, the batch statistics normalise in both modes.
        **kwargs: see :class:`Module`.

    Raises:
        ValueError: (on a call) the input's rank or channel axis does not fit ``data_format``.
    """


class BatchNorm1D(_BatchNorm):
    __doc__ = _BN_DOC.format(
        rank="``[batch, length, channels]``",
        formats='``"NWC"`` (default) or ``"NCW"`` (torch\'s ``BatchNorm1d`` layout) for rank-3 inputs',
    )
    _NDIM = 1


class BatchNorm2D(_BatchNorm):
    __doc__ = _BN_DOC.format(rank="4-D", formats='``"NHWC"`` (default) or ``"NCHW"``')
    _NDIM = 2


class BatchNorm3D(_BatchNorm):
    __doc__ = _BN_DOC.format(rank="5-D", formats='``"NDHWC"`` (default) or ``"NCDHW"``')
    _NDIM = 3
