"""Uniform error bodies: {"code": "...", "message": "..."} (plus "errors" for validation)."""

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException


class ApiError(Exception):
    def __init__(self, status: int, code: str, message: str, headers: dict | None = None):
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.headers = headers


def _body(code: str, message: str, **extra) -> dict:
    return {"code": code, "message": message, **extra}


def install(app: FastAPI) -> None:
    @app.exception_handler(ApiError)
    async def _api_error(_request: Request, exc: ApiError):
        return JSONResponse(_body(exc.code, exc.message), exc.status, headers=exc.headers)

    @app.exception_handler(RequestValidationError)
    async def _validation(_request: Request, exc: RequestValidationError):
        errors = [
            {"field": ".".join(str(p) for p in err.get("loc", ())), "reason": err.get("msg", "")}
            for err in exc.errors()
        ]
        return JSONResponse(_body("VALIDATION_ERROR", "请求参数校验失败", errors=errors), 422)

    @app.exception_handler(StarletteHTTPException)
    async def _http(_request: Request, exc: StarletteHTTPException):
        if exc.status_code == 404:
            return JSONResponse(_body("NOT_FOUND", "资源不存在"), 404)
        if exc.status_code == 405:
            return JSONResponse(_body("METHOD_NOT_ALLOWED", "不支持该请求方法"), 405)
        return JSONResponse(_body("HTTP_ERROR", str(exc.detail)), exc.status_code)
