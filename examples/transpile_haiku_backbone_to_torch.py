"""A Haiku backbone, transpiled to PyTorch and fine-tuned under a torch classifier head.

    python examples/transpile_haiku_backbone_to_torch.py [--steps 20]

The paper's appendix example, scaled to a CPU: a small residual convolutional backbone written in
Haiku is initialised in JAX, ``ivy.transpile(..., to="torch", params_v=params, kwargs={"images":
x})`` turns it into a ``torch.nn.Module`` holding the Haiku weights as ``nn.Parameter``\\ s (named
by Haiku's module paths: ``stem/w``, ``res_a/w``, ...), and a torch classifier is trained on top
of it with ``torch.optim.Adam``, backbone included. The backbone keeps JAX's NHWC layout: its
features are permuted to NCHW for torch's pooling. The loss printed each step falls.
"""

from __future__ import annotations

import argparse

import haiku as hk
import jax
import numpy as np
import torch

import ivy


def backbone_fn(images: jax.Array) -> jax.Array:
    """NHWC images -> NHWC features: a strided stem and one residual block with batch norm."""
    h = jax.nn.relu(hk.Conv2D(16, 3, stride=2, name="stem")(images))
    r = jax.nn.relu(hk.Conv2D(16, 3, name="res_a")(h))
    r = hk.LayerNorm(axis=-1, create_scale=True, create_offset=True, name="norm")(r)
    r = hk.Conv2D(16, 3, name="res_b")(r)
    return jax.nn.relu(h + r)


class Classifier(torch.nn.Module):
    """The transpiled backbone, global max pooling and a linear head."""

    def __init__(self, backbone: torch.nn.Module, features: int, num_classes: int):
        super().__init__()
        self.backbone = backbone
        self.pool = torch.nn.AdaptiveMaxPool2d(1)
        self.fc = torch.nn.Linear(features, num_classes)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        feats = self.backbone(images=x).permute(0, 3, 1, 2)  # NHWC (JAX) -> NCHW (torch pooling)
        return self.fc(torch.flatten(self.pool(feats), 1))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--steps", type=int, default=20)
    opts = parser.parse_args()

    backbone_t = hk.transform(backbone_fn)
    images = jax.random.uniform(jax.random.key(0), (8, 32, 32, 3))
    params = backbone_t.init(rng=jax.random.key(1), images=images)
    backbone = ivy.transpile(backbone_t, to="torch", params_v=params, kwargs={"images": images})
    print("backbone parameters:", [name for name, _ in backbone.named_parameters()])

    x = torch.tensor(np.asarray(images))
    jax_out = np.asarray(backbone_t.apply(params, None, images=images))
    diff = float(np.max(np.abs(backbone(images=x).detach().numpy() - jax_out)))
    print(f"max |torch - jax| of the backbone's features: {diff:.2e}")

    torch.manual_seed(0)
    model = Classifier(backbone, features=16, num_classes=4)
    labels = torch.arange(8) % 4
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    for step in range(opts.steps):
        opt.zero_grad()
        loss = torch.nn.functional.cross_entropy(model(x), labels)
        loss.backward()
        opt.step()
        print(f"step {step:2d}  loss {loss.item():.4f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
