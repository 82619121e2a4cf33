"""A multipart example (`curl -F name=People -F icon=@path/to/icon.svg`): every `-F` is a
part, the text parts are the endpoint's form example and the file parts are named with the
file as written, so a test can send both. A file the document requires beside no usable
text example leaves the endpoint without one rather than with a body that lacks it."""

from __future__ import annotations

import struct
import zlib

from pipeline.offline.uploads import upload
from pipeline.spec import extract_spec
from pipeline.spec.curl import parse_curls

UPLOAD = """# Categories

#### POST /categories

```bash
curl -X POST -F "name=People" -F "icon=@path/to/icon.svg" http://127.0.0.1:5000/categories
```

Parameters:

- name (str): The name of the category
- icon: An svg file that is the icon for the category
"""

REQUIRED_FILE = """# Vault

### Upload a file

Request: `POST /files`

| Part | Required | Description |
|------|----------|-------------|
| `file` | yes | the file content |
| `folder` | no | target folder |

```bash
curl -F 'file=@report.csv;type=text/csv' -F folder=reports http://localhost:8106/files
```
"""


def test_every_part_is_read_and_the_files_are_told_apart() -> None:
    (cmd,) = parse_curls(UPLOAD.split("\n"))
    assert cmd.method == "POST" and cmd.multipart
    assert cmd.form == {"name": "People"}
    assert cmd.files == {"icon": "path/to/icon.svg"}


def test_the_text_parts_are_the_form_example_and_the_files_ride_along() -> None:
    (ep,) = extract_spec(UPLOAD).endpoints
    assert ep.request_example == {"name": "People"} and ep.request_form
    assert ep.request_files == {"icon": "path/to/icon.svg"}


def test_a_required_file_leaves_no_example_of_text_parts_alone() -> None:
    (ep,) = extract_spec(REQUIRED_FILE).endpoints
    assert ep.request_example is None and not ep.request_form and not ep.request_files


def test_an_upload_is_a_small_file_of_the_type_the_example_names() -> None:
    name, content, kind = upload("path/to/icon.svg")
    assert (name, kind) == ("icon.svg", "image/svg+xml") and content.startswith(b"<svg")
    assert upload("report.csv;type=text/csv")[2] == "text/csv"
    assert upload("blob.weird")[2] == "application/octet-stream"
    png = upload("logo.png")[1]  # a PNG whose chunks check out (an image library reads it)
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    at, kinds = 8, []
    while at < len(png):
        size = struct.unpack(">I", png[at:at + 4])[0]
        kind, data = png[at + 4:at + 8], png[at + 8:at + 8 + size]
        assert struct.unpack(">I", png[at + 8 + size:at + 12 + size])[0] == zlib.crc32(kind + data)
        kinds.append(kind)
        at += 12 + size
    assert kinds == [b"IHDR", b"IDAT", b"IEND"]
