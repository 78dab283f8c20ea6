r"""The documented examples run: every Python block of README.md, docs/*.md, tests/README.md and the
READMEs of the distributions, and every shell command of README.md, tests/README.md and docs/*.md;
and tests/README.md names every test file of tests/.

Each ```python block is one of four things, said by an HTML comment on a line right above its
fence (invisible when rendered), or by its form:

* A runnable example::

      <!-- runnable: torch -->
      ```python
      ...
      ```

  It runs in a fresh interpreter, in the test process of the backend it names (``any``: the numpy
  process), so each example runs once per test run, with the frameworks it needs importable.
  ``<!-- runnable: torch, group: NAME -->``: the blocks of one document marked with the same group
  (and the same backend) run in one interpreter, one after the other in the document's order: a
  later block uses the names an earlier one made (its reader has just read those), and the group
  starts its frameworks once. A failing block's traceback names its document and line.
* A file of an example distribution, ``<!-- runnable: numpy, distribution: NAME -->`` (a ```toml
  block may be one too), whose first line is the comment ``# PATH``: the test writes NAME's files
  to a folder, installs the entry points of its ``pyproject.toml`` as pip does (a ``.dist-info``
  folder), adds the stand-ins for what only the guide's reader has (their framework), and runs the
  check of :data:`DISTRIBUTIONS`, which is what the guide says the distribution does.
* A block another test runs: ``<!-- runnable-by: tests/test_x.py -->``. It is checked that the
  file extracts this very block from this document: the file (or a module of tests/ it imports)
  names the document and holds a compiled pattern that finds the block's code in it, and the file
  passes the block's key (the pattern's first group, as ``torch`` in ``<!-- data-parallel recipe:
  torch -->``) to a call.
* A signature listing, which needs no mark: every line is ``dotted.name(parameters) -> annotation``
  as a ``def`` takes it, maybe with an end-of-line comment (the generated references of
  docs/api.md and docs/stateful.md, the callback types of docs/plugin-contract.md). A call whose
  arguments are names alone reads as one too: an example shows a literal, a result or a statement.
  A listing of a dataclass's fields is a Markdown table, not a block.

Any other ```python block fails :func:`test_every_python_block_is_run_or_a_signature_listing`,
with a message saying how to mark it.

Shell commands are the lines of ``bash``/``sh``/``shell``/``console`` fences (a trailing ``\``
continues a line, ``#`` starts a comment) and the ``$ `` lines of other fences. Each must match
one rule of :data:`RULES`, which says how it is executed, in the numpy process: fast commands run
for real; a command that takes minutes, or needs what only its reader has, is checked in the
cheapest way that still executes it. The rule for each:

* the conformance kit (``python -m pytest ... --pyargs ivy.testing.suite``), with the placeholder
  backend ``mine`` standing for the plugin template's ``strict``: README.md's runs for real (it
  is the one a new author copies), those of the guides with ``--collect-only`` (their options
  parsed, the backend loaded, its expected failures read, every test collected);
* ``python -m pytest PATH...`` on test files of this repository (tests/README.md's): with
  ``--collect-only`` from the repository's root (every path exists, the options are parsed, the
  modules import, and at least one test is collected; running them is what the test runs are for);
* ``python -m ivy doctor``: for real; ``python -m ivy transpile MODULE:NAME ...``, which needs the
  reader's module: its arguments parsed by the command's own parser;
* ``pip install ...``: with ``--dry-run --no-deps --no-index --no-build-isolation`` added (the
  paths, extras, the constraints file and each distribution's metadata are read; nothing is
  installed or downloaded);
* ``bash scripts/test``: ``bash -n`` (the whole script parses) and ``--help`` (it runs, and
  documents every argument the command passes); ``bash scripts/demo`` and ``bash scripts/bench``
  exec a Python program: ``bash -n``, and the program's ``--help`` (its parser knows every option
  the command passes); a real run takes minutes and sets up ``.venv``;
* the official Array API suite (``ARRAY_API_TESTS_MODULE=... python -m pytest array_api_tests``),
  a checkout of another repository: the namespace it names is imported the way that suite imports
  it, and has the Array API version the command asks for.

A command that matches no rule fails the test: add a rule, or change the docs.
"""

