"""A README that names endpoints in a table and appends its Swagger/OpenAPI document: the
document fills bodies, parameters, answers, codes and security; the prose wins; operations
only the document names are added."""

from __future__ import annotations

import textwrap

from pipeline.offline.gen_model import build_model
from pipeline.spec import extract_spec

README = textwrap.dedent("""\
    # Lists

    | Resource URL | Methods | Description |
    | --- | --- | --- |
    | /lists | POST | create a list |
    | /list/<list_id> | GET | view one list |

    ```yaml
    swagger: "2.0"
    basePath: "/"
    paths:
      "/lists":
        post:
          summary: Create
          parameters:
            - in: body
              name: title
              type: string
              required: true
              default: "Groceries"
            - in: body
              name: size
              type: integer
              minimum: 1
              default: 3
          responses:
            201:
              description: created
              schema:
                properties:
                  id:
                    type: integer
                  title:
                    type: string
          security:
            - token: []
      "/list/{list_id}":
        get:
          summary: One list
          parameters:
            - in: path
              name: list_id
              type: integer
              required: true
            - in: body
              name: list_id
              type: integer
          responses:
            200:
              description: found
            404:
              description: no such list
      "/lists/search":
        get:
          parameters:
            - in: query
              name: q
              type: string
              enum: [a, b]
          responses:
            200:
              description: matches
    ```

    ```yaml
    openapi: 3.0.0
    paths:
      /sessions:
        post:
          requestBody:
            content:
              application/x-www-form-urlencoded:
                schema:
                  $ref: "#/components/schemas/Login"
          responses:
            "200":
              description: token
    components:
      schemas:
        Login:
          type: object
          properties:
            username: {type: string, example: ada}
            password: {type: string, example: pw}
    ```
    """)


def test_the_api_document_fills_what_the_table_leaves_empty() -> None:
    spec = extract_spec(README)
    eps = {(e.method, e.path): e for e in spec.endpoints}
    create = eps[("POST", "/lists")]
    assert create.summary == "create a list"  # the prose wins
    assert create.request_example == {"title": "Groceries", "size": 3}
    assert create.request_schema is not None and create.request_schema["required"] == ["title"]
    assert {p.name: p.constraints for p in create.params}["size"] == {"minimum": 1,
                                                                        "default": 3}
    assert create.status_codes == {201: "created"} and create.auth_required is True
    assert list((create.response_schema or {})["properties"]) == ["id", "title"]
    one = eps[("GET", "/list/{list_id}")]  # `<list_id>` and `{list_id}`: one endpoint
    assert one.status_codes == {200: "found", 404: "no such list"}
    assert [p.location for p in one.params] == ["path"]  # a body on a GET is a slip
    search = eps[("GET", "/lists/search")]  # named by the document only
    assert search.params[0].constraints == {"enum": ["a", "b"]}
    login = eps[("POST", "/sessions")]  # OpenAPI 3, a form body through a $ref
    assert login.request_form and login.request_example == {"username": "ada",
                                                            "password": "pw"}


def test_a_record_read_under_the_singular_name_belongs_to_the_collection() -> None:
    model = build_model(extract_spec(README))
    lists = next(r for r in model.resources if r.collection == "/lists")
    assert lists.item == "/list/{list_id}" and lists.get is not None
