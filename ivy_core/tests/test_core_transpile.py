"""``ivy.transpile`` without a framework: the frontend registry, source inference, targets, errors
and the command line, with a tiny framework ``minifw`` and its frontend registered at run time
(the NumPy backend computes; the real frontends are tested with their plugins)."""

from __future__ import annotations

import subprocess
import sys
import tempfile
import types
import warnings
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import pytest

import ivy
from ivy import _registry
from ivy.errors import PluginValidationError, TranspileError, UnsupportedOpsError
from ivy.plugin import Frontend, FrontendImpl, hookimpl
from ivy.transpile import _frontends

# --------------------------------------------------------------------------- a tiny framework


def _make_minifw() -> types.ModuleType:
    """``minifw``: programs are lists of ops on one input; layers own parameters (NumPy arrays)."""
    fw = types.ModuleType("minifw")

    class Program:
        def __init__(self, ops: list[tuple[Any, ...]]):
            self.ops = ops

        def __call__(self, x: Any) -> Any:  # what the framework computes, for the reference
            return _run_numpy(self, x)

    class Layer(Program):
        def __init__(self, ops: list[tuple[Any, ...]], params: dict[str, Any], buffers: dict[str, Any] | None = None):
            super().__init__(ops)
            self.params = params
            self.buffers = buffers or {}
            self.training = True

        def train(self, mode: bool = True) -> None:
            self.training = mode

        def named_parameters(self) -> list[tuple[str, Any]]:
            return list(self.params.items())

        def named_buffers(self) -> list[tuple[str, Any]]:
            return list(self.buffers.items())

    for cls in (Program, Layer):
        cls.__module__ = "minifw"
        cls.__qualname__ = cls.__name__
        setattr(fw, cls.__name__, cls)
    return fw


def _run_numpy(p: Any, x: Any) -> Any:
    values = {**getattr(p, "params", {}), **getattr(p, "buffers", {})}
    for op in p.ops:
        if op[0] == "matmul":
            x = x @ values[op[1]]
        elif op[0] == "add":
            x = x + values[op[1]]
        elif op[0] == "scale":
            x = x * op[1]
        elif op[0] == "relu":
            x = np.maximum(x, 0)
    return x


def _mini_run(p: Any) -> Callable[..., Any]:
    def run(values: dict[str, Any], x: Any) -> Any:
        for op in p.ops:
            if op[0] == "matmul":
                x = ivy.matmul(x, values[op[1].replace(".", "/")])
            elif op[0] == "add":
                x = ivy.add(x, values[op[1].replace(".", "/")])
            elif op[0] == "scale":
                x = ivy.multiply(x, op[1])
            elif op[0] == "relu":
                x = ivy.relu(x)
        return x

    return run


KNOWN = {"matmul", "add", "scale", "relu"}


def _mini_to_graph(obj: Any, args: tuple[Any, ...], kwargs: dict[str, Any], params_v: Any) -> Any:
    bad = {op[0]: [f"op {i}"] for i, op in enumerate(obj.ops) if op[0] not in KNOWN}
    if bad:
        raise UnsupportedOpsError("minifw", bad)
    if any(op[0] == "explode" for op in obj.ops):
        raise RuntimeError("boom")
    params = {k.replace(".", "/"): v for k, v in getattr(obj, "params", {}).items()}
    buffers = {k.replace(".", "/"): v for k, v in getattr(obj, "buffers", {}).items()}
    run = _mini_run(obj)
    if buffers:
        inner = run

        def run(values: dict[str, Any], x: Any) -> Any:  # (a program with buffers returns updates)
            return inner(values, x), {}

    return ivy.plugin_kit.trace_program(
        run, params=params, buffers=buffers, args=args, name="mini", training=getattr(obj, "training", False)
    )


def _mini_kind(obj: Any) -> str | None:
    if type(obj).__name__ == "Layer":
        return "module"
    if type(obj).__name__ == "Program":
        return "function"
    return None


