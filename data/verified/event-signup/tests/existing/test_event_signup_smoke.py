import uuid


def test_create_event_normalises_time(api, http, make_event):
    event = make_event(capacity=3)
    assert event["starts_at"] == "2031-05-01T16:00:00Z"
    assert event["registered"] == 0 and event["seats_left"] == 3
    fetched = http.get(f"{api}/events/{event['id']}", timeout=10)
    assert fetched.status_code == 200 and fetched.json() == event

def test_registration_capacity_and_duplicates(api, http, make_event):
    event = make_event(capacity=1)
    url = f"{api}/events/{event['id']}/registrations"
    first = http.post(url, json={"name": "Ana", "email": "Ana@Example.org"}, timeout=10)
    assert first.status_code == 201 and first.json()["email"] == "ana@example.org"
    dup = http.post(url, json={"name": "Ana", "email": "ana@example.org"}, timeout=10)
    assert dup.status_code == 409
    assert dup.headers["Content-Type"].startswith("application/problem+json")
    full = http.post(url, json={"name": "Bo", "email": "bo@example.org"}, timeout=10)
    assert full.status_code == 409 and full.json()["title"] == "Conflict"
    reg_id = first.json()["id"]
    assert http.delete(f"{url}/{reg_id}", timeout=10).status_code == 204
    assert http.get(f"{api}/events/{event['id']}", timeout=10).json()["seats_left"] == 1
    assert http.delete(f"{url}/{reg_id}", timeout=10).status_code == 404

def test_validation_and_missing_event(api, http):
    naive = http.post(f"{api}/events", json={"title": "x", "location": "y",
                                             "starts_at": "2031-01-01T10:00:00", "capacity": 5},
                      timeout=10)
    assert naive.status_code == 422 and naive.json()["status"] == 422
    missing = http.get(f"{api}/events/987654321", timeout=10)
    assert missing.status_code == 404 and missing.json()["title"] == "Not Found"
    listing = http.get(f"{api}/events/987654321/registrations", timeout=10)
    assert listing.status_code == 404
