"""The strict schema of a graph document (what :func:`ivy.Graph.load` and the transpile cache
read), checked in full before anything is built from it.

A document comes from a file, and a file may have been edited: every field is checked against
what Ivy itself writes (see ``_serialize``). Op names are spec ops (or the graph's own
:data:`~ivy.graph.CALL`); keyword names are identifiers the op's signature has; shapes and axes
are ints; dtypes, value kinds and guard kinds come from fixed sets; every reference (a value, a
constant, an input) is in range and a value is made before it is read; strings that code
generation spells (names, hints) are single-line text. The first violation raises
:class:`~ivy.graph.GraphFormatError` naming the file and the JSON path of the field.
"""

from __future__ import annotations

import inspect
import keyword
import re
from collections.abc import Iterator
from typing import Any, NoReturn

from .._dtypes import DTYPE_NAMES
from .._spec import SPECS
from ._errors import GraphFormatError
from ._ir import CALL, ITEMSIZE

__all__ = ["validate", "VALUE_DTYPES", "VALUE_KINDS", "GUARD_KINDS", "FLOAT_WORDS", "MAX_DIM", "is_name"]

#: the dtypes a value may have (the standard's and the 16-bit floats some backends compute in)
VALUE_DTYPES = frozenset(DTYPE_NAMES) | {"float16", "bfloat16"}
VALUE_KINDS = frozenset({"input", "param", "buffer", "capture", "op", "function"})
#: how traced code read a Python value from an array (see :class:`ivy.graph.Guard`)
GUARD_KINDS = frozenset({"bool", "int", "float", "complex", "scalar", "list"})
#: the spellings of the floats JSON lacks (``repr`` of each)
FLOAT_WORDS = frozenset({"inf", "-inf", "nan"})
#: a dimension no array can have (int64's range): larger ones are not sizes
MAX_DIM = 2**63 - 1
_MAX_TEXT = 4096
_MAX_DEPTH = 64
_DOTTED = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_<>][A-Za-z0-9_<>]*)*\Z")
#: the document's format name and the version of its layout (bumped when the layout changes)
FORMAT = "ivy.graph"
VERSION = 1
_TOP_KEYS = {"format", "version", "values", "graph", "constants"}
_SHA256 = re.compile(r"[0-9a-f]{64}\Z")
_GRAPH_KEYS = {
    "name",
    "arg_names",
    "inputs",
    "in_tree",
    "params",
    "param_values",
    "buffers",
    "state_updates",
    "captures",
    "nodes",
    "outputs",
    "guards",
    "meta",
}
_NODE_KEYS = {"op", "args", "kwargs", "outputs"}
_GUARD_KEYS = {"value", "kind", "expected"}
_VALUE_KEYS = {"shape", "dtype", "kind", "hint"}


def is_name(x: Any) -> bool:
    """Whether ``x`` may be spelt as a Python name: an identifier that is not a keyword."""
    return type(x) is str and x.isidentifier() and not keyword.iskeyword(x)


def _signature(op: str) -> inspect.Signature | None:
    spec = SPECS.get(op)
    return None if spec is None else spec.signature