from __future__ import annotations

import ast
import importlib.util
import io
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tokenize
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
DOCS = [
    REPO / "README.md",
    *sorted((REPO / "docs").glob("*.md")),
    REPO / "tests" / "README.md",
    *sorted(REPO.glob("ivy_core/README.md")),
    *sorted(REPO.glob("plugins/*/README.md")),
    *sorted(REPO.glob("libs/*/README.md")),
]
_FENCE = re.compile(r"^```([a-z]*)\n(.*?)^```", re.S | re.M)
_COMMENT = re.compile(r"<!--(.*)-->")


@dataclass(frozen=True)
class Block:
    """A fenced block of a document."""

    doc: Path
    line: int  # the line of its opening fence
    lang: str
    code: str
    marks: tuple[str, ...]  # the HTML comments on the lines right above the fence, their text

    @property
    def where(self) -> str:
        return f"{self.doc.relative_to(REPO)}:{self.line}"


@dataclass(frozen=True)
class Mark:
    """A block's ``<!-- runnable: BACKEND[, group: NAME][, distribution: NAME] -->``."""

    backend: str
    group: str | None = None
    distribution: str | None = None


def _fenced(path: Path) -> list[Block]:
    text = path.read_text(encoding="utf-8")
    out = []
    for m in _FENCE.finditer(text):
        above, marks = text[: m.start()].splitlines(), []
        while above and (c := _COMMENT.fullmatch(above[-1].strip())):
            marks.insert(0, c.group(1).strip())
            above.pop()
        line = text[: m.start()].count("\n") + 1
        out.append(Block(path, line, m.group(1), m.group(2).removesuffix("\n"), tuple(marks)))
    return out


def _mark(block: Block) -> Mark | None:
    """The block's ``runnable:`` mark; ValueError says what is wrong with a malformed one."""
    for text in block.marks:
        if not text.startswith("runnable:"):
            continue
        backend, *rest = (part.strip() for part in text.removeprefix("runnable:").split(","))
        options = dict(tuple(s.strip() for s in part.partition(":")[::2]) for part in rest)
        unknown = sorted(set(options) - {"group", "distribution"})
        if not re.fullmatch(r"[a-z_]+", backend) or unknown or not all(options.values()):
            raise ValueError(
                f"`<!-- {text} -->` is not `<!-- runnable: BACKEND[, group: NAME][, distribution: NAME] -->`"
            )
        return Mark(backend, options.get("group"), options.get("distribution"))
    return None


def _run_by(block: Block) -> str | None:
    """The test file of the block's ``runnable-by:`` mark."""
    return next((t.removeprefix("runnable-by:").strip() for t in block.marks if t.startswith("runnable-by:")), None)


def _is_signature(line: str) -> bool:
    name = re.match(r"[A-Za-z_]\w*(\.[A-Za-z_]\w*)+(?=\()", line)
    if name is None:
        return False
    try:  # (the end-of-line comment, if any, found as Python finds it: not inside a string)
        tokens = list(tokenize.generate_tokens(io.StringIO(line).readline))
    except (tokenize.TokenError, SyntaxError):
        return False
    end = next((t.start[1] for t in tokens if t.type == tokenize.COMMENT), len(line))
    try:
        tree = ast.parse(f"def _{line[name.end() : end].rstrip()}: ...")
    except SyntaxError:
        return False
    return len(tree.body) == 1 and isinstance(tree.body[0], ast.FunctionDef)


def is_signature_listing(code: str) -> bool:
    """Whether each line of ``code`` is a signature, ``dotted.name(parameters) -> annotation`` as
    ``def`` takes it: a listing, not a snippet (a call whose arguments are names alone reads as
    one too: an example shows a literal argument, a result or a statement)."""
    lines = [line for line in code.splitlines() if line.strip()]
    return bool(lines) and all(_is_signature(line) for line in lines)


BLOCKS = [b for path in DOCS for b in _fenced(path)]
PYTHON_BLOCKS = [b for b in BLOCKS if b.lang == "python"]


