"""Black-box tests generated offline from the requirement document."""

import json  # noqa: F401
import re  # noqa: F401
import uuid  # noqa: F401

import pytest  # noqa: F401
import requests  # noqa: F401


def test_delete_event_twice_returns_404(base_url, session, unique):
    payload = {
        "title": unique("Intro to bookbinding"),
        "location": "Room 2",
        "starts_at": "2030-09-14T16:00:00Z",
        "capacity": 12,
    }
    response = session.post(f"{base_url}/api/v2/events", json=payload)
    assert response.status_code == 201, response.text
    event = response.json()
    event_id = event["id"]
    try:
        first = session.delete(f"{base_url}/api/v2/events/{event_id}")
        assert first.status_code == 204, first.text
        second = session.delete(f"{base_url}/api/v2/events/{event_id}")
        assert second.status_code == 404, second.text
        assert {"type", "title", "status", "detail"} <= set(second.json())
        assert second.json()["status"] == 404
    finally:
        session.delete(f"{base_url}/api/v2/events/{event_id}")


def test_delete_registration_twice_returns_404(base_url, session, unique):
    event_payload = {
        "title": unique("Intro to bookbinding"),
        "location": "Room 2",
        "starts_at": "2030-09-14T16:00:00Z",
        "capacity": 12,
    }
    event_response = session.post(f"{base_url}/api/v2/events", json=event_payload)
    assert event_response.status_code == 201, event_response.text
    event = event_response.json()
    event_id = event["id"]
    try:
        payload = {"name": unique("Jun Park"), "email": unique("Jun@Example.org")}
        response = session.post(f"{base_url}/api/v2/events/{event_id}/registrations", json=payload)
        assert response.status_code == 201, response.text
        registration = response.json()
        registration_id = registration["id"]
        first = session.delete(f"{base_url}/api/v2/events/{event_id}/registrations/{registration_id}")
        assert first.status_code == 204, first.text
        second = session.delete(f"{base_url}/api/v2/events/{event_id}/registrations/{registration_id}")
        assert second.status_code == 404, second.text
        assert {"type", "title", "status", "detail"} <= set(second.json())
        assert second.json()["status"] == 404
    finally:
        session.delete(f"{base_url}/api/v2/events/{event_id}")


def test_get_event_registrations_unknown_id_returns_404(base_url, session):
    unknown_event_id = 999999999
    response = session.get(f"{base_url}/api/v2/events/{unknown_event_id}/registrations", allow_redirects=False)
    assert response.status_code == 404, response.text
    assert {"type", "title", "status", "detail"} <= set(response.json())
    assert response.json()["status"] == 404


def test_get_event_unknown_id_returns_404(base_url, session, unique):
    payload = {
        "title": unique("Intro to bookbinding"),
        "location": "Room 2",
        "starts_at": "2030-09-14T16:00:00Z",
        "capacity": 12,
    }
    response = session.post(f"{base_url}/api/v2/events", json=payload)
    assert response.status_code == 201, response.text
    event = response.json()
    event_id = event["id"]
    try:
        known = session.get(f"{base_url}/api/v2/events/{event_id}")
        assert known.status_code == 200, known.text
        assert known.json()["id"] == event_id
        unknown_event_id = 999999999
        response = session.get(f"{base_url}/api/v2/events/{unknown_event_id}", allow_redirects=False)
        assert response.status_code == 404, response.text
        assert {"type", "title", "status", "detail"} <= set(response.json())
        assert response.json()["status"] == 404
    finally:
        session.delete(f"{base_url}/api/v2/events/{event_id}")


def test_list_events_default_size_is_10(base_url, session, unique):
    created = []
    try:
        codes = []
        for _ in range(11):
            rec_payload = {
                "title": unique("Intro to bookbinding"),
                "location": "Room 2",
                "starts_at": "2030-09-14T16:00:00Z",
                "capacity": 12,
            }
            rec_created = session.post(f"{base_url}/api/v2/events", json=rec_payload)
            rec_id = rec_created.json()["id"]
            created.append(rec_id)
            codes.append(rec_created.status_code)
        assert len(codes) == 11
        assert all(200 <= code < 300 for code in codes), codes
        listed = session.get(f"{base_url}/api/v2/events", params={})
        assert listed.status_code == 200, listed.text
        listed_body = listed.json()
        assert len(listed_body["items"]) == 10
    finally:
        for record_id in created:
            session.delete(f"{base_url}/api/v2/events/{record_id}")


def test_list_events_page_past_end_returns_no_records(base_url, session):
    response = session.get(f"{base_url}/api/v2/events", params={"page": 100000})
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["items"] == []


