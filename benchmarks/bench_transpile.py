"""The transpiler: torch programs transpiled to each target against the same programs run by torch
itself (eager, and ``torch.compile``), and how long transpiling takes, cold and from the disk cache.

    python benchmarks/bench_transpile.py [--targets jax,tensorflow,paddle,torch] [--models mlp,cnn,...]
                                         [--quick] [--no-compile] [--compile-models mlp,cnn,...]
                                         [--json PATH]

The programs (torch, inference mode, small enough for a CPU):

* ``mlp``      Linear 256-512-256-10 with GELUs, batch 32;
* ``cnn``      two conv-BatchNorm-ReLU blocks, global average pooling and a linear head, on
               8x3x32x32 NCHW images;
* ``encoder``  ``torch.nn.TransformerEncoderLayer`` (d_model 64, 4 heads), 4x32 tokens;
* ``bert``     a Hugging Face ``BertModel`` from a small config (2 layers, hidden 64, random
               weights, no download), 2x32 token ids (skipped without transformers);
* ``vit``      a Hugging Face ``ViTModel`` (32x32 images, 8x8 patches, 2 layers, hidden 64), on
               2x3x32x32 images;
* ``resnet18`` Hugging Face ``ResNetModel`` with ResNet-18's configuration (basic blocks, depths
               2-2-2-2, widths 64-512; torchvision's needs a CUDA build of torch here), on
               2x3x32x32 images;
* ``convnext`` a Hugging Face ``ConvNextModel`` (2 stages of 2 blocks, widths 32-64: 7x7 depthwise
               convolutions, layer norm over channels, inverted bottlenecks), on 2x3x32x32 images;
* ``wav2vec2`` a Hugging Face ``Wav2Vec2Model`` (speech: a 3-layer convolutional feature encoder
               with group norm, a grouped positional convolution, 2 transformer layers of hidden
               64), on 2 clips of 1600 samples;
* ``clip``     a Hugging Face ``CLIPModel`` (vision-language: text and vision towers of 2 layers,
               hidden 64, 32x32 images in 8x8 patches, projections of 32), on 2 texts of 16 token
               ids and 2 images;
* ``blur``     the function ``kornia.filters.gaussian_blur2d`` (5x5, sigma 1.5) on 8x3x32x32
               images (skipped without kornia);
* ``kornia.<function>`` kornia's functions called through the library transpiled lazily,
               ``ivy.transpile(kornia, to=target)`` (the paper's use): ``morphology.dilation``
               (a 7x7 kernel, a 1x1x64x64 binary image), ``color.rgb_to_hsv``, ``filters.sobel``
               and ``filters.canny`` (1x3x64x64 images). Their ``cold`` is the first call (it
               transpiles and compiles), their ``first call`` the next one, their ``cached``
               the first call in a second process.

Each target runs in its own process (one thread; paddle and TensorFlow never share one), with an
empty disk cache. For each program it records

* ``cold``: ``ivy.transpile`` from nothing (torch.export, the frontend, emission), after a
  warm-up transpile of a tiny module (imports, the frontend's loading: once per process);
  ``first call``: the first call (the target's compiler runs);
* ``cached``: ``ivy.transpile`` again in a second process sharing the cache folder;
* the **ratios** ``transpiled / torch eager``: single calls of both interleaved, the median of
  each round's ratio of median calls. The transpiled program runs as the target's idiom has it:
  JAX ``jax.jit(module.apply)``, TensorFlow the Keras layer under ``tf.function``, paddle and
  torch the native module eagerly;
* ``transpiled / torch.compile``: the ratio above times ``eager / torch.compile``, measured the
  same way in the jax process (else the torch one), for the programs of ``--compile-models``
  (default: the models and ``blur``, not kornia's functions; ``--no-compile`` skips
  torch.compile: it needs a C++ compiler and takes tens of seconds per program);
* ``transpiled / best torch mode``: against the faster of torch eager and ``torch.compile``
  (the paper's Table 1 reports all three), ``-`` where torch.compile was not run;
* ``transpiled / native in target``: against the same architecture written natively in the
  target (``_native_targets.py``: Flax under ``jax.jit`` for the MLP, the CNN and the encoder;
  Keras layers under ``tf.function`` for those and BERT, ViT and ConvNeXt; ``paddle.nn`` eagerly
  for those and Wav2Vec2 and CLIP; kornia's ``rgb_to_hsv``, ``sobel`` and ``dilation`` written
  by hand in paddle and TensorFlow, ``_zoo_kornia.py``), measured the same way; ``-`` where the
  stage has no twin.

Cold and cached times count ``ivy.transpile`` alone: the frameworks (torch, the target's,
transformers) are imported, and their garbage collected, before the clock starts. The cold run
is warmed up first (see above); the cached run is not, so its first program includes loading
Ivy's backends and the frontend.

Outputs are checked against torch first (max abs difference printed). The goal: the
transpiled JAX program is at least as fast as the best torch mode (ratio <= 1); a cold transpile
under 10 s, a cached one under 1 s.
"""

