"""Fixtures shared by the ivy-vision tests: random cameras, gradient and compile checks, kornia.

Every reference is computed independently of ``ivy_vision``: NumPy formulas written here or in
the tests, SciPy, or kornia (torch) on NumPy copies of the inputs.
"""

from __future__ import annotations

import types
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from scipy.spatial.transform import Rotation

import ivy


@pytest.fixture
def rng() -> np.random.Generator:
    return np.random.default_rng(1234)


def random_rotations(rng: np.random.Generator, shape: tuple[int, ...], max_angle: float = np.pi) -> np.ndarray:
    """Random rotation matrices ``[*shape, 3, 3]`` of angle at most ``max_angle``."""
    n = int(np.prod(shape)) if shape else 1
    axes = rng.standard_normal((n, 3))
    axes /= np.linalg.norm(axes, axis=-1, keepdims=True)
    angles = rng.uniform(-max_angle, max_angle, (n, 1))
    return Rotation.from_rotvec(axes * angles).as_matrix().reshape(tuple(shape) + (3, 3))


def make_camera(
    rng: np.random.Generator, batch: tuple[int, ...], h: int, w: int, max_angle: float = 0.3, center_scale: float = 0.3
) -> dict[str, np.ndarray]:
    """A random pinhole camera near the origin looking roughly along +z (NumPy, float64)."""
    f = rng.uniform(0.8, 1.2, batch + (2,)) * w
    pp = np.stack([rng.uniform(0.4, 0.6, batch) * (w - 1), rng.uniform(0.4, 0.6, batch) * (h - 1)], axis=-1)
    k = np.zeros(batch + (3, 3))
    k[..., 0, 0], k[..., 1, 1], k[..., 0, 2], k[..., 1, 2], k[..., 2, 2] = (
        f[..., 0],
        f[..., 1],
        pp[..., 0],
        pp[..., 1],
        1,
    )
    r = random_rotations(rng, batch, max_angle)
    c = rng.uniform(-center_scale, center_scale, batch + (3,))
    t = -np.einsum("...ij,...j->...i", r, c)
    ext = np.concatenate([r, t[..., None]], axis=-1)
    inv_ext = np.concatenate([np.swapaxes(r, -1, -2), c[..., None]], axis=-1)
    full = k @ ext
    k_inv = np.linalg.inv(k)
    inv_full = np.concatenate([inv_ext[..., :3] @ k_inv, c[..., None]], axis=-1)
    return {
        "K": k,
        "K_inv": k_inv,
        "R": r,
        "C": c,
        "ext": ext,
        "inv_ext": inv_ext,
        "full": full,
        "inv_full": inv_full,
        "f": f,
        "pp": pp,
    }


def homo(m: np.ndarray) -> np.ndarray:
    """``[..., 3, 4]`` -> ``[..., 4, 4]``."""
    last = np.zeros(m.shape[:-2] + (1, 4))
    last[..., 0, 3] = 1
    return np.concatenate([m, last], axis=-2)


def pixel_grid(h: int, w: int) -> np.ndarray:
    """``[h, w, 3]`` homogeneous pixel coordinates ``(x, y, 1)``."""
    ys, xs = np.meshgrid(np.arange(h, dtype=np.float64), np.arange(w, dtype=np.float64), indexing="ij")
    return np.stack([xs, ys, np.ones_like(xs)], axis=-1)


@pytest.fixture
def geo() -> types.SimpleNamespace:
    """NumPy helpers: ``random_rotations``, ``make_camera``, ``homo``, ``pixel_grid``."""
    return types.SimpleNamespace(
        random_rotations=random_rotations, make_camera=make_camera, homo=homo, pixel_grid=pixel_grid
    )


