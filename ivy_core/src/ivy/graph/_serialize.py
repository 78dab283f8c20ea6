"""Graphs as a JSON document plus a safetensors file holding the constant arrays and parameter
values (written and read here byte for byte: no framework is needed to save or load a graph).

The document: ``{"format": "ivy.graph", "version": 1, "values": [...], "graph": {...},
"constants": {name: {"dtype", "shape"}}, "data_sha256": hex}`` (the hash of the data file
saved with it, by :func:`save`). ``values`` lists every value (``shape`` with
``null`` for a dynamic dimension, ``dtype``, ``kind``, ``hint``); the graph refers to them by
index. Argument trees are JSON with tagged objects for what JSON lacks: ``{"$v": i}`` a value,
``{"$c": name}`` a constant, ``{"$dim": [i, axis]}``, ``{"$dtype": name}``, ``{"$in": i}`` an
input of ``in_tree``, ``{"$sub": graph}``, ``{"$tuple": [...]}``, ``{"$dict": [[k, v]...],
"$cls": "dict" | "Container"}``, ``{"$slice": [a, b, c]}``, ``{"$ellipsis": 1}``,
``{"$float": "inf"}``, ``{"$complex": [re, im]}``.
"""

from __future__ import annotations

import hashlib
import io
import json
import math
import os
import struct
from pathlib import Path
from typing import Any

from .._dtypes import DType
from ..safetensors import DTYPES, _read_header
from ._errors import GraphFormatError
from ._ir import ConstArray, Dim, GraphIR, Guard, InputRef, Node, Subgraph, Value
from ._schema import FORMAT, VERSION, validate

__all__ = ["to_document", "from_document", "save", "load", "loads", "FORMAT", "VERSION"]

_CODE = {name: code for code, (name, _) in DTYPES.items()}
_COMPLEX_PARTS = {"complex64": "float32", "complex128": "float64"}


class _Writer:
    def __init__(self) -> None:
        self.values: list[dict[str, Any]] = []
        self.ids: dict[int, int] = {}
        self.consts: dict[int, str] = {}
        self.const_list: list[tuple[str, ConstArray]] = []

    def value(self, v: Value) -> int:
        got = self.ids.get(id(v))
        if got is None:
            got = self.ids[id(v)] = len(self.values)
            self.values.append(
                {"shape": None if v.shape is None else list(v.shape), "dtype": v.dtype, "kind": v.kind, "hint": v.hint}
            )
        return got

    def const(self, c: ConstArray, name: str | None = None) -> str:
        got = self.consts.get(id(c))
        if got is None:
            got = self.consts[id(c)] = name or f"const/{len(self.const_list)}"
            self.const_list.append((got, c))
        return got

    def tree(self, x: Any) -> Any:
        t = type(x)
        if isinstance(x, Value):
            return {"$v": self.value(x)}
        if isinstance(x, ConstArray):
            return {"$c": self.const(x)}
        if isinstance(x, Dim):
            return {"$dim": [self.value(x.value), x.axis]}
        if isinstance(x, DType):
            return {"$dtype": str(x)}
        if isinstance(x, InputRef):
            return {"$in": x.index}
        if isinstance(x, Subgraph):
            return {"$sub": self.graph(x.graph), "captures": [self.value(v) for v in x.captures]}
        if t is tuple:
            return {"$tuple": [self.tree(e) for e in x]}
        if t is list:
            return [self.tree(e) for e in x]
        if isinstance(x, dict):
            cls = "dict" if t is dict else t.__name__
            if cls not in ("dict", "Container"):
                raise TypeError(f"cannot store a {t.__qualname__} in a graph document")
            return {"$dict": [[k, self.tree(e)] for k, e in x.items()], "$cls": cls}
        if t is slice:
            return {"$slice": [self.tree(x.start), self.tree(x.stop), self.tree(x.step)]}
        if x is Ellipsis:
            return {"$ellipsis": 1}
        if t is float and not math.isfinite(x):
            return {"$float": repr(x)}
        if t is complex:
            return {"$complex": [self.tree(x.real), self.tree(x.imag)]}
        if x is None or t in (bool, int, float, str):
            return x
        raise TypeError(f"cannot store a {t.__module__}.{t.__qualname__} in a graph document ({x!r})")

    def static(self, x: Any) -> Any:
        """A leaf of ``in_tree``: an object JSON cannot hold (a gradient op's function, whose
        graph the graph holds) is stored as opaque: any value is accepted there after loading."""
        try:
            return self.tree(x)
        except TypeError:
            return {"$opaque": f"{type(x).__module__}.{type(x).__qualname__}"}

    def graph(self, g: GraphIR) -> dict[str, Any]:
        return {
            "name": g.name,
            "arg_names": list(g.arg_names),
            "inputs": [self.value(v) for v in g.inputs],
            "in_tree": _map_static(self.static, g.in_tree),
            "params": {k: self.value(v) for k, v in g.params.items()},
            "param_values": {k: self.const(c, f"param/{k}") for k, c in g.param_values.items()},
            "buffers": list(g.buffers),
            "state_updates": {k: self.tree(v) for k, v in g.state_updates.items()},
            "captures": [self.value(v) for v in g.captures],
            "nodes": [
                {
                    "op": n.op,
                    "args": self.tree(n.args),
                    "kwargs": self.tree(n.kwargs),
                    "outputs": self.tree(n.outputs),
                    "source": n.source,
                }
                for n in g.nodes
            ],
            "outputs": self.tree(g.outputs),
            "guards": [
                {
                    "value": self.value(gd.value),
                    "kind": gd.kind,
                    "expected": self.tree(gd.expected),
                    "source": gd.source,
                }
                for gd in g.guards
            ],
            "meta": g.meta,
        }


