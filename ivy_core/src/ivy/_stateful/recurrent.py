"""Recurrent layers: :class:`SimpleRNN`, :class:`GRU` and :class:`LSTM`, stacked
(``num_layers``) and optionally bidirectional, over sequences ``[batch, time, features]``
(``batch_first=True``, the default, Keras' layout) or ``[time, batch, features]``
(``batch_first=False``, torch's default).

Variables per layer ``l`` and direction, under ``layer{l}`` (and ``layer{l}_reverse`` for the
backward direction): ``w`` (input kernel ``[in, G * hidden]``, ``in`` being ``hidden *
directions`` above the first layer), ``r`` (recurrent kernel ``[hidden, G * hidden]``) and ``b``
(``[G * hidden]``), ``G`` the number of gates (1, 3, 4); :class:`GRU` also has ``rb``, the
recurrent bias. ``x @ w`` is the layout: torch's ``weight_ih_l{l}`` is ``w.T``.
"""

from __future__ import annotations

import math
from typing import Any

from .. import _api as ivy
from ..container import Container
from ._layout import check_batch, check_sequence
from .initializers import Initializer, Uniform
from .module import Module

__all__ = ["SimpleRNN", "GRU", "LSTM"]


class _RNN(Module):
    _GATES = 1
    _RECURRENT_BIAS = False
    _HAS_CELL = False

    def __init__(
        self,
        input_channels: int,
        output_channels: int,
        *,
        num_layers: int = 1,
        bidirectional: bool = False,
        return_sequence: bool = True,
        return_state: bool = True,
        batch_first: bool = True,
        dropout: float = 0.0,
        with_bias: bool = True,
        weight_initializer: Initializer | None = None,
        **kwargs: Any,
    ) -> None:
        if not 0.0 <= dropout < 1.0:
            raise ValueError(f"{type(self).__name__}: dropout must be in [0, 1), got {dropout}")
        self.input_channels, self.output_channels, self.num_layers = input_channels, output_channels, num_layers
        self.bidirectional, self.batch_first = bidirectional, batch_first
        self.return_sequence, self.return_state, self.with_bias = return_sequence, return_state, with_bias
        self.dropout = dropout
        k = 1.0 / math.sqrt(output_channels)
        self.weight_initializer = weight_initializer or Uniform(-k, k)
        Module.__init__(self, **kwargs)

    @property
    def _directions(self) -> tuple[str, ...]:
        return ("", "_reverse") if self.bidirectional else ("",)

    def _create_variables(self, *, backend: str, device: Any, dtype: Any) -> dict[str, Any]:
        h, g = self.output_channels, self._GATES
        kw = {"dtype": dtype, "device": device, "backend": backend}
        init = self.weight_initializer
        v: dict[str, Any] = {}
        for layer in range(self.num_layers):
            i = self.input_channels if layer == 0 else h * len(self._directions)
            for d in self._directions:
                lv = {
                    "w": init.create((i, g * h), fan_in=i, fan_out=g * h, **kw),
                    "r": init.create((h, g * h), fan_in=h, fan_out=g * h, **kw),
                }
                if self.with_bias:
                    lv["b"] = init.create((g * h,), fan_in=h, fan_out=g * h, **kw)
                    if self._RECURRENT_BIAS:
                        lv["rb"] = init.create((g * h,), fan_in=h, fan_out=g * h, **kw)
                v[f"layer{layer}{d}"] = Container(lv)
        return v

    def _run(self, x: Any, lv: Any, h0: Any, c0: Any) -> tuple[Any, Any, Any]:
        """One direction of one layer: ``(hs [batch, time, hidden], h_T, c_T or None)``."""
        raise NotImplementedError(f"{type(self).__name__} must implement _run")  # a subclass hook

    def _prepare(self, x: Any, initial_state: Any) -> tuple[Any, Any, Any]:
        """The input checked and batch-major, and the initial states ``[num_layers * directions,
        batch, hidden]`` (zeros by default; the cell state ``None`` but for :class:`LSTM`)."""
        check_sequence(self, x, self.batch_first, self.input_channels)
        ax = 0 if self.batch_first else 1
        batch = int(x.shape[ax])
        shape = (self.num_layers * len(self._directions), batch, self.output_channels)
        if initial_state is None:
            z = ivy.zeros(shape, dtype=x.dtype, device=ivy.dev(x), backend=ivy.namespace(x))
            h0s, c0s = z, (z if self._HAS_CELL else None)
        elif self._HAS_CELL:
            h0s, c0s = initial_state
        else:
            h0s, c0s = initial_state, None
        for what, s in (("initial state", h0s), ("initial cell state", c0s)):
            got = None if s is None else tuple(int(d) for d in s.shape)
            if got is None or got == shape:
                continue
            if len(got) == 3 and (got[0], got[2]) == (shape[0], shape[2]):  # only the batch differs
                other = int(x.shape[1 - ax])
                check_batch(
                    self,
                    self.batch_first,
                    {"input": batch, what: got[1]},
                    {"input": other, what: got[1]},
                    length="time",
                )
            raise ValueError(
                f"{type(self).__name__}: the {what} must be {shape} "
                f"([num_layers * directions, batch, hidden]), got {got}"
            )
        return (x if self.batch_first else ivy.permute_dims(x, (1, 0, 2))), h0s, c0s

    @property
    def _fused(self) -> bool:
        """Whether the whole stack can run as one op: unidirectional, and no dropout between
        layers (none in eval mode, nor with a single layer)."""
        return not self.bidirectional and not (self.dropout and self.training and self.num_layers > 1)

    def _sequence_out(self, hs: Any) -> Any:
        """A sequence of outputs ``[batch, time, ...]`` in the layer's layout."""
        return hs if self.batch_first else ivy.permute_dims(hs, (1, 0, 2))

    def _forward(self, x: Any, initial_state: Any = None) -> Any:
        x, h0s, c0s = self._prepare(x, initial_state)
        v = self._vars
        hs_n: list[Any] = []
        cs_n: list[Any] = []
        lasts: list[Any] = []
        seq = x
        for layer in range(self.num_layers):
            outs = []
            lasts = []
            for j, d in enumerate(self._directions):
                k = layer * len(self._directions) + j
                inp = seq if not d else ivy.flip(seq, axis=1)
                hs, h, c = self._run(inp, v[f"layer{layer}{d}"], h0s[k], None if c0s is None else c0s[k])
                outs.append(hs if not d else ivy.flip(hs, axis=1))
                lasts.append(h)
                hs_n.append(h)
                cs_n.append(c)
            seq = outs[0] if len(outs) == 1 else ivy.concat(outs, axis=-1)
            if self.dropout and self.training and layer < self.num_layers - 1:
                seq = ivy.dropout(seq, self.dropout, training=True)
        out = (
            self._sequence_out(seq)
            if self.return_sequence
            else (lasts[0] if len(lasts) == 1 else ivy.concat(lasts, axis=-1))
        )
        if not self.return_state:
            return out
        h_n = ivy.stack(hs_n, axis=0)
        return (out, (h_n, ivy.stack(cs_n, axis=0))) if self._HAS_CELL else (out, h_n)