from __future__ import annotations

import argparse
import gc
import json
import logging
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from typing import Any

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

from benchmarks._native_targets import native_twin  # noqa: E402

TARGETS = ("jax", "tensorflow", "paddle", "torch")
#: kornia's functions called through ``ivy.transpile(kornia, to=target)``: program -> its path
LIBRARY = {
    "kornia.dilation": "morphology.dilation",
    "kornia.rgb_to_hsv": "color.rgb_to_hsv",
    "kornia.sobel": "filters.sobel",
    "kornia.canny": "filters.canny",
}
#: the model zoo: a transformer of each kind, CNNs (dense, residual, depthwise), speech, vision-language
ZOO = ("mlp", "cnn", "encoder", "bert", "vit", "resnet18", "convnext", "wav2vec2", "clip")
MODELS = (*ZOO, "blur", *LIBRARY)
#: the programs torch.compile runs on by default (it takes tens of seconds per program)
COMPILED = (*ZOO, "blur")
_MARK = "@@bench_transpile@@"


# --------------------------------------------------------------------------- the torch programs


def build(name: str) -> tuple[Any, tuple[Any, ...], str] | None:
    """``(program, example inputs, "module" | "function")`` of the torch program ``name``, seeded;
    None where a library it needs is not installed."""
    import torch

    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(1)
    nn = torch.nn
    if name == "mlp":
        net = nn.Sequential(nn.Linear(256, 512), nn.GELU(), nn.Linear(512, 256), nn.GELU(), nn.Linear(256, 10))
        return net.eval(), (torch.rand(32, 256, generator=gen),), "module"
    if name == "cnn":
        net = nn.Sequential(
            nn.Conv2d(3, 16, 3, padding=1),
            nn.BatchNorm2d(16),
            nn.ReLU(),
            nn.Conv2d(16, 32, 3, stride=2, padding=1),
            nn.BatchNorm2d(32),
            nn.ReLU(),
            nn.AdaptiveAvgPool2d(1),
            nn.Flatten(),
            nn.Linear(32, 10),
        )
        return net.eval(), (torch.rand(8, 3, 32, 32, generator=gen),), "module"
    if name == "encoder":
        layer = nn.TransformerEncoderLayer(64, 4, dim_feedforward=128, dropout=0.0, batch_first=True)
        return layer.eval(), (torch.rand(4, 32, 64, generator=gen),), "module"
    if name == "bert":
        try:
            from transformers import BertConfig, BertModel
        except ImportError:
            return None
        cfg = BertConfig(
            vocab_size=100,
            hidden_size=64,
            num_hidden_layers=2,
            num_attention_heads=4,
            intermediate_size=128,
            max_position_embeddings=64,
        )
        return BertModel(cfg).eval(), (torch.randint(0, 100, (2, 32), generator=gen),), "module"
    if name == "vit":
        try:
            from transformers import ViTConfig, ViTModel
        except ImportError:
            return None
        vcfg = ViTConfig(
            image_size=32,
            patch_size=8,
            hidden_size=64,
            num_hidden_layers=2,
            num_attention_heads=4,
            intermediate_size=128,
        )
        return ViTModel(vcfg).eval(), (torch.rand(2, 3, 32, 32, generator=gen),), "module"
    if name == "resnet18":
        try:
            from transformers import ResNetConfig, ResNetModel
        except ImportError:
            return None
        rcfg = ResNetConfig(
            layer_type="basic", depths=[2, 2, 2, 2], hidden_sizes=[64, 128, 256, 512], embedding_size=64
        )
        return ResNetModel(rcfg).eval(), (torch.rand(2, 3, 32, 32, generator=gen),), "module"
    if name in ("convnext", "wav2vec2", "clip"):
        return _hugging_face(name, gen)
    if name == "blur":
        try:
            import kornia
        except ImportError:
            return None

        def blur(x: Any) -> Any:
            return kornia.filters.gaussian_blur2d(x, (5, 5), (1.5, 1.5))

        return blur, (torch.rand(8, 3, 32, 32, generator=gen),), "function"
    if name in LIBRARY:
        try:
            import kornia
        except ImportError:
            return None
        fn = _attr(kornia, LIBRARY[name])
        if name == "kornia.dilation":
            edges = (torch.rand(1, 1, 64, 64, generator=gen) > 0.7).float()
            return fn, (edges, torch.ones(7, 7)), "library"
        return fn, (torch.rand(1, 3, 64, 64, generator=gen),), "library"
    raise ValueError(f"unknown program {name!r}; one of {', '.join(MODELS)}")


