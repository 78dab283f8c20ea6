"""The transpiler on the command line: ``python -m ivy transpile`` and the frontends that
``python -m ivy plugins`` lists (see :mod:`ivy._cli`)."""

from __future__ import annotations

import argparse
import importlib
import re
import sys
import time
from typing import Any

__all__ = ["setup", "run", "frontend_lines"]

_SPEC = re.compile(r"^\s*([a-z0-9]+)\s*\[\s*([0-9,\s]*)\]\s*$")


class _Usage(ValueError):
    """A command line that cannot be run as written (printed without a traceback)."""


def frontend_lines() -> list[str]:
    """What ``python -m ivy plugins`` prints about the transpiler's frontends (nothing is
    imported but the plugins' registration modules)."""
    from ._frontends import frontend_label, frontends, problems

    lines = ["transpiler frontends (ivy.transpile(..., source=NAME)):"]
    for name, f in frontends().items():
        desc = f" - {f.description}" if f.description else ""
        lines.append(f"  {name:<12} {frontend_label(name)}; reads {', '.join(f.modules)}{desc}")
    for p in problems():
        lines.append(f"  LEFT OUT:   {p}")
    return lines


def setup(p: argparse.ArgumentParser) -> None:
    p.add_argument("target", metavar="MODULE:NAME", help="the function or module to transpile, e.g. mypkg.models:net")
    p.add_argument("--to", required=True, metavar="BACKEND", help="the target backend, or 'ivy' for the graph")
    p.add_argument("--source", metavar="FRAMEWORK", help="the source frontend (default: inferred)")
    p.add_argument(
        "--input",
        action="append",
        default=[],
        metavar="DTYPE[SHAPE]",
        help=(
            "an example input, in the order of the arguments: DTYPE[SHAPE] such as float32[2,3] (random normal; "
            "integers uniform in [0, 10)), or a .npy file; repeatable"
        ),
    )
    p.add_argument("--call", action="store_true", help="call MODULE:NAME with no arguments to build the object first")
    p.add_argument("-o", "--output", metavar="FILE", help="write the program here (default: standard output)")
    p.add_argument("--no-cache", action="store_true", help="do not use the disk cache of transpiled graphs")
    p.add_argument("-q", "--quiet", action="store_true", help="print no progress (the steps and their times)")


def _example(spec: str, seed: int) -> Any:
    import numpy as np

    if spec.endswith(".npy"):
        return np.load(spec)
    m = _SPEC.match(spec)
    if m is None:
        raise _Usage(f"--input {spec!r}: write a dtype and a shape, e.g. float32[2,3], or a .npy file")
    dtype, dims = m.group(1), [int(d) for d in m.group(2).replace(" ", "").split(",") if d]
    from .._dtypes import DTYPE_NAMES

    if dtype not in DTYPE_NAMES:
        raise _Usage(f"--input {spec!r}: {dtype!r} is not a dtype; one of {', '.join(DTYPE_NAMES)}")
    rng = np.random.default_rng(seed)
    if dtype.startswith(("int", "uint")):
        return rng.integers(0, 10, size=dims).astype(dtype)
    if dtype == "bool":
        return rng.random(dims) < 0.5
    return rng.standard_normal(dims).astype(dtype)


def _resolve(target: str) -> Any:
    mod_name, sep, attr = target.partition(":")
    if not sep or not attr:
        raise _Usage(f"{target!r}: write MODULE:NAME, e.g. mypkg.models:net")
    obj: Any = importlib.import_module(mod_name)
    for part in attr.split("."):
        obj = getattr(obj, part)
    return obj


def _show_progress(on: bool) -> None:
    """The transpiler's steps on standard error as they happen (its INFO log), or not."""
    import logging

    class ToStderr(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            print(f"ivy.transpile: {record.getMessage()}", file=sys.stderr)  # (sys.stderr as it is now)

    log = logging.getLogger("ivy.transpile")
    for h in [h for h in log.handlers if type(h).__name__ == "ToStderr"]:
        log.removeHandler(h)
    if on:
        log.addHandler(ToStderr())
        log.setLevel(logging.INFO)


def run(args: argparse.Namespace) -> int:
    """Transpile, then print the program: for a backend, a standalone Python module of the
    target's own calls (``graph.source``; a module's weights go to ``FILE.safetensors`` beside
    it); for ``ivy``, the graph as Ivy code."""
    from ..errors import IvyError, TranspileError
    from ._api import _needs_inputs
    from ._dtypes import narrow_for
    from ._frontends import frontends, unknown_source
    from ._infer import infer_source
    from ._source import Source
    from ._targets import check_target

    if "" not in sys.path:  # MODULE is looked up from the working directory, as python -m does
        sys.path.insert(0, "")
    _show_progress(not args.quiet)
    try:
        to = check_target(args.to)
        if args.source is not None and args.source not in frontends():
            raise unknown_source(args.source)
        obj = _resolve(args.target)
        if args.call:
            obj = obj()
        inputs = tuple(_example(s, i) for i, s in enumerate(args.input))
        if not inputs and _needs_inputs(obj):
            raise TranspileError(
                f"no example inputs for {args.target}: it takes arguments, and the program is traced on "
                "examples of them. Pass one --input DTYPE[SHAPE] (or FILE.npy) per argument, e.g. "
                "--input float32[2,3]"
            )
        name = args.source or infer_source(obj, inputs, {}, None, frontends())
        start = time.perf_counter()
        src = Source(obj, name, cache=not args.no_cache)
        kind = src.kind()
        graph = src.graph(inputs, {})
        if to != "ivy":
            graph = narrow_for(graph, to)  # (the 64-bit dtypes the target lacks: JAX without x64)
        text = graph.code if to == "ivy" else graph.source(to)
        text = text if text.endswith("\n") else text + "\n"
    except _Usage as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    except (IvyError, ImportError, AttributeError, TypeError, ValueError, OSError) as e:
        print(f"error: {type(e).__name__}: {e}", file=sys.stderr)
        return 1
    if args.output:
        from .._atomic import write_text

        write_text(args.output, text)
        if graph.params and to != "ivy":
            from .. import safetensors

            stem = args.output[:-3] if args.output.endswith(".py") else args.output
            safetensors.save_file(graph.param_arrays(), f"{stem}.safetensors")
    else:
        sys.stdout.write(text)
    print(
        f"transpiled the {kind} {args.target} from {name} to {to}: {len(graph)} nodes, {len(graph.params)} parameters, "
        f"{time.perf_counter() - start:.2f} s",
        file=sys.stderr,
    )
    return 0