class _Checker:
    """Walks one document; ``fail`` raises with the file and the field's path."""

    def __init__(self, doc: dict[str, Any], origin: str):
        self.doc = doc
        self.origin = origin
        self.values: list[dict[str, Any]] = []
        self.constants: dict[str, Any] = {}
        #: the value made by each node output (or an input) so far: an index is made once
        self.made: set[int] = set()

    def fail(self, path: str, what: str) -> NoReturn:
        raise GraphFormatError(
            f"{self.origin}: {path}: {what}. This is not a graph document as Ivy writes it (damaged or "
            "edited); nothing was built from it. Save the graph again from its source"
        )

    # ------------------------------------------------------------------ leaves

    def text(self, x: Any, path: str, *, optional: bool = False) -> None:
        """A string that messages, comments or names show: single-line, printable, bounded."""
        if x is None and optional:
            return
        if type(x) is not str:
            self.fail(path, f"expected a string, got {_kind(x)}")
        if len(x) > _MAX_TEXT:
            self.fail(path, f"a string of {len(x)} characters (at most {_MAX_TEXT})")
        if not x.isprintable():
            self.fail(path, f"the string {_short(x)} holds a line break or another control character")

    def name(self, x: Any, path: str) -> None:
        if not is_name(x):
            self.fail(path, f"{_short(x)} is not a Python identifier")

    def index(self, x: Any, size: int, path: str, what: str) -> int:
        if type(x) is not int:
            self.fail(path, f"a {what} reference must be an int, got {_kind(x)}")
        if not 0 <= x < size:
            self.fail(path, f"{what} {x} does not exist (there are {size})")
        return x

    def dim(self, x: Any, path: str) -> None:
        if x is None:
            return
        if type(x) is not int:
            self.fail(path, f"a dimension must be an int or null, got {_kind(x)}")
        if not 0 <= x <= MAX_DIM:
            self.fail(path, f"the dimension {x} is out of range")

    def shape(self, x: Any, path: str, *, dynamic: bool) -> None:
        if not isinstance(x, list):
            self.fail(path, f"a shape must be a list, got {_kind(x)}")
        if len(x) > 64:
            self.fail(path, f"a shape of {len(x)} dimensions")
        for i, d in enumerate(x):
            if d is None and not dynamic:
                self.fail(f"{path}[{i}]", "a constant's dimension cannot be dynamic")
            self.dim(d, f"{path}[{i}]")

    def keys(self, x: Any, path: str, required: set[str], optional: frozenset[str] = frozenset()) -> None:
        if not isinstance(x, dict):
            self.fail(path, f"expected an object, got {_kind(x)}")
        missing = required - set(x)
        if missing:
            self.fail(path, f"lacks the field(s) {', '.join(sorted(missing))}")
        extra = set(x) - required - optional
        if extra:
            self.fail(path, f"has unknown field(s) {', '.join(repr(k) for k in sorted(extra))}")

    # ------------------------------------------------------------------ the document

    def document(self) -> None:
        doc = self.doc
        self.keys(doc, "(document)", _TOP_KEYS, frozenset({"data_sha256"}))
        digest = doc.get("data_sha256")
        if digest is not None and not (type(digest) is str and _SHA256.match(digest)):
            self.fail("data_sha256", f"{_short(digest)} is not a SHA-256 in hexadecimal")
        values = doc["values"]
        if not isinstance(values, list):
            self.fail("values", f"expected a list, got {_kind(values)}")
        for i, v in enumerate(values):
            self.value_entry(v, f"values[{i}]")
        self.values = values
        consts = doc["constants"]
        if not isinstance(consts, dict):
            self.fail("constants", f"expected an object, got {_kind(consts)}")
        for name, c in consts.items():
            p = f"constants[{name!r}]"
            self.text(name, p)
            self.keys(c, p, {"dtype", "shape"})
            if not _member(c["dtype"], ITEMSIZE):
                self.fail(f"{p}.dtype", f"{_short(c['dtype'])} is not a dtype a constant can have")
            self.shape(c["shape"], f"{p}.shape", dynamic=False)
        self.constants = consts
        self.graph(doc["graph"], "graph", outer=frozenset(), top=True)

    def value_entry(self, v: Any, path: str) -> None:
        self.keys(v, path, _VALUE_KEYS)
        if not _member(v["kind"], VALUE_KINDS):
            self.fail(f"{path}.kind", f"{_short(v['kind'])} is not one of {', '.join(sorted(VALUE_KINDS))}")
        if v["kind"] == "function":
            if v["dtype"] is not None or v["shape"] is not None:
                self.fail(path, "a function value has no dtype or shape")
        else:
            if not _member(v["dtype"], VALUE_DTYPES):
                self.fail(f"{path}.dtype", f"{_short(v['dtype'])} is not a dtype")
            if v["shape"] is not None:
                self.shape(v["shape"], f"{path}.shape", dynamic=True)
        self.text(v["hint"], f"{path}.hint")

    def graph(self, g: Any, path: str, outer: frozenset[int], top: bool) -> None:
        self.keys(g, path, _GRAPH_KEYS)
        self.text(g["name"], f"{path}.name")
        names = g["arg_names"]
        if not isinstance(names, list):
            self.fail(f"{path}.arg_names", f"expected a list, got {_kind(names)}")
        for i, n in enumerate(names):
            self.name(n, f"{path}.arg_names[{i}]")
        n_values = len(self.values)
        inputs = self.index_list(g["inputs"], f"{path}.inputs")
        captures = self.index_list(g["captures"], f"{path}.captures")
        if top and captures:
            self.fail(f"{path}.captures", "a top-level graph captures nothing")
        defined = set(outer)
        for field, refs in (("inputs", inputs), ("captures", captures)):
            for i, v in enumerate(refs):
                if self.values[v]["kind"] in ("op", "function"):
                    self.fail(f"{path}.{field}[{i}]", f"value {v} is an op's result, not an input")
                defined.add(v)
        self.in_tree(g["in_tree"], f"{path}.in_tree", len(inputs))
        params = g["params"]
        if not isinstance(params, dict) or (params and not top):
            self.fail(f"{path}.params", "expected an object (and a subgraph has none)")
        for k, v in params.items():
            self.text(k, f"{path}.params[{k!r}]")
            if self.index(v, n_values, f"{path}.params[{k!r}]", "value") not in inputs:
                self.fail(f"{path}.params[{k!r}]", f"value {v} is not among the graph's inputs")
        pv = g["param_values"]
        if not isinstance(pv, dict):
            self.fail(f"{path}.param_values", f"expected an object, got {_kind(pv)}")
        for k, c in pv.items():
            if k not in params:
                self.fail(f"{path}.param_values[{k!r}]", "no such parameter")
            if not _member(c, self.constants):
                self.fail(f"{path}.param_values[{k!r}]", f"no constant {_short(c)}")
        buffers = g["buffers"]
        if not isinstance(buffers, list) or not all(_member(b, params) for b in buffers):
            self.fail(f"{path}.buffers", "expected a list of the graph's parameter names")
        for node_i, node in enumerate(_list(self, g["nodes"], f"{path}.nodes")):
            self.node(node, f"{path}.nodes[{node_i}]", defined)
        self.tree(g["outputs"], f"{path}.outputs", defined, subgraphs=False)
        su = g["state_updates"]
        if not isinstance(su, dict):
            self.fail(f"{path}.state_updates", f"expected an object, got {_kind(su)}")
        for k, e in su.items():
            if k not in buffers:
                self.fail(f"{path}.state_updates[{k!r}]", "no such buffer")
            self.tree(e, f"{path}.state_updates[{k!r}]", defined, subgraphs=False)
        for i, gd in enumerate(_list(self, g["guards"], f"{path}.guards")):
            self.guard(gd, f"{path}.guards[{i}]", defined)
        self.meta(g["meta"], f"{path}.meta")

    def index_list(self, x: Any, path: str) -> list[int]:
        for i, v in enumerate(_list(self, x, path)):
            self.index(v, len(self.values), f"{path}[{i}]", "value")
        return list(x)

    def node(self, n: Any, path: str, defined: set[int]) -> None:
        self.keys(n, path, _NODE_KEYS, frozenset({"source"}))
        op = n["op"]
        if op != CALL and (type(op) is not str or op not in SPECS):
            self.fail(f"{path}.op", f"{_short(op)} is not an Ivy op")
        self.text(n.get("source"), f"{path}.source", optional=True)
        args = n["args"]
        if isinstance(args, dict) and set(args) == {"$tuple"}:
            args = args["$tuple"]
        if not isinstance(args, list):
            self.fail(f"{path}.args", "expected a tuple of arguments")
        kwargs = n["kwargs"]
        if not (isinstance(kwargs, dict) and set(kwargs) == {"$dict", "$cls"} and kwargs["$cls"] == "dict"):
            self.fail(f"{path}.kwargs", "expected a dict of keyword arguments")
        pairs = _list(self, kwargs["$dict"], f"{path}.kwargs")
        names: list[str] = []
        for pair in pairs:
            if not (isinstance(pair, list) and len(pair) == 2):
                self.fail(f"{path}.kwargs", "expected [name, value] pairs")
            self.name(pair[0], f"{path}.kwargs[{_short(pair[0])}]")
            names.append(pair[0])
        if len(set(names)) != len(names):
            self.fail(f"{path}.kwargs", "a keyword appears twice")
        if op == CALL:
            f = args[0] if args else None
            if not (isinstance(f, dict) and set(f) == {"$v"}):
                self.fail(f"{path}.args[0]", f"{CALL} calls a function value")
            idx = self.index(f["$v"], len(self.values), f"{path}.args[0]", "value")
            if self.values[idx]["kind"] != "function":
                self.fail(f"{path}.args[0]", f"value {idx} is not a function")
        else:
            sig = _signature(op)
            assert sig is not None
            known = set(sig.parameters)
            for k in names:
                if k not in known:
                    self.fail(f"{path}.kwargs[{k!r}]", f"ivy.{op} has no argument {k!r}")
            try:
                sig.bind(*args, **dict.fromkeys(names))
            except TypeError as why:
                self.fail(path, f"the arguments do not fit ivy.{op}'s signature ({why})")
        for i, a in enumerate(args):
            self.tree(a, f"{path}.args[{i}]", defined, subgraphs=True)
        for k, e in pairs:
            self.tree(e, f"{path}.kwargs[{k!r}]", defined, subgraphs=True)
        for i in self.outputs(n["outputs"], f"{path}.outputs"):
            if i in defined or i in self.made:
                self.fail(f"{path}.outputs", f"value {i} is made twice")
            if self.values[i]["kind"] not in ("op", "function"):
                self.fail(f"{path}.outputs", f"value {i} is not of kind 'op' or 'function'")
            self.made.add(i)
            defined.add(i)

    def outputs(self, x: Any, path: str, depth: int = 0) -> Iterator[int]:
        """The values a node's output tree makes (its other leaves are Python constants)."""
        if depth > _MAX_DEPTH:
            self.fail(path, "nested too deeply")
        if isinstance(x, list):
            for i, e in enumerate(x):
                yield from self.outputs(e, f"{path}[{i}]", depth + 1)
            return
        if not isinstance(x, dict):
            self.constant(x, path)
            return
        tag = _tag(self, x, path)
        if tag == "$v":
            yield self.index(x["$v"], len(self.values), path, "value")
        elif tag == "$tuple":
            for i, e in enumerate(_list(self, x["$tuple"], path)):
                yield from self.outputs(e, f"{path}[{i}]", depth + 1)
        elif tag == "$dict":
            for k, e in self.dict_items(x, path):
                yield from self.outputs(e, f"{path}[{k!r}]", depth + 1)
        else:
            self.tree(x, path, set(), subgraphs=False)

    def constant(self, x: Any, path: str) -> None:
        """A JSON leaf: a Python constant."""
        if x is None or type(x) in (bool, int, str):
            if type(x) is str:
                self.bounded(x, path)
            return
        if type(x) is float:
            return
        self.fail(path, f"unexpected {_kind(x)}")

    def bounded(self, x: str, path: str) -> None:
        if len(x) > 1 << 20:
            self.fail(path, f"a string of {len(x)} characters")

    def dict_items(self, x: dict[str, Any], path: str) -> list[tuple[Any, Any]]:
        if x.get("$cls") not in ("dict", "Container") or set(x) != {"$dict", "$cls"}:
            self.fail(path, "a dict is {'$dict': [[key, value]...], '$cls': 'dict' | 'Container'}")
        out = []
        for pair in _list(self, x["$dict"], f"{path}.$dict"):
            if not (isinstance(pair, list) and len(pair) == 2):
                self.fail(f"{path}.$dict", "expected [key, value] pairs")
            k = pair[0]
            if not (k is None or type(k) in (bool, int, float, str)):
                self.fail(f"{path}.$dict", f"a key must be a string or a number, got {_kind(k)}")
            if type(k) is str:
                self.bounded(k, path)
            if x["$cls"] == "Container" and (type(k) is not str or "/" in k):
                self.fail(f"{path}.$dict", f"a Container's key is a string without '/', got {_short(k)}")
            out.append((k, pair[1]))
        if len({(type(k), k) for k, _ in out}) != len(out):
            self.fail(f"{path}.$dict", "a key appears twice")
        return out

    def tree(self, x: Any, path: str, defined: set[int], *, subgraphs: bool, depth: int = 0) -> None:
        """An argument tree (see the ``_serialize`` docstring): every value it reads is defined."""
        if depth > _MAX_DEPTH:
            self.fail(path, "nested too deeply")
        if isinstance(x, list):
            for i, e in enumerate(x):
                self.tree(e, f"{path}[{i}]", defined, subgraphs=subgraphs, depth=depth + 1)
            return
        if not isinstance(x, dict):
            self.constant(x, path)
            return
        tag = _tag(self, x, path)
        d = depth + 1
        if tag == "$v":
            i = self.index(x["$v"], len(self.values), path, "value")
            if i not in defined:
                self.fail(path, f"value {i} is read before any input or node makes it")
        elif tag == "$c":
            if type(x["$c"]) is not str or x["$c"] not in self.constants:
                self.fail(path, f"no constant {_short(x['$c'])}")
        elif tag == "$dim":
            pair = x["$dim"]
            if not (isinstance(pair, list) and len(pair) == 2):
                self.fail(path, "a $dim is [value, axis]")
            i = self.index(pair[0], len(self.values), f"{path}[0]", "value")
            if i not in defined:
                self.fail(f"{path}[0]", f"value {i} is read before any input or node makes it")
            shape = self.values[i]["shape"]
            axis = pair[1]
            if type(axis) is not int or shape is None or not 0 <= axis < len(shape):
                self.fail(f"{path}[1]", f"the axis {_short(axis)} is not an axis of value {i}")
        elif tag == "$dtype":
            if not _member(x["$dtype"], VALUE_DTYPES):
                self.fail(path, f"{_short(x['$dtype'])} is not a dtype")
        elif tag == "$sub":
            if not subgraphs:
                self.fail(path, "a subgraph is only an op's argument")
            if set(x) != {"$sub", "captures"}:
                self.fail(path, "a subgraph is {'$sub': graph, 'captures': [values]}")
            caps = self.index_list(x["captures"], f"{path}.captures")
            for c in caps:
                if c not in defined:
                    self.fail(f"{path}.captures", f"value {c} is captured before it is made")
            inner = x["$sub"]
            if not isinstance(inner, dict) or not isinstance(inner.get("captures"), list):
                self.fail(f"{path}.$sub", "expected a graph")
            if len(inner["captures"]) != len(caps):
                self.fail(f"{path}.captures", "as many captures as the subgraph has")
            self.graph(inner, f"{path}.$sub", frozenset(defined), top=False)
        elif tag == "$tuple":
            self.tree(_list(self, x["$tuple"], path), path, defined, subgraphs=subgraphs, depth=d)
        elif tag == "$dict":
            for k, e in self.dict_items(x, path):
                self.tree(e, f"{path}[{k!r}]", defined, subgraphs=subgraphs, depth=d)
        elif tag == "$slice":
            parts = x["$slice"]
            if not (isinstance(parts, list) and len(parts) == 3):
                self.fail(path, "a $slice is [start, stop, step]")
            self.tree(parts, path, defined, subgraphs=False, depth=d)
        elif tag == "$ellipsis":
            if x["$ellipsis"] != 1:
                self.fail(path, "an $ellipsis is 1")
        elif tag == "$float" or tag == "$complex":
            self.number(x, path)
        else:
            self.fail(path, f"{tag} is not allowed here")

    def number(self, x: Any, path: str) -> None:
        """A Python number JSON lacks: ``{"$float": "inf"}``, ``{"$complex": [re, im]}``."""
        if isinstance(x, dict) and set(x) == {"$float"}:
            if x["$float"] not in FLOAT_WORDS:
                self.fail(path, f"{_short(x['$float'])} is not one of {', '.join(sorted(FLOAT_WORDS))}")
            return
        if isinstance(x, dict) and set(x) == {"$complex"}:
            parts = x["$complex"]
            if not (isinstance(parts, list) and len(parts) == 2):
                self.fail(path, "a $complex is [real, imag]")
            for i, p in enumerate(parts):
                if isinstance(p, dict):
                    if set(p) != {"$float"}:
                        self.fail(f"{path}[{i}]", "a part of a complex number is a float")
                    self.number(p, f"{path}[{i}]")
                elif type(p) not in (int, float):
                    self.fail(f"{path}[{i}]", f"a part of a complex number is a float, got {_kind(p)}")
            return
        self.fail(path, "expected a number")

    def in_tree(self, x: Any, path: str, n_inputs: int) -> None:
        """``(args, kwargs)``: input references and static values (no graph values)."""
        if not (isinstance(x, dict) and set(x) == {"$tuple"} and isinstance(x["$tuple"], list)):
            self.fail(path, "expected the tuple (args, kwargs)")
        pair = x["$tuple"]
        if len(pair) != 2:
            self.fail(path, "expected the tuple (args, kwargs)")
        args, kwargs = pair
        if isinstance(args, dict) and set(args) == {"$tuple"}:
            args = args["$tuple"]
        if not isinstance(args, list):
            self.fail(f"{path}[0]", "expected the positional arguments")
        if not (isinstance(kwargs, dict) and kwargs.get("$cls") == "dict"):
            self.fail(f"{path}[1]", "expected the keyword arguments")
        for k, _ in self.dict_items(kwargs, f"{path}[1]"):
            if type(k) is not str:
                self.fail(f"{path}[1]", f"a keyword argument's name is a string, got {_kind(k)}")
            self.text(k, f"{path}[1][{k!r}]")
        self.static(x, path, n_inputs, 0)

    def static(self, x: Any, path: str, n_inputs: int, depth: int) -> None:
        if depth > _MAX_DEPTH:
            self.fail(path, "nested too deeply")
        if isinstance(x, list):
            for i, e in enumerate(x):
                self.static(e, f"{path}[{i}]", n_inputs, depth + 1)
            return
        if not isinstance(x, dict):
            self.constant(x, path)
            return
        tag = _tag(self, x, path)
        if tag == "$in":
            self.index(x["$in"], n_inputs, path, "input")
        elif tag == "$opaque":
            name = x["$opaque"]
            if type(name) is not str or len(name) > 256 or not _DOTTED.match(name):
                self.fail(path, f"{_short(name)} is not a type's dotted name")
        elif tag == "$tuple":
            self.static(_list(self, x["$tuple"], path), path, n_inputs, depth + 1)
        elif tag == "$dict":
            for k, e in self.dict_items(x, path):
                self.static(e, f"{path}[{k!r}]", n_inputs, depth + 1)
        elif tag in ("$slice", "$ellipsis", "$float", "$complex", "$dtype"):
            self.tree(x, path, set(), subgraphs=False, depth=depth)
        else:
            self.fail(path, f"{tag} is not allowed in the input tree")

    def guard(self, gd: Any, path: str, defined: set[int]) -> None:
        self.keys(gd, path, _GUARD_KEYS, frozenset({"source"}))
        i = self.index(gd["value"], len(self.values), f"{path}.value", "value")
        if i not in defined:
            self.fail(f"{path}.value", f"value {i} is not made by the graph")
        if not _member(gd["kind"], GUARD_KINDS):
            self.fail(f"{path}.kind", f"{_short(gd['kind'])} is not one of {', '.join(sorted(GUARD_KINDS))}")
        self.expected(gd["expected"], f"{path}.expected", 0)
        self.text(gd.get("source"), f"{path}.source", optional=True)

    def expected(self, x: Any, path: str, depth: int) -> None:
        """What a guard compares with: numbers, booleans, nested lists of them (``to_list``)."""
        if depth > _MAX_DEPTH:
            self.fail(path, "nested too deeply")
        if type(x) in (bool, int, float):
            return
        if isinstance(x, list):
            for i, e in enumerate(x):
                self.expected(e, f"{path}[{i}]", depth + 1)
            return
        if isinstance(x, dict) and set(x) == {"$tuple"} and isinstance(x["$tuple"], list):
            self.expected(x["$tuple"], path, depth + 1)
            return
        if isinstance(x, dict) and set(x) in ({"$float"}, {"$complex"}):
            self.number(x, path)
            return
        self.fail(path, f"a guard compares with numbers, got {_kind(x)}")

    def meta(self, m: Any, path: str) -> None:
        """Free-form notes of the tracer and frontends (plain JSON), the known ones typed."""
        if not isinstance(m, dict):
            self.fail(path, f"expected an object, got {_kind(m)}")
        self.plain(m, path, 0)
        if "backend" in m and m["backend"] is not None and not is_name(m["backend"]):
            self.fail(f"{path}.backend", f"{_short(m['backend'])} is not a backend's name")
        if "training" in m and m["training"] not in (None, True, False):
            self.fail(f"{path}.training", "expected true, false or null")
        wm = m.get("weight_map")
        if wm is not None and not (isinstance(wm, dict) and all(type(v) is str for v in wm.values())):
            self.fail(f"{path}.weight_map", "expected an object of strings")
        state = m.get("state")
        if state is not None and not (isinstance(state, list) and all(type(s) is str for s in state)):
            self.fail(f"{path}.state", "expected a list of strings")

    def plain(self, x: Any, path: str, depth: int) -> None:
        if depth > _MAX_DEPTH:
            self.fail(path, "nested too deeply")
        if isinstance(x, dict):
            for k, e in x.items():
                self.text(k, f"{path}[{k!r}]")
                self.plain(e, f"{path}[{k!r}]", depth + 1)
        elif isinstance(x, list):
            for i, e in enumerate(x):
                self.plain(e, f"{path}[{i}]", depth + 1)
        else:
            self.constant(x, path)


