"""Independent implementation of the client registry described in README.md.

Flask + waitress, in-memory store behind a lock. A fresh start is empty.
"""
import os
import re
import threading
from datetime import date

from flask import Flask, jsonify, request

app = Flask(__name__)
app.url_map.strict_slashes = False

_lock = threading.Lock()
_clients = {}          # int oid -> dict(name, email, birth_date)
_next_oid = [1001]     # oids handed out when the request gives none

_DATE_RE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_DIGITS_RE = re.compile(r"^[0-9]+$")
_FIELDS = ("name", "email", "birth_date")


class ApiError(Exception):
    def __init__(self, status, message):
        super().__init__(message)
        self.status = status
        self.message = message


@app.errorhandler(ApiError)
def _api_error(err):
    return jsonify({"error": {"status": err.status, "message": err.message}}), err.status


@app.errorhandler(404)
def _not_found(_err):
    return jsonify({"error": {"status": 404, "message": "no such resource"}}), 404


@app.errorhandler(405)
def _not_allowed(_err):
    return jsonify({"error": {"status": 405, "message": "method not supported here"}}), 405


@app.errorhandler(500)
def _server_error(_err):
    return jsonify({"error": {"status": 500, "message": "internal error"}}), 500


def _view(oid, rec):
    return {"oid": str(oid), "name": rec["name"], "email": rec["email"],
            "birth_date": rec["birth_date"]}


def _parse_oid(value):
    """Accept a non-negative integer or a string of digits; return an int."""
    if isinstance(value, bool):
        raise ApiError(400, "oid must be a number made of digits")
    if isinstance(value, int):
        if value < 0:
            raise ApiError(400, "oid must not be negative")
        return value
    if isinstance(value, str) and _DIGITS_RE.match(value.strip()):
        return int(value.strip())
    raise ApiError(400, "oid must be a number made of digits")


def _validate_fields(body):
    """Check the client fields present in body; return a dict of the given ones."""
    out = {}
    for key in _FIELDS:
        if key not in body:
            continue
        val = body[key]
        if val is None:
            out[key] = None
            continue
        if not isinstance(val, str):
            raise ApiError(400, f"{key} must be a string")
        if key == "name":
            if not val.strip():
                raise ApiError(400, "name must not be blank")
        elif key == "email":
            local, at, domain = val.partition("@")
            if not at or not local or not domain:
                raise ApiError(400, "email must look like user@host")
        elif key == "birth_date":
            if not _DATE_RE.match(val):
                raise ApiError(400, "birth_date must be a date as YYYY-MM-DD")
            try:
                date.fromisoformat(val)
            except ValueError:
                raise ApiError(400, "birth_date is not a real calendar date")
        out[key] = val
    return out


def _json_body(optional):
    raw = request.get_data(cache=True)
    if not raw.strip():
        if optional:
            return {}
        raise ApiError(400, "a JSON object body is required")
    body = request.get_json(force=True, silent=True)
    if body is None and raw.strip() != b"null":
        raise ApiError(400, "body is not valid JSON")
    if body is None and optional:
        return {}
    if not isinstance(body, dict):
        raise ApiError(400, "body must be a JSON object")
    return body


def _path_oid(oid_text):
    if not _DIGITS_RE.match(oid_text):
        raise ApiError(404, "no such resource")
    return int(oid_text)


@app.route("/api/v1/client", methods=["GET"])
def list_clients():
    with _lock:
        items = [_view(oid, _clients[oid]) for oid in sorted(_clients, reverse=True)]
    return jsonify(items), 200


@app.route("/api/v1/client", methods=["POST"])
def create_client():
    body = _json_body(optional=True)
    fields = _validate_fields(body)
    with _lock:
        if body.get("oid") is not None:
            oid = _parse_oid(body["oid"])
            if oid in _clients:
                raise ApiError(409, f"a client with oid {oid} already exists")
        else:
            while _next_oid[0] in _clients:
                _next_oid[0] += 1
            oid = _next_oid[0]
            _next_oid[0] += 1
        rec = {key: fields.get(key) for key in _FIELDS}
        _clients[oid] = rec
        out = _view(oid, rec)
    resp = jsonify(out)
    resp.status_code = 201
    resp.headers["Location"] = f"/api/v1/client/{oid}"
    return resp


@app.route("/api/v1/client/<oid_text>", methods=["GET"])
def get_client(oid_text):
    oid = _path_oid(oid_text)
    with _lock:
        rec = _clients.get(oid)
        if rec is None:
            raise ApiError(404, f"client {oid} not found")
        return jsonify(_view(oid, rec)), 200


@app.route("/api/v1/client/<oid_text>", methods=["PUT"])
def update_client(oid_text):
    oid = _path_oid(oid_text)
    body = _json_body(optional=False)
    with _lock:
        rec = _clients.get(oid)
        if rec is None:
            raise ApiError(404, f"client {oid} not found")
        if body.get("oid") is not None and _parse_oid(body["oid"]) != oid:
            raise ApiError(400, "oid in the body does not match the oid in the path")
        fields = _validate_fields(body)
        rec.update(fields)
        return jsonify(_view(oid, rec)), 200


@app.route("/api/v1/client/<oid_text>", methods=["DELETE"])
def delete_client(oid_text):
    oid = _path_oid(oid_text)
    with _lock:
        rec = _clients.pop(oid, None)
        if rec is None:
            raise ApiError(404, f"client {oid} not found")
        return jsonify(_view(oid, rec)), 200


if __name__ == "__main__":
    from waitress import serve

    serve(app, host=os.environ.get("HOST", "0.0.0.0"),
          port=int(os.environ.get("PORT", "9202")), threads=8)