def _runs() -> list[tuple[str, str, list[Block]]]:
    """``(id, backend, blocks)`` of each interpreter the runnable examples take: one per block, one
    per group."""
    runs: dict[str, tuple[str, list[Block]]] = {}
    for block in PYTHON_BLOCKS:
        try:
            mark = _mark(block)
        except ValueError:  # (reported by test_every_python_block_is_run_or_a_signature_listing)
            continue
        if mark is None or mark.distribution:
            continue
        key = f"{block.doc.relative_to(REPO)}#{mark.group}" if mark.group else block.where
        runs.setdefault(key, (mark.backend, []))[1].append(block)
    return [(key, backend, blocks) for key, (backend, blocks) in runs.items()]


RUNS = _runs()

_HOW_TO_MARK = (
    "each ```python block of the docs must run: mark it with `<!-- runnable: BACKEND -->` on the line "
    "before its fence (BACKEND: the framework it needs, `numpy` where any will do; "
    "`<!-- runnable: BACKEND, group: NAME -->` to run it after the earlier blocks of the same group "
    "of its document, in one interpreter), and complete it so that it runs; or, if another test runs "
    "it, `<!-- runnable-by: tests/test_x.py -->`; a listing of signatures needs no mark "
    "(see the docstring of tests/test_docs_examples.py):\n"
)


def test_every_python_block_is_run_or_a_signature_listing(backend: str) -> None:
    if backend != "numpy":
        pytest.skip("checked once, in the numpy test process")
    problems, groups = [], defaultdict(set)
    for block in PYTHON_BLOCKS:
        try:
            mark = _mark(block)
        except ValueError as e:
            problems.append(f"{block.where}: {e}")
            continue
        if mark is not None:
            if mark.group:
                groups[f"{block.doc.relative_to(REPO)}#{mark.group}"].add(mark.backend)
            if mark.distribution and mark.distribution not in DISTRIBUTIONS:
                problems.append(f"{block.where}: no example distribution {mark.distribution!r} in DISTRIBUTIONS")
        elif _run_by(block) is None and not is_signature_listing(block.code):
            first = block.code.strip().splitlines()[0] if block.code.strip() else ""
            problems.append(f"{block.where}: not run, and not a signature listing: {first[:80]!r}")
    problems += [
        f"{g}: a group runs in one interpreter, with one backend, not {sorted(b)}"
        for g, b in groups.items()
        if len(b) > 1
    ]
    assert not problems, _HOW_TO_MARK + "\n".join(problems)


def test_a_signature_listing_is_told_from_a_snippet() -> None:
    for listing in (
        "ivy.add(x1: Array | complex, x2: Array | complex, /) -> Array",
        "ivy.Dropout(prob: float, *, scale: bool = True, **kwargs: Any)\nivy.f() -> 'Any'  # (a comment)",
        "ConvND.__call__(self, x: 'Any', pads: 'list[tuple[int, int]]', /) -> 'Any'",
    ):
        assert is_signature_listing(listing), listing
    for snippet in (
        "ivy.add(x, 1)",
        "print(ivy.add(x, y))",
        "y = ivy.add(x, x)",
        "ivy.isdtype(x.dtype, ivy.float32)",
        "ivy.f(a).g(b)",
        "ivy.f(a); ivy.g(b)",
        "ivy.f(a)  # one\nimport ivy",
        "ivy.f(\n    a)",
        "add(x1: Array, x2: Array) -> Array",
        "",
    ):
        assert not is_signature_listing(snippet), snippet


def test_docs_have_runnable_examples() -> None:
    assert len(RUNS) >= 5, "the README and the guides mark their examples runnable"
    assert sum(len(blocks) > 1 for _, _, blocks in RUNS) >= 2, "the guides group their examples"


_RUN_BLOCKS = """\
import json as _json, sys as _sys
with open(_sys.argv[1], encoding="utf-8") as _f:
    _blocks = _json.load(_f)
del _json, _sys, _f
for _doc, _line, _code in _blocks:
    exec(compile("\\n" * _line + _code, _doc, "exec"))  # (as if in the document: its lines in tracebacks)
"""


