"""From the stages' raw results to the paper's tables and the targets' verdicts.

Per-library overhead (the paper's Table 3), for a library with call counts ``f_i`` (the usage
stage) and, per backend, per core function ``i`` the native time ``t_i`` and the median paired
ratio ``r_i`` of Ivy to native (the functions stage)::

    overhead = sum_i f_i t_i (r_i - 1) / sum_i f_i t_i

over the functions that were timed (``coverage``: their share of the library's calls). The same
sum with the A/A ratio (native against itself) is the noise floor. Compiled: the same with the
compiled times and ratios; functions that only run while a compiler traces (``ivy.dev``,
``ivy.namespace``...) are not part of a compiled program and are left out there.
"""

from __future__ import annotations

import statistics
from typing import Any

from benchmarks._native_ops import UTILITIES

LIB_NAMES = {
    "ivy_mech": "ivy-mech",
    "ivy_vision": "ivy-vision",
    "ivy_robot": "ivy-robot",
    "ivy_gym": "ivy-gym",
    "drone demo": "drone demo",
}
TARGETS = {
    "eager": "eager overhead per library at most 1% (mean over libraries) at 1e4 elements",
    "compiled": "compiled overhead within measurement noise",
    "dispatch": "inferred dispatch within 1.02x of native at 1e4 elements",
    "peers": "inferred dispatch ahead of every peer (Ivy vs the best peer, median ratios to native)",
    "training": "a training step (Module + optimizer) within 1.1x of native eager",
}


def _result(results: dict[str, Any], stage: str) -> dict[str, Any]:
    r = results.get("stages", {}).get(stage, {}).get("result")
    return r if isinstance(r, dict) else {}


def usage_parts(usage: dict[str, Any]) -> dict[str, dict[str, int]]:
    parts = {lib: v["counts"] for lib, v in usage.get("libraries", {}).items()}
    if usage.get("demo"):
        parts["drone demo"] = usage["demo"]["counts"]
    return parts


def weighted_overhead(counts: dict[str, int], rows: dict[str, dict[str, Any]], mode: str) -> dict[str, Any] | None:
    """The per-library overhead in % (and its noise floor) of one backend's rows."""
    key, aa_key, t_key = (
        ("eager", "aa", "native_us") if mode == "eager" else ("compiled", "compiled_aa", "compiled native_us")
    )
    num = aa_num = den = spread = 0.0
    covered = total = 0
    for op, n in counts.items():
        if mode == "compiled" and op in UTILITIES:
            continue
        total += n
        row = rows.get(op)
        if not row or key not in row or t_key not in row:
            continue
        covered += n
        t = n * row[t_key]
        num += t * (row[key]["ratio"] - 1)
        aa_num += t * (row[aa_key]["ratio"] - 1)
        spread += t * (row[aa_key]["q3"] - row[aa_key]["q1"]) / 2
        den += t
    if den == 0:
        return None
    return {
        "pct": 100 * num / den,
        "noise_pct": 100 * aa_num / den,
        "spread_pct": 100 * spread / den,
        "coverage": covered / total if total else 0.0,
    }


def table3(usage: dict[str, Any], functions: dict[str, Any]) -> dict[str, dict[str, dict[str, Any]]]:
    """``{backend: {library: {"eager": ..., "compiled": ...}}}``."""
    out: dict[str, dict[str, dict[str, Any]]] = {}
    parts = usage_parts(usage)
    for backend, res in functions.get("backends", {}).items():
        rows = {r["op"]: r for r in res["rows"]}
        out[backend] = {
            lib: {
                "eager": weighted_overhead(counts, rows, "eager"),
                "compiled": weighted_overhead(counts, rows, "compiled"),
            }
            for lib, counts in parts.items()
        }
    return out


