"""The Markdown report of a run (``report.md``; ``benchmarks/RESULTS.md`` when published)."""

from __future__ import annotations

import statistics
from typing import Any

from benchmarks._analysis import LIB_NAMES, TARGETS, usage_parts

PEERS = ("array-api-compat", "keras.ops", "eagerpy")


def _f(x: float | None, fmt: str = ".3f", unit: str = "") -> str:
    return "-" if x is None else f"{x:{fmt}}{unit}"


def _res(results: dict[str, Any], stage: str) -> dict[str, Any]:
    r = results.get("stages", {}).get(stage, {}).get("result")
    return r if isinstance(r, dict) else {}


def _table(head: list[str], rows: list[list[str]], align: str | None = None) -> str:
    align = align or ("l" + "r" * (len(head) - 1))
    sep = ["---:" if a == "r" else "---" for a in align]
    return "\n".join("| " + " | ".join(r) + " |" for r in [head, sep, *rows]) + "\n"


def _pct(o: dict[str, Any] | None) -> str:
    if not o:
        return "-"
    cov = "" if o["coverage"] > 0.995 else f", {o['coverage'] * 100:.0f}% of calls"
    return f"{o['pct']:+.2f}% (A/A {o['noise_pct']:+.2f}%{cov})"


def _versions(meta: dict[str, Any]) -> str:
    return ", ".join(f"{k} {v}" for k, v in meta["versions"].items())


def header(results: dict[str, Any]) -> str:
    m = results["meta"]
    up = _res(results, "upstream").get("version")
    dur = m.get("duration_s", 0)
    lines = [
        "# Ivy benchmark results",
        "",
        f"{'Quick' if m['quick'] else 'Full'} run of `{m['command']}` on {m['date']}, {dur / 60:.0f} minutes "
        f"(commit {m['commit'] or '?'}).",
        "",
        *[
            f"Stage{'s' if len(u['stages']) > 1 else ''} {', '.join(u['stages'])} measured again on {u['date']} by "
            f"`{u['command']}` on {u.get('cpu')}, {u.get('cores')} cores (commit {u['commit'] or '?'}; load at "
            f"its start `{u['uptime']}`, at its end `{u['uptime_end']}`); the other figures are from the run "
            "above.\n"
            for u in m.get("updates", [])
        ],
        _table(
            ["", ""],
            [
                ["machine", f"{m['cpu']}, {m['cores']} cores ({m['platform']})"],
                ["threads", f"{m['threads_per_framework']} per framework (each backend in its own process)"],
                ["load (uptime)", f"start: `{m['uptime']}`<br>end: `{m.get('uptime_end', '')}`"],
                ["Python", m["python"]],
                ["versions", _versions(m) + (f", upstream ivy {up} (own venv)" if up else "")],
                ["backends", ", ".join(m["backends"])],
            ],
            "ll",
        ),
    ]
    if m["cores"] and m["cores"] <= 4:
        lines.append(
            f"The machine has {m['cores']} cores and was shared with other work (the load averages above): "
            "single timings are noisy, which is why every figure is a median of paired, interleaved "
            "rounds, and why each table shows the A/A ratio (native against itself in the same rounds) "
            "as the size of the noise.\n"
        )
    return "\n".join(lines)


METHOD = """## How the figures were obtained

* Every backend runs in its own process (paddle is never imported after tensorflow), with every
  framework single-threaded (thread environment variables and the frameworks' own settings). The
  per-function figures pool the rounds of three processes per backend, each compiling its own
  programs (from one process to the next a figure can move by a percent: where the allocator, the
  loader and a JIT place things; two `jax.jit` programs of one HLO were seen 5-17% apart).
* The variants of one measurement (native, Ivy, a peer, the native call again as "A/A") run in
  interleaved rounds: in each round every variant makes a fixed number of calls (about 0.5 ms of
  them; per-function figures at least 12 where those take at most 2 ms), **alternating call by
  call** with the other variants (the order rotating from one turn to the next: each variant
  takes every place and none is called twice in a row, where its code would be warm), each call
  timed alone. A variant's figure in a round is its **fastest call** in that round (the scheduler of a
  shared machine interrupts some calls; the fastest is one it did not); a ratio is the **median
  over rounds of the ratio within a round**. Alternating call by call, every variant meets the
  same state of the machine (its clock, caches and neighbours' load drift even within a round).
  Microseconds are the fastest call over all rounds, "+µs" the median within-round difference.
  The A/A ratio (native against itself in the same rounds) shows how much of a ratio is noise.
  Every stage is timed this way except the compiled model functions, which take the median call
  of each round (their section says so). JAX results are waited for (`block_until_ready`).
* Native functions are the framework's own calls (`torch.sin(x)`, `jnp.linalg.solve(a, b)`) or,
  where the framework has none, its one-line idiom; results are checked against Ivy's before
  anything is timed (a native or peer that disagrees is left out and listed).
* Compiled (per function): the program `ivy.compile(f, backend=...)` builds against the native
  function compiled by the framework (`jax.jit`, `torch.compile`, `tf.function`,
  `paddle.jit.to_static`), and `ivy.compile(f)` without `backend=`, whose per-call object picks
  the program by the type of the first argument (its cost per call is reported apart). Its A/A is
  the native function compiled a second time: another program of the same code, as Ivy's is
  (calling one program twice would compare it with itself, warm). The
  compiled model functions and the training step time `ivy.compile(f)` as users call it.
* Usage counts: every public `ivy.*` function (and the backend namespace's) is wrapped by a counter
  that records calls made from the library's own code, while the library's test suite (pytest,
  hypothesis profile `ci`) and a few steps of the drone demo run.
"""