@pytest.mark.parametrize(("run", "needs", "blocks"), RUNS, ids=[r[0] for r in RUNS])
def test_documented_example_runs(backend: str, run: str, needs: str, blocks: list[Block], tmp_path: Path) -> None:
    if needs != backend and not (needs == "any" and backend == "numpy"):
        pytest.skip(f"runs in the {needs if needs != 'any' else 'numpy'} test process")
    listing = tmp_path / "_blocks.json"
    listing.write_text(json.dumps([[str(b.doc), b.line, b.code] for b in blocks]), encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k not in ("IVY_BACKEND",)}
    argv = [sys.executable, "-c", _RUN_BLOCKS, str(listing)]
    p = subprocess.run(argv, capture_output=True, text=True, cwd=tmp_path, env=env, timeout=600)
    assert p.returncode == 0, f"{run} failed:\n{p.stdout[-2000:]}\n{p.stderr[-4000:]}"


# --------------------------------------------------------------------------- blocks other tests run

RUN_ELSEWHERE = [(b.where, b, runner) for b in PYTHON_BLOCKS if (runner := _run_by(b)) is not None]


def _tests_it_imports(source: str) -> list[Path]:
    """The modules of tests/ that ``source`` imports (anywhere in it)."""
    names = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.add(node.module.split(".")[0])
        elif isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
    return [REPO / "tests" / f"{n}.py" for n in sorted(names) if (REPO / "tests" / f"{n}.py").is_file()]


def _patterns(path: Path) -> list[re.Pattern[str]]:
    """The compiled patterns at the top level of the module ``path``."""
    spec = importlib.util.spec_from_file_location(f"_docs_examples_{path.stem}", path)
    assert spec is not None and spec.loader is not None, path
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return [v for v in vars(module).values() if isinstance(v, re.Pattern)]


@pytest.mark.parametrize(("where", "block", "runner"), RUN_ELSEWHERE, ids=[w for w, _, _ in RUN_ELSEWHERE])
def test_block_run_by_another_test_is_extracted_there(backend: str, where: str, block: Block, runner: str) -> None:
    if backend != "numpy":
        pytest.skip("checked once, in the numpy test process")
    path = REPO / runner
    assert path.parent == REPO / "tests" and path.name.startswith("test_") and path.is_file(), (
        f"{where}: runnable-by names {runner}, which is no test file of tests/"
    )
    source = path.read_text(encoding="utf-8")
    text = block.doc.read_text(encoding="utf-8")
    found = [
        m
        for module in [path, *_tests_it_imports(source)]
        if block.doc.name in module.read_text(encoding="utf-8")
        for pattern in _patterns(module)
        for m in pattern.finditer(text)
        if block.code in m.groups()
    ]
    assert found, (
        f"{where}: {runner} (and the modules of tests/ it imports) extract no such block from {block.doc.name}"
    )
    keys = {m.group(1) for m in found if m.re.groups >= 2}
    assert all(re.search(rf"\w\(\s*['\"]{re.escape(k)}['\"]", source) for k in keys), (
        f"{where}: {runner} extracts the block (key {sorted(keys)}) but passes its key to no call"
    )


# --------------------------------------------------------------------------- example distributions

_MYLIB = '''"""The reader's framework in docs/writing-a-backend-plugin.md: arrays of Python floats, and
dtypes whose own names are not the standard's."""
import math


class DType:
    def __init__(self, name):
        self.name = name


float32, float64, int64 = DType("f4"), DType("f8"), DType("i8")
cpu = "cpu"


class Array:
    def __init__(self, values):
        self.values = [float(v) for v in values]


def ones(n):
    return Array([1.0] * n)


def add(x1, x2, /):
    return Array([a + b for a, b in zip(x1.values, x2.values)])


def sin(x, /):
    return Array([math.sin(a) for a in x.values])
'''

