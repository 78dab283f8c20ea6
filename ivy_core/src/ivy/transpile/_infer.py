"""Which frontend reads an object: inferred from the modules its types come from, matched against
each frontend's ``Frontend.modules``. Nothing is imported to decide (the object exists, so its
framework is imported already).

The evidence, strongest first:

1. the object itself: the modules of its type and of that type's bases (a ``class Net(nn.Module)``
   defined in ``__main__`` is a torch object), or a function's ``__module__``;
2. for a plain Python function: the frameworks its code refers to by global name (``torch.sin``,
   ``jnp.dot``, ``ivy.relu``);
3. the example inputs and ``params_v``: the modules of their array types.

The first level that names frontends decides (the inputs narrow a tie there); several frontends
left, or none at all, is an error naming the candidates and the installed frontends, and saying
to pass ``source=``.

A Python library (a module object) is read by the frontend whose framework its modules refer to:
every module object of the package (``sys.modules`` entries whose ``__name__`` is the package's or
starts with it and a dot) is scanned for the modules, functions and classes it holds.
"""

from __future__ import annotations

import sys
import types
from collections import Counter
from typing import Any

from ..errors import TranspileError
from ..plugin import Frontend
from ._frontends import KNOWN_PLUGINS, install_hint
from ._inputs import map_arrays

__all__ = ["infer_source", "infer_library_source", "owners_of_module"]


def _top(name: Any) -> str:
    return name.partition(".")[0] if isinstance(name, str) else ""


def owners_of_module(name: Any, fronts: dict[str, Frontend]) -> set[str]:
    top = _top(name)
    return {n for n, f in fronts.items() if top and top in f.modules}


def _of_type(t: type, fronts: dict[str, Frontend]) -> set[str]:
    out: set[str] = set()
    for c in getattr(t, "__mro__", (t,)):
        if c is object:
            continue
        out |= owners_of_module(getattr(c, "__module__", None), fronts)
        if out:  # the most derived framework class decides (a subclass of a framework class)
            break
    return out


def _unwrap(obj: Any) -> Any:
    import functools

    while True:
        if isinstance(obj, functools.partial):
            obj = obj.func
        elif isinstance(obj, types.MethodType):
            return obj
        elif isinstance(obj, types.FunctionType) and getattr(obj, "__wrapped__", None) is not None:
            obj = getattr(obj, "__wrapped__", None)  # (a functools.wraps decorator's function)
        else:
            return obj


def _of_object(obj: Any, fronts: dict[str, Frontend]) -> set[str]:
    obj = _unwrap(obj)
    if isinstance(obj, types.MethodType):  # model.forward: the instance decides
        return _of_object(obj.__self__, fronts) or owners_of_module(getattr(obj, "__module__", None), fronts)
    if isinstance(obj, (types.FunctionType, types.BuiltinFunctionType)):
        return owners_of_module(getattr(obj, "__module__", None), fronts)
    if isinstance(obj, type):
        return _of_type(obj, fronts)
    return _of_type(type(obj), fronts)


def _of_code(obj: Any, fronts: dict[str, Frontend]) -> set[str]:
    """The frameworks a plain Python function refers to by global name (one level deep)."""
    obj = _unwrap(obj)
    fn = obj.__func__ if isinstance(obj, types.MethodType) else obj
    code = getattr(fn, "__code__", None)
    glb = getattr(fn, "__globals__", None)
    if code is None or glb is None:
        return set()
    out: set[str] = set()
    names: list[str] = []
    stack = [code]
    while stack:
        c = stack.pop()
        names.extend(c.co_names)
        stack.extend(k for k in c.co_consts if isinstance(k, types.CodeType))
    for name in names:
        value = glb.get(name)
        if value is None:
            continue
        if isinstance(value, types.ModuleType):
            out |= owners_of_module(value.__name__, fronts)
        elif callable(value):
            out |= owners_of_module(getattr(value, "__module__", None), fronts)
    return out


def _of_inputs(trees: tuple[Any, ...], fronts: dict[str, Frontend]) -> set[str]:
    out: set[str] = set()

    def visit(x: Any) -> Any:
        out.update(_of_type(type(x), fronts))
        return x

    for tree in trees:
        map_arrays(visit, tree)
        _visit_non_arrays(tree, fronts, out)
    return out


