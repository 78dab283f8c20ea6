"""Atomic file writes: a file that Ivy writes appears whole, or not at all.

The data go to a temporary file in the target's folder (a rename stays within one file system
only there), which is flushed and ``fsync``'ed, then renamed over the target with
:func:`os.replace` (atomic on POSIX and on Windows); the folder is ``fsync``'ed too where the
platform allows it, so that the rename itself survives a power cut. On any failure, including
``KeyboardInterrupt``, the temporary file is removed and the target is left as it was. A process
killed outright (``SIGKILL``, a power cut) leaves the previous file whole and, at worst, a stray
``.<name>.<random>.tmp`` beside it.

The new file gets the permission bits of the file it replaces (a new file: the umask's, as
:func:`open` gives). A target that is a symbolic link is written through: the file it points to
is replaced, the link stays.
"""

from __future__ import annotations

import errno
import os
import secrets
import stat
from collections.abc import Iterable, Iterator
from contextlib import contextmanager, suppress
from typing import IO, Any

__all__ = ["atomic_write", "write_bytes", "write_text"]

_BINARY = getattr(os, "O_BINARY", 0)  # (Windows: no newline translation on the descriptor)


def _target(path: str | os.PathLike[str]) -> str:
    p = os.fspath(path)
    return os.path.realpath(p) if os.path.islink(p) else p


def _create_temp(target: str) -> tuple[int, str]:
    folder, name = os.path.split(target)
    for _ in range(100):  # (a name already taken: another writer's temporary file)
        tmp = os.path.join(folder, f".{name[:200]}.{secrets.token_hex(4)}.tmp")
        try:
            return os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _BINARY, 0o666), tmp
        except FileExistsError:
            continue
        except OSError as e:  # name the file the caller asked for, not the temporary one
            raise type(e)(e.errno, e.strerror, target) from None
    raise FileExistsError(f"could not create a temporary file beside {target}")


def _fsync_folder(folder: str) -> None:
    """Make a rename in ``folder`` durable; a no-op where folders cannot be opened (Windows)."""
    try:
        fd = os.open(folder or ".", os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:  # some file systems refuse fsync on a folder: the rename is still atomic
        pass
    finally:
        os.close(fd)


@contextmanager
def atomic_write(path: str | os.PathLike[str], mode: str = "wb", *, encoding: str | None = None) -> Iterator[IO[Any]]:
    """Open a temporary file for writing; on a clean exit it replaces ``path`` atomically.

    Args:
        path: the file to write.
        mode: ``"wb"`` (default) or ``"w"`` (text; ``encoding`` defaults to UTF-8).
        encoding: the text encoding of mode ``"w"``.

    Raises:
        ValueError: ``mode`` is not a write mode.
        OSError: the folder does not exist or cannot be written; the target is a folder, or a
            file that may not be written (``PermissionError``, as :func:`open` raises).
    """
    if mode not in ("wb", "w"):
        raise ValueError(f"atomic_write: mode must be 'wb' or 'w', got {mode!r}")
    target = _target(path)
    if os.path.exists(target) and not os.path.isdir(target) and not os.access(target, os.W_OK):
        # (a rename would replace a file open() may not write: a file made read-only is kept)
        raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), target)
    fd, tmp = _create_temp(target)
    try:
        if mode == "w":
            f: IO[Any] = os.fdopen(fd, "w", encoding=encoding or "utf-8")
        else:
            f = os.fdopen(fd, "wb")
    except BaseException:
        os.close(fd)
        with suppress(OSError):
            os.unlink(tmp)
        raise
    try:
        with f:
            yield f
            f.flush()
            os.fsync(f.fileno())
        try:
            os.chmod(tmp, stat.S_IMODE(os.stat(target).st_mode))
        except FileNotFoundError:
            pass  # a new file: the umask's permissions, as open() gives
        os.replace(tmp, target)
    except BaseException:
        with suppress(OSError):
            os.unlink(tmp)
        raise
    _fsync_folder(os.path.dirname(target))


def write_bytes(path: str | os.PathLike[str], data: bytes | Iterable[bytes]) -> None:
    """Write ``data`` (bytes, or an iterable of byte chunks) to ``path`` atomically."""
    with atomic_write(path, "wb") as f:
        if isinstance(data, (bytes, bytearray, memoryview)):
            f.write(data)
        else:
            for chunk in data:
                f.write(chunk)


def write_text(path: str | os.PathLike[str], text: str, *, encoding: str = "utf-8") -> None:
    """Write ``text`` to ``path`` atomically (newlines translated as :func:`open` does)."""
    with atomic_write(path, "w", encoding=encoding) as f:
        f.write(text)