def _member(x: Any, known: Any) -> bool:
    return type(x) is str and x in known


def _list(c: _Checker, x: Any, path: str) -> list[Any]:
    if not isinstance(x, list):
        c.fail(path, f"expected a list, got {_kind(x)}")
    return x


_TAGS = ("$v", "$c", "$dim", "$dtype", "$in", "$sub", "$tuple", "$dict", "$slice", "$ellipsis", "$float")
_TAGS_MORE = ("$complex", "$opaque")


def _tag(c: _Checker, x: dict[str, Any], path: str) -> str:
    """The tag of a tagged object (exactly one, and only its own fields)."""
    tags = [k for k in x if k in _TAGS or k in _TAGS_MORE]
    if len(tags) != 1:
        c.fail(path, f"an object in an argument tree has one tag of {', '.join(_TAGS + _TAGS_MORE)}")
    tag = tags[0]
    allowed = {tag, "$cls"} if tag == "$dict" else {tag, "captures"} if tag == "$sub" else {tag}
    if set(x) - allowed:
        c.fail(path, f"unknown field(s) {', '.join(repr(k) for k in sorted(set(x) - allowed))} beside {tag}")
    return tag


def _kind(x: Any) -> str:
    if x is None:
        return "null"
    return {bool: "a boolean", int: "an int", float: "a float", str: "a string", list: "a list", dict: "an object"}.get(
        type(x), type(x).__name__
    )