def direct(libraries: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Whole library functions and the drone step: ``{backend: {fn: {eager, compiled}}}``."""
    out: dict[str, dict[str, Any]] = {}
    for backend, res in libraries.get("backends", {}).items():
        rows: dict[str, Any] = {}
        for r in res.get("rows", []):
            rows[r["fn"]] = {m: r[m] for m in ("eager", "compiled") if m in r} | (
                {"error": r["error"]} if "error" in r else {}
            )
        d = res.get("drone") or {}
        if d:
            rows["drone demo step"] = {m: d[m] for m in ("eager", "compiled") if m in d} | (
                {"error": d["error"]} if "error" in d else {}
            )
        out[backend] = rows
    return out


def _verdict(met: bool | None) -> str:
    return "met" if met else ("missed" if met is not None else "not measured")


def targets(results: dict[str, Any], t3: dict[str, Any]) -> list[dict[str, Any]]:
    """One line per target and backend: the figure, the limit, met or missed."""
    lines: list[dict[str, Any]] = []
    dispatch = _result(results, "dispatch").get("backends", {})
    upstream = _result(results, "upstream").get("backends", {})
    training = _result(results, "training").get("backends", {})
    compiled_stage = _result(results, "compiled").get("backends", {})
    backends = results["meta"]["backends"]
    for b in backends:
        libs = {k: v for k, v in t3.get(b, {}).items() if k != "drone demo"}
        eager = [v["eager"]["pct"] for v in libs.values() if v.get("eager")]
        mean = statistics.fmean(eager) if eager else None
        worst = max(libs, key=lambda k: libs[k]["eager"]["pct"] if libs[k].get("eager") else -1e9) if eager else None
        lines.append(
            {
                "target": "eager",
                "backend": b,
                "value": mean,
                "unit": "%",
                "limit": 1.0,
                "met": None if mean is None else mean <= 1.0,
                "detail": f"worst: {LIB_NAMES.get(worst, worst)} {libs[worst]['eager']['pct']:.2f}%" if worst else "",
            }
        )
        comp = [v["compiled"] for v in libs.values() if v.get("compiled")]
        if comp:
            cm = statistics.fmean(c["pct"] for c in comp)
            band = statistics.fmean(abs(c["noise_pct"]) + c["spread_pct"] for c in comp)
            stage_ratio = (compiled_stage.get(b) or {}).get("median_ratio")
            detail = f"noise band ±{band:.2f}%" + (
                f"; model functions: median ratio {stage_ratio:.3f}" if stage_ratio else ""
            )
            lines.append(
                {
                    "target": "compiled",
                    "backend": b,
                    "value": cm,
                    "unit": "%",
                    "limit": band,
                    # an overhead: a compiled Ivy program faster than the native one adds none
                    "met": cm <= band,
                    "detail": detail + ("; below native (no overhead)" if cm < -band else ""),
                }
            )
        else:
            lines.append(
                {
                    "target": "compiled",
                    "backend": b,
                    "value": None,
                    "unit": "%",
                    "limit": None,
                    "met": None,
                    "detail": "no compiler" if b == "numpy" else "",
                }
            )
        s = (dispatch.get(b) or {}).get("summary", {}).get("10000")
        ratio = s["ivy_ratio"] if s else None
        lines.append(
            {
                "target": "dispatch",
                "backend": b,
                "value": ratio,
                "unit": "x",
                "limit": 1.02,
                "met": None if ratio is None else ratio <= 1.02,
                "detail": f"{s['added_vs_native_us']:+.2f} µs per call vs native" if s else "",
            }
        )
        if s:
            peers = {p: v for p, v in s["peers"].items()}
            behind = [p for p, v in peers.items() if not v["ivy_ratio_same_ops"] < v["ratio"]]
            up = (upstream.get(b) or {}).get("median_ratio")
            if up is not None:
                peers["upstream ivy"] = {"ratio": up}
                if not ratio < up:
                    behind.append("upstream ivy")
            lines.append(
                {
                    "target": "peers",
                    "backend": b,
                    "value": min((v["ratio"] for v in peers.values()), default=None),
                    "unit": "x (best peer)",
                    "limit": ratio,
                    "met": (not behind) if peers else None,
                    "detail": ", ".join(f"{p} {v['ratio']:.2f}x" for p, v in peers.items()) or "no peer here",
                }
            )
        t = (training.get(b) or {}).get("eager")
        if b != "numpy":
            lines.append(
                {
                    "target": "training",
                    "backend": b,
                    "value": t["ratio"] if t else None,
                    "unit": "x",
                    "limit": 1.1,
                    "met": None if not t else t["ratio"] <= 1.1,
                    "detail": f"quartiles {t['ratio_q1']:.3f}-{t['ratio_q3']:.3f}" if t else "",
                }
            )
    for line in lines:
        line["verdict"] = _verdict(line["met"])
    return lines


def analyse(results: dict[str, Any]) -> dict[str, Any]:
    usage = _result(results, "usage")
    functions = _result(results, "functions")
    t3 = table3(usage, functions) if usage and functions else {}
    return {"table3": t3, "direct": direct(_result(results, "libraries")), "targets": targets(results, t3)}
