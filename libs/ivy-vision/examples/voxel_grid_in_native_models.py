"""The Ivy paper's example (section 1.1): a pure-Ivy function inside native models.

A native 2-D convolution computes per-pixel features from an RGB image; ``ivy_vision``'s
``coords_to_voxel_grid`` scatters them, with each pixel's 3-D point, into a voxel grid; a native
3-D convolution processes the grid. The same Ivy call sits in a TensorFlow Keras layer, a PyTorch
module, a JAX function and a Paddle layer, and gradients flow through it to the first
convolution in each framework.

Run: ``python libs/ivy-vision/examples/voxel_grid_in_native_models.py [tensorflow|torch|jax|paddle]``
(one framework per process: paddle must not share a process with tensorflow).
"""

from __future__ import annotations

import sys
from typing import Any

import numpy as np

import ivy
import ivy_vision

GRID_DIMS = (8, 8, 8)
BOUNDS = (-1.0, -1.0, -1.0, 1.0, 1.0, 1.0)
IMAGE = (2, 16, 16)  # batch, height, width
FEATURES = 4


def example_inputs(seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """An image of 3-D points ``[b, h, w, 3]`` in the bounds and an RGB image ``[b, h, w, 3]``."""
    rng = np.random.default_rng(seed)
    xyz = rng.uniform(-1, 1, IMAGE + (3,)).astype(np.float32)
    rgb = rng.uniform(0, 1, IMAGE + (3,)).astype(np.float32)
    return xyz, rgb


def voxelize(xyz_image: Any, feature_image: Any) -> Any:
    """Channels-last images ``[b, h, w, 3]`` / ``[b, h, w, f]`` -> grid ``[b, X, Y, Z, 3 + f + 1]``."""
    b, h, w = (int(d) for d in xyz_image.shape[:3])
    f = int(feature_image.shape[-1])
    return ivy_vision.coords_to_voxel_grid(
        ivy.reshape(xyz_image, (b, h * w, 3)),
        GRID_DIMS,
        coord_bounds=BOUNDS,
        features=ivy.reshape(feature_image, (b, h * w, f)),
    )[0]


# --------------------------------------------------------------------------- TensorFlow / Keras


def tensorflow_model() -> Any:
    import tensorflow as tf

    class VoxelGridNet(tf.keras.layers.Layer):
        def __init__(self) -> None:
            super().__init__()
            self._conv2d = tf.keras.layers.Conv2D(FEATURES, 3, padding="same")
            self._conv3d = tf.keras.layers.Conv3D(8, 3, padding="same")

        def call(self, xyz_image: Any, rgb_image: Any) -> Any:
            feats = self._conv2d(rgb_image)
            b, h, w = xyz_image.shape[:3]
            grid = ivy_vision.coords_to_voxel_grid(
                tf.reshape(xyz_image, (b, h * w, 3)),
                GRID_DIMS,
                coord_bounds=BOUNDS,
                features=tf.reshape(feats, (b, h * w, FEATURES)),
            )[0]
            return self._conv3d(grid)

    return VoxelGridNet()


def run_tensorflow(compiled: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """Forward and backward; returns the output and the first convolution's kernel gradient."""
    import tensorflow as tf

    model = tensorflow_model()
    xyz, rgb = (tf.constant(a) for a in example_inputs())

    def step(xyz: Any, rgb: Any) -> tuple[Any, Any]:
        with tf.GradientTape() as tape:
            out = model(xyz, rgb)
            loss = tf.reduce_mean(out**2)
        return out, tape.gradient(loss, model._conv2d.kernel)

    model(xyz, rgb)  # build the layers
    out, grad = (tf.function(step) if compiled else step)(xyz, rgb)
    return out.numpy(), grad.numpy()


# --------------------------------------------------------------------------- PyTorch


def torch_model() -> Any:
    import torch

    class VoxelGridNet(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.conv2d = torch.nn.Conv2d(3, FEATURES, 3, padding=1)
            self.conv3d = torch.nn.Conv3d(3 + FEATURES + 1, 8, 3, padding=1)

        def forward(self, xyz_image: Any, rgb_image: Any) -> Any:
            feats = self.conv2d(rgb_image.permute(0, 3, 1, 2)).permute(0, 2, 3, 1)  # torch is channels-first
            grid = voxelize(xyz_image, feats)
            return self.conv3d(grid.permute(0, 4, 1, 2, 3))

    return VoxelGridNet()


def run_torch() -> tuple[np.ndarray, np.ndarray]:
    import torch

    torch.manual_seed(0)
    model = torch_model()
    xyz, rgb = (torch.from_numpy(a) for a in example_inputs())
    out = model(xyz, rgb)
    (out**2).mean().backward()
    return out.detach().permute(0, 2, 3, 4, 1).numpy(), model.conv2d.weight.grad.numpy()


# --------------------------------------------------------------------------- JAX


def jax_model() -> tuple[dict[str, Any], Any]:
    """``(params, apply)``: a pure function of its parameters, as JAX models are."""
    import jax

    k1, k2 = jax.random.split(jax.random.PRNGKey(0))
    params = {
        "conv2d": jax.random.normal(k1, (3, 3, 3, FEATURES), "float32") * 0.1,
        "conv3d": jax.random.normal(k2, (3, 3, 3, 3 + FEATURES + 1, 8), "float32") * 0.1,
    }

    def apply(params: dict[str, Any], xyz_image: Any, rgb_image: Any) -> Any:
        feats = jax.lax.conv_general_dilated(
            rgb_image, params["conv2d"], (1, 1), "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC")
        )
        grid = voxelize(xyz_image, feats)
        return jax.lax.conv_general_dilated(
            grid, params["conv3d"], (1, 1, 1), "SAME", dimension_numbers=("NDHWC", "DHWIO", "NDHWC")
        )

    return params, apply


def run_jax(compiled: bool = True) -> tuple[np.ndarray, np.ndarray]:
    import jax
    import jax.numpy as jnp

    params, apply = jax_model()
    xyz, rgb = (jnp.asarray(a) for a in example_inputs())

    def loss(p: dict[str, Any]) -> Any:
        out = apply(p, xyz, rgb)
        return jnp.mean(out**2), out

    grad_fn = jax.value_and_grad(loss, has_aux=True)
    (_, out), grads = (jax.jit(grad_fn) if compiled else grad_fn)(params)
    return np.asarray(out), np.asarray(grads["conv2d"])


# --------------------------------------------------------------------------- Paddle


def paddle_model() -> Any:
    import paddle

    class VoxelGridNet(paddle.nn.Layer):
        def __init__(self) -> None:
            super().__init__()
            self.conv2d = paddle.nn.Conv2D(3, FEATURES, 3, padding=1, data_format="NHWC")
            self.conv3d = paddle.nn.Conv3D(3 + FEATURES + 1, 8, 3, padding=1, data_format="NDHWC")

        def forward(self, xyz_image: Any, rgb_image: Any) -> Any:
            return self.conv3d(voxelize(xyz_image, self.conv2d(rgb_image)))

    return VoxelGridNet()


def run_paddle() -> tuple[np.ndarray, np.ndarray]:
    import paddle

    paddle.seed(0)
    model = paddle_model()
    xyz, rgb = (paddle.to_tensor(a) for a in example_inputs())
    out = model(xyz, rgb)
    (out**2).mean().backward()
    return out.numpy(), model.conv2d.weight.grad.numpy()


RUNNERS = {"tensorflow": run_tensorflow, "torch": run_torch, "jax": run_jax, "paddle": run_paddle}


if __name__ == "__main__":
    for name in sys.argv[1:] or ["torch"]:
        out, grad = RUNNERS[name]()
        print(f"{name}: output {out.shape} (channels last), |d loss / d conv2d kernel| = {np.abs(grad).sum():.4g}")
