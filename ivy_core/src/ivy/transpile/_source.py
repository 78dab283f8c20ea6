"""A source object and the frontend that reads it: example inputs converted to the source's
arrays, the mode switched where the object has modes, the disk cache consulted, and the
frontend's errors reported with the object and the step that failed."""

from __future__ import annotations

import contextlib
import logging
import time
from collections import OrderedDict
from collections.abc import Iterator
from typing import Any

from .. import _registry
from ..errors import IvyError, TranspileError
from . import _cache
from ._fingerprint import Unfingerprintable, fingerprint, weights
from ._frontends import frontend_impl, frontend_label, frontends, is_ivy_module
from ._inputs import array_backend, leaves, map_arrays, portable, signature, to_example

__all__ = ["Source", "describe", "log"]

log = logging.getLogger("ivy.transpile")


def describe(obj: Any) -> str:
    """``obj`` as messages name it: ``the function 'f'``, ``a torch...Linear``."""
    name = getattr(obj, "__qualname__", None) or getattr(obj, "__name__", None)
    if (
        name
        and not isinstance(obj, type)
        and type(obj).__name__ in ("function", "builtin_function_or_method", "method")
    ):
        return f"the function {name!r}"
    t = type(obj)
    return f"a {t.__module__}.{t.__qualname__}"


def _has_modes(obj: Any) -> bool:
    return isinstance(getattr(obj, "training", None), bool) and callable(getattr(obj, "train", None))


@contextlib.contextmanager
def _in_mode(obj: Any, training: bool | None) -> Iterator[None]:
    """The object switched to ``training`` mode for a read (``train(mode)``, as torch, paddle and
    ivy.Module have), and switched back after it."""
    if training is None or not _has_modes(obj) or obj.training == training:
        yield
        return
    was = obj.training
    obj.train(training)
    try:
        yield
    finally:
        obj.train(was)


#: reads that failed in this process: key -> (the object, the error), oldest first; a failure
#: of torch.export or an op the frontend lacks is the same on each try, and a read can take a minute
_FAILURES: OrderedDict[Any, tuple[Any, TranspileError]] = OrderedDict()
_FAILURES_KEPT = 16  # (an error holds its traceback: the frames of the failed read)


def _remember(key: Any, obj: Any, error: TranspileError) -> None:
    if key is None:
        return
    _FAILURES[key] = (obj, error)
    while len(_FAILURES) > _FAILURES_KEPT:
        _FAILURES.popitem(last=False)