@pytest.fixture
def grad_check(
    autodiff: str, to_native: Callable[..., Any], to_numpy: Callable[[Any], np.ndarray]
) -> Callable[..., None]:
    """``grad_check(fn, *arrays, argnums=(0,), eps=1e-6, rtol=1e-4, atol=1e-6)``.

    ``fn`` maps native arrays to one native array. The autodiff gradient of ``sum(fn(...) * W)``
    (``W`` random) is compared with central differences in float64 at up to ``entries`` random
    entries of each differentiated argument. The perturbed inputs are evaluated in one call,
    stacked on a new leading batch axis (every function takes leading batch axes), unless
    ``batched=False``. On JAX, whose eager mode compiles every op for every new shape, the
    gradient and the probes run under ``ivy.compile`` (``jax.jit``), which is much faster.
    """
    jit = ivy.compile if autodiff == "jax" else (lambda f: f)

    def check(
        fn: Callable[..., Any],
        *arrays: np.ndarray,
        argnums: tuple[int, ...] = (0,),
        eps: float = 1e-6,
        rtol: float = 1e-4,
        atol: float = 1e-6,
        entries: int = 8,
        seed: int = 0,
        batched: bool = True,
    ) -> None:
        rng = np.random.default_rng(seed)
        arrays = tuple(np.asarray(a, dtype=np.float64) for a in arrays)
        natives = [to_native(a) for a in arrays]
        out = to_numpy(jit(fn)(*natives))
        weights = rng.standard_normal(out.shape)
        w_native = to_native(weights)

        def scalar(*xs: Any) -> Any:
            return ivy.sum(fn(*xs) * w_native)

        grads = jit(ivy.grad(scalar, argnums=tuple(argnums)))(*natives)
        probes = []  # (argument, index, +eps inputs, -eps inputs)
        for i in argnums:
            positions = rng.choice(arrays[i].size, size=min(entries, arrays[i].size), replace=False)
            for pos in positions:
                idx = np.unravel_index(pos, arrays[i].shape)
                pair = []
                for sign in (1.0, -1.0):
                    pert = [a.copy() for a in arrays]
                    pert[i][idx] += sign * eps
                    pair.append(pert)
                probes.append((i, idx, pair[0], pair[1]))
        inputs = [p for _, _, plus, minus in probes for p in (plus, minus)]
        if batched:
            stacked = [to_native(np.stack([inp[j] for inp in inputs])) for j in range(len(arrays))]
            values = to_numpy(jit(fn)(*stacked))
            sums = np.sum(values * weights, axis=tuple(range(1, values.ndim)))
        else:
            sums = np.array([np.sum(to_numpy(fn(*[to_native(a) for a in inp])) * weights) for inp in inputs])
        found = {i: to_numpy(g) for g, i in zip(grads, argnums)}
        for k, (i, idx, _, _) in enumerate(probes):
            assert found[i].shape == arrays[i].shape
            fd = (sums[2 * k] - sums[2 * k + 1]) / (2 * eps)
            np.testing.assert_allclose(
                found[i][idx], fd, rtol=rtol, atol=atol, err_msg=f"gradient of argument {i} at {idx}"
            )

    return check


# torch: dynamo's trace of Ivy's code without inductor's C++ build of its kernels (torch's own
# code, 10-15 s a pipeline here); graph breaks allowed (a triangle mesh from a mask has a
# data-dependent size)
COMPILE_OPTIONS = {"torch": {"backend": "aot_eager"}}


@pytest.fixture
def compile_check(
    backend: str, to_native: Callable[..., Any], to_numpy: Callable[[Any], np.ndarray]
) -> Callable[..., None]:
    """``compile_check(fn, *arrays)``: ``ivy.compile(fn)`` gives the eager results (a nest of arrays)."""

    def check(fn: Callable[..., Any], *arrays: np.ndarray, rtol: float = 1e-6, atol: float = 1e-8) -> None:
        natives = [to_native(np.asarray(a)) for a in arrays]
        eager = fn(*natives)
        compiled = ivy.compile(fn, options=COMPILE_OPTIONS.get(backend, {}))(*natives)
        flat_e = eager if isinstance(eager, (tuple, list)) else [eager]
        flat_c = compiled if isinstance(compiled, (tuple, list)) else [compiled]
        assert len(flat_e) == len(flat_c)
        for e, c in zip(flat_e, flat_c):
            np.testing.assert_allclose(to_numpy(c), to_numpy(e), rtol=rtol, atol=atol)

    return check


@pytest.fixture
def kornia(backend: str) -> Any:
    """The kornia module (imported with torch); skipped on tensorflow, whose process keeps torch out."""
    if backend == "tensorflow":
        pytest.skip("the kornia reference needs torch, which this suite keeps out of the tensorflow process")
    return pytest.importorskip("kornia", reason="kornia (the reference) is not installed")
