"""``ivy.bilinear_sample`` on the backend under test, beyond the conformance kit's checks (values
at borders and outside, batch axes, dtypes, errors, gradients at a few points): the gradients of
the backend's own sampler (``grid_sample`` on torch and paddle, ``map_coordinates`` on JAX, core's
composition elsewhere) over a dense set of points against the derivative of the bilinear blend
written out in NumPy, and a warp traced with ``ivy.trace_graph`` and emitted to NumPy and to the
backend, against SciPy's ``map_coordinates``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from scipy import ndimage

import ivy

RNG = np.random.default_rng(11)
H, W = 5, 7


def _scipy_sample(img: np.ndarray, coords: np.ndarray) -> np.ndarray:
    """``img`` ``[h, w, c]`` at ``coords`` ``[..., 2]`` (x, y); SciPy's order is (row, column)."""
    rc = [coords[..., 1], coords[..., 0]]
    return np.stack(
        [ndimage.map_coordinates(img[..., k], rc, order=1, mode="nearest") for k in range(img.shape[-1])], -1
    )


def _blend_gradients(img: np.ndarray, coords: np.ndarray, g: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """d/d(img) and d/d(coords) of ``sum(g * sample(img, coords))`` from the blend's formula:
    with the clamped point between pixels x0 and x0 + 1, y0 and y0 + 1 (weights ``fx, fy``),
    ``out = (1-fy)((1-fx) v00 + fx v01) + fy((1-fx) v10 + fx v11)``; a clamped axis has no
    coordinate gradient. ``img`` ``[h, w, c]``, ``coords`` ``[n, 2]``, ``g`` ``[n, c]``."""
    h, w = img.shape[:2]
    gimg, gco = np.zeros_like(img), np.zeros_like(coords)
    for i, (x, y) in enumerate(coords):
        cx, cy = min(max(x, 0.0), w - 1.0), min(max(y, 0.0), h - 1.0)
        x0, y0 = min(int(np.floor(cx)), max(w - 2, 0)), min(int(np.floor(cy)), max(h - 2, 0))
        x1, y1 = min(x0 + 1, w - 1), min(y0 + 1, h - 1)
        fx, fy = cx - x0, cy - y0
        v00, v01, v10, v11 = img[y0, x0], img[y0, x1], img[y1, x0], img[y1, x1]
        for (r, c), wgt in (((y0, x0), (1 - fx) * (1 - fy)), ((y0, x1), fx * (1 - fy))):
            gimg[r, c] += wgt * g[i]
        for (r, c), wgt in (((y1, x0), (1 - fx) * fy), ((y1, x1), fx * fy)):
            gimg[r, c] += wgt * g[i]
        if 0 < x < w - 1:
            gco[i, 0] = np.sum(g[i] * ((1 - fy) * (v01 - v00) + fy * (v11 - v10)))
        if 0 < y < h - 1:
            gco[i, 1] = np.sum(g[i] * ((1 - fx) * (v10 - v00) + fx * (v11 - v01)))
    return gimg, gco


def test_gradients_of_the_backend_sampler_match_the_blend(autodiff: str, to_native: Any, to_numpy: Any) -> None:
    img = RNG.normal(size=(2, H, W, 3))
    coords = np.concatenate([RNG.uniform(-2, W + 1, (2, 40, 1)), RNG.uniform(-2, H + 1, (2, 40, 1))], -1)
    # away from the kinks: pixel centres and the border, where the gradient is one-sided
    near = np.abs(coords - np.round(coords)) < 0.02
    coords = np.where(near, coords + 0.05, coords)
    g = RNG.normal(size=(2, 40, 3))

    def loss(ls: list[Any]) -> Any:
        return ivy.sum(ivy.multiply(ivy.bilinear_sample(ls[0], ls[1]), to_native(g)))

    _, grads, _ = ivy.value_and_grad_flat(loss, [to_native(img), to_native(coords)])
    gi, gc = to_numpy(grads[0]), to_numpy(grads[1])
    assert np.isfinite(gi).all() and np.isfinite(gc).all()
    for b in range(2):
        want_i, want_c = _blend_gradients(img[b], coords[b], g[b])
        np.testing.assert_allclose(gi[b], want_i, rtol=1e-10, atol=1e-10)
        np.testing.assert_allclose(gc[b], want_c, rtol=1e-10, atol=1e-10)


def _warp(image: Any, flow: Any) -> Any:
    """Each pixel read where the flow moves it to: a backward warp by optical flow."""
    h, w = image.shape[-3], image.shape[-2]
    ys, xs = ivy.meshgrid(ivy.arange(float(h)), ivy.arange(float(w)), indexing="ij")
    grid = ivy.astype(ivy.stack([xs, ys], axis=-1), flow.dtype)
    return ivy.bilinear_sample(image, flow + grid) * 2.0


def test_traced_warp_emitted_to_numpy_and_the_backend(backend: str, to_native: Any, to_numpy: Any) -> None:
    image = RNG.normal(size=(2, H, W, 2))
    flow = RNG.uniform(-3, 3, (2, H, W, 2))
    ys, xs = np.meshgrid(np.arange(H), np.arange(W), indexing="ij")
    pts = flow + np.stack([xs, ys], -1)
    want = 2.0 * np.stack([_scipy_sample(image[b], pts[b]) for b in range(2)])
    graph = ivy.trace_graph(_warp, args=(to_native(image), to_native(flow)))
    assert "ivy.bilinear_sample(" in str(graph)  # one op of the graph (NumPy's program inlines core's composition)
    np.testing.assert_allclose(graph.to("numpy", compile=False)(image, flow), want, rtol=1e-12, atol=1e-12)
    got = graph.to(backend, compile=False)(to_native(image), to_native(flow))
    np.testing.assert_allclose(to_numpy(got), want, rtol=1e-12, atol=1e-12)
