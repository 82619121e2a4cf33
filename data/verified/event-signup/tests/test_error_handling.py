"""Black-box tests generated offline from the requirement document."""

import json  # noqa: F401
import re  # noqa: F401
import uuid  # noqa: F401

import pytest  # noqa: F401
import requests  # noqa: F401


def test_create_event_with_empty_body_returns_422(base_url, session):
    count_before = session.get(f"{base_url}/api/v2/events")
    assert count_before.status_code == 200, count_before.text
    response = session.post(f"{base_url}/api/v2/events", json={})
    assert response.status_code == 422, response.text
    assert {"type", "title", "status", "detail"} <= set(response.json())
    assert response.json()["status"] == 422
    count_after = session.get(f"{base_url}/api/v2/events")
    assert count_after.json()["total"] == count_before.json()["total"]


def test_create_event_with_text_capacity_returns_422(base_url, session, unique):
    count_before = session.get(f"{base_url}/api/v2/events")
    assert count_before.status_code == 200, count_before.text
    payload = {
        "title": unique("Intro to bookbinding"),
        "location": "Room 2",
        "starts_at": "2030-09-14T16:00:00Z",
        "capacity": 12,
    }
    payload["capacity"] = "not-a-number"
    response = session.post(f"{base_url}/api/v2/events", json=payload)
    assert response.status_code == 422, response.text
    assert {"type", "title", "status", "detail"} <= set(response.json())
    assert response.json()["status"] == 422
    count_after = session.get(f"{base_url}/api/v2/events")
    assert count_after.json()["total"] == count_before.json()["total"]


def test_create_event_without_location_returns_422(base_url, session, unique):
    sent = {
        "title": unique("Intro to bookbinding"),
        "location": "Room 2",
        "starts_at": "2030-09-14T16:00:00Z",
        "capacity": 12,
    }
    del sent["location"]
    count_before = session.get(f"{base_url}/api/v2/events")
    assert count_before.status_code == 200, count_before.text
    response = session.post(f"{base_url}/api/v2/events", json=sent)
    assert response.status_code == 422, response.text
    assert {"type", "title", "status", "detail"} <= set(response.json())
    assert response.json()["status"] == 422
    count_after = session.get(f"{base_url}/api/v2/events")
    assert count_after.json()["total"] == count_before.json()["total"]


def test_create_event_without_starts_at_returns_422(base_url, session, unique):
    sent = {
        "title": unique("Intro to bookbinding"),
        "location": "Room 2",
        "starts_at": "2030-09-14T16:00:00Z",
        "capacity": 12,
    }
    del sent["starts_at"]
    count_before = session.get(f"{base_url}/api/v2/events")
    assert count_before.status_code == 200, count_before.text
    response = session.post(f"{base_url}/api/v2/events", json=sent)
    assert response.status_code == 422, response.text
    assert {"type", "title", "status", "detail"} <= set(response.json())
    assert response.json()["status"] == 422
    count_after = session.get(f"{base_url}/api/v2/events")
    assert count_after.json()["total"] == count_before.json()["total"]


def test_create_event_without_title_returns_422(base_url, session, unique):
    sent = {
        "title": unique("Intro to bookbinding"),
        "location": "Room 2",
        "starts_at": "2030-09-14T16:00:00Z",
        "capacity": 12,
    }
    del sent["title"]
    count_before = session.get(f"{base_url}/api/v2/events")
    assert count_before.status_code == 200, count_before.text
    response = session.post(f"{base_url}/api/v2/events", json=sent)
    assert response.status_code == 422, response.text
    assert {"type", "title", "status", "detail"} <= set(response.json())
    assert response.json()["status"] == 422
    count_after = session.get(f"{base_url}/api/v2/events")
    assert count_after.json()["total"] == count_before.json()["total"]


def test_create_registration_twice_returns_409(base_url, session, unique):
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
        count_before = session.get(f"{base_url}/api/v2/events/{event_id}/registrations")
        assert count_before.status_code == 200, count_before.text
        again = session.post(f"{base_url}/api/v2/events/{event_id}/registrations", json=payload)
        assert again.status_code == 409, again.text
        assert {"type", "title", "status", "detail"} <= set(again.json())
        assert again.json()["status"] == 409
        count_after = session.get(f"{base_url}/api/v2/events/{event_id}/registrations")
        assert len(count_after.json()) == len(count_before.json())
    finally:
        session.delete(f"{base_url}/api/v2/events/{event_id}")


