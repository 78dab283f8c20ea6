"""Argument normalisation every backend's convolutions and pools need, written once here, and the
families of 1-3-d ops built from one N-d function."""

from __future__ import annotations

import operator
from collections.abc import Callable, Sequence
from typing import Any, Protocol

__all__ = [
    "channels_last",
    "filters_last",
    "conv_output_sizes",
    "tiny_conv_outputs",
    "ntuple",
    "padding_pairs",
    "check_bias",
    "add_channel_bias",
    "bilinear_sample_layout",
    "conv_family",
    "conv_transpose_family",
    "pool_family",
    "ConvND",
    "ConvTransposeND",
    "PoolND",
    "AvgPoolND",
]

_LAYOUTS = {1: ("NWC", "NCW"), 2: ("NHWC", "NCHW"), 3: ("NDHWC", "NCDHW")}
_FILTER_LAYOUTS = {1: ("WIO", "OIW"), 2: ("HWIO", "OIHW"), 3: ("DHWIO", "OIDHW")}


def _last_of(layouts: dict[int, tuple[str, str]], value: str, n: int, what: str) -> bool:
    last, first = layouts[n]
    if value == last:
        return True
    if value == first:
        return False
    raise ValueError(f"{what} must be {last!r} or {first!r} for {n}-D, got {value!r}")


def filters_last(filter_format: str, n: int) -> bool:
    """Whether ``filter_format`` is the channels-last filter layout of ``n`` spatial dimensions
    (``"HWIO"`` for 2-d) rather than the channels-first one (``"OIHW"``).

    Raises:
        ValueError: ``filter_format`` is neither layout of ``n`` dimensions.
    """
    return _last_of(_FILTER_LAYOUTS, filter_format, n, "filter_format")


def channels_last(data_format: str, n: int) -> bool:
    """Whether ``data_format`` is the channels-last layout of ``n`` spatial dimensions.

    Raises:
        ValueError: ``data_format`` is neither layout of ``n`` dimensions.
    """
    return _last_of(_LAYOUTS, data_format, n, "data_format")


def ntuple(v: Any, n: int, what: str) -> tuple[int, ...]:
    """An int or a sequence of ints (``strides``, ``dilations``, ``kernel``) as ``n`` ints.

    A one-element sequence is repeated. Integer-like objects (NumPy integers) are accepted.
    """
    try:
        return (operator.index(v),) * n
    except TypeError:
        pass
    t = tuple(operator.index(i) for i in v)
    if len(t) == 1 and n > 1:
        return t * n
    if len(t) != n:
        raise ValueError(f"{what} must be an int or a sequence of {n} ints, got {v!r}")
    return t


def trailing_pads(shape: Sequence[int], pad_width: Any, mode: str) -> tuple[list[tuple[int, int]], int] | None:
    """The form frameworks pad in one kernel, where ``ivy.pad``'s arguments have it:
    ``(widths, first)`` with one ``(lo, hi)`` per axis and ``first`` the first padded axis (the
    axes before it are a batch and channels), for the modes ``"edge"``, ``"reflect"`` and
    ``"wrap"`` within the sizes their kernels take (reflect: under the axis' size, as it does
    not repeat the edge; wrap: up to it). None for anything else (nothing padded, a malformed or
    negative width: the composed ``pad`` then computes it or says what is wrong)."""
    n = len(shape)
    if isinstance(pad_width, int):
        widths = [(pad_width, pad_width)] * n
    elif len(pad_width) and isinstance(pad_width[0], int):
        widths = [tuple(pad_width)] * n
    else:
        widths = [tuple(w) for w in pad_width]
    if mode not in ("edge", "reflect", "wrap") or len(widths) != n:
        return None
    if any(len(w) != 2 or not all(isinstance(e, int) and e >= 0 for e in w) for w in widths):
        return None
    padded = [a for a, w in enumerate(widths) if w != (0, 0)]
    if not padded:
        return None
    for a in padded:
        size, widest = shape[a], max(widths[a])
        if size == 0 or (mode == "reflect" and widest >= size) or (mode == "wrap" and widest > size):
            return None
    return widths, padded[0]


