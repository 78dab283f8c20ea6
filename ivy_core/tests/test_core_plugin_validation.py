"""Plugins that break the contract are refused with a precise error naming their distribution,
and they do not get in the way of the good backends installed next to them.

Each bad plugin is a real installed distribution (``*.dist-info`` with METADATA, entry_points.txt
and RECORD, plus its module) written into a temporary folder that a subprocess puts on sys.path.
"""

from __future__ import annotations

import operator
from typing import Any

import pytest
from ivy_core_tests_support import make_fake_dist, run_json

from ivy._registry import signature_mismatch

# A fake plugin module. NAME: its BackendSpec.name; API: its plugin_api; OPS: source of a dict
# expression; PRE: code run at import; LOAD: the body of load(); MODULES: its array modules;
# TYPES, DTYPES: source of BackendImpl.array_types and .dtypes; RESULT: what load() returns.
_TEMPLATE = '''
from ivy.plugin import BackendImpl, BackendSpec, hookimpl
{pre}

class {cls}:
    """The fake framework's array type."""

class FakeDType:
    """The fake framework's dtype type."""

@hookimpl
def ivy_register_backends(register):
    register(BackendSpec(name={name!r}, array_modules={modules}, load="{mod}:load", plugin_api={api}))

def good_add(x1, x2, /):
    return {cls}()

{defs}

def load():
    {load}
    impl = BackendImpl(
        ops={ops},
        array_types={types},
        dtypes={dtypes},
        default_dtypes={{}},
        devices=lambda: ["cpu"],
        default_device=lambda: "cpu",
    )
    return {result}
'''


def _module(
    mod: str,
    name: str,
    *,
    api: int = 1,
    ops: str = '{"add": good_add}',
    pre: str = "",
    defs: str = "",
    load: str = "pass",
    modules: tuple[str, ...] | None = None,
    types: str | None = None,
    dtypes: str = "{}",
    result: str = "impl",
) -> str:
    cls = f"{mod.capitalize()}Array"
    return _TEMPLATE.format(
        mod=mod,
        name=name,
        api=api,
        ops=ops,
        pre=pre,
        defs=defs,
        load=load,
        cls=cls,
        modules=repr(modules or (mod,)),
        types=types or f"({cls},)",
        dtypes=dtypes,
        result=result,
    )


_BADSIG_DEFS = """
def sum_no_keepdims(x, /, *, axis=None, dtype=None):
    pass

def mean_wrong_default(x, /, *, axis=None, keepdims=True):
    pass

def add_extra_required(x1, x2, /, out):
    pass
"""

