"""Targeted black-box probes, one per faulty variant in ../NN-*.patch (see ../FAULTS.md).

Each probe asserts only what README.md (the repository README plus the appended docs/api.md)
states. Where the document leaves a choice open, every choice is accepted: the success status
of a write (the document gives none), the JSON wording of errors, the order of members and bills,
extra fields, and the exact 4xx of a refused request (the document only says one "needs to be
authenticated"). Requests are form-encoded, as in the document's curl examples. Every probe
works in its own freshly created project (random identifier).
"""
import uuid

import requests

TIMEOUT = 10


def _uid():
    return uuid.uuid4().hex[:10]


def create_project(base_url, pid=None, name=None, password=None):
    pid = pid or f"probe{_uid()}"
    password = password or "secret-" + pid
    data = {"name": name or pid, "id": pid, "password": password,
            "contact_email": f"{pid.lower()}@example.com"}
    r = requests.post(f"{base_url}/api/projects", data=data, timeout=TIMEOUT)
    assert 200 <= r.status_code < 300, (r.status_code, r.text)
    return r, pid, password


def add_member(base_url, pid, password, name):
    r = requests.post(f"{base_url}/api/projects/{pid}/members", data={"name": name},
                      auth=(pid, password), timeout=TIMEOUT)
    assert 200 <= r.status_code < 300, (r.status_code, r.text)
    return r.json()


def add_bill(base_url, pid, password, what, payer, payed_for, amount, **extra):
    data = {"what": what, "payer": payer, "payed_for": list(payed_for), "amount": amount}
    data.update(extra)
    r = requests.post(f"{base_url}/api/projects/{pid}/bills", data=data,
                      auth=(pid, password), timeout=TIMEOUT)
    assert 200 <= r.status_code < 300, (r.status_code, r.text)
    return r.json()


def get(base_url, path, auth):
    r = requests.get(f"{base_url}{path}", auth=auth, timeout=TIMEOUT)
    assert r.status_code == 200, (path, r.status_code, r.text)
    return r.json()


def test_01_project_id_normalized_to_lowercase(base_url):
    # README: "the API returns the identifier of the project. It might be different from what
    # you requested, because the ID is normalized (remove special characters, change to
    # lowercase, etc)."
    requested = f"MiXeD{_uid()}"
    r, _, password = create_project(base_url, pid=requested)
    returned = r.json()
    assert returned == requested.lower(), returned
    project = get(base_url, f"/api/projects/{returned}", auth=(returned, password))
    assert project["id"] == requested.lower()


def test_02_create_returns_the_identifier(base_url):
    # README: "As you can see, the API returns the identifier of the project."
    pid = f"probe{_uid()}"
    r, _, _ = create_project(base_url, pid=pid, name="A Name Unlike The Id")
    assert r.json() == pid


def test_03_wrong_private_code_is_refused(base_url):
    # README: "for any action other than creating a new project, you need to be authenticated.
    # The simplest way to authenticate is to use "basic" HTTP authentication with the project
    # ID and private code."
    _, pid, password = create_project(base_url)
    ok = requests.get(f"{base_url}/api/projects/{pid}", auth=(pid, password), timeout=TIMEOUT)
    assert ok.status_code == 200
    bad = requests.get(f"{base_url}/api/projects/{pid}", auth=(pid, password + "-wrong"),
                       timeout=TIMEOUT)
    assert not (200 <= bad.status_code < 300), (bad.status_code, bad.text)
    assert pid not in bad.text or "contact_email" not in bad.text


def test_04_bearer_token_authenticates(base_url):
    # README: "It is also possible to generate a token, and then use it later to authenticate
    # instead of basic auth." / "curl --header "Authorization: Bearer PROJECT_TOKEN" ..."
    _, pid, password = create_project(base_url)
    token = get(base_url, f"/api/projects/{pid}/token", auth=(pid, password))["token"]
    r = requests.get(f"{base_url}/api/projects/{pid}",
                     headers={"Authorization": f"Bearer {token}"}, timeout=TIMEOUT)
    assert r.status_code == 200, (r.status_code, r.text)
    assert r.json()["id"] == pid


def test_05_update_needs_the_current_private_code(base_url):
    # README: "You need to give the current private code as the `current_password` field. This
    # is a security measure to ensure that knowledge of an auth token is not enough to update
    # settings."
    _, pid, password = create_project(base_url, name="original name")
    data = {"name": "hijacked", "id": pid, "current_password": "not-the-code",
            "password": password, "contact_email": f"{pid}@example.com"}
    r = requests.put(f"{base_url}/api/projects/{pid}", data=data, auth=(pid, password),
                     timeout=TIMEOUT)
    assert not (200 <= r.status_code < 300), (r.status_code, r.text)
    project = get(base_url, f"/api/projects/{pid}", auth=(pid, password))
    assert project["name"] == "original name"
    # and with the right code the same update goes through
    data["current_password"] = password
    r = requests.put(f"{base_url}/api/projects/{pid}", data=data, auth=(pid, password),
                     timeout=TIMEOUT)
    assert 200 <= r.status_code < 300, (r.status_code, r.text)
    assert get(base_url, f"/api/projects/{pid}", auth=(pid, password))["name"] == "hijacked"