def headline(results: dict[str, Any]) -> str:
    a = results["analysis"]
    dispatch = _res(results, "dispatch").get("backends", {})
    upstream = _res(results, "upstream").get("backends", {})
    training = _res(results, "training").get("backends", {})
    compiled = _res(results, "compiled").get("backends", {})
    rows = []
    for b in results["meta"]["backends"]:
        s = (dispatch.get(b) or {}).get("summary", {}).get("10000")
        peers = s["peers"] if s else {}
        best = min(peers.items(), key=lambda kv: kv[1]["ratio"]) if peers else None
        up = (upstream.get(b) or {}).get("median_ratio")
        libs = {k: v for k, v in a["table3"].get(b, {}).items() if k != "drone demo"}
        eager = [v["eager"]["pct"] for v in libs.values() if v.get("eager")]
        comp = [v["compiled"]["pct"] for v in libs.values() if v.get("compiled")]
        drone = (a["direct"].get(b) or {}).get("drone demo step", {}).get("eager")
        t = (training.get(b) or {}).get("eager")
        cm = (compiled.get(b) or {}).get("median_ratio")
        rows.append(
            [
                b,
                f"{s['ivy_ratio']:.3f} ({s['added_vs_native_us']:+.2f} µs)" if s else "-",
                f"{best[1]['ratio']:.2f} ({best[0]})" if best else "-",
                _f(up, ".0f", "x"),
                _f(statistics.fmean(eager) if eager else None, "+.2f", "%"),
                _f(statistics.fmean(comp) if comp else None, "+.2f", "%") + (f"; models {cm:.3f}" if cm else ""),
                _f(drone["ivy"]["ratio"] if drone else None),
                _f(t["ratio"] if t else None),
            ]
        )
    head = [
        "backend",
        "`ivy.<op>` / native, 1e4",
        "best peer / native",
        "upstream Ivy / native",
        "library overhead, eager",
        "compiled (per fn; model fns ratio)",
        "drone step, eager",
        "training step, eager",
    ]
    return (
        "## Headline\n\n"
        + _table(head, rows)
        + (
            "\nRatios are Ivy (or the peer) over native, medians over ops or rounds; library overheads are the "
            "mean over ivy-mech, ivy-vision, ivy-robot and ivy-gym of the Table 3 estimate below.\n"
        )
    )


def targets_section(results: dict[str, Any]) -> str:
    lines = results["analysis"]["targets"]
    backends = results["meta"]["backends"]
    rows = []
    for key, text in TARGETS.items():
        cells = []
        for b in backends:
            line = next((x for x in lines if x["target"] == key and x["backend"] == b), None)
            if line is None or line["value"] is None:
                cells.append("-")
                continue
            mark = {"met": "✓", "missed": "✗"}.get(line["verdict"], "")
            v = line["value"]
            val = f"{v:+.2f}%" if line["unit"] == "%" else f"{v:.3f}x"
            if line["target"] == "peers" and line["limit"] is not None:  # Ivy's ratio against the best peer's
                val = f"{line['limit']:.3f}x vs {v:.2f}x"
            cells.append(f"{val} {mark}")
        rows.append([text, *cells])
    out = "## Targets\n\n" + _table(["target", *backends], rows)
    missed = [x for x in lines if x["verdict"] == "missed"]
    notes = [f"* **{x['backend']}**, {TARGETS[x['target']]}: {x['detail']}" for x in lines if x["detail"]]
    if notes:
        out += "\nDetails:\n\n" + "\n".join(notes) + "\n"
    out += "\n" + (why_missed(results, missed) if missed else "Every target with a figure was met in this run.\n")
    return out


