"""``python -m ivy``: Ivy's command line (see :mod:`ivy._cli`; ``python -m ivy --help``)."""

from __future__ import annotations

import sys

from ._cli import main

__all__: list[str] = []

if __name__ == "__main__":
    sys.exit(main())
