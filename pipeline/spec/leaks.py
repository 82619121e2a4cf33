"""Implementation source in a requirement document ("code leaks").

A requirement document may show JSON bodies, schemas, HTTP exchanges, curl and shell
commands, and small client snippets that *call* the service. It must not show the
service's own source: route handlers, classes with behaviour, server set-up.
The classifier is a set of hand-written line patterns (no parser can tell "this Python
is the solution" from "this Python is a client example"); `find_code_leaks` uses
markdown-it for the block structure and reports one message per leaking block.
"""

from __future__ import annotations

import json
import re

from pipeline.spec.markdown import Block, parse_blocks

_DATA_LANGS = {
    "json", "json5", "jsonc", "yaml", "yml", "toml", "xml", "http", "https", "text", "txt",
    "plain", "plaintext", "csv", "sql", "graphql", "gql", "ini", "env", "dotenv",
    "console", "shell", "sh", "bash", "zsh", "shell-session", "powershell", "ps1", "cmd",
    "bat", "curl", "mermaid", "diff-json", "properties", "log", "output", "proto",
}
_SOURCE_LANGS = {
    "python", "py", "python3", "java", "javascript", "js", "jsx", "typescript", "ts", "tsx",
    "go", "golang", "ruby", "rb", "php", "kotlin", "kt", "csharp", "cs", "c#", "rust", "rs",
    "scala", "c", "cpp", "c++", "swift", "groovy", "node", "mjs", "diff",
}

# Server-side markers: any one of them means the block implements the service.
_SERVER = [
    (r"@(?:app|api|router|bp|blueprint|\w+_bp|\w+_router)\.(?:route|get|post|put|patch|delete)\s*\(",
     "route decorator"),
    (r"\b(?:app|router|server)\.(?:get|post|put|patch|delete|use|listen)\s*\(\s*['\"`/]",
     "route registration"),
    (r"@(?:RestController|Controller|RequestMapping|GetMapping|PostMapping|PutMapping|"
     r"DeleteMapping|PatchMapping|SpringBootApplication|Path|GET|POST)\b", "Java annotation"),
    (r"\b(?:Flask|FastAPI|APIRouter|Blueprint|express|Koa|HttpServer\.create)\s*\(",
     "server set-up"),
    (r"^\s*(?:from\s+(?:flask|fastapi|django|starlette|aiohttp|sanic|bottle|tornado)\b"
     r"|import\s+(?:flask|fastapi|express|django)\b)", "web framework import"),
    (r"\brequire\(\s*['\"](?:express|koa|fastify|http)['\"]\s*\)", "web framework import"),
    (r"^\s*import\s+(?:com\.sun\.net\.httpserver|org\.springframework|javax\.ws|jakarta\.)",
     "web framework import"),
    (r"\b(?:uvicorn\.run|app\.run|SpringApplication\.run|http\.createServer)\s*\(",
     "server start"),
    (r"\bpublic\s+static\s+void\s+main\s*\(", "Java main method"),
]
_DEFINITION = [
    (r"^\s*(?:async\s+)?def\s+\w+\s*\(", "function definition"),
    (r"^\s*(?:export\s+)?(?:async\s+)?function\s*\w*\s*\(", "function definition"),
    (r"^\s*(?:export\s+)?(?:const|let|var)\s+\w+\s*=\s*(?:async\s*)?\([^)]*\)\s*=>",
     "function definition"),
    (r"^\s*(?:public|private|protected)\s+(?:static\s+)?[\w<>\[\],\s]+\s+\w+\s*\([^;]*\)\s*"
     r"(?:throws\s+[\w.,\s]+)?\{", "method definition"),
    (r"^\s*func\s+\w+\s*\(", "function definition"),
    (r"^\s*(?:SELECT|INSERT|UPDATE|DELETE)\b.*\bFROM\b.*\bWHERE\b.*[%?]", "query code"),
    (r"^\s*(?:for|while)\s*\(.*\)\s*\{|^\s*for\s+\w+\s+in\s+.+:\s*$", "control flow"),
    (r"^\s*if\s+.+:\s*$|^\s*if\s*\(.+\)\s*\{", "control flow"),
    (r"^\s*return\s+\S", "return statement"),
]
_CLIENT_IMPORT = re.compile(
    r"^\s*(?:import\s+(?:requests|httpx|json|urllib(?:\.\w+)*|aiohttp|pprint|os)\s*$"
    r"|from\s+(?:requests|httpx|urllib(?:\.\w+)*|pprint)\s+import\b"
    r"|(?:const|let|var|import)\s+\w+\s*(?:=\s*require\(|from\s+)['\"](?:axios|node-fetch)['\"])"
)
_IMPORT = re.compile(
    r"^\s*(?:import\s+[\w.{*]|from\s+[\w.]+\s+import\b|#include\s*<|package\s+[\w.]+;)"
)
_CLASS = re.compile(r"^\s*(?:export\s+)?(?:public\s+|abstract\s+|final\s+)*class\s+\w+")
_METHOD_IN_CLASS = re.compile(r"^\s+(?:async\s+)?def\s+\w+|^\s+(?:public|private|protected)\s.*\(")


def _looks_like_data(text: str) -> bool:
    s = text.strip()
    if not s:
        return True
    if s[0] in "{[":
        try:
            json.loads(s)
            return True
        except ValueError:
            # JSON with comments / ellipses still is data when no code keyword shows up
            return not re.search(r"^\s*(?:def|class|import|function|public)\b", s, re.M)
    return False


def leak_reason(block: Block) -> str | None:
    """Why a code block is implementation source, or None when it is data/requests/shell."""
    if block.kind != "code":
        return None
    text = block.text
    if _looks_like_data(text):
        return None
    server = _first_match(_SERVER, text)
    if server is not None or block.lang in _DATA_LANGS:
        return server
    definition = _first_match(_DEFINITION, text)
    if definition is not None:
        return definition
    return _source_shape(text, block.lang)


def _first_match(rules: list[tuple[str, str]], text: str) -> str | None:
    """The reason of the first rule whose pattern occurs in `text`."""
    for pattern, reason in rules:
        if re.search(pattern, text, re.M):
            return reason
    return None


def _source_shape(text: str, lang: str) -> str | None:
    """Source told by its shape rather than a keyword: imports, classes with methods."""
    for line in text.split("\n"):
        if _IMPORT.match(line) and not _CLIENT_IMPORT.match(line):
            return "import statement"
    lines = text.split("\n")
    # a class with only fields is a schema; one with methods is implementation
    has_methods = any(_METHOD_IN_CLASS.match(ln) for ln in lines) or (
        lang in ("java", "kotlin", "cs", "csharp", "c#") and "(" in text
    )
    if has_methods and any(_CLASS.match(ln) for ln in lines):
        return "class with methods"
    return None


def find_code_leaks(markdown_text: str) -> list[str]:
    """One message per fenced or indented code block that is implementation source."""
    messages: list[str] = []
    for block in parse_blocks(markdown_text):
        reason = leak_reason(block)
        if reason is None:
            continue
        what = f"{block.lang} code block" if block.lang else "code block"
        messages.append(
            f"line {block.line}: {what} looks like implementation source ({reason}); "
            "remove it: a requirement document must not give the solution away"
        )
    return messages