#: case -> (distribution, entry-point name, module name, module source)
CASES: dict[str, tuple[str, str, str, str]] = {
    "good": ("ivy-fakegood", "fakegood", "fakegood", _module("fakegood", "fakegood")),
    "plugin_api": ("ivy-badapi", "badapi", "badapi", _module("badapi", "badapi", api=99)),
    "unknown_op": (
        "ivy-badop",
        "badop",
        "badop",
        _module("badop", "badop", ops='{"add": good_add, "frobnicate": good_add}'),
    ),
    "signature": (
        "ivy-badsig",
        "badsig",
        "badsig",
        _module(
            "badsig",
            "badsig",
            defs=_BADSIG_DEFS,
            ops='{"sum": sum_no_keepdims, "mean": mean_wrong_default, "add": add_extra_required}',
        ),
    ),
    "import_error": (
        "ivy-importerr",
        "importerr",
        "importerr",
        _module("importerr", "importerr", pre="import fakeframework_that_does_not_exist  # raises ImportError"),
    ),
    "load_raises": (
        "ivy-loadfail",
        "loadfail",
        "loadfail",
        _module("loadfail", "loadfail", load='raise RuntimeError("boom: no device found")'),
    ),
    "entry_point_name": ("ivy-epname", "epname", "epname", _module("epname", "othername")),
    # load() returns the ops, not a BackendImpl
    "load_not_impl": ("ivy-notimpl", "notimpl", "notimpl", _module("notimpl", "notimpl", result="dict(impl.ops)")),
    # the entry module imports its framework (an array module it declares) at import time
    "eager_import": (
        "ivy-eager",
        "eager",
        "eager",
        _module("eager", "eager", modules=("eager", "eagerfw"), pre="import eagerfw  # against the contract"),
    ),
    # numpy's arrays declared as its own: inference would hand them to this backend
    "takeover_module": (
        "ivy-takeover",
        "takeover",
        "takeover",
        _module("takeover", "takeover", load="import numpy", types="(numpy.ndarray,)"),
    ),
    # a base of another loaded backend's array type (FakegoodArray is an object)
    "takeover_base": ("ivy-objects", "objects", "objects", _module("objects", "objects", types="(object,)")),
    "dtype_names": (
        "ivy-dtnames",
        "dtnames",
        "dtnames",
        _module("dtnames", "dtnames", dtypes='{"float": FakeDType(), "float32": FakeDType()}'),
    ),
    "dtype_twice": (
        "ivy-dttwice",
        "dttwice",
        "dttwice",
        _module("dttwice", "dttwice", defs="ONE = FakeDType()", dtypes='{"float32": ONE, "float64": ONE}'),
    ),
    "not_a_spec": (
        "ivy-notspec",
        "notspec",
        "notspec",
        _module("notspec", "notspec")
        .replace("register(BackendSpec(", "register(dict(spec=BackendSpec(")
        .replace("plugin_api=1))", "plugin_api=1)))"),
    ),
}

#: case -> the modules of its fake framework, installed with it
FRAMEWORKS = {"eager_import": {"eagerfw": "class Tensor:\n    pass\n"}}

#: case -> (expected exception class name, cause class name or None, fragments of the message)
EXPECTED: dict[str, tuple[str, str | None, tuple[str, ...]]] = {
    "plugin_api": ("PluginValidationError", None, ("ivy-badapi 0.1", "plugin API 99", "plugin API 1")),
    "unknown_op": ("PluginValidationError", None, ("ivy-badop 0.1", "frobnicate", "not in Ivy's specs")),
    "signature": (
        "PluginValidationError",
        None,
        (
            "ivy-badsig 0.1",
            "sum: keyword 'keepdims' is missing",
            "mean: default of 'keepdims' is True",
            "add: extra parameter 'out' has no default",
        ),
    ),
    "import_error": (
        "BackendLoadError",
        "ModuleNotFoundError",
        ("ivy-importerr 0.1", "'importerr'", "fakeframework_that_does_not_exist"),
    ),
    "load_raises": ("BackendLoadError", "RuntimeError", ("ivy-loadfail 0.1", "'loadfail'", "boom: no device found")),
    "entry_point_name": ("PluginValidationError", None, ("ivy-epname 0.1", "'epname'", "othername")),
    "load_not_impl": (
        "PluginValidationError",
        None,
        ("ivy-notimpl 0.1", "returned a dict", "not an ivy.plugin.BackendImpl"),
    ),
    "eager_import": (
        "PluginValidationError",
        None,
        ("ivy-eager 0.1", "imported the framework (eagerfw)", "eager:load"),
    ),
    "takeover_module": (
        "PluginValidationError",
        None,
        ("ivy-takeover 0.1", "numpy.ndarray", "the backend 'numpy' (ivy-numpy", "BackendImpl.array_types"),
    ),
    "takeover_base": (
        "PluginValidationError",
        None,
        ("ivy-objects 0.1", "builtins.object", "the backend 'fakegood' (ivy-fakegood 0.1)", "take over"),
    ),
    "dtype_names": ("PluginValidationError", None, ("ivy-dtnames 0.1", "'float'", "no standard dtype names")),
    "dtype_twice": ("PluginValidationError", None, ("ivy-dttwice 0.1", "both 'float32' and 'float64'")),
    "not_a_spec": (
        "PluginValidationError",
        None,
        ("ivy-notspec 0.1", "registered a dict", "not an ivy.plugin.BackendSpec"),
    ),
}