def _short(x: Any) -> str:
    """A field's value in a message: repr'd (no line break reaches the message) and cut short."""
    r = repr(x)
    return r if len(r) <= 80 else r[:77] + "..."


def validate(doc: Any, origin: str) -> None:
    """Check a graph document (parsed JSON) against the schema.

    Raises:
        GraphFormatError: the first field that Ivy would not have written, with ``origin`` (the
            file) and the field's JSON path.
    """
    if not isinstance(doc, dict):
        raise GraphFormatError(f"{origin}: not an Ivy graph document (a {_kind(doc)}, not an object)")
    if doc.get("format") != FORMAT:
        raise GraphFormatError(f"{origin}: not an Ivy graph document (format {_short(doc.get('format'))})")
    if type(doc.get("version")) is not int or doc["version"] != VERSION:
        raise GraphFormatError(
            f"{origin}: Ivy graph document version {_short(doc.get('version'))}; this Ivy reads version {VERSION}"
        )
    try:
        _Checker(doc, origin).document()
    except RecursionError:
        raise GraphFormatError(f"{origin}: the document is nested too deeply") from None
    except (TypeError, KeyError, AttributeError, IndexError) as e:  # a shape no check above foresaw
        raise GraphFormatError(f"{origin}: not a graph document as Ivy writes it ({type(e).__name__}: {e})") from None