class Opaque:
    """A static argument that a stored graph does not hold (its type name only): not checked."""

    __slots__ = ("type_name",)

    def __init__(self, type_name: str):
        self.type_name = type_name

    def __repr__(self) -> str:
        return f"<{self.type_name}>"


def _map_static(fn: Any, tree: Any) -> Any:
    t = type(tree)
    if t is tuple or t is list:
        return {"$tuple": [_map_static(fn, e) for e in tree]} if t is tuple else [_map_static(fn, e) for e in tree]
    if isinstance(tree, dict):
        cls = "Container" if t.__name__ == "Container" else "dict"
        return {"$dict": [[k, _map_static(fn, e)] for k, e in tree.items()], "$cls": cls}
    if isinstance(tree, InputRef):
        return {"$in": tree.index}
    return fn(tree)


def to_document(g: GraphIR) -> tuple[dict[str, Any], list[tuple[str, ConstArray]]]:
    """The JSON document of ``g`` and its constants (name, array)."""
    w = _Writer()
    body = w.graph(g)
    doc = {
        "format": FORMAT,
        "version": VERSION,
        "values": w.values,
        "graph": body,
        "constants": {name: {"dtype": c.dtype, "shape": list(c.shape)} for name, c in w.const_list},
    }
    return doc, w.const_list


