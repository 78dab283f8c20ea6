"""Compiled mode: an Ivy-written function compiled with ``ivy.compile`` against the same function
written natively and compiled with the framework's own compiler, side by side in one run.

A stage of ``scripts/bench`` (``python -m benchmarks.run --stages compiled``; ``python
benchmarks/bench_compiled.py`` runs that stage alone).

The target is a median ratio ivy/native of at most 1.01: the compiled Ivy program should be the
native program, because Ivy's dispatch runs only while tracing.

Method, made for a small noisy shared machine:

* each backend runs in its own process (paddle before tensorflow: never both in one process),
  single-threaded (thread-count environment variables and the frameworks' own settings);
* both sides take the same inputs, in Ivy's layouts (``linear`` weights ``[out, in]``, conv filters
  ``[h, w, in, out]``): the native functions convert where their framework wants another layout,
  exactly as Ivy's implementation has to;
* ``ivy.compile(fn)`` is timed in its usual form (no ``backend=``: the first call's arrays pick the
  backend), so the small object it returns is part of what is measured;
* after compiling and warming up, each round makes a number of ivy and native calls alternately
  (which side goes first alternating too), each call timed alone, garbage collector off. A
  round's ratio is the median ivy call over the median native call of that round: a slowdown of
  the machine hits both sides of a round alike, and a preempted call or two do not move a median.
  A function's figure is the median of its round ratios (its lowest and highest round are shown,
  and the ratio of the fastest calls of each side);
* each function's compiled program is compared as well: JAX's optimised HLO (names and source
  locations aside), dynamo's graphs and ops for torch, the graph's op count for tensorflow.
"""

from __future__ import annotations

import gc
import os
import re
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from typing import Any

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FUNCTIONS = ("mlp", "norm_attention", "loss_grad", "conv_block")

# ------------------------------------------------------------------------------------ the workloads


def ivy_functions(name: str) -> dict[str, Callable[..., Any]]:
    """The functions written with Ivy; ``name`` only picks the conv layout its framework prefers."""
    import ivy

    fmt = "NCHW" if name in ("torch", "paddle") else "NHWC"

    def mlp(x, w1, b1, w2, b2):
        return ivy.softmax(ivy.linear(ivy.gelu(ivy.linear(x, w1, b1)), w2, b2))

    def norm_attention(q, k, v, scale, offset):
        return ivy.scaled_dot_product_attention(ivy.layer_norm(q, -1, scale=scale, offset=offset), k, v)

    def loss(x, w, b):
        return ivy.mean(ivy.square(ivy.subtract(ivy.tanh(ivy.linear(x, w, b)), 0.5)))

    loss_grad = ivy.value_and_grad(loss, argnums=(1, 2))

    def conv_block(x, f1, f2):
        h = ivy.relu(ivy.conv2d(x, f1, 1, "SAME", data_format=fmt))
        h = ivy.relu(ivy.conv2d(h, f2, 1, "SAME", data_format=fmt))
        return ivy.max_pool2d(h, 2, 2, "VALID", data_format=fmt)

    return {"mlp": mlp, "norm_attention": norm_attention, "loss_grad": loss_grad, "conv_block": conv_block}