def why_missed(results: dict[str, Any], missed: list[dict[str, Any]]) -> str:
    """What drives each missed target, from the data: the largest contributions."""
    fn = _res(results, "functions").get("backends", {})
    usage = _res(results, "usage")
    parts = usage_parts(usage) if usage else {}
    total: dict[str, int] = {}
    for counts in parts.values():
        for op, n in counts.items():
            total[op] = total.get(op, 0) + n
    out = ["Where the misses come from (computed from this run's data):", ""]
    for x in missed:
        b = x["backend"]
        rows = {r["op"]: r for r in (fn.get(b) or {}).get("rows", [])}
        if x["target"] in ("eager", "compiled") and rows:
            key, t_key = ("eager", "native_us") if x["target"] == "eager" else ("compiled", "compiled native_us")
            contrib = sorted(
                (
                    (total.get(op, 0) * r[t_key] * (r[key]["ratio"] - 1), op)
                    for op, r in rows.items()
                    if key in r and t_key in r
                ),
                reverse=True,
            )
            den = sum(total.get(op, 0) * r[t_key] for op, r in rows.items() if key in r and t_key in r) or 1
            top = ", ".join(
                f"`{op}` {100 * c / den:+.2f} pts (x{rows[op][key]['ratio']:.3f}, "
                f"A/A x{rows[op]['aa' if key == 'eager' else 'compiled_aa']['ratio']:.3f})"
                for c, op in contrib[:4]
            )
            out.append(f"* {b}, {x['target']}: largest contributions (calls x time x (ratio - 1)): {top}.")
        elif x["target"] == "dispatch":
            d = (_res(results, "dispatch").get("backends", {}).get(b) or {}).get("sizes", {}).get("10000", [])
            worst = sorted(((r["r_inf"], r["op"], r["r_ns"]) for r in d if r["kind"] != "z"), reverse=True)[:4]
            out.append(
                f"* {b}, dispatch: highest `ivy.<op>`/native ratios: "
                + ", ".join(f"`{op}` {ri:.3f} (namespace {rn:.3f})" for ri, op, rn in worst)
                + "."
            )
        else:
            out.append(f"* {b}, {x['target']}: {x['detail']}.")
    return "\n".join(out) + "\n"


def table3_section(results: dict[str, Any], images: dict[str, str]) -> str:
    t3 = results["analysis"]["table3"]
    if not t3:
        return (
            "## Per-library overhead (the paper's Table 3)\n\nNot computed (needs the usage and functions stages).\n\n"
            + direct_section(results, images)
        )
    backends = [b for b in results["meta"]["backends"] if b in t3]
    libs = list(next(iter(t3.values())).keys())
    out = [
        "## Per-library overhead (the paper's Table 3)",
        "",
        "Estimated from the usage counts and the per-function figures at 1e4 elements (see "
        "`_analysis.py`): the time Ivy adds, weighted by how often each library calls each function, "
        "over the native time. In brackets the same sum for the native call against itself (A/A): "
        "the noise floor of this run.",
        "",
    ]
    for mode in ("eager", "compiled"):
        rows = [[LIB_NAMES.get(lib, lib), *[_pct(t3[b][lib][mode]) for b in backends]] for lib in libs]
        out += [f"**{mode.capitalize()}**", "", _table(["library", *backends], rows)]
    out.append(compiled_note(results))
    missing = _res(results, "usage").get("missing") or []
    if missing:
        out.append(f"Not importable, so not measured: {', '.join(missing)}.\n")
    if "bench_library_overhead.png" in images:
        out.append(f"![per-library overhead]({images['bench_library_overhead.png']})\n")
    out.append(direct_section(results, images))
    return "\n".join(out)


def compiled_note(results: dict[str, Any]) -> str:
    """What the compiled per-function overhead is made of: the time added per call, which is
    about constant (the call through ``ivy.compile``'s callable), against the native time."""
    parts, inferred = [], []
    for b, res in _res(results, "functions").get("backends", {}).items():
        rows = [r for r in res["rows"] if "compiled" in r]
        if rows:
            added = statistics.median(r["compiled"]["added_us"] for r in rows)
            native = statistics.median(r["compiled native_us"] for r in rows)
            parts.append(f"{b} {added:+.2f} µs on a median {native:.0f} µs ({len(rows)} functions)")
        rows = [r for r in rows if "compiled_inferred" in r]
        if rows:
            added = statistics.median(r["compiled_inferred"]["added_us"] for r in rows)
            ratio = statistics.median(r["compiled_inferred"]["ratio"] for r in rows)
            inferred.append(f"{b} {added:+.2f} µs ({ratio:.3f}x)")
    if not parts:
        return ""
    note = (
        "Each function is compiled alone here, so a compiled figure is a single op's program: the "
        "framework's compiled callable that `ivy.compile(f, backend=...)` returns (with no state to "
        "thread; on JAX, whose random key may need threading, the jax.jit program inside Ivy's "
        "per-call object); the time Ivy adds per compiled call (median within-round difference) is "
        + "; ".join(parts)
        + ".\n"
    )
    if inferred:
        note += (
            "\nWithout `backend=`, `ivy.compile(f)` returns a small object that picks the program by the "
            "type of the first argument on each call; measured in the same rounds, it adds (median over "
            "the functions) " + "; ".join(inferred) + ": a cost per call, not a slower program, lost in "
            "the noise on whole programs (the compiled model functions below).\n"
        )
    return note


def direct_section(results: dict[str, Any], images: dict[str, str]) -> str:
    d = results["analysis"]["direct"]
    lib = _res(results, "libraries")
    if not d:
        return ""
    backends = list(d)
    fns = list(dict.fromkeys(fn for b in backends for fn in d[b]))
    rows = []
    for fn in fns:
        cells = [f"`{fn}`" if fn != "drone demo step" else "drone demo: one gradient step"]
        for b in backends:
            r = d[b].get(fn, {})
            for mode in ("eager", "compiled"):
                m = r.get(mode)
                cells.append(
                    f"{m['ivy']['ratio']:.3f} ({m['native_us']:.0f}→{m['ivy_us']:.0f} µs; A/A {m['aa']['ratio']:.3f})"
                    if m
                    else ("error" if "error" in r else "-")
                )
        rows.append(cells)
    head = ["function"] + [f"{b} {m}" for b in backends for m in ("eager", "compiled")]
    notes = (
        "Measured directly, Ivy over the same function written natively (`benchmarks/_native_libs.py`): "
        "ratio (fastest native → Ivy call, µs; A/A: native against itself). Inputs of about "
        "1e4 elements (the spline: the demo's 4 anchors and 100 samples; the drone step: the demo's "
        "scene, 100 poses, 5 body points, 11 obstacles). "
    )
    if not lib.get("torch_compile"):
        notes += (
            "torch.compile of the library functions is left out (it takes minutes per function on this "
            "machine; `--torch-compile` adds it); the per-function figures above cover compiled torch. "
        )
    notes += "The drone step is compiled on JAX only (torch.compile of the whole step takes minutes)."
    out = "### Measured directly: library functions and the drone demo\n\n" + notes + "\n\n" + _table(head, rows)
    if "bench_library_direct.png" in images:
        out += f"\n![library functions, Ivy over native]({images['bench_library_direct.png']})\n"
    return out


def usage_section(results: dict[str, Any], images: dict[str, str]) -> str:
    usage = _res(results, "usage")
    if not usage:
        return ""
    parts = usage_parts(usage)
    total: dict[str, int] = {}
    for counts in parts.values():
        for op, n in counts.items():
            total[op] = total.get(op, 0) + n
    top = sorted(total, key=lambda o: -total[o])[:25]
    names = list(parts)
    rows = []
    for op in top:
        cells = [f"`{op}`"]
        for lib in names:
            n, s = parts[lib].get(op, 0), sum(parts[lib].values()) or 1
            cells.append(f"{100 * n / s:.1f}%" if n else "")
        rows.append(cells)
    info = []
    for lib, v in usage.get("libraries", {}).items():
        info.append(
            f"{LIB_NAMES.get(lib, lib)}: {sum(v['counts'].values())} calls of {len(v['counts'])} functions "
            f"over {v['tests']} tests" + ("" if not v.get("failed") else f" ({len(v['failed'])} failed)")
        )
    if usage.get("demo"):
        info.append(f"drone demo: {sum(usage['demo']['counts'].values())} calls in {usage['demo']['steps']} steps")
    out = [
        "## Function usage per library (the paper's Figure 7)",
        "",
        f"Counted on {usage.get('backend', '?')}"
        + (
            " (a cached count of older library sources)"
            if usage.get("stale")
            else " (a cached count of the same sources)"
            if usage.get("cached")
            else ""
        )
        + ": "
        + "; ".join(info)
        + ". Share of each library's calls, the 25 most called functions overall:",
        "",
        _table(["function", *[LIB_NAMES.get(n, n) for n in names]], rows),
    ]
    if "bench_usage.png" in images:
        out.append(f"![function usage per library]({images['bench_usage.png']})\n")
    return "\n".join(out)


def functions_section(results: dict[str, Any], images: dict[str, str]) -> str:
    fn = _res(results, "functions")
    if not fn:
        return ""
    usage = _res(results, "usage")
    total: dict[str, int] = {}
    for counts in usage_parts(usage).values() if usage else []:
        for op, n in counts.items():
            total[op] = total.get(op, 0) + n
    out = [
        "## Per-function analysis (the paper's Figure 6)",
        "",
        f"Each core function the libraries call, inputs of 1e4 elements, {fn.get('rounds')} rounds. "
        "The eager overhead splits into the paper's groups: **backend-specific** code (the plugin's "
        "function `ivy.<fw>.<op>` over the native call: what unifies behaviour) and **Ivy eager-only** "
        "code (`ivy.<op>` over `ivy.<fw>.<op>`: the dispatch, which runs only while a compiler traces). "
        "What is left after compiling is the compiled overhead; the rest of the eager overhead is Ivy "
        "code that compiles away. Compiling takes a second or more per function (torch.compile and "
        "paddle's to_static several), so only the most called functions are compiled (the share of "
        "the calls they cover is given in the compiled Table 3).",
        "",
    ]
    for b, res in fn.get("backends", {}).items():
        s = res.get("summary", {})
        out.append(f"### {b}\n")
        out.append(
            f"Medians over {s.get('ops_timed')} functions: Ivy/native eager {_f(s.get('eager_ratio'))} "
            f"(A/A {_f(s.get('aa_ratio'))}), compiled {_f(s.get('compiled_ratio'))} "
            f"(A/A {_f(s.get('compiled_aa_ratio'))}).\n"
        )
        rows = []
        for r in sorted(res["rows"], key=lambda r: -total.get(r["op"], 0)):
            if "eager" not in r:
                why = r.get("skipped") or r.get("error") or ""
                rows.append([f"`{r['op']}`", str(total.get(r["op"], "")), why, "", "", "", "", "", ""])
                continue
            c = r.get("compiled")
            rows.append(
                [
                    f"`{r['op']}`",
                    str(total.get(r["op"], "")),
                    f"{r['native_us']:.2f}",
                    _f(r.get("backend_specific_us"), "+.2f"),
                    _f(r.get("dispatch_us"), "+.2f"),
                    f"{r['eager']['ratio']:.3f}",
                    f"{r['aa']['ratio']:.3f}",
                    f"{r['compiled native_us']:.2f}" if c else (r.get("compiled_error", "")[:40] or "-"),
                    f"{c['ratio']:.3f} (A/A {r['compiled_aa']['ratio']:.3f})" if c else "-",
                ]
            )
        out.append(
            _table(
                [
                    "function",
                    "calls",
                    "native µs",
                    "backend-specific µs",
                    "dispatch µs",
                    "ivy/native",
                    "A/A",
                    "compiled native µs",
                    "compiled ivy/native",
                ],
                rows,
            )
        )
        name = f"bench_functions_{b}.png"
        if name in images:
            out.append(f"![per-function runtimes, {b}]({images[name]})\n")
    return "\n".join(out)


