"""Rendering with array code: an RGB canvas in world coordinates, painted with signed distances.

Each shape is given by its signed distance ``d`` to every pixel centre (negative inside), and is
blended in with coverage ``clip(0.5 - d / pixel, 0, 1)``: one pixel of anti-aliasing, no
rasteriser or windowing library needed, on any backend.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import ivy

__all__ = ["Canvas"]

Array = Any
Color = Sequence[float]


class Canvas:
    """An RGB image (float32 in ``[0, 1]``) showing the world window ``view``, y pointing up.

    Args:
        height: image height in pixels.
        width: image width in pixels.
        view: ``(xmin, xmax, ymin, ymax)``, the world rectangle the image shows.
        backend: Ivy backend of the image arrays.
        device: device of the image arrays.
        background: RGB colour the canvas starts with.
    """

    def __init__(
        self,
        height: int,
        width: int,
        view: tuple[float, float, float, float],
        *,
        backend: str,
        device: Any = None,
        background: Color = (1.0, 1.0, 1.0),
    ) -> None:
        xmin, xmax, ymin, ymax = view
        self.backend = backend
        self.device = device
        # the larger of the two pixel sizes, so that anti-aliasing is never sharper than a pixel
        self.pixel = max((xmax - xmin) / width, (ymax - ymin) / height)
        cols = ivy.arange(width, dtype="float32", device=device, backend=backend)
        rows = ivy.arange(height, dtype="float32", device=device, backend=backend)
        xs = xmin + (cols + 0.5) * ((xmax - xmin) / width)
        ys = ymax - (rows + 0.5) * ((ymax - ymin) / height)  # row 0 is the top of the image
        self.x, self.y = ivy.meshgrid(xs, ys, indexing="xy")  # each [height, width]
        self.image = ivy.ones((height, width, 3), dtype="float32", device=device, backend=backend) * self._color(
            background
        )

    def _color(self, color: Color) -> Array:
        return ivy.asarray([float(c) for c in color], dtype="float32", device=self.device, backend=self.backend)

    def paint(self, distance: Array, color: Color) -> None:
        """Blend ``color`` in where the signed distance ``[height, width]`` is negative."""
        coverage = ivy.clip(0.5 - distance / self.pixel, 0.0, 1.0)
        coverage = ivy.expand_dims(coverage, axis=-1)
        self.image = self.image + coverage * (self._color(color) - self.image)

    def circle(self, cx: float, cy: float, radius: float, color: Color) -> None:
        """A filled disc of centre ``(cx, cy)``."""
        self.paint(ivy.sqrt(ivy.square(self.x - cx) + ivy.square(self.y - cy)) - radius, color)

    def segment(self, x0: float, y0: float, x1: float, y1: float, half_width: float, color: Color) -> None:
        """A thick line from ``(x0, y0)`` to ``(x1, y1)`` with round ends."""
        dx, dy = x1 - x0, y1 - y0
        length2 = dx * dx + dy * dy
        if length2 > 0.0:
            # where along the segment the nearest point lies, as a fraction of its length
            t = ivy.clip(((self.x - x0) * dx + (self.y - y0) * dy) / length2, 0.0, 1.0)
        else:
            t = ivy.zeros_like(self.x)
        distance = ivy.sqrt(ivy.square(self.x - x0 - t * dx) + ivy.square(self.y - y0 - t * dy))
        self.paint(distance - half_width, color)

    def box(self, cx: float, cy: float, half_width: float, half_height: float, color: Color) -> None:
        """A filled axis-aligned rectangle of centre ``(cx, cy)``."""
        distance = ivy.maximum(ivy.abs(self.x - cx) - half_width, ivy.abs(self.y - cy) - half_height)
        self.paint(distance, color)

    def to_uint8(self) -> Array:
        """The image as a native uint8 array ``[height, width, 3]``."""
        return ivy.astype(ivy.round(ivy.clip(self.image, 0.0, 1.0) * 255.0), "uint8")
