import base64
import datetime
import json

import pytest



# --- port shim (replaces ihatemoney.tests.common.ihatemoney_testcase.IhatemoneyTestCase);
# the `client` fixture is defined in conftest.py ---
@pytest.mark.usefixtures("client")
class IhatemoneyTestCase:
    def assertStatus(self, expected, resp, url=None):
        if url is None:
            url = resp.request.path
        assert (
            expected == resp.status_code
        ), f"{url} expected {expected}, got {resp.status_code}"
# --- end of port shim ---


class TestAPI(IhatemoneyTestCase):
    """Tests the API"""

    def api_create(
        self, name, id=None, password=None, contact=None, default_currency=None
    ):
        id = id or name
        password = password or name
        contact = contact or f"{name}@notmyidea.org"

        data = {
            "name": name,
            "id": id,
            "password": password,
            "contact_email": contact,
        }
        if default_currency:
            data["default_currency"] = default_currency

        return self.client.post(
            "/api/projects",
            data=data,
        )

    def api_add_member(self, project, name, weight=1):
        self.client.post(
            f"/api/projects/{project}/members",
            data={"name": name, "weight": weight},
            headers=self.get_basic_auth(project),
        )

    def get_basic_auth(self, username, password=None):
        password = password or username
        base64string = (
            base64.encodebytes(f"{username}:{password}".encode("utf-8"))  # noqa: E231
            .decode("utf-8")
            .replace("\n", "")
        )
        return {"Authorization": f"Basic {base64string}"}

    def get_bearer_auth(self, token):
        return {"Authorization": f"Bearer {token}"}

    def test_cors_requests(self):
        # Create a project and test that CORS headers are present if requested.
        resp = self.api_create("raclette")
        self.assertStatus(201, resp)

        # Try to do an OPTIONS requests and see if the headers are correct.
        resp = self.client.options(
            "/api/projects/raclette", headers=self.get_basic_auth("raclette")
        )
        assert resp.headers["Access-Control-Allow-Origin"] == "*"

    def test_basic_auth(self):
        # create a project
        resp = self.api_create("raclette")
        self.assertStatus(201, resp)

        # try to do something on it being unauth should return a 401
        resp = self.client.get("/api/projects/raclette")
        self.assertStatus(401, resp)

        # PUT / POST / DELETE / GET on the different resources
        # should also return a 401
        for verb in ("post",):
            for resource in ("/raclette/members", "/raclette/bills"):
                url = "/api/projects" + resource
                self.assertStatus(401, getattr(self.client, verb)(url), verb + resource)

        for verb in ("get", "delete", "put"):
            for resource in ("/raclette", "/raclette/members/1", "/raclette/bills/1"):
                url = "/api/projects" + resource

                self.assertStatus(401, getattr(self.client, verb)(url), verb + resource)

    def test_project(self):
        # wrong email should return an error
        resp = self.client.post(
            "/api/projects",
            data={
                "name": "raclette",
                "id": "raclette",
                "password": "raclette",
                "contact_email": "not-an-email",
                "default_currency": "XXX",
            },
        )

        assert 400 == resp.status_code
        assert '{"contact_email": ["Invalid email address."]}\n' == resp.data.decode(
            "utf-8"
        )

        # create it
        resp = self.api_create("raclette")
        assert 201 == resp.status_code

        # create it twice should return a 400
        resp = self.api_create("raclette")

        assert 400 == resp.status_code
        assert "id" in json.loads(resp.data.decode("utf-8"))

        # get information about it
        resp = self.client.get(
            "/api/projects/raclette", headers=self.get_basic_auth("raclette")
        )

        assert 200 == resp.status_code
        expected = {
            "members": [],
            "name": "raclette",
            "contact_email": "raclette@notmyidea.org",
            "default_currency": "XXX",
            "id": "raclette",
            "logging_preference": 1,
        }
        decoded_resp = json.loads(resp.data.decode("utf-8"))
        assert decoded_resp == expected

        # edit should fail if we don't provide the current private code
        resp = self.client.put(
            "/api/projects/raclette",
            data={
                "contact_email": "yeah@notmyidea.org",
                "default_currency": "XXX",
                "password": "raclette",
                "name": "The raclette party",
                "project_history": "y",
            },
            headers=self.get_basic_auth("raclette"),
        )
        assert 400 == resp.status_code

        # edit should fail if we provide the wrong private code
        resp = self.client.put(
            "/api/projects/raclette",
            data={
                "contact_email": "yeah@notmyidea.org",
                "default_currency": "XXX",
                "current_password": "fromage aux patates",
                "password": "raclette",
                "name": "The raclette party",
                "project_history": "y",
            },
            headers=self.get_basic_auth("raclette"),
        )
        assert 400 == resp.status_code

        # edit with the correct private code should work
        resp = self.client.put(
            "/api/projects/raclette",
            data={
                "contact_email": "yeah@notmyidea.org",
                "default_currency": "XXX",
                "current_password": "raclette",
                "password": "raclette",
                "name": "The raclette party",
                "project_history": "y",
            },
            headers=self.get_basic_auth("raclette"),
        )
        assert 200 == resp.status_code

        resp = self.client.get(
            "/api/projects/raclette", headers=self.get_basic_auth("raclette")
        )

        assert 200 == resp.status_code
        expected = {
            "name": "The raclette party",
            "contact_email": "yeah@notmyidea.org",
            "default_currency": "XXX",
            "members": [],
            "id": "raclette",
            "logging_preference": 1,
        }
        decoded_resp = json.loads(resp.data.decode("utf-8"))
        assert decoded_resp == expected

        # password change is possible via API
        resp = self.client.put(
            "/api/projects/raclette",
            data={
                "contact_email": "yeah@notmyidea.org",
                "default_currency": "XXX",
                "current_password": "raclette",
                "password": "tartiflette",
                "name": "The raclette party",
            },
            headers=self.get_basic_auth("raclette"),
        )

        assert 200 == resp.status_code

        resp = self.client.get(
            "/api/projects/raclette", headers=self.get_basic_auth("raclette", "tartiflette")
        )
        assert 200 == resp.status_code

        # delete should work
        resp = self.client.delete(
            "/api/projects/raclette", headers=self.get_basic_auth("raclette", "tartiflette")
        )

        # get should return a 401 on an unknown resource
        resp = self.client.get(
            "/api/projects/raclette", headers=self.get_basic_auth("raclette")
        )
        assert 401 == resp.status_code

    def test_token_creation(self):
        """Test that token of project is generated"""

        # Create project
        resp = self.api_create("raclette")
        assert 201 == resp.status_code

        # Get token
        resp = self.client.get(
            "/api/projects/raclette/token", headers=self.get_basic_auth("raclette")
        )

        assert 200 == resp.status_code

        decoded_resp = json.loads(resp.data.decode("utf-8"))

        # Access with token
        resp = self.client.get(
            "/api/projects/raclette/token",
            headers={"Authorization": f"Basic {decoded_resp['token']}"},
        )
        assert 200 == resp.status_code

        # We shouldn't be able to edit project without private code
        resp = self.client.put(
            "/api/projects/raclette",
            data={
                "contact_email": "yeah@notmyidea.org",
                "default_currency": "XXX",
                "password": "tartiflette",
                "name": "The raclette party",
            },
            headers={"Authorization": f"Basic {decoded_resp['token']}"},
        )
        assert 400 == resp.status_code
        expected_resp = {"current_password": ["This field is required."]}
        assert expected_resp == json.loads(resp.data.decode("utf-8"))

    def test_token_login(self):
        resp = self.api_create("raclette")
        # Get token
        resp = self.client.get(
            "/api/projects/raclette/token", headers=self.get_basic_auth("raclette")
        )
        decoded_resp = json.loads(resp.data.decode("utf-8"))
        resp = self.client.get(f"/raclette/join/{decoded_resp['token']}")
        # Test that we are redirected.
        assert 302 == resp.status_code

    def test_token_bearer(self):
        resp = self.api_create("raclette")
        # Get token
        resp = self.client.get(
            "/api/projects/raclette/token", headers=self.get_basic_auth("raclette")
        )
        token = json.loads(resp.data.decode("utf-8"))['token']

        resp = self.client.get(
            "/api/projects/raclette/bills", headers=self.get_bearer_auth(token)
        )
        assert resp.status_code == 200

    def test_member(self):
        # create a project
        self.api_create("raclette")

        # get the list of participants (should be empty)
        req = self.client.get(
            "/api/projects/raclette/members", headers=self.get_basic_auth("raclette")
        )

        self.assertStatus(200, req)
        assert "[]\n" == req.data.decode("utf-8")

        # add a member
        req = self.client.post(
            "/api/projects/raclette/members",
            data={"name": "Zorglub"},
            headers=self.get_basic_auth("raclette"),
        )

        # the id of the new member should be returned
        self.assertStatus(201, req)
        assert "1\n" == req.data.decode("utf-8")

        # the list of participants should contain one member
        req = self.client.get(
            "/api/projects/raclette/members", headers=self.get_basic_auth("raclette")
        )

        self.assertStatus(200, req)
        assert len(json.loads(req.data.decode("utf-8"))) == 1

        # Try to add another member with the same name.
        req = self.client.post(
            "/api/projects/raclette/members",
            data={"name": "Zorglub"},
            headers=self.get_basic_auth("raclette"),
        )
        self.assertStatus(400, req)

        # edit the participant
        req = self.client.put(
            "/api/projects/raclette/members/1",
            data={"name": "Jeanne", "weight": 2},
            headers=self.get_basic_auth("raclette"),
        )

        self.assertStatus(200, req)

        # get should return the new name
        req = self.client.get(
            "/api/projects/raclette/members/1", headers=self.get_basic_auth("raclette")
        )

        self.assertStatus(200, req)
        assert "Jeanne" == json.loads(req.data.decode("utf-8"))["name"]
        assert 2 == json.loads(req.data.decode("utf-8"))["weight"]

        # edit this member with same information
        # (test PUT idempotence)
        req = self.client.put(
            "/api/projects/raclette/members/1",
            data={"name": "Jeanne"},
            headers=self.get_basic_auth("raclette"),
        )

        self.assertStatus(200, req)

        # de-activate the participant
        req = self.client.put(
            "/api/projects/raclette/members/1",
            data={"name": "Jeanne", "activated": False},
            headers=self.get_basic_auth("raclette"),
        )
        self.assertStatus(200, req)

        req = self.client.get(
            "/api/projects/raclette/members/1", headers=self.get_basic_auth("raclette")
        )
        self.assertStatus(200, req)
        assert not json.loads(req.data.decode("utf-8"))["activated"]

        # re-activate the participant
        req = self.client.put(
            "/api/projects/raclette/members/1",
            data={"name": "Jeanne", "activated": True},
            headers=self.get_basic_auth("raclette"),
        )

        req = self.client.get(
            "/api/projects/raclette/members/1", headers=self.get_basic_auth("raclette")
        )
        self.assertStatus(200, req)
        assert json.loads(req.data.decode("utf-8"))["activated"]

        # delete a member

        req = self.client.delete(
            "/api/projects/raclette/members/1", headers=self.get_basic_auth("raclette")
        )

        self.assertStatus(200, req)

        # the list of participants should be empty
        req = self.client.get(
            "/api/projects/raclette/members", headers=self.get_basic_auth("raclette")
        )

        self.assertStatus(200, req)
        assert "[]\n" == req.data.decode("utf-8")

    def test_project_creation_with_mixed_case(self):
        self.api_create("Raclette")
        # get information about it
        resp = self.client.get(
            "/api/projects/Raclette", headers=self.get_basic_auth("Raclette")
        )
        self.assertStatus(200, resp)

    def test_amount_too_high(self):
        self.api_create("raclette")
        # add participants
        self.api_add_member("raclette", "zorglub")

        # add a bill with too high amount
        # See https://github.com/python-babel/babel/issues/821
        req = self.client.post(
            "/api/projects/raclette/bills",
            data={
                "date": "2011-08-10",
                "what": "fromage",
                "payer": "1",
                "payed_for": ["1"],
                "bill_type": "Expense",
                "amount": "9347242149381274732472348728748723473278472843.12",
            },
            headers=self.get_basic_auth("raclette"),
        )
        self.assertStatus(400, req)
