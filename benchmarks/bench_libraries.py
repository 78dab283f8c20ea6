"""Whole library functions and the drone demo through Ivy, against the same code written natively.

A stage of ``scripts/bench`` (``python -m benchmarks.run --stages libraries``). For PyTorch and JAX
(each in its own process, single-threaded), each function of ``_native_libs.LIBRARY_FUNCTIONS``
(ivy_mech, ivy_vision, ivy_robot), on inputs of about 1e4 elements, and one gradient step of the
drone demo (``examples/drone_motion_planning.py``: cost through the spline, the poses, the body
points and the signed distances, its gradient and the update), in interleaved rounds:

* eager      the library function against its native version, plus an A/A pair of the native
             version (the noise);
* compiled   ``ivy.compile(library function)`` against the native version compiled natively
             (``jax.jit``; ``torch.compile`` in a full run: it takes seconds per function). The
             drone step is compiled on JAX only (``torch.compile`` of the whole step takes
             minutes on a small CPU machine, as the demo notes).

Each pair's results are checked to agree before they are timed.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import sys
from typing import Any

from benchmarks._common import ROOT, block_until_ready, calls_for, interleaved, paired, pin_one_thread, progress
from benchmarks._native_libs import LIBRARY_FUNCTIONS

BACKENDS = ("torch", "jax")


def _library_fn(dotted: str) -> Any:
    module, name = dotted.split(".")
    return getattr(importlib.import_module(module), name)


def _inputs(name: str, xp: Any) -> list[Any]:
    import numpy as np

    rng = np.random.default_rng(0)
    f32 = np.float32
    if name == "quaternion_to_rot_mat":
        return [xp.asarray(rng.standard_normal((2500, 4)).astype(f32))]
    if name == "rot_vec_pose_to_mat_pose":
        return [xp.asarray(rng.standard_normal((1667, 6)).astype(f32))]
    if name == "depth_to_cam_coords":
        calib = np.array([[100.0, 0, 50], [0, 100.0, 50], [0, 0, 1]])
        return [xp.asarray(rng.uniform(1, 3, (100, 100, 1)).astype(f32)), xp.asarray(np.linalg.inv(calib).astype(f32))]
    if name == "cuboid_signed_distances":  # 11 boxes (as the demo), 300 points: 1e4 distances to the faces
        rot = np.linalg.qr(rng.standard_normal((11, 3, 3)))[0]
        ext = np.concatenate([rot, rng.uniform(-2, 2, (11, 3, 1))], axis=-1).astype(f32)
        dims = rng.uniform(0.2, 1.5, (11, 3)).astype(f32)
        query = rng.uniform(-2, 2, (300, 3)).astype(f32)
        return [xp.asarray(ext), xp.asarray(dims), xp.asarray(query)]
    if name == "sample_spline_path":  # the demo's path: 4 anchor poses, 100 samples
        times = np.linspace(0, 1, 4, dtype=f32)[:, None]
        samples = np.linspace(0, 1, 100, dtype=f32)[:, None]
        vals = rng.standard_normal((4, 6)).astype(f32)
        return [xp.asarray(times), xp.asarray(vals), xp.asarray(samples)]
    raise KeyError(name)


def _load_demo() -> Any:
    name = "drone_motion_planning"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, os.path.join(ROOT, "examples", f"{name}.py"))
    assert spec is not None and spec.loader is not None
    demo = importlib.util.module_from_spec(spec)
    sys.modules[name] = demo
    spec.loader.exec_module(demo)
    return demo


def _agree(a: Any, b: Any) -> bool:
    import numpy as np

    import ivy
    from benchmarks._common import leaves

    la, lb = leaves(list(a) if isinstance(a, tuple) else [a]), leaves(list(b) if isinstance(b, tuple) else [b])
    return len(la) == len(lb) and all(
        np.allclose(
            np.asarray(ivy.to_numpy(u), np.float64), np.asarray(ivy.to_numpy(v), np.float64), rtol=2e-3, atol=2e-4
        )
        for u, v in zip(la, lb)
    )


def _measure(variants: dict[str, Any], sync: Any, rounds: int, target_s: float) -> dict[str, Any]:
    timed = {k: (lambda f=f: sync(f())) for k, f in variants.items()}
    for _ in range(2):
        for f in timed.values():
            f()
    # at least three calls a round: a round's figure is its fastest call, and a call of a few ms
    # is often cut by the scheduler of a loaded machine
    samples = interleaved(timed, rounds, max(3, calls_for(timed["native"], target_s)), fastest=True)
    return {
        "native_us": min(samples["native"]) * 1e6,
        "ivy_us": min(samples["ivy"]) * 1e6,
        "ivy": paired(samples, "ivy", "native"),
        "aa": paired(samples, "aa", "native"),
    }


def bench_backend(backend: str, rounds: int, target_s: float, torch_compile: bool) -> dict[str, Any]:
    """Child: the library functions and the drone step on ``backend`` (torch or jax)."""
    pin_one_thread(backend)
    import ivy
    from benchmarks import _native_libs

    xp = ivy.backend_namespace(backend)
    natives = _native_libs.torch_functions() if backend == "torch" else _native_libs.jax_functions()
    if backend == "torch":
        import torch

        compiler = torch.compile if torch_compile else None
    else:
        import jax

        compiler = jax.jit
    sync = block_until_ready(backend)
    have_robot = importlib.util.find_spec("ivy_robot") is not None
    demo = _load_demo() if have_robot else None
    planner = demo.DronePlanner(backend) if demo is not None else None
    rows: list[dict[str, Any]] = []
    items = [(n, d) for n, d in LIBRARY_FUNCTIONS if have_robot or not d.startswith("ivy_robot")]
    work, done = len(items) + 1, 0
    for name, dotted in items:
        row: dict[str, Any] = {"fn": dotted}
        rows.append(row)
        try:
            lib_fn, nat_fn = _library_fn(dotted), natives[name]
            args = _inputs(name, xp)
            if not _agree(lib_fn(*args), nat_fn(*args)):
                row["error"] = "native and library results differ"
                continue
            row["eager"] = _measure(
                {
                    "native": lambda f=nat_fn, a=args: f(*a),
                    "aa": lambda f=nat_fn, a=args: f(*a),
                    "ivy": lambda f=lib_fn, a=args: f(*a),
                },
                sync,
                rounds,
                target_s,
            )
            if compiler is not None:
                nat_c, ivy_c = compiler(nat_fn), ivy.compile(lib_fn)
                if not _agree(ivy_c(*args), nat_c(*args)):
                    row["compiled_error"] = "compiled results differ"
                else:
                    row["compiled"] = _measure(
                        {
                            "native": lambda f=nat_c, a=args: f(*a),
                            "aa": lambda f=nat_c, a=args: f(*a),
                            "ivy": lambda f=ivy_c, a=args: f(*a),
                        },
                        sync,
                        rounds,
                        target_s,
                    )
        except Exception as e:  # one function failing must not hide the others
            row["error"] = f"{type(e).__name__}: {str(e).splitlines()[0][:160] if str(e) else ''}"
        finally:
            done += 1
            progress(done, work)
    drone: dict[str, Any] = {}
    if planner is not None:
        drone = _drone(backend, demo, planner, natives, compiler if backend == "jax" else None, sync, rounds, target_s)
    progress(work, work)
    return {"backend": backend, "rows": rows, "drone": drone, "robot_importable": have_robot}


def _drone(
    backend: str,
    demo: Any,
    planner: Any,
    natives: dict[str, Any],
    compiler: Any,
    sync: Any,
    rounds: int,
    target_s: float,
) -> dict[str, Any]:
    """One gradient step of the demo through Ivy against the native step."""
    import ivy

    body = ivy.asarray([list(p) + [1.0] for p in demo.DRONE_BODY], dtype="float32", backend=backend)
    scene = {
        "anchor_times": planner.anchor_times,
        "sample_times": planner.sample_times,
        "start": planner.start,
        "target": planner.target,
        "body": body,
        "ext_mats": planner.obstacle_ext_mats,
        "dims": planner.obstacle_dims,
        "weight": demo.COLLISION_WEIGHT,
        "margin": demo.PENALTY_MARGIN,
    }
    lr = demo.DEFAULT_LR
    anchors = planner.initial_anchors(seed=0)
    nat_step = natives["drone_step"]
    out: dict[str, Any] = {"poses": demo.NUM_POSES, "obstacles": len(demo.OBSTACLES)}
    try:

        def ivy_step(a: Any = anchors) -> Any:
            return demo.descent_step(planner.cost_terms, a, lr)

        def native_step(a: Any = anchors) -> Any:
            return nat_step(a, scene, lr)

        if not _agree(ivy_step(), native_step()):
            return {**out, "error": "native and Ivy steps differ"}
        out["eager"] = _measure(
            {"native": native_step, "aa": native_step, "ivy": ivy_step}, sync, max(5, rounds // 3), target_s * 3
        )
        if compiler is not None:
            ivy_c = ivy.compile(lambda a: demo.descent_step(planner.cost_terms, a, lr))
            nat_c = compiler(lambda a: nat_step(a, scene, lr))
            if _agree(ivy_c(anchors), nat_c(anchors)):
                out["compiled"] = _measure(
                    {"native": lambda: nat_c(anchors), "aa": lambda: nat_c(anchors), "ivy": lambda: ivy_c(anchors)},
                    sync,
                    rounds,
                    target_s,
                )
            else:
                out["compiled_error"] = "compiled steps differ"
    except Exception as e:
        out["error"] = f"{type(e).__name__}: {str(e).splitlines()[0][:160] if str(e) else ''}"
    return out


def run_stage(cfg: dict[str, Any], bar: Any) -> dict[str, Any]:
    from benchmarks._common import ChildError, run_child

    quick = cfg.get("quick", False)
    rounds, target = (15, 0.001) if quick else (31, 0.001)
    torch_compile = bool(cfg.get("torch_compile"))
    names = [b for b in BACKENDS if b in cfg["backends"]]
    out: dict[str, Any] = {"rounds": rounds, "torch_compile": torch_compile, "backends": {}, "errors": {}}
    for i, b in enumerate(names):
        try:
            out["backends"][b] = run_child(
                "benchmarks.bench_libraries",
                "bench_backend",
                {"backend": b, "rounds": rounds, "target_s": target, "torch_compile": torch_compile},
                lambda f, i=i, b=b: bar.update((i + f) / len(names), b),
            )
        except ChildError as e:
            out["errors"][b] = str(e)
    bar.close()
    return out
