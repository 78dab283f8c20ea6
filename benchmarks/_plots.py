"""The report's plots (matplotlib, Agg), in the style of the paper's Figures 6-9."""

from __future__ import annotations

import os
from typing import Any

from benchmarks._analysis import LIB_NAMES, usage_parts

COLOURS = {"numpy": "#4c72b0", "torch": "#dd8452", "jax": "#55a868", "paddle": "#8172b3", "tensorflow": "#c44e52"}


def _plt() -> Any:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return None
    return plt


def _res(results: dict[str, Any], stage: str) -> dict[str, Any]:
    r = results.get("stages", {}).get(stage, {}).get("result")
    return r if isinstance(r, dict) else {}


def _totals(results: dict[str, Any]) -> dict[str, int]:
    total: dict[str, int] = {}
    usage = _res(results, "usage")
    for counts in usage_parts(usage).values() if usage else []:
        for op, n in counts.items():
            total[op] = total.get(op, 0) + n
    return total


def functions_plot(plt: Any, results: dict[str, Any], backend: str, res: dict[str, Any], path: str) -> None:
    """Figure 6: per-function runtimes (log scale) and the eager overhead split, one backend."""
    import numpy as np

    total = _totals(results)
    rows = sorted((r for r in res["rows"] if "eager" in r), key=lambda r: -total.get(r["op"], 0))[:40]
    if not rows:
        return
    y = np.arange(len(rows))
    fig, (ax, bx) = plt.subplots(
        1, 2, figsize=(13, 0.28 * len(rows) + 1.8), sharey=True, gridspec_kw={"width_ratios": [3, 2]}
    )
    series = [
        ("native", "native_us", "#4c72b0"),
        ("ivy", "ivy_us", "#dd8452"),
        ("native compiled", "compiled native_us", "#55a868"),
        ("ivy compiled", "compiled ivy_us", "#c44e52"),
    ]
    h = 0.2
    for k, (label, key, colour) in enumerate(series):
        vals = [r.get(key, np.nan) for r in rows]
        ax.barh(y + (k - 1.5) * h, vals, h, label=label, color=colour)
    ax.set_xscale("log")
    ax.set_yticks(y, [f"{r['op']} ({total.get(r['op'], 0)})" for r in rows], fontsize=7)
    ax.invert_yaxis()
    ax.set_xlabel("µs per call (log scale; fastest call)")
    ax.set_title(f"{backend}: core functions at 1e4 elements (calls by the libraries in brackets)", fontsize=9)
    ax.legend(fontsize=7, loc="lower right")
    bs = [r.get("backend_specific_us") or 0.0 for r in rows]
    dp = [r.get("dispatch_us") or 0.0 for r in rows]
    cc = [(r["compiled ivy_us"] - r["compiled native_us"]) if "compiled" in r else np.nan for r in rows]
    bx.barh(y - 0.2, bs, 0.4, label="backend-specific (ivy.<fw>.<op> - native)", color="#8172b3")
    bx.barh(y + 0.2, dp, 0.4, label="Ivy eager-only: dispatch (ivy.<op> - ivy.<fw>.<op>)", color="#dd8452")
    bx.plot(cc, y, "k|", ms=8, label="left after compiling (fastest calls)")
    bx.axvline(0, color="0.3", lw=0.8)
    bx.set_xscale("symlog", linthresh=0.1)
    bx.set_xlabel("µs added per call (median within-round difference; symlog)")
    bx.set_title("the eager overhead, split", fontsize=9)
    bx.legend(fontsize=7, loc="lower right")
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)


def usage_plot(plt: Any, results: dict[str, Any], path: str) -> bool:
    """Figure 7: the share of each library's calls per core function (the 15 most used)."""
    usage = _res(results, "usage")
    parts = usage_parts(usage) if usage else {}
    if not parts:
        return False
    fig, axes = plt.subplots(1, len(parts), figsize=(3.2 * len(parts), 4.6))
    axes = axes if len(parts) > 1 else [axes]
    for ax, (lib, counts) in zip(axes, parts.items()):
        s = sum(counts.values()) or 1
        top = sorted(counts, key=lambda o: -counts[o])[:15]
        ax.barh(range(len(top)), [100 * counts[o] / s for o in top], color="#4c72b0")
        ax.set_yticks(range(len(top)), top, fontsize=7)
        ax.invert_yaxis()
        ax.set_xlabel("% of calls", fontsize=8)
        ax.set_title(f"{LIB_NAMES.get(lib, lib)} ({s} calls)", fontsize=9)
    fig.suptitle("core function usage, counted while running each library's tests (and the drone demo)", fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)
    return True


