"""Targeted black-box probes for softdesk-support, one per faulty variant (../NN-*.patch).

Everything used here is in README.md: user creation body (username, password, age,
can_be_contacted, can_data_be_shared), POST /api/token/ -> "access", Bearer header, the project /
issue / comment example bodies, the contributor add body {"user": <username>} and remove body
{"username": <username>}, the project detail fields "contributors" (usernames) and the comment
detail field "author_username".
Left open by the README and accepted here: any 2xx for a create / delete, any 4xx for a refused
action, a list answered as a JSON array or as a DRF page ({"results": [...]}), id formats, the
order of list items, extra fields. A project id is read from "id" or, as in the README's example
response, from the trailing number of "url".
"""
import os
import re
import uuid

import requests

BASE = os.environ.get("SERVICE_BASE_URL", "http://127.0.0.1:9205").rstrip("/")
API = BASE + "/api"
PWD = "Probe-pass-7741x"


def uid():
    return uuid.uuid4().hex[:10]


def new_user():
    name = "u" + uid()
    r = requests.post(API + "/users/", json={
        "username": name, "password": PWD, "age": 30,
        "can_be_contacted": False, "can_data_be_shared": False})
    assert 200 <= r.status_code < 300, r.text
    user_id = r.json().get("id")
    r = requests.post(API + "/token/", json={"username": name, "password": PWD})
    assert r.status_code == 200, r.text
    return {"name": name, "id": user_id,
            "h": {"Authorization": "Bearer " + r.json()["access"]}}


def items(body):
    if isinstance(body, dict) and "results" in body:
        return body["results"]
    assert isinstance(body, list), body
    return body


def create_project(user, name=None):
    name = name or "Project " + uid()
    r = requests.post(API + "/projects/", json={
        "name": name, "description": "Example description", "type": "frontend"},
        headers=user["h"])
    assert 200 <= r.status_code < 300, r.text
    body = r.json()
    pid = body.get("id")
    if pid is None:
        pid = int(re.search(r"/projects/(\d+)/?$", body["url"]).group(1))
    return pid, name


def project_url(pid):
    return "%s/projects/%s/" % (API, pid)


def add_contributor(owner, pid, user):
    r = requests.post(project_url(pid) + "contributors/", json={"user": user["name"]},
                      headers=owner["h"])
    assert 200 <= r.status_code < 300, r.text


def create_issue(user, pid, title=None):
    title = title or "Issue " + uid()
    r = requests.post(project_url(pid) + "issues/", json={
        "title": title, "description": "Description Example", "status": "to_do",
        "priority": "high", "tag": "bug"}, headers=user["h"])
    return title, r


def issue_id(user, pid, title):
    r = requests.get(project_url(pid) + "issues/", headers=user["h"])
    assert r.status_code == 200, r.text
    for it in items(r.json()):
        if it.get("title") == title:
            return it["id"]
    raise AssertionError("issue %r not listed" % title)


def create_comment(user, pid, iid, text=None):
    text = text or "This is a comment " + uid()
    r = requests.post(project_url(pid) + "issues/%s/comments/" % iid,
                      json={"description": text}, headers=user["h"])
    assert 200 <= r.status_code < 300, r.text
    return r.json()["id"], text


def project_with_issue(owner):
    pid, _ = create_project(owner)
    title, r = create_issue(owner, pid)
    assert 200 <= r.status_code < 300, r.text
    return pid, issue_id(owner, pid, title), title


def test_01_contributors_listed_per_project():
    a, b = new_user(), new_user()
    p1, _ = create_project(a)
    p2, _ = create_project(a)
    add_contributor(a, p1, b)
    r = requests.get(project_url(p2) + "contributors/", headers=a["h"])
    assert r.status_code == 200, r.text
    assert b["name"] not in r.text
    assert len(items(r.json())) == 1  # only the author contributes to p2


def test_02_contributor_removal_persists():
    a, b = new_user(), new_user()
    pid, _ = create_project(a)
    add_contributor(a, pid, b)
    detail = requests.get(project_url(pid), headers=a["h"]).json()
    assert b["name"] in detail["contributors"]
    r = requests.delete(project_url(pid) + "contributors/", json={"username": b["name"]},
                        headers=a["h"])
    assert 200 <= r.status_code < 300, r.text
    detail = requests.get(project_url(pid), headers=a["h"]).json()
    assert b["name"] not in detail["contributors"]
    assert a["name"] in detail["contributors"]