def mini_impl() -> FrontendImpl:
    return FrontendImpl(kind=_mini_kind, to_graph=_mini_to_graph, op_set=lambda: {o: f"ivy.{o}" for o in KNOWN})


MINI = Frontend(name="mini", modules=("minifw",), load=mini_impl, description="the test framework")


@pytest.fixture(scope="module")
def minifw() -> Iterator[types.ModuleType]:
    fw = _make_minifw()
    sys.modules["minifw"] = fw
    try:
        yield fw
    finally:
        sys.modules.pop("minifw", None)


@pytest.fixture
def register() -> Iterator[Callable[..., None]]:
    """``register(label, hook)``: a plugin named ``label`` whose ``ivy_register_frontends`` is
    ``hook(register)``, registered with Ivy's plugin manager for one test."""
    pm = _registry.plugin_manager()
    added: list[Any] = []

    def add(label: str, hook: Callable[[Callable[[Any], None]], None]) -> None:
        plugin = types.ModuleType(label.replace(" ", "_"))

        @hookimpl
        def ivy_register_frontends(register: Callable[[Any], None]) -> None:
            hook(register)

        plugin.ivy_register_frontends = ivy_register_frontends  # type: ignore[attr-defined]
        pm.register(plugin, name=label)
        added.append(plugin)
        _frontends.refresh()

    try:
        yield add
    finally:
        for p in added:
            pm.unregister(p)
        _frontends.refresh()


