"""The C fast path of a plugin's op: the framework's function called from C for plain calls."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .._dispatch import _cdispatch

__all__ = ["fastpath"]


def fastpath(
    native: Callable[..., Any],
    full: Callable[..., Any] | None = None,
    *,
    nargs: int | tuple[int, int],
    dtypes: frozenset[Any] | set[Any] | None = None,
    same: tuple[int, int] | None = None,
    retry: type[BaseException] | tuple[type[BaseException], ...] | None = None,
    defaults: tuple[Any, ...] | None = None,
    keywords: tuple[str, ...] | None = None,
    native_defaults: int = 0,
    keyword_types: tuple[type | tuple[type, ...] | None, ...] | None = None,
) -> Callable[..., Any]:
    """An op implementation that calls the framework's ``native`` function directly for the plain
    calls where it already has the standard's semantics, and ``full`` (the plugin's Python function,
    which must handle every call) for all others.

    A call is plain when it passes positional arguments only, ``nargs`` of them (a count or a
    ``(min, max)`` range), and the guards hold: ``dtypes``, the dtypes ``args[0].dtype`` may have;
    ``same``, two positions whose arrays must have equal dtypes. ``retry``: exceptions of ``native``
    (say, ``NotImplementedError`` for a dtype the framework lacks a kernel for) after which ``full``
    gets the call. ``defaults``: arguments ``native`` needs where the spec has defaults; ``native``
    gets the call's positional arguments followed by ``defaults[nargs - min:]`` (so
    ``fastpath(torch.cumsum, nargs=(1, 2), defaults=(0,))`` passes ``dim=0`` when the call omits
    ``axis``, and ``fastpath(torch.softmax, nargs=1, defaults=(-1,))`` always passes ``-1``).
    ``keywords``: names of the spec's keyword-only options that ``native`` takes positionally, one
    for each of the last ``len(keywords)`` defaults: a call may pass them by keyword and still be
    plain (``fastpath(torch.stack, nargs=1, defaults=(0,), keywords=("axis",))`` hands
    ``stack(xs, axis=1)`` to ``torch.stack(xs, 1)``); any other keyword makes a call not plain.
    ``native_defaults``: how many of the last ``defaults`` are ``native``'s own defaults too: those
    are passed only when the call gives one of them or a later one (``torch.sum(x)`` rather than
    ``torch.sum(x, None, False)``: frameworks parse every argument they get, ~50 ns each).
    ``keyword_types``: for each of ``keywords``, ``None`` or the exact types its value must have for
    the call to be plain (``(int,)`` for an axis where ``native`` reads ``()`` otherwise than the
    standard).

    It saves the interpreted frame of a wrapper (0.1-0.3 µs per call on torch or paddle): the check
    runs in C (``ivy._cdispatch``). Without the C extension (or with ``IVY_PURE_PYTHON=1``) it
    returns ``full`` itself, which by contract behaves the same. Example::

        add = fastpath(torch.add, _add, nargs=2, same=(0, 1), retry=NotImplementedError)

        @fastpath(torch.sum, nargs=1, dtypes=SUMMABLE)
        def sum(x, /, *, axis=None, dtype=None, keepdims=False): ...
    """
    if full is None:
        return lambda f: fastpath(
            native,
            f,
            nargs=nargs,
            dtypes=dtypes,
            same=same,
            retry=retry,
            defaults=defaults,
            keywords=keywords,
            native_defaults=native_defaults,
            keyword_types=keyword_types,
        )
    lo, hi = (nargs, nargs) if isinstance(nargs, int) else nargs
    if keywords is not None and (not keywords or len(defaults or ()) != hi - lo + len(keywords)):
        raise ValueError(
            f"fastpath of {getattr(full, '__name__', full)!r}: keywords={keywords!r} needs one default for "
            f"each optional positional argument and each keyword ({hi - lo + len(keywords)} defaults), "
            f"got defaults={defaults!r}"
        )
    if not 0 <= native_defaults <= len(defaults or ()):
        raise ValueError(
            f"fastpath of {getattr(full, '__name__', full)!r}: native_defaults={native_defaults} must be "
            f"between 0 and len(defaults) ({len(defaults or ())})"
        )
    kwtypes = None
    if keyword_types is not None:
        if keywords is None or len(keyword_types) != len(keywords):
            raise ValueError(
                f"fastpath of {getattr(full, '__name__', full)!r}: keyword_types needs one entry (None or "
                f"types) for each of keywords={keywords!r}"
            )
        kwtypes = tuple(t if t is None else (t,) if isinstance(t, type) else tuple(t) for t in keyword_types)
    if _cdispatch is None:
        return full
    if isinstance(retry, type):
        retry = (retry,)
    obj = _cdispatch.FastPath(
        native,
        full,
        lo,
        hi,
        None if dtypes is None else frozenset(dtypes),
        same,
        retry,
        defaults,
        keywords,
        native_defaults,
        kwtypes,
    )
    for attr in ("__name__", "__qualname__", "__module__", "__doc__"):
        setattr(obj, attr, getattr(full, attr, None))
    obj.__wrapped__ = full  # inspect.signature reads full's signature
    obj.__ivy_python__ = full  # what tracing compilers and the signature check look at
    obj.__ivy_native__ = native
    # which calls go to ``native``, for the graph emitter to bind the framework function itself
    obj.__ivy_fastpath__ = {
        "nargs": (lo, hi),
        "dtypes": None if dtypes is None else frozenset(dtypes),
        "same": same,
        "retry": retry,
        "defaults": defaults,
        "keywords": keywords,
        "native_defaults": native_defaults,
        "keyword_types": kwtypes,
    }
    return obj
