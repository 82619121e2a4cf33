"""Targeted black-box probes, one per faulty variant in ../NN-*.patch (see ../FAULTS.md).

The README names paths, methods and the `api-token` request header, and says the token is
"generated while creating new user or while logging in". It names no body fields, no status
codes and no response shapes. Assumptions, the least any client needs:
- bodies use upstream's field names: users `fullname`, `email`, `password`; sites `domain`
  (the README names none; see FAULTS.md);
- paths are sent exactly as the README writes them (no trailing slash); redirects are followed;
- success is any 2xx, a rejection any 4xx; the token is whichever string value in the create /
  login answer works as `api-token`; a user's id is whichever integer in its representation
  works in `users/<int:user_id>`; users are recognised by their email, sites by their domain.
Base URL: SERVICE_BASE_URL, default http://127.0.0.1:9204.
"""
import os
import uuid

import requests

BASE = os.environ.get("SERVICE_BASE_URL", "http://127.0.0.1:9204").rstrip("/")
API = BASE + "/api/v1"
PWD = "Pr0be-pass!"


def _uid():
    return uuid.uuid4().hex[:10]


def _strings(obj):
    if isinstance(obj, str):
        yield obj
    elif isinstance(obj, dict):
        for v in obj.values():
            yield from _strings(v)
    elif isinstance(obj, list):
        for v in obj:
            yield from _strings(v)


def hdr(token):
    return {"api-token": token}


def me(token):
    return requests.get(f"{API}/users/me", headers=hdr(token), timeout=10)


def _token_from(resp, email):
    """The string in the answer that works as api-token and identifies `email` at users/me."""
    try:
        data = resp.json()
    except ValueError:
        return None
    for s in _strings(data):
        if len(s) < 8:
            continue
        r = me(s)
        if 200 <= r.status_code < 300 and email in r.text:
            return s
    return None


def create_user(name=None):
    email = f"probe-{_uid()}@example.com"
    body = {"fullname": name or "Probe Person", "email": email, "password": PWD}
    r = requests.post(f"{API}/users", json=body, timeout=10)
    assert 200 <= r.status_code < 300, (r.status_code, r.text)
    return email, r


def login(email, password=PWD):
    return requests.post(f"{API}/users/login", json={"email": email, "password": password}, timeout=10)


def user_with_token(name=None):
    email, _ = create_user(name)
    r = login(email)
    assert 200 <= r.status_code < 300, (r.status_code, r.text)
    token = _token_from(r, email)
    assert token, ("login answer carries no working api-token", r.text)
    return email, token


def list_users(token):
    r = requests.get(f"{API}/users", headers=hdr(token), timeout=10)
    assert r.status_code == 200, (r.status_code, r.text)
    data = r.json()
    assert isinstance(data, list), data
    return data


def emails_of(items):
    return {u.get("email") for u in items if isinstance(u, dict)}


def create_site(token, domain=None):
    domain = domain or f"probe-{_uid()}.example.com"
    r = requests.post(f"{API}/sites", json={"domain": domain}, headers=hdr(token), timeout=10)
    assert 200 <= r.status_code < 300, (r.status_code, r.text)
    return domain, r.json()


def site_id_of(token, site, domain):
    """The integer in the site's representation that addresses it at sites/<int:site_id>."""
    for v in site.values():
        if isinstance(v, int) and not isinstance(v, bool):
            r = requests.get(f"{API}/sites/{v}", headers=hdr(token), timeout=10)
            if r.status_code == 200 and r.json().get("domain") == domain:
                return v
    raise AssertionError(("no id in the site representation addresses it", site))


def test_01_create_user_returns_working_token():
    # README: "api-token, which is generated while creating new user or while logging in"
    email, r = create_user()
    assert _token_from(r, email), ("Create User answer carries no working api-token", r.text)


def test_02_get_a_user_returns_that_user():
    # README: "3. Get A User Info - GET api/v1/users/<int:user_id>"
    email_a, token_a = user_with_token("Alice Probe")
    email_b, token_b = user_with_token("Bob Probe")
    entry_b = [u for u in list_users(token_b) if u.get("email") == email_b]
    assert entry_b, "user B missing from Get All users"
    ids = [v for v in entry_b[0].values() if isinstance(v, int) and not isinstance(v, bool)]
    assert ids, entry_b
    # user A asks for user B by id: B's info comes back, not A's
    found = False
    for i in ids:
        r = requests.get(f"{API}/users/{i}", headers=hdr(token_a), timeout=10)
        if r.status_code == 200 and r.json().get("email") == email_b:
            found = True
    assert found, ("GET users/<B's id> with A's token did not return B", ids)