@pytest.fixture
def mini(
    minifw: types.ModuleType, register: Callable[..., None], tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> Any:
    monkeypatch.setenv("IVY_CACHE_DIR", str(tmp_path / "cache"))
    register("ivy-mini 1.0", lambda reg: reg(MINI))
    return minifw


# --------------------------------------------------------------------------- the registry


def test_frontends_lists_core_and_registered_ones(mini: Any) -> None:
    fronts = ivy.transpile.frontends()
    assert list(fronts)[0] == "ivy"
    assert fronts["mini"] is MINI
    assert _frontends.frontend_label("mini") == "ivy-mini 1.0"


@pytest.mark.parametrize(
    ("registered", "why"),
    [
        ("not a frontend", "registered a str, not an ivy.plugin.Frontend"),
        (Frontend(name="bad name", modules=("x",), load=mini_impl), "is not an identifier"),
        (Frontend(name="ivy", modules=("x",), load=mini_impl), "which is core's own"),
        (Frontend(name="other", modules=(), load=mini_impl), "non-empty tuple of top-level module names"),
        (Frontend(name="other", modules=["x"], load=mini_impl), "non-empty tuple"),  # type: ignore[arg-type]
        (Frontend(name="other", modules=("x",), load="no_colon"), "'package.module:function'"),
        (Frontend(name="other", modules=("x",), load=42), "neither a 'module:function' string nor a callable"),  # type: ignore[arg-type]
    ],
)
def test_bad_registrations_are_left_out_naming_the_plugin(register: Any, registered: Any, why: str) -> None:
    register("ivy-broken 0.3", lambda reg: reg(registered))
    with pytest.warns(UserWarning, match="ivy-broken 0.3") as rec:
        fronts = ivy.transpile.frontends()
    assert why in str(rec[0].message)
    assert "ivy" in fronts and "other" not in fronts
    assert any(why in p for p in _frontends.problems())


def test_a_name_registered_twice_keeps_the_first_and_names_both(minifw: Any, register: Any) -> None:
    register("ivy-mini 1.0", lambda reg: reg(MINI))
    register("ivy-mini-fork 2.0", lambda reg: reg(Frontend(name="mini", modules=("minifw",), load=mini_impl)))
    with pytest.warns(UserWarning, match="ivy-mini-fork 2.0: registered the frontend 'mini', which ivy-mini 1.0"):
        assert _frontends.frontend_label("mini") == "ivy-mini 1.0"


def test_a_hook_that_raises_leaves_the_other_plugins_working(minifw: Any, register: Any) -> None:
    def broken(reg: Any) -> None:
        raise ImportError("its framework is missing")

    register("ivy-mini 1.0", lambda reg: reg(MINI))
    register("ivy-crashes 0.1", broken)
    with pytest.warns(UserWarning, match="ivy-crashes 0.1: its ivy_register_frontends hook raised ImportError"):
        assert "mini" in ivy.transpile.frontends()


def test_a_frontend_that_fails_to_load_names_its_plugin(minifw: Any, register: Any) -> None:
    def load() -> FrontendImpl:
        raise ModuleNotFoundError("No module named 'minifw_core'")

    register("ivy-mini 1.0", lambda reg: reg(Frontend(name="mini", modules=("minifw",), load=load)))
    prog = minifw.Program([("relu",)])
    with pytest.raises(
        TranspileError, match=r"the 'mini' transpiler frontend of ivy-mini 1.0 failed to load: .*minifw_core"
    ):
        ivy.transpile(prog, to="numpy", args=(np.ones(3),))


def test_a_load_that_returns_something_else_is_a_validation_error(minifw: Any, register: Any) -> None:
    register("ivy-mini 1.0", lambda reg: reg(Frontend(name="mini", modules=("minifw",), load=lambda: {"kind": 1})))
    with pytest.raises(PluginValidationError, match=r"ivy-mini 1.0: the 'mini' frontend's load\(\) returned a dict"):
        ivy.transpile(minifw.Program([("relu",)]), to="numpy", args=(np.ones(3),))


def test_load_by_string_imports_the_module_on_first_use(minifw: Any, register: Any) -> None:
    impl_mod = types.ModuleType("ivy_mini_impl_for_test")
    impl_mod.load = mini_impl  # type: ignore[attr-defined]
    sys.modules["ivy_mini_impl_for_test"] = impl_mod
    try:
        register(
            "ivy-mini 1.0",
            lambda reg: reg(Frontend(name="mini", modules=("minifw",), load="ivy_mini_impl_for_test:load")),
        )
        out = ivy.transpile(minifw.Program([("scale", 3.0)]), to="numpy", args=(np.ones(2, "float32"),), cache=False)
        np.testing.assert_allclose(out(np.ones(2, "float32")), [3.0, 3.0])
    finally:
        del sys.modules["ivy_mini_impl_for_test"]


# --------------------------------------------------------------------------- inference


def test_the_source_is_inferred_from_the_objects_type(mini: Any) -> None:
    from ivy.transpile._infer import infer_source

    fronts = ivy.transpile.frontends()
    assert infer_source(mini.Program([]), (np.ones(2),), {}, None, fronts) == "mini"

    class Sub(mini.Layer):  # a user's subclass, defined outside the framework
        pass

    assert infer_source(Sub([], {}), (), {}, None, fronts) == "mini"
    assert infer_source(ivy.Linear(2, 3), (np.ones(2),), {}, None, fronts) == "ivy"


def test_a_function_is_read_by_the_framework_its_code_refers_to(mini: Any) -> None:
    from ivy.transpile._infer import infer_source

    fronts = ivy.transpile.frontends()

    def uses_ivy(x: Any) -> Any:
        return ivy.relu(x)

    glb = {"minifw": mini}
    uses_mini = types.FunctionType(
        compile("def f(x):\n    return minifw.Program([])\n", "<t>", "exec").co_consts[0], glb
    )
    assert infer_source(uses_ivy, (np.ones(2),), {}, None, fronts) == "ivy"
    assert infer_source(uses_mini, (np.ones(2),), {}, None, fronts) == "mini"


def test_an_ambiguous_or_unknown_source_asks_for_source(mini: Any) -> None:
    from ivy.transpile._infer import infer_source

    # (the frontends of this test only: the plugins installed here may add a NumPy frontend)
    fronts = {n: f for n, f in ivy.transpile.frontends().items() if n in ("ivy", "mini")}
    both = types.FunctionType(
        compile("def f(x):\n    return minifw, ivy\n", "<t>", "exec").co_consts[0], {"minifw": mini, "ivy": ivy}
    )
    with pytest.raises(TranspileError, match=r"match\(es\) the frontends ivy, mini\. Pass source="):
        infer_source(both, (np.ones(2),), {}, None, fronts)

    def plain(x: Any) -> Any:
        return x

    with pytest.raises(
        TranspileError, match=r"no installed transpiler frontend reads the function .*Installed frontends: ivy"
    ):
        infer_source(plain, (np.ones(2),), {}, None, fronts)


def test_source_chooses_and_an_unknown_one_is_named(mini: Any) -> None:
    def plain(x: Any) -> Any:
        return ivy.multiply(x, 2.0)

    out = ivy.transpile(plain, source="ivy", to="numpy", args=(np.ones(2, "float32"),))
    np.testing.assert_allclose(out(np.ones(2, "float32")), [2.0, 2.0])
    with pytest.raises(
        TranspileError, match=r"no transpiler frontend named 'caffe' is installed; installed: ivy, .*mini"
    ):
        ivy.transpile(plain, source="caffe", to="numpy", args=(np.ones(2),))


def test_a_library_is_read_by_the_framework_its_modules_use(mini: Any) -> None:
    from ivy.transpile._infer import infer_library_source

    pkg = types.ModuleType("minilib")
    sub = types.ModuleType("minilib.ops")
    sub.fw = mini  # type: ignore[attr-defined]
    sub.Program = mini.Program  # type: ignore[attr-defined]
    sys.modules.update({"minilib": pkg, "minilib.ops": sub})
    try:
        assert infer_library_source(pkg, ivy.transpile.frontends()) == "mini"
    finally:
        del sys.modules["minilib"], sys.modules["minilib.ops"]


# --------------------------------------------------------------------------- targets and errors


def test_an_unknown_target_names_the_installed_backends() -> None:
    with pytest.raises(
        TranspileError, match=r"cannot transpile to 'caffe2': no such backend is installed\. Installed backends: numpy"
    ):
        ivy.transpile(lambda x: x, to="caffe2", args=(np.ones(2),))
    with pytest.raises(TypeError, match="to= names the target"):
        ivy.transpile(lambda x: x, to=None, args=(np.ones(2),))  # type: ignore[arg-type]


def test_a_module_cannot_go_to_numpy(mini: Any) -> None:
    layer = mini.Layer([("matmul", "w")], {"w": np.ones((2, 3), "float32")})
    with pytest.raises(
        TranspileError, match=r"cannot transpile a module to 'numpy': numpy has no automatic differentiation"
    ):
        ivy.transpile(layer, to="numpy", args=(np.ones((1, 2), "float32"),))


def test_unsupported_ops_are_all_listed(mini: Any) -> None:
    prog = mini.Program([("relu",), ("fft_magic",), ("scale", 2.0), ("gather_weird",)])
    with pytest.raises(UnsupportedOpsError) as info:
        ivy.transpile(prog, to="numpy", args=(np.ones(2, "float32"),))
    assert set(info.value.ops) == {"fft_magic", "gather_weird"}
    assert "uses 2 minifw op(s) that Ivy's minifw frontend cannot translate" in str(info.value)


def test_a_frontend_crash_names_the_object_frontend_and_plugin(mini: Any) -> None:
    prog = mini.Program([("relu",), ("explode",)])
    KNOWN.add("explode")
    try:
        with pytest.raises(
            TranspileError,
            match=r"reading a minifw.Program with the 'mini' frontend \(ivy-mini 1.0\) failed: RuntimeError: boom",
        ):
            ivy.transpile(prog, to="numpy", args=(np.ones(2, "float32"),), cache=False)
    finally:
        KNOWN.discard("explode")


def test_an_object_the_frontend_does_not_read_is_refused(mini: Any) -> None:
    with pytest.raises(TranspileError, match=r"the 'mini' frontend .* does not read a builtins.int"):
        ivy.transpile(3, source="mini", to="numpy")


# --------------------------------------------------------------------------- what comes back


def test_a_function_becomes_the_targets_program_and_ivy_gives_the_graph(mini: Any) -> None:
    prog = mini.Program([("scale", 2.0), ("relu",)])
    x = np.array([[-1.0, 2.0, 3.0]], "float32")
    out = ivy.transpile(prog, to="numpy", args=(x,))
    assert isinstance(out(x), np.ndarray)
    np.testing.assert_allclose(out(x), prog(x))
    g = ivy.transpile(prog, to="ivy", args=(x,))
    assert isinstance(g, ivy.Graph) and g.ops() == {"multiply": 1, "relu": 1}


def test_a_module_to_ivy_is_an_ivy_module_with_the_weights(mini: Any) -> None:
    w, b = np.arange(6, dtype="float32").reshape(2, 3), np.ones(3, "float32")
    layer = mini.Layer([("matmul", "fc.w"), ("add", "fc.b"), ("relu",)], {"fc.w": w, "fc.b": b})
    x = np.array([[1.0, -2.0]], "float32")
    m = ivy.transpile(layer, to="ivy", args=(x,))
    assert isinstance(m, ivy.Module)
    assert sorted(m.v.to_flat_dict()) == ["fc/b", "fc/w"]
    np.testing.assert_allclose(ivy.to_numpy(m(x)), layer(x))


def test_example_inputs_of_another_framework_are_converted(mini: Any) -> None:
    seen = []

    def f(x: Any) -> Any:
        seen.append(type(x))
        return ivy.sin(x)

    lazy = ivy.transpile(f, source="ivy", to="numpy")
    assert isinstance(lazy, ivy.transpile.LazyFunction)
    np.testing.assert_allclose(lazy([0.0, 1.0]), np.sin([0.0, 1.0]))  # (a list is not an array: a static value)


# --------------------------------------------------------------------------- import and CLI


def test_importing_the_transpiler_imports_no_framework(run_py: Any) -> None:
    proc = run_py(
        "import sys, ivy, ivy.transpile\n"
        "assert callable(ivy.transpile) and ivy.transpile.frontends()\n"
        "bad = [m for m in ('numpy', 'torch', 'jax', 'tensorflow', 'paddle') if m in sys.modules]\n"
        "assert not bad, bad\n"
    )
    assert proc.returncode == 0, proc.stderr


def test_ivy_transpile_is_the_function_and_the_module_is_callable_too() -> None:
    import importlib

    mod = importlib.import_module("ivy.transpile")
    out = mod(lambda x: ivy.negative(x), source="ivy", to="numpy", args=(np.ones(2, "float32"),))
    np.testing.assert_allclose(out(np.ones(2, "float32")), [-1.0, -1.0])


def test_cli_transpile_prints_a_standalone_program(tmp_path: Any) -> None:
    (tmp_path / "clifn.py").write_text("import ivy\n\ndef f(x, w):\n    return ivy.tanh(ivy.matmul(x, w))\n")
    env_py = (
        f"import sys; sys.path.insert(0, {str(tmp_path)!r}); from ivy._cli import main; sys.exit(main(sys.argv[1:]))"
    )
    proc = subprocess.run(
        [
            sys.executable,
            "-c",
            env_py,
            "transpile",
            "clifn:f",
            "--to",
            "numpy",
            "--input",
            "float32[2,3]",
            "--input",
            "float32[3,4]",
            "--no-cache",
        ],
        capture_output=True,
        text=True,
        timeout=900,
        cwd=tempfile.gettempdir(),
    )
    assert proc.returncode == 0, proc.stderr
    ns: dict[str, Any] = {}
    exec(proc.stdout, ns)
    x, w = np.ones((2, 3), "float32"), np.full((3, 4), 0.1, "float32")
    np.testing.assert_allclose(ns["forward"](x, w), np.tanh(x @ w), rtol=1e-6)
    assert "transpiled the function clifn:f from ivy to numpy: 2 nodes" in proc.stderr
    bad = subprocess.run(
        [sys.executable, "-c", env_py, "transpile", "clifn:f", "--to", "caffe", "--input", "float32[2]"],
        capture_output=True,
        text=True,
        timeout=900,
        cwd=tempfile.gettempdir(),
    )
    assert bad.returncode == 1 and "no such backend is installed" in bad.stderr


def test_cli_plugins_lists_the_frontends() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "ivy", "plugins", "--no-load"],
        capture_output=True,
        text=True,
        timeout=900,
        cwd=tempfile.gettempdir(),
    )
    assert "transpiler frontends" in proc.stdout
    assert "  ivy          ivy-core (built in); reads ivy" in proc.stdout