_PROBE = """
import sys, warnings
import ivy
import ivy.errors as E
from ivy import _registry

out = {"backends": ivy.backends(), "imported_at_listing": sorted(
    m for m in ("fakegood", "badapi", "badop", "badsig", "importerr", "loadfail", "epname", "eager", "eagerfw")
    if m in sys.modules)}

def describe(e):
    return {"type": type(e).__name__, "mro": [c.__name__ for c in type(e).__mro__],
            "msg": str(e), "cause": type(e.__cause__).__name__ if e.__cause__ is not None else None}

cases = {}
for case, name in CASES.items():
    res = {}
    try:
        ns = ivy.backend_namespace(name)
        res["ok"] = True
        res["add"] = type(ns.add(1.0, 2.0)).__name__
    except Exception as e:
        res["ok"] = False
        res["error"] = describe(e)
        # The same error again, not a different one, on the next use.
        try:
            ivy.backend_namespace(name)
        except Exception as e2:
            res["again"] = describe(e2)
    cases[case] = res
out["cases"] = cases

# Arrays of a broken backend's framework: inference reaches the same error.
import loadfail
try:
    ivy.add(loadfail.LoadfailArray(), loadfail.LoadfailArray())
except Exception as e:
    out["infer_loadfail"] = describe(e)

# The good backends still work in this process.
import numpy as np
r = ivy.add(np.ones(2), np.arange(2.0))
out["numpy_add"] = [type(r).__module__, r.tolist()]
out["numpy_ns"] = ivy.backend_namespace("numpy").name
out["numpy_is_native"] = ivy.is_native_array(np.ones(1))
import fakegood
out["fakegood_add"] = type(ivy.add(fakegood.FakegoodArray(), fakegood.FakegoodArray())).__name__
# an op the plugin lacks: the error names the op, the backend and the distribution
for call in (lambda: ivy.mean(fakegood.FakegoodArray()), lambda: ivy.fakegood.mean,
             lambda: ivy.relu(fakegood.FakegoodArray())):
    try:
        call()
    except E.MissingOpError as e:
        out.setdefault("missing", []).append(describe(e))
# numpy's arrays still go to numpy after the plugin that declared them was refused
out["numpy_after_takeover"] = ivy.namespace(np.ones(1)).name
with warnings.catch_warnings():
    warnings.simplefilter("error")
    out["default"] = ivy.current_backend().name
    _registry.plugin_manager()  # broken plugins are skipped, not raised
emit(out)
"""


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    root = tmp_path_factory.mktemp("fake-plugins")
    for case, (dist, ep, mod, src) in CASES.items():
        make_fake_dist(root, dist, {ep: mod}, {mod: src, **FRAMEWORKS.get(case, {})})
    names = {case: ep for case, (_, ep, _, _) in CASES.items()}
    return run_json(f"CASES = {names!r}\n" + _PROBE, [root])


def test_fake_distributions_are_listed_without_being_imported(report: dict[str, Any]) -> None:
    for _, ep, _, _ in CASES.values():
        assert ep in report["backends"]
    assert report["imported_at_listing"] == []


def test_good_fake_plugin_works(report: dict[str, Any]) -> None:
    assert report["cases"]["good"] == {"ok": True, "add": "FakegoodArray"}
    assert report["fakegood_add"] == "FakegoodArray"


