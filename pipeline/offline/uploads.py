"""The files a generated test uploads where the document's example sends a multipart form
(`curl -F name=People -F icon=@path/to/icon.svg`): one small file of the type the example
names, so a service that reads or checks the part (an svg icon) takes it."""

from __future__ import annotations

import json
import mimetypes
import struct
import zlib
from pathlib import PurePosixPath


def _png() -> bytes:
    """A valid 1x1 transparent PNG."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(
            ">I", zlib.crc32(kind + data))
    header = struct.pack(">IIBBBBB", 1, 1, 8, 6, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
            + chunk(b"IDAT", zlib.compress(b"\x00\x00\x00\x00\x00")) + chunk(b"IEND", b""))


# a small valid file of each common type (a type not here gets a few plain bytes)
_CONTENT: dict[str, bytes] = {
    "image/svg+xml": b'<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"/>',
    "text/csv": b"name,value\nexample,1\n",
    "application/json": b'{"example": true}',
    "image/png": _png(),
}


def upload(written: str) -> tuple[str, bytes, str]:
    """(file name, content, content type) for a part as the example writes it
    (`path/to/icon.svg`, `report.csv;type=text/csv`)."""
    path, *options = written.split(";")
    name = PurePosixPath(path.strip()).name or "upload.bin"
    given = next((o.split("=", 1)[1].strip() for o in options
                  if o.strip().lower().startswith("type=")), None)
    kind = given or mimetypes.guess_type(name)[0] or "application/octet-stream"
    content = _CONTENT.get(kind) or (b"example\n" if kind.startswith("text/") else b"example")
    return name, content, kind


def files_source(files: dict[str, str]) -> str:
    """The `files=` argument that sends them."""
    parts = ", ".join(f"{json.dumps(k)}: {upload(v)!r}" for k, v in files.items())
    return f"files={{{parts}}}"
