"""Generates the transpiler's coverage tables from each installed frontend's
``FrontendImpl.op_set()`` (the native op set it knows: mapped ops with their Ivy translation,
unmapped ones as None): the summary in docs/transpiling.md, and the summary with every op in
docs/transpile-coverage.md. It rewrites the regions between the generated-section markers.

Each frontend is loaded in a subprocess of its own (it imports its framework, and some cannot
share a process: paddle after tensorflow). A frontend that cannot be loaded here (its framework is
not installed) keeps the section the document already has.

    python docs/gen_transpile_coverage.py           # rewrite the tables
    python docs/gen_transpile_coverage.py --check   # exit 1 if a loadable frontend's table is out of date
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from typing import Any

HERE = os.path.dirname(os.path.abspath(__file__))
GUIDE = os.path.join(HERE, "transpiling.md")
TARGET = os.path.join(HERE, "transpile-coverage.md")
BEGIN = "<!-- BEGIN GENERATED: coverage (docs/gen_transpile_coverage.py) -->"
END = "<!-- END GENERATED: coverage -->"
_SECTION = re.compile(
    r"<!-- coverage: (?P<name>\w+) (?P<meta>\{.*?\}) -->\n(?P<body>.*?)<!-- /coverage: (?P=name) -->\n", re.S
)
_MARK = "@@coverage@@"


def frontend_data(name: str) -> dict[str, Any]:
    """The op set of frontend ``name`` and its versions (loads it: imports its framework)."""
    import sys as _sys

    from ivy.transpile._frontends import frontend_impl, frontend_label, frontends

    front = frontends()[name]
    ops = dict(frontend_impl(name).op_set())
    fw = next((m for m in front.modules if m in _sys.modules), front.modules[0])
    version = str(getattr(_sys.modules.get(fw), "__version__", "?"))
    return {
        "name": name,
        "label": frontend_label(name),
        "framework": f"{fw} {version}",
        "description": front.description,
        "ops": {str(k): (None if v is None else str(v)) for k, v in sorted(ops.items())},
    }


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def section(data: dict[str, Any]) -> str:
    """The document section of one frontend."""
    ops = data["ops"]
    mapped = sum(v is not None for v in ops.values())
    meta = {"mapped": mapped, "known": len(ops), "label": data["label"], "framework": data["framework"]}
    lines = [
        f"<!-- coverage: {data['name']} {json.dumps(meta, sort_keys=True)} -->",
        f"#### {data['name']}: {mapped} of {len(ops)} ops ({data['label']}, {data['framework']})",
        "",
        f"<details><summary>the {data['name']} op set, op by op</summary>",
        "",
        "| op | Ivy translation |",
        "|---|---|",
    ]
    lines += [f"| `{_cell(op)}` | {_cell(how) if how is not None else '**not mapped**'} |" for op, how in ops.items()]
    lines += ["", "</details>", "", f"<!-- /coverage: {data['name']} -->", ""]
    return "\n".join(lines)


def _summary(sections: dict[str, str]) -> str:
    rows = ["| frontend | plugin | framework | ops mapped |", "|---|---|---|---|"]
    for name, text in sections.items():
        m = _SECTION.match(text)
        assert m is not None
        meta = json.loads(m.group("meta"))
        rows.append(f"| `{name}` | {meta['label']} | {meta['framework']} | {meta['mapped']} of {meta['known']} |")
    return "\n".join(rows) + "\n"


def render(current: str, fresh: dict[str, str]) -> str:
    """``current``'s generated region rebuilt: the fresh sections, the old ones of the frontends
    not loadable here, and the summary table over all of them."""
    start, end = current.index(BEGIN) + len(BEGIN), current.index(END)
    old = {m.group("name"): m.group(0) for m in _SECTION.finditer(current[start:end])}
    sections = {**old, **fresh}
    sections = {name: sections[name] for name in sorted(sections)}
    region = "\n" + _summary(sections) + "\n" + "\n".join(sections.values())
    return current[:start] + region + current[end:]


def render_guide(guide: str, coverage: str) -> str:
    """The guide's region: the summary of ``coverage`` (already rendered), and where the op
    tables are."""
    start, end = coverage.index(BEGIN) + len(BEGIN), coverage.index(END)
    sections = {m.group("name"): m.group(0) for m in _SECTION.finditer(coverage[start:end])}
    region = (
        "\n" + _summary(sections) + "\nEvery op of every frontend, with its Ivy translation: "
        "[transpile-coverage.md](transpile-coverage.md).\n"
    )
    gstart, gend = guide.index(BEGIN) + len(BEGIN), guide.index(END)
    return guide[:gstart] + region + guide[gend:]


def _load_in_subprocess(name: str) -> dict[str, Any] | None:
    code = (
        f"import json, sys; sys.path.insert(0, {HERE!r}); from gen_transpile_coverage import frontend_data; "
        f"print({_MARK!r} + json.dumps(frontend_data({name!r})))"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=900)
    for line in proc.stdout.splitlines():
        if line.startswith(_MARK):
            return json.loads(line[len(_MARK) :])
    print(
        f"skipping the {name!r} frontend (it does not load here): {proc.stderr.strip().splitlines()[-1:]}",
        file=sys.stderr,
    )
    return None


def main(argv: list[str]) -> int:
    if "-h" in argv or "--help" in argv:
        print(__doc__)
        return 0
    from ivy.transpile import frontends

    fresh = {}
    for name in frontends():
        if name == "ivy":
            continue
        data = _load_in_subprocess(name)
        if data is not None:
            fresh[name] = section(data)
    stale = []
    with open(TARGET, encoding="utf-8") as f:
        current = f.read()
    coverage = render(current, fresh)
    with open(GUIDE, encoding="utf-8") as f:
        guide = f.read()
    new_guide = render_guide(guide, coverage)
    for path, old, new in ((TARGET, current, coverage), (GUIDE, guide, new_guide)):
        if old == new:
            continue
        stale.append(path)
        if "--check" not in argv:
            from ivy import _atomic

            _atomic.write_text(path, new)  # (a crash never leaves half a page)
    if "--check" in argv and stale:
        print(f"out of date: {', '.join(stale)}: run python docs/gen_transpile_coverage.py", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