class _Reader:
    """Builds a graph from a document that :func:`ivy.graph._schema.validate` accepted."""

    def __init__(self, doc: dict[str, Any], consts: dict[str, ConstArray], cls: type):
        self.values = [
            Value(None if e["shape"] is None else tuple(e["shape"]), e["dtype"], e["kind"], e["hint"])
            for e in doc["values"]
        ]
        self.consts = consts
        self.cls = cls

    def tree(self, x: Any) -> Any:
        if isinstance(x, list):
            return [self.tree(e) for e in x]
        if not isinstance(x, dict):
            return x
        if "$v" in x:
            return self.values[x["$v"]]
        if "$c" in x:
            return self.consts[x["$c"]]
        if "$dim" in x:
            return Dim(self.values[x["$dim"][0]], x["$dim"][1])
        if "$dtype" in x:
            return DType(x["$dtype"])
        if "$in" in x:
            return InputRef(x["$in"])
        if "$sub" in x:
            return Subgraph(self.graph(x["$sub"], GraphIR), [self.values[i] for i in x["captures"]])
        if "$tuple" in x:
            return tuple(self.tree(e) for e in x["$tuple"])
        if "$dict" in x:
            items = {k: self.tree(e) for k, e in x["$dict"]}
            if x.get("$cls") == "Container":
                from ..container import Container

                return Container(items)
            return items
        if "$slice" in x:
            return slice(*(self.tree(e) for e in x["$slice"]))
        if "$ellipsis" in x:
            return Ellipsis
        if "$float" in x:
            return float(x["$float"])
        if "$complex" in x:
            return complex(*(self.tree(e) for e in x["$complex"]))
        if "$opaque" in x:
            return Opaque(x["$opaque"])
        raise ValueError(f"unknown tagged object in a graph document: {x!r}")  # (the schema rejects it first)

    def graph(self, d: dict[str, Any], cls: type) -> Any:
        v = self.values
        in_tree = self.tree(d["in_tree"])
        return cls(
            name=d["name"],
            arg_names=list(d["arg_names"]),
            inputs=[v[i] for i in d["inputs"]],
            in_tree=(tuple(in_tree[0]), dict(in_tree[1])),
            params={k: v[i] for k, i in d["params"].items()},
            param_values={k: self.consts[c] for k, c in d["param_values"].items()},
            buffers=list(d["buffers"]),
            state_updates={k: self.tree(e) for k, e in d["state_updates"].items()},
            captures=[v[i] for i in d["captures"]],
            nodes=[
                Node(
                    n["op"],
                    tuple(self.tree(n["args"])),
                    dict(self.tree(n["kwargs"])),
                    self.tree(n["outputs"]),
                    n.get("source"),
                )
                for n in d["nodes"]
            ],
            outputs=self.tree(d["outputs"]),
            guards=[
                Guard(v[gd["value"]], gd["kind"], self.tree(gd["expected"]), gd.get("source")) for gd in d["guards"]
            ],
            meta=dict(d.get("meta") or {}),
        )


def from_document(
    cls: type, doc: dict[str, Any], consts: dict[str, ConstArray], origin: str = "a graph document"
) -> Any:
    """The graph of a parsed document, after checking it against the strict schema
    (:class:`~ivy.graph.GraphFormatError` names ``origin`` and the field otherwise)."""
    validate(doc, origin)
    return _build(cls, doc, consts, origin)


def _build(cls: type, doc: dict[str, Any], consts: dict[str, ConstArray], origin: str) -> Any:
    missing = [name for name in doc["constants"] if name not in consts]
    if missing:
        raise GraphFormatError(f"{origin}: no data for the constant(s) {', '.join(map(repr, missing[:5]))}")
    try:
        return _Reader(doc, consts, cls).graph(doc["graph"], cls)
    except (TypeError, ValueError) as e:  # (what the schema checks, the IR's classes check again)
        raise GraphFormatError(f"{origin}: {type(e).__name__}: {e}") from None


def _paths(path: str | os.PathLike[str]) -> tuple[Path, Path]:
    p = Path(path)
    stem = p.with_suffix("") if p.suffix == ".json" else p
    return stem.with_name(stem.name + ".json"), stem.with_name(stem.name + ".safetensors")


def save(g: GraphIR, path: str | os.PathLike[str]) -> None:
    """Write the data file and then the document, each atomically. A crash between the two
    leaves the old document beside the new data: the document records the SHA-256 of the data
    file written with it (``data_sha256``), so a reader refuses any other pair instead of
    building the old graph on the new constants."""
    from .. import _atomic

    doc, consts = to_document(g)
    json_path, st_path = _paths(path)
    header: dict[str, Any] = {"__metadata__": {"format": FORMAT}}
    blobs: list[bytes] = []
    offset = 0
    for name, c in consts:
        dtype, shape = c.dtype, list(c.shape)
        if dtype in _COMPLEX_PARTS:  # safetensors has no complex dtypes: the (re, im) pairs
            dtype, shape = _COMPLEX_PARTS[dtype], shape + [2]
        header[name] = {"dtype": _CODE[dtype], "shape": shape, "data_offsets": [offset, offset + len(c.data)]}
        blobs.append(c.data)
        offset += len(c.data)
    raw = json.dumps(header, separators=(",", ":")).encode("utf-8")
    raw += b" " * (-len(raw) % 8)
    parts = [struct.pack("<Q", len(raw)), raw, *blobs]
    digest = hashlib.sha256()
    for part in parts:
        digest.update(part)
    doc["data_sha256"] = digest.hexdigest()
    _atomic.write_bytes(st_path, parts)
    _atomic.write_text(json_path, json.dumps(doc, indent=1))


