"""Java services (Spring, JAX-RS, Javalin, Spark, JDK httpserver): the machine's JDK, routes by
the lexer-based readers, source-level mutants (`pipeline.mutation.java`)."""

from __future__ import annotations

import re
from pathlib import Path

from pipeline.languages import Language, register
from pipeline.mutation.java import java_mutants
from pipeline.mutation.javahandlers import java_handler_spans
from pipeline.routes.javaannot import annotated_routes, application_path
from pipeline.routes.javadsl import dsl_routes
from pipeline.routes.javalex import Constants, tokenize
from pipeline.routes.model import Route

_TYPE_RE = re.compile(r"\b(class|interface|enum|record)\s+[A-Z_a-z]\w*")
_NOISE = re.compile(r"//[^\n]*|/\*.*?\*/|\"(?:\\.|[^\"\\])*\"", re.S)


def routes(root: Path, files: list[Path]) -> list[Route]:
    """Annotated (Spring, JAX-RS, Micronaut) and DSL (Javalin, Spark, httpserver) routes;
    constants are collected from every file first, as annotations may use any of them."""
    consts = Constants()
    parsed: list[tuple[str, str, list]] = []
    for path in files:
        text = path.read_text(encoding="utf-8", errors="replace")
        rel = path.relative_to(root).as_posix()
        tokens = tokenize(text)
        consts.collect(tokens, rel)
        parsed.append((rel, text, tokens))
    app_path = ""
    for rel, _, tokens in parsed:
        found = application_path(tokens, consts, rel)
        if found:
            app_path = found
    out: list[Route] = []
    for rel, text, tokens in parsed:
        out += annotated_routes(tokens, consts, rel, app_path)
        out += dsl_routes(tokens, consts, rel, text)
    return out


def count_types(path: Path, text: str) -> int:
    """Type declarations outside comments and strings."""
    return len(_TYPE_RE.findall(_NOISE.sub("", text)))


LANGUAGE = register(Language(
    name="java",
    suffixes=(".java",),
    routes=routes,
    mutants=java_mutants,
    count_types=count_types,
    build_error=re.compile(r"\.java:\d+: error:"),  # javac, when a mutant does not compile
    templates={"oracle/start.sh": "new_task/java/start.sh.j2"},
    frameworks=(("springframework", "spring"), ("io.javalin", "javalin"), ("spark.Spark", "spark"),
                ("com.sun.net.httpserver", "httpserver")),
    default_framework="httpserver",
    manifests=(".xml", ".gradle"),
    programs=("java",),
    handler_spans=java_handler_spans,
))
