"""Spec hygiene: the op contract itself is complete, documented and shaped like the standard."""

from __future__ import annotations

import inspect
import math

import pytest

import ivy
from ivy._spec import CATEGORIES, SPECS
from ivy._spec._base import EXTENSIONS

P = inspect.Parameter

#: Array parameters that are not positional-only, as the Array API standard has them.
NOT_POSITIONAL_ONLY = {
    ("clip", "min"): P.POSITIONAL_OR_KEYWORD,
    ("clip", "max"): P.POSITIONAL_OR_KEYWORD,
    ("meshgrid", "arrays"): P.VAR_POSITIONAL,
    ("broadcast_arrays", "arrays"): P.VAR_POSITIONAL,
    ("result_type", "arrays_and_dtypes"): P.VAR_POSITIONAL,
    # Optional array arguments the standard makes keyword-only.
    ("searchsorted", "sorter"): P.KEYWORD_ONLY,
    ("diff", "prepend"): P.KEYWORD_ONLY,
    ("diff", "append"): P.KEYWORD_ONLY,
    ("linalg.matrix_rank", "rtol"): P.KEYWORD_ONLY,
    ("linalg.pinv", "rtol"): P.KEYWORD_ONLY,
}


def _public(name: str):  # type: ignore[no-untyped-def]
    ns, _, short = name.rpartition(".")
    return getattr(getattr(ivy, ns) if ns else ivy, short)


def _is_array_param(p: inspect.Parameter) -> bool:
    return isinstance(p.annotation, str) and "Array" in p.annotation


@pytest.mark.parametrize("name", list(SPECS))
def test_spec_is_documented(name: str) -> None:
    spec = SPECS[name]
    doc = inspect.getdoc(spec.fn)
    assert doc and len(doc.splitlines()[0]) > 10, f"{name} has no summary line"
    params = [p.name for p in spec.signature.parameters.values()]
    if params:
        assert "Args:" in doc, f"{name}'s docstring has no Args section"
        for p in params:
            assert p in doc, f"{name}'s docstring does not describe {p!r}"
    assert "Returns:" in doc or spec.signature.return_annotation in ("None",), name


@pytest.mark.parametrize("name", list(SPECS))
def test_array_parameters_are_positional_only(name: str) -> None:
    beyond_the_standard = SPECS[name].category in ("gradients", "random", "device", "nn", "general")
    for p in SPECS[name].signature.parameters.values():
        if not _is_array_param(p):
            continue
        if beyond_the_standard and (p.default is not P.empty or p.kind in (P.VAR_POSITIONAL, P.KEYWORD_ONLY)):
            # Ivy's own ops: optional arrays (bias, mask, ...) and named weights
            # (multi_head_attention's q_weight...) are keywords; positional arrays stay positional-only.
            continue
        want = NOT_POSITIONAL_ONLY.get((name, p.name), P.POSITIONAL_ONLY)
        assert p.kind is want, f"{name}({p.name}) is {p.kind.description}, expected {want.description}"
        if p.kind is P.KEYWORD_ONLY:
            assert p.default is None


def test_documented_exceptions_exist() -> None:
    for (name, param), kind in NOT_POSITIONAL_ONLY.items():
        assert SPECS[name].signature.parameters[param].kind is kind


@pytest.mark.parametrize("name", list(SPECS))
def test_spec_shape(name: str) -> None:
    spec = SPECS[name]
    assert spec.category in CATEGORIES
    assert (spec.category in EXTENSIONS) == ("." in name)
    assert spec.short_name == spec.fn.__name__
    assert spec.signature.return_annotation is not inspect.Signature.empty, f"{name} has no return annotation"
    assert all(p.kind is not P.VAR_KEYWORD for p in spec.signature.parameters.values())
    assert "backend" not in spec.signature.parameters  # reserved for the public keyword
    # Every op with an array argument infers its backend from it, except creation from other data.
    if spec.roles:
        assert spec.infer or name == "from_dlpack"
    assert _public(name).__ivy_spec__ is spec


def test_categories_cover_every_spec() -> None:
    assert {s.category for s in SPECS.values()} == set(CATEGORIES)


def test_array_api_version() -> None:
    assert ivy.__array_api_version__ == "2024.12"
    from ivy.plugin import ARRAY_API_VERSION

    assert ARRAY_API_VERSION == "2024.12"


def test_dtype_objects() -> None:
    for n in (
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
    ):
        dt = getattr(ivy, n)
        assert isinstance(dt, ivy.DType) and dt == n


def test_constants() -> None:
    assert ivy.e == math.e and ivy.pi == math.pi and ivy.inf == math.inf
    assert math.isnan(ivy.nan)
    assert ivy.newaxis is None
    assert isinstance(ivy.e, float)


def test_public_names() -> None:
    for name in (
        "backends",
        "set_backend",
        "unset_backend",
        "use_backend",
        "current_backend",
        "backend_namespace",
        "namespace",
        "is_native_array",
        "dtype_name",
        "DType",
        "__array_namespace_info__",
        "IvyError",
        "MixedBackendsError",
        "BackendNotInstalledError",
        "BackendLoadError",
        "BackendConflictError",
        "PluginValidationError",
        "UnsupportedDTypeError",
        "set_framework",
        "unset_framework",
        "get_framework",
        "array",
        "reduce_sum",
        "concatenate",
    ):
        assert hasattr(ivy, name), name
    assert ivy.errors.IvyError is ivy.IvyError


def test_dtype_equal_in_every_form_and_order() -> None:
    import ivy

    class Foreign:  # a native dtype that refuses to compare with foreign objects (as paddle's)
        name = "float32"

        def __eq__(self, other: object) -> bool:
            return isinstance(other, Foreign)

        __hash__ = object.__hash__

    f = Foreign()
    assert f != ivy.float32  # what user code meets on paddle...
    for a, b in [(f, ivy.float32), (ivy.float32, f), ("float32", f), (f, "float32")]:
        assert ivy.dtype_equal(a, b)  # ...and what it can rely on
    assert not ivy.dtype_equal(f, ivy.float64) and not ivy.dtype_equal(f, "not a dtype")


def test_by_dtype_constant_keys_a_table_by_the_exported_dtypes() -> None:
    from ivy.plugin_kit import by_dtype_constant

    table = by_dtype_constant({"float32": "f4", "int64": "i8", "float16": "f2"})
    assert table == {ivy.float32: "f4", ivy.int64: "i8"}  # (float16 is not a standard dtype)
    keys = list(table)
    assert keys[0] is ivy.float32 and keys[1] is ivy.int64  # the very objects ``import ivy`` exports
    assert type(keys[0]) is ivy.DType