class Source:
    """An object to transpile and its frontend.

    Args:
        obj: the function, module, or params-and-apply object.
        name: the frontend's name (``"torch"``, ``"ivy"``).
        params_v: parameters kept outside the object (Flax, Haiku).
        cache: use the disk cache.
    """

    def __init__(self, obj: Any, name: str, *, params_v: Any = None, cache: bool = True):
        self.obj = obj
        self.name = name
        self.frontend = frontends()[name]
        self.label = frontend_label(name)
        self.impl = frontend_impl(name)
        self.params_v = params_v
        self.cache = cache
        #: None: not computed yet; "": the object has none (it is transpiled without the cache)
        self._fingerprint: str | None = None

    def kind(self) -> str:
        """``"module"`` or ``"function"``, as the frontend sees the object."""
        try:
            kind = self.impl.kind(self.obj)
        except Exception as e:  # a frontend's bug: say whose
            raise TranspileError(
                f"the {self.name!r} frontend ({self.label}) failed to classify {describe(self.obj)}: {e}"
            ) from e
        if kind == "function" and self.params_v is not None:
            # a pure function of (params, inputs) with its params given (the paper's Haiku/Flax
            # form) is a module: the target gets a module holding them as trainable parameters
            kind = "module"
        if kind not in ("module", "function"):
            raise TranspileError(
                f"the {self.name!r} frontend ({self.label}) does not read {describe(self.obj)}: it reads the "
                f"{self.name} functions and modules (pass source= if this object belongs to another framework)"
            )
        return kind

    # ------------------------------------------------------------------ inputs

    def backend(self, args: Any = ()) -> str | None:
        """The backend the example inputs must be arrays of (None: any)."""
        if self.name == "ivy":
            if is_ivy_module(self.obj) and self.obj.backend is not None:
                return str(self.obj.backend)
            found = leaves(args)
            return array_backend(found[0]) if found else None
        return self.name if self.name in _registry.backends() else None

    def examples(self, args: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[tuple[Any, ...], dict[str, Any]]:
        """The example inputs as the source's arrays (converted from another framework's or
        NumPy's; zeros of the shape where an input is a compiler's abstract value)."""
        b = self.backend((args, kwargs))
        if b is None:
            return args, kwargs
        return map_arrays(lambda x: to_example(x, b), args), map_arrays(lambda x: to_example(x, b), kwargs)

    # ------------------------------------------------------------------ reading

    def fingerprint(self) -> str | None:
        """The frontend's (or core's default) fingerprint of the object; None if it has none."""
        if self._fingerprint is None:
            try:
                if self.impl.fingerprint is not None:
                    got = self.impl.fingerprint(self.obj)
                    fp = "" if got is None else str(got)  # (None or "": the frontend cannot tell)
                    if fp and self.params_v is not None:
                        fp += ":" + fingerprint(None, self.params_v)
                else:
                    fp = fingerprint(self.obj, self.params_v)
                self._fingerprint = fp
            except Unfingerprintable as e:
                log.debug("not caching %s: %s", describe(self.obj), e)
                self._fingerprint = ""
        return self._fingerprint or None

    def _key(self, args: tuple[Any, ...], kwargs: dict[str, Any], training: Any) -> str | None:
        if not self.cache:
            return None
        sig = signature(args, kwargs)
        if not portable(sig):
            return None
        fp = self.fingerprint()
        if fp is None:
            return None
        versions = _cache.versions(self.frontend, self.label, getattr(self.impl.to_graph, "__module__", None))
        return _cache.cache_key(fingerprint=fp, signature=sig, training=training, versions=versions)

    def graph(self, args: tuple[Any, ...], kwargs: dict[str, Any], training: bool | None = None) -> Any:
        """The graph of the object on these example inputs (in ``training`` mode where given and
        the object has modes), from the disk cache where it holds it."""
        args, kwargs = self.examples(args, kwargs)
        mode = training if training is not None else getattr(self.obj, "training", None)
        mode = mode if isinstance(mode, bool) else None
        failed_key = self._failure_key(args, kwargs, mode)
        failed = _FAILURES.get(failed_key) if failed_key is not None else None
        if failed is not None:
            log.info(
                "%s failed to read on these inputs before: the same error again, without reading it", describe(self.obj)
            )
            raise failed[1].with_traceback(None)
        key = self._key(args, kwargs, mode)
        if key is not None:
            g = _cache.load(key)
            if g is not None and g.params:
                w = weights(self.obj, self.params_v)
                g = _cache.with_weights(g, w[0]) if w is not None else None
            if g is not None:
                log.debug("transpile cache hit for %s (%s)", describe(self.obj), key)
                return g
        start = time.perf_counter()
        log.info("reading %s with the %s frontend (%s)", describe(self.obj), self.name, self.label)
        with _in_mode(self.obj, training):
            try:
                g = self.read(args, kwargs)
            except TranspileError as e:
                _remember(failed_key, self.obj, e)
                raise
        log.info(
            "read %s: %d nodes, %d parameters in %.2f s",
            describe(self.obj),
            len(g),
            len(g.params),
            time.perf_counter() - start,
        )
        if key is not None and not g.meta.get("state"):
            self._store(key, g)
        return g

    def _failure_key(self, args: tuple[Any, ...], kwargs: dict[str, Any], mode: bool | None) -> Any:
        """What identifies one read of the object for the memory of failures (None: not kept)."""
        try:
            sig = signature(args, kwargs)
            hash(sig)
        except Exception:  # inputs without a hashable signature: not remembered
            return None
        fp = self.fingerprint() if self.cache else None
        # (without a fingerprint, the object itself: the memory holds it, so its id is not reused)
        ident = ("fingerprint", fp) if fp else ("object", id(self.obj))
        return (self.name, ident, sig, mode)

    def _store(self, key: str, g: Any) -> None:
        """Write the entry, with where each parameter's value comes from in the object."""
        mapping: dict[str, str] | None = {}
        if g.params:
            w = weights(self.obj, self.params_v)
            mapping = _cache.weight_map(g, w[0]) if w is not None else None
        if mapping is None:
            log.debug("not caching %s: core cannot find its parameters among the object's weights", describe(self.obj))
            return
        _cache.store(key, g.replace(meta={**g.meta, "weight_map": mapping}))

    def read(self, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        """The frontend's graph of the object (no cache), its errors named."""
        from ..graph import Graph

        try:
            g = self.impl.to_graph(self.obj, args, kwargs, self.params_v)
        except IvyError:
            raise
        except Exception as e:
            raise TranspileError(
                f"reading {describe(self.obj)} with the {self.name!r} frontend ({self.label}) failed: "
                f"{type(e).__name__}: {e}"
            ) from e
        if not isinstance(g, Graph):
            raise TranspileError(
                f"the {self.name!r} frontend ({self.label}) returned a {type(g).__name__} from to_graph, "
                "not an ivy.Graph"
            )
        return g

    def retrace(self, training: bool, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        """The graph for a call a native module has no program for yet: other input shapes, or
        the other mode. Inputs may be the target's arrays or abstract values (their shapes and
        dtypes are what matter)."""
        from ._programs import mode_sensitive

        log.info("transpiling %s again for new inputs or mode (training=%s)", describe(self.obj), training)
        g = self.graph(args, kwargs, training if _has_modes(self.obj) else None)
        was = g.meta.get("training")
        if not _has_modes(self.obj) and isinstance(was, bool) and was != training and mode_sensitive(g):
            raise TranspileError(
                f"the native module was asked to run in {'training' if training else 'inference'} mode, but its "
                f"source ({describe(self.obj)}) has no train()/eval() to switch to it, and its program depends on the "
                "mode (buffer updates or random ops). Transpile the source in the mode you need"
            )
        return g