def _hugging_face(name: str, gen: Any) -> tuple[Any, tuple[Any, ...], str] | None:
    """The zoo's convolutional, speech and vision-language models, from small configs."""
    import torch

    try:
        import transformers as hf
    except ImportError:
        return None
    if name == "convnext":
        ccfg = hf.ConvNextConfig(num_channels=3, patch_size=2, num_stages=2, depths=[2, 2], hidden_sizes=[32, 64])
        return hf.ConvNextModel(ccfg).eval(), (torch.rand(2, 3, 32, 32, generator=gen),), "module"
    if name == "wav2vec2":
        wcfg = hf.Wav2Vec2Config(
            hidden_size=64,
            num_hidden_layers=2,
            num_attention_heads=4,
            intermediate_size=128,
            conv_dim=(32, 32, 32),
            conv_stride=(5, 2, 2),
            conv_kernel=(10, 3, 3),
            num_conv_pos_embeddings=16,
            num_conv_pos_embedding_groups=4,
        )
        return hf.Wav2Vec2Model(wcfg).eval(), (torch.rand(2, 1600, generator=gen) - 0.5,), "module"
    text = {"vocab_size": 100, "max_position_embeddings": 32, "bos_token_id": 0, "eos_token_id": 1, "pad_token_id": 1}
    vision = {"image_size": 32, "patch_size": 8}
    for tower in (text, vision):
        tower.update(hidden_size=64, num_hidden_layers=2, num_attention_heads=4, intermediate_size=128)
    kcfg = hf.CLIPConfig(text_config=text, vision_config=vision, projection_dim=32)
    ids = torch.randint(2, 100, (2, 16), generator=gen)
    return hf.CLIPModel(kcfg).eval(), (ids, torch.rand(2, 3, 32, 32, generator=gen)), "module"


def _attr(obj: Any, path: str) -> Any:
    for part in path.split("."):
        obj = getattr(obj, part)
    return obj


def first_array(out: Any) -> Any:
    """The main output of a program (a model's ``last_hidden_state``, a tuple's first element)."""
    if hasattr(out, "last_hidden_state"):
        return out.last_hidden_state
    if isinstance(out, dict):
        return out.get("last_hidden_state", next(iter(out.values())))
    if isinstance(out, (tuple, list)):
        return first_array(out[0])
    return out


