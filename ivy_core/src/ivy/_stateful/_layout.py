"""Layouts of the layers' inputs, and input checks whose errors say which layout was expected.

Channels: ``data_format`` names (torch users pass channel-first arrays, Keras users channel-last
ones). Sequences: ``batch_first`` (torch's meaning; Keras' layout, ``[batch, time, features]``,
is ``batch_first=True``, the default of Ivy's layers; torch's recurrent and attention layers
default to ``batch_first=False``, ``[time, batch, features]``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

__all__ = [
    "canonical_format",
    "channel_axis",
    "check_input",
    "as_tuple",
    "padding",
    "is_integer",
    "is_bool",
    "sequence_layout",
    "check_sequence",
    "check_batch",
    "size",
]


# Read from the dtype's name rather than with ivy.isdtype: dispatching on a dtype inside a
# gradient transform breaks torch.compile's tracing (dynamo's fake-tensor check fails).
def is_integer(x: Any) -> bool:
    """Whether the native array ``x`` has an integer dtype (signed or unsigned)."""
    return "int" in str(x.dtype).lower()


def is_bool(x: Any) -> bool:
    """Whether the native array ``x`` has a boolean dtype."""
    return "bool" in str(x.dtype).lower()


#: spatial letters per number of spatial axes
_SPATIAL = {1: "W", 2: "HW", 3: "DHW"}
_NAMES = {"W": "width", "H": "height", "D": "depth"}


def as_tuple(x: int | Sequence[int], n: int) -> tuple[int, ...]:
    """``x`` repeated ``n`` times if an int, else ``tuple(x)``."""
    return (int(x),) * n if isinstance(x, int) else tuple(int(v) for v in x)


def canonical_format(data_format: str | None, nd: int, default_last: bool = True) -> str:
    """``"NHWC"``-style name for ``nd`` spatial axes of ``data_format``: a name of that style, or
    Keras' ``"channels_last"`` / ``"channels_first"``; ``None``: channel-last (or first)."""
    spatial = _SPATIAL[nd]
    last, first = f"N{spatial}C", f"NC{spatial}"
    if data_format is None:
        return last if default_last else first
    f = str(data_format)
    if f.lower() in ("channels_last", "last"):
        return last
    if f.lower() in ("channels_first", "first"):
        return first
    if f.upper() in (last, first):
        return f.upper()
    raise ValueError(
        f"data_format must be {last!r} or {first!r} (or 'channels_last' / 'channels_first'), got {data_format!r}"
    )


def channel_axis(data_format: str) -> int:
    """1 for a channel-first layout (``"NC..."``), -1 for a channel-last one."""
    return 1 if data_format.upper().startswith("NC") else -1


def _layout_text(data_format: str) -> str:
    names = [("batch" if c == "N" else "channels" if c == "C" else _NAMES[c]) for c in data_format]
    return "[" + ", ".join(names) + "]"


def check_input(layer: Any, x: Any, data_format: str, channels: int | None = None) -> None:
    """Raise a ValueError naming the expected layout if ``x`` has the wrong rank, or ``channels``
    (when known) does not match the size of its channel axis."""
    shape = tuple(x.shape)
    rank = len(data_format)
    name = type(layer).__name__
    if len(shape) != rank:
        raise ValueError(
            f"{name} expects a rank-{rank} input {_layout_text(data_format)} "
            f"(data_format={data_format!r}), got shape {shape}"
        )
    if channels is None:
        return
    ax = channel_axis(data_format)
    if shape[ax] is not None and int(shape[ax]) != channels:
        other = (
            data_format[0] + data_format[-1] + data_format[1:-1]
            if ax == -1
            else data_format[0] + data_format[2:] + data_format[1]
        )
        hint = ""
        alt = 1 if ax == -1 else -1
        if shape[alt] is not None and int(shape[alt]) == channels:
            hint = f"; the input looks {'channel-first' if ax == -1 else 'channel-last'}: pass data_format={other!r}"
        raise ValueError(
            f"{name} expects {channels} channels on axis {ax} of a {_layout_text(data_format)} input "
            f"(data_format={data_format!r}), got shape {shape}{hint}"
        )


def padding(p: Any) -> Any:
    """Padding as Ivy's ops take it: Keras' lower-case ``"same"`` / ``"valid"`` upper-cased."""
    return p.upper() if isinstance(p, str) else p


# ------------------------------------------------------------------ sequences


def sequence_layout(batch_first: bool, features: int | str = "features", length: str = "time") -> str:
    """``[batch, time, features]`` (``batch_first``) or ``[time, batch, features]``."""
    return f"[batch, {length}, {features}]" if batch_first else f"[{length}, batch, {features}]"


def _sequence_text(batch_first: bool) -> str:
    return "batch_first=True: batch first" if batch_first else "batch_first=False: sequence first, as torch's default"


def check_sequence(
    layer: Any, x: Any, batch_first: bool, features: int, *, what: str = "input", length: str = "time"
) -> None:
    """Raise a ValueError naming the expected layout if ``x`` is not rank 3 with ``features`` on
    its last axis."""
    shape = tuple(x.shape)
    if len(shape) != 3 or (shape[-1] is not None and int(shape[-1]) != features):
        raise ValueError(
            f"{type(layer).__name__} expects the {what} {sequence_layout(batch_first, features, length)} "
            f"({_sequence_text(batch_first)}; features last), got shape {shape}"
        )


def size(d: Any) -> int | None:
    """A dimension as an int, ``None`` where unknown (a traced shape)."""
    return None if d is None else int(d)


def check_batch(
    layer: Any,
    batch_first: bool,
    found: dict[str, int | None],
    others: dict[str, int | None],
    *,
    length: str = "length",
) -> None:
    """Raise a ValueError if the batch sizes ``found`` (name -> size on the batch axis of the
    layout; ``None``: unknown, not compared) differ; ``others`` holds the sizes on the other
    leading axis, or what those would be in the other layout: where they agree, the error says
    the input looks laid out the other way."""
    if len({v for v in found.values() if v is not None}) <= 1:
        return
    sizes = ", ".join(f"{k} {v}" for k, v in found.items())
    hint = ""
    if None not in others.values() and len(set(others.values())) == 1:
        hint = (
            f"; they agree on axis {1 if batch_first else 0}: the input looks "
            f"{'sequence' if batch_first else 'batch'}-first, pass batch_first={not batch_first}"
        )
    raise ValueError(
        f"{type(layer).__name__}: the batch sizes differ ({sizes}) on axis {0 if batch_first else 1}, the "
        f"batch axis of {sequence_layout(batch_first, length=length)} ({_sequence_text(batch_first)}){hint}"
    )
