"""Static route extraction from service source and matching against documented endpoints.

`extract_routes(dir)` reads Flask / FastAPI / Starlette / Django (AST) and Spring / JAX-RS /
Micronaut / Javalin / Spark / Vert.x / JDK httpserver (lexer) sources without running them;
`match_endpoints(endpoints, routes)` is the pure comparison used by `check` and `evaluate`.
"""

from pipeline.routes.extract import extract_routes, source_files
from pipeline.routes.match import (
    EndpointLike,
    EndpointMatch,
    RouteMatch,
    match_endpoints,
    method_rank,
    path_match,
)
from pipeline.routes.model import ANY_METHOD, Route, join_paths, normalize_path

__all__ = [
    "ANY_METHOD",
    "EndpointLike",
    "EndpointMatch",
    "Route",
    "RouteMatch",
    "extract_routes",
    "join_paths",
    "match_endpoints",
    "method_rank",
    "normalize_path",
    "path_match",
    "source_files",
]