# --------------------------------------------------------------------------- timing


def pin_one_thread(target: str) -> None:
    import torch

    torch.set_num_threads(1)
    torch.set_num_interop_threads(1)
    if target == "tensorflow":
        import tensorflow as tf

        tf.config.threading.set_intra_op_parallelism_threads(1)
        tf.config.threading.set_inter_op_parallelism_threads(1)
    elif target == "paddle":
        import paddle

        paddle.set_device("cpu")


def _sync(out: Any) -> None:
    import ivy

    x = first_array(out)
    if hasattr(x, "block_until_ready"):
        x.block_until_ready()
    elif ivy.is_native_array(x) and not hasattr(x, "requires_grad"):
        ivy.to_numpy(x)  # (TensorFlow and paddle: the value exists once it is read)


def ratio(a: Callable[[], Any], b: Callable[[], Any], rounds: int, calls: int) -> dict[str, float]:
    """``a``'s time over ``b``'s: single calls interleaved (a, b, b, a, ...), per round the ratio
    of the median calls; the median over rounds, with each side's median call in ms."""
    for _ in range(3):  # warm: compilers, caches
        _sync(a())
        _sync(b())
    ratios, ta_all, tb_all = [], [], []
    for r in range(rounds):
        ta, tb = [], []
        for i in range(calls):
            order = (a, b) if (i + r) % 2 == 0 else (b, a)
            for f in order:
                t0 = time.perf_counter()
                _sync(f())
                (ta if f is a else tb).append(time.perf_counter() - t0)
        ma, mb = statistics.median(ta), statistics.median(tb)
        ratios.append(ma / mb)
        ta_all.append(ma)
        tb_all.append(mb)
    return {
        "ratio": statistics.median(ratios),
        "a_ms": statistics.median(ta_all) * 1e3,
        "b_ms": statistics.median(tb_all) * 1e3,
    }


# --------------------------------------------------------------------------- the target side


def to_target(x: Any, target: str) -> Any:
    import ivy

    return ivy.asarray(x.numpy(), backend=target)


def runner(native: Any, kind: str, target: str) -> Callable[..., Any]:
    """How the target's idiom runs the transpiled program (see the module docstring)."""
    if kind in ("function", "library"):
        return native  # (jax.jit / tf.function compiled already where the target has a compiler)
    if target == "jax":
        import jax

        apply = jax.jit(native.apply)
        return lambda *a: apply(native.params, *a)
    if target == "tensorflow":
        import tensorflow as tf

        return tf.function(lambda *a: native(*a))
    if target == "paddle":
        import paddle

        def run_paddle(*a: Any) -> Any:
            with paddle.no_grad():
                return native(*a)

        return run_paddle
    import torch

    def run_torch(*a: Any) -> Any:
        with torch.no_grad():
            return native(*a)

    return run_torch