def test_no_warning_when_every_plugin_registers_well(mini: Any) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert "mini" in ivy.transpile.frontends()


# --------------------------------------------------------------------------- more errors, progress, the CLI in-process


def test_a_framework_without_a_frontend_names_the_plugin_to_install() -> None:
    from ivy.transpile._infer import infer_source

    class Layer:  # an object of a framework Ivy's plugins read, none of whose frontends is here
        pass

    Layer.__module__ = "paddle.nn.layer"
    fronts = {"ivy": _frontends.IVY}
    with pytest.raises(TranspileError, match=r"ivy-paddle.*pip install (-U )?ivy-paddle"):
        infer_source(Layer(), (), {}, None, fronts)
    Layer.__module__ = "caffe.layers"  # a framework no plugin of Ivy reads: no install line
    with pytest.raises(TranspileError, match=r"no installed transpiler frontend reads") as e:
        infer_source(Layer(), (), {}, None, fronts)
    assert "pip install" not in str(e.value)


def test_an_unknown_source_that_a_plugin_reads_names_its_install_line() -> None:
    msg = str(_frontends.unknown_source("keras"))
    assert "no transpiler frontend named 'keras' is installed" in msg and "ivy-tensorflow" in msg
    assert "pip install" in msg


def test_a_graph_needs_example_inputs() -> None:
    def f(x: Any) -> Any:
        return ivy.sin(x)

    with pytest.raises(TranspileError, match=r"no example inputs for the function .*f.*Pass args="):
        ivy.transpile(f, source="ivy", to="ivy")
    lazy = ivy.transpile(f, source="ivy", to="numpy")  # to a backend: transpiled on its first call
    assert isinstance(lazy, ivy.transpile.LazyFunction)
    np.testing.assert_allclose(lazy(np.ones(2, "float32")), np.sin(np.ones(2, "float32")), rtol=1e-6)