def test_create_registration_with_empty_body_returns_422(base_url, session, unique):
    event_payload = {
        "title": unique("Intro to bookbinding"),
        "location": "Room 2",
        "starts_at": "2030-09-14T16:00:00Z",
        "capacity": 12,
    }
    parent = session.post(f"{base_url}/api/v2/events", json=event_payload)
    assert parent.status_code == 201, parent.text
    event = parent.json()
    event_id = event["id"]
    try:
        count_before = session.get(f"{base_url}/api/v2/events/{event_id}/registrations")
        assert count_before.status_code == 200, count_before.text
        response = session.post(f"{base_url}/api/v2/events/{event_id}/registrations", json={})
        assert response.status_code == 422, response.text
        assert {"type", "title", "status", "detail"} <= set(response.json())
        assert response.json()["status"] == 422
        count_after = session.get(f"{base_url}/api/v2/events/{event_id}/registrations")
        assert len(count_after.json()) == len(count_before.json())
    finally:
        session.delete(f"{base_url}/api/v2/events/{event_id}")


def test_delete_event_unknown_id_returns_404(base_url, session):
    count_before = session.get(f"{base_url}/api/v2/events")
    assert count_before.status_code == 200, count_before.text
    unknown_event_id = 999999999
    response = session.delete(f"{base_url}/api/v2/events/{unknown_event_id}")
    assert response.status_code == 404, response.text
    assert {"type", "title", "status", "detail"} <= set(response.json())
    assert response.json()["status"] == 404
    count_after = session.get(f"{base_url}/api/v2/events")
    assert count_after.json()["total"] == count_before.json()["total"]


def test_delete_registration_unknown_id_returns_404(base_url, session):
    unknown_event_id = 999999999
    unknown_registration_id = 999999999
    response = session.delete(f"{base_url}/api/v2/events/{unknown_event_id}/registrations/{unknown_registration_id}")
    assert response.status_code == 404, response.text
    assert {"type", "title", "status", "detail"} <= set(response.json())
    assert response.json()["status"] == 404


def test_post_event_registrations_beyond_capacity_returns_409(base_url, session, unique):
    payload = {
        "title": unique("Intro to bookbinding"),
        "location": "Room 2",
        "starts_at": "2030-09-14T16:00:00Z",
        "capacity": 12,
    }
    payload["capacity"] = 2
    response = session.post(f"{base_url}/api/v2/events", json=payload)
    assert response.status_code == 201, response.text
    event = response.json()
    event_id = event["id"]
    try:
        signup_1 = {"name": unique("Jun Park"), "email": unique("Jun@Example.org")}
        joined_1 = session.post(f"{base_url}/api/v2/events/{event_id}/registrations", json=signup_1)
        assert 200 <= joined_1.status_code < 300, joined_1.text
        signup_2 = {"name": unique("Jun Park"), "email": unique("Jun@Example.org")}
        joined_2 = session.post(f"{base_url}/api/v2/events/{event_id}/registrations", json=signup_2)
        assert 200 <= joined_2.status_code < 300, joined_2.text
        signup_3 = {"name": unique("Jun Park"), "email": unique("Jun@Example.org")}
        refused = session.post(f"{base_url}/api/v2/events/{event_id}/registrations", json=signup_3)
        assert refused.status_code == 409, refused.text
        assert {"type", "title", "status", "detail"} <= set(refused.json())
        assert refused.json()["status"] == 409
    finally:
        session.delete(f"{base_url}/api/v2/events/{event_id}")


def test_post_event_registrations_unknown_id_returns_404(base_url, session, unique):
    count_before = session.get(f"{base_url}/api/v2/events")
    assert count_before.status_code == 200, count_before.text
    unknown_event_id = 999999999
    payload = {"name": unique("Jun Park"), "email": unique("Jun@Example.org")}
    response = session.post(f"{base_url}/api/v2/events/{unknown_event_id}/registrations", json=payload)
    assert response.status_code == 404, response.text
    assert {"type", "title", "status", "detail"} <= set(response.json())
    assert response.json()["status"] == 404
    count_after = session.get(f"{base_url}/api/v2/events")
    assert count_after.json()["total"] == count_before.json()["total"]