_RNN_ARGS = """
    Args:
        input_channels: size of the input features.
        output_channels: hidden size.
        num_layers: number of stacked layers.
        bidirectional: also run each layer backwards in time; the two directions' hidden states
            are concatenated (``[..., 2 * hidden]``).
        return_sequence: return the (last layer's) hidden states of every step,
            ``[batch, time, directions * hidden]`` (``[time, batch, ...]`` with
            ``batch_first=False``); else the final ones, ``[batch, directions * hidden]`` (for the
            backward direction, its state after the whole reversed sequence, as Keras'
            ``Bidirectional``).
        return_state: also return the final state{state}, ``[num_layers * directions, batch,
            hidden]`` in either layout (torch's order: layer 0 forward, layer 0 backward, layer 1
            ...).
        batch_first: the sequence layout of the input and output sequence: ``True`` (default,
            Keras' layout) ``[batch, time, features]``; ``False`` (torch's default) ``[time,
            batch, features]``. The states are ``[num_layers * directions, batch, hidden]``
            either way (as torch's).
        dropout: dropout on the outputs of every layer but the last, in training mode (torch's).
        with_bias: whether to have the biases.
        weight_initializer: default ``Uniform(-1/sqrt(hidden), 1/sqrt(hidden))`` (as torch), also
            used for the biases.{extra}
        **kwargs: ``device``, ``backend``, ``dtype``, ``v``, ``training`` (see :class:`Module`).

    Call: ``layer(x, initial_state=None)``, ``x`` ``[batch, time, input_channels]`` (``[time,
    batch, input_channels]`` with ``batch_first=False``); ``initial_state`` as the returned state
    (zeros by default).
"""