@pytest.mark.parametrize("case", sorted(EXPECTED))
def test_bad_plugin_gives_precise_error(report: dict[str, Any], case: str) -> None:
    etype, cause, fragments = EXPECTED[case]
    res = report["cases"][case]
    assert res["ok"] is False
    err = res["error"]
    assert err["type"] == etype, err
    assert "IvyError" in err["mro"]
    for frag in fragments:
        assert frag in err["msg"], (frag, err["msg"])
    assert err["cause"] == cause, err
    # Asking again gives the same error (it is remembered, the plugin is not re-imported).
    assert res["again"] == err


def test_error_classes_keep_builtin_bases(report: dict[str, Any]) -> None:
    assert "ImportError" in report["cases"]["import_error"]["error"]["mro"]
    assert "ImportError" in report["cases"]["load_raises"]["error"]["mro"]
    assert "TypeError" in report["cases"]["plugin_api"]["error"]["mro"]


def test_missing_op_names_the_distribution(report: dict[str, Any]) -> None:
    msgs = [m["msg"] for m in report["missing"]]
    assert len(msgs) == 3, report["missing"]
    for msg in msgs:
        assert "'fakegood' backend" in msg, msg
        assert "ivy-fakegood 0.1" in msg, msg
    assert "ivy.mean" in msgs[0], msgs[0]
    assert "ivy.mean" in msgs[1], msgs[1]
    assert "ivy.relu" in msgs[2], msgs[2]  # composed: names the op it lacks inside it too
    assert "needs ivy." in msgs[2], msgs[2]


def test_refused_takeover_leaves_numpy_its_arrays(report: dict[str, Any]) -> None:
    assert report["numpy_after_takeover"] == "numpy"


def test_inference_reaches_the_load_error(report: dict[str, Any]) -> None:
    err = report["infer_loadfail"]
    assert err["type"] == "BackendLoadError" and err["cause"] == "RuntimeError"
    assert "ivy-loadfail" in err["msg"]


def test_broken_plugins_do_not_affect_numpy(report: dict[str, Any]) -> None:
    assert report["numpy_add"] == ["numpy", [1.0, 2.0]]
    assert report["numpy_ns"] == "numpy"
    assert report["numpy_is_native"] is True
    assert report["default"] == "numpy"


# --------------------------------------------------------------------------- signature_mismatch


def _ok_add_renamed(a, b):  # type: ignore[no-untyped-def]
    pass


def _ok_add_varargs(*args):  # type: ignore[no-untyped-def]
    pass


def _ok_add_extra_default(x1, x2, /, *, out=None):  # type: ignore[no-untyped-def]
    pass


def _ok_sum_exact(x, /, *, axis=None, dtype=None, keepdims=False):  # type: ignore[no-untyped-def]
    pass


def _ok_sum_reordered_keywords(x, /, *, keepdims=False, dtype=None, axis=None):  # type: ignore[no-untyped-def]
    pass


def _ok_sum_positional_or_keyword(x, axis=None, dtype=None, keepdims=False):  # type: ignore[no-untyped-def]
    pass


def _ok_sum_kwargs(x, /, **kwargs):  # type: ignore[no-untyped-def]
    pass


def _ok_clip(x, /, min=None, max=None):  # type: ignore[no-untyped-def]
    pass


def _ok_eye(n, m=None, /, *, k=0, dtype=None, device=None):  # type: ignore[no-untyped-def]
    pass


def _ok_meshgrid(*arrays, indexing="xy"):  # type: ignore[no-untyped-def]
    pass


def _ok_zeros(shape, *, dtype=None, device=None, order="C"):  # type: ignore[no-untyped-def]
    pass


ACCEPTABLE = [
    ("add", _ok_add_renamed),
    ("add", _ok_add_varargs),
    ("add", _ok_add_extra_default),
    ("add", operator.add),  # builtins carry no reliable signature: not checked
    ("sum", _ok_sum_exact),
    ("sum", _ok_sum_reordered_keywords),
    ("sum", _ok_sum_positional_or_keyword),
    ("sum", _ok_sum_kwargs),
    ("clip", _ok_clip),
    ("linalg.inv", lambda x: None),
    ("eye", _ok_eye),
    ("meshgrid", _ok_meshgrid),
    ("zeros", _ok_zeros),
]