def peers_section(results: dict[str, Any], images: dict[str, str]) -> str:
    dispatch = _res(results, "dispatch")
    upstream = _res(results, "upstream")
    if not dispatch:
        return ""
    m = results["meta"]["versions"]
    installed = [f"{p} {m[p]}" for p in ("array-api-compat", "eagerpy", "keras") if p in m]
    # torchax (PyTorch code on JAX arrays) would be the peer for torch-to-jax interop; it cannot be
    # measured here, since the release on PyPI fails to import against the pinned torch
    not_measured = f"torchax is not measured: it does not import with torch {m.get('torch', '2.13')}"
    up_line = (
        f"upstream ivy {upstream['version']} (in `{upstream['venv']}`)"
        if upstream.get("version")
        else f"upstream ivy: {upstream.get('absent', 'not run')}"
    )
    out = [
        "## Dispatch and the peers: same ops, same inputs, same run",
        "",
        f"Used in this run: {', '.join(installed) or 'no peer installed'}; {up_line}; {not_measured}. "
        f"`import ivy` took {_f(dispatch.get('import_ms'), '.0f', ' ms')} (best of 5 fresh interpreters). "
        "Each cell: the op's time over the native call (median of paired ratios, 1e4 float32 elements); "
        "upstream Ivy runs in its own process against its own native baseline. array-api-compat finds "
        "the namespace on each call (`array_namespace(x).sin(x)`), keras.ops runs on the process's "
        "framework as Keras backend, EagerPy wraps and unwraps (`ep.astensor(x).sin().raw`).",
        "",
    ]
    for b, res in dispatch.get("backends", {}).items():
        rows_by_op = {r["op"]: r for r in res["sizes"].get("10000", [])}
        up_rows = {r["op"]: r for r in (upstream.get("backends", {}).get(b) or {}).get("rows", [])}
        peers = [p for p in PEERS if any(p in r.get("peers", {}) for r in rows_by_op.values())]
        cols = ["ivy.<op>", *peers] + (["upstream ivy"] if up_rows else [])
        rows = []
        for op, r in rows_by_op.items():
            cells = [f"`{op}`" + (" (global)" if r["kind"] == "z" else ""), f"{r['native']:.2f}", f"{r['r_inf']:.3f}"]
            cells += [f"{r['peers'][p]['ratio']:.2f}" if p in r.get("peers", {}) else "" for p in peers]
            if up_rows:
                cells.append(f"{up_rows[op]['ratio']:.0f}" if op in up_rows else "")
            rows.append(cells)
        s = res["summary"]["10000"]
        med = ["**median**", "", f"**{s['ivy_ratio']:.3f}**"] + [f"**{s['peers'][p]['ratio']:.2f}**" for p in peers]
        add = ["**+µs per call**", "", f"**{s['added_vs_native_us']:+.2f}**"] + [
            f"**{s['peers'][p]['added_us']:+.2f}**" for p in peers
        ]
        ub = upstream.get("backends", {}).get(b) or {}
        if up_rows:
            med.append(f"**{ub.get('median_ratio', 0):.0f}**")
            add.append(f"**{ub.get('median_added_us', 0):+.0f}**")
        out.append(f"### {b}\n")
        absent = res.get("peers_absent") or {}
        errs = res.get("peer_errors") or {}
        if absent or errs:
            out.append(
                "; ".join(
                    [f"{p}: {why}" for p, why in absent.items()]
                    + [f"{p} left out for {', '.join(sorted(e))} ({next(iter(e.values()))})" for p, e in errs.items()]
                )
                + ".\n"
            )
        out.append(_table(["op", "native µs", *cols], rows + [med, add]))
        s1 = res["summary"].get("100")
        if s1:
            out.append(
                f"At 1e2 elements: `ivy.<op>`/native {s1['ivy_ratio']:.3f}, "
                f"dispatch adds {s1['added_us']:+.3f} µs over "
                f"`ivy.{b}.<op>`; " + ", ".join(f"{p} {v['ratio']:.2f}" for p, v in s1["peers"].items()) + ".\n"
            )
    if upstream.get("errors"):
        out.append("Upstream Ivy failed on: " + "; ".join(f"{b}: {e}" for b, e in upstream["errors"].items()) + "\n")
    for b, ub in upstream.get("backends", {}).items():
        if ub.get("errors"):
            out.append(
                f"Upstream Ivy on {b} could not run: "
                + ", ".join(f"`{op}` ({e})" for op, e in list(ub["errors"].items())[:5])
                + "\n"
            )
    if "bench_peers.png" in images:
        out.append(f"![dispatch and peers]({images['bench_peers.png']})\n")
    return "\n".join(out)


def compiled_section(results: dict[str, Any]) -> str:
    c = _res(results, "compiled")
    if not c.get("backends"):
        return ""
    rows = []
    for b, res in c["backends"].items():
        for r in res["rows"]:
            if "error" in r:
                rows.append([b, r["fn"], "", "", r["error"][:60], "", ""])
                continue
            rows.append(
                [
                    b,
                    r["fn"],
                    f"{r['native_us']:.1f}",
                    f"{r['ivy_us']:.1f}",
                    f"{r['ratio_median']:.3f}",
                    f"{r['ratio_lo']:.2f}-{r['ratio_hi']:.2f}",
                    r["program"],
                ]
            )
    return (
        "## Compiled model functions\n\n"
        f"An MLP, layer-normed attention, a loss and its gradient, a conv block: `ivy.compile` against the "
        f"native function compiled natively; {c['rounds']} rounds of {c['pairs']} interleaved single-call pairs, "
        "the median of the rounds' ratios of median calls, with the lowest and highest round; the last column "
        "compares the compiled programs.\n\n"
        + _table(["backend", "function", "native µs", "ivy µs", "ratio", "rounds", "program"], rows, "llrrrll")
    )


