"""Durable file writes: temp file in the same directory, fsync, rename, fsync dir."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def atomic_write_bytes(path: str | os.PathLike, data: bytes, *, mode: int | None = None) -> None:
    """Replace ``path`` with ``data`` so readers see the old or the new file, never half.

    A symlink is written through (its target is replaced), as ``sed -i --follow-symlinks`` does:
    replacing the link itself would silently leave the real file unchanged."""
    target = Path(os.path.realpath(path))
    directory = target.parent if str(target.parent) else Path(".")
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=directory)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        if mode is None and target.exists():
            mode = target.stat().st_mode & 0o7777
        if mode is not None:
            os.chmod(tmp, mode)
        os.replace(tmp, target)
    except BaseException:
        _unlink_quietly(tmp)
        raise
    fsync_directory(directory)


def append_durably(path: str | os.PathLike, data: bytes) -> None:
    """Append ``data`` and fsync it before returning (for logs that later steps rely on)."""
    with open(path, "ab") as handle:
        handle.write(data)
        handle.flush()
        os.fsync(handle.fileno())


def fsync_directory(directory: str | os.PathLike) -> None:
    """Make a rename in ``directory`` durable (best effort where the OS refuses)."""
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _unlink_quietly(path: str) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass
