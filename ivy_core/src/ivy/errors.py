"""Exceptions raised by Ivy. Every one says what went wrong and what to do about it."""

from __future__ import annotations

__all__ = [
    "IvyError",
    "BackendNotInstalledError",
    "BackendLoadError",
    "BackendConflictError",
    "PluginValidationError",
    "MixedBackendsError",
    "UnsupportedDTypeError",
    "NoAutodiffError",
    "ModuleNotBuiltError",
    "StateNotThreadedError",
    "MissingOpError",
    "TranspileError",
    "UnsupportedOpsError",
    "UnsafeCacheError",
    "CompileFailedWarning",
]


class IvyError(Exception):
    """Base class of every error Ivy raises itself."""


class BackendNotInstalledError(IvyError, ImportError):
    """The requested backend has no installed plugin distribution."""


class BackendLoadError(IvyError, ImportError):
    """A backend plugin is installed but failed to import or load; the cause is chained."""


class BackendConflictError(IvyError, ImportError):
    """A backend cannot be loaded in this process because of another framework already loaded."""


class PluginValidationError(IvyError, TypeError):
    """A plugin does not honour the contract (version, op names or signatures)."""


class MixedBackendsError(IvyError, TypeError):
    """One call received native arrays of two different frameworks."""


class UnsupportedDTypeError(IvyError, TypeError):
    """A framework truly lacks the requested dtype (or lacks it for this op)."""


class NoAutodiffError(IvyError, NotImplementedError):
    """The backend has no automatic differentiation (NumPy)."""


class ModuleNotBuiltError(IvyError, RuntimeError):
    """An ``ivy.Module``'s variables were needed before it could create them: some of its sizes
    come from an input it has not seen yet."""


class StateNotThreadedError(IvyError, RuntimeError):
    """A compiled function updated a module or optimizer that ``ivy.compile`` did not thread
    through the compiled program (its update would be lost, or leak the compiler's tracers)."""


class MissingOpError(IvyError, AttributeError, NotImplementedError):
    """A backend lacks an op: the one called, or one that a composed op the user called needs.

    Attributes:
        backend: the backend's name.
        op: the op it lacks (``"maximum"``).
        called: the op the user called (``"relu"``), where another one was missing.
        dist: the plugin distribution of the backend (``"ivy-mine 0.1.0"``), where known.
    """

    def __init__(self, backend: str, op: str, called: str | None = None, dist: str | None = None):
        self.backend, self.op, self.called, self.dist = backend, op, called or op, dist
        plugin = f"; its plugin: {dist}" if dist else ""
        if self.called == op:
            msg = f"the {backend!r} backend does not implement ivy.{op}" + (f" (its plugin: {dist})" if dist else "")
        else:
            msg = (
                f"ivy.{self.called} on the {backend!r} backend needs ivy.{op}, which that backend does not "
                f"implement (ivy.{self.called} is composed from other ops there{plugin})"
            )
        super().__init__(msg)


class TranspileError(IvyError, RuntimeError):
    """``ivy.transpile`` could not convert the object: the message names the object, the source
    and target frameworks, and the step that failed (reading the source program, emitting)."""


class UnsafeCacheError(IvyError, PermissionError):
    """The transpile cache folder is not private (another user owns it, or group or others may
    write in it): Ivy neither reads nor writes entries there. The message says how to choose
    another folder (``IVY_CACHE_DIR``)."""


class UnsupportedOpsError(TranspileError):
    """A source program uses ops the frontend cannot map to Ivy; every one is listed at once.

    Attributes:
        framework: the source framework (``"torch"``).
        ops: native op name -> where the program uses it (source lines, where known).
    """

    def __init__(self, framework: str, ops: dict[str, list[str]], what: str = "the program"):
        self.framework, self.ops = framework, dict(ops)
        lines = []
        for name in sorted(self.ops):
            where = [w for w in self.ops[name] if w]
            lines.append(
                f"  {name}" + (f"  (at {'; '.join(where[:3])}{' ...' if len(where) > 3 else ''})" if where else "")
            )
        super().__init__(
            f"{what} uses {len(self.ops)} {framework} op(s) that Ivy's {framework} frontend cannot translate:\n"
            + "\n".join(lines)
            + "\nRewrite those parts with supported ops, or add mappings to the frontend "
            "(see docs/transpiling.md for the coverage table)."
        )


class CompileFailedWarning(RuntimeWarning):
    """``ivy.compile``: the backend's compiler failed on a function, which runs eagerly instead
    (filter or catch this warning to make that an error); ``error``: the compiler's exception."""

    def __init__(self, message: str, error: BaseException | None = None) -> None:
        super().__init__(message)
        self.error = error