def test_list_events_pages_split_created_events(base_url, session, unique):
    created = []
    try:
        marker = unique("Intro to bookbinding")
        rec0_payload = {
            "title": unique("Intro to bookbinding"),
            "location": "Room 2",
            "starts_at": "2030-09-14T16:00:00Z",
            "capacity": 12,
        }
        rec0_payload["title"] = f"{marker} {len(created)}"
        rec0_created = session.post(f"{base_url}/api/v2/events", json=rec0_payload)
        assert rec0_created.status_code == 201, rec0_created.text
        rec0_id = rec0_created.json()["id"]
        created.append(rec0_id)
        rec1_payload = {
            "title": unique("Intro to bookbinding"),
            "location": "Room 2",
            "starts_at": "2030-09-14T16:00:00Z",
            "capacity": 12,
        }
        rec1_payload["title"] = f"{marker} {len(created)}"
        rec1_created = session.post(f"{base_url}/api/v2/events", json=rec1_payload)
        assert rec1_created.status_code == 201, rec1_created.text
        rec1_id = rec1_created.json()["id"]
        created.append(rec1_id)
        rec2_payload = {
            "title": unique("Intro to bookbinding"),
            "location": "Room 2",
            "starts_at": "2030-09-14T16:00:00Z",
            "capacity": 12,
        }
        rec2_payload["title"] = f"{marker} {len(created)}"
        rec2_created = session.post(f"{base_url}/api/v2/events", json=rec2_payload)
        assert rec2_created.status_code == 201, rec2_created.text
        rec2_id = rec2_created.json()["id"]
        created.append(rec2_id)
        page_one = session.get(f"{base_url}/api/v2/events", params={"q": marker, "page": 1, "size": 2})
        assert page_one.status_code == 200, page_one.text
        page_two = session.get(f"{base_url}/api/v2/events", params={"q": marker, "page": 2, "size": 2})
        assert page_two.status_code == 200, page_two.text
        first_ids = [record["id"] for record in page_one.json()["items"]]
        second_ids = [record["id"] for record in page_two.json()["items"]]
        assert len(first_ids) == 2 and len(second_ids) == 1
        assert sorted(first_ids + second_ids) == sorted([rec0_id, rec1_id, rec2_id])
        assert page_one.json()["total"] == 3
    finally:
        for record_id in created:
            session.delete(f"{base_url}/api/v2/events/{record_id}")


def test_list_events_pages_split_new_records_without_repeats(base_url, session, unique):
    response = session.get(f"{base_url}/api/v2/events", params={"page": 1})
    assert response.status_code == 200, response.text
    size = response.json()["size"]
    assert isinstance(size, int) and 0 < size <= 100, size
    made = []
    try:
        for _ in range(size + 1):
            payload = {
                "title": unique("Intro to bookbinding"),
                "location": "Room 2",
                "starts_at": "2030-09-14T16:00:00Z",
                "capacity": 12,
            }
            created = session.post(f"{base_url}/api/v2/events", json=payload)
            assert created.status_code == 201, created.text
            made.append(created.json()["id"])
        seen = []
        response = session.get(f"{base_url}/api/v2/events", params={"page": 1})
        for number in range(1, 1 + response.json()["total_pages"]):
            response = session.get(f"{base_url}/api/v2/events", params={"page": number})
            if response.status_code == 404:
                break
            assert response.status_code == 200, response.text
            body = response.json()
            if not body["items"]:
                break
            seen += [record["id"] for record in body["items"]]
        assert len(seen) == len(set(seen)), seen
        assert set(made) <= set(seen), (made, seen)
    finally:
        for record_id in made:
            session.delete(f"{base_url}/api/v2/events/{record_id}")


def test_list_events_size_and_page_split_the_list(base_url, session, unique):
    created = []
    try:
        rec0_payload = {
            "title": unique("Intro to bookbinding"),
            "location": "Room 2",
            "starts_at": "2030-09-14T16:00:00Z",
            "capacity": 12,
        }
        rec0_created = session.post(f"{base_url}/api/v2/events", json=rec0_payload)
        assert rec0_created.status_code == 201, rec0_created.text
        rec0_id = rec0_created.json()["id"]
        created.append(rec0_id)
        rec1_payload = {
            "title": unique("Intro to bookbinding"),
            "location": "Room 2",
            "starts_at": "2030-09-14T16:00:00Z",
            "capacity": 12,
        }
        rec1_created = session.post(f"{base_url}/api/v2/events", json=rec1_payload)
        assert rec1_created.status_code == 201, rec1_created.text
        rec1_id = rec1_created.json()["id"]
        created.append(rec1_id)
        first = session.get(f"{base_url}/api/v2/events", params={"size": 1, "page": 1})
        assert first.status_code == 200, first.text
        first_body = first.json()
        second = session.get(f"{base_url}/api/v2/events", params={"size": 1, "page": 2})
        assert second.status_code == 200, second.text
        second_body = second.json()
        unpaged = session.get(f"{base_url}/api/v2/events", params={"size": 1})
        assert unpaged.status_code == 200, unpaged.text
        unpaged_body = unpaged.json()
        assert len(first_body["items"]) == 1 and len(second_body["items"]) == 1
        assert [record["id"] for record in first_body["items"]] != [record["id"] for record in second_body["items"]]
        assert [record["id"] for record in unpaged_body["items"]] == [record["id"] for record in first_body["items"]]
        assert first_body["total"] >= 2
        over = session.get(f"{base_url}/api/v2/events", params={"size": 51})
        assert over.status_code < 500, over.text
        if over.status_code < 300:
            assert len(over.json()["items"]) <= 50
        else:
            assert 400 <= over.status_code < 500, over.text
    finally:
        for record_id in created:
            session.delete(f"{base_url}/api/v2/events/{record_id}")


def test_list_events_with_size_1_returns_at_most_one(base_url, session):
    response = session.get(f"{base_url}/api/v2/events", params={"size": 1})
    assert response.status_code == 200, response.text
    body = response.json()
    assert len(body["items"]) <= 1
    assert body["size"] == 1


def test_search_events_without_match_returns_empty_list(base_url, session, unique):
    response = session.get(f"{base_url}/api/v2/events", params={"q": unique("nomatch")})
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["items"] == []
    assert body["total"] == 0
