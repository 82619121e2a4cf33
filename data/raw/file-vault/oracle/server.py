"""File vault: upload, list, download and delete small files (kept in memory).

Every route lives under the /api/v1 base path.
"""

import hashlib
import re
import threading
import uuid
from datetime import datetime, timezone
from urllib.parse import quote

from fastapi import APIRouter, FastAPI, File, Form, Query, Request, Response, UploadFile
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field
from starlette.exceptions import HTTPException as StarletteHTTPException

MAX_FILE_BYTES = 1024 * 1024
QUOTA_BYTES = 10 * 1024 * 1024
FOLDER_RE = re.compile(r"^[a-z0-9_-]{1,40}$")
FILE_ID_RE = re.compile(r"^[0-9a-f]{32}$")

app = FastAPI(title="File vault", docs_url=None, redoc_url=None, openapi_url=None)
api = APIRouter(prefix="/api/v1")

_lock = threading.Lock()
_files: dict[str, dict] = {}  # id -> metadata + "data"


class VaultError(Exception):
    def __init__(self, status: int, error: str, message: str):
        super().__init__(message)
        self.status, self.error, self.message = status, error, message


def _error(status: int, error: str, message: str) -> JSONResponse:
    return JSONResponse({"error": error, "message": message}, status_code=status)


@app.exception_handler(VaultError)
async def _vault_error(_request: Request, exc: VaultError):
    return _error(exc.status, exc.error, exc.message)


@app.exception_handler(RequestValidationError)
async def _validation_error(_request: Request, exc: RequestValidationError):
    problems = "; ".join(
        f"{'.'.join(str(p) for p in e.get('loc', ()))}: {e.get('msg', '')}" for e in exc.errors()
    )
    return _error(422, "validation_error", problems or "Invalid request")


@app.exception_handler(StarletteHTTPException)
async def _http_error(_request: Request, exc: StarletteHTTPException):
    if exc.status_code == 404:
        return _error(404, "not_found", "No such endpoint")
    if exc.status_code == 405:
        return _error(405, "method_not_allowed", "Method not allowed")
    return _error(exc.status_code, "http_error", str(exc.detail))


def _now() -> str:
    return datetime.now(timezone.utc).replace(microsecond=0).isoformat().replace("+00:00", "Z")


def _metadata(entry: dict) -> dict:
    return {k: v for k, v in entry.items() if k != "data"}


def _find(file_id: str) -> dict:
    entry = _files.get(file_id) if FILE_ID_RE.match(file_id) else None
    if entry is None:
        raise VaultError(404, "file_not_found", f"File {file_id} does not exist")
    return entry


def _clean_filename(raw: str | None) -> str:
    name = (raw or "").replace("\\", "/").rsplit("/", 1)[-1].strip()
    if not name or name in (".", "..") or len(name) > 255:
        raise VaultError(422, "invalid_filename", "The uploaded file needs a file name")
    return name


def _used_bytes() -> int:
    return sum(f["size"] for f in _files.values())


@api.get("/health")
def health() -> dict:
    return {"status": "ok"}


@api.post("/files", status_code=201)
async def upload(
    response: Response,
    file: UploadFile = File(...),
    folder: str = Form("default"),
    overwrite: bool = Query(False),
) -> dict:
    if not FOLDER_RE.match(folder):
        raise VaultError(422, "invalid_folder", "folder must match ^[a-z0-9_-]{1,40}$")
    filename = _clean_filename(file.filename)
    data = await file.read(MAX_FILE_BYTES + 1)
    if len(data) > MAX_FILE_BYTES:
        raise VaultError(413, "file_too_large", f"Files are limited to {MAX_FILE_BYTES} bytes")
    if not data:
        raise VaultError(422, "empty_file", "The uploaded file is empty")
    with _lock:
        existing = next((f for f in _files.values()
                         if f["folder"] == folder and f["filename"] == filename), None)
        if existing and not overwrite:
            raise VaultError(409, "file_exists", f"{folder}/{filename} already exists")
        freed = existing["size"] if existing else 0
        if _used_bytes() - freed + len(data) > QUOTA_BYTES:
            raise VaultError(413, "quota_exceeded", f"The vault quota of {QUOTA_BYTES} bytes is full")
        if existing:
            del _files[existing["id"]]
        entry = {
            "id": uuid.uuid4().hex,
            "filename": filename,
            "folder": folder,
            "content_type": file.content_type or "application/octet-stream",
            "size": len(data),
            "sha256": hashlib.sha256(data).hexdigest(),
            "uploaded_at": _now(),
            "data": data,
        }
        _files[entry["id"]] = entry
    response.headers["Location"] = f"/api/v1/files/{entry['id']}"
    return _metadata(entry)


@api.get("/files")
def list_files(
    folder: str | None = Query(None),
    limit: int = Query(50, ge=1, le=200),
    offset: int = Query(0, ge=0),
) -> dict:
    with _lock:
        entries = list(_files.values())  # insertion order: oldest upload first
    if folder is not None:
        entries = [f for f in entries if f["folder"] == folder]
    page = entries[offset : offset + limit]
    return {"items": [_metadata(f) for f in page], "total": len(entries),
            "limit": limit, "offset": offset}


@api.get("/files/{file_id}")
def get_metadata(file_id: str) -> dict:
    with _lock:
        return _metadata(_find(file_id))


@api.get("/files/{file_id}/content")
def download(file_id: str) -> Response:
    with _lock:
        entry = _find(file_id)
    disposition = f"attachment; filename*=UTF-8''{quote(entry['filename'])}"
    return Response(
        content=entry["data"],
        media_type=entry["content_type"],
        headers={"Content-Disposition": disposition, "ETag": f"\"{entry['sha256']}\""},
    )


@api.delete("/files/{file_id}", status_code=204)
def delete(file_id: str) -> Response:
    with _lock:
        _find(file_id)
        del _files[file_id]
    return Response(status_code=204)


class BatchDelete(BaseModel):
    ids: list[str] = Field(min_length=1, max_length=100)


@api.post("/files/batch-delete")
def batch_delete(body: BatchDelete) -> dict:
    deleted, missing = [], []
    with _lock:
        for file_id in dict.fromkeys(body.ids):
            if file_id in _files:
                del _files[file_id]
                deleted.append(file_id)
            else:
                missing.append(file_id)
    return {"deleted": deleted, "not_found": missing}


@api.get("/storage-usage")
def storage_usage() -> dict:
    with _lock:
        by_folder: dict[str, dict] = {}
        for entry in _files.values():
            stats = by_folder.setdefault(entry["folder"], {"files": 0, "bytes": 0})
            stats["files"] += 1
            stats["bytes"] += entry["size"]
        used = _used_bytes()
        count = len(_files)
    return {"files": count, "used_bytes": used, "quota_bytes": QUOTA_BYTES,
            "free_bytes": QUOTA_BYTES - used, "by_folder": dict(sorted(by_folder.items()))}


app.include_router(api)