def padding_pairs(
    padding: Any, n: int, sizes: Sequence[int], windows: Sequence[int], strides: Sequence[int]
) -> list[tuple[int, int]]:
    """The spec's padding forms as one ``(lo, hi)`` pair per spatial axis.

    ``"VALID"``: none; ``"SAME"``: output size ``ceil(size / stride)``, the odd extra element on
    the high side; an int: that much on both sides of every axis; a sequence of ``(lo, hi)`` pairs
    (or ints), one per axis. ``windows`` are the effective (dilated) window sizes.

    Raises:
        ValueError: an unknown form, the wrong number of pairs, or a negative padding.
    """
    if isinstance(padding, str):
        mode = padding.upper()
        if mode == "VALID":
            return [(0, 0)] * n
        if mode == "SAME":
            out = []
            for size, k, s in zip(sizes, windows, strides):
                total = max((-(-size // s) - 1) * s + k - size, 0)
                out.append((total // 2, total - total // 2))
            return out
        raise ValueError(f"padding must be 'SAME', 'VALID', an int or (lo, hi) pairs, got {padding!r}")
    pads: list[tuple[int, int]]
    try:
        p = operator.index(padding)
        pads = [(p, p)] * n
    except TypeError:
        pads = []
        for q in padding:
            try:
                i = operator.index(q)
                pads.append((i, i))
            except TypeError:
                lo, hi = q
                pads.append((operator.index(lo), operator.index(hi)))
    if len(pads) != n:
        raise ValueError(f"padding needs {n} (lo, hi) pairs, got {padding!r}")
    if any(lo < 0 or hi < 0 for lo, hi in pads):
        raise ValueError(f"padding must be non-negative, got {padding!r}")
    return pads


def check_bias(bias: Any, channels: int, op: str) -> None:
    """Raise unless a convolution's ``bias`` has the shape ``[channels]`` (one value per output
    channel). Call it only when a bias was given, so that calls without one pay nothing.

    Raises:
        ValueError: naming the expected and the given shape.
    """
    shape = tuple(int(d) for d in bias.shape)
    if shape != (channels,):
        raise ValueError(
            f"ivy.{op}: bias must have shape ({channels},), one value per output channel, got shape {shape}"
        )


def add_channel_bias(y: Any, bias: Any, channels_last: bool) -> Any:
    """``y + bias`` with ``bias`` ``[channels]`` broadcast along the channel axis of ``y`` (the
    last, or axis 1): for backends whose convolution has no bias argument. ``bias`` must already
    be in the dtype of ``y`` (the framework's promotion applies otherwise)."""
    if channels_last:
        return y + bias
    return y + bias[(slice(None),) + (None,) * (len(y.shape) - 2)]


def bilinear_sample_layout(
    image: Any, coords: Any, is_real_float: Callable[[Any], bool]
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The axes of ``ivy.bilinear_sample(image, coords)``: ``(batch, samples)``, the broadcast
    batch axes ``B...`` and the sample axes ``S...`` of ``coords`` (the result is
    ``[*batch, *samples, c]``), after the checks every backend makes. ``is_real_float(dtype)``
    says whether a dtype of the backend is a real floating one.

    Raises:
        ValueError: ``image`` has fewer than 3 axes or no pixels, ``coords`` does not end in 2 or
            lacks the batch axes of ``image``, or the batch axes do not broadcast.
        TypeError: ``image`` or ``coords`` is not of a real floating dtype.
    """
    ishape = tuple(int(d) for d in image.shape)
    cshape = tuple(int(d) for d in coords.shape)
    if len(ishape) < 3:
        raise ValueError(f"ivy.bilinear_sample: expected an image of shape [..., h, w, c], got shape {list(ishape)}")
    if ishape[-3] == 0 or ishape[-2] == 0:
        raise ValueError(f"ivy.bilinear_sample: the image of shape {list(ishape)} has no pixels to sample")
    nb = len(ishape) - 3
    if len(cshape) < nb + 1 or cshape[-1] != 2:
        raise ValueError(
            f"ivy.bilinear_sample: expected coords of shape [B..., S..., 2] with the image's batch axes "
            f"B... = {list(ishape[:nb])} first, got shape {list(cshape)}"
        )
    for what, a in (("image", image), ("coords", coords)):
        if not is_real_float(a.dtype):
            raise TypeError(
                f"ivy.bilinear_sample: {what} must have a real floating dtype, got {a.dtype}; "
                "cast it with ivy.astype first"
            )
    batch = []
    for i, (a, b) in enumerate(zip(ishape[:nb], cshape[:nb])):
        if a != b and a != 1 and b != 1:
            raise ValueError(
                f"ivy.bilinear_sample: batch axis {i} of the image ({a}) and of coords ({b}) do not broadcast "
                f"(image of shape {list(ishape)}, coords of shape {list(cshape)})"
            )
        batch.append(b if a == 1 else a)
    return tuple(batch), cshape[nb:-1]


# --------------------------------------------------------------------------- op families


class ConvND(Protocol):
    """The N-d convolution :func:`conv_family` builds ``conv1d``/``conv2d``/``conv3d`` from.

    ``conv_nd(x, filters, strides, pads, dilations, channels_last)``, all normalised:

    * ``x``: the input, ``[batch, *spatial, channels]`` when ``channels_last`` is true (NWC,
      NHWC, NDHWC), else ``[batch, channels, *spatial]`` (NCW, NCHW, NCDHW); the result comes
      back in the same layout, ``[batch, *out_spatial, d_out]`` (or channels first);
    * ``filters``: as the spec lays them out, ``[*window, d_in, d_out]`` (``[fw, d_in, d_out]``
      for 1-d, ``[fh, fw, d_in, d_out]`` for 2-d...), whatever the data layout;
    * ``strides`` and ``dilations``: one int per spatial axis;
    * ``pads``: one ``(lo, hi)`` pair of zeros to add per spatial axis ("SAME" and "VALID"
      already worked out; the list is kept for the next call with the same arguments: read it,
      never modify it);
    * with ``conv_family(..., fused_bias=True)``, a seventh argument: the bias, ``[d_out]``
      (its shape checked), or ``None``.
    """

    def __call__(
        self,
        x: Any,
        filters: Any,
        strides: tuple[int, ...],
        pads: list[tuple[int, int]],
        dilations: tuple[int, ...],
        channels_last: bool,
        bias: Any = None,
        /,
    ) -> Any: ...


class ConvTransposeND(Protocol):
    """The N-d transposed convolution :func:`conv_transpose_family` builds
    ``conv1d_transpose``/``conv2d_transpose``/``conv3d_transpose`` from (the adjoint, or
    gradient, of the convolution with the same filters, strides, padding and dilations).

    ``conv_t_nd(x, filters, strides, pads, dilations, channels_last, out_sizes)``:

    * ``x``: the input, ``[batch, *spatial, d_in]`` when ``channels_last`` (else channels first);
      the result in the same layout, with ``d_out`` channels and the spatial sizes ``out_sizes``;
    * ``filters``: as the spec lays them out for a transposed convolution, ``[*window, d_out,
      d_in]`` (the output channels before the input ones);
    * ``strides``, ``dilations``: one int per spatial axis;
    * ``pads``: one ``(lo, hi)`` pair per spatial axis: what the forward convolution would have
      padded, to cut from the full result (whose size along an axis is ``(in - 1) * stride +
      dilation * (f - 1) + 1``), starting ``lo`` from its beginning;
    * ``out_sizes``: the spatial sizes the result must have; at most ``stride - 1`` more than the
      full result less the padding: the extra positions are zeros (they receive no input);
    * with ``fused_bias=True``, an eighth argument: the bias ``[d_out]`` or ``None``.
    """

    def __call__(
        self,
        x: Any,
        filters: Any,
        strides: tuple[int, ...],
        pads: list[tuple[int, int]],
        dilations: tuple[int, ...],
        channels_last: bool,
        out_sizes: tuple[int, ...],
        bias: Any = None,
        /,
    ) -> Any: ...


class PoolND(Protocol):
    """The N-d max pool :func:`pool_family` builds ``max_pool{n}d`` from.

    ``max_nd(x, kernel, strides, pads, channels_last)``: ``x`` and the result laid out as for
    :class:`ConvND` (channels unchanged); ``kernel`` and ``strides`` one int per spatial axis;
    ``pads`` one ``(lo, hi)`` pair per spatial axis (kept for the next call: never modify the
    list), positions that no max may take (pad with the lowest value, or leave them out).
    """

    def __call__(
        self,
        x: Any,
        kernel: tuple[int, ...],
        strides: tuple[int, ...],
        pads: list[tuple[int, int]],
        channels_last: bool,
        /,
    ) -> Any: ...


class AvgPoolND(Protocol):
    """The N-d average pool :func:`pool_family` builds ``avg_pool{n}d`` from.

    ``avg_nd(x, kernel, strides, pads, channels_last, count_include_pad)``: the arguments of
    :class:`PoolND`; the padded positions count in a window's divisor only with
    ``count_include_pad``.
    """

    def __call__(
        self,
        x: Any,
        kernel: tuple[int, ...],
        strides: tuple[int, ...],
        pads: list[tuple[int, int]],
        channels_last: bool,
        count_include_pad: bool,
        /,
    ) -> Any: ...


def _spatial(x: Any, n: int, last: bool) -> list[int]:
    shape = x.shape
    if len(shape) != n + 2:
        raise ValueError(f"expected an input of {n + 2} dimensions (batch, {n} spatial, channels), got {len(shape)}")
    return [int(v) for v in (shape[1:-1] if last else shape[2:])]


def conv_output_sizes(
    x: Any,
    window: Sequence[Any],
    strides: Sequence[int],
    pads: Sequence[tuple[int, int]],
    dilations: Sequence[int],
    channels_last: bool,
) -> list[int] | None:
    """The spatial output sizes of a convolution of ``x`` (normalised arguments, as a
    :class:`ConvND` receives them), or ``None`` where a spatial size is unknown (while a compiler
    traces with dynamic shapes)."""
    shape = tuple(x.shape)
    sizes = shape[1:-1] if channels_last else shape[2:]
    if len(sizes) != len(strides) or any(v is None for v in sizes):
        return None
    return [
        (int(i) + lo + hi - d * (int(k) - 1) - 1) // s + 1
        for i, k, s, (lo, hi), d in zip(sizes, window, strides, pads, dilations)
    ]


def tiny_conv_outputs(
    x: Any,
    window: Sequence[Any],
    strides: Sequence[int],
    pads: Sequence[tuple[int, int]],
    dilations: Sequence[int],
    channels_last: bool,
) -> list[int] | None:
    """:func:`conv_output_sizes` where each is 1 or 2, else ``None``. Such an output is a window
    over about all of the input (a deep CNN's last stages on small images), which a backend may
    compute as one matrix product: the window's positions side by side, times the filters as a
    matrix."""
    outs = conv_output_sizes(x, window, strides, pads, dilations, channels_last)
    return outs if outs is not None and all(0 < o <= 2 for o in outs) else None


def _effective(windows: Sequence[int], dilations: Sequence[int]) -> list[int]:
    return [d * (k - 1) + 1 for k, d in zip(windows, dilations)]


#: (op, n, the input's and the filters' shapes, the window arguments with the types of the
#: scalars among them) -> the normalised arguments: a model calls each layer with the same ones on
#: every step, and working them out costs microseconds of Python per call. The types are in the
#: key because ``1``, ``1.0`` and ``True`` are equal keys but not equally valid arguments.
_WINDOWS: dict[Any, Any] = {}
_WINDOWS_MAX = 4096


def _hashable(item: Any) -> Any:
    try:
        hash(item)
    except TypeError:
        return tuple(item)
    return item


def _cache_get(key: tuple[Any, ...], no_cache: Callable[[], bool] | None) -> tuple[Any, Any]:
    """``(key, the cached value)``, the key's unhashable sequences made tuples where it holds any
    (paddle's shapes, lists of ints); ``(None, None)`` where it still cannot be hashed (nested
    lists) or ``no_cache()`` is true."""
    if no_cache is not None and no_cache():
        return None, None
    try:
        return key, _WINDOWS.get(key)
    except TypeError:
        pass
    try:
        key = tuple(map(_hashable, key))
        return key, _WINDOWS.get(key)
    except TypeError:
        return None, None


def _cache_put(key: Any, value: Any) -> Any:
    if key is not None and len(_WINDOWS) < _WINDOWS_MAX:
        _WINDOWS[key] = value
    return value


def conv_family(
    conv_nd: ConvND,
    dims: Sequence[int] = (1, 2, 3),
    *,
    fused_bias: bool = False,
    no_cache: Callable[[], bool] | None = None,
    depthwise: bool = False,
    conv_nd_oi: ConvND | None = None,
) -> dict[str, Callable[..., Any]]:
    """``conv1d``/``conv2d``/``conv3d`` with the spec's signatures, from one N-d convolution.

    The ops normalise what the specs accept (layouts, an int or a sequence of strides and
    dilations, ``"SAME"``/``"VALID"``/int/pairs padding) and call ``conv_nd`` (see
    :class:`ConvND`) with explicit values. Use it as ``globals().update(conv_family(_conv))`` in
    the plugin's ``nn`` module (and list the names in ``__all__``), or merge it into the ops.
    ``bias`` is checked against the filters' output channels; ``fused_bias=True`` hands it to
    ``conv_nd`` (a framework convolution with a bias argument), otherwise it is added to the
    result with :func:`add_channel_bias`.

    Filters given channels first (``filter_format="OIHW"``...) go to ``conv_nd_oi``, the same
    convolution taking filters ``[d_out, d_in, *window]`` (a framework whose own layout that is
    calls it without permuting them); without one they are permuted to ``[*window, d_in, d_out]``
    (``ivy.permute_dims``) for ``conv_nd``.

    The normalised arguments are worked out once per signature (shapes, layout, strides,
    padding, dilations) and kept, so that a layer called again with the same ones costs one
    dictionary look-up. ``no_cache``: called on every call, where it returns true the arguments
    are worked out afresh and not kept (``torch.compiler.is_compiling``: a tracer that would
    replay the cache's writes).

    ``depthwise=True`` builds ``depthwise_conv{n}d`` instead (``dims=(2,)`` for the spec's
    ``depthwise_conv2d``): ``conv_nd`` then receives filters ``[*window, channels]``, one filter
    per channel, and the bias has one value per channel (no ``filter_format``).
    """
    out: dict[str, Callable[..., Any]] = {}
    for n in dims:
        name = f"depthwise_conv{n}d" if depthwise else f"conv{n}d"
        common = _conv_common(conv_nd, conv_nd_oi, n, name, fused_bias, no_cache)
        default, filters_default = _LAYOUTS[n][0], _FILTER_LAYOUTS[n][0]
        if depthwise:

            def depthwise_conv(
                x: Any,
                filters: Any,
                strides: Any,
                padding: Any,
                /,
                *,
                data_format: str = default,
                dilations: Any = 1,
                bias: Any = None,
                _common: Callable[..., Any] = common,
            ) -> Any:
                return _common(x, filters, strides, padding, data_format, dilations, bias, True)

            op = depthwise_conv

        else:

            def conv(
                x: Any,
                filters: Any,
                strides: Any,
                padding: Any,
                /,
                *,
                data_format: str = default,
                dilations: Any = 1,
                bias: Any = None,
                filter_format: str = filters_default,
                _common: Callable[..., Any] = common,
                _default: str = filters_default,
                _n: int = n,
            ) -> Any:
                last_f = True if filter_format == _default else filters_last(filter_format, _n)
                return _common(x, filters, strides, padding, data_format, dilations, bias, last_f)

            op = conv
        op.__name__ = op.__qualname__ = name
        out[name] = op
    return out


def _conv_common(
    conv_nd: ConvND,
    conv_nd_oi: ConvND | None,
    n: int,
    name: str,
    fused_bias: bool,
    no_cache: Callable[[], bool] | None,
) -> Callable[..., Any]:
    """The body of one op of :func:`conv_family`, given whether the filters are channels last."""
    perm = (*range(2, n + 2), 1, 0)  # [d_out, d_in, *window] -> [*window, d_in, d_out]

    def common(
        x: Any, filters: Any, strides: Any, padding: Any, data_format: str, dilations: Any, bias: Any, last_f: bool
    ) -> Any:
        xs, fs = x.shape, filters.shape
        if isinstance(xs, list):  # paddle's shapes are lists, which a key cannot hold
            xs, fs = tuple(xs), tuple(fs)
        key, got = _cache_get(
            (
                name,
                n,
                xs,
                fs,
                data_format,
                strides,
                type(strides),
                padding,
                type(padding),
                dilations,
                type(dilations),
                last_f,
            ),
            no_cache,
        )
        if got is None:
            last = channels_last(data_format, n)
            s, d = ntuple(strides, n, "strides"), ntuple(dilations, n, "dilations")
            k = [int(f) for f in (filters.shape[:n] if last_f else filters.shape[2:])]
            pads = padding_pairs(padding, n, _spatial(x, n, last), _effective(k, d), s)
            got = _cache_put(key, (s, pads, d, last))
        s, pads, d, last = got
        if bias is not None:
            check_bias(bias, int(filters.shape[-1] if last_f else filters.shape[0]), name)
        fn = conv_nd
        if not last_f:
            if conv_nd_oi is not None:
                fn = conv_nd_oi
            else:
                import ivy  # (the plugin's own permute_dims, through dispatch)

                filters = ivy.permute_dims(filters, perm)
        if fused_bias:
            return fn(x, filters, s, pads, d, last, bias)
        y = fn(x, filters, s, pads, d, last)
        return y if bias is None else add_channel_bias(y, bias, last)

    return common


def _transpose_args(
    n: int, x: Any, filters: Any, strides: Any, padding: Any, output_shape: Any, data_format: str, dilations: Any
) -> tuple[tuple[int, ...], list[tuple[int, int]], tuple[int, ...], bool, tuple[int, ...]]:
    last = channels_last(data_format, n)
    s, d = ntuple(strides, n, "strides"), ntuple(dilations, n, "dilations")
    sizes = _spatial(x, n, last)
    eff = _effective([int(f) for f in filters.shape[:n]], d)
    same = isinstance(padding, str) and padding.upper() == "SAME"
    if output_shape is not None:
        shape = [operator.index(o) for o in output_shape]
        if len(shape) == n + 2:  # a whole output shape: its spatial part
            shape = shape[1:-1] if last else shape[2:]
        outs = list(ntuple(shape, n, "output_shape"))
    elif same:
        outs = [i * si for i, si in zip(sizes, s)]
    else:
        pairs = padding_pairs(padding, n, sizes, eff, s)
        outs = [(i - 1) * si + e - lo - hi for i, si, e, (lo, hi) in zip(sizes, s, eff, pairs)]
    if same:  # the forward "SAME" padding that maps an input of the output's size to ``x``'s
        pads = []
        for i, o, si, e in zip(sizes, outs, s, eff):
            total = max((i - 1) * si + e - o, 0)
            pads.append((total // 2, total - total // 2))
    else:
        pads = padding_pairs(padding, n, outs, eff, s)
    for i, o, si, e, (lo, hi) in zip(sizes, outs, s, eff, pads):
        smallest = (i - 1) * si + e - lo - hi
        if not smallest <= o < smallest + si:
            raise ValueError(
                f"output_shape {tuple(outs)} is inconsistent with the input, strides and padding "
                f"(a size from {smallest} to {smallest + si - 1} along each axis)"
            )
    return s, pads, d, last, tuple(outs)


def conv_transpose_family(
    conv_t_nd: ConvTransposeND,
    dims: Sequence[int] = (1, 2, 3),
    *,
    fused_bias: bool = False,
    no_cache: Callable[[], bool] | None = None,
) -> dict[str, Callable[..., Any]]:
    """``conv1d_transpose``/``conv2d_transpose``/``conv3d_transpose`` from one N-d transposed
    convolution (see :class:`ConvTransposeND`): the output sizes follow the spec (``in * stride``
    for ``"SAME"``, ``(in - 1) * stride + dilation * (f - 1) + 1 - lo - hi`` otherwise, or
    ``output_shape``, its spatial sizes or the whole shape), and so does the padding removed from
    the full result. ``bias`` as in :func:`conv_family` (``fused_bias=True``: an eighth argument
    of ``conv_t_nd``); the arguments are kept per signature as there (``no_cache`` too)."""
    out: dict[str, Callable[..., Any]] = {}
    for n in dims:
        default = _LAYOUTS[n][0]

        def conv_t(
            x: Any,
            filters: Any,
            strides: Any,
            padding: Any,
            /,
            *,
            output_shape: Any = None,
            data_format: str = default,
            dilations: Any = 1,
            bias: Any = None,
            _n: int = n,
        ) -> Any:
            xs, fs = x.shape, filters.shape
            if isinstance(xs, list):  # paddle's shapes are lists, which a key cannot hold
                xs, fs = tuple(xs), tuple(fs)
            key, got = _cache_get(
                (
                    "conv_t",
                    _n,
                    xs,
                    fs,
                    data_format,
                    strides,
                    type(strides),
                    padding,
                    type(padding),
                    dilations,
                    type(dilations),
                    output_shape,
                ),
                no_cache,
            )
            if got is None:
                got = _cache_put(
                    key, _transpose_args(_n, x, filters, strides, padding, output_shape, data_format, dilations)
                )
            s, pads, d, last, outs = got
            if bias is not None:
                check_bias(bias, int(filters.shape[-2]), f"conv{_n}d_transpose")
            if fused_bias:
                return conv_t_nd(x, filters, s, pads, d, last, outs, bias)
            y = conv_t_nd(x, filters, s, pads, d, last, outs)
            return y if bias is None else add_channel_bias(y, bias, last)

        conv_t.__name__ = conv_t.__qualname__ = f"conv{n}d_transpose"
        out[f"conv{n}d_transpose"] = conv_t
    return out


def _pool_args(
    x: Any, kernel: Any, strides: Any, padding: Any, data_format: str, n: int, no_cache: Callable[[], bool] | None
) -> tuple[tuple[int, ...], tuple[int, ...], list[tuple[int, int]], bool]:
    xs = x.shape
    if isinstance(xs, list):  # paddle's shapes are lists, which a key cannot hold
        xs = tuple(xs)
    key, got = _cache_get(
        (
            "pool",
            n,
            xs,
            data_format,
            kernel,
            type(kernel),
            strides,
            type(strides),
            padding,
            type(padding),
        ),
        no_cache,
    )
    if got is None:
        last = channels_last(data_format, n)
        k, s = ntuple(kernel, n, "kernel"), ntuple(strides, n, "strides")
        got = _cache_put(key, (k, s, padding_pairs(padding, n, _spatial(x, n, last), k, s), last))
    return got


def pool_family(
    max_nd: PoolND | None = None,
    avg_nd: AvgPoolND | None = None,
    dims: Sequence[int] = (1, 2, 3),
    *,
    no_cache: Callable[[], bool] | None = None,
) -> dict[str, Callable[..., Any]]:
    """``max_pool{n}d`` and ``avg_pool{n}d`` from N-d pooling functions (see :class:`PoolND`,
    :class:`AvgPoolND`);
    the arguments are kept per signature as in :func:`conv_family` (``no_cache`` too)."""
    out: dict[str, Callable[..., Any]] = {}
    for n in dims:
        default = _LAYOUTS[n][0]
        if max_nd is not None:

            def max_pool(
                x: Any, kernel: Any, strides: Any, padding: Any, /, *, data_format: str = default, _n: int = n
            ) -> Any:
                k, s, pads, last = _pool_args(x, kernel, strides, padding, data_format, _n, no_cache)
                return max_nd(x, k, s, pads, last)

            max_pool.__name__ = max_pool.__qualname__ = f"max_pool{n}d"
            out[f"max_pool{n}d"] = max_pool
        if avg_nd is not None:

            def avg_pool(
                x: Any,
                kernel: Any,
                strides: Any,
                padding: Any,
                /,
                *,
                data_format: str = default,
                count_include_pad: bool = False,
                _n: int = n,
            ) -> Any:
                k, s, pads, last = _pool_args(x, kernel, strides, padding, data_format, _n, no_cache)
                return avg_nd(x, k, s, pads, last, count_include_pad)

            avg_pool.__name__ = avg_pool.__qualname__ = f"avg_pool{n}d"
            out[f"avg_pool{n}d"] = avg_pool
    return out
