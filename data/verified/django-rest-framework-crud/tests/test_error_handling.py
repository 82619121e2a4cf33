"""Black-box tests generated offline from the requirement document."""

import json  # noqa: F401
import re  # noqa: F401
import uuid  # noqa: F401

import pytest  # noqa: F401
import requests  # noqa: F401


def test_get_movies_without_token_is_refused(base_url, session, unique, auth_headers):
    payload = {"title": unique("Ant Man and The Wasp"), "genre": "Action", "year": 2018}
    response = session.post(f"{base_url}/api/v1/movies/", json=payload, headers=auth_headers)
    assert 200 <= response.status_code < 300, response.text
    movy = response.json()
    movy_id = movy["id"]
    try:
        response = session.get(f"{base_url}/api/v1/movies/")
        assert response.status_code in (401, 403), response.text
        assert payload["title"] not in response.text
        assert ascii(payload["title"])[1:-1] not in response.text
    finally:
        session.delete(f"{base_url}/api/v1/movies/{movy_id}/", headers=auth_headers)


def test_get_movy_without_token_is_refused(base_url, session, unique, auth_headers):
    payload = {"title": unique("Ant Man and The Wasp"), "genre": "Action", "year": 2018}
    response = session.post(f"{base_url}/api/v1/movies/", json=payload, headers=auth_headers)
    assert 200 <= response.status_code < 300, response.text
    movy = response.json()
    movy_id = movy["id"]
    try:
        response = session.get(f"{base_url}/api/v1/movies/{movy_id}/")
        assert response.status_code in (401, 403), response.text
        assert payload["title"] not in response.text
        assert ascii(payload["title"])[1:-1] not in response.text
    finally:
        session.delete(f"{base_url}/api/v1/movies/{movy_id}/", headers=auth_headers)


def test_login_with_a_wrong_password_is_refused(base_url, session, unique):
    credentials = {
        "email": unique("example@email.com"),
        "username": unique("PERSON123"),
        "password": "PASS@123",
        "password2": "PASS@123",
        "first_name": unique("first"),
        "last_name": unique("last"),
    }
    registered = session.post(f"{base_url}/api/v1/auth/register/", json=credentials)
    assert 200 <= registered.status_code < 300, registered.text
    assert credentials["password"] not in registered.text, registered.text
    login = session.post(f"{base_url}/api/v1/auth/token/", json={"username": credentials["username"], "password": credentials["password"]})
    assert 200 <= login.status_code < 300, login.text
    token = login.json()["access"]
    assert isinstance(token, str) and token
    headers = {"Authorization": f"Bearer {token}"}
    refused = session.post(f"{base_url}/api/v1/auth/token/", json={"username": credentials["username"], "password": credentials["password"] + "-wrong"})
    assert 400 <= refused.status_code < 500, refused.text
    assert "access" not in refused.text


def test_patch_movies_item_without_token(base_url, session, unique, auth_headers):
    """Called without credentials, it is refused and changes nothing."""
    created = session.post(f"{base_url}/api/v1/movies/", json={'title': unique('Ant Man and The Wasp'), 'genre': 'Action', 'year': 2018}, headers=auth_headers)
    assert created.status_code in (200, 201), created.text
    record = created.json()
    if isinstance(record, dict) and isinstance(record.get("data"), dict):
        record = record["data"]
    movie_id = next(record[k] for k in ('movie_id', 'id') if k in record)
    response = session.patch(f"{base_url}/api/v1/movies/{movie_id}/", json={'title': unique('AntMan and The Wasp')})
    assert response.status_code in (400, 401, 403), response.text
    read = session.get(f"{base_url}/api/v1/movies/{movie_id}/", headers=auth_headers)
    assert read.status_code == 200, read.text
    assert isinstance(record, dict) and isinstance(read.json(), dict), read.text
    assert read.json()['title'] == record['title']


def test_post_auth_register_malformed_json(base_url, session, unique):
    """A body that is not JSON is rejected with a 4xx; the same call with the documented body is accepted, and the token its account gets opens a protected endpoint."""
    response = session.post(f"{base_url}/api/v1/auth/register/", data='{not json', headers={"Content-Type": "application/json"})
    assert 400 <= response.status_code < 500, response.text
    refused = session.get(f"{base_url}/api/v1/movies/")
    assert refused.status_code in (400, 401, 403), refused.text
    # the same call with a valid body is accepted: the account's token opens it
    account = {'email': unique('example@email.com'), 'username': unique('PERSON123'), 'password': 'PASS@123', 'password2': 'PASS@123', 'first_name': unique('first'), 'last_name': unique('last')}
    registered = session.post(f"{base_url}/api/v1/auth/register/", json=account)
    assert registered.status_code in (200, 201), registered.text
    credentials = {k: account[k] for k in ['username', 'password']}
    logged_in = session.post(f"{base_url}/api/v1/auth/token/", json=credentials)
    assert logged_in.status_code in (200, 201), logged_in.text
    token = logged_in.json()['access']
    allowed = session.get(f"{base_url}/api/v1/movies/", headers={"Authorization": f"Bearer {token}"})
    assert allowed.status_code == 200, allowed.text