def test_06_member_put_changes_the_name(base_url):
    # README: "You can also `PUT` a new version of a member (changing its name)"
    #         -> {"activated": true, "id": 36, "name": "yeaaaaah", "weight": 1}
    _, pid, password = create_project(base_url)
    mid = add_member(base_url, pid, password, "tatayoyo")
    r = requests.put(f"{base_url}/api/projects/{pid}/members/{mid}", data={"name": "yeaaaaah"},
                     auth=(pid, password), timeout=TIMEOUT)
    assert 200 <= r.status_code < 300, (r.status_code, r.text)
    assert r.json()["name"] == "yeaaaaah"
    members = get(base_url, f"/api/projects/{pid}/members", auth=(pid, password))
    names = {m["id"]: m["name"] for m in members}
    assert names[mid] == "yeaaaaah"


def test_07_deleted_member_is_gone(base_url):
    # README: "Delete a member with a `DELETE` request on `/api/projects/<id>/members/<member-id>`"
    _, pid, password = create_project(base_url)
    keep = add_member(base_url, pid, password, "keeper")
    gone = add_member(base_url, pid, password, "leaver")
    r = requests.delete(f"{base_url}/api/projects/{pid}/members/{gone}", auth=(pid, password),
                        timeout=TIMEOUT)
    assert 200 <= r.status_code < 300, (r.status_code, r.text)
    members = get(base_url, f"/api/projects/{pid}/members", auth=(pid, password))
    active = [m["id"] for m in members if m.get("activated", True)]
    assert keep in active
    assert gone not in active, members


def test_08_bill_keeps_every_ower(base_url):
    # README: "`payed_for`: for who ? (id). To set multiple id, simply pass the parameter
    # multiple times (x-www-form-urlencoded)"
    _, pid, password = create_project(base_url)
    a = add_member(base_url, pid, password, "alexis")
    b = add_member(base_url, pid, password, "jeanne")
    c = add_member(base_url, pid, password, "olivier")
    bid = add_bill(base_url, pid, password, "raclette", a, [a, b, c], 30)
    bill = get(base_url, f"/api/projects/{pid}/bills/{bid}", auth=(pid, password))
    assert sorted(o["id"] for o in bill["owers"]) == sorted([a, b, c])
    assert bill["payer_id"] == a


def test_09_bill_put_changes_the_amount(base_url):
    # README: "You can also `PUT` a new version of the bill at `/api/projects/<id>/bills/<bill-id>`"
    _, pid, password = create_project(base_url)
    a = add_member(base_url, pid, password, "alexis")
    b = add_member(base_url, pid, password, "jeanne")
    bid = add_bill(base_url, pid, password, "raclette", a, [a, b], 200, date="2011-09-10")
    data = {"date": "2011-09-10", "what": "raclette", "payer": a, "payed_for": [a, b],
            "amount": 250}
    r = requests.put(f"{base_url}/api/projects/{pid}/bills/{bid}", data=data,
                     auth=(pid, password), timeout=TIMEOUT)
    assert 200 <= r.status_code < 300, (r.status_code, r.text)
    bill = get(base_url, f"/api/projects/{pid}/bills/{bid}", auth=(pid, password))
    assert float(bill["amount"]) == 250.0
    assert bill["date"] == "2011-09-10"


def test_10_statistics_balance_is_paid_minus_share(base_url):
    # README (Statistics): alexis paid 25.5, spent 15, balance 10.5; jeanne paid 5, spent 15.5,
    # balance -10.5 -- the balance is what a member paid minus their share of the bills.
    _, pid, password = create_project(base_url)
    a = add_member(base_url, pid, password, "alexis")
    b = add_member(base_url, pid, password, "jeanne")
    add_bill(base_url, pid, password, "raclette", a, [a, b], 20)
    stats = get(base_url, f"/api/projects/{pid}/statistics", auth=(pid, password))
    by_id = {s["member"]["id"]: s for s in stats}
    assert abs(float(by_id[a]["paid"]) - 20.0) < 1e-6
    assert abs(float(by_id[b]["paid"]) - 0.0) < 1e-6
    assert abs(float(by_id[a]["balance"]) - 10.0) < 1e-6
    assert abs(float(by_id[b]["balance"]) - (-10.0)) < 1e-6