#: example distribution -> (stand-ins for what only the guide's reader has: file name -> text, the
#: check of what the guide says the installed distribution does)
DISTRIBUTIONS: dict[str, tuple[dict[str, str], str]] = {
    # docs/writing-a-backend-plugin.md: "`pip install -e .` and `ivy.sin(mylib.ones(3))` returns a
    # `mylib` array", and "Dtypes are named by your declaration"
    "ivy-mine": (
        {"mylib.py": _MYLIB},
        "import math, ivy, mylib\n"
        "y = ivy.sin(mylib.ones(3))\n"
        "assert isinstance(y, mylib.Array) and y.values == [math.sin(1.0)] * 3, vars(y)\n"
        "assert ivy.add(y, y).values == [2 * math.sin(1.0)] * 3\n"
        "assert ivy.dtype_name(mylib.float32) == 'float32' and ivy.dtype_name(mylib.float64) == 'float64'\n",
    ),
}


def _distributions() -> dict[str, list[Block]]:
    out: dict[str, list[Block]] = defaultdict(list)
    for block in BLOCKS:
        try:
            mark = _mark(block)
        except ValueError:
            continue
        if mark is not None and mark.distribution:
            out[mark.distribution].append(block)
    return out


EXAMPLE_DISTRIBUTIONS = sorted(_distributions().items())


@pytest.mark.parametrize(("name", "blocks"), EXAMPLE_DISTRIBUTIONS, ids=[n for n, _ in EXAMPLE_DISTRIBUTIONS])
def test_example_distribution_works(backend: str, name: str, blocks: list[Block], tmp_path: Path) -> None:
    needs = {mark.backend for b in blocks if (mark := _mark(b)) is not None}
    if backend not in needs and not (backend == "numpy" and needs == {"any"}):
        pytest.skip(f"runs in the {sorted(needs)} test process")
    project, site = tmp_path / "project", tmp_path / "site"
    for block in blocks:
        first = block.code.splitlines()[0] if block.code else ""
        assert first.startswith("# "), f"{block.where}: a file of {name} starts with `# PATH`, not {first!r}"
        target = project / first[2:].strip()
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(block.code + "\n", encoding="utf-8")
    assert (project / "pyproject.toml").is_file(), f"{name}: no block is its pyproject.toml"
    tomllib = pytest.importorskip("tomllib", reason="reads pyproject.toml with Python 3.11's tomllib")
    entry_points = tomllib.loads((project / "pyproject.toml").read_text(encoding="utf-8"))
    groups = entry_points.get("project", {}).get("entry-points", {})
    assert groups, f"{name}: its pyproject.toml declares no entry points"
    # what pip installs beside the code: the metadata that importlib.metadata finds on sys.path
    info = site / f"{name.replace('-', '_')}-0.0.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 0.0.0\n", encoding="utf-8")
    ini = "".join(f"[{g}]\n" + "".join(f"{k} = {v}\n" for k, v in eps.items()) for g, eps in groups.items())
    (info / "entry_points.txt").write_text(ini, encoding="utf-8")
    stand_ins, check = DISTRIBUTIONS[name]
    for file, text in stand_ins.items():
        (site / file).write_text(text, encoding="utf-8")
    code_root = project / "src" if (project / "src").is_dir() else project  # (the src layout)
    env = {k: v for k, v in os.environ.items() if k not in ("IVY_BACKEND",)}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(site), str(code_root), os.environ.get("PYTHONPATH")]))
    p = subprocess.run(
        [sys.executable, "-c", check], capture_output=True, text=True, cwd=tmp_path, env=env, timeout=900
    )
    assert p.returncode == 0, f"{name} ({', '.join(b.where for b in blocks)}):\n{p.stdout[-2000:]}\n{p.stderr[-4000:]}"


# --------------------------------------------------------------------------- shell commands

COMMAND_DOCS = [REPO / "README.md", REPO / "tests" / "README.md", *sorted((REPO / "docs").glob("*.md"))]
_SHELL = ("bash", "sh", "shell", "console")


