"""Coverage of the spec: (a) the selected backend implements every op, (b) every op is exercised
by a reference test (static check of the test sources), (c) the backend namespace is a complete
Array API namespace."""

from __future__ import annotations

import ast
import math
import pathlib
from typing import Any

import pytest

import ivy
from ivy._spec import SPECS
from ivy.testing._helpers.facts import expect, expect_cmp, expect_is, expect_type

HERE = pathlib.Path(__file__).parent
REF_MODULES = sorted([*HERE.glob("test_ref_*.py"), *HERE.glob("test_fn_*.py")])  # Array API + functional API


# --------------------------------------------------------------------------- (a)


#: gradient primitives a backend without automatic differentiation need not have
_AUTODIFF_OPS = {"value_and_grad_flat", "vjp", "jvp", "jacobian"}


@pytest.mark.parametrize("name", sorted(SPECS))
def test_op_present(backend: str, name: str) -> None:
    """The backend has the op: its own, or core's composition (``conformance-xfails.txt`` lists
    what a backend knowingly lacks)."""
    b = ivy._registry.get_backend(backend)
    if name in _AUTODIFF_OPS and not b.impl.autodiff:
        pytest.skip(f"the {backend!r} backend declares no automatic differentiation")
    if name not in b.ops:
        pytest.fail(f"the {backend!r} backend lacks ivy.{name}", pytrace=False)
    assert callable(b.ops[name]), f"ivy.{name}: the backend's implementation is not callable: {b.ops[name]!r}"


# --------------------------------------------------------------------------- (b)


def _ivy_attr(node: ast.AST) -> str | None:
    """``"linalg.inv"`` for the expression ``ivy.linalg.inv`` (``"add"`` for ``ivy.add``)."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name) and node.id == "ivy" and parts:
        return ".".join(reversed(parts))
    return None


def _tested_names(tree: ast.Module) -> tuple[set[str], dict[str, set[str]]]:
    """Op names a module's tests exercise, and its ``*_OPS`` tables."""
    tables: dict[str, set[str]] = {}
    for node in tree.body:
        if isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for t in targets:
                if isinstance(t, ast.Name) and t.id.endswith("_OPS") and isinstance(node.value, ast.Dict):
                    tables[t.id] = {k.value for k in node.value.keys if isinstance(k, ast.Constant)}
    found: set[str] = set()
    for node in ast.walk(tree):
        if not (isinstance(node, ast.FunctionDef) and node.name.startswith("test_")):
            continue
        for sub in ast.walk(node):  # the body and the decorators (parametrize, covers)
            if isinstance(sub, ast.Constant) and isinstance(sub.value, str):
                found.add(sub.value)
            elif isinstance(sub, ast.Attribute):
                name = _ivy_attr(sub)
                if name:
                    found.add(name)
            elif isinstance(sub, ast.Name) and sub.id in tables:  # a table driving a test
                found |= tables[sub.id]
    return found, tables


def test_every_spec_op_has_a_reference_test() -> None:
    exercised: set[str] = set()
    untested_rows = []
    for path in REF_MODULES:
        found, tables = _tested_names(ast.parse(path.read_text(), str(path)))
        exercised |= found
        for tname, names in tables.items():
            unknown = names - set(SPECS)
            assert not unknown, f"{path.name}:{tname} lists names that are not spec ops: {sorted(unknown)}"
            untested_rows += [f"{path.name}:{tname}:{n}" for n in sorted(names - found)]
    assert not untested_rows, f"table rows no test exercises: {untested_rows}"
    missing = sorted(set(SPECS) - exercised)
    assert not missing, f"spec ops without a reference test: {missing}"


def test_every_spec_op_is_listed_in_a_table() -> None:
    listed: set[str] = set()
    for path in REF_MODULES:
        listed |= set().union(*_tested_names(ast.parse(path.read_text()))[1].values() or [set()])
    # The Array API ops are table-driven; Ivy's own ops (gradients, nn, ...) are named by @covers.
    array_api = {n for n, s in SPECS.items() if s.category not in ("gradients", "random", "device", "nn", "general")}
    missing = sorted(array_api - listed)
    assert not missing, f"spec ops missing from the reference-test tables (*_OPS): {missing}"


# --------------------------------------------------------------------------- (c)

_IVY_CATEGORIES = ("conversion", "gradients", "random", "device", "nn", "general")

DTYPE_NAMES = (
    "bool",
    "int8",
    "int16",
    "int32",
    "int64",
    "uint8",
    "uint16",
    "uint32",
    "uint64",
    "float32",
    "float64",
    "complex64",
    "complex128",
)


def test_namespace_is_complete_array_api(backend: str, xp: Any) -> None:
    expect(xp.__array_api_version__, "2024.12", "the backend namespace: xp.__array_api_version__")
    expect(xp.e, math.e, "the backend namespace: xp.e")
    expect(xp.pi, math.pi, "the backend namespace: xp.pi")
    expect(xp.inf, math.inf, "the backend namespace: xp.inf")
    assert math.isnan(xp.nan), "the backend namespace: expected math.isnan(xp.nan)"
    expect_is(xp.newaxis, None, "the backend namespace: xp.newaxis")
    info = xp.__array_namespace_info__()
    for meth in ("capabilities", "default_device", "default_dtypes", "devices", "dtypes"):
        assert callable(getattr(info, meth)), meth
    caps = info.capabilities()
    expect_cmp(
        {"boolean indexing", "data-dependent shapes"},
        "<=",
        set(caps),
        "the backend namespace: {'boolean indexing', 'data-dependent shapes'}",
    )
    dts = info.dtypes()
    assert dts, "the backend namespace: expected dts"
    expect_cmp(set(dts), "<=", set(DTYPE_NAMES), "the backend namespace: set(dts)")
    for name, native in dts.items():
        assert getattr(xp, name) == native, name  # every supported dtype is an attribute
    for kind in (
        "bool",
        "signed integer",
        "unsigned integer",
        "integral",
        "real floating",
        "complex floating",
        "numeric",
    ):
        expect_cmp(
            set(info.dtypes(kind=kind)), "<=", set(dts), "ivy.__array_namespace_info__: set(info.dtypes(kind=kind))"
        )
    expect(
        set(info.default_dtypes()),
        {"real floating", "complex floating", "integral", "indexing"},
        "ivy.__array_namespace_info__: set(info.default_dtypes())",
    )
    default, devices = info.default_device(), info.devices()
    assert default in devices or str(default) in map(str, devices), (
        f"the backend namespace: the default device {default!r} is not among the devices {devices!r}"
    )
    for required in ("bool", "float32", "int32", "int64"):
        assert required in dts, f"{backend} must support {required}"
    for qual in (q for q, sp in SPECS.items() if sp.category not in _IVY_CATEGORIES):  # the standard's
        ns, _, short = qual.rpartition(".")
        holder = getattr(xp, ns) if ns else xp
        assert callable(getattr(holder, short, None)), f"xp.{qual} missing"
    expect_type(xp.linalg.__name__, str, "the backend namespace: xp.linalg.__name__")
    expect_type(xp.fft.__name__, str, "the backend namespace: xp.fft.__name__")