class _Messages(logging.Handler):
    """The messages logged, kept (the cached run notes whether each transpile hit the cache)."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(record.getMessage())


def worker(target: str, models: list[str], rounds: int, calls: int, compiled: list[str], cached: bool) -> list[Any]:
    """One target's measurements (run in a process of its own)."""
    pin_one_thread(target)
    import numpy as np
    import torch

    import ivy

    if target == "jax":
        import jax  # noqa: F401 - imported before the clock starts, as the other frameworks are
    if not cached:
        # once-per-process costs before the clock starts: loading the torch frontend and Ivy's
        # backends, torch.export's first use, the native module's classes. The cached run has no
        # warm-up: its first program's time includes loading Ivy's backends and frontend.
        warm = torch.nn.Linear(2, 2).eval()
        ivy.transpile(warm, to=target, args=(torch.ones(1, 2),), cache=False)(to_target(torch.ones(1, 2), target))
    hits = _Messages()
    if cached:  # (a miss: the cache key changed, e.g. Ivy's code was edited between the runs)
        logging.getLogger("ivy.transpile").addHandler(hits)
        logging.getLogger("ivy.transpile").setLevel(logging.DEBUG)
    rows = []
    for name in models:
        built = build(name)
        if built is None:
            rows.append({"model": name, "target": target, "skipped": "a library it needs is not installed"})
            continue
        program, args, kind = built
        # the imports' garbage collected first: a full collection over the frameworks' objects
        # (half a second on this machine) would otherwise fall into whichever program runs next
        gc.collect()
        targs = tuple(to_target(a, target) for a in args)
        t0 = time.perf_counter()
        if kind == "library":  # the library's proxy, then the first call: it transpiles
            import kornia

            native = _attr(ivy.transpile(kornia, to=target), LIBRARY[name])
            _sync(native(*targs))
        else:
            native = ivy.transpile(program, to=target, args=args)
        seconds = time.perf_counter() - t0
        if cached:
            hit = any("cache hit" in m for m in hits.messages)
            hits.messages.clear()
            rows.append({"model": name, "target": target, "cached_s": seconds, "cache_hit": hit})
            continue
        run = runner(native, kind, target)
        t0 = time.perf_counter()
        out = run(*targs)
        _sync(out)
        first = time.perf_counter() - t0
        with torch.no_grad():
            ref = first_array(program(*args)).numpy()
        diff = float(np.max(np.abs(np.asarray(ivy.to_numpy(first_array(out)), np.float64) - ref)))

        def eager(program: Any = program, args: tuple[Any, ...] = args) -> Any:
            with torch.no_grad():
                return program(*args)

        row = {"model": name, "target": target, "cold_s": seconds, "first_call_s": first, "max_abs_diff": diff}
        row["vs_eager"] = ratio(lambda run=run, targs=targs: run(*targs), eager, rounds, calls)
        twin = native_twin(name, target, program, args)
        if twin is not None:
            row["vs_native"] = ratio(lambda run=run, targs=targs: run(*targs), twin, rounds, calls)
        if name in compiled:
            fast = torch.compile(program)

            def compiled_call(fast: Any = fast, args: tuple[Any, ...] = args) -> Any:
                with torch.no_grad():
                    return fast(*args)

            row["eager_vs_compile"] = ratio(eager, compiled_call, rounds, calls)
        rows.append(row)
        print(f"  {target:<11} {name:<8} done", file=sys.stderr, flush=True)
    return rows


def _spawn(target: str, models: list[str], argv: list[str], cache: str) -> list[Any]:
    env = {**os.environ, "IVY_CACHE_DIR": cache, "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}
    # Python's byte code cached as an installed package has it (the project's environment may set
    # PYTHONDONTWRITEBYTECODE, which would make each process compile Ivy's sources again, about a
    # second); the cold run writes it, the cached run reads it
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPYCACHEPREFIX"] = os.path.join(cache, "pycache")
    env["XLA_FLAGS"] = env.get("XLA_FLAGS", "") + " --xla_cpu_multi_thread_eigen=false"
    env.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
    cmd = [sys.executable, os.path.abspath(__file__), "--worker", target, "--models", ",".join(models), *argv]
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=3600)
    for line in proc.stdout.splitlines():
        if line.startswith(_MARK):
            return list(json.loads(line[len(_MARK) :]))
    tail = "\n".join(proc.stderr.strip().splitlines()[-15:])
    return [{"model": m, "target": target, "skipped": f"the worker failed:\n{tail}"} for m in models]


# --------------------------------------------------------------------------- the report