def _visit_non_arrays(tree: Any, fronts: dict[str, Frontend], out: set[str]) -> None:
    # arrays of a framework whose backend is not installed are not "arrays" to Ivy, but their
    # type still names their framework (a frontend may exist without a backend)
    t = type(tree)
    if t in (tuple, list):
        for x in tree:
            _visit_non_arrays(x, fronts, out)
    elif isinstance(tree, dict):
        for x in tree.values():
            _visit_non_arrays(x, fronts, out)
    elif hasattr(tree, "shape") and hasattr(tree, "dtype"):
        out.update(_of_type(t, fronts))


def _installed(fronts: dict[str, Frontend]) -> str:
    return ", ".join(f"{n} (modules: {', '.join(f.modules)})" for n, f in fronts.items())


def _describe(obj: Any) -> str:
    t = type(obj)
    name = getattr(obj, "__qualname__", None) or getattr(obj, "__name__", None)
    if (
        callable(obj)
        and name
        and not isinstance(obj, type)
        and t.__name__ in ("function", "builtin_function_or_method")
    ):
        return f"the function {name!r} (module {getattr(obj, '__module__', '?')})"
    return f"a {t.__module__}.{t.__qualname__}"


def infer_source(
    obj: Any, args: tuple[Any, ...], kwargs: dict[str, Any], params_v: Any, fronts: dict[str, Frontend]
) -> str:
    """The name of the frontend that reads ``obj`` (see the module docstring).

    Raises:
        TranspileError: no frontend, or several, match (the message lists them and says to pass
            ``source=``).
    """
    from_inputs = _of_inputs((args, kwargs, params_v), fronts)
    levels = [("its type", _of_object(obj, fronts))]
    if isinstance(_unwrap(obj), (types.FunctionType, types.MethodType)):
        levels.append(("the modules its code refers to", _of_code(obj, fronts)))
    levels.append(("the example inputs", from_inputs))
    for what, found in levels:
        if not found:
            continue
        narrowed = found & from_inputs if found & from_inputs else found
        if len(narrowed) == 1:
            return next(iter(narrowed))
        raise TranspileError(
            f"cannot tell which framework {_describe(obj)} is written in: {what} match(es) the frontends "
            f"{', '.join(sorted(narrowed))}. Pass source= one of them"
        )
    hints = sorted({h for m in _modules_seen(obj, (args, kwargs, params_v)) if (h := install_hint(m)) is not None})
    raise TranspileError(
        f"no installed transpiler frontend reads {_describe(obj)}: neither its type, its code nor the example "
        f"inputs come from a framework a frontend declares. "
        + (f"{'; '.join(hints)}. " if hints else "")
        + f"Installed frontends: {_installed(fronts)}. Pass source=, give example inputs of the source framework, "
        "or install the plugin of its framework"
    )


def _modules_seen(obj: Any, trees: Any) -> set[str]:
    """The top-level modules the object's type, its code and the inputs' types come from (to
    name the plugin to install where no frontend matched)."""
    everything = {name: Frontend(name=name, modules=(name,), load="_:_") for name in KNOWN_PLUGINS}
    return _of_object(obj, everything) | _of_code(obj, everything) | _of_inputs(trees, everything)


def library_modules(lib: types.ModuleType) -> list[types.ModuleType]:
    """The module objects of the package ``lib`` that are imported: by ``__name__``, never by file path."""
    root = lib.__name__
    return [
        m
        for name, m in list(sys.modules.items())
        if isinstance(m, types.ModuleType) and (name == root or name.startswith(root + "."))
    ]


def infer_library_source(lib: types.ModuleType, fronts: dict[str, Frontend]) -> str:
    """The frontend whose framework the library's modules use (a clear majority of what they
    hold from frameworks; see the module docstring)."""
    votes: Counter[str] = Counter()
    for m in library_modules(lib):
        for value in list(vars(m).values()):
            if isinstance(value, types.ModuleType):
                found = owners_of_module(value.__name__, fronts)
            elif callable(value):
                found = owners_of_module(getattr(value, "__module__", None), fronts)
            else:
                continue
            votes.update(found)
    ranked = votes.most_common()
    if ranked and (len(ranked) == 1 or ranked[0][1] >= 2 * ranked[1][1]):
        return ranked[0][0]
    if ranked:
        counts = ", ".join(f"{n} ({c} references)" for n, c in ranked)
        raise TranspileError(
            f"cannot tell which framework the library {lib.__name__!r} is written in: its modules refer to {counts}. "
            "Pass source="
        )
    raise TranspileError(
        f"the library {lib.__name__!r} refers to no framework an installed transpiler frontend reads. Installed "
        f"frontends: {_installed(fronts)}. Pass source=, or install the plugin of its framework"
    )