def test_03_get_all_users_lists_everyone():
    # README: "4. Get All users - GET api/v1/users"
    email_a, token_a = user_with_token()
    email_b, token_b = user_with_token()
    emails = emails_of(list_users(token_a))
    assert email_a in emails and email_b in emails, emails


def test_04_get_me_is_the_token_owner():
    # README: "5. Get My Info - GET api/v1/users/me" (the user the api-token belongs to)
    user_with_token()  # someone else exists too
    email_b, token_b = user_with_token()
    r = me(token_b)
    assert r.status_code == 200, (r.status_code, r.text)
    assert r.json().get("email") == email_b, r.text


def test_05_edit_me_is_saved():
    # README: "6. Edit My Info - PUT api/v1/users/me"
    # The README names no user field, so the edit changes the one the probes already rely on
    # (the email) and checks only that the new value shows up, under any key, in a later
    # "Get My Info" -- not that a particular name field exists or comes back.
    email, token = user_with_token("Old Name")
    new_email = f"probe-{_uid()}@example.com"
    r = requests.put(f"{API}/users/me", json={"fullname": "New Name", "email": new_email, "password": PWD},
                     headers=hdr(token), timeout=10)
    assert 200 <= r.status_code < 300, (r.status_code, r.text)
    r = me(token)
    assert r.status_code == 200, (r.status_code, r.text)
    values = set(_strings(r.json()))
    assert new_email in values, r.text
    assert email not in values, r.text


def test_06_delete_my_account_removes_it():
    # README: "7. DELETE My Account - DELETE api/v1/users/me"
    email_a, token_a = user_with_token()
    email_b, token_b = user_with_token()
    r = requests.delete(f"{API}/users/me", headers=hdr(token_b), timeout=10)
    assert 200 <= r.status_code < 300, (r.status_code, r.text)
    assert email_b not in emails_of(list_users(token_a))


def test_07_sites_need_api_token():
    # README: "In request header, we need api-token" (Site Model endpoints)
    email, token = user_with_token()
    create_site(token)
    r = requests.get(f"{API}/sites", timeout=10)
    assert 400 <= r.status_code < 500, (r.status_code, r.text)


def test_08_get_a_site_returns_that_site():
    # README: "3. Get A site - GET api/v1/sites/<int:site_id>"
    email, token = user_with_token()
    d1, s1 = create_site(token)
    d2, s2 = create_site(token)
    site_id_of(token, s1, d1)
    site_id_of(token, s2, d2)


def test_09_update_site_is_saved():
    # README: "4. Update A site - PUT api/v1/sites/<int:site_id>"
    email, token = user_with_token()
    d1, s1 = create_site(token)
    sid = site_id_of(token, s1, d1)
    new_domain = f"renamed-{_uid()}.example.com"
    r = requests.put(f"{API}/sites/{sid}", json={"domain": new_domain}, headers=hdr(token), timeout=10)
    assert 200 <= r.status_code < 300, (r.status_code, r.text)
    r = requests.get(f"{API}/sites/{sid}", headers=hdr(token), timeout=10)
    assert r.status_code == 200, (r.status_code, r.text)
    assert r.json().get("domain") == new_domain, r.text


def test_10_delete_site_removes_it():
    # README: "5. Delete A site - DELETE api/v1/sites/<int:site_id>"
    email, token = user_with_token()
    d1, s1 = create_site(token)
    sid = site_id_of(token, s1, d1)
    r = requests.delete(f"{API}/sites/{sid}", headers=hdr(token), timeout=10)
    assert 200 <= r.status_code < 300, (r.status_code, r.text)
    r = requests.get(f"{API}/sites", headers=hdr(token), timeout=10)
    assert r.status_code == 200, (r.status_code, r.text)
    assert d1 not in {s.get("domain") for s in r.json()}, r.text
    r = requests.get(f"{API}/sites/{sid}", headers=hdr(token), timeout=10)
    assert not (200 <= r.status_code < 300 and r.json().get("domain") == d1), r.text
