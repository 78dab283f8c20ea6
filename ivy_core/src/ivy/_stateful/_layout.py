"""Channel layouts of the layers: ``data_format`` names, and input checks whose errors say which
layout was expected (torch users pass channel-first arrays, Keras users channel-last ones)."""

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
