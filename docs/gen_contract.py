"""Generates docs/plugin-contract.md, the reference of the plugin contract and toolkit, from the
docstrings of ``ivy.plugin`` and ``ivy.plugin_kit`` (what ``help()`` shows).

    python docs/gen_contract.py          # rewrite docs/plugin-contract.md
    python docs/gen_contract.py --check  # exit 1 if it is out of date (run by the tests)
"""

from __future__ import annotations

import dataclasses
import inspect
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TARGET = os.path.join(HERE, "plugin-contract.md")


def _doc(obj: object) -> str:
    return inspect.cleandoc(obj.__doc__ or "")


def _signature(fn: object) -> str:
    try:
        return str(inspect.signature(fn))  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return "(...)"


def _show(value: object) -> str:
    if callable(value) and getattr(value, "__name__", "") == "<lambda>":
        return "lambda native: None" if "native" in str(inspect.signature(value)) else "lambda ..."  # type: ignore[arg-type]
    return repr(value)


def _cell(text: str) -> str:
    """``text`` as code in a cell of a Markdown table (whose columns ``|`` separates)."""
    return "`" + text.replace("|", "\\|") + "`"


def _dataclass(cls: type) -> list[str]:
    # a table of the fields, not a code block: a field listing is no snippet to run
    out = [f"### `{cls.__name__}`", "", "| field | type | default |", "| --- | --- | --- |"]
    for f in dataclasses.fields(cls):
        default = "(required)"
        if f.default is not dataclasses.MISSING:
            default = _cell(_show(f.default))
        elif f.default_factory is not dataclasses.MISSING:  # type: ignore[misc]
            default = _cell(repr(f.default_factory()))  # type: ignore[misc]
        out.append(f"| `{f.name}` | {_cell(str(f.type))} | {default} |")
    out += ["", _doc(cls), ""]
    return out


def render() -> str:
    import ivy.plugin as contract
    import ivy.plugin_kit as kit

    out = [
        "# The plugin contract and toolkit (reference)",
        "",
        "Generated from the docstrings of `ivy.plugin` and `ivy.plugin_kit` by `docs/gen_contract.py`;",
        "do not edit. The guide is [Writing a backend plugin](writing-a-backend-plugin.md).",
        "",
        "## `ivy.plugin`: the contract",
        "",
        _doc(contract),
        "",
        f"Plugin API version: `{contract.PLUGIN_API}`; "
        f"Array API revision of the specs: `{contract.ARRAY_API_VERSION}`.",
        "",
    ]
    for cls in (
        contract.BackendSpec,
        contract.BackendImpl,
        contract.DeviceKind,
        contract.Frontend,
        contract.FrontendImpl,
    ):
        out += _dataclass(cls)
    out += ["### Hooks (`IvyHookSpecs`)", ""]
    for name, fn in inspect.getmembers(contract.IvyHookSpecs, inspect.isfunction):
        sig = _signature(fn).replace("(self, ", "(")
        out += [f"#### `{name}{sig}`", "", _doc(fn), ""]
    out += [f"### `collect_ops{_signature(contract.collect_ops)}`", "", _doc(contract.collect_ops), ""]
    out += ["## `ivy.plugin_kit`: the toolkit", "", _doc(kit), ""]
    for name in kit.__all__:
        obj = getattr(kit, name)
        if callable(obj) and not isinstance(obj, type):
            out += [f"### `{name}{_signature(obj)}`", "", _doc(obj), ""]
        elif isinstance(obj, type) and getattr(obj, "_is_protocol", False):
            # a callback's type: its call signature, and every word of its docstring (the layouts)
            sig = _signature(obj.__call__)
            out += [f"### `{name}`", "", "```python", f"{name}.__call__{sig}", "```", "", _doc(obj), ""]
        elif isinstance(obj, type):
            out += [f"### `{name}`", "", _doc(obj).split("\n\n")[0], ""]
        else:
            out += [f"### `{name}`", "", f"`{obj!r}`" if len(repr(obj)) < 200 else "(a table)", ""]
    return "\n".join(out).rstrip() + "\n"


def main() -> int:
    text = render()
    if "--check" in sys.argv[1:]:
        with open(TARGET, encoding="utf-8") as f:
            if f.read() != text:
                print("docs/plugin-contract.md is out of date: run python docs/gen_contract.py")
                return 1
        return 0
    from ivy import _atomic

    _atomic.write_text(TARGET, text)  # (a crash never leaves half a page)
    print(f"wrote {TARGET}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
