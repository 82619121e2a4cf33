"""Mutation operators on small snippets: each operator's mutant, determinism, no no-ops."""

from __future__ import annotations

import ast

from pipeline.mutation import oracle_mutants
from pipeline.mutation.java import java_mutants, mask_java
from pipeline.mutation.operators import mutate_status, python_mutants

SNIPPET = '''"""Module docstring."""
import os


@app.post("/items", status_code=201)
def view(x, items: "list[str]") -> dict:
    """Function docstring."""
    if x == 1 and not items:
        return {"ok": True}, 201
    total = x + 5
    abort(404)
    return f"name {total}"


def respond(response):
    response.status_code = 409
    raise ApiError(404, "not_found")


if __name__ == "__main__":
    app.run(port=int(os.environ.get("PORT", "8000")))
'''


def _has(mutants, description: str, fragment: str) -> bool:
    return any(m.description == description and fragment in m.source for m in mutants)


def test_each_python_operator_produces_the_expected_mutant():
    mutants = python_mutants("app.py", SNIPPET)
    expected = {
        "`==` -> `!=`": "if (x != 1) and not items:",
        "`and` -> `or`": "if (x == 1 or not items):",
        "`not` removed before `items`": "if x == 1 and (items):",
        "`True` -> `False`": 'return {"ok": False}, 201',
        "status 201 -> 200": 'return {"ok": True}, 200',
        "5 -> 6": "total = x + 6",
        "5 -> 4": "total = x + 4",
        "status 404 -> 400": "abort(400)",
        "statement `total = x + 5` removed": "    pass\n    abort(404)",
        "statement `abort(404)` removed": "total = x + 5\n    pass",
        "status 409 -> 400": "response.status_code = 400",
        "string 'not_found' emptied": 'raise ApiError(404, "")',
        "`return f\"name {total}\"` -> `return None`": "    return None\n",
        "`return {\"ok\": True}, 201` -> `return {}`": "        return {}\n",
        "f-string f\"name {total}\" emptied": 'return ""',
    }
    for description, fragment in expected.items():
        assert _has(mutants, description, fragment), (description, fragment)
    # the decorator's status code is mutated, its route string is not
    assert _has(mutants, "status 201 -> 200", '@app.post("/items", status_code=200)')
    assert not any('@app.post("",' in m.source for m in mutants)


def test_python_mutants_leave_docstrings_annotations_and_main_guard_alone():
    for m in python_mutants("app.py", SNIPPET):
        assert '"""Module docstring."""' in m.source
        assert '"""Function docstring."""' in m.source
        assert 'items: "list[str]"' in m.source
        assert 'if __name__ == "__main__":\n    app.run(port=int(os.environ.get("PORT", "8000")))' \
            in m.source
        assert m.line < 20


def test_python_mutants_are_valid_distinct_and_deterministic():
    first = python_mutants("app.py", SNIPPET)
    second = python_mutants("app.py", SNIPPET)
    assert first == second
    assert len({m.id for m in first}) == len(first)
    assert len({m.source for m in first}) == len(first)
    original = ast.dump(ast.parse(SNIPPET))
    for m in first:
        assert m.source != SNIPPET
        assert ast.dump(ast.parse(m.source)) != original
        assert m.file == "app.py" and m.id.startswith(f"app.py:{m.line}:{m.operator}:")
    lines = [m.line for m in first]
    assert lines == sorted(lines)
    assert {m.operator for m in first} == {"comparison", "boolean", "constant", "status_code",
                                          "statement", "return"}


def test_status_code_swaps():
    assert mutate_status(404) == 400
    assert mutate_status(201) == 200
    assert mutate_status(409) == 400
    assert mutate_status(200) == 201
    assert mutate_status(418) == 400
    assert mutate_status(300) == 301


def test_comparisons_flip_every_operator_of_a_chain():
    mutants = python_mutants("m.py", "def f(y):\n    return 1 <= y < 10 and y in S\n")
    descs = {m.description for m in mutants}
    assert {"`<=` -> `>`", "`<` -> `>=`", "`in` -> `not in`"} <= descs
    chain = [m for m in mutants if m.description == "`<` -> `>=`"][0]
    assert "1 <= y >= 10" in chain.source


def test_non_ascii_lines_splice_at_the_right_place():
    src = 'def f(a):\n    msg = "héllo"; return a == 2\n'
    flipped = [m for m in python_mutants("m.py", src) if m.operator == "comparison"][0]
    assert flipped.source == 'def f(a):\n    msg = "héllo"; return (a != 2)\n'


def test_unparseable_file_has_no_mutants():
    assert python_mutants("bad.py", "def f(:\n") == []


JAVA = '''package demo;

import java.util.Map;

/** Says == and 404 in a comment: never mutated. */
final class Demo {
    public static void main(String[] args) {
        server.start(true);
    }

    Reply get(Map<String, Object> query, int n) {
        String s = "x == 200 && true"; // 404 != here
        if (n < 0 || !query.isEmpty()) {
            body.put("count", n);
            return new Reply(404, body);
        }
        boolean ok = n == 3 && true;
        return new Reply(200, body);
    }
}
'''


def test_java_mask_blanks_comments_and_strings_only():
    masked = mask_java(JAVA)
    assert len(masked) == len(JAVA) and masked.count("\n") == JAVA.count("\n")
    assert "404 != here" not in masked and "x == 200" not in masked
    assert "new Reply(404, body)" in masked


def test_each_java_operator_produces_the_expected_mutant():
    mutants = java_mutants("src/Demo.java", JAVA)
    expected = {
        "status 404 -> 400": "return new Reply(400, body);",
        "status 200 -> 201": "return new Reply(201, body);",
        "`<` -> `>=`": "if (n >= 0 ||",
        "`||` -> `&&`": "if (n < 0 && !query",
        "`!` removed": "|| query.isEmpty())",
        "`==` -> `!=`": "boolean ok = n != 3",
        "`&&` -> `||`": "n == 3 || true",
        "`true` -> `false`": "n == 3 && false",
    }
    for description, fragment in expected.items():
        assert _has(mutants, description, fragment), (description, fragment)
    removed = [m for m in mutants if m.operator == "field_dropped"]  # body.put("count", n)
    assert len(removed) == 1 and '            ;\n' in removed[0].source
    for m in mutants:
        assert m.source != JAVA
        assert '"x == 200 && true"; // 404 != here' in m.source  # strings/comments untouched
        assert "Map<String, Object>" in m.source  # generics untouched
        assert "server.start(true);" in m.source  # main() untouched
    assert java_mutants("src/Demo.java", JAVA) == mutants


def test_oracle_mutants_orders_files_and_picks_the_language():
    files = {"b.py": "def f():\n    return 1\n", "a.py": "X = 2\n"}
    mutants = oracle_mutants(files, "python")
    assert [m.file for m in mutants] == sorted(m.file for m in mutants)
    assert mutants[0].file == "a.py"
    assert oracle_mutants({"A.java": JAVA}, "java")[0].file == "A.java"