def training_section(results: dict[str, Any]) -> str:
    t = _res(results, "training")
    if not t.get("backends"):
        return ""
    labels = {
        "eager": "eager",
        "compiled": "jit (functional)",
        "compiled step": "compiled / ivy eager",
        "compiled step/native": "compiled / native compiled",
    }
    rows = []
    for b, r in t["backends"].items():
        for mode, label in labels.items():
            if mode in r:
                m = r[mode]
                rows.append(
                    [
                        b,
                        label,
                        f"{m['native_ms']:.2f}",
                        f"{m['ivy_ms']:.2f}",
                        f"{m['ratio']:.3f}",
                        f"{m['ratio_q1']:.3f}-{m['ratio_q3']:.3f}",
                    ]
                )
    return (
        "## Training step\n\n"
        f"An MLP {tuple(t['model'])}, batch {t['batch']}, Adam: an `ivy.Module` with `ivy.execute_with_gradients` "
        "and `ivy.Adam` against the framework's own idiom (torch.nn + torch.optim, jax.value_and_grad + Adam, "
        "tf.GradientTape + keras Adam, paddle.nn + paddle.optimizer); ms per step (the fastest step of a round, "
        "median over rounds), ratio = median of "
        f"{t['rounds']} interleaved rounds of {t['steps_per_round']} steps (quartiles). 'compiled / ivy eager' "
        "compares the whole stateful step through ivy.compile with the same step eager.\n\n"
        + _table(["backend", "mode", "other ms", "ivy ms", "ratio", "quartiles"], rows, "llrrrr")
    )


def external_section(results: dict[str, Any], stage: str, title: str) -> str:
    r = _res(results, stage)
    if not r:
        return ""
    if "absent" in r:
        return f"## {title}\n\n{r['absent']}: not run.\n"
    body = r.get("printout", "").strip()
    note = ""
    if "--quick" in r.get("command", "") and not results["meta"]["quick"]:
        note = " Run with its own `--quick` (fewer rounds) to keep the whole run within about 25 minutes."
    return (
        f"## {title}\n\n`{r.get('command', '')}` (exit {r.get('exit')}; its JSON is in results.json).{note}\n\n"
        f"```\n{body}\n```\n"
    )


def models_section(results: dict[str, Any]) -> str:
    """The training steps of the examples' models (bench_models.py), a row per backend, model
    and mode, against the 1.1x target; the script's own printout when it left no JSON."""
    r = _res(results, "models")
    data = r.get("json")
    if not data or not data.get("backends"):
        return external_section(results, "models", "Stateful API (bench_models.py)")
    target = data.get("target", 1.1)
    rows = []
    for b, models in data["backends"].items():
        for kind, res in models.items():
            for mode in ("eager", "compiled"):
                m = res.get(mode)
                if m is None:
                    continue
                mark = "✓" if m["ratio"] <= target else "✗"
                rows.append(
                    [
                        kind,
                        b,
                        mode,
                        f"{res['params']:,}",
                        f"{m['native_ms']:.2f}",
                        f"{m['ivy_ms']:.2f}",
                        f"{m['ratio']:.3f} {mark}",
                        f"[{m['q1']:.3f}, {m['q3']:.3f}]",
                        data.get("native", {}).get(b, {}).get(mode, ""),
                    ]
                )
    head = ["model", "backend", "mode", "params", "native ms", "Ivy ms", "Ivy / native", "[q1, q3]", "native step"]
    errors = "".join(f"\n* {b}: failed: {e}" for b, e in data.get("errors", {}).items())
    return (
        "## Stateful API: the examples' models (bench_models.py)\n\n"
        f"`{r.get('command', '')}` (exit {r.get('exit')}). A training step (forward, cross-entropy, "
        f"gradients, Adam) of the MNIST-style CNN and the small transformer LM of `examples/`, built "
        f"from Ivy's layers, against the same model written natively from the same weights (first "
        f"losses and parameter counts checked equal); {data['rounds']} interleaved rounds of "
        f"{data['steps_per_round']} steps, the median of the per-round ratios and its quartiles. "
        f"Target: Ivy / native <= {target} (✓ met, ✗ missed); `compiled` is what `ivy.Trainer` runs "
        "by default (`ivy.compile`).\n\n" + _table(head, rows, "lllrrrrll") + errors + "\n"
    )


