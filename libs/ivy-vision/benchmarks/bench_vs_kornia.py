"""ivy_vision on the torch backend against kornia, on the same inputs, for the functions both have.

For each case both sides compute the same quantity from the same torch tensors (float32, CPU,
one thread). Rounds are interleaved (ivy, kornia, ivy, kornia...), each timing a batch of calls;
the ratio of a case is the median over rounds of ``t_ivy / t_kornia``, and the summary is the
median over cases (target: at most 1.2). Outputs are checked to agree before timing (but for the
frame warp, where kornia pads with zeros and ivy_vision clamps to the border; the warp is also
timed with its backward pass, the gradients with respect to the image and the depth).

Run: ``python libs/ivy-vision/benchmarks/bench_vs_kornia.py [--rounds 15] [--size 96x128] [--quick]
[--json PATH]``; ``scripts/bench`` runs it as its ``vision`` stage (``--stages vision``) and puts
its table in the benchmark report.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections.abc import Callable
from typing import Any

import kornia
import numpy as np
import torch
from kornia.geometry import depth as kdepth
from kornia.geometry import epipolar as kepi
from kornia.geometry import linalg as klinalg
from kornia.geometry import transform as ktransform
from kornia.geometry.camera import perspective as kpersp

import ivy
import ivy_vision as iv
from ivy import _atomic

TARGET = 1.2  # the summary's target: the median ratio over cases
N_TRIANGULATED = 1024  # point pairs per batch element in the triangulation cases


def _camera(rng: np.random.Generator, b: int, h: int, w: int) -> dict[str, torch.Tensor]:
    f = rng.uniform(0.8, 1.2, (b, 2)) * w
    k = np.zeros((b, 3, 3))
    k[:, 0, 0], k[:, 1, 1], k[:, 0, 2], k[:, 1, 2], k[:, 2, 2] = f[:, 0], f[:, 1], w / 2, h / 2, 1
    ang = rng.uniform(-0.05, 0.05, (b, 3))  # small rotations, and a baseline along x below
    rot = np.stack([_rotvec(a) for a in ang])
    t = rng.uniform(-0.05, 0.05, (b, 3, 1)) + rng.choice([-0.5, 0.5]) * np.array([[1.0], [0], [0]])
    ext = np.concatenate([rot, t], -1)
    t32 = lambda a: torch.from_numpy(np.ascontiguousarray(a)).float()  # noqa: E731
    return {
        "K": t32(k),
        "K_inv": t32(np.linalg.inv(k)),
        "ext": t32(ext),
        "ext_homo": t32(np.concatenate([ext, np.tile([[[0, 0, 0, 1.0]]], (b, 1, 1))], 1)),
        "full": t32(k @ ext),
    }


def _rotvec(v: np.ndarray) -> np.ndarray:
    theta = np.linalg.norm(v)
    k = v / theta
    kx = np.array([[0, -k[2], k[1]], [k[2], 0, -k[0]], [-k[1], k[0], 0]])
    return np.eye(3) + np.sin(theta) * kx + (1 - np.cos(theta)) * kx @ kx


def cases(b: int, h: int, w: int) -> list[tuple[str, Callable[[], Any], Callable[[], Any], Callable[[Any, Any], None]]]:
    rng = np.random.default_rng(0)
    cam, cam2 = _camera(rng, b, h, w), _camera(rng, b, h, w)
    depth = torch.from_numpy(rng.uniform(2, 3, (b, h, w, 1))).float()
    image = torch.from_numpy(rng.standard_normal((b, h, w, 3))).float()
    image_nchw = image.permute(0, 3, 1, 2).contiguous()
    pts = torch.from_numpy(rng.uniform(-1, 1, (b, h * w, 3)) + [0, 0, 3]).float()
    pix = torch.from_numpy(np.stack([rng.uniform(0, w - 1, (b, h, w)), rng.uniform(0, h - 1, (b, h, w))], -1)).float()
    pix_flat = pix.reshape(b, h * w, 2)
    pts_depth = pts[..., 2:]
    ds_flat = torch.cat([pix_flat * pts_depth, pts_depth], -1)
    k_b1 = cam["K"][:, None]
    n_tri = N_TRIANGULATED
    world = np.concatenate(
        [rng.uniform(-1, 1, (b, n_tri, 2)), rng.uniform(2, 4, (b, n_tri, 1)), np.ones((b, n_tri, 1))], -1
    )
    proj = [np.einsum("bij,bnj->bni", c["full"].double().numpy(), world) for c in (cam, cam2)]
    x1, x2 = (torch.from_numpy(p[..., :2] / p[..., 2:]).float() for p in proj)
    ones = torch.ones(b, n_tri, 1)
    pair_pix = torch.stack([torch.cat([x1, ones], -1), torch.cat([x2, ones], -1)], 1)
    pair_full = torch.stack([cam["full"], cam2["full"]], 1)
    src_trans_dst = cam2["ext_homo"]
    full1_c, full2_c = cam["full"][:, None], cam2["full"][:, None]

    def close(a: Any, b_: Any, tol: float = 1e-4) -> None:
        np.testing.assert_allclose(np.asarray(a), np.asarray(b_), rtol=tol, atol=tol)

    def inverse_warp(image: Any = image, depth: Any = depth) -> Any:
        cam_pts = iv.depth_to_cam_coords(depth, cam["K_inv"])
        ds = iv.cam_to_ds_pixel_coords(iv.cam_to_cam_coords(cam_pts, src_trans_dst[:, :3]), cam["K"])
        return iv.bilinearly_interpolate_image(image, ds[..., 0:2] / ds[..., 2:3])

    # the warp differentiated with respect to the image and the depth (the rounds run under
    # no_grad: each call turns gradients on for itself)
    leaves = [t.clone().requires_grad_() for t in (image, depth, image_nchw, depth.permute(0, 3, 1, 2).contiguous())]

    def inverse_warp_grad() -> Any:
        with torch.enable_grad():
            return torch.autograd.grad(inverse_warp(leaves[0], leaves[1]).sum(), leaves[:2])

    def kornia_warp_grad() -> Any:
        with torch.enable_grad():
            out = kdepth.warp_frame_depth(leaves[2], leaves[3], src_trans_dst, cam["K"])
            return torch.autograd.grad(out.sum(), leaves[2:])

    def unit_f(f: Any) -> np.ndarray:
        f = f.numpy()
        f = f / np.linalg.norm(f, axis=(-2, -1), keepdims=True)
        return f * np.sign(f[:, 2:3, 2:3])

    return [
        (
            "create_uniform_pixel_coords_image",
            lambda: iv.create_uniform_pixel_coords_image((h, w), homogeneous=False, backend="torch"),
            lambda: kornia.geometry.create_meshgrid(h, w, normalized_coordinates=False),
            lambda a, k: close(a, k[0]),
        ),
        (
            "depth_to_cam_coords",
            lambda: iv.depth_to_cam_coords(depth, cam["K_inv"]),
            lambda: kdepth.depth_to_3d_v2(depth[..., 0], cam["K"]),
            lambda a, k: close(a[..., :3], k),
        ),
        (
            "cam_to_pixel (project_points)",
            lambda: (lambda ds: ds[..., 0:2] / ds[..., 2:3])(iv.cam_to_ds_pixel_coords(pts, cam["K"])),
            lambda: kpersp.project_points(pts, k_b1),
            lambda a, k: close(a, k, 1e-3),
        ),
        (
            "ds_pixel_to_cam_coords (unproject_points)",
            lambda: iv.ds_pixel_to_cam_coords(ds_flat, cam["K_inv"]),
            lambda: kpersp.unproject_points(pix_flat, pts_depth, k_b1),
            lambda a, k: close(a[..., :3], k),
        ),
        (
            "world_to_cam_coords (transform_points)",
            lambda: iv.world_to_cam_coords(pts, cam["ext"]),
            lambda: klinalg.transform_points(cam["ext_homo"], pts),
            lambda a, k: close(a[..., :3], k),
        ),
        (
            "bilinearly_interpolate_image (remap, border)",
            lambda: iv.bilinearly_interpolate_image(image, pix),
            lambda: ktransform.remap(image_nchw, pix[..., 0], pix[..., 1], padding_mode="border", align_corners=True),
            lambda a, k: close(a, k.permute(0, 2, 3, 1)),
        ),
        (
            "inverse warp (warp_frame_depth)",
            inverse_warp,
            lambda: kdepth.warp_frame_depth(image_nchw, depth.permute(0, 3, 1, 2), src_trans_dst, cam["K"]),
            None,
        ),
        ("inverse warp, backward (warp_frame_depth)", inverse_warp_grad, kornia_warp_grad, None),
        (
            "get_fundamental_matrix",
            lambda: iv.get_fundamental_matrix(cam["full"], cam2["full"]),
            lambda: kepi.fundamental_from_projections(cam["full"], cam2["full"]),
            lambda a, k: close(unit_f(a), unit_f(k), 1e-3),
        ),
        (
            "triangulate_depth dlt (triangulate_points)",
            lambda: iv.triangulate_depth(pair_pix, pair_full, method="dlt"),
            lambda: klinalg.transform_points(
                cam["ext_homo"], kepi.triangulate_points(full1_c[:, 0], full2_c[:, 0], x1, x2)
            )[..., 2:],
            lambda a, k: close(a, k, 1e-2),
        ),
        (
            "gradient_image central (spatial_gradient diff)",
            lambda: iv.gradient_image(image, mode="central"),
            lambda: kornia.filters.spatial_gradient(image_nchw, mode="diff"),
            lambda a, k: close(a[1], k[:, :, 0].permute(0, 2, 3, 1)),
        ),
        (
            "projection_matrix_inverse (inverse_transformation)",
            lambda: iv.projection_matrix_inverse(cam["ext"]),
            lambda: klinalg.inverse_transformation(cam["ext_homo"]),
            lambda a, k: close(a, k[:, :3], 1e-4),
        ),
    ]


def _time(fn: Callable[[], Any], n: int) -> float:
    start = time.perf_counter()
    for _ in range(n):
        fn()
    return (time.perf_counter() - start) / n


def measure(batch: int, h: int, w: int, rounds: int) -> list[dict[str, Any]]:
    """Per case: the median time of a call on each side (µs) and the ratio's median and range."""
    rows = []
    with torch.no_grad():
        for name, ivy_fn, kornia_fn, check in cases(batch, h, w):
            a, k = ivy_fn(), kornia_fn()  # warm-up and agreement
            if check is not None:
                check(a, k)
            per_call = min(_time(ivy_fn, 3), _time(kornia_fn, 3))
            n = max(1, int(0.02 / max(per_call, 1e-7)))
            ratios, t_ivy, t_kornia = [], [], []
            for _ in range(rounds):
                ti, tk = _time(ivy_fn, n), _time(kornia_fn, n)
                t_ivy.append(ti)
                t_kornia.append(tk)
                ratios.append(ti / tk)
            rows.append(
                {
                    "case": name,
                    "ivy_us": statistics.median(t_ivy) * 1e6,
                    "kornia_us": statistics.median(t_kornia) * 1e6,
                    "ratio": statistics.median(ratios),
                    "ratio_lo": min(ratios),
                    "ratio_hi": max(ratios),
                }
            )
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--quick", action="store_true", help="5 rounds instead of --rounds")
    parser.add_argument("--size", default="96x128", help="image height x width")
    parser.add_argument("--batch", type=int, default=4)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--json", metavar="PATH", help="also write the figures to this file")
    args = parser.parse_args()
    h, w = (int(s) for s in args.size.split("x"))
    rounds = 5 if args.quick else args.rounds
    torch.set_num_threads(args.threads)
    ivy.set_backend("torch")
    rows = measure(args.batch, h, w, rounds)
    summary = statistics.median(r["ratio"] for r in rows)
    print(
        f"torch {torch.__version__}, kornia {kornia.__version__}, batch {args.batch}, image {h}x{w}, "
        f"{args.threads} thread(s), {rounds} interleaved rounds"
    )
    print(f"{'case':52s} {'ivy_vision':>12s} {'kornia':>12s} {'ratio':>7s}")
    for r in rows:
        print(f"{r['case']:52s} {r['ivy_us']:10.1f}us {r['kornia_us']:10.1f}us {r['ratio']:7.2f}")
    print(f"median ratio (ivy_vision / kornia): {summary:.3f}  (target <= {TARGET})")
    if args.json:
        report = {
            "versions": {"torch": torch.__version__, "kornia": kornia.__version__},
            "batch": args.batch,
            "size": [h, w],
            "threads": args.threads,
            "triangulated": N_TRIANGULATED,
            "rounds": rounds,
            "rows": rows,
            "median_ratio": summary,
            "target": TARGET,
        }
        _atomic.write_text(args.json, json.dumps(report, indent=1))  # a reader never sees half a file


if __name__ == "__main__":
    main()