def _commands() -> list[tuple[str, str]]:
    """``(where, command)`` of every shell command of README.md and docs/*.md."""
    out = []
    for path in COMMAND_DOCS:
        text = path.read_text(encoding="utf-8")
        for m in _FENCE.finditer(text):
            lang, body = m.group(1), m.group(2)
            first = text[: m.start()].count("\n") + 2
            lines = body.splitlines()
            pending, start = "", 0
            for i, line in enumerate(lines):
                if lang not in _SHELL:
                    if line.startswith("$ "):
                        out.append((f"{path.relative_to(REPO)}:{first + i}", line[2:].strip()))
                    continue
                if not pending:
                    start = i
                pending += line.rstrip().removesuffix("\\") + " "
                if line.rstrip().endswith("\\"):
                    continue
                cmd = shlex.join(shlex.split(pending, comments=True))
                pending = ""
                if cmd:
                    out.append((f"{path.relative_to(REPO)}:{first + start}", cmd))
    return out


COMMANDS = _commands()


def _run(argv: list[str], *, env: dict[str, str] | None = None, cwd: Path = REPO, timeout: float = 900) -> str:
    full = {k: v for k, v in os.environ.items() if k not in ("IVY_BACKEND", "HYPOTHESIS_PROFILE", "CI")}
    full.update(env or {})
    p = subprocess.run(argv, capture_output=True, text=True, cwd=cwd, env=full, timeout=timeout)
    assert p.returncode == 0, f"{shlex.join(argv)} exited with {p.returncode}:\n{p.stdout[-4000:]}\n{p.stderr[-4000:]}"
    return p.stdout + p.stderr


def _python(argv: list[str]) -> list[str]:
    """``python ...`` of the docs, run by this interpreter."""
    return [sys.executable, *argv[1:]] if argv[0] == "python" else argv


def _collected(out: str) -> int:
    """The number of tests ``pytest --collect-only -q`` says it collected (selected)."""
    # (-q: "N tests collected", "N/M tests collected (K deselected)" with -k; -qq: a count per file)
    counts = re.findall(r"^(\d+)(?:/\d+)? tests? collected", out, re.M)
    counts = counts or re.findall(r"^test_\w+\.py: (\d+)", out, re.M)
    return sum(int(n) for n in counts)


def _kit(argv: list[str], where: str, tmp_path: Path) -> None:
    argv = _python(["strict" if a == "mine" else a for a in argv])
    if not where.startswith("README.md"):
        argv = [*argv, "--collect-only", "-q"]
    # outside the repository, as an author runs it: no pytest.ini of ours adds options
    out = _run([*argv, "-p", "no:cacheprovider"], cwd=tmp_path)
    if "--collect-only" in argv:
        assert _collected(out) > 0, out[-2000:]
    else:
        summary = out.strip().splitlines()[-1]
        assert " passed" in summary and not re.search(r"\d+ (failed|errors?)\b", summary), out[-4000:]


def _pytest_here(argv: list[str], where: str, tmp_path: Path) -> None:
    assert argv[:3] == ["python", "-m", "pytest"], argv
    paths = [a for a in argv[3:] if not a.startswith("-") and ("/" in a or a.endswith(".py"))]
    assert paths, f"{where}: `{shlex.join(argv)}` names no test file or folder of this repository"
    missing = [p for p in paths if not (REPO / p.split("::")[0]).exists()]
    assert not missing, f"{where}: no such test file or folder: {missing}"
    out = _run([*_python(argv), "--collect-only", "-q"])
    assert _collected(out) > 0, f"{where}: `{shlex.join(argv)}` collects no test:\n{out[-2000:]}"


def _ivy_command(argv: list[str], where: str, tmp_path: Path) -> None:
    sub = argv[3]
    if sub == "doctor":
        out = _run(_python(argv), cwd=tmp_path)
        assert "problem(s) found" not in out, out
    elif sub == "transpile":
        from ivy._cli import _parser

        args = _parser().parse_args(argv[3:])  # raises SystemExit(2) on a wrong option
        assert args.command == "transpile", args
    else:
        raise AssertionError(f"{where}: no rule for `python -m ivy {sub}`: add one to RULES")