def vision_section(results: dict[str, Any]) -> str:
    """ivy_vision on torch against kornia (bench_vs_kornia.py): a row per case; the script's own
    printout when it left no JSON."""
    r = _res(results, "vision")
    data = r.get("json")
    if not data or not data.get("rows"):
        return external_section(results, "vision", "ivy_vision vs kornia (bench_vs_kornia.py)")
    rows = [
        [
            r_["case"],
            f"{r_['ivy_us']:.0f}",
            f"{r_['kornia_us']:.0f}",
            f"{r_['ratio']:.2f}",
            f"{r_['ratio_lo']:.2f}-{r_['ratio_hi']:.2f}",
        ]
        for r_ in data["rows"]
    ]
    rows.append(["**median over cases**", "", "", f"**{data['median_ratio']:.2f}**", ""])
    v = data["versions"]
    h, w = data["size"]
    return (
        "## ivy_vision vs kornia (bench_vs_kornia.py)\n\n"
        f"`{r.get('command', '')}` (exit {r.get('exit')}). ivy_vision on the torch backend against "
        f"kornia {v['kornia']} (torch {v['torch']}) on the same float32 CPU tensors, {data['threads']} "
        f"thread(s): batch {data['batch']}, images {h}x{w}, {data.get('triangulated', '?')} point pairs "
        "per batch element for triangulation. Outputs are checked to agree before timing (but for the "
        "warp, where kornia pads with zeros and ivy_vision clamps to the border); each side's µs is its "
        "median call; the ratio "
        f"is the median over {data['rounds']} interleaved rounds of ivy_vision's time over kornia's, with "
        f"the lowest and highest round. Target: median over cases <= {data['target']}.\n\n"
        + _table(["case (kornia's function)", "ivy_vision µs", "kornia µs", "ratio", "rounds"], rows)
    )


def problems_section(results: dict[str, Any]) -> str:
    lines = []
    for stage, s in results.get("stages", {}).items():
        r = s.get("result")
        if not isinstance(r, dict):
            continue
        if r.get("failed"):
            lines.append(f"* stage {stage} failed: {r['failed']}")
        for b, e in (r.get("errors") or {}).items():
            lines.append(f"* {stage}, {b}: {e}")
    fn = _res(results, "functions")
    for b, res in fn.get("backends", {}).items():
        skipped = [f"`{r['op']}` ({r.get('skipped') or r.get('error')})" for r in res["rows"] if "eager" not in r]
        if skipped:
            lines.append(f"* functions not timed on {b}: " + ", ".join(skipped))
        cerr = [f"`{r['op']}` ({r['compiled_error'][:80]})" for r in res["rows"] if "compiled_error" in r]
        if cerr:
            lines.append(f"* compile failures on {b}: " + ", ".join(cerr))
    for b, res in _res(results, "libraries").get("backends", {}).items():
        if not res.get("robot_importable", True):
            lines.append(f"* {b}: ivy_robot is not importable: its functions and the drone demo are left out")

    def stage_time(v: dict[str, Any]) -> str:
        loads = [x[0] for x in v.get("load") or [] if x]
        return f"{v['seconds']:.0f} s" + (f" (1-min load {loads[0]:.1f} → {loads[-1]:.1f})" if len(loads) == 2 else "")

    not_run = results["meta"].get("not_run") or []
    if not_run:
        lines.append(
            f"* stages not part of this run: {', '.join(not_run)} (each runs alone: "
            f"`bash scripts/bench --stages {','.join(not_run)}`)"
        )
    stage_times = ", ".join(f"{k} {stage_time(v)}" for k, v in results.get("stages", {}).items())
    lines.append(f"* time per stage, with the machine's load average at its start and end: {stage_times}")
    return "## Omissions, errors and timings\n\n" + "\n".join(lines) + "\n"


def native_models_section(results: dict[str, Any]) -> str:
    from benchmarks.bench_native_models import report_section  # (its table lives with the stage)

    return report_section(results)


def render(results: dict[str, Any], images: dict[str, str]) -> str:
    parts = [
        header(results),
        headline(results),
        targets_section(results),
        METHOD,
        table3_section(results, images),
        usage_section(results, images),
        functions_section(results, images),
        peers_section(results, images),
        compiled_section(results),
        training_section(results),
        native_models_section(results),
        models_section(results),
        external_section(results, "graph", "Graph tracer (bench_graph.py)"),
        external_section(results, "transpile", "Transpiler (bench_transpile.py)"),
        vision_section(results),
        problems_section(results),
    ]
    return "\n".join(p for p in parts if p)
