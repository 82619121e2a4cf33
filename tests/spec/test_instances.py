"""Documents that show only example calls still document endpoints: a concrete id is a
parameter, and an install step's download is not a call of the service."""

from __future__ import annotations

from pipeline.spec import extract_spec
from pipeline.spec.paths import template_of_instance

WALKTHROUGH = """# Tasks

Install the recorder first:

```bash
curl --silent --location "https://github.com/acme/rec/releases/latest/download/rec.tar.gz" | tar xz
```

Create a task:

```bash
curl -X POST http://localhost:8000/boards/3/tasks -d '{"title": "x"}'
```

Finish it:

```bash
curl -X PATCH http://localhost:8000/boards/3/tasks/17/done
curl -X GET http://localhost:8000/boards/4/tasks/18/done
curl -X DELETE http://localhost:8000/boards/3/tasks/0b303eb3-9512-4c1f-9cf5-0f6cf47fe5c6
```
"""


def test_concrete_segments_become_named_parameters() -> None:
    assert template_of_instance("/api/projects/11/issues/25/") == \
        "/api/projects/{project_id}/issues/{issue_id}/"
    assert template_of_instance("/categories/2") == "/categories/{category_id}"
    assert template_of_instance("/7/7") == "/{id}/{id2}"
    assert template_of_instance("/v1/users/{id}/posts/9") == "/v1/users/{id}/posts/{post_id}"
    assert template_of_instance("/api/v2/stats/search") == "/api/v2/stats/search"


def test_a_curl_walkthrough_documents_templates_and_not_its_downloads() -> None:
    spec = extract_spec(WALKTHROUGH)
    got = [(e.method, e.path) for e in spec.endpoints]
    assert got == [
        ("POST", "/boards/{board_id}/tasks"),
        ("PATCH", "/boards/{board_id}/tasks/{task_id}/done"),
        ("GET", "/boards/{board_id}/tasks/{task_id}/done"),
        ("DELETE", "/boards/{board_id}/tasks/{task_id}"),
    ]
    assert all(e.path_params for e in spec.endpoints)