def _pip(argv: list[str], where: str, tmp_path: Path) -> None:
    assert argv[:2] == ["pip", "install"], argv
    extra = ["--dry-run", "--no-deps", "--no-index", "--no-build-isolation", "--disable-pip-version-check"]
    out = _run([sys.executable, "-m", "pip", "install", *extra, *argv[2:]])
    assert "Would install" in out, out


def _script(argv: list[str], where: str, tmp_path: Path) -> None:
    assert argv[0] == "bash", argv
    script = REPO / argv[1]
    _run(["bash", "-n", str(script)])
    if script.name == "test":
        usage = _run(["bash", str(script), "--help"])
    else:  # the Python program the script execs, which has the options
        program = {"demo": ["examples/drone_motion_planning.py"], "bench": ["-m", "benchmarks.run"]}[script.name]
        assert f"exec python {' '.join(program)}" in script.read_text(), f"{script} no longer execs {program}"
        usage = _run([sys.executable, *program, "--help"])
    for arg in argv[2:]:
        assert arg in usage, f"{where}: {script.name} does not document {arg!r}:\n{usage}"


def _array_api_tests(argv: list[str], where: str, tmp_path: Path) -> None:
    env = dict(a.split("=", 1) for a in argv if re.match(r"^[A-Z_]+=", a))
    rest = [a for a in argv if not re.match(r"^[A-Z_]+=", a)]
    assert rest[:4] == ["python", "-m", "pytest", "array_api_tests"], rest
    # what array_api_tests does with the module's name: import the top module, then getattr
    code = (
        "import importlib, os\n"
        "top, _, sub = os.environ['ARRAY_API_TESTS_MODULE'].partition('.')\n"
        "xp = importlib.import_module(top)\n"
        "xp = getattr(xp, sub) if sub else xp\n"
        "assert xp.__array_api_version__ == os.environ['ARRAY_API_TESTS_VERSION'], xp.__array_api_version__\n"
        "assert callable(xp.asarray) and callable(xp.linalg.inv)\n"
    )
    _run([sys.executable, "-c", code], env=env, cwd=tmp_path)


#: (pattern of a command, how it is executed): the first that matches applies (see the docstring)
RULES: list[tuple[str, Callable[[list[str], str, Path], None]]] = [
    (r"^python -m pytest .*--pyargs ivy\.testing\.suite\b", _kit),
    (r"^python -m ivy (doctor|transpile)\b", _ivy_command),
    (r"^pip install ", _pip),
    (r"^bash scripts/(test|demo|bench)\b", _script),
    (r"^(ARRAY_API_TESTS_[A-Z]+=\S+ )+python -m pytest array_api_tests\b", _array_api_tests),
    (r"^python -m pytest (ivy_core|plugins|libs|templates|tests)/", _pytest_here),
]


def test_docs_have_shell_commands() -> None:
    assert len(COMMANDS) >= 8, COMMANDS
    assert any(w.startswith("README.md") and "ivy.testing.suite" in c for w, c in COMMANDS), "the README's kit command"


@pytest.mark.parametrize(("where", "command"), COMMANDS, ids=[w for w, _ in COMMANDS])
def test_documented_command_runs(backend: str, where: str, command: str, tmp_path: Path) -> None:
    if backend != "numpy":
        pytest.skip("runs in the numpy test process")
    rule = next((fn for pattern, fn in RULES if re.search(pattern, command)), None)
    assert rule is not None, f"{where}: no rule says how to execute `{command}`: add one to RULES"
    assert shutil.which("bash") is not None or not command.startswith("bash"), "bash is needed"
    rule(shlex.split(command), where, tmp_path)


# --------------------------------------------------------------------------- tests/README.md


def test_tests_readme_names_every_test_file_of_tests(backend: str) -> None:
    if backend != "numpy":
        pytest.skip("checked once, in the numpy test process")
    text = (REPO / "tests" / "README.md").read_text(encoding="utf-8")
    named = set(re.findall(r"`(test_\w+\.py)`", text))
    present = {p.name for p in (REPO / "tests").glob("test_*.py")}
    assert not present - named, f"tests/README.md does not name (and say what they test): {sorted(present - named)}"
    assert not named - present, f"tests/README.md names test files that tests/ does not have: {sorted(named - present)}"
