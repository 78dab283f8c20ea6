"""Source text of generated functions: parameter lists and call arguments from a signature.

Used by the public functions (``_dispatch``) and by the composed ops bound to a backend
(``_compose``): both generate a function with a spec's exact signature.
"""

from __future__ import annotations

import inspect
from typing import Any

__all__ = ["call_args", "param_source"]


def call_args(sig: inspect.Signature) -> str:
    out = []
    for p in sig.parameters.values():
        if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD):
            out.append(p.name)
        elif p.kind is p.VAR_POSITIONAL:
            out.append("*" + p.name)
        elif p.kind is p.KEYWORD_ONLY:
            out.append(f"{p.name}={p.name}")
        else:
            out.append("**" + p.name)
    return ", ".join(out)


def param_source(sig: inspect.Signature, defaults: dict[str, Any], prefix: str, with_backend: bool = True) -> str:
    """Parameter list source with defaults bound to generated global names."""
    parts: list[str] = []
    saw_posonly = saw_kwonly = False
    params = list(sig.parameters.values())
    for i, p in enumerate(params):
        if p.kind is p.KEYWORD_ONLY and not saw_kwonly:
            if not any(q.kind is q.VAR_POSITIONAL for q in params):
                parts.append("*")
            saw_kwonly = True
        if p.kind is p.VAR_POSITIONAL:
            saw_kwonly = True
            parts.append("*" + p.name)
        elif p.kind is p.VAR_KEYWORD:
            parts.append("**" + p.name)
        elif p.default is p.empty:
            parts.append(p.name)
        else:
            g = f"{prefix}d{i}"
            defaults[g] = p.default
            parts.append(f"{p.name}={g}")
        if p.kind is p.POSITIONAL_ONLY:
            saw_posonly = True
            nxt = params[i + 1] if i + 1 < len(params) else None
            if nxt is None or nxt.kind is not p.POSITIONAL_ONLY:
                parts.append("/")
    del saw_posonly
    if with_backend:
        if not saw_kwonly:
            parts.append("*")
        parts.append("backend=None")
    return ", ".join(parts)
