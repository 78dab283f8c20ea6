"""Generates docs/api.md, the API reference, from the specs (the single source of truth).

python docs/gen_api.py          # rewrite docs/api.md
python docs/gen_api.py --check  # exit 1 if docs/api.md is out of date (run by the tests)
"""

from __future__ import annotations

import inspect
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TARGET = os.path.join(HERE, "api.md")

TITLES = {
    "elementwise": "Element-wise functions",
    "creation": "Creation functions",
    "data_type": "Data type functions",
    "indexing": "Indexing functions",
    "linear_algebra": "Linear algebra (main namespace)",
    "manipulation": "Manipulation functions",
    "searching": "Searching functions",
    "set": "Set functions",
    "sorting": "Sorting functions",
    "statistical": "Statistical functions",
    "utility": "Utility functions",
    "linalg": "`ivy.linalg`: the linalg extension",
    "fft": "`ivy.fft`: the fft extension",
    "conversion": "Conversion helpers (Ivy's own)",
    "gradients": "Gradients (backend primitives)",
    "random": "Random numbers",
    "device": "Devices",
    "nn": "Neural-network functions",
    "general": "General functions",
}

#: Core-level functions (not backend ops): they work on functions and nests.
CORE_FUNCTIONS = (
    "execute_with_gradients",
    "grad",
    "value_and_grad",
    "jac",
    "gradient_descent_update",
    "adam_update",
    "lamb_update",
    "lars_update",
    "compile",
)


def render() -> str:
    from ivy._spec import CATEGORIES, SPECS

    out = [
        "# Ivy API reference",
        "",
        "Generated from the op specs in `ivy_core/src/ivy/_spec/` by `docs/gen_api.py`; do not edit.",
        "Every function also takes a keyword-only `backend=None` (a name or a backend namespace), and",
        "every backend namespace (`ivy.torch`, ...) has the same functions without it.",
        "",
    ]
    for cat in CATEGORIES:
        specs = [s for s in SPECS.values() if s.category == cat]
        out += [f"## {TITLES.get(cat, cat)}", ""]
        out += [", ".join(f"[`{s.short_name}`](#{s.name.replace('.', '')})" for s in specs), ""]
        for s in specs:
            sig = str(s.signature)
            out += [f"### {s.name}", "", "```python", f"ivy.{s.name}{sig}", "```", ""]
            out += [inspect.cleandoc(s.doc), ""]
    import ivy

    composed = set(__import__("ivy._compose", fromlist=["load_defaults"]).load_defaults())
    out += [
        "## Composed ops",
        "",
        "These have a default implementation in core, written once against the Array API;",
        "a backend may override them natively:",
        "",
        ", ".join(f"`{n}`" for n in sorted(composed)),
        "",
    ]
    out += [
        "## Core-level functions",
        "",
        "Functions on functions and nests, built on the backend primitives above.",
        "",
    ]
    for name in CORE_FUNCTIONS:
        fn = getattr(ivy, name)
        out += [f"### {name}", "", "```python", f"ivy.{name}{inspect.signature(fn)}", "```", ""]
        out += [inspect.cleandoc(fn.__doc__ or ""), ""]
    return "\n".join(out).rstrip() + "\n"


def main() -> int:
    sys.path.insert(0, os.path.join(os.path.dirname(HERE), "ivy_core", "src"))
    text = render()
    if "--check" in sys.argv:
        current = open(TARGET, encoding="utf-8").read() if os.path.exists(TARGET) else ""
        if current != text:
            print("docs/api.md is out of date: run python docs/gen_api.py")
            return 1
        return 0
    from ivy import _atomic

    _atomic.write_text(TARGET, text)  # (a crash never leaves half a page)
    print(f"wrote {TARGET}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