def report(rows: list[dict[str, Any]], cached: dict[tuple[str, str], float], missed: set[tuple[str, str]]) -> str:
    compile_ratio = {r["model"]: r["eager_vs_compile"]["ratio"] for r in rows if "eager_vs_compile" in r}
    lines = [
        "| program | target | transpiled / torch eager | transpiled / torch.compile | transpiled / best torch mode "
        "| transpiled / native in target | transpiled ms | torch eager ms | cold transpile s | first call s "
        "| cached transpile s | max abs diff |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        if "skipped" in r:
            reason = r["skipped"].splitlines()[-1] if r["skipped"] else ""
            lines.append(f"| {r['model']} | {r['target']} | skipped: {reason} | | | | | | | | | |")
            continue
        v = r["vs_eager"]
        c = compile_ratio.get(r["model"])  # torch eager / torch.compile
        vs_compile = f"{v['ratio'] * c:.2f}" if c is not None else "-"
        vs_best = f"{v['ratio'] * max(c, 1.0):.2f}" if c is not None else "-"  # (c > 1: compile is faster)
        cs = cached.get((r["model"], r["target"]))
        vs_native = f"{r['vs_native']['ratio']:.2f}" if "vs_native" in r else "-"
        lines.append(
            f"| {r['model']} | {r['target']} | {v['ratio']:.2f} | {vs_compile} | {vs_best} | {vs_native} | "
            f"{v['a_ms']:.3f} | "
            f"{v['b_ms']:.3f} | "
            f"{r['cold_s']:.2f} | {r['first_call_s']:.2f} | {_cached(cs, (r['model'], r['target']) in missed)} | "
            f"{r['max_abs_diff']:.1e} |"
        )
    return "\n".join(lines)


def _cached(seconds: float | None, missed: bool) -> str:
    if seconds is None:
        return "-"
    return f"{seconds:.2f}" + (" (missed the cache)" if missed else "")


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--targets", default=",".join(TARGETS))
    p.add_argument("--models", default=",".join(MODELS))
    p.add_argument("--quick", action="store_true", help="fewer rounds and calls")
    p.add_argument("--no-compile", action="store_true", help="skip torch.compile")
    p.add_argument(
        "--compile-models",
        default=",".join(COMPILED),
        help="the programs torch.compile runs on (in the jax process, else the torch one)",
    )
    p.add_argument("--json", metavar="PATH", help="also write the measurements as JSON")
    p.add_argument("--worker", help=argparse.SUPPRESS)
    p.add_argument("--cached", action="store_true", help=argparse.SUPPRESS)
    args = p.parse_args()
    models = [m for m in args.models.split(",") if m]
    rounds, calls = (3, 10) if args.quick else (7, 30)
    if args.worker:
        compiled = [m for m in args.compile_models.split(",") if m and m in models]
        rows = worker(args.worker, models, rounds, calls, [] if args.no_compile else compiled, args.cached)
        print(_MARK + json.dumps(rows), flush=True)
        return 0
    passed = ["--quick"] if args.quick else []
    targets = [t for t in args.targets.split(",") if t]
    # torch.compile in one process only: the one the comparison is about (jax), else torch's
    compiling = next((t for t in ("jax", "torch") if t in targets), None)
    if "paddle" in targets and "tensorflow" in targets:  # (each has its own process anyway)
        targets.sort(key=lambda t: t == "tensorflow")
    rows: list[dict[str, Any]] = []
    cached: dict[tuple[str, str], float] = {}
    missed: set[tuple[str, str]] = set()
    for target in targets:
        with tempfile.TemporaryDirectory(prefix="ivy-bench-transpile-") as cache:
            print(f"{target}: cold run", file=sys.stderr, flush=True)
            own = ["--compile-models", "" if args.no_compile or target != compiling else args.compile_models]
            rows += _spawn(target, models, [*passed, *own], cache)
            print(f"{target}: cached run", file=sys.stderr, flush=True)
            for r in _spawn(target, models, [*passed, "--cached"], cache):
                if "cached_s" in r:
                    cached[(r["model"], r["target"])] = r["cached_s"]
                    if not r.get("cache_hit", True):
                        missed.add((r["model"], r["target"]))
    print(report(rows, cached, missed))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(
                {"rows": rows, "cached": [[m, t, s, (m, t) not in missed] for (m, t), s in cached.items()]}, f, indent=1
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
