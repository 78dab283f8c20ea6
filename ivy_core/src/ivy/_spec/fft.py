"""The ``fft`` extension (Array API 2024.12, "Fourier Transform Functions").

Registered as ``fft.<name>``. ``norm`` selects the scaling: ``"backward"`` (the default) leaves the
forward transform unscaled and scales the inverse by ``1/n``; ``"ortho"`` scales both by
``1/sqrt(n)``; ``"forward"`` scales the forward transform by ``1/n`` and leaves the inverse
unscaled. ``n`` / ``s`` give transform lengths: the input is zero-padded or trimmed along each
transformed axis to that length (``None`` keeps the input size). Complex results have the complex
dtype matching the precision of the input, real results the matching real floating-point dtype.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from ._base import Array, Device, DType, spec


@spec
def fft(
    x: Array,
    /,
    *,
    n: int | None = None,
    axis: int = -1,
    norm: Literal["backward", "ortho", "forward"] = "backward",
) -> Array:
    """One-dimensional discrete Fourier transform.

    Args:
        x: input array, complex floating-point.
        n: transform length along ``axis`` (pad with zeros or trim); ``None`` keeps the input size.
        axis: axis to transform.
        norm: normalization mode (see the module notes).

    Returns:
        A complex array with the shape of ``x`` except that ``axis`` has size ``n``.
    """


@spec
def ifft(
    x: Array,
    /,
    *,
    n: int | None = None,
    axis: int = -1,
    norm: Literal["backward", "ortho", "forward"] = "backward",
) -> Array:
    """One-dimensional inverse discrete Fourier transform.

    Args:
        x: input array, complex floating-point.
        n: transform length along ``axis`` (pad with zeros or trim); ``None`` keeps the input size.
        axis: axis to transform.
        norm: normalization mode (see the module notes).

    Returns:
        A complex array with the shape of ``x`` except that ``axis`` has size ``n``.
    """


@spec
def fftn(
    x: Array,
    /,
    *,
    s: Sequence[int] | None = None,
    axes: Sequence[int] | None = None,
    norm: Literal["backward", "ortho", "forward"] = "backward",
) -> Array:
    """N-dimensional discrete Fourier transform.

    Args:
        x: input array, complex floating-point.
        s: transform length per transformed axis (``-1`` keeps that axis' size); ``None`` keeps
            all sizes.
        axes: axes to transform; ``None`` means all axes, or the last ``len(s)`` axes if ``s`` is
            given. Repeated axes give unspecified results.
        norm: normalization mode (see the module notes).

    Returns:
        A complex array with the shape of ``x`` except along the transformed axes, sized by ``s``.
    """


@spec
def ifftn(
    x: Array,
    /,
    *,
    s: Sequence[int] | None = None,
    axes: Sequence[int] | None = None,
    norm: Literal["backward", "ortho", "forward"] = "backward",
) -> Array:
    """N-dimensional inverse discrete Fourier transform.

    Args:
        x: input array, complex floating-point.
        s: transform length per transformed axis (``-1`` keeps that axis' size); ``None`` keeps
            all sizes.
        axes: axes to transform; ``None`` means all axes, or the last ``len(s)`` axes if ``s`` is
            given. Repeated axes give unspecified results.
        norm: normalization mode (see the module notes).

    Returns:
        A complex array with the shape of ``x`` except along the transformed axes, sized by ``s``.
    """


@spec
def rfft(
    x: Array,
    /,
    *,
    n: int | None = None,
    axis: int = -1,
    norm: Literal["backward", "ortho", "forward"] = "backward",
) -> Array:
    """One-dimensional discrete Fourier transform of real input (non-negative frequencies only).

    Args:
        x: input array, real floating-point.
        n: transform length along ``axis`` (pad with zeros or trim); ``None`` keeps the input size.
        axis: axis to transform.
        norm: normalization mode (see the module notes).

    Returns:
        A complex array with the shape of ``x`` except that ``axis`` has size ``n // 2 + 1``.
    """


@spec
def irfft(
    x: Array,
    /,
    *,
    n: int | None = None,
    axis: int = -1,
    norm: Literal["backward", "ortho", "forward"] = "backward",
) -> Array:
    """Inverse of ``rfft``: a real signal from its non-negative-frequency spectrum.

    Args:
        x: input array, complex floating-point (a half-spectrum, Hermitian symmetry assumed).
        n: length of the real output along ``axis``; the input is trimmed or zero-padded to
            ``n // 2 + 1`` points. ``None`` means ``2 * (m - 1)`` with ``m`` the input size.
        axis: axis to transform.
        norm: normalization mode (see the module notes).

    Returns:
        A real array with the shape of ``x`` except that ``axis`` has size ``n``.
    """


@spec
def rfftn(
    x: Array,
    /,
    *,
    s: Sequence[int] | None = None,
    axes: Sequence[int] | None = None,
    norm: Literal["backward", "ortho", "forward"] = "backward",
) -> Array:
    """N-dimensional discrete Fourier transform of real input.

    The last transformed axis is handled as in ``rfft`` (only non-negative frequencies kept); the
    others as in ``fft``.

    Args:
        x: input array, real floating-point.
        s: transform length per transformed axis (``-1`` keeps that axis' size); ``None`` keeps
            all sizes.
        axes: axes to transform; ``None`` means all axes, or the last ``len(s)`` axes if ``s`` is
            given. Repeated axes give unspecified results.
        norm: normalization mode (see the module notes).

    Returns:
        A complex array shaped like ``x`` with the transformed axes sized by ``s``, except the
        last transformed axis, which has size ``s[-1] // 2 + 1``.
    """


@spec
def irfftn(
    x: Array,
    /,
    *,
    s: Sequence[int] | None = None,
    axes: Sequence[int] | None = None,
    norm: Literal["backward", "ortho", "forward"] = "backward",
) -> Array:
    """Inverse of ``rfftn``: an N-dimensional real signal from its half-spectrum.

    Args:
        x: input array, complex floating-point.
        s: output length per transformed axis. For the last transformed axis ``None`` (or
            ``-1``) means ``2 * (m - 1)`` with ``m`` the input size; other axes keep their size.
        axes: axes to transform; ``None`` means all axes, or the last ``len(s)`` axes if ``s`` is
            given. Repeated axes give unspecified results.
        norm: normalization mode (see the module notes).

    Returns:
        A real array shaped like ``x`` with the transformed axes sized as resolved from ``s``.
    """


@spec
def hfft(
    x: Array,
    /,
    *,
    n: int | None = None,
    axis: int = -1,
    norm: Literal["backward", "ortho", "forward"] = "backward",
) -> Array:
    """One-dimensional discrete Fourier transform of a signal with Hermitian symmetry.

    The input holds the non-negative-frequency half of the signal; the output spectrum is real.

    Args:
        x: input array, complex floating-point.
        n: length of the real output along ``axis``; ``None`` means ``2 * (m - 1)`` with ``m`` the
            input size.
        axis: axis to transform.
        norm: normalization mode (see the module notes).

    Returns:
        A real array with the shape of ``x`` except that ``axis`` has size ``n``.
    """


@spec
def ihfft(
    x: Array,
    /,
    *,
    n: int | None = None,
    axis: int = -1,
    norm: Literal["backward", "ortho", "forward"] = "backward",
) -> Array:
    """Inverse of ``hfft``: the Hermitian half-spectrum of a real signal.

    Args:
        x: input array, real floating-point.
        n: transform length along ``axis`` (pad with zeros or trim); ``None`` keeps the input size.
        axis: axis to transform.
        norm: normalization mode (see the module notes).

    Returns:
        A complex array with the shape of ``x`` except that ``axis`` has size ``n // 2 + 1``.
    """


@spec
def fftfreq(
    n: int,
    /,
    *,
    d: float = 1.0,
    dtype: DType | None = None,
    device: Device | None = None,
) -> Array:
    """Sample frequencies of a discrete Fourier transform of length ``n``.

    The values are ``[0, 1, ..., (n - 1) // 2, -(n // 2), ..., -1] / (d * n)``.

    Args:
        n: window length.
        d: sample spacing (inverse of the sampling rate).
        dtype: output dtype, real floating-point; ``None`` means the default real floating-point
            dtype.
        device: device to place the result on.

    Returns:
        A 1-D array of length ``n``.
    """


@spec
def rfftfreq(
    n: int,
    /,
    *,
    d: float = 1.0,
    dtype: DType | None = None,
    device: Device | None = None,
) -> Array:
    """Non-negative sample frequencies of a real-input transform (``rfft``) of length ``n``.

    The values are ``[0, 1, ..., n // 2] / (d * n)``.

    Args:
        n: window length.
        d: sample spacing (inverse of the sampling rate).
        dtype: output dtype, real floating-point; ``None`` means the default real floating-point
            dtype.
        device: device to place the result on.

    Returns:
        A 1-D array of length ``n // 2 + 1``.
    """


@spec
def fftshift(x: Array, /, *, axes: int | Sequence[int] | None = None) -> Array:
    """Move the zero-frequency component to the centre of the spectrum.

    Each listed axis of size ``k`` is rolled by ``k // 2``.

    Args:
        x: input array, floating-point.
        axes: axis or axes to shift; ``None`` shifts all axes.

    Returns:
        An array of the same shape and dtype as ``x``.
    """


@spec
def ifftshift(x: Array, /, *, axes: int | Sequence[int] | None = None) -> Array:
    """Inverse of ``fftshift``: move the zero-frequency component back to the start.

    Each listed axis of size ``k`` is rolled by ``-(k // 2)``.

    Args:
        x: input array, floating-point.
        axes: axis or axes to shift; ``None`` shifts all axes.

    Returns:
        An array of the same shape and dtype as ``x``.
    """
