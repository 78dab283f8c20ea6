"""Seven small models written with Ivy's layers against the same models as each framework's
tutorials write them: one training step (forward, loss, backward, optimizer update), per backend.

A stage of ``scripts/bench`` (``python -m benchmarks.run --stages native_models``), or alone:

    python -m benchmarks.bench_native_models [--quick] [--backends torch,jax] [--models mlp,gru]
                                             [--skip-compiled torch] [--json PATH]

The models (CPU-sized; the same architecture and parameter count on both sides, checked): an MLP,
a ResNet-style CNN (stem conv, conv-BN-ReLU-conv-BN plus the skip, global average pool, dense), GRU
and LSTM forecasters (last hidden state, dense), a two-layer post-norm transformer encoder
classifier (the default of torch's and paddle's layers), a small pre-norm ViT (patch-embedding
convolution, class token, learned positions, encoder, final norm, head) and a convolutional VAE
(two strided convolutions, the reparameterisation with noise drawn in the step, two transposed
convolutions, reconstruction + KL loss). Ivy: ``ivy.Module`` layers, ``ivy.execute_with_gradients``
and ``ivy.Adam.step``. Native (``_native_models.py``): torch.nn + torch.optim; flax.linen +
optax; Keras 3 layers with ``tf.GradientTape`` and a Keras Adam; paddle.nn + paddle.optimizer.

Modes: ``eager`` (not on JAX, where nobody trains eagerly) and ``compiled``: the Ivy step through
``ivy.compile`` against torch.compile (default mode), jax.jit, tf.function (``jit_compile=False``:
what Keras' ``jit_compile="auto"`` picks on a CPU-only machine) and paddle.jit.to_static of the
model (paddle's optimizer step stays eager). The first compiled step of each side is timed (the
compile time), and the next two (where a compiler specialised on the first call compiles again).
Ratio: Ivy / native time per step, the median over interleaved rounds of the per-round ratio of
each side's fastest step, with quartiles (``_common.interleaved``). Target 1.05.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
import time
from collections.abc import Callable
from typing import Any

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

from benchmarks import _native_models as nat  # noqa: E402

MODELS, S = nat.MODELS, nat.SIZES

SUPPORTED = ("torch", "jax", "paddle", "tensorflow")  # paddle before tensorflow
TARGET = 1.05
LR, EPS = 1e-3, 1e-7
# a compiler that takes minutes per model's training step on a small CPU (torch.compile's inductor;
# paddle's to_static and the others take seconds): left out with --skip-slow-compile
SLOW_COMPILERS = ("torch",)

# ------------------------------------------------------------------------------------ Ivy models


def ivy_model(kind: str, backend: str, channels_first: bool) -> Any:
    """The Ivy model of ``kind`` on ``backend``, in the framework's own image layout."""
    import ivy

    fmt = "NCHW" if channels_first else "NHWC"
    kw = {"backend": backend}
    if kind == "mlp":
        d = S["mlp"]
        return ivy.Sequential(
            ivy.Linear(d[0], d[1]), ivy.ReLU(), ivy.Linear(d[1], d[2]), ivy.ReLU(), ivy.Linear(d[2], d[3]), **kw
        )
    if kind == "cnn":
        c = S["channels"]

        class ResNetish(ivy.Module):
            def __init__(self) -> None:
                self.stem = ivy.Conv2D(3, c, 3, 1, "SAME", data_format=fmt)
                # no bias before a batch norm (its offset is the bias), as ResNets write it
                self.conv1 = ivy.Conv2D(c, c, 3, 1, "SAME", data_format=fmt, with_bias=False)
                self.bn1 = ivy.BatchNorm2D(c, data_format=fmt)
                self.conv2 = ivy.Conv2D(c, c, 3, 1, "SAME", data_format=fmt, with_bias=False)
                self.bn2 = ivy.BatchNorm2D(c, data_format=fmt)
                self.pool = ivy.GlobalAvgPool2D(data_format=fmt)
                self.head = ivy.Linear(c, S["classes"])
                ivy.Module.__init__(self, **kw)

            def _forward(self, x: Any) -> Any:
                x = ivy.relu(self.stem(x))
                h = self.bn2(self.conv2(ivy.relu(self.bn1(self.conv1(x)))))
                return self.head(self.pool(ivy.relu(h + x)))

        return ResNetish()
    if kind in ("gru", "lstm"):
        layer = ivy.GRU if kind == "gru" else ivy.LSTM

        class Forecaster(ivy.Module):
            def __init__(self) -> None:
                self.rnn = layer(S["features"], S["hidden"], return_state=False)
                self.head = ivy.Linear(S["hidden"], 1)
                ivy.Module.__init__(self, **kw)

            def _forward(self, x: Any) -> Any:
                return self.head(self.rnn(x)[:, -1])

        return Forecaster()
    if kind == "transformer":

        class Classifier(ivy.Module):
            def __init__(self) -> None:
                d = S["d_model"]
                self.proj = ivy.Linear(S["tokens_in"], d)
                self.encoder = ivy.TransformerEncoder(S["layers"], d, S["heads"], S["ff"], 0.0)
                self.head = ivy.Linear(d, S["classes"])
                ivy.Module.__init__(self, **kw)

            def _forward(self, x: Any) -> Any:
                return self.head(ivy.mean(self.encoder(self.proj(x)), axis=1))

        return Classifier()
    if kind == "vit":
        p, d = S["patch"], S["d_model"]
        n = (S["side"] // p) ** 2

        class ViT(ivy.Module):
            def __init__(self) -> None:
                self.patches = ivy.Conv2D(3, d, p, p, "VALID", data_format=fmt)
                self.encoder = ivy.TransformerEncoder(
                    S["layers"], d, S["heads"], S["ff"], 0.0, activation="gelu", norm_first=True, final_norm=True
                )
                self.head = ivy.Linear(d, S["classes"])
                ivy.Module.__init__(self, **kw)
                self.add_weight("cls_token", (1, 1, d), initializer=ivy.Zeros())
                self.add_weight("position", (1, n + 1, d), initializer=ivy.RandomNormal(0.0, 0.02))

            def _forward(self, x: Any) -> Any:
                h = self.patches(x)
                b = h.shape[0]
                # [batch, patches, d] from either layout
                h = ivy.reshape(h, (b, d, n)) if channels_first else ivy.reshape(h, (b, n, d))
                h = ivy.matrix_transpose(h) if channels_first else h
                h = ivy.concat([ivy.broadcast_to(self.cls_token, (b, 1, d)), h], axis=1) + self.position
                return self.head(self.encoder(h)[:, 0])

        return ViT()
    if kind == "vae":
        c, z = S["channels"], S["latent"]
        q = S["side"] // 4  # two stride-2 convolutions
        flat = 2 * c * q * q

        class VAE(ivy.Module):
            def __init__(self) -> None:
                self.enc1 = ivy.Conv2D(1, c, 4, 2, "SAME", data_format=fmt)
                self.enc2 = ivy.Conv2D(c, 2 * c, 4, 2, "SAME", data_format=fmt)
                self.stats = ivy.Linear(flat, 2 * z)
                self.dec = ivy.Linear(z, flat)
                self.up1 = ivy.Conv2DTranspose(2 * c, c, 4, 2, "SAME", data_format=fmt)
                self.up2 = ivy.Conv2DTranspose(c, 1, 4, 2, "SAME", data_format=fmt)
                ivy.Module.__init__(self, **kw)

            def _forward(self, x: Any) -> Any:
                b = x.shape[0]
                h = ivy.relu(self.enc2(ivy.relu(self.enc1(x))))
                mu, logvar = ivy.split(self.stats(ivy.reshape(h, (b, flat))), num_or_size_splits=2, axis=-1)
                eps = ivy.random_normal(shape=mu.shape, dtype=mu.dtype, backend=ivy.namespace(mu))
                h = ivy.relu(self.dec(mu + ivy.exp(0.5 * logvar) * eps))
                h = ivy.reshape(h, (b, 2 * c, q, q) if channels_first else (b, q, q, 2 * c))
                xhat = ivy.sigmoid(self.up2(ivy.relu(self.up1(h))))
                # reconstruction (squared error summed per image) + KL, batch means
                rec = ivy.sum((xhat - x) ** 2) / b
                kl = -0.5 * ivy.sum(1.0 + logvar - mu**2 - ivy.exp(logvar)) / b
                return rec + kl

        return VAE()
    raise ValueError(f"unknown model {kind!r}; models: {', '.join(MODELS)}")


def ivy_loss(kind: str, model: Any, x: Any, y: Any, v: Any) -> Any:
    import ivy

    out = model(x, v=v)
    if kind == "vae":
        return out
    if kind in ("gru", "lstm"):
        return ivy.mean((out - y) ** 2)
    return ivy.losses.cross_entropy(y, out, from_logits=True)


def ivy_step(kind: str, model: Any) -> Callable[[Any, Any], Any]:
    """The step as a user writes it: gradients of the loss, an Adam update."""
    import ivy

    opt = ivy.Adam(LR, epsilon=EPS)

    def step(x: Any, y: Any) -> Any:
        loss, grads = ivy.execute_with_gradients(lambda v: ivy_loss(kind, model, x, y, v), model.v)
        model.v = opt.step(model.v, grads)
        return loss

    return step


def n_params(tree: Any) -> int:
    import numpy as np

    import ivy

    return int(sum(np.prod(tuple(a.shape)) for a in ivy.nest.leaves(tree)))


# ----------------------------------------------------------------------------------------- child


def _timed_first(fn: Callable[[], Any]) -> float:
    """Seconds of the first call (the compile, for a compiled step)."""
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


def _measure(
    step: Callable[[Any, Any], Any],
    native: Callable[[], Any],
    x: Any,
    y: Any,
    compiled: bool,
    rounds: int,
    number: int,
    sync: Callable[[Any], Any],
) -> dict[str, Any]:
    """One row: the compile times (first calls), the first losses, the paired timings."""
    import numpy as np

    import ivy
    from benchmarks._common import interleaved, paired

    ivy_fn = ivy.compile(step) if compiled else step

    def run_ivy() -> Any:
        return sync(ivy_fn(x, y))

    def run_native() -> Any:
        return sync(native())

    entry: dict[str, Any] = {}
    if compiled:
        entry["ivy_compile_s"] = _timed_first(run_ivy)
        entry["native_compile_s"] = _timed_first(run_native)
        # the next two calls: a compiler that specialises on the first call's values (torch.compile
        # on a step count) compiles again until it marks them dynamic
        entry["ivy_recompile_s"] = _timed_first(run_ivy) + _timed_first(run_ivy)
        entry["native_recompile_s"] = _timed_first(run_native) + _timed_first(run_native)
    entry["losses"] = float(ivy.to_numpy(run_ivy())), float(np.asarray(nat.to_numpy(run_native())))
    for _ in range(2):  # warm caches and allocators
        run_ivy(), run_native()
    samples = interleaved({"ivy": run_ivy, "native": run_native}, rounds, number, fastest=True)
    return {
        **entry,
        "ivy_ms": 1e3 * float(np.median(samples["ivy"])),
        "native_ms": 1e3 * float(np.median(samples["native"])),
        **paired(samples, "ivy", "native"),
    }


def bench_backend(backend: str, models: list[str], rounds: int, number: int, compiled: bool) -> dict[str, Any]:
    """Every model of ``models`` on ``backend``: ``{model: {mode: timing}}`` (a child process)."""

    import ivy
    from benchmarks._common import block_until_ready, pin_one_thread, progress

    pin_one_thread(backend)
    ivy.seed(0)
    sync = block_until_ready(backend)
    channels_first = backend in ("torch", "paddle")  # each framework's own image layout
    out: dict[str, Any] = {}
    for k, kind in enumerate(models):
        progress(k, len(models))
        sys.stdout.write(f"@@N {backend} {kind}\n")
        sys.stdout.flush()
        xn, yn = nat.data(kind, channels_first, "int32" if backend == "jax" else "int64")
        x, y = ivy.asarray(xn, backend=backend), ivy.asarray(yn, backend=backend)
        res: dict[str, Any] = {}
        modes = (["eager"] if backend != "jax" else []) + (["compiled"] if compiled or backend == "jax" else [])
        for mode in modes:
            if backend == "torch" and mode == "compiled":
                import torch

                # a model's own compile, as in a process of its own: dynamo counts recompiles per
                # code object, and every model's step is the same code (after 8 it runs eagerly)
                torch._dynamo.reset()
            model = ivy_model(kind, backend, channels_first)
            model(x)  # build
            native, count = nat.native_step(backend, kind, xn, yn, mode == "compiled")
            res["params"], res["native_params"] = n_params(model.v), count
            nat.check_params(backend, kind, res["params"], count)
            try:  # a compiler's failure costs this row only
                res[mode] = _measure(ivy_step(kind, model), native, x, y, mode == "compiled", rounds, number, sync)
            except Exception as e:  # any framework compiler error
                res[mode] = {"error": " ".join(f"{type(e).__name__}: {e}".split())[:300]}  # one line
        out[kind] = res
    progress(len(models), len(models))
    return out


# ---------------------------------------------------------------------------------------- parent


def run_stage(cfg: dict[str, Any], bar: Any, log: Callable[[str], None] | None = None) -> dict[str, Any]:
    """Parent: one child per backend (paddle before tensorflow), a progress line per model."""
    from benchmarks._common import ChildError, backend_fractions, child_env, run_child

    quick = bool(cfg.get("quick"))
    rounds, number = (5, 2) if quick else (15, 3)
    models = list(cfg.get("models") or MODELS)
    skip = set(cfg.get("skip_compiled") or ()) | (set(SLOW_COMPILERS) if cfg.get("skip_slow_compile") else set())
    names = [b for b in cfg["backends"] if b in SUPPORTED]
    if log is None:  # a line per model, above the progress bar
        tq = getattr(bar, "tqdm", None)
        log = tq.write if tq is not None else (lambda s: print("\n" + s, file=sys.stderr))
    out: dict[str, Any] = {
        "rounds": rounds,
        "steps_per_round": number,
        "target": TARGET,
        "sizes": S,
        "native": nat.NATIVE,
        "skipped_compiled": sorted(skip & set(names)),
        "backends": {},
        "errors": {},
    }
    cache = tempfile.mkdtemp(prefix="ivy-bench-inductor-")
    fraction_of = backend_fractions(bar, names)
    for i, name in enumerate(names):
        started = time.perf_counter()

        def note(line: str, name: str = name, started: float = started) -> None:
            log(f"  native_models: {line} ({time.perf_counter() - started:.0f} s into {name})")

        try:
            out["backends"][name] = run_child(
                "benchmarks.bench_native_models",
                "bench_backend",
                {"backend": name, "models": models, "rounds": rounds, "number": number, "compiled": name not in skip},
                fraction_of(i),
                # a cache of its own: the compile times are of a first compile, not of a cache hit
                env=child_env(name, TORCHINDUCTOR_CACHE_DIR=cache),
                on_note=note,
            )
        except ChildError as e:
            out["errors"][name] = str(e)
    shutil.rmtree(cache, ignore_errors=True)
    bar.close()
    return out


def _compile_text(m: dict[str, Any], side: str) -> str:
    """The first compiled call's seconds, and those of the next two where they compiled again."""
    again = m.get(f"{side}_recompile_s", 0.0)
    return f"{m[f'{side}_compile_s']:.1f}" + (f" (+{again:.1f})" if again >= 0.5 else "")


def _rows(r: dict[str, Any]) -> list[list[str]]:
    rows = []
    for b, models in r["backends"].items():
        for kind, res in models.items():
            for mode in ("eager", "compiled"):
                m = res.get(mode)
                if m is None or "error" in m:
                    continue
                compile_s = f"{_compile_text(m, 'ivy')} / {_compile_text(m, 'native')}" if "ivy_compile_s" in m else "-"
                mark = "✓" if m["ratio"] <= r["target"] else "✗"
                rows.append(
                    [
                        kind,
                        b,
                        mode,
                        f"{res['params']:,}"
                        + ("" if res["native_params"] == res["params"] else f" ({res['native_params']:,})"),
                        f"{m['native_ms']:.2f}",
                        f"{m['ivy_ms']:.2f}",
                        f"{m['ratio']:.3f} {mark}",
                        f"[{m['q1']:.3f}, {m['q3']:.3f}]",
                        compile_s,
                        r["native"].get(b, {}).get(mode, ""),
                    ]
                )
    return rows


HEAD = [
    "model",
    "backend",
    "mode",
    "params",
    "native ms",
    "Ivy ms",
    "Ivy / native",
    "[q1, q3]",
    "compile s (Ivy / native)",
    "native",
]


def failures(r: dict[str, Any]) -> list[tuple[str, str, str, str]]:
    """``(backend, model, mode, error)`` of each row that failed to run (a compiler's error)."""
    return [
        (b, kind, mode, res[mode]["error"])
        for b, models in r["backends"].items()
        for kind, res in models.items()
        for mode in ("eager", "compiled")
        if "error" in res.get(mode, {})
    ]


def table(r: dict[str, Any]) -> str:
    """Plain text: the script's printout."""
    lines = ["  ".join(HEAD[:9])] + ["  ".join(row[:9]) for row in _rows(r)]
    lines += [f"{b}: failed: {e}" for b, e in r.get("errors", {}).items()]
    lines += [f"{kind} on {b}, {mode}: failed: {e}" for b, kind, mode, e in failures(r)]
    return "\n".join(lines)


def summary(r: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Per backend and mode: the median over models of the Ivy / native ratio, how many models
    met the target, and the compile times summed over the models (Ivy, native)."""
    import statistics

    out: dict[str, dict[str, Any]] = {}
    for b, models in r["backends"].items():
        for mode in ("eager", "compiled"):
            ms = [res[mode] for res in models.values() if "ratio" in res.get(mode, {})]
            if ms:
                out.setdefault(b, {})[mode] = {
                    "median_ratio": statistics.median(m["ratio"] for m in ms),
                    "met": sum(m["ratio"] <= r["target"] for m in ms),
                    "models": len(ms),
                    "compile_s": (
                        sum(m.get("ivy_compile_s", 0.0) + m.get("ivy_recompile_s", 0.0) for m in ms),
                        sum(m.get("native_compile_s", 0.0) + m.get("native_recompile_s", 0.0) for m in ms),
                    ),
                }
    return out


def _summary_table(r: dict[str, Any]) -> str:
    rows = []
    for b, modes in summary(r).items():
        cells = [b]
        for mode in ("eager", "compiled"):
            m = modes.get(mode)
            cells.append("-" if m is None else f"{m['median_ratio']:.2f} ({m['met']}/{m['models']} met)")
        c = modes.get("compiled")
        cells.append("-" if c is None else f"{c['compile_s'][0]:.0f} / {c['compile_s'][1]:.0f}")
        rows.append("| " + " | ".join(cells) + " |\n")
    head = (
        "| backend | eager: median Ivy / native | compiled: median Ivy / native "
        "| compile s, all models, first three steps (Ivy / native) |"
    )
    return head + "\n|---|---:|---:|---:|\n" + "".join(rows)


def report_section(results: dict[str, Any]) -> str:
    """The section of RESULTS.md (``_report.py``)."""
    r = results.get("stages", {}).get("native_models", {}).get("result")
    if not isinstance(r, dict) or not r.get("backends"):
        return ""
    head = "| " + " | ".join(HEAD) + " |\n|" + "|".join(["---"] * 3 + ["---:"] * 6 + ["---"]) + "|\n"
    body = "".join("| " + " | ".join(row) + " |\n" for row in _rows(r))
    skipped = r.get("skipped_compiled") or []
    notes = (
        f"\nCompiled steps not measured on {', '.join(skipped)} (`--skip-compiled`: minutes of compiling here).\n"
        if skipped
        else ""
    )
    notes += "".join(f"\n* {b}: failed: {e}" for b, e in r.get("errors", {}).items())
    notes += "".join(f"\n* {kind} on {b}, {mode}: failed: {m}" for b, kind, mode, m in failures(r))
    return (
        "## Ivy models vs the native models (bench_native_models.py)\n\n"
        "One training step (forward, loss, backward, Adam) of seven small models built from Ivy's layers "
        "(`ivy.Module`, `ivy.execute_with_gradients`, `ivy.Adam`) against the same architecture written "
        "as each framework's tutorials write it (params: Ivy's count, the native one in brackets where it "
        "differs: torch's and paddle's LSTM carry two bias vectors per gate, flax's GRU cell none on the "
        "hidden side for two gates, the same functions). Eager: Ivy eager vs the native eager step; "
        "compiled: `ivy.compile` of the whole stateful step vs torch.compile, jax.jit (flax + optax), "
        "tf.function (Keras' CPU default, no XLA) and paddle.jit.to_static of the model; compile s: the "
        "first compiled step of each side (in brackets: the next two, where they compiled again; Ivy's first "
        "step runs eagerly where its optimizer makes its state then, and compiles on the second). "
        f"{r['rounds']} interleaved rounds of {r['steps_per_round']} "
        "steps, each side's fastest step per round, the median of the per-round ratios with quartiles; "
        f"target Ivy / native <= {r['target']} (✓ met, ✗ missed). Per backend, over the models:\n\n"
        + _summary_table(r)
        + "\n"
        + head
        + body
        + notes
        + "\n"
    )


def main(argv: list[str] | None = None) -> int:
    from benchmarks._common import Bar

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--backends", default="torch,jax,paddle,tensorflow", help="comma-separated")
    ap.add_argument("--models", default=",".join(MODELS), help=f"comma-separated, from {','.join(MODELS)}")
    ap.add_argument("--skip-compiled", default="", help="backends whose compiled steps are left out (e.g. torch)")
    ap.add_argument("--quick", action="store_true", help="fewer rounds")
    ap.add_argument("--json", help="write the results here")
    args = ap.parse_args(argv)
    models = [m for m in args.models.split(",") if m]
    unknown = [m for m in models if m not in MODELS]
    if unknown:
        ap.error(f"unknown model(s) {', '.join(unknown)}; models: {', '.join(MODELS)}")
    cfg = {
        "quick": args.quick,
        "backends": [b for b in args.backends.split(",") if b in SUPPORTED],
        "models": models,
        "skip_compiled": [b for b in args.skip_compiled.split(",") if b],
    }
    results = run_stage(cfg, Bar("native_models"))
    print(table(results))
    if args.json:
        from ivy import _atomic

        _atomic.write_text(args.json, json.dumps(results, indent=1))
    return 1 if results["errors"] else 0


if __name__ == "__main__":
    sys.exit(main())