def test_each_step_is_logged_as_it_starts(mini: Any, caplog: pytest.LogCaptureFixture) -> None:
    layer = mini.Layer([("matmul", "w"), ("relu",)], {"w": np.ones((2, 3), "float32")})
    with caplog.at_level("INFO", logger="ivy.transpile"):
        ivy.transpile(layer, to="ivy", args=(np.ones((1, 2), "float32"),), cache=False)
    messages = [r.getMessage() for r in caplog.records]
    assert any(m.startswith("reading a minifw.Layer with the mini frontend") for m in messages), messages
    assert any(m.startswith("read a minifw.Layer: 2 nodes, 1 parameters") for m in messages), messages
    assert any(m.startswith("transpiled a minifw.Layer from mini to ivy in") for m in messages), messages


@pytest.fixture
def cli(tmp_path: Any, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> Callable[..., Any]:
    """``cli(*argv) -> (status, stdout, stderr)``: ``python -m ivy`` in this process, with
    ``tmp_path`` as the working directory holding ``clinet.py``."""
    (tmp_path / "clinet.py").write_text(
        "import numpy as np\nimport ivy\n\n\ndef f(x, w):\n    return ivy.tanh(ivy.matmul(x, w))\n\n\n"
        "def net():\n    with ivy.use_backend('numpy'):\n        ivy.seed(0)\n"
        "        m = ivy.Sequential(ivy.Linear(3, 4), ivy.ReLU(), ivy.Linear(4, 2))\n"
        "        m(np.ones((2, 3), 'float32'))\n    return m\n"
    )
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setenv("IVY_CACHE_DIR", str(tmp_path / "cache"))
    from ivy._cli import main

    def run(*argv: str) -> tuple[int, str, str]:
        status = main(list(argv))
        out, err = capsys.readouterr()
        return status, out, err

    # `python -m ivy` starts with no backend selected; other tests of this process may have set one
    prior = ivy.unset_backend()
    try:
        yield run
    finally:
        sys.modules.pop("clinet", None)
        if prior is not None:
            ivy.set_backend(prior)


def test_cli_without_example_inputs_says_how_to_give_them(cli: Any) -> None:
    status, out, err = cli("transpile", "clinet:f", "--to", "numpy")
    assert status == 1 and out == ""
    assert "no example inputs for clinet:f" in err and "--input float32[2,3]" in err


def test_cli_reads_npy_inputs_and_prints_the_ivy_graph_with_progress(cli: Any, tmp_path: Any) -> None:
    np.save(tmp_path / "x.npy", np.ones((2, 3), "float32"))
    status, out, err = cli("transpile", "clinet:f", "--to", "ivy", "--input", "x.npy", "--input", "float64[3,5]")
    assert status == 0, err
    assert "# x: float32[2, 3]  w: float64[3, 5]" in out and "ivy.tanh(" in out
    assert "ivy.transpile: reading the function 'f' with the ivy frontend" in err
    status, _, err = cli("transpile", "clinet:f", "--to", "ivy", "--input", "x.npy", "--input", "f32[3]", "-q")
    assert status == 2 and "'f32' is not a dtype; one of bool" in err
    assert "ivy.transpile:" not in err  # -q: no progress


def test_cli_writes_a_modules_program_and_its_weights(cli: Any, tmp_path: Any) -> None:
    prog = tmp_path / "prog.py"
    status, out, err = cli(
        "transpile", "clinet:net", "--call", "--to", "numpy", "--input", "float32[2,3]", "-o", str(prog), "-q"
    )
    assert status == 0, err
    assert out == "" and "transpiled the module clinet:net from ivy to numpy: 3 nodes, 4 parameters" in err
    ns: dict[str, Any] = {}
    exec(prog.read_text(), ns)
    params = ivy.safetensors.load_file(tmp_path / "prog.safetensors", backend="numpy")
    assert set(params) == {"layers/0/w", "layers/0/b", "layers/2/w", "layers/2/b"}
    import clinet

    x = np.random.default_rng(0).standard_normal((2, 3)).astype("float32")
    np.testing.assert_allclose(ns["forward"](params, x), clinet.net()(x), rtol=1e-5, atol=1e-6)


def test_a_target_named_otherwise_gets_a_suggestion() -> None:
    if "torch" in ivy.backends():  # (suggested only where installed)
        with pytest.raises(TranspileError, match=r"cannot transpile to 'pytorch' \(did you mean 'torch'\?\)"):
            ivy.transpile(lambda x: x, to="pytorch", args=(np.ones(2),))
    with pytest.raises(TranspileError, match=r"cannot transpile to 'numpyy' \(did you mean 'numpy'\?\)"):
        ivy.transpile(lambda x: x, to="numpyy", args=(np.ones(2),))


def test_cli_names_an_unknown_source(cli: Any) -> None:
    status, out, err = cli("transpile", "clinet:f", "--to", "numpy", "--source", "caffe", "--input", "float32[2]")
    assert status == 1 and out == "" and "no transpiler frontend named 'caffe' is installed" in err