def test_post_auth_token_malformed_json(base_url, session, unique):
    """A body that is not JSON is rejected with a 4xx; the same call with the documented body is accepted, and the token its account gets opens a protected endpoint."""
    response = session.post(f"{base_url}/api/v1/auth/token/", data='{not json', headers={"Content-Type": "application/json"})
    assert 400 <= response.status_code < 500, response.text
    refused = session.get(f"{base_url}/api/v1/movies/")
    assert refused.status_code in (400, 401, 403), refused.text
    # the same call with a valid body is accepted: the account's token opens it
    account = {'email': unique('example@email.com'), 'username': unique('PERSON123'), 'password': 'PASS@123', 'password2': 'PASS@123', 'first_name': unique('first'), 'last_name': unique('last')}
    registered = session.post(f"{base_url}/api/v1/auth/register/", json=account)
    assert registered.status_code in (200, 201), registered.text
    credentials = {k: account[k] for k in ['username', 'password']}
    logged_in = session.post(f"{base_url}/api/v1/auth/token/", json=credentials)
    assert logged_in.status_code in (200, 201), logged_in.text
    token = logged_in.json()['access']
    allowed = session.get(f"{base_url}/api/v1/movies/", headers={"Authorization": f"Bearer {token}"})
    assert allowed.status_code == 200, allowed.text


def test_post_auth_token_refresh_malformed_json(base_url, session, unique):
    """A body that is not JSON is rejected with a 4xx; the same call with the documented body is accepted, and the token its account gets opens a protected endpoint."""
    response = session.post(f"{base_url}/api/v1/auth/token/refresh/", data='{not json', headers={"Content-Type": "application/json"})
    assert 400 <= response.status_code < 500, response.text
    refused = session.get(f"{base_url}/api/v1/movies/")
    assert refused.status_code in (400, 401, 403), refused.text
    # the same call with a valid body is accepted: the account's token opens it
    account = {'email': unique('example@email.com'), 'username': unique('PERSON123'), 'password': 'PASS@123', 'password2': 'PASS@123', 'first_name': unique('first'), 'last_name': unique('last')}
    registered = session.post(f"{base_url}/api/v1/auth/register/", json=account)
    assert registered.status_code in (200, 201), registered.text
    credentials = {k: account[k] for k in ['username', 'password']}
    logged_in = session.post(f"{base_url}/api/v1/auth/token/", json=credentials)
    assert logged_in.status_code in (200, 201), logged_in.text
    token = logged_in.json()['access']
    refreshed = session.post(f"{base_url}/api/v1/auth/token/refresh/", json={'refresh': logged_in.json()['refresh']})
    assert refreshed.status_code in (200, 201), refreshed.text
    token = refreshed.json()['access']
    allowed = session.get(f"{base_url}/api/v1/movies/", headers={"Authorization": f"Bearer {token}"})
    assert allowed.status_code == 200, allowed.text


def test_post_movies_without_token(base_url, session, unique, auth_headers):
    """Called without credentials, it is refused and changes nothing."""
    listed_before = session.get(f"{base_url}/api/v1/movies/", headers=auth_headers)
    assert listed_before.status_code == 200, listed_before.text
    response = session.post(f"{base_url}/api/v1/movies/", json={'title': unique('Ant Man and The Wasp'), 'genre': 'Action', 'year': 2018})
    assert response.status_code in (400, 401, 403), response.text
    listed_after = session.get(f"{base_url}/api/v1/movies/", headers=auth_headers)
    assert listed_after.json() == listed_before.json()
    control = session.post(f"{base_url}/api/v1/movies/", json={'title': unique('Ant Man and The Wasp'), 'genre': 'Action', 'year': 2018}, headers=auth_headers)
    assert control.status_code in (200, 201), control.text


def test_put_movies_item_without_token(base_url, session, unique, auth_headers):
    """Called without credentials, it is refused and changes nothing."""
    created = session.post(f"{base_url}/api/v1/movies/", json={'title': unique('Ant Man and The Wasp'), 'genre': 'Action', 'year': 2018}, headers=auth_headers)
    assert created.status_code in (200, 201), created.text
    record = created.json()
    if isinstance(record, dict) and isinstance(record.get("data"), dict):
        record = record["data"]
    movie_id = next(record[k] for k in ('movie_id', 'id') if k in record)
    response = session.put(f"{base_url}/api/v1/movies/{movie_id}/", json={'title': unique('AntMan and The Wasp'), 'genre': 'Action', 'year': 2018})
    assert response.status_code in (400, 401, 403), response.text
    read = session.get(f"{base_url}/api/v1/movies/{movie_id}/", headers=auth_headers)
    assert read.status_code == 200, read.text
    assert isinstance(record, dict) and isinstance(read.json(), dict), read.text
    assert read.json()['title'] == record['title']
    assert read.json()['genre'] == record['genre']
    assert read.json()['year'] == record['year']
