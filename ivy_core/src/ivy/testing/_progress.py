"""The kit's progress lines and its per-test time budget.

A backend whose framework compiles a kernel for each new shape runs the suite slowly, and a test
that takes a minute looks like a hang. So, besides pytest's own output:

* every ``--ivy-progress`` seconds (between tests) a line says how many tests are done, out of how
  many, after how long, and which one runs now;
* a test still running past ``--ivy-budget`` seconds is named at once, while it runs (a line per
  budget it exceeds), and each test that took longer than the budget is listed when it ends and
  again in the summary, slowest first.

The budget only reports: no test fails for being slow (a busy machine must not fail a run).
"""

from __future__ import annotations

import os
import threading
import time
from typing import IO, Any

import pytest

__all__ = ["Watch", "WATCH_KEY", "format_seconds"]


def format_seconds(s: float) -> str:
    """``"42.0 s"`` below two minutes, ``"3m05s"`` from there."""
    if s < 120:
        return f"{s:.1f} s"
    m, sec = divmod(int(round(s)), 60)
    return f"{m}m{sec:02d}s"


class Watch:
    """Times each test of the session; see the module docstring.

    ``out``: a file on the terminal that pytest's output capture does not redirect (a duplicate of
    the original stdout), for the lines the watching thread writes while a test runs; lines
    written between tests go through pytest's terminal reporter.
    """

    def __init__(self, reporter: Any, out: IO[str] | None, budget: float, every: float) -> None:
        self.reporter = reporter
        self.out = out
        self.budget = budget
        self.every = every
        self.total = 0
        self.done = 0
        self.start = time.monotonic()
        self.last_line = self.start
        self.slow: list[tuple[float, str]] = []
        self._running: tuple[str, float] | None = None
        self._warned = 0
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        if out is not None and budget > 0:
            self._thread = threading.Thread(target=self._watch, name="ivy.testing budget", daemon=True)
            self._thread.start()

    # ----------------------------------------------------------------- the main thread

    def collected(self, total: int) -> None:
        self.total = total

    def test_started(self, nodeid: str) -> None:
        with self._lock:
            self._running = (nodeid, time.monotonic())
            self._warned = 0

    def test_finished(self, nodeid: str) -> None:
        now = time.monotonic()
        with self._lock:
            running, self._running = self._running, None
        self.done += 1
        if running is not None and running[0] == nodeid:
            took = now - running[1]
            if self.budget > 0 and took > self.budget:
                self.slow.append((took, nodeid))
                self._line(f"slow test: {nodeid} took {format_seconds(took)} (budget {format_seconds(self.budget)})")
        if self.every > 0 and now - self.last_line >= self.every:
            self.last_line = now
            share = f" ({100 * self.done // self.total}%)" if self.total else ""
            self._line(
                f"[{format_seconds(now - self.start)}] {self.done}/{self.total or '?'} tests done{share}; "
                f"the last: {nodeid}"
            )

    def summary(self, terminalreporter: Any) -> None:
        if not self.slow:
            return
        terminalreporter.write_sep("=", f"ivy.testing: tests over the time budget of {format_seconds(self.budget)}")
        for took, nodeid in sorted(self.slow, reverse=True):
            terminalreporter.write_line(f"{format_seconds(took):>9}  {nodeid}")
        terminalreporter.write_line(
            "(reported only: a test never fails for its time; --ivy-budget SECONDS sets the budget, 0 turns it off)"
        )

    def close(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=2)
        if self.out is not None:
            try:
                self.out.close()
            except OSError:
                pass

    def _line(self, text: str) -> None:
        tw = self.reporter.config.get_terminal_writer()
        if tw.width_of_current_line:  # (after -q's dots)
            tw.line()
        self.reporter.write_line(f"ivy.testing: {text}")

    # ----------------------------------------------------------------- the watching thread

    def _watch(self) -> None:
        while not self._stop.wait(min(0.5, self.budget / 5)):
            with self._lock:
                running = self._running
                if running is None:
                    continue
                nodeid, began = running
                over = int((time.monotonic() - began) // self.budget)
                if over <= self._warned:
                    continue
                self._warned = over
            self._write(
                f"\nivy.testing: still running after {format_seconds(over * self.budget)} "
                f"(budget {format_seconds(self.budget)}): {nodeid}\n"
            )

    def _write(self, text: str) -> None:
        if self.out is None:
            return
        try:
            self.out.write(text)
            self.out.flush()
        except (OSError, ValueError):  # the terminal went away: nothing to report to
            pass


def terminal_copy() -> IO[str] | None:
    """A file on a duplicate of the process's stdout descriptor, taken while pytest does not
    capture it: the watching thread's lines reach the terminal even while a test's output is
    captured (pytest redirects descriptor 1 during each test)."""
    try:
        return os.fdopen(os.dup(1), "w", buffering=1, encoding="utf-8", errors="replace")
    except OSError:
        return None


WATCH_KEY = pytest.StashKey[Watch]()
