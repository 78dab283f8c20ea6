"""Pictures of graphs: Graphviz dot text always; images with the ``dot`` program if installed,
else with matplotlib (a layered layout of its own), else a message saying what to install."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from typing import Any

from .._spec import SPECS
from ._ir import CALL, ConstArray, GraphIR, Value, tree_leaves

__all__ = ["to_dot", "save_image", "show", "COLORS", "layout"]

#: fill colour of an op's box, by its spec category
COLORS = {
    "elementwise": "#a6cee3",
    "creation": "#b2df8a",
    "data_type": "#fdbf6f",
    "indexing": "#cab2d6",
    "linear_algebra": "#1f78b4",
    "linalg": "#1f78b4",
    "manipulation": "#fb9a99",
    "searching": "#ffff99",
    "set": "#ffff99",
    "sorting": "#ffff99",
    "statistical": "#33a02c",
    "utility": "#e0e0e0",
    "fft": "#6a3d9a",
    "conversion": "#e0e0e0",
    "gradients": "#e31a1c",
    "random": "#ff7f00",
    "device": "#e0e0e0",
    "nn": "#fdb462",
    "general": "#bc80bd",
}
_DARK = {"linear_algebra", "linalg", "statistical", "fft", "gradients"}
_INPUT = "#f0f0f0"
_PARAM = "#d9f0d3"
_CONST = "#ffffff"


class _Vertex:
    __slots__ = ("key", "label", "fill", "shape", "cluster", "dark")

    def __init__(self, key: str, label: str, fill: str, shape: str, cluster: str | None = None, dark: bool = False):
        self.key, self.label, self.fill, self.shape, self.cluster, self.dark = key, label, fill, shape, cluster, dark


def _model(g: GraphIR) -> tuple[list[_Vertex], list[tuple[str, str, str]], dict[str, str]]:
    """Vertices, edges ``(src, dst, label)`` and cluster labels of the picture of ``g``."""
    verts: list[_Vertex] = []
    edges: list[tuple[str, str, str]] = []
    clusters: dict[str, str] = {}
    made: dict[int, str] = {}  # id(value) -> the vertex that makes it
    consts: dict[int, str] = {}
    counter = [0]

    def key(prefix: str) -> str:
        counter[0] += 1
        return f"{prefix}{counter[0]}"

    def add_graph(gr: GraphIR, cluster: str | None, outer: dict[int, str]) -> None:
        for v in gr.inputs:
            if v.kind == "capture":
                continue
            k = key("in")
            fill = _PARAM if v.kind in ("param", "buffer") else _INPUT
            verts.append(_Vertex(k, f"{v.hint}\n{v.type_str}", fill, "ellipse", cluster))
            made[id(v)] = k
        for node in gr.nodes:
            k = key("n")
            cat = SPECS[node.op].category if node.op in SPECS else "utility"
            types = " ".join(v.type_str for v in node.output_values() if v.kind != "function")
            label = node.op if node.op != CALL else "call"
            verts.append(
                _Vertex(k, f"{label}\n{types}".strip(), COLORS.get(cat, "#e0e0e0"), "box", cluster, cat in _DARK)
            )
            for s in node.subgraphs():
                ck = key("cluster_")
                clusters[ck] = s.graph.name
                for inner, o in zip(s.graph.captures, s.captures):
                    made[id(inner)] = made.get(id(o), "")
                add_graph(s.graph, ck, made)
                for v in tree_leaves(s.graph.outputs):
                    if isinstance(v, Value) and id(v) in made:
                        edges.append((made[id(v)], k, ""))
            for leaf in tree_leaves((node.args, node.kwargs)):
                if isinstance(leaf, Value) and made.get(id(leaf)):
                    edges.append((made[id(leaf)], k, _shape(leaf)))
                elif isinstance(leaf, ConstArray):
                    ck2 = consts.get(id(leaf))
                    if ck2 is None:
                        ck2 = consts[id(leaf)] = key("c")
                        verts.append(_Vertex(ck2, f"const\n{leaf.type_str}", _CONST, "ellipse", cluster))
                    edges.append((ck2, k, ""))
            for v in node.output_values():
                made[id(v)] = k

    add_graph(g, None, made)
    out = key("out")
    verts.append(_Vertex(out, "output", _INPUT, "ellipse"))
    for v in g.output_values():
        if made.get(id(v)):
            edges.append((made[id(v)], out, _shape(v)))
    seen: set[tuple[str, str, str]] = set()
    unique = [e for e in edges if not (e in seen or seen.add(e))]  # type: ignore[func-returns-value]
    return verts, unique, clusters


def _shape(v: Value) -> str:
    return "" if v.shape is None else "[" + ", ".join("?" if d is None else str(d) for d in v.shape) + "]"


def to_dot(g: GraphIR) -> str:
    verts, edges, clusters = _model(g)
    lines = [
        f'digraph "{g.name}" {{',
        "  rankdir=TB;",
        '  node [fontname="Helvetica", fontsize=10, style=filled];',
        '  edge [fontname="Helvetica", fontsize=8, color="#555555"];',
    ]

    def vline(v: _Vertex) -> str:
        label = v.label.replace('"', '\\"').replace("\n", "\\n")
        style = "rounded,filled" if v.shape == "box" else "filled"
        font = ', fontcolor="white"' if v.dark else ""
        return f'  {v.key} [label="{label}", shape={v.shape}, style="{style}", fillcolor="{v.fill}"{font}];'

    for v in verts:
        if v.cluster is None:
            lines.append(vline(v))
    for ck, label in clusters.items():
        lines.append(f'  subgraph {ck} {{ label="{label}"; style=dashed; color="#888888";')
        lines += ["  " + vline(v) for v in verts if v.cluster == ck]
        lines.append("  }")
    for a, b, label in edges:
        lines.append(f"  {a} -> {b}" + (f' [label="{label}"];' if label else ";"))
    lines.append("}")
    return "\n".join(lines) + "\n"


def layout(g: GraphIR) -> tuple[list[_Vertex], list[tuple[str, str, str]], dict[str, tuple[float, float]]]:
    """Positions ``(x, y)`` of the vertices in layers (longest path from the inputs), ordered
    within each layer by the mean position of their predecessors."""
    verts, edges, _ = _model(g)
    preds: dict[str, list[str]] = {v.key: [] for v in verts}
    for a, b, _ in edges:
        if a in preds and b in preds:
            preds[b].append(a)
    order = {v.key: i for i, v in enumerate(verts)}
    level: dict[str, int] = {}
    for v in verts:  # vertices come in execution order: predecessors first
        level[v.key] = 1 + max((level.get(p, 0) for p in preds[v.key]), default=-1)
    succs: dict[str, list[str]] = {v.key: [] for v in verts}
    for a, b, _ in edges:
        if a in succs and b in preds:
            succs[a].append(b)
    for v in verts:  # an input or constant sits just above its first use
        if not preds[v.key] and succs[v.key]:
            level[v.key] = max(0, min(level[s] for s in succs[v.key]) - 1)
    layers: dict[int, list[str]] = {}
    for k in sorted(level, key=lambda k: (level[k], order[k])):
        layers.setdefault(level[k], []).append(k)
    pos: dict[str, tuple[float, float]] = {}
    for lv in sorted(layers):
        row = layers[lv]
        if lv:
            row.sort(key=lambda k: sum(pos[p][0] for p in preds[k]) / len(preds[k]) if preds[k] else 0.0)
        width = len(row)
        for i, k in enumerate(row):
            pos[k] = (i - (width - 1) / 2, -float(lv))
    return verts, edges, pos


def _draw_matplotlib(g: GraphIR) -> Any:
    import matplotlib

    if not os.environ.get("DISPLAY") and matplotlib.get_backend().lower() not in (
        "agg",
        "module://matplotlib_inline.backend_inline",
    ):
        matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.patches import FancyBboxPatch

    verts, edges, pos = layout(g)
    xs = [p[0] for p in pos.values()] or [0.0]
    ys = [p[1] for p in pos.values()] or [0.0]
    sx, sy = 2.6, 1.1
    width = max(4.0, (max(xs) - min(xs) + 1) * sx * 0.9) + 1.6  # (and the legend)
    fig, ax = plt.subplots(figsize=(width, max(3.0, (max(ys) - min(ys) + 1) * sy * 0.9)))
    ax.set_axis_off()
    for a, b, _ in edges:
        (x0, y0), (x1, y1) = pos[a], pos[b]
        ax.annotate(
            "",
            xy=(x1 * sx, y1 * sy + 0.28),
            xytext=(x0 * sx, y0 * sy - 0.28),
            arrowprops={"arrowstyle": "-|>", "color": "#555555", "lw": 0.8, "shrinkA": 0, "shrinkB": 0},
        )
    for v in verts:
        x, y = pos[v.key]
        style = "round,pad=0.08,rounding_size=0.15" if v.shape == "box" else "round,pad=0.08,rounding_size=0.3"
        ax.add_patch(
            FancyBboxPatch(
                (x * sx - 1.0, y * sy - 0.26),
                2.0,
                0.52,
                boxstyle=style,
                fc=v.fill,
                ec="#dc143c" if v.cluster else "#333333",
                lw=0.8,
                ls="--" if v.cluster else "-",
            )
        )
        ax.text(x * sx, y * sy, v.label, ha="center", va="center", fontsize=7, color="white" if v.dark else "black")
    from matplotlib.patches import Patch

    used: dict[str, str] = {}
    for n in g.walk():
        cat = SPECS[n.op].category if n.op in SPECS else "utility"
        used.setdefault(cat, COLORS.get(cat, "#e0e0e0"))
    handles = [Patch(fc=c, ec="#333333", label=cat.replace("_", " ")) for cat, c in sorted(used.items())]
    handles += [Patch(fc=_INPUT, ec="#333333", label="input"), Patch(fc=_PARAM, ec="#333333", label="parameter")]
    ax.legend(handles=handles, loc="upper left", fontsize=7, frameon=False, bbox_to_anchor=(1.0, 1.0))
    ax.set_xlim((min(xs) - 0.6) * sx, (max(xs) + 0.6) * sx)
    ax.set_ylim((min(ys) - 0.7) * sy, (max(ys) + 0.7) * sy)
    ax.set_title(f"{g.name}", fontsize=9)
    fig.tight_layout()
    return fig


def save_image(g: GraphIR, path: str | os.PathLike[str]) -> None:
    path = os.fspath(path)
    fmt = os.path.splitext(path)[1].lstrip(".").lower() or "png"
    dot = shutil.which("dot")
    if dot:
        subprocess.run([dot, f"-T{fmt}", "-o", path], input=to_dot(g).encode(), check=True)
        return
    try:
        fig = _draw_matplotlib(g)
    except ImportError:
        raise RuntimeError(
            "drawing a graph needs Graphviz's dot program (https://graphviz.org/download/, e.g. "
            "apt install graphviz) or matplotlib (pip install 'ivy-core[draw]'); graph.to_dot() gives the dot "
            "text without either"
        ) from None
    import matplotlib.pyplot as plt

    fig.savefig(path, dpi=150)
    plt.close(fig)


def show(g: GraphIR) -> None:
    try:  # a notebook: show the picture inline
        from IPython import get_ipython
        from IPython.display import Image, display

        if get_ipython() is not None:
            with tempfile.TemporaryDirectory() as d:
                p = os.path.join(d, "graph.png")
                save_image(g, p)
                with open(p, "rb") as f:
                    display(Image(data=f.read()))
            return
    except ImportError:
        pass
    dot = shutil.which("dot")
    try:
        import matplotlib.pyplot as plt
    except ImportError:
        if dot:
            path = os.path.join(tempfile.mkdtemp(), f"{g.name}.png")
            save_image(g, path)
            print(f"the graph is drawn in {path}")
            return
        raise RuntimeError(
            "graph.show() needs matplotlib (pip install 'ivy-core[draw]') or Graphviz's dot program; "
            "graph.to_dot() needs neither"
        ) from None
    if dot:
        import matplotlib.image as mpimg

        path = os.path.join(tempfile.mkdtemp(), "graph.png")
        save_image(g, path)
        plt.imshow(mpimg.imread(path))
        plt.axis("off")
    else:
        _draw_matplotlib(g)
    plt.show()