def test_03_project_details_hidden_from_strangers():
    a, c = new_user(), new_user()
    pid, name = create_project(a)
    r = requests.get(project_url(pid), headers=c["h"])
    assert 400 <= r.status_code < 500
    assert "Example description" not in r.text


def test_04_non_contributor_cannot_create_issue():
    a, c = new_user(), new_user()
    pid, _ = create_project(a)
    title, r = create_issue(c, pid)
    assert 400 <= r.status_code < 500
    listed = requests.get(project_url(pid) + "issues/", headers=a["h"])
    assert listed.status_code == 200
    assert title not in listed.text


def test_05_only_issue_author_modifies_issue():
    a, b = new_user(), new_user()
    pid, iid, title = project_with_issue(a)
    add_contributor(a, pid, b)
    r = requests.patch(project_url(pid) + "issues/%s/" % iid, json={"title": "Hijacked " + uid()},
                       headers=b["h"])
    assert 400 <= r.status_code < 500
    got = requests.get(project_url(pid) + "issues/%s/" % iid, headers=a["h"])
    assert got.status_code == 200
    assert got.json()["title"] == title


def test_06_issues_listed_per_project():
    a = new_user()
    p1, _ = create_project(a)
    p2, _ = create_project(a)
    t1, r = create_issue(a, p1)
    assert 200 <= r.status_code < 300
    t2, r = create_issue(a, p2)
    assert 200 <= r.status_code < 300
    r = requests.get(project_url(p2) + "issues/", headers=a["h"])
    assert r.status_code == 200
    listed = items(r.json())
    assert len(listed) == 1
    assert t1 not in r.text and t2 in r.text


def test_07_comments_listed_per_issue():
    a = new_user()
    pid, i1, _ = project_with_issue(a)
    t2, r = create_issue(a, pid)
    assert 200 <= r.status_code < 300
    i2 = issue_id(a, pid, t2)
    _, text1 = create_comment(a, pid, i1)
    _, text2 = create_comment(a, pid, i2)
    r = requests.get(project_url(pid) + "issues/%s/comments/" % i2, headers=a["h"])
    assert r.status_code == 200
    assert len(items(r.json())) == 1
    assert text1 not in r.text and text2 in r.text


def test_08_only_comment_author_deletes_comment():
    a, b = new_user(), new_user()
    pid, iid, _ = project_with_issue(a)
    add_contributor(a, pid, b)
    cid, text = create_comment(b, pid, iid)
    url = project_url(pid) + "issues/%s/comments/%s/" % (iid, cid)
    r = requests.delete(url, headers=a["h"])
    assert 400 <= r.status_code < 500
    got = requests.get(url, headers=b["h"])
    assert got.status_code == 200
    assert got.json()["description"] == text


def test_09_comment_detail_shows_comment_author():
    a, b = new_user(), new_user()
    pid, iid, _ = project_with_issue(a)
    add_contributor(a, pid, b)
    cid, text = create_comment(b, pid, iid)
    r = requests.get(project_url(pid) + "issues/%s/comments/%s/" % (iid, cid), headers=a["h"])
    assert r.status_code == 200
    body = r.json()
    assert body["description"] == text
    assert body["author_username"] == b["name"]
    assert body.get("created_time")


def test_10_deleting_account_cascades_to_projects():
    a, b = new_user(), new_user()
    pid, _ = create_project(a)
    add_contributor(a, pid, b)
    # The project detail is not used to observe the project: the README says "you won't have
    # access to the details of projects that are not authored by you", so a contributor may be
    # refused it. A contributor may use the project's issues ("Only the author or contributors
    # of a project can create and manage issues"), as long as the project exists.
    r = requests.get(project_url(pid) + "issues/", headers=b["h"])
    assert r.status_code == 200, r.text
    r = requests.delete("%s/users/%s/" % (API, a["id"]), headers=a["h"])
    assert 200 <= r.status_code < 300, r.text
    r = requests.get(project_url(pid) + "issues/", headers=b["h"])
    assert 400 <= r.status_code < 500, r.text  # the project is gone (README names no status)