def library_overhead_plot(plt: Any, results: dict[str, Any], path: str) -> bool:
    """Figure 8/9: per-library overhead per backend, eager and compiled (Table 3)."""
    import numpy as np

    t3 = results.get("analysis", {}).get("table3", {})
    if not t3:
        return False
    backends = [b for b in results["meta"]["backends"] if b in t3]
    libs = list(next(iter(t3.values())).keys())
    fig, axes = plt.subplots(1, 2, figsize=(13, 4.2))
    x = np.arange(len(libs))
    w = 0.8 / max(len(backends), 1)
    for ax, mode in zip(axes, ("eager", "compiled")):
        for k, b in enumerate(backends):
            vals = [(t3[b][lib][mode] or {}).get("pct", np.nan) for lib in libs]
            noise = [(t3[b][lib][mode] or {}).get("noise_pct", np.nan) for lib in libs]
            pos = x + (k - (len(backends) - 1) / 2) * w
            ax.bar(pos, vals, w, label=b, color=COLOURS.get(b))
            ax.plot(pos, noise, "k_", ms=9, label="A/A (noise)" if k == 0 else None)
        ax.axhline(0, color="0.3", lw=0.8)
        if mode == "eager":
            ax.axhline(1.0, color="0.5", ls="--", lw=0.8, label="target 1%")
        ax.set_xticks(x, [LIB_NAMES.get(lib, lib) for lib in libs])
        ax.set_ylabel("% over native")
        ax.set_title(f"{mode}: time Ivy adds, weighted by each library's usage", fontsize=9)
        ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)
    return True


def library_direct_plot(plt: Any, results: dict[str, Any], path: str) -> bool:
    """Whole library functions and the drone step: Ivy over native, torch and jax."""
    import numpy as np

    d = results.get("analysis", {}).get("direct", {})
    if not d:
        return False
    fns = list(dict.fromkeys(fn for b in d for fn in d[b]))
    combos = [(b, m) for b in d for m in ("eager", "compiled")]
    x = np.arange(len(fns))
    w = 0.8 / max(len(combos), 1)
    fig, ax = plt.subplots(figsize=(12, 4.2))
    for k, (b, m) in enumerate(combos):
        vals = [(d[b].get(fn, {}).get(m) or {}).get("ivy", {}).get("ratio", np.nan) for fn in fns]
        ax.bar(
            x + (k - (len(combos) - 1) / 2) * w,
            vals,
            w,
            label=f"{b} {m}",
            color=COLOURS.get(b),
            alpha=1.0 if m == "eager" else 0.55,
            hatch=None if m == "eager" else "//",
        )
    ax.axhline(1.0, color="0.3", lw=0.8)
    ax.set_xticks(x, [fn.replace(".", ".\n") for fn in fns], fontsize=8)
    ax.set_ylabel("Ivy / native (median of paired ratios)")
    ax.set_title("library functions and the drone step through Ivy, against the same code written natively", fontsize=9)
    ax.legend(fontsize=7, ncol=2)
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)
    return True


def peers_plot(plt: Any, results: dict[str, Any], path: str) -> bool:
    """Median ratio to native at 1e4 elements: Ivy and each peer, per backend (log scale)."""
    import numpy as np

    dispatch = _res(results, "dispatch").get("backends", {})
    upstream = _res(results, "upstream").get("backends", {})
    if not dispatch:
        return False
    names = ["ivy", "array-api-compat", "keras.ops", "eagerpy", "upstream ivy"]
    colours = ["#dd8452", "#4c72b0", "#c44e52", "#8172b3", "#937860"]
    backends = list(dispatch)
    x = np.arange(len(backends))
    w = 0.8 / len(names)
    fig, ax = plt.subplots(figsize=(11, 4.2))
    for k, (name, colour) in enumerate(zip(names, colours)):
        vals = []
        for b in backends:
            s = dispatch[b]["summary"]["10000"]
            if name == "ivy":
                vals.append(s["ivy_ratio"])
            elif name == "upstream ivy":
                vals.append((upstream.get(b) or {}).get("median_ratio", np.nan))
            else:
                vals.append(s["peers"].get(name, {}).get("ratio", np.nan))
        ax.bar(x + (k - (len(names) - 1) / 2) * w, vals, w, label=name, color=colour)
    ax.set_yscale("log")
    ax.axhline(1.0, color="0.3", lw=0.8)
    ax.set_xticks(x, backends)
    ax.set_ylabel("time / native (median over ops, log scale)")
    ax.set_title("the same ops on the same 1e4-element inputs: Ivy against the alternatives", fontsize=9)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)
    return True


def plot_all(results: dict[str, Any], out: str) -> list[str]:
    """Writes every plot it has data for into ``out``; returns their file names."""
    plt = _plt()
    if plt is None:
        return []
    made = []
    for name, fn in (
        ("bench_usage.png", usage_plot),
        ("bench_library_overhead.png", library_overhead_plot),
        ("bench_library_direct.png", library_direct_plot),
        ("bench_peers.png", peers_plot),
    ):
        try:
            if fn(plt, results, os.path.join(out, name)):
                made.append(name)
        except Exception as e:  # a plot that fails must not lose the report
            print(f"plot {name} failed: {type(e).__name__}: {e}")
    for b, res in _res(results, "functions").get("backends", {}).items():
        name = f"bench_functions_{b}.png"
        try:
            functions_plot(plt, results, b, res, os.path.join(out, name))
            if os.path.exists(os.path.join(out, name)):
                made.append(name)
        except Exception as e:
            print(f"plot {name} failed: {type(e).__name__}: {e}")
    return made
