"""The C hot path (``ivy._cdispatch``): the same behaviour as the generated Python functions.

Every public op object wraps its complete Python function (``__ivy_python__``); the C code only
decides whether a call is the plain case. These tests compare the two on plain calls and on every
kind of call the C code must hand over (keywords, ``backend=``, scalars first, mixed frameworks,
wrong argument counts), check that the objects behave like functions, and test
``ivy.plugin_kit.fastpath`` on its own.
"""

from __future__ import annotations

import inspect
import os
import pickle
import pydoc
import weakref
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import ivy
from ivy import _dispatch
from ivy.plugin_kit import fastpath

pytestmark = pytest.mark.usefixtures("toy")
needs_c = pytest.mark.skipif(not _dispatch.C_DISPATCH, reason="ivy._cdispatch is not built")


def test_c_extension_is_built_where_required() -> None:
    # scripts/test sets IVY_REQUIRE_CDISPATCH=1: CI fails if the extension silently did not build.
    if os.environ.get("IVY_REQUIRE_CDISPATCH") == "1" and not os.environ.get("IVY_PURE_PYTHON"):
        assert _dispatch.C_DISPATCH, "ivy._cdispatch did not build (is a C compiler installed?)"
    assert _dispatch.C_DISPATCH == (type(ivy.add).__module__ == "ivy._cdispatch")


class T:
    """A toy array, made when the test runs (the toy plugin is installed by a fixture)."""

    def __init__(self, *values: float) -> None:
        self.values = list(values)

    @staticmethod
    def make(x: Any) -> Any:
        from ivy_toy import ToyArray

        if isinstance(x, T):
            return ToyArray(x.values, (len(x.values),))
        if isinstance(x, (list, tuple)):
            return type(x)(T.make(v) for v in x)
        return x