def native_functions(
    name: str,
) -> tuple[dict[str, Callable[..., Any]], Callable[[Callable[..., Any]], Callable[..., Any]]]:
    """The same functions in the framework's own API, and its compiler."""
    if name == "torch":
        import torch
        import torch.nn.functional as F

        def mlp(x, w1, b1, w2, b2):
            return torch.softmax(F.linear(F.gelu(F.linear(x, w1, b1)), w2, b2), -1)

        def norm_attention(q, k, v, scale, offset):
            return F.scaled_dot_product_attention(F.layer_norm(q, q.shape[-1:], scale, offset), k, v)

        def loss(x, w, b):
            return torch.mean(torch.square(torch.tanh(F.linear(x, w, b)) - 0.5))

        def loss_grad(x, w, b):
            grads, value = torch.func.grad_and_value(loss, argnums=(1, 2))(x, w, b)
            return value, grads

        def conv_block(x, f1, f2):
            h = F.relu(F.conv2d(x, f1.permute(3, 2, 0, 1), padding="same"))
            h = F.relu(F.conv2d(h, f2.permute(3, 2, 0, 1), padding="same"))
            return F.max_pool2d(h, 2, 2)

        compiler = torch.compile
    elif name == "jax":
        import jax
        import jax.numpy as jnp
        from jax import lax

        def mlp(x, w1, b1, w2, b2):
            return jax.nn.softmax(jax.nn.gelu(x @ w1.T + b1, approximate=False) @ w2.T + b2)

        def norm_attention(q, k, v, scale, offset):
            m = q.mean(-1, keepdims=True)
            q = (q - m) / jnp.sqrt(q.var(-1, keepdims=True) + 1e-5) * scale + offset
            return jax.nn.softmax(q @ jnp.swapaxes(k, -1, -2) / jnp.sqrt(q.shape[-1])) @ v

        def loss(x, w, b):
            return jnp.mean(jnp.square(jnp.tanh(x @ w.T + b) - 0.5))

        loss_grad = jax.value_and_grad(loss, argnums=(1, 2))

        def conv_block(x, f1, f2):
            dn = ("NHWC", "HWIO", "NHWC")
            h = jax.nn.relu(lax.conv_general_dilated(x, f1, (1, 1), "SAME", dimension_numbers=dn))
            h = jax.nn.relu(lax.conv_general_dilated(h, f2, (1, 1), "SAME", dimension_numbers=dn))
            return lax.reduce_window(h, -jnp.inf, lax.max, (1, 2, 2, 1), (1, 2, 2, 1), "VALID")

        compiler = jax.jit
    elif name == "tensorflow":
        import tensorflow as tf

        def mlp(x, w1, b1, w2, b2):
            # bias_add, as Keras' Dense: Grappler fuses MatMul + BiasAdd (+ GELU), not MatMul + AddV2
            h = tf.nn.gelu(tf.nn.bias_add(tf.matmul(x, w1, transpose_b=True), b1), approximate=False)
            return tf.nn.softmax(tf.nn.bias_add(tf.matmul(h, w2, transpose_b=True), b2))

        def norm_attention(q, k, v, scale, offset):
            m, var = tf.nn.moments(q, axes=[-1], keepdims=True)
            q = (q - m) / tf.sqrt(var + 1e-5) * scale + offset
            w = tf.nn.softmax(tf.matmul(q, k, transpose_b=True) / tf.sqrt(float(q.shape[-1])))
            return tf.matmul(w, v)

        def loss_grad(x, w, b):
            with tf.GradientTape() as tape:
                tape.watch([w, b])
                value = tf.reduce_mean(tf.square(tf.tanh(tf.nn.bias_add(tf.matmul(x, w, transpose_b=True), b)) - 0.5))
            return value, tuple(tape.gradient(value, [w, b]))

        def conv_block(x, f1, f2):
            h = tf.nn.relu(tf.nn.conv2d(x, f1, 1, "SAME"))
            h = tf.nn.relu(tf.nn.conv2d(h, f2, 1, "SAME"))
            return tf.nn.max_pool2d(h, 2, 2, "VALID")

        compiler = tf.function
    elif name == "paddle":
        import paddle
        import paddle.nn.functional as F

        def linear(x, w, b):  # F.linear wants w as [in, out]: no transpose
            return paddle.matmul(x, w, transpose_y=True) + b

        def mlp(x, w1, b1, w2, b2):
            return F.softmax(linear(F.gelu(linear(x, w1, b1)), w2, b2))

        def norm_attention(q, k, v, scale, offset):
            q = F.layer_norm(q, q.shape[-1:], scale, offset)
            w = F.softmax(paddle.matmul(q, k, transpose_y=True) / (q.shape[-1] ** 0.5))
            return paddle.matmul(w, v)

        def loss_grad(x, w, b):
            w, b = w.detach(), b.detach()
            w.stop_gradient = b.stop_gradient = False
            value = paddle.mean(paddle.square(paddle.tanh(linear(x, w, b)) - 0.5))
            return value, tuple(paddle.grad(value, [w, b]))

        def conv_block(x, f1, f2):
            h = F.relu(F.conv2d(x, f1.transpose([3, 2, 0, 1]), padding="SAME"))
            h = F.relu(F.conv2d(h, f2.transpose([3, 2, 0, 1]), padding="SAME"))
            return F.max_pool2d(h, 2, 2)

        compiler = paddle.jit.to_static
    else:
        raise SystemExit(f"no native compiled versions for {name!r}")
    fns = {"mlp": mlp, "norm_attention": norm_attention, "loss_grad": loss_grad, "conv_block": conv_block}
    return fns, compiler


