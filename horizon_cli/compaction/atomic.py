"""A streamed atomic output file: temp file beside the target, fsync, rename, fsync dir.

``fsutil.atomic_write_bytes`` needs the whole content in memory; compaction
output can be hundreds of megabytes, so this writes it as a stream.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from types import TracebackType

from horizon_cli.fsutil import fsync_directory


class AtomicFile:
    """``with AtomicFile(path) as out: out.write(...); out.commit()`` — uncommitted means untouched."""

    def __init__(self, path: str | os.PathLike):
        self.target = Path(os.path.realpath(path))  # write through a symlink, never replace it
        self.directory = self.target.parent if str(self.target.parent) else Path(".")
        fd, self.tmp = tempfile.mkstemp(prefix=f".{self.target.name}.", suffix=".tmp", dir=self.directory)
        self.handle = os.fdopen(fd, "wb")
        self.committed = False

    def __enter__(self) -> AtomicFile:
        return self

    def write(self, data: bytes) -> int:
        return self.handle.write(data)

    def commit(self) -> None:
        self.handle.flush()
        os.fsync(self.handle.fileno())
        self.handle.close()
        if self.target.exists():
            os.chmod(self.tmp, self.target.stat().st_mode & 0o7777)
        else:  # mkstemp makes 0600; a new output gets the usual umask-based mode
            mask = os.umask(0)
            os.umask(mask)
            os.chmod(self.tmp, 0o666 & ~mask)
        os.replace(self.tmp, self.target)
        self.committed = True
        fsync_directory(self.directory)

    def __exit__(self, kind: type | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        if not self.committed:
            self.handle.close()
            try:
                os.unlink(self.tmp)
            except OSError:
                pass