def _outcome(fn: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[str, Any]:
    try:
        r = fn(*args, **kwargs)
    except Exception as e:  # the exception is the outcome compared
        return "raise", (type(e), str(e))
    if isinstance(r, np.ndarray):
        return "numpy", (r.dtype, r.shape, r.tolist())
    if type(r).__name__ == "ToyArray":
        return "toy", (r.shape, r.data)
    return "other", (type(r), r)


a = np.arange(4.0, dtype=np.float32)
b = np.ones(4, dtype=np.float32)
m = np.arange(6.0).reshape(2, 3)
CALLS: dict[str, tuple[str, tuple[Any, ...], dict[str, Any]]] = {
    "plain binary": ("add", (a, b), {}),
    "scalar second": ("add", (a, 2.0), {}),
    "scalar first": ("add", (2, a), {}),
    "two scalars": ("add", (1.0, 2.0), {}),
    "numpy scalar": ("multiply", (np.float32(2.0), a), {}),
    "toy arrays": ("add", (T(1.0, 2.0), T(3.0, 4.0)), {}),
    "toy with scalar": ("multiply", (T(1.0, 2.0), 3.0), {}),
    "mixed frameworks": ("add", (a, T(1.0)), {}),
    "mixed, toy first": ("add", (T(1.0), a), {}),
    "missing argument": ("add", (a,), {}),
    "extra positional": ("sum", (m, 0), {}),
    "option keyword": ("sum", (m,), {"axis": 0}),
    "all options": ("sum", (m,), {"axis": 1, "keepdims": True, "dtype": "float32"}),
    "unknown keyword": ("sum", (m,), {"axes": 0}),
    "positional by keyword": ("reshape", (a,), {"shape": (2, 2)}),
    "positional by keyword, and an option": ("reshape", (a,), {"shape": (2, 2), "copy": True}),
    "positional by keyword, twice": ("reshape", (a, (2, 2)), {"shape": (4,)}),
    "positional by keyword after a gap": ("clip", (a,), {"max": b}),
    "positional by keyword, unknown": ("expand_dims", (a,), {"axis": 0, "axes": 1}),
    "positional by keyword, too few": ("matmul", (), {"x2": m}),
    "positional by keyword, plain": ("reshape", (a, (2, 2)), {}),
    "array by keyword": ("clip", (a,), {"min": 1.0, "max": b}),
    "array positional after scalar": ("clip", (a, 1.0, b), {}),
    "explicit backend": ("add", (a, b), {"backend": "numpy"}),
    "explicit backend namespace": ("add", (1.0, 2.0), {"backend": "numpy"}),
    "sequence first": ("concat", ([a, b],), {}),
    "sequence tuple": ("concat", ((a, b),), {"axis": 0}),
    "sequence with toy": ("concat", ([a, T(1.0)],), {}),
    "empty sequence": ("concat", ([],), {}),
    "not a sequence": ("concat", (a,), {}),
    "varargs": ("broadcast_arrays", (a, b), {}),
    "varargs mixed": ("meshgrid", (a, T(1.0)), {}),
    "where scalars": ("where", (a > 1, 1.0, b), {}),
    "no array argument": ("add", (2.0, 3.0), {}),
    "list where an array goes": ("add", ([1.0, 2.0], a), {}),
}


@needs_c
@pytest.mark.parametrize("case", sorted(CALLS))
def test_c_and_python_paths_agree(case: str) -> None:
    name, args, kwargs = CALLS[case]
    args = T.make(args)
    fn = getattr(ivy, name)
    assert type(fn).__module__ == "ivy._cdispatch", case
    with ivy.use_backend("numpy"):
        got = _outcome(fn, args, kwargs)
        again = _outcome(fn, args, kwargs)  # the C object's remembered lookup and keywords
        want = _outcome(fn.__ivy_python__, args, kwargs)
    assert got == want and again == want


@needs_c
def test_remembered_lookups_follow_each_call() -> None:
    # The C objects remember the last call's lookup (and keyword names): calls that alternate
    # argument types, sequences and keyword names must each get their own backend and options.
    x, t = a, T.make(T(1.0, 2.0))
    for _ in range(2):
        assert isinstance(ivy.concat([x, b], axis=0), np.ndarray)
        with pytest.raises(ivy.errors.MissingOpError, match="toy"):  # the toy backend's, not numpy's
            ivy.concat([t, t], axis=0)
        assert isinstance(ivy.concat((x, b)), np.ndarray)
        assert ivy.vecdot(x, b, axis=0) == 6.0
        assert type(ivy.vecdot(t, t, axis=0)).__name__ == "ToyArray"
        with pytest.raises(ivy.errors.MixedBackendsError):
            ivy.concat([x, t], axis=0)
        assert ivy.sum(m, axis=0).shape == (3,) and ivy.sum(m, axis=1).shape == (2,)
        assert ivy.sum(m, keepdims=True, axis=1).shape == (2, 1)
        assert ivy.sum(m, axis=1, keepdims=True).shape == (2, 1)
        assert type(ivy.sum(t, axis=0)).__name__ == "ToyArray"
        with pytest.raises(TypeError):
            ivy.sum(m, axes=0)


@needs_c
def test_plain_calls_take_the_table() -> None:
    # After one call, the C path calls the backend's implementation straight from the table.
    ivy.subtract(a, b)
    table = _dispatch.TABLES["subtract"]
    seen = []
    orig = table[np.ndarray]
    table[np.ndarray] = lambda *xs: seen.append(len(xs)) or orig(*xs)
    try:
        ivy.subtract(a, b)
        ivy.subtract(a, 1.0)
    finally:
        table[np.ndarray] = orig
    assert seen == [2, 2]


@needs_c
def test_context_dispatch_follows_the_stack() -> None:
    # ivy.zeros has no array argument: the backend on top of the context stack, cached per backend
    with ivy.use_backend("numpy"):
        assert isinstance(ivy.zeros((2,)), np.ndarray)
        with ivy.use_backend("toy"):
            z = ivy.zeros((2,))
            assert type(z).__name__ == "ToyArray" and z.data == [0.0, 0.0]
        assert isinstance(ivy.zeros((2,), dtype="float32"), np.ndarray)
        assert ivy.zeros((2,), dtype="float32").dtype == np.float32
        assert type(ivy.zeros((2,), backend="toy")).__name__ == "ToyArray"
    with pytest.raises(TypeError, match="zeros"):
        ivy.zeros((2,), dtpye="float32", backend="numpy")


@needs_c
def test_ops_behave_like_functions() -> None:
    fn = ivy.add
    assert repr(fn) == "<ivy function ivy.add>"
    assert pickle.loads(pickle.dumps(fn)) is fn
    assert pickle.loads(pickle.dumps(ivy.linalg.inv)) is ivy.linalg.inv
    assert weakref.ref(fn)() is fn
    assert inspect.isroutine(fn) and callable(fn)
    assert "x1" in str(inspect.signature(fn)) and "backend" in str(inspect.signature(fn))
    doc = pydoc.render_doc(fn, renderer=pydoc.plaintext)
    assert "add(x1: Array | complex, x2: Array | complex, /, *, backend" in doc and "element-wise" in doc

    class Holder:  # like a builtin, it does not bind as a method
        op = ivy.add

    np.testing.assert_array_equal(Holder().op(a, b), a + b)


def test_pure_python_mode(run_py_json: Any) -> None:
    out = run_py_json(
        "import ivy, ivy.plugin_kit, types\n"
        "f = lambda *a: 0\n"
        "emit([ivy._dispatch.C_DISPATCH, isinstance(ivy.add, types.FunctionType),\n"
        "      ivy.plugin_kit.fastpath(f, f, nargs=1) is f])",
        env={"IVY_PURE_PYTHON": "1"},
    )
    assert out == [False, True, True]


# --------------------------------------------------------------------------- fastpath


class Arr:
    """A stand-in array: fastpath reads only ``.dtype``."""

    def __init__(self, dtype: Any) -> None:
        self.dtype = dtype


class DType:
    """Equal by name but not identical (like paddle's dtypes)."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __eq__(self, other: object) -> bool:
        return isinstance(other, DType) and other.name == self.name

    def __hash__(self) -> int:
        return hash(self.name)


def _recorder() -> tuple[list[Any], Callable[..., Any], Callable[..., Any]]:
    log: list[Any] = []

    def native(*args: Any) -> str:
        log.append(("native", len(args)))
        return "native"

    def full(*args: Any, **kwargs: Any) -> str:
        log.append(("full", len(args), tuple(kwargs)))
        return "full"

    return log, native, full


@needs_c
def test_fastpath_routes_plain_calls_to_native() -> None:
    log, native, full = _recorder()
    f = fastpath(native, full, nargs=(1, 2))
    assert f(1) == "native" and f(1, 2) == "native"
    assert f() == "full" and f(1, 2, 3) == "full" and f(1, k=2) == "full"
    assert log == [("native", 1), ("native", 2), ("full", 0, ()), ("full", 3, ()), ("full", 1, ("k",))]


@needs_c
def test_fastpath_dtype_guards() -> None:
    log, native, full = _recorder()
    f = fastpath(native, full, nargs=2, dtypes={"f4", "f8"}, same=(0, 1))
    assert f(Arr("f4"), Arr("f4")) == "native"
    assert f(Arr("i4"), Arr("i4")) == "full"  # dtype not allowed
    assert f(Arr("f4"), Arr("f8")) == "full"  # dtypes differ
    assert f(Arr("f4"), 1.0) == "full"  # a scalar has no dtype
    assert f(1.0, Arr("f4")) == "full"
    g = fastpath(native, full, nargs=2, same=(0, 1))
    assert g(Arr(DType("x")), Arr(DType("x"))) == "native"  # equal, not identical
    assert g(Arr(DType("x")), Arr(DType("y"))) == "full"
    assert [e[0] for e in log] == ["native", "full", "full", "full", "full", "native", "full"]


@needs_c
def test_fastpath_guards_take_objects_without_a_plain_dtype() -> None:
    class Raising:
        @property
        def dtype(self) -> Any:
            raise RuntimeError("no dtype here")

    log, native, full = _recorder()
    f = fastpath(native, full, nargs=2, dtypes={"f4"}, same=(0, 1))
    for other in (True, None, 2**70, Raising(), [1.0], "f4"):
        assert f(Arr("f4"), other) == "full"  # (no error leaks out of the guard)
    assert f(Raising(), Arr("f4")) == "full"
    assert all(e[0] == "full" for e in log)


@needs_c
def test_fastpath_retry_and_errors() -> None:
    def native(x: Any) -> Any:
        if x == "unsupported":
            raise NotImplementedError("no kernel")
        if x == "bad":
            raise ValueError("bad input")
        return ("native", x)

    def full(x: Any) -> Any:
        return ("full", x)

    f = fastpath(native, full, nargs=1, retry=NotImplementedError)
    assert f(1) == ("native", 1)
    assert f("unsupported") == ("full", "unsupported")
    with pytest.raises(ValueError, match="bad input"):  # not a retry exception: it propagates
        f("bad")
    g = fastpath(native, full, nargs=1)
    with pytest.raises(NotImplementedError):
        g("unsupported")


@needs_c
def test_fastpath_fills_omitted_positionals_from_defaults() -> None:
    calls: list[tuple[Any, ...]] = []

    def native(*args: Any) -> tuple[Any, ...]:
        calls.append(args)
        return args

    f = fastpath(native, lambda *a, **k: ("full", a, k), nargs=(1, 3), defaults=(10, 20))
    assert f(1) == (1, 10, 20) and f(1, 2) == (1, 2, 20) and f(1, 2, 3) == (1, 2, 3)
    assert f(1, k=0) == ("full", (1,), {"k": 0})
    g = fastpath(native, native, nargs=1, defaults=(-1,))  # an option the spec keeps keyword-only
    assert g(5) == (5, -1) and g(5, 6) == (5, 6)  # two positionals: not plain, the full function
    with pytest.raises(ValueError, match="defaults"):
        fastpath(native, native, nargs=(0, 3), defaults=(1,))  # position 2 would have no value


@needs_c
def test_fastpath_metadata_and_decorator() -> None:
    @fastpath(len, nargs=1)
    def size(x: Any, /, *, exact: bool = True) -> int:
        """The size."""
        return len(x)

    assert size.__name__ == "size" and size.__doc__ == "The size."
    assert str(inspect.signature(size)) == "(x: 'Any', /, *, exact: 'bool' = True) -> 'int'"
    assert size.__ivy_native__ is len and size([1, 2]) == 2 and size([1], exact=False) == 1


@needs_c
def test_fastpath_rejects_bad_configuration() -> None:
    with pytest.raises(ValueError, match="npos_min"):
        fastpath(len, len, nargs=(0, 1), dtypes={"f4"})
    with pytest.raises(ValueError, match="npos_min"):
        fastpath(len, len, nargs=1, same=(0, 1))
    with pytest.raises(TypeError, match="callable"):
        fastpath(1, len, nargs=1)  # type: ignore[arg-type]


@needs_c
def test_fastpath_passes_keyword_options_positionally() -> None:
    calls: list[tuple[Any, ...]] = []

    def native(*args: Any) -> tuple[Any, ...]:
        calls.append(args)
        return args

    def full(*args: Any, **kwargs: Any) -> Any:
        return ("full", args, kwargs)

    f = fastpath(native, full, nargs=(1, 2), defaults=(7, 0, False), keywords=("axis", "keepdims"))
    assert f(1) == (1, 7, 0, False)
    assert f(1, 2, axis=3) == (1, 2, 3, False)
    assert f(1, keepdims=True, axis=-1) == (1, 7, -1, True)  # any order
    name = "".join(["ax", "is"])  # a keyword name that is not the interned string
    assert f(1, **{name: 5}) == (1, 7, 5, False)
    assert f(1, out=None) == ("full", (1,), {"out": None})  # a keyword native does not take
    assert f(1, 2, 3) == ("full", (1, 2, 3), {})
    assert len(calls) == 4
    with pytest.raises(ValueError, match="keywords"):
        fastpath(native, full, nargs=1, defaults=(0,), keywords=("axis", "keepdims"))
    with pytest.raises(ValueError, match="keywords"):
        fastpath(native, full, nargs=1, keywords=("axis",))


@needs_c
def test_fastpath_dtype_guard_follows_a_changed_type() -> None:
    # The guard calls the dtype getter of the last array type directly; patching the type
    # (here: a dtype that differs per instance) must take effect at once.
    class Sub(np.ndarray):
        pass

    log, native, full = _recorder()
    f = fastpath(native, full, nargs=2, same=(0, 1))
    a, b = np.zeros(3).view(Sub), np.ones(3).view(Sub)
    assert f(a, b) == "native" and f(a, b) == "native"
    Sub.dtype = property(lambda self: object())  # type: ignore[assignment,method-assign]
    assert f(a, b) == "full"
    del Sub.dtype  # back to ndarray's getter
    assert f(a, b) == "native"
    assert f(a, np.ones(3, "f4").view(Sub)) == "full"  # float64 next to float32


@needs_c
def test_type_switch_calls_by_first_argument_type() -> None:
    from ivy._cdispatch import TypeSwitch

    seen: list[Any] = []

    class Switch(TypeSwitch):  # type: ignore[misc]
        pass

    s = Switch()
    s._miss = lambda *a, **k: ("miss", a, k)
    s._by_type = {int: lambda *a, **k: ("int", a, k), str: lambda x: int(x)}
    assert s(1, 2, k=3) == ("int", (1, 2), {"k": 3})
    assert s(1.5) == ("miss", (1.5,), {}) and s() == ("miss", (), {})
    with pytest.raises(ValueError):  # no _on_error: the program's exception as it is
        s("x")

    def on_error(e: BaseException, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        seen.append((type(e), args, kwargs))
        return "handled"

    s._on_error = on_error
    assert s("x") == "handled" and seen == [(ValueError, ("x",), {})]
    assert s("7") == 7
    del s._miss
    with pytest.raises(TypeError, match="_miss"):
        s(1.5)


@needs_c
def test_compiled_call_runs_in_c_but_tracers_see_python() -> None:
    from ivy._functional.compile import Compiled

    c = Compiled(abs, None, {})
    c._by_type[int] = abs
    assert c(-3) == 3
    assert type(c).__call__ is _dispatch._traceable_call  # what torch.compile / paddle SOT follow
    assert c.__ivy_python__(-4) == 4 and c.__wrapped__ is abs


@needs_c
def test_dispatcher_sees_every_change_of_its_table() -> None:
    # The C object remembers its last lookup; any change of the table must show at once.
    from ivy._cdispatch import Dispatcher

    class A:
        pass

    table: dict[type, Callable[..., Any]] = {A: lambda a: "first"}
    d = Dispatcher(lambda a: "fallback", table, None, 1, 1, (0,), -1, -1)
    a = A()
    assert d(a) == "first" and d(a) == "first"
    table[A] = lambda a: "second"
    assert d(a) == "second"
    del table[A]
    assert d(a) == "fallback"
    table[A] = lambda a: "third"
    table[int] = lambda a: "an unrelated entry"
    assert d(a) == "third"


@needs_c
def test_keywords_naming_positional_parameters_take_the_table() -> None:
    # expand_dims(x, axis=-1), as libraries write it: moved to its position in C, the table's
    # implementation called positionally (no Python function in between)
    ivy.expand_dims(a, axis=0)
    table = _dispatch.TABLES["expand_dims"]
    seen = []
    orig = table[np.ndarray]
    table[np.ndarray] = lambda *xs, **kw: seen.append((len(xs), tuple(kw))) or orig(*xs, **kw)
    try:
        assert ivy.expand_dims(a, axis=1).shape == (4, 1)
        assert ivy.reshape(a, shape=(2, 2)).shape == (2, 2)  # another table: not recorded
        assert ivy.expand_dims(a, 0).shape == (1, 4)
    finally:
        table[np.ndarray] = orig
    assert seen == [(2, ()), (2, ())]
    # moved next to an option left as a keyword
    ivy.reshape(a, (4,))
    rt = _dispatch.TABLES["reshape"]
    orig_r = rt[np.ndarray]
    rt[np.ndarray] = lambda *xs, **kw: seen.append((len(xs), tuple(kw))) or orig_r(*xs, **kw)
    try:
        r = ivy.reshape(a, shape=(2, 2), copy=True)
    finally:
        rt[np.ndarray] = orig_r
    assert seen[-1] == (2, ("copy",)) and r.shape == (2, 2) and not np.shares_memory(r, a)


@needs_c
def test_dispatcher_calls_a_plain_fast_path_by_its_native_function() -> None:
    from ivy._cdispatch import Dispatcher

    class A:
        pass

    log: list[Any] = []

    def native(x: Any, *rest: Any) -> Any:
        log.append(("native", len(rest)))
        if rest and rest[0] == "unsupported":
            raise NotImplementedError("no kernel")
        if rest and rest[0] == "bad":
            raise ValueError("bad input")
        return "native"

    def full(x: Any, *rest: Any, **kw: Any) -> Any:
        log.append(("full", len(rest), tuple(kw)))
        return "full"

    fp = fastpath(native, full, nargs=(1, 2), retry=NotImplementedError)
    table: dict[type, Callable[..., Any]] = {A: fp}
    d = Dispatcher(lambda *a, **k: "fallback", table, frozenset({"k"}), 1, 2, (0,), -1, -1)
    x = A()
    assert d(x) == "native" and d(x, 1) == "native"
    assert d(x, "unsupported") == "full"  # the fast path's retry
    with pytest.raises(ValueError, match="bad input"):
        d(x, "bad")
    assert d(x, k=1) == "full"  # a keyword: through the FastPath, which hands it to full
    assert log == [("native", 0), ("native", 1), ("native", 1), ("full", 1, ()), ("native", 1), ("full", 0, ("k",))]

    # A table changed while the native function runs (the FastPath may be gone): the Python
    # function gets the call.
    def dropping(x: Any) -> Any:
        table.clear()
        raise NotImplementedError("no kernel")

    table[A] = fastpath(dropping, full, nargs=1, retry=NotImplementedError)
    assert d(x) == "fallback"  # first call: the lookup; the table is changed during it
    assert table == {}


@needs_c
def test_fastpath_leaves_out_the_native_defaults_the_call_does_not_give() -> None:
    calls: list[tuple[Any, ...]] = []

    def native(*args: Any) -> tuple[Any, ...]:
        calls.append(args)
        return args

    def full(*args: Any, **kwargs: Any) -> Any:
        return ("full", args, kwargs)

    # like torch.sum(x, dim, keepdim): both defaults are the framework's own
    f = fastpath(
        native,
        full,
        nargs=1,
        defaults=(None, False),
        keywords=("axis", "keepdims"),
        native_defaults=2,
        keyword_types=((int,), bool),
    )
    assert f(1) == (1,)
    assert f(1, axis=-1) == (1, -1)
    assert f(1, keepdims=True) == (1, None, True)  # a later one given: the earlier default filled in
    assert f(1, keepdims=True, axis=2) == (1, 2, True)
    assert f(1, axis=()) == ("full", (1,), {"axis": ()})  # not an int
    assert f(1, axis=True) == ("full", (1,), {"axis": True})  # exact types: a bool is no int here
    assert f(1, keepdims=1) == ("full", (1,), {"keepdims": 1})
    # one native default of two: the first is always passed
    g = fastpath(native, full, nargs=(1, 2), defaults=(0, "x"), keywords=("mode",), native_defaults=1)
    assert g(1) == (1, 0) and g(1, 5) == (1, 5) and g(1, mode="y") == (1, 0, "y")
    with pytest.raises(ValueError, match="native_defaults"):
        fastpath(native, full, nargs=1, defaults=(0,), native_defaults=2)
    with pytest.raises(ValueError, match="keyword_types"):
        fastpath(native, full, nargs=1, defaults=(0,), keywords=("axis",), keyword_types=(int, int))


@needs_c
def test_natives_that_take_a_tuple_are_called_directly() -> None:
    # builtins.max takes its arguments as a tuple (METH_VARARGS | METH_KEYWORDS), like torch's and
    # paddle's functions: the C code calls it directly; errors and retries behave as before
    from ivy._cdispatch import Dispatcher

    class A(int):
        pass

    full_calls: list[tuple[Any, ...]] = []

    def full(*args: Any, **kwargs: Any) -> Any:
        full_calls.append(args)
        return "full"

    fp = fastpath(max, full, nargs=(1, 2), retry=TypeError)
    assert fp(3, 5) == 5 and fp([4, 2]) == 4
    assert fp(A(1), "x") == "full"  # max's TypeError: the full function
    with pytest.raises(ValueError, match="empty"):
        fp([])  # not a retry exception: max's own error
    d = Dispatcher(lambda *a, **k: "fallback", {A: fp}, None, 1, 2, (0, 1), -1, -1)
    assert d(A(3), A(5)) == 5 and d(A(7), A(2)) == 7
    assert d(A(1), "x") == "full"
    d2 = Dispatcher(lambda *a, **k: "fallback", {A: max}, None, 1, 2, (0, 1), -1, -1)
    assert d2(A(3), A(5)) == 5
    with pytest.raises(TypeError):
        d2(A(1), "x")
    assert full_calls == [(A(1), "x"), (A(1), "x")]


@needs_c
def test_context_dispatch_takes_an_explicit_backend_namespace() -> None:
    # ivy.zeros(..., backend=xp): the namespace's backend, decided in C; any other backend= (a
    # name, a module) and every unusual call go to the Python function, with the same results
    np_ns = ivy.backend_namespace("numpy")
    toy_ns = ivy.backend_namespace("toy")
    z = ivy.zeros
    with ivy.use_backend("toy"):
        for _ in range(2):  # the second call takes the cached namespace and keyword names
            r = z((2,), dtype="float32", backend=np_ns)
            assert isinstance(r, np.ndarray) and r.dtype == np.float32
        assert isinstance(z((2,), backend=np_ns), np.ndarray)  # backend= the only keyword
        assert isinstance(z((2,), backend="numpy"), np.ndarray)  # a name: the Python function
        assert isinstance(z((2,), backend=np), np.ndarray)  # the framework module
        assert type(z((2,), backend=toy_ns)).__name__ == "ToyArray"  # another namespace
        r = z((2,), backend=np_ns, dtype="int32")  # backend= not last: the Python function
        assert r.dtype == np.int32
        with pytest.raises(TypeError, match="zeros"):
            z((2,), dtpye="float32", backend=np_ns)  # a misspelt option still names the op
        assert type(z((2,))).__name__ == "ToyArray"  # no backend=: the context's
    with pytest.raises(Exception, match="backend"):
        z((2,), backend=object())