def inputs(name: str) -> dict[str, list[Any]]:
    """NumPy inputs, sized for ~0.1-1 ms per call on one core: large enough that the per-call
    Python cost is not all that is measured, small enough for a run of a couple of minutes."""
    import numpy as np

    rng = np.random.default_rng(0)

    def f32(*s: int, scale: float = 1.0) -> Any:
        return (rng.standard_normal(s) * scale).astype(np.float32)

    image = (4, 16, 24, 24) if name in ("torch", "paddle") else (4, 24, 24, 16)
    return {
        "mlp": [f32(128, 256), f32(512, 256, scale=0.06), f32(512), f32(64, 512, scale=0.04), f32(64)],
        "norm_attention": [f32(8, 128, 64), f32(8, 128, 64), f32(8, 128, 64), f32(64), f32(64)],
        "loss_grad": [f32(256, 256), f32(256, 256, scale=0.06), f32(256)],
        "conv_block": [f32(*image), f32(3, 3, 16, 16, scale=0.08), f32(3, 3, 16, 16, scale=0.08)],
    }


# ------------------------------------------------------------------------------ program comparison


def _canonical_hlo(text: str) -> str:
    """Optimised HLO without what differs between two traces of one program: the names of
    values and computations, source locations and the stack-frame tables."""
    keep, skipping = [], False
    for line in text.splitlines():
        if re.match(r"^(FileNames|FunctionNames|FileLocations|StackFrames)", line):
            skipping = True
            continue
        if skipping:
            skipping = line.strip() != ""
            continue
        line = re.sub(r", (metadata|frontend_attributes)=\{[^}]*\}", "", line)
        keep.append(line)
    names: dict[str, str] = {}
    text = re.sub(r"%[\w.\-]+", lambda m: names.setdefault(m.group(0), f"%v{len(names)}"), "\n".join(keep))
    text = re.sub(r"\(([\w.\-]+): ", "(", text)  # computation parameters are named bare
    text = re.sub(r", [\w.\-]+: ", ", ", text)
    return re.sub(r"(HloModule|ENTRY) \S+", r"\1", text)


def compare_programs(name: str, ivy_fn: Callable[..., Any], nat_fn: Callable[..., Any], args: list[Any]) -> str:
    """Whether the two functions compile to the same program, in words."""
    if name == "jax":
        import jax

        hlo = [_canonical_hlo(jax.jit(f).lower(*args).compile().as_text()) for f in (ivy_fn, nat_fn)]
        if hlo[0] == hlo[1]:
            return "same HLO"
        # XLA may schedule independent instructions in another order: compare the instructions
        # as a multiset, value names dropped
        bags = [sorted(re.sub(r"%v\d+", "%", ln).strip() for ln in h.splitlines()) for h in hlo]
        return "same HLO ops, other order" if bags[0] == bags[1] else "HLO differs"
    if name == "torch":
        import torch

        seen = []
        for f in (ivy_fn, nat_fn):
            torch._dynamo.reset()
            e = torch._dynamo.explain(f)(*args)
            ops = [str(n.target) for g in e.graphs for n in g.graph.nodes if n.op in ("call_function", "call_method")]
            seen.append((e.graph_count, e.graph_break_count, ops))
        torch._dynamo.reset()
        (gi, bi, oi), (gn, bn, on) = seen
        if (gi, bi, oi) == (gn, bn, on):
            return f"same ops, {gi} graph" + ("s" if gi > 1 else "")
        if (gi, bi, len(oi)) == (gn, bn, len(on)):  # e.g. torch.relu for F.relu, padding=[1, 1] for "same"
            return f"{gi} graph, {len(oi)} ops each, spelt differently"
        return f"ivy {gi} graphs/{bi} breaks/{len(oi)} ops, native {gn}/{bn}/{len(on)}"
    if name == "tensorflow":
        import tensorflow as tf

        plumbing = {"Placeholder", "Identity", "NoOp", "Const"}
        counts = [
            sum(op.type not in plumbing for op in tf.function(f).get_concrete_function(*args).graph.get_operations())
            for f in (ivy_fn, nat_fn)
        ]
        return f"ops {counts[0]} vs {counts[1]}"
    return "-"


# ------------------------------------------------------------------------------------------ timing


def _leaves(x: Any) -> list[Any]:
    return [v for item in x for v in _leaves(item)] if isinstance(x, (tuple, list)) else [x]


def _pin_one_thread(name: str) -> None:
    if name == "torch":
        import torch

        torch.set_num_threads(1)
        torch.set_num_interop_threads(1)
    elif name == "tensorflow":
        import tensorflow as tf

        tf.config.threading.set_intra_op_parallelism_threads(1)
        tf.config.threading.set_inter_op_parallelism_threads(1)
    elif name == "paddle":
        import paddle

        paddle.set_device("cpu")


def _one(f: Callable[..., Any], args: list[Any], sync: Callable[[Any], Any]) -> float:
    t0 = time.perf_counter()
    sync(f(*args))
    return time.perf_counter() - t0


def time_pair(
    fi: Callable[..., Any], fn: Callable[..., Any], args: list[Any], sync: Callable[[Any], Any], rounds: int, pairs: int
) -> dict[str, Any]:
    """Paired rounds of interleaved single calls; see the module docstring."""
    for _ in range(pairs):  # warm-up: caches, allocator, lazy initialisation after compiling
        _one(fi, args, sync)
        _one(fn, args, sync)
    med_i, med_n, ratios, all_i, all_n = [], [], [], [], []
    gc.collect()
    gc.disable()
    try:
        for r in range(rounds):
            t_i, t_n = [], []
            for k in range(pairs):
                if (r + k) % 2 == 0:  # alternate which side goes first
                    t_i.append(_one(fi, args, sync))
                    t_n.append(_one(fn, args, sync))
                else:
                    t_n.append(_one(fn, args, sync))
                    t_i.append(_one(fi, args, sync))
            # the median call of a round: a preempted call or two do not move it
            med_i.append(statistics.median(t_i))
            med_n.append(statistics.median(t_n))
            ratios.append(med_i[-1] / med_n[-1])
            all_i += t_i
            all_n += t_n
    finally:
        gc.enable()
    return {
        "native_us": statistics.median(med_n) * 1e6,
        "ivy_us": statistics.median(med_i) * 1e6,
        "ratio_median": statistics.median(ratios),
        "ratio_of_mins": min(all_i) / min(all_n),
        "ratio_lo": min(ratios),
        "ratio_hi": max(ratios),
    }


def bench_backend(name: str, rounds: int, pairs: int, only: tuple[str, ...] = FUNCTIONS) -> dict[str, Any]:
    import numpy as np

    _pin_one_thread(name)
    import ivy

    natives, compiler = native_functions(name)
    xp = ivy.backend_namespace(name)
    sync = (lambda r: [v.block_until_ready() for v in _leaves(r)]) if name == "jax" else (lambda r: r)
    from benchmarks._common import progress

    rows = []
    for k, (fname, ivy_fn) in enumerate(ivy_functions(name).items()):
        progress(k, len(FUNCTIONS))
        if fname not in only:
            continue
        nat_fn = natives[fname]
        args = [xp.asarray(a) for a in inputs(name)[fname]]
        try:
            program = compare_programs(name, ivy_fn, nat_fn, args)
            ivy_c, nat_c = ivy.compile(ivy_fn), compiler(nat_fn)
            got, want = (_leaves(c(*args)) for c in (ivy_c, nat_c))  # the first call compiles
            err = max(float(np.max(np.abs(ivy.to_numpy(g) - ivy.to_numpy(w)))) for g, w in zip(got, want))
            row = time_pair(ivy_c, nat_c, args, sync, rounds, pairs)
        except Exception as e:  # one function failing must not hide the others
            rows.append({"fn": fname, "error": f"{type(e).__name__}: {str(e).splitlines()[0][:160] if str(e) else ''}"})
            continue
        rows.append({"fn": fname, **row, "max_abs_diff": err, "program": program})
    return {"backend": name, "rows": rows}


# -------------------------------------------------------------------------------------------- main


def run_stage(cfg: dict[str, Any], bar: Any) -> dict[str, Any]:
    """Parent: one child per backend with a compiler (paddle before tensorflow)."""
    from benchmarks._common import ChildError, run_child

    rounds, pairs = (7, 10) if cfg.get("quick") else (15, 10)
    names = [b for b in cfg["backends"] if b != "numpy"]
    out: dict[str, Any] = {"rounds": rounds, "pairs": pairs, "backends": {}, "errors": {}}
    for i, name in enumerate(names):
        try:
            res = run_child(
                "benchmarks.bench_compiled",
                "bench_backend",
                {"name": name, "rounds": rounds, "pairs": pairs},
                lambda f, i=i, name=name: bar.update((i + f) / len(names), name),
            )
        except ChildError as e:
            out["errors"][name] = str(e)
            continue
        ok = [r["ratio_median"] for r in res["rows"] if "error" not in r]
        res["median_ratio"] = statistics.median(ok) if ok else None
        out["backends"][name] = res
    bar.close()
    return out


if __name__ == "__main__":
    sys.exit(subprocess.call([sys.executable, "-m", "benchmarks.run", "--stages", "compiled", *sys.argv[1:]], cwd=ROOT))