def load(cls: type, path: str | os.PathLike[str]) -> Any:
    json_path, st_path = _paths(path)
    doc_bytes = json_path.read_bytes()
    try:
        st_bytes: bytes | None = st_path.read_bytes()
    except FileNotFoundError:
        st_bytes = None  # (a graph without constants needs none; the document says)
    return loads(cls, doc_bytes, st_bytes, json_origin=str(json_path), st_origin=str(st_path))


def loads(cls: type, doc_bytes: bytes, st_bytes: bytes | None, *, json_origin: str, st_origin: str) -> Any:
    """The graph of a document and its safetensors data, given as bytes (read once: what is
    checked is what is built). Nothing from either becomes code: the document is checked against
    the strict schema first, and the constants' bytes against the document.

    Raises:
        GraphFormatError: the document or the data is not what Ivy writes (the message names the
            file and the field).
    """
    try:
        doc = json.loads(doc_bytes.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError) as e:
        raise GraphFormatError(f"{json_origin}: not a JSON document ({type(e).__name__}: {e})") from None
    validate(doc, json_origin)
    consts: dict[str, ConstArray] = {}
    if doc["constants"]:
        if st_bytes is None:
            raise GraphFormatError(f"{st_origin}: missing; {json_origin} refers to its arrays")
        want = doc.get("data_sha256")
        if want is not None and hashlib.sha256(st_bytes).hexdigest() != want:
            raise GraphFormatError(
                f"{st_origin}: not the data file saved with {json_origin} (its SHA-256 differs from the "
                "document's data_sha256: another save, or an edit). Save the graph again"
            )
        consts = _constants(doc["constants"], st_bytes, st_origin)
    return _build(cls, doc, consts, json_origin)


def _constants(entries: dict[str, Any], raw: bytes, origin: str) -> dict[str, ConstArray]:
    """The constant arrays a (validated) document lists, read from safetensors bytes: each must
    have the dtype and shape the document gives, and lie inside the data."""

    def bad(what: str) -> GraphFormatError:
        return GraphFormatError(f"{origin}: {what}; it does not hold the graph's constants as Ivy writes them")

    try:
        header, _, start = _read_header(io.BytesIO(raw), origin, len(raw))
    except ValueError as e:  # (the safetensors reader's checks: the message names the field)
        raise GraphFormatError(str(e)) from None
    size = len(raw) - start
    out: dict[str, ConstArray] = {}
    for name, entry in entries.items():
        got = header.get(name)
        if not isinstance(got, dict):
            raise bad(f"no array {name!r}")
        dtype, shape = entry["dtype"], list(entry["shape"])
        if dtype in _COMPLEX_PARTS:  # (stored as (re, im) pairs)
            dtype, shape = _COMPLEX_PARTS[dtype], shape + [2]
        if got.get("dtype") != _CODE[dtype] or got.get("shape") != shape:
            raise bad(f"array {name!r} is {got.get('dtype')!r} {got.get('shape')!r}, the document says {dtype} {shape}")
        offsets = got.get("data_offsets")
        if not (
            isinstance(offsets, list)
            and len(offsets) == 2
            and all(type(o) is int for o in offsets)
            and 0 <= offsets[0] <= offsets[1] <= size
        ):
            raise bad(f"array {name!r} has data_offsets {offsets!r} outside the data ({size} bytes)")
        begin, end = offsets
        try:
            out[name] = ConstArray(entry["dtype"], tuple(entry["shape"]), raw[start + begin : start + end])
        except ValueError as err:
            raise bad(f"array {name!r}: {err}") from None
    return out
