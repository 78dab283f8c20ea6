"""The emitted program's code, ``graph.source(backend)``: a standalone Python module computing a
graph with the target framework's own functions (the plugin's only where an op is not a plain
framework function). This is a translation's output; its input, the source object a translation
reads, is ``ivy.transpile._source``'s."""

from __future__ import annotations

import importlib
import re
import types
import warnings
from typing import Any

from .. import _context
from ._code import Spelling, generate, literal
from ._decompose import composed_ops, decompose
from ._emit import _missing_error, direct, missing_ops
from ._errors import GraphEmitError
from ._ir import CALL, ConstArray, GraphIR, Node

__all__ = ["source"]

_INDEX: dict[str, dict[int, str]] = {}


def _framework_index(b: Any) -> dict[int, str]:
    """id(object) -> its public dotted name, for the objects of the framework's public modules
    (the framework's root and the modules already loaded below it)."""
    got = _INDEX.get(b.name)
    if got is not None:
        return got
    fw = b.impl.framework
    index: dict[int, str] = {}
    with warnings.catch_warnings():  # (reading deprecated attributes warns)
        warnings.simplefilter("ignore")
        _scan(fw, index)
    _INDEX[b.name] = index
    return index


def _scan(fw: Any, index: dict[int, str]) -> None:
    if isinstance(fw, types.ModuleType):
        root = fw.__name__
        mods = [fw]
        seen = {id(fw)}
        i = 0
        while i < len(mods) and len(mods) < 400:
            m = mods[i]
            i += 1
            for name, obj in list(vars(m).items()):
                if name.startswith("_"):
                    continue
                if isinstance(obj, types.ModuleType):
                    if (
                        obj.__name__.startswith(root + ".")
                        and id(obj) not in seen
                        and "._" not in obj.__name__
                        and m.__name__.count(".") < 2
                    ):
                        seen.add(id(obj))
                        mods.append(obj)
                    continue
                index.setdefault(id(obj), f"{m.__name__}.{name}")


class SourceSpelling(Spelling):
    checks = False
    guards = "inline"

    def __init__(self, b: Any, g: GraphIR):
        self.b = b
        self.g = g
        self.index = _framework_index(b)
        self.imports: dict[str, str] = {}  # module -> alias
        self.const_lines: list[str] = []
        self._consts: dict[int, str] = {}
        self._ops: dict[str, str] = {}

    def _module_alias(self, module: str) -> str:
        alias = self.imports.get(module)
        if alias is None:
            top = module.partition(".")[0]
            alias = module if module == top else "_" + module.replace(".", "_")
            self.imports[module] = alias
        return alias

    def name_of(self, obj: Any, what: str) -> str:
        dotted = self.index.get(id(obj))
        if dotted is not None:
            mod, _, attr = dotted.rpartition(".")
            return f"{self._module_alias(mod)}.{attr}"
        owner, qual = getattr(obj, "__module__", None), getattr(obj, "__qualname__", None)
        if isinstance(owner, str) and isinstance(qual, str) and "<" not in qual:
            mod = owner
            try:
                target: Any = importlib.import_module(mod)
                for part in qual.split("."):
                    target = getattr(target, part)
            except (ImportError, AttributeError):
                target = None
            if target is obj:
                return f"{self._module_alias(mod)}.{qual}"
        raise LookupError(f"{what} has no importable name")

    def op(self, node: Node) -> str:
        fn = self.b.calls[node.op]
        native = direct(fn, node, self.b)
        if native is not None:
            try:
                return self.name_of(native[0], node.op)
            except LookupError:
                pass
        got = self._ops.get(node.op)
        if got is None:
            try:
                got = self.name_of(fn, node.op)
            except LookupError:  # a function made at run time (no importable name): the namespace's
                ivy_ = self._module_alias("ivy")
                var = f"_{node.op.replace('.', '_')}"
                self.const_lines.append(
                    f"{var} = {ivy_}.backend_namespace({self.b.name!r}).{node.op}  # (the plugin's function)"
                )
                got = var
            self._ops[node.op] = got
        return got

    def const(self, c: ConstArray) -> str:
        got = self._consts.get(id(c))
        if got is None:
            got = self._consts[id(c)] = f"_c{len(self._consts)}"
            asarray = self.op(Node("asarray", (), {}, None))
            self._module_alias("numpy")
            self.const_lines.append(
                f"{got} = {asarray}(numpy.frombuffer({c.data!r}, dtype=numpy.dtype({c.dtype!r}).newbyteorder('<'))"
                f".reshape({literal(c.shape)}).astype({c.dtype!r}))"
            )
        return got

    def extra_args(self, node: Node) -> tuple[Any, ...]:
        if node.op == CALL:
            return ()
        native = direct(self.b.calls[node.op], node, self.b)
        if native is None:
            return ()
        try:
            self.name_of(native[0], node.op)
        except LookupError:
            return ()
        return native[1]

    def obj(self, x: Any) -> str:
        raise GraphEmitError(f"the graph holds a {type(x).__qualname__} ({x!r}), which source code cannot spell")

    def dtype(self, name: str) -> str:
        try:
            return self.name_of(self.b.impl.dtypes[name], name)
        except LookupError:
            return repr(name)  # the plugin's functions (and NumPy's, JAX's) take dtype names

    def guard_check(self, name: str, kind: str, expected: Any, index: int) -> str:
        gd = self.g.guards[index]
        if kind in ("bool", "int", "float", "complex"):
            read = f"{kind}({name})"
        elif kind not in ("scalar", "list"):
            raise GraphEmitError(f"{kind!r} is not a kind of guard")
        else:
            read = f"{self.op(Node('to_scalar' if kind == 'scalar' else 'to_list', (), {}, None))}({name})"
        msg = (
            f"these inputs take another path through the traced Python code: at {gd.source} the trace "
            f"read {kind}(...) == {expected!r}"
        )
        return f"if {read} != {literal(expected)}: raise ValueError({msg!r})"


def source(g: GraphIR, backend: Any) -> str:
    b = _context.resolve(backend)
    for node in missing_ops(g, b):
        raise _missing_error(node, b)
    lacking = composed_ops(b) & {n.op for n in g.walk()}
    if lacking:
        g = decompose(g, lacking, backend=b)
    sp = SourceSpelling(b, g)
    lines, _, _ = generate(g, sp, name="forward")
    imports = []
    for mod, alias in sorted(sp.imports.items()):
        imports.append(f"import {mod}" if alias == mod else f"import {mod} as {alias}")
    args = "params, " if g.params else ""
    fw = b.impl.framework
    version = f"{getattr(fw, '__name__', b.name)} {getattr(fw, '__version__', '')}".strip()
    version = re.sub(r"[^A-Za-z0-9_.+ -]", "_", version)
    # the graph's name goes into a docstring: only characters that cannot end it (or the line)
    title = re.sub(r"[^A-Za-z0-9_.<>-]", "_", g.name)[:80]
    doc = [
        f'"""The graph {title} traced by ivy.graph, for {b.name} ({version}).',
        "",
        f"Call forward({args}...) with native arrays" + (" (params: a dict by key chain)." if g.params else "."),
        '"""',
    ]
    body = doc + [""] + imports + [""] + sp.const_lines + ([""] if sp.const_lines else []) + [""] + lines
    return "\n".join(body) + "\n"