@pytest.mark.parametrize(("op", "fn"), ACCEPTABLE, ids=[f"{o}-{getattr(f, '__name__', f)}" for o, f in ACCEPTABLE])
def test_signature_acceptable(op: str, fn: Any) -> None:
    assert signature_mismatch(op, fn) is None


def _bad_add_one(x, /):  # type: ignore[no-untyped-def]
    pass


def _bad_add_extra(x1, x2, out):  # type: ignore[no-untyped-def]
    pass


def _bad_sum_missing(x, /, *, axis=None, dtype=None):  # type: ignore[no-untyped-def]
    pass


def _bad_sum_default(x, /, *, axis=None, dtype=None, keepdims=True):  # type: ignore[no-untyped-def]
    pass


def _bad_sum_default_none(x, /, *, axis=None, dtype=None, keepdims=None):  # type: ignore[no-untyped-def]
    pass


def _bad_sum_required(x, /, *, axis, dtype=None, keepdims=False):  # type: ignore[no-untyped-def]
    pass


def _bad_sum_posonly_kw(x, axis=None, dtype=None, keepdims=False, /):  # type: ignore[no-untyped-def]
    pass


def _bad_clip_swapped(x, /, max=None, min=None):  # type: ignore[no-untyped-def]
    pass


def _bad_clip_kwonly(x, /, *, min=None, max=None):  # type: ignore[no-untyped-def]
    pass


def _bad_eye_kwonly_cols(n, *, m=None, k=0, dtype=None, device=None):  # type: ignore[no-untyped-def]
    pass


def _bad_eye_default(n, m=0, /, *, k=0, dtype=None, device=None):  # type: ignore[no-untyped-def]
    pass


def _bad_meshgrid(arrays, indexing="xy"):  # type: ignore[no-untyped-def]
    pass


UNACCEPTABLE = [
    ("add", _bad_add_one, "positional parameters"),
    ("add", _bad_add_extra, "extra parameter 'out' has no default"),
    ("sum", _bad_sum_missing, "keyword 'keepdims' is missing"),
    ("sum", _bad_sum_default, "default of 'keepdims' is True"),
    ("sum", _bad_sum_default_none, "default of 'keepdims' is None"),
    ("sum", _bad_sum_required, "'axis' needs the default None"),
    ("sum", _bad_sum_posonly_kw, "'axis' must be accepted by keyword"),
    ("clip", _bad_clip_swapped, "'min' must be positional-or-keyword"),
    ("clip", _bad_clip_kwonly, "'min' must be positional-or-keyword"),
    ("eye", _bad_eye_kwonly_cols, "positional parameters"),
    ("eye", _bad_eye_default, "default of 'n_cols' is 0"),
    ("meshgrid", _bad_meshgrid, "needs *arrays"),
]


@pytest.mark.parametrize(("op", "fn", "why"), UNACCEPTABLE, ids=[f"{o}-{f.__name__}" for o, f, _ in UNACCEPTABLE])
def test_signature_unacceptable(op: str, fn: Any, why: str) -> None:
    msg = signature_mismatch(op, fn)
    assert msg is not None and why in msg, msg


def _generic(*args, **kwargs):  # type: ignore[no-untyped-def]
    pass


@pytest.mark.parametrize("op", ["clip", "zeros"])
def test_signature_fully_generic_is_acceptable(op: str) -> None:
    assert signature_mismatch(op, _generic) is None


def _bad_sum_keyword_taken_positionally(axis=None, x=None, dtype=None, keepdims=False):  # type: ignore[no-untyped-def]
    pass


def test_signature_keyword_bound_twice_is_refused() -> None:
    assert signature_mismatch("sum", _bad_sum_keyword_taken_positionally) is not None