class SimpleRNN(_RNN):
    __doc__ = """Elman recurrent layers (torch's ``RNN``, Keras' ``SimpleRNN``):
    ``h_t = act(x_t @ w + b + h_{t-1} @ r)``, ``act`` ``tanh`` or ``relu`` (``activation=``).
    ``b`` is torch's ``bias_ih + bias_hh``. Returns ``out`` or ``(out, h_n)``.
""" + _RNN_ARGS.format(state=" ``h_n``", extra='\n        activation: ``"tanh"`` (default) or ``"relu"``.')

    def __init__(
        self,
        input_channels: int,
        output_channels: int,
        *,
        num_layers: int = 1,
        bidirectional: bool = False,
        return_sequence: bool = True,
        return_state: bool = True,
        batch_first: bool = True,
        dropout: float = 0.0,
        with_bias: bool = True,
        weight_initializer: Initializer | None = None,
        activation: str = "tanh",
        **kwargs: Any,
    ) -> None:
        if activation not in ("tanh", "relu"):
            raise ValueError(f"SimpleRNN: activation must be 'tanh' or 'relu', got {activation!r}")
        self.activation = activation
        super().__init__(
            input_channels,
            output_channels,
            num_layers=num_layers,
            bidirectional=bidirectional,
            return_sequence=return_sequence,
            return_state=return_state,
            batch_first=batch_first,
            dropout=dropout,
            with_bias=with_bias,
            weight_initializer=weight_initializer,
            **kwargs,
        )

    def _run(self, x: Any, lv: Any, h0: Any, c0: Any) -> tuple[Any, Any, Any]:
        act = getattr(ivy, self.activation)
        xs = ivy.matmul(x, lv.w)
        if self.with_bias:
            xs = xs + lv.b
        h, hs = h0, []
        for xt in ivy.unstack(xs, axis=1):
            h = act(xt + ivy.matmul(h, lv.r))
            hs.append(h)
        return ivy.stack(hs, axis=1), h, None


class GRU(_RNN):
    __doc__ = """Gated recurrent unit layers (:func:`ivy.gru_update`; Cho et al., 2014), in torch's
    form (Keras' with ``reset_after=True``): with ``x_t @ w + b`` and ``h @ r + rb`` split along
    the last axis into the blocks of the gates ``r, z, n`` (torch's order)::

        r = sigmoid(xr + hr);  z = sigmoid(xz + hz)
        n = tanh(xn + r * hn);  h = (1 - z) * n + z * h

    ``b`` and ``rb`` are torch's ``bias_ih`` and ``bias_hh`` (Keras' two bias rows, its gate order
    being ``z, r, n``). Returns ``out`` or ``(out, h_n)``.
""" + _RNN_ARGS.format(state=" ``h_n``", extra="")

    _GATES = 3
    _RECURRENT_BIAS = True

    def _run(self, x: Any, lv: Any, h0: Any, c0: Any) -> tuple[Any, Any, Any]:
        b, rb = (lv.b, lv.rb) if self.with_bias else (None, None)
        hs, h = ivy.gru_update(x, h0, lv.w, lv.r, bias=b, recurrent_bias=rb)
        return hs, h, None

    def _forward(self, x: Any, initial_state: Any = None) -> Any:
        if not self._fused:
            return super()._forward(x, initial_state)
        # the whole stack in one ivy.gru (a native kernel on torch, a scan per layer on JAX)
        x, h0, _ = self._prepare(x, initial_state)
        layers = [self._vars[f"layer{i}"] for i in range(self.num_layers)]
        b = [lv.b for lv in layers] if self.with_bias else None
        rb = [lv.rb for lv in layers] if self.with_bias else None
        hs, h = ivy.gru(x, h0, [lv.w for lv in layers], [lv.r for lv in layers], biases=b, recurrent_biases=rb)
        out = self._sequence_out(hs) if self.return_sequence else hs[:, -1]
        return (out, h) if self.return_state else out


class LSTM(_RNN):
    __doc__ = """Long short-term memory layers (:func:`ivy.lstm_update`), the gates ordered
    ``i, f, g, o`` along the last axis (torch's order; ``b`` is torch's ``bias_ih + bias_hh``).
    Returns ``out`` or ``(out, (h_n, c_n))``.
""" + _RNN_ARGS.format(state=" ``(h_n, c_n)``", extra="")

    _GATES = 4
    _HAS_CELL = True

    def _run(self, x: Any, lv: Any, h0: Any, c0: Any) -> tuple[Any, Any, Any]:
        hs, (h, c) = ivy.lstm_update(x, h0, c0, lv.w, lv.r, bias=lv.b if self.with_bias else None)
        return hs, h, c

    def _forward(self, x: Any, initial_state: Any = None) -> Any:
        if not self._fused:
            return super()._forward(x, initial_state)
        # the whole stack in one ivy.lstm (a native kernel on torch, a scan per layer on JAX)
        x, h0, c0 = self._prepare(x, initial_state)
        v = self._vars
        layers = [v[f"layer{i}"] for i in range(self.num_layers)]
        biases = [lv.b for lv in layers] if self.with_bias else None
        hs, (h, c) = ivy.lstm(x, h0, c0, [lv.w for lv in layers], [lv.r for lv in layers], biases=biases)
        out = self._sequence_out(hs) if self.return_sequence else hs[:, -1]
        return (out, (h, c)) if self.return_state else out
