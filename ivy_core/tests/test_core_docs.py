"""The API reference (docs/api.md) is generated from the specs and must be up to date."""

from __future__ import annotations

import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def test_core_api_reference_is_generated_from_the_current_specs() -> None:
    script = os.path.join(ROOT, "docs", "gen_api.py")
    p = subprocess.run([sys.executable, script, "--check"], capture_output=True, text=True)
    assert p.returncode == 0, p.stdout + p.stderr


def test_plugin_contract_reference_is_generated_from_the_docstrings() -> None:
    script = os.path.join(ROOT, "docs", "gen_contract.py")
    p = subprocess.run([sys.executable, script, "--check"], capture_output=True, text=True)
    assert p.returncode == 0, p.stdout + p.stderr


def test_transpiler_coverage_table_is_generated_from_the_frontends_op_sets() -> None:
    script = os.path.join(ROOT, "docs", "gen_transpile_coverage.py")
    p = subprocess.run([sys.executable, script, "--check"], capture_output=True, text=True)
    assert p.returncode == 0, p.stdout + p.stderr


def test_contract_fields_are_documented_for_help() -> None:
    import dataclasses

    from ivy import plugin

    for cls in (plugin.BackendSpec, plugin.BackendImpl, plugin.DeviceKind):
        doc = cls.__doc__ or ""
        missing = [f.name for f in dataclasses.fields(cls) if f"    {f.name}:" not in doc]
        assert not missing, f"{cls.__name__} does not document {missing} in its docstring"


def test_the_plugin_guide_documents_the_kits_options_profiles_and_times() -> None:
    import re

    from ivy import testing

    options: list[str] = []

    class _Group:
        def addoption(self, *names: str, **kwargs: object) -> None:
            options.append(names[0])

    class _Parser:
        def getgroup(self, *args: object) -> _Group:
            return _Group()

    testing.pytest_addoption(_Parser())  # type: ignore[arg-type]
    with open(os.path.join(ROOT, "docs", "writing-a-backend-plugin.md"), encoding="utf-8") as f:
        guide = f.read()
    assert len(options) >= 5, options
    undocumented = [o for o in options if o not in guide]
    assert not undocumented, f"docs/writing-a-backend-plugin.md does not mention the kit's options {undocumented}"
    for name in testing.PROFILES:
        row = re.search(rf"^\| `{name}` \|.*$", guide, re.M)
        assert row is not None, f"the guide's table of profiles has no row for {name!r}"
        times = re.findall(r"\d+(?:\.\d+)? (?:s|min)\b", row.group(0))
        assert len(times) >= 2, f"the guide states no time of the {name!r} profile: {row.group(0)}"
