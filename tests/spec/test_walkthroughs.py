"""Documents that show endpoints by example: an API Blueprint reference whose resource
sections name instances (`## Category [/users/1/categories/1]` with `### Update [POST]`), and
a curl walkthrough that names records by word (`/api/projects/demo`) beside a prose mention
or two; one name per path parameter across the routes of one record."""

from __future__ import annotations

import textwrap

from pipeline.offline.gen_model import build_model
from pipeline.spec import extract_spec

BLUEPRINT = textwrap.dedent("""\
    # Recipes

    | | Endpoint | Description |
    |---|---|---|
    | | **GET** /users/`{id}`/categories | List categories |
    | | **POST** /users/`{id}`/categories | Create a category |
    | | **GET** /users/`{user_id}`/categories/`{category_id}` | Get a category |
    | | **POST** /users/`{user_id}`/categories/`{category_id}` | Update a category |
    | | **POST** /users | Sign up a user |

    FORMAT: 1A

    ## Users [/users]

    ### Sign up users [POST]

    + Request (application/json)

        + Body

                {"username": "ann", "password": "secret12"}

    ## Users 1 Categories [/users/1/categories]

    ### Create a new category [POST]

    + Request (application/json)

        + Body

                {"title": "Kenyan"}

    ## Users 1 Categories 1 [/users/1/categories/1]

    ### Update category by id [POST]
    This will update a category by its id.

    + Request (application/json)
        + Attributes (Update category by idRequest)

        + Body

                {"title": "Tanzanian"}

    + Response 200 (application/json)
        + Attributes (Update category by idResponse)

        + Body

                {"id": 1, "user_id": 1, "title": "Tanzanian"}
    """)

WALKTHROUGH = textwrap.dedent("""\
    # Shared budgets

    To add a member, send a POST request on `/api/projects/<id>/members`.

    Read a project:

        $ curl --basic -u demo:demo https://budget.example.org/api/projects/demo

    Create one:

        $ curl -X POST https://budget.example.org/api/projects -d 'name=yay&id=yay&password=yay'

    Change it:

        $ curl --basic -u yay:yay -X PUT https://budget.example.org/api/projects/yay -d 'name=new'

    Delete it:

        $ curl --basic -u demo:demo -X DELETE https://budget.example.org/api/projects/demo

    List its members:

        $ curl --basic -u demo:demo https://budget.example.org/api/projects/demo/members
    """)


def test_a_blueprint_section_on_an_instance_documents_the_template() -> None:
    spec = extract_spec(BLUEPRINT)
    eps = {(e.method, e.path): e for e in spec.endpoints}
    name = {e.path.split("/")[2] for e in spec.endpoints if e.path.count("/") > 2}
    assert len(name) == 1  # `{id}` and `{user_id}` at one place: one name
    update = eps[("POST", f"/users/{name.pop()}/categories/{{category_id}}")]
    assert update.request_example == {"title": "Tanzanian"}  # the request's body
    assert update.response_examples[200] == {"id": 1, "user_id": 1, "title": "Tanzanian"}


def test_a_post_that_updates_and_a_collection_under_the_account() -> None:
    model = build_model(extract_spec(BLUEPRINT))
    (res,) = model.resources
    assert res.update is not None and res.update.method == "POST"
    assert res.account_param in ("id", "user_id")  # `/users` makes accounts: the signed-in user
    assert res.creatable


def test_a_curl_walkthrough_names_its_records_by_word() -> None:
    spec = extract_spec(WALKTHROUGH)
    keys = {(e.method, e.path) for e in spec.endpoints}
    assert keys == {("GET", "/api/projects/{project_id}"), ("POST", "/api/projects"),
                    ("PUT", "/api/projects/{project_id}"),
                    ("DELETE", "/api/projects/{project_id}"),
                    ("GET", "/api/projects/{project_id}/members"),
                    ("POST", "/api/projects/{project_id}/members")}
