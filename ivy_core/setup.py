"""Builds the optional C speed-up of the per-call dispatch (ivy/_cdispatch.c).

Everything else is configured in pyproject.toml. The extension is optional: where no C compiler
(or no Python headers) is available, the build prints one line saying so and goes on without it,
and ``ivy`` dispatches in pure Python (same behaviour, about 0.2 µs more per call).
``python -m ivy doctor`` tells which of the two an installation has.
"""

import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext
from setuptools.errors import CCompilerError, CompileError, ExecError, LinkError, PlatformError

_BUILD_ERRORS = (CCompilerError, CompileError, ExecError, LinkError, PlatformError)


class OptionalBuildExt(build_ext):
    """build_ext that turns a failed optional extension into one readable notice."""

    def build_extension(self, ext: Extension) -> None:
        try:
            super().build_extension(ext)
        except _BUILD_ERRORS as e:
            if not ext.optional:
                raise
            message = " ".join(str(e).split()) or type(e).__name__
            compiler = (getattr(self.compiler, "compiler_so", None) or ["the C compiler"])[0]
            # a failed compiler run's message is its whole command line: name the compiler instead
            reason = message if len(message) <= 100 else f"{compiler!r} failed"
            # stderr and flushed: pip shows it with -v, and in its log when the build fails
            print(
                f"ivy-core: NOTICE: the C dispatch extension {ext.name} was not built ({reason}); "
                "ivy will dispatch in pure Python (same behaviour, about 0.2 us slower per call)",
                file=sys.stderr,
                flush=True,
            )


setup(
    ext_modules=[Extension("ivy._cdispatch", ["src/ivy/_cdispatch.c"], optional=True)],
    cmdclass={"build_ext": OptionalBuildExt},
)
